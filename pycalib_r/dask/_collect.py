"""Dask inputs as paired chunks, one-pass map-reduce, and R's checks made chunk by chunk.

Every function of :mod:`pycalib_r.dask` reads its data the same way: ``p``
(or ``x``, ``logits``) and ``y`` become a list of chunk pairs (Dask array
blocks, or DataFrame partitions), each pass maps one function over the
pairs on the workers and merges the small per-chunk answers in a tree (so
the client only ever holds merged O(bins) summaries), and R's input checks
are made inside the first pass: each chunk reports the first of R's checks
it fails, ranked in R's order, and the client raises the highest-ranked
message over all chunks (so a NaN in the last chunk is reported as R
reports it, and a NaN in ``p`` wins over a bad label in ``y`` as in R).
"""

from __future__ import annotations

import math
from typing import Callable, List, NamedTuple, Optional, Sequence

import numpy as np

from ..inputs._checks import (
    check_binary_y,
    check_prob_matrix,
)
from ..inputs import abort as _abort, class_codes as _class_codes, checked_vector as _checked_vector
from ..inputs._align import check_column_order
from ..rbase._errors import ProbcalError

_LD = np.longdouble
# Chunk answers merged per task of the reduction tree, and the most answers
# the client merges itself: with at most _FAN_IN of them, the client holds a
# fixed number of O(bins) answers whatever the number of chunks (an answer of
# the equal-frequency search is 2^16 counts, 0.5 MB).
_FAN_IN = 8
_CLIENT_MERGE = _FAN_IN

__all__ = ["Pairs", "pair_inputs", "is_matrix_input", "map_reduce", "is_dask", "Rank", "raise_first", "vector_meta"]


def is_dask(x) -> bool:
    """A Dask collection (array, DataFrame, Series), told without importing dask."""
    return type(x).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(x, "__dask_graph__")


# ---------------------------------------------------------------------------
# Merging per-chunk answers.
#
# A chunk's answer is a dict of name -> (rule, value); merging two answers
# applies the rule: "sum" (numbers or arrays, float sums carried in long
# double), "min", "max", "any", "first" (the most urgent R message: lowest
# rank), "cat" (a list, kept in chunk order).
# ---------------------------------------------------------------------------

def _merge_two(a: dict, b: dict) -> dict:
    out = dict(a)
    for key, (rule, vb) in b.items():
        if key not in out:
            out[key] = (rule, vb)
            continue
        va = out[key][1]
        if rule == "sum":
            if isinstance(va, np.ndarray) and va.dtype.kind == "f":
                va = va.astype(_LD)
            elif isinstance(va, float):
                va = _LD(va)
            out[key] = (rule, va + vb)
        elif rule == "min":
            out[key] = (rule, min(va, vb))
        elif rule == "max":
            out[key] = (rule, max(va, vb))
        elif rule == "any":
            out[key] = (rule, va or vb)
        elif rule == "first":
            out[key] = (rule, va if va[0] <= vb[0] else vb)
        elif rule == "cat":
            out[key] = (rule, va + vb)
        else:  # pragma: no cover - programming error
            raise ValueError(rule)
    return out


def _merge(*answers: dict) -> dict:
    out = answers[0]
    for other in answers[1:]:
        out = _merge_two(out, other)
    return out


def map_reduce(fn: Callable, pairs: "Pairs", *args, per_chunk: Optional[list] = None) -> dict:
    """``fn(p_chunk, y_chunk, *args)`` on every chunk pair (on the workers),
    merged in a tree of ``_FAN_IN``-way merges on the workers down to at most
    ``_CLIENT_MERGE`` answers, which the client merges (the client holds that
    many O(bins) answers, whatever the number of chunks).

    ``per_chunk``: one more argument per chunk, in chunk order, passed after
    ``args`` (a chunk's first row number); the chunks are then read one task each."""
    import dask

    if per_chunk is not None:
        shared = [dask.delayed(a) if isinstance(a, np.ndarray) and a.size > 64 else a for a in args]
        parts = [dask.delayed(fn, pure=True)(pp, yy, *shared, extra)
                 for (pp, yy), extra in zip(pairs.chunks, per_chunk)]
    elif pairs.fused is not None:
        parts = pairs.fused(fn, args)
    else:
        shared = [dask.delayed(a) if isinstance(a, np.ndarray) and a.size > 64 else a for a in args]
        parts = [dask.delayed(fn, pure=True)(pp, yy, *shared) for pp, yy in pairs.chunks]
    if not parts:
        return {}
    while len(parts) > _CLIENT_MERGE:
        parts = [dask.delayed(_merge, pure=True)(*parts[i:i + _FAN_IN])
                 for i in range(0, len(parts), _FAN_IN)]
    merged = _merge(*dask.compute(*parts))
    return {key: value for key, (rule, value) in merged.items()}


# ---------------------------------------------------------------------------
# R's checks, chunk by chunk.
# ---------------------------------------------------------------------------

class Rank:
    """Ranks of R's messages: within an argument, R's order of checks; the
    arguments in the order R checks them (p before y)."""

    P = 0
    Y = 100
    PAIR = 200
    NONE = 10 ** 9


def _ranked(fn, rank_of: Sequence[str], base: int):
    """Run a check; ``(value, None)`` or ``(None, (rank, message))``."""
    try:
        return fn(), None
    except ProbcalError as err:
        msg = str(err)
        rank = next((i for i, key in enumerate(rank_of) if key in msg), len(rank_of))
        return None, (base + rank, msg)


_VECTOR_ORDER = ("numeric vector", "missing values", "finite values", "probabilities in")
_BINARY_Y_ORDER = ("binary labels `0` and `1`.", "missing or infinite", "only binary labels")
_MATRIX_ORDER = ("numeric matrix", "at least two columns", "missing or infinite", "probabilities in",
                 "must sum to")
_CODES_ORDER = ("missing values", "integer class codes or a factor", "missing value where",
                "must start at")


def check_vector_chunk(x: np.ndarray, arg: str, probability: bool, base: int):
    """The checked float chunk of a numeric vector, or its ranked R message."""
    if x.size == 0:
        return np.zeros(0), None

    def run():
        arr, scan = _checked_vector(x, arg)
        if probability and (scan.lo < 0 or scan.hi > 1):
            _abort(f"Argument `{arg}` must contain probabilities in `[0, 1]`.")
        return arr.reshape(-1)

    return _ranked(run, _VECTOR_ORDER, base)


def check_binary_chunk(y, arg: str = "y"):
    """0/1 labels of a chunk as int64, or the ranked message (``check_binary_y``)."""
    if len(y) == 0:
        return np.zeros(0, dtype=np.int64), None
    return _ranked(lambda: check_binary_y(y, arg=arg), _BINARY_Y_ORDER, Rank.Y)


def check_matrix_chunk(p: np.ndarray, arg: str = "p"):
    if p.shape[0] == 0:
        return p.astype(np.float64), None
    return _ranked(lambda: check_prob_matrix(p, arg=arg), _MATRIX_ORDER, Rank.P)


def check_codes_chunk(y, categories: Optional[list]):
    """1-based class codes of a chunk, or the ranked message (R's
    ``check_multiclass_y`` up to the class count, which needs every chunk)."""
    if categories is not None:
        codes = np.asarray(y.cat.codes if hasattr(y, "cat") else y, dtype=np.int64)
        if codes.size and codes.min() < 0:
            return None, (Rank.Y, "Argument `y` must not contain missing values.")
        return codes + 1, None
    if len(y) == 0:
        return np.zeros(0, dtype=np.int64), None
    values = _label_values(y)
    if isinstance(values, tuple):
        return None, values
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _ranked(lambda: _class_codes(values, "y"), _CODES_ORDER, Rank.Y)


def _label_values(y):
    import pandas as pd

    if isinstance(y, pd.Series):
        if not pd.api.types.is_numeric_dtype(y.dtype) or pd.api.types.is_bool_dtype(y.dtype):
            if y.isna().any():
                return (Rank.Y, "Argument `y` must not contain missing values.")
            return (Rank.Y + 1, "Argument `y` must be a factor or a vector of integer class codes.")
        return y.to_numpy(dtype=np.float64, na_value=np.nan)
    arr = np.asarray(y)
    if arr.dtype.kind not in "iuf":
        return (Rank.Y + 1, "Argument `y` must be a factor or a vector of integer class codes.")
    return arr.reshape(-1)


def raise_first(found, extra: Optional[tuple] = None) -> None:
    """Raise the most urgent ranked message (``(rank, message)``), if any."""
    candidates = [f for f in (found, extra) if f is not None]
    if candidates:
        raise ProbcalError(min(candidates, key=lambda f: f[0])[1])


# ---------------------------------------------------------------------------
# Inputs as chunk pairs.
# ---------------------------------------------------------------------------

class Pairs(NamedTuple):
    """Aligned chunks of two inputs.

    ``chunks``: list of (delayed first-input chunk, delayed second-input
    chunk or None); ``matrix``: the first input has one column per class;
    ``k``: its columns; ``columns``: their names (DataFrame) or None;
    ``categories``: the levels of a categorical ``y`` or None; ``lengths``:
    the chunk lengths when known; ``names``: the pandas names (``data_name``).
    """

    chunks: list
    matrix: bool
    k: int
    columns: Optional[list]
    categories: Optional[list]
    lengths: Optional[List[int]]
    names: tuple
    fused: Optional[Callable] = None


def _apply(p_block, y_block, fn=None, args=()):
    return fn(p_block, y_block, *args)


def _fused(p, y, matrix: bool):
    """``make(fn, args)``: one task per chunk that reads (or slices) the chunk
    and applies ``fn`` (Dask fuses the reading into it), as delayed answers."""
    if is_array(p):
        import dask.array as da

        P = p.rechunk({1: -1}) if matrix else p

        def make(fn, args):
            out = da.blockwise(_apply, "i", P, "ij" if matrix else "i", y, "i", dtype=object,
                               concatenate=True, meta=np.empty((0,), dtype=object), fn=fn, args=args)
            return list(out.to_delayed())

        return make
    import dask.dataframe as dd

    def make(fn, args):
        out = dd.map_partitions(_apply, p, y, fn=fn, args=args, meta=(None, object),
                                align_dataframes=False, enforce_metadata=False)
        return list(out.to_delayed())

    return make


def is_array(x) -> bool:
    """A Dask array (Dask DataFrames and Series are partitioned, not chunked)."""
    import dask.array as da

    return isinstance(x, da.Array)


def _is_frame(x) -> bool:
    import dask.dataframe as dd

    return isinstance(x, dd.DataFrame)


def _is_series(x) -> bool:
    import dask.dataframe as dd

    return isinstance(x, dd.Series)


def is_matrix_input(x) -> bool:
    """A Dask DataFrame or a 2-D Dask array (one column per class)."""
    return _is_frame(x) or (is_array(x) and x.ndim == 2)


def vector_meta(x, arg: str, matrix_ok: bool, numeric_message: str) -> bool:
    """Whether ``x`` is a matrix input; refuses from the collection's dtypes
    (no data read) what R's ``is.numeric`` refuses, and a matrix of fewer
    than two columns. ``matrix_ok=False``: a matrix is reported (the caller
    refuses it), not checked."""
    import pandas as pd

    if not is_dask(x):
        raise TypeError(
            f"pycalib_r.dask expects Dask collections; `{arg}` is a {type(x).__name__}. "
            "Use the in-memory pycalib_r functions for in-memory data, or wrap it with "
            "dask.array.from_array() / dask.dataframe.from_pandas().")
    matrix = is_matrix_input(x)
    if matrix and not matrix_ok:
        return True
    dtypes = list(x.dtypes) if _is_frame(x) else [x.dtype]
    if not all(pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t) for t in dtypes):
        _abort(f"Argument `{arg}` must be a numeric matrix with one column per class."
               if matrix else numeric_message)
    if matrix:
        k = len(x.columns) if _is_frame(x) else x.shape[1]
        if k < 2:
            _abort(f"Argument `{arg}` must have at least two columns, one per class.")
        return True
    if is_array(x) and x.ndim != 1:
        _abort(numeric_message)
    return False


def _blocks(x, matrix: bool):
    """The delayed chunks of a Dask array (whole rows) or DataFrame/Series partitions."""
    if not is_array(x):
        return list(x.to_delayed()), None
    if matrix:
        x = x.rechunk({1: -1})
        blocks = list(x.to_delayed()[:, 0])
    else:
        blocks = list(x.to_delayed())
    lengths = list(x.chunks[0])
    if any(isinstance(n, float) and math.isnan(n) for n in lengths):
        lengths = None
    return blocks, lengths


def _to_array(x):
    """A partition as numpy (numeric values; pandas NA as NaN)."""
    import pandas as pd

    if isinstance(x, pd.DataFrame):
        if not all(_numeric(t) for t in x.dtypes):
            # Strings in a partition whose metadata said float (a CSV column,
            # from_delayed): never parsed, refused by R's check as in memory.
            return x.to_numpy(dtype=object)
        return x.to_numpy(dtype=np.float64, na_value=np.nan)
    if isinstance(x, pd.Series):
        if isinstance(x.dtype, np.dtype) or not _numeric(x.dtype):
            return x.to_numpy(dtype=x.dtype if isinstance(x.dtype, np.dtype) else object)
        return x.to_numpy(dtype=np.float64, na_value=np.nan)
    return np.asarray(x)


def _numeric(dtype) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def pair_inputs(p, y, p_arg: str = "p", y_arg: str = "y", *, matrix_ok: bool = True,
                numeric_message: Optional[str] = None, multiclass_y: Optional[bool] = None) -> Pairs:
    """``p`` and ``y`` as aligned chunk pairs, refusing from metadata alone what R
    refuses from the type (a non-numeric ``p``).

    Dask arrays with known chunks are aligned by rechunking ``y`` to ``p``'s
    rows; partitioned inputs (DataFrame columns) are paired partition by
    partition (their row counts are compared inside the first pass).
    """
    if numeric_message is None:
        numeric_message = f"Argument `{p_arg}` must be a numeric vector."
    matrix = vector_meta(p, p_arg, matrix_ok, numeric_message)
    columns = [str(c) for c in p.columns] if _is_frame(p) else None
    k = (len(columns) if columns is not None else int(p.shape[1])) if matrix else 0
    if y is not None and not is_dask(y):
        raise TypeError(f"`{y_arg}` must be a Dask collection when `{p_arg}` is one (got "
                        f"{type(y).__name__}); wrap it with dask.array.from_array().")
    categories = None
    if y is not None and hasattr(y, "dtype") and str(y.dtype) == "category":
        if not y.cat.known:
            y = y.cat.as_known()
        categories = [str(c) for c in y.cat.categories]
        if _is_frame(p):
            # The in-memory check itself, on the frame's metadata (its columns).
            check_column_order(p._meta, list(y.cat.categories), p_arg, f"the categories of `{y_arg}`",
                               f"list({y_arg}.cat.categories)")
    if y is not None and not is_array(p) and not is_array(y):
        one = _one_frame(p, y, matrix)
        if one is not None:
            return _pairs_of_one_frame(one, matrix, k, columns, categories, p, y)
    p_blocks, p_len = _blocks(p, matrix)
    if y is None:
        return Pairs([(b, None) for b in p_blocks], matrix, k, columns, None, p_len, ())
    if is_array(y) and y.ndim != 1:
        y = y.reshape(-1)
    y_blocks, y_len = _blocks(y, False)
    lengths = p_len
    if p_len is not None and y_len is not None:
        if sum(p_len) != sum(y_len):
            return Pairs([], matrix, k, columns, categories, None,
                         (p, y, p_blocks, y_blocks))  # unequal: see check_lengths_apart()
        if p_len != y_len:
            y = y.rechunk((tuple(p_len),))
            y_blocks, _ = _blocks(y, False)
    elif len(p_blocks) != len(y_blocks):
        return Pairs([], matrix, k, columns, categories, None, (p, y, p_blocks, y_blocks))
    names = (getattr(p, "name", None), getattr(y, "name", None))
    chunks = [(pb, yb) for pb, yb in zip(p_blocks, y_blocks)]
    fused = _fused(p, y, matrix) if is_array(p) == is_array(y) else None
    return Pairs(chunks, matrix, k, columns, categories, lengths, names, fused)


_Y_COLUMN = "__pycalib_r_y__"
_P_COLUMN = "__pycalib_r_p__"


def _one_frame(p, y, matrix: bool):
    """``p`` and ``y`` (DataFrame columns) as one Dask DataFrame, or None.

    Columns taken from one Dask DataFrame may be read in other partitions
    (``dd.read_parquet`` fuses files by the share of columns a selection
    reads), so pairing their partitions one by one can misalign them. Put
    together with ``assign`` (Dask accepts it for columns of one frame, and
    refuses columns of frames it cannot align), every partition holds the
    same rows of both. Returns ``(frame, p_selection, y_selection)``.
    """
    import dask.dataframe as dd

    try:
        from dask.dataframe.dask_expr._expr import are_co_aligned
    except ImportError:  # pragma: no cover - dask before dask-expr
        return None
    # Only columns of one frame (one source, modulo row-wise steps): columns
    # of two frames are paired by position, never aligned on their index.
    if not are_co_aligned(p.expr, y.expr):
        return None
    frame = p if matrix else p.to_frame(name=_P_COLUMN)
    if _Y_COLUMN in frame.columns:  # pragma: no cover - a caller's column of that name
        return None
    try:
        both = frame.assign(**{_Y_COLUMN: y})
    except (ValueError, TypeError, NotImplementedError):
        return None  # frames Dask cannot align: paired partition by partition below
    if not isinstance(both, dd.DataFrame):  # pragma: no cover
        return None
    return both, (list(p.columns) if matrix else _P_COLUMN), _Y_COLUMN


def _take(part, selection):
    return part[selection]


def _apply_split(part, p_sel, y_sel, fn=None, args=()):
    return fn(part[p_sel], part[y_sel], *args)


def _pairs_of_one_frame(one, matrix, k, columns, categories, p, y) -> "Pairs":
    import dask

    frame, p_sel, y_sel = one
    parts = list(frame.to_delayed())
    chunks = [(dask.delayed(_take, pure=True)(b, p_sel), dask.delayed(_take, pure=True)(b, y_sel))
              for b in parts]

    def make(fn, args):
        out = frame.map_partitions(_apply_split, p_sel, y_sel, fn=fn, args=args, meta=(None, object),
                                   enforce_metadata=False)
        return list(out.to_delayed())

    return Pairs(chunks, matrix, k, columns, categories, None,
                 (getattr(p, "name", None), getattr(y, "name", None)), make)


def _length_check_chunk(x, kind, arg, categories):
    x = _to_array(x) if kind != "codes" else x
    if kind == "vector":
        found = check_vector_chunk(_to_array(x), arg, True, Rank.P)[1]
    elif kind == "x":
        found = check_vector_chunk(_to_array(x), arg, False, Rank.P)[1]
    elif kind == "matrix":
        found = check_matrix_chunk(_to_array(x), arg)[1]
    elif kind == "binary":
        found = check_binary_chunk(x, arg)[1]
    else:
        found = check_codes_chunk(x, categories)[1]
    return {"found": ("first", found or (Rank.NONE, "")), "n": ("sum", int(len(x)))}


def check_lengths_apart(pairs: Pairs, p_kind: str, y_kind: str, p_arg: str, y_arg: str,
                        length_message: str) -> None:
    """``p`` and ``y`` that cannot be paired chunk by chunk: both are checked
    on their own (R checks them before their lengths), then R's length message,
    or a request to align them when only the partitioning differs."""
    import dask

    p, y, p_blocks, y_blocks = pairs.names
    tasks = [dask.delayed(_length_check_chunk)(b, p_kind, p_arg, None) for b in p_blocks]
    tasks += [dask.delayed(_length_check_chunk)(b, y_kind, y_arg, pairs.categories) for b in y_blocks]
    answers = dask.compute(*tasks)
    found = [a["found"][1] for a in answers if a["found"][1][0] < Rank.NONE]
    if found:
        raise_first(min(found, key=lambda f: f[0]))
    n_p = sum(a["n"][1] for a in answers[:len(p_blocks)])
    n_y = sum(a["n"][1] for a in answers[len(p_blocks):])
    if n_p != n_y:
        _abort(length_message)
    raise alignment_error(p_arg, y_arg)


def alignment_error(p_arg: str, y_arg: str):
    from ._refusals import refuse

    return refuse(
        f"`{p_arg}` and `{y_arg}` have the same length but come from two Dask collections "
        "partitioned differently, which pycalib_r.dask does not align by position. Take both "
        "from one Dask DataFrame (ddf[columns] and ddf[label]: any partitioning), or pass Dask "
        "arrays with known chunk sizes (dask.array.from_array).")


def to_array(x):
    return _to_array(x)

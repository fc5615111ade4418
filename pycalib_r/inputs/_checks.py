# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/utils.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Input checks: one place, R's messages.

Every function here validates one argument the way probcal's ``R/utils.R``
does, raises :class:`~pycalib_r.rbase._errors.ProbcalError` with R's
``conditionMessage()`` text, and returns a normalised *copy* of the argument
(callers' arrays are never modified). The order of the checks inside each
function is R's, because the first failing check decides the message.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import numbers
from typing import NamedTuple, Optional, Sequence

import numpy as np

from ..rbase import _warn
from ..rbase._errors import ProbcalError
from ..rbase._format import cli_abort_message
from ..rbase._modules import imported
from ..rbase._rarith import r_rowsums

__all__ = [
    "CHECK_BLOCK",
    "row_blocks",
    "ProbcalError",
    "is_matrix",
    "as_numeric_vector",
    "check_probability",
    "check_binary_y",
    "check_same_length",
    "check_bins",
    "check_count",
    "R_INT_MAX",
    "check_folds",
    "check_prob_matrix",
    "check_logit_matrix",
    "check_multiclass_y",
    "clip_prob",
    "check_eps",
    "check_bandwidth",
    "check_conf_level",
    "match_arg",
    "MulticlassLabels",
    "multiclass_labels",
    "check_newdata_columns",
    "masked_as_na",
]

DOUBLE_EPS = 2.220446049250313e-16
# Elements one numpy call of a check handles (a few ms): longer inputs are
# checked in blocks, so Ctrl-C, which Python sees between calls, stops them
# quickly, and no temporary grows with the input.
CHECK_BLOCK = 1 << 22


def row_blocks(arr: np.ndarray):
    """Slices of leading-axis rows holding about ``CHECK_BLOCK`` elements each."""
    rows = arr.shape[0] if arr.ndim else 1
    step = max(1, CHECK_BLOCK // max(1, arr.size // max(rows, 1)))
    for s in range(0, rows, step):
        yield slice(s, min(s + step, rows))


def _float_copy(arr: np.ndarray) -> np.ndarray:
    """``np.array(arr, dtype=float64, copy=True)`` (same layout), in blocks."""
    if arr.size <= CHECK_BLOCK or arr.ndim == 0:
        return np.array(arr, dtype=np.float64, copy=True)
    out = np.empty_like(arr, dtype=np.float64)
    for rows in row_blocks(arr):
        out[rows] = arr[rows]
    return out


class _Scan(NamedTuple):
    """What one pass over a float array found: NaN, non-finite, min and max
    (min and max are meaningful only when ``finite``)."""

    nan: bool
    finite: bool
    lo: float
    hi: float


def _scan(arr: np.ndarray) -> _Scan:
    """NaN / finiteness / range of a non-empty float array in one blockwise
    pass of min and max (NaN propagates through both, an infinity shows
    as an extreme), with no temporaries."""
    nan, finite, lo, hi = False, True, math.inf, -math.inf
    arr = arr.reshape(1) if arr.ndim == 0 else arr
    for rows in row_blocks(arr):
        block = arr[rows]
        if block.size == 0:
            continue
        mn, mx = float(block.min()), float(block.max())
        if math.isnan(mn) or math.isnan(mx):
            return _Scan(True, False, math.nan, math.nan)
        if math.isinf(mn) or math.isinf(mx):
            finite = False
        lo, hi = min(lo, mn), max(hi, mx)
    return _Scan(nan, finite, lo, hi)


def _abort(message: str) -> None:
    # probcal raises these with cli::cli_abort(), which wraps long messages.
    raise ProbcalError(cli_abort_message(message))


def add_note(err: BaseException, note: str) -> None:
    """``err.add_note(note)``, also on Python < 3.11."""
    if hasattr(err, "add_note"):
        err.add_note(note)
    else:  # pragma: no cover - Python < 3.11
        err.__notes__ = list(getattr(err, "__notes__", [])) + [note]


def _pandas():
    # Used only to ask whether an object is a pandas one, which it can be
    # only once pandas is imported: arrays never pay pandas' import.
    return imported("pandas")


# --- containers of other libraries --------------------------------------------------

MASKED_NOTE = ("`{arg}` is a numpy masked array: its masked entries are R's NA, which "
               "probcal refuses as R does. Drop them from every argument first, e.g. "
               "keep = ~np.ma.getmaskarray({arg}) (and the same for the other arguments), "
               "then pass np.ma.getdata({arg})[keep].")


def _is_masked_array(x) -> bool:
    """``isinstance(x, np.ma.MaskedArray)`` without importing numpy.ma (about
    35 ms, which ``np.ma`` costs on its first use): no masked array exists
    before numpy.ma is imported."""
    ma = imported("numpy.ma")
    return ma is not None and isinstance(x, ma.MaskedArray)


def masked_as_na(x):
    """A numpy masked array as R sees data with NA: its masked entries become
    NaN (numbers) or None (other types), so R's missing-value message follows.
    Anything else is returned as it is. Also says whether entries were masked.

    The checks here call it first; a face that converts input before the
    core checks (scikit-learn's ``check_array`` drops the mask) calls it too.
    """
    if not _is_masked_array(x):
        return x, False
    mask = np.ma.getmaskarray(x)
    data = np.ma.getdata(x)
    if not mask.any():
        return np.array(data, copy=True), False
    if data.dtype.kind in "iuf":
        out = np.array(data, dtype=np.float64, copy=True)
        out[mask] = np.nan
    else:
        out = np.array(data, dtype=object, copy=True)
        out[mask] = None
    return out, True


def _masked_note(err: ProbcalError, arg: str, masked: bool) -> ProbcalError:
    if masked and not any(n.startswith(f"`{arg}` is a numpy masked array")
                          for n in getattr(err, "__notes__", [])):
        add_note(err, MASKED_NOTE.format(arg=arg))
    return err


def _masked_aware(check):
    """Decorate a check whose first argument is the data and whose ``arg``
    keyword names it: R's message for a masked array's NA carries a note."""
    sig = inspect.signature(check)

    @functools.wraps(check)
    def wrapper(x, *args, **kwargs):
        if not (_is_masked_array(x) and np.ma.getmaskarray(x).any()):
            return check(x, *args, **kwargs)
        try:
            return check(x, *args, **kwargs)
        except ProbcalError as err:
            bound = sig.bind(x, *args, **kwargs)
            bound.apply_defaults()
            raise _masked_note(err, bound.arguments["arg"], True)
    return wrapper


def _array_like_2d(x) -> bool:
    """A 2-D array of another library (an xarray DataArray, ...): ``__array__``
    and ``ndim == 2``; numpy reads it as its matrix of values, as R reads a matrix."""
    return (not isinstance(x, np.ndarray) and callable(getattr(x, "__array__", None))
            and getattr(x, "ndim", None) == 2 and not hasattr(x, "columns"))


def polars_factor(y) -> Optional[str]:
    """"Categorical" or "Enum" for a polars Series of that type, else None."""
    pl = imported("polars")
    if pl is None or not isinstance(y, pl.Series):
        return None
    dtype = y.dtype
    for name in ("Enum", "Categorical"):
        kind = getattr(pl, name, None)
        if kind is not None and (dtype == kind or isinstance(dtype, kind)):
            return name
    return None


def _polars_factor_error(message: str, kind: str, arg: str, binary: bool = False) -> ProbcalError:
    err = ProbcalError(cli_abort_message(message))
    if binary:
        add_note(err, f"`{arg}` is a polars {kind}, a factor to R, which R refuses as binary "
                      f"labels: pass the 0/1 (or bool) values, e.g. "
                      f"({arg} == positive_label).cast(pl.Int8).")
        return err
    add_note(err, f"`{arg}` is a polars {kind}, which is not read as R's factor here (R's "
                  f"factor is a pandas Categorical). Convert it: pd.Categorical({arg}.to_list(), "
                  f"categories=[...]) with the categories in the column order of the matrix"
                  + (f" ({arg}.to_pandas() keeps the Enum's order)." if kind == "Enum" else "."))
    return err


def is_matrix(x) -> bool:
    """True for inputs R would see as a matrix: 2-D arrays, DataFrames, lists of rows."""
    pd = _pandas()
    if pd is not None and isinstance(x, pd.DataFrame):
        return True
    if isinstance(x, np.ndarray):
        return x.ndim == 2
    if _foreign_frame(x) or _array_like_2d(x):
        return True
    if isinstance(x, (list, tuple)) and len(x) > 0:
        # rows of one length; ragged rows are R's list, not a matrix
        return (all(isinstance(row, (list, tuple, np.ndarray)) for row in x)
                and len({len(row) for row in x}) == 1)
    return False


def _foreign_frame(x) -> bool:
    """A data frame of another library (polars, ...): named columns, 2-D, to_numpy().

    R sees a data frame as a matrix of its columns; numpy alone would see
    such an object as a sequence of rows or of columns, depending on the
    library.
    """
    pd = _pandas()
    if pd is not None and isinstance(x, (pd.DataFrame, pd.Series, pd.Index)):
        return False
    shape = getattr(x, "shape", None)
    return (not isinstance(x, np.ndarray) and hasattr(x, "columns")
            and callable(getattr(x, "to_numpy", None))
            and isinstance(shape, tuple) and len(shape) == 2)


def _is_scalar_bool(x) -> bool:
    return isinstance(x, (bool, np.bool_))


def _numeric_array(x, arg: str, message: str, copy: bool = True) -> np.ndarray:
    """Convert to a float64 copy, refusing what R's ``is.numeric`` refuses.

    Logical input (bools) is not numeric in R, and neither are strings; a
    missing value (None, pandas NA) becomes NaN so the NA check reports it.
    With ``copy=False`` a float64 ndarray comes back as a read-only view of
    itself (no copy; a write through it raises instead of changing the
    caller's data).
    """
    pd = _pandas()
    if x is None:
        _abort(message)
    x, _ = masked_as_na(x)
    if pd is not None and isinstance(x, (pd.Series, pd.Index)):
        if x.dtype == bool or pd.api.types.is_bool_dtype(x.dtype):
            _abort(message)
        if not pd.api.types.is_numeric_dtype(x.dtype):
            _abort(message)
        if isinstance(x.dtype, np.dtype):
            return _float_copy(x.to_numpy())
        return x.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
    if pd is not None and isinstance(x, pd.DataFrame):
        if not all(pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t)
                   for t in x.dtypes):
            _abort(message)
        return x.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
    if _is_scalar_bool(x):
        _abort(message)
    if isinstance(x, numbers.Real):
        return np.array([float(x)], dtype=np.float64)
    if isinstance(x, (str, bytes, dict, set)):
        _abort(message)
    if _foreign_frame(x):
        arr = np.asarray(x.to_numpy())
        if arr.dtype.kind not in "iuf":  # R: a logical or text column is not numeric
            _abort(message)
        return _float_copy(arr)
    try:
        arr = np.asarray(x)
    except ValueError:
        # rows of different lengths: R's list, which is.numeric() refuses
        _abort(message)
    if arr.ndim == 0:
        # a 0-d array is a number: R's vector of length 1
        arr = arr.reshape(1)
    if arr.dtype == object:
        flat = arr.ravel()
        out = np.empty(flat.shape, dtype=np.float64)
        for i, v in enumerate(flat):
            if v is None or (pd is not None and v is pd.NA):
                out[i] = np.nan
            elif _is_scalar_bool(v) or not isinstance(v, numbers.Real):
                _abort(message)
            else:
                out[i] = float(v)
        return out.reshape(arr.shape)
    if arr.dtype.kind not in "iuf":
        _abort(message)
    if not copy and isinstance(x, np.ndarray) and arr.dtype == np.float64:
        return readonly_view(arr)
    return _float_copy(arr)


def readonly_view(arr: np.ndarray) -> np.ndarray:
    """A view of ``arr`` that cannot be written through (``arr`` keeps its flags)."""
    view = arr.view()
    view.flags.writeable = False
    return view


def as_numeric_vector(x, arg: str = "x", finite: bool = True) -> np.ndarray:
    """R ``check_numeric_vector()``: numeric, non-empty, no NA, finite.

    Returns a float64 copy (1-D for vectors; a 2-D input keeps its shape,
    as R's elementwise functions keep a matrix's dimensions).
    """
    return _checked_vector(x, arg, finite)[0]


# The bits of 1.0: a float64 whose bits, read as uint64, are at most this is
# +0.0 or a positive number up to 1 (a negative number, -0.0 included, has
# the sign bit; NaN and +inf are above it).
_ONE_BITS = 0x3FF0000000000000


def _in_unit(arr: np.ndarray) -> bool:
    """Whether every element of a float64 array is in [+0, 1]: one pass of
    a uint64 max over its bits (half the work of min and max), in blocks.
    False says only that the full scan must decide (a -0.0 is in [0, 1])."""
    if arr.dtype != np.float64 or not arr.flags.c_contiguous:
        return False
    bits = arr.reshape(-1).view(np.uint64)
    for s in range(0, bits.size, CHECK_BLOCK):
        if int(bits[s:s + CHECK_BLOCK].max()) > _ONE_BITS:
            return False
    return True


@_masked_aware
def _checked_vector(x, arg: str, finite: bool = True, copy: bool = True, unit: bool = False):
    # unit: the caller needs only [0, 1] (lo >= 0 and hi <= 1), not the range.
    arr = _numeric_array(x, arg, f"Argument `{arg}` must be a numeric vector.", copy)
    if arr.size == 0:
        _abort(f"Argument `{arg}` must not be empty.")
    if unit and _in_unit(arr):
        return arr, _Scan(False, True, 0.0, 1.0)
    scan = _scan(arr)
    if scan.nan:
        _abort(f"Argument `{arg}` must not contain missing values.")
    if finite and not scan.finite:
        _abort(f"Argument `{arg}` must contain only finite values.")
    return arr, scan


def check_probability(p, arg: str = "p", copy: bool = True) -> np.ndarray:
    """R ``check_probability()``: a numeric vector in ``[0, 1]`` (a float64
    copy, or with ``copy=False`` a read-only view of a float64 array)."""
    arr, scan = _checked_vector(p, arg, copy=copy, unit=True)
    if scan.lo < 0 or scan.hi > 1:
        _abort(f"Argument `{arg}` must contain probabilities in `[0, 1]`.")
    return arr


@_masked_aware
def check_binary_y(y, arg: str = "y", require_both: bool = False, copy: bool = True) -> np.ndarray:
    """R ``check_binary_y()``: labels 0/1 (numbers or bools), returned as int64
    (with ``copy=False``, an int64 array as a read-only view of itself)."""
    pd = _pandas()
    wrong_type = f"Argument `{arg}` must contain binary labels `0` and `1`."
    # R keeps a logical NA through as.integer() and probcal then drops the
    # bins it falls in without a word; here it is reported as a numeric NA is.
    missing = f"Argument `{arg}` must not contain missing or infinite values."
    y, _ = masked_as_na(y)
    polars_kind = polars_factor(y)
    if polars_kind is not None:
        raise _polars_factor_error(wrong_type, polars_kind, arg, binary=True)
    if pd is not None and (isinstance(y, pd.Categorical) or isinstance(
            getattr(y, "dtype", None), pd.CategoricalDtype)):
        # R refuses a factor as binary labels; a Categorical is R's factor.
        err = ProbcalError(cli_abort_message(wrong_type))
        add_note(err, "A pandas Categorical is R's factor, which R refuses as binary labels: "
                      "pass the 0/1 (or bool) values, e.g. np.asarray(y, dtype=int) when its "
                      "categories are 0 and 1, or (y == positive_label).astype(int).")
        raise err
    if pd is not None and isinstance(y, (pd.Series, pd.Index)) and y.dtype == object:
        y = y.to_numpy()
    if pd is not None and isinstance(y, (pd.Series, pd.Index)):
        if pd.api.types.is_bool_dtype(y.dtype):
            if y.isna().any():
                _abort(missing)
            values = y.to_numpy(dtype=bool)
        elif pd.api.types.is_numeric_dtype(y.dtype):
            values = (y.to_numpy() if isinstance(y.dtype, np.dtype)
                      else y.to_numpy(dtype=np.float64, na_value=np.nan))
        else:
            _abort(wrong_type)
    elif _is_scalar_bool(y) or isinstance(y, numbers.Real):
        values = np.array([y])
    elif y is None or isinstance(y, (str, bytes, dict, set)):
        _abort(wrong_type)
    else:
        try:
            values = np.asarray(y)
        except ValueError:  # rows of different lengths: R's list
            _abort(wrong_type)
        if values.ndim == 0:  # a 0-d array: R's vector of length 1
            values = values.reshape(1)
        if values.dtype == object:
            flat = values.ravel()
            na = [v is None or (pd is not None and v is pd.NA) for v in flat]
            if not all(n or isinstance(v, numbers.Real) for v, n in zip(flat, na)):
                _abort(wrong_type)
            if all(n or _is_scalar_bool(v) for v, n in zip(flat, na)) and values.size > 0:
                # A logical vector (R's c(TRUE, NA, FALSE)).
                if any(na):
                    _abort(missing)
                values = values.astype(bool)
            else:
                # R's c() makes a mix of logicals and numbers numeric.
                values = np.array([np.nan if n else float(v) for v, n in zip(flat, na)])
    if values.ndim > 1:
        values = values.ravel()
    if values.dtype == bool:
        out = values.astype(np.int64)
        zero, one = not values.all(), values.any()
    elif values.dtype.kind in "iuf":
        out, zero, one = _binary_codes(values, arg, missing, copy or values is not y, require_both)
    else:
        _abort(wrong_type)
    if out.size == 0:
        _abort(f"Argument `{arg}` must not be empty.")
    if require_both and not (zero and one):
        _abort(f"Argument `{arg}` must contain at least one `0` and one `1`.")
    return out


def _binary_codes(values: np.ndarray, arg: str, missing: str, copy: bool = True, need_both: bool = True):
    """Numeric labels as int64 0/1, checked in blocks: R's missing/infinite
    message if any is NaN or infinite, else its binary message if any is
    not 0 or 1. Also whether a 0 and a 1 occur. Without ``copy``, int64
    labels come back as a read-only view (nothing written). Without
    ``need_both``, ``zero`` may be False where a 0 occurs (not looked for)."""
    view = not copy and values.dtype == np.int64 and values.ndim == 1
    if view and values.flags.c_contiguous and values.size:
        # int64 0/1 labels: one pass of a uint64 max (a negative label reads
        # as a huge one) says they are all 0 or 1; a second (min) is needed
        # only when a 0 or a 1 is missing from the max, to say which occur.
        top = max(int(values[s:s + CHECK_BLOCK].view(np.uint64).max()) for s in range(0, values.size, CHECK_BLOCK))
        if top <= 1:
            one = top == 1
            zero = not one or (need_both and any(int(values[s:s + CHECK_BLOCK].min()) == 0
                                                 for s in range(0, values.size, CHECK_BLOCK)))
            return readonly_view(values), zero, one
    out = readonly_view(values) if view else np.empty(values.size, dtype=np.int64)
    binary, zero, one = True, False, False
    floating = values.dtype.kind == "f"
    for s in range(0, values.size, CHECK_BLOCK):
        block = values[s:s + CHECK_BLOCK]
        mn, mx = block.min(), block.max()
        if floating and not (math.isfinite(mn) and math.isfinite(mx)):
            _abort(missing)
        if not binary:
            continue
        if floating and (mn < 0 or mx > 1 or not ((block == 0) | (block == 1)).all()):
            binary = False
        elif not floating and (mn < 0 or mx > 1):
            binary = False
        else:
            if not view:
                out[s:s + CHECK_BLOCK] = block
            zero, one = zero or mn == 0, one or mx == 1
    if not binary:
        _abort(f"Argument `{arg}` must contain only binary labels `0` and `1`.")
    return out, zero, one


def check_same_length(x, y, x_arg: str = "x", y_arg: str = "y") -> None:
    """R ``check_same_length()``."""
    if len(x) != len(y):
        _abort(f"Arguments `{x_arg}` and `{y_arg}` must have the same length.")


def _single_number(x) -> Optional[float]:
    """The value of a length-one numeric argument, or None if it is not one."""
    if _is_scalar_bool(x):
        return None
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, np.ndarray) and x.size == 1 and x.dtype.kind in "iuf":
        return float(x.reshape(-1)[0])
    if isinstance(x, (list, tuple)) and len(x) == 1:
        return _single_number(x[0])
    return None


R_INT_MAX = 2147483647
# R's warning when as.integer() meets a double outside the integer range.
COERCION_WARNING = "NAs introduced by coercion to integer range"
# What R then says when the NA reaches `if ()`: probcal's check_bins().
NA_CONDITION = "missing value where TRUE/FALSE needed"


def _beyond_int_range(value: float) -> bool:
    """R ``is.na(as.integer(value))`` for a finite double (which also warns)."""
    return not (-2147483648.0 < value < 2147483648.0)


def integer_range_error(arg: str, message: str, stacklevel: int = 3, warn: bool = True) -> None:
    # base R's errors (not cli's): raised as they are.
    """R's as.integer() warning, then ``message`` (what R says next), with a hint."""
    if warn:
        _warn.warn(COERCION_WARNING, RuntimeWarning)
    err = ProbcalError(message)
    add_note(err, f"`{arg}` must be at most {R_INT_MAX} (2^31 - 1), R's largest integer.")
    raise err


def check_bins(bins, arg: str = "bins", python_only: bool = False) -> int:
    """R ``check_bins()``: a single positive whole number, returned as int.

    A value beyond R's integer range makes R's ``as.integer()`` warn and the
    ``if ()`` on its NA fail; that warning and error are R's, and they come
    before anything is allocated. With ``python_only`` (a Python-only
    function, which has no R message to keep) the error instead names the
    argument and its bound, with no R warning.
    """
    value = _single_number(bins)
    message = f"Argument `{arg}` must be a single positive integer."
    if value is None or math.isnan(value) or not math.isfinite(value):
        _abort(message)
    if value < 1:
        _abort(message)
    if _beyond_int_range(value):
        if python_only:
            err = ProbcalError(f"Argument `{arg}` must be a single positive integer of at most "
                               f"{R_INT_MAX} (2^31 - 1).")
            add_note(err, f"`{arg}` = {format(value, '.15g')} is beyond R's largest integer.")
            raise err
        integer_range_error(arg, NA_CONDITION)
    if value != math.trunc(value):
        _abort(message)
    return int(value)


# What R says when ``bins + 1L`` overflows in ``seq(0, 1, length.out = bins + 1L)``.
INTEGER_OVERFLOW_WARNING = "NAs produced by integer overflow"
LENGTH_OUT_NA = "'length.out' must be a non-negative number"


def check_bin_edges(bins: int) -> int:
    """R's ``seq(0, 1, length.out = bins + 1L)`` for a checked ``bins``.

    At R's largest integer (2^31 - 1) the edge count ``bins + 1L`` overflows:
    R warns "NAs produced by integer overflow" and ``seq()`` fails with
    "'length.out' must be a non-negative number" (probcal 0.1.0's ece, mce,
    ace, cal_histogram and reliability_diagram, and the 0.2.0 ece, all in
    R 4.2.2). The same warning and error come here, before anything is
    allocated.
    """
    if bins >= R_INT_MAX:
        _warn.warn(INTEGER_OVERFLOW_WARNING, RuntimeWarning)
        err = ProbcalError(LENGTH_OUT_NA)
        add_note(err, f"`bins` + 1 (the number of bin edges) is beyond {R_INT_MAX} (2^31 - 1), "
                      "R's largest integer; use fewer bins.")
        raise err
    return bins


def check_count(x, arg: str, overflow_message: str, defer: bool = False) -> Optional[int]:
    """probcal 0.2.0's ``check_count()`` (``n_boot``, and ``bins`` of the 0.2.0
    metrics): a single positive whole number, returned as int.

    It tests the value before converting it, so a whole number beyond R's
    integer range passes and becomes NA with R's warning; ``overflow_message``
    is what R says when that NA is first used (it depends on the function).
    Here that happens before anything is allocated; with ``defer`` only the
    warning is given and None returned, for a caller whose R code uses the
    NA later (it then calls :func:`integer_range_error` with ``warn=False``).
    """
    value = _single_number(x)
    if (value is None or not math.isfinite(value) or value < 1
            or value != float(round(value))):
        _abort(f"Argument `{arg}` must be a single positive integer.")
    if _beyond_int_range(value):
        if defer:
            _warn.warn(COERCION_WARNING, RuntimeWarning)
            return None
        integer_range_error(arg, overflow_message)
    return int(value)


def check_folds(folds, y) -> int:
    """R ``check_folds()``: at least 2 and not more than the smallest class count."""
    folds = check_bins(folds, arg="folds")
    if folds < 2:
        _abort("Argument `folds` must be at least `2`.")
    if folds > _smallest_class_count(np.asarray(y)):
        _abort("Argument `folds` must not exceed the smallest class count.")
    return folds


def _smallest_class_count(y: np.ndarray) -> int:
    """``min(table(y))``: counted in blocks for checked labels (small
    non-negative integers), by sorting otherwise."""
    if y.dtype.kind in "iu" and y.size and 0 <= y.min() and y.max() <= y.size:
        counts = np.zeros(int(y.max()) + 1, dtype=np.int64)
        for s in range(0, y.size, CHECK_BLOCK):
            counts += np.bincount(y[s:s + CHECK_BLOCK], minlength=counts.size)
        return int(counts[counts > 0].min())
    return int(np.unique(y, return_counts=True)[1].min())


def _as_matrix(x, arg: str, message: str, copy: bool = True) -> np.ndarray:
    if not is_matrix(x):
        _abort(message)
    arr = _numeric_array(x, arg, message, copy)
    if arr.ndim != 2:
        _abort(message)
    return arr


@_masked_aware
def check_prob_matrix(p, arg: str = "p", tolerance: float = 1e-6, copy: bool = True,
                      values: bool = True) -> np.ndarray:
    """R ``check_prob_matrix()``: finite probabilities, >= 2 columns, rows
    summing to 1 (a float64 copy, or with ``copy=False`` a read-only view of
    a float64 array). ``values=False``: the shape only, the caller then
    takes :func:`check_prob_matrix_values` itself before anything else can
    fail (the classwise binned metrics' kernel scans the values as it bins
    them: ``_metrics.bind_metric``)."""
    arr = _as_matrix(p, arg, f"Argument `{arg}` must be a numeric matrix with one column per class.", copy)
    if arr.shape[1] < 2:
        _abort(f"Argument `{arg}` must have at least two columns, one per class.")
    if arr.shape[0] == 0:
        _abort(f"Argument `{arg}` must not be empty.")
    if values:
        check_prob_matrix_values(arr, arg, tolerance)
    return arr


def prob_matrix_bands(arr: np.ndarray, tolerance: float = 1e-6):
    """``(hi, lo)``: a row sum farther than ``hi`` from 1 fails R's check
    for sure, one at least ``lo`` from it is decided by R's exact row sum
    (:func:`rows_off_one`). A scan that finds every entry in [+0, 1] and no
    row sum that far from 1 passes the values' check."""
    margin = _row_margin(arr.shape[1])
    return tolerance + margin, tolerance - margin


@contextlib.contextmanager
def values_first(arr: np.ndarray, deferred: bool, arg: str = "p"):
    """Around the checks that R makes after ``check_prob_matrix()``, for a
    matrix whose values' check was deferred: a failure there is raised only
    after :func:`check_prob_matrix_values`, whose own failure comes first,
    as in R. (Callers defer only where those checks cannot warn.)"""
    try:
        yield
    except Exception:
        if deferred:
            check_prob_matrix_values(arr, arg)
        raise


def check_prob_matrix_values(arr: np.ndarray, arg: str = "p", tolerance: float = 1e-6) -> None:
    """The values' half of :func:`check_prob_matrix`: finite, in [0, 1], rows
    summing to 1 within ``tolerance``, in R's order."""
    kern = input_kernels(arr.size)
    if kern is not None:
        # One pass over the rows; the decisions below in R's order.
        nan, lo, hi, far, near = kern.prob_matrix_scan(arr, tolerance, _row_margin(arr.shape[1]))
        scan = _Scan(nan, not nan and math.isfinite(lo) and math.isfinite(hi), lo, hi)
    else:
        scan = _scan(arr)
        far = near = None
    if not scan.finite:
        _abort(f"Argument `{arg}` must not contain missing or infinite values.")
    if scan.lo < 0 or scan.hi > 1:
        _abort(f"Argument `{arg}` must contain probabilities in `[0, 1]`.")
    if far or near is None or near:
        for rows in row_blocks(arr):
            if rows_off_one(arr[rows], tolerance):
                _abort(f"Each row of `{arg}` must sum to `1`.")


# Matrix entries from which the input passes over a matrix (check_prob_matrix,
# the top-label form) run in C: below, the numpy twins' few calls cost about
# what a call into C does (a few microseconds).
INPUT_KERNEL_MIN = 1024


def input_kernels(size: int):
    """The compiled passes over an input matrix (``pycalib_r._native.inputs``)
    for a matrix of ``size`` entries, or None (small, or the library not in
    use: the numpy twins run, with the same decisions)."""
    if size < INPUT_KERNEL_MIN:
        return None
    from .. import _native  # noqa: PLC0415 (kept out of the import of the inputs room)

    return _native.kernels("inputs")


def _row_margin(k: int) -> float:
    """:func:`rows_off_one`'s band around the tolerance for rows of ``k`` entries in [0, 1]."""
    return 4.0 * k * (k + 1) * DOUBLE_EPS


def rows_off_one(block: np.ndarray, tolerance: float) -> bool:
    """R's ``any(abs(rowSums(p) - 1) > tolerance)`` for a finite matrix with
    entries in [0, 1], the same decision bit for bit, at the cost of a double
    row sum.

    R's ``rowSums()`` adds each row's columns in order in long double and
    rounds the total to double before 1 is subtracted (src/main/array.c,
    ``do_colsum``); that exact sum costs a long-double copy of the block
    (about 35 ms at 10^6 x 5). A double sum of the row in any order
    (``einsum``) is within ``(K - 1) u S`` of the exact row total ``S <= K``
    (u = 2^-53, Higham's bound for recursive or pairwise summation), and
    R's total within ``u S (1 + K 2^-64)``; the subtraction of 1 and
    ``abs`` add at most ``u |S - 1|`` each. So a row whose double sum is
    farther than ``margin = 8 K (K + 1) u`` (several times that bound) from
    the tolerance decides the same way as R's; only rows inside that band
    (rare: 3e-14 wide at K = 5) get R's long-double sum.
    """
    if block.size == 0:
        return False
    dist = np.abs(np.einsum("ij->i", block) - 1.0)
    margin = _row_margin(block.shape[1])
    if (dist > tolerance + margin).any():
        return True
    near = np.flatnonzero(dist >= tolerance - margin)
    if near.size == 0:
        return False
    return bool((np.abs(r_rowsums(block[near]) - 1) > tolerance).any())


@_masked_aware
def check_logit_matrix(x, arg: str = "logits", allow_empty: bool = False) -> np.ndarray:
    """R ``check_logit_matrix()``: a finite numeric matrix with >= 2 columns.

    ``allow_empty`` leaves zero rows to the caller's row-count check, as
    ``cal_ovr()`` (which makes these checks inline) does in R.
    """
    arr = _as_matrix(x, arg, f"Argument `{arg}` must be a numeric matrix with one column per class.")
    if arr.shape[1] < 2:
        _abort(f"Argument `{arg}` must have at least two columns, one per class.")
    if arr.shape[0] == 0 and not allow_empty:
        _abort(f"Argument `{arg}` must not be empty.")
    if arr.size and not _scan(arr).finite:
        _abort(f"Argument `{arg}` must not contain missing or infinite values.")
    return arr


class MulticlassLabels(NamedTuple):
    """Checked multiclass labels: 1-based ``codes``, class ``levels``, and ``k``."""

    codes: np.ndarray
    levels: list
    k: int


def _plural(count: int, singular: str, plural_suffix: str) -> str:
    return singular if count == 1 else singular + plural_suffix


@_masked_aware
def check_multiclass_y(y, n_classes: Optional[int] = None, arg: str = "y") -> MulticlassLabels:
    """R ``check_multiclass_y()``: a factor (pandas Categorical) or integer codes 1..K."""
    pd = _pandas()
    y, _ = masked_as_na(y)
    polars_kind = polars_factor(y)
    if polars_kind is not None:
        raise _polars_factor_error(
            f"Argument `{arg}` must be a factor or a vector of integer class codes.", polars_kind, arg)
    categorical = None
    if pd is not None:
        if isinstance(y, pd.Categorical):
            categorical = y
        elif isinstance(y, (pd.Series, pd.CategoricalIndex)) and isinstance(y.dtype, pd.CategoricalDtype):
            categorical = pd.Categorical(y)
    if categorical is not None:
        if categorical.codes.size and categorical.codes.min() < 0:
            _abort(f"Argument `{arg}` must not contain missing values.")
        levels = [str(v) for v in categorical.categories]
        codes = categorical.codes.astype(np.int64)
        codes += 1
    else:
        if pd is not None and isinstance(y, (pd.Series, pd.Index)):
            if not pd.api.types.is_numeric_dtype(y.dtype) or pd.api.types.is_bool_dtype(y.dtype):
                if y.isna().any():
                    _abort(f"Argument `{arg}` must not contain missing values.")
                _abort(f"Argument `{arg}` must be a factor or a vector of integer class codes.")
            values = y.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            raw = np.asarray(y) if not isinstance(y, numbers.Real) or _is_scalar_bool(y) else np.array([y])
            if raw.dtype == object:
                if any(v is None for v in raw.ravel()):
                    _abort(f"Argument `{arg}` must not contain missing values.")
                if not all(isinstance(v, numbers.Real) and not _is_scalar_bool(v) for v in raw.ravel()):
                    _abort(f"Argument `{arg}` must be a factor or a vector of integer class codes.")
                raw = raw.astype(np.float64)
            if raw.dtype.kind not in "iuf":
                _abort(f"Argument `{arg}` must be a factor or a vector of integer class codes.")
            values = raw.ravel()
        codes, top = _class_codes(values, arg, with_max=True)
        levels = None  # R's as.character(seq_len(max(codes))), built once k is known to fit
    if levels is not None:
        top = _blocked_max(codes)
    k = top if levels is None else len(levels)
    if k < 2:
        _abort(f"Argument `{arg}` must have at least two classes.")
    if n_classes is not None and k != n_classes:
        _abort(
            f"Argument `{arg}` has {k} {_plural(k, 'class', 'es')} but the input has "
            f"{n_classes} {_plural(n_classes, 'column', 's')}."
        )
    if codes.size and top > k:
        _abort(f"Class codes in `{arg}` must not exceed the number of classes.")
    if levels is None:
        levels = [str(i) for i in range(1, k + 1)]
    return MulticlassLabels(codes=codes, levels=levels, k=k)


def _blocked_max(a: np.ndarray) -> int:
    """``int(a.max())`` of a non-empty integer array, block by block."""
    return max(int(a[s:s + CHECK_BLOCK].max()) for s in range(0, a.size, CHECK_BLOCK))


def _class_codes(values: np.ndarray, arg: str, with_max: bool = False):
    """Numeric class codes as int64, with R's checks in R's order, in blocks
    (no temporaries of the input's size); ``with_max``: ``(codes, largest
    code)``, the largest from the same passes."""
    floating = values.dtype.kind == "f"
    nan = nonfinite = fractional = out_of_range = False
    lo = math.inf
    hi = -math.inf
    for s in range(0, values.size, CHECK_BLOCK):
        block = values[s:s + CHECK_BLOCK]
        mn, mx = block.min(), block.max()
        if floating and (math.isnan(mn) or math.isnan(mx)):
            nan = True
            break
        if floating and (math.isinf(mn) or math.isinf(mx)):
            nonfinite = True
            continue
        in_range = mn > -2147483648.0 and mx < 2147483648.0
        if floating and not fractional:
            if in_range:
                fractional = not np.array_equal(block, np.trunc(block))
            else:
                inside = (block > -2147483648.0) & (block < 2147483648.0)
                fractional = bool((block != np.trunc(block))[inside].any())
        out_of_range = out_of_range or not in_range
        lo = min(lo, mn)
        hi = max(hi, mx)
    if nan:
        _abort(f"Argument `{arg}` must not contain missing values.")
    if values.size == 0:
        # R's min() of an empty vector warns and gives Inf, and the
        # codes check below then fails; this states the actual problem.
        _abort(f"Argument `{arg}` must not be empty.")
    if nonfinite:
        _abort(f"Argument `{arg}` must contain integer class codes or a factor.")
    # R: any(y != as.integer(y)); as.integer() gives NA (and warns) outside
    # the integer range, so any() is TRUE if some code is fractional and
    # NA (an error in if ()) if some code is only out of range.
    if fractional:
        if out_of_range:
            _warn.warn(COERCION_WARNING, RuntimeWarning)
        _abort(f"Argument `{arg}` must contain integer class codes or a factor.")
    if out_of_range:
        integer_range_error(arg, NA_CONDITION, stacklevel=4)
    if lo < 1:
        _abort(f"Integer class codes in `{arg}` must start at `1`.")
    if values.dtype == np.int64 and values.ndim == 1 and values.flags.c_contiguous:
        # int64 codes as they are, read-only (a write through them raises
        # instead of changing the caller's array): no copy of the input's size.
        out = readonly_view(values)
    else:
        out = np.empty(values.size, dtype=np.int64)
        for s in range(0, values.size, CHECK_BLOCK):
            out[s:s + CHECK_BLOCK] = values[s:s + CHECK_BLOCK]
    return (out, int(hi)) if with_max else out


def check_eps(eps, lower_open: float = 0.0, upper_open: float = 0.5) -> float:
    """The ``eps`` check of R ``clip_prob()``: a single number in ``(0, 0.5)``."""
    value = _single_number(eps)
    if value is None or math.isnan(value) or value <= lower_open or value >= upper_open:
        _abort("Argument `eps` must be a single number in `(0, 0.5)`.")
    return value


def clip_prob(p, eps: float = DOUBLE_EPS, arg: str = "p") -> np.ndarray:
    """R ``clip_prob()``: ``pmin(pmax(p, eps), 1 - eps)`` after the vector and eps checks."""
    arr = as_numeric_vector(p, arg=arg)
    eps = check_eps(eps)
    return np.minimum(np.maximum(arr, eps), 1 - eps)


def check_bandwidth(bandwidth, allow_median: bool = False):
    """A single positive finite number, or (where allowed) the string ``"median"``.

    R's message for the 0.1.0 numeric form is kept; the 0.2.0 string form
    names the one string accepted.
    """
    if isinstance(bandwidth, str):
        if allow_median and bandwidth == "median":
            return "median"
        if allow_median:
            _abort('Argument `bandwidth` must be a single positive number or "median".')
        _abort("Argument `bandwidth` must be a single positive number.")
    value = _single_number(bandwidth)
    if value is None or not math.isfinite(value) or value <= 0:
        if allow_median:
            _abort('Argument `bandwidth` must be a single positive number or "median".')
        _abort("Argument `bandwidth` must be a single positive number.")
    return value


def check_conf_level(conf_level) -> float:
    """A single number strictly between 0 and 1."""
    value = _single_number(conf_level)
    if value is None or math.isnan(value) or value <= 0 or value >= 1:
        _abort("Argument `conf_level` must be a single number in `(0, 1)`.")
    return value


def match_arg(value, choices: Sequence[str], arg: str = "arg") -> str:
    """R ``match.arg()``: exact or unique-prefix match; None gives the first choice.

    A character vector (list, tuple or string array) equal to ``choices`` is
    R's default and gives the first choice; other lengths than one are R's
    errors, checked as R checks them (type first, then length).
    """
    if value is None:
        return choices[0]
    if isinstance(value, np.ndarray) and value.dtype.kind in "US":
        value = [str(v) for v in value.ravel()]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        if list(value) == list(choices):
            return choices[0]
        if len(value) > 1:
            raise ProbcalError("'arg' must be of length 1")
        if len(value) == 0:
            quoted = ", ".join(f"\u201c{c}\u201d" for c in choices)
            raise ProbcalError(f"'arg' should be one of {quoted}")
        value = value[0]
    if not isinstance(value, str):
        raise ProbcalError("'arg' must be NULL or a character vector")
    if value in choices:
        return value
    hits = [c for c in choices if value != "" and c.startswith(value)]
    if len(hits) == 1:
        return hits[0]
    quoted = ", ".join(f"\u201c{c}\u201d" for c in choices)
    # base R's match.arg() error: not wrapped (only cli wraps).
    raise ProbcalError(f"'arg' should be one of {quoted}")
    return choices[0]  # unreachable


def multiclass_labels(mat: np.ndarray, y, x_arg: str = "p") -> MulticlassLabels:
    """The label check every multiclass function makes after checking its matrix, in R's order.

    R: ``check_multiclass_y(y, n_classes = ncol(x), arg = "y")``, then the
    abort when ``nrow(x)`` differs from the number of labels; ``x_arg`` names
    the matrix argument in that message.
    """
    labels = check_multiclass_y(y, n_classes=mat.shape[1], arg="y")
    if mat.shape[0] != labels.codes.size:
        _abort(f"Arguments `{x_arg}` and `y` must have the same number of observations.")
    return labels


def check_newdata_columns(mat: np.ndarray, k: int) -> None:
    """The ``predict()`` check of the multiclass calibrators: ``ncol(newdata)`` must be ``k``."""
    if mat.shape[1] != k:
        _abort(f"Argument `newdata` must have {k} column{'' if k == 1 else 's'}, one per class.")

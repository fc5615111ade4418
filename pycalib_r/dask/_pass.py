"""The first pass every function makes: R's checks on each chunk, the checked
arrays for the work that rides on the same pass, and the client's verdict."""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from ..inputs import abort as _abort, plural as _plural
from ._collect import (
    Pairs,
    Rank,
    alignment_error,
    check_binary_chunk,
    check_codes_chunk,
    check_lengths_apart,
    check_matrix_chunk,
    check_vector_chunk,
    raise_first,
    to_array,
)

__all__ = ["Spec", "checked_chunk", "verdict", "problems"]


class Spec(NamedTuple):
    """What the first pass checks.

    ``p_kind``: "prob" (probability vector), "x" (finite numeric vector) or
    "matrix"; ``y_kind``: "binary" or "codes"; ``form``: "binary",
    "confidence", "classwise" or "canonical"; ``require_both``: both labels
    must occur (calibrators); ``length_message``: R's row-count message.
    """

    p_kind: str
    y_kind: str
    form: str
    k: int
    categories: Optional[tuple]
    p_arg: str = "p"
    y_arg: str = "y"
    require_both: bool = False
    length_message: str = "Arguments `p` and `y` must have the same length."


def spec_for(pairs: Pairs, form: str, *, p_arg="p", y_arg="y", require_both=False,
             p_kind=None) -> Spec:
    matrix = pairs.matrix
    if form in ("confidence", "canonical"):
        length = f"Arguments `{p_arg}` and `{y_arg}` must have the same number of observations."
    else:
        length = f"Arguments `{p_arg}` and `{y_arg}` must have the same length."
    return Spec(p_kind or ("matrix" if matrix else "prob"), "codes" if matrix else "binary", form,
                pairs.k, tuple(pairs.categories) if pairs.categories is not None else None,
                p_arg, y_arg, require_both, length)


def checked_chunk(pc, yc, spec: Spec):
    """``(p, y, answer)``: the chunk's checked values (None after a failed
    check) and its part of the verdict."""
    p = to_array(pc)
    if spec.p_kind == "matrix":
        p, found_p = check_matrix_chunk(p.astype(np.float64, copy=False) if p.dtype.kind in "iuf" else p,
                                        spec.p_arg)
    else:
        p, found_p = check_vector_chunk(p, spec.p_arg, spec.p_kind == "prob", Rank.P)
    n_p = 0 if p is None else p.shape[0]
    if p is None:
        n_p = len(pc)
    ans = {"n_p": ("sum", int(n_p))}
    if yc is None:
        ans["found"] = ("first", found_p or (Rank.NONE, ""))
        return p, None, ans
    if spec.y_kind == "binary":
        y, found_y = check_binary_chunk(yc, spec.y_arg)
    else:
        y, found_y = check_codes_chunk(yc, list(spec.categories) if spec.categories else None)
    n_y = len(yc)
    ans["n_y"] = ("sum", int(n_y))
    ans["mismatch"] = ("any", n_p != n_y)
    if y is not None and y.size:
        if spec.y_kind == "binary":
            ans["has0"] = ("any", bool((y == 0).any()))
            ans["has1"] = ("any", bool((y == 1).any()))
        else:
            ans["top"] = ("max", int(y.max()))
    found = [f for f in (found_p, found_y) if f is not None]
    ans["found"] = ("first", min(found, key=lambda f: f[0]) if found else (Rank.NONE, ""))
    if found or n_p != n_y:
        return None, None, ans
    return p, y, ans


def verdict(ans: dict, spec: Spec, pairs: Pairs, after_p=None, after_all=None) -> int:
    """Raise R's message for the first failed check, in R's order; the row count.

    ``after_p`` / ``after_all``: an argument's error R raises after checking
    ``p`` (a matrix's ``type``) or after all the data (``bins``).
    """
    found = ans.get("found", (Rank.NONE, ""))
    n_p, n_y = ans.get("n_p", 0), ans.get("n_y", 0)
    if found[0] < Rank.Y:
        raise_first(found)
    if n_p == 0:
        _abort(f"Argument `{spec.p_arg}` must not be empty.")
    if spec.p_kind == "matrix" and after_p is not None:
        raise after_p
    if found[0] < Rank.NONE:
        raise_first(found)
    if n_y == 0:
        _abort(f"Argument `{spec.y_arg}` must not be empty.")
    if spec.y_kind == "binary":
        if spec.require_both and not (ans.get("has0", False) and ans.get("has1", False)):
            _abort(f"Argument `{spec.y_arg}` must contain at least one `0` and one `1`.")
    else:
        top = ans.get("top", 0)
        k = len(spec.categories) if spec.categories is not None else top
        if k < 2:
            _abort(f"Argument `{spec.y_arg}` must have at least two classes.")
        if k != spec.k:
            _abort(f"Argument `{spec.y_arg}` has {k} {_plural(k, 'class', 'es')} but the input has "
                   f"{spec.k} {_plural(spec.k, 'column', 's')}.")
    if n_p != n_y:
        _abort(spec.length_message)
    if ans.get("mismatch", False):
        raise alignment_error(spec.p_arg, spec.y_arg)
    if after_all is not None:
        raise after_all
    return int(n_p)


def unpaired(pairs: Pairs, spec: Spec) -> None:
    """Inputs that could not be paired: checked apart, then R's length message."""
    p_kind = {"prob": "vector", "x": "x", "matrix": "matrix"}[spec.p_kind]
    check_lengths_apart(pairs, p_kind, spec.y_kind, spec.p_arg, spec.y_arg, spec.length_message)


def problems(p: np.ndarray, y: np.ndarray, form: str, k: int):
    """The scalar problems ``(r, c)`` of a checked chunk (``Form.problems``)."""
    if form == "binary":
        return [(p, y)]
    if form == "confidence":
        predicted = np.argmax(p, axis=1)
        r = np.take_along_axis(p, predicted[:, None], axis=1)[:, 0] if p.size else np.zeros(0)
        return [(r, (predicted + 1 == y).astype(np.int64))]
    return [(p[:, j], (y == j + 1).astype(np.int64)) for j in range(k)]

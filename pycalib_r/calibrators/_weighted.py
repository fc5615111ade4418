# SPDX-License-Identifier: GPL-3.0-or-later
"""Numerics of the calibrators' observation weights (Python-only; probcal has no weights).

Every function here defines its weighted quantity so that a row with integer
weight ``k`` gives what ``k`` copies of the row give, and a row with weight 0
what its absence gives: order statistics of the "expanded" sample are looked
up in the cumulative weights instead of being materialised, PAV pools
weighted sums, bin means are weighted sums over summed weights.
"""

from __future__ import annotations

from typing import List, Tuple

import numpy as np

from ..binned._binning import seq01
from ..binned._weighted import weighted_type8_breaks
from ..inputs import abort as _abort
from ..rbase._rarith import r_sum

__all__ = ["require_weighted_classes", "weighted_histogram_breaks",
           "weighted_equal_mass_edges", "weighted_pav", "weighted_binary_isotonic"]


def require_weighted_classes(codes: np.ndarray, w: np.ndarray, classes) -> None:
    """Refuse weights that leave a class of ``classes`` with total weight 0.

    The unweighted fit refuses data without every class; rows of weight 0
    count as absent, so weights that empty a class are refused the same way.
    """
    for c in classes:
        if not r_sum(w[codes == c]) > 0:
            _abort("Argument `weights` gives a class of `y` a total weight of 0: "
                   "every class must keep a positive total weight.")


def _positive(x: np.ndarray, w: np.ndarray):
    """The rows of positive weight, sorted by ``x``, and their cumulative weights."""
    keep = w > 0
    xs, ws = x[keep], w[keep]
    order = np.argsort(xs, kind="stable")
    return xs[order], np.cumsum(ws[order])


def _order_stat(xs: np.ndarray, cumw: np.ndarray, j) -> np.ndarray:
    """Order statistic ``j`` (1-based) of the sample in which each value of
    ``xs`` appears ``w`` times: the first value whose cumulative weight reaches ``j``."""
    i = np.searchsorted(cumw, np.asarray(j, dtype=np.float64), side="left")
    return xs[np.minimum(i, xs.size - 1)]


def weighted_histogram_breaks(p: np.ndarray, w: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    """:func:`pycalib_r.binned._binning.histogram_breaks` with observation weights."""
    if strategy == "equal_width":
        return seq01(bins + 1)
    # The metrics' equal-frequency edges of the replicated sample (R's type-8
    # quantiles), with their bound on the number of edges.
    return weighted_type8_breaks(p, w, bins)


def weighted_equal_mass_edges(p: np.ndarray, w: np.ndarray, bins: int) -> np.ndarray:
    """:func:`pycalib_r.binned._binning.equal_mass_edges` with observation weights.

    With a whole-number total weight ``N`` the runs are those of the copies
    (``array_split`` of ``N`` values); otherwise run ``i`` ends at weight
    ``i * N / B``. An inner edge is the midpoint of the values either side
    of the cut, as in the unweighted rule.
    """
    xs, cumw = _positive(p, w)
    total = float(cumw[-1])
    if total == np.floor(total) and total < 2.0 ** 53:
        n = int(total)
        b = min(int(bins), n)
        if b <= 1:
            return np.array([0.0, 1.0])
        size, extra = divmod(n, b)
        ends = (np.arange(1, b) * size + np.minimum(np.arange(1, b), extra)).astype(np.float64)
    else:
        b = int(bins)
        if b <= 1:
            return np.array([0.0, 1.0])
        ends = np.arange(1, b) * (total / b)
    lo = _order_stat(xs, cumw, ends)                                   # position `end` (1-based)
    hi = xs[np.minimum(np.searchsorted(cumw, ends, side="right"), xs.size - 1)]  # the next one
    inner = (lo + hi) / 2.0
    return np.unique(np.concatenate(([0.0], inner, [1.0])))


def weighted_pav(sums: np.ndarray, weights: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pool adjacent violators on ordered points with weighted sums and weights.

    Point ``i`` has mean ``sums[i] / weights[i]`` (weights positive). Adjacent
    blocks are pooled while the earlier block's mean is not below the later
    one's (compared as ``s1 * w2 >= s2 * w1``, exact for whole-number sums
    and weights below 2^26, so integer weights pool as their copies do).
    Returns block ends (exclusive indices), block sums and block weights.
    """
    bs: List[float] = []
    bw: List[float] = []
    ends: List[int] = []
    for i, (s, c) in enumerate(zip(sums.tolist(), weights.tolist())):
        while bs and bs[-1] * c >= s * bw[-1]:
            s += bs.pop()
            c += bw.pop()
            ends.pop()
        bs.append(s)
        bw.append(c)
        ends.append(i + 1)
    return np.array(ends, dtype=np.int64), np.array(bs), np.array(bw)


# Points from which the C loop pools (a Python loop takes about 1 us a point).
_PAV_MIN = 64


def _pav_kernels(n: int):
    """The C loop (:mod:`pycalib_r._native.weighted`) for ``n`` points, or None."""
    if n < _PAV_MIN:
        return None
    from .. import _native  # noqa: PLC0415

    return _native.kernels("weighted")


def weighted_binary_isotonic(p: np.ndarray, y: np.ndarray, w: np.ndarray):
    """Weighted isotonic regression of 0/1 ``y`` on ``p``: ``(x, wysum, wsum, fitted, ends)``.

    Rows of weight 0 are dropped; tied ``p`` are pooled first (weighted sum
    of labels over summed weight, scikit-learn's treatment of ties), then
    PAV runs on the unique values. ``wysum`` and ``wsum`` are each unique
    value's ``sum(w * y)`` and ``sum(w)``, ``fitted`` its block's mean
    (``sum(w * y) / sum(w)`` over the block), ``ends`` the block ends.
    """
    keep = w > 0
    p, y, w = p[keep], y[keep], w[keep]
    order = np.argsort(p, kind="stable")
    p, y, w = p[order], y[order], w[order]
    starts = np.concatenate(([0], np.flatnonzero(p[1:] != p[:-1]) + 1))
    x = p[starts]
    wy = w * y
    s = np.add.reduceat(wy, starts)
    c = np.add.reduceat(w, starts)
    kern = _pav_kernels(s.size)
    ends, bsum, bw = weighted_pav(s, c) if kern is None else kern.weighted_pav(s, c)
    sizes = np.diff(np.concatenate(([0], ends)))
    fitted = np.repeat(bsum / bw, sizes)
    return x, s, c, fitted, ends


def weighted_multiclass_log_loss(prob, codes, w: np.ndarray, eps: float = 1e-15) -> float:
    """probcal's ``multiclass_log_loss()`` with observation weights: the
    weighted mean ``-sum(w log q_(i, y_i)) / sum(w)`` (``q`` clipped to ``[eps, 1 - eps]``)."""
    from ._base import clip_eps, r_log  # noqa: PLC0415

    prob = np.asarray(prob, dtype=np.float64)
    codes = np.asarray(codes, dtype=np.int64)
    picked = clip_eps(prob[np.arange(codes.size), codes - 1], eps)
    return -(r_sum(w * r_log(picked)) / r_sum(w))

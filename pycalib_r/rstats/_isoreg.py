# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/isoreg.R, src/library/stats/src/isoreg.c, src/library/stats/R/approx.R (GPL-2.0-or-later), (c) The R Core Team
"""R's ``isoreg()`` for 0/1 responses (exact pool-adjacent-violators), the
``order(p, -y)`` keys it is fitted on, and ``approx()``'s linear rule 2.

Used by isotonic calibration (:mod:`pycalib_r.calibrators._isotonic`) and by
the CORP reliability diagram (:mod:`pycalib_r.diagnostics._corp`).

R equivalent: ``stats::isoreg`` (``isoreg.c``), ``stats::approx(rule = 2)``.
"""

from __future__ import annotations

import numpy as np

from ..rbase._rlist import RList

__all__ = ["IsoregFit", "isoreg"]


class IsoregFit(RList):
    """R's ``isoreg`` object: ``x``, ``y``, ``yf``, ``yc``, ``iKnots``, ``isOrd``, ``ord``, ``call``.

    R equivalent: the value of ``stats::isoreg(x, y)``. ``iKnots`` and ``ord``
    keep R's 1-based indices; ``ord`` is ``None`` (R's ``NULL``) when ``x``
    was strictly increasing.
    """

    r_class = ("isoreg",)
    # One value per training row: left out of a calibrator's to_dict() unless data=True.
    _row_data = ("x", "y", "yf", "yc", "iKnots", "ord")

    def __init__(self, x, y, yf, yc, iKnots, isOrd, ord, call):
        self._set_components([("x", x), ("y", y), ("yf", yf), ("yc", yc), ("iKnots", iKnots),
                              ("isOrd", isOrd), ("ord", ord), ("call", call)])

    def __repr__(self) -> str:
        return f"<IsoregFit: n = {self.x.size}, {self.iKnots.size} knots>"


# Runs from which the C pooling is used (the Python loop takes about 1.4 us
# a run, a C call a few us in all).
_PAVA_MIN_RUNS = 8


# Observations from which isoreg's outputs and the tie runs are filled by C
# passes (numpy's dozen passes and n-sized temporaries cost more than a C
# call from a few dozen rows; 0.13 s against 0.03 s at 10^6 rows).
_FILL_MIN = 64


def _pava_kernels(runs: int):
    """The C loops (:mod:`pycalib_r._native.calibrators`) for ``runs`` runs, or None."""
    if runs < _PAVA_MIN_RUNS:
        return None
    from .. import _native  # noqa: PLC0415

    return _native.kernels("calibrators")


def _fill_kernels(n: int):
    """The C loops for ``n`` observations, or None (below ``_FILL_MIN`` or
    where the twins run)."""
    if n < _FILL_MIN:
        return None
    from .. import _native  # noqa: PLC0415

    return _native.kernels("calibrators")


def _pava_binary(y: np.ndarray):
    """Blocks of the antitonic-violator pooling for 0/1 data, in exact integer arithmetic.

    Returns block end positions (exclusive), block sums and block sizes;
    adjacent blocks have strictly increasing means.
    """
    if y.size >= max(_FILL_MIN, _PAVA_MIN_RUNS) and y.dtype == np.int64:
        kern = _fill_kernels(y.size)
        if kern is not None:
            # The runs found and pooled in the same pass (no run arrays), by
            # pava_runs's arithmetic: the same blocks.
            sums_arr = np.empty(y.size, dtype=np.int64)
            counts_arr = np.empty(y.size, dtype=np.int64)
            top = kern.pava_labels(y, sums_arr, counts_arr)
            counts_arr = counts_arr[:top].copy()
            return np.cumsum(counts_arr), sums_arr[:top].copy(), counts_arr
    sums: list = []
    counts: list = []
    # Adjacent equal labels always share a fitted value, so runs are pooled first.
    change = np.flatnonzero(np.diff(y)) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [y.size])))
    values = y[starts]
    kern = _pava_kernels(values.size)
    if kern is not None:
        sums_arr = np.empty(values.size, dtype=np.int64)
        counts_arr = np.empty(values.size, dtype=np.int64)
        top = kern.pava_runs(values.astype(np.int64), lengths.astype(np.int64), sums_arr, counts_arr)
        counts_arr = counts_arr[:top].copy()
        return np.cumsum(counts_arr), sums_arr[:top].copy(), counts_arr
    for v, length in zip(values.tolist(), lengths.tolist()):
        s = v * length
        c = length
        # pool while the previous block's mean is >= this block's mean
        while sums and sums[-1] * c >= s * counts[-1]:
            s += sums.pop()
            c += counts.pop()
        sums.append(s)
        counts.append(c)
    counts_arr = np.array(counts, dtype=np.int64)
    return np.cumsum(counts_arr), np.array(sums, dtype=np.int64), counts_arr


def isoreg(x, y) -> IsoregFit:
    """R ``stats::isoreg(x, y)`` for binary ``y`` already ordered by ``order(x, -y)``.

    The fitted values are those of R's greatest-convex-minorant algorithm
    (each one a ratio of integers, so exactly R's doubles) and ``iKnots``
    lists every index where the cumulative sum touches the minorant, which
    is what R's first-minimum search returns.
    """
    x = np.asarray(x, dtype=np.float64)
    y_int = np.asarray(y, dtype=np.int64)
    n = y_int.size
    ends, sums, counts = _pava_binary(y_int)
    kern = _fill_kernels(n)
    if kern is not None:
        # The same numbers as the lines below, in one pass (tests/native/test_native_calibrators.py).
        yf, yc, knots = np.empty(n), np.empty(n + 1), np.empty(n, dtype=np.int64)
        m = kern.isoreg_fill(y_int, sums, counts, yf, yc, knots)
        iknots = knots[:m].copy() if m < n // 2 else knots[:m]
    else:
        yf = np.repeat(sums.astype(np.float64) / counts.astype(np.float64), counts)
        yc = np.concatenate(([0.0], np.cumsum(y_int).astype(np.float64)))
        # Touching points: prefix sum within a block lies on the block's line.
        block_of = np.repeat(np.arange(ends.size), counts)
        known = np.concatenate(([0], ends[:-1]))[block_of]
        pos = np.arange(1, n + 1)
        cy = np.cumsum(y_int)
        cy_known = np.concatenate(([0], cy))[known]
        touch = (cy - cy_known) * counts[block_of] == sums[block_of] * (pos - known)
        iknots = pos[touch].astype(np.int64)
    # diff(x) > 0 exactly when x[i + 1] > x[i] (gradual underflow), without the temporary.
    is_ord = bool(n < 2 or np.all(x[1:] > x[:-1]))
    ord_ = None if is_ord else np.arange(1, n + 1)
    return IsoregFit(x=x, y=y_int.astype(np.float64), yf=yf, yc=yc, iKnots=iknots,
                     isOrd=is_ord, ord=ord_, call="stats::isoreg(x = p_ordered, y = y_ordered)")


def _order_keys(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """One uint64 per observation that sorts as R's ``order(p, -y)``.

    The bits of a non-negative double sort as the double does (``+ 0.0``
    turns -0 into 0); the freed lowest bit puts label 1 before 0 among ties.
    """
    bits = (p + 0.0).view(np.uint64)
    return (bits << np.uint64(1)) | (1 - y).astype(np.uint64)


def _sorted_pairs(p: np.ndarray, y: np.ndarray):
    """:func:`_ordered` for float64 ``p`` without a -0: the sorted keys,
    decoded (no permutation)."""
    keys = p.view(np.uint64) << np.uint64(1)
    keys |= y == 0
    keys.sort()
    y_ord = (keys & np.uint64(1)).view(np.int64)
    y_ord ^= 1
    keys >>= np.uint64(1)
    return keys.view(np.float64), y_ord


def _approx_linear(x: np.ndarray, y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """R ``approx(x, y, xout = v, rule = 2-style yleft/yright)`` for sorted unique ``x``."""
    n = x.size
    i = np.clip(np.searchsorted(x, v, side="right") - 1, 0, n - 2)
    j = i + 1
    xi, xj, yi, yj = x[i], x[j], y[i], y[j]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = yi + (yj - yi) * ((v - xi) / (xj - xi))
    out = np.where(v == xi, yi, out)
    out = np.where(v == xj, yj, out)
    out = np.where(v < x[0], y[0], out)
    out = np.where(v > x[-1], y[-1], out)
    return out

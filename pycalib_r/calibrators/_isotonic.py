"""Isotonic calibration: R's ``isoreg()`` fit, tie collapsing and ``approx()`` prediction."""

from __future__ import annotations

import numpy as np

from .._binning import stable_order
from .._checks import check_binary_y, check_probability, check_same_length
from ._base import Calibrator, as_character, format_call, new_calibrator, r_mean

__all__ = ["cal_isotonic", "CalIsotonic", "IsoregFit", "isoreg"]


class IsoregFit:
    """R's ``isoreg`` object: ``x``, ``y``, ``yf``, ``yc``, ``iKnots``, ``isOrd``, ``ord``, ``call``.

    R equivalent: the value of ``stats::isoreg(x, y)``. ``iKnots`` and ``ord``
    keep R's 1-based indices; ``ord`` is ``None`` (R's ``NULL``) when ``x``
    was strictly increasing.
    """

    def __init__(self, x, y, yf, yc, iKnots, isOrd, ord, call):
        self.x = x
        self.y = y
        self.yf = yf
        self.yc = yc
        self.iKnots = iKnots
        self.isOrd = isOrd
        self.ord = ord
        self.call = call

    def __getitem__(self, r_name: str):
        return getattr(self, r_name)

    def __repr__(self) -> str:
        return f"<IsoregFit: n = {self.x.size}, {self.iKnots.size} knots>"


def _pava_binary(y: np.ndarray):
    """Blocks of the antitonic-violator pooling for 0/1 data, in exact integer arithmetic.

    Returns block end positions (exclusive), block sums and block sizes;
    adjacent blocks have strictly increasing means.
    """
    sums: list = []
    counts: list = []
    # Adjacent equal labels always share a fitted value, so runs are pooled first.
    change = np.flatnonzero(np.diff(y)) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [y.size])))
    values = y[starts]
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
    is_ord = bool(n < 2 or np.all(np.diff(x) > 0))
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


def _r_mean_runs(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """R ``mean()`` of each run, computed only where a run varies (a constant run's mean is its value)."""
    out = values[starts].copy()
    ends = starts + lengths
    for i in np.flatnonzero(lengths > 1):
        seg = values[starts[i]:ends[i]]
        if np.all(seg == seg[0]):
            continue
        out[i] = r_mean(seg)
    return out


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


class CalIsotonic(Calibrator):
    """A fitted isotonic calibrator (R class ``c("cal_isotonic", "calibrator")``).

    Components (R order): ``method``, ``n``, ``input``, ``x_thresholds``
    (unique training probabilities), ``y_calibrated`` (fitted value per
    threshold), ``fit`` (:class:`IsoregFit`), ``call``.
    """

    r_class = "cal_isotonic"

    def _predict(self, newdata):
        # R's approx() returns a plain vector whatever the shape of newdata,
        # taking a matrix column by column.
        v = check_probability(newdata, arg="newdata").ravel(order="F")
        if self.x_thresholds.size == 1:
            out = np.repeat(self.y_calibrated, v.size)
        else:
            out = _approx_linear(self.x_thresholds, self.y_calibrated, v)
            out = np.minimum(np.maximum(out, 0.0), 1.0)
        return out

    def summary_params(self):
        return {"Thresholds": as_character(int(self.x_thresholds.size))}


def cal_isotonic(p, y) -> CalIsotonic:
    """Isotonic-regression calibration with linear interpolation between thresholds.

    R equivalent: ``probcal::cal_isotonic(p, y)``.

    Observations are ordered by ``p`` with positive labels first among ties
    (R's ``order(p, -y)``), fitted by isotonic least squares (``isoreg``),
    clipped to ``[0, 1]`` and collapsed to one value per unique probability
    (R's ``mean`` of the tied fitted values). Prediction interpolates linearly
    (R's ``approx``) and is constant beyond the training range.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.

    Returns
    -------
    CalIsotonic

    Examples
    --------
    >>> fit = cal_isotonic([0.1, 0.4, 0.35, 0.8], [0, 1, 0, 1])
    >>> fit.predict([0.1, 0.8]).tolist()
    [0.0, 1.0]
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    order = stable_order(_order_keys(p_arr, y_arr))
    p_ord = p_arr[order]
    y_ord = y_arr[order]
    fit = isoreg(p_ord, y_ord)
    fitted = np.minimum(np.maximum(fit.yf, 0.0), 1.0)
    # rle(): a run ends where the next value differs; R keeps each run's last value.
    breaks = np.flatnonzero(p_ord[1:] != p_ord[:-1])
    run_ends = np.concatenate((breaks, [p_ord.size - 1]))
    run_starts = np.concatenate(([0], breaks + 1))
    lengths = run_ends - run_starts + 1
    y_fitted = _r_mean_runs(fitted, run_starts, lengths)
    return new_calibrator(
        CalIsotonic,
        method="isotonic regression",
        n=y_arr.size,
        input="probabilities",
        x_thresholds=p_ord[run_ends].copy(),
        y_calibrated=y_fitted,
        fit=fit,
        call=format_call("cal_isotonic", ("p", "y")),
    )

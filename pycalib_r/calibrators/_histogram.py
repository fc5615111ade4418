"""Histogram-binning calibration with probcal's bins and empty-bin filling."""

from __future__ import annotations

import numpy as np

from .._binning import STRATEGIES, find_bins, histogram_breaks
from .._checks import check_binary_y, check_bins, check_probability, check_same_length, match_arg
from ._base import Calibrator, as_character, format_call, new_calibrator, r_int_mean

__all__ = ["cal_histogram", "CalHistogram", "fill_empty_bins"]

_LD = np.longdouble


def fill_empty_bins(values: np.ndarray, counts: np.ndarray, fallback: float) -> np.ndarray:
    """probcal's internal ``fill_empty_bins()``: an empty bin takes the nearest
    non-empty bin's value (the lower one on a tie), or ``fallback`` if all are empty.

    Returns a new array; ``values`` is not modified.
    """
    out = np.array(values, dtype=np.float64, copy=True)
    empty = np.flatnonzero(counts == 0)
    if empty.size == 0:
        return out
    non_empty = np.flatnonzero(counts > 0)
    if non_empty.size == 0:
        out[:] = fallback
        return out
    for i in empty:
        # argmin returns the first minimum, as R's which.min() does
        nearest = non_empty[np.argmin(np.abs(non_empty - i))]
        out[i] = out[nearest]
    return out


class CalHistogram(Calibrator):
    """A fitted histogram-binning calibrator (R class ``c("cal_histogram", "calibrator")``).

    Components (R order): ``method``, ``n``, ``input``, ``bins`` (requested),
    ``actual_bins``, ``strategy``, ``breaks``, ``bin_values``, ``counts``
    (training counts per bin), ``global_rate``, ``call``.
    """

    r_class = "cal_histogram"

    def _predict(self, newdata):
        p = check_probability(newdata, arg="newdata").ravel(order="F")
        return self.bin_values[find_bins(p, self.breaks)]

    def summary_params(self):
        return {
            "RequestedBins": as_character(int(self.bins)),
            "ActualBins": as_character(int(self.actual_bins)),
            "Strategy": self.strategy,
        }


def cal_histogram(p, y, bins=10, strategy=("equal_width", "equal_freq")) -> CalHistogram:
    """Histogram binning: each probability is replaced by its bin's event rate.

    R equivalent: ``probcal::cal_histogram(p, y, bins = 10,
    strategy = c("equal_width", "equal_freq"))``.

    Bins are left-closed (the last one closed on both sides). Equal-width
    edges are R's ``seq(0, 1, length.out = bins + 1)``; equal-frequency edges
    are ``quantile(p, type = 8)`` with the ends forced to 0 and 1 and
    duplicates dropped (so ``actual_bins`` can be below ``bins``). Empty bins
    take the value of the nearest non-empty bin.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.
    bins : int
        Number of bins (a single positive whole number).
    strategy : {"equal_width", "equal_freq"}
        Unique prefixes are accepted, as R's ``match.arg`` does.

    Returns
    -------
    CalHistogram

    Examples
    --------
    >>> fit = cal_histogram([0.1, 0.2, 0.7, 0.9], [0, 1, 1, 1], bins=2)
    >>> fit.bin_values.tolist()
    [0.5, 1.0]
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    bins_given = bins
    bins = check_bins(bins)
    strategy_given = strategy
    strategy = match_arg(strategy, STRATEGIES)
    breaks = histogram_breaks(p_arr, bins, strategy)
    bin_idx = find_bins(p_arr, breaks)
    n_bins = breaks.size - 1
    counts = np.bincount(bin_idx, minlength=n_bins).astype(np.int64)
    positives = np.bincount(bin_idx, weights=y_arr, minlength=n_bins)
    values = np.full(n_bins, np.nan)
    filled = counts > 0
    # R: mean() of an integer vector is a long-double division rounded once.
    values[filled] = (positives[filled].astype(_LD) / counts[filled].astype(_LD)).astype(np.float64)
    global_rate = r_int_mean(y_arr)
    values = fill_empty_bins(values, counts, fallback=global_rate)
    return new_calibrator(
        CalHistogram,
        method="histogram binning",
        n=y_arr.size,
        input="probabilities",
        bins=bins,
        actual_bins=int(n_bins),
        strategy=strategy,
        breaks=breaks,
        bin_values=values,
        counts=counts,
        global_rate=global_rate,
        call=format_call(
            "cal_histogram", ("p", "y"),
            bins=None if bins_given == 10 else bins_given,
            strategy=None if isinstance(strategy_given, tuple) else strategy_given,
        ),
    )

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/*.R (cal_histogram) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Histogram-binning calibration with probcal's bins and empty-bin filling."""

from __future__ import annotations

import numpy as np

from ..binned._binning import STRATEGIES, find_bins, histogram_breaks
from ..inputs._checks import (check_bin_edges, check_binary_y, check_bins, check_probability,
                       check_same_length, match_arg)
from ..inputs._weights import check_weights
from ._base import Calibrator, as_character, format_call, new_calibrator, r_int_mean
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_histogram", "CalHistogram", "fill_empty_bins"]

_LD = np.longdouble


def fill_empty_bins(values: np.ndarray, counts: np.ndarray, fallback: float) -> np.ndarray:
    """probcal's internal ``fill_empty_bins()``: an empty bin takes the nearest
    non-empty bin's value (the lower one on a tie), or ``fallback`` if all are empty.

    Returns a new array; ``values`` is not modified.
    """
    out = np.array(values, dtype=np.float64, copy=True)
    _fill_empty_bins(out, np.asarray(counts))
    if not np.any(np.asarray(counts) > 0):
        out[:] = fallback
    return out


def _fill_empty_bins(out: np.ndarray, counts: np.ndarray) -> None:
    """:func:`fill_empty_bins` in place, when some bin is non-empty (else a
    no-op). In slices of bins, so a huge number of bins costs no temporaries
    of its size; R's ``which.min(abs(non_empty - i))`` is the left
    neighbour unless the right one is strictly nearer."""
    non_empty = np.flatnonzero(counts > 0)
    if non_empty.size == 0 or non_empty.size == counts.size:
        return
    for s in range(0, counts.size, _BIN_SLICE):
        idx = s + np.flatnonzero(counts[s:s + _BIN_SLICE] == 0)
        if idx.size == 0:
            continue
        right = np.searchsorted(non_empty, idx)
        left = np.maximum(right - 1, 0)
        right = np.minimum(right, non_empty.size - 1)
        dl, dr = np.abs(idx - non_empty[left]), np.abs(non_empty[right] - idx)
        nearest = np.where(dr < dl, non_empty[right], non_empty[left])
        out[idx] = out[nearest]


fill_empty_bins_into = _fill_empty_bins  # the name other rooms import (public inside the package)


_BIN_SLICE = 1 << 20


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


def _fit_bins(p: np.ndarray, breaks: np.ndarray) -> np.ndarray:
    """``find_bins(p, breaks)`` for the fit, faster while there are few breaks.

    ``searchsorted(breaks, v, side="right")`` is the number of (sorted)
    breaks ``<= v``; counted with one vectorised comparison per break it is
    the same integer without a branchy binary search per row (``p`` is
    finite, checked by ``check_probability``).
    """
    if breaks.size > 64:
        return find_bins(p, breaks)
    count = np.zeros(p.size, dtype=np.int8)
    for b in breaks:
        count += p >= b
    return np.clip(count, 1, breaks.size - 1).astype(np.int64) - 1


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_histogram(p, y, bins=10, strategy=("equal_width", "equal_freq"), weights=None) -> CalHistogram:
    """Histogram binning: each probability is replaced by its bin's event rate.

    R equivalent: ``probcal::cal_histogram(p, y, bins = 10,
    strategy = c("equal_width", "equal_freq"))``.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.
    bins : int
        Number of bins (a single positive whole number). The fitted object
        holds, as R's does, one break, count and value per bin, so it takes
        about ``24 * bins`` bytes (a ``MemoryError`` with a note says so when
        that does not fit); the fit itself adds only O(n) work, whatever
        ``bins``.
    strategy : {"equal_width", "equal_freq"}
        Unique prefixes are accepted, as R's ``match.arg`` does.
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive sum,
        both classes keeping a positive total; else a ``ProbcalError``
        naming ``weights``). A bin's value is its weighted event rate
        ``sum(w y) / sum(w)``, ``counts`` are the bins' total weights (float),
        ``global_rate`` the weighted mean of ``y``, a bin of total weight 0
        is empty, and ``"equal_freq"`` takes R's type-8 quantiles of the
        sample holding ``w_i`` copies of ``p_i`` (``n`` becomes ``sum(w)``,
        the order statistics read from the cumulative weights). So a row of
        weight 0 changes nothing and a row of integer weight ``k`` counts as
        ``k`` copies (breaks, values and counts equal to the copies' bit for
        bit); ``None`` (the default) is R's fit, bit for bit.

    Returns
    -------
    CalHistogram
        Components ``method``, ``n``, ``input``, ``bins`` (requested),
        ``actual_bins``, ``strategy``, ``breaks``, ``bin_values``, ``counts``
        (training counts per bin), ``global_rate`` (``mean(y)``), ``call``.
        ``predict(fit, newdata)`` is the value of the bin each new probability
        falls in.

    Notes
    -----
    With breaks ``0 = b_0 < b_1 < ... < b_J = 1`` the bins are left-closed,
    ``I_j = {i : b_(j-1) <= p_i < b_j}``, the last one closed on both sides
    (R's ``findInterval(p, breaks, rightmost.closed = TRUE, all.inside =
    TRUE)``), so a value on an inner break goes to the bin that starts there
    and 1 goes to the last bin. A non-empty bin's value is its event rate,
    ``q_j = (1 / n_j) sum_(i in I_j) y_i``.

    - ``"equal_width"``: ``breaks = seq(0, 1, length.out = bins + 1)``, so
      ``J = bins``.
    - ``"equal_freq"``: ``breaks = quantile(p, (0:bins) / bins, type = 8)``
      (Hyndman & Fan's median-unbiased definition), with the first and last
      forced to 0 and 1 and duplicates dropped, so ``J = actual_bins`` can
      be smaller than ``bins`` when ``p`` has ties.

    An empty bin (possible with equal widths) takes the value of the nearest
    non-empty bin by bin index, the lower one when two are equally near;
    ``global_rate`` would be used if no bin had data. Prediction therefore
    is defined on all of ``[0, 1]``, and the map need not be monotone.

    Other implementations: Zadrozny & Elkan (2001) sorted the training
    scores into bins of equal size (here ``strategy="equal_freq"``);
    probcal's default is equal widths. scikit-learn has no histogram
    calibrator.

    References
    ----------
    Zadrozny, B., & Elkan, C. (2001). Obtaining calibrated probability
    estimates from decision trees and naive Bayesian classifiers. In
    *Proceedings of the Eighteenth International Conference on Machine
    Learning* (pp. 609-616). Morgan Kaufmann.

    Zadrozny, B., & Elkan, C. (2002). Transforming classifier scores into
    accurate multiclass probability estimates. In *Proceedings of the Eighth
    ACM SIGKDD International Conference on Knowledge Discovery and Data
    Mining* (pp. 694-699). doi:10.1145/775047.775151.

    Hyndman, R. J., & Fan, Y. (1996). Sample quantiles in statistical
    packages. *The American Statistician*, 50(4), 361-365.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(5)
    >>> p = pc.runif(120)
    >>> y = pc.rbinom(120, 1, p)
    >>> fit = pc.cal_histogram(p, y, bins=5)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: histogram binning
    Observations: 120
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    RequestedBins: 5
    ActualBins: 5
    Strategy: equal_width
    >>> print(*fit.counts)
    21 29 24 15 31
    >>> print(" ".join(f"{v:.7g}" for v in fit.bin_values))
    0.04761905 0.3448276 0.4166667 0.6666667 0.9032258
    >>> eq = pc.cal_histogram(p, y, bins=5, strategy="equal_freq")
    >>> print(" ".join(f"{v:.7g}" for v in eq.breaks))
    0 0.2112286 0.3972655 0.5937864 0.8330142 1
    >>> print(*eq.counts)
    24 24 24 24 24

    R: ``set.seed(5); p <- runif(120); y <- rbinom(120, 1, p); fit <-
    cal_histogram(p, y, bins = 5); summary(fit)`` prints the same text;
    ``fit$counts``, ``fit$bin_values`` and, for ``strategy = "equal_freq"``,
    ``breaks`` and ``counts`` are the same values.
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    bins_given = bins
    bins = check_bins(bins)
    strategy_given = strategy
    strategy = match_arg(strategy, STRATEGIES)
    check_bin_edges(bins)
    w = check_weights(weights, y_arr.size)
    if w is not None:
        return _cal_histogram_weighted(p_arr, y_arr, w, bins, strategy, bins_given, strategy_given)
    breaks = histogram_breaks(p_arr, bins, strategy)
    bin_idx = _fit_bins(p_arr, breaks)
    n_bins = breaks.size - 1
    counts = np.bincount(bin_idx, minlength=n_bins).astype(np.int64, copy=False)
    # Only the occupied bins (at most n) are summed; the rest are filled.
    if n_bins <= max(bin_idx.size, 1 << 16):
        # Few bins: one count per bin, no sort (sums of 0/1 labels are exact
        # in any order).
        occupied = np.flatnonzero(counts)
        positives = np.bincount(bin_idx, weights=y_arr, minlength=n_bins)[occupied]
    else:
        occupied, inverse = np.unique(bin_idx, return_inverse=True)
        positives = np.bincount(inverse, weights=y_arr, minlength=occupied.size)
    values = np.full(n_bins, np.nan)
    # R: mean() of an integer vector is a long-double division rounded once.
    values[occupied] = (positives.astype(_LD) / counts[occupied].astype(_LD)).astype(np.float64)
    global_rate = r_int_mean(y_arr)
    _fill_empty_bins(values, counts)  # y has both classes, so some bin is non-empty
    return histogram_fit(y_arr.size, bins, n_bins, strategy, breaks, values, counts, global_rate,
                         bins_given, strategy_given)


def _cal_histogram_weighted(p_arr, y_arr, w, bins, strategy, bins_given, strategy_given):
    """``cal_histogram(..., weights = w)``: weighted breaks, bin totals and event rates."""
    from ._base import r_sum  # noqa: PLC0415
    from ._weighted import require_weighted_classes, weighted_histogram_breaks  # noqa: PLC0415

    require_weighted_classes(y_arr, w, (0, 1))
    breaks = weighted_histogram_breaks(p_arr, w, bins, strategy)
    bin_idx = _fit_bins(p_arr, breaks)
    n_bins = breaks.size - 1
    # Rows of weight 0 add 0 to both sums; a bin with no weight is empty.
    totals = np.bincount(bin_idx, weights=w, minlength=n_bins)
    positives = np.bincount(bin_idx, weights=w * y_arr, minlength=n_bins)
    occupied = np.flatnonzero(totals > 0)
    values = np.full(n_bins, np.nan)
    # The unweighted fit's long-double division (whole-number sums: the copies' bits).
    values[occupied] = (positives[occupied].astype(_LD) / totals[occupied].astype(_LD)).astype(np.float64)
    global_rate = float(_LD(r_sum(w * y_arr)) / _LD(r_sum(w)))
    _fill_empty_bins(values, totals)
    return histogram_fit(y_arr.size, bins, n_bins, strategy, breaks, values, totals, global_rate,
                         bins_given, strategy_given, weighted=True)


def histogram_fit(n, bins, n_bins, strategy, breaks, values, counts, global_rate, bins_given,
                  strategy_given, weighted=False):
    """The fitted ``cal_histogram`` object from its per-bin results (the
    in-memory and the Dask fits both end here)."""
    return new_calibrator(
        CalHistogram,
        method="histogram binning",
        n=n,
        input="probabilities",
        bins=bins,
        actual_bins=int(n_bins),
        strategy=strategy,
        breaks=breaks,
        bin_values=values,
        counts=counts,
        global_rate=global_rate,
        call=format_call(
            "cal_histogram", ("p", "y", "weights") if weighted else ("p", "y"),
            bins=None if bins_given == 10 else bins_given,
            strategy=None if isinstance(strategy_given, tuple) else strategy_given,
        ),
    )

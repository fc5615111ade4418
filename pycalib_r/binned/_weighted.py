# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: observation weights for the binned metrics (Python-only)
"""Observation weights for the binned metrics, tables and decompositions.

Python-only (probcal's metrics take no weights). The definition is the one
of R's ``glm(weights =)`` prior weights read as frequency weights: **a row
with integer weight k counts as k copies of it**, and a row of weight 0 as
no row at all. Every weighted quantity below is the unweighted one of the
replicated data when the weights are whole numbers, and its continuous
extension otherwise:

- a bin's count ``n_b`` becomes its total weight ``W_b = sum_{i in b} w_i``,
  its mean prediction and label mean the weighted means, ``n`` the total
  weight ``W``; a bin is empty when ``W_b = 0``;
- equal-width bins and a caller's edges do not depend on the data, so they
  are unchanged; ``"unique"`` bins are the distinct predictions of the rows
  of positive weight;
- equal-frequency (R's type-8 quantile) and equal-mass (Kumar et al.'s
  uniform-mass) edges are computed on the replicated sample: the order
  statistic of rank ``t`` (1-based, ``1 <= t <= W``) is the smallest
  prediction whose cumulative weight (in sorted order) reaches ``t``, and
  the positions use ``W`` where the unweighted code uses ``n``.

With whole-number weights these are the replicated data's bins exactly
(cumulative sums of whole numbers below 2^53 are exact), so only the per-bin
sums differ from the replicated data's, by rounding (double sums here
against R's long-double means there): the k-copies property holds to about
1e-15 relative, not bit for bit. ``weights=None`` never comes here: the
unweighted functions keep their code, kernels and bits. This path is numpy
(no C kernel).
"""

from __future__ import annotations

import numpy as np

from ._binning import (
    bin_groups,
    check_edges,
    equal_width_bins,
    find_bins,
    is_python_bins,
    occupied_bins,
    seq01,
    type8_combine,
)
from ..rstats import TYPE8_FUZZ as _TYPE8_FUZZ
from ..rstats import type8_nppm as _type8_nppm

__all__ = ["weighted_type8_ranks", "weighted_type8_combine", "positive_rows",
           "weighted_order_stat", "weighted_type8_breaks", "weighted_equal_mass_edges",
           "weighted_groups", "weighted_bin_sums", "weighted_problem_bins", "weighted_auto_bins",
           "weighted_problem_values", "weighted_bin_table", "MAX_WEIGHTED_EDGES"]


# Most equal-frequency / equal-mass edges the weighted path builds (128 MB):
# the unweighted metrics find R's bins for any count in O(n) memory
# (equal_freq_groups); the weighted edges are built whole, so beyond this
# many the call is refused before anything is allocated.
MAX_WEIGHTED_EDGES = 1 << 24


def _check_edge_count(count: int, strategy: str) -> None:
    if count > MAX_WEIGHTED_EDGES:
        from ..rbase._errors import ProbcalError  # noqa: PLC0415
        from ..inputs._checks import add_note  # noqa: PLC0415

        err = ProbcalError(f"Argument `bins` ({count}) is too large for {strategy} bins with "
                           f"`weights`: at most {MAX_WEIGHTED_EDGES} (2^24).")
        add_note(err, "With observation weights the equal-frequency and equal-mass edges are "
                      "built whole (one double per bin); use fewer bins, equal_width bins, or "
                      "no weights.")
        raise err


def positive_rows(w: np.ndarray, *arrays):
    """The rows of positive weight of each array, and their weights (a row of
    weight 0 is no row: it changes no bin, quantile or count)."""
    keep = w > 0
    if keep.all():
        return (w,) + arrays
    return (w[keep],) + tuple(a[keep] for a in arrays)


class _Sorted:
    """Sorted values and their cumulative weights: order statistics of the
    replicated sample."""

    def __init__(self, x: np.ndarray, w: np.ndarray):
        order = np.argsort(x, kind="stable")
        self.xs = x[order]
        self.cw = np.cumsum(w[order])
        self.total = float(self.cw[-1])

    def at(self, t) -> np.ndarray:
        """The order statistic of (1-based, possibly fractional) rank ``t``:
        the first sorted value whose cumulative weight reaches ``t``."""
        idx = np.searchsorted(self.cw, np.asarray(t, dtype=np.float64), side="left")
        return self.xs[np.clip(idx, 0, self.xs.size - 1)]


def weighted_order_stat(x: np.ndarray, w: np.ndarray):
    """``(rank -> value, W)``: the replicated sample's order statistics."""
    s = _Sorted(x, w)
    return s.at, s.total


def weighted_type8_breaks(r: np.ndarray, w: np.ndarray, bins: int) -> np.ndarray:
    """``histogram_breaks(rep(r, w), bins, "equal_freq")`` with ``n = W``:
    R's type-8 quantiles (its four-epsilon fuzz) of the replicated sample,
    the ends forced to 0 and 1, duplicates dropped."""
    s = _Sorted(r, w)
    k_lo, k_hi, h = weighted_type8_ranks(s.total, bins)
    return weighted_type8_combine(s.at(k_lo), s.at(k_hi), h)


def weighted_type8_ranks(total: float, bins: int):
    """``(k_lo, k_hi, h)``: R's type-8 positions (its four-epsilon fuzz) in a
    sample of total weight ``total`` (ranks as floats, clamped to [1, W])."""
    _check_edge_count(bins, "equal_freq")
    probs = np.clip(seq01(bins + 1), 0.0, 1.0)
    nppm = _type8_nppm(probs, total)
    j = np.floor(nppm + _TYPE8_FUZZ)
    h = nppm - j
    h[np.abs(h) < _TYPE8_FUZZ] = 0.0
    return np.clip(j, 1, total), np.clip(j + 1, 1, total), h


def weighted_type8_combine(x_lo, x_hi, h) -> np.ndarray:
    """The breaks from the order statistics at :func:`weighted_type8_ranks`."""
    x_lo, x_hi = np.asarray(x_lo, dtype=np.float64), np.asarray(x_hi, dtype=np.float64)
    breaks = type8_combine(x_lo, x_hi, h)
    breaks[0] = 0.0
    breaks[-1] = 1.0
    return np.unique(breaks)


def weighted_equal_mass_edges(r: np.ndarray, w: np.ndarray, bins: int) -> np.ndarray:
    """:func:`~pycalib_r.binned._binning.equal_mass_edges` of the replicated
    sample: ``min(bins, floor(W))`` runs as ``numpy.array_split`` cuts ``W``
    values (run ``i`` ends at rank ``i * size + min(i, extra)``, ``size, extra
    = divmod(W, B)``), inner edges the midpoints of a run's last value (that
    rank) and the next run's first (the rank after)."""
    s = _Sorted(r, w)
    b = min(int(bins), int(min(np.floor(s.total), 2.0 ** 62)))
    _check_edge_count(b, "equal_mass")
    if b <= 1:
        return np.array([0.0, 1.0])
    size, extra = divmod(s.total, b)
    i = np.arange(1, b, dtype=np.float64)
    ends = i * size + np.minimum(i, extra)
    inner = (s.at(ends) + s.at(ends + 1)) / 2.0
    return np.unique(np.concatenate(([0.0], inner, [1.0])))


def weighted_groups(r: np.ndarray, w: np.ndarray, bins, strategy: str):
    """Each row's bin ``(ids, n_ids, edges)`` (rows of positive weight);
    ``edges`` is None for equal widths beyond the edge table's size."""
    if is_python_bins(bins):
        return bin_groups(r, bins, occupied=False)
    if strategy == "equal_width":
        ids = equal_width_bins(r, bins)
        ids, n_ids = occupied_bins(ids, bins)
        return ids, n_ids, None
    if strategy == "equal_freq":
        edges = weighted_type8_breaks(r, w, bins)
    elif strategy == "equal_mass":
        edges = weighted_equal_mass_edges(r, w, bins)
    else:  # pragma: no cover - strategies are matched before
        raise ValueError(strategy)
    return find_bins(r, edges), edges.size - 1, edges


def weighted_bin_sums(ids, r, c, w, n_ids: int):
    """``(W_b, conf_b, acc_b)``: each bin's total weight and weighted means
    (NaN for an empty bin)."""
    total = np.bincount(ids, weights=w, minlength=n_ids)
    sr = np.bincount(ids, weights=w * r, minlength=n_ids)
    sc = np.bincount(ids, weights=w * np.asarray(c, dtype=np.float64), minlength=n_ids)
    full = total > 0
    safe = np.where(full, total, 1.0)
    return total, np.where(full, sr / safe, np.nan), np.where(full, sc / safe, np.nan)


def weighted_problem_bins(r, c, w, bins, strategy):
    """One binary problem's occupied bins ``(W_b, conf_b, acc_b)`` (as
    :func:`~pycalib_r.binned._calibration_error.problem_bins`)."""
    w, r, c = positive_rows(w, r, c)
    ids, n_ids, _ = weighted_groups(r, w, bins, strategy)
    total, conf, acc = weighted_bin_sums(ids, r, c, w, n_ids)
    full = total > 0
    return total[full], conf[full], acc[full]


def weighted_auto_bins(columns, w, many_bins):
    """``bins="auto"`` on the replicated sample: ``"unique"`` when every column
    holds fewer than ``W / 4`` distinct values among the rows of positive
    weight, else ``many_bins`` (the caller's ``AUTO_BINS``)."""
    keep = w > 0
    total = float(np.sum(w))
    for x in columns:
        if np.unique(x[keep]).size >= total / 4.0:
            return many_bins
    return "unique"


def weighted_problem_values(metric, w: np.ndarray):
    """Each scalar problem of a bound ``BinnedMetric`` as weighted bins
    ``(W_b, conf_b, acc_b)`` (the caller applies ``binned_error``)."""
    bins = metric.bins
    for r, c in metric.form.problems():
        if is_python_bins(bins) and not isinstance(bins, str):
            check_edges(bins, r)  # the edges cover every row, as unweighted
        wk, rk, ck = positive_rows(w, r, c)
        ids, n_ids, _ = weighted_groups(rk, wk, bins, metric.strategy)
        yield weighted_bin_sums(ids, rk, ck, wk, n_ids)


def weighted_bin_table(p, y, w, bins=10, strategy="equal_width"):
    """``bin_table``'s columns with weights: ``(bin, lower, upper, W_b, conf_b,
    acc_b)``, ``W_b`` each bin's total weight."""
    p = np.asarray(p, dtype=np.float64)
    w, p, y = positive_rows(w, p, np.asarray(y))
    if isinstance(bins, str):
        ids, n_ids, edges = bin_groups(p, bins, occupied=False)
        return (np.arange(1, n_ids + 1), edges, edges) + weighted_bin_sums(ids, p, y, w, n_ids)
    if is_python_bins(bins):
        edges = np.asarray(bins, dtype=np.float64)
    elif strategy == "equal_width":
        edges = seq01(bins + 1)
    else:
        edges = weighted_type8_breaks(p, w, bins)
    ids = find_bins(p, edges)
    return ((np.arange(1, edges.size), edges[:-1], edges[1:])
            + weighted_bin_sums(ids, p, y, w, edges.size - 1))

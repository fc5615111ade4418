"""``ece``, ``mce``, ``ace`` and ``reliability_table`` on Dask collections: per-bin sums.

Each chunk bins its values with the in-memory code (``equal_width_bins``,
``find_bins``) and returns per-bin counts and sums; the merged sums go
through the in-memory formula (``binned_error``, ``BinnedMetric.combine``,
``bin_frame``). Equal-frequency bins first find R's type-8 breaks from exact
order statistics (:mod:`._select`).
"""

from __future__ import annotations

import numpy as np

from ..binned._binning import equal_width_bins, find_bins, seq01, type8_combine, type8_positions
from ..inputs._checks import check_bins, check_count, match_arg
from ..diagnostics._diagnostics import check_strategy as _check_strategy, nonempty as _nonempty
from ..diagnostics._diagnostics import classwise_panels, with_interval
from ..rbase._errors import ProbcalError
from ..inputs._forms import MULTICLASS_TYPES
from ..binned._metrics import LENGTH_OUT_NA, BinnedMetric, bin_frame, binned_error, check_ece_flags, is_contract_call
from ._collect import map_reduce, pair_inputs
from ._pass import checked_chunk, problems, spec_for, unpaired, verdict
from ._select import keys_of, order_statistics, select_chunk

__all__ = ["ece", "mce", "ace", "reliability_table"]

# Up to this many bins per problem, per-bin arrays; beyond, the occupied bins only.
_DENSE_BINS = 1 << 16


def _try(fn, *args):
    try:
        return fn(*args), None
    except ProbcalError as err:
        return None, err


# ---------------------------------------------------------------------------
# Chunk functions (run on the workers).
# ---------------------------------------------------------------------------

def _sums(ids, r, c, n_bins, dense):
    if dense:
        return (np.bincount(ids, minlength=n_bins), np.bincount(ids, weights=r, minlength=n_bins),
                np.bincount(ids, weights=c, minlength=n_bins))
    occupied, inverse = np.unique(ids, return_inverse=True)
    m = occupied.size
    return (occupied, np.bincount(inverse, minlength=m), np.bincount(inverse, weights=r, minlength=m),
            np.bincount(inverse, weights=c, minlength=m))


def _bin_chunk(pc, yc, spec, job):
    """The first pass: checks, and (``job`` given) per-bin sums of each problem."""
    p, y, ans = checked_chunk(pc, yc, spec)
    if job is None or p is None:
        return ans
    bins, breaks = job
    for j, (r, c) in enumerate(problems(p, y, spec.form, spec.k)):
        if breaks is None:
            ids, n_bins = equal_width_bins(r, bins), bins
        else:
            ids, n_bins = find_bins(r, breaks[j]), breaks[j].size - 1
        dense = n_bins <= _DENSE_BINS
        sums = _sums(ids, r, c.astype(np.float64), n_bins, dense)
        if dense:
            ans[f"n{j}"], ans[f"sp{j}"], ans[f"sy{j}"] = (("sum", s) for s in sums)
        else:
            ans[f"sparse{j}"] = ("cat", [sums])
    return ans


def _select_chunk(pc, yc, spec, plans):
    p, y, ans = checked_chunk(pc, yc, spec)
    out = {}
    for j, (r, _) in enumerate(problems(p, y, spec.form, spec.k)):
        edges, gather = plans[j]
        if edges.size == 0:
            continue
        counts, gathered = select_chunk(keys_of(r), edges, gather)
        out[f"counts{j}"] = ("sum", counts)
        out[f"gathered{j}"] = ("cat", [gathered])
    return out


# ---------------------------------------------------------------------------
# Client side.
# ---------------------------------------------------------------------------

def _merge_sparse(parts):
    ids = np.concatenate([q[0] for q in parts])
    occupied, inverse = np.unique(ids, return_inverse=True)
    m = occupied.size
    out = [occupied]
    for col in (1, 2, 3):
        vals = np.concatenate([q[col] for q in parts]).astype(np.longdouble)
        acc = np.zeros(m, dtype=np.longdouble)
        np.add.at(acc, inverse, vals)
        out.append(acc)
    return out


def _problem_sums(ans, j):
    """``(ids or None, counts, sum_p, sum_y)`` of problem ``j`` as float64."""
    if f"sparse{j}" in ans:
        ids, n, sp, sy = _merge_sparse(ans[f"sparse{j}"])
        return ids, n.astype(np.int64), sp.astype(np.float64), sy.astype(np.float64)
    if f"n{j}" not in ans:  # every chunk empty after filtering: no rows
        return None, np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
    return (None, np.asarray(ans[f"n{j}"], dtype=np.int64), np.asarray(ans[f"sp{j}"], dtype=np.float64),
            np.asarray(ans[f"sy{j}"], dtype=np.float64))


def type8_breaks(values: dict, n: int, bins: int) -> np.ndarray:
    """``histogram_breaks(p, bins, "equal_freq")`` from the order statistics it uses."""
    k_lo, k_hi, h = type8_positions(seq01(bins + 1), n)
    x_lo = np.array([values[int(k)] for k in k_lo])
    x_hi = np.array([values[int(k)] if hh > 0 else values[int(lo)] for k, lo, hh in zip(k_hi, k_lo, h)])
    breaks = type8_combine(x_lo, x_hi, h)
    breaks[0] = 0.0
    breaks[-1] = 1.0
    return np.unique(breaks)


def needed_ranks(n: int, bins: int) -> np.ndarray:
    k_lo, k_hi, h = type8_positions(seq01(bins + 1), n)
    return np.unique(np.concatenate([k_lo, k_hi[h > 0]]))


def _n_problems(spec):
    return spec.k if spec.form == "classwise" else 1


def _binned(pairs, spec, bins, strategy, after_p=None, bins_error=None):
    """Per-problem ``(ids, counts, sum_p, sum_y, breaks)`` after R's checks."""
    if not pairs.chunks and pairs.names and len(pairs.names) == 4:
        unpaired(pairs, spec)
    deferred = after_p is not None or bins_error is not None
    job = None if deferred or strategy == "equal_freq" else (bins, None)
    ans = map_reduce(_bin_chunk, pairs, spec, job)
    n = verdict(ans, spec, pairs, after_p=after_p, after_all=bins_error)
    n_prob = _n_problems(spec)
    breaks = None
    if strategy == "equal_freq":
        ranks = needed_ranks(n, bins)
        stats = order_statistics(pairs, _select_chunk, spec, n_prob, [n] * n_prob, [ranks] * n_prob)
        breaks = [type8_breaks(stats[j], n, bins) for j in range(n_prob)]
        ans = map_reduce(_bin_chunk, pairs, spec, (bins, breaks))
    out = []
    for j in range(n_prob):
        ids, counts, sp, sy = _problem_sums(ans, j)
        out.append((ids, counts, sp, sy, None if breaks is None else breaks[j]))
    return out


def _form_of(pairs, type, contract):
    if not pairs.matrix:
        return "binary", None
    if contract:
        return type, None
    matched, err = _try(match_arg, type, MULTICLASS_TYPES)
    return (matched if err is None else "classwise"), err


def _metric(kind, p, y, bins=10, type="classwise", debiased=False, strategy="equal_width"):
    contract = is_contract_call(kind, debiased, strategy)
    pairs = pair_inputs(p, y)
    if contract and pairs.matrix:
        type = match_arg(type, MULTICLASS_TYPES)
    if kind == "ece":
        strategy = check_ece_flags(debiased, strategy, contract)
    form, type_error = _form_of(pairs, type, contract)
    if contract:
        bins, bins_error = _try(check_count, bins, "bins", LENGTH_OUT_NA)
    else:
        bins, bins_error = _try(check_bins, bins)
    spec = spec_for(pairs, form)
    per = []
    for ids, counts, sp, sy, _ in _binned(pairs, spec, bins, strategy, type_error, bins_error):
        # The in-memory formula takes per-bin means: here they are the merged
        # chunk sums over the counts (not R's per-bin mean() bits; see the README).
        counts = np.asarray(counts)
        safe = np.where(counts > 0, counts, 1)
        conf = np.where(counts > 0, sp / safe, np.nan)
        acc = np.where(counts > 0, sy / safe, np.nan)
        per.append(float(binned_error(counts, conf, acc, kind, bool(debiased))))
    metric = BinnedMetric(kind, None, bins, bool(debiased), strategy)
    return float(metric.combine(np.array(per)))


def ece(p, y, bins=10, type="classwise", debiased=False, strategy="equal_width"):
    """Expected calibration error of Dask collections (:func:`pycalib_r.ece`'s arguments and value).

    R equivalent: ``probcal::ece(p, y, bins = 10, type = c("classwise",
    "confidence"), debiased = FALSE, strategy = c("equal_width", "equal_freq"))``.

    Each chunk returns per-bin counts and sums; the merged sums go through
    the in-memory formula. ``strategy="equal_freq"`` first finds the exact
    order statistics behind R's type-8 breaks in a few counting passes, then
    bins in one more pass. See :func:`pycalib_r.ece` for the mathematics.

    Parameters
    ----------
    p : dask.array.Array, dask.dataframe.Series or dask.dataframe.DataFrame
        Probabilities (binary), or one column per class (multiclass).
    y : dask.array.Array or dask.dataframe.Series
        0/1 labels, or class codes 1..K (or a categorical Series).
    bins, type, debiased, strategy
        As in :func:`pycalib_r.ece`.

    Returns
    -------
    float

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *ICML* (PMLR 70, pp. 1321-1330).

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> print(f"{pcd.ece(p, y, bins=2):.7g}")  # R: ece(c(.1, .2, .8, .9), c(0, 0, 1, 1), bins = 2)
    0.15
    """
    return _metric("ece", p, y, bins, type, debiased, strategy)


def mce(p, y, bins=10, type="classwise"):
    """Maximum calibration error of Dask collections (:func:`pycalib_r.mce`).

    R equivalent: ``probcal::mce(p, y, bins = 10, type = c("classwise", "confidence"))``.

    The largest ``|acc_b - conf_b|`` over non-empty equal-width bins, from
    per-chunk bin sums.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> print(f"{pcd.mce(p, y, bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("mce", p, y, bins, type)


def ace(p, y, bins=10, type="classwise"):
    """Average calibration error of Dask collections (:func:`pycalib_r.ace`).

    R equivalent: ``probcal::ace(p, y, bins = 10, type = c("classwise", "confidence"))``.

    The unweighted mean of ``|acc_b - conf_b|`` over non-empty equal-width
    bins, from per-chunk bin sums.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> print(f"{pcd.ace(p, y, bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("ace", p, y, bins, type)


def _table(ids, counts, sp, sy, breaks, bins):
    if ids is None:
        edges = breaks if breaks is not None else seq01(bins + 1)
        return bin_frame(np.arange(1, counts.size + 1), edges[:-1], edges[1:], counts, sp, sy)
    if breaks is not None:
        return bin_frame(ids + 1, breaks[ids], breaks[ids + 1], counts, sp, sy)
    by = 1.0 / bins
    lower = np.where(ids == 0, 0.0, ids.astype(np.float64) * by)
    upper = np.where(ids + 1 == bins, 1.0, (ids + 1).astype(np.float64) * by)
    return bin_frame(ids + 1, lower, upper, counts, sp, sy)


def reliability_table(p, y, bins=10, type="classwise", strategy="equal_width", conf_level=None):
    """The binned table of a reliability diagram, from Dask collections
    (:func:`pycalib_r.reliability_table`'s arguments, columns and rows).

    R equivalent: ``reliability_diagram(p, y, bins, type = type)$data``.

    Per-bin counts and sums are merged from the chunks; the client holds one
    row per bin.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> pcd.reliability_table(p, y, bins=2)
       bin  lower  upper  n  confidence  accuracy   gap
    0    1    0.0    0.5  2        0.15       0.0  0.15
    1    2    0.5    1.0  2        0.85       1.0  0.15
    """
    strategy = _check_strategy(strategy)
    pairs = pair_inputs(p, y)
    form, type_error = _form_of(pairs, type, False)
    bins, bins_error = _try(check_bins, bins)
    spec = spec_for(pairs, form)
    tables = [_table(*parts, bins) for parts in _binned(pairs, spec, bins, strategy, type_error, bins_error)]
    if form == "classwise":
        levels = list(spec.categories) if spec.categories else [str(i) for i in range(1, spec.k + 1)]
        table = classwise_panels(tables, levels)
    else:
        table = _nonempty(tables[0])
    return with_interval(table, conf_level)

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
from ..inputs._checks import add_note
from ..inputs._weights import WEIGHTS_RULE, check_weights, weights_length_error, weights_sum_error
from ._collect import is_array, is_dask, map_reduce, pair_inputs, to_array
from ._pass import checked_chunk, problems, spec_for, unpaired, verdict
from ._select import keys_of, order_statistics, select_chunk
from ._wselect import weighted_order_statistics, weighted_select_chunk
from ..binned._weighted import weighted_type8_combine, weighted_type8_ranks

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

def _sums(ids, r, c, n_bins, dense, w=None):
    # With observation weights w: per bin the total weight, sum w r, sum w c
    # (mergeable sums, as the counts and plain sums are).
    if w is not None:
        r, c = w * r, w * c
    if dense:
        return (np.bincount(ids, weights=w, minlength=n_bins),
                np.bincount(ids, weights=r, minlength=n_bins),
                np.bincount(ids, weights=c, minlength=n_bins))
    occupied, inverse = np.unique(ids, return_inverse=True)
    m = occupied.size
    return (occupied, np.bincount(inverse, weights=w, minlength=m),
            np.bincount(inverse, weights=r, minlength=m), np.bincount(inverse, weights=c, minlength=m))


def _weights_chunk(wc, n_rows, ans):
    """A chunk's weights checked by the core's check (no sum rule: the client
    checks the whole sum), its part of the verdict in ``ans``; the weights or None."""
    w = to_array(wc).reshape(-1)
    ans["nw"] = ("sum", int(w.size))
    if w.size != n_rows:
        return None
    try:
        w = check_weights(w, n_rows, positive_sum=False)
    except ProbcalError as err:
        ans["wfound"] = ("first", (0, str(err)))
        return None
    ans["wsum"] = ("sum", float(np.sum(w)))
    ans["npos"] = ("sum", int(np.count_nonzero(w > 0)))
    return w


def _bin_chunk(pc, yc, spec, job, wc=None):
    """The first pass: checks, and (``job`` given) per-bin sums of each problem
    (weighted by the chunk's observation weights ``wc`` when given)."""
    p, y, ans = checked_chunk(pc, yc, spec)
    w = None
    if wc is not None:
        w = _weights_chunk(wc, len(pc), ans)
    if job is None or p is None or (wc is not None and w is None):
        return ans
    bins, breaks = job
    for j, (r, c) in enumerate(problems(p, y, spec.form, spec.k)):
        if breaks is None:
            ids, n_bins = equal_width_bins(r, bins), bins
        else:
            ids, n_bins = find_bins(r, breaks[j]), breaks[j].size - 1
        dense = n_bins <= _DENSE_BINS
        sums = _sums(ids, r, c.astype(np.float64), n_bins, dense, w)
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


def _problem_sums(ans, j, weighted=False):
    """``(ids or None, counts, sum_p, sum_y)`` of problem ``j`` as float64
    (``counts`` int64, or float64 total weights when ``weighted``)."""
    count_type = np.float64 if weighted else np.int64
    if f"sparse{j}" in ans:
        ids, n, sp, sy = _merge_sparse(ans[f"sparse{j}"])
        return ids, n.astype(count_type), sp.astype(np.float64), sy.astype(np.float64)
    if f"n{j}" not in ans:  # every chunk empty after filtering: no rows
        return None, np.zeros(0, dtype=count_type), np.zeros(0), np.zeros(0)
    return (None, np.asarray(ans[f"n{j}"], dtype=count_type), np.asarray(ans[f"sp{j}"], dtype=np.float64),
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


def _weighted_binned(pairs, spec, bins, strategy, job, weights, after_p, bins_error):
    """:func:`_binned` with a weights column: the first pass checks the data
    and the weights; equal-frequency edges are the weighted type-8 quantiles
    (:func:`~pycalib_r.binned._weighted.weighted_type8_ranks`) found by
    weighted counting passes (:mod:`._wselect`), then one more pass bins."""
    blocks = weight_blocks(weights, pairs)
    ans = map_reduce(_bin_chunk, pairs, spec, job, per_chunk=blocks)
    n = verdict(ans, spec, pairs, after_p=after_p, after_all=bins_error)
    weights_verdict(ans, n)
    n_prob = _n_problems(spec)
    breaks = None
    if strategy == "equal_freq":
        total = float(ans["wsum"])
        k_lo, k_hi, h = weighted_type8_ranks(total, bins)
        ranks = np.unique(np.concatenate([k_lo, k_hi[h > 0]]))
        stats = weighted_order_statistics(pairs, _wselect_chunk, spec, blocks, n_prob,
                                          [int(ans["npos"])] * n_prob, [ranks] * n_prob)
        breaks = [weighted_type8_combine(
            [stats[j][float(k)] for k in k_lo],
            [stats[j][float(k)] if hh > 0 else stats[j][float(lo)] for k, lo, hh in zip(k_hi, k_lo, h)],
            h) for j in range(n_prob)]
        ans = map_reduce(_bin_chunk, pairs, spec, (bins, breaks), per_chunk=blocks)
    return [_problem_sums(ans, j, True) + (None if breaks is None else breaks[j],)
            for j in range(n_prob)]


def _wselect_chunk(pc, yc, spec, plans, wc):
    """A weighted counting pass (:func:`._wselect.weighted_select_chunk`) over
    each problem's rows of positive weight."""
    p, y, _ = checked_chunk(pc, yc, spec)
    w = to_array(wc).reshape(-1).astype(np.float64)
    keep = w > 0
    out = {}
    for j, (r, _) in enumerate(problems(p, y, spec.form, spec.k)):
        edges, gather = plans[j]
        if edges.size == 0:
            continue
        counts, weight, gk, gw = weighted_select_chunk(keys_of(r[keep]), w[keep], edges, gather)
        out[f"counts{j}"] = ("sum", counts)
        out[f"weight{j}"] = ("sum", weight)
        out[f"gathered{j}"] = ("cat", [(gk, gw)])
    return out


def weight_blocks(weights, pairs):
    """The weights' delayed chunks, cut as ``pairs``' chunks (rows)."""
    import dask  # noqa: PLC0415

    if not is_dask(weights):
        raise TypeError("`weights` must be a Dask collection (a column of the same rows as `p`) "
                        f"when `p` is one (got {type(weights).__name__}); wrap it with "
                        "dask.array.from_array().")
    w = weights
    if not is_array(w):
        w = w.to_dask_array(lengths=True)
    if w.ndim != 1:
        w = w.reshape(-1)
    lengths = pairs.lengths
    if lengths is None:
        lengths = list(dask.compute(*[dask.delayed(len)(pp) for pp, _ in pairs.chunks]))
    total = int(sum(lengths))
    if w.shape[0] != total:
        raise weights_length_error(total, int(w.shape[0]))
    if tuple(w.chunks[0]) != tuple(lengths):
        w = w.rechunk((tuple(int(n) for n in lengths),))
    return list(w.to_delayed())


def weights_verdict(ans: dict, n: int) -> None:
    """After the data's verdict: the first chunk's weights error, then the sum."""
    if ans.get("nw", n) != n:
        raise weights_length_error(n, ans["nw"])
    if "wfound" in ans:
        err = ProbcalError(ans["wfound"][1])
        add_note(err, WEIGHTS_RULE)
        raise err
    err = weights_sum_error(float(ans.get("wsum", 0.0)))
    if err is not None:
        raise err


def _n_problems(spec):
    return spec.k if spec.form == "classwise" else 1


def _binned(pairs, spec, bins, strategy, after_p=None, bins_error=None, weights=None):
    """Per-problem ``(ids, counts, sum_p, sum_y, breaks)`` after R's checks
    (with ``weights``, a Dask column of observation weights: ``counts`` are
    total weights and the sums weighted; checked after the data, as in memory)."""
    if not pairs.chunks and pairs.names and len(pairs.names) == 4:
        unpaired(pairs, spec)
    deferred = after_p is not None or bins_error is not None
    job = None if deferred or strategy == "equal_freq" else (bins, None)
    if weights is not None:
        return _weighted_binned(pairs, spec, bins, strategy, job, weights, after_p, bins_error)
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


def _metric(kind, p, y, bins=10, type="classwise", debiased=False, strategy="equal_width",
            weights=None):
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
    for ids, counts, sp, sy, _ in _binned(pairs, spec, bins, strategy, type_error, bins_error,
                                          weights):
        # The in-memory formula takes per-bin means: here they are the merged
        # chunk sums over the counts (not R's per-bin mean() bits; see the README).
        counts = np.asarray(counts)
        safe = np.where(counts > 0, counts, 1)
        conf = np.where(counts > 0, sp / safe, np.nan)
        acc = np.where(counts > 0, sy / safe, np.nan)
        per.append(float(binned_error(counts, conf, acc, kind, bool(debiased))))
    metric = BinnedMetric(kind, None, bins, bool(debiased), strategy)
    return float(metric.combine(np.array(per)))


def ece(p, y, bins=10, type="classwise", debiased=False, strategy="equal_width", weights=None):
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
    weights : dask.array.Array or dask.dataframe.Series, optional
        Python-only: a column of observation weights for the rows of ``p``
        (the core's rule: finite, non-negative, positive sum; checked chunk
        by chunk after the data). Each chunk returns per-bin total weights
        and weighted sums, merged as the counts are; equal to the in-memory
        ``ece(..., weights=)`` to rounding. ``strategy="equal_freq"``: the
        weighted type-8 edges, from weighted counting passes (the in-memory
        edges exactly for whole-number weights).

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
    return _metric("ece", p, y, bins, type, debiased, strategy, weights)


def mce(p, y, bins=10, type="classwise", weights=None):
    """Maximum calibration error of Dask collections (:func:`pycalib_r.mce`).

    R equivalent: ``probcal::mce(p, y, bins = 10, type = c("classwise", "confidence"))``.

    The largest ``|acc_b - conf_b|`` over non-empty equal-width bins, from
    per-chunk bin sums. ``weights``: a Dask column of observation weights,
    as in :func:`ece`.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> print(f"{pcd.mce(p, y, bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("mce", p, y, bins, type, weights=weights)


def ace(p, y, bins=10, type="classwise", weights=None):
    """Average calibration error of Dask collections (:func:`pycalib_r.ace`).

    R equivalent: ``probcal::ace(p, y, bins = 10, type = c("classwise", "confidence"))``.

    The unweighted mean of ``|acc_b - conf_b|`` over non-empty equal-width
    bins, from per-chunk bin sums. ``weights``: a Dask column of observation
    weights, as in :func:`ece`.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 0, 1, 1], chunks=3)
    >>> print(f"{pcd.ace(p, y, bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("ace", p, y, bins, type, weights=weights)


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


def _weighted_table(ids, counts, sp, sy, breaks, bins):
    # The in-memory weighted table's bins (weighted_bin_table): every bin of
    # the edges, n the total weight; the merged sums over it.
    table = _table(ids, counts, sp, sy, breaks, bins)
    table["n"] = np.asarray(counts, dtype=np.float64)
    return table


def reliability_table(p, y, bins=10, type="classwise", strategy="equal_width", conf_level=None,
                      weights=None):
    """The binned table of a reliability diagram, from Dask collections
    (:func:`pycalib_r.reliability_table`'s arguments, columns and rows).

    R equivalent: ``reliability_diagram(p, y, bins, type = type)$data``.

    Per-bin counts and sums are merged from the chunks; the client holds one
    row per bin. ``weights``: a Dask column of observation weights (as in
    :func:`ece`); ``n`` is then each bin's total weight.

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
    make = _table if weights is None else _weighted_table
    tables = [make(*parts, bins)
              for parts in _binned(pairs, spec, bins, strategy, type_error, bins_error, weights)]
    if form == "classwise":
        levels = list(spec.categories) if spec.categories else [str(i) for i in range(1, spec.k + 1)]
        table = classwise_panels(tables, levels)
    else:
        table = _nonempty(tables[0])
    return with_interval(table, conf_level)

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/src/family.c, src/library/stats/src/optimize.c (GPL-2.0-or-later), (c) The R Core Team
"""Binary calibrators fitted on Dask collections, and lazy ``predict()``.

* ``cal_platt`` and ``cal_beta``: R's ``glm.fit`` IRLS, the package's one
  loop (:func:`pycalib_r.rstats.glm_irls_merged`: R's starting values, logit
  link with the +-30 thresholds, convergence rule, step halving and 25
  iterations), each iteration one pass that sums rstats' per-chunk
  ``X'WX`` and ``X'Wz`` (and the deviance) over the chunks; the step is
  solved by LINPACK from those normal equations on the client instead of
  by LINPACK's QR of the n x p weighted design.
* ``cal_temperature`` (binary): R's Brent search, each evaluation of the
  log-loss one pass (chunk sums in long double, as R's ``sum()``).
* ``cal_histogram``: bin counts (equal-frequency breaks from exact order
  statistics).

The results are the ordinary fitted objects; the ``fit`` of Platt and beta
calibration keeps the coefficients, deviances, ``aic``, ``iter``, ``rank`` and
``converged``, not R's per-row components nor the QR (they would be n rows).
"""

from __future__ import annotations

import numpy as np

from ..inputs._align import check_column_order
from ..binned._binning import STRATEGIES, find_bins, seq01
from ..inputs._checks import check_bins, check_eps, match_arg
from ..inputs._logit_input import warn_if_probabilities
from ..rbase._rarith import ld_seq_sum as _ld_seq_sum
from ..calibrators._base import clip_eps, format_call, new_calibrator, plogis, r_log, r_log1p
from ..calibrators._beta import beta_calibrator
from ..calibrators._histogram import fill_empty_bins_into as _fill_empty_bins, histogram_fit
from ..rstats import GLM_MERGE_RULES, glm_chunk_sums, glm_irls_merged
from ..calibrators._platt import platt_calibrator as _platt_calibrator
from ..calibrators._temperature import CalTemperature, LOSS_EPS as _LOSS_EPS, fit_temperature as _fit_temperature
from ._collect import is_array, is_dask, is_matrix_input, map_reduce, pair_inputs, to_array
from ._metrics import _try, needed_ranks, type8_breaks
from ._pass import Spec, checked_chunk, unpaired, verdict
from ._refusals import refuse
from ._select import keys_of, order_statistics, select_chunk

__all__ = ["cal_platt", "cal_beta", "cal_temperature", "cal_histogram", "predict_lazy"]

_LD = np.longdouble
_DENSE_BINS = 1 << 16


def _spec(x_arg, p_kind):
    return Spec(p_kind, "binary", "binary", 0, None, x_arg, "y", True,
                f"Arguments `{x_arg}` and `y` must have the same length.")


def _first_pass(x, y, x_arg, p_kind, chunk_fn=None, job=None, deferred=None):
    pairs = pair_inputs(x, y, x_arg, matrix_ok=False,
                        numeric_message=f"Argument `{x_arg}` must be a numeric vector.")
    if pairs.matrix:
        _refuse_matrix(x_arg)
    spec = _spec(x_arg, p_kind)
    if not pairs.chunks and len(pairs.names) == 4:
        unpaired(pairs, spec)
    ans = map_reduce(chunk_fn or _count_chunk, pairs, spec, job)
    n = verdict(ans, spec, pairs, after_all=deferred)
    return pairs, spec, n, ans


def _refuse_matrix(arg):
    raise refuse(
        f"A matrix `{arg}` asks for a multiclass calibrator, which pycalib_r.dask does not fit "
        "(its optimisers need every row of every class per step). Fit pycalib_r's in-memory "
        "calibrator on a sample; its predict() maps Dask collections lazily.")


# ---------------------------------------------------------------------------
# First pass: checks and label counts (and, for Platt and beta, the
# distinct values that decide the design's rank).
# ---------------------------------------------------------------------------

def _distinct3(v: np.ndarray):
    if v.size == 0:
        return []
    lo, hi = float(v.min()), float(v.max())
    inner = v[(v > lo) & (v < hi)]
    return [lo, hi] + ([float(inner[0])] if inner.size else [])


def _count_chunk(pc, yc, spec, eps):
    x, y, ans = checked_chunk(pc, yc, spec)
    if x is None:
        return ans
    ans["n_pos"] = ("sum", int(np.count_nonzero(y == 1)))
    if x.size:
        ans["lo"] = ("min", float(x.min()))
        ans["hi"] = ("max", float(x.max()))
    if eps is not None:
        v = clip_eps(x, eps) if spec.p_kind == "prob" else x
        ans["distinct"] = ("cat", [_distinct3(v)])
    return ans


def _n_distinct(ans) -> int:
    return len(set(v for part in ans.get("distinct", []) for v in part))


# ---------------------------------------------------------------------------
# IRLS by map-reduce.
# ---------------------------------------------------------------------------

# The model matrix and response of each fit: one definition, in _weighted,
# for the weighted and unweighted passes.
from ._weighted import _design, _response  # noqa: E402


def _irls_chunk(pc, yc, spec, job):
    """One IRLS pass: the chunk's mergeable sums of ``glm.fit`` at ``beta``
    (None: R's ``mustart``), computed by :func:`pycalib_r.rstats.glm_chunk_sums`."""
    kind, cols, beta, targets, eps, wtdmu = job
    x = to_array(pc).astype(np.float64, copy=False).reshape(-1)
    y = np.asarray(to_array(yc)).reshape(-1)
    y = (y == 1).astype(np.int64) if y.dtype.kind != "b" else y.astype(np.int64)
    sums = glm_chunk_sums(_design(kind, x, eps, cols), _response(kind, y, targets), beta, None, wtdmu)
    return {key: (GLM_MERGE_RULES[key], value) for key, value in sums.items()}


def _glm_map_reduce(pairs, spec, kind, names, cols, targets, eps, wtdmu, n, warn, chunk=None):
    """R's ``glm.fit`` (:func:`pycalib_r.rstats.glm_irls_merged`, the package's
    one IRLS loop) with each iteration's sums merged over the chunks
    (``chunk``: the weighted pass of :mod:`._weighted`, ``n`` then R's ``n.ok``)."""
    chunk = chunk or _irls_chunk

    def sums_at(beta):
        job = (kind, cols, None if beta is None else tuple(beta), targets, eps,
               wtdmu if beta is None else None)
        return map_reduce(chunk, pairs, spec, job)

    return glm_irls_merged(sums_at, names, cols, n, warn)


def cal_platt(x, y, weights=None):
    """Platt scaling fitted on Dask collections (:func:`pycalib_r.cal_platt`).

    R equivalent: ``probcal::cal_platt(x, y)``.

    Platt's targets ``(n_+ + 1) / (n_+ + 2)`` and ``1 / (n_- + 2)`` replace
    the labels and ``glm(y_adj ~ x, family = binomial())`` is fitted by R's
    IRLS, one pass per iteration (``X'WX``, ``X'Wz`` and the deviance summed
    over the chunks, the 2 x 2 step solved on the client), plus one pass for
    the checks and label counts.

    Returns
    -------
    CalPlatt
        The in-memory calibrator; its ``fit`` (:class:`~pycalib_r.calibrators.GlmFit`)
        carries the coefficients, deviances, ``aic``, ``iter`` and ``converged``
        (not the per-row components nor the QR, which would be n rows).

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(1); score = pc.rnorm(120); y = pc.rbinom(120, 1, pc.inv_logit(score))
    >>> fit = pcd.cal_platt(da.from_array(score, chunks=50), da.from_array(y, chunks=50))
    >>> print(" ".join(f"{v:.7g}" for v in fit.coefficients.values()))
    -0.1420333 1.340618

    (``pycalib_r.cal_platt(score, y)`` gives the same coefficients; R's summary
    prints ``(Intercept): -0.142`` and ``x: 1.3406``.)

    ``weights`` (Python-only): a Dask collection of observation weights (a
    column of the same Dask DataFrame, or a Dask array), as the in-memory
    ``weights=``: weighted Platt counts and R's weighted IRLS.
    """
    pairs, spec, n, ans = _first_pass(x, y, "x", "x", job=0.0)
    if weights is not None:
        return _platt_weighted(x, y, weights, n, ans)
    n_pos = int(ans["n_pos"])
    n_neg = n - n_pos
    target_pos = (n_pos + 1) / (n_pos + 2)
    target_neg = 1 / (n_neg + 2)
    wtdmu = float((_LD(n_pos) * _LD(target_pos) + _LD(n_neg) * _LD(target_neg)) / _LD(n))
    cols = (0, 1) if _n_distinct(ans) > 1 else (0,)
    fit = _glm_map_reduce(pairs, spec, "platt", ["(Intercept)", "x"], cols, (target_pos, target_neg),
                          None, wtdmu, n, warn=False)
    return _platt_calibrator(fit, n, target_pos, target_neg)


def cal_beta(p, y, eps=1e-15, weights=None):
    """Beta calibration fitted on Dask collections (:func:`pycalib_r.cal_beta`).

    R equivalent: ``probcal::cal_beta(p, y, eps = 1e-15)``.

    ``glm(y ~ log(p*) + log(1 - p*), family = binomial())`` by R's IRLS,
    each iteration one pass over the chunks (3 x 3 normal equations).

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(3); p = pc.runif(120); y = pc.rbinom(120, 1, p ** 2)
    >>> fit = pcd.cal_beta(da.from_array(p, chunks=50), da.from_array(y, chunks=50))
    >>> print(" ".join(f"{v:.7g}" for v in fit.coefficients.values()))
    -1.92146 1.590666 -2.010337

    R: ``coef(cal_beta(p, y)$fit)`` prints the same values.

    ``weights`` (Python-only): as :func:`cal_platt`'s, R's weighted IRLS.
    """
    eps_value, eps_error = _try(check_eps, eps)
    pairs, spec, n, ans = _first_pass(p, y, "p", "prob", job=eps_value if eps_error is None else 1e-15,
                                      deferred=eps_error)
    eps = eps_value
    n_pos = int(ans["n_pos"])
    distinct = _n_distinct(ans)
    cols = (0, 1, 2) if distinct > 2 else (0, 1) if distinct == 2 else (0,)
    if weights is not None:
        from . import _weighted

        wpairs, flags = _weighted.weighted_pairs(p, y, weights, n, "p")
        wtdmu = float(_LD(flags["w_pos"]) / _LD(flags["total"]))
        fit = _glm_map_reduce(wpairs, spec, "beta", ["(Intercept)", "log_p", "log_1mp"], cols, None, eps,
                              wtdmu, n - int(flags["zero"]), warn=True, chunk=_weighted.irls_chunk)
        return beta_calibrator(fit, n, eps, weighted=True)
    fit = _glm_map_reduce(pairs, spec, "beta", ["(Intercept)", "log_p", "log_1mp"], cols, None, eps,
                          n_pos / n, n, warn=True)
    return beta_calibrator(fit, n, eps)


def _platt_weighted(x, y, weights, n, ans):
    from ..rbase._rarith import r_sum
    from . import _weighted

    pairs, flags = _weighted.weighted_pairs(x, y, weights, n, "x")
    spec = None
    w_pos, w_neg = float(flags["w_pos"]), float(flags["w_neg"])
    target_pos = (w_pos + 1) / (w_pos + 2)
    target_neg = 1 / (w_neg + 2)
    wtdmu = r_sum(np.array([w_pos * target_pos, w_neg * target_neg])) / float(flags["total"])
    cols = (0, 1) if _n_distinct(ans) > 1 else (0,)
    fit = _glm_map_reduce(pairs, spec, "platt", ["(Intercept)", "x"], cols, (target_pos, target_neg),
                          None, wtdmu, n - int(flags["zero"]), warn=False, chunk=_weighted.irls_chunk)
    return _platt_calibrator(fit, n, target_pos, target_neg, weighted=True)


# ---------------------------------------------------------------------------
# Temperature scaling.
# ---------------------------------------------------------------------------

def _loss_chunk(pc, yc, spec, temperature):
    z = to_array(pc).astype(np.float64, copy=False).reshape(-1)
    y = np.asarray(to_array(yc)).reshape(-1) == 1
    terms = np.empty(z.size)
    terms[y] = r_log(clip_eps(plogis(z[y] / temperature), _LOSS_EPS))
    terms[~y] = r_log1p(-clip_eps(plogis(z[~y] / temperature), _LOSS_EPS))
    return {"sum": ("sum", _ld_seq_sum(terms) if z.size else _LD(0))}


def cal_temperature(logits, y, weights=None):
    """Binary temperature scaling fitted on Dask collections (:func:`pycalib_r.cal_temperature`).

    R equivalent: ``probcal::cal_temperature(logits, y)`` for a logit vector
    (a matrix, the multiclass form, is refused).

    R's ``optim(1, f, method = "Brent", lower = 1e-3, upper = 1e3)`` on the
    summed log-loss ``f(T) = -sum(y log q + (1 - y) log(1 - q))``,
    ``q = inv_logit(z / T)``: one pass per evaluation, chunk sums in long
    double as R's ``sum()``.

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(2); z = pc.rnorm(120, sd=3); y = pc.rbinom(120, 1, pc.inv_logit(z / 2))
    >>> fit = pcd.cal_temperature(da.from_array(z, chunks=50), da.from_array(y, chunks=50))
    >>> print(f"{fit.temperature:.7g}")
    2.204673

    (as ``pycalib_r.cal_temperature(z, y)`` and R's ``fit$temperature``).

    ``weights`` (Python-only): a Dask collection of observation weights, as
    the in-memory ``weights=`` (the weighted summed log loss).
    """
    pairs, spec, n, ans = _first_pass(logits, y, "logits", "x")
    chunk = _loss_chunk
    if weights is not None:
        from . import _weighted

        pairs, _ = _weighted.weighted_pairs(logits, y, weights, n, "logits")
        chunk = _weighted.loss_chunk
    # The in-memory warning for probabilities given as logits, on the range
    # the first pass found (every value lies in [0, 1] iff both ends do).
    warn_if_probabilities(np.array([ans["lo"], ans["hi"]]), "cal_temperature")
    seen = {}

    def objective(temperature: float) -> float:
        t = float(temperature)
        if t not in seen:
            seen[t] = -float(map_reduce(chunk, pairs, spec, t)["sum"])
        return seen[t]

    temperature, value, convergence = _fit_temperature(objective)
    return new_calibrator(
        CalTemperature,
        method="temperature scaling",
        n=n,
        input="logits",
        temperature=temperature,
        value=value,
        convergence=convergence,
        call=format_call("cal_temperature", ("logits", "y") if weights is None else ("logits", "y", "weights")),
    )


# ---------------------------------------------------------------------------
# Histogram binning.
# ---------------------------------------------------------------------------

def _hist_chunk(pc, yc, spec, breaks):
    p, y, ans = checked_chunk(pc, yc, spec)
    if p is None or breaks is None:
        if p is not None:
            ans["n_pos"] = ("sum", int(np.count_nonzero(y == 1)))
        return ans
    ans["n_pos"] = ("sum", int(np.count_nonzero(y == 1)))
    ids = find_bins(p, breaks)
    n_bins = breaks.size - 1
    if n_bins <= _DENSE_BINS:
        ans["counts"] = ("sum", np.bincount(ids, minlength=n_bins))
        ans["pos"] = ("sum", np.bincount(ids[y == 1], minlength=n_bins))
    else:
        occ, inv = np.unique(ids, return_inverse=True)
        ans["sparse"] = ("cat", [(occ, np.bincount(inv, minlength=occ.size),
                                  np.bincount(inv[y == 1], minlength=occ.size))])
    return ans


def _select_hist_chunk(pc, yc, spec, plans):
    p, _, _ = checked_chunk(pc, yc, spec)
    edges, gather = plans[0]
    counts, gathered = select_chunk(keys_of(p), edges, gather)
    return {"counts0": ("sum", counts), "gathered0": ("cat", [gathered])}


def cal_histogram(p, y, bins=10, strategy=("equal_width", "equal_freq"), weights=None):
    """Histogram binning fitted on Dask collections (:func:`pycalib_r.cal_histogram`).

    R equivalent: ``probcal::cal_histogram(p, y, bins = 10, strategy =
    c("equal_width", "equal_freq"))``.

    Bin counts and positives summed over the chunks (one pass for equal
    widths; equal frequencies first find R's type-8 breaks from exact order
    statistics). Empty bins take the nearest non-empty bin's rate, as in R.

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(5); p = pc.runif(120); y = pc.rbinom(120, 1, p)
    >>> fit = pcd.cal_histogram(da.from_array(p, chunks=50), da.from_array(y, chunks=50), bins=5)
    >>> print(*fit.counts)
    21 29 24 15 31

    R: ``cal_histogram(p, y, bins = 5)$counts`` is the same.

    ``weights`` (Python-only): a Dask collection of observation weights, as
    the in-memory ``weights=`` (weighted bin rates, ``counts`` the bin
    weights), for ``strategy="equal_width"``; equal frequencies with weights
    are refused (their weighted order statistics are not computed on Dask).
    """
    bins_given, strategy_given = bins, strategy
    bins_value, bins_error = _try(check_bins, bins)
    strategy_value, strategy_error = (None, None)
    if bins_error is None:
        strategy_value, strategy_error = _try(match_arg, strategy, STRATEGIES)
    deferred = bins_error or strategy_error
    job = seq01(bins_value + 1) if deferred is None and strategy_value == "equal_width" else None
    pairs, spec, n, ans = _first_pass(p, y, "p", "prob", _hist_chunk, job, deferred)
    bins, strategy = bins_value, strategy_value
    if weights is not None:
        return _histogram_weighted(p, y, weights, n, bins, strategy, bins_given, strategy_given)
    if strategy == "equal_freq":
        ranks = needed_ranks(n, bins)
        stats = order_statistics(pairs, _select_hist_chunk, spec, 1, [n], [ranks])
        breaks = type8_breaks(stats[0], n, bins)
        ans = map_reduce(_hist_chunk, pairs, spec, breaks)
    else:
        breaks = job
    n_bins = breaks.size - 1
    if "sparse" in ans:
        occ = np.concatenate([q[0] for q in ans["sparse"]])
        cnt = np.concatenate([q[1] for q in ans["sparse"]])
        pos = np.concatenate([q[2] for q in ans["sparse"]])
        counts = np.zeros(n_bins, dtype=np.int64)
        positives = np.zeros(n_bins, dtype=np.int64)
        np.add.at(counts, occ, cnt)
        np.add.at(positives, occ, pos)
    else:
        counts = np.asarray(ans["counts"], dtype=np.int64)
        positives = np.asarray(ans["pos"], dtype=np.int64)
    occupied = np.flatnonzero(counts)
    values = np.full(n_bins, np.nan)
    values[occupied] = (positives[occupied].astype(_LD) / counts[occupied].astype(_LD)).astype(np.float64)
    global_rate = float(_LD(int(ans["n_pos"])) / _LD(n))
    _fill_empty_bins(values, counts)
    return histogram_fit(n, bins, n_bins, strategy, breaks, values, counts, global_rate,
                         bins_given, strategy_given)


def _histogram_weighted(p, y, weights, n, bins, strategy, bins_given, strategy_given):
    from . import _weighted

    if strategy == "equal_freq":
        raise refuse('cal_histogram(strategy = "equal_freq", weights=) is not computed on Dask '
                     "(the weighted order statistics of its breaks); use strategy=\"equal_width\", "
                     "or the in-memory pycalib_r.cal_histogram on the data.")
    pairs, flags = _weighted.weighted_pairs(p, y, weights, n, "p")
    breaks = seq01(bins + 1)
    ans = map_reduce(_weighted.hist_chunk, pairs, None, breaks)
    totals = np.asarray(ans["totals"], dtype=np.float64)
    positives = np.asarray(ans["pos"], dtype=np.float64)
    n_bins = breaks.size - 1
    occupied = np.flatnonzero(totals > 0)
    values = np.full(n_bins, np.nan)
    values[occupied] = (positives[occupied].astype(_LD) / totals[occupied].astype(_LD)).astype(np.float64)
    global_rate = float(_LD(float(flags["w_pos"])) / _LD(float(flags["total"])))
    _fill_empty_bins(values, totals)
    return histogram_fit(n, bins, n_bins, strategy, breaks, values, totals, global_rate,
                         bins_given, strategy_given, weighted=True)


# ---------------------------------------------------------------------------
# predict() on Dask collections, and the refused functions.
# ---------------------------------------------------------------------------

def _predict_block(block, fit, frame):
    if len(block) == 0:
        # An empty chunk (a filtered partition) has no rows to predict; R's
        # "must not be empty" is about the whole input, not a chunk of it.
        k = fit.get("k") if fit.inherits("cal_multiclass") else None
        out = np.zeros((0, k)) if k else np.zeros(0)
    else:
        out = fit._predict(block)
    if frame:
        import pandas as pd

        if isinstance(block, pd.DataFrame):
            levels = fit.get("levels")
            return pd.DataFrame(out, index=block.index,
                                columns=list(levels) if levels is not None else None)
        return pd.Series(out, index=block.index, name=block.name)
    return out


def predict_lazy(fit, newdata):
    """``predict(fit, newdata)`` of a Dask collection: a lazy collection of the
    same rows (chunk by chunk; R's messages are raised when it is computed)."""
    if not is_dask(newdata):  # pragma: no cover - callers check
        raise TypeError("predict_lazy() takes a Dask collection")
    if not is_array(newdata):
        import pandas as pd

        if is_matrix_input(newdata):
            # The in-memory check itself, on the frame's metadata (its columns).
            check_column_order(newdata._meta, fit.get("levels"), "newdata",
                               "the levels the calibrator was fitted with", "list(fit.levels)")
            levels = fit.get("levels")
            k = len(levels) if levels is not None else len(newdata.columns)
            meta = pd.DataFrame({str(c): pd.Series(dtype=float) for c in
                                 (levels if levels is not None else range(k))})
        else:
            meta = pd.Series(dtype=float, name=newdata.name)
        return newdata.map_partitions(_predict_block, fit, True, meta=meta)
    if newdata.ndim == 2:
        rows = newdata.rechunk({1: -1})
        k = fit.get("k") or rows.shape[1]
        return rows.map_blocks(_predict_block, fit, False, dtype=np.float64,
                               chunks=(rows.chunks[0], (k,)))
    return newdata.map_blocks(_predict_block, fit, False, dtype=np.float64)

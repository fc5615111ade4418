# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/src/family.c (GPL-2.0-or-later), (c) The R Core Team
"""``glm.fit``'s binomial IRLS from mergeable sums (the Dask face's fits).

When the rows are in chunks (a Dask collection), each IRLS iteration is one
pass: every chunk returns :func:`glm_chunk_sums` (the cross-products ``X'WX``
and ``X'Wz`` of the step, the deviance and log-likelihood pieces at the
current coefficients), the sums are merged by the rules of
:data:`MERGE_RULES`, and :func:`glm_irls_merged` runs ``glm.fit``'s loop
control (:func:`._glm.irls_loop`: the convergence rule, step halving,
``maxit``, R's messages) on them, each step solved by the package's LINPACK
(:func:`._linpack._cdqrls` on the p x p cross-product). The family functions
are :mod:`._glm`'s. The in-memory fit (:func:`._glm.glm_binomial`) runs the
same loop with LINPACK's QR of the n x p weighted design instead, which is
why the two agree to rounding (the normal equations square the design's
condition number), not bit for bit.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence

import numpy as np

from ..rbase._rarith import ld_seq_sum, r_log
from ..rbase._warn import r_warning as _warn
from ._glm import (GlmFit, _dev_resids, _exp_eta, _linkinv, _mu_eta, _validmu, _weighted_loglik, irls_loop,
                   step_start)
from ._linpack import _DBL_EPS, _QR_TOL, _cdqrls

_LD = np.longdouble

#: How each key of :func:`glm_chunk_sums` merges over the chunks.
MERGE_RULES = {"dev": "sum", "loglik": "sum", "nulldev": "sum", "xwx": "sum", "xwz": "sum",
               "good": "sum", "extreme": "any", "invalid": "any", "nonint": "any"}


def glm_chunk_sums(x: np.ndarray, y: np.ndarray, beta: Optional[Sequence[float]],
                   prior: Optional[np.ndarray] = None, wtdmu: Optional[float] = None) -> dict:
    """One chunk's mergeable pieces of ``glm.fit(x, y, family = binomial())``.

    ``x`` is the chunk's model matrix, ``y`` its response, ``prior`` R's
    prior weights (None: unit weights) and ``beta`` the coefficients (None:
    R's ``mustart``, the starting pass, which also returns the null
    deviance's terms at ``wtdmu`` and the "non-integer #successes" check).
    Returns the deviance, the log-likelihood of the aic, the step's ``X'WX``
    and ``X'Wz`` over glm.fit's informative rows (``good``, counted), and
    whether a fitted value is numerically 0 or 1 (``extreme``) or outside
    (0, 1) (``invalid``, R's ``validmu``); float sums in long double.

    R equivalent: the rows' share of one iteration of ``stats::glm.fit``.
    """
    n = y.size
    weights = np.ones(n) if prior is None else prior
    if prior is not None:
        y = np.where(prior == 0, 0.0, y)  # binomial()$initialize: y[weights == 0] <- 0
    ans = {}
    if beta is None:
        ans["nonint"] = bool(np.any(np.abs(weights * y - np.round(weights * y)) > 1e-3))
        mustart = (weights * y + 0.5) / (weights + 1)
        eta = r_log(mustart / (1 - mustart))
    else:
        # Reference dgemv's order: 0, then + b_j * x[, j] column by column.
        eta = np.zeros(n)
        for j, b in enumerate(beta):
            eta = eta + b * x[:, j]
    e = _exp_eta(eta)
    mu = _linkinv(eta, e)
    ans["dev"] = ld_seq_sum(_dev_resids(y, mu, weights)) if n else _LD(0)
    if prior is None:
        # aic: -2 * sum(dbinom(round(y), 1, mu, log = TRUE)), one logarithm a row.
        pos = np.round(y) == 1
        loglik = np.empty(n)
        with np.errstate(divide="ignore"):
            loglik[pos] = r_log(mu[pos])
            loglik[~pos] = r_log(1 - mu[~pos])
        ans["loglik"] = ld_seq_sum(loglik) if n else _LD(0)
    else:
        ans["loglik"] = _LD(_weighted_loglik(y, mu, weights)) if n else _LD(0)
    eps10 = 10 * _DBL_EPS
    ans["extreme"] = bool(n and (np.any(mu > 1 - eps10) or np.any(mu < eps10)))
    ans["invalid"] = bool(n) and not _validmu(mu)
    if wtdmu is not None:
        ans["nulldev"] = ld_seq_sum(_dev_resids(y, wtdmu, weights)) if n else _LD(0)
    mu_eta_val = _mu_eta(eta, e)
    good = (weights > 0) & (mu_eta_val != 0)
    ans["good"] = int(np.count_nonzero(good))
    variance = mu[good] * (1 - mu[good])
    z = eta[good] + (y[good] - mu[good]) / mu_eta_val[good]
    w2 = weights[good] * mu_eta_val[good] ** 2 / variance
    xg = x[good]
    xw = xg * w2[:, None]
    ans["xwx"] = xw.T @ xg
    ans["xwz"] = xw.T @ z
    return ans


def glm_irls_merged(sums_at: Callable[[Optional[np.ndarray]], dict], names: Sequence[str],
                    cols: Sequence[int], n_ok: int, warn: bool = True) -> GlmFit:
    """``glm.fit``'s binomial IRLS with each iteration's sums merged over chunks.

    ``sums_at(beta)`` returns :func:`glm_chunk_sums` merged over the chunks
    (by :data:`MERGE_RULES`) at ``beta`` (None: the starting pass, with the
    null deviance's terms). ``names`` are the model's coefficient names,
    ``cols`` the columns of the model matrix the chunks build (the others
    are NA, as R's aliased coefficients), ``n_ok`` R's ``n.ok`` (rows with
    a positive weight). The loop is :func:`._glm.irls_loop`, as in memory;
    each step solves ``X'WX b = X'Wz`` by LINPACK (``Cdqrls`` on the
    cross-product: a rank it finds below ``len(cols)`` leaves the pivoted-off
    coefficients NA). ``warn`` emits R's warnings as the in-memory fit does.

    Returns a :class:`GlmFit` without the per-row components (nor the QR):
    coefficients, deviances, ``aic``, ``iter``, ``rank``, ``df_residual``,
    ``df_null``, ``converged``, ``boundary``, ``warnings`` and ``xtwx`` (the
    last step's ``X'WX``).

    R equivalent: ``stats::glm.fit(x, y, weights, family = binomial())``.
    """
    messages: List[str] = []
    st = sums_at(None)
    if st.get("nonint"):
        messages.append("non-integer #successes in a binomial glm!")
    nulldev = float(st["nulldev"])
    p = len(cols)
    last = {"fit": None}

    def step(iter_, state):
        if not int(state["good"]):
            messages.append(f"no observations informative at iteration {iter_}")
            return None
        xwx = np.asfortranarray(state["xwx"], dtype=np.float64)
        fit = last["fit"] = _cdqrls(xwx, np.asarray(state["xwz"], dtype=np.float64), _QR_TOL)
        return step_start(fit, p, iter_, messages)

    def evaluate(coef):
        state = sums_at(coef)
        return float(state["dev"]), state

    loop = irls_loop(st, float(st["dev"]), step, evaluate, lambda state: not state["invalid"], messages)
    st = loop["state"]
    if not loop["conv"]:
        messages.append("glm.fit: algorithm did not converge")
    if loop["boundary"]:
        messages.append("glm.fit: algorithm stopped at boundary value")
    if st["extreme"]:
        messages.append("glm.fit: fitted probabilities numerically 0 or 1 occurred")
    if warn:
        for m in messages:
            _warn(m)
    fit = last["fit"]
    rank = fit["rank"] if fit is not None else 0
    coef = np.full(len(names), np.nan)
    if loop["coef"] is not None:
        beta = loop["coef"].copy()
        if fit is not None and rank < p:
            beta[fit["pivot"][rank:] - 1] = np.nan
        coef[list(cols)] = beta
    return GlmFit(
        coefficients={name: float(v) for name, v in zip(names, coef)},
        rank=rank,
        family="binomial",
        link="logit",
        deviance=loop["dev"],
        aic=-2 * float(st["loglik"]) + 2 * rank,
        null_deviance=nulldev,
        iter=loop["iter"],
        df_residual=n_ok - rank,
        df_null=n_ok - 1,
        converged=loop["conv"],
        boundary=loop["boundary"],
        warnings=messages,
        xtwx=np.asarray(st["xwx"], dtype=np.float64),
    )

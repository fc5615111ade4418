# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/src/family.c (GPL-2.0-or-later), (c) The R Core Team
"""The binomial ``glm()`` fit that Platt and beta calibration share.

probcal fits both calibrators with ``stats::glm(family = binomial())``.
:func:`glm_binomial` repeats ``glm.fit``'s IRLS step by step: R's starting
values, its logit link with the +-30 thresholds (``stats/src/family.c``),
the least-squares step of :mod:`._linpack`, the convergence rule
``|dev - devold| / (|dev| + 0.1) < 1e-8`` and at most 25 iterations.
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence

import numpy as np

from ..rbase._format import as_character
from ..rbase._rarith import r_exp, r_log, r_sum
from ..rbase._rlist import RList
from ..rbase._warn import r_warning as _warn
from ._linpack import (
    _DBL_EPS,
    _EPSILON,
    _INVEPS,
    _MAXIT,
    _MTHRESH,
    _QR_TOL,
    _THRESH,
    _cdqrls,
    _kernels,
    _matvec,
)

# ---------------------------------------------------------------------------
# binomial family, logit link (R's C code in stats/src/family.c)
# ---------------------------------------------------------------------------


def _vector_kernels(a) -> Optional[object]:
    # The family's kernels take long 1-d float vectors (the lockstep fits pass n x K).
    return _kernels(a.size) if getattr(a, "ndim", 0) == 1 else None


def _exp_eta(eta: np.ndarray) -> np.ndarray:
    # linkinv and mu.eta both take exp(eta); the IRLS loop computes it once per eta.
    kern = _vector_kernels(eta)
    if kern is not None:
        out = np.empty(eta.size)
        kern.exp_eta(eta, out)
        return out
    return r_exp(np.clip(eta, -700, 700))


def _linkinv(eta: np.ndarray, e: Optional[np.ndarray] = None) -> np.ndarray:
    if e is None:
        e = _exp_eta(eta)
    kern = _vector_kernels(eta)
    if kern is not None:
        out = np.empty(eta.size)
        kern.linkinv(eta, e, out, _MTHRESH, _THRESH, _DBL_EPS, _INVEPS)
        return out
    if _inside_thresholds(eta):
        return e / (1 + e)
    tmp = np.where(eta < _MTHRESH, _DBL_EPS, np.where(eta > _THRESH, _INVEPS, e))
    return tmp / (1 + tmp)


def _inside_thresholds(eta: np.ndarray) -> bool:
    """No element below -30 or above 30 (NaN counts as outside): the family's
    np.where branches then pick ``e`` and ``val`` everywhere."""
    return bool(eta.size) and bool(eta.min() >= _MTHRESH) and bool(eta.max() <= _THRESH)


def _mu_eta(eta: np.ndarray, e: Optional[np.ndarray] = None) -> np.ndarray:
    if e is None:
        e = _exp_eta(eta)
    kern = _vector_kernels(eta)
    if kern is not None:
        out = np.empty(eta.size)
        kern.mu_eta(eta, e, out, _MTHRESH, _THRESH, _DBL_EPS)
        return out
    opexp = 1 + e
    with np.errstate(over="ignore"):
        val = e / (opexp * opexp)
    if _inside_thresholds(eta):
        return val
    return np.where((eta > _THRESH) | (eta < _MTHRESH), _DBL_EPS, val)


def _y_log_y(y: np.ndarray, mu) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        val = y * r_log(y / mu)
    return np.where(y != 0.0, val, 0.0)


def _dev_resids(y: np.ndarray, mu, wt: np.ndarray) -> np.ndarray:
    kern = _vector_kernels(y)
    if kern is not None and np.ndim(wt) <= 1 and np.ndim(mu) <= 1:
        out = np.empty(y.size)
        # A scalar (the null deviance's mean) is filled out: the C loop reads
        # one value per row.
        mu_v = np.ascontiguousarray(np.broadcast_to(np.asarray(mu, dtype=np.float64), y.shape))
        wt_v = np.ascontiguousarray(np.broadcast_to(np.asarray(wt, dtype=np.float64), y.shape))
        kern.dev_resids(y, mu_v, wt_v, out, np.empty(y.size))
        return out
    return 2 * wt * (_y_log_y(y, mu) + _y_log_y(1 - y, 1 - mu))


def _deviance_fn(y: np.ndarray, weights: np.ndarray):
    """``mu -> sum(dev.resids(y, mu, weights))``, with one logarithm per row for 0/1 ``y``.

    For ``y`` in {0, 1} the term ``y log(y / mu)`` or ``(1 - y) log((1 - y) / (1 - mu))``
    that R computes and then adds to an exact 0 is skipped: the kept term is
    ``log(1 / mu)`` or ``log(1 / (1 - mu))``, the same value bit for bit.
    """
    ones = y == 1
    if not (np.all(ones | (y == 0)) and np.all(weights == 1)):
        return lambda mu: r_sum(_dev_resids(y, mu, weights))
    i1 = np.flatnonzero(ones)
    i0 = np.flatnonzero(~ones)
    twice = 2 * weights
    terms = np.empty(y.size)
    kern = _kernels(y.size)
    if kern is not None:
        def deviance_compiled(mu: np.ndarray) -> float:
            # 2 * t is twice * t for unit weights.
            kern.dev_resids01(mu, i1, i0, terms)
            return r_sum(terms)

        return deviance_compiled

    def deviance(mu: np.ndarray) -> float:
        with np.errstate(divide="ignore", invalid="ignore"):
            terms[i1] = r_log(1.0 / mu[i1])
            terms[i0] = r_log(1.0 / (1 - mu[i0]))
        return r_sum(twice * terms)

    return deviance


def _validmu(mu: np.ndarray) -> bool:
    return bool(np.isfinite(mu).all() and ((mu > 0) & (mu < 1)).all())


class GlmFit(RList):
    """The parts of R's ``glm`` object that a binomial calibration fit carries.

    R equivalent: the ``fit`` component of ``cal_platt()``/``cal_beta()``
    (a ``glm`` object). Attributes use R's names with dots as underscores:
    ``coefficients`` (dict, R's names), ``residuals`` (working residuals),
    ``fitted_values``, ``linear_predictors``, ``deviance``, ``null_deviance``,
    ``aic``, ``iter``, ``weights`` (working), ``prior_weights``, ``rank``,
    ``df_residual``, ``df_null``, ``y``, ``converged``, ``boundary``,
    ``effects``, ``R``, ``qr`` (dict with ``qr``, ``rank``, ``qraux``,
    ``pivot``, ``tol``), ``family`` (``"binomial"``) and ``link`` (``"logit"``).
    """

    r_class = ("glm", "lm")
    # One value per training row (qr holds the n x p decomposed design);
    # left out of a calibrator's to_dict() unless data=True.
    _row_data = ("residuals", "fitted.values", "effects", "qr", "linear.predictors", "weights",
                 "prior.weights", "y")
    # R's names(glm.fit(...)) in R's order; the keyword arguments use
    # underscores (fitted_values) for R's dots (fitted.values).
    _R_NAMES = ("coefficients", "residuals", "fitted.values", "effects", "R", "rank", "qr",
                "family", "linear.predictors", "deviance", "aic", "null.deviance", "iter",
                "weights", "prior.weights", "df.residual", "df.null", "y", "converged",
                "boundary")

    def __init__(self, **kw):
        self._set_components((name, kw.pop(name.replace(".", "_"))) for name in self._R_NAMES
                             if name.replace(".", "_") in kw)
        # Not R components: the family's link, and the warnings glm.fit gave.
        for key, value in kw.items():
            setattr(self, key, value)

    def __repr__(self) -> str:
        coefs = ", ".join(f"{k}={as_character(v)}" for k, v in self.coefficients.items())
        return f"<GlmFit binomial(logit): {coefs}; deviance={self.deviance!r}, iter={self.iter}>"


def design_matrix(columns) -> np.ndarray:
    """The model matrix ``cbind(1, ...)`` in Fortran order, the layout the IRLS works in."""
    out = np.empty((columns[0].size, len(columns) + 1), order="F")
    out[:, 0] = 1.0
    for j, col in enumerate(columns, start=1):
        out[:, j] = col
    return out


def glm_binomial(x: np.ndarray, y: np.ndarray, names: Sequence[str], warn: bool = True,
                 offset: Optional[np.ndarray] = None, mustart: Optional[np.ndarray] = None,
                 etastart: Optional[np.ndarray] = None, weights: Optional[np.ndarray] = None) -> GlmFit:
    """R ``glm.fit(x, y, family = binomial(), offset = offset, weights = weights)``.

    ``x`` is the model matrix (first column the intercept), ``y`` the
    response in ``[0, 1]`` (fractional values allowed, as Platt's targets
    are). ``warn`` emits R's ``glm.fit`` warnings as RuntimeWarnings (R's
    ``cal_platt()`` suppresses them, ``cal_beta()`` does not). ``offset``
    (default none) enters the linear predictor as in R; the fit's
    ``null_deviance`` is then glm.fit's (the intercept-only deviance without
    the offset), not the one ``glm()`` refits. ``mustart`` and ``etastart``
    are R's starting values (``etastart`` wins, as in R). ``weights`` are
    R's prior weights (checked by the caller; ``None``: unit weights, the
    unweighted code path); as R's ``binomial()$initialize`` does, ``y`` is
    set to 0 where a weight is 0, and such rows leave the QR.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if offset is not None:
        offset = np.asarray(offset, dtype=np.float64)
    if weights is not None:
        # binomial()$initialize: y[weights == 0] <- 0 (a copy: never the caller's y).
        y = np.where(weights == 0, 0.0, y)
    return _glm_finish(x, y, _glm_irls(x, y, offset, mustart, etastart, weights), names, warn)


def halve_step(start, coefold, evaluate, ok, loop: int, messages: List[str], note: str):
    """``glm.fit``'s step halving, called once a step failed: R's error
    without an earlier step to go back to, else the warning ``note``, and
    ``start`` moves half way to ``coefold`` until ``ok(evaluate(start))``,
    at most ``_MAXIT`` times (then R's "inner loop <loop>; cannot correct
    step size"). Returns the accepted coefficients and their state."""
    if coefold is None:
        raise ValueError("no valid set of coefficients has been found: please supply starting values")
    messages.append(note)
    ii = 1
    while True:
        if ii > _MAXIT:
            raise ValueError(f"inner loop {loop}; cannot correct step size")
        ii += 1
        start = (start + coefold) / 2
        state = evaluate(start)
        if ok(state):
            return start, state


def _eta_mu(x, coef, offset=None):
    eta = _matvec(x, coef)
    if offset is not None:
        eta = eta + offset
    e = _exp_eta(eta)
    return eta, e, _linkinv(eta, e)


def _eta_mu_dev(x, coef, deviance, offset=None):
    eta, e, mu = _eta_mu(x, coef, offset)
    return eta, e, mu, deviance(mu)


def converged(dev: float, devold: float) -> bool:
    """``glm.fit``'s convergence rule ``abs(dev - devold) / (abs(dev) + 0.1) < epsilon``."""
    return abs(dev - devold) / (abs(dev) + 0.1) < _EPSILON


def irls_loop(state, devold: float, step, evaluate, valid, messages: List[str]) -> dict:
    """``glm.fit``'s IRLS loop control, shared by every fit of the package.

    ``state`` is the state at the starting values and ``devold`` its
    deviance. Each iteration ``step(iter, state)`` returns the new
    coefficients (or ``None`` after appending R's message: the loop stops,
    not converged); ``evaluate(coef)`` returns ``(dev, state)`` at them;
    ``valid(state)`` is the family's ``valideta(eta) && validmu(mu)``. A
    non-finite deviance, then an invalid state, halve the step
    (:func:`halve_step`) and set ``boundary``; the rule of :func:`converged`
    ends the loop, at most ``_MAXIT`` iterations. The in-memory fit
    (:func:`_glm_irls`, LINPACK's QR of the weighted design) and the Dask
    face's mergeable passes (:func:`._glm_merged.glm_irls_merged`) both run it.

    Returns ``state``, ``dev``, ``coef`` (None: no step accepted), ``iter``,
    ``conv`` and ``boundary``.
    """
    boundary = conv = False
    coef: Optional[np.ndarray] = None
    coefold: Optional[np.ndarray] = None
    dev = devold
    iter_ = 0
    for iter_ in range(1, _MAXIT + 1):
        start = step(iter_, state)
        if start is None:
            conv = False
            break
        dev, state = evaluate(start)
        boundary = False
        if not math.isfinite(dev):
            start, (dev, state) = halve_step(start, coefold, evaluate, lambda ev: math.isfinite(ev[0]), 1,
                                             messages, "step size truncated due to divergence")
            boundary = True
        if not valid(state):
            start, (dev, state) = halve_step(start, coefold, evaluate, lambda ev: valid(ev[1]), 2,
                                             messages, "step size truncated: out of bounds")
            boundary = True
        if converged(dev, devold):
            conv = True
            coef = start.copy()
            break
        devold = dev
        coef = start.copy()
        coefold = start.copy()
    return {"state": state, "dev": dev, "coef": coef, "iter": iter_, "conv": conv, "boundary": boundary}


def step_start(fit: dict, nvars: int, iter_: int, messages: List[str]) -> Optional[np.ndarray]:
    """glm.fit's ``start`` after one IRLS solve (``Cdqrls``'s coefficients in
    the columns' order, undoing its pivot), or None with R's message when a
    coefficient is not finite; shared by the in-memory and the merged fits."""
    if not np.isfinite(fit["coefficients"]).all():
        messages.append(f"non-finite coefficients at iteration {iter_}")
        return None
    start = np.empty(nvars)
    start[fit["pivot"] - 1] = fit["coefficients"]
    return start


def _glm_irls(x: np.ndarray, y: np.ndarray, offset: Optional[np.ndarray] = None,
              mustart: Optional[np.ndarray] = None, etastart: Optional[np.ndarray] = None,
              prior: Optional[np.ndarray] = None) -> dict:
    """``glm.fit``'s IRLS (:func:`irls_loop`, each step LINPACK's QR of the
    weighted design): the state :func:`_glm_finish` turns into a fit
    (``prior``: R's prior weights, unit when None)."""
    # Columns contiguous (the QR's layout): the weighted design and eta are
    # built column by column; same values.
    x = np.asfortranarray(x)
    nobs, nvars = x.shape
    weights = np.ones(nobs) if prior is None else prior
    messages: List[str] = []
    if bool(np.any(np.abs(weights * y - np.round(weights * y)) > 1e-3)):
        messages.append("non-integer #successes in a binomial glm!")
    if mustart is None:
        mustart = (weights * y + 0.5) / (weights + 1)
    eta = (np.asarray(etastart, dtype=np.float64) if etastart is not None
           else r_log(mustart / (1 - mustart)))
    e = _exp_eta(eta)
    mu = _linkinv(eta, e)
    deviance = _deviance_fn(y, weights)
    # The last step's QR, working weights and informative rows (glm.fit's
    # fit, w and good after the loop).
    last = {"fit": None, "w": None, "good": None}

    def step(iter_, state):
        eta, e, mu = state
        mu_eta_val = _mu_eta(eta, e)
        good = (weights > 0) & (mu_eta_val != 0)
        last["good"] = good
        if not good.any():
            messages.append(f"no observations informative at iteration {iter_}")
            return None
        # Every row is informative almost always: slicing then skips the
        # boolean-mask copies (same elements, same arithmetic).
        sel = slice(None) if good.all() else good
        kern = _kernels(nobs) if good.all() and offset is None else None
        if kern is not None:
            z, w = np.empty(nobs), np.empty(nobs)
            kern.working(eta, y, mu, mu_eta_val, weights, z, w)
        else:
            variance = mu * (1 - mu)
            z = (eta if offset is None else eta - offset)[sel] + (y - mu)[sel] / mu_eta_val[sel]
            w = np.sqrt((weights[sel] * mu_eta_val[sel] ** 2) / variance[sel])
        last["w"] = w
        # The weighted design is built in the QR's own (Fortran) layout and
        # decomposed in place: the same values as R's copy, one copy fewer.
        xw = np.empty((w.size, nvars), order="F")
        np.multiply(x[sel], w[:, None], out=xw)
        fit = last["fit"] = _cdqrls(xw, z * w, _QR_TOL, overwrite=True)
        return step_start(fit, nvars, iter_, messages)

    def evaluate(coef):
        eta, e, mu, dev = _eta_mu_dev(x, coef, deviance, offset)
        return dev, (eta, e, mu)

    loop = irls_loop((eta, e, mu), deviance(mu), step, evaluate, lambda st: _validmu(st[2]), messages)
    eta, e, mu = loop["state"]
    return {"weights": weights, "messages": messages, "eta": eta, "mu": mu, "dev": loop["dev"],
            "coef": loop["coef"], "fit": last["fit"], "w": last["w"], "good": last["good"],
            "iter": loop["iter"], "conv": loop["conv"], "boundary": loop["boundary"], "exp_eta": e}


def _weighted_loglik(y: np.ndarray, mu: np.ndarray, wt: np.ndarray) -> float:
    """``sum(ifelse(m > 0, wt / m, 0) * dbinom(round(m * y), round(m), mu, log = TRUE))``
    with ``m = wt``: binomial()$aic's log-likelihood under prior weights.

    Each term is ``lchoose(size, k) + k log(mu) + (size - k) log(1 - mu)``
    (lgamma for the binomial coefficient), equal to R's ``dbinom`` (which
    uses Loader's saddle-point form) to rounding, not bit for bit.
    """
    size = np.round(wt)
    k = np.round(wt * y)
    lchoose = np.array([math.lgamma(s + 1) - math.lgamma(a + 1) - math.lgamma(s - a + 1)
                        for s, a in zip(size.tolist(), k.tolist())])
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(k > 0, k * r_log(mu), 0.0)
        b = np.where(size - k > 0, (size - k) * r_log(1 - mu), 0.0)
    terms = np.where(wt > 0, lchoose + a + b, 0.0)
    return r_sum(terms)


def _glm_finish(x: np.ndarray, y: np.ndarray, st: dict, names: Sequence[str], warn: bool) -> GlmFit:
    """The rest of ``glm.fit`` after the IRLS loop: warnings, deviances, aic, the fit object."""
    nobs, nvars = x.shape
    weights, messages, eta, mu, dev = st["weights"], st["messages"], st["eta"], st["mu"], st["dev"]
    coef, fit, w, good, iter_ = st["coef"], st["fit"], st["w"], st["good"], st["iter"]
    conv, boundary = st["conv"], st["boundary"]
    if not conv:
        messages.append("glm.fit: algorithm did not converge")
    if boundary:
        messages.append("glm.fit: algorithm stopped at boundary value")
    eps10 = 10 * _DBL_EPS
    if bool(np.any(mu > 1 - eps10) or np.any(mu < eps10)):
        messages.append("glm.fit: fitted probabilities numerically 0 or 1 occurred")
    if coef is None:
        coef = np.full(nvars, np.nan)
    rank = fit["rank"] if fit is not None else 0
    pivot = fit["pivot"] if fit is not None else np.arange(1, nvars + 1)
    if fit is not None and rank < nvars:
        coef = coef.copy()
        coef[pivot[rank:] - 1] = np.nan
    wt = np.zeros(nobs)
    if good is not None and w is not None:
        wt[good] = w ** 2
    if "residuals" in st:  # computed for several fits at once by _glm_irls_columns
        residuals, nulldev, loglik_sum = st["residuals"], st["nulldev"], st["loglik_sum"]
    else:
        residuals = (y - mu) / _mu_eta(eta, st.get("exp_eta"))
        wtdmu = r_sum(weights * y) / r_sum(weights)
        nulldev = r_sum(_dev_resids(y, wtdmu, weights))
        # aic: -2 * sum(dbinom(round(y), 1, mu, log = TRUE)) + 2 * rank
        # Each row's one logarithm (np.where would take both for every row).
        if np.all(weights == 1):
            pos = np.round(y) == 1
            loglik = np.empty(nobs)
            with np.errstate(divide="ignore"):
                loglik[pos] = r_log(mu[pos])
                loglik[~pos] = r_log(1 - mu[~pos])
            loglik_sum = r_sum(loglik)
        else:
            loglik_sum = _weighted_loglik(y, mu, weights)
    # glm.fit: n.ok <- nobs - sum(weights == 0)
    n_ok = nobs - int(np.count_nonzero(weights == 0))
    nulldf = n_ok - 1
    resdf = n_ok - rank
    aic = -2 * loglik_sum + 2 * rank
    xxnames = [names[i - 1] for i in pivot]
    qr_mat = fit["qr"] if fit is not None else None
    r_mat = None
    if qr_mat is not None:
        nr = min(int(good.sum()), nvars)
        r_mat = np.triu(qr_mat[:nr, :nvars]) if nr == nvars else None
    if warn:
        for m in messages:
            _warn(m)
    return GlmFit(
        coefficients={name: float(v) for name, v in zip(names, coef)},
        residuals=residuals,
        fitted_values=mu,
        effects=fit["effects"] if fit is not None else None,
        R=r_mat,
        rank=rank,
        qr={"qr": qr_mat, "rank": rank, "qraux": fit["qraux"] if fit is not None else None,
            "pivot": pivot, "tol": _QR_TOL, "colnames": xxnames},
        family="binomial",
        link="logit",
        linear_predictors=eta,
        deviance=dev,
        aic=aic,
        null_deviance=nulldev,
        iter=iter_,
        weights=wt,
        prior_weights=weights,
        df_residual=resdf,
        df_null=nulldf,
        y=y,
        converged=conv,
        boundary=boundary,
        warnings=messages,
    )

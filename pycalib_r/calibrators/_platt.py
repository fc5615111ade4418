"""Platt scaling, and the binomial ``glm()`` fit that Platt and beta calibration share.

probcal fits both calibrators with ``stats::glm(family = binomial())``. To land
on R's coefficients to the last few bits (not merely on the same optimum),
:func:`glm_binomial` repeats ``glm.fit``'s IRLS step by step: R's starting
values, its logit link with the +-30 thresholds, the least-squares step by
LINPACK's ``dqrdc2``/``dqrsl`` with R's limited column pivoting (tolerance
``1e-11``) and reference-BLAS summation order, the convergence rule
``|dev - devold| / (|dev| + 0.1) < 1e-8`` and at most 25 iterations.
"""

from __future__ import annotations

import math
from typing import List, Optional, Sequence

import numpy as np

from .. import _jit
from .._checks import as_numeric_vector, check_binary_y, check_same_length
from .._rarith import JIT_MIN_SIZE
from .._rlist import RList
from ._base import (
    Calibrator,
    _warn,
    as_character,
    format_call,
    new_calibrator,
    plogis,
    r_exp,
    r_log,
    r_sum,
    rounded,
    seq_sum,
)

__all__ = ["cal_platt", "CalPlatt", "GlmFit", "glm_binomial", "design_matrix"]

_DBL_EPS = 2.220446049250313e-16
_THRESH = 30.0
_MTHRESH = -30.0
_INVEPS = 1.0 / _DBL_EPS
_EPSILON = 1e-8  # glm.control()$epsilon
_MAXIT = 25  # glm.control()$maxit
_QR_TOL = min(1e-7, _EPSILON / 1000)

# Blue's constants of reference BLAS 3.10+ dnrm2 (IEEE double).
_TSML = 2.0 ** -511
_TBIG = 2.0 ** 486
_SSML = 2.0 ** 537
_SBIG = 2.0 ** -538


# ---------------------------------------------------------------------------
# Reference BLAS / LINPACK in R's evaluation order
# ---------------------------------------------------------------------------


def _seq_sum(v: np.ndarray) -> float:
    # Fortran loops add left to right; numpy's pairwise sum would not.
    return seq_sum(v)


# Seconds one compiled pass of the IRLS loop saves per row over the numpy
# expressions (a 200,000-row fit: about 56 passes, 0.05 s saved).
_GLM_SAVES = 4e-9


def _kernels(n: int):
    """The compiled IRLS loops (``_glm_kernels``) for vectors of ``n`` rows, or None.

    Below JIT_MIN_SIZE rows, or without numba, the numpy expressions run;
    both give the same bits (tests/test_calibrator_kernels.py).
    """
    if n < JIT_MIN_SIZE:
        return None
    return _jit.kernels("pycalib_r.calibrators._glm_kernels", float_math=True, saves=n * _GLM_SAVES)


def _ddot(a: np.ndarray, b: np.ndarray) -> float:
    kern = _kernels(a.size)
    if kern is not None:
        return kern.ddot(a, b)
    return _seq_sum(a * b)


def _axpy(t: float, x: np.ndarray, y: np.ndarray) -> None:
    """Reference BLAS ``daxpy``: ``y <- y + t * x``, in place (``y`` a view)."""
    kern = _kernels(x.size)
    if kern is not None:
        kern.axpy(t, x, y)
    else:
        y += t * x


def _scal(c: float, x: np.ndarray) -> None:
    """Reference BLAS ``dscal``: ``x <- c * x``, in place."""
    kern = _kernels(x.size)
    if kern is not None:
        kern.scal(c, x)
    else:
        x *= c


def _dnrm2(v: np.ndarray) -> float:
    if v.size == 0:
        return 0.0
    kern = _kernels(v.size)
    if kern is not None:
        norm, odd = kern.nrm2_unscaled(v)
        return _dnrm2_scaled(np.abs(v)) if odd else norm
    ax = np.abs(v)
    big = ax > _TBIG
    small = ax < _TSML
    if not big.any() and not small.any():
        return math.sqrt(_seq_sum(ax * ax))
    return _dnrm2_scaled(ax)


def _dnrm2_scaled(ax: np.ndarray) -> float:
    notbig = True
    asml = amed = abig = 0.0
    for a in ax:
        a = float(a)
        if a > _TBIG:
            abig = abig + (a * _SBIG) ** 2
            notbig = False
        elif a < _TSML:
            if notbig:
                asml = asml + (a * _SSML) ** 2
        else:
            amed = amed + a ** 2
    if abig > 0.0:
        if amed > 0.0 or amed != amed:
            abig = abig + (amed * _SBIG) * _SBIG
        scl = 1.0 / _SBIG
        sumsq = abig
    elif asml > 0.0:
        if amed > 0.0 or amed != amed:
            amed = math.sqrt(amed)
            asml = math.sqrt(asml) / _SSML
            ymin, ymax = (amed, asml) if asml > amed else (asml, amed)
            scl = 1.0
            sumsq = ymax ** 2 * (1.0 + (ymin / ymax) ** 2)
        else:
            scl = 1.0 / _SSML
            sumsq = asml
    else:
        scl = 1.0
        sumsq = amed
    return scl * math.sqrt(sumsq)


def _dqrdc2(x: np.ndarray, tol: float, overwrite: bool = False):
    """LINPACK ``dqrdc2`` (R's modified QR with limited pivoting); works on a copy
    unless ``overwrite`` (``x`` then a Fortran-ordered float array the caller gives up)."""
    if not (overwrite and x.flags.f_contiguous and x.dtype == np.float64):
        x = np.array(x, dtype=np.float64, order="F", copy=True)
    n, p = x.shape
    qraux = np.array([_dnrm2(x[:, j]) for j in range(p)])
    work1 = qraux.copy()
    work2 = qraux.copy()
    work2[work2 == 0.0] = 1.0
    jpvt = np.arange(1, p + 1)
    lup = min(n, p)
    k = p + 1
    for l in range(lup):  # 0-based column l is Fortran's l + 1
        # Columns with negligible norm move to the end (R's modification).
        while not (l + 1 >= k or qraux[l] >= work2[l] * tol):
            order = list(range(l)) + list(range(l + 1, p)) + [l]
            x = x[:, order]
            jpvt = jpvt[order]
            qraux = qraux[order]
            work1 = work1[order]
            work2 = work2[order]
            k -= 1
        if l + 1 == n:
            continue
        col = x[l:, l]
        nrmxl = _dnrm2(col)
        if nrmxl == 0.0:
            continue
        if x[l, l] != 0.0:
            nrmxl = math.copysign(abs(nrmxl), x[l, l])
        _scal(1.0 / nrmxl, x[l:, l])
        x[l, l] = 1.0 + x[l, l]
        for j in range(l + 1, p):
            t = -_ddot(x[l:, l], x[l:, j]) / x[l, l]
            if t != 0.0:
                _axpy(t, x[l:, l], x[l:, j])
            if qraux[j] != 0.0:
                tt = 1.0 - (abs(x[l, j]) / qraux[j]) ** 2
                tt = max(tt, 0.0)
                if abs(tt) < 1e-6:
                    qraux[j] = _dnrm2(x[l + 1:, j])
                    work1[j] = qraux[j]
                else:
                    qraux[j] = qraux[j] * math.sqrt(tt)
        qraux[l] = x[l, l]
        x[l, l] = -nrmxl
    k = min(k - 1, n)
    return x, k, qraux, jpvt


def _cdqrls(x: np.ndarray, y: np.ndarray, tol: float, overwrite: bool = False):
    """R's ``.Call(C_Cdqrls, x, y, tol)``: coefficients, rank, pivot, qr, qraux, effects.

    ``overwrite``: ``x`` (Fortran-ordered) and ``y`` are the caller's
    temporaries, decomposed in place instead of copied.
    """
    n, p = x.shape
    qr, k, qraux, jpvt = _dqrdc2(x, tol, overwrite)
    qty = y if overwrite and y.dtype == np.float64 else np.array(y, dtype=np.float64, copy=True)
    b = np.zeros(p)
    if k > 0:
        ju = min(k, n - 1)
        if ju == 0:
            if qr[0, 0] != 0.0:
                b[0] = qty[0] / qr[0, 0]
        else:
            for j in range(ju):
                if qraux[j] == 0.0:
                    continue
                diag = qr[j:, j].copy()
                diag[0] = qraux[j]
                t = -_ddot(diag, qty[j:]) / diag[0]
                if t != 0.0:
                    _axpy(t, diag, qty[j:])
            b[:k] = qty[:k]
            for j in range(k - 1, -1, -1):
                if qr[j, j] == 0.0:
                    break
                b[j] = b[j] / qr[j, j]
                if j > 0:
                    t = -b[j]
                    if t != 0.0:
                        b[:j] = b[:j] + t * qr[:j, j]
    return {"coefficients": b, "rank": int(k), "pivot": jpvt, "qr": qr,
            "qraux": qraux, "effects": qty}


def _matvec(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # Reference dgemv: y = 0, then y += beta_j * x[:, j] column by column.
    out = np.zeros(x.shape[0])
    for j in range(x.shape[1]):
        out = out + beta[j] * x[:, j]
    return out


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
        mu_v = np.broadcast_to(np.asarray(mu, dtype=np.float64), y.shape)
        wt_v = np.broadcast_to(np.asarray(wt, dtype=np.float64), y.shape)
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


def glm_binomial(x: np.ndarray, y: np.ndarray, names: Sequence[str], warn: bool = True) -> GlmFit:
    """R ``glm.fit(x, y, family = binomial())`` with unit prior weights and no offset.

    ``x`` is the model matrix (first column the intercept), ``y`` the
    response in ``[0, 1]`` (fractional values allowed, as Platt's targets
    are). ``warn`` emits R's ``glm.fit`` warnings as RuntimeWarnings (R's
    ``cal_platt()`` suppresses them, ``cal_beta()`` does not).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    return _glm_finish(x, y, _glm_irls(x, y), names, warn)


def _glm_irls(x: np.ndarray, y: np.ndarray) -> dict:
    """``glm.fit``'s IRLS loop: the state :func:`_glm_finish` turns into a fit."""
    # Columns contiguous (the QR's layout): the weighted design and eta are
    # built column by column; same values.
    x = np.asfortranarray(x)
    nobs, nvars = x.shape
    weights = np.ones(nobs)
    messages: List[str] = []
    if bool(np.any(np.abs(weights * y - np.round(weights * y)) > 1e-3)):
        messages.append("non-integer #successes in a binomial glm!")
    mustart = (weights * y + 0.5) / (weights + 1)
    eta = r_log(mustart / (1 - mustart))
    e = _exp_eta(eta)
    mu = _linkinv(eta, e)
    deviance = _deviance_fn(y, weights)
    devold = deviance(mu)
    boundary = conv = False
    coefold: Optional[np.ndarray] = None
    start: Optional[np.ndarray] = None
    coef = None
    fit = None
    w = None
    good = None
    dev = devold
    iter_ = 0
    for iter_ in range(1, _MAXIT + 1):
        mu_eta_val = _mu_eta(eta, e)
        good = (weights > 0) & (mu_eta_val != 0)
        if not good.any():
            conv = False
            messages.append(f"no observations informative at iteration {iter_}")
            break
        # Every row is informative almost always: slicing then skips the
        # boolean-mask copies (same elements, same arithmetic).
        sel = slice(None) if good.all() else good
        kern = _kernels(nobs) if good.all() else None
        if kern is not None:
            z, w = np.empty(nobs), np.empty(nobs)
            kern.working(eta, y, mu, mu_eta_val, weights, z, w)
        else:
            variance = mu * (1 - mu)
            z = eta[sel] + (y - mu)[sel] / mu_eta_val[sel]
            w = np.sqrt((weights[sel] * mu_eta_val[sel] ** 2) / variance[sel])
        # The weighted design is built in the QR's own (Fortran) layout and
        # decomposed in place: the same values as R's copy, one copy fewer.
        xw = np.empty((w.size, nvars), order="F")
        np.multiply(x[sel], w[:, None], out=xw)
        fit = _cdqrls(xw, z * w, _QR_TOL, overwrite=True)
        if not np.isfinite(fit["coefficients"]).all():
            conv = False
            messages.append(f"non-finite coefficients at iteration {iter_}")
            break
        start = np.empty(nvars) if start is None else start.copy()
        start[fit["pivot"] - 1] = fit["coefficients"]
        eta = _matvec(x, start)
        e = _exp_eta(eta)
        mu = _linkinv(eta, e)
        dev = deviance(mu)
        boundary = False
        if not math.isfinite(dev):
            if coefold is None:
                raise ValueError("no valid set of coefficients has been found: please supply starting values")
            messages.append("step size truncated due to divergence")
            ii = 1
            while not math.isfinite(dev):
                if ii > _MAXIT:
                    raise ValueError("inner loop 1; cannot correct step size")
                ii += 1
                start = (start + coefold) / 2
                eta = _matvec(x, start)
                e = _exp_eta(eta)
                mu = _linkinv(eta, e)
                dev = deviance(mu)
            boundary = True
        if not _validmu(mu):
            if coefold is None:
                raise ValueError("no valid set of coefficients has been found: please supply starting values")
            messages.append("step size truncated: out of bounds")
            ii = 1
            while not _validmu(mu):
                if ii > _MAXIT:
                    raise ValueError("inner loop 2; cannot correct step size")
                ii += 1
                start = (start + coefold) / 2
                eta = _matvec(x, start)
                e = _exp_eta(eta)
                mu = _linkinv(eta, e)
            boundary = True
            dev = deviance(mu)
        if abs(dev - devold) / (abs(dev) + 0.1) < _EPSILON:
            conv = True
            coef = start.copy()
            break
        devold = dev
        coef = start.copy()
        coefold = start.copy()
    return {"weights": weights, "messages": messages, "eta": eta, "mu": mu, "dev": dev,
            "coef": coef, "fit": fit, "w": w, "good": good, "iter": iter_, "conv": conv,
            "boundary": boundary, "exp_eta": e}


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
        pos = np.round(y) == 1
        loglik = np.empty(nobs)
        with np.errstate(divide="ignore"):
            loglik[pos] = r_log(mu[pos])
            loglik[~pos] = r_log(1 - mu[~pos])
        loglik_sum = r_sum(loglik)
    nulldf = nobs - 1
    resdf = nobs - rank
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


# ---------------------------------------------------------------------------
# cal_platt
# ---------------------------------------------------------------------------


class CalPlatt(Calibrator):
    """A fitted Platt-scaling calibrator (R class ``c("cal_platt", "calibrator")``).

    Components (R order): ``method``, ``n``, ``input``, ``coefficients``
    (dict ``{"(Intercept)": a, "x": b}``), ``fit`` (:class:`GlmFit`),
    ``target_pos``, ``target_neg``, ``call``.
    """

    r_class = "cal_platt"

    def _predict(self, newdata):
        x = as_numeric_vector(newdata, arg="newdata")
        coefs = self.coefficients
        eta = coefs["(Intercept)"] + coefs["x"] * x
        # R passes eta to inv_logit(), whose input check rejects the NA an
        # aliased slope produces.
        eta = as_numeric_vector(eta, arg="x")
        return plogis(eta)

    def summary_params(self):
        return {name: rounded(value, 4) for name, value in self.coefficients.items()}


def cal_platt(x, y) -> CalPlatt:
    """Platt scaling: a logistic regression of Platt-corrected labels on a score.

    R equivalent: ``probcal::cal_platt(x, y)``.

    Parameters
    ----------
    x : array_like
        Uncalibrated scores on any real scale, or raw probabilities (finite).
        The fitted map is logistic in the values given, whichever scale they
        are on.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.

    Returns
    -------
    CalPlatt
        Components ``method``, ``n``, ``input``, ``coefficients`` (R names
        ``"(Intercept)"`` and ``"x"``), ``fit`` (the :class:`GlmFit`),
        ``target_pos``, ``target_neg``, ``call``. ``predict(fit, newdata)``
        returns ``inv_logit(a + b * newdata)``.

    Notes
    -----
    With ``n_+`` positives and ``n_-`` negatives, the labels are replaced by
    Platt's smoothed targets (Platt 1999, section 2.2)::

        t_i = (n_+ + 1) / (n_+ + 2)   if y_i = 1
        t_i = 1 / (n_- + 2)           if y_i = 0

    and ``(a, b)`` minimise the binomial cross-entropy with these fractional
    targets::

        q_i = inv_logit(a + b * x_i)
        -sum_i [t_i * log(q_i) + (1 - t_i) * log(1 - q_i)]

    R fits this as ``glm(y_adj ~ x, family = binomial())``, by iteratively
    reweighted least squares: R's starting values ``mustart = (t + 0.5) / 2``,
    the convergence rule ``|dev - devold| / (|dev| + 0.1) < 1e-8``, at most
    25 iterations, each step a QR solve by LINPACK's ``dqrdc2`` with R's
    limited pivoting. :func:`glm_binomial` repeats those steps in R's order of
    arithmetic, so the coefficients are R's to the last bit in the parity
    fixtures, not merely the same optimum. R wraps the fit in
    ``suppressWarnings()`` (the fractional targets always trigger
    "non-integer #successes"), and so does this port. The slope is not
    constrained: the map is increasing only when ``b >= 0``.

    Other implementations: scikit-learn's
    ``CalibratedClassifierCV(method="sigmoid")`` uses the same Platt targets,
    minimised by L-BFGS-B, and writes the map as ``1 / (1 + exp(A * x + B))``,
    so ``A = -b`` and ``B = -a`` (on the example below its ``A, B`` agree
    with ``-b, -a`` to 3e-8, its optimiser's tolerance). A plain logistic
    regression on the 0/1 labels (``statsmodels``, or
    ``LogisticRegression(penalty=None)``) omits the smoothing and gives other
    coefficients, closest to these when both classes are large.

    References
    ----------
    Platt, J. C. (1999). Probabilistic outputs for support vector machines
    and comparisons to regularized likelihood methods. In A. J. Smola,
    P. Bartlett, B. Schölkopf & D. Schuurmans (Eds.), *Advances in Large
    Margin Classifiers* (pp. 61-74). MIT Press.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> score = pc.rnorm(120)
    >>> y = pc.rbinom(120, 1, pc.inv_logit(score))
    >>> fit = pc.cal_platt(score, y)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: Platt scaling
    Observations: 120
    Input: scores or probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    (Intercept): -0.142
    x: 1.3406
    >>> print(f"{fit.target_pos:.7g} {fit.target_neg:.7g}")
    0.983871 0.01612903
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [-1, 0, 1])))
    0.1850273 0.4645512 0.7682729

    R: ``set.seed(1); score <- rnorm(120); y <- rbinom(120, 1,
    inv_logit(score)); fit <- cal_platt(score, y); summary(fit)`` prints the
    same text, and ``predict(fit, c(-1, 0, 1))`` the same values.
    """
    x_arr = as_numeric_vector(x, arg="x").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(x_arr, y_arr, x_arg="x", y_arg="y")
    n_pos = int((y_arr == 1).sum())
    n_neg = int((y_arr == 0).sum())
    target_pos = (n_pos + 1) / (n_pos + 2)
    target_neg = 1 / (n_neg + 2)
    y_adj = np.where(y_arr == 1, target_pos, target_neg)
    design = design_matrix([x_arr])
    fit = glm_binomial(design, y_adj, ["(Intercept)", "x"], warn=False)
    return _platt_calibrator(fit, y_arr.size, target_pos, target_neg)


def _platt_calibrator(fit: GlmFit, n: int, target_pos: float, target_neg: float) -> CalPlatt:
    return new_calibrator(
        CalPlatt,
        method="Platt scaling",
        n=n,
        input="scores or probabilities",
        coefficients=dict(fit.coefficients),
        fit=fit,
        target_pos=target_pos,
        target_neg=target_neg,
        call=format_call("cal_platt", ("x", "y")),
    )


# ---------------------------------------------------------------------------
# Several glm fits in lockstep (one-vs-rest Platt)
# ---------------------------------------------------------------------------
#
# cal_ovr() fits K independent glms on the same rows. Run one by one, each
# IRLS step is a few dozen numpy calls on short vectors, so at n ~ 500 the
# time is call overhead. Below, the K fits advance together with the classes
# on the last axis: every elementwise operation is the same IEEE operation
# on the same operands, and every Fortran-order sum is a column sum of a
# C-ordered (n, K) array, which numpy adds row after row (left to right per
# column). A fit that needs a branch the lockstep path does not take (column
# pivoting, step halving, uninformative rows, an extreme norm) is redone
# alone by glm_binomial's own loop, so every fit is the one glm_binomial
# returns, bit for bit.


def _colsums_are_sequential() -> bool:
    probe = np.zeros((1000, 2))
    probe[0] = 1.0
    probe[1:] = 2.0 ** -53
    return bool((np.add.reduce(probe, axis=0) == 1.0).all())


_COLSUM_SEQUENTIAL = _colsums_are_sequential()


def _seq_colsums(a: np.ndarray) -> np.ndarray:
    """Left-to-right double sum of each column of ``a`` (n x m)."""
    if a.shape[1] == 1 or not _COLSUM_SEQUENTIAL:
        return np.array([seq_sum(np.ascontiguousarray(a[:, c])) for c in range(a.shape[1])])
    # C order matters: on a Fortran-ordered array the column is the inner
    # loop, which numpy sums pairwise.
    return np.add.reduce(np.ascontiguousarray(a), axis=0)


def _ld_colsums(a: np.ndarray) -> np.ndarray:
    """R ``sum()`` of each column (sequential long double, then rounded)."""
    if a.shape[1] == 1 or not _COLSUM_SEQUENTIAL:
        return np.array([r_sum(a[:, c]) for c in range(a.shape[1])])
    return np.add.reduce(a.astype(np.longdouble, order="C"), axis=0).astype(np.float64)


# |a| > TBIG exactly when a * a > TBIG^2, and |a| < TSML exactly when
# a * a < TSML^2 = 2^-1022 (the rounded square of a double just below 2^-511
# stays below 2^-1022); NaN fails every test either way.
_TBIG2 = _TBIG * _TBIG
_TSML2 = _TSML * _TSML


def _dnrm2_cols(v: np.ndarray):
    """``_dnrm2`` of each column and a mask of the columns it cannot do unscaled."""
    sq = v * v  # |a| * |a|, the same double
    # fmax/fmin skip NaN, as the elementwise comparisons do. Over the whole
    # array first (one fast reduction): per column only if some value is odd.
    if sq.size and (np.fmax.reduce(sq, axis=None) > _TBIG2 or np.fmin.reduce(sq, axis=None) < _TSML2):
        odd = (np.fmax.reduce(sq, axis=0) > _TBIG2) | (np.fmin.reduce(sq, axis=0) < _TSML2)
    else:
        odd = np.zeros(sq.shape[1], dtype=bool)
    return np.sqrt(_seq_colsums(sq)), odd


def _axpy_cols(t: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    """daxpy per class in place, skipped (as LINPACK skips it) where ``t == 0``."""
    if (t != 0.0).all():
        y += t * x
    else:
        y[...] = np.where(t != 0.0, y + t * x, y)


def _false_where_all(ok: np.ndarray) -> np.ndarray:
    """``~ok.all(axis=0)``, with one whole-array test for the usual all-true case."""
    if ok.all():
        return np.zeros(ok.shape[1], dtype=bool)
    return ~ok.all(axis=0)


def _cdqrls_cols(x3: np.ndarray, y2: np.ndarray, tol: float, overwrite: bool = False):
    """``_cdqrls`` for each class (x3: p x n x m, column j of every class in
    ``x3[j]``; y2: n x m) and the classes it could not do.

    Only the path without pivoting and with nonzero pivots; a class flagged
    in ``bad`` has garbage in its slots. ``overwrite``: ``x3`` and ``y2`` are
    the caller's temporaries, worked on in place.
    """
    p, n, m = x3.shape
    x = x3 if overwrite else x3.copy()
    bad = np.zeros(m, dtype=bool)
    qraux = np.empty((p, m))
    for j in range(p):
        qraux[j], odd = _dnrm2_cols(x[j])
        bad |= odd
    work2 = qraux.copy()
    work2[work2 == 0.0] = 1.0
    for l in range(p):
        bad |= ~(qraux[l] >= work2[l] * tol)  # would pivot
        if l == 0:
            # Column 0 is untouched so far: its norm is the one just taken.
            nrmxl = qraux[0].copy()
        else:
            nrmxl, odd = _dnrm2_cols(x[l, l:])
            bad |= odd
        bad |= nrmxl == 0.0
        xll = x[l, l]
        if (xll != 0.0).all():  # copysign ignores the sign of |nrmxl|
            nrmxl = np.copysign(nrmxl, xll)
        else:
            nrmxl = np.where(xll != 0.0, np.copysign(np.abs(nrmxl), xll), nrmxl)
        x[l, l:] *= 1.0 / nrmxl
        x[l, l] = 1.0 + x[l, l]
        for j in range(l + 1, p):
            t = -_seq_colsums(x[l, l:] * x[j, l:]) / x[l, l]
            _axpy_cols(t, x[l, l:], x[j, l:])
            # Scalar arithmetic, as _dqrdc2 does it: ``** 2`` is C pow() for
            # numpy and Python floats alike, which numpy's array square is not.
            xlj = np.abs(x[j, l]).tolist()
            qj = qraux[j].tolist()
            for c in range(m):
                if bad[c] or qj[c] == 0.0:
                    continue
                tt = 1.0 - (xlj[c] / qj[c]) ** 2
                tt = max(tt, 0.0)
                if abs(tt) < 1e-6:
                    qj[c] = _dnrm2(np.ascontiguousarray(x[j, l + 1:, c]))
                else:
                    qj[c] = qj[c] * math.sqrt(tt)
            qraux[j] = qj
        qraux[l] = x[l, l]
        x[l, l] = -nrmxl
    qty = y2 if overwrite else y2.copy()
    for j in range(p):
        bad |= qraux[j] == 0.0
        diag = x[j, j:].copy()
        diag[0] = qraux[j]
        t = -_seq_colsums(diag * qty[j:]) / diag[0]
        _axpy_cols(t, diag, qty[j:])
    b = qty[:p].copy()
    for j in range(p - 1, -1, -1):
        bad |= x[j, j] == 0.0
        b[j] = b[j] / x[j, j]
        if j > 0:
            t = -b[j]
            _axpy_cols(t, x[j, :j], b[:j])
    return b, x, qraux, qty, bad


def _glm_irls_columns(x3: np.ndarray, y2: np.ndarray) -> List[dict]:
    """:func:`_glm_irls` for each class: x3 is n x p x K (designs), y2 n x K (responses)."""
    n, p, kk = x3.shape
    states: List[Optional[dict]] = [None] * kk
    if n <= p or kk < 2:
        return [_glm_irls(np.ascontiguousarray(x3[:, :, c]), np.ascontiguousarray(y2[:, c]))
                for c in range(kk)]
    nobs = n
    weights = np.ones(nobs)
    wcol = weights[:, None]
    nonint = np.any(np.abs(wcol * y2 - np.round(wcol * y2)) > 1e-3, axis=0)
    mustart = (wcol * y2 + 0.5) / (wcol + 1)
    eta = r_log(mustart / (1 - mustart))
    e = _exp_eta(eta)
    mu = _linkinv(eta, e)
    devold = _ld_colsums(_dev_resids(y2, mu, wcol))
    # Platt's targets lie strictly inside (0, 1): then dev.resids keeps both
    # of its y*log(y/mu) terms for every row, and no np.where is needed.
    y2c = 1 - y2
    inner = bool(((y2 != 0) & (y2c != 0)).all())
    active = np.arange(kk)
    redo: List[int] = []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for iter_ in range(1, _MAXIT + 1):
            if active.size == 0:
                break
            if active.size == kk:  # views: no copies while every fit runs
                x_a, y_a, yc_a, eta_a, mu_a, e_a = x3, y2, y2c, eta, mu, e
            else:
                x_a, y_a, yc_a = x3[:, :, active], y2[:, active], y2c[:, active]
                eta_a, mu_a, e_a = eta[:, active], mu[:, active], e[:, active]
            mu_eta_val = _mu_eta(eta_a, e_a)
            bad = _false_where_all(mu_eta_val != 0)
            variance = mu_a * (1 - mu_a)
            z = eta_a + (y_a - mu_a) / mu_eta_val
            # The prior weights are ones, and 1 * v is v.
            w = np.sqrt((mu_eta_val ** 2) / variance)
            # Column-major per class (p x n x m): each column of every class
            # is one contiguous n x m block for the QR's column operations.
            xw = np.empty((p, nobs, active.size))
            for j in range(p):
                np.multiply(x_a[:, j, :], w, out=xw[j])
            b, qr, qraux, effects, bad_qr = _cdqrls_cols(xw, z * w, _QR_TOL, overwrite=True)
            bad |= bad_qr | ~np.isfinite(b).all(axis=0)
            new_eta = np.zeros((nobs, active.size))
            for j in range(p):
                new_eta = new_eta + b[j] * x_a[:, j, :]
            new_e = _exp_eta(new_eta)
            new_mu = _linkinv(new_eta, new_e)
            if inner:
                # 2 * wt * (y_log_y(y, mu) + y_log_y(1 - y, 1 - mu)) with wt = 1.
                dev = _ld_colsums(2 * (y_a * r_log(y_a / new_mu) + yc_a * r_log(yc_a / (1 - new_mu))))
            else:
                dev = _ld_colsums(_dev_resids(y_a, new_mu, wcol))
            # _validmu: finite and inside (0, 1); NaN and infinities fail the comparisons.
            valid = ~_false_where_all((new_mu > 0) & (new_mu < 1))
            bad |= ~np.isfinite(dev) | ~valid
            conv = np.abs(dev - devold[active]) / (np.abs(dev) + 0.1) < _EPSILON
            keep = []
            for i, c in enumerate(active):
                if bad[i]:
                    redo.append(int(c))
                    continue
                if conv[i] or iter_ == _MAXIT:
                    fit = {"coefficients": b[:, i].copy(), "rank": p, "pivot": np.arange(1, p + 1),
                           "qr": np.asfortranarray(qr[:, :, i].T), "qraux": qraux[:, i].copy(),
                           "effects": effects[:, i].copy()}
                    states[c] = {
                        "weights": weights,
                        "messages": ["non-integer #successes in a binomial glm!"] if nonint[c] else [],
                        "eta": new_eta[:, i].copy(), "mu": new_mu[:, i].copy(), "dev": float(dev[i]),
                        "coef": b[:, i].copy(), "fit": fit, "w": w[:, i].copy(),
                        "good": np.ones(nobs, dtype=bool), "iter": iter_, "conv": bool(conv[i]),
                        "boundary": False}
                else:
                    keep.append(i)
            if len(keep) == kk:  # every fit goes on: the new arrays take over
                eta, mu, e, devold = new_eta, new_mu, new_e, dev
                continue
            keep_idx = np.array(keep, dtype=np.int64)
            cols = active[keep_idx]
            eta[:, cols] = new_eta[:, keep_idx]
            mu[:, cols] = new_mu[:, keep_idx]
            e[:, cols] = new_e[:, keep_idx]
            devold[cols] = dev[keep_idx]
            active = cols
    done = [c for c in range(kk) if states[c] is not None]
    if len(done) >= 2:
        _finish_columns([states[c] for c in done], y2[:, done], wcol, r_sum(weights))
    for c in redo:
        states[c] = _glm_irls(np.ascontiguousarray(x3[:, :, c]), np.ascontiguousarray(y2[:, c]))
    return states


def _finish_columns(states: List[dict], y2: np.ndarray, wcol: np.ndarray, wsum: float) -> None:
    """_glm_finish's residuals, null deviance and log-likelihood for several fits at once."""
    mu = np.column_stack([st["mu"] for st in states])
    eta = np.column_stack([st["eta"] for st in states])
    residuals = (y2 - mu) / _mu_eta(eta)
    wtdmu = _ld_colsums(wcol * y2) / wsum
    nulldev = _ld_colsums(_dev_resids(y2, wtdmu, wcol))
    with np.errstate(divide="ignore"):
        loglik = _ld_colsums(np.where(np.round(y2) == 1, r_log(mu), r_log(1 - mu)))
    for i, st in enumerate(states):
        st["residuals"] = residuals[:, i].copy()
        st["nulldev"] = float(nulldev[i])
        st["loglik_sum"] = float(loglik[i])


def cal_platt_columns(mat: np.ndarray, codes: np.ndarray, k: int) -> List[CalPlatt]:
    """``cal_platt(mat[:, j], codes == j + 1)`` for each class j, the glm fits in lockstep."""
    n = mat.shape[0]
    xs, ys = [], []
    counts = np.bincount(codes[(codes >= 1) & (codes <= k)], minlength=k + 1)[1:]
    # cal_ovr() has checked a finite matrix and every class present; then
    # cal_platt()'s checks of each column and 0/1 target cannot fail.
    checked = bool(np.isfinite(mat).all() and counts.sum() == n and ((counts > 0) & (counts < n)).all())
    for j in range(k):
        if checked:
            x_arr = mat[:, j].copy()
            y_arr = (codes == j + 1).astype(np.int64)
        else:
            x_arr = as_numeric_vector(mat[:, j].copy(), arg="x").ravel()
            y_arr = check_binary_y((codes == j + 1).astype(np.int64), arg="y", require_both=True)
            check_same_length(x_arr, y_arr, x_arg="x", y_arg="y")
        xs.append(x_arr)
        ys.append(y_arr)
    targets = []
    y2 = np.empty((n, k))
    x3 = np.empty((n, 2, k))
    for j in range(k):
        n_pos = int((ys[j] == 1).sum())
        n_neg = int((ys[j] == 0).sum())
        target_pos = (n_pos + 1) / (n_pos + 2)
        target_neg = 1 / (n_neg + 2)
        targets.append((target_pos, target_neg))
        y2[:, j] = np.where(ys[j] == 1, target_pos, target_neg)
        x3[:, 0, j] = 1.0
        x3[:, 1, j] = xs[j]
    states = _glm_irls_columns(x3, y2)
    out = []
    for j in range(k):
        fit = _glm_finish(np.column_stack([np.ones(n), xs[j]]), np.ascontiguousarray(y2[:, j]),
                          states[j], ["(Intercept)", "x"], False)
        out.append(_platt_calibrator(fit, n, *targets[j]))
    return out

# SPDX-License-Identifier: GPL-3.0-only
# Derived from: pmcalibration 0.2.0 R/pmcalibration.R, R/cal_metrics.R, R/glm_cal.R, R/lowess_cal.R, R/loess_cal.R, R/reg_spline_X.R, R/boots.R, R/simb.R, R/utils.R (GPL-3), (c) Stephen Rhodes
# Derived from: MASS 7.3-58.2 R/mvrnorm.R (GPL-2 | GPL-3), (c) W. N. Venables and B. D. Ripley
# Derived from: R 4.2.2 src/library/stats/R/approx.R, src/library/stats/src/approx.c, src/library/stats/R/predict.lm.R, src/library/stats/R/glm.R, src/library/stats/R/median.R (GPL-2.0-or-later), (c) The R Core Team
"""pmcalibration's calibration curve and its indices (Eavg/ICI, E50, E90, Emax, ECI).

A port of the R package pmcalibration 0.2.0 (Rhodes; GPL-3, hence this
module's GPL-3.0-only) for binary outcomes: ``pmcalibration(y, p, smooth,
ci, n, transf, eval)`` fits the calibration curve of ``p`` against ``y`` on
the transformed predictions (``logit`` by default), evaluates it at the
data and at ``eval`` points, computes ``cal_metrics(p, p_c)``, and, for
``ci = "boot"``/``"sim"``, the same on ``n`` bootstrap resamples or draws
of the coefficients; the object prints as R's ``print.pmcalibration``.

* ``smooth = "none"``, ``"ns"``, ``"bs"``, ``"rcs"``: R's ``glm`` (here
  :func:`pycalib_r.rstats.glm_binomial`, R's ``glm.fit``) on
  ``x`` or on R's spline bases (:mod:`._splines`; ``rcs``: Hmisc's
  ``rcspline.eval``), R's bits.
* ``"lowess"``: R's ``lowess(x, y, iter = 0)`` then ``approx(rule = 2)``;
  ``"loess"``: R's ``loess(y ~ x)`` (interpolated k-d tree surface, NA
  outside the data's range), R's bits.
* ``"gam"`` (R's default: mgcv 1.8-41's thin-plate REML fit) is refused:
  see :func:`pmcalibration`.
* ``ci = "boot"``: ``n`` resamples drawn as pmcalibration's ``boot()``
  draws them (``sample(1:length(y), replace = TRUE)`` each), on the
  package's R stream: after :func:`pycalib_r.set_seed` the samples are R's.
* ``ci = "sim"``: ``MASS::mvrnorm(n, coef, vcov)`` (eigen-decomposition,
  then ``rnorm(p * n)`` on the R stream).
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ..rstats import quantile_r
from ..rstats import design_matrix, glm_binomial, loess_predictor
from ..rstats import linkinv as _linkinv
from ..rstats import mu_eta as _mu_eta
from ..inputs._checks import match_arg
from ..inputs._hints import python_face
from ..rbase._errors import ProbcalError
from ..rbase._format import format_r
from ..rbase._rarith import r_log, r_mean, r_mean2
from ..rbase._rmatrix import print_matrix
from ..rbase._warn import r_warning, warn
from . import _splines

__all__ = ["pmcalibration", "cal_metrics", "PmCalibration"]

SMOOTHS = ("gam", "none", "ns", "bs", "rcs", "lowess", "loess")
CIS = ("sim", "boot", "pw", "none")
METRIC_NAMES = ("Eavg", "E50", "E90", "Emax", "ECI")
EXACT_SMOOTHS = ("none", "ns", "bs", "rcs", "lowess", "loess")

_GAM_REFUSAL = (
    "smooth = 'gam' is not available in pycalib_r: pmcalibration's default fits mgcv's "
    "thin-plate regression spline by REML (mgcv 1.8-41), whose fit is not reproduced "
    "to R's numbers here. Use one of the R-exact smooths: 'rcs', 'ns', 'bs', 'lowess', "
    "'loess' or 'none'.")
_GAM_HINT = ("R's default smooth is 'gam'; pass smooth='ns' (df = 6, R's default for it) or "
             "smooth='rcs' (nk = 5) explicitly and call R's pmcalibration with the same smooth "
             "to compare.")


def _pd():
    # pandas on first use: importing pycalib_r does not import it.
    import pandas  # noqa: PLC0415

    return pandas


def _message(text: str) -> None:
    # R's message(): a UserWarning here (R's warnings are RuntimeWarnings).
    warn(text, UserWarning)


# ---------------------------------------------------------------------------
# cal_metrics
# ---------------------------------------------------------------------------

def _median(d: np.ndarray) -> float:
    # median.default: the middle order statistic, or mean() of the two.
    n = d.size
    if n == 0:
        return float("nan")
    half = (n + 1) // 2
    part = np.partition(d, [half - 1, half] if n % 2 == 0 else [half - 1])
    if n % 2 == 1:
        return float(part[half - 1])
    return r_mean2(float(part[half - 1]), float(part[half]))


def _metrics(p: np.ndarray, p_c: np.ndarray, quiet: bool = False) -> np.ndarray:
    if np.any(~np.isfinite(p_c)):
        if not quiet:
            _message("some p_c's are missing or Inf")
        return np.full(5, np.nan)
    d = np.abs(p - p_c)
    return np.array([r_mean(d), _median(d), float(quantile_r(d, [0.9])[0]), float(d.max()),
                     r_mean(d * d) * 100])


@python_face
def cal_metrics(p, p_c):
    """Calibration metrics of a calibration curve: Eavg (ICI), E50, E90, Emax and ECI.

    R equivalent: ``pmcalibration::cal_metrics(p, p_c)`` (pmcalibration 0.2.0).

    With ``d = |p - p_c|``: ``Eavg`` is ``mean(d)`` (the integrated
    calibration index, ICI, of Austin & Steyerberg 2019), ``E50`` its median,
    ``E90`` its 90th percentile (R's type-7 quantile), ``Emax`` its maximum,
    and ``ECI`` is ``mean(d^2) * 100`` (the estimated calibration index of
    Van Hoorde et al. 2015). A missing or infinite ``p_c`` gives five NaNs
    and R's message "some p_c's are missing or Inf" (a UserWarning).

    Parameters
    ----------
    p : array_like
        Predicted probabilities.
    p_c : array_like
        The calibration curve's probabilities at ``p``, of the same length.

    Returns
    -------
    pandas.Series
        The five metrics, named as in R.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> m = pc.cal_metrics([0.1, 0.4, 0.8], [0.15, 0.3, 0.85])
    >>> [round(v, 6) for v in m]
    [0.066667, 0.05, 0.09, 0.1, 0.5]
    """
    pv = np.asarray(p, dtype=np.float64).ravel()
    pcv = np.asarray(p_c, dtype=np.float64).ravel()
    if pv.size != pcv.size:
        raise ProbcalError("length(p) == length(p_c) is not TRUE")
    return _pd().Series(_metrics(pv, pcv), index=list(METRIC_NAMES), dtype=np.float64)


# ---------------------------------------------------------------------------
# The smooths (pmcalibration's glm_cal, lowess_cal, loess_cal)
# ---------------------------------------------------------------------------

def _logit(p: np.ndarray) -> np.ndarray:
    # binomial()$linkfun: log(mu / (1 - mu)) elementwise in C.
    return r_log(p / (1 - p))


def _cloglog(p: np.ndarray) -> np.ndarray:
    return r_log(-r_log(1 - p))


def _matvec(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # Reference dgemv ("N"): y = 0, then y += beta_j * x[:, j], j in order.
    out = np.zeros(x.shape[0])
    for j in range(x.shape[1]):
        out = out + beta[j] * x[:, j]
    return out


def _spline_X(x, xp, smooth, args, first: bool):
    """pmcalibration's reg_spline_X: the design columns for x and xp, and smooth_args."""
    if smooth == "none":
        return x[:, None], (None if xp is None else xp[:, None]), {"smooth": "none"}
    if smooth == "rcs":
        nk, knots = args.get("nk"), args.get("knots")
        if nk is None and knots is None:
            if first:
                _message("for smooth = 'rcs' either nk (number of knots) or knots must be "
                         "provided. Defaulting to nk = 5. See ?Hmisc::rcspline.eval")
            nk = 5
        try:
            from . import _rcspline  # noqa: PLC0415 - written on the val_prob_ci branch
        except ImportError as err:
            raise ProbcalError("smooth = 'rcs' needs Hmisc's rcspline.eval "
                               "(pycalib_r.clinical._rcspline), which this build lacks") from err
        used = (np.asarray(knots, dtype=np.float64) if knots is not None
                else np.asarray(_rcspline.rcs_knots(x, nk), dtype=np.float64))
        X = np.asarray(_rcspline.rcspline_eval(x, knots=used, inclx=True), dtype=np.float64)
        Xp = (None if xp is None else
              np.asarray(_rcspline.rcspline_eval(xp, knots=used, inclx=True), dtype=np.float64))
        return X, Xp, {"smooth": "rcs", "nk": nk, "knots": knots, "knots_used": used}
    df, knots, bk = args.get("df"), args.get("knots"), args.get("boundary_knots")
    if df is None and knots is None:
        if first:
            _message("for smooth = ns or bs either df or knots must be provided. "
                     "Defaulting to df = 6")
        df = 6
    fn = _splines.ns if smooth == "ns" else _splines.bs
    basis = fn(x, df=df, knots=knots, boundary_knots=bk)
    Xp = None if xp is None else _splines.predict_basis(smooth, basis, xp)
    return basis.matrix, Xp, {"smooth": smooth, "df": df, "knots": knots, "boundary_knots": bk,
                              "knots_used": basis.knots,
                              "boundary_knots_used": basis.boundary_knots}


def _glm_cal(y, p, x, xp, smooth, args, pw=False, first=False, keep=False):
    X, Xp, smooth_args = _spline_X(x, xp, smooth, args, first)
    names = ["(Intercept)"] + [f"V{j + 1}" for j in range(X.shape[1])]
    design = design_matrix([X[:, j] for j in range(X.shape[1])])
    fit = glm_binomial(design, y, names, warn=True)
    coef = np.array(list(fit.coefficients.values()))
    p_c = fit.fitted_values
    p_c_plot = se = None
    rank, pivot = fit.rank, np.asarray(fit.qr["pivot"]) - 1
    if Xp is not None:
        dp = design_matrix([Xp[:, j] for j in range(Xp.shape[1])])
        piv = pivot[:rank]
        if rank < coef.size:
            r_warning("prediction from rank-deficient fit; attr(*, \"non-estim\") has doubtful cases")
        eta = _matvec(dp[:, piv], coef[piv])
        p_c_plot = _linkinv(eta)
        if pw:
            # predict.lm: XRinv <- X[, piv] %*% qr.solve(qr.R(qr)[p1, p1]) (qr.solve: LINPACK
            # qr of R, tol 1e-7, then qr.coef on each column of the identity), ip <-
            # XRinv^2 %*% rep(1, p); predict.glm: se * abs(mu.eta(eta)).
            from ..rstats import cdqrls as _cdqrls  # noqa: PLC0415

            rmat = np.triu(fit.qr["qr"][:rank, :rank])
            rinv = np.empty((rank, rank))
            for j in range(rank):
                e = np.zeros(rank)
                e[j] = 1.0
                rinv[:, j] = _cdqrls(rmat, e, 1e-7)["coefficients"]
            xp = dp[:, piv]
            xrinv = np.zeros((xp.shape[0], rank))
            for l in range(rank):  # reference dgemm: sums over l in order
                xrinv = xrinv + xp[:, l][:, None] * rinv[l][None, :]
            ip = _matvec(xrinv * xrinv, np.ones(rank))
            se = np.sqrt(ip) * np.abs(_mu_eta(eta))
    out = {"p_c": p_c, "p_c_plot": p_c_plot, "p_c_plot_se": se, "smooth_args": smooth_args}
    if keep:
        out.update(model=fit, coef=coef, design=design,
                   design_plot=None if Xp is None else design_matrix([Xp[:, j] for j in range(Xp.shape[1])]))
    return out


def _approx_rule2(fx: np.ndarray, fy: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``approx(fx, fy, xout = v, ties = function(xx) xx[1], rule = 2)$y`` for sorted ``fx``."""
    keep = np.ones(fx.size, dtype=bool)
    keep[1:] = fx[1:] != fx[:-1]  # the first y of each tied x (fx is sorted, stably)
    ux, uy = fx[keep], fy[keep]
    if ux.size == 1:
        return np.full(v.shape, uy[0])
    i = np.clip(np.searchsorted(ux, v, side="right") - 1, 0, ux.size - 2)
    j = i + 1
    out = uy[i] + (uy[j] - uy[i]) * ((v - ux[i]) / (ux[j] - ux[i]))
    out = np.where(v == ux[j], uy[j], out)
    out = np.where(v == ux[i], uy[i], out)
    out = np.where(v < ux[0], uy[0], out)
    return np.where(v > ux[-1], uy[-1], out)


def _lowess_cal(y, p, x, xp):
    from ..rstats import lowess  # noqa: PLC0415

    fit = lowess(x, y, iter=0)
    p_c = _approx_rule2(fit.x, fit.y, x)
    p_c_plot = None if xp is None else _approx_rule2(fit.x, fit.y, xp)
    return {"p_c": p_c, "p_c_plot": p_c_plot, "p_c_plot_se": None,
            "smooth_args": {"smooth": "lowess"}}




def _loess_cal(y, p, x, xp, pw=False):
    if pw:
        raise ProbcalError("ci = 'pw' with smooth = 'loess' (predict.loess's standard errors) "
                           "is not available in pycalib_r; use ci = 'boot' or smooth = 'ns'")
    predict = loess_predictor(np.ascontiguousarray(x, dtype=np.float64),
                             np.ascontiguousarray(y, dtype=np.float64))
    return {"p_c": predict(x), "p_c_plot": None if xp is None else predict(xp),
            "p_c_plot_se": None, "smooth_args": {"smooth": "loess"}}


def _fit(smooth, y, p, x, xp, args, pw=False, first=False, keep=False):
    if smooth == "lowess":
        return _lowess_cal(y, p, x, xp)
    if smooth == "loess":
        return _loess_cal(y, p, x, xp, pw)
    return _glm_cal(y, p, x, xp, smooth, args, pw, first, keep)


# ---------------------------------------------------------------------------
# Intervals: pmcalibration's run_boots/boot and simb, MASS::mvrnorm
# ---------------------------------------------------------------------------

def _boot(cal, y, p, x, xp, smooth, n_boot, stream):
    N = y.size
    metrics = np.empty((n_boot, 5))
    plots = None if xp is None else np.empty((n_boot, xp.size))
    args = {k: v for k, v in cal["smooth_args"].items() if k in ("nk", "knots", "df", "boundary_knots")}
    for b in range(n_boot):
        i = np.asarray(stream.sample_int(N, N, replace=True), dtype=np.int64) - 1
        res = _fit(smooth, y[i], p[i], x[i], xp, args)
        metrics[b] = _metrics(p[i], res["p_c"])
        if plots is not None:
            plots[b] = res["p_c_plot"]
    return metrics, plots


_LAPACK = []  # [ctypes library or None], loaded once


def _system_lapack():
    """The system's LAPACK (``liblapack.so.3``, the one Debian's R links), or None.

    R's ``eigen(symmetric = TRUE)`` is LAPACK's dsyevr, and the sign of each
    eigenvector it returns depends on the LAPACK build: scipy's bundled
    OpenBLAS LAPACK can return the opposite sign of R's reference LAPACK,
    which changes every draw of ``mvrnorm``. Calling the same library as R
    reproduces R's vectors; without it scipy's are used (see the docs).
    """
    if not _LAPACK:
        import ctypes  # noqa: PLC0415
        import ctypes.util  # noqa: PLC0415

        lib = None
        for name in ("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", ctypes.util.find_library("lapack")):
            if not name:
                continue
            try:
                cand = ctypes.CDLL(name)
                cand.dsyevr_, cand.dpotri_  # noqa: B018 - both symbols needed
            except (OSError, AttributeError):
                continue
            lib = cand
            break
        _LAPACK.append(lib)
    return _LAPACK[0]


def _ptr(a: np.ndarray):
    import ctypes  # noqa: PLC0415

    return a.ctypes.data_as(ctypes.c_void_p)


def _ref_dsyevr(sigma: np.ndarray, lib):
    import ctypes  # noqa: PLC0415

    n = sigma.shape[0]
    a = np.array(sigma, dtype=np.float64, order="F", copy=True)
    ci, cd = ctypes.c_int, ctypes.c_double
    nn, vl, vu, il, iu, abstol, m, info = ci(n), cd(0), cd(0), ci(0), ci(0), cd(0.0), ci(0), ci(0)
    w = np.zeros(n)
    z = np.zeros((n, n), order="F")
    isuppz = np.zeros(2 * max(n, 1), dtype=np.int32)

    def call(work, lwork, iwork, liwork):
        lib.dsyevr_(b"V", b"A", b"L", ctypes.byref(nn), _ptr(a), ctypes.byref(nn),
                    ctypes.byref(vl), ctypes.byref(vu), ctypes.byref(il), ctypes.byref(iu),
                    ctypes.byref(abstol), ctypes.byref(m), _ptr(w), _ptr(z), ctypes.byref(nn),
                    _ptr(isuppz), _ptr(work), ctypes.byref(lwork), _ptr(iwork),
                    ctypes.byref(liwork), ctypes.byref(info), ctypes.c_size_t(1),
                    ctypes.c_size_t(1), ctypes.c_size_t(1))

    work, iwork = np.zeros(1), np.zeros(1, dtype=np.int32)
    call(work, ci(-1), iwork, ci(-1))
    lw, liw = int(work[0]), int(iwork[0])
    call(np.zeros(lw), ci(lw), np.zeros(liw, dtype=np.int32), ci(liw))
    if info.value != 0:
        raise ProbcalError(f"error code {info.value} from Lapack routine 'dsyevr'")
    return w, z


def _eigen_symmetric(sigma: np.ndarray):
    """R's ``eigen(Sigma, symmetric = TRUE)``: values decreasing, vectors as columns."""
    lib = _system_lapack()
    if lib is not None:
        ev, vec = _ref_dsyevr(sigma, lib)
    else:
        import scipy.linalg as sla  # noqa: PLC0415

        ev, vec = sla.eigh(sigma, lower=True, driver="evr")
    return ev[::-1], vec[:, ::-1]


def _vcov(fit) -> np.ndarray:
    """``vcov(glm)``: summary.glm's ``chol2inv(R)`` (LAPACK dpotri), dispersion 1."""
    import ctypes  # noqa: PLC0415

    rank = fit.rank
    p = len(fit.coefficients)
    if rank < p:
        raise ProbcalError("ci = 'sim' needs a full-rank fit; this calibration fit is "
                           "rank-deficient (aliased spline columns)")
    rmat = np.array(np.triu(fit.qr["qr"][:rank, :rank]), order="F")
    lib = _system_lapack()
    if lib is not None:
        info = ctypes.c_int(0)
        lib.dpotri_(b"U", ctypes.byref(ctypes.c_int(rank)), _ptr(rmat),
                    ctypes.byref(ctypes.c_int(rank)), ctypes.byref(info), ctypes.c_size_t(1))
        inv = rmat
    else:
        import scipy.linalg.lapack as lapack  # noqa: PLC0415

        inv, _ = lapack.dpotri(rmat, lower=0)
    return np.triu(inv) + np.triu(inv, 1).T


def mvrnorm(n: int, mu: np.ndarray, sigma: np.ndarray, stream, tol: float = 1e-6) -> np.ndarray:
    """``MASS::mvrnorm(n, mu, Sigma)``: ``n`` by ``p`` draws.

    R equivalent: ``MASS::mvrnorm(n, mu, Sigma, tol = 1e-6)`` (MASS 7.3-58.2):
    ``eigen(Sigma, symmetric = TRUE)`` (LAPACK's dsyevr; the system's
    LAPACK when loadable, as R uses it), ``rnorm(p * n)`` as an ``n x p``
    matrix, and ``mu + V diag(sqrt(pmax(ev, 0))) t(X)``.
    """
    p = mu.size
    ev, vec = _eigen_symmetric(sigma)
    if not np.all(ev >= -tol * abs(ev[0])):
        raise ProbcalError("'Sigma' is not positive definite")
    z = np.asarray(stream.rnorm(p * n), dtype=np.float64).reshape(p, n)  # t(X), X n x p by column
    vd = vec * np.sqrt(np.maximum(ev, 0))[None, :]
    m = np.zeros((p, n))
    for l in range(p):  # reference dgemm: each element's sum over l in order
        m = m + vd[:, l][:, None] * z[l][None, :]
    return (mu[:, None] + m).T


def _sim(cal, p, n_sim, stream):
    fit = cal["model"]
    B = mvrnorm(n_sim, cal["coef"], _vcov(fit), stream)
    design, dp = cal["design"], cal["design_plot"]
    metrics = np.empty((n_sim, 5))
    plots = None if dp is None else np.empty((n_sim, dp.shape[0]))
    for i in range(n_sim):
        p_c = _linkinv(_matvec(design, B[i]))
        metrics[i] = _metrics(p, p_c)
        if plots is not None:
            plots[i] = _linkinv(_matvec(dp, B[i]))
    return metrics, plots


def _col_quantiles(samples: np.ndarray, probs) -> np.ndarray:
    # apply(samples, 2, quantile, probs = probs, na.rm = TRUE)
    out = np.empty((samples.shape[1], len(probs)))
    for j in range(samples.shape[1]):
        col = samples[:, j]
        col = col[~np.isnan(col)]
        out[j] = quantile_r(col, probs) if col.size else np.nan
    return out


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------

_SMOOTHTEXT = {"none": "no smooth",
               "rcs": "a restricted cubic spline (see ?rms::rcs)",
               "ns": "a natural cubic spline (see ?splines::ns)",
               "bs": "a B-spline (see ?splines::bs)",
               "gam": "a generalized additive model (see ?mgcv::s)"}
_CITEXT = {"boot": "bootstrap resampling", "sim": "simulation based inference"}


class PmCalibration:
    """A calibration curve from :func:`pmcalibration`: R's ``pmcalibration`` object.

    R equivalent: the list R's ``pmcalibration()`` returns. Attributes
    (R's names, dots as underscores): ``data`` (DataFrame ``y``, ``p``),
    ``metrics`` (Series Eavg, E50, E90, Emax, ECI), ``metrics_samples``
    (``n x 5`` array or None), ``p_c`` (DataFrame ``p``, ``p_c``),
    ``plot_data`` (R's ``$plot``: dict ``p``, ``p_c_plot``, ``p_c_plot_se``,
    ``plot_samples``), ``smooth``, ``ci``, ``n``, ``smooth_args``,
    ``transf``, ``time`` (None) and ``outcome`` (``"binary"``).
    ``str(obj)`` is R's ``print(obj)`` without its last newline.
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def summary(self, conf_level: float = 0.95) -> dict:
        """R's ``summary(x, conf_level)``: ``metrics`` and ``plot`` tables (DataFrames).

        R equivalent: ``summary.pmcalibration(object, conf_level = 0.95)``.
        """
        probs = [(1 - conf_level) / 2, 1 - (1 - conf_level) / 2]
        m_tab = _pd().DataFrame({"Estimate": self.metrics.to_numpy()}, index=list(METRIC_NAMES))
        if self.metrics_samples is not None:
            q = _col_quantiles(self.metrics_samples, probs)
            m_tab["lower"], m_tab["upper"] = q[:, 0], q[:, 1]
        pl = self.plot_data
        plot_tab = _pd().DataFrame({"p": pl["p"], "p_c": pl["p_c_plot"]}) if pl["p"] is not None \
            else _pd().DataFrame({"p": [], "p_c": []})
        if pl["plot_samples"] is not None:
            q = _col_quantiles(pl["plot_samples"], probs)
            plot_tab["lower"], plot_tab["upper"] = q[:, 0], q[:, 1]
        if self.ci == "pw" and pl["p_c_plot_se"] is not None:
            from ..rstats import qnorm  # noqa: PLC0415 - R's qnorm

            z = qnorm((1 - conf_level) / 2, False, False)  # qnorm(., lower.tail = FALSE)
            plot_tab["lower"] = pl["p_c_plot"] - z * pl["p_c_plot_se"]
            plot_tab["upper"] = pl["p_c_plot"] + z * pl["p_c_plot_se"]
        return {"metrics": m_tab, "plot": plot_tab, "smooth": self.smooth, "ci": self.ci,
                "conf_level": conf_level, "n": self.n}

    def get_curve(self, conf_level: float = 0.95):
        """R's ``get_curve(x, conf_level)``: the plotted curve and its limits."""
        return self.summary(conf_level)["plot"]

    def format(self, digits: int = 2, conf_level: float = 0.95) -> str:
        """R's ``print(x, digits, conf_level)`` output, byte for byte (ends with a newline).

        R equivalent: ``print.pmcalibration(x, digits = 2, conf_level = 0.95)``.
        """
        s = self.summary(conf_level)
        if callable(self.transf):
            transp = "transformed (user defined)"
        else:
            transp = {"none": "untransformed", "logit": "logit transformed",
                      "cloglog": "complementary log-log transformed"}[self.transf]
        words = ["Calibration metrics based on a calibration curve estimated for a",
                 "binary outcome", "via"]
        if self.smooth in _SMOOTHTEXT:  # R's cat() drops the NULL of lowess/loess
            words.append(_SMOOTHTEXT[self.smooth])
        words += ["using", transp, "predicted probabilities.\n\n"]
        out = " ".join(words)
        m = s["metrics"]
        out += print_matrix(m.to_numpy().tolist(), list(m.index), list(m.columns),
                            digits=digits) + "\n"
        if self.ci in _CITEXT:
            pct = f"{conf_level * 100:.0f}%"
            out += ("\n" + f"{pct} confidence intervals calculated via {_CITEXT[self.ci]} with "
                    f"{format_r(float(self.n))} replicates.\n")
        return out

    def __str__(self) -> str:
        text = self.format()
        return text[:-1] if text.endswith("\n") else text

    __repr__ = __str__

    def plot(self, ax=None, conf_level: float = 0.95, riskdist: bool = True, linecol="black",
             fillcol="#BEBEBE", ideallty="--", idealcol="red", xlim=(0, 1), ylim=(0, 1),
             xlab="Predicted Probability", ylab="Estimated Probability"):
        """R's ``plot(x)``: the curve, its band, the ideal line and the risk distribution.

        R equivalent: ``plot.pmcalibration(x, conf_level, riskdist, linecol,
        fillcol, ideallty, idealcol, xlim, ylim, xlab, ylab)``, drawn with
        matplotlib on ``ax`` (a new figure when None). Returns the Axes.
        """
        import matplotlib.pyplot as plt  # noqa: PLC0415

        if ax is None:
            _, ax = plt.subplots(figsize=(5, 5))
        curve = self.get_curve(conf_level)
        xlim, ylim = sorted(xlim), sorted(ylim)
        yrange = ylim[1] - ylim[0]
        ylim2 = (ylim[0] - 0.3 * yrange, ylim[1]) if riskdist else tuple(ylim)
        ax.plot(xlim, xlim, linestyle=ideallty, color=idealcol, linewidth=1)
        if "lower" in curve.columns:
            ax.fill_between(curve["p"], curve["lower"], curve["upper"], color=fillcol, alpha=0.5,
                            linewidth=0)
        ax.plot(curve["p"], curve["p_c"], color=linecol)
        if riskdist:
            p = self.data["p"].to_numpy()
            y = self.data["y"].to_numpy()
            keep = (p >= xlim[0]) & (p <= xlim[1])
            p, y = p[keep], y[keep]
            ypos, maxh = ylim[0] - 0.15 * yrange, 0.15 * yrange
            bins = np.linspace(p.min(), p.max(), 101)
            n1, _ = np.histogram(p[y == 1], bins)
            n0, _ = np.histogram(p[y == 0], bins)
            top = max(int(n0.max(initial=0)), int(n1.max(initial=0)), 1)
            mids = bins[:-1] + np.diff(bins) / 2
            ax.vlines(mids[n1 > 0], ypos, ypos + maxh * n1[n1 > 0] / top, color="black", lw=0.8)
            ax.vlines(mids[n0 > 0], ypos, ypos - maxh * n0[n0 > 0] / top, color="black", lw=0.8)
            ax.hlines(ypos, p.min(), p.max(), color="black", lw=0.8)
            ax.text(p.max() * 1.02, ypos + maxh / 2, "1", va="center")
            ax.text(p.max() * 1.02, ypos - maxh / 2, "0", va="center")
        ax.set_xlim(xlim)
        ax.set_ylim(ylim2)
        ax.set_yticks([t for t in np.linspace(ylim[0], ylim[1], 6)])
        ax.set_xlabel(xlab)
        ax.set_ylabel(ylab)
        return ax


# ---------------------------------------------------------------------------
# pmcalibration()
# ---------------------------------------------------------------------------

def _binary_y(y) -> np.ndarray:
    yv = np.asarray(y)
    if yv.dtype == bool:
        return yv.astype(np.float64)
    try:
        yv = yv.astype(np.float64)
    except (TypeError, ValueError) as err:
        raise ProbcalError("y must be a numeric (0/1) or logical binary outcome") from err
    return yv


@python_face
def pmcalibration(y, p, smooth: str = "gam", time=None, ci: str = "sim", n: int = 1000,
                  transf=None, eval=100, plot: bool = False, *, df: Optional[int] = None,  # noqa: A002
                  knots=None, boundary_knots=None, nk: Optional[int] = None, rng=None):
    """Calibration curve of predicted probabilities and its metrics, as pmcalibration computes them.

    R equivalent: ``pmcalibration::pmcalibration(y, p, smooth, time, ci, n,
    transf, eval, plot, ...)`` (pmcalibration 0.2.0) for a binary outcome,
    with the smooth's arguments (R's ``...``) as keywords: ``df``,
    ``knots``, ``boundary_knots`` (R's ``Boundary.knots``) for ``ns``/``bs``,
    ``nk`` and ``knots`` for ``rcs``.

    The curve is a logistic fit of ``y`` on ``x = transf(p)`` (``logit`` by
    default): R's ``glm`` on ``x`` (``"none"``) or on R's spline basis of
    ``x`` (``"ns"``, ``"bs"``, 6 degrees of freedom unless ``df`` or
    ``knots``; ``"rcs"``, Hmisc's ``rcspline.eval`` with ``nk = 5``), or
    R's ``lowess(x, y, iter = 0)`` or ``loess(y ~ x)``. Its values ``p_c``
    at the data give :func:`cal_metrics`; at ``eval`` points (equally spaced
    from ``min(p)`` to ``max(p)``, or the probabilities given) they give the
    plotted curve.

    **smooth = "gam" is refused.** R's default fits mgcv 1.8-41's thin-plate
    regression spline by REML, which pycalib_r does not reproduce to R's
    numbers; the default here is still ``"gam"`` (so nothing silently
    differs from R) and raises a :class:`~pycalib_r.ProbcalError` naming
    the R-exact smooths. Pass ``smooth=`` explicitly.

    Parameters
    ----------
    y : array_like
        The binary outcome (0/1 or logical). Time-to-event outcomes
        (``survival::Surv``) are not ported (``time`` must be None).
    p : array_like
        Predicted probabilities; missing values are removed with R's message,
        values ``<= 0`` or ``>= 1`` with R's warning.
    smooth : {"gam", "none", "ns", "bs", "rcs", "lowess", "loess"}
        The smooth (R's ``match.arg``); ``"gam"`` raises (see above).
    time : None
        R's follow-up time of a survival outcome; not ported.
    ci : {"sim", "boot", "pw", "none"}
        ``"boot"``: ``n`` bootstrap resamples (R's stream: after
        :func:`pycalib_r.set_seed`, R's samples); ``"sim"``: ``n`` draws of
        the coefficients by ``MASS::mvrnorm`` (glm smooths only); ``"pw"``:
        pointwise limits of the plotted curve from the fit's standard errors.
        Percentile intervals of the metrics come from the samples.
    n : int
        Number of resamples or draws (R's default 1000).
    transf : {"logit", "cloglog", "none"} or callable, optional
        Transformation of ``p`` before fitting; None is ``"logit"``.
    eval : int or array_like
        Number of plotting points (0 or None: none), or the probabilities.
    plot : bool
        Python default False (R's TRUE draws at once): True calls
        :meth:`PmCalibration.plot`.
    df, knots, boundary_knots, nk
        The smooth's arguments (R's ``...``).
    rng : None, int, RRandom or numpy.random.Generator, optional
        Python-only: the stream to draw from instead of the global one (what
        ``set_seed`` seeds); an int is ``RRandom(rng)``, R's stream after
        ``set.seed(rng)``; a Generator gives numpy's draws, not R's.

    Returns
    -------
    PmCalibration
        Prints as R's ``print.pmcalibration``.

    References
    ----------
    Austin, P. C. & Steyerberg, E. W. (2019). The Integrated Calibration Index
    (ICI) and related metrics for quantifying the calibration of logistic
    regression models. *Statistics in Medicine* 38, 4051-4065.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(300, 0.05, 0.95)
    >>> y = pc.rbinom(300, 1, p)
    >>> cal = pc.pmcalibration(y, p, smooth="none", ci="none")
    >>> print(cal)  # doctest: +NORMALIZE_WHITESPACE
    Calibration metrics based on a calibration curve estimated for a binary outcome via no smooth using logit transformed predicted probabilities.
    <BLANKLINE>
         Estimate
    Eavg    0.020
    E50     0.019
    E90     0.036
    Emax    0.036
    ECI     0.052

    R: ``set.seed(1); p <- runif(300, 0.05, 0.95); y <- rbinom(300, 1, p);
    pmcalibration(y, p, smooth = "none", ci = "none", plot = FALSE)`` prints
    the same lines.
    """
    if time is not None:
        raise ProbcalError("time-to-event outcomes (y a Surv object, time given) are not "
                           "ported to pycalib_r; pmcalibration() here takes a binary y")
    yv = _binary_y(y)
    pv = np.asarray(p, dtype=np.float64).ravel()
    yv = yv.ravel()
    if yv.size != pv.size:
        raise ProbcalError("y and p are not the same length")
    smooth = match_arg(smooth, SMOOTHS)
    ci = match_arg(ci, CIS)
    if smooth == "gam":
        err = ProbcalError(_GAM_REFUSAL)
        err.add_note(_GAM_HINT)
        raise err
    if isinstance(n, bool) or not float(n) == int(n) or int(n) < 1:
        raise ProbcalError("n must be a positive whole number of resamples")
    n = int(n)
    if ci == "sim" and smooth in ("lowess", "loess"):
        # simb.lowess_cal / simb.loess_cal, raised before any fit here (R fits first)
        raise ProbcalError("ci = 'sim' is not available for lowess or loess calibration "
                           "curves (try ci = 'boot')")
    na = np.isnan(pv) | np.isnan(yv)
    if na.any():
        yv, pv = yv[~na], pv[~na]
        _message(f"{int(na.sum())} records with missing values were removed")
    bad = (pv <= 0) | (pv >= 1)
    if bad.any():
        yv, pv = yv[~bad], pv[~bad]
        r_warning(f"{int(bad.sum())} records with p <= 0 or p >= 1 were removed. "
                  "This suggests a potential problem with the model fit. "
                  "Excluding these observations (or replacing them with values close to 0 or 1) "
                  "will affect results so interpret with caution!")
    if np.any((yv != 0) & (yv != 1)):
        raise ProbcalError("y values must be 0 <= y <= 1")
    if pv.size == 0:
        raise ProbcalError("no records left after removing missing values and p outside (0, 1)")
    evalv = None if eval is None else np.asarray(eval, dtype=np.float64).ravel()
    if evalv is not None and evalv.size > 1:
        if np.any(evalv < 0) or np.any(evalv > 1):
            raise ProbcalError("When providing p for plotting directly via eval, all elements "
                               "should be between 0 and 1")
        pplot = evalv
    elif evalv is not None and evalv.size == 1 and evalv[0] > 0:
        lo, hi, k = float(pv.min()), float(pv.max()), int(evalv[0])
        if k > 2 and lo != hi:  # seq.default(from, to, length.out)
            pplot = np.concatenate([[lo], lo + np.arange(1, k - 1) * ((hi - lo) / (k - 1)), [hi]])
        else:
            pplot = np.array([lo, hi])[:k] if lo != hi else np.full(k, lo)
    else:
        pplot = None
    pw = ci == "pw"
    if pplot is None and pw:
        r_warning("ci = 'pw' but eval = 0 or is.null. Will not calculate pointwise standard errors")
        pw = False
    if transf is None:
        transf = "logit"
    if callable(transf):
        tfun = transf
    else:
        if transf not in ("none", "logit", "cloglog"):
            raise ProbcalError("invalid transf. Should be 'none', 'logit', 'cloglog' or a function")
        tfun = {"none": lambda v: v, "logit": _logit, "cloglog": _cloglog}[transf]
    xp = None if pplot is None else np.asarray(tfun(pplot), dtype=np.float64)
    x = np.asarray(tfun(pv), dtype=np.float64)
    args = {"df": df, "knots": knots, "boundary_knots": boundary_knots, "nk": nk}
    if smooth == "lowess" and pw:
        r_warning("ci = 'pw' is ignored for smooth = 'lowess'")
    cal = _fit(smooth, yv, pv, x, xp, args, pw=pw, first=True, keep=True)
    metrics = _metrics(pv, cal["p_c"])
    metrics_samples = plot_samples = None
    if ci in ("boot", "sim"):
        from .._rng import resolve_rng  # noqa: PLC0415
        from .._rng.stream._locking import holding  # noqa: PLC0415

        stream = resolve_rng(rng)
        # The draws of one call are one serial step of the stream: a thread
        # drawing at the same time cannot interleave with them.
        with holding(stream):
            if ci == "boot":
                metrics_samples, plot_samples = _boot(cal, yv, pv, x, xp, smooth, n, stream)
            else:
                metrics_samples, plot_samples = _sim(cal, pv, n, stream)
    if metrics_samples is not None:
        if np.isnan(metrics_samples).any():
            r_warning("Metrics samples contain NAs. This is probably due to a loess not "
                      "extrapolating for to-be-plotted values...")
        if plot_samples is not None and np.isnan(plot_samples).any():
            r_warning("Plot samples contain NAs. This is probably due to a loess not "
                      "extrapolating for to-be-plotted values...")
    out = PmCalibration(
        data=_pd().DataFrame({"y": yv, "p": pv}),
        metrics=_pd().Series(metrics, index=list(METRIC_NAMES), dtype=np.float64),
        metrics_samples=metrics_samples,
        p_c=_pd().DataFrame({"p": pv, "p_c": cal["p_c"]}),
        plot_data={"p": pplot, "p_c_plot": cal["p_c_plot"], "p_c_plot_se": cal["p_c_plot_se"],
                   "plot_samples": plot_samples},
        smooth=smooth, ci=ci, n=n, smooth_args=cal["smooth_args"], transf=transf, time=None,
        outcome="binary")
    if plot:
        out.plot()
    return out

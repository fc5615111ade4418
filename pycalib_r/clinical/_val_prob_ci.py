# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: CalibrationCurves 2.0.0 R/val.prob.ci.2.R, R/rcspline.plot.noprint.R, R/printFunction.R (GPL-3.0-or-later), (c) Bavo De Cock, Daan Nieboer, Ben Van Calster, Ewout Steyerberg, Yvonne Vergouwe
# Derived from: rms 6.5-0 R/lrm.fit.r, src/lrmfit.f (GPL-2.0-or-later), (c) Frank E Harrell Jr
"""CalibrationCurves' ``val.prob.ci.2``: the flexible calibration curve with its limits and indices.

:func:`val_prob_ci` follows ``val.prob.ci.2`` of CalibrationCurves 2.0.0
(commit 43ebdf6 of its repository) step by step:

* the predictions are sorted; ``f <- lrm.fit(logit, y)`` (rms 6.5-0, the
  port of :mod:`pycalib_r.diagnostics._validation`) gives ``Dxy``, ``C
  (ROC)``, ``R2``, ``D:Chi-sq``, its p-value and the calibration slope with
  its Wald interval (``confint`` on ``solvet(information)``);
  ``lrm.fit(offset = logit, y = y)`` the calibration intercept
  (calibration-in-the-large) and its interval;
* ``Emax`` is the largest ``|p - plogis(a + b logit(p))|`` on
  ``seq(0, 1, by = 0.0005)``; ``Brier scaled = 1 - Brier / Bmax``;
* ``smooth = "loess"``: ``loess(y ~ p, degree = 2)`` (R's fitted values, bit
  for bit), pointwise limits ``fit +/- qnorm(1 - a/2) se.fit`` from
  ``predict(..., se = TRUE)``, clipped to [0, 1]; ``Eavg`` and ``ECI`` (100
  times the mean squared distance, Van Hoorde et al. 2015) from the curve;
* ``smooth = "rcs"``: ``rcspline.plot``'s logistic fit on Hmisc's restricted
  cubic spline basis, on 600 points of ``range(p)``, limits at +/- 1.96
  standard errors (fixed, as in R), knots reduced while the fit fails;
* the c-statistic's interval: :func:`._auc_ci.ci_auc` (``method.ci``).

The standard errors of the loess curve are those of ``predict.loess`` (the
interpolated operator ``L``, ``s`` from ``one.delta``'s approximation); they
are computed through the vertex operators' Gram matrix, not the ``n x n``
matrix R forms, so they agree with R's to rounding (about 1e-13 relative)
and work at any ``n``. The fitted values are R's bit for bit (the vertex
fits of :func:`~pycalib_r.rstats.loess_fitted`, in its order; the standard
errors are :func:`pycalib_r.rstats.loess_with_se`);
the trace of ``L`` for R's statistics comes from the same operators, in
O(n) per vertex instead of that function's point-by-point hat rows.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ..inputs._checks import ProbcalError, add_note, check_conf_level
from ..rbase._format import format_r
from ..rbase._rarith import r_exp, r_log, r_mean, r_sum, seq_sum
from ..rbase._warn import r_warning, warn
from ..diagnostics._validation import validation_inputs as _inputs
from ..diagnostics._validation import l01 as _l01
from ..diagnostics._validation import lprob as _lprob
from ..diagnostics._validation import lrm_fit as _lrm_fit
from ..diagnostics._validation import wald_factors as _wald_factors
from ..diagnostics._validation import print_named_vector
from ..diagnostics._hoslem import one_minus_pchisq
from ..rstats import cdqrls as _cdqrls
from ..rstats import loess_with_se as _loess_with_se
from ..rstats import seq_len_out as _seq_len_out
from ._auc_ci import ci_auc
from ._rcspline import rcspline_eval
from ..inputs._hints import python_face

__all__ = ["val_prob_ci", "CalibrationCurve", "STATS_NAMES"]

STATS_NAMES = ("Dxy", "C (ROC)", "R2", "D", "D:Chi-sq", "D:p", "U", "U:Chi-sq", "U:p", "Q",
               "Brier", "Intercept", "Slope", "Emax", "Brier scaled")
_CI_NAMES = ("Point estimate", "Lower confidence limit", "Upper confidence limit")
_SMOOTHS = ("loess", "rcs", "none")
_PERFECT = ("There are predictions with value 0 or 1! These are replaced by values 1e-8 and "
            "1 - 1e-8, respectively. Take this into account when interpreting the performance "
            "measures, as these are not calculated with the original values.\n\nPlease check "
            "your model, as this may be an indication of overfitting. Predictions of 0 or 1 imply "
            "that these predicted values are deterministic.\n\nWe observe this in the following "
            "cases:\n - logistic regression: with quasi-complete separation, the coefficients "
            "tend to infinity;\n - tree-based methods: one of the leaf nodes contains only "
            "observations with either 0 or 1;\n - neural networks: the weights tend to infinity "
            "and this is known as weight/gradient explosion.")


# ---------------------------------------------------------------------------
# lrm.fit with an offset and with several columns (rms 6.5-0, lrmfit.f).
# ---------------------------------------------------------------------------

def _solvet(info: np.ndarray, tol: float = 1e-7) -> np.ndarray:
    """rms's ``solvet(info, tol)``: the inverse by ``qr`` (LINPACK dqrdc2) and ``qr.coef``."""
    k = info.shape[0]
    out = np.empty((k, k))
    for j in range(k):
        e = np.zeros(k)
        e[j] = 1.0
        sol = _cdqrls(np.array(info, order="F"), e, tol)
        if sol["rank"] < k:
            raise ProbcalError("apparently singular matrix")
        out[:, j] = sol["coefficients"]
    return out


def _llogit_general(beta: np.ndarray, x: Optional[np.ndarray], event: np.ndarray,
                    offset: Optional[np.ndarray]):
    lp = np.full(event.size, beta[0])
    if x is not None:
        for j in range(x.shape[1]):
            lp = lp + beta[j + 1] * x[:, j]
    if offset is not None:
        lp = lp + offset
    cpiy = _lprob(lp)
    with np.errstate(divide="ignore"):
        terms = np.where(event, r_log(cpiy), r_log(1.0 - cpiy))
    loglik = -2.0 * seq_sum(terms)
    resid = np.where(event, 1.0, 0.0) - cpiy
    viy = cpiy * (1.0 - cpiy)
    cols = [np.ones(event.size)] + ([x[:, j] for j in range(x.shape[1])] if x is not None else [])
    k = len(cols)
    u = np.array([seq_sum(resid * c) for c in cols])
    v = np.empty((k, k))
    for i in range(k):
        vi = viy * cols[i]
        for j in range(i + 1):
            v[i, j] = v[j, i] = seq_sum(vi * cols[j])
    return loglik, u, v


class _Fit:
    __slots__ = ("coef", "var", "fail", "loglik", "singular")

    def __init__(self, coef, var, fail, loglik, singular=False):
        self.coef, self.var, self.fail, self.loglik, self.singular = coef, var, fail, loglik, singular


def _lrm_general(x: Optional[np.ndarray], event: np.ndarray, offset: Optional[np.ndarray] = None,
                 maxit: int = 12, eps: float = 0.025, tol: float = 1e-7) -> _Fit:
    """``lrm.fit(x, y, offset)`` (unit weights). ``var`` is ``solvet`` of the
    information the Fortran returns: at the final iterate once converged, else
    its QR-decomposed workspace of the last full step (a step halving leaves
    it as it was), as R has it (``fail``, R's divergence flag); a rank
    deficit is R's singular fit (``singular``, no coefficients)."""
    n = event.size
    k = 1 + (0 if x is None else x.shape[1])
    n1 = float(np.count_nonzero(event))
    if n1 in (0, n):
        return _Fit(None, None, True, math.nan, singular=True)
    sumwty = np.array([n - n1, n1])
    pp = n1 / r_sum(sumwty)
    beta = np.zeros(k)
    beta[0] = float(r_log(np.array([pp / (1 - pp)]))[0])
    if offset is not None:
        beta[0] = beta[0] - r_mean(offset)
    oldl = 1e30
    deltab = np.zeros(k)
    curstp = 1.0
    converged = False
    loglik, v, v_step = math.nan, None, None
    for it in range(1, maxit):
        loglik, u, v = _llogit_general(beta, x, event, offset)
        if float(np.max(np.abs(u))) < 1e-9 and abs(loglik - oldl) < 0.1 * eps:
            converged = True
            break
        if loglik > oldl:
            curstp = curstp / 2.0
            beta = beta - curstp * deltab
            # A halving leaves the workspace of the last step as it was.
            v = v_step
            continue
        curstp = 1.0
        sol = _cdqrls(np.array(v, order="F"), u.copy(), tol)
        if sol["rank"] < k:
            return _Fit(None, None, True, loglik, singular=True)
        # ainvb decomposes v in place: after a divergence R inverts what is left.
        v = v_step = sol["qr"]
        deltab = sol["coefficients"]
        beta = beta + deltab
        if abs(oldl - loglik) <= eps:
            converged = True
            break
        oldl = loglik
    if converged:
        loglik, _, v = _llogit_general(beta, x, event, offset)
    try:
        var = _solvet(v, tol)
    except ProbcalError:
        return _Fit(beta, None, True, loglik, singular=True)
    return _Fit(beta, var, not converged, loglik)


def _wald(coef: float, var: float, conf_level: float):
    lo, hi = _wald_factors(conf_level)
    if var < 0:
        r_warning("NaNs produced")
    se = math.sqrt(var) if var >= 0 else math.nan
    return coef + se * lo, coef + se * hi


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------

class CalibrationCurve:
    """Result of :func:`val_prob_ci`: R's ``CalibrationCurve`` object.

    Attributes
    ----------
    call : str
        R's matched call, deparsed (the argument names in R's spelling).
    stats : dict
        The named statistics (R's ``stats`` vector): ``val.prob``'s 14 and
        ``Brier scaled``; ``Eavg`` and ``ECI`` with ``smooth="loess"``.
    cl_level : float
        The confidence level.
    Calibration : dict
        ``{"Intercept": {...}, "Slope": {...}}``, each ``{"Point estimate",
        "Lower confidence limit", "Upper confidence limit"}``.
    Cindex : dict
        The c-statistic and its interval, under the same three names.
    warningMessages : list of str or None
        R's ``warningMessages``.
    CalibrationCurves : dict
        ``FlexibleCalibration`` (loess: ``x``, ``y`` and, with limits,
        ``ymin``, ``ymax``, R's ``merge`` of the curve and the limits) or
        ``RCS`` (``knots``, ``x``, ``xbeta``, ``lower``, ``upper``), and
        ``LogisticCalibration`` (``x``, ``y``) when ``logistic_cal``: each a
        dict of numpy arrays (a pandas DataFrame via :meth:`curve_frame`).

    R equivalent: the value of ``CalibrationCurves::val.prob.ci.2``; ``str()``
    is its ``print``.
    """

    def __init__(self, call, names, values, cl_level, calibration, cindex, wmess, curves,
                 plot_info):
        self.call = call
        self._names = list(names)
        self._values = np.asarray(values, dtype=np.float64)
        self.cl_level = cl_level
        self.Calibration = calibration
        self.Cindex = cindex
        self.warningMessages = wmess
        self.CalibrationCurves = curves
        self._plot = plot_info

    @property
    def stats(self) -> dict:
        return dict(zip(self._names, self._values.tolist()))

    def __getitem__(self, name):
        return getattr(self, name)

    def curve_frame(self, name: str = None):
        """One of ``CalibrationCurves`` as a pandas DataFrame (R's data.frame)."""
        import pandas as pd
        if name is None:
            name = next(iter(self.CalibrationCurves))
        return pd.DataFrame(self.CalibrationCurves[name])

    def __str__(self) -> str:
        lvl = format_r(self.cl_level * 100, digits=15)
        head = (f"Call:\n{self.call}\n\nA {lvl}% confidence interval is given for the "
                "calibration intercept, calibration slope and c-statistic. \n\n")
        return head + print_named_vector(self._names, self._values.tolist())

    __repr__ = __str__

    def plot(self, ax=None, cl_smooth=None, logistic_cal=None, dostats=None, roundstats: int = 2,
             d0lab: str = "0", d1lab: str = "1", xlim=(-0.02, 1), ylim=(-0.15, 1)):
        """R's figure of ``val.prob.ci.2``, in the package's matplotlib style.

        The ideal line, the flexible curve and its band (or dashed limits),
        the logistic calibration curve if asked, the distribution of the
        predictions by outcome (R's spikes above and below ``line.bins =
        -0.05``) and the statistics text (intercept, slope and c-statistic
        with their intervals). Arguments default to the call's. Returns the Axes.

        R equivalent: the plot ``val.prob.ci.2(..., pl = TRUE)`` draws.
        """
        from ..diagnostics._val_probg import calibration_axes
        info = self._plot
        cl_smooth = info["cl_smooth"] if cl_smooth is None else cl_smooth
        logistic_cal = info["logistic_cal"] if logistic_cal is None else logistic_cal
        dostats = info["dostats"] if dostats is None else dostats
        ax, line_pt = calibration_axes(ax, "CalibrationCurve")
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        # R's ideal line: red, clipped to the unit square.
        handles = ax.plot([0, 1], [0, 1], color="red", lw=line_pt, label="Ideal")
        if logistic_cal and info.get("logistic") is not None:
            lx, ly = info["logistic"]
            handles += ax.plot(lx, ly, color="black", lw=2 * line_pt, label="Logistic calibration")
        curves = self.CalibrationCurves
        if "FlexibleCalibration" in curves:
            c = curves["FlexibleCalibration"]
            if "ymin" in c and cl_smooth:
                if cl_smooth == "fill":
                    ax.fill_between(c["x"], c["ymin"], c["ymax"], color=(177 / 255,) * 3,
                                    alpha=177 / 255, lw=0)
                else:
                    ax.plot(c["x"], c["ymax"], color="black", ls="--", lw=line_pt)
                    ax.plot(c["x"], c["ymin"], color="black", ls="--", lw=line_pt,
                            label="CL flexible")
            inside = (c["y"] >= 0) & (c["y"] <= 1)
            handles += ax.plot(np.where(inside, c["x"], np.nan), c["y"], color="black",
                               lw=2 * line_pt, label="Flexible calibration (Loess)")
        if "RCS" in curves:
            c = curves["RCS"]
            handles += ax.plot(c["x"], c["xbeta"], color="black", lw=2 * line_pt,
                               label="Flexible calibration (RCS)")
            ax.plot(c["x"], c["lower"], color="black", ls="--", lw=line_pt, label="CL flexible")
            ax.plot(c["x"], c["upper"], color="black", ls="--", lw=line_pt)
        # R's legendloc c(0.50, 0.27): the legend's top-left corner there.
        ax.legend(loc="upper left", bbox_to_anchor=(0.5, 0.27), bbox_transform=ax.transData,
                  frameon=False, fontsize="small")
        # Risk distribution: spikes up for events, down for non-events.
        p, y = info["p"], info["y"]
        bins = np.linspace(0, min(1.0, max(xlim)), 101)
        f0, _ = np.histogram(p[(y == 0) & (p >= 0) & (p <= 1)], bins)
        f1, _ = np.histogram(p[(y == 1) & (p >= 0) & (p <= 1)], bins)
        maxf = max(f0.max(initial=0), f1.max(initial=0), 1)
        line_bins = -0.05
        b0, b1 = bins[:-1][f0 > 0], bins[:-1][f1 > 0]
        ax.vlines(b1, line_bins, line_bins + 0.1 * f1[f1 > 0] / maxf, color="black", lw=line_pt)
        ax.vlines(b0, line_bins, line_bins - 0.1 * f0[f0 > 0] / maxf, color="black", lw=line_pt)
        both = np.concatenate([b0, b1])
        if both.size:
            ax.plot([both.min() - 0.01, both.max() + 0.01], [line_bins] * 2, color="black",
                    lw=line_pt)
            ax.text(both.max() + 0.04, line_bins + 0.03, d1lab, fontsize="x-small", va="center")
            ax.text(both.max() + 0.04, line_bins - 0.03, d0lab, fontsize="x-small", va="center")
        if dostats is True:
            ax.text(0, 0.85, self.stats_text(roundstats), fontsize="small", va="center")
        ax.set_xlabel("Predicted probability")
        ax.set_ylabel("Observed proportion")
        return ax

    def stats_text(self, roundstats: int = 2) -> str:
        """The text R writes in the figure (``dostats = TRUE``)."""
        def f(v):
            return "NA" if v is None or (isinstance(v, float) and math.isnan(v)) else \
                f"{v:.{roundstats}f}"
        i, s, c = (self.Calibration["Intercept"], self.Calibration["Slope"], self.Cindex)
        lo, hi, pt = _CI_NAMES[1], _CI_NAMES[2], _CI_NAMES[0]
        return (f"Calibration\n...intercept: {f(i[pt])} ({f(i[lo])} to {f(i[hi])})\n"
                f"...slope: {f(s[pt])} ({f(s[lo])} to {f(s[hi])})\nDiscrimination\n"
                f"...c-statistic: {f(c[pt])} ({f(c[lo])} to {f(c[hi])})")


def _ci(point, lo, hi) -> dict:
    return dict(zip(_CI_NAMES, (float(point), float(lo), float(hi))))


# ---------------------------------------------------------------------------
# The call R prints
# ---------------------------------------------------------------------------

_R_ORDER = ("p", "y", "logit", "group", "weights", "normwt", "pl", "smooth", "CL.smooth", "CL.BT",
            "nr.knots", "logistic.cal", "dostats", "cl.level", "method.ci", "roundstats",
            "g.group", "evaluate", "nmin", "allowPerfectPredictions")


def _deparse_call(given: dict) -> str:
    from ..rbase._rcalls import deparse
    parts = []
    for name in _R_ORDER:
        if name not in given:
            continue
        v = given[name]
        if name in ("p", "y", "logit", "group", "weights"):
            parts.append(f"{name} = {name}")
        elif isinstance(v, (list, tuple)):
            parts.append(f"{name} = c(" + ", ".join(deparse(e) for e in v) + ")")
        else:
            parts.append(f"{name} = {deparse(v)}")
    # deparse's line breaking (width.cutoff 60): after an argument's ", ",
    # a line longer than 60 bytes ends and the next is indented by 4.
    lines, cur = [], "val.prob.ci.2("
    for i, part in enumerate(parts):
        cur += part
        if i < len(parts) - 1:
            cur += ", "
            if len(cur.encode()) > 60:
                lines.append(cur)
                cur = "    "
    return "\n".join(lines + [cur + ")"])


# ---------------------------------------------------------------------------
# val.prob.ci.2
# ---------------------------------------------------------------------------

def _emax(a: float, b: float) -> float:
    # predprob <- seq(0, 1, by = 0.0005): from + (0:n) * by.
    pp = np.arange(2001) * 0.0005
    with np.errstate(divide="ignore"):
        lt = a + b * r_log(pp / (1 - pp))
    calp = 1 / (1 + r_exp(-lt))
    return float(np.max(np.abs(pp - calp)))


def _merge_by_x(sm_x, sm_y, cl_x, ymin, ymax):
    """``merge(Sm, dfCL, by = "x")``: sorted by x; a value tied k times gives
    k * k rows (all of them equal: tied x have one fit and one limit)."""
    ux, start, counts = np.unique(sm_x, return_index=True, return_counts=True)
    rep = counts[np.searchsorted(ux, sm_x)]
    o = np.argsort(sm_x, kind="stable")
    reps = rep[o]
    take = np.repeat(o, reps)
    cl_o = np.argsort(cl_x, kind="stable")
    cl_take = np.repeat(cl_o, reps)
    return {"x": sm_x[take], "y": sm_y[take], "ymin": ymin[cl_take], "ymax": ymax[cl_take]}


def _colsum(a: np.ndarray) -> np.ndarray:
    out = a[:, 0].copy()
    for j in range(1, a.shape[1]):
        out = out + a[:, j]
    return out


def _rcs_curve(p: np.ndarray, y: np.ndarray, nk: int):
    """``.rcspline.plot(p, y, model = "logistic", nk, show = "prob", xrange = range(p))``,
    its knots reduced as ``nkDecrease`` does when the fit fails."""
    import warnings as _w
    from ._rcspline import rcs_knots
    try:
        if p.size < 6:
            raise ProbcalError("fewer than 6 non-missing observations")
        with _w.catch_warnings(record=True) as seen:
            _w.simplefilter("always")
            knots = rcs_knots(p, nk)
        for w in seen:  # rcspline.eval's own warnings, as R gives them
            r_warning(str(w.message))
        fit = _lrm_general(np.column_stack([p, rcspline_eval(p, knots=knots)]), y == 1)
        if fit.singular:
            raise ProbcalError("singular information matrix in lrm.fit")
    except ProbcalError as exc:
        # nkDecrease: R warns, then fails on `nk - 1`, nk being the
        # unevaluated argument `nr.knots` (CalibrationCurves 2.0.0).
        r_warning("The number of knots led to estimation problems, nk will be set to nr.knots")
        err = ProbcalError("non-numeric argument to binary operator")
        add_note(err, f"The spline fit with {nk} knots failed ({exc}); CalibrationCurves 2.0.0 "
                      "then fails while reducing the knots. Pass a smaller nr_knots, or "
                      "smooth=\"loess\".")
        raise err from None
    beta, var = fit.coef, fit.var
    xe = _seq_len_out(float(np.min(p)), float(np.max(p)), 600)
    xx = np.column_stack([np.ones(600), rcspline_eval(xe, knots, inclx=True)])
    # R's %*% here is reference BLAS (dgemm/dgemv): sums over the columns in
    # order, no FMA; near-singular fits hinge on those bits (a variance's sign).
    xbeta = _colsum(xx * beta)
    m = np.column_stack([_colsum(xx * var[:, j]) for j in range(var.shape[1])])
    v = _colsum(m * xx)
    with np.errstate(invalid="ignore"):
        sd = np.sqrt(v)
    if np.isnan(sd).any() and not np.isnan(v).any():
        r_warning("NaNs produced")
    lower = xbeta - 1.96 * sd
    upper = xbeta + 1.96 * sd
    inv = lambda t: 1.0 / (1.0 + np.exp(-t))  # noqa: E731
    nkn = knots.size
    return {"knots": np.resize(knots, 600) if 600 % nkn == 0 else knots, "x": xe,
            "xbeta": inv(xbeta), "lower": inv(lower), "upper": inv(upper)}


@python_face
def val_prob_ci(p=None, y=None, logit=None, group=None, weights=None, normwt: bool = False,
                smooth: str = "loess", cl_smooth="fill", cl_bt: bool = False, nr_knots: int = 5,
                logistic_cal: bool = False, dostats=True, cl_level: float = 0.95,
                method_ci: str = "pepe", roundstats: int = 2, g_group: int = 4,
                evaluate: int = 100, nmin: float = 0, allow_perfect_predictions: bool = False):
    """Calibration curve with confidence limits and its indices: CalibrationCurves' ``val.prob.ci.2``.

    R equivalent: ``CalibrationCurves::val.prob.ci.2(p, y, ...)``
    (CalibrationCurves 2.0.0, rms 6.5-0, Hmisc 4.8-0); R's plot is
    :meth:`CalibrationCurve.plot`.

    Parameters
    ----------
    p : array_like, optional
        Predicted probabilities.
    y : array_like
        Outcomes 0/1.
    logit : array_like, optional
        Logits instead of ``p``.
    group, weights, normwt, g_group, evaluate, nmin
        With ``group``, R returns ``rms``'s grouped statistics
        (``val.probg``): so does this function (a
        :class:`~pycalib_r.diagnostics._val_probg.ValProbG`, as
        :func:`~pycalib_r.val_prob` gives). ``weights`` are used only there.
    smooth : {"loess", "rcs", "none"}
        The flexible curve: ``loess(y ~ p, degree = 2)``, a logistic
        restricted cubic spline with ``nr_knots`` knots, or none.
    cl_smooth : {"fill", True, False}
        Pointwise limits of the loess curve (a band, dashed lines, none).
    cl_bt : bool
        R's bootstrap limits (2000 loess fits on R's random stream): not
        available here (an error says so); the closed-form limits are.
    nr_knots : int
        Knots of the spline (at most 5), reduced while the fit fails, with R's warning.
    logistic_cal : bool
        Keep (and draw) the logistic calibration curve.
    dostats : bool or list of str
        Which statistics the figure shows.
    cl_level : float
        Confidence level of the intervals of the intercept, slope and c-statistic.
    method_ci : {"pepe", "delong", "newcombe", "jackknife"}
        Interval of the c-statistic (bootstrap methods fall back to ``"pepe"``
        with R's warning).
    roundstats : int
        Decimals of the statistics in the figure.
    allow_perfect_predictions : bool
        Replace predictions of 0 and 1 by ``1e-8`` and ``1 - 1e-8``, with R's warning.

    Returns
    -------
    CalibrationCurve
        ``stats``, ``Calibration``, ``Cindex``, ``CalibrationCurves``; prints as R.

    Notes
    -----
    Missing values are refused (R drops them with a warning). ``Eavg`` and
    ``ECI`` are in ``stats`` with ``smooth="loess"`` only, as in R; ``ECI``
    is 100 times the mean squared difference between ``p`` and the curve.

    References
    ----------
    Van Calster, B., Nieboer, D., Vergouwe, Y., De Cock, B., Pencina, M. J.,
    Steyerberg, E. W. (2016). A calibration hierarchy for risk models was
    defined: from utopia to empirical data. *J Clin Epidemiol* 74, 167-176.
    Van Hoorde, K., Van Huffel, S., Timmerman, D., Bourne, T., Van Calster, B.
    (2015). A spline-based tool to assess and visualize the calibration of
    multiclass risk predictions. *J Biomed Inform* 54, 283-293.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> res = pc.val_prob_ci(p, y)
    >>> round(res.stats["ECI"], 6)
    0.434992
    """
    given = {}
    if p is not None:
        given["p"] = p
    if y is not None:
        given["y"] = y
    if logit is not None:
        given["logit"] = logit
    if group is not None:
        given["group"] = group
    if weights is not None:
        given["weights"] = weights
    for rname, val, default in (("normwt", normwt, False), ("smooth", smooth, "loess"),
                                ("CL.smooth", cl_smooth, "fill"), ("CL.BT", cl_bt, False),
                                ("nr.knots", nr_knots, 5), ("logistic.cal", logistic_cal, False),
                                ("dostats", dostats, True), ("cl.level", cl_level, 0.95),
                                ("method.ci", method_ci, "pepe"), ("roundstats", roundstats, 2),
                                ("g.group", g_group, 4), ("evaluate", evaluate, 100),
                                ("nmin", nmin, 0),
                                ("allowPerfectPredictions", allow_perfect_predictions, False)):
        if not (type(val) is type(default) and val == default):
            given[rname] = val
    if smooth not in _SMOOTHS:
        raise ProbcalError("'arg' should be one of \u201cloess\u201d, \u201crcs\u201d, \u201cnone\u201d")
    if cl_smooth not in ("fill", True, False):
        raise ProbcalError("`cl_smooth` must be \"fill\", True or False")
    if cl_bt:
        err = ProbcalError("CL.BT = TRUE (bootstrap limits) is not available in pycalib_r")
        add_note(err, "R draws 2000 bootstrap loess fits on its random stream; use the "
                      "closed-form limits (cl_bt=False), R's default.")
        raise err
    if not isinstance(nr_knots, (int, float, np.integer, np.floating)) or isinstance(nr_knots, bool):
        raise ProbcalError("Nr.knots must be numeric.")
    check_conf_level(cl_level)
    call = _deparse_call(given)
    p_in = p
    if allow_perfect_predictions and p is not None:
        pa = np.asarray(p, dtype=np.float64)
        if pa.size and np.all((pa == 0) | (pa == 1)):
            raise ProbcalError("All predicted values are equal to 0 or 1, implying that the "
                               "underlying process is deterministic. Please check your model or "
                               "the input.")
    p, yv, lg = _inputs(p_in, y, logit)
    wmess = None
    if allow_perfect_predictions and np.any((p == 0) | (p == 1)):
        p = np.where(p == 0, 1e-8, np.where(p == 1, 1 - 1e-8, p))
        lg = r_log(p / (1 - p))
        warn(_PERFECT, RuntimeWarning)
        wmess = [_PERFECT]
    if group is not None:
        from ..diagnostics._val_probg import grouped
        return grouped(p, yv, group, weights, normwt, g_group, evaluate, nmin)
    if weights is not None:
        warn("`weights` are used only with `group` (R's val.prob.ci.2 ignores them otherwise)")
    o = np.argsort(p, kind="stable")
    p, yv, lg = p[o], yv[o], lg[o]
    n = yv.size
    if n > 5000 and smooth == "loess":
        r_warning("Number of observations > 5000, RCS is recommended.")
    if np.unique(p).size == 1:
        big_p = r_mean(yv)
        intc = math.log(big_p / (1 - big_p)) if 0 < big_p < 1 else (
            -math.inf if big_p == 0 else math.inf)
        d = -1.0 / n
        l01 = _l01(yv, lg)
        with np.errstate(invalid="ignore", over="ignore"):
            terms = yv * intc - r_log(1 + r_exp(np.full(n, intc)))
            lcal = -2 * r_sum(terms[~np.isnan(terms)])
        u_chisq = l01 - lcal
        u = (u_chisq - 1) / n
        cl_auc = ci_auc(yv, p, cl_level, method_ci)
        e = abs(p[0] - big_p)
        values = [0.0, 0.5, 0.0, d, 0.0, 1.0, u, u_chisq, one_minus_pchisq(u_chisq, 1), d - u,
                  r_mean((yv - p[0]) ** 2), intc, 0.0, e, e, 1.0]
        names = STATS_NAMES[:14] + ("Eavg", "ECI")
        nan = math.nan
        calib = {"Intercept": _ci(intc, nan, nan), "Slope": _ci(0.0, nan, nan)}
        return CalibrationCurve(call, names, values, cl_level, calib,
                                _ci(0.5, cl_auc[1], cl_auc[2]), None, {},
                                {"p": p, "y": yv, "cl_smooth": cl_smooth,
                                 "logistic_cal": logistic_cal, "dostats": dostats})
    finite = np.isfinite(lg)
    nm = int(n - np.count_nonzero(finite))
    if nm > 0:
        r_warning(f"{nm} observations deleted from logistic calibration due to probs. of 0 or 1")
    event = yv == 1
    f = _lrm_fit(lg[finite], event[finite])
    fg = _lrm_general(lg[finite][:, None], event[finite])  # the same iterations, and var
    a, b = (float(v) for v in f.coef)
    cl_slope = _wald(b, fg.var[1, 1], cl_level)
    f2 = _lrm_general(None, event[finite], offset=lg[finite])
    if f2.fail:
        r_warning("The lrm function did not converge when computing the calibration intercept!")
        intercept, cl_interc = math.nan, (math.nan, math.nan)
    else:
        intercept = float(f2.coef[0])
        cl_interc = _wald(intercept, f2.var[0, 0], cl_level)
    stats = dict(f.stats)
    if f.stats["fail"]:
        # lrm.fit's statistics after a divergence: the rank statistics stay 0
        # (its opts), R2 from the last -2 log likelihood.
        ll0, ll1 = f.deviance
        lr0 = ll0 - ll1
        stats.update(C=0.0, Dxy=0.0, R2=(1 - math.exp(-lr0 / n)) / (1 - math.exp(-ll0 / n)))
    cl_auc = ci_auc(yv, p, cl_level, method_ci)
    nobs = stats["Obs"]
    emax = _emax(a, b)
    curves = {}
    eavg = eci = None
    if smooth == "loess":
        if cl_smooth in (True, "fill"):
            fitted, se = _loess_with_se(p, yv)
            zq = _wald_factors(cl_level)[1]
            ymin = fitted - zq * se
            ymax = fitted + zq * se
            ymax = np.where(ymax < 0, 0.0, np.where(ymax > 1, 1.0, ymax))
            ymin = np.where(ymin < 0, 0.0, np.where(ymin > 1, 1.0, ymin))
            curves["FlexibleCalibration"] = _merge_by_x(p, fitted, p, ymin, ymax)
        else:
            fitted, _ = _loess_with_se(p, yv)  # loess_fitted's bits, without its O(n^2) diagonal
            curves["FlexibleCalibration"] = {"x": p.copy(), "y": fitted}
        dif = p - fitted
        eavg = r_mean(np.abs(dif))
        eci = r_mean(dif ** 2) * 100
    elif smooth == "rcs":
        curves["RCS"] = _rcs_curve(p, yv, int(nr_knots))
    lr = stats["Model L.R."]
    p_lr = one_minus_pchisq(lr, 1)
    d = (lr - 1) / nobs
    l01 = _l01(yv, lg)
    u_chisq = l01 - f.deviance[1]
    p_u = one_minus_pchisq(u_chisq, 2)
    u = (u_chisq - 2) / nobs
    brier = r_sum((p - yv) ** 2) / nobs  # R's n is stats["Obs"] by now: the finite rows
    my = r_mean(yv)
    bmax = my * (1 - my) ** 2 + (1 - my) * my ** 2
    values = [stats["Dxy"], stats["C"], stats["R2"], d, lr, p_lr, u, u_chisq, p_u, d - u, brier,
              intercept, b, emax, 1 - brier / bmax]
    names = list(STATS_NAMES)
    if smooth == "loess":
        values += [eavg, eci]
        names += ["Eavg", "ECI"]
    if float(np.min(p)) > 1 / (1 + math.exp(7)) or float(np.max(p)) < 1 / (1 + math.exp(-7)):
        logistic = (p[finite], 1 / (1 + np.exp(-(a + b * lg[finite]))))
    else:
        grid = _seq_len_out(-7.0, 7.0, 200)
        logistic = (1 / (1 + np.exp(-grid)), 1 / (1 + np.exp(-(a + b * grid))))
    if logistic_cal:
        curves["LogisticCalibration"] = {"x": logistic[0], "y": logistic[1]}
    calib = {"Intercept": _ci(intercept, *cl_interc), "Slope": _ci(b, *cl_slope)}
    return CalibrationCurve(call, names, values, cl_level, calib,
                            _ci(stats["C"], cl_auc[1], cl_auc[2]), wmess, curves,
                            {"p": p, "y": yv, "cl_smooth": cl_smooth, "logistic": logistic,
                             "logistic_cal": logistic_cal, "dostats": dostats})

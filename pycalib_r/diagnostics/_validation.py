# SPDX-License-Identifier: GPL-3.0-only
# Derived from: rms 6.5-0 R/val.prob.s, R/lrm.fit.r, src/lrmfit.f (GPL-2.0-or-later), (c) Frank E Harrell Jr
# Derived from: MASS 7.3-58.2 R/confint.R (profile.glm, confint.glm) (GPL-2.0-only OR GPL-3.0-only), (c) Brian Ripley, Bill Venables and contributors
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/R/confint.R, src/appl/dqrdc2.f, src/appl/dqrsl.f (GPL-2.0-or-later), (c) The R Core Team
"""Validation of predicted probabilities: ``rms::val.prob`` and the calibration intercept and slope.

:func:`val_prob` repeats ``rms::val.prob`` (rms 6.5-0) step by step. Its
statistics come from two calls of ``lrm.fit``, whose Fortran routine
(``lrmfit.f``: ``LLOGIT``, ``gcorr``, ``ainvb``) is ported here:

* ``f.fixed <- lrm.fit(logit, y, initial = c(0, 1), maxit = 1)``: no Newton
  step, the -2 log likelihood of the predictions as they are, and the rank
  correlation (C, Dxy) from the 5001-bin table of predicted probabilities
  that the Fortran builds (``ipp = INT(5000 p + 1)``); its ``P`` is ``NA``
  because ``initial`` was given, hence ``D:p = NA`` as in R.
* ``f.recal <- lrm.fit(logit, y)``: Newton-Raphson from the marginal log
  odds with R's stopping rule (the -2 log likelihood changes by at most
  ``eps = 0.025``, at most ``maxit - 1 = 11`` steps, step halving), each step
  solved by LINPACK's ``dqrdc2``/``dqrsl`` as ``ainvb`` does. The intercept
  and slope are R's iterate, not the exact maximum: they equal R's to the
  last bits because the same iterations are taken.

The sums the Fortran accumulates are left-to-right double sums, R's ``sum``
and ``mean`` are long-double ones (:mod:`._rarith`), and ``lowess`` is R's C
code (:mod:`._lowess`).
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np

from ..rstats import quantile_r
from ..inputs._checks import ProbcalError, add_note, check_binary_y, check_conf_level, check_probability
from ..rbase._format import format_r_vec
from ..rstats import qchisq
from ._hoslem import one_minus_pchisq
from ._val_probg import _r_truth, calibration_axes, grouped
from ..rstats import Lowess, lowess
from ..rstats import R_NA, approx1 as _approx1, qlogis as _qlogis, regularize as _regularize, seq_len_out as _seq_len_out
from ..rbase._rarith import pnorm_upper, r_exp, r_log, r_mean, r_sum, seq_sum
from ..rbase._warn import warn
from ..rstats import cdqrls as _cdqrls, design_matrix, glm_binomial
from ..inputs._hints import python_face

__all__ = ["val_prob", "ValProb", "cal_intercept_slope", "CalInterceptSlope", "VAL_PROB_NAMES",
           "validate_report"]

VAL_PROB_NAMES = ("Dxy", "C (ROC)", "R2", "D", "D:Chi-sq", "D:p", "U", "U:Chi-sq", "U:p", "Q",
                  "Brier", "Intercept", "Slope", "Emax", "E90", "Eavg", "S:z", "S:p")
_NA_NAME = None  # R's NA name (printed <NA>)


# ---------------------------------------------------------------------------
# R's print of a named numeric vector.
# ---------------------------------------------------------------------------

def print_named_vector(names, values, width: int = 80, digits: int = 7) -> str:
    """R's ``print()`` of a named numeric vector (``printNamedVector``), without
    the final newline: one common format, columns of the widest name or value,
    a blank after each entry, as many per line as fit in ``width``."""
    cells = format_r_vec([float(v) for v in values], digits=digits)  # NA_real_ bits print NA
    labels = ["<NA>" if n is None else n for n in names]
    w = max(max(len(c) for c in cells), max(len(n) for n in labels))
    per = max(1, width // (w + 1))
    lines = []
    for s in range(0, len(cells), per):
        lines.append("".join(f"{n:>{w}} " for n in labels[s:s + per]))
        lines.append("".join(f"{c:>{w}} " for c in cells[s:s + per]))
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# lrm.fit for one predictor (rms 6.5-0, src/lrmfit.f).
# ---------------------------------------------------------------------------

def _lprob(bb: np.ndarray) -> np.ndarray:
    # lprob(bb) = 1 / (1 + exp(-min(max(bb, -30), 30)))
    return 1.0 / (1.0 + r_exp(-np.minimum(np.maximum(bb, -30.0), 30.0)))


class _Llogit(NamedTuple):
    loglik: float
    u: np.ndarray
    v: np.ndarray  # 2 x 2, from the packed lower triangle
    cpiy: np.ndarray


def _llogit(beta: np.ndarray, x: np.ndarray, event: np.ndarray) -> _Llogit:
    """``LLOGIT`` with one intercept and one slope, unit weights, no penalty."""
    cpiy = _lprob(beta[0] + beta[1] * x)
    with np.errstate(divide="ignore"):
        terms = np.where(event, r_log(cpiy), r_log(1.0 - cpiy))
    loglik = -2.0 * seq_sum(terms)
    resid = np.where(event, 1.0, 0.0) - cpiy
    viy = cpiy * (1.0 - cpiy)
    vx = viy * x
    u = np.array([seq_sum(resid), seq_sum(resid * x)])
    v12 = seq_sum(vx)
    v = np.array([[seq_sum(viy), v12], [v12, seq_sum(vx * x)]])
    return _Llogit(loglik, u, v, cpiy)


def _gcorr(cpiy: np.ndarray, event: np.ndarray):
    """``gcorr`` on the 5001-bin table: (C, Dxy) exactly as the Fortran's doubles."""
    ipp = (5000.0 * cpiy + 1.0).astype(np.int64) - 1
    f0 = np.bincount(ipp[~event], minlength=5001)
    f1 = np.bincount(ipp[event], minlength=5001)
    n1 = int(f1.sum())
    above = n1 - np.cumsum(f1)  # events in higher bins
    con = int(np.dot(f0, above))
    tie = int(np.dot(f0, f1))
    dis = int(np.dot(f0, n1 - above - f1))
    fn = float(con + dis + tie)
    return (float(con) + float(tie) * 0.5) / fn, float(con - dis) / fn


class _Lrm(NamedTuple):
    coef: np.ndarray
    deviance: tuple  # (null, model) -2 log likelihoods
    stats: dict


def _lrm_fit(x: np.ndarray, event: np.ndarray, initial=None, maxit: int = 12,
             eps: float = 0.025, tol: float = 1e-7) -> _Lrm:
    n = x.size
    if n < 3:
        raise ProbcalError("must have >=3 non-missing observations")
    n1 = float(np.count_nonzero(event))
    if n1 in (0, n):
        # R's own initial is the log odds of 0 or 1: its Fortran call refuses the Inf first
        err = ProbcalError("'names' attribute [3] must be the same length as the vector [2]"
                           if initial is not None else "NA/NaN/Inf in foreign function call (arg 1)")
        add_note(err, "val.prob needs both outcomes among the finite logits: `y` holds only "
                      f"{int(n1 > 0)}s there (R fails with this message inside lrm.fit).")
        raise err
    sumwty = np.array([n - n1, n1])
    sumwt = r_sum(sumwty)
    if initial is None:
        pp = n1 / sumwt
        beta = np.array([float(r_log(np.array([pp / (1 - pp)]))[0]), 0.0])
    else:
        beta = np.asarray(initial, dtype=np.float64).copy()
    llnull = -2.0 * r_sum(sumwty * r_log(sumwty / r_sum(sumwty)))
    oldl = 1e30
    deltab = np.zeros(2)
    curstp = 1.0
    converged = maxit < 2
    for it in range(1, maxit):
        st = _llogit(beta, x, event)
        dmax = float(np.max(np.abs(st.u)))
        if dmax < 1e-9 and abs(st.loglik - oldl) < 0.1 * eps:
            converged = True
            break
        if st.loglik > oldl:
            if it == 1:  # pragma: no cover - the logistic -2LL is finite at the start
                raise ProbcalError("lrm.fit failed to converge")
            curstp = curstp / 2.0
            beta = beta - curstp * deltab
            continue
        curstp = 1.0
        sol = _cdqrls(np.array(st.v, order="F"), st.u.copy(), tol)
        if sol["rank"] < 2:
            err = ProbcalError("singular information matrix in lrm.fit (rank= 1 ).  "
                               "Offending variable(s):\nx[1]")
            add_note(err, "The logits carry no information beyond the intercept "
                          "(they are (nearly) constant among the finite ones).")
            raise err
        deltab = sol["coefficients"]
        beta = beta + deltab
        if abs(oldl - st.loglik) <= eps:
            converged = True
            break
        oldl = st.loglik
    if not converged and maxit > 2:
        # lrmfit.f returns without the final LLOGIT: R keeps the last -2LL
        # computed in the loop (before the last step) and no rank statistics.
        lr = llnull - st.loglik
        return _Lrm(beta, (llnull, st.loglik), {"Obs": float(n), "Model L.R.": lr, "fail": True})
    st = _llogit(beta, x, event)
    c_index, dxy = _gcorr(st.cpiy, event)
    lr = llnull - st.loglik
    r2 = (1 - math.exp(-lr / sumwt)) / (1 - math.exp(-llnull / sumwt))
    stats = {"Obs": float(n), "Model L.R.": lr, "C": c_index, "Dxy": dxy, "R2": r2,
             "fail": False}
    return _Lrm(beta, (llnull, st.loglik), stats)


# ---------------------------------------------------------------------------
# val.prob
# ---------------------------------------------------------------------------

class ValProb:
    """Result of :func:`val_prob`: R's named numeric vector, plus the curves R plots.

    ``res["Brier"]``, ``res.keys()``, ``res.values()`` (a numpy array),
    ``res.to_dict()`` (NaN as ``None``) and iteration over the names work as
    on R's named vector; ``str(res)`` is R's ``print(res)``.

    Attributes
    ----------
    smooth : Lowess or None
        ``lowess(p, y, iter = 0)``, the nonparametric calibration curve.
    logistic : tuple of numpy.ndarray or None
        ``(prob, pred_prob)`` on R's grid ``plogis(seq(-7, 7, length = 200))``:
        the logistic calibration curve.

    R equivalent: the value of ``rms::val.prob(p, y, pl = FALSE)``; its plot
    is :meth:`plot`.
    """

    def __init__(self, names, values, smooth: Optional[Lowess] = None, logistic=None):
        self._names = list(names)
        self._values = np.asarray(values, dtype=np.float64)
        self.smooth = smooth
        self.logistic = logistic

    def keys(self):
        return list(self._names)

    def values(self) -> np.ndarray:
        return self._values.copy()

    def items(self):
        return list(zip(self._names, self._values.tolist()))

    def __iter__(self):
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, name):
        if isinstance(name, (int, np.integer)):
            return float(self._values[name])
        return float(self._values[self._names.index(name)])

    def __contains__(self, name) -> bool:
        return name in self._names

    def __array__(self, dtype=None, copy=None):
        return self._values.astype(dtype or np.float64, copy=True)

    def to_dict(self) -> dict:
        return {("NA" if k is None else k): (None if math.isnan(v) else v)
                for k, v in zip(self._names, self._values.tolist())}

    def __str__(self) -> str:
        return print_named_vector(self._names, self._values.tolist())

    __repr__ = __str__

    def plot(self, ax=None, smooth: bool = True, logistic_cal: bool = True):
        """The calibration plot of ``val.prob``: ideal line, logistic and lowess curves.

        Python-only rendering of R's plot, in the package's reliability-diagram
        style (matplotlib, imported lazily): the ideal diagonal, the logistic
        calibration curve and the lowess curve, as R draws them; ``ax``
        composes with other panels. Returns the Axes.
        """
        ax, line_pt = calibration_axes(ax, "ValProb")
        if logistic_cal and self.logistic is not None:
            ax.plot(self.logistic[0], self.logistic[1], color="black", lw=2 * line_pt,
                    label="Logistic calibration")
        if smooth and self.smooth is not None:
            ax.plot(self.smooth.x, self.smooth.y, color="black", lw=2 * line_pt, ls="--",
                    label="Nonparametric")
        ax.set_xlabel("Predicted Probability")
        ax.set_ylabel("Actual Probability")
        ax.legend(loc="lower right", frameon=False)
        return ax


def _spi(p: np.ndarray, y: np.ndarray):
    """Spiegelhalter's z and its two-sided p-value, R's ``Spi``."""
    q = 1 - 2 * p
    with np.errstate(divide="ignore", invalid="ignore"):  # p all 0.5: R's NaN or Inf
        z = float(np.float64(r_sum((y - p) * q)) / np.sqrt(np.float64(r_sum(q * q * p * (1 - p)))))
    return z, 2 * pnorm_upper(abs(z))


def _inputs(p, y, logit):
    p_arg = p
    if p is None:
        if logit is None:
            err = ProbcalError('argument "logit" is missing, with no default')
            add_note(err, "Pass the predicted probabilities as `p` (or their logits as `logit`).")
            raise err
        from scipy.special import expit
        from ..inputs._checks import as_numeric_vector
        lg = _one_column(as_numeric_vector(logit, arg="logit", finite=False))
        if np.isnan(lg).any():
            raise ProbcalError("Argument `logit` must not contain missing values.")
        p = expit(lg)
        given, arg = logit, "logit"
    else:
        p = _one_column(check_probability(p, arg="p"))
        lg = _qlogis(p)
        given, arg = p_arg, "p"
    yv = check_binary_y(y, arg="y").astype(np.float64)
    _same_length(p, yv, arg, given)
    return p, yv, lg


def _one_column(v: np.ndarray) -> np.ndarray:
    """A probability (or logit) matrix as R's val.prob and glm read it: by
    column (``predict_proba(X)[:, [1]]``, one column, is its vector)."""
    return v.ravel(order="F") if v.ndim == 2 else v


def _same_length(p: np.ndarray, y: np.ndarray, arg: str, given) -> None:
    """R's "lengths of p or logit and y do not agree", with a note for the
    n x 2 ``predict_proba`` matrix passed whole."""
    if p.size == y.size:
        return
    from ..inputs._hints import two_column_note

    err = ProbcalError("lengths of p or logit and y do not agree")
    note = two_column_note(arg, given, y.size)
    if note:
        add_note(err, note)
    raise err


@python_face
def val_prob(p=None, y=None, logit=None, group=None, weights=None, smooth: bool = True,
             logistic_cal: bool = True, normwt: bool = False, g_group: int = 4,
             evaluate: int = 100, nmin: float = 0):
    """Validation statistics of predicted probabilities, as ``rms::val.prob`` computes them.

    R equivalent: ``rms::val.prob(p, y, logit, pl = FALSE)`` (rms 6.5-0), its
    value printed as R prints it; ``res.plot(ax=)`` draws R's plot.

    With ``L = logit(p)``, ``n`` observations and ``lr`` the likelihood-ratio
    chi-square of ``L`` against the intercept-only model:

    * ``Dxy``, ``C (ROC)``: Somers' rank correlation and the c index, from
      ``lrm.fit``'s 5001-bin table of ``p`` (ties within a bin count half);
    * ``R2``: Nagelkerke's ``(1 - exp(-lr / n)) / (1 - exp(-L0 / n))``;
    * ``D = (lr - 1) / n`` (discrimination), ``D:Chi-sq = lr``, ``D:p = NA``;
    * ``U = (U:Chi-sq - 2) / n`` (unreliability), ``U:Chi-sq`` the -2 log
      likelihood of ``L`` minus that of the recalibrated ``a + b L``,
      ``U:p = 1 - pchisq(U:Chi-sq, 2)``; ``Q = D - U``;
    * ``Brier = mean((p - y)^2)``; ``Intercept`` and ``Slope``: ``a``, ``b``;
    * ``Emax``, ``E90``, ``Eavg``: the maximum, 0.9 quantile and mean of
      ``|p - lowess(p, y, iter = 0)|``;
    * ``S:z`` = ``sum((y - p)(1 - 2p)) / sqrt(sum((1 - 2p)^2 p (1 - p)))``,
      Spiegelhalter's z, and ``S:p`` its two-sided normal p-value.

    Parameters
    ----------
    p : array_like, optional
        Predicted probabilities in ``[0, 1]``; 0 and 1 are left out of the
        logistic calibration with R's warning.
    y : array_like
        Outcomes 0/1.
    logit : array_like, optional
        Logits instead of ``p`` (``p = plogis(logit)``), as in R.
    group : bool, array_like or pandas.Categorical, optional
        R's grouped statistics (``val.probg``): ``True`` for the overall row
        only; a logical, character or Categorical vector for its levels; a
        numeric vector is cut into ``g_group`` quantile groups (Hmisc's
        ``cut2``). Returns a :class:`~pycalib_r.diagnostics._val_probg.ValProbG`.
    weights : array_like, optional
        Observation weights of the grouped statistics (R ignores them
        without ``group``; so does this function, with a warning).
    normwt : bool
        Rescale the weights to sum to the number of observations.
    g_group, evaluate, nmin : int
        ``cut2``'s number of groups for a numeric ``group``; the number of
        points of each calibration curve; the weight kept out of each end of
        the curves (R's arguments).
    smooth, logistic_cal : bool
        Which curves :meth:`ValProb.plot` draws by default (R's plot arguments).

    Returns
    -------
    ValProb or ValProbG
        The 18 statistics under R's names (R's 19 values, the last named
        ``<NA>``, when all ``p`` are equal: R's own output then); with
        ``group``, R's ``val.probg`` value (its ``stats`` matrix, one row per
        group and ``Overall``, ``cal_curves`` and ``quantiles``).

    Notes
    -----
    Missing values are refused (R drops them): the package's input checks,
    for ``group`` and ``weights`` too.

    References
    ----------
    Harrell, F. E. (2015). *Regression Modeling Strategies*, 2nd ed., Springer.
    Spiegelhalter, D. J. (1986). Probabilistic prediction in patient management
    and clinical trials. *Statistics in Medicine* 5, 421-433.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> print(pc.val_prob(p, y))
            Dxy     C (ROC)          R2           D    D:Chi-sq         D:p 
     0.66284795  0.83142398  0.41872285  0.37118914 75.23782888          NA 
              U    U:Chi-sq         U:p           Q       Brier   Intercept 
     0.01098753  4.19750559  0.12260925  0.36020162  0.16998887 -0.32850787 
          Slope        Emax         E90        Eavg         S:z         S:p 
     1.17715524  0.08200143  0.07646916  0.05407881 -0.60114094  0.54774612 

    R: ``set.seed(1); p <- runif(200); y <- rbinom(200, 1, p^1.3);
    val.prob(p, y, pl = FALSE)`` prints the same.
    """
    p, y, lg = _inputs(p, y, logit)
    if group is not None:
        return grouped(p, y, group, weights, normwt, g_group, evaluate, nmin)
    if weights is not None:
        warn("`weights` are used only with `group` (R's val.prob ignores them otherwise)")
    n = y.size
    if np.unique(p).size == 1:
        big_p = r_mean(y)
        intc = float(_qlogis(np.array([big_p]))[0])
        d = -1.0 / n
        l01 = _l01(y, lg)
        with np.errstate(invalid="ignore", over="ignore"):
            lcal = -2 * _na_rm_sum(y * intc - r_log(1 + r_exp(np.full(n, intc))))
        u_chisq = l01 - lcal
        u = (u_chisq - 1) / n
        z, zp = _spi(p, y)
        e = abs(p[0] - big_p)
        values = [0.0, 0.5, 0.0, d, 0.0, 1.0, u, u_chisq, one_minus_pchisq(u_chisq, 1), d - u,
                  r_mean((y - p[0]) ** 2), intc, 0.0, 0.0, 0.0, e, e, z, zp]
        return ValProb(list(VAL_PROB_NAMES) + [_NA_NAME], values)
    event = y == 1
    finite = np.isfinite(lg)
    nm = int(n - np.count_nonzero(finite))
    if nm > 0:
        warn(f"{nm} observations deleted from logistic calibration due to probs. of 0 or 1",
             RuntimeWarning)
    f_fixed = _lrm_fit(lg[finite], event[finite], initial=(0.0, 1.0), maxit=1)
    f_recal = _lrm_fit(lg[finite], event[finite])
    stats = f_fixed.stats
    sm = lowess(p, y, iter=0)
    cal_smooth = np.empty(n)
    cal_smooth[np.argsort(p, kind="stable")] = sm.y
    er = np.abs(p - cal_smooth)
    lr = stats["Model L.R."]
    d = (lr - 1) / stats["Obs"]
    l01 = _l01(y, lg)
    u_chisq = l01 - f_recal.deviance[1]
    u = (u_chisq - 2) / stats["Obs"]
    dq = p - y
    z, zp = _spi(p, y)
    a, b = f_recal.coef
    values = [stats["Dxy"], stats["C"], stats["R2"], d, lr, R_NA, u, u_chisq,
              one_minus_pchisq(u_chisq, 2), d - u, r_mean(dq * dq), a, b, float(np.max(er)),
              float(quantile_r(er, [0.9])[0]), r_mean(er), z, zp]
    grid = -7 + np.arange(200) * (14 / 199)
    grid[-1] = 7.0
    from scipy.special import expit
    logistic = (expit(grid), expit(a + b * grid))
    return ValProb(VAL_PROB_NAMES, values, smooth=sm, logistic=logistic)


def _na_rm_sum(v: np.ndarray) -> float:
    return r_sum(v[~np.isnan(v)])


def _l01(y: np.ndarray, lg: np.ndarray) -> float:
    # -2 * sum(y * logit - logb(1 + exp(logit)), na.rm = TRUE); 0 * -Inf is NaN, dropped.
    with np.errstate(invalid="ignore", over="ignore"):
        return -2 * _na_rm_sum(y * lg - r_log(1 + r_exp(lg)))


# ---------------------------------------------------------------------------
# Calibration intercept and slope
# ---------------------------------------------------------------------------

class CalInterceptSlope:
    """Result of :func:`cal_intercept_slope`.

    Attributes
    ----------
    intercept, slope : float
        Calibration-in-the-large (``glm(y ~ offset(L), binomial)``'s
        intercept) and the calibration slope (``glm(y ~ L, binomial)``'s
        coefficient of ``L``), ``L = qlogis(p)``.
    se_intercept, se_slope : float
        Their standard errors (``summary.glm``).
    wald : dict
        ``{"intercept": (lower, upper), "slope": (lower, upper)}``, R's
        ``confint.default``.
    profile : dict or None
        The same for MASS's profile-likelihood ``confint`` (None when not
        asked, or when profiling failed: ``profile_error`` then holds R's message).
    conf_level : float
    fit_intercept, fit_slope : GlmFit
        The two ``glm`` fits.

    ``str(res)`` prints a table in the layout of R's ``confint`` matrix.
    """

    def __init__(self, fit_intercept, fit_slope, se_intercept, se_slope, conf_level):
        self.profile = None
        self.profile_error = None
        self.fit_intercept = fit_intercept
        self.fit_slope = fit_slope
        self.intercept = fit_intercept.coefficients["(Intercept)"]
        self.slope = fit_slope.coefficients["L"]
        self.se_intercept = se_intercept
        self.se_slope = se_slope
        self.conf_level = conf_level
        fac = _wald_factors(conf_level)
        self.wald = {"intercept": tuple(self.intercept + se_intercept * f for f in fac),
                     "slope": tuple(self.slope + se_slope * f for f in fac)}

    def to_dict(self) -> dict:
        return {"intercept": self.intercept, "slope": self.slope,
                "se_intercept": self.se_intercept, "se_slope": self.se_slope,
                "conf_level": self.conf_level,
                "wald": {k: list(v) for k, v in self.wald.items()},
                "profile": (None if self.profile is None
                            else {k: [None if math.isnan(b) else b for b in v]
                                  for k, v in self.profile.items()})}

    def __str__(self) -> str:
        a = (1 - self.conf_level) / 2
        pct = _format_perc([a, 1 - a])
        rows = [("Intercept", self.intercept, *self.wald["intercept"]),
                ("Slope", self.slope, *self.wald["slope"])]
        cols = [format_r_vec([None if math.isnan(r[i]) else r[i] for r in rows]) for i in (1, 2, 3)]
        heads = ["Estimate", *pct]
        widths = [max(len(h), len(c[0]), len(c[1])) for h, c in zip(heads, cols)]
        lab = max(len(r[0]) for r in rows)
        out = [" " * lab + "".join(f" {h:>{w}}" for h, w in zip(heads, widths))]
        for k, r in enumerate(rows):
            out.append(f"{r[0]:<{lab}}" + "".join(f" {c[k]:>{w}}" for c, w in zip(cols, widths)))
        return "\n".join(out)

    __repr__ = __str__


def _format_perc(probs) -> list:
    # R's format.perc(probs, 3): paste(format(100 * probs, trim = TRUE, scientific = FALSE, digits = 3), "%")
    return [c.strip() + " %" for c in format_r_vec([100 * q for q in probs], digits=3)]


def _wald_factors(conf_level: float):
    from ..rstats import qnorm_std as _qnorm_std
    a = (1 - conf_level) / 2
    return float(_qnorm_std(a)), float(_qnorm_std(1 - a))


def _unscaled_se(fit) -> np.ndarray:
    """``sqrt(diag(chol2inv(qr$qr[1:p, 1:p])))``: LAPACK dtrti2 then dlauu2 on R."""
    r = np.triu(fit.qr["qr"][: fit.rank, : fit.rank])
    p = r.shape[0]
    if p == 1:
        inv = 1.0 / r[0, 0]
        return np.array([math.sqrt(inv * inv), math.nan])
    i11 = 1.0 / r[0, 0]
    i22 = 1.0 / r[1, 1]
    i12 = (i11 * r[0, 1]) * -i22
    return np.array([math.sqrt(i11 * i11 + i12 * i12), math.sqrt(i22 * i22)])


@python_face
def cal_intercept_slope(p, y, conf_level=0.95, profile: bool = True) -> CalInterceptSlope:
    """Calibration intercept (calibration-in-the-large) and calibration slope, from R's ``glm``.

    R equivalent: with ``L <- qlogis(p)``,
    ``glm(y ~ offset(L), family = binomial)`` (the intercept),
    ``glm(y ~ L, family = binomial)`` (the slope) and ``confint.default()``
    of each (Wald intervals ``estimate + qnorm(c(a, 1 - a)) * se``,
    ``a = (1 - conf_level) / 2``).

    A well-calibrated model has intercept 0 and slope 1 (Van Calster et al.,
    2016, 2019). The estimates equal ``val.prob``'s ``Intercept`` and ``Slope``
    only up to ``lrm.fit``'s stopping rule (``val.prob`` stops its Newton
    iterations once the -2 log likelihood changes by at most 0.025, and its
    intercept comes from the two-parameter fit, not the offset fit);
    ``glm``'s IRLS stops at a relative deviance change of ``1e-8``.

    Parameters
    ----------
    p : array_like
        Predicted probabilities in ``(0, 1)``.
    y : array_like
        Outcomes 0/1.
    conf_level : float
        Confidence level of the Wald and profile intervals.
    profile : bool
        Also the profile-likelihood intervals, as MASS's ``confint(fit, level =
        conf_level)`` gives them (``profile.glm`` with ``alpha = (1 -
        conf_level) / 4``, inverted through R's ``spline`` and ``approx``); a
        bound beyond the profiled range is NaN (R's NA).

    Returns
    -------
    CalInterceptSlope

    References
    ----------
    Van Calster, B. et al. (2016). A calibration hierarchy for risk models was
    defined: from utopia to empirical data. *J Clin Epidemiol* 74, 167-176.
    Van Calster, B. et al. (2019). Calibration: the Achilles heel of
    predictive analytics. *BMC Medicine* 17, 230.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> print(pc.cal_intercept_slope(p, y))
                Estimate      2.5 %     97.5 %
    Intercept -0.2965936 -0.6261588 0.03297166
    Slope      1.1771552  0.8291989 1.52511156
    """
    cl = check_conf_level(conf_level)
    profile = _r_truth(profile, "profile")
    pv = _one_column(check_probability(p, arg="p"))
    yv = check_binary_y(y, arg="y").astype(np.float64)
    _same_length(pv, yv, "p", p)
    lg = _qlogis(pv)
    if not np.isfinite(lg).all():
        err = ProbcalError("NA/NaN/Inf in 'y'")
        add_note(err, "Probabilities of exactly 0 or 1 have infinite logits, which glm refuses; "
                      "leave those rows out (val_prob does so with a warning).")
        raise err
    ones = np.ones((pv.size, 1), order="F")
    fit_i = glm_binomial(ones, yv, ["(Intercept)"], warn=True, offset=lg)
    # glm() refits an offset model from its fitted values for the null deviance.
    null_i = glm_binomial(ones, yv, ["(Intercept)"], warn=True, offset=lg,
                          mustart=fit_i.fitted_values)
    fit_i.null_deviance = null_i.deviance
    fit_s = glm_binomial(design_matrix([lg]), yv, ["(Intercept)", "L"], warn=True)
    se_i = _unscaled_se(fit_i)
    se_s = _unscaled_se(fit_s)
    res = CalInterceptSlope(fit_i, fit_s, float(se_i[0]), float(se_s[1]), cl)
    if profile:
        try:
            res.profile = {
                "intercept": _profile_interval(ones, yv, lg, fit_i, se_i, 0, cl),
                "slope": _profile_interval(design_matrix([lg]), yv, np.zeros(yv.size), fit_s,
                                           se_s, 1, cl)}
        except ProbcalError as exc:
            res.profile_error = str(exc)
    return res


# ---------------------------------------------------------------------------
# MASS's profile-likelihood intervals (MASS 7.3-58.2: profile.glm, confint.profile.glm)
# ---------------------------------------------------------------------------

def _fmm_coef(x: np.ndarray, y: np.ndarray):
    """R's ``fmm_spline`` (stats/src/splines.c), 0-based."""
    n = x.size
    b, c, d = np.zeros(n), np.zeros(n), np.zeros(n)
    if n < 3:
        t = y[1] - y[0]
        b[0] = t / (x[1] - x[0])
        b[1] = b[0]
        return b, c, d
    nm1 = n - 1
    d[0] = x[1] - x[0]
    c[1] = (y[1] - y[0]) / d[0]
    for i in range(1, nm1):
        d[i] = x[i + 1] - x[i]
        b[i] = 2.0 * (d[i - 1] + d[i])
        c[i + 1] = (y[i + 1] - y[i]) / d[i]
        c[i] = c[i + 1] - c[i]
    b[0] = -d[0]
    b[nm1] = -d[nm1 - 1]
    c[0] = c[nm1] = 0.0
    if n > 3:
        c[0] = c[2] / (x[3] - x[1]) - c[1] / (x[2] - x[0])
        c[nm1] = c[nm1 - 1] / (x[nm1] - x[nm1 - 2]) - c[nm1 - 2] / (x[nm1 - 1] - x[nm1 - 3])
        c[0] = c[0] * d[0] * d[0] / (x[3] - x[0])
        c[nm1] = -c[nm1] * d[nm1 - 1] * d[nm1 - 1] / (x[nm1] - x[nm1 - 3])
    for i in range(1, n):
        t = d[i - 1] / b[i - 1]
        b[i] = b[i] - t * d[i - 1]
        c[i] = c[i] - t * c[i - 1]
    c[nm1] = c[nm1] / b[nm1]
    for i in range(nm1 - 1, -1, -1):
        c[i] = (c[i] - d[i] * c[i + 1]) / b[i]
    b[nm1] = (y[nm1] - y[nm1 - 1]) / d[nm1 - 1] + d[nm1 - 1] * (c[nm1 - 1] + 2.0 * c[nm1])
    for i in range(nm1):
        b[i] = (y[i + 1] - y[i]) / d[i] - d[i] * (c[i + 1] + 2.0 * c[i])
        d[i] = (c[i + 1] - c[i]) / d[i]
        c[i] = 3.0 * c[i]
    c[nm1] = 3.0 * c[nm1]
    d[nm1] = d[nm1 - 1]
    return b, c, d


def _spline(x: np.ndarray, y: np.ndarray):
    """R's ``spline(x, y)``: fmm, ``n = 3 * length(x)`` points from min to max."""
    nout = 3 * x.size
    x, y = _regularize(x, y, True)
    b, c, d = _fmm_coef(x, y)
    u = _seq_len_out(float(x.min()), float(x.max()), nout)
    v = np.empty(nout)
    n1 = x.size - 1
    i = 0
    for k, ul in enumerate(u):
        if ul < x[i] or (i < n1 and x[i + 1] < ul):
            i, j = 0, x.size
            while True:
                m = (i + j) // 2
                if ul < x[m]:
                    j = m
                else:
                    i = m
                if not j > i + 1:
                    break
        dx = ul - x[i]
        v[k] = y[i] + dx * (b[i] + dx * (c[i] + dx * d[i]))
    return u, v


def _profile_z(X: np.ndarray, y: np.ndarray, offset: np.ndarray, coef: np.ndarray,
               se: np.ndarray, deviance: float, i: int, zmax: float):
    """One parameter of ``profile.glm``: its values and signed root deviances, sorted by z."""
    nonA = [k for k in range(X.shape[1]) if k != i]
    Xi = X[:, nonA]
    names = [f"x{k}" for k in nonA]
    delta = zmax / 5
    zi, bs = [0.0], [float(coef[i])]
    for sgn in (-1.0, 1.0):
        step = 0
        z = 0.0
        lp = X[:, 0] * coef[0]
        for k in range(1, X.shape[1]):
            lp = lp + X[:, k] * coef[k]
        lp = lp + offset
        while True:
            step += 1
            if not (step < 10 and abs(z) < zmax):
                break
            bi = coef[i] + sgn * step * delta * se[i]
            o = offset + X[:, i] * bi
            if Xi.shape[1] == 0:
                from ..rstats import dev_resids as _dev_resids, linkinv as _linkinv
                mu = _linkinv(0.0 + o)
                dev = r_sum(_dev_resids(y, mu, np.ones(y.size)))
                lp = o
            else:
                fm = glm_binomial(Xi, y, names, warn=True, offset=o, etastart=lp)
                b = np.array([fm.coefficients[nm] for nm in names])
                lp = Xi[:, 0] * b[0]
                for k in range(1, Xi.shape[1]):
                    lp = lp + Xi[:, k] * b[k]
                lp = lp + o
                dev = fm.deviance
            zz = dev - deviance
            if zz > -1e-3:
                zz = max(zz, 0.0)
            else:
                raise ProbcalError("profiling has found a better solution, so original fit "
                                   "had not converged")
            z = sgn * math.sqrt(zz)
            zi.append(z)
            bs.append(bi)
    order = np.argsort(np.array(zi), kind="stable")
    return np.array(bs)[order], np.array(zi)[order]


def _profile_interval(X, y, offset, fit, se, i, conf_level) -> tuple:
    """MASS ``confint(fit, level)`` for coefficient ``i``: profile then spline inversion."""
    coef = np.array(list(fit.coefficients.values()))
    if math.isnan(coef[i]):  # an aliased coefficient is not profiled: NA
        return math.nan, math.nan
    alpha = (1 - conf_level) / 4
    zmax = math.sqrt(qchisq(1 - alpha, 1))
    bvals, zvals = _profile_z(X, y, offset, coef, se, fit.deviance, i, zmax)
    sx, sy = _spline(bvals, zvals)
    ax, ay = _regularize(sy, sx, True)
    if ax.size <= 1:
        raise ProbcalError("need at least two non-NA values to interpolate")
    lo, hi = _wald_factors(conf_level)
    return _approx1(lo, ax, ay), _approx1(hi, ax, ay)


# ---------------------------------------------------------------------------
# The CLI's `pycalib-r validate` report (wired into the command by the CLI module)
# ---------------------------------------------------------------------------

def validate_report(p, y, g: int = 10, conf_level: float = 0.95, profile: bool = True) -> dict:
    """What ``pycalib-r validate`` prints as JSON: the three validations of ``p`` against ``y``.

    Python-only (the CLI's report): ``{"val_prob": {name: value}, "hoslem_test":
    {...}, "cal_intercept_slope": {...}}`` with R's names, missing values as
    ``null``; each part is its R call's value (``rms::val.prob(p, y)``,
    ``ResourceSelection::hoslem.test(y, p, g)``, the glm intercept and slope
    with ``confint.default`` and MASS's ``confint``). Errors and warnings are
    the functions' own (R's messages), raised and issued as they are.

    Examples
    --------
    >>> import json, pycalib_r as pc
    >>> from pycalib_r.diagnostics._validation import validate_report
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> report = validate_report(p, y)
    >>> report["val_prob"]["Brier"], report["val_prob"]["D:p"], report["hoslem_test"]["parameter"]
    (0.16998887136788446, None, {'df': 8.0})
    >>> sorted(report)
    ['cal_intercept_slope', 'hoslem_test', 'val_prob']
    >>> json.loads(json.dumps(report)) == report
    True
    """
    from ._hoslem import hoslem_test as _hl  # each the exported function, as a user calls it
    from ..rbase._rlist import jsonable

    hl = _hl(y, p, g=g, data_name="y, p")
    hoslem = jsonable(hl.to_dict())
    hoslem["groups"] = list(hl.groups)
    return {"val_prob": val_prob(p, y).to_dict(), "hoslem_test": hoslem,
            "cal_intercept_slope": jsonable(cal_intercept_slope(p, y, conf_level=conf_level,
                                                                profile=profile).to_dict())}


# The names other rooms import (public inside the package): val_prob_ci
# (clinical/) rests on val.prob's inputs, lrm.fit and Wald factors.
validation_inputs = _inputs
l01 = _l01
lprob = _lprob
lrm_fit = _lrm_fit
wald_factors = _wald_factors

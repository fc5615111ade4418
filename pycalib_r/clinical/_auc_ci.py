# SPDX-License-Identifier: GPL-3.0-or-later
# Written from: CalibrationCurves 2.0.0 R/auc.nonpara.mw.R and R/ci.auc.R (read for the definitions; GPL-3.0-or-later), Pepe (2003), DeLong, DeLong & Clarke-Pearson (1988), Newcombe (2006), Qin & Hotilovac (2008)
"""Confidence intervals of the c-statistic as CalibrationCurves' ``ci.auc`` defines them.

The estimate is the Mann-Whitney probability ``P(x > y) + P(x = y) / 2``
(``x`` the predictions of the events, ``y`` those of the non-events),
counted by sorting (R forms all ``nx * ny`` pairs, which needs memory in
``n^2``); the intervals:

* ``"pepe"``: the logit-scale Wald interval with the rank-based variance of
  Pepe (2003), ``(nx + ny) S^2 / (nx ny)`` (Qin & Hotilovac 2008); ``c(1, 1, 1)``
  when the classes are separated;
* ``"delong"``: the Wald interval with DeLong et al.'s structural components;
* ``"newcombe"``: Newcombe's (2006) method 5, the real roots in (0, 1) of
  his quartic;
* ``"jackknife"``: the pseudo-value interval with Student's t.

Counts are exact integers; the sums R takes in long double are taken with
:func:`~pycalib_r.rbase._rarith.r_sum` / ``r_mean``.
"""

from __future__ import annotations

import math

import numpy as np

from ..inputs._checks import ProbcalError
from ..rbase._rarith import r_mean, r_sum
from ..rbase._warn import r_warning

__all__ = ["ci_auc"]

_METHODS = ("newcombe", "pepe", "delong", "jackknife", "bootstrapP", "bootstrapBCa")


def _qnorm(p: float) -> float:
    from ..rstats import qnorm_std as _qnorm_std
    return float(_qnorm_std(p))


def _counts(x: np.ndarray, y: np.ndarray):
    """For each ``y_j``: how many ``x`` are above it and how many equal it."""
    xs = np.sort(x)
    lo = np.searchsorted(xs, y, side="left")
    hi = np.searchsorted(xs, y, side="right")
    return xs.size - hi, hi - lo


def _auc(x: np.ndarray, y: np.ndarray) -> float:
    above, eq = _counts(x, y)
    num = 2 * int(above.sum()) + int(eq.sum())
    return num / (2 * x.size * y.size)  # Python's int division is correctly rounded


def _rank_avg(v: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata
    return rankdata(v, method="average")


def _s2(x: np.ndarray, y: np.ndarray, m: int, n: int) -> float:
    """``getS2mw``: the rank-based variance (``x`` of size ``m``, ``y`` of size ``n``)."""
    xi, yj = np.sort(x), np.sort(y)
    r = _rank_avg(np.concatenate([xi, yj]))
    ri, sj = r[:m], r[m:]
    # doubles, as R: one event or non-event gives 1/0 = Inf
    s102 = np.float64(1) / np.float64((m - 1) * n ** 2) * (r_sum((ri - np.arange(1, m + 1)) ** 2)
                                      - m * (r_mean(ri) - (m + 1) / 2) ** 2)
    s012 = np.float64(1) / np.float64((n - 1) * m ** 2) * (r_sum((sj - np.arange(1, n + 1)) ** 2)
                                      - n * (r_mean(sj) - (n + 1) / 2) ** 2)
    return (m * s012 + n * s102) / (m + n)


def _pepe(x, y, alpha):
    if np.max(y) < np.min(x):
        return [1.0, 1.0, 1.0]
    point = _auc(x, y)
    nx, ny = x.size, y.size
    z = _qnorm(1 - alpha / 2)
    with np.errstate(all="ignore"):
        var = np.float64((nx + ny) * _s2(y, x, ny, nx)) / np.float64(nx * ny)
        lg = np.log(np.float64(point) / (1 - np.float64(point)))
        half = z * np.sqrt(var) / (np.float64(point) * (1 - np.float64(point)))
        ll, ul = lg - half, lg + half
        return [point, float(np.exp(ll) / (1 + np.exp(ll))), float(np.exp(ul) / (1 + np.exp(ul)))]


def _delong(x, y, alpha):
    point = _auc(x, y)
    nx, ny = x.size, y.size
    z = _qnorm(1 - alpha / 2)
    above, eq = _counts(x, y)
    d10 = (2 * above + eq) / (2 * nx)
    below, eq2 = _counts(-y, -x)  # y values below each x_i
    d01 = (2 * below + eq2) / (2 * ny)
    with np.errstate(all="ignore"):
        # doubles, as R: one event or non-event gives 1/0 = Inf (and 0 * Inf = NaN)
        var = (np.float64(1) / np.float64(ny * (ny - 1)) * r_sum((d10 - point) ** 2)
               + np.float64(1) / np.float64(nx * (nx - 1)) * r_sum((d01 - point) ** 2))
        se = math.sqrt(var) if var >= 0 else math.nan
    return [point, point - z * se, point + z * se]


def _newcombe(x, y, alpha):
    point = _auc(x, y)
    m, n = y.size, x.size  # getAUCCImwu(point, z, ny, nx)
    z = _qnorm(1 - alpha / 2)
    nstar = mstar = (m + n) / 2 - 1
    a = -1 - nstar - mstar
    b = 1 + 2 * mstar
    c = 2 + nstar
    d = 1 + 2 * point
    ht2 = point ** 2
    e = 2 - 2 * point - ht2
    f = ht2 - 4 * point
    g = 2 * ht2
    z2 = z ** 2
    mn = m * n
    c5 = -mn + z2 * a
    c4 = mn * d - z2 * (a - b)
    c3 = mn * e - z2 * (b - c)
    c2 = mn * f - z2 * c
    c1 = mn * g
    roots = np.roots([c5, c4, c3, c2, c1])
    real = np.sort(np.array([r.real for r in roots if abs(r.imag) < 1.5e-8]))
    real = real[(real > 0) & (real < 1)]
    if real.size > 2:
        r_warning("There are three roots meet the requirement when computing\n"
                  "                the confidence interval.")
        ci = list(real)
    elif real.size == 1:
        ci = [real[0], 1.0] if real[0] <= point else [0.0, real[0]]
    elif real.size == 0:
        ci = [0.0, 1.0]
    else:
        ci = list(real)
    return [point] + [float(v) for v in ci]


def _jackknife(x, y, alpha):
    from scipy.stats import t as student_t  # no nmath qt in the package: scipy's, to ~1e-15
    nx, ny = x.size, y.size
    n = nx + ny
    hat = _auc(x, y)
    above, eq = _counts(x, y)
    below, eq2 = _counts(-y, -x)
    total2 = 2 * int(above.sum()) + int(eq.sum())
    # Leaving out x_i removes its 2 * below_i + eq_i from the doubled count.
    part_x = (total2 - (2 * below + eq2)) / (2 * (nx - 1) * ny)
    part_y = (total2 - (2 * above + eq)) / (2 * nx * (ny - 1))
    partial = np.concatenate([part_x, part_y])
    pseudo = n * hat - (n - 1) * partial
    point = r_mean(pseudo)
    st = math.sqrt(r_mean((pseudo - point) ** 2) / (n - 1))
    t = float(student_t.ppf(1 - alpha / 2, n - 1))
    return [point, point - t * st, point + t * st]


def ci_auc(crit: np.ndarray, pred: np.ndarray, conf_level: float = 0.95, method: str = "pepe"):
    """``CalibrationCurves:::ci.auc(crit, pred, conf.level, method)``: (estimate, lower, upper)."""
    if method not in _METHODS:
        raise ProbcalError("'arg' should be one of " + ", ".join(f"\u201c{m}\u201d" for m in _METHODS))
    if "bootstrap" in method:
        r_warning("Bootstrap-based methods are not supported by this package. "
                  "Method will be set to 'pepe'. \n\n")
        method = "pepe"
    x = pred[crit == 1]
    y = pred[crit == 0]
    alpha = 1 - conf_level
    return {"pepe": _pepe, "delong": _delong, "newcombe": _newcombe,
            "jackknife": _jackknife}[method](x, y, alpha)

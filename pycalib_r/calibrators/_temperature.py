"""Temperature scaling (binary and multiclass), optimised as R's ``optim(method = "Brent")``."""

from __future__ import annotations

import math
import warnings
from typing import Callable, Tuple

import numpy as np

from .._checks import (
    as_numeric_vector,
    check_binary_y,
    check_logit_matrix,
    check_multiclass_y,
    check_same_length,
    is_matrix,
)
from .._errors import ProbcalError
from ._base import (
    Calibrator,
    binary_log_loss,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    r_exp,
    rounded,
    softmax,
)

__all__ = ["cal_temperature", "CalTemperature", "brent_fmin", "optim_brent"]

_DBL_EPS = 2.220446049250313e-16
_DBL_MAX = 1.7976931348623157e308
_RELTOL = math.sqrt(_DBL_EPS)  # optim()'s default control$reltol
_LOWER = 1e-3
_UPPER = 1e3


def brent_fmin(ax: float, bx: float, f: Callable[[float], float], tol: float) -> float:
    """Brent's one-dimensional minimiser, step for step as R's ``Brent_fmin()``.

    R equivalent: the C routine behind ``optimize(f, c(ax, bx), tol = tol)``
    (``src/library/stats/src/optimize.c``); golden-section and parabolic steps
    and the stopping rule are R's, so the same objective gives the same ``x``.
    """
    c = (3.0 - math.sqrt(5.0)) * 0.5
    eps = math.sqrt(_DBL_EPS)
    a = ax
    b = bx
    v = a + c * (b - a)
    w = v
    x = v
    d = 0.0
    e = 0.0
    fx = f(x)
    fv = fx
    fw = fx
    tol3 = tol / 3.0
    while True:
        xm = (a + b) * 0.5
        tol1 = eps * abs(x) + tol3
        t2 = tol1 * 2.0
        if abs(x - xm) <= t2 - (b - a) * 0.5:
            break
        p = 0.0
        q = 0.0
        r = 0.0
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = (q - r) * 2.0
            if q > 0.0:
                p = -p
            else:
                q = -q
            r = e
            e = d
        if abs(p) >= abs(q * 0.5 * r) or p <= q * (a - x) or p >= q * (b - x):
            e = (b - x) if x < xm else (a - x)
            d = c * e
        else:
            d = p / q
            u = x + d
            if u - a < t2 or b - u < t2:
                d = tol1
                if x >= xm:
                    d = -d
        if abs(d) >= tol1:
            u = x + d
        elif d > 0.0:
            u = x + tol1
        else:
            u = x - tol1
        fu = f(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv = w, fw
                w, fw = u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return x


def optim_brent(fn: Callable[[float], float], lower: float, upper: float) -> Tuple[float, float, int]:
    """R ``optim(par, fn, method = "Brent", lower, upper)`` with default control.

    Returns ``(par, value, convergence)``; like R's ``do_fmin``, a non-finite
    objective is replaced by the largest double (with R's warning).
    """

    def guarded(x: float) -> float:
        val = float(fn(x))
        if not math.isfinite(val):
            warnings.warn("NA/Inf replaced by maximum positive value", RuntimeWarning, stacklevel=3)
            return _DBL_MAX
        return val

    par = brent_fmin(lower, upper, guarded, _RELTOL)
    return par, float(fn(par)), 0


class CalTemperature(Calibrator):
    """A fitted temperature-scaling calibrator.

    R class ``c("cal_temperature", "calibrator")`` for binary fits and
    ``c("cal_temperature", "cal_multiclass", "calibrator")`` for multiclass
    fits. Components (R order): ``method``, ``n``, ``input``,
    ``temperature``, ``value``, ``convergence``, then for multiclass ``k``
    and ``levels``, and ``call``.
    """

    r_class = "cal_temperature"

    def _predict(self, newdata):
        if self.inherits("cal_multiclass") or is_matrix(newdata):
            mat = check_logit_matrix(newdata, arg="newdata")
            k = self.get("k")
            if k is None:
                # R compares ncol(newdata) with a NULL `k` and `if ()` fails.
                raise ProbcalError("argument is of length zero")
            if mat.shape[1] != k:
                raise ProbcalError(
                    f"Argument `newdata` must have {k} column{'' if k == 1 else 's'}, one per class."
                )
            return softmax(mat / self.temperature)
        z = as_numeric_vector(newdata, arg="newdata")
        with np.errstate(over="ignore"):
            return 1 / (1 + r_exp(-(z / self.temperature)))

    def summary_params(self):
        return {"Temperature": rounded(self.temperature, 4)}


def _plogis(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1 / (1 + r_exp(-z))


def cal_temperature(logits, y) -> CalTemperature:
    """Temperature scaling: one positive temperature fitted by maximum likelihood.

    R equivalent: ``probcal::cal_temperature(logits, y)``.

    A vector of logits gives binary temperature scaling
    (``inv_logit(logits / T)``); a matrix (2-D array or DataFrame, one column
    per class) gives multiclass temperature scaling (``softmax(logits / T)``).
    ``T`` minimises the summed binary log loss (binary) or the mean multiclass
    log loss (multiclass) on ``[1e-3, 1e3]`` by R's Brent minimiser with
    ``tol = sqrt(.Machine$double.eps)``, so it is R's ``T``.

    Parameters
    ----------
    logits : array_like
        Binary: a vector of finite logits. Multiclass: an n x K matrix.
    y : array_like
        Binary: labels 0/1. Multiclass: integer codes 1..K or a pandas
        Categorical (column k is category k).

    Returns
    -------
    CalTemperature
        ``predict(fit, newdata)``: a vector of probabilities (binary) or an
        n x K matrix of class probabilities (multiclass; a DataFrame with the
        class levels as columns when ``newdata`` is a DataFrame).

    Examples
    --------
    >>> fit = cal_temperature([-2.0, -1.0, 0.5, 1.0, 2.0, -0.5], [0, 1, 1, 0, 1, 0])
    >>> fit.temperature > 1
    True
    """
    if is_matrix(logits):
        return _cal_temperature_multiclass(logits, y)
    z = as_numeric_vector(logits, arg="logits").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(z, y_arr, x_arg="logits", y_arg="y")

    def objective(temperature: float) -> float:
        return binary_log_loss(_plogis(z / temperature), y_arr)

    temperature, value, convergence = optim_brent(objective, _LOWER, _UPPER)
    if not math.isfinite(temperature) or temperature <= 0:
        raise ProbcalError("The fitted temperature must be positive and finite.")
    return new_calibrator(
        CalTemperature,
        method="temperature scaling",
        n=y_arr.size,
        input="logits",
        temperature=temperature,
        value=value,
        convergence=convergence,
        call=format_call("cal_temperature", ("logits", "y")),
    )


def _cal_temperature_multiclass(logits, y) -> CalTemperature:
    mat = check_logit_matrix(logits, arg="logits")
    labels = check_multiclass_y(y, n_classes=mat.shape[1], arg="y")
    if mat.shape[0] != labels.codes.size:
        raise ProbcalError("Arguments `logits` and `y` must have the same number of observations.")
    codes = labels.codes

    def objective(temperature: float) -> float:
        return multiclass_log_loss(softmax(mat / temperature), codes)

    temperature, value, convergence = optim_brent(objective, _LOWER, _UPPER)
    if not math.isfinite(temperature) or temperature <= 0:
        raise ProbcalError("The fitted temperature must be positive and finite.")
    return new_calibrator(
        CalTemperature,
        method="multiclass temperature scaling",
        n=mat.shape[0],
        input="logits (matrix)",
        temperature=temperature,
        value=value,
        convergence=convergence,
        k=labels.k,
        levels=list(labels.levels),
        call=format_call("cal_temperature", ("logits", "y")),
        _r_classes=("cal_temperature", "cal_multiclass", "calibrator"),
    )

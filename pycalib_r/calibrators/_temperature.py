"""Temperature scaling (binary and multiclass), optimised as R's ``optim(method = "Brent")``."""

from __future__ import annotations

import math

import numpy as np

from .._checks import (
    as_numeric_vector,
    check_binary_y,
    check_logit_matrix,
    check_newdata_columns,
    check_same_length,
    is_matrix,
    multiclass_labels,
)
from .._errors import ProbcalError
from ._base import (
    MULTICLASS,
    Calibrator,
    binary_log_loss,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    plogis,
    rounded,
    softmax,
)
from ._optim import optim_brent

__all__ = ["cal_temperature", "CalTemperature"]

# probcal's search interval for the temperature.
_LOWER = 1e-3
_UPPER = 1e3


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
            check_newdata_columns(mat, k)
            return softmax(mat / self.temperature)
        z = as_numeric_vector(newdata, arg="newdata")
        with np.errstate(over="ignore"):
            scaled = z / self.temperature
        # R's inv_logit() checks its argument: huge logits over a small
        # temperature overflow to +-Inf and are refused, as in R.
        return plogis(as_numeric_vector(scaled, arg="x"))

    def summary_params(self):
        return {"Temperature": rounded(self.temperature, 4)}


def _fit_temperature(objective):
    """R's ``optim(par = 1, objective, method = "Brent", lower = 1e-3, upper = 1e3)``
    and the check on its result, as both ``cal_temperature()`` branches make them.

    Returns ``(temperature, value, convergence)``.
    """
    temperature, value, convergence = optim_brent(objective, _LOWER, _UPPER)
    if not math.isfinite(temperature) or temperature <= 0:
        raise ProbcalError("The fitted temperature must be positive and finite.")
    return temperature, value, convergence


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
        return binary_log_loss(plogis(z / temperature), y_arr)

    temperature, value, convergence = _fit_temperature(objective)
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
    labels = multiclass_labels(mat, y, x_arg="logits")
    codes = labels.codes

    def objective(temperature: float) -> float:
        return multiclass_log_loss(softmax(mat / temperature), codes)

    temperature, value, convergence = _fit_temperature(objective)
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
        _r_classes=("cal_temperature",) + MULTICLASS,
    )

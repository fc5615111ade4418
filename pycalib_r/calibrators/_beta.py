"""Beta calibration (Kull, Silva Filho & Flach 2017), fitted as probcal fits it."""

from __future__ import annotations

import numpy as np

from .._checks import as_numeric_vector, check_binary_y, check_eps, check_probability, check_same_length
from ._base import (
    Calibrator,
    as_character,
    clip_eps,
    format_call,
    new_calibrator,
    plogis,
    r_log,
    r_log1p,
    rounded,
)
from ._platt import glm_binomial

__all__ = ["cal_beta", "CalBeta"]


class CalBeta(Calibrator):
    """A fitted beta calibrator (R class ``c("cal_beta", "calibrator")``).

    Components (R order): ``method``, ``n``, ``input``, ``coefficients``
    (dict with R's names ``"(Intercept)"``, ``"log_p"``, ``"log_1mp"``),
    ``a``, ``b``, ``c``, ``eps``, ``fit`` (:class:`~._platt.GlmFit`), ``call``.
    """

    r_class = "cal_beta"

    def _predict(self, newdata):
        p = check_probability(newdata, arg="newdata")
        check_eps(self.eps)
        p = clip_eps(p, self.eps)
        eta = self.a * r_log(p) - self.b * r_log1p(-p) + self.c
        eta = as_numeric_vector(eta, arg="x")  # R's inv_logit() input check
        return plogis(eta)

    def summary_params(self):
        return {
            "a": rounded(self.a, 4),
            "b": rounded(self.b, 4),
            "c": rounded(self.c, 4),
            "eps": as_character(self.eps),
        }


def cal_beta(p, y, eps=1e-15) -> CalBeta:
    """Beta calibration: ``inv_logit(a * log(p) - b * log(1 - p) + c)``.

    R equivalent: ``probcal::cal_beta(p, y, eps = 1e-15)``.

    Probabilities are clipped to ``[eps, 1 - eps]`` and an ordinary binomial
    GLM ``y ~ log_p + log_1mp`` is fitted (as R's ``glm()`` fits it, same
    iterations); ``a``, ``b``, ``c`` reparameterise its coefficients. Like
    R, no monotonicity constraint is imposed, and ``glm.fit``'s warnings
    (e.g. "glm.fit: fitted probabilities numerically 0 or 1 occurred") are
    passed on as ``RuntimeWarning``.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.
    eps : float
        Clipping constant in ``(0, 0.5)``.

    Returns
    -------
    CalBeta
        ``predict(fit, newdata)`` gives calibrated probabilities.

    Examples
    --------
    >>> fit = cal_beta([0.1, 0.3, 0.4, 0.6, 0.8, 0.2, 0.7], [0, 1, 0, 1, 1, 0, 0])
    >>> list(fit.coefficients)
    ['(Intercept)', 'log_p', 'log_1mp']
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    eps = check_eps(eps)
    p_clip = clip_eps(p_arr, eps)
    design = np.column_stack([np.ones(p_arr.size), r_log(p_clip), r_log1p(-p_clip)])
    fit = glm_binomial(design, y_arr.astype(np.float64), ["(Intercept)", "log_p", "log_1mp"], warn=True)
    coefs = dict(fit.coefficients)
    return new_calibrator(
        CalBeta,
        method="beta calibration",
        n=y_arr.size,
        input="probabilities",
        coefficients=coefs,
        a=coefs["log_p"],
        b=-coefs["log_1mp"],
        c=coefs["(Intercept)"],
        eps=eps,
        fit=fit,
        call=format_call("cal_beta", ("p", "y"), eps=None if eps == 1e-15 else eps),
    )

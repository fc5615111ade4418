# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/*.R (cal_beta) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Beta calibration (Kull, Silva Filho & Flach 2017), fitted as probcal fits it."""

from __future__ import annotations

import numpy as np

from ..inputs._checks import as_numeric_vector, check_binary_y, check_eps, check_probability, check_same_length
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
from ..inputs._weights import check_weights
from ._platt import design_matrix, glm_binomial
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

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


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_beta(p, y, eps=1e-15, weights=None) -> CalBeta:
    """Beta calibration: ``inv_logit(a * log(p) - b * log(1 - p) + c)``.

    R equivalent: ``probcal::cal_beta(p, y, eps = 1e-15)``.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.
    eps : float
        Clipping constant in ``(0, 0.5)``.
    weights : array_like, optional
        Python-only. Observation weights, R's ``glm(weights = )`` prior
        weights: finite, non-negative, positive sum, both classes keeping a
        positive total (else a ``ProbcalError`` naming ``weights``). A row
        of weight 0 changes nothing, a row of integer weight ``k`` counts as
        ``k`` copies of it (the same optimum; R's IRLS starts from
        ``(w y + 0.5) / (w + 1)``, so the two fits agree to its stop rule,
        not bit for bit); ``None`` (the default) is the unweighted fit, bit
        for bit. The weighted fit is R's ``glm(y ~ log_p + log_1mp, family =
        binomial(), weights = weights)``.

    Returns
    -------
    CalBeta
        Components ``method``, ``n``, ``input``, ``coefficients`` (the glm's,
        R names ``"(Intercept)"``, ``"log_p"``, ``"log_1mp"``), ``a``, ``b``,
        ``c``, ``eps``, ``fit`` (the :class:`GlmFit`), ``call``.
        ``predict(fit, newdata)`` gives calibrated probabilities.

    Notes
    -----
    Probabilities are clipped, ``p* = min(max(p, eps), 1 - eps)``, and the
    three-parameter beta map (Kull, Silva Filho & Flach 2017) is::

        q = inv_logit(a * log(p*) - b * log(1 - p*) + c)

    R fits it as the ordinary (unpenalised) binomial glm
    ``y ~ log_p + log_1mp`` with ``log_p = log(p*)`` and
    ``log_1mp = log1p(-p*)``, on the 0/1 labels themselves (no Platt target
    smoothing), so ``(g0, g1, g2)`` minimise
    ``-sum_i [y_i log q_i + (1 - y_i) log(1 - q_i)]`` for
    ``q_i = inv_logit(g0 + g1 log_p_i + g2 log_1mp_i)``, and
    ``a = g1``, ``b = -g2``, ``c = g0``. The fit is R's IRLS step for step
    (see :func:`cal_platt`), so the coefficients are R's. Unlike
    ``cal_platt()``, R does not silence ``glm.fit``: its warnings (e.g.
    "glm.fit: fitted probabilities numerically 0 or 1 occurred") are passed
    on as ``RuntimeWarning``. The same ``eps`` clips ``newdata`` in
    ``predict()``. The map is increasing on ``(0, 1)`` when ``a >= 0`` and
    ``b >= 0`` (its slope in ``p`` is ``a / p + b / (1 - p)`` on the logit
    scale); like R, no such constraint is imposed. ``a = b = 1, c = 0`` is
    the identity map, and ``a = b`` is logistic (Platt) calibration on
    ``logit(p)`` without the target smoothing.

    Other implementations: the authors' Python package ``betacal`` (1.1.0)
    fits the same model but enforces ``a, b >= 0`` by refitting without a
    feature whose coefficient came out negative, and also offers the
    two-parameter ``"ab"`` and ``"am"`` variants; probcal fits only the
    unconstrained three-parameter map, so the two agree whenever the
    unconstrained fit already has ``a, b >= 0``.

    References
    ----------
    Kull, M., Silva Filho, T. M., & Flach, P. (2017). Beta calibration: a
    well-founded and easily implemented improvement on logistic calibration
    for binary classifiers. In *Proceedings of the 20th International
    Conference on Artificial Intelligence and Statistics* (PMLR 54,
    pp. 623-631).

    Kull, M., Silva Filho, T. M., & Flach, P. (2017). Beyond sigmoids: How to
    obtain well-calibrated probabilities from binary classifiers with beta
    calibration. *Electronic Journal of Statistics*, 11(2), 5052-5080.
    doi:10.1214/17-EJS1338SI.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(3)
    >>> p = pc.runif(120)
    >>> y = pc.rbinom(120, 1, p ** 2)
    >>> fit = pc.cal_beta(p, y)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: beta calibration
    Observations: 120
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    a: 1.5907
    b: 2.0103
    c: -1.9215
    eps: 1e-15
    >>> print(" ".join(f"{v:.7g}" for v in fit.coefficients.values()))
    -1.92146 1.590666 -2.010337
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [0.1, 0.5, 0.9])))
    0.004622007 0.1637528 0.9268934

    R: ``set.seed(3); p <- runif(120); y <- rbinom(120, 1, p^2); fit <-
    cal_beta(p, y); summary(fit)`` prints the same text, ``coef(fit$fit)``
    and ``predict(fit, c(0.1, 0.5, 0.9))`` the same values.
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    eps = check_eps(eps)
    w = check_weights(weights, y_arr.size)
    if w is not None:
        from ._weighted import require_weighted_classes  # noqa: PLC0415
        require_weighted_classes(y_arr, w, (0, 1))
    p_clip = clip_eps(p_arr, eps)
    design = design_matrix([r_log(p_clip), r_log1p(-p_clip)])
    fit = glm_binomial(design, y_arr.astype(np.float64), ["(Intercept)", "log_p", "log_1mp"], warn=True,
                       weights=w)
    return beta_calibrator(fit, y_arr.size, eps, weighted=w is not None)


def beta_calibrator(fit, n: int, eps: float, weighted: bool = False) -> CalBeta:
    """The fitted ``cal_beta`` object from its glm fit (also the Dask face's)."""
    coefs = dict(fit.coefficients)
    return new_calibrator(
        CalBeta,
        method="beta calibration",
        n=n,
        input="probabilities",
        coefficients=coefs,
        a=coefs["log_p"],
        b=-coefs["log_1mp"],
        c=coefs["(Intercept)"],
        eps=eps,
        fit=fit,
        call=format_call("cal_beta", ("p", "y", "weights") if weighted else ("p", "y"),
                         eps=None if eps == 1e-15 else eps),
    )

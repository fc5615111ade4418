# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/*.R (cal_platt) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: R 4.2.2 src/library/stats/R/glm.R (GPL-2.0-or-later), (c) The R Core Team
"""Platt scaling: ``cal_platt()``, and the K one-vs-rest Platt fits of ``cal_ovr()``.

probcal fits Platt scaling with ``stats::glm(family = binomial())``: the fit
is :func:`~._glm.glm_binomial` (``glm.fit``'s IRLS step by step, on the
reference BLAS and LINPACK of :mod:`._linpack`), K fits at once in
:mod:`._glm_lockstep`. ``GlmFit``, ``glm_binomial`` and ``design_matrix``
are importable from here as before.
"""

from __future__ import annotations

from typing import List

import numpy as np

from ..inputs._checks import as_numeric_vector, check_binary_y, check_same_length
from ..inputs._weights import check_weights
from ._base import Calibrator, format_call, new_calibrator, plogis, r_sum, rounded
from ..rstats import GlmFit, design_matrix, glm_binomial  # noqa: F401 - re-exported
from ..rstats import glm_finish as _glm_finish
from ..rstats import glm_irls_columns as _glm_irls_columns
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_platt", "CalPlatt", "GlmFit", "glm_binomial", "design_matrix"]


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


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_platt(x, y, weights=None) -> CalPlatt:
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
    weights : array_like, optional
        Python-only. Observation weights, R's ``glm(weights = )`` prior
        weights: finite, non-negative, positive sum (else a ``ProbcalError``
        naming ``weights``). A row with weight 0 changes nothing, a row with
        integer weight ``k`` counts as ``k`` copies of it (Platt's counts
        ``n_+``, ``n_-`` become the weighted counts, as with copies; the
        same optimum, but R's IRLS starts from ``(w t + 0.5) / (w + 1)``, so
        the two fits agree to its stop rule, not bit for bit); both classes
        must keep a positive total weight. ``None`` (the default) is the
        unweighted fit, bit for bit. The weighted fit is R's
        ``glm(y_adj ~ x, family = binomial(), weights = weights)``.
        scikit-learn's sigmoid calibration (1.9) weights the counts the same
        way.

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
    w = check_weights(weights, y_arr.size)
    if w is not None:
        return _cal_platt_weighted(x_arr, y_arr, w)
    n_pos = int((y_arr == 1).sum())
    n_neg = int((y_arr == 0).sum())
    target_pos = (n_pos + 1) / (n_pos + 2)
    target_neg = 1 / (n_neg + 2)
    y_adj = np.where(y_arr == 1, target_pos, target_neg)
    design = design_matrix([x_arr])
    fit = glm_binomial(design, y_adj, ["(Intercept)", "x"], warn=False)
    return _platt_calibrator(fit, y_arr.size, target_pos, target_neg)


def _cal_platt_weighted(x_arr: np.ndarray, y_arr: np.ndarray, w: np.ndarray) -> CalPlatt:
    """Platt scaling with prior weights: weighted counts in the targets, R's weighted glm."""
    # Weighted counts (k copies of a row add k to its class's count); R's
    # sum() order, so integer weights give the counts of the copies exactly.
    from ._weighted import require_weighted_classes  # noqa: PLC0415

    require_weighted_classes(y_arr, w, (0, 1))
    n_pos = r_sum(w[y_arr == 1])
    n_neg = r_sum(w[y_arr == 0])
    target_pos = (n_pos + 1) / (n_pos + 2)
    target_neg = 1 / (n_neg + 2)
    y_adj = np.where(y_arr == 1, target_pos, target_neg)
    fit = glm_binomial(design_matrix([x_arr]), y_adj, ["(Intercept)", "x"], warn=False, weights=w)
    return _platt_calibrator(fit, y_arr.size, target_pos, target_neg, weighted=True)


def _platt_calibrator(fit: GlmFit, n: int, target_pos: float, target_neg: float,
                      weighted: bool = False) -> CalPlatt:
    return new_calibrator(
        CalPlatt,
        method="Platt scaling",
        n=n,
        input="scores or probabilities",
        coefficients=dict(fit.coefficients),
        fit=fit,
        target_pos=target_pos,
        target_neg=target_neg,
        call=format_call("cal_platt", ("x", "y", "weights") if weighted else ("x", "y")),
    )


platt_calibrator = _platt_calibrator  # the name other rooms import (public inside the package)


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

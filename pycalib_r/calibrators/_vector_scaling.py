# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/scaling.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Vector scaling: one scale and one bias per class on the logits, then the softmax.

R equivalent: ``probcal::cal_vector_scaling()`` (``R/scaling.R``), fitted with
``stats::optim(method = "BFGS")``. The fit runs R's BFGS on R's arithmetic
(see :mod:`._optim` for why), so scales, biases and predictions are R's.
"""

from __future__ import annotations

import numpy as np

from ..inputs._checks import check_logit_matrix, check_newdata_columns, multiclass_labels
from ..inputs._logit_input import warn_if_probabilities
from ._base import (
    MULTICLASS,
    Calibrator,
    as_character,
    col_sums,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    one_hot,
    r_round,
    softmax,
)
from ..inputs._weights import check_weights
from ..rstats import vmmin
from ._base import SoftmaxCache
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_vector_scaling", "CalVectorScaling"]


def _fit_vector_scaling(logits: np.ndarray, codes: np.ndarray, k: int, w=None):
    """The ``optim()`` call of R's ``cal_vector_scaling()``: BFGS from scales 1, biases 0."""
    n = logits.shape[0]
    targets = one_hot(codes, k)
    prob_of = SoftmaxCache(lambda par: logits * par[:k][np.newaxis, :] + par[k:][np.newaxis, :])

    def objective(par):
        return multiclass_log_loss(prob_of(par), codes)

    def gradient(par):
        resid = (prob_of(par) - targets) / n
        return np.concatenate([col_sums(resid * logits), col_sums(resid)])

    if w is not None:
        # The weighted mean log-likelihood and its gradient: each row's
        # residual scaled by w_i / sum(w) instead of 1 / n.
        from ._base import r_sum  # noqa: PLC0415
        from ._weighted import weighted_multiclass_log_loss  # noqa: PLC0415

        share = (w / r_sum(w))[:, np.newaxis]

        def objective(par):  # noqa: F811
            return weighted_multiclass_log_loss(prob_of(par), codes, w)

        def gradient(par):  # noqa: F811
            resid = (prob_of(par) - targets) * share
            return np.concatenate([col_sums(resid * logits), col_sums(resid)])

    start = np.concatenate([np.ones(k), np.zeros(k)])
    return vmmin(start, objective, gradient)


class CalVectorScaling(Calibrator):
    """A fitted vector-scaling calibrator.

    R class ``c("cal_vector_scaling", "cal_multiclass", "calibrator")``.
    Components (R order): ``method``, ``n``, ``input``, ``scale`` and
    ``bias`` (length-K arrays), ``value`` (the minimised mean negative
    log-likelihood), ``convergence`` (0, or 1 if BFGS hit ``maxit = 500``),
    ``k``, ``levels``, ``call``.
    """

    r_class = "cal_vector_scaling"

    def _predict(self, newdata):
        mat = check_logit_matrix(newdata, arg="newdata")
        check_newdata_columns(mat, self.k)
        # The fit's own warning for probabilities given as logits.
        warn_if_probabilities(mat, "predict", arg="newdata", matrix=True, step="taken")
        return softmax(mat * self.scale[np.newaxis, :] + self.bias[np.newaxis, :])

    def summary_params(self):
        return {
            "Scales": ", ".join(as_character(r_round(v, 3)) for v in self.scale),
            "Biases": ", ".join(as_character(r_round(v, 3)) for v in self.bias),
        }


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_vector_scaling(logits, y, weights=None) -> CalVectorScaling:
    """Vector scaling: a scale and a bias per class on the logits, then the softmax.

    R equivalent: ``probcal::cal_vector_scaling(logits, y)``.

    Parameters
    ----------
    logits : array_like or pandas.DataFrame
        n x K matrix of finite logits, one column per class.
    y : array_like or pandas.Categorical
        Integer class codes ``1..K`` (R's coding) or a pandas Categorical /
        categorical Series; column ``k`` of ``logits`` is code ``k`` or the
        ``k``-th category.
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive sum;
        else a ``ProbcalError`` naming ``weights``): BFGS minimises the
        weighted mean negative log-likelihood
        ``-sum_i w_i log q_(i, y_i) / sum_i w_i`` (gradient likewise). A row
        of weight 0 changes nothing, a row of integer weight ``k`` counts as
        ``k`` copies (the same objective up to the rounding of its sums, so
        the parameters agree to BFGS's ``reltol`` of 1.5e-8 on the
        objective, not bit for bit); ``None`` (the default) is R's fit, bit
        for bit.

    Returns
    -------
    CalVectorScaling
        Components ``method``, ``n``, ``input``, ``scale``, ``bias`` (length-K
        arrays), ``value`` (the minimised mean negative log-likelihood),
        ``convergence`` (0, or 1 if BFGS hit ``maxit = 500``), ``k``,
        ``levels``, ``call``. ``predict(fit, newdata)`` returns an n x K numpy
        array of probabilities, or a DataFrame with the class levels as
        columns (and ``newdata``'s index) when ``newdata`` is a DataFrame.

    Raises
    ------
    ProbcalError
        With R's message for a non-matrix, fewer than two columns, missing
        or infinite logits, bad labels, or a row-count mismatch.

    Notes
    -----
    With logits ``z_ik``, scales ``s_k`` and biases ``b_k``::

        eta_ik = s_k * z_ik + b_k
        q_ik = exp(eta_ik) / sum_l exp(eta_il)
        (s, b) = argmin  -(1/n) sum_i log(q_{i, y_i})

    with true-class probabilities clipped to ``[1e-15, 1 - 1e-15]``. This is
    Guo et al.'s (2017) vector scaling: matrix scaling ``softmax(W z + b)``
    restricted to a diagonal ``W``; one common scale and no bias is
    temperature scaling (``s_k = 1 / T``). The scales are unconstrained (a
    negative one is possible), and because they differ by class the
    predicted class can change. The biases are identified only up to a
    common constant; the returned ones are where R's optimiser stops.

    The fit is R's ``optim(c(rep(1, K), rep(0, K)), fn, gr, method =
    "BFGS", control = list(maxit = 500))`` with the analytic gradient
    ``d/ds_k = sum_i (q_ik - [y_i = k]) z_ik / n`` and
    ``d/db_k = sum_i (q_ik - [y_i = k]) / n``. The optimiser is a
    step-for-step port of R's ``vmmin`` run on R's floating-point arithmetic,
    so the returned parameters are R's (equal to the last bit in the parity
    fixtures), not merely another point near the optimum: BFGS stops once a
    step improves the objective by less than ``reltol = 1.5e-8`` relative,
    where the parameters are determined only to about ``1e-4``, so another
    optimiser would not reproduce R's numbers.

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *Proceedings of the 34th International
    Conference on Machine Learning* (PMLR 70, pp. 1321-1330).

    Examples
    --------
    R fills ``matrix(v, ncol = 3)`` column by column, hence ``order="F"``;
    ``max.col(m, ties.method = "first")`` is ``argmax + 1``.

    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(22)
    >>> logits = np.reshape(pc.rnorm(200 * 3), (200, 3), order="F")
    >>> noise = np.reshape(pc.rnorm(200 * 3), (200, 3), order="F")
    >>> labels = np.argmax(logits + noise, axis=1) + 1
    >>> fit = pc.cal_vector_scaling(logits, labels)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: vector scaling
    Observations: 200
    Input: logits (matrix)
    Classes: 3
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Scales: 1.232, 0.973, 1.256
    Biases: 0.113, -0.023, -0.09
    >>> print(" ".join(f"{v:.7g}" for v in fit.scale))
    1.231551 0.9728697 1.256227
    >>> for row in pc.predict(fit, logits[:2]):
    ...     print(" ".join(f"{v:.7g}" for v in row))
    0.191655 0.6283616 0.1799834
    0.7003462 0.003956952 0.2956969

    R: ``set.seed(22); logits <- matrix(rnorm(600), ncol = 3); labels <-
    max.col(logits + matrix(rnorm(600), ncol = 3), ties.method = "first");
    fit <- cal_vector_scaling(logits, labels); summary(fit)`` prints the
    same text; ``fit$scale`` and ``predict(fit, logits[1:2, ])`` are the same
    values.
    """
    mat = check_logit_matrix(logits, arg="logits")
    labels = multiclass_labels(mat, y, x_arg="logits")
    warn_if_probabilities(mat, "cal_vector_scaling", matrix=True)
    n, k = mat.shape
    w = check_weights(weights, n)
    par, value, convergence, _, _ = _fit_vector_scaling(mat, labels.codes, k, w)
    return new_calibrator(
        CalVectorScaling,
        method="vector scaling",
        n=n,
        input="logits (matrix)",
        scale=par[:k].copy(),
        bias=par[k:].copy(),
        value=value,
        convergence=convergence,
        k=k,
        levels=list(labels.levels),
        call=format_call("cal_vector_scaling", ("logits", "y", "weights") if w is not None else ("logits", "y")),
        _r_classes=("cal_vector_scaling",) + MULTICLASS,
    )

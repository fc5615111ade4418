"""Vector scaling: one scale and one bias per class on the logits, then the softmax.

R equivalent: ``probcal::cal_vector_scaling()`` (``R/scaling.R``), fitted with
``stats::optim(method = "BFGS")``. The fit runs R's BFGS on R's arithmetic
(see :mod:`._optim` for why), so scales, biases and predictions are R's.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_logit_matrix, check_newdata_columns, multiclass_labels
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
from ._optim import SoftmaxCache, vmmin

__all__ = ["cal_vector_scaling", "CalVectorScaling"]


def _fit_vector_scaling(logits: np.ndarray, codes: np.ndarray, k: int):
    """The ``optim()`` call of R's ``cal_vector_scaling()``: BFGS from scales 1, biases 0."""
    n = logits.shape[0]
    targets = one_hot(codes, k)
    prob_of = SoftmaxCache(lambda par: logits * par[:k][np.newaxis, :] + par[k:][np.newaxis, :])

    def objective(par):
        return multiclass_log_loss(prob_of(par), codes)

    def gradient(par):
        resid = (prob_of(par) - targets) / n
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
        return softmax(mat * self.scale[np.newaxis, :] + self.bias[np.newaxis, :])

    def summary_params(self):
        return {
            "Scales": ", ".join(as_character(r_round(v, 3)) for v in self.scale),
            "Biases": ", ".join(as_character(r_round(v, 3)) for v in self.bias),
        }


def cal_vector_scaling(logits, y) -> CalVectorScaling:
    """Vector scaling: a scale and a bias per class on the logits, then the softmax.

    R equivalent: ``probcal::cal_vector_scaling(logits, y)``.

    Calibrated probabilities are ``softmax(logits * s + b)`` with one scale
    ``s_k`` and one bias ``b_k`` per class (column), fitted by minimising the
    mean multiclass negative log-likelihood (true-class probabilities clipped
    to ``[1e-15, 1 - 1e-15]``) with R's BFGS (``optim(method = "BFGS")``,
    analytic gradient, start ``s = 1``, ``b = 0``, ``maxit = 500``, default
    ``reltol``). The optimiser is a step-for-step port of R's ``vmmin`` run on
    R's floating-point arithmetic, so the returned parameters are R's (equal
    to the last bit in our parity tests), not merely another point near the
    optimum: BFGS stops once a step improves the objective by less than
    ``1.5e-8`` relative, where parameters are only determined to about
    ``1e-4``, so a different optimiser would not reproduce R.

    Parameters
    ----------
    logits : array_like or pandas.DataFrame
        n x K matrix of finite logits, one column per class.
    y : array_like or pandas.Categorical
        Integer class codes ``1..K`` (R's coding) or a pandas Categorical /
        categorical Series; column ``k`` of ``logits`` is code ``k`` or the
        ``k``-th category.

    Returns
    -------
    CalVectorScaling
        ``scale``, ``bias``, ``value``, ``convergence``, ``k``, ``levels``.
        ``predict(fit, newdata)`` returns an n x K numpy array of
        probabilities, or a DataFrame with the class levels as columns (and
        ``newdata``'s index) when ``newdata`` is a DataFrame.

    Raises
    ------
    ProbcalError
        With R's message for a non-matrix, fewer than two columns, missing
        or infinite logits, bad labels, or a row-count mismatch.

    Examples
    --------
    >>> import numpy as np
    >>> logits = np.array([[2.0, 0.1, -1.0], [0.2, 1.5, 0.3], [-0.5, 0.0, 1.2],
    ...                    [1.0, 0.9, -0.2], [0.1, -0.3, 0.8], [0.4, 1.1, 0.0]])
    >>> fit = cal_vector_scaling(logits, [1, 2, 3, 2, 3, 1])
    >>> fit.predict(logits).shape
    (6, 3)
    """
    mat = check_logit_matrix(logits, arg="logits")
    labels = multiclass_labels(mat, y, x_arg="logits")
    n, k = mat.shape
    par, value, convergence, _, _ = _fit_vector_scaling(mat, labels.codes, k)
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
        call=format_call("cal_vector_scaling", ("logits", "y")),
        _r_classes=("cal_vector_scaling",) + MULTICLASS,
    )

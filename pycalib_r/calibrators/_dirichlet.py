"""Dirichlet calibration: multinomial logistic regression on log-probabilities with the ODIR penalty.

R equivalent: ``probcal::cal_dirichlet()`` (``R/scaling.R``) with the
internal ``fit_multinomial()`` (``R/multiclass.R``) and
``select_dirichlet_lambda()``.

Each fit runs R's BFGS on R's arithmetic (see :mod:`._optim` for why), so
weights, biases, the selected ``lambda`` and predictions are R's.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._checks import (
    ProbcalError,
    check_eps,
    check_newdata_columns,
    check_prob_matrix,
    multiclass_labels,
)
from ._base import (
    MULTICLASS,
    Calibrator,
    as_character,
    clip_eps,
    col_sums,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    one_hot,
    r_log,
    r_sum,
    softmax,
)
from ._optim import SoftmaxCache, vmmin

__all__ = ["cal_dirichlet", "CalDirichlet", "fit_multinomial"]

# select_dirichlet_lambda()'s grid, and its value when a class has fewer than 2 rows.
_LAMBDA_GRID = (0.0, 1e-4, 1e-3, 1e-2, 1e-1)
_LAMBDA_FALLBACK = 1e-3
_LAMBDA_MESSAGE = "Argument `lambda` must be `NULL` or a single non-negative number."


def matprod_t(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """R ``x %*% t(w)`` in the reference BLAS order (``dgemm``/``dgemv``).

    Each entry is a double-precision sum over the inner index taken in
    order, which is what the reference BLAS that R uses on Debian computes.
    """
    out = x[:, 0:1] * w[:, 0][np.newaxis, :]
    for col in range(1, x.shape[1]):
        out = out + x[:, col:col + 1] * w[:, col][np.newaxis, :]
    return out


def _crossprod_seq(resid: np.ndarray, features: np.ndarray) -> np.ndarray:
    """R ``t(resid) %*% features`` in reference ``dgemm`` order: rows added one by one in double."""
    products = resid[:, :, np.newaxis] * features[:, np.newaxis, :]
    return np.cumsum(products, axis=0)[-1]


def fit_multinomial(features: np.ndarray, codes: np.ndarray, k: int, lambda_: float = 0.0):
    """Softmax regression of 1-based ``codes`` on ``features`` with the ODIR penalty.

    R equivalent: probcal's internal ``fit_multinomial(features, codes, k, lambda)``.

    The objective is the mean negative log-likelihood plus, when
    ``lambda_ > 0``, ``lambda_`` times the sum of squared off-diagonal
    weights (all weights if ``features`` is not ``k`` columns wide) and
    squared biases. It is minimised by R's BFGS from ``W = I`` (zeros if not
    square) and ``b = 0`` with ``maxit = 500``.

    Returns
    -------
    tuple
        ``(weight, bias, value, convergence)``: the ``k x p`` weight matrix
        (row ``k`` gives class ``k``'s logit), the bias vector, the minimised
        objective and ``optim``'s convergence code.
    """
    n, p = features.shape
    targets = one_hot(codes, k)
    mask = 1.0 - np.eye(k) if p == k else None
    nw = k * p
    two_lambda = 2 * lambda_
    penalise = lambda_ > 0

    def unpack(par):
        # R's matrix(par[1:(k * p)], k, p) fills column by column.
        return par[:nw].reshape((k, p), order="F"), par[nw:nw + k]

    def logits_of(par):
        weight, bias = unpack(par)
        return matprod_t(features, weight) + bias[np.newaxis, :]

    prob_of = SoftmaxCache(logits_of)

    def objective(par):
        value = multiclass_log_loss(prob_of(par), codes)
        if penalise:
            weight, bias = unpack(par)
            penalized = weight if mask is None else weight * mask
            value = value + lambda_ * (r_sum(penalized.ravel(order="F") ** 2) + r_sum(bias ** 2))
        return value

    def gradient(par):
        resid = (prob_of(par) - targets) / n
        grad_weight = _crossprod_seq(resid, features)
        grad_bias = col_sums(resid)
        if penalise:
            weight, bias = unpack(par)
            penalized = weight if mask is None else weight * mask
            grad_weight = grad_weight + two_lambda * penalized
            grad_bias = grad_bias + two_lambda * bias
        return np.concatenate([grad_weight.ravel(order="F"), grad_bias])

    start_weight = np.eye(k) if p == k else np.zeros((k, p))
    start = np.concatenate([start_weight.ravel(order="F"), np.zeros(k)])
    par, value, convergence, _, _ = vmmin(start, objective, gradient)
    weight, bias = unpack(par)
    return weight.copy(), bias.copy(), value, convergence


def _select_lambda(features: np.ndarray, codes: np.ndarray, k: int) -> float:
    """R ``select_dirichlet_lambda()``: the grid value with the smallest held-out log-loss.

    Folds: ``min(3, smallest class count)``; within each class the rows are
    dealt to folds 1, 2, 3, 1, ... in their order of appearance, so no random
    numbers are drawn. The score of a grid value is the unweighted mean over
    folds of the held-out mean negative log-likelihood; ties go to the first.
    """
    classes, counts = np.unique(codes, return_counts=True)
    folds = min(3, int(counts.min()))
    if folds < 2:
        return _LAMBDA_FALLBACK
    fold_id = np.zeros(codes.size, dtype=np.int64)
    for cls in classes:
        idx = np.flatnonzero(codes == cls)
        fold_id[idx] = np.arange(idx.size) % folds + 1
    scores = []
    for lam in _LAMBDA_GRID:
        total = 0.0
        for fold in range(1, folds + 1):
            train = fold_id != fold
            test = ~train
            weight, bias, _, _ = fit_multinomial(features[train], codes[train], k, lambda_=lam)
            logits = matprod_t(features[test], weight) + bias[np.newaxis, :]
            total = total + multiclass_log_loss(softmax(logits), codes[test])
        scores.append(total / folds)
    # which.min(): the first minimum wins.
    return _LAMBDA_GRID[int(np.argmin(scores))]


def _check_lambda(value):
    """R's ``lambda`` check; returns the value as stored (int stays int, as R keeps ``5L``)."""
    if value is None:
        return None
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iuf":
        value = value.reshape(-1)[0]
    elif isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ProbcalError(_LAMBDA_MESSAGE)
    if isinstance(value, numbers.Integral):
        if value < 0:
            raise ProbcalError(_LAMBDA_MESSAGE)
        return int(value)
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ProbcalError(_LAMBDA_MESSAGE)
    return value


class CalDirichlet(Calibrator):
    """A fitted Dirichlet calibrator.

    R class ``c("cal_dirichlet", "cal_multiclass", "calibrator")``.
    Components (R order): ``method``, ``n``, ``input``, ``weight`` (K x K;
    row k gives class k's logit), ``bias`` (length K), ``lambda`` (the
    attribute is ``lambda_``; ``fit["lambda"]`` also works), ``eps``,
    ``value`` (penalised objective at the optimum), ``convergence``, ``k``,
    ``levels``, ``call``.
    """

    r_class = "cal_dirichlet"

    @property
    def lambda_(self):
        """R's ``lambda`` component (``lambda`` is a Python keyword; ``fit["lambda"]`` also works)."""
        return self.__dict__["lambda"]

    def _predict(self, newdata):
        mat = check_prob_matrix(newdata, arg="newdata")
        check_newdata_columns(mat, self.k)
        features = r_log(clip_eps(mat, self.eps))
        return softmax(matprod_t(features, self.weight) + self.bias[np.newaxis, :])

    def summary_params(self):
        return {"Lambda": as_character(self.lambda_)}


def cal_dirichlet(p, y, lambda_=None, eps=1e-12, **kwargs) -> CalDirichlet:
    """Dirichlet calibration: a linear map of log-probabilities followed by the softmax.

    R equivalent: ``probcal::cal_dirichlet(p, y, lambda = NULL, eps = 1e-12)``.

    Calibrated probabilities are ``softmax(log(p*) %*% t(W) + b)`` with
    ``p* = pmin(pmax(p, eps), 1 - eps)``, a K x K weight matrix ``W`` and
    biases ``b``, fitted by minimising the mean negative log-likelihood plus
    the ODIR penalty ``lambda * (sum of squared off-diagonal W + sum b^2)``
    with R's BFGS (start ``W = I``, ``b = 0``, ``maxit = 500``), run on R's
    arithmetic so that the fitted values are R's (see
    :mod:`pycalib_r.calibrators._optim` for why this matters with BFGS).

    With ``lambda_=None``, ``lambda`` is chosen from ``0, 1e-4, 1e-3, 1e-2,
    1e-1`` by held-out log-likelihood on ``min(3, smallest class count)``
    deterministic stratified folds (rows dealt to folds in order within each
    class; no random numbers); ``1e-3`` if a class has fewer than two rows.
    With ``lambda = 0`` the parameters are not identified (adding the same
    linear function to every class logit changes nothing); the probabilities
    are, and the parameters are R's because the path is.

    Parameters
    ----------
    p : array_like or pandas.DataFrame
        n x K matrix of probabilities in ``[0, 1]``, rows summing to 1 within
        ``1e-6``.
    y : array_like or pandas.Categorical
        Integer class codes ``1..K`` or a pandas Categorical (column ``k`` is
        the ``k``-th category).
    lambda_ : float, optional
        R's ``lambda`` (a Python keyword, so ``lambda_``; ``**{"lambda": v}``
        is also accepted): a single non-negative number, or None to select it.
    eps : float, default 1e-12
        Clipping constant in ``(0, 0.5)`` applied before the logarithm.

    Returns
    -------
    CalDirichlet
        ``weight``, ``bias``, ``lambda_`` (``fit["lambda"]``), ``eps``,
        ``value``, ``convergence``, ``k``, ``levels``. ``predict(fit,
        newdata)`` returns an n x K numpy array, or a DataFrame with the class
        levels as columns when ``newdata`` is a DataFrame.

    Raises
    ------
    ProbcalError
        R's messages for an invalid probability matrix or labels, a row-count
        mismatch, a negative or non-numeric ``lambda`` and an ``eps`` outside
        ``(0, 0.5)``.
    TypeError
        An unknown keyword argument, or both ``lambda_`` and ``lambda``.

    Examples
    --------
    >>> import numpy as np
    >>> p = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6],
    ...               [0.5, 0.4, 0.1], [0.3, 0.3, 0.4], [0.2, 0.6, 0.2]])
    >>> fit = cal_dirichlet(p, [1, 2, 3, 2, 3, 1], lambda_=0.01)
    >>> fit["lambda"]
    0.01
    """
    lambda_given = "lambda" in kwargs
    if lambda_given:
        if lambda_ is not None:
            raise TypeError("cal_dirichlet() got both `lambda_` and `lambda`")
        lambda_ = kwargs.pop("lambda")
    if kwargs:
        raise TypeError(f"cal_dirichlet() got an unexpected keyword argument {next(iter(kwargs))!r}")
    mat = check_prob_matrix(p, arg="p")
    labels = multiclass_labels(mat, y, x_arg="p")
    lam_given = _check_lambda(lambda_)
    eps_value = check_eps(eps)
    k = mat.shape[1]
    features = r_log(clip_eps(mat, eps_value))
    lam = _select_lambda(features, labels.codes, k) if lam_given is None else lam_given
    weight, bias, value, convergence = fit_multinomial(features, labels.codes, k, lambda_=lam)
    return new_calibrator(
        CalDirichlet,
        method="Dirichlet calibration",
        n=mat.shape[0],
        input="probabilities (matrix)",
        weight=weight,
        bias=bias,
        **{"lambda": lam},
        eps=eps_value,
        value=value,
        convergence=convergence,
        k=k,
        levels=list(labels.levels),
        call=format_call("cal_dirichlet", ("p", "y"), **{"lambda": lam_given},
                         eps=None if eps_value == 1e-12 else eps_value),
        _r_classes=("cal_dirichlet",) + MULTICLASS,
    )

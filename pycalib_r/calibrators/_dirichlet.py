"""Dirichlet calibration (multinomial logistic regression on log-probabilities, ODIR penalty).

R equivalent: ``probcal::cal_dirichlet()`` (``R/scaling.R``) and the
internal ``fit_multinomial()`` and ``select_dirichlet_lambda()``.

The fit runs R's BFGS on R's arithmetic (see :mod:`._vector_scaling` for
why), so parameters and predictions are R's, not merely close to the optimum.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._checks import ProbcalError, check_eps, check_multiclass_y, check_prob_matrix
from ._vector_scaling import (
    _log,
    _matprod_t,
    _multiclass_log_loss,
    _one_hot,
    _r_sum,
    _softmax,
    _vmmin,
)

__all__ = ["cal_dirichlet"]

# R's select_dirichlet_lambda() grid and its fallback when a class has < 2 rows.
_LAMBDA_GRID = (0.0, 1e-4, 1e-3, 1e-2, 1e-1)
_LAMBDA_FALLBACK = 1e-3


def _crossprod_seq(resid: np.ndarray, features: np.ndarray) -> np.ndarray:
    """R ``t(resid) %*% features`` in reference ``dgemm`` order: rows added one by one in double."""
    products = resid[:, :, np.newaxis] * features[:, np.newaxis, :]
    return np.cumsum(products, axis=0)[-1]


def _fit_multinomial(features: np.ndarray, codes: np.ndarray, k: int, lambda_: float = 0.0):
    """R ``fit_multinomial()``: softmax regression with the ODIR penalty, by BFGS from ``W = I``, ``b = 0``.

    Returns ``(weight, bias, value, convergence)``. ``features`` has ``k``
    columns here (log-probabilities), so the off-diagonal mask always applies.
    """
    n, p = features.shape
    targets = _one_hot(codes, k)
    offdiag = 1.0 - np.eye(k) if p == k else None
    nw = k * p
    two_lambda = 2 * lambda_

    def unpack(par):
        # R's matrix(par[1:(k*p)], k, p) fills column by column.
        return par[:nw].reshape((k, p), order="F"), par[nw:nw + k]

    def logits_of(weight, bias):
        return _matprod_t(features, weight) + bias[np.newaxis, :]

    def penalized_of(weight):
        return weight if offdiag is None else weight * offdiag

    def objective(par):
        weight, bias = unpack(par)
        value = _multiclass_log_loss(_softmax(logits_of(weight, bias)), codes)
        if lambda_ > 0:
            penalized = penalized_of(weight)
            value = value + lambda_ * (_r_sum(penalized.ravel(order="F") ** 2) + _r_sum(bias ** 2))
        return value

    def gradient(par):
        weight, bias = unpack(par)
        prob = _softmax(logits_of(weight, bias))
        resid = (prob - targets) / n
        grad_weight = _crossprod_seq(resid, features)
        grad_bias = np.cumsum(resid.astype(np.longdouble), axis=0)[-1].astype(np.float64)
        if lambda_ > 0:
            penalized = penalized_of(weight)
            grad_weight = grad_weight + two_lambda * penalized
            grad_bias = grad_bias + two_lambda * bias
        return np.concatenate([grad_weight.ravel(order="F"), grad_bias])

    start_weight = np.eye(k) if p == k else np.zeros((k, p))
    start = np.concatenate([start_weight.ravel(order="F"), np.zeros(k)])
    par, value, convergence, _, _ = _vmmin(start, objective, gradient)
    weight, bias = unpack(par)
    return weight.copy(), bias.copy(), value, convergence


def _select_lambda(features: np.ndarray, codes: np.ndarray, k: int) -> float:
    """R ``select_dirichlet_lambda()``: grid search by held-out log-loss over deterministic folds.

    Within each class the rows are dealt to folds 1, 2, ..., in their order
    of appearance, so no random numbers are drawn.
    """
    _, counts = np.unique(codes, return_counts=True)
    folds = min(3, int(counts.min()))
    if folds < 2:
        return _LAMBDA_FALLBACK
    fold_id = np.zeros(codes.size, dtype=np.int64)
    for cls in np.unique(codes):
        idx = np.flatnonzero(codes == cls)
        fold_id[idx] = np.arange(idx.size) % folds + 1
    scores = []
    for lam in _LAMBDA_GRID:
        total = 0.0
        for fold in range(1, folds + 1):
            train = fold_id != fold
            test = ~train
            weight, bias, _, _ = _fit_multinomial(features[train], codes[train], k, lambda_=lam)
            logits = _matprod_t(features[test], weight) + bias[np.newaxis, :]
            total = total + _multiclass_log_loss(_softmax(logits), codes[test])
        scores.append(total / folds)
    # which.min(): the first minimum wins ties.
    return _LAMBDA_GRID[int(np.argmin(scores))]

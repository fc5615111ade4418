# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/scaling.R, R/multiclass.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
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

from ..inputs._checks import (
    ProbcalError,
    check_eps,
    check_newdata_columns,
    check_prob_matrix,
    multiclass_labels,
)
from ..inputs._weights import check_weights
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
from ..rstats import seq_colsums, vmmin
from ._base import SoftmaxCache
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_dirichlet", "CalDirichlet", "fit_multinomial"]

# select_dirichlet_lambda()'s grid, and its value when a class has fewer than 2 rows.
_LAMBDA_GRID = (0.0, 1e-4, 1e-3, 1e-2, 1e-1)
_LAMBDA_FALLBACK = 1e-3
# Largest n * p * k products array matprod_t builds in one piece (8 MB).
_PRODUCTS_AT_ONCE = 1 << 20
_LAMBDA_MESSAGE = "Argument `lambda` must be `NULL` or a single non-negative number."


def matprod_t(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """R ``x %*% t(w)`` in the reference BLAS order (``dgemm``/``dgemv``).

    Each entry is a double-precision sum over the inner index taken in
    order, which is what the reference BLAS that R uses on Debian computes.
    """
    if x.shape[0] * x.shape[1] * w.shape[0] <= _PRODUCTS_AT_ONCE:
        # All products at once as (inner, k, n), summed in order over the
        # inner index; n is the long contiguous axis of the multiply.
        xt = np.ascontiguousarray(x.T)
        return seq_colsums(w.T[:, :, np.newaxis] * xt[:, np.newaxis, :]).T
    out = x[:, 0:1] * w[:, 0][np.newaxis, :]
    for col in range(1, x.shape[1]):
        out = out + x[:, col:col + 1] * w[:, col][np.newaxis, :]
    return out


def _crossprod_seq(resid: np.ndarray, features: np.ndarray) -> np.ndarray:
    """R ``t(resid) %*% features`` in reference ``dgemm`` order: rows added one by one in double."""
    return seq_colsums(resid[:, :, np.newaxis] * features[:, np.newaxis, :])


def fit_multinomial(features: np.ndarray, codes: np.ndarray, k: int, lambda_: float = 0.0,
                    weights=None):
    """Softmax regression of 1-based ``codes`` on ``features`` with the ODIR penalty.

    R equivalent: probcal's internal ``fit_multinomial(features, codes, k, lambda)``.

    The objective is the mean negative log-likelihood plus, when
    ``lambda_ > 0``, ``lambda_`` times the sum of squared off-diagonal
    weights (all weights if ``features`` is not ``k`` columns wide) and
    squared biases. It is minimised by R's BFGS from ``W = I`` (zeros if not
    square) and ``b = 0`` with ``maxit = 500``. ``weights`` (Python-only;
    checked by the caller) makes the likelihood term the weighted mean.

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

    if weights is not None:
        # The weighted mean negative log-likelihood: each row's residual
        # scaled by w_i / sum(w) instead of 1 / n; the penalty as before.
        from ._weighted import weighted_multiclass_log_loss  # noqa: PLC0415

        share = (weights / r_sum(weights))[:, np.newaxis]

    def objective(par):
        if weights is None:
            value = multiclass_log_loss(prob_of(par), codes)
        else:
            value = weighted_multiclass_log_loss(prob_of(par), codes, weights)
        if penalise:
            weight, bias = unpack(par)
            penalized = weight if mask is None else weight * mask
            value = value + lambda_ * (r_sum(penalized.ravel(order="F") ** 2) + r_sum(bias ** 2))
        return value

    def gradient(par):
        # 1 / n as a division (R's bits when unweighted), w_i / sum(w) as a product.
        resid = (prob_of(par) - targets) / n if weights is None else (prob_of(par) - targets) * share
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


def _select_lambda(features: np.ndarray, codes: np.ndarray, k: int, weights=None) -> float:
    """R ``select_dirichlet_lambda()``: the grid value with the smallest held-out log-loss.

    Folds: ``min(3, smallest class count)``; within each class the rows are
    dealt to folds 1, 2, 3, 1, ... in their order of appearance, so no random
    numbers are drawn. The score of a grid value is the unweighted mean over
    folds of the held-out mean negative log-likelihood; ties go to the first.
    """
    if weights is not None:
        # Rows of weight 0 take no part: folds are dealt among the others,
        # which keep their weights in the fits and the held-out losses.
        keep = weights > 0
        features, codes, weights = features[keep], codes[keep], weights[keep]
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
            weight, bias, _, _ = fit_multinomial(features[train], codes[train], k, lambda_=lam,
                                                 weights=None if weights is None else weights[train])
            logits = matprod_t(features[test], weight) + bias[np.newaxis, :]
            if weights is None:
                total = total + multiclass_log_loss(softmax(logits), codes[test])
            else:
                from ._weighted import weighted_multiclass_log_loss  # noqa: PLC0415
                total = total + weighted_multiclass_log_loss(softmax(logits), codes[test], weights[test])
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


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_dirichlet(p, y, lambda_=None, eps=1e-12, weights=None, **kwargs) -> CalDirichlet:
    """Dirichlet calibration: a linear map of log-probabilities followed by the softmax.

    R equivalent: ``probcal::cal_dirichlet(p, y, lambda = NULL, eps = 1e-12)``.

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
        is also accepted): a single non-negative number, or None to select it
        (see Notes).
    eps : float, default 1e-12
        Clipping constant in ``(0, 0.5)`` applied before the logarithm.
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive sum;
        else a ``ProbcalError`` naming ``weights``): the likelihood term is
        the weighted mean ``-sum_i w_i log q_(i, y_i) / sum_i w_i`` (the
        penalty unchanged). With ``lambda_=None`` the folds of the selection
        are dealt among the rows of positive weight, each keeping its weight
        in the fits and the held-out losses. A row of weight 0 changes
        nothing; a row of integer weight ``k`` counts as ``k`` copies for a
        given ``lambda_`` (agreeing to BFGS's ``reltol``, 1.5e-8 on the
        objective, not bit for bit), while the selection deals its folds
        over rows, not copies. ``None`` (the default) is R's fit, bit for
        bit.

    Returns
    -------
    CalDirichlet
        Components ``method``, ``n``, ``input``, ``weight`` (K x K; row ``k``
        gives class ``k``'s logit), ``bias``, ``lambda`` (attribute
        ``lambda_``; ``fit["lambda"]``), ``eps``, ``value`` (the penalised
        objective at the optimum), ``convergence``, ``k``, ``levels``,
        ``call``. ``predict(fit, newdata)`` returns an n x K numpy array, or a
        DataFrame with the class levels as columns when ``newdata`` is a
        DataFrame.

    Raises
    ------
    ProbcalError
        R's messages for an invalid probability matrix or labels, a row-count
        mismatch, a negative or non-numeric ``lambda`` and an ``eps`` outside
        ``(0, 0.5)``.
    TypeError
        An unknown keyword argument, or both ``lambda_`` and ``lambda``.

    Notes
    -----
    The features are ``u_ik = log(p*_ik)`` with
    ``p* = pmin(pmax(p, eps), 1 - eps)`` (not renormalised; the softmax
    normalises), and the model is a multinomial logistic regression on them::

        eta_ik = b_k + sum_l W_kl * u_il
        q_ik = exp(eta_ik) / sum_m exp(eta_im)

    For a given ``lambda`` the parameters minimise the mean negative
    log-likelihood plus the off-diagonal and intercept (ODIR) penalty::

        -(1/n) sum_i log(q_{i, y_i}) + lambda * (sum_{k != l} W_kl^2 + sum_k b_k^2)

    (true-class probabilities clipped to ``[1e-15, 1 - 1e-15]``; the diagonal
    of ``W`` is not penalised). The fit is R's BFGS (``optim(method =
    "BFGS", control = list(maxit = 500))``, analytic gradient, start
    ``W = I``, ``b = 0``) run on R's arithmetic, so the fitted values are R's
    (see :mod:`pycalib_r.rstats._optim` for why that takes a port of
    ``vmmin``). ``W = I, b = 0`` is the identity map, and a diagonal ``W``
    with equal entries ``1 / T`` is temperature scaling on ``log(p)``.

    With ``lambda_=None`` (R's ``lambda = NULL``), ``lambda`` is the value of
    the grid ``0, 1e-4, 1e-3, 1e-2, 1e-1`` with the smallest cross-validated
    log loss. The folds are ``min(3, smallest class count)`` and
    deterministic: within each class the rows are dealt to folds 1, 2, 3, 1,
    ... in their order in the data, so no random numbers are drawn. A grid
    value's score is the unweighted mean over folds of the held-out mean
    negative log-likelihood (unpenalised); the first minimum wins; ``1e-3``
    is used without fitting if a class has fewer than two rows. With
    ``lambda = 0`` the parameters are not identified (adding the same linear
    function of ``u`` to every class logit changes nothing); the
    probabilities are, and the parameters are R's because the path is.

    Other implementations: Kull et al. (2019) give the two ODIR terms
    separate strengths (``lambda`` for the off-diagonal weights, averaged
    over their ``K (K - 1)`` entries, and ``mu`` for the intercepts, averaged
    over ``K``) and tune both; probcal uses one unaveraged ``lambda`` for
    both sums, so its ``lambda`` is not on the paper's scale.

    References
    ----------
    Kull, M., Perello-Nieto, M., Kängsepp, M., Silva Filho, T., Song, H., &
    Flach, P. (2019). Beyond temperature scaling: Obtaining well-calibrated
    multi-class probabilities with Dirichlet calibration. In *Advances in
    Neural Information Processing Systems 32* (NeurIPS 2019,
    pp. 12316-12326).

    Examples
    --------
    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(23)
    >>> prob = np.reshape(pc.runif(200 * 3), (200, 3), order="F")
    >>> prob = prob / prob.sum(axis=1, keepdims=True)
    >>> jitter = np.reshape(pc.runif(200 * 3, max=0.5), (200, 3), order="F")
    >>> labels = np.argmax(prob + jitter, axis=1) + 1
    >>> fit = pc.cal_dirichlet(prob, labels)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: Dirichlet calibration
    Observations: 200
    Input: probabilities (matrix)
    Classes: 3
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Lambda: 0.1
    >>> for row in fit.weight:
    ...     print(" ".join(f"{v:.7g}" for v in row))
    2.986489 0.09049361 0.06598069
    0.01025857 3.75403 -0.06598919
    -0.01026144 -0.090439 3.127528
    >>> for row in pc.predict(fit, prob[:2]):
    ...     print(" ".join(f"{v:.7g}" for v in row))
    0.254588 0.1903396 0.5550724
    0.04376297 0.956233 4.006156e-06

    R: ``set.seed(23); prob <- matrix(runif(600), ncol = 3); prob <- prob /
    rowSums(prob); labels <- max.col(prob + matrix(runif(600, max = 0.5),
    ncol = 3), ties.method = "first"); fit <- cal_dirichlet(prob, labels);
    summary(fit)`` prints the same text; ``fit$weight`` and
    ``predict(fit, prob[1:2, ])`` are the same values.
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
    w = check_weights(weights, mat.shape[0])
    k = mat.shape[1]
    features = r_log(clip_eps(mat, eps_value))
    lam = _select_lambda(features, labels.codes, k, w) if lam_given is None else lam_given
    weight, bias, value, convergence = fit_multinomial(features, labels.codes, k, lambda_=lam, weights=w)
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
        call=format_call("cal_dirichlet", ("p", "y", "weights") if w is not None else ("p", "y"),
                         **{"lambda": lam_given},
                         eps=None if eps_value == 1e-12 else eps_value),
        _r_classes=("cal_dirichlet",) + MULTICLASS,
    )

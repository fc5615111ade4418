# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/cv.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Cross-validated calibration: out-of-fold predictions and a final calibrator.

R equivalent: ``probcal::cal_cv()`` (``R/cv.R``) with the internal
``cal_cv_multiclass()``, ``fit_calibrator_mc()`` and ``stratified_folds()``.
"""

from __future__ import annotations


import numpy as np

from ..inputs._checks import (
    ProbcalError,
    as_numeric_vector,
    check_binary_y,
    check_folds,
    check_logit_matrix,
    check_prob_matrix,
    check_probability,
    check_same_length,
    is_matrix,
    match_arg,
    multiclass_labels,
)
from ..inputs import as_matrix as _as_matrix
from ..inputs._hints import check_unused_arguments, warn_unused_dots
from ..inputs._weights import check_weights
from ..rbase._format import cli_abort_message
from ._base import MULTICLASS, Calibrator, _wrap_output, format_call, new_calibrator
from ..inputs._logit_input import once_per_call
from ._ovr import fit_calibrator

__all__ = ["cal_cv", "CalCv", "stratified_folds"]

from ._methods import CV_METHODS, PY_CV_METHODS
# Its own module: cal_venn_abers deals the same folds without importing cal_cv.
from ._folds import stratified_folds
from ..inputs._hints import python_face
_MATRIX_ONLY = ("vector", "dirichlet", "ovr")
_VECTOR_ONLY = ("platt", "beta", "isotonic", "histogram")


def _cross_fit(fit_one, x: np.ndarray, y: np.ndarray, fold_id: np.ndarray, folds: int,
               oof: np.ndarray, weights=None) -> list:
    """R's fold loop: for each fold, fit on the other folds and predict the held-out rows.

    ``fit_one(x, y)`` fits one calibrator; the held-out predictions fill the
    rows of ``oof`` (an array the caller has just made) in place. Returns the fold
    calibrators in fold order. With ``weights`` (Python-only) the fits are
    ``fit_one(x, y, w)``, each row's weight following it into the fold.
    """
    fold_calibrators = []
    for fold in range(1, folds + 1):
        analysis = fold_id != fold
        assessment = np.flatnonzero(~analysis)  # rows in order, as the mask takes them
        fitted = (fit_one(x[analysis], y[analysis]) if weights is None
                  else fit_one(x[analysis], y[analysis], weights[analysis]))
        fold_calibrators.append(fitted)
        oof[assessment] = fitted.predict(x[assessment])
    return fold_calibrators


class CalCv(Calibrator):
    """A cross-validated calibrator.

    R class ``c("cal_cv", "calibrator")`` (binary) or
    ``c("cal_cv", "cal_multiclass", "calibrator")`` (multiclass). Components
    (R order): ``method`` (``"cross-validated "`` + the final calibrator's
    method), ``n``, ``input``, ``calibration_method``, ``folds``, ``fold_id``
    (1-based fold of each row), ``oof_predictions`` (vector, or n x K matrix
    for multiclass), ``fold_calibrators`` (one per fold, fitted without that
    fold), ``final_calibrator`` (fitted on all rows), then for multiclass
    ``k`` and ``levels``, and ``call``. ``predict()`` uses the final
    calibrator.
    """

    # One value per row: left out of to_dict() unless data=True.
    _row_data = ("fold_id", "oof_predictions")

    r_class = "cal_cv"

    def _predict(self, newdata):
        return self.final_calibrator._predict(newdata)

    def summary_params(self):
        return {"CalibrationMethod": self.calibration_method, "Folds": int(self.folds)}


def _fit_calibrator_mc(method: str, x, y, weights=None, **kwargs) -> Calibrator:
    """R ``fit_calibrator_mc()``: the multiclass calibrator by name.

    ``...`` reaches ``cal_dirichlet`` (``lambda``, ``eps``) and ``cal_ovr``
    (``base_method``, default ``"platt"``, and the binary method's
    arguments); temperature and vector scaling take none and ignore them.
    """
    if method == "temperature":
        from ._temperature import cal_temperature
        return cal_temperature._plain(x, y, weights=weights)
    if method == "vector":
        from ._vector_scaling import cal_vector_scaling
        return cal_vector_scaling._plain(x, y, weights=weights)
    if method == "dirichlet":
        from ._dirichlet import cal_dirichlet
        check_unused_arguments(kwargs, ("lambda", "lambda_", "eps"))
        return cal_dirichlet._plain(x, y, weights=weights, **kwargs)
    if method == "scaling_binning":  # Python-only: the marginal form (an n x K output)
        from ._methods import SCALING_BINNING_ARGS
        from ._scaling_binning import cal_scaling_binning
        check_unused_arguments(kwargs, SCALING_BINNING_ARGS)
        if kwargs.get("type", "marginal") != "marginal":
            raise ProbcalError('cal_cv() takes cal_scaling_binning(type = "marginal") only: '
                               "its out-of-fold predictions are an n x K matrix.")
        return cal_scaling_binning._plain(x, y, weights=weights, **kwargs)
    if method == "venn_abers":  # Python-only: one-vs-one or one-vs-rest (an n x K output)
        from ._methods import VENN_ABERS_ARGS
        from ._venn_abers import cal_venn_abers
        check_unused_arguments(kwargs, VENN_ABERS_ARGS)
        if weights is not None:
            raise ProbcalError("Venn-ABERS takes no `weights`: its validity guarantee is for "
                               "exchangeable, unweighted observations.")
        return cal_venn_abers._plain(x, y, **kwargs)
    from ._ovr import _cal_ovr
    dots = dict(kwargs)
    base_method = dots.pop("base_method", None)
    # cal_cv() has already warned about the arguments cal_ovr() ignores.
    return _cal_ovr(x, y, "platt" if base_method is None else base_method, dots,
                    check_dots=False, weights=weights)


@python_face
@once_per_call
def cal_cv(x, y, method=CV_METHODS, folds=5, seed=None, rng=None, weights=None, **kwargs) -> CalCv:
    """Cross-validated calibration with stratified folds.

    R equivalent: ``probcal::cal_cv(x, y, method = c("platt", "temperature",
    "beta", "isotonic", "histogram", "vector", "dirichlet", "ovr"), folds =
    5, seed = NULL, ...)``.

    For each fold, the calibrator is fitted on the other folds and predicts
    the held-out rows (``oof_predictions``); a final calibrator fitted on all
    rows serves ``predict()``. A vector ``x`` means binary calibration
    (``"platt"``, ``"temperature"``, ``"beta"``, ``"isotonic"``,
    ``"histogram"``); a matrix ``x`` (2-D array or DataFrame) means
    multiclass calibration (``"temperature"``, ``"vector"``, ``"dirichlet"``,
    ``"ovr"`` with ``base_method=``, default ``"platt"``).

    Parameters
    ----------
    x : array_like, pandas.Series or pandas.DataFrame
        Binary: a vector of scores, logits or probabilities. Multiclass: an
        n x K matrix (logits for ``"temperature"``/``"vector"``,
        probabilities for ``"dirichlet"``, per-class values for ``"ovr"``).
    y : array_like or pandas.Categorical
        Binary labels 0/1, or class codes ``1..K`` / a pandas Categorical.
    method : str, default "platt"
        Calibration method; unique prefixes are accepted. Python-only:
        ``"scaling_binning"`` (exact name), :func:`cal_scaling_binning`
        (binary, or its marginal form for a matrix of probabilities; its
        arguments ``bins``, ``scaling``, ``split``, ``renormalize`` pass
        through ``**kwargs``); ``"venn_abers"`` (exact name),
        :func:`cal_venn_abers` (binary, or one-vs-one / one-vs-rest for a
        matrix of probabilities; ``type`` and ``multiclass`` pass through
        ``**kwargs``, its inner cross folds are 5 from the package's stream).
    folds : int, default 5
        At least 2 and at most the smallest class count.
    seed : int, optional
        Seed for the fold assignment only.
    rng : None, RRandom or numpy.random.Generator, optional
        Stream for the fold assignment when ``seed`` is None (not in R).
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive
        sum; else a ``ProbcalError`` naming ``weights``). The folds are drawn
        over rows exactly as without weights (the same ``fold_id``), and each
        row's weight follows it: every fold calibrator is fitted with the
        weights of its training rows, the final one with all of them (see
        each method's ``weights``). A fold whose training rows leave a class
        with total weight 0 is refused. Because folds are drawn over rows,
        a zero-weight row or a row of weight ``k`` still takes its place in
        the draw: the k-copies rule holds fold by fold and for the final
        calibrator, not for the fold assignment. ``None`` (the default) is
        R's fit, bit for bit.
    **kwargs
        Passed on as R's ``...``: ``bins``/``strategy`` (histogram), ``eps``
        (beta, dirichlet), ``lambda``/``lambda_`` (dirichlet),
        ``base_method`` and the binary method's arguments (ovr). An argument
        the method does not use is ignored, as in R, but with a
        ``UserWarning`` naming it (R says nothing).

    Returns
    -------
    CalCv
        Components ``method`` (``"cross-validated "`` + the final
        calibrator's method), ``n``, ``input``, ``calibration_method``,
        ``folds``, ``fold_id``, ``oof_predictions`` (numpy; a pandas Series or
        a DataFrame with the class levels as columns when ``x`` is one),
        ``fold_calibrators``, ``final_calibrator``, then for multiclass ``k``
        and ``levels``, and ``call``. ``predict(fit, newdata)`` is the final
        calibrator's prediction.

    Raises
    ------
    ProbcalError
        R's messages, among them ``Method "vector" requires a matrix `x` with
        one column per class.``, ``Method "beta" expects a vector `x`. Use
        "ovr" for multiclass binning.`` and ``Argument `folds` must not
        exceed the smallest class count.``

    Notes
    -----
    With ``F_i`` the fold of row ``i`` and ``f^(-v)`` the calibrator fitted on
    the rows with ``F_i != v``, the out-of-fold prediction is
    ``q_i = f^(-F_i)(x_i)``; metrics of ``oof_predictions`` against ``y``
    estimate how the calibration map does on data it was not fitted to.
    ``x`` is taken as already produced by a model; the model is not refitted
    in the folds, so the predictions are out of fold for the calibration map
    only.

    The fold assignment is R's ``stratified_folds()``: for each class in
    increasing order, ``idx <- sample(which(y == class))`` permutes that
    class's rows and ``fold_id[idx] <- rep(seq_len(folds), length.out =
    length(idx))`` deals them to folds ``1, 2, ..., folds, 1, ...``, so every
    fold holds ``floor`` or ``ceiling`` of ``n_c / folds`` rows of each class.
    The permutations are R's ``sample()`` bit for bit: with ``seed`` they are
    those after ``set.seed(seed)`` and the random state is left as it was (R
    saves and restores ``.Random.seed``); without it they are drawn from
    ``rng`` (default: the package's global R stream, see
    :func:`pycalib_r.set_seed`), which they advance as R's do. In multiclass
    fits the fold calibrators see the integer codes, the final one the
    caller's ``y`` (its levels), as in R.

    Other implementations: scikit-learn's ``CalibratedClassifierCV(cv=k)``
    refits the classifier in each fold, uses unshuffled ``StratifiedKFold``
    folds (contiguous blocks per class) and by default (``ensemble="auto"``,
    ``True`` unless the estimator is frozen) averages the k fitted
    classifier-and-calibrator pairs instead of keeping a final calibrator
    fitted on all rows.

    References
    ----------
    Platt, J. C. (1999). Probabilistic outputs for support vector machines
    and comparisons to regularized likelihood methods. In A. J. Smola,
    P. Bartlett, B. Schölkopf & D. Schuurmans (Eds.), *Advances in Large
    Margin Classifiers* (pp. 61-74). MIT Press. (Fitting the calibration map
    on held-out predictions.)

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(7)
    >>> p = pc.runif(120)
    >>> y = pc.rbinom(120, 1, p)
    >>> fit = pc.cal_cv(p, y, method="histogram", folds=3, bins=5, seed=1)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: cross-validated histogram binning
    Observations: 120
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    CalibrationMethod: histogram
    Folds: 3
    >>> print(*fit.fold_id[:12])
    2 1 3 3 2 3 1 2 3 1 1 3
    >>> print(" ".join(f"{v:.7g}" for v in fit.oof_predictions[:4]))
    0.8571429 0.6428571 0.1176471 0.1176471
    >>> print(f"{pc.ece(fit.oof_predictions, y, bins=5):.7g}")
    0.06772856

    R: ``set.seed(7); p <- runif(120); y <- rbinom(120, 1, p); fit <-
    cal_cv(p, y, method = "histogram", folds = 3, bins = 5, seed = 1);
    summary(fit)`` prints the same text; ``fit$fold_id[1:12]``,
    ``fit$oof_predictions[1:4]`` and ``ece(fit$oof_predictions, y, bins =
    5)`` are the same values.
    """
    call = format_call("cal_cv", ("x", "y") if weights is None else ("x", "y", "weights"),
                       method=method if isinstance(method, str) else None,
                       folds=None if (not isinstance(folds, (list, tuple, np.ndarray))
                                      and folds == 5) else folds,
                       seed=seed, **kwargs)
    if not (isinstance(method, str) and method in PY_CV_METHODS):
        method = match_arg(method, CV_METHODS, arg="method")
    warn_unused_dots("cal_cv", method, kwargs, multiclass=is_matrix(x))
    if is_matrix(x):
        return _cal_cv_multiclass(x, y, method, folds, seed, rng, call, weights=weights, **kwargs)
    if method in _MATRIX_ONLY:
        raise ProbcalError(cli_abort_message(
            f'Method "{method}" requires a matrix `x` with one column per class.'))
    xv = as_numeric_vector(x, arg="x").ravel()
    if method in ("beta", "isotonic", "histogram", "venn_abers"):
        check_probability(xv, arg="x")
    yv = check_binary_y(y, arg="y", require_both=True)
    check_same_length(xv, yv, x_arg="x", y_arg="y")
    folds = check_folds(folds, yv)
    w = check_weights(weights, yv.size)

    fold_id = stratified_folds(yv, folds, seed=seed, rng=rng)
    oof = np.zeros(yv.size)
    fold_calibrators = _cross_fit(lambda xa, ya, wa=None: fit_calibrator(method, xa, ya, weights=wa, **kwargs),
                                  xv, yv, fold_id, folds, oof, w)
    final = fit_calibrator(method, xv, yv, weights=w, **kwargs)
    return new_calibrator(
        CalCv,
        method="cross-validated " + final.method,
        n=yv.size,
        input=final.input,
        calibration_method=method,
        folds=folds,
        fold_id=fold_id,
        oof_predictions=_wrap_output(oof, x),
        fold_calibrators=fold_calibrators,
        final_calibrator=final,
        call=call,
    )


def _cal_cv_multiclass(x, y, method, folds, seed, rng, call, weights=None, **kwargs) -> CalCv:
    if method in _VECTOR_ONLY:
        raise ProbcalError(cli_abort_message(
            f'Method "{method}" expects a vector `x`. Use "ovr" for multiclass binning.'))
    if method in ("temperature", "vector"):
        mat = check_logit_matrix(x, arg="x")
    elif method == "dirichlet":
        mat = check_prob_matrix(x, arg="x")
    else:
        mat = _as_matrix(x, "x", "Argument `x` must be a finite numeric matrix.")
        if not np.isfinite(mat).all():
            raise ProbcalError("Argument `x` must be a finite numeric matrix.")
    labels = multiclass_labels(mat, y, x_arg="x")
    folds = check_folds(folds, labels.codes)
    w = check_weights(weights, mat.shape[0])

    fold_id = stratified_folds(labels.codes, folds, seed=seed, rng=rng)
    oof = np.full(mat.shape, np.nan)
    # As in R, the fold calibrators see integer codes (levels "1".."K").
    fold_calibrators = _cross_fit(lambda xa, ya, wa=None: _fit_calibrator_mc(method, xa, ya, weights=wa, **kwargs),
                                  mat, labels.codes, fold_id, folds, oof, w)
    # As in R, the final calibrator sees the caller's x and y (factor levels kept).
    final = _fit_calibrator_mc(method, x, y, weights=w, **kwargs)
    return new_calibrator(
        CalCv,
        method="cross-validated " + final.method,
        n=mat.shape[0],
        input=final.input,
        calibration_method=method,
        folds=folds,
        fold_id=fold_id,
        oof_predictions=_wrap_output(oof, x, labels.levels),
        fold_calibrators=fold_calibrators,
        final_calibrator=final,
        k=labels.k,
        levels=list(labels.levels),
        call=call,
        _r_classes=("cal_cv",) + MULTICLASS,
    )

"""ece, mce, ace, mmce and skce in scikit-learn's argument conventions (``y_true`` first).

R equivalent: ``probcal::ece()`` and siblings on recoded ``p``/``y``.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_array, column_or_1d

from ..inputs._checks import masked_as_na
from ..kernel import _skce as _kernel
from ..binned import _metrics
from ..rbase._errors import ProbcalError
from ..inputs._hints import add_note
from ..inputs._weights import check_weights, refuse_weights
from ._validation import _labels_to_index

__all__ = [
    "expected_calibration_error",
    "maximum_calibration_error",
    "average_calibration_error",
    "maximum_mean_calibration_error",
    "squared_kernel_calibration_error",
]


def _binary_pos_label(classes: np.ndarray, pos_label):
    if pos_label is not None:
        # A pos_label y_true does not show, with both classes shown, would
        # score every label as negative without a word (scikit-learn refuses it).
        if classes.size == 2 and pos_label not in set(classes.tolist()):
            raise ValueError(f"pos_label={pos_label!r} is not one of {classes.tolist()!r}.")
        return pos_label
    values = set(classes.tolist())
    if values <= {0, 1} or values <= {-1, 1}:
        return 1
    raise ValueError(f"y_true takes values in {classes.tolist()!r}; pass pos_label= to say which "
                     "one is the positive class.")


def _check_no_missing_labels(y_true: np.ndarray) -> None:
    """R's message for a missing label (each NaN would otherwise count as a class)."""
    import pandas as pd

    if y_true.dtype.kind == "f":
        missing = not np.all(np.isfinite(y_true))
    elif y_true.dtype == object:
        missing = bool(pd.isna(y_true).any())
    else:
        missing = False
    if missing:
        err = ProbcalError("Argument `y` must not contain missing or infinite values.")
        add_note(err, "`y` is `y_true` here: drop or fill the rows whose label is missing.")
        raise err


def _metric_inputs(y_true, y_prob, pos_label, labels):
    """``(p, y)`` in probcal's form: a probability vector and 0/1, or a matrix and codes 1..K."""
    # check_array drops a numpy mask: masked entries are R's NA first, as in
    # the core's own checks.
    y_true, _ = masked_as_na(y_true)
    y_prob, _ = masked_as_na(y_prob)
    y_true = column_or_1d(y_true)
    _check_no_missing_labels(y_true)
    P = check_array(y_prob, ensure_2d=False, dtype=np.float64, input_name="y_prob",
                    ensure_all_finite=False)
    if P.shape[0] != y_true.shape[0]:
        raise ValueError(f"y_true has {y_true.shape[0]} labels but y_prob has {P.shape[0]} rows.")
    if labels is not None:
        classes = np.asarray(labels)
        if np.unique(classes).size != classes.size:
            raise ValueError("`labels` must not repeat a label.")
        order = np.argsort(classes, kind="stable")
        _labels_to_index(y_true, classes[order])  # raises on labels not in `labels`
    else:
        classes = np.unique(y_true)
    if P.ndim == 2 and P.shape[1] == 1:
        P = P[:, 0]
    if P.ndim == 1:
        if classes.size > 2:
            raise ValueError(f"y_prob is one column but y_true has {classes.size} classes; pass the "
                             "full predict_proba output, one column per class.")
        pos = _binary_pos_label(classes, pos_label)
        return P, (y_true == pos).astype(np.int64)
    k = P.shape[1]
    if k == 2:
        if classes.size == 1 and pos_label is None:
            raise ValueError("y_true has a single label; pass labels= (the estimator's classes_) "
                             "to say which column of y_prob it is.")
        if classes.size > 2:
            raise ValueError(f"y_prob has 2 columns but y_true has {classes.size} classes.")
        if classes.size == 2:
            pos = classes[1] if pos_label is None else pos_label
            where = np.flatnonzero(classes == pos)
            if where.size == 0:
                raise ValueError(f"pos_label={pos_label!r} is not one of {classes.tolist()!r}.")
            col = int(where[0])
        else:
            pos, col = pos_label, 1
        return P[:, col], (y_true == pos).astype(np.int64)
    if classes.size != k:
        raise ValueError(f"y_prob has {k} columns but y_true has {classes.size} distinct labels; pass "
                         "labels= (the estimator's classes_, in column order).")
    index = {v: i for i, v in enumerate(classes.tolist())}
    codes = np.array([index[v] for v in y_true.tolist()], dtype=np.int64)
    # A factor with every class as a level, as R's factor(y, levels = classes):
    # integer codes would make probcal count only the classes y shows.
    import pandas as pd
    return P, pd.Categorical.from_codes(codes, categories=[str(c) for c in classes.tolist()])


_STRATEGY = {"uniform": "equal_width", "quantile": "equal_freq"}


def _sample_weight(sample_weight, p):
    """scikit-learn's ``sample_weight`` through the core's one check (the
    message names ``sample_weight``); None stays None (the unweighted path)."""
    return check_weights(sample_weight, np.shape(p)[0], arg="sample_weight")


def _refuse_sample_weight(fname, sample_weight):
    if sample_weight is not None:
        refuse_weights(fname, {"sample_weight": sample_weight},
                       "the kernel calibration errors have no accepted weighted estimator.")


def expected_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", debiased=False,
                               strategy="equal_width", pos_label=None, labels=None,
                               sample_weight=None):
    """Expected calibration error, in scikit-learn's argument order (classwise for K > 2 classes).

    Given a K-class ``predict_proba`` this is R's default, the **classwise**
    ECE (``type="classwise"``), not the top-label ECE; pass
    ``type="confidence"`` for the top-label one.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Labels: 0/1, bools, -1/1, strings or any class values.
    y_prob : array_like of shape (n,) or (n, n_classes)
        The positive-class probability, or the full ``predict_proba``
        (columns in sorted-label order, or in ``labels`` order). A 2-column
        array is a binary problem: the column of ``pos_label`` is used.
    n_bins : int, default 10
        R's ``bins``.
    type : {"classwise", "confidence"}, default "classwise"
        For K > 2 classes (R's ``type``, whose default this keeps): the
        **classwise** ECE is the mean over the K classes of the binned
        one-vs-rest ECE of each column; ``"confidence"`` is the top-label
        ECE (the largest probability of each row against whether its class
        is the label), the number most Python libraries report as "ECE".
        They differ: on GaussianNB's digits probabilities (the README's
        split) the classwise ECE is 0.0352, the top-label one 0.1669. A
        binary problem has one ECE.
    debiased : bool, default False
    strategy : {"equal_width", "equal_freq"}
        ``"uniform"`` and ``"quantile"`` (``calibration_curve``'s names)
        are accepted for them.
    pos_label : label, optional
        The positive class of a binary problem (default: 1 for 0/1 or -1/1
        labels, else the larger label of a 2-column ``y_prob``).
    labels : array_like, optional
        The classes in ``y_prob``'s column order (``estimator.classes_``),
        when ``y_true`` may not show them all.
    sample_weight : array_like of shape (n,), optional
        Observation weights: :func:`pycalib_r.ece`'s ``weights`` (checked by
        the core's ``check_weights``, the message naming ``sample_weight``);
        a scorer made with ``make_scorer`` passes its ``sample_weight`` here.

    Returns
    -------
    float
        ``ece``'s value exactly.

    Notes
    -----
    R equivalent: ``probcal::ece(p, y, bins = n_bins, type, debiased,
    strategy)`` with ``p``/``y`` recoded to probcal's forms.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(40)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p)
    >>> labels = ["b" if v else "a" for v in y]
    >>> expected_calibration_error(labels, p, pos_label="b") == pc.ece(p, y)
    True

    As a scorer (lower is better, so scikit-learn negates it):

    >>> from sklearn.metrics import make_scorer
    >>> scorer = make_scorer(expected_calibration_error, greater_is_better=False,
    ...                      response_method="predict_proba")
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.ece._plain(p, y, bins=n_bins, type=type, debiased=debiased,
                               strategy=_STRATEGY.get(strategy, strategy),
                               weights=_sample_weight(sample_weight, p))


def maximum_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", pos_label=None,
                              labels=None, sample_weight=None):
    """Maximum calibration error over non-empty equal-width bins.

    Parameters are those of :func:`expected_calibration_error`.

    Returns
    -------
    float

    R equivalent: ``probcal::mce(p, y, bins = n_bins, type)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.mce._plain(p, y, bins=n_bins, type=type, weights=_sample_weight(sample_weight, p))


def average_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", pos_label=None,
                              labels=None, sample_weight=None):
    """Average (unweighted) calibration error over non-empty equal-width bins.

    Parameters are those of :func:`expected_calibration_error`.

    Returns
    -------
    float

    R equivalent: ``probcal::ace(p, y, bins = n_bins, type)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.ace._plain(p, y, bins=n_bins, type=type, weights=_sample_weight(sample_weight, p))


def maximum_mean_calibration_error(y_true, y_prob, *, bandwidth=0.2, pos_label=None, labels=None,
                                   sample_weight=None):
    """Maximum mean calibration error (Laplacian kernel).

    Parameters
    ----------
    y_true, y_prob, pos_label, labels
        As in :func:`expected_calibration_error`.
    bandwidth : float, default 0.2
    sample_weight : None
        Refused when given: the kernel estimators have no accepted weighted
        form (a scorer called with ``sample_weight`` fails saying so).

    Returns
    -------
    float

    R equivalent: ``probcal::mmce(p, y, bandwidth)``; equal to it exactly.
    """
    _refuse_sample_weight("maximum_mean_calibration_error", sample_weight)
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.mmce._plain(p, y, bandwidth=bandwidth)


def squared_kernel_calibration_error(y_true, y_prob, *, estimator="uq", bandwidth=0.2,
                                     type="canonical", pos_label=None, labels=None,
                                     sample_weight=None):
    """Squared kernel calibration error (Widmann, Lindsten & Zachariah 2019).

    Parameters
    ----------
    y_true, y_prob, pos_label, labels
        As in :func:`expected_calibration_error`.
    estimator : {"uq", "ul", "biased"}
        R's ``estimator``.
    bandwidth : float, default 0.2
    type : {"canonical", "confidence", "classwise"}
    sample_weight : None
        Refused when given, as for :func:`maximum_mean_calibration_error`.

    Returns
    -------
    float

    R equivalent: ``probcal::skce(p, y, estimator, bandwidth, type)``; equal to it exactly.
    """
    _refuse_sample_weight("squared_kernel_calibration_error", sample_weight)
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _kernel.skce._plain(p, y, estimator=estimator, bandwidth=bandwidth, type=type)


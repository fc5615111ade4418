# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: scikit-learn 1.9 sklearn/utils/validation.py (one message) (BSD-3-Clause), (c) 2007-2026 The scikit-learn developers
"""Input and label checks shared by the scikit-learn estimators and metrics.

R equivalent: none (scikit-learn's conventions around R's checks).
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted

def _check_feature_names(estimator, X, reset):
    """scikit-learn's feature-name bookkeeping (``feature_names_in_``, its errors and warnings).

    A plain ndarray has no feature names: it only clears them at fit and
    needs scikit-learn's check (its warning) only against an estimator
    fitted with names. That path skips the check's dataframe detection,
    which costs more than a histogram fit's tenth on 100,000 rows.
    """
    if isinstance(X, np.ndarray):
        if reset:
            if hasattr(estimator, "feature_names_in_"):
                delattr(estimator, "feature_names_in_")
            return None
        if getattr(estimator, "feature_names_in_", None) is None:
            return None
    try:
        from sklearn.utils.validation import _check_feature_names as check
    except ImportError:  # pragma: no cover - scikit-learn < 1.6
        return estimator._check_feature_names(X, reset=reset)
    return check(estimator, X, reset=reset)


def _check_fitted(est, attribute="calibrator_"):
    check_is_fitted(est, attribute)


def _labels_to_index(y, classes: np.ndarray) -> np.ndarray:
    """Positions of ``y`` in ``classes``; a ValueError names labels that are not there."""
    idx = np.searchsorted(classes, y)
    idx = np.clip(idx, 0, classes.size - 1)
    bad = classes[idx] != y
    if np.any(bad):
        unseen = np.unique(np.asarray(y)[bad])
        raise ValueError(f"y contains labels not seen at fit time: {unseen.tolist()!r}; "
                         f"the classes are {classes.tolist()!r}.")
    return idx


def _as_float_array(X) -> np.ndarray:
    """``check_array(X, ensure_2d=False, dtype=float64)``, without its fixed cost for a plain array.

    scikit-learn's check costs about 0.1 ms whatever the size, which is more
    than 10% of a histogram fit on 20,000 rows; a float64 ndarray needs only
    the finiteness test, with scikit-learn's message.
    """
    if isinstance(X, np.ndarray) and X.dtype == np.float64 and X.ndim in (1, 2) and X.size:
        # A finite sum means every element is finite (NaN and +-Inf
        # propagate); only a non-finite sum (or an overflow) needs the
        # elementwise test.
        if not np.isfinite(np.add.reduce(X, axis=None)) and not np.isfinite(X).all():
            kind = "NaN" if np.isnan(X).any() else "infinity or a value too large for dtype('float64')"
            raise ValueError(f"Input X contains {kind}.")
        return X
    return check_array(X, ensure_2d=False, dtype=np.float64, input_name="X")


def _check_label_types(y: np.ndarray) -> None:
    """Refuse string labels mixed with others (np.unique's bare \"'<' not supported\")."""
    if y.dtype == object:
        kinds = {("a string" if isinstance(v, (str, bytes, np.str_)) else type(v).__name__)
                 for v in y.tolist()}
        if "a string" in kinds and len(kinds) > 1:
            others = ", ".join(sorted(kinds - {"a string"}))
            raise ValueError(f"y mixes string labels with labels of type {others}, which have no "
                             "common order for classes_; give every label one type, e.g. "
                             "y.astype(str) (then 1 and '1' are the same class).")


def _encode_labels(y: np.ndarray):
    """``np.unique(y, return_inverse=True)`` after scikit-learn's target check.

    Integer and bool labels (never continuous, so the check has nothing to
    refuse) take a counting path that is linear in n: on 100,000 rows the
    sort of ``np.unique`` would cost more than histogram binning itself.
    """
    if y.dtype.kind in "iub" and y.size:
        yi = y.astype(np.int64, copy=False)
        lo, hi = int(yi.min()), int(yi.max())
        if lo == 0 and hi == 1:  # the common 0/1 (or bool) case: no counting needed
            return np.array([0, 1]).astype(y.dtype), yi
        if hi - lo <= 2 * y.size + 1024:  # bounded memory whatever the labels
            present = np.bincount(yi - lo) > 0
            classes = (np.flatnonzero(present) + lo).astype(y.dtype)
            if lo == 0 and present.all():
                return classes, yi
            lookup = np.cumsum(present) - 1
            return classes, lookup[yi - lo]
    _check_label_types(y)
    check_classification_targets(y)
    return np.unique(y, return_inverse=True)


def _one_class(classes) -> str:
    return (f"y has one class only ({classes.tolist()[0]!r}); calibration needs at least two "
            "classes, each present in the data.")


"""scikit-learn's ``check_estimator`` for the two estimators: the checks that cannot apply.

``pycalib_r.sklearn.expected_failed_checks(est)`` gives them, with the
reason, for ``check_estimator(est, expected_failed_checks=...)``;
``tests/sklearn/test_sklearn.py`` runs both estimators with it and fails when a
listed check starts passing or another one fails.

R equivalent: none.
"""

from __future__ import annotations

from ._calibrator import ProbcalCalibrator
from ._classifier import CalibratedClassifier

__all__ = ["expected_failed_checks"]

# scikit-learn's check_estimator: the checks that cannot apply, with why.
# ProbcalCalibrator's X is a model's predictions (one column per class, or a
# vector / n x 2 for a binary problem); these checks pass a feature matrix of
# another width, which is refused with a ValueError by design.
_WIDTH = ("X of a ProbcalCalibrator holds a model's predictions, one column per class (a "
          "vector or n x 2 for a binary problem); this check passes a feature matrix of another "
          "width, which is refused with a ValueError")
_PROBCAL_CALIBRATOR_XFAIL = {name: _WIDTH for name in (
    "check_estimators_dtypes",
    "check_dtype_object",
    "check_estimators_fit_returns_self",
    "check_readonly_memmap_input",
    "check_pipeline_consistency",
    "check_estimators_nan_inf",
    "check_estimators_overwrite_params",
    "check_estimators_pickle",
    "check_classifiers_classes",
    "check_classifiers_train",
    "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit",
    # fit takes sample_weight (the calibrators' weights), so these run too, on
    # feature matrices of another width:
    "check_all_zero_sample_weights_error",
    "check_sample_weight_equivalence_on_dense_data",
    "check_classifiers_one_label_sample_weights",
)}
_CALIBRATED_CLASSIFIER_XFAIL = {
    "check_fit2d_1feature": (
        "10 rows in 3 classes cannot give every class to each of 5 calibration folds, which "
        "probcal's calibrators need (R's cal_* stop when a class is absent); fit raises "
        "'Requesting 5-fold cross-validation but provided less than 5 examples for at least "
        "one class.' instead of fitting"),
}


def expected_failed_checks(estimator) -> dict:
    """The scikit-learn estimator checks that do not apply to ``estimator``, with the reason.

    For ``sklearn.utils.estimator_checks.check_estimator(est,
    expected_failed_checks=expected_failed_checks(est))`` (and
    ``parametrize_with_checks``): every other check passes (or is skipped by
    scikit-learn itself). ProbcalCalibrator: 15 checks that pass a feature
    matrix whose width is not one column per class. CalibratedClassifier:
    ``check_fit2d_1feature`` (too few rows per class for 5 folds).

    Returns
    -------
    dict
        ``{check name: reason}``.

    R equivalent: none.
    """
    if isinstance(estimator, ProbcalCalibrator):
        return dict(_PROBCAL_CALIBRATOR_XFAIL)
    if isinstance(estimator, CalibratedClassifier):
        return dict(_CALIBRATED_CLASSIFIER_XFAIL)
    return {}

"""scikit-learn face of pycalib_r: probcal's calibrators as estimators, metrics as scorers.

Install scikit-learn (``pip install scikit-learn``, or ``pip install '.[sklearn]'`` from a checkout). scikit-learn is imported
by this module only; ``import pycalib_r`` does not import it.

* :class:`ProbcalCalibrator` fits one probcal calibrator on predictions that
  a model has already made (probabilities, scores or logits) and any labels
  scikit-learn accepts; its numbers are those of the R-faithful ``cal_*``
  function it calls.
* :class:`CalibratedClassifier` is the counterpart of scikit-learn's
  ``CalibratedClassifierCV`` with every probcal method: it fits a classifier,
  takes its out-of-fold predictions and fits a :class:`ProbcalCalibrator`.
* :func:`logits_from_proba` is the documented step from ``predict_proba`` to
  logits used when a classifier has no ``decision_function``.
* :func:`expected_calibration_error` and its siblings are ``ece``, ``mce``,
  ``ace``, ``mmce`` and ``skce`` in scikit-learn's argument conventions
  (``y_true`` first, labels as given, ``pos_label``), usable with
  ``sklearn.metrics.make_scorer``.

Which input each method takes
-----------------------------
- ``"platt"``: binary, a score vector (the second column of an n x 2
  ``predict_proba``); K > 2 classes, ``cal_ovr(method = "platt")`` on an
  n x K matrix.
- ``"beta"``, ``"isotonic"``, ``"histogram"``: the same with probabilities.
- ``"temperature"``: a logit vector, or an n x K logit matrix (R's matrix
  branch, also for K = 2).
- ``"vector_scaling"``: an n x K logit matrix (K = 2 for a binary problem).
- ``"dirichlet"``: an n x K probability matrix.
- ``"ovr"``: an n x K matrix, as its ``base_method`` takes.
- ``"cv"``: as its ``calibration_method`` takes.
- ``"scaling_binning"`` (Python-only, Kumar et al. 2019): probabilities, a
  vector for a binary problem, else the n x K matrix (its marginal form).
  ``predict_proba`` divides each row by its sum (a zero row becomes
  uniform), as ``CalibratedClassifierCV`` normalises one-vs-rest outputs;
  ``calibrator_`` keeps the core's unnormalised per-class outputs
  (``pycalib_r.predict(est.calibrator_, X)``), whose calibration error
  can be estimated, unlike the normalised rows'.
- ``"venn_abers"`` (Python-only, Vovk & Petej 2014): probabilities, a vector
  for a binary problem, else the n x K matrix (one-vs-one by default, or
  ``multiclass="one_vs_rest"``); ``type="cross"`` with ``folds`` for the
  cross form. ``predict_proba`` gives the merged probabilities;
  ``pycalib_r.predict(est.calibrator_, X, interval=True)`` the (p0, p1)
  pairs.

The binary methods of R (platt, beta, isotonic, histogram) have no
multiclass form in R; given K > 2 classes they are fitted one-vs-rest with
``cal_ovr``, as ``CalibratedClassifierCV`` does with sigmoid and isotonic.
"""

from __future__ import annotations

try:
    import sklearn as _sklearn  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError(
        "pycalib_r.sklearn needs scikit-learn: pip install scikit-learn "
        "(or, from a pycalib_r checkout, pip install '.[sklearn]')"
    ) from exc

from ._calibrator import ProbcalCalibrator
from ._checks import expected_failed_checks
from ._classifier import CalibratedClassifier, _Fitted, _ResponseArray  # noqa: F401 (pickles name them here)
from ._methods import METHODS, logits_from_proba
from ._metrics import (
    average_calibration_error,
    expected_calibration_error,
    maximum_calibration_error,
    maximum_mean_calibration_error,
    squared_kernel_calibration_error,
)
from ._scorers import VALIDATION_SCORES, make_validation_scorer
from ._validation import _encode_labels  # noqa: F401 (tests reach it here)

__all__ = [
    "ProbcalCalibrator",
    "CalibratedClassifier",
    "logits_from_proba",
    "expected_failed_checks",
    "expected_calibration_error",
    "maximum_calibration_error",
    "average_calibration_error",
    "maximum_mean_calibration_error",
    "squared_kernel_calibration_error",
    "METHODS",
    "make_validation_scorer",
    "VALIDATION_SCORES",
]

# Pickles name a class by its module: the public path, so a pickle written now
# loads whatever private module holds the class later (and those written
# before the split, which name pycalib_r.sklearn, load as they did).
for _cls in (ProbcalCalibrator, CalibratedClassifier, _Fitted):
    _cls.__module__ = __name__
del _cls

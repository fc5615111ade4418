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
  vector for a binary problem, else the n x K matrix (its marginal form,
  rows not renormalised unless ``renormalize=True``).

The binary methods of R (platt, beta, isotonic, histogram) have no
multiclass form in R; given K > 2 classes they are fitted one-vs-rest with
``cal_ovr``, as ``CalibratedClassifierCV`` does with sigmoid and isotonic.
"""

from __future__ import annotations

import numbers

import numpy as np

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, clone
    from sklearn.exceptions import NotFittedError
    from sklearn.model_selection import check_cv, cross_val_predict
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d
except ImportError as exc:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError(
        "pycalib_r.sklearn needs scikit-learn: pip install scikit-learn "
        "(or, from a pycalib_r checkout, pip install '.[sklearn]')"
    ) from exc

from . import _kernel, _metrics
from ._errors import ProbcalError
from ._hints import add_note
from ._rnames import python_names
from .calibrators import (
    cal_beta,
    cal_cv,
    cal_dirichlet,
    cal_histogram,
    cal_isotonic,
    cal_ovr,
    cal_platt,
    cal_scaling_binning,
    cal_temperature,
    cal_vector_scaling,
)

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
]

# The nine probcal calibrators, by the names R's cal_cv()/cal_ovr() use for
# them ("vector" is accepted for "vector_scaling", as cal_cv() spells it).
METHODS = ("platt", "temperature", "beta", "isotonic", "histogram",
           "vector_scaling", "dirichlet", "ovr", "cv", "scaling_binning")
_ALIASES = {"vector": "vector_scaling"}
_VECTOR_METHODS = ("platt", "beta", "isotonic", "histogram")
_PROBABILITY_METHODS = ("beta", "isotonic", "histogram", "dirichlet", "scaling_binning")
_LOGIT_METHODS = ("temperature", "vector_scaling")
_MATRIX_METHODS = ("vector_scaling", "dirichlet", "ovr")

# Keyword arguments each method passes on to its cal_* function (R's names;
# ``base_method`` is cal_ovr's ``method``, ``calibration_method`` cal_cv's).
_ARGS = {
    "platt": (),
    "temperature": (),
    "beta": ("eps",),
    "isotonic": (),
    "histogram": ("bins", "strategy"),
    "vector_scaling": (),
    "dirichlet": ("lambda_", "eps"),
    "ovr": ("base_method", "eps", "bins", "strategy"),
    "scaling_binning": ("bins", "scaling", "split", "renormalize", "seed"),
}
_ARGS["cv"] = ("calibration_method", "folds", "seed", "lambda_", "eps", "bins", "strategy",
               "base_method")


def _method_name(method) -> str:
    if not isinstance(method, str):
        raise ValueError(f"`method` must be one of {', '.join(map(repr, METHODS))}; got {method!r}.")
    name = _ALIASES.get(method, method)
    if name not in METHODS:
        raise ValueError(f"`method` must be one of {', '.join(map(repr, METHODS))}; got {method!r}.")
    return name


def _inner_method(method: str, args: dict) -> str:
    """The calibrator whose input form decides what X must be (cv's and ovr's inner one)."""
    if method == "cv":
        inner = _ALIASES.get(args.get("calibration_method", "platt"), args.get("calibration_method", "platt"))
        if inner == "cv" or inner not in METHODS:
            raise ValueError("`calibration_method` must be one of 'platt', 'temperature', 'beta', "
                             f"'isotonic', 'histogram', 'vector_scaling', 'dirichlet', 'ovr'; got {inner!r}.")
        return inner
    return method


def _needs_logits(method: str, args: dict) -> bool:
    inner = _inner_method(method, args)
    if inner == "ovr":
        return args.get("base_method", "platt") == "temperature"
    return inner in _LOGIT_METHODS


def _needs_probabilities(method: str, args: dict) -> bool:
    inner = _inner_method(method, args)
    if inner == "ovr":
        return args.get("base_method", "platt") in _PROBABILITY_METHODS
    return inner in _PROBABILITY_METHODS


def _looks_like_proba(X: np.ndarray) -> bool:
    """Rows in [0, 1] summing to 1: the output of predict_proba (the test CalibratedClassifierCV makes)."""
    return (X.ndim == 2 and X.shape[1] >= 2 and bool(np.all((X >= 0) & (X <= 1)))
            and bool(np.allclose(X.sum(axis=1), 1.0)))


def logits_from_proba(P, eps=1e-12):
    r"""Logits from ``predict_proba`` output: ``log(clip(P, eps, 1))``.

    The step :class:`CalibratedClassifier` takes for temperature and vector
    scaling when the classifier has no ``decision_function``. The softmax of
    the result gives back ``P`` wherever no probability was below ``eps``.

    .. math:: z_{ik} = \log \max(P_{ik}, \epsilon)

    The clip decides the fit when a model gives probabilities of exactly 0:
    on GaussianNB's 5-fold out-of-fold probabilities for the digits data
    (``StratifiedKFold(5)``), ``cal_temperature`` gives 40.63 with
    ``eps=1e-300`` and 6.510 with ``1e-12``, because the clipped
    log-probabilities set how far apart the classes look.

    Parameters
    ----------
    P : array_like
        n x K class probabilities (a 1-D array is the positive-class
        probability of a binary problem and gives the n x 2 logits of
        ``[1 - P, P]``).
    eps : float, default 1e-12
        Smallest probability kept, in ``(0, 1)``. scikit-learn's
        temperature scaling uses ``log(P + 1e-12)``, which differs from this
        by less than ``1e-12 / P``.

    Returns
    -------
    numpy.ndarray of shape (n, K)

    R equivalent: ``log(pmax(P, eps))``, as ``cal_dirichlet()`` clips before
    its logarithm.

    Examples
    --------
    >>> logits_from_proba([[0.25, 0.75], [1.0, 0.0]])
    array([[ -1.38629436,  -0.28768207],
           [  0.        , -27.63102112]])
    """
    if not isinstance(eps, numbers.Real) or isinstance(eps, bool) or not (0 < eps < 1):
        raise ValueError(f"`eps` must be a number in (0, 1); got {eps!r}.")
    P = check_array(P, ensure_2d=False, dtype=np.float64)
    if P.ndim == 1:
        P = np.column_stack([1.0 - P, P])
    if np.any((P < 0) | (P > 1)):
        raise ValueError("`P` must hold probabilities in [0, 1] (predict_proba output); "
                         "pass decision_function output directly instead.")
    return np.log(np.maximum(P, eps))


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


class ProbcalCalibrator(ClassifierMixin, BaseEstimator):
    """A probcal calibrator as a scikit-learn classifier on predictions.

    ``fit(X, y)`` fits the probcal calibrator ``method`` to predictions ``X``
    that a model has already made and labels ``y``; ``predict_proba(X)``
    returns calibrated probabilities in ``classes_`` order. ``X`` is what the
    method expects (see the table in :mod:`pycalib_r.sklearn`): for a binary
    problem a vector, an n x 1 column or the n x 2 ``predict_proba`` output
    (whose second column is used by the vector methods); for K > 2 classes
    one column per class. The binary methods are fitted one-vs-rest
    (``cal_ovr``) when there are more than two classes.

    R equivalent: ``cal_<method>(x, y, ...)`` then ``predict(fit, newdata)``,
    with ``y`` recoded to R's 0/1 or 1..K (class k is ``classes_[k - 1]``).
    The fitted numbers are those of the R-faithful function, unchanged.

    Parameters
    ----------
    method : str, default "platt"
        One of ``"platt"``, ``"temperature"``, ``"beta"``, ``"isotonic"``,
        ``"histogram"``, ``"vector_scaling"`` (or ``"vector"``),
        ``"dirichlet"``, ``"ovr"``, ``"cv"``.
    **method_args
        The calibrator's own arguments under R's names: ``eps`` (beta,
        dirichlet), ``bins`` and ``strategy`` (histogram), ``lambda_``
        (dirichlet), ``base_method`` (ovr: R's ``method`` of ``cal_ovr``),
        ``calibration_method`` (cv: R's ``method`` of ``cal_cv``), ``folds``
        and ``seed`` (cv). They are estimator parameters: ``get_params``,
        ``set_params``, ``clone`` and ``GridSearchCV`` see them.

    Attributes
    ----------
    calibrator_ : pycalib_r.Calibrator
        The fitted probcal calibrator (prints as R prints it).
    classes_ : numpy.ndarray
        The sorted labels seen in ``fit``.
    n_features_in_ : int
        Columns of ``X`` at fit (1 for a vector).
    feature_names_in_ : numpy.ndarray of str
        The column names of a DataFrame ``X`` at fit (only then). A
        DataFrame with other names, or the same names in another order, is
        refused by ``predict_proba``, as scikit-learn's estimators refuse it.

    Examples
    --------
    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(200)
    >>> y = np.where(pc.rbinom(200, 1, p) == 1, "yes", "no")
    >>> cal = ProbcalCalibrator(method="platt").fit(p, y)
    >>> cal.classes_.tolist()
    ['no', 'yes']
    >>> cal.predict_proba([0.1, 0.5, 0.9])[:, 1]
    array([0.14716891, 0.51050671, 0.86307244])

    R: ``predict(cal_platt(p, y == "yes"), c(0.1, 0.5, 0.9))`` prints
    ``[1] 0.1471689 0.5105067 0.8630724``.
    """

    def __init__(self, method="platt", **method_args):
        self.method = method
        self._method_args = python_names(method_args)

    # -- parameters: `method` plus whatever method_args were given -------------
    def get_params(self, deep=True):
        params = {"method": self.method}
        params.update(self._method_args)
        return params

    def set_params(self, **params):
        if "method" in params:
            self.method = params.pop("method")
        self._method_args.update(python_names(params))
        return self

    def __getattr__(self, name):
        # method_args read as attributes, as scikit-learn parameters are.
        args = self.__dict__.get("_method_args", {})
        if name in args:
            return args[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- input forms -------------------------------------------------------------
    def _resolved(self):
        method = _method_name(self.method)
        args = dict(self._method_args)
        allowed = _ARGS[method]
        unknown = sorted(set(args) - set(allowed))
        if unknown:
            hint = ", ".join(allowed) if allowed else "none"
            raise ValueError(f"Unknown argument(s) {', '.join(unknown)} for method {method!r}; "
                             f"it takes: {hint}.")
        if "base_method" in args:
            args["base_method"] = _ALIASES.get(args["base_method"], args["base_method"])
        if "calibration_method" in args:
            args["calibration_method"] = _ALIASES.get(args["calibration_method"],
                                                      args["calibration_method"])
        _inner_method(method, args)
        return method, args

    def _validate_X(self, X, reset):
        # Column names as scikit-learn keeps them: a DataFrame whose columns are
        # reordered or renamed since fit is refused (the calibrator reads
        # columns by position, so it would predict silently wrong).
        _check_feature_names(self, X, reset=reset)
        X = _as_float_array(X)
        if X.ndim == 1 and not reset and self.n_features_in_ != 1:
            raise ValueError(
                f"Expected 2D array with {self.n_features_in_} columns, got 1D array instead. "
                "Reshape your data either using array.reshape(-1, 1) if your data has a single "
                "feature or array.reshape(1, -1) if it contains a single sample.")
        width = 1 if X.ndim == 1 else X.shape[1]
        if reset:
            self.n_features_in_ = width
        elif width != self.n_features_in_:
            raise ValueError(f"X has {width} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input.")
        return X

    def _form(self, X, method, args, k):
        """X as the probcal function wants it: a vector or an n x K matrix."""
        inner = _inner_method(method, args)
        if X.ndim == 2 and X.shape[1] == 1:
            X = X[:, 0]
        if _needs_logits(method, args) and X.ndim == 2 and _looks_like_proba(X):
            raise ValueError(
                f"Method {method!r} needs logits, but the rows of X are probabilities in "
                "[0, 1] summing to 1 (predict_proba output). Pass decision_function output, "
                "or pycalib_r.sklearn.logits_from_proba(X).")
        if k == 2:
            if inner in _VECTOR_METHODS + ("scaling_binning",):
                if X.ndim == 2:
                    if X.shape[1] != 2:
                        raise ValueError(f"Method {method!r} on a binary problem takes a vector or "
                                         f"the n x 2 predict_proba output; X has {X.shape[1]} columns.")
                    X = X[:, 1]
                return X
            if inner in _MATRIX_METHODS and (X.ndim != 2 or X.shape[1] != 2):
                raise ValueError(f"Method {method!r} needs one column per class (2 for a binary "
                                 f"problem); X has {1 if X.ndim == 1 else X.shape[1]}.")
            return X
        if X.ndim != 2 or X.shape[1] != k:
            raise ValueError(f"X must have one column per class ({k}) for {k} classes; "
                             f"it has {1 if X.ndim == 1 else X.shape[1]}.")
        return X

    # -- estimator API ----------------------------------------------------------
    def fit(self, X, y):
        """Fit the calibrator.

        Parameters
        ----------
        X : array_like of shape (n,) or (n, k)
            Predictions of a model: probabilities, scores or logits, as the
            method expects.
        y : array_like of shape (n,)
            Labels (ints, strings, bools); their sorted unique values become
            ``classes_``.

        Returns
        -------
        self

        R equivalent: ``cal_<method>(X, y01)`` (binary, ``y01`` is 1 for
        ``classes_[1]``) or ``cal_<method>(X, codes)`` with codes 1..K.
        """
        method, args = self._resolved()
        X = self._validate_X(X, reset=True)
        y = y if isinstance(y, np.ndarray) and y.ndim == 1 else column_or_1d(y, warn=True)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels.")
        classes, codes = _encode_labels(y)
        if classes.size < 2:
            raise ValueError(_one_class(classes))
        Xf = self._form(X, method, args, classes.size)
        self.classes_ = classes
        # (The cal_* functions never write to their inputs: no copy of the codes.)
        if classes.size == 2 and Xf.ndim == 1:
            self.calibrator_ = self._call(method, args, Xf, codes.astype(np.int64, copy=False), k=2)
        else:
            self.calibrator_ = self._call(method, args, Xf, codes.astype(np.int64) + 1, k=classes.size)
        return self

    @staticmethod
    def _call(method, args, x, y, k):
        if method in _VECTOR_METHODS and x.ndim == 2:
            return cal_ovr(x, y, method=method, **args)
        if method == "cv":
            args = dict(args)
            inner = args.pop("calibration_method", "platt")
            if inner in _VECTOR_METHODS and x.ndim == 2:
                args["base_method"] = inner
                inner = "ovr"
            return cal_cv(x, y, method=_CV_NAMES.get(inner, inner), **args)
        if method == "ovr":
            args = dict(args)
            return cal_ovr(x, y, method=args.pop("base_method", "platt"), **args)
        return _FUNCTIONS[method](x, y, **args)

    def _proba(self, X):
        _check_fitted(self)
        X = self._validate_X(X, reset=False)
        method, args = self._resolved()
        Xf = self._form(X, method, args, self.classes_.size)
        out = np.asarray(self.calibrator_.predict(Xf), dtype=np.float64)
        if out.ndim == 1:
            out = np.column_stack([1.0 - out, out])
        return out

    def predict_proba(self, X):
        """Calibrated class probabilities, columns in ``classes_`` order.

        R equivalent: ``predict(fit, newdata)`` (binary: ``cbind(1 - p, p)``).

        Returns
        -------
        numpy.ndarray of shape (n, n_classes)
        """
        return self._proba(X)

    def predict(self, X):
        """The most probable class of each row (the first one on a tie).

        Returns
        -------
        numpy.ndarray of labels from ``classes_``
        """
        proba = self._proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


_FUNCTIONS = {
    "platt": cal_platt,
    "temperature": cal_temperature,
    "beta": cal_beta,
    "isotonic": cal_isotonic,
    "histogram": cal_histogram,
    "vector_scaling": cal_vector_scaling,
    "dirichlet": cal_dirichlet,
    "scaling_binning": cal_scaling_binning,
}
_CV_NAMES = {"vector_scaling": "vector"}


# ---------------------------------------------------------------------------
# CalibratedClassifier
# ---------------------------------------------------------------------------


def _response(estimator, X, method: str, args: dict, k: int, eps: float):
    """The predictions ``method`` is fitted on, taken from a fitted classifier.

    platt: ``decision_function`` where the classifier has one, else
    ``predict_proba`` (as CalibratedClassifierCV's sigmoid). temperature and
    vector scaling: ``decision_function``, else ``logits_from_proba``.
    The other methods: ``predict_proba``.
    """
    has_df = hasattr(estimator, "decision_function")
    if _needs_probabilities(method, args) or not has_df:
        if not hasattr(estimator, "predict_proba"):
            raise ValueError(f"Method {method!r} needs predict_proba (or decision_function), which "
                             f"{type(estimator).__name__} does not have.")
        P = np.asarray(estimator.predict_proba(X), dtype=np.float64)
        if _needs_logits(method, args):
            L = logits_from_proba(P, eps=eps)
            if k == 2 and _inner_method(method, args) == "temperature":
                return L[:, 1] - L[:, 0]
            return L
        if k == 2 and _inner_method(method, args) in _VECTOR_METHODS:
            return P[:, 1]
        return P
    D = np.asarray(estimator.decision_function(X), dtype=np.float64)
    if D.ndim == 2 and D.shape[1] == 1:
        D = D[:, 0]
    if k == 2 and D.ndim == 1 and _inner_method(method, args) in _MATRIX_METHODS:
        # softmax([-z/2, z/2]) is inv_logit(z): the classifier's own probabilities.
        D = np.column_stack([-D / 2, D / 2])
    return D


class _Fitted:
    """One (classifier, calibrator) pair."""

    def __init__(self, estimator, calibrator):
        self.estimator = estimator
        self.calibrator = calibrator


class CalibratedClassifier(ClassifierMixin, BaseEstimator):
    """A classifier calibrated by a probcal method on out-of-fold predictions.

    The counterpart of scikit-learn's ``CalibratedClassifierCV`` with every
    probcal method. With ``ensemble=True`` each split fits a clone of
    ``estimator`` on its training part and a :class:`ProbcalCalibrator` on
    the predictions for its test part; ``predict_proba`` averages the pairs.
    With ``ensemble=False`` the out-of-fold predictions of all splits
    (``cross_val_predict``) train one calibrator and the classifier is refit
    on all rows. With ``cv="prefit"`` the given, already fitted estimator is
    used as is and the calibrator is fitted on the data passed to ``fit``.

    What the calibrator sees: ``decision_function`` for ``"platt"`` (and
    ``predict_proba`` when there is none), as ``CalibratedClassifierCV``
    does for ``"sigmoid"``; ``predict_proba`` for beta, isotonic, histogram
    and Dirichlet (probcal's functions take probabilities); for temperature
    and vector scaling ``decision_function``, else
    ``logits_from_proba(predict_proba, eps=logit_eps)``. A binary
    ``decision_function`` ``z`` becomes the logit pair ``(-z/2, z/2)`` for
    the matrix methods (its softmax is ``inv_logit(z)``).

    Agreement with scikit-learn: with ``ensemble=False`` and the same
    splits, ``method="isotonic"`` equals ``CalibratedClassifierCV(
    method="isotonic")`` for classifiers without ``decision_function`` (with
    one, scikit-learn fits isotonic regression to the scores, probcal to the
    probabilities: same fitted values at the training points, different
    interpolation between them). ``method="platt"`` minimises the same
    objective as ``method="sigmoid"`` (Platt's targets
    ``(n+ + 1)/(n+ + 2)`` and ``1/(n- + 2)``, logistic model; scikit-learn's
    ``A, B`` are ``-b, -a``) and differs only by scikit-learn's L-BFGS-B
    stopping rule (``gtol=1e-6``) against R's IRLS.

    Parameters
    ----------
    estimator : classifier, default None
        The classifier (``LogisticRegression()`` when None).
    method : str, default "platt"
        A probcal method, see :class:`ProbcalCalibrator`.
    cv : int, cross-validation splitter, iterable or "prefit", default 5
        Splits as ``sklearn.model_selection.check_cv(cv, y, classifier=True)``
        makes them (an int is ``StratifiedKFold(cv)``).
    ensemble : bool, default True
        Average one classifier/calibrator pair per split (True) or one
        calibrator on all out-of-fold predictions (False).
    method_args : dict, optional
        The calibrator's arguments (``bins``, ``eps``, ``lambda_``, ...), see
        :class:`ProbcalCalibrator`.
    logit_eps : float, default 1e-12
        The clip of :func:`logits_from_proba`.

    Attributes
    ----------
    classes_ : numpy.ndarray
    calibrated_classifiers_ : list
        Pairs with ``.estimator`` and ``.calibrator`` (a fitted
        :class:`ProbcalCalibrator`; its ``calibrator_`` prints as R does).
    n_features_in_ : int

    R equivalent: none as a whole (probcal does not fit models); the
    calibrator is ``cal_<method>()`` on the out-of-fold predictions.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = CalibratedClassifier(GaussianNB(), method="beta").fit(X, y)
    >>> clf.predict_proba(X[:2]).shape
    (2, 2)
    """

    def __init__(self, estimator=None, *, method="platt", cv=5, ensemble=True,
                 method_args=None, logit_eps=1e-12):
        self.estimator = estimator
        self.method = method
        self.cv = cv
        self.ensemble = ensemble
        self.method_args = method_args
        self.logit_eps = logit_eps

    def __sklearn_tags__(self):
        from sklearn.utils import get_tags
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = get_tags(self._base()).input_tags.sparse
        return tags

    def _base(self):
        if self.estimator is None:
            from sklearn.linear_model import LogisticRegression
            return LogisticRegression()
        return self.estimator

    def _calibrator(self):
        return ProbcalCalibrator(method=self.method, **(self.method_args or {}))

    def fit(self, X, y, **fit_params):
        """Fit the classifier(s) and the calibrator(s).

        Parameters
        ----------
        X : array_like of shape (n, n_features)
        y : array_like of shape (n,)
        **fit_params
            Passed to the classifier's ``fit`` (``sample_weight`` is refused:
            probcal's calibrators take no weights).

        Returns
        -------
        self
        """
        if "sample_weight" in fit_params:
            raise TypeError("CalibratedClassifier.fit() does not take sample_weight: probcal's "
                            "calibrators, like R's, fit unweighted data.")
        X = check_array(X, accept_sparse=["csr", "csc"], dtype=None)
        y = column_or_1d(y, warn=True)
        _check_label_types(y)
        check_classification_targets(y)
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels.")
        template = self._calibrator()
        method, args = template._resolved()
        if not isinstance(self.logit_eps, numbers.Real) or not (0 < self.logit_eps < 1):
            raise ValueError(f"`logit_eps` must be a number in (0, 1); got {self.logit_eps!r}.")
        self.classes_ = np.unique(y)
        k = self.classes_.size
        if k < 2:
            raise ValueError(_one_class(self.classes_))
        base = self._base()
        pairs = []
        if isinstance(self.cv, str) and self.cv == "prefit":
            try:
                check_is_fitted(base)
            except NotFittedError as exc:
                raise NotFittedError(
                    f'cv="prefit" needs a fitted estimator; {type(base).__name__} is not fitted.'
                ) from exc
            self._check_classes(base)
            pred = _response(base, X, method, args, k, self.logit_eps)
            pairs.append(_Fitted(base, clone(template).fit(pred, y)))
        else:
            n_folds = self.cv if isinstance(self.cv, numbers.Integral) else getattr(self.cv, "n_splits", None)
            counts = np.unique(y, return_counts=True)[1]
            if n_folds and counts.min() < n_folds:
                raise ValueError(f"Requesting {n_folds}-fold cross-validation but provided less than "
                                 f"{n_folds} examples for at least one class.")
            splitter = check_cv(self.cv, y, classifier=True)
            if self.ensemble:
                for train, test in splitter.split(X, y):
                    est = clone(base).fit(X[train], y[train], **fit_params)
                    self._check_classes(est)
                    pred = _response(est, X[test], method, args, k, self.logit_eps)
                    pairs.append(_Fitted(est, clone(template).fit(pred, y[test])))
            else:
                response = self._response_name(base, method, args)
                oof = cross_val_predict(clone(base), X, y, cv=splitter, method=response,
                                        params=fit_params or None)
                est = clone(base).fit(X, y, **fit_params)
                self._check_classes(est)
                pred = _ResponseArray(oof, response)
                pred = _response(pred, None, method, args, k, self.logit_eps)
                pairs.append(_Fitted(est, clone(template).fit(pred, y)))
        self.calibrated_classifiers_ = pairs
        self.n_features_in_ = X.shape[1]
        first = pairs[0].estimator
        if hasattr(first, "feature_names_in_"):
            self.feature_names_in_ = first.feature_names_in_
        return self

    @staticmethod
    def _response_name(estimator, method, args):
        if not _needs_probabilities(method, args) and hasattr(estimator, "decision_function"):
            return "decision_function"
        return "predict_proba"

    def _check_classes(self, est):
        seen = getattr(est, "classes_", None)
        if seen is None:
            return
        seen = np.asarray(seen)
        if seen.shape != self.classes_.shape or np.any(seen != self.classes_):
            extra = sorted(set(self.classes_.tolist()) - set(seen.tolist()))
            raise ValueError(f"The classifier was fitted on classes {seen.tolist()!r}, but y has "
                             f"{self.classes_.tolist()!r}" + (f" (unseen: {extra!r})" if extra else "")
                             + "; every class must reach every fitted classifier.")

    def predict_proba(self, X):
        """Calibrated probabilities (mean over the pairs), columns in ``classes_`` order.

        Returns
        -------
        numpy.ndarray of shape (n, n_classes)
        """
        _check_fitted(self, "calibrated_classifiers_")
        X = check_array(X, accept_sparse=["csr", "csc"], dtype=None)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input.")
        method, args = self._calibrator()._resolved()
        k = self.classes_.size
        total = np.zeros((X.shape[0], k))
        for pair in self.calibrated_classifiers_:
            pred = _response(pair.estimator, X, method, args, k, self.logit_eps)
            total += pair.calibrator.predict_proba(pred)
        return total / len(self.calibrated_classifiers_)

    def predict(self, X):
        """The most probable class of each row.

        Returns
        -------
        numpy.ndarray of labels from ``classes_``
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class _ResponseArray:
    """Stored out-of-fold predictions dressed as the classifier method that made them."""

    def __init__(self, values, response):
        self._values = values
        if response == "decision_function":
            self.decision_function = lambda _X: self._values
        else:
            self.predict_proba = lambda _X: self._values


# ---------------------------------------------------------------------------
# Metrics in scikit-learn's conventions
# ---------------------------------------------------------------------------


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


def expected_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", debiased=False,
                               strategy="equal_width", pos_label=None, labels=None):
    """Expected calibration error, in scikit-learn's argument order.

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
    type : {"classwise", "confidence"}
        For K > 2 classes (R's ``type``).
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

    Returns
    -------
    float

    R equivalent: ``probcal::ece(p, y, bins = n_bins, type, debiased,
    strategy)`` with ``p``/``y`` recoded to probcal's forms; the value is
    ``ece``'s exactly.

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
    return _metrics.ece(p, y, bins=n_bins, type=type, debiased=debiased,
                        strategy=_STRATEGY.get(strategy, strategy))


def maximum_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", pos_label=None,
                              labels=None):
    """Maximum calibration error over non-empty equal-width bins.

    Parameters are those of :func:`expected_calibration_error`.

    Returns
    -------
    float

    R equivalent: ``probcal::mce(p, y, bins = n_bins, type)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.mce(p, y, bins=n_bins, type=type)


def average_calibration_error(y_true, y_prob, *, n_bins=10, type="classwise", pos_label=None,
                              labels=None):
    """Average (unweighted) calibration error over non-empty equal-width bins.

    Parameters are those of :func:`expected_calibration_error`.

    Returns
    -------
    float

    R equivalent: ``probcal::ace(p, y, bins = n_bins, type)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.ace(p, y, bins=n_bins, type=type)


def maximum_mean_calibration_error(y_true, y_prob, *, bandwidth=0.2, pos_label=None, labels=None):
    """Maximum mean calibration error (Laplacian kernel).

    Parameters
    ----------
    y_true, y_prob, pos_label, labels
        As in :func:`expected_calibration_error`.
    bandwidth : float, default 0.2

    Returns
    -------
    float

    R equivalent: ``probcal::mmce(p, y, bandwidth)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _metrics.mmce(p, y, bandwidth=bandwidth)


def squared_kernel_calibration_error(y_true, y_prob, *, estimator="uq", bandwidth=0.2,
                                     type="canonical", pos_label=None, labels=None):
    """Squared kernel calibration error (Widmann, Lindsten & Zachariah 2019).

    Parameters
    ----------
    y_true, y_prob, pos_label, labels
        As in :func:`expected_calibration_error`.
    estimator : {"uq", "ul", "biased"}
        R's ``estimator``.
    bandwidth : float, default 0.2
    type : {"canonical", "confidence", "classwise"}

    Returns
    -------
    float

    R equivalent: ``probcal::skce(p, y, estimator, bandwidth, type)``; equal to it exactly.
    """
    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    return _kernel.skce(p, y, estimator=estimator, bandwidth=bandwidth, type=type)


from ._sklearn_checks import expected_failed_checks  # noqa: E402 (public here)

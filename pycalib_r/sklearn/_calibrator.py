"""``ProbcalCalibrator``: one probcal calibrator as a scikit-learn classifier on predictions.

R equivalent: ``cal_<method>(x, y, ...)`` then ``predict(fit, newdata)``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import column_or_1d

from ..calibrators._base import renormalize_rows
from ..rbase._rnames import python_names
from ..calibrators import cal_cv, cal_ovr
from ..calibrators._methods import aliases, method as _entry, resolve
from ._methods import (
    _args,
    _matrix_methods,
    _vector_methods,
    _inner_method,
    _looks_like_proba,
    _method_name,
    _needs_logits,
)
from ._validation import _as_float_array, _check_feature_names, _check_fitted, _encode_labels, _one_class

__all__ = ["ProbcalCalibrator"]


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
        allowed = _args(method)
        unknown = sorted(set(args) - set(allowed))
        if unknown:
            hint = ", ".join(allowed) if allowed else "none"
            raise ValueError(f"Unknown argument(s) {', '.join(unknown)} for method {method!r}; "
                             f"it takes: {hint}.")
        if "base_method" in args:
            args["base_method"] = aliases().get(args["base_method"], args["base_method"])
        if "calibration_method" in args:
            args["calibration_method"] = aliases().get(args["calibration_method"],
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
            if _entry(inner).binary == "vector":
                if X.ndim == 2:
                    if X.shape[1] != 2:
                        raise ValueError(f"Method {method!r} on a binary problem takes a vector or "
                                         f"the n x 2 predict_proba output; X has {X.shape[1]} columns.")
                    X = X[:, 1]
                return X
            if inner in _matrix_methods() and (X.ndim != 2 or X.shape[1] != 2):
                raise ValueError(f"Method {method!r} needs one column per class (2 for a binary "
                                 f"problem); X has {1 if X.ndim == 1 else X.shape[1]}.")
            return X
        if _entry(inner).multiclass == "":
            raise ValueError(f"Method {method!r} is binary only; y has {k} classes.")
        if X.ndim != 2 or X.shape[1] != k:
            raise ValueError(f"X must have one column per class ({k}) for {k} classes; "
                             f"it has {1 if X.ndim == 1 else X.shape[1]}.")
        return X

    # -- estimator API ----------------------------------------------------------
    def fit(self, X, y, sample_weight=None):
        """Fit the calibrator.

        Parameters
        ----------
        X : array_like of shape (n,) or (n, k)
            Predictions of a model: probabilities, scores or logits, as the
            method expects.
        y : array_like of shape (n,)
            Labels (ints, strings, bools); their sorted unique values become
            ``classes_``.
        sample_weight : array_like of shape (n,), optional
            Observation weights, given to the calibrator as its ``weights``
            (Python-only; R's ``glm`` prior weights, checked by the core's
            ``check_weights``). None: the unweighted fit, unchanged.

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
        # The weights reach the cal_* function only when given, so None runs today's call.
        wt = {} if sample_weight is None else {"weights": sample_weight}
        if classes.size == 2 and Xf.ndim == 1:
            self.calibrator_ = self._call(method, args, Xf, codes.astype(np.int64, copy=False), k=2, **wt)
        else:
            self.calibrator_ = self._call(method, args, Xf, codes.astype(np.int64) + 1, k=classes.size, **wt)
        return self

    @staticmethod
    def _call(method, args, x, y, k, **wt):
        args = dict(args, **wt)
        if method in _vector_methods() and x.ndim == 2:
            return cal_ovr(x, y, method=method, **args)
        if method == "cv":
            args = dict(args)
            inner = args.pop("calibration_method", "platt")
            if inner in _vector_methods() and x.ndim == 2:
                args["base_method"] = inner
                inner = "ovr"
            return cal_cv(x, y, method=_entry(inner).r_choice, **args)
        if method == "ovr":
            args = dict(args)
            return cal_ovr(x, y, method=args.pop("base_method", "platt"), **args)
        return resolve(_entry(method).function)(x, y, **args)

    def _proba(self, X):
        _check_fitted(self)
        X = self._validate_X(X, reset=False)
        method, args = self._resolved()
        Xf = self._form(X, method, args, self.classes_.size)
        out = np.asarray(self.calibrator_.predict(Xf), dtype=np.float64)
        if out.ndim == 1:
            out = np.column_stack([1.0 - out, out])
        elif (_inner_method(method, args) == "scaling_binning"
              and not (method == "scaling_binning" and args.get("renormalize") is True)):
            # scikit-learn's contract: rows sum to one. The core's marginal
            # scaling-binning keeps the K per-class outputs as they are
            # (calibrator_ still does); here they are divided by their sum,
            # a zero row made uniform, as CalibratedClassifierCV normalises
            # its one-vs-rest outputs (the core's renormalize_rows).
            out = renormalize_rows(out)
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


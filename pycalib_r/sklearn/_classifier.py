"""``CalibratedClassifier``: a classifier calibrated by a probcal method on out-of-fold predictions.

R equivalent: none as a whole (probcal does not fit models).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import LeaveOneOut, check_cv, cross_val_predict
from sklearn.utils import _safe_indexing, indexable
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, _routing_enabled, process_routing
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_method_params,
    _num_samples,
    check_is_fitted,
    column_or_1d,
    has_fit_parameter,
)

from ._calibrator import ProbcalCalibrator
from ._methods import (
    _inner_method,
    _matrix_methods,
    _needs_logits,
    _needs_probabilities,
    _vector_methods,
    logits_from_proba,
)
from ._validation import _check_fitted, _check_label_types, _one_class

__all__ = ["CalibratedClassifier"]


def _no_predict_proba(method, estimator):
    raise ValueError(f"Method {method!r} needs predict_proba (or decision_function), which "
                     f"{type(estimator).__name__} does not have.")


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
            _no_predict_proba(method, estimator)
        P = np.asarray(estimator.predict_proba(X), dtype=np.float64)
        if _needs_logits(method, args):
            L = logits_from_proba(P, eps=eps)
            if k == 2 and _inner_method(method, args) == "temperature":
                return L[:, 1] - L[:, 0]
            return L
        if k == 2 and _inner_method(method, args) in _vector_methods():
            return P[:, 1]
        return P
    D = np.asarray(estimator.decision_function(X), dtype=np.float64)
    if D.ndim == 2 and D.shape[1] == 1:
        D = D[:, 0]
    if k == 2 and D.ndim == 1 and _inner_method(method, args) in _matrix_methods():
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
    ensemble : bool or "auto", default "auto"
        Average one classifier/calibrator pair per split (True) or one
        calibrator on all out-of-fold predictions (False). ``"auto"``, as
        in ``CalibratedClassifierCV``: False for a
        ``sklearn.frozen.FrozenEstimator`` (its splits would all hold the
        same classifier), else True.
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
        The fitted classifier's (when it has one), as ``CalibratedClassifierCV``.
    feature_names_in_ : numpy.ndarray of str
        The fitted classifier's column names (a DataFrame ``X`` at fit);
        ``predict_proba`` on other names, or the same names in another
        order, raises scikit-learn's "The feature names should match those
        that were passed during fit".

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

    def __init__(self, estimator=None, *, method="platt", cv=5, ensemble="auto",
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

    def fit(self, X, y, sample_weight=None, **fit_params):
        """Fit the classifier(s) and the calibrator(s).

        ``X`` reaches the classifier as given (a DataFrame keeps its column
        names, a sparse matrix stays sparse, NaN reaches a classifier that
        takes it), split by rows with scikit-learn's ``_safe_indexing``, as
        ``CalibratedClassifierCV`` does.

        Parameters
        ----------
        X : array_like, DataFrame or sparse matrix of shape (n, n_features)
            Whatever the classifier's ``fit`` takes.
        y : array_like of shape (n,)
        sample_weight : array_like of shape (n,), optional
            Observation weights, as ``CalibratedClassifierCV`` takes them:
            each calibrator is fitted with the weights of its rows (the
            ``weights`` of the ``cal_*`` functions, Python-only; R's ``glm``
            prior weights), and the classifier's ``fit`` gets them (its
            training rows') where it takes ``sample_weight``; where it does
            not, a UserWarning says the weights reach the calibration only.
            With ``sklearn.set_config(enable_metadata_routing=True)`` the
            classifier gets them as it requests them, the calibrators
            always. Checked by the core's ``check_weights`` (finite,
            non-negative, positive sum). None: today's fit, unchanged.
        **fit_params
            Passed to the classifier's ``fit`` (each split's training rows
            of the per-row ones). With
            ``sklearn.set_config(enable_metadata_routing=True)`` they are
            routed as the classifier and the splitter request them.

        Returns
        -------
        self
        """
        X, y = indexable(X, y)
        if _num_samples(X) == 0:
            raise ValueError(f"Found array with 0 sample(s) (shape={getattr(X, 'shape', (0,))}) while a "
                             f"minimum of 1 is required by {type(self).__name__}.")
        labels = column_or_1d(y, warn=True)
        if getattr(y, "ndim", 1) != 1:
            y = labels  # a column vector, after scikit-learn's DataConversionWarning
        _check_label_types(labels)
        check_classification_targets(labels)
        template = self._calibrator()
        method, args = template._resolved()
        if not isinstance(self.logit_eps, numbers.Real) or not (0 < self.logit_eps < 1):
            raise ValueError(f"`logit_eps` must be a number in (0, 1); got {self.logit_eps!r}.")
        self.classes_ = np.unique(labels)
        k = self.classes_.size
        if k < 2:
            raise ValueError(_one_class(self.classes_))
        base = self._base()
        sw = None
        if sample_weight is not None:
            from ..inputs._weights import check_weights
            sw = check_weights(sample_weight, _num_samples(X))
        routed = self._routed(base, fit_params, sw)

        def weighted(rows=None):
            # The calibrator's sample_weight: its rows' weights (none when unweighted).
            if sw is None:
                return {}
            return {"sample_weight": sw if rows is None else sw[rows]}

        pairs = []
        if isinstance(self.cv, str) and self.cv == "prefit":
            if fit_params:
                raise ValueError(f'cv="prefit" fits no classifier, so {sorted(fit_params)!r} would '
                                 "be unused; pass them to the classifier's own fit.")
            # (A sample_weight weights the calibrator: the only fit here.)
            try:
                check_is_fitted(base)
            except NotFittedError as exc:
                raise NotFittedError(
                    f'cv="prefit" needs a fitted estimator; {type(base).__name__} is not fitted.'
                ) from exc
            self._check_classes(base)
            pred = _response(base, X, method, args, k, self.logit_eps)
            pairs.append(_Fitted(base, clone(template).fit(pred, labels, **weighted())))
        else:
            n_folds = self.cv if isinstance(self.cv, numbers.Integral) else getattr(self.cv, "n_splits", None)
            counts = np.unique(labels, return_counts=True)[1]
            if n_folds and counts.min() < n_folds:
                raise ValueError(f"Requesting {n_folds}-fold cross-validation but provided less than "
                                 f"{n_folds} examples for at least one class.")
            if isinstance(self.cv, LeaveOneOut):
                raise ValueError("LeaveOneOut cross-validation does not allow all classes to be "
                                 "present in test splits, which probcal's calibrators need. Use a "
                                 "splitter that gives every class to every test and train split "
                                 "(e.g. StratifiedKFold).")
            splitter = check_cv(self.cv, labels, classifier=True)
            ensemble = self.ensemble
            if isinstance(ensemble, str) and ensemble == "auto":
                ensemble = not _is_frozen(base)
            if ensemble:
                for train, test in splitter.split(X, labels, **routed["split"]):
                    params = _check_method_params(X, params=routed["fit"], indices=train)
                    est = clone(base).fit(_safe_indexing(X, train), _safe_indexing(y, train), **params)
                    self._check_classes(est)
                    pred = _response(est, _safe_indexing(X, test), method, args, k, self.logit_eps)
                    pairs.append(_Fitted(est, clone(template).fit(pred, labels[test], **weighted(test))))
            else:
                response = self._response_name(base, method, args)
                oof = cross_val_predict(clone(base), X, y, cv=splitter, method=response,
                                        params=routed["fit"] or None)
                est = clone(base).fit(X, y, **routed["fit"])
                self._check_classes(est)
                pred = _ResponseArray(oof, response)
                pred = _response(pred, None, method, args, k, self.logit_eps)
                pairs.append(_Fitted(est, clone(template).fit(pred, labels, **weighted())))
        self.calibrated_classifiers_ = pairs
        # As CalibratedClassifierCV: the fitted classifier's bookkeeping, so
        # its own check refuses other columns (names, order, count).
        first = pairs[0].estimator
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(first, name):
                setattr(self, name, getattr(first, name))
            elif name in self.__dict__:
                delattr(self, name)
        return self

    def _routed(self, base, fit_params, sw=None):
        """``{"fit": params for the classifier's fit, "split": for the splitter's split}``.

        As ``CalibratedClassifierCV``: without routing, ``sample_weight``
        goes to the classifier's fit where it takes one (else a warning);
        with routing, as the classifier requests it.
        """
        if _routing_enabled():
            extra = {} if sw is None else {"sample_weight": sw}
            routed = process_routing(self, "fit", **extra, **fit_params)
            return {"fit": dict(routed.estimator.fit), "split": dict(routed.splitter.split)}
        params = dict(fit_params)
        if sw is not None:
            if has_fit_parameter(base, "sample_weight"):
                params["sample_weight"] = sw
            else:
                warnings.warn(f"Since {type(base).__name__} does not appear to accept sample_weight, "
                              "sample weights will only be used for the calibration itself.",
                              UserWarning, stacklevel=3)
        return {"fit": params, "split": {}}

    def get_metadata_routing(self):
        """Metadata routing (scikit-learn's ``enable_metadata_routing``).

        ``fit``'s metadata go to the classifier's ``fit`` and the splitter's
        ``split`` as they request them; this estimator consumes
        ``sample_weight`` itself (its calibrators' weights), as
        ``CalibratedClassifierCV`` does.

        Returns
        -------
        sklearn.utils.metadata_routing.MetadataRouter
        """
        return (
            MetadataRouter(owner=self)
            .add_self_request(self)
            .add(estimator=self._base(), method_mapping=MethodMapping().add(caller="fit", callee="fit"))
            .add(splitter=self.cv, method_mapping=MethodMapping().add(caller="fit", callee="split"))
        )

    @staticmethod
    def _response_name(estimator, method, args):
        if not _needs_probabilities(method, args) and hasattr(estimator, "decision_function"):
            return "decision_function"
        if not hasattr(estimator, "predict_proba"):
            _no_predict_proba(method, estimator)
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
        # X reaches each fitted classifier as given: its own checks refuse
        # other feature names, another order or another width.
        method, args = self._calibrator()._resolved()
        k = self.classes_.size
        total = np.zeros((_num_samples(X), k))
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


def _is_frozen(estimator) -> bool:
    try:
        from sklearn.frozen import FrozenEstimator
    except ImportError:  # pragma: no cover - scikit-learn < 1.6
        return False
    return isinstance(estimator, FrozenEstimator)


class _ResponseArray:
    """Stored out-of-fold predictions dressed as the classifier method that made them."""

    def __init__(self, values, response):
        self._values = values
        if response == "decision_function":
            self.decision_function = lambda _X: self._values
        else:
            self.predict_proba = lambda _X: self._values


"""The calibration methods as scikit-learn sees them: names, arguments, input forms, logits.

R equivalent: none (the table of which input each ``cal_*`` function takes).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_array

from ..calibrators._methods import aliases, methods

__all__ = ["METHODS", "logits_from_proba"]

# The probcal calibrators and the Python-only ones, by the names R's
# cal_cv()/cal_ovr() use for them ("vector" is accepted for "vector_scaling",
# as cal_cv() spells it): the calibrator registry's entries, read when used
# (METHODS is the list at import, for the caller).
METHODS = tuple(e.name for e in methods())


def _names(**match) -> tuple:
    """The registry's names whose entries have every ``field=value`` in ``match``."""
    return tuple(e.name for e in methods() if all(getattr(e, k) == v for k, v in match.items()))


def _args(method: str) -> tuple:
    """Keyword arguments ``method`` passes on to its cal_* function (R's names;
    ``base_method`` is cal_ovr's ``method``, ``calibration_method`` cal_cv's)."""
    return next(e.args for e in methods() if e.name == method)


def _vector_methods() -> tuple:
    """The binary-only methods: a vector for two classes, cal_ovr for more."""
    return _names(multiclass="ovr")


def _matrix_methods() -> tuple:
    """The methods that take one column per class even for two classes."""
    return _names(binary="matrix")


def _method_name(method) -> str:
    names = _names()
    if not isinstance(method, str):
        raise ValueError(f"`method` must be one of {', '.join(map(repr, names))}; got {method!r}.")
    name = aliases().get(method, method)
    if name not in names:
        raise ValueError(f"`method` must be one of {', '.join(map(repr, names))}; got {method!r}.")
    return name


def _inner_method(method: str, args: dict) -> str:
    """The calibrator whose input form decides what X must be (cv's and ovr's inner one)."""
    if method == "cv":
        given = args.get("calibration_method", "platt")
        inner = aliases().get(given, given)
        if inner == "cv" or inner not in _names():
            # R's cal_cv() choices, in R's order, by the faces' names.
            listed = sorted((e for e in methods() if e.cv and not e.python_only), key=lambda e: e.cv)
            raise ValueError("`calibration_method` must be one of "
                             f"{', '.join(repr(e.name) for e in listed)}; got {inner!r}.")
        return inner
    return method


def _needs_logits(method: str, args: dict) -> bool:
    inner = _inner_method(method, args)
    if inner == "ovr":
        return args.get("base_method", "platt") == "temperature"
    return inner in _names(input="logits")


def _needs_probabilities(method: str, args: dict) -> bool:
    inner = _inner_method(method, args)
    if inner == "ovr":
        return args.get("base_method", "platt") in _names(input="probabilities")
    return inner in _names(input="probabilities")


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


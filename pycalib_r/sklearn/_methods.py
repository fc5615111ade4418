"""The nine probcal methods as scikit-learn sees them: names, arguments, input forms, logits.

R equivalent: none (the table of which input each ``cal_*`` function takes).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_array

__all__ = ["METHODS", "logits_from_proba"]

# The nine probcal calibrators, by the names R's cal_cv()/cal_ovr() use for
# them ("vector" is accepted for "vector_scaling", as cal_cv() spells it),
# and the Python-only scaling-binning calibrator (Kumar et al. 2019).
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


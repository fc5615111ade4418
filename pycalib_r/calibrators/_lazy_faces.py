"""Where a fitted calibrator's ``predict()`` sends a lazy collection: a registry of faces.

The core never imports a face. A face that maps a lazy collection chunk by
chunk (``pycalib_r.dask``) registers its ``predict(fit, newdata)`` here when
it is imported; :meth:`Calibrator.predict` asks :func:`lazy_predictor` for
the function that takes ``newdata``. So that ``predict()`` on a Dask
collection works without ``import pycalib_r.dask`` first, the registry also
knows which face module to import for a collection's library (by name, the
way an entry point names a plugin): importing it registers the function.

R equivalent: none (R has no lazy collections).
"""

from __future__ import annotations

import importlib
import threading
from typing import Callable, Dict, Optional

__all__ = ["register_lazy_predictor", "lazy_predictor"]

# The top-level package of a collection's type -> the face module that
# registers its predictor when imported.
_PROVIDERS: Dict[str, str] = {"dask": "pycalib_r.dask", "dask_expr": "pycalib_r.dask"}
_PREDICTORS: Dict[str, Callable] = {}
_LOCK = threading.Lock()


def register_lazy_predictor(package: str, predict: Callable) -> None:
    """Register ``predict(fit, newdata)`` for collections whose type lives in ``package``."""
    with _LOCK:
        _PREDICTORS[package] = predict


def _package(x) -> str:
    return type(x).__module__.split(".")[0]


def lazy_predictor(newdata) -> Optional[Callable]:
    """The registered ``predict(fit, newdata)`` for a lazy collection, else None.

    A lazy collection is an object with a task graph (``__dask_graph__``)
    whose library has a face; its face module is imported on first use.
    """
    package = _package(newdata)
    if package not in _PROVIDERS or not hasattr(newdata, "__dask_graph__"):
        return None
    predict = _PREDICTORS.get(package)
    if predict is None:
        importlib.import_module(_PROVIDERS[package])
        predict = _PREDICTORS.get(package)
    return predict

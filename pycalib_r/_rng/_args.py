"""R's argument coercions and messages for the random-number functions.

R's ``resultLength``, ``isNumeric`` + ``coerceVector``, recycling,
``asInteger``/``asReal``/``asLogical``/``asVecSize`` and the "NAs produced"
warning, as ``src/library/stats/src/random.c`` and ``src/main/random.c``
apply them.

R equivalent: the argument handling of ``runif``, ``rnorm``, ..., ``sample``.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .._errors import ProbcalError
from ._mt import _INT_MAX, _R_XLEN_T_MAX

def _result_length(n):
    """R's ``resultLength``: a length-1 ``n`` is the count, else its length."""
    if n is None or isinstance(n, (str, bytes)):
        raise ProbcalError("invalid arguments")
    if hasattr(n, "to_numpy") and not np.isscalar(n):
        n = n.to_numpy()
    if isinstance(n, np.ndarray):
        length = n.size
        flat = n.ravel()
    elif isinstance(n, (list, tuple, range)):
        length = len(n)
        flat = list(n)
    else:
        length = 1
        flat = [n]
    if length != 1:
        return int(length)
    try:
        dn = float(flat[0])
    except (TypeError, ValueError):
        raise ProbcalError("invalid arguments") from None
    if math.isnan(dn) or dn < 0 or dn > _R_XLEN_T_MAX:
        raise ProbcalError("invalid arguments")
    return int(dn)


def _as_double(x):
    """A numeric (or logical) argument as a float64 vector; R's isNumeric test."""
    if x is None or isinstance(x, (str, bytes)):
        raise ProbcalError("invalid arguments")
    if hasattr(x, "to_numpy") and not np.isscalar(x):
        try:
            return np.asarray(x.to_numpy(dtype=np.float64, na_value=np.nan)).ravel()
        except (TypeError, ValueError):
            raise ProbcalError("invalid arguments") from None
    arr = np.asarray(x)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64).ravel()
    if arr.dtype.kind == "O":
        try:
            return np.array([np.nan if v is None else float(v) for v in arr.ravel()],
                            dtype=np.float64)
        except (TypeError, ValueError):
            pass
    raise ProbcalError("invalid arguments")


def _recycle(a, count):
    """R's recycling of a parameter vector to ``count`` elements (no copy when
    nothing needs repeating)."""
    if a.size == count:
        return a
    if a.size == 0:
        return np.full(count, np.nan)
    if a.size == 1:
        return np.full(count, a[0])
    reps = -(-count // a.size)
    return np.tile(a, reps)[:count]


def _na_warning():
    warnings.warn("NAs produced", RuntimeWarning, stacklevel=3)


def _scalar_value(x):
    """``x`` as one Python float when it is a length-1 numeric, else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, (list, tuple)) and len(x) == 1:
        v = x[0]
        if isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)):
            return float(v)
        return None
    if isinstance(x, np.ndarray) and x.size == 1 and x.dtype.kind in "iuf":
        return float(x.ravel()[0])
    if hasattr(x, "to_numpy") and hasattr(x, "__len__") and len(x) == 1:
        arr = np.asarray(x.to_numpy())
        if arr.dtype.kind in "iuf":
            return float(arr.ravel()[0])
    return None


def _population(x):
    """``sample``'s population: a lone string stays a one-element list, any
    other scalar becomes a one-element array (R's length-1 vector)."""
    if isinstance(x, (str, bytes)):
        return [x]
    if np.ndim(x) == 0 and not hasattr(x, "__len__"):
        return np.asarray([x])
    return x


def _length_one_number(x, what):
    """R's ``asReal`` on a length-1 argument; ``what`` names it in errors."""
    if isinstance(x, (str, bytes)) or x is None:
        raise ProbcalError(f"invalid '{what}' argument")
    arr = np.asarray(x)
    if arr.size != 1:
        raise ProbcalError(f"invalid '{what}' argument")
    if arr.dtype.kind not in "biuf":
        raise ProbcalError(f"invalid '{what}' argument")
    return float(arr.ravel()[0])


def _as_logical_flag(x, what):
    arr = np.asarray(x)
    if arr.size != 1 or arr.dtype.kind not in "biuf":
        raise ProbcalError(f"invalid '{what}' argument")
    v = float(arr.ravel()[0])
    if math.isnan(v):
        raise ProbcalError(f"invalid '{what}' argument")
    return v != 0


def _as_int_r(v):
    """R's ``asInteger`` on a double: truncation, or None for NA/out of range."""
    if math.isnan(v) or v >= _INT_MAX + 1.0 or v <= -(_INT_MAX + 1.0):
        return None
    return int(v)


def _vec_size(v):
    """R's ``asVecSize`` on a double (errors with R's messages)."""
    if math.isnan(v):
        raise ProbcalError("vector size cannot be NA/NaN")
    if math.isinf(v):
        raise ProbcalError("vector size cannot be infinite")
    if v > _R_XLEN_T_MAX:
        raise ProbcalError("vector size specified is too large")
    return int(v)


def _r_and(terms):
    """R's ``&&`` over logicals, None standing for NA (left to right,
    FALSE wins, NA otherwise poisons)."""
    result = True
    for t in terms:
        if t is False:
            return False
        if t is None:
            result = None
    return result


def _check_nonneg_int(n, what):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 0:
        raise ProbcalError(f"`{what}` must be a non-negative integer.")
    return int(n)


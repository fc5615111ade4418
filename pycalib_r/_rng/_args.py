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
import re

import numpy as np

from .. import _warn
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
    return _within_int_range(int(dn), "n")


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
    _warn.warn("NAs produced", RuntimeWarning)


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



# --- R's asInteger for seeds --------------------------------------------------

_R_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_R_HEX = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]+)")
_R_SPECIAL = {"na": math.nan, "nan": math.nan, "inf": math.inf, "infinity": math.inf}


def _r_strtod(text):
    """R's ``String2Real`` (``R_strtod``): the double a string means to R,
    and whether R warns "NAs introduced by coercion" (None: not a number)."""
    s = text.strip(" \t\n\r\f\v")
    if s == "":
        return math.nan, False  # a blank string is NA without a warning
    if s == "NA":
        return math.nan, False
    body = s.lstrip("+-")
    sign = -1.0 if s.startswith("-") else 1.0
    if body.lower() in _R_SPECIAL and len(s) - len(body) <= 1:
        return sign * _R_SPECIAL[body.lower()], False
    if _R_DECIMAL.fullmatch(s):
        return float(s), False
    m = _R_HEX.fullmatch(s)
    if m:
        return (-1.0 if m.group(1) == "-" else 1.0) * float(int(m.group(2), 16)), False
    return math.nan, True


def as_seed(seed):
    """A seed as R's ``set.seed`` reads it: ``asInteger`` of its first element.

    Parameters
    ----------
    seed : number, str, bool, sequence or array
        As R coerces it: a double is truncated toward zero; ``True``/``False``
        are 1/0; a string is read as R reads numbers (``" 3 "``, ``"3.9"``,
        ``"1e3"``, ``"0x10"``); a complex number loses its imaginary part
        (with R's warning); of a sequence, array or Series only the first
        element counts (R's ``set.seed(c(1, 2))`` is ``set.seed(1)``); a
        pandas Categorical gives its 1-based code, as an R factor does.

    Returns
    -------
    int
        In ``[-(2**31 - 1), 2**31 - 1]``.

    Raises
    ------
    ProbcalError
        "supplied seed is not a valid integer" (R's message) for NA, NaN,
        an empty vector, a non-numeric string, or a value outside R's
        integer range; the last two after R's warning ("NAs introduced by
        coercion" / "NAs introduced by coercion to integer range").

    R equivalent: ``asInteger(seed)`` in ``do_setseed`` (``src/main/RNG.c``).

    Examples
    --------
    >>> from pycalib_r._rng import as_seed
    >>> as_seed(1.7), as_seed("3"), as_seed(True), as_seed([5, 9])
    (1, 3, 1, 5)
    """
    bad = "supplied seed is not a valid integer"
    value = seed
    if hasattr(value, "cat") and hasattr(value.cat, "codes"):  # a categorical Series
        value = value.cat.codes.to_numpy() + 1
    elif type(value).__name__ == "Categorical" and hasattr(value, "codes"):
        value = np.asarray(value.codes) + 1
    if hasattr(value, "to_numpy") and not np.isscalar(value):
        value = value.to_numpy()
    if isinstance(value, np.ndarray):
        if value.size == 0:
            raise ProbcalError(bad)
        value = value.ravel()[0]
        if isinstance(value, np.generic):
            value = value.item()
    elif isinstance(value, (list, tuple)):
        if len(value) == 0:
            raise ProbcalError(bad)
        value = value[0]
        if isinstance(value, (list, tuple, dict, set, np.ndarray)):
            raise ProbcalError(bad)
    if isinstance(value, np.generic):
        value = value.item()
    if value is None:
        raise ProbcalError(bad)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        x, warn = _r_strtod(value)
        if warn:
            _warn.warn("NAs introduced by coercion", RuntimeWarning)
            raise ProbcalError(bad)
    elif isinstance(value, complex):
        if math.isnan(value.real) or math.isnan(value.imag):
            raise ProbcalError(bad)
        x = value.real
        if value.imag != 0:
            _warn.warn("imaginary parts discarded in coercion", RuntimeWarning)
    elif isinstance(value, numbers.Integral):
        x = int(value)
        if not -_INT_MAX <= x <= _INT_MAX:
            _warn.warn("NAs introduced by coercion to integer range", RuntimeWarning)
            raise ProbcalError(bad)
        return x
    elif isinstance(value, numbers.Real):
        x = float(value)
    else:
        raise ProbcalError(bad)
    if math.isnan(x):
        raise ProbcalError(bad)
    if x >= _INT_MAX + 1.0 or x <= -(_INT_MAX + 1.0):
        _warn.warn("NAs introduced by coercion to integer range", RuntimeWarning)
        raise ProbcalError(bad)
    return int(x)


def _within_int_range(n, what):
    """A count argument within R's integer range, checked before allocating.

    R's ``resultLength`` accepts up to 2^52, then fails to allocate; a
    count above ``2**31 - 1`` is refused here with a message that says how
    to proceed (an addition to R: R has no message for it).
    """
    if n > _INT_MAX:
        e = ProbcalError(
            f"`{what}` = {n} exceeds R's integer range (2^31 - 1 = 2147483647).")
        _add_note(e, "Draw in batches of at most 2147483647 values.")
        raise e
    return n


def _add_note(e, note):
    if hasattr(e, "add_note"):
        e.add_note(note)
    else:  # Python < 3.11
        e.__notes__ = [*getattr(e, "__notes__", []), note]

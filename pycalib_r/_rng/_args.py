# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/src/random.c, src/main/random.c, src/main/coerce.c (GPL-2.0-or-later), (c) The R Core Team
"""R's argument coercions and messages for the random-number functions.

R's ``resultLength``, ``isNumeric`` + ``coerceVector``, recycling,
``asInteger``/``asReal``/``asLogical``/``asVecSize`` and the "NAs produced"
warning, as ``src/library/stats/src/random.c`` and ``src/main/random.c``
apply them.

R equivalent: the argument handling of ``runif``, ``rnorm``, ..., ``sample``.
"""

from __future__ import annotations

import functools
import math
import numbers
import re

import numpy as np

from ..rbase import _warn
from ..rbase._errors import ProbcalError, RAllocationError
from .bitgen._mt import _INT_MAX, _R_XLEN_T_MAX

def is_r_null(x):
    """R's ``NULL`` is ``None``, and only ``None``: the one rule for every
    argument of the random-number functions (``n``, ``size``, ``prob``,
    ``x``, ``seed``, the parameter vectors).

    Any zero-length sequence or array (``[]``, ``()``, ``np.array([])``, an
    empty Series) is a zero-length vector, R's ``numeric(0)``: ``[]`` is
    what ``np.asarray([])`` makes of it, a float64 array of length 0. So
    ``rpois([], 10)`` is an empty result as R's ``rpois(numeric(0), 10)``,
    and ``rpois(None, 10)`` is "invalid arguments" as R's
    ``rpois(NULL, 10)``. Where ``None`` is a Python default standing for
    R's missing argument (``rgamma(rate=None)``, ``ncp=None``,
    ``sample(size=None)``) it means missing, as documented there.
    """
    return x is None


def _coerce_string(text):
    """R's ``asReal`` of a string: its number, with R's "NAs introduced by
    coercion" warning (and NaN) when it is not one."""
    value, warn = _r_strtod(text)
    if warn:
        _warn.warn("NAs introduced by coercion", RuntimeWarning)
    return value


def _result_length(n):
    """R's ``resultLength``: a length-1 ``n`` is the count, else its length
    (``[]`` is R's ``numeric(0)``: 0; ``None`` is R's ``NULL``: "invalid
    arguments"; see :func:`is_r_null`).

    A string is read as R's ``asVecSize`` reads it (``"3"`` is 3; ``"a"`` warns
    "NAs introduced by coercion", then "invalid arguments"). Counts up to R's
    ``R_XLEN_T_MAX`` (2^52) are accepted, as R's long vectors; beyond what
    memory holds the error is R's "cannot allocate vector of size ...".
    """
    if is_r_null(n):
        raise ProbcalError("invalid arguments")
    if isinstance(n, (str, bytes)):
        n = [n]
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
    v = flat[0]
    if isinstance(v, np.generic):
        v = v.item()
    try:
        dn = _coerce_string(v.decode() if isinstance(v, bytes) else v) if isinstance(
            v, (str, bytes)) else float(v)
    except (TypeError, ValueError):
        raise ProbcalError("invalid arguments") from None
    if math.isnan(dn) or dn < 0 or dn > _R_XLEN_T_MAX:
        raise ProbcalError("invalid arguments")
    return int(dn)


def r_alloc_error(count, itemsize=8):
    """R's message when a vector of ``count`` elements cannot be allocated
    (a :class:`~pycalib_r.rbase._errors.RAllocationError`, also a ``MemoryError``)."""
    size = count * itemsize
    if size > 1024.0 ** 3:
        text = f"cannot allocate vector of size {size / 1024.0 ** 3:0.1f} Gb"
    else:
        text = f"cannot allocate vector of size {size / 1024.0 ** 2:0.1f} Mb"
    return RAllocationError(text)


def r_empty(count: int, note: str, dtype=np.float64) -> np.ndarray:
    """``np.empty(count, dtype)`` for a vector R itself would hold, or R's
    "cannot allocate vector of size ..." (with ``note``) before any work."""
    try:
        return np.empty(count, dtype=dtype)
    except MemoryError:
        err = r_alloc_error(count, np.dtype(dtype).itemsize)
        err.add_note(note)
        raise err from None


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


_NA_INTEGER = -2**31  # R's NA_integer_ (INT_MIN)


def r_integer_result(values):
    """R's storage of an integer-valued random result (``random1`` in R's
    ``stats/src/random.c``), as one rule a user can read off the dtype.

    ``values`` is float64 with NaN where R gives NA. R returns a double vector
    when a non-NA value leaves R's integer range, else an integer vector:

    - R double: float64, NaN for NA;
    - R integer without NA: int64;
    - R integer with NA: a :class:`numpy.ma.MaskedArray` of int64 whose mask
      marks the NAs (the data under the mask is R's ``NA_integer_``,
      -2147483648, as rpy2 shows it).
    """
    values = np.asarray(values, dtype=np.float64)
    nan = np.isnan(values)
    with np.errstate(invalid="ignore"):
        big = ~nan & ((values > _INT_MAX) | (values <= -_INT_MAX - 1))
        if big.any():
            # R fills an integer vector ((int) of each value) and switches to
            # double at the first value out of range, copying the integers
            # before it: a -0 of nmath's arithmetic (qbinom's rounding) is +0
            # before that element and stays -0 from it on.
            first = int(np.argmax(big))
            out = values.copy()
            out[:first] += 0.0
            return out
    if not nan.any():
        return values.astype(np.int64)
    data = np.where(nan, float(_NA_INTEGER), values).astype(np.int64)
    return np.ma.MaskedArray(data, mask=nan)


def quiet_numpy(cls):
    """Run every public method of ``cls`` under ``np.errstate(all="ignore")``.

    R's random functions warn only "NAs produced" (and R's own messages);
    IEEE overflow, division by zero and invalid operations are part of
    nmath's arithmetic (an Inf or NaN result), so numpy's floating-point
    warnings are never shown. ``np.errstate`` is local to the thread and
    restored on return, so the caller's settings are untouched.
    """
    for name, fn in list(vars(cls).items()):
        if name.startswith("_") or not callable(fn):
            continue

        def wrap(fn=fn):
            @functools.wraps(fn)
            def quiet(*args, **kwargs):
                with np.errstate(all="ignore"):
                    try:
                        return fn(*args, **kwargs)
                    except MemoryError as e:
                        raise _memory_error(e) from None
            return quiet
        setattr(cls, name, wrap())
    return cls


_NUMPY_ALLOC = re.compile(r"shape \(([0-9, ]+)\) and data type (\w+)")


def _memory_error(e):
    """numpy's MemoryError as R's "cannot allocate vector of size ..." (a long
    vector R would also try to allocate)."""
    m = _NUMPY_ALLOC.search(str(e))
    if m is None:
        return RAllocationError("cannot allocate vector")
    count = 1
    for d in m.group(1).replace(" ", "").split(","):
        if d:
            count *= int(d)
    return r_alloc_error(count, np.dtype(m.group(2)).itemsize)


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

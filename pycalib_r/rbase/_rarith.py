# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/summary.c, src/main/array.c, src/main/arithmetic.c, src/nmath/pnorm.c, src/nmath/fround.c (GPL-2.0-or-later), (c) The R Core Team
"""R's floating-point arithmetic, reproduced operation for operation.

R accumulates ``sum``, ``mean``, ``rowSums`` and ``colSums`` in x87 long
double (``numpy.longdouble`` on x86-64 Linux is the same type), computes the
normal tail with Cody's algorithm (``nmath/pnorm.c``), integer powers by
repeated squaring (``R_pow_di``, ``src/main/arithmetic.c``) and rounds with
``fround`` (``nmath/fround.c``), and it calls the C library's ``exp``,
``log`` and ``log1p``. numpy's SIMD ``exp``/``log``/``log1p`` differ from
glibc in the last bit for a few inputs in a thousand, so the vectorised
wrappers here reach glibc through scipy.special functions that call it
directly. Everything that must equal R's last bit draws on this module.

R equivalent: ``sum``, ``mean``, ``sd``, ``rowSums``, ``colSums``,
``pnorm`` (``pnorm_both``), ``R_pow_di``, ``round`` (R 4.2.2).
"""

from __future__ import annotations

import functools
import math
import platform

import numpy as np

from ._modules import imported

__all__ = [
    "quiet_fp",
    "r_sum",
    "r_mean",
    "r_sd",
    "r_mean2",
    "r_int_mean",
    "r_row_means",
    "r_rowsums",
    "col_sums",
    "pnorm_upper",
    "pnorm_both",
    "pow_di",
    "pow_di_vec",
    "r_round",
    "r_exp",
    "r_log",
    "r_log1p",
]

_LD = np.longdouble

_sp = None


def special():
    """scipy.special, imported at its first use: it takes about 0.3 s (most
    of it array-API machinery), more than the rest of ``import pycalib_r``."""
    global _sp
    if _sp is None:
        from scipy import special as sp  # noqa: PLC0415

        _sp = sp
    return _sp

# Elements from which the compiled elementwise loops (glibc's log and log1p,
# temperature scaling's objective) take over from numpy's: below it, the
# numpy path is about as fast as a ctypes call and the same bits.
NATIVE_MIN_SIZE = 4_096
# Seconds a compiled pass saves per element over its numpy twin (measured
# at 10^6 elements on a 2-core x86-64): glibc's log.
_LIBM_SAVES = 3e-9


# --- long-double sums and means (src/main/summary.c, array.c, cov.c) ---------

_SUM_CHUNK = 8192
_LD_ONES = np.ones(_SUM_CHUNK + 1, dtype=_LD)
_LD_ONES.flags.writeable = False


def _ld_seq_sum(arr: np.ndarray):
    """Left-to-right long-double sum of a 1-d array (R's ``LDOUBLE s += x[i]``).

    numpy's long-double ``dot`` has no BLAS: it is one sequential
    ``tmp += a[i] * b[i]`` loop, so against ones (exact products) it is the
    sequential sum, several times faster than ``cumsum(...)[-1]`` and equal
    to it bit for bit (``add.reduce`` would sum pairwise). Long inputs go in
    chunks, each led by the running sum (``0 + s`` is exact), so the order is
    unchanged and the long-double copy stays small.
    """
    n = arr.size
    if n <= _SUM_CHUNK:
        return np.dot(arr.astype(_LD), _LD_ONES[:n])
    buf = np.empty(_SUM_CHUNK + 1, dtype=_LD)
    total = _LD(0)
    for start in range(0, n, _SUM_CHUNK):
        part = arr[start:start + _SUM_CHUNK]
        m = part.size + 1
        buf[0] = total
        buf[1:m] = part
        total = np.dot(buf[:m], _LD_ONES[:m])
    return total


ld_seq_sum = _ld_seq_sum  # the name other rooms import (public inside the package)


def _seq_sum_matmul(v: np.ndarray) -> float:
    # A stride-0 operand is not BLAS-able, so numpy's matmul takes its own
    # ``sum += a[i] * b[i]`` loop: against ones, the left-to-right sum.
    return float(np.matmul(v, np.broadcast_to(1.0, v.shape)))


def _seq_sum_cumsum(v: np.ndarray) -> float:
    return float(np.cumsum(v)[-1])


def _matmul_is_sequential() -> bool:
    # 1 followed by 999 halves of its last bit: only the left-to-right sum
    # stays 1 (pairwise, blocked or multi-accumulator sums do not).
    probe = np.concatenate(([1.0], np.full(999, 2.0 ** -53)))
    return _seq_sum_matmul(probe) == 1.0 and _seq_sum_matmul(probe[:5]) == 1.0


_seq_sum_impl = _seq_sum_matmul if _matmul_is_sequential() else _seq_sum_cumsum


def seq_sum(v: np.ndarray) -> float:
    """Left-to-right double sum from 0.0 of a 1-d float64 array (a Fortran ``DO`` loop's order).

    Several times faster than ``cumsum(v)[-1]`` and equal to it bit for bit;
    if this numpy's matmul ever stops summing in order (checked at import),
    ``cumsum`` is used.
    """
    if v.size == 0:
        return 0.0
    return _seq_sum_impl(v)


def r_sum(x) -> float:
    """R ``sum()`` of doubles: sequential accumulation in long double, then rounded."""
    arr = np.asarray(x, dtype=np.float64).ravel()
    if arr.size == 0:
        return 0.0
    kern = _x87_kernels(arr.size)
    if kern is not None:
        return float(kern.ld_seq_sum(np.ascontiguousarray(arr)))
    return float(_ld_seq_sum(arr))


# numpy's long double is the x87 80-bit format (what R's LDOUBLE is on x86).
_X87 = (platform.machine().lower() in ("x86_64", "amd64", "i386", "i686", "x86")
        and np.finfo(_LD).nmant == 63)


X87 = _X87  # the name other rooms import (public inside the package)


def _x87_kernels(n=None):
    """R's long-double sum and mean in C (``pycalib_r._native.rbase``), or
    None where the numpy twins run: not x86's 80-bit ``long double`` (the
    twins' numpy ``longdouble`` is then the platform's, as R's is), the
    library not built or switched off, or ``n`` elements too few for a call
    into C to beat the twin (``_NATIVE_SUM_MIN``)."""
    if not _X87 or (n is not None and n < _NATIVE_SUM_MIN):
        return None
    from .. import _native  # noqa: PLC0415

    return _native.kernels("rbase")


# Elements from which R's long-double sum and mean run in C: below, the
# twins' long-double copy costs about what a call into C does.
_NATIVE_SUM_MIN = 256


def r_mean(x) -> float:
    """R ``mean()`` of doubles: long-double mean plus R's second refinement pass."""
    arr = np.asarray(x, dtype=np.float64).ravel()
    n = arr.size
    if n == 0:
        return float("nan")
    kern = _x87_kernels(n)
    if kern is not None:
        # The same two passes in C's long double (src/rbase.c): no
        # long-double copy of the array, and no warning of numpy's.
        return float(kern.ld_mean(np.ascontiguousarray(arr)))
    arr_ld = arr.astype(_LD)
    s = _ld_seq_sum(arr_ld) / _LD(n)
    if math.isfinite(float(s)):
        t = _ld_seq_sum(arr_ld - s)
        s = s + t / _LD(n)
    return float(s)


def r_sd(x) -> float:
    """R ``sd(x)``: sqrt of the n - 1 variance about R's (long double) mean."""
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    if n < 2:
        return float("nan")
    m = r_mean(x)
    d = x - m
    ss = np.cumsum(d * d, dtype=_LD)[-1]
    return math.sqrt(float(ss / (n - 1)))


def r_mean2(a: float, b: float) -> float:
    """R ``mean(c(a, b))``: the long double midpoint rounded once."""
    return float((_LD(a) + _LD(b)) / 2)


def r_int_mean(x) -> float:
    """R ``mean()`` of an integer vector: long-double sum divided by n, then rounded."""
    arr = np.asarray(x).ravel()
    if arr.size == 0:
        return float("nan")
    total = int(arr.astype(np.int64).sum())
    return float(_LD(total) / _LD(arr.size))


def r_row_means(x: np.ndarray) -> np.ndarray:
    """R's ``mean()`` of each row: a sequential long-double sum, then R's
    correction pass (``mean.default`` on each row, as ``apply(x, 1, mean)``)."""
    x = np.asarray(x, dtype=np.float64)
    m = x.shape[1]
    # Columns as the leading axis: numpy then adds one column at a time, in
    # R's order; along the last axis it would sum pairwise, which is not R's.
    xt = np.ascontiguousarray(x.T, dtype=_LD)
    s = np.add.reduce(xt, axis=0) / m
    xt -= s
    t = np.add.reduce(xt, axis=0)
    return (s + t / m).astype(np.float64)


def r_rowsums(m) -> np.ndarray:
    """R ``rowSums()`` of a double matrix: per-row long-double accumulation over columns."""
    mat = np.asarray(m, dtype=np.float64)
    if mat.shape[0] < 2:
        return np.cumsum(mat, axis=1, dtype=_LD)[:, -1].astype(np.float64) if mat.shape[1] else \
            np.zeros(mat.shape[0])
    # Columns as the rows of a C-contiguous array: numpy reduces that
    # leading axis one vectorised add per column, in column order, which is
    # R's accumulation (pairwise summation applies only along the fastest axis).
    return np.add.reduce(np.ascontiguousarray(mat.T, dtype=_LD), axis=0).astype(np.float64)


def col_sums(m: np.ndarray) -> np.ndarray:
    """R ``colSums()``: each column summed top to bottom in long double, then rounded."""
    return np.cumsum(np.asarray(m).astype(_LD), axis=0)[-1].astype(np.float64)


# --- the upper normal tail (nmath/pnorm.c) -------------------------------------

# Cody (1993) rational approximations, as in R's nmath/pnorm.c.
_A = (2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582,
      18154.981253343561249, 0.065682337918207449113)
_B = (47.20258190468824187, 976.09855173777669322, 10260.932208618978205,
      45507.789335026729956)
_C = (0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979,
      597.27027639480026226, 2494.5375852903726711, 6848.1904505362823326,
      11602.651437647350124, 9842.7148383839780218, 1.0765576773720192317e-8)
_D = (22.266688044328115691, 235.38790178262499861, 1519.377599407554805,
      6485.558298266760755, 18615.571640885098091, 34900.952721145977266,
      38912.003286093271411, 19685.429676859990727)
_P = (0.21589853405795699, 0.1274011611602473639, 0.022235277870649807,
      0.001421619193227893466, 2.9112874951168792e-5, 0.02307344176494017303)
_Q = (1.28426009614491121, 0.468238212480865118, 0.0659881378689285515,
      0.00378239633202758244, 7.29751555083966205e-5)
_M_SQRT_32 = 5.656854249492380195206754896838
_M_1_SQRT_2PI = 0.398942280401432677939946059934
_HALF_EPS = 2.220446049250313e-16 * 0.5


def _do_del(big_x: float, x: float, temp: float, lower: bool, upper: bool, log_p: bool):
    """R's ``do_del``: x^2 split so that exp() keeps its accuracy in the tail."""
    xsq = math.trunc(big_x * 16) / 16
    dl = (big_x - xsq) * (big_x + xsq)
    if log_p:
        cum = (-xsq * (xsq * 0.5)) - dl * 0.5 + _c_log(temp)
        ccum = math.nan
        if (lower and x > 0.) or (upper and x <= 0.):
            ccum = math.log1p(-math.exp(-xsq * (xsq * 0.5)) * math.exp(-dl * 0.5) * temp)
        return cum, ccum
    cum = math.exp(-xsq * (xsq * 0.5)) * math.exp(-dl * 0.5) * temp
    return cum, 1.0 - cum


def _c_log(x: float) -> float:
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def pnorm_both(x: float, i_tail: int, log_p: bool = False):
    """R's ``pnorm_both`` (nmath/pnorm.c, Cody's algorithm) bit for bit:
    ``(cum, ccum)`` for ``i_tail`` 0 (lower), 1 (upper) or 2 (both), on the
    log scale when ``log_p``; the tail not asked for may be NaN."""
    if math.isnan(x):
        return x, x
    lower = i_tail != 1
    upper = i_tail != 0
    cum = ccum = math.nan
    y = abs(x)
    if y <= 0.67448975:
        if y > _HALF_EPS:
            xsq = x * x
            xnum = _A[4] * xsq
            xden = xsq
            for i in range(3):
                xnum = (xnum + _A[i]) * xsq
                xden = (xden + _B[i]) * xsq
        else:
            xnum = xden = 0.0
        temp = x * (xnum + _A[3]) / (xden + _B[3])
        if lower:
            cum = 0.5 + temp
        if upper:
            ccum = 0.5 - temp
        if log_p:
            if lower:
                cum = _c_log(cum)
            if upper:
                ccum = _c_log(ccum)
        return cum, ccum
    if y <= _M_SQRT_32:
        xnum = _C[8] * y
        xden = y
        for i in range(7):
            xnum = (xnum + _C[i]) * y
            xden = (xden + _D[i]) * y
        temp = (xnum + _C[7]) / (xden + _D[7])
        cum, ccum = _do_del(y, x, temp, lower, upper, log_p)
    elif ((log_p and y < 1e170) or (lower and -37.5193 < x < 8.2924)
          or (upper and -8.2924 < x < 37.5193)):
        xsq = 1.0 / (x * x)
        xnum = _P[5] * xsq
        xden = xsq
        for i in range(4):
            xnum = (xnum + _P[i]) * xsq
            xden = (xden + _Q[i]) * xsq
        temp = xsq * (xnum + _P[4]) / (xden + _Q[4])
        temp = (_M_1_SQRT_2PI - temp) / y
        cum, ccum = _do_del(x, x, temp, lower, upper, log_p)
    else:
        d0, d1 = (-math.inf, 0.) if log_p else (0., 1.)
        return (d1, d0) if x > 0 else (d0, d1)
    if x > 0.:  # swap_tail
        temp = cum
        if lower:
            cum = ccum
        ccum = temp
    return cum, ccum


def pnorm_upper(x: float) -> float:
    """R ``pnorm(x, lower.tail = FALSE)`` bit for bit: Cody's algorithm as in R's
    ``pnorm_both`` (nmath/pnorm.c), so large z gives R's tiny tail (and R's 0
    beyond 37.5193) rather than ``1 - pnorm(x)``."""
    if math.isnan(x):
        return x
    if math.isinf(x):
        return 0.0 if x > 0 else 1.0
    return pnorm_both(x, 1)[1]


# --- R_pow_di and fround ------------------------------------------------------------

def pow_di(x, n):
    """R's ``R_pow_di`` (repeated squaring; its rounding is part of rbinom)."""
    xn = 1.0
    if n != 0:
        if not math.isfinite(x):
            return x ** float(n)
        neg = n < 0
        if neg:
            n = -n
        while True:
            if n & 1:
                xn *= x
            n >>= 1
            if n:
                x *= x
            else:
                break
        if neg:
            xn = 1.0 / xn
    return xn


def pow_di_vec(x, n):
    """Vectorised :func:`pow_di` for finite ``x`` and non-negative int ``n``."""
    x = np.array(x, dtype=np.float64)
    n = np.array(n, dtype=np.int64)
    xn = np.ones_like(x)
    while True:
        odd = (n & 1) == 1
        xn[odd] *= x[odd]
        n >>= 1
        if not n.any():
            break
        with np.errstate(over="ignore", under="ignore"):
            x = x * x
    return xn


def r_round(x, digits: int = 0):
    """R (>= 4.0.0) ``round(x, digits)``: the closer of the two decimal candidates.

    Port of ``fround()`` in R's ``src/nmath/fround.c``; Python's ``round`` rounds
    the exact binary value and can disagree with R on half-way-looking inputs.
    """
    scalar = np.ndim(x) == 0
    vals = np.atleast_1d(np.asarray(x, dtype=np.float64))
    out = np.array([_fround(float(v), digits) for v in vals.ravel()]).reshape(vals.shape)
    return float(out[0]) if scalar else out


def _fround(x: float, digits: float) -> float:
    max_digits = 308 + 15
    if math.isnan(x) or math.isnan(digits):
        return x + digits
    if not math.isfinite(x):
        return x
    if digits > max_digits or x == 0.0:
        return x
    if digits < -308:
        return 0.0
    if digits == 0.0:
        return float(np.rint(x))
    dig = int(math.floor(digits + 0.5))
    sgn = 1.0
    if x < 0.0:
        sgn = -1.0
        x = -x
    # logb(x) is the binary exponent; frexp's is one larger.
    l10x = 0.301029995663981195213738894724 * (0.5 + (math.frexp(x)[1] - 1))
    if l10x + dig > 15:
        return sgn * x
    if dig <= 308:
        pow10 = pow_di(10.0, dig)
        x10 = x * pow10
        i10 = math.floor(x10)
        xd = i10 / pow10
        xu = math.ceil(x10) / pow10
    else:
        e10 = dig - 308
        p10 = pow_di(10.0, e10)
        pow10 = pow_di(10.0, 308)
        x10 = (x * pow10) * p10
        i10 = math.floor(x10)
        xd = i10 / pow10 / p10
        xu = math.ceil(x10) / pow10 / p10
    du = xu - x
    dd = x - xd
    return sgn * (xu if (du < dd or (math.fmod(i10, 2.0) == 1 and du == dd)) else xd)


# --- the C library's exp, log and log1p, elementwise ------------------------------


# Importing scipy.special costs a new process about 0.3 s; the math module's
# functions (the same glibc calls) cost about 0.25 us more per element than
# its ufuncs (both measured on a loaded 2-core machine, where both scale
# alike). Small work uses them until the elements done that way would have
# paid for the import (or one call alone, or the work an algorithm
# announces with expect_elementwise, would).
_SCIPY_COST = 0.3
_MATH_COST = 2.5e-7
_math_done = [0]


def _by_math(n: int) -> bool:
    if _sp is not None or imported("scipy.special") is not None:
        return False
    _math_done[0] += n
    return n * _MATH_COST < _SCIPY_COST and _math_done[0] * _MATH_COST < _SCIPY_COST


def expect_elementwise(n: int) -> None:
    """An algorithm is about to take glibc's exp/log/log1p of about ``n``
    elements in all (an optimiser's evaluations): import scipy.special now
    if the math module would cost more than that import."""
    if n * _MATH_COST >= _SCIPY_COST:
        special()


def _math_map(fn, arr: np.ndarray, ok: np.ndarray, edge) -> np.ndarray:
    """``fn`` (a math-module function: glibc's) of each element where ``ok``
    (finite results, no exception), ``edge`` (numpy, exact there) elsewhere."""
    out = np.empty(arr.shape)
    flat, res = arr.reshape(-1), out.reshape(-1)
    if ok.all():
        res[:] = np.fromiter(map(fn, flat.tolist()), dtype=np.float64, count=flat.size)
        return out
    good = ok.reshape(-1)
    res[good] = np.fromiter(map(fn, flat[good].tolist()), dtype=np.float64)
    with np.errstate(all="ignore"):
        res[~good] = edge(flat[~good])
    return out


def _exp_edge(x: np.ndarray) -> np.ndarray:
    # Above log(DBL_MAX) only the few values just below 709.7828 stay finite.
    out = np.full(x.shape, np.inf)
    for i, v in enumerate(x.tolist()):
        try:
            out[i] = math.exp(v)
        except OverflowError:
            pass
    return out


def r_exp(x) -> np.ndarray:
    """The C library's ``exp`` elementwise (scipy's ``inv_boxcox(x, 0)`` calls it directly)."""
    arr = np.asarray(x, dtype=np.float64)
    if _by_math(arr.size):
        with np.errstate(invalid="ignore"):
            ok = ~(arr > 709.78)
        return _math_map(math.exp, arr, ok, _exp_edge)
    return special().inv_boxcox(arr, 0.0)


def _libm_loop(arr: np.ndarray, name: str):
    """``name`` (``log_into``/``log1p_into``) of ``arr`` by the compiled loop, or None."""
    if arr.size < NATIVE_MIN_SIZE:
        return None
    from .. import _native  # noqa: PLC0415

    kern = _native.kernels("libm")
    if kern is None:
        return None
    if arr.flags.f_contiguous and not arr.flags.c_contiguous:
        # The answer keeps the argument's layout, as a ufunc's does.
        return _libm_loop(arr.T, name).T
    out = np.empty(arr.shape)
    getattr(kern, name)(np.ascontiguousarray(arr).reshape(-1), out.reshape(-1))
    return out


def r_log(x) -> np.ndarray:
    """The C library's ``log`` elementwise (``xlogy(1, x)`` is ``1 * log(x)``)."""
    arr = np.asarray(x, dtype=np.float64)
    out = _libm_loop(arr, "log_into")
    if out is None and _by_math(arr.size):
        with np.errstate(invalid="ignore"):
            # log(0) is -inf and log(x < 0) NaN, exactly, whatever computes them.
            return _math_map(math.log, arr, ~(arr <= 0.0), np.log)
    return special().xlogy(1.0, arr) if out is None else out


def r_log1p(x) -> np.ndarray:
    """The C library's ``log1p`` elementwise (``boxcox1p(x, 0)`` returns ``log1p(x)``)."""
    arr = np.asarray(x, dtype=np.float64)
    out = _libm_loop(arr, "log1p_into")
    if out is None and _by_math(arr.size):
        with np.errstate(invalid="ignore"):
            return _math_map(math.log1p, arr, ~(arr <= -1.0), np.log1p)
    return special().boxcox1p(arr, 0.0) if out is None else out


def quiet_fp(fn):
    """Run ``fn`` under ``np.errstate(all="ignore")``.

    R's arithmetic gives Inf, 0 and NaN without a word (an overflowing
    ``d / bandwidth``, ``exp(-Inf)``, a BFGS step on logits near 1e300);
    numpy warns for each. R's own warnings (``warnings.warn``) are not
    affected, and numpy's error state is per thread (a context variable),
    so nothing changes outside the call.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return wrapper

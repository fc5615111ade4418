"""Multiclass temperature scaling's objective in one compiled pass (loaded
through ``pycalib_r._jit.kernels`` with ``float_math``; x86 only).

probcal evaluates ``multiclass_log_loss(softmax(logits / T), y)`` at each of
Brent's steps: ``x / T`` elementwise, each row's maximum, ``exp(x - max)``
(the C library's), ``rowSums()`` (a long-double sum over the columns, rounded
once), the label's column divided by it, ``pmin(pmax(p, eps), 1 - eps)``,
``log()`` (the C library's), and ``-mean()`` (long double, R's second pass).
This kernel does it row by row with one row of scratch, with no n x K
temporaries, operation for operation as the numpy path does (the row sums
and the mean by the x87 unit, as in ``_rbin_kernels``), so the two give the
same bits (tests/test_calibrator_kernels.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import llvmlite.binding as _llvm
import numpy as np
from numba import types

from pycalib_r._jit import njit
from pycalib_r.binned._rbin_kernels import _ld_div, _ld_fin, _ld_row_sum, _seg_dev, _seg_sum


# --- glibc's exp and log without their errno wrappers -------------------------
#
# Since glibc 2.29, ``exp`` (the symbol R, CPython and numba's math.exp call)
# is a wrapper: it calls ``__exp`` (an IFUNC choosing the FMA, AVX2 or SSE2
# build of the same code) and sets ``errno`` on overflow/underflow, leaving
# the result as it is; ``log`` likewise tail-calls ``__log`` after an errno
# check for x <= 0. ``__exp_finite``/``__log_finite`` (compat symbols,
# version GLIBC_2.15) are those IFUNCs themselves: glibc 2.36's exp@@GLIBC_2.29
# calls the PLT slot of the IFUNC at the address of __exp_finite@GLIBC_2.15,
# log@@GLIBC_2.29 jumps to that of __log_finite. Calling them directly skips
# the wrapper (about 40% of an exp call's time) with the same bits. Each is
# used only when found and when it agrees bit for bit with the wrapper on
# the checks below; otherwise the kernels call the wrapper itself.

def _libm_entry(libm, name: str, direct: str, args) -> int:
    wrapper = ctypes.cast(getattr(libm, name), ctypes.c_void_p).value
    try:
        dlvsym = ctypes.CDLL(None).dlvsym
    except (AttributeError, OSError):  # not glibc
        return wrapper
    dlvsym.restype = ctypes.c_void_p
    dlvsym.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
    addr = dlvsym(libm._handle, direct.encode(), b"GLIBC_2.15")
    if not addr:
        return wrapper
    proto = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)
    f_direct, f_wrapper = proto(addr), proto(wrapper)
    for x in args:
        a, b = f_direct(x), f_wrapper(x)
        if not (a == b and math.copysign(1.0, a) == math.copysign(1.0, b)) and not (a != a and b != b):
            return wrapper
    return addr


def _check_args():
    g = np.random.default_rng(20261202)
    grid = np.concatenate([np.linspace(-750.0, 712.0, 3001), g.normal(0, 30, 2000), g.uniform(-1, 1, 500),
                           np.ldexp(g.uniform(0.5, 1, 500), g.integers(-1074, 1000, 500)),
                           [0.0, -0.0, 5e-324, -5e-324, 1e-300, 1.0, 1.0 - 2 ** -53, 1.0 + 2 ** -52,
                            -745.1332191019411, -745.1332191019412, 709.782712893384, 709.7827128933841,
                            math.inf, -math.inf, math.nan]])
    return [float(v) for v in grid]


def _register_libm():
    name = ctypes.util.find_library("m")
    libm = ctypes.CDLL(name) if name else ctypes.CDLL(None)
    args = _check_args()
    _llvm.add_symbol("pycalib_r_glibc_exp", _libm_entry(libm, "exp", "__exp_finite", args))
    _llvm.add_symbol("pycalib_r_glibc_log", _libm_entry(libm, "log", "__log_finite", [abs(v) for v in args]))


_register_libm()
_exp = types.ExternalFunction("pycalib_r_glibc_exp", types.float64(types.float64))
_log = types.ExternalFunction("pycalib_r_glibc_log", types.float64(types.float64))


# Rows handled per block: each libm function then runs in a loop of its own
# over the block (about twice as fast as calls interleaved with other work),
# and the block's scratch (K x _BLOCK doubles) stays in the core's cache.
_BLOCK = 512


@njit
def multiclass_temperature_terms(mat, codes, temperature, eps, terms, row, first, last):
    """``terms[i] = log(clip(softmax(mat / T)[i, codes[i]]))`` for the rows
    ``first <= i < last`` (``mat`` C-contiguous, ``codes`` 1-based; ``row``
    scratch of at least K x 512 doubles). Each row alone: pieces of rows can
    run on different cores and give the same terms.

    Every loop runs over a slice of the block (so LLVM sees indices from 0
    and vectorises the division and the selects). The row's maximum minus
    itself is an exact 0, and glibc's ``exp`` takes a branch of its own for
    arguments that small, mispredicted at random positions: each exact zero
    (of either sign) is given ``exp(-1)``'s fast path instead and its result
    replaced by 1.0 afterwards, ``exp(+-0) = 1`` exactly (C99 Annex F.9.3.1),
    so the bits are those of ``exp()`` on every element.
    """
    k = mat.shape[1]
    flat = mat.reshape(-1)
    hi = 1.0 - eps
    rs = np.empty(1)
    zero = np.empty(k * _BLOCK, dtype=np.bool_)
    for lo in range(first, last, _BLOCK):
        up = min(lo + _BLOCK, last)
        nr = up - lo
        cnt = nr * k
        src = flat[lo * k:up * k]
        blk = row[:cnt]
        for q in range(cnt):
            blk[q] = src[q] / temperature
        # Minus the row's maximum (exact in any order).
        for i in range(nr):
            r = blk[i * k:(i + 1) * k]
            m = r[0]
            for j in range(1, k):
                if r[j] > m:
                    m = r[j]
            for j in range(k):
                r[j] = r[j] - m
        for q in range(cnt):
            v = blk[q]
            z = v == 0.0
            zero[q] = z
            blk[q] = -1.0 if z else v
        for q in range(cnt):
            blk[q] = _exp(blk[q])
        for q in range(cnt):
            blk[q] = 1.0 if zero[q] else blk[q]
        tb = terms[lo:up]
        cb = codes[lo:up]
        for i in range(nr):
            _ld_row_sum(rs, 0, blk, i * k, k)
            p = blk[i * k + cb[i] - 1] / rs[0]
            # pmin(pmax(p, eps), 1 - eps), a NaN kept as numpy keeps it.
            if p < eps:
                p = eps
            if p > hi:
                p = hi
            tb[i] = p
        for i in range(nr):
            tb[i] = _log(tb[i])


@njit
def neg_r_mean(terms, res):
    """``res[0] = -mean(terms)`` as R's ``mean()`` (long-double sum / n, then
    the mean deviation added) when that is finite (``res[1] = 1``); else
    ``res[1] = 0`` (R skips the second pass then: the caller takes it)."""
    n = terms.size
    acc80 = np.zeros(4)
    cnt = np.empty(1, dtype=np.int64)
    cnt[0] = n
    _seg_sum(acc80, 0, terms, 0, n)
    _ld_div(acc80, 0, acc80, 0, cnt, 0)
    _seg_dev(acc80, 2, acc80, 0, terms, 0, n)
    _ld_fin(res, 0, acc80, 0, acc80, 2, cnt, 0)
    res[0] = -res[0]
    res[1] = 1.0 if math.isfinite(res[0]) else 0.0

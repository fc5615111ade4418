"""Compiled elementwise ``log`` and ``log1p`` (loaded through ``pycalib_r._jit.kernels``),
and ``glibc_exp``/``glibc_log`` for other kernels (glibc's functions without
their errno wrappers: the same bits, cheaper calls; see below), and
``exp_block``: glibc's ``exp`` over a block with its main path vectorised,
the same bits where ``fast_exp_ok()`` finds them (see further below).

Each loop calls the C library's function once per element, as R's
arithmetic does; the gate loads float kernels only when numba calls glibc's
libm (no SVML), so the values are those of the scipy.special route in
``_rarith`` bit for bit, about three times faster for ``log`` (scipy's
``xlogy`` tests and multiplies every element).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math

import llvmlite.binding as _llvm
import numpy as np
from numba import types

from pycalib_r._jit import njit
from pycalib_r.rbase._bits_kernels import bits_f64, f64_bits, fma


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
# the checks below; otherwise the kernels call the wrapper itself. Kernels
# call them as ``glibc_exp(x)`` and ``glibc_log(x)``.


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
glibc_exp = types.ExternalFunction("pycalib_r_glibc_exp", types.float64(types.float64))
glibc_log = types.ExternalFunction("pycalib_r_glibc_log", types.float64(types.float64))


@njit
def log_into(x, out):
    for i in range(x.size):
        out[i] = math.log(x[i])


@njit
def log1p_into(x, out):
    for i in range(x.size):
        out[i] = math.log1p(x[i])


# --- glibc's exp, its main path vectorised -------------------------------------
#
# glibc's exp (2.28 and later; Szabolcs Nagy's algorithm, from Arm's
# optimized-routines) is, for |x| in [2^-54, 512): k = round(x N / ln 2) by
# adding a shift constant, r = x - k ln2 / N in two steps, 2^(k/N) from a
# table of N = 128 entries (H[j] (1 + T[j]) = 2^(j/N)), a degree-5
# polynomial in r, and scale + scale * tmp. The x86-64 build that the IFUNC
# picks on a CPU with FMA and AVX2 fuses seven of those steps (read off its
# machine code: each fma below is one vfmadd there, in the same places);
# |x| < 2^-54 returns 1 + x; the rest (|x| >= 512, inf, NaN) goes to its
# special cases, called here one element at a time. ``exp_block`` does the
# main path for a whole block in one loop that LLVM vectorises (3.6x faster
# than a call per element here), with the same bits: ``fast_exp_ok`` checks
# it against glibc's own function before any kernel uses it, and on another
# C library or another build of it (the SSE2 one without fma, say) the
# kernels call glibc's function instead.

def _exp_table():
    # tab[2j] = the bits of T[j], tab[2j + 1] = the bits of H[j] minus j << 45
    # (the exponent bits k / N adds back), with H[j] the double nearest
    # 2^(j/128) and T[j] the double nearest (2^(j/128) - H[j]) / H[j]: the
    # definition of glibc's table, computed here to 40 digits (T[j] is about
    # 1e-17 of H[j]: 40 digits round both exactly; 80 give the same table).
    from decimal import Context, Decimal  # noqa: PLC0415

    ctx = Context(prec=40)
    step = ctx.divide(ctx.ln(Decimal(2)), Decimal(128))
    tab = np.empty(256, dtype=np.uint64)
    for j in range(128):
        e = ctx.exp(ctx.multiply(Decimal(j), step))
        h = float(e)
        t = float(ctx.divide(ctx.subtract(e, Decimal(h)), Decimal(h)))
        tab[2 * j] = np.float64(t).view(np.uint64)
        tab[2 * j + 1] = (int(np.float64(h).view(np.uint64)) - (j << 45)) % (1 << 64)
    return tab


_EXP_TAB = _exp_table()
_INV_LN2_N = float.fromhex("0x1.71547652b82fep0") * 128
_SHIFT = float.fromhex("0x1.8p52")
_NEG_LN2_HI_N = float.fromhex("-0x1.62e42fefa0000p-8")
_NEG_LN2_LO_N = float.fromhex("-0x1.cf79abc9e3b3ap-47")
# glibc's minimax coefficients of exp(r) - 1 - r (r^2 to r^5).
_C2 = float.fromhex("0x1.ffffffffffdbdp-2")
_C3 = float.fromhex("0x1.555555555543cp-3")
_C4 = float.fromhex("0x1.55555cf172b91p-5")
_C5 = float.fromhex("0x1.1111167a4d017p-7")


@njit
def exp_block(x, out):
    """``out[i] = exp(x[i])`` with glibc's FMA build's bits: its main path
    for every element in one vectorised loop, then glibc's own function for
    the elements outside it (|x| >= 512, inf, NaN). ``out`` must not be
    ``x``. Only where :func:`fast_exp_ok` is true."""
    n = x.size
    outside = 0
    for i in range(n):
        v = x[i]
        top = (f64_bits(v) >> np.uint64(52)) & np.uint64(0x7FF)
        kd = fma(v, _INV_LN2_N, _SHIFT)
        ki = f64_bits(kd)
        kd = kd - _SHIFT
        r = fma(kd, _NEG_LN2_LO_N, fma(kd, _NEG_LN2_HI_N, v))
        j = (ki & np.uint64(127)) << np.uint64(1)
        r2 = r * r
        tmp = fma(r2 * r2, fma(r, _C5, _C4), fma(fma(r, _C3, _C2), r2, r + bits_f64(_EXP_TAB[j])))
        scale = bits_f64(_EXP_TAB[j + np.uint64(1)] + (ki << np.uint64(45)))
        out[i] = (1.0 + v) if top < np.uint64(0x3C9) else fma(scale, tmp, scale)
        outside += top >= np.uint64(0x408)
    if outside:
        for i in range(n):
            if ((f64_bits(x[i]) >> np.uint64(52)) & np.uint64(0x7FF)) >= np.uint64(0x408):
                out[i] = glibc_exp(x[i])


@njit
def exp_calls(x, out):
    """``out[i] = exp(x[i])``, one call of glibc's function per element."""
    for i in range(x.size):
        out[i] = glibc_exp(x[i])


_fast_exp = []


def fast_exp_ok() -> bool:
    """Whether :func:`exp_block` gives glibc's bits here: checked once per
    process on about 40,000 arguments (every table entry, both signs, the
    edges of each path, random ones), against glibc's function itself."""
    if not _fast_exp:
        g = np.random.default_rng(20261202)
        grid = np.concatenate([np.array(_check_args()), g.normal(0, 3, 20_000), -g.exponential(8, 10_000),
                               g.uniform(-745.5, 709.8, 5_000),
                               np.ldexp(g.uniform(-1, 1, 2_000), g.integers(-60, 10, 2_000)),
                               np.arange(-640, 640) * (math.log(2) / 128)])
        fast, slow = np.empty_like(grid), np.empty_like(grid)
        exp_block(grid, fast)
        exp_calls(grid, slow)
        same = (fast.view(np.uint64) == slow.view(np.uint64)) | (np.isnan(fast) & np.isnan(slow))
        _fast_exp.append(bool(same.all()))
    return _fast_exp[0]

"""Compiled elementwise ``log`` and ``log1p`` (loaded through ``pycalib_r._jit.kernels``),
and ``glibc_exp``/``glibc_log`` for other kernels (glibc's functions without
their errno wrappers: the same bits, cheaper calls; see below).

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

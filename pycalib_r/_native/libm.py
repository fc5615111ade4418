# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: optimized-routines (Arm) 2018 math/exp_data.c (MIT), (c) 1999-2018 Arm Limited
# Derived from: glibc 2.36 sysdeps/ieee754/dbl-64/e_exp_data.c (LGPL-2.1-or-later), (c) 2018-2022 Free Software Foundation, Inc.
"""The C library's ``exp``, ``log`` and ``log1p`` over arrays (``src/libm.c``).

Twins: ``pycalib_r.rbase._rarith.r_log``/``r_log1p``'s scipy.special and
``math`` routes, which call the same glibc functions.

glibc's exp and log without their errno wrappers
------------------------------------------------
Since glibc 2.29, ``exp`` (the symbol R and CPython call) is a wrapper: it
calls ``__exp`` (an IFUNC choosing the FMA, AVX2 or SSE2 build of the same
code) and sets ``errno`` on overflow/underflow, leaving the result as it is;
``log`` likewise tail-calls ``__log`` after an errno check for x <= 0.
``__exp_finite``/``__log_finite`` (compat symbols, version GLIBC_2.15) are
those IFUNCs themselves. Calling them directly skips the wrapper (about 40%
of an exp call's time) with the same bits. Each is handed to the kernels
only when found and when it agrees bit for bit with the wrapper on the
checks below; otherwise the kernels call the wrapper itself.

glibc's exp, its main path vectorised
-------------------------------------
glibc's exp (2.28 and later; Szabolcs Nagy's algorithm, from Arm's
optimized-routines) is, for |x| in [2^-54, 512): k = round(x N / ln 2) by
adding a shift constant, r = x - k ln2 / N in two steps, 2^(k/N) from a
table of N = 128 entries (H[j] (1 + T[j]) = 2^(j/N)), a degree-5 polynomial
in r, and scale + scale * tmp. The x86-64 build that the IFUNC picks on a CPU
with FMA and AVX2 fuses seven of those steps; ``exp_block`` does the main
path for a whole block in one vectorised loop (about 3.6x faster than a call
per element), with the same bits: :func:`fast_exp_ok` checks it against
glibc's own function once per process before any kernel uses it, and on
another C library or another build of it the kernels call glibc's function.
"""

from __future__ import annotations

import ctypes
import math
import threading

import numpy as np

from . import c_i64, c_int, c_void_p, fn, ptr

_set_libm = fn("pcr_set_libm", None, c_void_p, c_void_p)
_set_tab = fn("pcr_set_exp_table", None, c_void_p)
_usable = fn("pcr_exp_block_usable", c_int)
_log_into = fn("pcr_log_into", None, c_void_p, c_i64, c_void_p)
_log1p_into = fn("pcr_log1p_into", None, c_void_p, c_i64, c_void_p)
_exp_calls = fn("pcr_exp_calls", None, c_void_p, c_i64, c_void_p)
_exp_block = fn("pcr_exp_block", None, c_void_p, c_i64, c_void_p)
_disagree = fn("pcr_d2d_disagree", c_i64, c_void_p, c_void_p, c_void_p, c_i64)


def _libm_entry(libm, name: str, direct: str, args):
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
    grid = np.ascontiguousarray(args, dtype=np.float64)
    return wrapper if _disagree(addr, wrapper, ptr(grid), grid.size) else addr


def _check_args():
    g = np.random.default_rng(20261202)
    grid = np.concatenate([np.linspace(-750.0, 712.0, 3001), g.normal(0, 30, 2000), g.uniform(-1, 1, 500),
                           np.ldexp(g.uniform(0.5, 1, 500), g.integers(-1074, 1000, 500)),
                           [0.0, -0.0, 5e-324, -5e-324, 1e-300, 1.0, 1.0 - 2 ** -53, 1.0 + 2 ** -52,
                            -745.1332191019411, -745.1332191019412, 709.782712893384, 709.7827128933841,
                            math.inf, -math.inf, math.nan]])
    return grid


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


def _libm():
    # glibc's soname first: find_library runs ldconfig in a subprocess (tens
    # of milliseconds of a first call); the C library's math is already
    # loaded, so opening it again is a lookup.
    try:
        return ctypes.CDLL("libm.so.6")
    except OSError:
        from ctypes.util import find_library  # noqa: PLC0415 (it imports subprocess)

        name = find_library("m")
        return ctypes.CDLL(name) if name else ctypes.CDLL(None)


def _register():
    libm = _libm()
    args = _check_args()
    _set_libm(_libm_entry(libm, "exp", "__exp_finite", args),
              _libm_entry(libm, "log", "__log_finite", np.abs(args)))


_register()


def log_into(x, out) -> None:
    """``out[i] = log(x[i])`` (C-contiguous float64, ``out`` of ``x``'s size)."""
    _log_into(ptr(x), x.size, ptr(out))


def log1p_into(x, out) -> None:
    """``out[i] = log1p(x[i])``."""
    _log1p_into(ptr(x), x.size, ptr(out))


def exp_calls(x, out) -> None:
    """``out[i] = exp(x[i])``, one call of glibc's function per element."""
    _exp_calls(ptr(x), x.size, ptr(out))


def exp_block(x, out) -> None:
    """``out[i] = exp(x[i])`` by the vectorised main path; only where
    :func:`fast_exp_ok`. ``out`` must not be ``x``."""
    _exp_block(ptr(x), x.size, ptr(out))


_fast_lock = threading.Lock()
_fast_exp = []


def fast_exp_ok() -> bool:
    """Whether :func:`exp_block` gives glibc's bits here: checked once per
    process on about 40,000 arguments (every table entry, both signs, the
    edges of each path, random ones), against glibc's function itself."""
    if not _fast_exp:
        with _fast_lock:
            if not _fast_exp:
                # The table, from its definition (a few ms): only for the
                # kernels that may use the vectorised exp.
                tab = _exp_table()
                _set_tab(ptr(tab))
                ok = bool(_usable())
                if ok:
                    g = np.random.default_rng(20261202)
                    grid = np.concatenate([np.array(_check_args()), g.normal(0, 3, 20_000),
                                           -g.exponential(8, 10_000), g.uniform(-745.5, 709.8, 5_000),
                                           np.ldexp(g.uniform(-1, 1, 2_000), g.integers(-60, 10, 2_000)),
                                           np.arange(-640, 640) * (math.log(2) / 128)])
                    fast, slow = np.empty_like(grid), np.empty_like(grid)
                    exp_block(grid, fast)
                    exp_calls(grid, slow)
                    same = (fast.view(np.uint64) == slow.view(np.uint64)) | (np.isnan(fast) & np.isnan(slow))
                    ok = bool(same.all())
                _fast_exp.append(ok)
    return _fast_exp[0]

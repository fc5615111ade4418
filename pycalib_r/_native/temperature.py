# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/temperature.c, whose header names its sources
"""Temperature scaling's log-loss terms (``src/temperature.c``).

Twins: the numpy objectives in ``pycalib_r.calibrators._temperature``
(``_binary_objective``, ``_multiclass_objective`` with ``jit=False``).
"""

from __future__ import annotations

from . import c_double, c_i64, c_int, c_void_p, fn, ptr
from .libm import fast_exp_ok  # noqa: F401 (re-exported: the caller asks once per fit)

_binary = fn("pcr_binary_temperature_terms", None, c_void_p, c_void_p, c_i64, c_void_p, c_void_p, c_i64,
             c_double, c_double, c_void_p, c_void_p)
_multi = fn("pcr_multiclass_temperature_terms", None, c_void_p, c_i64, c_void_p, c_double, c_double,
            c_void_p, c_void_p, c_i64, c_i64, c_int)

# Rows per block of the multiclass kernel (BLOCK in src/temperature.c).
BLOCK = 512


def binary_temperature_terms(z1, i1, z0, i0, temperature, eps, out, buf):
    """``out[i1] = log(clip(plogis(z1 / T)))``, ``out[i0] = log1p(-clip(plogis(z0 / T)))``
    (``i1``/``i0`` int64 rows, ``buf`` at least ``max(z1.size, z0.size)`` doubles)."""
    _binary(ptr(z1), ptr(i1), z1.size, ptr(z0), ptr(i0), z0.size, temperature, eps, ptr(out), ptr(buf))
    return out


def multiclass_temperature_terms(mat, codes, temperature, eps, terms, scratch, first, last, fast_exp=False):
    """``terms[i] = log(clip(softmax(mat / T)[i, codes[i]]))`` for ``first <= i < last``
    (``mat`` C-contiguous float64, ``codes`` 1-based int64, ``scratch`` at
    least ``2 * K * BLOCK`` doubles, one per concurrent piece)."""
    _multi(ptr(mat), mat.shape[1], ptr(codes), temperature, eps, ptr(terms), ptr(scratch),
           first, last, 1 if fast_exp else 0)

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/rbase.c, whose header names its sources
"""R's long-double ``sum()`` and ``mean()`` of doubles (``src/rbase.c``).

Twins: ``pycalib_r.rbase._rarith._ld_seq_sum`` and ``r_mean``'s numpy path.
"""

from __future__ import annotations

from . import c_double, c_i64, c_void_p, fn, ptr

_sum = fn("pcr_ld_seq_sum", c_double, c_void_p, c_i64)
_mean = fn("pcr_ld_mean", c_double, c_void_p, c_i64)


def ld_seq_sum(x) -> float:
    """``(double) s`` after ``long double s = 0; for (i) s += x[i];`` (x: C-contiguous float64)."""
    return _sum(ptr(x), x.size)


def ld_mean(x) -> float:
    """R's ``mean()`` of a C-contiguous float64 vector (``real_mean``)."""
    return _mean(ptr(x), x.size)

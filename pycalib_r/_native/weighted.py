# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/weighted.c
"""The weighted PAV loop of ``cal_isotonic(weights=)`` (``src/weighted.c``).

Twin: ``pycalib_r.calibrators._weighted.weighted_pav`` (its Python loop),
with the same arguments and the same bits.

R equivalent: none (base R's ``isoreg`` takes no weights).
"""

from __future__ import annotations

import numpy as np

from . import c_i64, c_void_p, fn, ptr

_V = c_void_p
_pav = fn("pcr_weighted_pav", c_i64, _V, _V, c_i64, _V, _V, _V)


def weighted_pav(sums, weights):
    """``(ends, block sums, block weights)`` of the pooled points, as the twin returns them."""
    sums = np.ascontiguousarray(sums, dtype=np.float64)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    if sums.shape != weights.shape or sums.ndim != 1:
        raise ValueError("sums and weights must be vectors of one length")
    n = sums.size
    bs, bw, ends = np.empty(n), np.empty(n), np.empty(n, dtype=np.int64)
    top = _pav(ptr(sums), ptr(weights), n, ptr(bs), ptr(bw), ptr(ends))
    return ends[:top].copy(), bs[:top].copy(), bw[:top].copy()

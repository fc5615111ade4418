# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/venn.c, whose header names its sources
"""The Venn-ABERS bridge slopes (``src/venn.c``).

Twin: ``pycalib_r.calibrators._venn_abers._bridge_twin`` (the same integer
loops in Python).
"""

from __future__ import annotations

import numpy as np

from . import c_i64, c_void_p, fn, ptr

_bridge = fn("pcr_venn_bridge", None, c_void_p, c_void_p, c_i64, c_void_p, c_void_p, c_void_p, c_void_p)


def venn_bridge(X, Y, num, den):
    """``num[i] / den[i]``: F1 at the (i+1)-th distinct score, from the cumulative
    sum diagram ``X``, ``Y`` (C-contiguous int64, ``k + 1`` each, ``X[0] = Y[0] = 0``);
    ``num``, ``den`` int64 of ``k``."""
    k = X.size - 1
    work = np.empty(2 * (k + 1), dtype=np.int64)
    _bridge(ptr(X), ptr(Y), k, ptr(num), ptr(den), ptr(work), ptr(work[k + 1:]))
    return num, den

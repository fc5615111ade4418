# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/inputs.c, whose header names its sources
"""One pass over a probability matrix (``src/inputs.c``): ``check_prob_matrix``'s
scan and the top-label form.

Twins: ``pycalib_r.inputs._checks._scan`` with ``rows_off_one``'s double row
sums (the scan), ``pycalib_r.inputs._forms._top_label_numpy`` (the top label).
The matrix is read in place in any layout (its strides go to C).
"""

from __future__ import annotations

import numpy as np

from . import c_double, c_i64, c_void_p, fn, ptr

_scan = fn("pcr_prob_matrix_scan", None, c_void_p, c_i64, c_i64, c_i64, c_i64, c_double, c_double, c_void_p, c_void_p)
_unit = fn("pcr_unit_rows", None, c_void_p, c_i64, c_i64, c_i64, c_i64, c_double, c_double, c_void_p)
_top = fn("pcr_top_label", None, c_void_p, c_i64, c_i64, c_i64, c_i64, c_void_p, c_void_p, c_void_p)


def _matrix(p):
    """``(p, rows, cols, row stride, column stride)`` of a float64 matrix,
    strides in elements (a copy only when they are not whole elements)."""
    if p.dtype != np.float64:
        p = np.asarray(p, dtype=np.float64)
    rs, cs = p.strides
    if rs % 8 or cs % 8:
        p = np.ascontiguousarray(p)
        rs, cs = p.strides
    return p, p.shape[0], p.shape[1], rs // 8, cs // 8


def prob_matrix_scan(p, tolerance, margin):
    """``(nan, lo, hi, far, near)`` of a matrix: whether a row sum is NaN, the
    smallest and largest entry (0 and 1 when every entry is in [+0, 1]),
    and how many rows have a double row sum (in column order) farther than
    ``tolerance + margin`` from 1, or at least ``tolerance - margin``."""
    p, m, k, rs, cs = _matrix(p)
    out = np.empty(3)
    counts = np.empty(2, dtype=np.int64)
    _scan(ptr(p), m, k, rs, cs, tolerance, margin, ptr(out), ptr(counts))
    return bool(out[0]), float(out[1]), float(out[2]), int(counts[0]), int(counts[1])


def unit_rows(p, hi_t, lo_t, found):
    """Adds to ``found`` (3 int64): 1 at ``[0]`` if some entry of ``p`` is
    outside [+0, 1] by its bits, and at ``[1]`` and ``[2]`` the rows whose
    double row sum is farther than ``hi_t`` from 1, or at least ``lo_t``."""
    p, m, k, rs, cs = _matrix(p)
    if found.dtype != np.int64 or not found.flags.c_contiguous or found.size != 3 or not found.flags.writeable:
        raise TypeError("found must be a writable C-contiguous int64 array of 3 entries")
    _unit(ptr(p), m, k, rs, cs, hi_t, lo_t, ptr(found))


def top_label(p, codes, confidence, correct):
    """Each row's largest entry (the first maximal column on ties) into
    ``confidence`` (float64), and 1 where that column is the row's 1-based
    class code (``codes``, int64) into ``correct`` (int64)."""
    p, m, k, rs, cs = _matrix(p)
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    if codes.size != m:
        raise ValueError("top_label: one class code per row is needed")
    for a, dt in ((confidence, np.float64), (correct, np.int64)):
        if a.dtype != dt or not a.flags.c_contiguous or a.size != m or not a.flags.writeable:
            raise TypeError("top_label's outputs must be writable C-contiguous float64 and int64 arrays, one per row")
    _top(ptr(p), m, k, rs, cs, ptr(codes), ptr(confidence), ptr(correct))

"""One pass over a probability matrix: its checks and its top-label form (loaded through ``pycalib_r._jit.kernels``).

:func:`prob_matrix_scan` serves ``check_prob_matrix()``: the numpy twin in
``_checks`` makes three passes (``min``, ``max``, a double
row sum by ``einsum``); this kernel reads each row once and returns what
those passes find. The decisions are then taken in ``_checks`` in R's order
(finite, range, row sums), and rows near the row-sum tolerance get R's
long-double sum there, as on the twin's path: the same decisions.

:func:`top_label` is R's ``multiclass_confidence()`` (``_forms.confidence_pair``,
whose numpy twin takes ``argmax`` by blocks of rows): the first maximal
column of each row, its value and whether it is the label.
"""

from __future__ import annotations

import numpy as np

from pycalib_r._jit import njit


@njit
def prob_matrix_scan(p, tolerance, margin):
    """``(nan, lo, hi, far, near)`` of a matrix: whether a row sum is NaN
    (a NaN entry, or infinities of both signs), the smallest and largest
    entry, and how many rows have a double row sum (in column order) farther
    than ``tolerance + margin`` from 1, or at least ``tolerance - margin``.

    Two rows at a time, each with its own running minimum and maximum: two
    independent dependency chains, so the pass runs at memory speed.
    """
    m, k = p.shape
    lo0 = lo1 = np.inf
    hi0 = hi1 = -np.inf
    nan = False
    far = 0
    near = 0
    for i in range(0, m - 1, 2):
        s0 = 0.0
        s1 = 0.0
        for j in range(k):
            v0 = p[i, j]
            v1 = p[i + 1, j]
            lo0 = v0 if v0 < lo0 else lo0
            hi0 = v0 if v0 > hi0 else hi0
            lo1 = v1 if v1 < lo1 else lo1
            hi1 = v1 if v1 > hi1 else hi1
            s0 += v0
            s1 += v1
        nan |= (s0 != s0) | (s1 != s1)
        d0 = abs(s0 - 1.0)
        d1 = abs(s1 - 1.0)
        far += (d0 > tolerance + margin) + (d1 > tolerance + margin)
        near += (d0 >= tolerance - margin) + (d1 >= tolerance - margin)
    if m % 2:
        s0 = 0.0
        for j in range(k):
            v0 = p[m - 1, j]
            lo0 = v0 if v0 < lo0 else lo0
            hi0 = v0 if v0 > hi0 else hi0
            s0 += v0
        nan |= s0 != s0
        d0 = abs(s0 - 1.0)
        far += d0 > tolerance + margin
        near += d0 >= tolerance - margin
    return nan, min(lo0, lo1), max(hi0, hi1), far, near


@njit
def top_label(p, codes, confidence, correct):
    """Each row's largest entry (the first maximal column on ties, as
    ``which.max`` and numpy's ``argmax``) into ``confidence``, and 1 where
    that column is the row's class code (1-based) into ``correct``."""
    m, k = p.shape
    for i in range(m):
        best = p[i, 0]
        arg = 0
        for j in range(1, k):
            v = p[i, j]
            if v > best:
                best = v
                arg = j
        confidence[i] = best
        correct[i] = 1 if arg + 1 == codes[i] else 0

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
from pycalib_r.rbase._bits_kernels import ONE_BITS, f64_bits


@njit
def prob_matrix_scan(p, tolerance, margin):
    """``(nan, lo, hi, far, near)`` of a matrix: whether a row sum is NaN
    (a NaN entry, or infinities of both signs), the smallest and largest
    entry (0 and 1 when every entry is in [+0, 1]: all the checks need),
    and how many rows have a double row sum (in column order) farther than
    ``tolerance + margin`` from 1, or at least ``tolerance - margin``.

    One pass (:func:`unit_rows`) takes the row sums and compares each
    entry's bits, as a uint64, with those of 1.0 (a double in [+0, 1] has
    bits at most those; a negative one, -0.0 included, or a NaN has more):
    a row's work is independent of the others', so the pass runs near memory
    speed. Only when some entry is outside [+0, 1] does a second pass find
    the NaNs, minimum and maximum.
    """
    found = np.zeros(3, dtype=np.int64)
    unit_rows(p, tolerance + margin, tolerance - margin, found)
    if not found[0]:
        return False, 0.0, 1.0, found[1], found[2]
    return _range_scan(p, tolerance, margin)


@njit
def row_band(s, hi_t, lo_t):
    """``(far, near)`` of a row sum ``s``: 1 where ``|s - 1|`` is above
    ``hi_t``, 1 where it is at least ``lo_t``. The scans of
    ``check_prob_matrix`` (here and in the classwise binning kernel) all
    decide by this one function."""
    d = abs(s - 1.0)
    return np.int64(d > hi_t), np.int64(d >= lo_t)


@njit
def unit_rows(p, hi_t, lo_t, found):
    """Adds to ``found``: 1 at ``[0]`` if some entry of ``p`` is outside
    [+0, 1] (by its bits: a NaN, a negative number, -0.0 included, or one
    above 1), and at ``[1]`` and ``[2]`` the rows whose double row sum (in
    column order) is farther than ``hi_t`` from 1, or at least ``lo_t``."""
    m, k = p.shape
    out = False
    far = 0
    near = 0
    # Four rows at a time: four row sums' chains of additions in flight.
    for i in range(0, m - 3, 4):
        s0 = s1 = s2 = s3 = 0.0
        for j in range(k):
            v0 = p[i, j]
            v1 = p[i + 1, j]
            v2 = p[i + 2, j]
            v3 = p[i + 3, j]
            s0 += v0
            s1 += v1
            s2 += v2
            s3 += v3
            out |= (f64_bits(v0) > ONE_BITS) | (f64_bits(v1) > ONE_BITS) | (f64_bits(v2) > ONE_BITS) | \
                (f64_bits(v3) > ONE_BITS)
        for s in (s0, s1, s2, s3):
            f, n = row_band(s, hi_t, lo_t)
            far += f
            near += n
    for i in range(m - m % 4, m):
        s0 = 0.0
        for j in range(k):
            s0 += p[i, j]
            out |= f64_bits(p[i, j]) > ONE_BITS
        f, n = row_band(s0, hi_t, lo_t)
        far += f
        near += n
    found[0] |= out
    found[1] += far
    found[2] += near


@njit
def _range_scan(p, tolerance, margin):
    # prob_matrix_scan with the range itself: two rows at a time, each with
    # its own running minimum and maximum (two independent chains).
    m, k = p.shape
    hi_t = tolerance + margin
    lo_t = tolerance - margin
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
        for s in (s0, s1):
            f, n = row_band(s, hi_t, lo_t)
            far += f
            near += n
    if m % 2:
        s0 = 0.0
        for j in range(k):
            v0 = p[m - 1, j]
            lo0 = v0 if v0 < lo0 else lo0
            hi0 = v0 if v0 > hi0 else hi0
            s0 += v0
        nan |= s0 != s0
        f, n = row_band(s0, hi_t, lo_t)
        far += f
        near += n
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

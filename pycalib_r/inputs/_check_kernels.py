"""One pass over a probability matrix for ``check_prob_matrix()`` (loaded through ``pycalib_r._jit.kernels``).

The numpy twin in ``_checks`` makes three passes (``min``, ``max``, a double
row sum by ``einsum``); this kernel reads each row once and returns what
those passes find. The decisions are then taken in ``_checks`` in R's order
(finite, range, row sums), and rows near the row-sum tolerance get R's
long-double sum there, as on the twin's path: the same decisions.
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
    """
    m, k = p.shape
    lo = np.inf
    hi = -np.inf
    nan = False
    far = 0
    near = 0
    for i in range(m):
        s = 0.0
        for j in range(k):
            v = p[i, j]
            lo = v if v < lo else lo
            hi = v if v > hi else hi
            s += v
        nan |= s != s
        d = abs(s - 1.0)
        far += d > tolerance + margin
        near += d >= tolerance - margin
    return nan, lo, hi, far, near

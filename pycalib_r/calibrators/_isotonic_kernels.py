"""``isoreg``'s binary case as compiled loops (loaded through
``pycalib_r._jit.kernels``): the pooling, with the same integer arithmetic
as the Python loop of ``_isotonic._pava_binary``, so the same blocks; the
outputs (``yf``, ``yc``, ``iKnots``) and ``cal_isotonic``'s tie runs, with
the arithmetic of the numpy lines they replace, so the same numbers
(tests/test_calibrator_kernels.py).
"""

from __future__ import annotations

import numpy as np

from pycalib_r._jit import njit


@njit
def _pool(v, c, sums, counts, top):
    # One run (label v, length c) onto the stack of blocks; returns the new top.
    # Pool while the previous block's mean is >= this block's mean
    # (integers: sums * counts stays below n^2).
    s = v * c
    while top > 0 and sums[top - 1] * c >= s * counts[top - 1]:
        top -= 1
        s += sums[top]
        c += counts[top]
    sums[top] = s
    counts[top] = c
    return top + 1


@njit
def pava_runs(values, lengths, sums, counts):
    """Pool the runs (label ``values[r]`` repeated ``lengths[r]`` times) into
    blocks of strictly increasing means; fills ``sums`` and ``counts`` (room
    for one block per run) and returns the number of blocks."""
    top = 0
    for r in range(values.size):
        top = _pool(values[r], lengths[r], sums, counts, top)
    return top


@njit
def pava_labels(y, sums, counts):
    """:func:`pava_runs` on the runs of the labels ``y`` (0/1), found in the
    same pass: the same pooling steps in the same order, so the same blocks.
    Returns the number of blocks (``sums``, ``counts``: room for ``y.size``)."""
    n = y.size
    top = 0
    if n == 0:
        return top
    v = y[0]
    c = 1
    for i in range(1, n):
        if y[i] == v:
            c += 1
        else:
            top = _pool(v, c, sums, counts, top)
            v = y[i]
            c = 1
    return _pool(v, c, sums, counts, top)


@njit
def isoreg_fill(y, sums, counts, yf, yc, knots):
    """``isoreg``'s ``yf``, ``yc`` and ``iKnots`` from the pooled blocks in one
    pass, the arithmetic of ``_isotonic.isoreg``'s numpy lines: ``yf`` the
    block's ``sums / counts`` (doubles of exact integers, one division),
    ``yc`` the running sum of the 0/1 labels, and position ``i`` (1-based) a
    knot when the block's prefix sum lies on its line (integers: below n^2).
    Returns the number of knots written to ``knots``."""
    pos = 0
    cy = 0
    m = 0
    yc[0] = 0.0
    for b in range(counts.size):
        c = counts[b]
        s = sums[b]
        v = np.float64(s) / np.float64(c)
        known = pos
        base = cy
        for _ in range(c):
            cy += y[pos]
            yf[pos] = v
            pos += 1
            yc[pos] = np.float64(cy)
            if (cy - base) * c == s * (pos - known):
                knots[m] = pos
                m += 1
    return m


@njit
def tie_runs(x, fitted, thresholds, values, varying):
    """The runs of equal ``x`` (sorted): each run's last ``x`` into
    ``thresholds``, its first fitted value into ``values``, and the indices
    of runs whose fitted values are not all equal into ``varying`` (their R
    ``mean()`` is taken by the caller). Returns (runs, varying runs)."""
    n = x.size
    r = 0
    nv = 0
    start = 0
    for i in range(n):
        if i == n - 1 or x[i + 1] != x[i]:
            thresholds[r] = x[i]
            v0 = fitted[start]
            values[r] = v0
            for j in range(start + 1, i + 1):
                if fitted[j] != v0:
                    varying[nv] = r
                    nv += 1
                    break
            r += 1
            start = i + 1
    return r, nv

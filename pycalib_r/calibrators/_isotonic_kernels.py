"""The pooling of ``isoreg``'s binary case as a compiled loop (loaded through
``pycalib_r._jit.kernels``): the same integer arithmetic as the Python loop
of ``_isotonic._pava_binary``, so the same blocks (tests/test_calibrator_kernels.py).
"""

from __future__ import annotations

from pycalib_r._jit import njit


@njit
def pava_runs(values, lengths, sums, counts):
    """Pool the runs (label ``values[r]`` repeated ``lengths[r]`` times) into
    blocks of strictly increasing means; fills ``sums`` and ``counts`` (room
    for one block per run) and returns the number of blocks."""
    top = 0
    for r in range(values.size):
        c = lengths[r]
        s = values[r] * c
        # Pool while the previous block's mean is >= this block's mean
        # (integers: sums * counts stays below n^2).
        while top > 0 and sums[top - 1] * c >= s * counts[top - 1]:
            top -= 1
            s += sums[top]
            c += counts[top]
        sums[top] = s
        counts[top] = c
        top += 1
    return top

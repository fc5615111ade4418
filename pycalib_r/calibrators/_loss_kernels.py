"""Compiled loops for the calibrators' objectives (loaded through ``pycalib_r._jit.kernels``).

Each kernel repeats, operation for operation, the numpy expression it
replaces, and calls the C library's ``exp``, ``log`` and ``log1p`` as R
does (the gate loads float kernels only when numba calls glibc's libm), so
the two paths give the same bits; tests compare them. The loops are split
into one pass per libm function: a loop around a single libm call runs
nearly twice as fast as one that interleaves several.
"""

from __future__ import annotations

import math

from pycalib_r._jit import njit


@njit
def binary_temperature_terms(z1, i1, z0, i0, temperature, eps, out, buf):
    """The summands of binary temperature scaling's log loss, in row order.

    ``out[i1] = log(clip(plogis(z1 / T)))`` (label 1) and
    ``out[i0] = log1p(-clip(plogis(z0 / T)))`` (label 0), with
    ``plogis(x) = 1 / (1 + exp(-x))`` and ``clip`` R's
    ``pmin(pmax(p, eps), 1 - eps)``; ``buf`` is scratch of at least
    ``max(z1.size, z0.size)`` doubles.
    """
    hi = 1.0 - eps
    for part in range(2):
        zs = z1 if part == 0 else z0
        m = zs.size
        for j in range(m):
            buf[j] = math.exp(-(zs[j] / temperature))
        for j in range(m):
            p = 1.0 / (1.0 + buf[j])
            # pmin(pmax(p, eps), 1 - eps); p is never NaN here.
            buf[j] = min(max(p, eps), hi)
        if part == 0:
            for j in range(m):
                out[i1[j]] = math.log(buf[j])
        else:
            for j in range(m):
                out[i0[j]] = math.log1p(-buf[j])
    return out

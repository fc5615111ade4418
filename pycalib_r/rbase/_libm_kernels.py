"""Compiled elementwise ``log`` and ``log1p`` (loaded through ``pycalib_r._jit.kernels``).

Each loop calls the C library's function once per element, as R's
arithmetic does; the gate loads float kernels only when numba calls glibc's
libm (no SVML), so the values are those of the scipy.special route in
``_rarith`` bit for bit, about three times faster for ``log`` (scipy's
``xlogy`` tests and multiplies every element).
"""

from __future__ import annotations

import math

from pycalib_r._jit import njit


@njit
def log_into(x, out):
    for i in range(x.size):
        out[i] = math.log(x[i])


@njit
def log1p_into(x, out):
    for i in range(x.size):
        out[i] = math.log1p(x[i])

"""Compiled loops of the canonical kernel (loaded through ``pycalib_r._jit.kernels``).

The twins are ``_kernel_canonical._kernel_tile_twin`` and
``_kernel_canonical._block_quadratic_twin``:
every entry and every sum takes the same operations in the same order (no
BLAS, whose reduction order depends on the CPU kernel it picks, and no
fused multiply-add), so both give the same bits on every machine
(tests/test_kernel.py). ``exp`` is glibc's (float kernel: the gate rules out
SVML), as the twin's ``_rarith.r_exp``.
"""

from __future__ import annotations

import math

import numpy as np

from pycalib_r._jit import njit


@njit
def kernel_tile(pa, pbt, ua, ubt, h, upper, i0, i1, out):
    """out[i, j] = exp(-(sqrt(sum_k (pa_ik - pb_jk)^2) / h)) * sum_k ua_ik ub_jk
    for rows i in [i0, i1), the sums in column order; with ``upper`` only
    j > i (a diagonal tile: the caller mirrors it)."""
    kk = pa.shape[1]
    b = pbt.shape[1]
    dots = np.empty(b)
    for i in range(i0, i1):
        j0 = i + 1 if upper else 0
        row = out[i]
        x0 = pa[i, 0]
        v0 = ua[i, 0]
        p0 = pbt[0]
        q0 = ubt[0]
        for j in range(j0, b):
            d = x0 - p0[j]
            row[j] = d * d
            dots[j] = v0 * q0[j]
        for k in range(1, kk):
            xk = pa[i, k]
            vk = ua[i, k]
            pk = pbt[k]
            qk = ubt[k]
            for j in range(j0, b):
                d = xk - pk[j]
                row[j] += d * d
                dots[j] += vk * qk[j]
        for j in range(j0, b):
            row[j] = math.exp(math.sqrt(row[j]) / -h) * dots[j]


@njit
def block_quadratic(hm, wat, wbt, diag, r0, r1, acc, q):
    """q[r] += sum_i wa_ir * (sum_j wb_jr * H_ij) for r in [r0, r1): i and j
    ascending, j > i on a diagonal block (``acc``: unused scratch).

    Eight replicates at a time keep their running sums in registers through
    the whole row of H (one cache line of weights per column j); each sum
    still adds its terms in ascending j, as the twin does."""
    a = hm.shape[0]
    b = hm.shape[1]
    for i in range(a):
        j0 = i + 1 if diag else 0
        hi = hm[i]
        wi = wat[i]
        r = r0
        while r + 8 <= r1:
            s0 = 0.0
            s1 = 0.0
            s2 = 0.0
            s3 = 0.0
            s4 = 0.0
            s5 = 0.0
            s6 = 0.0
            s7 = 0.0
            for j in range(j0, b):
                hv = hi[j]
                wj = wbt[j]
                s0 += wj[r] * hv
                s1 += wj[r + 1] * hv
                s2 += wj[r + 2] * hv
                s3 += wj[r + 3] * hv
                s4 += wj[r + 4] * hv
                s5 += wj[r + 5] * hv
                s6 += wj[r + 6] * hv
                s7 += wj[r + 7] * hv
            q[r] += wi[r] * s0
            q[r + 1] += wi[r + 1] * s1
            q[r + 2] += wi[r + 2] * s2
            q[r + 3] += wi[r + 3] * s3
            q[r + 4] += wi[r + 4] * s4
            q[r + 5] += wi[r + 5] * s5
            q[r + 6] += wi[r + 6] * s6
            q[r + 7] += wi[r + 7] * s7
            r += 8
        while r < r1:
            s0 = 0.0
            for j in range(j0, b):
                s0 += wbt[j, r] * hi[j]
            q[r] += wi[r] * s0
            r += 1

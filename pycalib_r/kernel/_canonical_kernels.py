"""Compiled loops of the canonical kernel (loaded through ``pycalib_r._jit.kernels``).

The twins are ``_canonical._kernel_tile_twin`` and
``_canonical._block_quadratic_twin``:
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
def kernel_tile(pa, pbt, ua, ubt, h, upper, i0, i1, out, rowsum):
    """out[i, j] = exp(-(sqrt(sum_k (pa_ik - pb_jk)^2) / h)) * sum_k ua_ik ub_jk
    for rows i in [i0, i1), the sums in column order; with ``upper`` only
    j > i, zeros elsewhere (a diagonal tile). rowsum[i] is the sum of row
    i's entries in ascending j, from its first entry (numpy's reduction over
    the rows of the transposed tile, the twin's)."""
    kk = pa.shape[1]
    b = pbt.shape[1]
    dots = np.empty(b)
    for i in range(i0, i1):
        j0 = i + 1 if upper else 0
        row = out[i]
        for j in range(0, min(j0, b)):
            row[j] = 0.0
        if j0 >= b:
            rowsum[i] = 0.0
            continue
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
        s = 0.0 if upper else math.exp(math.sqrt(row[0]) / -h) * dots[0]
        if not upper:
            row[0] = s
            j0 = 1
        for j in range(j0, b):
            v = math.exp(math.sqrt(row[j]) / -h) * dots[j]
            row[j] = v
            s += v
        rowsum[i] = s


# Replicates per block of the weighted sums: a block's packed weights
# (columns x _RB doubles) are 480 KB for 1,500 columns, within a 512 KB L2
# cache, and 199 or 999 replicates pad to 200 or 1,000.
_RB = 40


@njit
def _eight_rows(hm, i, wp, j, b, acc):
    """The sums per replicate of rows i..i+7 of ``hm`` over the columns
    [j, b), two columns per pass, added one at a time in ascending j
    (``acc``: 8 x _RB running sums, flat, so that the loop over the
    replicates is vectorised without runtime alias checks between its rows;
    eight rows by two columns keep the most multiply-adds per load)."""
    h0 = hm[i]
    h1 = hm[i + 1]
    h2 = hm[i + 2]
    h3 = hm[i + 3]
    h4 = hm[i + 4]
    h5 = hm[i + 5]
    h6 = hm[i + 6]
    h7 = hm[i + 7]
    while j + 2 <= b:
        w0 = wp[j]
        w1 = wp[j + 1]
        x00 = h0[j]
        x01 = h0[j + 1]
        x10 = h1[j]
        x11 = h1[j + 1]
        x20 = h2[j]
        x21 = h2[j + 1]
        x30 = h3[j]
        x31 = h3[j + 1]
        x40 = h4[j]
        x41 = h4[j + 1]
        x50 = h5[j]
        x51 = h5[j + 1]
        x60 = h6[j]
        x61 = h6[j + 1]
        x70 = h7[j]
        x71 = h7[j + 1]
        for r in range(_RB):
            v0 = w0[r]
            v1 = w1[r]
            acc[r] = (acc[r] + v0 * x00) + v1 * x01
            acc[_RB + r] = (acc[_RB + r] + v0 * x10) + v1 * x11
            acc[2 * _RB + r] = (acc[2 * _RB + r] + v0 * x20) + v1 * x21
            acc[3 * _RB + r] = (acc[3 * _RB + r] + v0 * x30) + v1 * x31
            acc[4 * _RB + r] = (acc[4 * _RB + r] + v0 * x40) + v1 * x41
            acc[5 * _RB + r] = (acc[5 * _RB + r] + v0 * x50) + v1 * x51
            acc[6 * _RB + r] = (acc[6 * _RB + r] + v0 * x60) + v1 * x61
            acc[7 * _RB + r] = (acc[7 * _RB + r] + v0 * x70) + v1 * x71
        j += 2
    if j < b:
        for t in range(8):
            _one_row(hm[i + t], wp, j, b, acc, t * _RB)


@njit
def _one_row(hi, wp, j, b, acc, off):
    """One row's sums per replicate over the columns [j, b), ascending j."""
    for jj in range(j, b):
        wj = wp[jj]
        x = hi[jj]
        for r in range(_RB):
            acc[off + r] = acc[off + r] + wj[r] * x


@njit
def block_quadratic(hm, wpa, wpk, diag, i0, i1, acc, contrib):
    """contrib[i, r] = wa_ir * (sum_j wb_jr * H_ij) for the rows i in
    [i0, i1) and every replicate r, j ascending (j > i on a diagonal block);
    :func:`ordered_row_sum` then adds the rows in ascending i.

    ``wpa[blk]`` and ``wpk[blk]`` hold the row and the column weights of
    _RB replicates (a x _RB and b x _RB, zero-padded), ``acc`` is an 8 * _RB
    scratch. Eight rows of H at a time take their sums per replicate through
    a vectorised loop over the block's replicates; each (i, r) sum still adds
    its terms one at a time in ascending j from 0.0, and the rows are added
    in ascending i, as the twin does, so the bits depend neither on the
    vector width nor on how the rows are cut among threads."""
    b = hm.shape[1]
    for blk in range(wpk.shape[0]):
        wp = wpk[blk]
        rb = blk * _RB
        i = i0
        while i < i1:
            m = min(8, i1 - i)
            for t in range(8 * _RB):
                acc[t] = 0.0
            if m == 8:
                jc = 0
                if diag:
                    # Columns left of the eight rows' common start, row by row.
                    jc = min(i + 8, b)
                    for t in range(7):
                        _one_row(hm[i + t], wp, i + t + 1, jc, acc, t * _RB)
                _eight_rows(hm, i, wp, jc, b, acc)
            else:
                for t in range(m):
                    _one_row(hm[i + t], wp, i + t + 1 if diag else 0, b, acc, t * _RB)
            for t in range(m):
                wi = wpa[blk, i + t]
                ci = contrib[i + t]
                for r in range(_RB):
                    ci[rb + r] = wi[r] * acc[t * _RB + r]
            i += 8


@njit
def ordered_row_sum(contrib, q):
    """q[r] = sum_i contrib[i, r], from 0.0 in ascending i (the twin's order)."""
    nr = contrib.shape[1]
    for r in range(nr):
        q[r] = 0.0
    for i in range(contrib.shape[0]):
        ci = contrib[i]
        for r in range(nr):
            q[r] += ci[r]

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/kernel.c, whose header names its sources
"""The canonical kernel's loops (``src/kernel.c``): tiles of
``exp(-||p_i - p_j|| / h) <u_i, u_j>`` and the bootstrap's weighted sums.

Twins: ``pycalib_r.kernel._canonical._kernel_tile_twin`` and
``_block_quadratic_twin`` (numpy passes in the same order). Arrays are
C-contiguous float64 (the caller's ``np.ascontiguousarray``); each call
works on the rows ``[i0, i1)`` only, so pieces run on several threads
(``pycalib_r._native.run_parts``) and give the same bits.
"""

from __future__ import annotations

import numpy as np

from . import available, c_double, c_i64, c_int, c_void_p, fn, ptr

_tile = fn("pcr_kernel_tile", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_i64, c_i64, c_double, c_int, c_i64,
           c_i64, c_void_p, c_void_p)
_quad = fn("pcr_block_quadratic", c_int, c_void_p, c_i64, c_i64, c_void_p, c_void_p, c_i64, c_int, c_i64, c_i64,
           c_void_p)
_row_sum = fn("pcr_ordered_row_sum", None, c_void_p, c_i64, c_i64, c_void_p)

# Replicates per block of the weighted sums (src/kernel.c's RB, asked of the
# library where it runs).
_RB = fn("pcr_canonical_rb", c_int)() if available() else 40


def _arr(a, shape, writable=False) -> int:
    """The address of a C-contiguous float64 array of ``shape`` (the C loops
    trust it; anything else is refused)."""
    if a.dtype != np.float64 or not a.flags.c_contiguous or a.shape != shape or (writable and not a.flags.writeable):
        raise ValueError(f"pycalib_r._native.kernel: a C-contiguous float64 array of shape {shape} is needed, "
                         f"not {a.dtype} {a.shape}")
    return ptr(a)


def _ok(rc: int) -> None:
    if rc != 0:
        raise MemoryError("pycalib_r: the canonical kernel could not allocate its scratch")


def kernel_tile(pa, pbt, ua, ubt, h, upper, i0, i1, out, rowsum):
    """``out[i, j] = exp(-(sqrt(sum_k (pa_ik - pb_jk)^2) / h)) * sum_k ua_ik
    ub_jk`` for the rows ``i`` in ``[i0, i1)``, the sums in column order
    (``pbt``, ``ubt``: the column blocks transposed); with ``upper`` only
    ``j > i``, zeros elsewhere; ``rowsum[i]``: row ``i``'s entries summed in
    ascending ``j``."""
    (a, kk), b = pa.shape, pbt.shape[1]
    if not 0 <= i0 <= i1 <= a:
        raise ValueError("pycalib_r._native.kernel: rows outside the tile")
    _ok(_tile(_arr(pa, (a, kk)), _arr(pbt, (kk, b)), _arr(ua, (a, kk)), _arr(ubt, (kk, b)), kk, b, h, int(upper),
              i0, i1, _arr(out, (a, b), True), _arr(rowsum, (a,), True)))


def block_quadratic(hm, wpa, wpk, diag, i0, i1, contrib):
    """``contrib[i, r] = wa_ir * (sum_j wb_jr H_ij)`` for the rows ``i`` in
    ``[i0, i1)`` of ``hm`` and every replicate ``r``, ``j`` ascending
    (``j > i`` on a diagonal block); ``wpa`` and ``wpk``: the packed weights
    (blocks x rows x ``_RB``, zero-padded)."""
    a, b = hm.shape
    nblk = wpk.shape[0]
    if not 0 <= i0 <= i1 <= a:
        raise ValueError("pycalib_r._native.kernel: rows outside the block")
    _ok(_quad(_arr(hm, (a, b)), a, b, _arr(wpa, (nblk, a, _RB)), _arr(wpk, (nblk, b, _RB)), nblk, int(diag), i0, i1,
              _arr(contrib, (a, nblk * _RB), True)))


def ordered_row_sum(contrib, q):
    """``q[r] = sum_i contrib[i, r]`` from 0.0 in ascending ``i``."""
    rows, nr = contrib.shape
    _row_sum(_arr(contrib, (rows, nr)), rows, nr, _arr(q, (nr,), True))

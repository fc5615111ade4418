# SPDX-License-Identifier: GPL-3.0-or-later
"""The canonical kernel's loops (``src/kernel.c``): tiles of
``exp(-||p_i - p_j|| / h) <u_i, u_j>`` and the bootstrap's weighted sums.

Twins: ``pycalib_r.kernel._canonical._kernel_tile_twin`` and
``_block_quadratic_twin`` (numpy passes in the same order). Arrays are
C-contiguous float64 (the caller's ``np.ascontiguousarray``); each call
works on the rows ``[i0, i1)`` only, so pieces run on several threads
(``pycalib_r._native.run_parts``) and give the same bits.
"""

from __future__ import annotations

from . import available, c_double, c_i64, c_int, c_void_p, fn, ptr

_tile = fn("pcr_kernel_tile", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_i64, c_i64, c_double, c_int, c_i64,
           c_i64, c_void_p, c_void_p)
_quad = fn("pcr_block_quadratic", c_int, c_void_p, c_i64, c_i64, c_void_p, c_void_p, c_i64, c_int, c_i64, c_i64,
           c_void_p)
_row_sum = fn("pcr_ordered_row_sum", None, c_void_p, c_i64, c_i64, c_void_p)

# Replicates per block of the weighted sums (src/kernel.c's RB, asked of the
# library where it runs).
_RB = fn("pcr_canonical_rb", c_int)() if available() else 40


def _ok(rc: int) -> None:
    if rc != 0:
        raise MemoryError("pycalib_r: the canonical kernel could not allocate its scratch")


def kernel_tile(pa, pbt, ua, ubt, h, upper, i0, i1, out, rowsum):
    """``out[i, j] = exp(-(sqrt(sum_k (pa_ik - pb_jk)^2) / h)) * sum_k ua_ik
    ub_jk`` for the rows ``i`` in ``[i0, i1)``, the sums in column order
    (``pbt``, ``ubt``: the column blocks transposed); with ``upper`` only
    ``j > i``, zeros elsewhere; ``rowsum[i]``: row ``i``'s entries summed in
    ascending ``j``."""
    _ok(_tile(ptr(pa), ptr(pbt), ptr(ua), ptr(ubt), pa.shape[1], pbt.shape[1], h, int(upper), i0, i1, ptr(out),
              ptr(rowsum)))


def block_quadratic(hm, wpa, wpk, diag, i0, i1, contrib):
    """``contrib[i, r] = wa_ir * (sum_j wb_jr H_ij)`` for the rows ``i`` in
    ``[i0, i1)`` of ``hm`` and every replicate ``r``, ``j`` ascending
    (``j > i`` on a diagonal block); ``wpa`` and ``wpk``: the packed weights
    (blocks x rows x ``_RB``, zero-padded)."""
    a, b = hm.shape
    _ok(_quad(ptr(hm), a, b, ptr(wpa), ptr(wpk), wpk.shape[0], int(diag), i0, i1, ptr(contrib)))


def ordered_row_sum(contrib, q):
    """``q[r] = sum_i contrib[i, r]`` from 0.0 in ascending ``i``."""
    _row_sum(ptr(contrib), contrib.shape[0], contrib.shape[1], ptr(q))

"""Multiclass temperature scaling's objective in one compiled pass (loaded
through ``pycalib_r._jit.kernels`` with ``float_math``; x86 only).

probcal evaluates ``multiclass_log_loss(softmax(logits / T), y)`` at each of
Brent's steps: ``x / T`` elementwise, each row's maximum, ``exp(x - max)``
(the C library's), ``rowSums()`` (a long-double sum over the columns, rounded
once), the label's column divided by it, ``pmin(pmax(p, eps), 1 - eps)``,
``log()`` (the C library's), and ``-mean()`` (long double, R's second pass).
This kernel does it row by row with one row of scratch, with no n x K
temporaries, operation for operation as the numpy path does (the row sums
and the mean by the x87 unit, as in ``_rbin_kernels``), so the two give the
same bits (tests/test_calibrator_kernels.py).
"""

from __future__ import annotations

import math

import numpy as np

from pycalib_r._jit import njit
from pycalib_r.binned._rbin_kernels import _ld_div, _ld_fin, _ld_row_sum, _seg_dev, _seg_sum
from pycalib_r.rbase._libm_kernels import exp_block, fast_exp_ok
from pycalib_r.rbase._libm_kernels import glibc_exp as _exp
from pycalib_r.rbase._libm_kernels import glibc_log as _log


# Rows handled per block: each libm function then runs in a loop of its own
# over the block (about twice as fast as calls interleaved with other work),
# and the block's scratch (K x _BLOCK doubles) stays in the core's cache.
_BLOCK = 512


@njit
def multiclass_temperature_terms(mat, codes, temperature, eps, terms, row, first, last, fast_exp=False):
    """``terms[i] = log(clip(softmax(mat / T)[i, codes[i]]))`` for the rows
    ``first <= i < last`` (``mat`` C-contiguous, ``codes`` 1-based; ``row``
    scratch of at least K x 512 doubles). Each row alone: pieces of rows can
    run on different cores and give the same terms.

    Every loop runs over a slice of the block (so LLVM sees indices from 0
    and vectorises the division and the selects). The row's maximum minus
    itself is an exact 0, and glibc's ``exp`` takes a branch of its own for
    arguments that small, mispredicted at random positions: each exact zero
    (of either sign) is given ``exp(-1)``'s fast path instead and its result
    replaced by 1.0 afterwards, ``exp(+-0) = 1`` exactly (C99 Annex F.9.3.1),
    so the bits are those of ``exp()`` on every element. With ``fast_exp``
    (where ``_libm_kernels.fast_exp_ok()``) the block's exponentials are
    ``exp_block``'s instead, glibc's main path vectorised, the same bits.
    """
    k = mat.shape[1]
    flat = mat.reshape(-1)
    hi = 1.0 - eps
    rs = np.empty(1)
    zero = np.empty(0 if fast_exp else k * _BLOCK, dtype=np.bool_)
    ex = np.empty(k * _BLOCK if fast_exp else 0)
    for lo in range(first, last, _BLOCK):
        up = min(lo + _BLOCK, last)
        nr = up - lo
        cnt = nr * k
        src = flat[lo * k:up * k]
        blk = row[:cnt]
        for q in range(cnt):
            blk[q] = src[q] / temperature
        # Minus the row's maximum (exact in any order).
        for i in range(nr):
            r = blk[i * k:(i + 1) * k]
            m = r[0]
            for j in range(1, k):
                if r[j] > m:
                    m = r[j]
            for j in range(k):
                r[j] = r[j] - m
        if fast_exp:
            e = ex[:cnt]
            exp_block(blk, e)
        else:
            e = blk
            _exp_calls(blk, zero[:cnt])
        tb = terms[lo:up]
        cb = codes[lo:up]
        for i in range(nr):
            _ld_row_sum(rs, 0, e, i * k, k)
            p = e[i * k + cb[i] - 1] / rs[0]
            # pmin(pmax(p, eps), 1 - eps), a NaN kept as numpy keeps it.
            if p < eps:
                p = eps
            if p > hi:
                p = hi
            tb[i] = p
        for i in range(nr):
            tb[i] = _log(tb[i])


@njit
def _exp_calls(blk, zero):
    # blk = exp(blk), a call per element; exact zeros by exp(-1)'s path (see above).
    for q in range(blk.size):
        v = blk[q]
        z = v == 0.0
        zero[q] = z
        blk[q] = -1.0 if z else v
    for q in range(blk.size):
        blk[q] = _exp(blk[q])
    for q in range(blk.size):
        blk[q] = 1.0 if zero[q] else blk[q]


@njit
def neg_r_mean(terms, res):
    """``res[0] = -mean(terms)`` as R's ``mean()`` (long-double sum / n, then
    the mean deviation added) when that is finite (``res[1] = 1``); else
    ``res[1] = 0`` (R skips the second pass then: the caller takes it)."""
    n = terms.size
    acc80 = np.zeros(4)
    cnt = np.empty(1, dtype=np.int64)
    cnt[0] = n
    _seg_sum(acc80, 0, terms, 0, n)
    _ld_div(acc80, 0, acc80, 0, cnt, 0)
    _seg_dev(acc80, 2, acc80, 0, terms, 0, n)
    _ld_fin(res, 0, acc80, 0, acc80, 2, cnt, 0)
    res[0] = -res[0]
    res[1] = 1.0 if math.isfinite(res[0]) else 0.0


def _warm_up():
    # Called by the JIT gate's loading thread once this module is loaded:
    # the vectorised exp's one check of the process, off the first fit's path.
    fast_exp_ok()

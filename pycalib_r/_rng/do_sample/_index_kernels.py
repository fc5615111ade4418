"""Compiled index samplers: ``R_unif_index`` on the Mersenne-Twister words.

``sample()``'s uniform samplers (with replacement, partial Fisher-Yates,
``sample2``'s hash rejection) and Walker's alias draws, run directly on the
words (:mod:`pycalib_r._rng.bitgen._mt_kernels`) and handing back the new
position, so the stream stands exactly where R leaves it. Each has its numpy
or Python twin in :mod:`pycalib_r._rng.do_sample._sample`, which gives the same
bits without numba (``PYCALIB_R_JIT=0``; tests/test_rng_kernels.py).

Loaded only through :func:`pycalib_r._jit.kernels`. R equivalent:
``R_unif_index``, ``do_sample``, ``walker_ProbSampleReplace``
(``src/main/RNG.c``, ``src/main/random.c``).
"""

from __future__ import annotations

import numpy as np

from pycalib_r._jit import njit
from pycalib_r._rng.bitgen._mt import _FIX_LOW, _TWO_M32
from pycalib_r._rng.bitgen._mt_kernels import N, next_block

__all__ = ["hash_fill", "index_fill", "noreplace_fill", "walker_fill"]


@njit
def _index_try(mt, w, pos, nchunk, mask):
    """One try of R's ``rbits`` word by word (a try that straddles blocks)."""
    v = np.uint64(0)
    for _ in range(nchunk):
        if pos == N:
            next_block(mt, w)
            pos = 0
        v = (v << np.uint64(16)) | np.uint64(w[pos] >> np.uint32(16))
        pos += 1
    return v & mask, pos


@njit
def index_fill(mt, w, pos, dn, bits, out, offset):
    """Fill ``out`` with successive ``R_unif_index(dn) + offset``; returns the
    new position (the block in ``mt``/``w`` may have advanced).

    R's ``rbits`` joins the high 16 bits of ``bits // 16 + 1`` words, high to
    low, keeps the low ``bits`` bits and rejects values ``>= dn``.
    """
    nchunk = bits // 16 + 1
    mask = np.uint64((1 << bits) - 1)
    n = out.size
    k = 0
    while k < n:
        if pos == N:
            next_block(mt, w)
            pos = 0
        ntry = (N - pos) // nchunk
        if ntry == 0:
            v, pos = _index_try(mt, w, pos, nchunk, mask)
            if np.float64(v) < dn:
                out[k] = v + offset
                k += 1
            continue
        if n - k >= ntry:
            # No try of this block can be the n-th acceptance before the last:
            # every try is consumed, so the loop needs no exit test and the
            # accept decision is an increment, not a branch.
            p = pos
            if nchunk == 1:
                for _ in range(ntry):
                    v = np.uint64(w[p] >> np.uint32(16)) & mask
                    p += 1
                    out[k] = v + offset
                    k += np.int64(np.float64(v) < dn)
            elif nchunk == 2:
                for _ in range(ntry):
                    v = ((np.uint64(w[p] >> np.uint32(16)) << np.uint64(16))
                         | np.uint64(w[p + 1] >> np.uint32(16))) & mask
                    p += 2
                    out[k] = v + offset
                    k += np.int64(np.float64(v) < dn)
            else:
                for _ in range(ntry):
                    v = np.uint64(0)
                    for c in range(nchunk):
                        v = (v << np.uint64(16)) | np.uint64(w[p + c] >> np.uint32(16))
                    v &= mask
                    p += nchunk
                    out[k] = v + offset
                    k += np.int64(np.float64(v) < dn)
            pos = p
        else:
            # The last acceptances: stop at the n-th, leaving later words unread.
            while k < n and pos + nchunk <= N:
                v = np.uint64(0)
                for c in range(nchunk):
                    v = (v << np.uint64(16)) | np.uint64(w[pos + c] >> np.uint32(16))
                v &= mask
                pos += nchunk
                if np.float64(v) < dn:
                    out[k] = v + offset
                    k += 1
    return pos


@njit(inline="always")
def _unif_index(mt, w, pos, dn, bits):
    """R's ``R_unif_index(dn)`` for ``bits = ceil(log2(dn))``: tries until
    one is below ``dn``; returns the value and the new position."""
    nchunk = bits // 16 + 1
    mask = np.uint64((1 << bits) - 1)
    while True:
        v, pos = _index_try(mt, w, pos, nchunk, mask)
        if np.float64(v) < dn:
            return v, pos


@njit
def noreplace_fill(mt, w, pos, x, n, bits, out, start, stop):
    """R's partial Fisher-Yates (``do_sample`` without replacement) for draws
    ``start .. stop - 1``: ``j = R_unif_index(n); out[i] = x[j] + 1;
    x[j] = x[--n]``. ``x`` holds the remaining population (``x[i] = i`` at
    the start, as R fills it), ``n`` its size and ``bits`` R's
    ``ceil(log2(n))``; returns the new position, ``n`` and ``bits``.

    ``bits`` is carried rather than recomputed: ``ceil(log2(n))`` drops by
    one exactly when ``n`` falls to a power of two, which is what glibc's
    ``log2`` gives for every ``n < 2^48`` (the kernel runs for ``n < 2^31``).
    """
    for i in range(start, stop):
        v, pos = _unif_index(mt, w, pos, np.float64(n), bits)
        j = np.int64(v)
        out[i] = x[j] + 1
        n -= 1
        x[j] = x[n]
        if bits > 0 and n <= (np.int64(1) << (bits - 1)):
            bits -= 1
    return pos, n, bits


@njit
def hash_fill(mt, w, pos, dn, bits, table, tbits, out, start, stop):
    """R's ``sample2`` (``do_sample2``) for draws ``start .. stop - 1``: each
    value is ``R_unif_index(dn) + 1``, drawn again while it was seen before,
    at most 100 times (R then keeps the repeat). ``table`` is an open-
    addressing set of the values so far (0 = empty, ``2^tbits`` slots, at
    least twice the sample); returns the new position."""
    tmask = np.uint64(table.size - 1)
    shift = np.uint64(64 - tbits)
    for i in range(start, stop):
        for _ in range(100):
            v, pos = _unif_index(mt, w, pos, dn, bits)
            key = v + np.uint64(1)
            # Fibonacci hashing (the product's top bits); linear probing
            # until the key or a hole.
            h = (key * np.uint64(0x9E3779B97F4A7C15)) >> shift
            while table[h] != 0 and table[h] != key:
                h = (h + np.uint64(1)) & tmask
            if table[h] == 0:
                table[h] = key
                break
        out[i] = v + 1
    return pos


@njit
def walker_fill(mt, w, pos, n, bits, qa, alias, out, start, stop):
    """The draws of R's ``walker_ProbSampleReplace`` (sample.kind
    "Rejection") for ``start .. stop - 1``: slot ``k = R_unif_index(n)``,
    ``rU = k + unif_rand()``, then ``k + 1`` if ``rU < qa[k]`` else
    ``alias[k] + 1``; returns the new position.

    ``unif_rand()`` is ``fixup(word * 2^-32)``: the product is exact, so the
    sum with ``k`` is rounded once, as in R's C.
    """
    dn = np.float64(n)
    for i in range(start, stop):
        v, pos = _unif_index(mt, w, pos, dn, bits)
        if pos == N:
            next_block(mt, w)
            pos = 0
        word = w[pos]
        pos += 1
        u = np.float64(word) * _TWO_M32 if word != 0 else _FIX_LOW
        k = np.int64(v)
        out[i] = k + 1 if np.float64(k) + u < qa[k] else alias[k] + 1
    return pos

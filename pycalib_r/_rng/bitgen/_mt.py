# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c (GPL-2.0-or-later), (c) The R Core Team; Mersenne-Twister part (c) 1997, 1999 Makoto Matsumoto and Takuji Nishimura
"""Mersenne-Twister as R 4.2.2 runs it: seeding, state words, ``unif_rand``.

R's ``set.seed`` scrambles the seed into the 624-word key (``RNG_Init``
in ``src/main/RNG.c``), numpy's ``MT19937`` produces the raw 32-bit words of
the same recurrence, and ``fixup(MT_genrand())`` turns a word into R's
uniform. :class:`Cursor` gives scalar loops sequential access to the words
and leaves the stream exactly where R leaves it.

R equivalent: ``set.seed``, ``.Random.seed``, ``unif_rand()`` (``src/main/RNG.c``).
"""

from __future__ import annotations

import math
import sys

import numpy as np

# --- constants of R's RNG.c / snorm.c ----------------------------------------

_TWO_M32 = 2.3283064365386963e-10  # 2^-32, MT_genrand's scale
_I2_32M1 = 2.328306437080797e-10  # 1/(2^32 - 1), fixup's scale
_FIX_LOW = 0.5 * _I2_32M1  # what unif_rand() returns instead of 0
_BIG = 134217728.0  # 2^27, norm_rand's INVERSION
_INT_MAX = 2147483647
_R_XLEN_T_MAX = 4503599627370496.0  # 2^52
_KIND_CODE = 10403  # Mersenne-Twister + 100 * Inversion + 10000 * Rejection
_N_KEY = 624
_STATE_LEN = _N_KEY + 2
# Bulk generation is chunked so temporaries stay a few tens of MB.
_CHUNK = 1 << 21
# R_unif_index tries per pass of the bulk index sampler: words, candidates
# and the acceptance mask of one pass (about 1.2 MB at 2 words a try) stay in
# L2, which is what makes the passes cheaper than generating the words.
_INDEX_CHUNK = 1 << 16
# Byte order decides where a word's high half sits in a uint16/uint8 view.
_LITTLE = sys.byteorder == "little"


def _scramble(seed):
    """The words R's ``RNG_Init`` gives for a 32-bit seed (i_seed[0..624])."""
    x = int(seed) & 0xFFFFFFFF
    for _ in range(50):
        x = (69069 * x + 1) & 0xFFFFFFFF
    out = np.empty(_N_KEY + 1, dtype=np.uint32)
    for j in range(_N_KEY + 1):
        x = (69069 * x + 1) & 0xFFFFFFFF
        out[j] = x
    return out


def _sgenrand_4357():
    """R's ``MT_sgenrand(4357)``, run when ``.Random.seed`` says mti = 625."""
    seed = 4357
    key = np.empty(_N_KEY, dtype=np.uint32)
    for i in range(_N_KEY):
        hi = seed & 0xFFFF0000
        seed = (69069 * seed + 1) & 0xFFFFFFFF
        key[i] = hi | ((seed & 0xFFFF0000) >> 16)
        seed = (69069 * seed + 1) & 0xFFFFFFFF
    return key


def _unif_from_words(w):
    """``fixup(MT_genrand())`` for raw 32-bit words (0 maps to 2^-33-ish)."""
    u = np.multiply(w, _TWO_M32, dtype=np.float64)
    # A word below 2^32 never gives u = 1, so only the lower fixup can apply.
    zero = w == 0
    if zero.any():
        u[zero] = _FIX_LOW
    return u


def _words32(gen, n):
    """``n`` raw MT19937 words as uint32 from a Generator on the stream's bit
    generator: for the full 32-bit range numpy returns ``next_uint32``
    itself, one word per value (the same words as ``random_raw``, at half
    the memory)."""
    return gen.integers(0, 4294967296, size=n, dtype=np.uint32)



def kernel_words(bg):
    """The state of ``bg`` (an ``MT19937``) as the compiled kernels take it:
    the kernels' module (:mod:`pycalib_r._native.rng`), a copy of the key,
    the tempered words of its block, and the position. Only called where
    ``_native.kernels("rng")`` is not None."""
    from ... import _native  # noqa: PLC0415

    k = _native.kernels("rng")
    st = bg.state["state"]
    mt = np.array(st["key"], dtype=np.uint32)
    w = np.empty(_N_KEY, dtype=np.uint32)
    k.temper_block(mt, w)
    return k, mt, w, int(st["pos"])


def kernel_done(bg, mt, pos):
    """Write a kernel's key and position back into ``bg``."""
    bg.state = {"bit_generator": "MT19937", "state": {"key": mt, "pos": int(pos)}}


def on_words(bg, count, step, call):
    """Run a compiled loop on the words of ``bg`` in slices:
    ``pos = call(kern, mt, w, pos, start, stop)`` for ``count`` items,
    ``step`` at a time, so that Ctrl-C is seen between slices. The key and
    position are written back whether or not a slice is interrupted, so the
    stream stands after the items finished, as R's would."""
    kern, mt, w, pos = kernel_words(bg)
    try:
        for a in range(0, count, step):
            pos = call(kern, mt, w, pos, a, min(count, a + step))
    finally:
        kernel_done(bg, mt, pos)


def _index_bits(dn):
    """``(int) ceil(log2(dn))`` with glibc's log2, as R_unif_index computes it."""
    return int(math.ceil(math.log2(float(dn))))


class _Cursor:
    """Sequential scalar access to the stream for loops that cannot be
    vectorised. Words are fetched in chunks; ``close`` rewinds to the start
    and advances by exactly the words used, so no draw is lost or skipped."""

    def __init__(self, stream, chunk=256):
        self._stream = stream
        self._snap = stream._bg.state
        self._buf = []
        self._i = 0
        self._base = 0
        self._chunk = chunk

    def word(self):
        i = self._i
        if i >= len(self._buf):
            self._base += len(self._buf)
            self._buf = self._stream._bg.random_raw(self._chunk).tolist()
            self._chunk = min(self._chunk * 2, 1 << 16)
            i = 0
        self._i = i + 1
        return self._buf[i]

    def unif(self):
        w = self.word()
        return w * _TWO_M32 if w else _FIX_LOW

    def unif_index(self, dn):
        """R's ``R_unif_index(dn)`` (Rejection sampling on 16-bit chunks)."""
        if dn <= 0:
            return 0
        bits = _index_bits(dn)
        mask = (1 << bits) - 1
        nchunk = bits // 16 + 1
        while True:
            v = 0
            for _ in range(nchunk):
                v = 65536 * v + (self.word() >> 16)
            v &= mask
            if not dn <= v:
                return v

    def used(self):
        return self._base + self._i

    def close(self):
        used = self.used()
        self._stream._bg.state = self._snap
        self._stream._advance(used)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


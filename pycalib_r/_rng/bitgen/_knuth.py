# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c, src/library/base/R/TAOCP.R (GPL-2.0-or-later), (c) The R Core Team; ran_start/ran_array by D. E. Knuth (public domain)
"""Knuth's TAOCP generators of R 4.2.2 (``Knuth-TAOCP``, ``Knuth-TAOCP-2002``).

R equivalent: ``ran_start``, ``ran_array``, ``KT_next`` of ``src/main/RNG.c``
and ``.TAOCP1997init`` of ``src/library/base/R/TAOCP.R`` (R 4.2.2).

References
----------
Knuth, D. E. (1997, 2002). The Art of Computer Programming, Volume 2, 3rd
edition, Section 3.6.
"""

from __future__ import annotations

import numpy as np

from ._bitgens import BitGenerator, _fixup, _M32

__all__ = ["KnuthTAOCP", "KnuthTAOCP2002"]

# --- Knuth TAOCP (1997 and 2002) ----------------------------------------------------

_KK, _LL, _MM = 100, 37, 1 << 30
_QUALITY = 1009
_KT = 9.31322574615479e-10  # RNG.c's KT (the literal, not exactly 2^-30)


def _lagged_fib_direct(state, cycles):
    """Knuth's ``ran_array`` sequence: ``x[j] = x[j-100] - x[j-37] mod 2^30``.

    ``ran_arr_cycle`` followed by reading ``ran_x`` is, cycle after cycle,
    the terms ``1009 c .. 1009 c + 99`` of this one sequence started from the
    100 state words; returns those blocks, shape (cycles, 100, ...) for a
    state of shape (100, ...), computed 37 terms at a time.
    """
    state = np.asarray(state, dtype=np.int64)
    total = _KK + _QUALITY * cycles
    x = np.empty((total,) + state.shape[1:], dtype=np.int64)
    x[:_KK] = state
    mask = _MM - 1
    j = _KK
    while j < total:
        e = min(j + _LL, total)
        np.subtract(x[j - _KK:e - _KK], x[j - _LL:e - _LL], out=x[j:e])
        x[j:e] &= mask
        j = e
    return np.stack([x[_QUALITY * c:_QUALITY * c + _KK] for c in range(1, cycles + 1)])


_KT_CYCLES = 64  # cycles per matrix product: 6400 draws
_KT_STACK = None


def _matvec_mod(a, v):
    """``a @ v mod 2^30`` exactly, for uint64 ``a`` and ``v``.

    Unsigned products and sums wrap modulo 2^64, a multiple of 2^30, so the
    low 30 bits are exact whatever overflows. ``np.einsum`` (numpy's own
    single-threaded loop): a threaded BLAS on a busy machine is many times
    slower for products this small, and has no integer kernel anyway.
    """
    out = np.einsum("ij,j->i", a, v)
    out &= np.uint64(_MM - 1)
    return out


def _kt_stack():
    """The cycle map's powers ``M^1 .. M^64`` stacked (6400 x 100, uint64).

    One ``ran_arr_cycle`` maps the 100 state words linearly (mod 2^30) to
    the next 100, ``new = M @ old``; the c-th cycle's words are
    ``M^c @ old``, so 64 cycles are one exact matrix-vector product. The
    powers are the recurrence run on the 100 unit vectors at once, 8
    cycles per step.
    """
    blocks = []
    state = np.eye(_KK, dtype=np.int64)
    for _ in range(_KT_CYCLES // 8):
        b = _lagged_fib_direct(state, 8)
        blocks.append(b)
        state = b[-1]
    return np.concatenate(blocks).reshape(_KT_CYCLES * _KK, _KK).astype(np.uint64)


def _lagged_fib(state, cycles):
    """The words of the next ``cycles`` cycles (cycles x 100, int64)."""
    global _KT_STACK
    if _KT_STACK is None:
        _KT_STACK = _kt_stack()
    out = np.empty((cycles, _KK), dtype=np.int64)
    s = np.asarray(state).astype(np.uint64)
    for c0 in range(0, cycles, _KT_CYCLES):
        c = min(_KT_CYCLES, cycles - c0)
        block = _matvec_mod(_KT_STACK[:c * _KK], s)
        out[c0:c0 + c] = block.reshape(c, _KK)
        s = block[-_KK:]
    return out


def _ran_array(ran_x, n):
    """Knuth's ``ran_array(aa, n)`` in plain ints (used by ``ran_start``)."""
    aa = list(ran_x) + [0] * (n - _KK)
    for j in range(_KK, n):
        aa[j] = (aa[j - _KK] - aa[j - _LL]) & (_MM - 1)
    new = [0] * _KK
    j = n
    for i in range(_LL):
        new[i] = (aa[j - _KK] - aa[j - _LL]) & (_MM - 1)
        j += 1
    for i in range(_LL, _KK):
        new[i] = (aa[j - _KK] - new[i - _LL]) & (_MM - 1)
        j += 1
    return new


def _ran_start_2002(seed):
    """Knuth's ``ran_start`` (TAOCP 2002 version), the 100 ``ran_x`` words."""
    x = [0] * (_KK + _KK - 1)
    ss = (seed + 2) & (_MM - 2)
    for j in range(_KK):
        x[j] = ss
        ss <<= 1
        if ss >= _MM:
            ss -= _MM - 2
    x[1] += 1
    ss = seed & (_MM - 1)
    t = 70 - 1
    while t:
        for j in range(_KK - 1, 0, -1):
            x[j + j] = x[j]
            x[j + j - 1] = 0
        for j in range(_KK + _KK - 2, _KK - 1, -1):
            x[j - (_KK - _LL)] = (x[j - (_KK - _LL)] - x[j]) & (_MM - 1)
            x[j - _KK] = (x[j - _KK] - x[j]) & (_MM - 1)
        if ss & 1:
            for j in range(_KK, 0, -1):
                x[j] = x[j - 1]
            x[0] = x[_KK]
            x[_LL] = (x[_LL] - x[_KK]) & (_MM - 1)
        if ss:
            ss >>= 1
        else:
            t -= 1
    ran_x = [0] * _KK
    for j in range(_LL):
        ran_x[j + _KK - _LL] = x[j]
    for j in range(_LL, _KK):
        ran_x[j - _LL] = x[j]
    for _ in range(10):
        ran_x = _ran_array(ran_x, _KK + _KK - 1)
    return ran_x


def _taocp_1997_init(seed):
    """R's ``.TAOCP1997init(seed)`` (base/R/TAOCP.R), 1-based indices kept."""
    kk, ll, mm = _KK, _LL, _MM
    kkk = kk + kk - 1
    kkl = kk - ll
    ss = seed - (seed % 2) + 2
    X = [0] * (kkk + 1)  # X[1..kkk]
    for j in range(1, kk + 1):
        X[j] = ss
        ss = ss + ss
        if ss >= mm:
            ss = ss - mm + 2
    X[2] += 1
    ss = seed
    T = 69
    while T > 0:
        for j in range(kk, 1, -1):
            X[j + j - 1] = X[j]
        for j in range(kkk, kkl, -2):
            X[kkk - j + 2] = X[j] - (X[j] % 2)
        for j in range(kkk, kk, -1):
            if X[j] % 2 == 1:
                X[j - kkl] = (X[j - kkl] - X[j]) % mm
                X[j - kk] = (X[j - kk] - X[j]) % mm
        if ss % 2 == 1:
            for j in range(kk, 0, -1):
                X[j + 1] = X[j]
            X[1] = X[kk + 1]
            if X[kk + 1] % 2 == 1:
                X[ll + 1] = (X[ll + 1] - X[kk + 1]) % mm
        if ss:
            ss = ss // 2
        else:
            T -= 1
    return X[ll + 1:kk + 1] + X[1:ll + 1]


class KnuthTAOCP2002(BitGenerator):
    """``RNGkind("Knuth-TAOCP-2002")``: Knuth's lagged Fibonacci ``ran_array``.

    100 words ``x`` with ``x[j] = x[j-100] - x[j-37] mod 2^30``, refreshed
    1009 terms at a time (``ran_arr_cycle``); ``u = x * 2^-30``.
    ``.Random.seed`` holds the 100 words and the position ``KT_pos``.
    """

    kind = "Knuth-TAOCP-2002"
    code = 6
    n_seed = 101
    index_cut = 33554431.0  # 2^25 - 1: the generator has 30 bits

    def _init(self, s):
        self._x = np.asarray(self._start(s % 1073741821), dtype=np.int64)
        self._pos = 100

    @staticmethod
    def _start(seed):
        return _ran_start_2002(seed)

    def _words(self):
        return [int(v) for v in self._x] + [self._pos & _M32]

    def _load(self, words):
        self._x = np.asarray([w & _M32 for w in words[:100]], dtype=np.int64)
        pos = words[100]
        self._pos = pos - (1 << 32) if pos >= 1 << 31 else pos

    def _fixup_seeds(self):
        if self._pos <= 0:
            self._pos = 100
        if not self._x.any():
            self.seed(None)

    def _chunk(self, m):
        out = np.empty(m)
        k = 0
        if self._pos < 100:
            take = min(m, 100 - self._pos)
            out[:take] = self._x[self._pos:self._pos + take]
            self._pos += take
            k = take
        if k < m:
            # The state words are below 2^30 unless a user loaded others:
            # the recurrence masks them, as C's unsigned arithmetic does.
            need = m - k
            cycles = -(-need // 100)
            blocks = _lagged_fib(self._x & (_MM - 1), cycles)
            flat = blocks.ravel()
            out[k:] = flat[:need]
            self._x = blocks[-1].copy()
            self._pos = need - 100 * (cycles - 1)
        out *= _KT
        return _fixup(out)


class KnuthTAOCP(KnuthTAOCP2002):
    """``RNGkind("Knuth-TAOCP")``: the 1997 initialisation of Knuth's generator.

    Same draws as :class:`KnuthTAOCP2002`; only the seeding differs (R's
    ``.TAOCP1997init``).
    """

    kind = "Knuth-TAOCP"
    code = 4

    @staticmethod
    def _start(seed):
        return _taocp_1997_init(seed)

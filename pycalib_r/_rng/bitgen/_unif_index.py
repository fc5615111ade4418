# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c (GPL-2.0-or-later), (c) The R Core Team
"""R 4.2.2's ``R_unif_index`` and ``rbits`` on any uniform source.

Both ``sample.kind`` values: ``"Rounding"`` (``floor(dn * unif_rand())``)
and ``"Rejection"`` (``rbits`` on 16-bit chunks of uniforms, rejecting
candidates ``>= dn``), written against the :class:`BitGenerator` interface
(``unif_rand(n)``, ``snapshot()``/``restore()``, ``advance(n)``). Rejection is
vectorised in passes, rewinding the generator to the last accepted candidate,
so the stream position equals R's.

R equivalent: ``R_unif_index()``, ``rbits()``, ``ru()`` (``src/main/RNG.c``).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["rbits", "unif_index"]


_PASS = 1 << 16


# --- R_unif_index -------------------------------------------------------------------

def rbits(gen, bits, n):
    """``n`` values of RNG.c's ``rbits(bits)``: 16-bit chunks ``floor(65536 u)``.

    Returns uint64; each value uses ``bits // 16 + 1`` uniforms.
    """
    nchunk = int(bits) // 16 + 1
    u = gen.unif_rand(int(n) * nchunk).reshape(int(n), nchunk)
    return _join_chunks(u, bits)


def _join_chunks(u, bits):
    c = np.floor(u * 65536).astype(np.uint64)
    v = c[:, 0].copy()
    for j in range(1, c.shape[1]):
        v <<= np.uint64(16)  # int_least64_t 65536 * v + v1: the mask keeps the low bits
        v += c[:, j]
    v &= np.uint64((1 << int(bits)) - 1)
    return v


def unif_index(gen, dn, n, sample_kind="Rejection"):
    """``n`` successive values of R's ``R_unif_index(dn)`` (0-based, float64).

    Parameters
    ----------
    gen : BitGenerator
    dn : float
        The number of choices (R's double ``dn``).
    n : int
    sample_kind : {"Rejection", "Rounding"}
        Rejection (R >= 3.6.0's default): ``rbits(ceil(log2(dn)))`` until
        below ``dn``. Rounding (R < 3.6.0): ``floor(dn * unif_rand())``, or
        ``floor(dn * ru())`` with ``ru() = (floor(2^25 u1) + u2) / 2^25``
        when ``dn`` exceeds ``gen.index_cut`` (``INT_MAX``; ``2^25 - 1`` for
        the Knuth kinds).

    R equivalent: ``R_unif_index(dn)`` (what ``sample()`` calls per index).

    Examples
    --------
    >>> from pycalib_r._rng.bitgen import new_generator, unif_index
    >>> unif_index(new_generator("Wichmann-Hill", 1), 10, 5) + 1
    array([5., 5., 4., 4., 9.])

    R: ``set.seed(1, kind = "Wichmann-Hill"); sample.int(10, 5, TRUE)``
    prints ``[1] 5 5 4 4 9``.
    """
    n = int(n)
    dn = float(dn)
    if not math.isfinite(dn):
        raise ValueError(f"dn must be finite, not {dn}")
    if sample_kind == "Rounding":
        if dn > gen.index_cut:
            u = gen.unif_rand(2 * n)
            v = np.floor(33554432.0 * u[0::2])
            v += u[1::2]
            v /= 33554432.0
            return np.floor(dn * v)
        return np.floor(dn * gen.unif_rand(n))
    if sample_kind != "Rejection":
        raise ValueError(f"unknown sample kind {sample_kind!r}")
    if dn <= 0 or n == 0:
        return np.zeros(n)
    bits = int(math.ceil(math.log2(dn)))
    nchunk = bits // 16 + 1
    out = np.empty(n)
    have = 0
    while have < n:
        need = n - have
        # Expected tries: need / acceptance (> 1/2); a little slack avoids a
        # second pass most of the time.
        tries = min(_PASS, int(need * (1 << bits) / dn * 1.05) + 16)
        snap = gen.snapshot()
        v = _join_chunks(gen.unif_rand(tries * nchunk).reshape(tries, nchunk), bits)
        vf = v.astype(np.float64)
        ok = np.flatnonzero(vf < dn)
        if ok.size >= need:
            last = ok[need - 1]
            gen.restore(snap)
            gen.advance((last + 1) * nchunk)
            ok = ok[:need]
        out[have:have + ok.size] = vf[ok]
        have += ok.size
    return out

"""Compiled Mersenne-Twister words: R's ``MT_genrand`` block by block.

numpy's ``MT19937`` holds the state (624 key words and a position); the
compiled loops take a copy of the key, the tempered words of the current
block (:func:`temper_block`) and the position, and call :func:`next_block`
when they run out of words, so the caller writes the state back and the
stream stands exactly where R leaves it. The recurrence is the reference one
(Matsumoto and Nishimura 1998) as numpy and R's ``MT_genrand`` compute it;
only integer arithmetic is involved, so the words are the same on every CPU.
The twin is numpy's ``MT19937`` itself (:mod:`pycalib_r._rng.bitgen._mt`).

Loaded only through :func:`pycalib_r._jit.kernels`. R equivalent:
``MT_sgenrand``/``MT_genrand`` (``src/main/RNG.c``).

References
----------
Matsumoto, M. and Nishimura, T. (1998). Mersenne Twister: a 623-dimensionally
equidistributed uniform pseudo-random number generator. *ACM Transactions on
Modeling and Computer Simulation*, 8(1), 3-30.
"""

from __future__ import annotations

import numpy as np

from pycalib_r._jit import njit

__all__ = ["N", "next_block", "temper_block"]


N = 624
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
_MATRIX_A = np.uint32(0x9908B0DF)


@njit(inline="always")
def _twist(a, b, c):
    y = (a & _UPPER) | (b & _LOWER)
    return c ^ (y >> np.uint32(1)) ^ ((-(y & np.uint32(1))) & _MATRIX_A)


@njit(inline="always")
def _temper(y):
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit
def temper_block(mt, w):
    """``w[i] = temper(mt[i])``: the words the current block gives."""
    for i in range(N):
        w[i] = _temper(mt[i])


@njit
def next_block(mt, w):
    """Advance ``mt`` by one block (numpy's ``mt19937_gen``) and temper it."""
    for i in range(N - 397):
        mt[i] = _twist(mt[i], mt[i + 1], mt[i + 397])
    for i in range(N - 397, N - 1):
        mt[i] = _twist(mt[i], mt[i + 1], mt[i - (N - 397)])
    mt[N - 1] = _twist(mt[N - 1], mt[0], mt[396])
    for i in range(N):
        w[i] = _temper(mt[i])

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c (GPL-2.0-or-later), (c) The R Core Team; Mersenne-Twister part (c) 1997, 1999 Makoto Matsumoto and Takuji Nishimura
"""R 4.2.2's uniform generators (``RNGkind(kind = ...)``), bit for bit.

One small class per kind, all with the same interface (:class:`BitGenerator`):
seeding as ``set.seed(seed, kind = ...)`` does (``RNG_Init``: 50 rounds of the
LCG ``seed = 69069 * seed + 1``, then the kind's own initialisation and
``FixupSeeds``), ``unif_rand(n)`` equal to R's C-level ``unif_rand()``
sequence, and the state as the words of ``.Random.seed`` after its first
element. This module holds the interface and the small generators; Knuth's
are in ``_knuth.py``, L'Ecuyer's in ``_lecuyer.py``.

Where the recurrence allows it the draws are vectorised: Wichmann-Hill and
L'Ecuyer-CMRG are linear congruences (jumps by precomputed powers),
Marsaglia-Multicarry's multiply-with-carry is the congruence
``I[n] = I[n-1] * 2^-16 mod (36969 * 2^16 - 1)``, Super-Duper's Tausworthe
half is linear over GF(2) (precomputed images of the 32 bit vectors) and its
congruential half a power of 69069 mod 2^32, and Knuth's lagged Fibonacci
cycles are powers of one integer matrix. Work is done in chunks, so long
draws stay interruptible (Ctrl-C) and temporaries stay small.

R equivalent: ``src/main/RNG.c`` (``unif_rand``, ``RNG_Init``,
``FixupSeeds``) of R 4.2.2.

References
----------
Wichmann, B. A. and Hill, I. D. (1982). Algorithm AS 183. Applied Statistics
31, 188-190. Marsaglia, G. (1997). A random number generator for C. Reeds,
J., Hubert, S. and Abrahams, M. (1982-4), C implementation of SuperDuper.
Matsumoto, M. and Nishimura, T. (1998). Mersenne Twister. ACM TOMACS 8, 3-30.
"""

from __future__ import annotations

import math
import numbers
import secrets

import numpy as np

__all__ = [
    "BitGenerator",
    "WichmannHill",
    "MarsagliaMulticarry",
    "SuperDuper",
    "MersenneTwister",
]

# R's tables (base/R/RNG.R); a name's position is R's code (the C enum value).
KINDS = ("Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper", "Mersenne-Twister",
         "Knuth-TAOCP", "user-supplied", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG")
NORMAL_KINDS = ("Buggy Kinderman-Ramage", "Ahrens-Dieter", "Box-Muller", "user-supplied",
                "Inversion", "Kinderman-Ramage")
SAMPLE_KINDS = ("Rounding", "Rejection")

_M32 = 0xFFFFFFFF
_I2_32M1 = 2.328306437080797e-10  # 1/(2^32 - 1), RNG.c's i2_32m1
_FIX_LOW = 0.5 * _I2_32M1
_FIX_HIGH = 1.0 - 0.5 * _I2_32M1
_INT_MAX = 2147483647
# Draws per pass: a few hundred kB of temporaries, milliseconds per pass.
_CHUNK = 1 << 16


def _fixup(u):
    """RNG.c's ``fixup``: 0 and 1 are never returned (in place)."""
    u[u <= 0.0] = _FIX_LOW
    u[(1.0 - u) <= 0.0] = _FIX_HIGH
    return u


def _lcg_scramble(seed, rounds=50):
    """``seed = 69069 * seed + 1`` ``rounds`` times on an unsigned 32-bit seed."""
    for _ in range(rounds):
        seed = (69069 * seed + 1) & _M32
    return seed


def _check_seed(seed):
    """``seed`` as a Python int in R's integer range, or R's error."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Real):
        raise TypeError(f"`seed` must be an integer (as R's set.seed), not {type(seed).__name__}.")
    if isinstance(seed, numbers.Integral):
        value = int(seed)
    else:
        fv = float(seed)
        if not math.isfinite(fv) or fv != math.floor(fv):
            raise ValueError("supplied seed is not a valid integer")
        value = int(fv)
    # NA_integer_ is -2^31, so R's integers stop one short of it.
    if not -_INT_MAX <= value <= _INT_MAX:
        raise ValueError("supplied seed is not a valid integer")
    return value


def _check_words(vec):
    """``.Random.seed`` entries as Python ints (R requires an integer vector)."""
    arr = np.asarray(vec)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        if arr.ndim == 1 and arr.dtype.kind == "f" and np.all(np.isfinite(arr)) \
                and np.all(arr == np.floor(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError("'.Random.seed' must be an integer vector")
    vals = [int(v) for v in arr]
    if any(v < -(1 << 31) or v >= 1 << 32 for v in vals):
        raise ValueError("'.Random.seed' must be an integer vector (32-bit values)")
    return vals


def _entropy_seed():
    """R's ``TimeToSeed()`` stand-in: a 32-bit seed from the OS."""
    return secrets.randbits(32)


def _as_words(vec, n):
    """The first ``n`` words of ``vec`` as unsigned 32-bit Python ints."""
    return [int(v) & _M32 for v in vec[:n]]


def _signed(words):
    return np.asarray(words, dtype=np.uint32).view(np.int32).copy()


def _mulmod(x, pw, m):
    """``x * pw mod m`` exactly, for a scalar ``x < 2^32`` and uint64 ``pw < 2^32``.

    The product can reach 2^64, so ``x`` is split in 16-bit halves: each
    partial product stays below 2^48.
    """
    hi = np.uint64(x >> 16)
    lo = np.uint64(x & 0xFFFF)
    mm = np.uint64(m)
    out = pw * hi
    out %= mm
    out <<= np.uint64(16)
    out += pw * lo
    out %= mm
    return out


def _powers(mult, m, count):
    """``mult^k mod m`` for k = 1..count, as uint64 (exact Python-int steps)."""
    out = np.empty(count, dtype=np.uint64)
    v = 1
    for k in range(count):
        v = v * mult % m
        out[k] = v
    return out


class BitGenerator:
    """Common interface of R's uniform generators.

    Subclasses set ``kind`` (R's name), ``code`` (``.Random.seed[1] %% 100``),
    ``n_seed`` (words after the kind code) and ``index_cut`` (the ``dn``
    above which ``R_unif_index`` under ``sample.kind = "Rounding"`` combines
    two uniforms).

    Parameters
    ----------
    seed : int or None
        As ``set.seed(seed, kind = <this kind>)``: an integer (R's
        ``set.seed`` takes values in ``[-(2^31 - 1), 2^31 - 1]``; the seed is
        used as an unsigned 32-bit value, so negative seeds wrap). None seeds
        from OS entropy, as R seeds from the clock.

    R equivalent: ``set.seed(seed, kind = kind)`` then ``unif_rand()`` (C),
    which ``runif(n)`` returns for ``min = 0, max = 1``.
    """

    kind = ""
    code = -1
    n_seed = 0
    index_cut = float(_INT_MAX)

    def __init__(self, seed=None):
        self.seed(seed)

    # -- seeding and state ---------------------------------------------------------

    def seed(self, seed=None):
        """Seed as R's ``RNG_Init(kind, seed)`` (what ``set.seed`` calls).

        Raises
        ------
        TypeError
            ``seed`` is not a number.
        ValueError
            ``seed`` is not integral or outside R's integer range; the
            message is R's ("supplied seed is not a valid integer").
        """
        s = _entropy_seed() if seed is None else _check_seed(seed) & _M32
        self.seed_word(s)

    def seed_word(self, word):
        """``RNG_Init`` with an unsigned 32-bit ``word`` (no range check)."""
        self._init(_lcg_scramble(int(word) & _M32))

    def _init(self, s):
        """RNG_Init for the kinds whose words are the LCG's next outputs."""
        words = []
        for _ in range(self.n_seed):
            s = (69069 * s + 1) & _M32
            words.append(s)
        self._load(words)
        self._fixup_seeds()

    def get_words(self):
        """The ``n_seed`` words R stores after ``.Random.seed[1]`` (int32)."""
        return _signed(self._words())

    def set_words(self, words):
        """Load ``.Random.seed[-1]`` as R's ``GetRNGstate`` does (``FixupSeeds``).

        Parameters
        ----------
        words : sequence of int
            At least ``n_seed`` values (signed or unsigned 32-bit); extra
            values are ignored, as R ignores them.
        """
        words = _check_words(words)
        if len(words) < self.n_seed:
            raise ValueError("'.Random.seed' has wrong length")
        self._load(_as_words(words, self.n_seed))
        self._fixup_seeds()

    def get_state(self, normal_kind="Inversion", sample_kind="Rejection"):
        """R's ``.Random.seed`` for this generator (int32 vector).

        Parameters
        ----------
        normal_kind, sample_kind : str or int
            Names from :data:`NORMAL_KINDS` / :data:`SAMPLE_KINDS` or R's
            codes (their positions there); the first element is
            ``code + 100 * normal_kind + 10000 * sample_kind``.
        """
        nk = normal_kind if isinstance(normal_kind, int) else NORMAL_KINDS.index(normal_kind)
        sk = sample_kind if isinstance(sample_kind, int) else SAMPLE_KINDS.index(sample_kind)
        out = np.empty(self.n_seed + 1, dtype=np.int32)
        out[0] = self.code + 100 * nk + 10000 * sk
        out[1:] = self.get_words()
        return out

    def set_state(self, vec):
        """Load a full ``.Random.seed`` whose first element names this kind.

        A vector of length 1 reseeds from entropy, as R's ``Randomize``.
        """
        vec = _check_words(vec)
        if not vec or vec[0] % 100 != self.code:
            raise ValueError(f"'.Random.seed[1]' does not name {self.kind}")
        if len(vec) == 1:
            self.seed(None)
            return
        self.set_words(vec[1:])

    def _words(self):
        return list(self._i)

    def _load(self, words):
        self._i = [int(w) for w in words]

    def _fixup_seeds(self):
        pass

    def snapshot(self):
        """An opaque copy of the state (cheaper than get_state, no fixup)."""
        return tuple(self._words())

    def restore(self, snap):
        self._load(list(snap))

    # -- draws ---------------------------------------------------------------------

    def unif_rand(self, n):
        """``n`` successive values of R's ``unif_rand()`` (float64, in (0, 1))."""
        n = int(n)
        if n < 0:
            raise ValueError("n must be >= 0")
        out = np.empty(n)
        for start in range(0, n, _CHUNK):
            m = min(_CHUNK, n - start)
            out[start:start + m] = self._chunk(m)
        return out

    def advance(self, n):
        """Skip ``n`` draws."""
        for start in range(0, int(n), _CHUNK):
            self._chunk(min(_CHUNK, int(n) - start))

    def _chunk(self, m):  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}(kind={self.kind!r}, state={self.get_words()[:6].tolist()}...)"


# --- Wichmann-Hill ------------------------------------------------------------------

_WH_MOD = (30269, 30307, 30323)
_WH_MULT = (171, 172, 170)
_WH_POW = None


class WichmannHill(BitGenerator):
    """``RNGkind("Wichmann-Hill")``: three multiplicative congruences (AS 183).

    ``I1 = 171 * I1 mod 30269``, ``I2 = 172 * I2 mod 30307``,
    ``I3 = 170 * I3 mod 30323``; ``u = frac(I1/30269 + I2/30307 + I3/30323)``.
    """

    kind = "Wichmann-Hill"
    code = 0
    n_seed = 3

    def _fixup_seeds(self):
        self._i = [(w % m) or 1 for w, m in zip(self._i, _WH_MOD)]

    def _chunk(self, m):
        global _WH_POW
        if _WH_POW is None:
            _WH_POW = [_powers(a, mod, _CHUNK).astype(np.int64) for a, mod in zip(_WH_MULT, _WH_MOD)]
        seqs = []
        for j in range(3):
            s = _WH_POW[j][:m] * self._i[j]
            s %= _WH_MOD[j]
            seqs.append(s)
            self._i[j] = int(s[-1]) if m else self._i[j]
        value = seqs[0] / 30269.0
        value += seqs[1] / 30307.0
        value += seqs[2] / 30323.0
        value -= np.trunc(value)
        return _fixup(value)


# --- Marsaglia-Multicarry -----------------------------------------------------------

_MWC = ((36969, 36969 * 65536 - 1), (18000, 18000 * 65536 - 1))
_MWC_POW = None


def _mwc_sequence(x, a, mod, m, pw):
    """``m`` successive states of ``x = a * (x & 0xFFFF) + (x >> 16)``.

    Once ``x < mod = a * 2^16 - 1`` it stays below ``mod`` and equals
    ``x * (2^16)^-1 mod mod`` at every step, so the states are ``x`` times
    powers of the inverse of 2^16; the first steps from an arbitrary 32-bit
    seed (and the fixed point ``x = mod``) are taken one by one.
    """
    out = np.empty(m, dtype=np.uint64)
    k = 0
    while k < m and x >= mod:
        x = a * (x & 0xFFFF) + (x >> 16)
        out[k] = x
        k += 1
    if k < m:
        out[k:] = _mulmod(x, pw[:m - k], mod)
    return out


class MarsagliaMulticarry(BitGenerator):
    """``RNGkind("Marsaglia-Multicarry")``: two multiply-with-carry generators.

    ``I1 = 36969 * (I1 & 0xFFFF) + (I1 >> 16)``,
    ``I2 = 18000 * (I2 & 0xFFFF) + (I2 >> 16)``,
    ``u = ((I1 << 16) ^ (I2 & 0xFFFF)) / (2^32 - 1)``.
    """

    kind = "Marsaglia-Multicarry"
    code = 1
    n_seed = 2

    def _fixup_seeds(self):
        self._i = [w or 1 for w in self._i]

    def _chunk(self, m):
        global _MWC_POW
        if _MWC_POW is None:
            _MWC_POW = [_powers(pow(65536, -1, mod), mod, _CHUNK) for _, mod in _MWC]
        s1 = _mwc_sequence(self._i[0], _MWC[0][0], _MWC[0][1], m, _MWC_POW[0])
        s2 = _mwc_sequence(self._i[1], _MWC[1][0], _MWC[1][1], m, _MWC_POW[1])
        if m:
            self._i = [int(s1[-1]), int(s2[-1])]
        w = (s1 << np.uint64(16)) & np.uint64(_M32)
        w ^= s2 & np.uint64(0xFFFF)
        return _fixup(w * _I2_32M1)


# --- Super-Duper --------------------------------------------------------------------

_SD_BLOCK = 4096
_SD_COLS = None
_SD_POW = None


def _sd_tables():
    """Images of the 32 unit bit vectors after 1..block Tausworthe steps."""
    cols = np.empty((32, _SD_BLOCK), dtype=np.uint32)
    v = np.uint32(1) << np.arange(32, dtype=np.uint32)
    for k in range(_SD_BLOCK):
        v = v ^ ((v >> np.uint32(15)) & np.uint32(0o377777))
        v = v ^ (v << np.uint32(17))
        cols[:, k] = v
    pw = np.empty(_SD_BLOCK, dtype=np.uint32)
    x = 1
    for k in range(_SD_BLOCK):
        x = x * 69069 & _M32
        pw[k] = x
    return cols, pw


class SuperDuper(BitGenerator):
    """``RNGkind("Super-Duper")``: Reeds et al.'s Tausworthe + congruential pair.

    ``I1 ^= (I1 >> 15) & 0377777; I1 ^= I1 << 17`` (Tausworthe),
    ``I2 *= 69069`` (mod 2^32), ``u = (I1 ^ I2) / (2^32 - 1)``.
    """

    kind = "Super-Duper"
    code = 2
    n_seed = 2

    def _fixup_seeds(self):
        if self._i[0] == 0:
            self._i[0] = 1
        self._i[1] |= 1  # the congruential half must be odd

    def _chunk(self, m):
        global _SD_COLS, _SD_POW
        if _SD_COLS is None:
            _SD_COLS, _SD_POW = _sd_tables()
        out = np.empty(m)
        for start in range(0, m, _SD_BLOCK):
            b = min(_SD_BLOCK, m - start)
            i1 = np.zeros(b, dtype=np.uint32)
            x = self._i[0]
            bit = 0
            while x:
                if x & 1:
                    i1 ^= _SD_COLS[bit, :b]
                x >>= 1
                bit += 1
            i2 = _SD_POW[:b] * np.uint32(self._i[1])  # wraps mod 2^32, as C
            self._i = [int(i1[-1]), int(i2[-1])]
            i1 ^= i2
            out[start:start + b] = i1 * _I2_32M1
        return _fixup(out)


# --- Mersenne-Twister (for comparison; the package's stream has its own) ----------

class MersenneTwister(BitGenerator):
    """``RNGkind("Mersenne-Twister")`` on numpy's MT19937 (R's default kind).

    ``.Random.seed[2]`` is ``mti`` (the position in the 624-word key).
    """

    kind = "Mersenne-Twister"
    code = 3
    n_seed = 625

    def _init(self, s):
        key = np.empty(625, dtype=np.uint32)
        for j in range(625):
            s = (69069 * s + 1) & _M32
            key[j] = s
        key[0] = 624  # FixupSeeds(initial = 1): mti = 624
        self._load(key.tolist())

    def _words(self):
        st = self._bg.state["state"]
        return [int(st["pos"])] + np.asarray(st["key"], dtype=np.uint32).tolist()

    def _load(self, words):
        if not hasattr(self, "_bg"):
            self._bg = np.random.MT19937(0)
        pos = words[0] - (1 << 32) if words[0] >= 1 << 31 else words[0]
        key = np.asarray(words[1:625], dtype=np.uint32)
        if pos == 625:  # mti = N + 1: MT_genrand's default MT_sgenrand(4357)
            key = np.empty(624, dtype=np.uint32)
            s = 4357
            for i in range(624):
                hi = s & 0xFFFF0000
                s = (69069 * s + 1) & _M32
                key[i] = hi | ((s & 0xFFFF0000) >> 16)
                s = (69069 * s + 1) & _M32
            pos = 624
        pos = min(max(pos, 0), 624)
        self._bg.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def set_words(self, words):
        words = _check_words(words)
        if len(words) < self.n_seed:
            raise ValueError("'.Random.seed' has wrong length")
        w = _as_words(words, self.n_seed)
        pos = w[0] - (1 << 32) if w[0] >= 1 << 31 else w[0]
        if pos <= 0:
            w[0] = 624
        if not any(w[1:]):
            self.seed(None)
            return
        self._load(w)

    def _chunk(self, m):
        w = self._bg.random_raw(m)
        u = w * 2.3283064365386963e-10
        return _fixup(u)

"""R 4.2.2's uniform generators (``RNGkind(kind = ...)``), bit for bit.

One small class per kind, all with the same interface (:class:`BitGenerator`):
seeding as ``set.seed(seed, kind = ...)`` does (``RNG_Init``: 50 rounds of the
LCG ``seed = 69069 * seed + 1``, then the kind's own initialisation and
``FixupSeeds``), ``unif_rand(n)`` equal to R's C-level ``unif_rand()``
sequence, and the state as the words of ``.Random.seed`` after its first
element.

Where the recurrence allows it the draws are vectorised: Wichmann-Hill and
L'Ecuyer-CMRG are linear congruences (jumps by precomputed powers),
Marsaglia-Multicarry's multiply-with-carry is the congruence
``I[n] = I[n-1] * 2^-16 mod (36969 * 2^16 - 1)``, Super-Duper's Tausworthe
half is linear over GF(2) (precomputed images of the 32 bit vectors) and its
congruential half a power of 69069 mod 2^32, and Knuth's lagged Fibonacci
sequence is computed 37 terms at a time. Work is done in chunks, so long
draws stay interruptible (Ctrl-C) and temporaries stay small.

R equivalent: ``src/main/RNG.c`` (``unif_rand``, ``RNG_Init``,
``FixupSeeds``, Knuth's ``ran_start``/``ran_array``),
``src/library/base/R/TAOCP.R`` (``.TAOCP1997init``) and
``src/library/parallel/src/rngstream.c`` (``nextRNGStream``,
``nextRNGSubStream``) of R 4.2.2.

References
----------
Wichmann, B. A. and Hill, I. D. (1982). Algorithm AS 183. Applied Statistics
31, 188-190. Marsaglia, G. (1997). A random number generator for C. Reeds,
J., Hubert, S. and Abrahams, M. (1982-4), C implementation of SuperDuper.
Knuth, D. E. (1997, 2002). The Art of Computer Programming, Volume 2, 3rd
edition, Section 3.6. L'Ecuyer, P., Simard, R., Chen, E. J. and Kelton,
W. D. (2002). An object-oriented random-number package with many long
streams and substreams. Operations Research 50, 1073-1075.
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
    "KnuthTAOCP",
    "KnuthTAOCP2002",
    "LEcuyerCMRG",
    "next_rng_stream",
    "next_rng_substream",
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
_TWO15 = float(1 << 15)
_TWO30 = float(_MM)


def _matmod(a, b):
    """``a @ b mod 2^30`` exactly, for float64 matrices of integers below 2^30.

    ``b`` is split at bit 15, so every dot product stays below 2^52 and the
    BLAS product is exact in double precision.
    """
    b_hi = np.floor(b / _TWO15)
    b_lo = b - b_hi * _TWO15
    out = _mod_pow2(a @ b_lo, _TWO30)
    out += _mod_pow2(a @ b_hi, _TWO15) * _TWO15
    return _mod_pow2(out, _TWO30)


def _mod_pow2(x, p):
    """``x mod p`` for non-negative integers in float64 below 2^53 and a power
    of two ``p``: every step is exact (and much faster than ``np.fmod``)."""
    q = x / p
    np.floor(q, out=q)
    q *= p
    return x - q


def _kt_stack():
    """The cycle map's powers ``M^1 .. M^64`` stacked (6400 x 100, float64).

    One ``ran_arr_cycle`` maps the 100 state words linearly (mod 2^30) to
    the next 100, ``new = M @ old``; the c-th cycle's words are
    ``M^c @ old``, so 64 cycles are one exact matrix-vector product.
    """
    m = _lagged_fib_direct(np.eye(_KK, dtype=np.int64), 1)[0].astype(np.float64)
    powers = [m]
    for _ in range(_KT_CYCLES - 1):
        powers.append(_matmod(m, powers[-1]))
    return np.concatenate(powers)


def _lagged_fib(state, cycles):
    """The words of the next ``cycles`` cycles (cycles x 100, int64)."""
    global _KT_STACK
    if _KT_STACK is None:
        _KT_STACK = _kt_stack()
    out = np.empty((cycles, _KK), dtype=np.int64)
    s = np.asarray(state, dtype=np.float64)
    for c0 in range(0, cycles, _KT_CYCLES):
        c = min(_KT_CYCLES, cycles - c0)
        block = _matmod(_KT_STACK[:c * _KK], s[:, None])[:, 0]
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


# --- L'Ecuyer-CMRG ------------------------------------------------------------------

_M1 = 4294967087
_M2 = 4294944443
_NORMC = 2.328306549295727688e-10
_A12, _A13N = 1403580, 810728
_A21, _A23N = 527612, 1370589
_LE_COEF = None


def _le_coefficients(count):
    """Coefficients ``c[k]`` with ``x[n+k] = c[k] . (x[n-3], x[n-2], x[n-1]) mod m``.

    Returns two (3, count) uint64 arrays, one per component. The first three
    columns come from the recurrence; the table then doubles: ``x[n+L+j]``
    is ``c[j]`` applied to ``x[n+L-3..n+L-1]``, which are ``c[L-3..L-1]``
    applied to the state.
    """
    def run(rec, m):
        hist = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for _ in range(3):
            hist.append(tuple(rec(hist[-3][i], hist[-2][i], hist[-1][i]) % m for i in range(3)))
        c = np.array(hist[3:], dtype=np.uint64).T.copy()
        mm = np.uint64(m)
        while c.shape[1] < count:
            length = c.shape[1]
            new = np.zeros_like(c)
            for lane in range(3):
                for i in range(3):
                    new[lane] += _mulmod(int(c[lane, length - 3 + i]), c[i], m)
                    new[lane] %= mm
            c = np.concatenate([c, new], axis=1)
        return c[:, :count].copy()

    c1 = run(lambda x3, x2, x1: _A12 * x2 - _A13N * x3, _M1)
    c2 = run(lambda x3, x2, x1: _A21 * x1 - _A23N * x3, _M2)
    return c1, c2


def _le_component(state, coef, m, count):
    acc = np.zeros(count, dtype=np.uint64)
    mm = np.uint64(m)
    for i in range(3):
        acc += _mulmod(state[i], coef[i, :count], m)
        acc %= mm
    return acc


class LEcuyerCMRG(BitGenerator):
    """``RNGkind("L'Ecuyer-CMRG")``: L'Ecuyer's MRG32k3a.

    ``x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod 4294967087``,
    ``x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod 4294944443``,
    ``u = ((x1 - x2) mod 4294967087) / 4294967088`` (a zero difference gives
    ``4294967087 / 4294967088``, not 0; R applies no fixup to this kind).
    ``.Random.seed`` holds ``x1[n-3..n-1], x2[n-3..n-1]``.
    """

    kind = "L'Ecuyer-CMRG"
    code = 7
    n_seed = 6

    def _init(self, s):
        words = []
        for _ in range(6):
            s = (69069 * s + 1) & _M32
            while s >= _M2:
                s = (69069 * s + 1) & _M32
            words.append(s)
        self._load(words)

    def _fixup_seeds(self):
        s = self._i
        bad1 = not any(s[:3]) or any(v >= _M1 for v in s[:3])
        if bad1:
            self.seed(None)
            s = self._i
        # R's second check reuses the first's flags (notallzero stays set once
        # any first-half word was non-zero): only values >= m2 trigger it then.
        notallzero = any(s[:3]) or any(s[3:])
        if not notallzero or any(v >= _M2 for v in s[3:]):
            self.seed(None)

    def _chunk(self, m):
        global _LE_COEF
        if _LE_COEF is None:
            _LE_COEF = _le_coefficients(_CHUNK)
        s = self._i
        p1 = _le_component(s[:3], _LE_COEF[0], _M1, m)
        p2 = _le_component(s[3:], _LE_COEF[1], _M2, m)
        if m:
            t1 = p1[-3:].tolist() if m >= 3 else s[m:3] + p1.tolist()
            t2 = p2[-3:].tolist() if m >= 3 else s[3 + m:6] + p2.tolist()
            self._i = [int(v) for v in t1] + [int(v) for v in t2]
        d = p1.astype(np.int64) - p2.astype(np.int64)
        d[d <= 0] += _M1
        return d * _NORMC


# --- parallel::nextRNGStream / nextRNGSubStream -------------------------------------

_A1P76 = ((82758667, 1871391091, 4127413238),
          (3672831523, 69195019, 1871391091),
          (3672091415, 3528743235, 69195019))
_A2P76 = ((1511326704, 3759209742, 1610795712),
          (4292754251, 1511326704, 3889917532),
          (3859662829, 4292754251, 3708466080))
_A1P127 = ((2427906178, 3580155704, 949770784),
           (226153695, 1230515664, 3580155704),
           (1988835001, 986791581, 1230515664))
_A2P127 = ((1464411153, 277697599, 1610723613),
           (32183930, 1464411153, 1022607788),
           (2824425944, 32183930, 2093834863))


def _jump(seed, a1, a2, what):
    vec = np.asarray(seed)
    if (vec.ndim != 1 or vec.dtype.kind not in "iu" or vec.size < 7
            or int(vec[0]) % 100 != 7):
        raise ValueError("invalid value of 'seed'")
    s = [int(v) & _M32 for v in vec[1:7]]
    out = [int(vec[0])]
    for mat, part, m in ((a1, s[:3], _M1), (a2, s[3:], _M2)):
        for row in mat:
            out.append(sum(a * x for a, x in zip(row, part)) % m)
    return _signed(np.asarray(out, dtype=np.int64) & _M32)


def next_rng_stream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG stream (2^127 draws on).

    Parameters
    ----------
    seed : array_like of int
        An L'Ecuyer-CMRG ``.Random.seed`` (7 integers, first ``%% 100 == 7``).

    Returns
    -------
    numpy.ndarray of int32, length 7

    Raises
    ------
    ValueError
        ``seed`` is not such a vector; the message is R's
        ("invalid value of 'seed'").

    R equivalent: ``parallel::nextRNGStream(seed)``.

    Examples
    --------
    >>> g = LEcuyerCMRG(123)
    >>> next_rng_stream(g.get_state()).tolist()
    [10407, 1801422725, -2057975723, 1156894209, 1595475487, 210384600, -1655729657]

    R: ``RNGkind("L'Ecuyer-CMRG"); set.seed(123); nextRNGStream(.Random.seed)``.
    """
    return _jump(seed, _A1P127, _A2P127, "stream")


def next_rng_substream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG substream (2^76 draws on).

    Parameters and errors as :func:`next_rng_stream`.

    R equivalent: ``parallel::nextRNGSubStream(seed)``.
    """
    return _jump(seed, _A1P76, _A2P76, "substream")

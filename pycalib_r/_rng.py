"""R 4.2.2-compatible random streams, bit for bit.

R's defaults (``RNGkind()`` = Mersenne-Twister, Inversion, Rejection) are
reproduced on top of numpy's ``MT19937`` bit generator: R's ``set.seed``
scrambling gives the 624-word key, numpy produces the raw 32-bit words, and
every R algorithm that turns words into draws (``unif_rand``' fixup,
``R_unif_index``' rejection on 16-bit chunks, ``norm_rand``' inversion with
R's AS 241 ``qnorm``, nmath's ``rbinom``, ``do_sample``'s samplers) is ported
here so that values *and* the stream position after each call equal R's.
``RRandom.get_state()`` is R's ``.Random.seed``.

Where numpy and glibc disagree the glibc result is used: numpy's SIMD
``np.log`` differs from glibc's ``log`` in the last bit for about one value in
a thousand on AVX-512 machines, so every logarithm that decides a draw goes
through :func:`math.log` (glibc, as in R). Square roots are correctly
rounded in both and stay vectorised.

R equivalent: ``set.seed``, ``runif``, ``rnorm``, ``rbinom``, ``sample``,
``sample.int``, ``.Random.seed`` (R 4.2.2, ``src/main/RNG.c``,
``src/main/random.c``, ``src/nmath/{snorm,qnorm,rbinom}.c``).
"""

from __future__ import annotations

import math
import numbers
import secrets
import sys
import warnings

import numpy as np

from ._errors import ProbcalError

__all__ = [
    "RRandom",
    "GeneratorStream",
    "set_seed",
    "runif",
    "rnorm",
    "rbinom",
    "sample",
    "sample_int",
    "resolve_rng",
    "get_global_state",
    "set_global_state",
]

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
_min = min  # methods take R's `min`/`max` argument names, shadowing the builtins


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


def _libm_log(x):
    """Elementwise glibc ``log`` (R's), which numpy's SIMD ``np.log`` is not."""
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return np.empty(x.shape)
    return np.fromiter(map(math.log, x.ravel().tolist()), dtype=np.float64,
                       count=x.size).reshape(x.shape)


def _unif_from_words(w):
    """``fixup(MT_genrand())`` for raw 32-bit words (0 maps to 2^-33-ish)."""
    u = np.multiply(w, _TWO_M32, dtype=np.float64)
    # A word below 2^32 never gives u = 1, so only the lower fixup can apply.
    zero = w == 0
    if zero.any():
        u[zero] = _FIX_LOW
    return u


def _below(v, dn):
    """``v < dn`` for candidate indices (uint64, < 2^53) and R's double ``dn``."""
    if dn == math.floor(dn):
        return v < np.uint64(int(dn))
    return v.astype(np.float64) < dn


def _words32(gen, n):
    """``n`` raw MT19937 words as uint32 from a Generator on the stream's bit
    generator: for the full 32-bit range numpy returns ``next_uint32``
    itself, one word per value (the same words as ``random_raw``, at half
    the memory)."""
    return gen.integers(0, 4294967296, size=n, dtype=np.uint32)


class _IndexJoin:
    """How ``rbits(bits)`` candidates are assembled from raw words.

    R joins ``nchunk`` 16-bit chunks (each ``word >> 16``) high to low and
    masks the result to ``bits`` bits. Only the last ``ceil(bits / 16)``
    chunks survive the mask, so the candidate is built by copying those
    chunks' high halves (a uint16 view of the words) into the 16-bit pieces
    of an unsigned integer just wide enough (16, 32 or 64 bits), masking the
    top piece on the way: one strided copy per piece, no shifts and no
    64-bit temporaries.
    """

    __slots__ = ("bits", "nchunk", "dtype", "width", "pieces", "thresh", "all_ok")

    def __init__(self, bits, dn):
        self.bits = bits
        self.nchunk = bits // 16 + 1
        npiece = _min(max(1, -(-bits // 16)), self.nchunk)
        self.width = 1 if npiece == 1 else (2 if npiece == 2 else 4)
        self.dtype = np.dtype({1: np.uint16, 2: np.uint32, 4: np.uint64}[self.width])
        mask = (1 << bits) - 1
        hi = 1 if _LITTLE else 0  # the high half of a word in its uint16 pair
        pieces = []
        for j in range(npiece):  # j = 0 is the least significant piece
            col = j if _LITTLE else self.width - 1 - j
            src = 2 * (self.nchunk - 1 - j) + hi
            pieces.append((col, src, (mask >> (16 * j)) & 0xFFFF))
        self.pieces = pieces
        # For an integer candidate v, v < dn is v < ceil(dn); a threshold
        # beyond every candidate accepts all tries.
        thresh = math.ceil(dn)
        self.all_ok = thresh > mask
        self.thresh = None if self.all_ok else self.dtype.type(thresh)

    def buffer(self, ntry):
        """Zeroed piece buffer for ``ntry`` candidates (unused pieces stay 0)."""
        return np.zeros((ntry, self.width), dtype=np.uint16)

    def join(self, w, buf):
        """Candidates for the tries in ``w`` (``ntry * nchunk`` words),
        written into ``buf[:ntry]``; returns them as a 1-D view."""
        ntry = w.size // self.nchunk
        w16 = w.view(np.uint16).reshape(ntry, 2 * self.nchunk)
        b = buf[:ntry]
        for col, src, m in self.pieces:
            if m == 0xFFFF:
                b[:, col] = w16[:, src]
            else:
                np.bitwise_and(w16[:, src], np.uint16(m), out=b[:, col])
        return b.view(self.dtype).reshape(ntry)


def _index_bits(dn):
    """``(int) ceil(log2(dn))`` with glibc's log2, as R_unif_index computes it."""
    return int(math.ceil(math.log2(float(dn))))


def _pow_di(x, n):
    """R's ``R_pow_di`` (repeated squaring; its rounding is part of rbinom)."""
    xn = 1.0
    if n != 0:
        if not math.isfinite(x):
            return x ** float(n)
        neg = n < 0
        if neg:
            n = -n
        while True:
            if n & 1:
                xn *= x
            n >>= 1
            if n:
                x *= x
            else:
                break
        if neg:
            xn = 1.0 / xn
    return xn


def _pow_di_vec(x, n):
    """Vectorised :func:`_pow_di` for finite ``x`` and non-negative int ``n``."""
    x = np.array(x, dtype=np.float64)
    n = np.array(n, dtype=np.int64)
    xn = np.ones_like(x)
    while True:
        odd = (n & 1) == 1
        xn[odd] *= x[odd]
        n >>= 1
        if not n.any():
            break
        with np.errstate(over="ignore", under="ignore"):
            x = x * x
    return xn


def _wrap_int32(v):
    """C ``int`` arithmetic wraps; R's rbinom computes ``-k * k`` in int."""
    return ((int(v) + 2**31) % 2**32) - 2**31


# --- R's AS 241 qnorm -----------------------------------------------------------

# Coefficients of qnorm.c (AS 241), highest power first, as R's Horner code
# uses them.
_A_NUM = (2509.0809287301226727, 33430.575583588128105, 67265.770927008700853,
          45921.953931549871457, 13731.693765509461125, 1971.5909503065514427,
          133.14166789178437745, 3.387132872796366608)
_A_DEN = (5226.495278852854561, 28729.085735721942674, 39307.89580009271061,
          21213.794301586595867, 5394.1960214247511077, 687.1870074920579083,
          42.313330701600911252, 1.)
_B_NUM = (7.7454501427834140764e-4, .0227238449892691845833, .24178072517745061177,
          1.27045825245236838258, 3.64784832476320460504, 5.7694972214606914055,
          4.6303378461565452959, 1.42343711074968357734)
_B_DEN = (1.05075007164441684324e-9, 5.475938084995344946e-4, .0151986665636164571966,
          .14810397642748007459, .68976733498510000455, 1.6763848301838038494,
          2.05319162663775882187, 1.)
_C_NUM = (2.01033439929228813265e-7, 2.71155556874348757815e-5, .0012426609473880784386,
          .026532189526576123093, .29656057182850489123, 1.7848265399172913358,
          5.4637849111641143699, 6.6579046435011037772)
_C_DEN = (2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5,
          7.868691311456132591e-4, .0148753612908506148525, .13692988092273580531,
          .59983220655588793769, 1.)


def _horner(r, coef):
    """``(((r * c0 + c1) * r + c2) ... ) * r + c7`` in R's order, in place
    (one rounding per operation, exactly as the C expression)."""
    acc = r * coef[0]
    last = len(coef) - 1
    for i in range(1, last):
        acc += coef[i]
        acc *= r
    acc += coef[last]
    return acc


def _qnorm_open(p):
    """AS 241 for ``p`` strictly inside (0, 1): the part of R's ``qnorm5``
    that ``norm_rand`` reaches (lower tail, not log; mu = 0, sigma = 1)."""
    q = p - 0.5
    val = np.empty(p.shape)
    central = np.abs(q) <= 0.425
    ci = np.flatnonzero(central)
    if ci.size:
        qc = q[ci]
        r = 0.180625 - qc * qc
        num = _horner(r, _A_NUM)
        num *= qc  # q * num / den: the product first, as C parses it
        num /= _horner(r, _A_DEN)
        val[ci] = num
    ti = np.flatnonzero(~central)
    if ti.size:
        qt = q[ti]
        pt = p[ti]
        arg = np.where(qt > 0, 0.5 - pt + 0.5, pt)
        r = np.sqrt(-_libm_log(arg))
        vt = np.empty(r.shape)
        near = r <= 5.0
        if near.all():
            rr = r + -1.6
            vt = _horner(rr, _B_NUM)
            vt /= _horner(rr, _B_DEN)
        else:
            if near.any():
                rr = r[near] + -1.6
                vt[near] = _horner(rr, _B_NUM) / _horner(rr, _B_DEN)
            huge = r >= 816
            if huge.any():
                vt[huge] = r[huge] * 1.41421356237309504880  # M_SQRT2
            far = ~near & ~huge
            if far.any():
                rr = r[far] + -5.
                vt[far] = _horner(rr, _C_NUM) / _horner(rr, _C_DEN)
        np.negative(vt, out=vt, where=qt < 0.0)
        val[ti] = vt
    return val


def _qnorm_std(p):
    """R 4.2.2 ``qnorm5(p, 0, 1, lower_tail = TRUE, log_p = FALSE)``, vectorised.

    Ported operation for operation (Horner order, ``0.5 - p + 0.5`` for the
    upper tail, glibc log) so results are bit-identical to R's.
    """
    p = np.asarray(p, dtype=np.float64)
    out = np.empty(p.shape)
    nan = np.isnan(p)
    out[nan] = p[nan]
    out[p == 0.0] = -np.inf
    out[p == 1.0] = np.inf
    bad = ~nan & ((p < 0.0) | (p > 1.0))
    out[bad] = np.nan
    ok = ~nan & (p > 0.0) & (p < 1.0)
    # mu + sigma * val with mu = 0, sigma = 1 (turns -0 into +0, as R).
    out[ok] = 0.0 + 1.0 * _qnorm_open(p[ok])
    return out


# --- rbinom (nmath/rbinom.c) ---------------------------------------------------

class _BinomSetup:
    """The per-(size, prob) constants of nmath's rbinom, computed as C does."""

    __slots__ = ("n", "pp", "p", "q", "np", "r", "g", "qn", "m", "fm", "npq",
                 "p1", "xm", "xl", "xr", "c", "xll", "xlr", "p2", "p3", "p4",
                 "small")

    def __init__(self, n, pp):
        self.n = n
        self.pp = pp
        p = min(pp, 1.0 - pp)
        q = 1.0 - p
        np_ = n * p
        r = p / q
        self.p, self.q, self.np, self.r = p, q, np_, r
        self.g = r * (n + 1)
        self.small = np_ < 30.0
        if self.small:
            self.qn = _pow_di(q, n)
            return
        ffm = np_ + p
        m = int(ffm)
        fm = float(m)
        npq = np_ * q
        p1 = int(2.195 * math.sqrt(npq) - 4.6 * q) + 0.5
        xm = fm + 0.5
        xl = xm - p1
        xr = xm + p1
        c = 0.134 + 20.5 / (15.3 + fm)
        al = (ffm - xl) / (ffm - xl * p)
        xll = al * (1.0 + 0.5 * al)
        al = (xr - ffm) / (xr * q)
        xlr = al * (1.0 + 0.5 * al)
        p2 = p1 * (1.0 + c + c)
        p3 = p2 + c / xll
        p4 = p3 + c / xlr
        self.m, self.fm, self.npq, self.p1, self.xm = m, fm, npq, p1, xm
        self.xl, self.xr, self.c, self.xll, self.xlr = xl, xr, c, xll, xlr
        self.p2, self.p3, self.p4 = p2, p3, p4


def _stirling(a2, a):
    return (13860.0 - (462.0 - (132.0 - (99.0 - 140.0 / a2) / a2) / a2) / a2) / a / 166320.0


def _binom_explicit_f(s, ix):
    """BTPE's explicit f(ix)/f(m), multiplied in R's order."""
    f = 1.0
    m = s.m
    if m < ix:
        for i in range(m + 1, ix + 1):
            f *= (s.g / i - s.r)
    elif m != ix:
        for i in range(ix + 1, m + 1):
            f /= (s.g / i - s.r)
    return f


def _btpe_try(s, u1, u2):
    """One BTPE attempt on uniforms (u1, u2): ix, or None when rejected."""
    u = u1 * s.p4
    v = u2
    if u <= s.p1:
        return int(s.xm - s.p1 * v + u)
    if u <= s.p2:
        x = s.xl + (u - s.p1) / s.c
        v = v * s.c + 1.0 - abs(s.xm - x) / s.p1
        if v > 1.0 or v <= 0.:
            return None
        ix = int(x)
    elif u > s.p3:
        ix = int(s.xr - math.log(v) / s.xlr)
        if ix > s.n:
            return None
        v = v * (u - s.p3) * s.xlr
    else:
        ix = int(s.xl + math.log(v) / s.xll)
        if ix < 0:
            return None
        v = v * (u - s.p2) * s.xll
    k = abs(ix - s.m)
    if k <= 20 or k >= s.npq / 2 - 1:
        return ix if v <= _binom_explicit_f(s, ix) else None
    npq = s.npq
    amaxp = (k / npq) * ((k * (k / 3. + 0.625) + 0.1666666666666) / npq + 0.5)
    ynorm = _wrap_int32(-k * k) / (2.0 * npq)
    alv = math.log(v)
    if alv < ynorm - amaxp:
        return ix
    if alv <= ynorm + amaxp:
        n, m, fm, p, q = s.n, s.m, s.fm, s.p, s.q
        x1 = ix + 1.0
        f1 = fm + 1.0
        z = n + 1 - fm
        w = n - ix + 1.0
        z2 = z * z
        x2 = x1 * x1
        f2 = f1 * f1
        w2 = w * w
        bound = (s.xm * math.log(f1 / x1) + (n - m + 0.5) * math.log(z / w)
                 + (ix - m) * math.log(w * p / (x1 * q)) + _stirling(f2, f1)
                 + _stirling(z2, z) + _stirling(x2, x1) + _stirling(w2, w))
        if alv <= bound:
            return ix
    return None


def _inversion_try(s, u):
    """One inversion attempt (mean < 30): ix, or None when the loop restarts."""
    ix = 0
    f = s.qn
    while True:
        if u < f:
            return ix
        if ix > 110:
            return None
        u -= f
        ix += 1
        f *= (s.g / ix - s.r)


def _btpe_vec(s, u1, u2):
    """Vectorised :func:`_btpe_try` for one parameter set; returns (ix, ok)."""
    m_ = u1.size
    u = u1 * s.p4
    v = u2.copy()
    ix = np.zeros(m_, dtype=np.int64)
    ok = np.zeros(m_, dtype=bool)
    cand = np.zeros(m_, dtype=bool)
    tri = u <= s.p1
    ix[tri] = np.trunc(s.xm - s.p1 * v[tri] + u[tri]).astype(np.int64)
    ok[tri] = True
    para = ~tri & (u <= s.p2)
    if para.any():
        x = s.xl + (u[para] - s.p1) / s.c
        vv = v[para] * s.c + 1.0 - np.abs(s.xm - x) / s.p1
        good = ~((vv > 1.0) | (vv <= 0.))
        v[para] = vv
        ixp = np.trunc(x).astype(np.int64)
        ix[para] = ixp
        cand[np.flatnonzero(para)[good]] = True
    rest = ~tri & ~para
    if rest.any():
        ri = np.flatnonzero(rest)
        lv = _libm_log(v[ri])
        right = u[ri] > s.p3
        left = ~right
        if right.any():
            ii = ri[right]
            ixr = np.trunc(s.xr - lv[right] / s.xlr).astype(np.int64)
            ix[ii] = ixr
            v[ii] = v[ii] * (u[ii] - s.p3) * s.xlr
            cand[ii[ixr <= s.n]] = True
        if left.any():
            ii = ri[left]
            ixl = np.trunc(s.xl + lv[left] / s.xll).astype(np.int64)
            ix[ii] = ixl
            v[ii] = v[ii] * (u[ii] - s.p2) * s.xll
            cand[ii[ixl >= 0]] = True
    ci = np.flatnonzero(cand)
    if ci.size:
        k = np.abs(ix[ci] - s.m)
        expl = (k <= 20) | (k >= s.npq / 2 - 1)
        if expl.any():
            ei = ci[expl]
            vals, inv = np.unique(ix[ei], return_inverse=True)
            fs = np.array([_binom_explicit_f(s, int(t)) for t in vals])
            ok[ei] = v[ei] <= fs[inv.ravel()]
        sq = ~expl
        if sq.any():
            si = ci[sq]
            kk = k[sq]
            npq = s.npq
            kf = kk.astype(np.float64)
            amaxp = (kf / npq) * ((kf * (kf / 3. + 0.625) + 0.1666666666666) / npq + 0.5)
            negkk = (-kk * kk)
            negkk = ((negkk + 2**31) % 2**32) - 2**31
            ynorm = negkk.astype(np.float64) / (2.0 * npq)
            alv = _libm_log(v[si])
            acc = alv < ynorm - amaxp
            mid = ~acc & (alv <= ynorm + amaxp)
            if mid.any():
                mi = si[mid]
                n, m, fm, p, q = s.n, s.m, s.fm, s.p, s.q
                ixm = ix[mi]
                x1 = ixm + 1.0
                f1 = fm + 1.0
                z = n + 1 - fm
                w = (n - ixm) + 1.0
                z2 = z * z
                x2 = x1 * x1
                f2 = f1 * f1
                w2 = w * w
                t1 = s.xm * _libm_log(f1 / x1)
                t2 = (n - m + 0.5) * _libm_log(z / w)
                t3 = (ixm - m).astype(np.float64) * _libm_log(w * p / (x1 * q))
                bound = (t1 + t2 + t3 + _stirling(f2, f1) + _stirling(z2, z)
                         + _stirling(x2, x1) + _stirling(w2, w))
                acc[np.flatnonzero(mid)] = alv[mid] <= bound
            ok[si] = acc
    return ix, ok


def _bernoulli_vec(s, u):
    """R's inversion loop for size 1, unrolled: 0 when u < q; otherwise
    1 when u - q < f1 = q * (g / 1 - r); otherwise f2 = 0 and R's loop runs
    to ix = 111 and restarts with a new uniform (not accepted here)."""
    f1 = s.qn * (s.g / 1 - s.r)
    ge = u >= s.qn
    ix = ge.astype(np.int64)
    ok = ~ge
    ok[ge] = (u[ge] - s.qn) < f1
    return ix, ok


def _inversion_vec(u, qn, g, r):
    """Vectorised inversion attempts; ``qn``, ``g``, ``r`` scalars or arrays."""
    m_ = u.size
    ix = np.zeros(m_, dtype=np.int64)
    ok = np.zeros(m_, dtype=bool)
    idx = np.arange(m_)
    uu = u.copy()
    scalar = np.ndim(qn) == 0
    f = qn if scalar else np.array(qn, dtype=np.float64)
    gg, rr = g, r
    for step in range(112):
        hit = uu < f
        if hit.any():
            hi = idx[hit]
            ok[hi] = True
            ix[hi] = step
            keep = ~hit
            idx = idx[keep]
            uu = uu[keep]
            if not scalar:
                f, gg, rr = f[keep], gg[keep], rr[keep]
        if idx.size == 0 or step == 111:
            break
        uu = uu - f
        f = f * (gg / (step + 1) - rr)
    return ix, ok


# --- argument helpers (R's coercions and messages) -----------------------------

def _result_length(n):
    """R's ``resultLength``: a length-1 ``n`` is the count, else its length."""
    if n is None or isinstance(n, (str, bytes)):
        raise ProbcalError("invalid arguments")
    if hasattr(n, "to_numpy") and not np.isscalar(n):
        n = n.to_numpy()
    if isinstance(n, np.ndarray):
        length = n.size
        flat = n.ravel()
    elif isinstance(n, (list, tuple, range)):
        length = len(n)
        flat = list(n)
    else:
        length = 1
        flat = [n]
    if length != 1:
        return int(length)
    try:
        dn = float(flat[0])
    except (TypeError, ValueError):
        raise ProbcalError("invalid arguments") from None
    if math.isnan(dn) or dn < 0 or dn > _R_XLEN_T_MAX:
        raise ProbcalError("invalid arguments")
    return int(dn)


def _as_double(x):
    """A numeric (or logical) argument as a float64 vector; R's isNumeric test."""
    if x is None or isinstance(x, (str, bytes)):
        raise ProbcalError("invalid arguments")
    if hasattr(x, "to_numpy") and not np.isscalar(x):
        try:
            return np.asarray(x.to_numpy(dtype=np.float64, na_value=np.nan)).ravel()
        except (TypeError, ValueError):
            raise ProbcalError("invalid arguments") from None
    arr = np.asarray(x)
    if arr.dtype.kind in "biuf":
        return arr.astype(np.float64).ravel()
    if arr.dtype.kind == "O":
        try:
            return np.array([np.nan if v is None else float(v) for v in arr.ravel()],
                            dtype=np.float64)
        except (TypeError, ValueError):
            pass
    raise ProbcalError("invalid arguments")


def _recycle(a, count):
    """R's recycling of a parameter vector to ``count`` elements (no copy when
    nothing needs repeating)."""
    if a.size == count:
        return a
    if a.size == 0:
        return np.full(count, np.nan)
    if a.size == 1:
        return np.full(count, a[0])
    reps = -(-count // a.size)
    return np.tile(a, reps)[:count]


def _na_warning():
    warnings.warn("NAs produced", RuntimeWarning, stacklevel=3)


def _scalar_value(x):
    """``x`` as one Python float when it is a length-1 numeric, else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, (list, tuple)) and len(x) == 1:
        v = x[0]
        if isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)):
            return float(v)
        return None
    if isinstance(x, np.ndarray) and x.size == 1 and x.dtype.kind in "iuf":
        return float(x.ravel()[0])
    if hasattr(x, "to_numpy") and hasattr(x, "__len__") and len(x) == 1:
        arr = np.asarray(x.to_numpy())
        if arr.dtype.kind in "iuf":
            return float(arr.ravel()[0])
    return None


def _population(x):
    """``sample``'s population: a lone string stays a one-element list, any
    other scalar becomes a one-element array (R's length-1 vector)."""
    if isinstance(x, (str, bytes)):
        return [x]
    if np.ndim(x) == 0 and not hasattr(x, "__len__"):
        return np.asarray([x])
    return x


def _length_one_number(x, what):
    """R's ``asReal`` on a length-1 argument; ``what`` names it in errors."""
    if isinstance(x, (str, bytes)) or x is None:
        raise ProbcalError(f"invalid '{what}' argument")
    arr = np.asarray(x)
    if arr.size != 1:
        raise ProbcalError(f"invalid '{what}' argument")
    if arr.dtype.kind not in "biuf":
        raise ProbcalError(f"invalid '{what}' argument")
    return float(arr.ravel()[0])


def _as_logical_flag(x, what):
    arr = np.asarray(x)
    if arr.size != 1 or arr.dtype.kind not in "biuf":
        raise ProbcalError(f"invalid '{what}' argument")
    v = float(arr.ravel()[0])
    if math.isnan(v):
        raise ProbcalError(f"invalid '{what}' argument")
    return v != 0


def _as_int_r(v):
    """R's ``asInteger`` on a double: truncation, or None for NA/out of range."""
    if math.isnan(v) or v >= _INT_MAX + 1.0 or v <= -(_INT_MAX + 1.0):
        return None
    return int(v)


def _vec_size(v):
    """R's ``asVecSize`` on a double (errors with R's messages)."""
    if math.isnan(v):
        raise ProbcalError("vector size cannot be NA/NaN")
    if math.isinf(v):
        raise ProbcalError("vector size cannot be infinite")
    if v > _R_XLEN_T_MAX:
        raise ProbcalError("vector size specified is too large")
    return int(v)


def _r_and(terms):
    """R's ``&&`` over logicals, None standing for NA (left to right,
    FALSE wins, NA otherwise poisons)."""
    result = True
    for t in terms:
        if t is False:
            return False
        if t is None:
            result = None
    return result


def _check_nonneg_int(n, what):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 0:
        raise ProbcalError(f"`{what}` must be a non-negative integer.")
    return int(n)


def _revsort_perm(a):
    """R's ``revsort`` (heapsort into descending order): the sorted values
    and the 1-based identities. Ties are ordered exactly as R's heapsort
    leaves them, so equal probabilities map to the same labels as in R."""
    n = a.size
    if n <= 1 or np.unique(a).size == n:
        # Distinct keys: the descending order is unique, whatever the sort.
        order = np.argsort(-a, kind="stable")
        return a[order], order + 1
    av = [0.0] + a.tolist()
    ib = list(range(0, n + 1))
    l = (n >> 1) + 1
    ir = n
    while True:
        if l > 1:
            l -= 1
            ra = av[l]
            ii = ib[l]
        else:
            ra = av[ir]
            ii = ib[ir]
            av[ir] = av[1]
            ib[ir] = ib[1]
            ir -= 1
            if ir == 1:
                av[1] = ra
                ib[1] = ii
                break
        i = l
        j = l << 1
        while j <= ir:
            if j < ir and av[j] > av[j + 1]:
                j += 1
            if ra > av[j]:
                av[i] = av[j]
                ib[i] = ib[j]
                i = j
                j += j
            else:
                j = ir + 1
        av[i] = ra
        ib[i] = ii
    return np.array(av[1:], dtype=np.float64), np.array(ib[1:], dtype=np.int64)


def _fixup_prob(prob, n, k, replace):
    """R's ``FixupProb``: checks in R's order, then normalises (sequential sum)."""
    p = np.array(prob, dtype=np.float64)  # a copy: the caller's vector is untouched
    finite = np.isfinite(p)
    bad = ~finite | (p < 0.0)
    if bad.any():
        first = int(np.argmax(bad))
        if not finite[first]:
            raise ProbcalError("NA in probability vector")
        raise ProbcalError("negative probability")
    pos = p > 0.0
    npos = int(pos.sum())
    if npos == 0 or (not replace and k > npos):
        raise ProbcalError("too few positive probabilities")
    # A running sum in index order, as R's loop adds (zeros add nothing).
    total = float(np.add.accumulate(np.where(pos, p, 0.0))[-1])
    return p / total


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


# --- the R stream ----------------------------------------------------------------

class RRandom:
    """An R random-number stream: Mersenne-Twister, Inversion, Rejection.

    Every method returns R 4.2.2's values bit for bit and leaves the stream
    where R leaves ``.Random.seed``.

    Parameters
    ----------
    seed : int or None
        As R's ``set.seed(seed)``. None seeds from OS entropy, as R seeds
        from the clock when no ``.Random.seed`` exists; the state is still
        exportable with :meth:`get_state` for reproduction.

    R equivalent: the global stream behind ``set.seed()`` / ``.Random.seed``
    with ``RNGkind("Mersenne-Twister", "Inversion", "Rejection")``.

    Examples
    --------
    An independent stream, as after ``set.seed(1)`` in R; pass it as
    ``rng=`` to any function that draws random numbers.

    >>> import pycalib_r as pc
    >>> rng = pc.RRandom(1)
    >>> print(" ".join(f"{v:.7g}" for v in rng.runif(3)))
    0.2655087 0.3721239 0.5728534

    R: ``set.seed(1); runif(3)`` prints ``[1] 0.2655087 0.3721239 0.5728534``.
    The state is R's ``.Random.seed`` (kind code, position, key):

    >>> rng.get_state()[:3]
    array([     10403,          3, 1654269195], dtype=int32)

    R: ``.Random.seed[1:3]`` prints ``[1]      10403          3 1654269195``.
    """

    def __init__(self, seed=None):
        self._bg = np.random.MT19937(0)
        self.set_seed(seed)

    # -- state ----------------------------------------------------------------------

    def set_seed(self, seed):
        """Seed the stream as R's ``set.seed(seed)``.

        Parameters
        ----------
        seed : int or None
            An integer in ``[-(2**31 - 1), 2**31 - 1]`` (an integral float or
            numpy integer is accepted). None reseeds from OS entropy, as
            ``set.seed(NULL)`` does.

        Raises
        ------
        TypeError
            ``seed`` is not a number (strings, booleans, arrays).
        ProbcalError
            ``seed`` is not integral or outside R's integer range; the message
            is R's ("supplied seed is not a valid integer").

        R equivalent: ``set.seed(seed)``.
        """
        if seed is None:
            value = secrets.randbits(32)
        else:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Real):
                raise TypeError(
                    f"`seed` must be an integer (as R's set.seed), not {type(seed).__name__}.")
            if isinstance(seed, numbers.Integral):
                value = int(seed)
            else:
                fv = float(seed)
                if not math.isfinite(fv) or fv != math.floor(fv):
                    raise ProbcalError("supplied seed is not a valid integer")
                value = int(fv)
            # NA_integer_ is -2^31, so R's integers stop one short of it.
            if not -_INT_MAX <= value <= _INT_MAX:
                raise ProbcalError("supplied seed is not a valid integer")
        words = _scramble(value)
        # i_seed[0] would be mti; R overwrites it with 624 (FixupSeeds(initial)).
        self._set_key(words[1:], _N_KEY)

    def _set_key(self, key, pos):
        self._bg.state = {"bit_generator": "MT19937",
                          "state": {"key": np.asarray(key, dtype=np.uint32), "pos": int(pos)}}

    def get_state(self):
        """The stream state as R's ``.Random.seed``.

        Returns
        -------
        numpy.ndarray of int32, length 626
            ``[10403, mti, mt[0], ..., mt[623]]``, equal to R's
            ``.Random.seed`` for the same stream.

        R equivalent: ``.Random.seed``.
        """
        st = self._bg.state["state"]
        out = np.empty(_STATE_LEN, dtype=np.int32)
        out[0] = _KIND_CODE
        out[1] = st["pos"]
        out[2:] = np.asarray(st["key"], dtype=np.uint32).view(np.int32)
        return out

    def set_state(self, state):
        """Import an R ``.Random.seed`` vector (the input is not modified).

        Parameters
        ----------
        state : array_like of int, length 626
            R's ``.Random.seed`` under Mersenne-Twister/Inversion/Rejection
            (first element 10403). Words may be given signed (R) or unsigned.
            As R's ``FixupSeeds``: a position <= 0 becomes 624, an all-zero
            key reseeds from entropy; position 625 triggers R's default
            ``MT_sgenrand(4357)`` key, larger positions mean "regenerate".

        Raises
        ------
        ProbcalError
            Wrong length, a different RNG kind, or non-integer values.

        R equivalent: ``assign(".Random.seed", state, globalenv())``.
        """
        arr = np.asarray(state)
        if arr.dtype.kind not in "iuf" or arr.ndim != 1:
            raise ProbcalError("'.Random.seed' must be an integer vector")
        if arr.size != _STATE_LEN:
            raise ProbcalError("'.Random.seed' has wrong length")
        vals = arr.astype(np.float64) if arr.dtype.kind == "f" else arr.astype(np.int64)
        if arr.dtype.kind == "f":
            if not np.all(np.isfinite(vals)) or np.any(vals != np.floor(vals)):
                raise ProbcalError("'.Random.seed' must be an integer vector")
            vals = vals.astype(np.int64)
        if int(vals[0]) != _KIND_CODE:
            raise ProbcalError(
                "'.Random.seed[1]' must be 10403: only R's default generators "
                "(Mersenne-Twister, Inversion, Rejection) are supported")
        if np.any(vals[1:] < -(2**31)) or np.any(vals[1:] >= 2**32):
            raise ProbcalError("'.Random.seed' must be an integer vector")
        pos = int(vals[1])
        if pos >= 2**31:  # an unsigned view of a negative int
            pos -= 2**32
        key = (vals[2:] % 2**32).astype(np.uint32)
        if pos <= 0:
            pos = _N_KEY
        if not key.any():
            self.set_seed(None)
            return
        if pos == _N_KEY + 1:
            key = _sgenrand_4357()
            pos = _N_KEY
        elif pos > _N_KEY:
            pos = _N_KEY
        self._set_key(key, pos)

    def _advance(self, n):
        if n > 0:
            self._bg.random_raw(int(n), output=False)

    def _raw(self, n):
        return self._bg.random_raw(int(n))

    # -- uniforms -------------------------------------------------------------

    def unif_rand(self, n):
        """``n`` successive values of R's C-level ``unif_rand()``.

        Parameters
        ----------
        n : int
            Number of values (>= 0).

        Returns
        -------
        numpy.ndarray of float64
            Values in (0, 1): ``word * 2^-32``, with R's fixup of 0.

        R equivalent: ``unif_rand()`` (C); equals ``runif(n)``.
        """
        n = _check_nonneg_int(n, "n")
        return _unif_from_words(self._raw(n))

    def runif(self, n, min=0, max=1):  # noqa: A002 - R's argument names
        """Uniform deviates, as R's ``runif``.

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        min, max : float or array_like
            Bounds, recycled along the result. An element with ``min == max``
            is that value and draws nothing; non-finite bounds or
            ``max < min`` give NaN with a "NAs produced" warning, as R.

        Returns
        -------
        numpy.ndarray of float64

        R equivalent: ``runif(n, min = 0, max = 1)``.
        """
        count = _result_length(n)
        a = _as_double(min)
        b = _as_double(max)
        if count == 0:
            return np.empty(0)
        if a.size < 1 or b.size < 1:
            _na_warning()
            return np.full(count, np.nan)
        if a.size == 1 and b.size == 1:
            av, bv = float(a[0]), float(b[0])
            if not (math.isfinite(av) and math.isfinite(bv)) or bv < av:
                _na_warning()
                return np.full(count, np.nan)
            if av == bv:
                return np.full(count, av)
            out = self.unif_rand(count)
            # In place, but the same two roundings as R's a + (b - a) * u.
            out *= bv - av
            out += av
            return out
        ai = _recycle(a, count)
        bi = _recycle(b, count)
        bad = ~(np.isfinite(ai) & np.isfinite(bi)) | (bi < ai)
        eq = ~bad & (ai == bi)
        draw = ~bad & ~eq
        out = np.empty(count)
        out[bad] = np.nan
        out[eq] = ai[eq]
        u = self.unif_rand(int(draw.sum()))
        out[draw] = ai[draw] + (bi[draw] - ai[draw]) * u
        if bad.any():
            _na_warning()
        return out

    # -- normals -----------------------------------------------------------------

    def _norm_rand(self, count):
        """``count`` values of R's ``norm_rand()`` (INVERSION, 2 words each)."""
        out = np.empty(count)
        per = _CHUNK // 2
        for start in range(0, count, per):
            m = _min(per, count - start)
            w = self._raw(2 * m)
            u1 = _unif_from_words(w[0::2])
            u2 = _unif_from_words(w[1::2])
            u = np.floor(_BIG * u1)
            u += u2
            u /= _BIG
            z = _qnorm_open(u)
            z += 0.0  # qnorm5 returns mu + sigma * val: -0 becomes +0
            out[start:start + m] = z
        return out

    def rnorm(self, n, mean=0, sd=1):
        """Normal deviates, as R's ``rnorm`` (Inversion).

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        mean, sd : float or array_like
            Recycled along the result. ``sd == 0`` or an infinite ``mean``
            returns ``mean`` without drawing; NaN ``mean``, non-finite or
            negative ``sd`` give NaN with a "NAs produced" warning.

        Returns
        -------
        numpy.ndarray of float64

        R equivalent: ``rnorm(n, mean = 0, sd = 1)``.
        """
        count = _result_length(n)
        mu = _as_double(mean)
        sg = _as_double(sd)
        if count == 0:
            return np.empty(0)
        if mu.size < 1 or sg.size < 1:
            _na_warning()
            return np.full(count, np.nan)
        mi = _recycle(mu, count)
        si = _recycle(sg, count)
        bad = np.isnan(mi) | ~np.isfinite(si) | (si < 0.0)
        keep = ~bad & ((si == 0.0) | ~np.isfinite(mi))
        draw = ~bad & ~keep
        out = np.empty(count)
        out[bad] = np.nan
        out[keep] = mi[keep]
        nd = int(draw.sum())
        if nd == count:
            out = mi + si * self._norm_rand(count)
        elif nd:
            out[draw] = mi[draw] + si[draw] * self._norm_rand(nd)
        if bad.any():
            _na_warning()
        return out

    # -- binomial --------------------------------------------------------------------

    def rbinom(self, n, size, prob):
        """Binomial deviates, as R 4.2.2's ``rbinom`` (nmath: inversion when
        ``size * min(prob, 1 - prob) < 30``, BTPE otherwise).

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        size, prob : float or array_like
            Recycled along the result. ``size == 0`` or ``prob`` in {0, 1}
            draws nothing. A non-integer, negative or non-finite ``size``, or
            ``prob`` outside [0, 1] gives NaN with a "NAs produced" warning,
            as R gives NA.

        Returns
        -------
        numpy.ndarray
            int64 values; float64 (with NaN for R's NA) when NAs were produced.

        Raises
        ------
        NotImplementedError
            ``size >= 2**31 - 1``, where R switches to ``qbinom`` (not ported).

        Notes
        -----
        R keeps the last (size, prob) setup in C statics, but it is only a
        cache of values recomputed identically, so draws do not depend on
        earlier calls. One parameter set (the common case) and inversion-only
        parameter vectors are vectorised; varying parameters that need BTPE
        run R's algorithm element by element.

        R equivalent: ``rbinom(n, size, prob)``.
        """
        count = _result_length(n)
        sz = _as_double(size)
        pr = _as_double(prob)
        if count == 0:
            return np.empty(0, dtype=np.int64)
        if sz.size < 1 or pr.size < 1:
            _na_warning()
            return np.full(count, np.nan)
        if sz.size == 1 and pr.size == 1:
            nn, pp = float(sz[0]), float(pr[0])
            valid = (math.isfinite(nn) and round(nn) == nn and math.isfinite(pp)
                     and nn >= 0 and 0.0 <= pp <= 1.0)
            if not valid:
                _na_warning()
                return np.full(count, np.nan)
            if nn == 0 or pp == 0.0:
                return np.zeros(count, dtype=np.int64)
            if pp == 1.0:
                return np.full(count, int(nn), dtype=np.int64)
            if nn >= _INT_MAX:
                raise NotImplementedError(
                    "rbinom() with size >= 2^31 - 1 (R's qbinom branch) is not supported")
            s = _BinomSetup(int(nn), pp)
            ix = self._binom_same(s, count)
            if s.pp > 0.5:
                np.subtract(s.n, ix, out=ix)
            return ix
        si = _recycle(sz, count)
        pi = _recycle(pr, count)
        with np.errstate(invalid="ignore"):
            bad = (~np.isfinite(si) | (np.rint(si) != si) | ~np.isfinite(pi)
                   | (si < 0) | (pi < 0.0) | (pi > 1.0))
        bad |= np.isnan(si)
        zero = ~bad & ((si == 0) | (pi == 0.0))
        one = ~bad & ~zero & (pi == 1.0)
        active = ~bad & ~zero & ~one
        if np.any(si[active] >= _INT_MAX):
            raise NotImplementedError(
                "rbinom() with size >= 2^31 - 1 (R's qbinom branch) is not supported")
        res = np.zeros(count, dtype=np.int64)
        res[one] = si[one].astype(np.int64)
        ai = np.flatnonzero(active)
        if ai.size:
            res[ai] = self._rbinom_active(si[ai].astype(np.int64), pi[ai])
        if bad.any():
            out = res.astype(np.float64)
            out[bad] = np.nan
            _na_warning()
            return out
        return res

    def _rbinom_active(self, nv, pv):
        """rbinom for valid parameters that draw (0 < prob < 1, size >= 1)."""
        total = nv.size
        if np.all(nv == nv[0]) and np.all(pv == pv[0]):
            s = _BinomSetup(int(nv[0]), float(pv[0]))
            ix = self._binom_same(s, total)
            return s.n - ix if s.pp > 0.5 else ix
        p = np.minimum(pv, 1.0 - pv)
        q = 1.0 - p
        npv = nv * p
        if np.all(npv < 30.0):
            r = p / q
            g = r * (nv + 1)
            qn = _pow_di_vec(q, nv)
            ix = self._binom_inversion_varying(nv, pv, qn, g, r)
            return np.where(pv > 0.5, nv - ix, ix)
        # Varying parameters with BTPE: R's loop, element by element.
        out = np.empty(total, dtype=np.int64)
        cache = {}
        with _Cursor(self) as cur:
            for i in range(total):
                key = (int(nv[i]), float(pv[i]))
                s = cache.get(key)
                if s is None:
                    s = cache[key] = _BinomSetup(*key)
                out[i] = self._binom_one(s, cur)
        return out

    @staticmethod
    def _binom_one(s, cur):
        if s.small:
            while True:
                ix = _inversion_try(s, cur.unif())
                if ix is not None:
                    break
        else:
            while True:
                u1 = cur.unif()
                u2 = cur.unif()
                ix = _btpe_try(s, u1, u2)
                if ix is not None:
                    break
        return s.n - ix if s.pp > 0.5 else ix

    def _binom_same(self, s, total):
        """``total`` draws with one parameter set: each attempt takes a fixed
        number of uniforms and is accepted or not on its own, so the draws
        are the accepted attempts in order."""
        cost = 1 if s.small else 2
        out = np.empty(total, dtype=np.int64)
        done = 0
        while done < total:
            need = total - done
            # Inversion restarts essentially never, so ask for exactly what
            # is needed (no rewind); BTPE rejects a few attempts in ten.
            ntry = _min(need if s.small else int(need * 1.3) + 64, _CHUNK)
            snap = self._bg.state
            u = _unif_from_words(self._raw(ntry * cost))
            if s.small and s.n == 1:
                ix, ok = _bernoulli_vec(s, u)
            elif s.small:
                ix, ok = _inversion_vec(u, s.qn, s.g, s.r)
            else:
                ix, ok = _btpe_vec(s, u[0::2], u[1::2])
            acc = np.flatnonzero(ok)[:need]
            out[done:done + acc.size] = ix[acc]
            done += acc.size
            used = (int(acc[-1]) + 1) if (acc.size == need) else ntry
            if used != ntry:
                self._bg.state = snap
                self._advance(used * cost)
        return out

    def _binom_inversion_varying(self, nv, pv, qn, g, r):
        """Inversion with per-element parameters: one uniform per element
        unless R's loop restarts (essentially never), handled in order."""
        total = nv.size
        out = np.empty(total, dtype=np.int64)
        start = 0
        while start < total:
            m_ = _min(total - start, _CHUNK)
            sl = slice(start, start + m_)
            snap = self._bg.state
            u = _unif_from_words(self._raw(m_))
            ix, ok = _inversion_vec(u, qn[sl], g[sl], r[sl])
            if ok.all():
                out[sl] = ix
                start += m_
                continue
            first = int(np.argmin(ok))
            out[start:start + first] = ix[:first]
            self._bg.state = snap
            self._advance(first + 1)
            j = start + first
            s = _BinomSetup(int(nv[j]), float(pv[j]))
            with _Cursor(self) as cur:
                while True:
                    t = _inversion_try(s, cur.unif())
                    if t is not None:
                        break
            out[j] = t
            start = j + 1
        return out

    # -- sampling --------------------------------------------------------------------

    def _index_candidates(self, ntry, nchunk, mask):
        """``ntry`` tries of R's ``rbits``: 16-bit chunks of ``nchunk`` words
        joined high to low, masked to the needed bits (uint64). R's chunk
        ``(int) floor(unif_rand() * 65536)`` is exactly ``word >> 16`` (the
        product is exact, and the fixed-up 0 word still gives 0)."""
        join = _IndexJoin(int(mask).bit_length(), 0.0)
        w = _words32(np.random.Generator(self._bg), ntry * nchunk)
        return join.join(w, join.buffer(ntry)).astype(np.uint64)

    def _unif_index_fill(self, dn, out, offset=0):
        """Fill ``out`` (1-D, contiguous, integer) with successive
        ``R_unif_index(dn) + offset`` values, leaving the stream where R
        leaves it. ``out``'s type must hold ``dn - 1 + offset``.

        Passes of ``_INDEX_CHUNK`` tries are drawn while at least that many
        values are still needed (every try of such a pass is then consumed,
        accepted or not). Only the last, smaller passes can overshoot; those
        alone snapshot the state, and when they end early the stream is
        rewound and advanced by exactly the words R used.
        """
        count = out.size
        if count == 0:
            return out
        if dn <= 0:
            out[:] = offset
            return out
        join = _IndexJoin(_index_bits(dn), dn)
        nchunk = join.nchunk
        rate = _min(1.0, float(dn) / float(2 ** join.bits))
        big = _INDEX_CHUNK
        gen = np.random.Generator(self._bg)
        buf = join.buffer(_min(big, count if join.all_ok else int(count / rate * 1.02) + 32))
        # Accepted candidates go straight into `out` through an unsigned view
        # when the widths agree (they are below dn, so the signed type reads
        # them unchanged); otherwise through a small buffer and a casting copy.
        direct = out.dtype.kind in "iu" and out.dtype.itemsize == join.dtype.itemsize
        dst = out.view(join.dtype) if direct else out
        tmp = None if direct else np.empty(buf.shape[0], dtype=join.dtype)
        sel = np.empty(buf.shape[0], dtype=bool)
        off = join.dtype.type(offset) if direct else offset
        done = 0
        while done < count:
            need = count - done
            snap = None
            if join.all_ok or need >= big:
                ntry = _min(need, big)
            else:
                ntry = _min(int(need / rate * 1.02) + 32, big)
                snap = self._bg.state
            v = join.join(_words32(gen, ntry * nchunk), buf)
            used = ntry
            if join.all_ok:
                k = ntry
                target = dst[done:done + k]
                target[...] = v
            else:
                s = sel[:ntry]
                np.less(v, join.thresh, out=s)
                k = int(np.count_nonzero(s))
                if k >= need:
                    # The need-th acceptance ends R's loop; a pass of `big`
                    # tries only gets here when every try was accepted.
                    used = int(np.flatnonzero(s)[need - 1]) + 1
                    s, v, k = s[:used], v[:used], need
                if direct:
                    target = dst[done:done + k]
                    np.compress(s, v, out=target)
                else:
                    np.compress(s, v, out=tmp[:k])
                    target = dst[done:done + k]
                    target[...] = tmp[:k]
            if offset:
                target += off
            if snap is not None and used != ntry:
                self._bg.state = snap
                self._advance(used * nchunk)
            done += k
        return out

    def _unif_index_bulk(self, dn, count, offset=0):
        """``count`` successive ``R_unif_index(dn) + offset`` values (int64)."""
        return self._unif_index_fill(dn, np.empty(count, dtype=np.int64), offset)

    def sample_int(self, n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
        """Random integers in 1..n, as R's ``sample.int``.

        Parameters
        ----------
        n : int or float
            Population size (length 1). Fractional values truncate, as R.
        size : int, optional
            Number of items; defaults to ``n``.
        replace : bool
            Sample with replacement.
        prob : array_like of float, optional
            Weights of length ``n``; normalised as R does. With replacement
            R uses Walker's alias method when more than 200 of the ``n * p``
            exceed 0.1, else inversion on the probabilities sorted by R's
            heapsort; without replacement R's sequential scheme.
        useHash : bool, optional
            R's ``useHash``; None applies R's default
            (``n > 1e7 && !replace && is.null(prob) && size <= n/2``).

        Returns
        -------
        numpy.ndarray of int64
            1-based values, as R's.

        Raises
        ------
        ProbcalError
            With R's messages ("invalid first argument", "invalid 'size'
            argument", "cannot take a sample larger than the population when
            'replace = FALSE'", "incorrect number of probabilities",
            "NA in probability vector", "negative probability",
            "too few positive probabilities", ...).

        R equivalent: ``sample.int(n, size = n, replace = FALSE, prob = NULL, useHash)``.
        """
        if isinstance(n, (str, bytes)) or n is None or np.size(n) != 1:
            raise ProbcalError("length(n) == 1L is not TRUE")
        dn = _length_one_number(n, "first")
        if size is None:
            size = n
        if isinstance(size, (str, bytes)) or size is None or np.size(size) != 1:
            raise ProbcalError("invalid 'size' argument")
        dk = _length_one_number(size, "size")
        repl = _as_logical_flag(replace, "replace")
        if useHash is None:
            use_hash = _r_and([None if math.isnan(dn) else dn > 1e7, not repl,
                               prob is None,
                               None if math.isnan(dk) or math.isnan(dn) else dk <= dn / 2])
            if use_hash is None:
                raise ProbcalError("missing value where TRUE/FALSE needed")
        else:
            use_hash = _as_logical_flag(useHash, "useHash")
        if use_hash:
            if prob is not None:
                raise ProbcalError("is.null(prob) is not TRUE")
            if repl:
                raise ProbcalError("!replace is not TRUE")
            return self._sample_hash(dn, dk)
        if prob is not None:
            return self._sample_prob(dn, dk, repl, prob)
        k = _vec_size(dk)
        if not math.isfinite(dn) or dn < 0 or dn > 4.5e15 or (k > 0 and dn == 0):
            raise ProbcalError("invalid first argument")
        if k < 0:
            raise ProbcalError("invalid 'size' argument")
        if not repl and k > dn:
            raise ProbcalError(
                "cannot take a sample larger than the population when 'replace = FALSE'")
        # R passes (int) n below INT_MAX and the double itself above it.
        dni = float(int(dn)) if (dn <= _INT_MAX and k <= _INT_MAX) else dn
        if repl or k < 2:
            return self._unif_index_bulk(dni, k, 1)
        return self._sample_noreplace(dni, k)

    def _sample_noreplace(self, dn, k):
        """R's partial Fisher-Yates: x[j] is drawn, then x[j] <- x[--n]."""
        out = np.empty(k, dtype=np.int64)
        n = int(dn)
        swapped = {}
        get = swapped.get
        with _Cursor(self) as cur:
            for i in range(k):
                j = cur.unif_index(float(n))
                out[i] = get(j, j) + 1
                n -= 1
                swapped[j] = get(n, n)
        return out

    def _sample_hash(self, dn, dk):
        """R's ``sample2`` (hash rejection of repeats), for huge ``n``."""
        k = _as_int_r(dk)
        if not math.isfinite(dn) or dn < 0 or dn > 4.5e15 or (k is not None and k > 0 and dn == 0):
            raise ProbcalError("invalid first argument")
        if k is None or k < 0:
            raise ProbcalError("invalid 'size' argument")
        if k > dn / 2:
            raise ProbcalError("This algorithm is for size <= n/2")
        out = np.empty(k, dtype=np.int64)
        if k == 0:
            return out
        bits = _index_bits(dn)
        nchunk = bits // 16 + 1
        mask = np.uint64((1 << bits) - 1)
        rate = float(dn) / float(2 ** bits)
        seen_vals = np.empty(0, dtype=np.int64)
        done = 0
        while done < k:
            need = k - done
            ntry = _min(int(need / rate * 1.1) + 64, _CHUNK)
            snap = self._bg.state
            v = self._index_candidates(ntry, nchunk, mask)
            acc = np.flatnonzero(_below(v, dn))
            cand = v[acc].astype(np.int64)
            # Keep first occurrences that are new (R redraws repeats; its
            # 100-redraw cap has probability < 2^-100 of mattering).
            _, first = np.unique(cand, return_index=True)
            first.sort()
            fresh = first[~np.isin(cand[first], seen_vals)]
            take = fresh[:need]
            vals = cand[take]
            out[done:done + take.size] = vals + 1
            done += take.size
            seen_vals = np.concatenate([seen_vals, vals])
            used = int(acc[take[-1]]) + 1 if take.size == need else ntry
            if used != ntry:
                self._bg.state = snap
                self._advance(used * nchunk)
        return out

    def _sample_prob(self, dn, dk, repl, prob):
        n = _as_int_r(dn)
        k = _as_int_r(dk)
        if n is None or n < 0 or (k is not None and k > 0 and n == 0):
            raise ProbcalError("invalid first argument")
        if k is None or k < 0:
            raise ProbcalError("invalid 'size' argument")
        if not repl and k > n:
            raise ProbcalError(
                "cannot take a sample larger than the population when 'replace = FALSE'")
        pv = _as_double(prob)
        if pv.size != n:
            raise ProbcalError("incorrect number of probabilities")
        p = _fixup_prob(pv, n, k, repl)
        if repl:
            nc = int(np.count_nonzero(n * p > 0.1))
            if nc > 200:
                return self._walker(n, p, k)
            return self._prob_replace(n, p, k)
        return self._prob_noreplace(n, p, k)

    def _prob_replace(self, n, p, k):
        """R's ``ProbSampleReplace``: inversion on heapsorted probabilities."""
        ps, perm = _revsort_perm(p)
        cum = np.cumsum(ps)  # a running sum, in R's order
        u = self.unif_rand(k)
        j = np.searchsorted(cum[:n - 1], u, side="left")
        return perm[j]

    def _prob_noreplace(self, n, p, k):
        """R's ``ProbSampleNoReplace`` (one uniform per item, chosen item
        removed). R's scan ``mass += p[j]; if (rT <= mass) break`` is the
        first running sum >= rT; ``np.cumsum`` adds in the same order."""
        ps, perm = _revsort_perm(p)
        u = self.unif_rand(k)
        out = np.empty(k, dtype=np.int64)
        total = 1.0
        n1 = n - 1
        for i in range(k):
            rt = total * u[i]
            j = int(np.searchsorted(np.cumsum(ps[:n1]), rt, side="left"))
            out[i] = perm[j]
            total -= ps[j]
            ps = np.delete(ps, j)
            perm = np.delete(perm, j)
            n1 -= 1
        return out

    def _walker(self, n, p, k):
        """R's ``walker_ProbSampleReplace`` (alias tables as R builds them)."""
        q = (p * n).tolist()
        hl = [0] * n
        a = list(range(n))  # R leaves unaliased slots uninitialised; never read
        h = -1
        lo = n
        for i in range(n):
            if q[i] < 1.:
                h += 1
                hl[h] = i
            else:
                lo -= 1
                hl[lo] = i
        if h >= 0 and lo < n:
            for kk in range(n - 1):
                i = hl[kk]
                j = hl[lo]
                a[i] = j
                q[j] += q[i] - 1
                if q[j] < 1.:
                    lo += 1
                if lo >= n:
                    break
        qa = np.array(q) + np.arange(n)
        aa = np.array(a, dtype=np.int64)
        ks = np.empty(k, dtype=np.int64)
        us = np.empty(k)
        with _Cursor(self) as cur:
            dn = float(n)
            for i in range(k):
                ks[i] = cur.unif_index(dn)
                us[i] = cur.unif()
        ru = ks + us
        return np.where(ru < qa[ks], ks + 1, aa[ks] + 1)

    def sample(self, x, size=None, replace=False, prob=None):
        """Random sample of ``x``, as R's ``sample``.

        Parameters
        ----------
        x : array_like or number
            A single finite number ``>= 1`` means ``1..x`` (R's rule, also
            for a length-1 list or array); anything else is the population,
            returned as elements of ``x`` (list -> list, pandas -> pandas,
            otherwise ndarray; a 2-D array is taken as R's column-major vector).
        size, replace, prob
            As :meth:`sample_int`; ``size`` defaults to the population size.

        R equivalent: ``sample(x, size, replace = FALSE, prob = NULL)``.
        """
        v = _scalar_value(x)
        if v is not None and math.isfinite(v) and v >= 1:
            return self.sample_int(v, v if size is None else size, replace, prob)
        pop = _population(x)
        n = len(pop) if not isinstance(pop, np.ndarray) else pop.size
        idx = self.sample_int(n, n if size is None else size, replace, prob) - 1
        if hasattr(pop, "iloc"):
            return pop.iloc[idx]
        if isinstance(pop, np.ndarray):
            flat = pop.ravel(order="F") if pop.ndim > 1 else pop
            return flat[idx]
        if isinstance(pop, (list, tuple, range)):
            seq = list(pop)
            return [seq[i] for i in idx.tolist()]
        return np.asarray(pop)[idx]

    # -- batch primitives for the inference code ------------------------------

    def rademacher(self, n_boot, n, dtype=np.int8):
        """``n_boot`` successive R calls ``sample(c(-1, 1), n, replace = TRUE)``.

        Parameters
        ----------
        n_boot, n : int
            Replicates and signs per replicate.
        dtype : numpy dtype
            Result type (int8 keeps big bootstraps small).

        Returns
        -------
        numpy.ndarray, shape (n_boot, n)
            Row b is R's b-th call. Each sign takes one word: index
            ``floor(u * 65536) & 1``, 0 giving -1.

        R equivalent: ``t(replicate(n_boot, sample(c(-1, 1), n, replace = TRUE)))``.
        """
        n_boot = _check_nonneg_int(n_boot, "n_boot")
        n = _check_nonneg_int(n, "n")
        total = n_boot * n
        out = np.empty(total, dtype=dtype)
        if total == 0:
            return out.reshape(n_boot, n)
        gen = np.random.Generator(self._bg)
        step = _min(4 * _INDEX_CHUNK, total)
        two = np.empty(step, dtype=np.uint8)
        # Bit 16 of a word is bit 0 of its third byte (little-endian).
        lead = 2 if _LITTLE else 1
        for start in range(0, total, step):
            m = _min(step, total - start)
            t = two[:m]
            np.bitwise_and(_words32(gen, m).view(np.uint8)[lead::4], 1, out=t)
            np.left_shift(t, 1, out=t)
            np.subtract(t.view(np.int8), 1, out=out[start:start + m], casting="unsafe")
        return out.reshape(n_boot, n)

    def sample_int_replace(self, n, size, n_rep):
        """``n_rep`` successive R calls ``sample.int(n, size, replace = TRUE)``.

        Parameters
        ----------
        n : int
            Population size (>= 1).
        size, n_rep : int
            Draws per call and number of calls.

        Returns
        -------
        numpy.ndarray of int32 (int64 when n > 2^31 - 1), shape (n_rep, size)
            1-based indices; row r is R's r-th call.

        R equivalent: ``t(replicate(n_rep, sample.int(n, size, replace = TRUE)))``.
        """
        n = _check_nonneg_int(n, "n")
        size = _check_nonneg_int(size, "size")
        n_rep = _check_nonneg_int(n_rep, "n_rep")
        if n == 0 and size > 0:
            raise ProbcalError("invalid first argument")
        out = np.empty(size * n_rep, dtype=np.int32 if n <= _INT_MAX else np.int64)
        return self._unif_index_fill(float(n), out, 1).reshape(n_rep, size)

    def __repr__(self):
        pos = self._bg.state["state"]["pos"]
        return f"<RRandom Mersenne-Twister/Inversion/Rejection, position {pos}>"


# --- numpy.random.Generator adapter ----------------------------------------------

class GeneratorStream:
    """The stream interface on a ``numpy.random.Generator``.

    Same method names as :class:`RRandom` so the package's functions accept
    either, but values come from numpy's algorithms, **not** R's: use it when
    R reproducibility is not needed. Argument checks follow R's.

    R equivalent: none (numpy streams).
    """

    def __init__(self, generator):
        if not isinstance(generator, np.random.Generator):
            raise TypeError("`generator` must be a numpy.random.Generator")
        self.generator = generator

    def unif_rand(self, n):
        """``n`` uniforms in (0, 1) from numpy. R equivalent: none (numpy)."""
        n = _check_nonneg_int(n, "n")
        u = self.generator.random(n)
        # Keep R's open interval: numpy's random() can return 0.
        u[u == 0.0] = _FIX_LOW
        return u

    def runif(self, n, min=0, max=1):  # noqa: A002
        """``runif`` semantics (recycling, NaN for bad bounds) with numpy's
        uniforms. R equivalent: none (numpy)."""
        count = _result_length(n)
        a = _recycle(_as_double(min), count) if count else np.empty(0)
        b = _recycle(_as_double(max), count) if count else np.empty(0)
        if count == 0:
            return np.empty(0)
        bad = ~(np.isfinite(a) & np.isfinite(b)) | (b < a)
        with np.errstate(invalid="ignore", over="ignore"):
            out = a + (b - a) * self.unif_rand(count)
        out[bad] = np.nan
        if bad.any():
            _na_warning()
        return out

    def rnorm(self, n, mean=0, sd=1):
        """``rnorm`` semantics with numpy's normals. R equivalent: none (numpy)."""
        count = _result_length(n)
        if count == 0:
            return np.empty(0)
        mu = _recycle(_as_double(mean), count)
        sg = _recycle(_as_double(sd), count)
        bad = np.isnan(mu) | ~np.isfinite(sg) | (sg < 0)
        with np.errstate(invalid="ignore", over="ignore"):
            out = mu + sg * self.generator.standard_normal(count)
        keep = ~bad & ((sg == 0) | ~np.isfinite(mu))
        out[keep] = mu[keep]
        out[bad] = np.nan
        if bad.any():
            _na_warning()
        return out

    def rbinom(self, n, size, prob):
        """``rbinom`` semantics with numpy's binomials. R equivalent: none (numpy)."""
        count = _result_length(n)
        if count == 0:
            return np.empty(0, dtype=np.int64)
        si = _recycle(_as_double(size), count)
        pi = _recycle(_as_double(prob), count)
        with np.errstate(invalid="ignore"):
            bad = (~np.isfinite(si) | (np.rint(si) != si) | ~np.isfinite(pi)
                   | (si < 0) | (pi < 0) | (pi > 1))
        bad |= np.isnan(si)
        res = np.zeros(count, dtype=np.int64)
        ok = ~bad
        res[ok] = self.generator.binomial(si[ok].astype(np.int64), pi[ok])
        if bad.any():
            out = res.astype(np.float64)
            out[bad] = np.nan
            _na_warning()
            return out
        return res

    def sample_int(self, n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
        """``sample.int`` checks and messages, numpy's ``choice`` for the draw
        (``useHash`` is accepted and ignored). R equivalent: none (numpy)."""
        if isinstance(n, (str, bytes)) or n is None or np.size(n) != 1:
            raise ProbcalError("length(n) == 1L is not TRUE")
        dn = _length_one_number(n, "first")
        dk = _length_one_number(dn if size is None else size, "size")
        repl = _as_logical_flag(replace, "replace")
        if not math.isfinite(dn) or dn < 0 or dn > 4.5e15:
            raise ProbcalError("invalid first argument")
        k = _vec_size(dk)
        if k < 0:
            raise ProbcalError("invalid 'size' argument")
        if k > 0 and dn == 0:
            raise ProbcalError("invalid first argument")
        if not repl and k > dn:
            raise ProbcalError(
                "cannot take a sample larger than the population when 'replace = FALSE'")
        nn = int(dn)
        p = None
        if prob is not None:
            pv = _as_double(prob)
            if pv.size != nn:
                raise ProbcalError("incorrect number of probabilities")
            p = _fixup_prob(pv, nn, k, repl)
        return self.generator.choice(nn, size=k, replace=repl, p=p).astype(np.int64) + 1

    def sample(self, x, size=None, replace=False, prob=None):
        """``sample`` semantics (a number >= 1 means 1..x) with numpy draws.
        R equivalent: none (numpy)."""
        v = _scalar_value(x)
        if v is not None and math.isfinite(v) and v >= 1:
            return self.sample_int(v, v if size is None else size, replace, prob)
        pop = _population(x)
        n = pop.size if isinstance(pop, np.ndarray) else len(pop)
        idx = self.sample_int(n, n if size is None else size, replace, prob) - 1
        if hasattr(pop, "iloc"):
            return pop.iloc[idx]
        if isinstance(pop, np.ndarray):
            return (pop.ravel(order="F") if pop.ndim > 1 else pop)[idx]
        if isinstance(pop, (list, tuple, range)):
            seq = list(pop)
            return [seq[i] for i in idx.tolist()]
        return np.asarray(pop)[idx]

    def rademacher(self, n_boot, n, dtype=np.int8):
        """(n_boot, n) random signs from numpy. R equivalent: none (numpy)."""
        n_boot = _check_nonneg_int(n_boot, "n_boot")
        n = _check_nonneg_int(n, "n")
        bits = self.generator.integers(0, 2, size=(n_boot, n), dtype=np.int8)
        return (bits * 2 - 1).astype(dtype, copy=False)

    def sample_int_replace(self, n, size, n_rep):
        """(n_rep, size) 1-based indices drawn with replacement by numpy.
        R equivalent: none (numpy)."""
        n = _check_nonneg_int(n, "n")
        size = _check_nonneg_int(size, "size")
        n_rep = _check_nonneg_int(n_rep, "n_rep")
        if n == 0 and size > 0:
            raise ProbcalError("invalid first argument")
        dtype = np.int32 if n <= _INT_MAX else np.int64
        if size * n_rep == 0:
            return np.empty((n_rep, size), dtype=dtype)
        return self.generator.integers(1, n + 1, size=(n_rep, size), dtype=dtype)

    def __repr__(self):
        return f"<GeneratorStream on {self.generator!r} (not R-identical)>"


# --- the global stream -------------------------------------------------------------

_GLOBAL = None


def _global_stream():
    global _GLOBAL
    if _GLOBAL is None:
        # As R without .Random.seed: seeded from entropy on first use.
        _GLOBAL = RRandom(None)
    return _GLOBAL


def set_seed(seed):
    """Seed the package's global R stream, as R's ``set.seed(seed)``.

    R equivalent: ``set.seed(seed)`` (with R's default ``RNGkind()``:
    Mersenne-Twister, Inversion, Rejection).

    Parameters
    ----------
    seed : int
        As R's ``set.seed(seed)``: any integer R accepts (negative, 0 and
        ``2**31 - 1`` included).

    Returns
    -------
    None

    Notes
    -----
    R scrambles the seed (50 steps of the congruential generator
    ``seed = 69069 * seed + 1``) before filling the Mersenne-Twister state,
    and R's uniforms carry 32 random bits each. numpy's ``MT19937`` is the
    same generator, but ``numpy.random.seed(42)`` or
    ``numpy.random.default_rng(42)`` seed it differently and build 53-bit
    doubles, so they do not reproduce R's numbers; ``set_seed`` does. The
    global stream is the default ``rng`` of every function that draws random
    numbers; an :class:`RRandom` or a ``numpy.random.Generator`` passed as
    ``rng=`` leaves it untouched.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395
    >>> pc.set_seed(42)  # the same seed gives the same draws again
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``.
    """
    global _GLOBAL
    if _GLOBAL is None:
        _GLOBAL = RRandom(seed)
    else:
        _GLOBAL.set_seed(seed)


def runif(n, min=0, max=1):  # noqa: A002
    """R's ``runif`` on the global stream (see :meth:`RRandom.runif`).

    R equivalent: ``runif(n, min = 0, max = 1)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length,
        as in R.
    min, max : float or array_like
        Bounds, recycled along the result as R recycles them. Non-finite
        bounds or ``max < min`` give NaN (R's NA) with R's "NAs produced"
        warning.

    Returns
    -------
    numpy.ndarray of float64
        ``n`` deviates, R's bit for bit; the global stream advances as R's
        ``.Random.seed`` does.

    Notes
    -----
    Each value is ``min + (max - min) * u`` with R's ``unif_rand()`` ``u``:
    one 32-bit Mersenne-Twister word scaled by ``2**-32`` and kept inside
    ``(0, 1)``. numpy's ``Generator.random`` uses 53 bits from two words, so
    even an identical Mersenne-Twister state gives other numbers.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(2, min=[0, 10], max=[1, 20])))
    0.914806 19.37075

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``;
    ``set.seed(42); runif(2, min = c(0, 10), max = c(1, 20))`` prints
    ``[1]  0.914806 19.370754``.
    """
    return _global_stream().runif(n, min, max)


def rnorm(n, mean=0, sd=1):
    """R's ``rnorm`` on the global stream (see :meth:`RRandom.rnorm`).

    R equivalent: ``rnorm(n, mean = 0, sd = 1)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length.
    mean, sd : float or array_like
        Recycled along the result. ``sd == 0`` or an infinite ``mean`` gives
        ``mean`` without drawing; NaN ``mean``, non-finite or negative ``sd``
        give NaN with R's "NAs produced" warning.

    Returns
    -------
    numpy.ndarray of float64
        ``n`` deviates, R's bit for bit.

    Notes
    -----
    R's default normal kind is Inversion: each value is ``mean + sd *
    qnorm(u)`` with ``u`` built from two uniforms,
    ``u = (floor(2**27 * u1) + u2) / 2**27``, and ``qnorm`` is Wichura's
    AS 241. numpy's ``Generator.standard_normal`` uses the ziggurat method,
    so no numpy seed reproduces these values.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.rnorm(3)))
    1.370958 -0.5646982 0.3631284
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.rnorm(3, mean=10, sd=2)))
    12.74192 8.870604 10.72626

    R: ``set.seed(42); rnorm(3)`` prints ``[1]  1.3709584 -0.5646982  0.3631284``
    and ``set.seed(42); rnorm(3, mean = 10, sd = 2)`` prints
    ``[1] 12.741917  8.870604 10.726257``.
    """
    return _global_stream().rnorm(n, mean, sd)


def rbinom(n, size, prob):
    """R's ``rbinom`` on the global stream (see :meth:`RRandom.rbinom`).

    R equivalent: ``rbinom(n, size, prob)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length.
    size, prob : float or array_like
        Recycled along the result. A non-integer, negative or non-finite
        ``size``, or ``prob`` outside ``[0, 1]``, gives NaN (R's NA) with R's
        "NAs produced" warning.

    Returns
    -------
    numpy.ndarray
        int64 counts, R's bit for bit; float64 with NaN where R gives NA.

    Notes
    -----
    R 4.2.2's algorithm (nmath's ``rbinom.c``): inversion when
    ``size * min(prob, 1 - prob) < 30``, otherwise Kachitvichyanukul &
    Schmeiser's BTPE, on the smaller of ``prob`` and ``1 - prob``. numpy's
    ``Generator.binomial`` uses other algorithms and other uniforms, so its
    draws differ for any seed.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.rbinom(5, 10, 0.3))
    5 5 2 4 3
    >>> pc.set_seed(42)
    >>> print(*pc.rbinom(4, 1, [0.1, 0.9]))  # prob recycled: 0.1, 0.9, 0.1, 0.9
    1 0 0 1

    R: ``set.seed(42); rbinom(5, 10, 0.3)`` prints ``[1] 5 5 2 4 3`` and
    ``set.seed(42); rbinom(4, 1, c(0.1, 0.9))`` prints ``[1] 1 0 0 1``.
    """
    return _global_stream().rbinom(n, size, prob)


def sample(x, size=None, replace=False, prob=None):
    """R's ``sample`` on the global stream (see :meth:`RRandom.sample`).

    R equivalent: ``sample(x, size, replace = FALSE, prob = NULL)``.

    Parameters
    ----------
    x : array_like or number
        A single finite number ``>= 1`` means ``1..x`` (R's rule, a frequent
        surprise: ``sample(c(5))`` is a permutation of ``1..5``); anything else
        is the population, returned as elements of ``x`` (list -> list,
        pandas -> pandas, otherwise ndarray).
    size : int, optional
        Number of items; defaults to the population size.
    replace : bool
        Sample with replacement.
    prob : array_like of float, optional
        Weights, one per population element, normalised as R does.

    Returns
    -------
    numpy.ndarray, list or pandas object
        The sampled elements (1-based integers when ``x`` is a number).

    Notes
    -----
    The indices are :func:`sample_int`'s: R's default ``sample.kind =
    "Rejection"`` (R >= 3.6.0) draws each index by rejection sampling on
    the bits of R's uniforms. numpy's ``Generator.choice`` and
    ``permutation`` use other algorithms, so they do not reproduce R.

    Examples
    --------
    A single number n >= 1 means ``1..n``, as in R:

    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.sample(10))
    1 5 10 8 2 4 6 9 7 3

    R: ``set.seed(42); sample(10)`` prints
    ``[1]  1  5 10  8  2  4  6  9  7  3``. A list comes back as a list:

    >>> pc.set_seed(42)
    >>> pc.sample(["a", "b", "c"], 5, replace=True)
    ['a', 'a', 'a', 'a', 'b']

    R: ``set.seed(42); sample(c("a", "b", "c"), 5, replace = TRUE)`` prints
    ``[1] "a" "a" "a" "a" "b"``.
    """
    return _global_stream().sample(x, size, replace, prob)


def sample_int(n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
    """R's ``sample.int`` on the global stream (see :meth:`RRandom.sample_int`).

    R equivalent: ``sample.int(n, size = n, replace = FALSE, prob = NULL, useHash)``.

    Parameters
    ----------
    n : int or float
        Population size (length 1); fractional values truncate, as in R.
    size : int, optional
        Number of items; defaults to ``n``.
    replace : bool
        Sample with replacement.
    prob : array_like of float, optional
        Weights of length ``n``, normalised as R does.
    useHash : bool, optional
        R's ``useHash``; None applies R's default.

    Returns
    -------
    numpy.ndarray of int64
        1-based integers, R's bit for bit.

    Notes
    -----
    Without ``prob``, each index is R's ``R_unif_index``: rejection sampling
    on 16-bit chunks of R's uniforms (``sample.kind = "Rejection"``, R's
    default since 3.6.0). With ``prob`` and replacement R uses Walker's
    alias method when more than 200 of the ``n * p`` exceed 0.1, otherwise
    inversion on the probabilities sorted by R's heapsort; without
    replacement R's sequential scheme. Indices are 1-based, as R's; subtract
    1 to index a numpy array.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.sample_int(100, 5))
    49 65 25 74 18
    >>> pc.set_seed(42)
    >>> print(*pc.sample_int(3, 6, replace=True, prob=[0.7, 0.2, 0.1]))
    3 3 1 2 1 1

    R: ``set.seed(42); sample.int(100, 5)`` prints ``[1] 49 65 25 74 18`` and
    ``set.seed(42); sample.int(3, 6, replace = TRUE, prob = c(0.7, 0.2, 0.1))``
    prints ``[1] 3 3 1 2 1 1``.
    """
    return _global_stream().sample_int(n, size, replace, prob, useHash)


def get_global_state():
    """The global stream's state as R's ``.Random.seed`` (int32, length 626).

    Creates (entropy-seeds) the global stream if nothing has used it yet.

    R equivalent: ``.Random.seed``.
    """
    return _global_stream().get_state()


def set_global_state(state):
    """Restore the global stream from an R ``.Random.seed`` vector.

    None forgets the global stream (the next use seeds from entropy), as
    removing ``.Random.seed`` does in R.

    R equivalent: ``assign(".Random.seed", state, globalenv())``.
    """
    global _GLOBAL
    if state is None:
        _GLOBAL = None
        return
    _global_stream().set_state(state)


def resolve_rng(rng):
    """The stream a function with an ``rng=`` argument draws from.

    Parameters
    ----------
    rng : None, RRandom, numpy.random.Generator, or GeneratorStream
        None: the package's global R stream (what ``set_seed`` seeds).
        An :class:`RRandom`: itself. A ``numpy.random.Generator``: a
        :class:`GeneratorStream` around it (numpy values, not R's).

    Raises
    ------
    TypeError
        Anything else.

    R equivalent: none (R functions always use the global stream).
    """
    if rng is None:
        return _global_stream()
    if isinstance(rng, (RRandom, GeneratorStream)):
        return rng
    if isinstance(rng, np.random.Generator):
        return GeneratorStream(rng)
    raise TypeError(
        "`rng` must be None (the global R stream), a pycalib_r RRandom, or a "
        f"numpy.random.Generator, not {type(rng).__name__}.")

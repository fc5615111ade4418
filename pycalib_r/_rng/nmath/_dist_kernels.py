"""Compiled nmath samplers reading R's uniforms straight from the MT words.

Scalar ports of R 4.2.2's ``exp_rand`` (sexp.c), ``norm_rand`` under
INVERSION (snorm.c, with ``qnorm5``'s AS 241), ``rgamma`` (GS below shape 1,
GD from 1), ``rbeta`` (Cheng's BB and BC) and ``rpois`` (table inversion
below mu 10, Ahrens & Dieter's PTRD from 10), operation for operation as the
C code, so each draw consumes exactly R's uniforms and returns R's double.
The stream state is the one :func:`pycalib_r._rng.bitgen._mt.kernel_words` hands
over: the key ``mt``, the tempered words ``w`` of its block and the position,
kept in ``st[0]`` so that nested samplers share it; ``unif_rand()`` is
``fixup(word * 2^-32)``.

The C statics of nmath (rgamma's ``aa``/``aaa`` set-ups, rbeta's
``olda``/``oldb``, rpois' ``muprev``/``muprev2`` and its table) are caches of
values that depend on the parameters alone; here they are recomputed when
the parameter changes along the vector, which gives R's values whatever R's
statics held before the call.

Every libm call (``exp``, ``log``, ``expm1``, ``pow``) must be glibc's, as in
R: this module is loaded only through ``pycalib_r._jit.kernels(...,
float_math=True)`` (no SVML) and without fastmath (no FMA contraction, no
reassociation). The numpy/Python twin is :mod:`._dists` with
:mod:`pycalib_r._rng.stream._stream_dists`.

The kernels are compiled without numba's reference counting (``_nrt=False``):
they allocate nothing, and with it every call of a helper that takes the
state arrays (once per uniform) would pay two atomic increments and
decrements, which made the loops ten times slower.

References
----------
Ahrens, J.H. and Dieter, U. (1972). Computer methods for sampling from the
exponential and normal distributions. *Communications of the ACM*, 15, 873-882.

Ahrens, J.H. and Dieter, U. (1974, 1982). Computer methods for sampling from
gamma, beta, Poisson and binomial distributions. *Computing*, 12, 223-246;
Generating gamma variates by a modified rejection technique. *Communications
of the ACM*, 25, 47-54; Computer generation of Poisson deviates from modified
normal distributions. *ACM Transactions on Mathematical Software*, 8, 163-179.

Cheng, R.C.H. (1978). Generating beta variates with nonintegral shape
parameters. *Communications of the ACM*, 21, 317-322.

Wichura, M.J. (1988). Algorithm AS 241: The percentage points of the normal
distribution. *Applied Statistics*, 37, 477-484.
"""

from __future__ import annotations

import math

import numpy as np

from pycalib_r._jit import njit
# The constants are the twin's (one copy of every coefficient): numba freezes
# module-level floats and tuples into the compiled code.
from pycalib_r._rng.nmath._dists import (
    _BIG,
    _DBL_MAX,
    _EXP_A,  # a after k doublings, summed as C sums
    _FACT as _D_FACT,
    _EXP_M1,
    _EXP_QA as _Q,  # an array: a tuple indexed at run time costs a switch
    _EXPMAX,
    _GA,
    _GQ,
    _M_1_SQRT_2PI,
    _ONE_7,
    _ONE_12,
    _ONE_24,
    _PA,
    _Q0,
    _SQRT32,
)
from pycalib_r._rng.bitgen._mt import _FIX_LOW, _TWO_M32
from pycalib_r._rng.bitgen._mt_kernels import next_block
from pycalib_r._rng.nmath._qnorm import _A_DEN, _A_NUM, _B_DEN, _B_NUM, _C_DEN, _C_NUM

N = 624
_Q1, _Q2, _Q3, _Q4, _Q5, _Q6, _Q7 = _GQ
_A1, _A2, _A3, _A4, _A5, _A6, _A7 = _GA
_P0, _P1, _P2, _P3, _P4, _P5, _P6, _P7 = _PA
_FACT = np.array(_D_FACT)


# --- the uniform source ---------------------------------------------------------

@njit(_nrt=False, inline="always")
def _unif(mt, w, st):
    """R's ``unif_rand()``: the next word as ``fixup(word * 2^-32)``."""
    p = st[0]
    if p == N:
        next_block(mt, w)
        p = 0
    st[0] = p + 1
    x = w[p]
    if x == 0:
        return _FIX_LOW
    return np.float64(x) * _TWO_M32


# --- exp_rand (sexp.c) -------------------------------------------------------------

def _exp_rand_py(mt, w, st):
    u = _unif(mt, w, st)
    while u <= 0.0 or u >= 1.0:
        u = _unif(mt, w, st)
    # C doubles u until it exceeds 1, adding q[0] to a each time it does
    # not: with u = m * 2^e (0.5 <= m < 1) that is -e additions (one more
    # when u is a power of two), and u ends as 2m - 1 (or 1). The doublings
    # are exact and _EXP_A holds the sums as C accumulates them, so this is
    # the same double without a data-dependent loop.
    m, e = math.frexp(u)
    k = -e
    if m == 0.5:
        k += 1
        u = 1.0
    else:
        u = 2.0 * m - 1.0
    a = _EXP_A[k]
    if u <= _Q0:
        return a + u
    i = 0
    ustar = _unif(mt, w, st)
    umin = ustar
    while True:
        ustar = _unif(mt, w, st)
        if umin > ustar:
            umin = ustar
        i += 1
        if not u > _Q[i]:
            break
    return a + umin * _Q0


# Inlined into exp_fill's loop (the call costs a third of a draw there), and
# called elsewhere (inlining it into rgamma/rpois multiplies their compile time).
_exp_rand = njit(_nrt=False)(_exp_rand_py)
_exp_rand_inline = njit(_nrt=False, inline="always")(_exp_rand_py)


# --- norm_rand, INVERSION (snorm.c, qnorm.c AS 241) ----------------------------------

@njit(_nrt=False, inline="always")
def _horner(r, c):
    """``(((r * c0 + c1) * r + c2) ...) * r + c7``, one rounding per step as C."""
    acc = r * c[0]
    for i in range(1, 7):
        acc += c[i]
        acc *= r
    return acc + c[7]


@njit(_nrt=False)
def _qnorm_open(p):
    """``qnorm5(p, 0, 1, TRUE, FALSE)`` for ``0 < p < 1``, in C's order."""
    q = p - 0.5
    if math.fabs(q) <= 0.425:
        r = 0.180625 - q * q
        val = q * _horner(r, _A_NUM) / _horner(r, _A_DEN)
        return 0.0 + 1.0 * val
    if q > 0:
        r = 0.5 - p + 0.5
    else:
        r = p
    r = math.sqrt(-math.log(r))
    if r <= 5.:
        r += -1.6
        val = _horner(r, _B_NUM) / _horner(r, _B_DEN)
    elif r >= 816:
        val = r * 1.41421356237309504880
    else:
        r += -5.
        val = _horner(r, _C_NUM) / _horner(r, _C_DEN)
    if q < 0.0:
        val = -val
    return 0.0 + 1.0 * val


@njit(_nrt=False, inline="always")
def _norm_rand(mt, w, st):
    u = _unif(mt, w, st)
    u = np.floor(_BIG * u) + _unif(mt, w, st)  # (int)(BIG * u): u > 0
    return _qnorm_open(u / _BIG)


# --- rgamma (rgamma.c) --------------------------------------------------------------

@njit(_nrt=False)
def _gd_setup(a):
    """GD's steps 1 and 4: (s2, s, d, q0, b, si, c) for one shape ``a >= 1``."""
    s2 = a - 0.5
    s = math.sqrt(s2)
    d = _SQRT32 - s * 12.0
    r = 1.0 / a
    q0 = ((((((_Q7 * r + _Q6) * r + _Q5) * r + _Q4) * r + _Q3) * r + _Q2) * r + _Q1) * r
    if a <= 3.686:
        b = 0.463 + s + 0.178 * s2
        si = 1.235
        c = 0.195 / s - 0.079 + 0.16 * s
    elif a <= 13.022:
        b = 1.654 + 0.0076 * s2
        si = 1.68 / s + 0.275
        c = 0.062 / s + 0.024
    else:
        b = 1.77
        si = 0.75
        c = 0.1515 / s
    return s2, s, d, q0, b, si, c


@njit(_nrt=False, inline="always")
def _gd_q(q0, s, s2, t, v):
    if math.fabs(v) <= 0.25:
        return q0 + 0.5 * t * t * ((((((_A7 * v + _A6) * v + _A5) * v + _A4) * v + _A3) * v
                                    + _A2) * v + _A1) * v
    return q0 - s * t + 0.25 * t * t + (s2 + s2) * math.log(1.0 + v)


@njit(_nrt=False)
def _rgamma_gs(mt, w, st, a):
    e = 1.0 + _EXP_M1 * a
    while True:
        p = e * _unif(mt, w, st)
        if p >= 1.0:
            x = -math.log((e - p) / a)
            if _exp_rand(mt, w, st) >= (1.0 - a) * math.log(x):
                return x
        else:
            x = math.exp(math.log(p) / a)
            if _exp_rand(mt, w, st) >= x:
                return x


@njit(_nrt=False)
def _rgamma_gd(mt, w, st, scale, s2, s, d, q0, b, si, c):
    """GD for one draw (C's ``scale * ret_val``, or ``scale * x * x`` after step 8)."""
    t = _norm_rand(mt, w, st)
    x = s + 0.5 * t
    ret_val = x * x
    if t >= 0.0:
        return scale * ret_val
    u = _unif(mt, w, st)
    if d * u <= t * t * t:
        return scale * ret_val
    if x > 0.0:
        v = t / (s + s)
        q = _gd_q(q0, s, s2, t, v)
        if math.log(1.0 - u) <= q:
            return scale * ret_val
    while True:
        e = _exp_rand(mt, w, st)
        u = _unif(mt, w, st)
        u = u + u - 1.0
        if u < 0.0:
            t = b - si * e
        else:
            t = b + si * e
        if t >= -0.71874483771719:
            v = t / (s + s)
            q = _gd_q(q0, s, s2, t, v)
            if q > 0.0:
                ww = math.expm1(q)
                if c * math.fabs(u) <= ww * math.exp(e - 0.5 * t * t):
                    break
    x = s + 0.5 * t
    return scale * x * x


@njit(_nrt=False)
def gamma_fill(mt, w, st, a, scale, out):
    """``out[i] = rgamma(a[i], scale[i])`` (a parameter of size 1 is recycled)
    for finite ``a > 0``, ``scale > 0``."""
    ka = a.size > 1
    ks = scale.size > 1
    aa = np.nan  # the shape GD's constants were computed for
    s2 = s = d = q0 = b = si = c = 0.0
    for i in range(out.size):
        ai = a[i] if ka else a[0]
        sc = scale[i] if ks else scale[0]
        if ai < 1.0:
            out[i] = sc * _rgamma_gs(mt, w, st, ai)
            continue
        if ai != aa:
            aa = ai
            s2, s, d, q0, b, si, c = _gd_setup(ai)
        out[i] = _rgamma_gd(mt, w, st, sc, s2, s, d, q0, b, si, c)


@njit(_nrt=False)
def exp_fill(mt, w, st, out):
    """``out[i] = exp_rand()``."""
    for i in range(out.size):
        out[i] = _exp_rand_inline(mt, w, st)


# --- rbeta (rbeta.c) ------------------------------------------------------------------

@njit(_nrt=False, inline="always")
def _vw(beta, u1, aa_):
    v = beta * math.log(u1 / (1.0 - u1))
    if v <= _EXPMAX:
        ww = aa_ * math.exp(v)
        if not math.isfinite(ww):
            ww = _DBL_MAX
    else:
        ww = _DBL_MAX
    return v, ww


@njit(_nrt=False)
def _beta_setup(aa, bb):
    """(a, b, alpha, beta, gamma, delta, k1, k2) of BB (min > 1) or BC."""
    a = min(aa, bb)
    b = max(aa, bb)
    alpha = a + b
    gamma = delta = k1 = k2 = 0.0
    if a <= 1.0:
        beta = 1.0 / a
        delta = 1.0 + b - a
        k1 = delta * (0.0138889 + 0.0416667 * a) / (b * beta - 0.777778)
        k2 = 0.25 + (0.5 + 0.25 / delta) * a
    else:
        beta = math.sqrt((alpha - 2.0) / (2.0 * a * b - alpha))
        gamma = a + 1.0 / beta
    return a, b, alpha, beta, gamma, delta, k1, k2


@njit(_nrt=False)
def _rbeta_bc(mt, w, st, aa, a, b, alpha, beta, k1, k2):
    while True:
        u1 = _unif(mt, w, st)
        u2 = _unif(mt, w, st)
        if u1 < 0.5:
            y = u1 * u2
            z = u1 * y
            if 0.25 * u2 + z - y >= k1:
                continue
        else:
            z = u1 * u1 * u2
            if z <= 0.25:
                v, ww = _vw(beta, u1, b)
                break
            if z >= k2:
                continue
        v, ww = _vw(beta, u1, b)
        if alpha * (math.log(alpha / (a + ww)) + v) - 1.3862944 >= math.log(z):
            break
    return a / (a + ww) if aa == a else ww / (a + ww)


@njit(_nrt=False)
def _rbeta_bb(mt, w, st, aa, a, b, alpha, beta, gamma):
    while True:
        u1 = _unif(mt, w, st)
        u2 = _unif(mt, w, st)
        v, ww = _vw(beta, u1, a)
        z = u1 * u1 * u2
        r = gamma * v - 1.3862944
        s = a + r - ww
        if s + 2.609438 >= 5.0 * z:
            break
        t = math.log(z)
        if s > t:
            break
        if not r + alpha * math.log(alpha / (b + ww)) < t:
            break
    return b / (b + ww) if aa != a else ww / (b + ww)


@njit(_nrt=False)
def beta_fill(mt, w, st, aa, bb, out):
    """``out[i] = rbeta(aa[i], bb[i])`` for finite shapes, not both 0 (a
    parameter of size 1 is recycled); ``aa = bb = 0`` draws the coin."""
    ka = aa.size > 1
    kb = bb.size > 1
    olda = oldb = np.nan
    a = b = alpha = beta = gamma = delta = k1 = k2 = 0.0
    for i in range(out.size):
        ai = aa[i] if ka else aa[0]
        bi = bb[i] if kb else bb[0]
        if ai == 0.0 and bi == 0.0:
            out[i] = 0.0 if _unif(mt, w, st) < 0.5 else 1.0
            continue
        if not (ai == olda and bi == oldb):
            olda = ai
            oldb = bi
            a, b, alpha, beta, gamma, delta, k1, k2 = _beta_setup(ai, bi)
        if a <= 1.0:
            out[i] = _rbeta_bc(mt, w, st, ai, a, b, alpha, beta, k1, k2)
        else:
            out[i] = _rbeta_bb(mt, w, st, ai, a, b, alpha, beta, gamma)


# --- rpois (rpois.c) ------------------------------------------------------------------

@njit(_nrt=False)
def _pois_table(mu, pp):
    """Case B's cumulative table pp[0..35], as C builds it term by term."""
    p = math.exp(-mu)
    q = p
    pp[0] = p
    for k in range(1, 36):
        p *= mu / k
        q += p
        pp[k] = q


@njit(_nrt=False)
def _rpois_small(mt, w, st, pp):
    while True:
        u = _unif(mt, w, st)
        # R searches from min(l, m) when u > 0.458; below that index the
        # table stays under 0.458 for every mu < 10, so a search from 0 ends
        # at the same k.
        for k in range(36):
            if u <= pp[k]:
                return np.float64(k)


@njit(_nrt=False)
def _pois_setup(mu):
    """Case A and step P: (s, d, big_l, omega, c3, c2, c1, c0, c) for ``mu >= 10``."""
    s = math.sqrt(mu)
    d = 6. * mu * mu
    big_l = math.floor(mu - 1.1484)
    omega = _M_1_SQRT_2PI / s
    b1 = _ONE_24 / mu
    b2 = 0.3 * b1 * b1
    c3 = _ONE_7 * b1 * b2
    c2 = b2 - 15. * c3
    c1 = b1 - 6. * b2 + 45. * c3
    c0 = 1. - b1 + 3. * b2 - 15. * c3
    c = 0.1069 / mu
    return s, d, big_l, omega, c3, c2, c1, c0, c


@njit(_nrt=False)
def _rpois_big(mt, w, st, mu, s, d, big_l, omega, c3, c2, c1, c0, c):
    g = mu + s * _norm_rand(mt, w, st)
    pois = -1.0
    u = 0.0
    fk = 0.0
    difmuk = 0.0
    e = 0.0
    if g >= 0.:
        pois = np.floor(g)
        if pois >= big_l:
            return pois
        fk = pois
        difmuk = mu - fk
        u = _unif(mt, w, st)
        if d * u >= difmuk * difmuk * difmuk:
            return pois
    kflag = 0
    first = g >= 0.  # enter at step F (kflag 0), else at step E
    while True:
        if not first:
            e = _exp_rand(mt, w, st)
            u = 2 * _unif(mt, w, st) - 1.
            t = 1.8 + (math.fabs(e) if u >= 0 else -math.fabs(e))
            if not t > -0.6744:
                continue
            pois = np.floor(mu + s * t)
            fk = pois
            difmuk = mu - fk
            kflag = 1
        first = False
        if pois < 10:
            px = -mu
            py = math.pow(mu, pois) / _FACT[int(pois)]
        else:
            dl = _ONE_12 / fk
            dl = dl * (1. - 4.8 * dl * dl)
            v = difmuk / fk
            if math.fabs(v) <= 0.25:
                px = fk * v * v * (((((((_P7 * v + _P6) * v + _P5) * v + _P4) * v + _P3) * v
                                     + _P2) * v + _P1) * v + _P0) - dl
            else:
                px = fk * math.log(1. + v) - difmuk - dl
            py = _M_1_SQRT_2PI / math.sqrt(fk)
        x = (0.5 - difmuk) / s
        x *= x
        fx = -0.5 * x
        fy = omega * (((c3 * x + c2) * x + c1) * x + c0)
        if kflag > 0:
            if c * math.fabs(u) <= py * math.exp(px + e) - fy * math.exp(fx + e):
                return pois
        elif fy - u * fy <= py * math.exp(px - fx):
            return pois


@njit(_nrt=False)
def pois_fill(mt, w, st, mu, out, pp):
    """``out[i] = rpois(mu[i])`` for finite ``mu > 0`` (size 1 is recycled);
    ``pp`` is room for the table (36 doubles)."""
    km = mu.size > 1
    prev = np.nan
    s = d = big_l = omega = c3 = c2 = c1 = c0 = c = 0.0
    for i in range(out.size):
        m = mu[i] if km else mu[0]
        if m != prev:
            prev = m
            if m < 10.0:
                _pois_table(m, pp)
            else:
                s, d, big_l, omega, c3, c2, c1, c0, c = _pois_setup(m)
        if m < 10.0:
            out[i] = _rpois_small(mt, w, st, pp)
        else:
            out[i] = _rpois_big(mt, w, st, m, s, d, big_l, omega, c3, c2, c1, c0, c)

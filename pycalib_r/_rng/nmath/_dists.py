# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/{sexp,snorm,rgamma,rbeta,rpois,rhyper,rcauchy,rlogis,rweibull}.c (GPL-2.0-or-later), (c) The R Core Team
"""nmath's distributions as functions of uniforms (R 4.2.2 ``src/nmath``).

Two forms of each algorithm:

* a scalar port, ``<name>1(cur, ...)``, that reads ``cur.unif()`` exactly
  when R's C code calls ``unif_rand()`` (the reference, and the path for
  varying parameters and for the rare branches);
* for the common parameter sets, an *evaluator* for
  :func:`pycalib_r._rng.nmath._chain.run_blocks`: the algorithm evaluated at every
  position of a block of uniforms (length, value, acceptance).

Operations are in C's order, and every ``log``/``exp`` is glibc's
(:mod:`pycalib_r.rbase._rarith`), so values are R's bit for bit. nmath keeps some
constants in C statics between calls; they are functions of the parameters
only, so recomputing them changes nothing.

R equivalent: ``exp_rand`` (sexp.c), ``norm_rand`` (snorm.c, INVERSION),
``rgamma.c``, ``rbeta.c``, ``rpois.c``, ``rhyper.c``, ``rcauchy.c``,
``rlogis.c``, ``rweibull.c``.
"""

from __future__ import annotations

import math

import numpy as np

from ...rbase._rarith import r_exp, r_log
from ...rstats import qnorm_open as _qnorm_open, qnorm_open1

_BIG = 134217728.0  # 2^27, norm_rand's INVERSION
_DBL_MAX = 1.7976931348623157e308
_EXPMAX = 1024 * 0.693147180559945309417232121458  # DBL_MAX_EXP * M_LN2
_M_1_SQRT_2PI = 0.398942280401432677939946059934
_M_LN_SQRT_2PI = 0.918938533204672741780329736406

# --- exp_rand (sexp.c) ----------------------------------------------------------

_EXP_Q = (0.6931471805599453, 0.9333736875190459, 0.9888777961838675,
          0.9984959252914960, 0.9998292811061389, 0.9999833164100727,
          0.9999985691438767, 0.9999998906925558, 0.9999999924734159,
          0.9999999995283275, 0.9999999999728814, 0.9999999999985598,
          0.9999999999999289, 0.9999999999999968, 0.9999999999999999,
          1.0000000000000000)
_Q0 = _EXP_Q[0]
_EXP_QA = np.array(_EXP_Q)


def _a_table():
    """``a`` after k doublings: k sequential additions of q[0], as C adds."""
    a = 0.0
    out = [a]
    for _ in range(1100):
        a += _Q0
        out.append(a)
    return np.array(out)


_EXP_A = _a_table()


def cdiv(a, b):
    """C's ``a / b`` on doubles (IEEE: x / 0 is +-Inf, 0 / 0 and NaN / 0 are NaN),
    where Python's float division raises ZeroDivisionError."""
    try:
        return a / b
    except ZeroDivisionError:
        if a != a or a == 0.0:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)


def exp_rand1(cur):
    """R's ``exp_rand()`` (Ahrens & Dieter 1972)."""
    a = 0.0
    u = cur.unif()
    while u <= 0.0 or u >= 1.0:
        u = cur.unif()
    while True:
        u += u
        if u > 1.0:
            break
        a += _Q0
    u -= 1.0
    if u <= _Q0:
        return a + u
    i = 0
    ustar = cur.unif()
    umin = ustar
    while True:
        ustar = cur.unif()
        if umin > ustar:
            umin = ustar
        i += 1
        if not u > _EXP_Q[i]:
            break
    return a + umin * _Q0


def exp_eval(u, m):
    """``exp_rand()`` started at each position ``j < m``: (lens, values).

    The doublings of ``u = mant * 2^ex`` until it exceeds 1 are exact:
    there are ``-ex`` additions of q[0] to ``a`` (one more when u is a power
    of two) and the remainder is ``2 * mant - 1`` (1 for a power of two).
    The second case takes ``2 + i`` uniforms, i being the first index with
    ``u <= q[i]``; its value uses the least of them. Values are returned
    as a function of the positions, evaluated only where draws start.
    """
    x = u[:m]
    mant, ex = np.frexp(x)
    uf = 2.0 * mant
    uf -= 1.0
    k = np.negative(ex, dtype=np.int64)
    pow2 = np.flatnonzero(mant == 0.5)
    if pow2.size:
        uf[pow2] = 1.0
        k[pow2] += 1
    lens = np.ones(m, dtype=np.int64)
    longi = np.flatnonzero(uf > _Q0)
    ii = np.searchsorted(_EXP_QA, uf[longi], side="left")
    lens[longi] = 2 + ii

    def values(idx):
        a = _EXP_A[k[idx]]
        ui = uf[idx]
        out = a + ui
        li = np.flatnonzero(ui > _Q0)
        if li.size:
            j = idx[li]
            n_i = lens[j] - 2
            top = int(n_i.max())
            w = u[j[:, None] + np.arange(1, top + 2)]
            w[np.arange(top + 1)[None, :] > n_i[:, None]] = np.inf
            out[li] = a[li] + w.min(axis=1) * _Q0
        return out
    return lens, values


# --- norm_rand (snorm.c, INVERSION) -----------------------------------------------

def norm_rand1(cur):
    """R's ``norm_rand()``: INVERSION (two uniforms), or the cursor's normal kind."""
    if cur.norm is not None:
        return cur.norm(cur)
    u = cur.unif()
    u = int(_BIG * u) + cur.unif()
    return qnorm_open1(u / _BIG)


def norm_eval(u, m):
    """``norm_rand()`` at each position ``j < m`` (uses u[j], u[j + 1])."""
    v = np.floor(_BIG * u[:m])
    v += u[1:m + 1]
    v /= _BIG
    z = _qnorm_open(v)
    z += 0.0
    return z


# --- rgamma (rgamma.c) ----------------------------------------------------------

_SQRT32 = 5.656854
_EXP_M1 = 0.36787944117144232159
_GQ = (0.04166669, 0.02083148, 0.00801191, 0.00144121, -7.388e-5, 2.4511e-4, 2.424e-4)
_GA = (0.3333333, -0.250003, 0.2000062, -0.1662921, 0.1423657, -0.1367177, 0.1233795)


class GammaSetup:
    """GD's constants for one shape ``a >= 1`` (steps 1 and 4), as C computes them."""

    __slots__ = ("a", "s2", "s", "d", "q0", "b", "si", "c")

    def __init__(self, a):
        self.a = a
        self.s2 = a - 0.5
        self.s = math.sqrt(self.s2)
        self.d = _SQRT32 - self.s * 12.0
        r = 1.0 / a
        q1, q2, q3, q4, q5, q6, q7 = _GQ
        self.q0 = ((((((q7 * r + q6) * r + q5) * r + q4) * r + q3) * r + q2) * r + q1) * r
        s, s2 = self.s, self.s2
        if a <= 3.686:
            self.b = 0.463 + s + 0.178 * s2
            self.si = 1.235
            self.c = 0.195 / s - 0.079 + 0.16 * s
        elif a <= 13.022:
            self.b = 1.654 + 0.0076 * s2
            self.si = 1.68 / s + 0.275
            self.c = 0.062 / s + 0.024
        else:
            self.b = 1.77
            self.si = 0.75
            self.c = 0.1515 / s


def _gd_poly(v):
    """The polynomial of steps 6/10 before its last ``* v`` (C multiplies
    ``0.5 * t * t * (...) * v`` left to right)."""
    a1, a2, a3, a4, a5, a6, a7 = _GA
    return (((((a7 * v + a6) * v + a5) * v + a4) * v + a3) * v + a2) * v + a1


def _gd_q(g, t, v, log1pv):
    """Steps 6/10's quotient q (``log1pv`` is ``log(1.0 + v)``, only used when |v| > 0.25)."""
    if abs(v) <= 0.25:
        return g.q0 + 0.5 * t * t * _gd_poly(v) * v
    return g.q0 - g.s * t + 0.25 * t * t + (g.s2 + g.s2) * log1pv


def rgamma1(cur, a, scale, setup=None):
    """R's ``rgamma(a, scale)`` for valid, finite ``a > 0``, ``scale > 0``."""
    if a < 1.0:
        e = 1.0 + _EXP_M1 * a
        while True:
            p = e * cur.unif()
            if p >= 1.0:
                x = -math.log((e - p) / a)
                if exp_rand1(cur) >= (1.0 - a) * math.log(x):
                    break
            else:
                x = math.exp(math.log(p) / a)
                if exp_rand1(cur) >= x:
                    break
        return scale * x
    g = setup if setup is not None else GammaSetup(a)
    t = norm_rand1(cur)
    x = g.s + 0.5 * t
    ret_val = x * x
    if t >= 0.0:
        return scale * ret_val
    u = cur.unif()
    if g.d * u <= t * t * t:
        return scale * ret_val
    if x > 0.0:
        v = t / (g.s + g.s)
        q = _gd_q(g, t, v, math.log(1.0 + v) if abs(v) > 0.25 else 0.0)
        if math.log(1.0 - u) <= q:
            return scale * ret_val
    while True:
        e = exp_rand1(cur)
        u = cur.unif()
        u = u + u - 1.0
        t = g.b - g.si * e if u < 0.0 else g.b + g.si * e
        if t >= -0.71874483771719:
            v = t / (g.s + g.s)
            q = _gd_q(g, t, v, math.log(1.0 + v) if abs(v) > 0.25 else 0.0)
            if q > 0.0:
                w = math.expm1(q)
                if g.c * abs(u) <= w * math.exp(e - 0.5 * t * t):
                    break
    x = g.s + 0.5 * t
    return scale * x * x


def gamma_gd_eval(g, scale):
    """GD (shape >= 1) evaluator: steps 2-7 vectorised; step 8 leaves the fast path."""
    def evaluate(u, m):
        t = norm_eval(u, m)
        x = g.s + 0.5 * t
        ret = x * x
        ret *= scale
        lens = np.full(m, 2, dtype=np.int64)
        neg = np.flatnonzero(t < 0.0)
        if neg.size:
            tn = t[neg]
            un = u[neg + 2]
            ok = g.d * un <= tn * tn * tn
            rest = np.flatnonzero(~ok & (x[neg] > 0.0))
            if rest.size:
                tr = tn[rest]
                v = tr / (g.s + g.s)
                small = np.abs(v) <= 0.25
                q = np.empty(rest.size)
                vs = v[small]
                ts = tr[small]
                q[small] = g.q0 + 0.5 * ts * ts * _gd_poly(vs) * vs
                vb = v[~small]
                tb = tr[~small]
                q[~small] = g.q0 - g.s * tb + 0.25 * tb * tb + (g.s2 + g.s2) * r_log(1.0 + vb)
                ok[rest] = r_log(1.0 - un[rest]) <= q
            lens[neg] = np.where(ok, 3, 0)
        return lens, ret, np.ones(m, dtype=bool)
    return evaluate


def gamma_gs_eval(a, scale):
    """GS (shape < 1) evaluator: one attempt = a uniform and an ``exp_rand()``."""
    e = 1.0 + _EXP_M1 * a

    def evaluate(u, m):
        # The chain needs only the lengths; acceptance and values are
        # computed for the attempts on it (a function of their positions).
        elens, evalf = exp_eval(u[1:], m)
        memo = {}

        def accept(idx):
            p = e * u[idx]
            ev = evalf(idx)
            hi = p >= 1.0
            x = np.empty(idx.size)
            acc = np.empty(idx.size, dtype=bool)
            hi_i = np.flatnonzero(hi)
            lo_i = np.flatnonzero(~hi)
            xh = -r_log((e - p[hi_i]) / a)
            x[hi_i] = xh
            acc[hi_i] = ev[hi_i] >= (1.0 - a) * r_log(xh)
            xl = r_exp(r_log(p[lo_i]) / a)
            x[lo_i] = xl
            acc[lo_i] = ev[lo_i] >= xl
            memo["idx"], memo["x"] = idx, x
            return acc

        def values(idx):
            # idx is a subset (in order) of the positions last passed to accept().
            pos = np.searchsorted(memo["idx"], idx)
            return scale * memo["x"][pos]
        return 1 + elens, values, accept
    return evaluate


def gamma_attempt1(a, scale):
    """One GS attempt by the scalar port (None when rejected)."""
    e = 1.0 + _EXP_M1 * a

    def one(cur):
        p = e * cur.unif()
        if p >= 1.0:
            x = -math.log((e - p) / a)
            return scale * x if exp_rand1(cur) >= (1.0 - a) * math.log(x) else None
        x = math.exp(math.log(p) / a)
        return scale * x if exp_rand1(cur) >= x else None
    return one


# --- rbeta (rbeta.c, Cheng 1978 BB and BC) ----------------------------------------

class BetaSetup:
    """The constants of BB (min shape > 1) or BC for one (aa, bb)."""

    __slots__ = ("aa", "bb", "a", "b", "alpha", "bc", "beta", "gamma", "delta", "k1", "k2")

    def __init__(self, aa, bb):
        self.aa, self.bb = aa, bb
        a = min(aa, bb)
        b = max(aa, bb)
        self.a, self.b, self.alpha = a, b, a + b
        self.bc = a <= 1.0
        if self.bc:
            self.beta = 1.0 / a
            self.delta = 1.0 + b - a
            self.k1 = self.delta * (0.0138889 + 0.0416667 * a) / (b * self.beta - 0.777778)
            self.k2 = 0.25 + (0.5 + 0.25 / self.delta) * a
        else:
            self.beta = math.sqrt((self.alpha - 2.0) / (2.0 * a * b - self.alpha))
            # 2 a b can overflow (huge shapes): beta is then 0 and gamma Inf, as in C.
            self.gamma = a + cdiv(1.0, self.beta)


def _vw1(s, u1, aa_):
    v = s.beta * math.log(u1 / (1.0 - u1))
    if v <= _EXPMAX:
        w = aa_ * math.exp(v)
        if not math.isfinite(w):
            w = _DBL_MAX
    else:
        w = _DBL_MAX
    return v, w


def beta_attempt1(s):
    """One attempt of BB/BC on two uniforms: the draw, or None when rejected."""
    def one(cur):
        u1 = cur.unif()
        u2 = cur.unif()
        a, b, alpha = s.a, s.b, s.alpha
        if s.bc:
            if u1 < 0.5:
                y = u1 * u2
                z = u1 * y
                if 0.25 * u2 + z - y >= s.k1:
                    return None
            else:
                z = u1 * u1 * u2
                if z <= 0.25:
                    v, w = _vw1(s, u1, b)
                    return a / (a + w) if s.aa == a else w / (a + w)
                if z >= s.k2:
                    return None
            v, w = _vw1(s, u1, b)
            if alpha * (math.log(alpha / (a + w)) + v) - 1.3862944 >= math.log(z):
                return a / (a + w) if s.aa == a else w / (a + w)
            return None
        v, w = _vw1(s, u1, a)
        z = u1 * u1 * u2
        r = s.gamma * v - 1.3862944
        s_ = a + r - w
        done = s_ + 2.609438 >= 5.0 * z
        if not done:
            t = math.log(z)
            done = s_ > t or not (r + alpha * math.log(alpha / (b + w)) < t)
        if done:
            return b / (b + w) if s.aa != a else w / (b + w)
        return None
    return one


def _vw(s, u1, aa_):
    with np.errstate(over="ignore"):
        v = s.beta * r_log(u1 / (1.0 - u1))
        w = aa_ * r_exp(np.minimum(v, _EXPMAX))
    w[~np.isfinite(w) | (v > _EXPMAX)] = _DBL_MAX
    return v, w


def beta_eval(s):
    """BB/BC evaluator: every attempt takes two uniforms."""
    def evaluate(u, m):
        u1 = u[0:m]
        u2 = u[1:m + 1]
        a, b, alpha = s.a, s.b, s.alpha
        acc = np.zeros(m, dtype=bool)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if s.bc:
                v, w = _vw(s, u1, b)
                lo = u1 < 0.5
                y = u1 * u2
                z = np.where(lo, u1 * y, u1 * u1 * u2)
                cont = np.where(lo, 0.25 * u2 + z - y >= s.k1, z >= s.k2)
                early = ~lo & (z <= 0.25)
                test = alpha * (r_log(alpha / (a + w)) + v) - 1.3862944 >= r_log(z)
                acc = early | (~cont & test)
                val = a / (a + w) if s.aa == a else w / (a + w)
            else:
                v, w = _vw(s, u1, a)
                z = u1 * u1 * u2
                r = s.gamma * v - 1.3862944
                s_ = a + r - w
                t = r_log(z)
                acc = ((s_ + 2.609438 >= 5.0 * z) | (s_ > t)
                       | ~(r + alpha * r_log(alpha / (b + w)) < t))
                val = b / (b + w) if s.aa != a else w / (b + w)
        return np.full(m, 2, dtype=np.int64), val, acc
    return evaluate


# --- rpois (rpois.c, Ahrens & Dieter 1982) ------------------------------------------

_FACT = (1., 1., 2., 6., 24., 120., 720., 5040., 40320., 362880.)
_PA = (-0.5, 0.3333333, -0.2500068, 0.2000118, -0.1661269, 0.1421878, -0.1384794, 0.1250060)
_ONE_7 = 0.1428571428571428571
_ONE_12 = 0.0833333333333333333
_ONE_24 = 0.0416666666666666667


def pois_table(mu):
    """Case B's cumulative table pp[0..35] (pp[0] = p0), built as C builds it."""
    p0 = math.exp(-mu)
    p = q = p0
    pp = [p0]
    for k in range(1, 36):
        p *= mu / k
        q += p
        pp.append(q)
    return np.array(pp)


class PoisSetup:
    """Cases A and step P's constants for one ``mu >= 10``."""

    __slots__ = ("mu", "s", "d", "big_l", "omega", "b1", "b2", "c3", "c2", "c1", "c0", "c")

    def __init__(self, mu):
        self.mu = mu
        self.s = math.sqrt(mu)
        self.d = 6. * mu * mu
        self.big_l = math.floor(mu - 1.1484)
        self.omega = _M_1_SQRT_2PI / self.s
        b1 = self.b1 = _ONE_24 / mu
        b2 = self.b2 = 0.3 * b1 * b1
        c3 = self.c3 = _ONE_7 * b1 * b2
        self.c2 = b2 - 15. * c3
        self.c1 = b1 - 6. * b2 + 45. * c3
        self.c0 = 1. - b1 + 3. * b2 - 15. * c3
        self.c = 0.1069 / mu


def rpois1(cur, mu, cache=None):
    """R's ``rpois(mu)`` for finite ``mu > 0``."""
    if mu < 10.0:
        pp = cache.get(mu) if cache is not None else None
        if pp is None:
            pp = pois_table(mu).tolist()
            if cache is not None:
                cache[mu] = pp
        while True:
            u = cur.unif()
            if u <= pp[0]:
                return 0.0
            for k in range(1, 36):
                if u <= pp[k]:
                    return float(k)
    g_ = cache.get(mu) if cache is not None else None
    if g_ is None:
        g_ = PoisSetup(mu)
        if cache is not None:
            cache[mu] = g_
    s = g_.s
    g = mu + s * norm_rand1(cur)
    pois = -1.0
    u = 0.0
    if g >= 0.:
        pois = math.floor(g)
        if pois >= g_.big_l:
            return pois
        fk = pois
        difmuk = mu - fk
        u = cur.unif()
        if g_.d * u >= difmuk * difmuk * difmuk:
            return pois
    kflag = 0 if g >= 0. else 1
    first = g >= 0.
    while True:
        if not first:
            e = exp_rand1(cur)
            u = 2 * cur.unif() - 1.
            t = 1.8 + (abs(e) if u >= 0 else -abs(e))
            if not t > -0.6744:
                continue
            pois = math.floor(mu + s * t)
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
            if abs(v) <= 0.25:
                a0, a1, a2, a3, a4, a5, a6, a7 = _PA
                px = fk * v * v * (((((((a7 * v + a6) * v + a5) * v + a4)
                                     * v + a3) * v + a2) * v + a1) * v + a0) - dl
            else:
                px = fk * math.log(1. + v) - difmuk - dl
            py = _M_1_SQRT_2PI / math.sqrt(fk)
        x = (0.5 - difmuk) / s
        x *= x
        fx = -0.5 * x
        fy = g_.omega * (((g_.c3 * x + g_.c2) * x + g_.c1) * x + g_.c0)
        if kflag > 0:
            if g_.c * abs(u) <= py * math.exp(px + e) - fy * math.exp(fx + e):
                break
        else:
            if fy - u * fy <= py * math.exp(px - fx):
                break
    return pois


def pois_small_eval(pp):
    """Case B evaluator (mu < 10): an attempt is one uniform, rejected only above pp[35]."""
    def evaluate(u, m):
        k = np.searchsorted(pp, u[:m], side="left")
        return np.ones(m, dtype=np.int64), k.astype(np.float64), k < pp.size
    return evaluate


def pois_big_eval(g_):
    """mu >= 10 evaluator: steps N, I and S vectorised; the rest leaves the fast path."""
    mu = g_.mu

    def evaluate(u, m):
        g = mu + g_.s * norm_eval(u, m)
        pois = np.floor(g)
        lens = np.zeros(m, dtype=np.int64)
        pos = g >= 0.
        imm = pos & (pois >= g_.big_l)
        lens[imm] = 2
        sq = np.flatnonzero(pos & ~imm)
        difmuk = mu - pois[sq]
        ok = g_.d * u[sq + 2] >= difmuk * difmuk * difmuk
        lens[sq[ok]] = 3
        return lens, pois, np.ones(m, dtype=bool)
    return evaluate


# --- rhyper (rhyper.c) --------------------------------------------------------------

_AL = (0.0, 0.0, 0.69314718055994530941723212145817, 1.79175946922805500081247735838070,
       3.17805383034794561964694160129705, 4.78749174278204599424770093452324,
       6.57925121201010099506017829290394, 8.52516136106541430016553103634712)


def afc(i):
    """``log(i!)``: table up to 7, Stirling beyond, as rhyper.c."""
    if i <= 7:
        return _AL[i]
    di = float(i)
    i2 = di * di
    return (di + 0.5) * math.log(di) - di + _M_LN_SQRT_2PI + (0.0833333333333333 - 0.00277777777777778 / i2) / di


class HyperSetup:
    """rhyper's setup for integer (nn1, nn2, kk) below INT_MAX."""

    def __init__(self, nn1, nn2, kk):
        self.nn1, self.nn2, self.kk = nn1, nn2, kk
        N = self.N = nn1 + float(nn2)
        n1, n2 = (nn1, nn2) if nn1 <= nn2 else (nn2, nn1)
        k = int(N - kk) if float(kk) + kk >= N else kk
        self.n1, self.n2, self.k = n1, n2, k
        m = self.m = int((k + 1.) * (n1 + 1.) / (N + 2.))
        self.minjx = max(0, k - n2)
        self.maxjx = min(n1, k)
        if self.minjx == self.maxjx:
            self.branch = 1
        elif m - self.minjx < 10:
            self.branch = 2
            if k < n2:
                lw = afc(n2) + afc(n1 + n2 - k) - afc(n2 - k) - afc(n1 + n2)
            else:
                lw = afc(n1) + afc(k) - afc(k - n2) - afc(n1 + n2)
            self.w = math.exp(lw + 57.5646273248511421)
        else:
            self.branch = 3
            s = math.sqrt((N - k) * k * n1 * n2 / (N - 1) / N / N)
            d = int(1.5 * s) + .5
            xl = m - d + .5
            xr = m + d + .5
            a = afc(m) + afc(n1 - m) + afc(k - m) + afc(n2 - k + m)
            kl = math.exp(a - afc(int(xl)) - afc(int(n1 - xl)) - afc(int(k - xl))
                          - afc(int(n2 - k + xl)))
            kr = math.exp(a - afc(int(xr - 1)) - afc(int(n1 - xr + 1)) - afc(int(k - xr + 1))
                          - afc(int(n2 - k + xr - 1)))
            lamdl = -math.log(xl * (n2 - k + xl) / (n1 - xl + 1) / (k - xl + 1))
            lamdr = -math.log((n1 - xr + 1) * (k - xr + 1) / xr / (n2 - k + xr))
            p1 = d + d
            p2 = p1 + kl / lamdl
            p3 = p2 + kr / lamdr
            self.a, self.xl, self.xr, self.lamdl, self.lamdr = a, xl, xr, lamdl, lamdr
            self.p1, self.p2, self.p3 = p1, p2, p3

    def finish(self, ix):
        kk, nn1, nn2 = self.kk, self.nn1, self.nn2
        if float(kk) + kk >= self.N:
            return kk - nn2 + ix if nn1 > nn2 else nn1 - ix
        if nn1 > nn2:
            return kk - ix
        return ix


def rhyper1(cur, h):
    """R's ``rhyper`` draw for a :class:`HyperSetup` (NaN after 10000 rejections)."""
    n1, n2, k, m, minjx, maxjx = h.n1, h.n2, h.k, h.m, h.minjx, h.maxjx
    if h.branch == 1:
        return float(h.finish(maxjx))
    if h.branch == 2:
        while True:
            p = h.w
            ix = minjx
            u = cur.unif() * 1e25
            restart = False
            while u > p:
                u -= p
                p *= (float(n1) - ix) * (k - ix)
                ix += 1
                p = p / ix / (n2 - k + ix)
                if ix > maxjx:
                    restart = True
                    break
            if not restart:
                return float(h.finish(ix))
    n_uv = 0
    while True:
        u = cur.unif() * h.p3
        v = cur.unif()
        n_uv += 1
        if n_uv >= 10000:
            return math.nan
        if u < h.p1:
            ix = int(h.xl + u)
        elif u <= h.p2:
            ix = int(h.xl + math.log(v) / h.lamdl)
            if ix < minjx:
                continue
            v = v * (u - h.p1) * h.lamdl
        else:
            ix = int(h.xr - math.log(v) / h.lamdr)
            if ix > maxjx:
                continue
            v = v * (u - h.p2) * h.lamdr
        if m < 100 or ix <= 50:
            f = 1.0
            if m < ix:
                for i in range(m + 1, ix + 1):
                    f = f * (n1 - i + 1) * (k - i + 1) / (n2 - k + i) / i
            elif m > ix:
                for i in range(ix + 1, m + 1):
                    f = f * i * (n2 - k + i) / (n1 - i + 1) / (k - i + 1)
            if v <= f:
                return float(h.finish(ix))
            continue
        y = float(ix)
        y1 = y + 1.0
        ym = y - m
        yn = n1 - y + 1.0
        yk = k - y + 1.0
        nk = n2 - k + y1
        r = -ym / y1
        s = ym / yn
        t = ym / yk
        e = -ym / nk
        g = yn * yk / (y1 * nk) - 1.0
        dg = 1.0 + g if g < 0.0 else 1.0
        gu = g * (1.0 + g * (-0.5 + g / 3.0))
        gl = gu - .25 * (g * g * g * g) / dg
        xm = m + 0.5
        xn = n1 - m + 0.5
        xk = k - m + 0.5
        nm = n2 - k + xm
        ub = (y * gu - m * gl + 0.0034
              + xm * r * (1. + r * (-0.5 + r / 3.0))
              + xn * s * (1. + s * (-0.5 + s / 3.0))
              + xk * t * (1. + t * (-0.5 + t / 3.0))
              + nm * e * (1. + e * (-0.5 + e / 3.0)))
        alv = math.log(v)
        if alv > ub:
            continue
        dr = xm * (r * r * r * r)
        if r < 0.0:
            dr /= (1.0 + r)
        ds = xn * (s * s * s * s)
        if s < 0.0:
            ds /= (1.0 + s)
        dt = xk * (t * t * t * t)
        if t < 0.0:
            dt /= (1.0 + t)
        de = nm * (e * e * e * e)
        if e < 0.0:
            de /= (1.0 + e)
        if alv < ub - 0.25 * (dr + ds + dt + de) + (y + m) * (gl - gu) - 0.0078:
            return float(h.finish(ix))
        if alv <= (h.a - afc(ix) - afc(n1 - ix) - afc(k - ix) - afc(n2 - k + ix)):
            return float(h.finish(ix))

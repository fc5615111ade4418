# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/rbinom.c (GPL-2.0-or-later), (c) The R Core Team
"""R's ``rbinom`` as a function of uniforms.

Each function takes uniforms (already drawn, in R's order) and returns what
R 4.2.2's C code returns for them, operation for operation, so the stream
class only decides how many uniforms an algorithm consumes (inversion for
``n * min(p, 1 - p) < 30``, BTPE otherwise). Every logarithm that decides a
draw is glibc's (see :func:`pycalib_r.rbase._rarith.r_log`).

R equivalent: ``src/nmath/rbinom.c``.

References
----------
Kachitvichyanukul, V. and Schmeiser, B. W. (1988). Binomial random variate
generation. Communications of the ACM 31, 216-222.
"""

from __future__ import annotations

import math

import numpy as np

from ...rbase._rarith import pow_di as _pow_di, r_log as _libm_log

__all__ = []


def _wrap_int32(v):
    """C ``int`` arithmetic wraps; R's rbinom computes ``-k * k`` in int."""
    return ((int(v) + 2**31) % 2**32) - 2**31


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

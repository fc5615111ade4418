# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/toms708.c (GPL-2.0-or-later), (c) The R Core Team; ACM TOMS Algorithm 708 by A. R. DiDonato and A. H. Morris Jr. (terms: docs/provenance.md)
"""TOMS 708's ``bratio`` (R 4.2.2's ``pbeta``), not log scale, for shapes >= 1.

What ``qbinom`` needs for sizes >= 2^31 - 1 (``pbinom`` is ``pbeta(p, x + 1,
n - x)``): every route ``bratio`` takes for shapes of at least 1 (``bpser``,
``bup``, ``bgrat``, ``bfrac``, ``basym`` and their helpers), ported
operation for operation; ``math``'s ``exp``, ``log``, ``log1p``, ``pow`` and
``sqrt`` are the C library's. :func:`bratio_w` returns None where R's code
warns or retries on the log scale (a probability within ``DBL_MIN`` of 0 or
1), and the caller uses another implementation there. The routes for shapes
below 1 (``fpser``, ``apser``) and ``grat_r``'s ``erf`` case (shape 1/2) are
not ported.

R equivalent: ``bratio()`` and its helpers in ``src/nmath/toms708.c``.

References
----------
Didonato, A. R. and Morris, A. H. (1992). Algorithm 708: Significant digit
computation of the incomplete beta function ratios. ACM Transactions on
Mathematical Software 18, 360-373.
"""

from __future__ import annotations

import math

_E0 = 1.12837916709551  # 2 / sqrt(pi)
_E1 = .353553390593274  # 2^(-3/2)
_NUM_IT = 20


def rlog1(x):
    """``x - log(1 + x)``."""
    a, b = .0566749439387324, .0456512608815524
    p0, p1, p2 = .333333333333333, -.224696413112536, .00620886815375787
    q1, q2 = -1.27408923933623, .354508718369557
    if x < -0.39 or x > 0.57:
        w = x + 0.5 + 0.5
        return x - math.log(w)
    if x < -0.18:
        h = x + .3
        h /= .7
        w1 = a - h * .3
    elif x > 0.18:
        h = x * .75 - .25
        w1 = b + h / 3.
    else:
        h = x
        w1 = 0.
    r = h / (h + 2.)
    t = r * r
    w = ((p2 * t + p1) * t + p0) / ((q2 * t + q1) * t + 1.)
    return t * 2. * (1. / (1. - r) - r * w) + w1


_EA = (7.7105849500132e-5, -.00133733772997339, .0323076579225834, .0479137145607681, .128379167095513)
_EB = (.00301048631703895, .0538971687740286, .375795757275549)
_EP = (-1.36864857382717e-7, .564195517478974, 7.21175825088309, 43.1622272220567,
       152.98928504694, 339.320816734344, 451.918953711873, 300.459261020162)
_EQ = (1., 12.7827273196294, 77.0001529352295, 277.585444743988, 638.980264465631,
       931.35409485061, 790.950925327898, 300.459260956983)
_ER = (2.10144126479064, 26.2370141675169, 21.3688200555087, 4.6580782871847, .282094791773523)
_ES = (94.153775055546, 187.11481179959, 99.0191814623914, 18.0124575948747)


_C0, _C1, _C2 = .0833333333333333, -.00277777777760991, 7.9365066682539e-4
_C3, _C4, _C5 = -5.9520293135187e-4, 8.37308034031215e-4, -.00165322962780713


def _del_series(x, t, c, b):
    """``del(b) - del(a + b)`` as bcorr and algdiv sum it: ``s_n = (1 - x^n) / (1 - x)``."""
    x2 = x * x
    s3 = x + x2 + 1.
    s5 = x + x2 * s3 + 1.
    s7 = x + x2 * s5 + 1.
    s9 = x + x2 * s7 + 1.
    s11 = x + x2 * s9 + 1.
    w = ((((_C5 * s11 * t + _C4 * s9) * t + _C3 * s7) * t + _C2 * s5) * t + _C1 * s3) * t + _C0
    w *= c / b
    return w


def bcorr(a0, b0):
    """``del(a0) + del(b0) - del(a0 + b0)`` for ``a0, b0 >= 8``."""
    a = min(a0, b0)
    b = max(a0, b0)
    h = a / b
    r1 = 1. / b
    w = _del_series(1. / (h + 1.), r1 * r1, h / (h + 1.), b)
    r1 = 1. / a
    t = r1 * r1
    return (((((_C5 * t + _C4) * t + _C3) * t + _C2) * t + _C1) * t + _C0) / a + w


def basym(a, b, lam, eps):
    """``I_x(a, b)`` for large ``a, b`` (``lambda = (a + b) y - b >= 0``), not log scale."""
    a0 = [0.0] * (_NUM_IT + 1)
    b0 = [0.0] * (_NUM_IT + 1)
    c = [0.0] * (_NUM_IT + 1)
    d = [0.0] * (_NUM_IT + 1)
    f = a * rlog1(-lam / a) + b * rlog1(lam / b)
    t = math.exp(-f)
    if t == 0.:
        return 0.
    z0 = math.sqrt(f)
    z = z0 / _E1 * 0.5
    z2 = f + f
    if a < b:
        h = a / b
        r0 = 1. / (h + 1.)
        r1 = (b - a) / b
        w0 = 1. / math.sqrt(a * (h + 1.))
    else:
        h = b / a
        r0 = 1. / (h + 1.)
        r1 = (b - a) / a
        w0 = 1. / math.sqrt(b * (h + 1.))
    a0[0] = r1 * .66666666666666663
    c[0] = a0[0] * -0.5
    d[0] = -c[0]
    j0 = 0.5 / _E0 * erfc1(1, z0)
    j1 = _E1
    total = j0 + d[0] * w0 * j1
    s = 1.
    h2 = h * h
    hn = 1.
    w = w0
    znm1 = z
    zn = z2
    for n in range(2, _NUM_IT + 1, 2):
        hn *= h2
        a0[n - 1] = r0 * 2. * (h * hn + 1.) / (n + 2.)
        np1 = n + 1
        s += hn
        a0[np1 - 1] = r1 * 2. * s / (n + 3.)
        for i in range(n, np1 + 1):
            r = (i + 1.) * -0.5
            b0[0] = r * a0[0]
            for m in range(2, i + 1):
                bsum = 0.
                for j in range(1, m):
                    mmj = m - j
                    bsum += (j * r - mmj) * a0[j - 1] * b0[mmj - 1]
                b0[m - 1] = r * a0[m - 1] + bsum / m
            c[i - 1] = b0[i - 1] / (i + 1.)
            dsum = 0.
            for j in range(1, i):
                dsum += d[i - j - 1] * c[j - 1]
            d[i - 1] = -(dsum + c[i - 1])
        j0 = _E1 * znm1 + (n - 1.) * j0
        j1 = _E1 * zn + n * j1
        znm1 = z2 * znm1
        zn = z2 * zn
        w *= w0
        t0 = d[n - 1] * w * j0
        w *= w0
        t1 = d[np1 - 1] * w * j1
        total += t0 + t1
        if abs(t0) + abs(t1) <= eps * total:
            break
    u = math.exp(-bcorr(a, b))
    return _E0 * t * u * total


def bratio_basym(a, b, x, y):
    """``bratio``'s ``w = I_x(a, b)`` (not log) when it takes ``basym``, else None.

    ``y`` is ``1 - x`` as the caller computed it (``pbeta_raw``'s ``0.5 - x + 0.5``).
    """
    eps = 1e-15  # max(2 * d1mach(3), 1e-15)
    if not (min(a, b) > 1.) or not math.isfinite(a + b):
        return None
    lam = (a + b) * y - b if a > b else a - (a + b) * x
    swap = lam < 0.
    if swap:
        lam = -lam
        a0, b0 = b, a
    else:
        a0, b0 = a, b
    if b0 < 40.:
        return None
    if a0 > b0:
        if b0 <= 100. or lam > b0 * 0.03:
            return None
    elif a0 <= 100. or lam > a0 * 0.03:
        return None
    w = basym(a0, b0, lam, eps * 100.)
    return 0.5 - w + 0.5 if swap else w


# --- the other routes of bratio (not log scale), for bratio_w() ---------------------

_LNB = .69314718055995


def exparg(l):
    """Largest (l = 0) / most negative (l = 1) argument of a non-overflowing exp, fuzzed."""
    m = 1024 if l == 0 else -1021 - 1
    return m * _LNB * .99999


def esum(mu, x):
    """``exp(mu + x)``."""
    if x > 0.:
        if mu > 0:
            return math.exp(float(mu)) * math.exp(x)
        w = mu + x
        if w < 0.:
            return math.exp(float(mu)) * math.exp(x)
    else:
        if mu < 0:
            return math.exp(float(mu)) * math.exp(x)
        w = mu + x
        if w > 0.:
            return math.exp(float(mu)) * math.exp(x)
    return math.exp(w)


def rexpm1(x):
    """``exp(x) - 1``."""
    p1, p2 = 9.14041914819518e-10, .0238082361044469
    q1, q2, q3, q4 = -.499999999085958, .107141568980644, -.0119041179760821, 5.95130811860248e-4
    if abs(x) <= 0.15:
        return x * (((p2 * x + p1) * x + 1.) / ((((q4 * x + q3) * x + q2) * x + q1) * x + 1.))
    w = math.exp(x)
    if x > 0.:
        return w * (0.5 - 1. / w + 0.5)
    return w - 0.5 - 0.5


def alnrel(a):
    """``log(1 + a)``."""
    if abs(a) > 0.375:
        return math.log(1. + a)
    p1, p2, p3 = -1.29418923021993, .405303492862024, -.0178874546012214
    q1, q2, q3 = -1.62752256355323, .747811014037616, -.0845104217945565
    t = a / (a + 2.)
    t2 = t * t
    w = (((p3 * t2 + p2) * t2 + p1) * t2 + 1.) / (((q3 * t2 + q2) * t2 + q1) * t2 + 1.)
    return t * 2. * w


def erfc1(ind, x):
    """``erfc(x)`` (ind = 0) or ``exp(x^2) * erfc(x)`` (ind != 0)."""
    a, b, p, q, r, s = _EA, _EB, _EP, _EQ, _ER, _ES
    ax = abs(x)
    if ax <= 0.5:
        t = x * x
        top = (((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4] + 1.
        bot = ((b[0] * t + b[1]) * t + b[2]) * t + 1.
        ret = 0.5 - x * (top / bot) + 0.5
        if ind != 0:
            ret = math.exp(t) * ret
        return ret
    if ax <= 4.:
        top = ((((((p[0] * ax + p[1]) * ax + p[2]) * ax + p[3]) * ax + p[4]) * ax
                + p[5]) * ax + p[6]) * ax + p[7]
        bot = ((((((q[0] * ax + q[1]) * ax + q[2]) * ax + q[3]) * ax + q[4]) * ax
                + q[5]) * ax + q[6]) * ax + q[7]
        ret = top / bot
    else:
        if x <= -5.6:
            return math.exp(x * x) * 2. if ind != 0 else 2.
        if ind == 0 and (x > 100. or x * x > -exparg(1)):
            return 0.
        t = 1. / (x * x)
        top = (((r[0] * t + r[1]) * t + r[2]) * t + r[3]) * t + r[4]
        bot = (((s[0] * t + s[1]) * t + s[2]) * t + s[3]) * t + 1.
        ret = (.564189583547756 - t * top / bot) / ax
    if ind != 0:
        if x < 0.:
            ret = math.exp(x * x) * 2. - ret
    else:
        w = x * x
        t = w
        e = w - t
        ret = (0.5 - e + 0.5) * math.exp(-t) * ret
        if x < 0.:
            ret = 2. - ret
    return ret


def gam1(a):
    """``1 / gamma(a + 1) - 1`` for ``-0.5 <= a <= 1.5``."""
    t = a
    d = a - 0.5
    if d > 0.:
        t = d - 0.5
    if t < 0.:
        r = (-.422784335098468, -.771330383816272, -.244757765222226, .118378989872749,
             9.30357293360349e-4, -.0118290993445146, .00223047661158249, 2.66505979058923e-4,
             -1.32674909766242e-4)
        s1, s2 = .273076135303957, .0559398236957378
        top = (((((((r[8] * t + r[7]) * t + r[6]) * t + r[5]) * t + r[4]) * t + r[3]) * t + r[2])
               * t + r[1]) * t + r[0]
        bot = (s2 * t + s1) * t + 1.
        w = top / bot
        if d > 0.:
            return t * w / a
        return a * (w + 0.5 + 0.5)
    if t == 0:
        return 0.
    p = (.577215664901533, -.409078193005776, -.230975380857675, .0597275330452234,
         .0076696818164949, -.00514889771323592, 5.89597428611429e-4)
    q = (1., .427569613095214, .158451672430138, .0261132021441447, .00423244297896961)
    top = (((((p[6] * t + p[5]) * t + p[4]) * t + p[3]) * t + p[2]) * t + p[1]) * t + p[0]
    bot = (((q[4] * t + q[3]) * t + q[2]) * t + q[1]) * t + 1.
    w = top / bot
    if d > 0.:
        return t / a * (w - 0.5 - 0.5)
    return a * w


def gamln1(a):
    """``log(gamma(1 + a))`` for ``-0.2 <= a <= 1.25``."""
    if a < 0.6:
        p0, p1, p2, p3 = .577215664901533, .844203922187225, -.168860593646662, -.780427615533591
        p4, p5, p6 = -.402055799310489, -.0673562214325671, -.00271935708322958
        q1, q2, q3, q4 = 2.88743195473681, 3.12755088914843, 1.56875193295039, .361951990101499
        q5, q6 = .0325038868253937, 6.67465618796164e-4
        w = (((((((p6 * a + p5) * a + p4) * a + p3) * a + p2) * a + p1) * a + p0)
             / ((((((q6 * a + q5) * a + q4) * a + q3) * a + q2) * a + q1) * a + 1.))
        return -a * w
    r0, r1, r2, r3 = .422784335098467, .848044614534529, .565221050691933, .156513060486551
    r4, r5 = .017050248402265, 4.97958207639485e-4
    s1, s2, s3, s4, s5 = 1.24313399877507, .548042109832463, .10155218743983, .00713309612391, 1.16165475989616e-4
    x = a - 0.5 - 0.5
    w = ((((((r5 * x + r4) * x + r3) * x + r2) * x + r1) * x + r0)
         / (((((s5 * x + s4) * x + s3) * x + s2) * x + s1) * x + 1.))
    return x * w


def gamln(a):
    """``log(gamma(a))`` for ``a > 0``."""
    if a <= 0.8:
        return gamln1(a) - math.log(a)
    if a <= 2.25:
        return gamln1(a - 0.5 - 0.5)
    if a < 10.:
        n = int(a - 1.25)
        t = a
        w = 1.
        for _ in range(n):
            t += -1.
            w *= t
        return gamln1(t - 1.) + math.log(w)
    t = 1. / (a * a)
    w = (((((_C5 * t + _C4) * t + _C3) * t + _C2) * t + _C1) * t + _C0) / a
    return .418938533204673 + w + (a - 0.5) * (math.log(a) - 1.)


def algdiv(a, b):
    """``log(gamma(b) / gamma(a + b))`` for ``b >= 8``."""
    if a > b:
        h = b / a
        c = 1. / (h + 1.)
        x = h / (h + 1.)
        d = a + (b - 0.5)
    else:
        h = a / b
        c = h / (h + 1.)
        x = 1. / (h + 1.)
        d = b + (a - 0.5)
    w = _del_series(x, 1. / (b * b), c, b)
    u = d * alnrel(a / b)
    v = a * (math.log(b) - 1.)
    if u > v:
        return w - v - u
    return w - u - v


def gsumln(a, b):
    """``log(gamma(a + b))`` for ``1 <= a, b <= 2``."""
    x = a + b - 2.
    if x <= 0.25:
        return gamln1(x + 1.)
    if x <= 1.25:
        return gamln1(x) + alnrel(x)
    return gamln1(x - 1.) + math.log(x * (x + 1.))


def betaln(a0, b0):
    """``log(beta(a0, b0))``."""
    a = min(a0, b0)
    b = max(a0, b0)
    if a >= 8.:
        w = bcorr(a, b)
        h = a / b
        u = -(a - 0.5) * math.log(h / (h + 1.))
        v = b * alnrel(h)
        if u > v:
            return math.log(b) * -0.5 + .918938533204673 + w - v - u
        return math.log(b) * -0.5 + .918938533204673 + w - u - v
    if a < 1.:
        if b < 8.:
            return gamln(a) + (gamln(b) - gamln(a + b))
        return gamln(a) + algdiv(a, b)
    if a < 2.:
        if b <= 2.:
            return gamln(a) + gamln(b) - gsumln(a, b)
        if b >= 8.:
            return gamln(a) + algdiv(a, b)
        w = 0.
    elif b <= 1e3:
        n = int(a - 1.)
        w = 1.
        for _ in range(n):
            a += -1.
            h = a / b
            w *= h / (h + 1.)
        w = math.log(w)
        if b >= 8.:
            return w + gamln(a) + algdiv(a, b)
    else:
        n = int(a - 1.)
        w = 1.
        for _ in range(n):
            a += -1.
            w *= a / (a / b + 1.)
        return math.log(w) - n * math.log(b) + (gamln(a) + algdiv(a, b))
    # 1 < a <= b < 8: reduction of b
    n = int(b - 1.)
    z = 1.
    for _ in range(n):
        b += -1.
        z *= b / (a + b)
    return w + math.log(z) + (gamln(a) + (gamln(b) - gsumln(a, b)))


def _lnxy(x, y):
    if x <= .375:
        return math.log(x), alnrel(-x)
    if y > .375:
        return math.log(x), math.log(y)
    return alnrel(-y), math.log(y)


def _gam1_ratio(a, b):
    """``gamma(a + b) / (gamma(a + 1) gamma(b + 1))``-type factor of bpser/brcmp1 for shapes <= 1."""
    apb = a + b
    z = (gam1(a + b - 1.) + 1.) / apb if apb > 1. else gam1(apb) + 1.
    return (gam1(a) + 1.) * (gam1(b) + 1.) / z


def _reduced(a0, b0):
    """bpser/brcmp1's reduction of ``1 < b0 < 8`` for ``a0 < 1``: (u, b0 - n - 1, t)."""
    u = gamln1(a0)
    n = int(b0 - 1.)
    if n >= 1:
        c = 1.
        for _ in range(n):
            b0 += -1.
            c *= b0 / (a0 + b0)
        u += math.log(c)
    b0 += -1.
    apb = a0 + b0
    t = (gam1(a0 + b0 - 1.) + 1.) / apb if apb > 1. else gam1(apb) + 1.
    return u, b0, t


def brcmp1(mu, a, b, x, y):
    """``exp(mu) * x^a * y^b / beta(a, b)``."""
    a0 = min(a, b)
    if a0 < 8.:
        lnx, lny = _lnxy(x, y)
        z = a * lnx + b * lny
        if a0 >= 1.:
            z -= betaln(a, b)
            return esum(mu, z)
        b0 = max(a, b)
        if b0 >= 8.:
            u = gamln1(a0) + algdiv(a0, b0)
            return a0 * esum(mu, z - u)
        if b0 <= 1.:
            ans = esum(mu, z)
            if ans == 0.:
                return ans
            return ans * (a0 * _gam1_ratio(a, b)) / (a0 / b0 + 1.)
        u, b0, t = _reduced(a0, b0)
        z -= u
        return a0 * esum(mu, z) * (gam1(b0) + 1.) / t
    if a > b:
        h = b / a
        x0 = 1. / (h + 1.)
        y0 = h / (h + 1.)
        lam = (a + b) * y - b
    else:
        h = a / b
        x0 = h / (h + 1.)
        y0 = 1. / (h + 1.)
        lam = a - (a + b) * x
    e = -lam / a
    u = e - math.log(x / x0) if abs(e) > 0.6 else rlog1(e)
    e = lam / b
    v = e - math.log(y / y0) if abs(e) > 0.6 else rlog1(e)
    z = esum(mu, -(a * u + b * v))
    return .398942280401433 * math.sqrt(b * x0) * z * math.exp(-bcorr(a, b))


def brcomp(a, b, x, y):
    """``x^a * y^b / beta(a, b)``: C's brcomp is brcmp1 with ``mu = 0`` line for
    line, and ``esum(0, z)`` is ``exp(z)``."""
    if x == 0. or y == 0.:
        return 0.
    return brcmp1(0, a, b, x, y)


def bfrac(a, b, x, y, lam, eps):
    """Continued fraction for ``I_x(a, b)``, ``a, b > 1`` (None where R would warn)."""
    if not math.isfinite(lam):
        return None
    brc = brcomp(a, b, x, y)
    if math.isnan(brc):
        return None
    if brc == 0.:
        return 0.
    c = lam + 1.
    c0 = b / a
    c1 = 1. / a + 1.
    yp1 = y + 1.
    n = 0.
    p = 1.
    s = a + 1.
    an = 0.
    bn = 1.
    anp1 = 1.
    bnp1 = c / c1
    r = c1 / c
    while True:
        n += 1.
        t = n / a
        w = n * (b - n) * x
        e = a / s
        alpha = p * (p + c0) * e * e * (w * x)
        e = (t + 1.) / (c1 + t + t)
        beta = n + w / s + e * (c + n * yp1)
        p = t + 1.
        s += 2.
        t = alpha * an + beta * anp1
        an = anp1
        anp1 = t
        t = alpha * bn + beta * bnp1
        bn = bnp1
        bnp1 = t
        r0 = r
        r = anp1 / bnp1
        if abs(r - r0) <= eps * r:
            break
        an /= bnp1
        bn /= bnp1
        anp1 = r
        bnp1 = 1.
        if not n < 10000:
            return None  # R warns of non-convergence
    return brc * r


def bpser(a, b, x, eps):
    """Power series for ``I_x(a, b)`` (b <= 1 or b x <= 0.7); None where R would warn."""
    if x == 0.:
        return 0.
    a0 = min(a, b)
    if a0 >= 1.:
        z = a * math.log(x) - betaln(a, b)
        ans = math.exp(z) / a
    else:
        b0 = max(a, b)
        if b0 < 8.:
            if b0 <= 1.:
                ans = math.pow(x, a)
                if ans == 0.:
                    return ans
                ans *= _gam1_ratio(a, b) * (b / (a + b))
            else:
                u, b0, t = _reduced(a0, b0)
                z = a * math.log(x) - u
                ans = math.exp(z) * (a0 / a) * (gam1(b0) + 1.) / t
        else:
            u = gamln1(a0) + algdiv(a0, b0)
            z = a * math.log(x) - u
            ans = a0 / a * math.exp(z)
    if ans == 0. or a <= eps * 0.1:
        return ans
    tol = eps / a
    n = 0.
    total = 0.
    c = 1.
    while True:
        n += 1.
        c *= (0.5 - b / n + 0.5) * x
        w = c / (a + n)
        total += w
        if not (n < 1e7 and abs(w) > tol):
            break
    if abs(w) > tol and abs(a * total + 1.) != 1.:
        return None  # R warns: did not converge
    if a * total > -1.:
        return ans * (a * total + 1.)
    return 0.


def bup(a, b, x, y, n, eps):
    """``I_x(a, b) - I_x(a + n, b)`` for a whole ``n >= 1``."""
    apb = a + b
    ap1 = a + 1.
    if n > 1 and a >= 1. and apb >= ap1 * 1.1:
        mu = int(abs(exparg(1)))
        k = int(exparg(0))
        if mu > k:
            mu = k
        d = math.exp(-float(mu))
    else:
        mu = 0
        d = 1.
    ret = brcmp1(mu, a, b, x, y) / a
    if n == 1 or ret == 0.:
        return ret
    nm1 = n - 1
    w = d
    k = 0
    if b > 1.:
        if y > 1e-4:
            r = (b - 1.) * x / y - a
            if r >= 1.:
                k = int(r) if r < nm1 else nm1
        else:
            k = nm1
        for i in range(k):
            li = float(i)
            d *= (apb + li) / (ap1 + li) * x
            w += d
    for i in range(k, nm1):
        li = float(i)
        d *= (apb + li) / (ap1 + li) * x
        w += d
        if d <= eps * w:
            break
    return ret * w


def grat_r(a, x, log_r, eps):
    """``Q(a, x) / r`` with ``r = exp(log_r)``, ``a <= 1`` (None for the erf route)."""
    if a * x == 0.:
        return math.exp(-log_r) if x <= a else 0.
    if a == 0.5:
        return None  # erf__ route, not met by the binomial (whole-number shapes)
    if x < 1.1:
        an = 3.
        c = x
        total = x / (a + 3.)
        tol = eps * 0.1 / (a + 1.)
        while True:
            an += 1.
            c *= -(x / an)
            t = c / (a + an)
            total += t
            if not abs(t) > tol:
                break
        j = a * x * ((total / 6. - 0.5 / (a + 2.)) * x + 1. / (a + 1.))
        z = a * math.log(x)
        h = gam1(a)
        g = h + 1.
        if (x >= 0.25 and (a < x / 2.59)) or (z > -0.13394):
            l = rexpm1(z)
            q = ((l + 0.5 + 0.5) * j - l) * g - h
            if q <= 0.:
                return 0.
            return q * math.exp(-log_r)
        p = math.exp(z) * g * (0.5 - j + 0.5)
        return (0.5 - p + 0.5) * math.exp(-log_r)
    a2n_1 = 1.
    a2n = 1.
    b2n_1 = x
    b2n = x + (1. - a)
    c = 1.
    while True:
        a2n_1 = x * a2n + c * a2n_1
        b2n_1 = x * b2n + c * b2n_1
        am0 = a2n_1 / b2n_1
        c += 1.
        c_a = c - a
        a2n = a2n_1 + c_a * a2n
        b2n = b2n_1 + c_a * b2n
        an0 = a2n / b2n
        if not abs(an0 - am0) >= eps * an0:
            break
    return an0


def bgrat(a, b, x, y, w, eps):
    """``w + I_x(a, b)`` for ``a >= 15``, ``b <= 1`` (not log scale); None on R's
    error codes (R warns or retries on the log scale there)."""
    bm1 = b - 0.5 - 0.5
    nu = a + bm1 * 0.5
    lnx = math.log(x) if y > 0.375 else alnrel(-y)
    z = -nu * lnx
    if b * z == 0.:
        return None
    log_r = math.log(b) + math.log1p(gam1(b)) + b * math.log(z) + nu * lnx
    log_u = log_r - (algdiv(b, a) + b * math.log(nu))
    u = math.exp(log_u)
    if log_u == -math.inf:
        return None
    u_0 = u == 0.
    l = 0. if w == 0. else math.exp(math.log(w) - log_u)
    q_r = grat_r(b, z, log_r, eps)
    if q_r is None:
        return None
    v = 0.25 / (nu * nu)
    t2 = lnx * 0.25 * lnx
    j = q_r
    total = j
    t = 1.
    cn = 1.
    n2 = 0.
    c = [0.0] * 30
    d = [0.0] * 30
    for n in range(1, 31):
        bp2n = b + n2
        j = (bp2n * (bp2n + 1.) * j + (z + bp2n + 1.) * t) * v
        n2 += 2.
        t *= t2
        cn /= n2 * (n2 + 1.)
        nm1 = n - 1
        c[nm1] = cn
        s = 0.
        if n > 1:
            coef = b - n
            for i in range(1, nm1 + 1):
                s += coef * c[i - 1] * d[nm1 - i]
                coef += b
        d[nm1] = bm1 * cn + s / n
        dj = d[nm1] * j
        total += dj
        if total <= 0.:
            return None
        if abs(dj) <= eps * (total + l):
            break
        if n == 30:
            return None
    return w + (math.exp(log_u + math.log(total)) if u_0 else u * total)


def bratio_w(a, b, x, y):
    """``bratio``'s ``w = I_x(a, b)`` (not log scale) for ``a, b >= 1``,
    ``0 < x < 1``, ``y = 1 - x``; None on a route not ported (R's log-scale
    retries, its warnings), where the caller uses another implementation."""
    eps = 1e-15
    if not (a >= 1. and b >= 1. and 0. < x < 1.) or not math.isfinite(a + b):
        return None
    if min(a, b) <= 1.:
        swap = x > 0.5
        a0, b0, x0, y0 = (b, a, y, x) if swap else (a, b, x, y)
        w1 = None
        if max(a0, b0) > 1.:
            if b0 <= 1.:
                w = bpser(a0, b0, x0, eps)
            elif x0 >= 0.29:
                w1 = bpser(b0, a0, y0, eps)
                if w1 is None:
                    return None
                w = 0.5 - w1 + 0.5
            elif x0 < 0.1 and math.pow(x0 * b0, a0) <= 0.7:
                w = bpser(a0, b0, x0, eps)
            else:
                if b0 > 15.:
                    w1 = 0.
                else:
                    w1 = bup(b0, a0, y0, x0, 20, eps)
                    b0 += 20
                w1 = bgrat(b0, a0, y0, x0, w1, 15 * eps)
                if w1 is None or w1 == 0 or w1 < 2.2250738585072014e-308:
                    return None  # R's log-scale retry
                w = 0.5 - w1 + 0.5
        else:  # a = b = 1
            w = bpser(a0, b0, x0, eps)
        if w is None:
            return None
        if w1 is None:
            w1 = 0.5 - w + 0.5
        return w1 if swap else w
    lam = (a + b) * y - b if a > b else a - (a + b) * x
    swap = lam < 0.
    if swap:
        lam = -lam
        a0, b0, x0, y0 = b, a, y, x
    else:
        a0, b0, x0, y0 = a, b, x, y
    if b0 < 40.:
        if b0 * x0 <= 0.7:
            w = bpser(a0, b0, x0, eps)
        else:
            n = int(b0)
            b0 -= n
            if b0 == 0.:
                n -= 1
                b0 = 1.
            w = bup(b0, a0, y0, x0, n, eps)
            if x0 <= 0.7:
                extra = bpser(a0, b0, x0, eps)
                if extra is None:
                    return None
                w += extra
            else:
                if a0 <= 15.:
                    w += bup(a0, b0, x0, y0, 20, eps)
                    a0 += 20
                w = bgrat(a0, b0, x0, y0, w, 15 * eps)
    elif (a0 > b0 and (b0 <= 100. or lam > b0 * 0.03)) or (a0 <= b0 and (a0 <= 100. or lam > a0 * 0.03)):
        w = bfrac(a0, b0, x0, y0, lam, eps * 15.)
    else:
        w = basym(a0, b0, lam, eps * 100.)
    if w is None:
        return None
    w1 = 0.5 - w + 0.5
    return w1 if swap else w

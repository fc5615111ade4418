"""The part of TOMS 708's ``bratio`` (R 4.2.2's ``pbeta``) that ``qbinom`` meets
for very large sizes: both shapes above 100 and ``lambda <= 0.03 *
min(a, b)``, where ``bratio`` uses the asymptotic expansion ``basym``.

Ported operation for operation (``basym``, ``rlog1``, ``erfc1`` with
``ind = 1``, ``bcorr``); ``math``'s ``exp``, ``log`` and ``sqrt`` are the C
library's. :func:`bratio_basym` returns None outside that route, and the
caller uses another implementation there.

R equivalent: ``bratio()``, ``basym()``, ``rlog1()``, ``erfc1()``,
``bcorr()`` in ``src/nmath/toms708.c``.

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


def erfc1_scaled(x):
    """``erfc1(1, x)`` = ``exp(x^2) * erfc(x)`` for ``x >= 0``."""
    a, b, p, q, r, s = _EA, _EB, _EP, _EQ, _ER, _ES
    ax = abs(x)
    if ax <= 0.5:
        t = x * x
        top = (((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4] + 1.
        bot = ((b[0] * t + b[1]) * t + b[2]) * t + 1.
        return math.exp(t) * (0.5 - x * (top / bot) + 0.5)
    if ax <= 4.:
        top = ((((((p[0] * ax + p[1]) * ax + p[2]) * ax + p[3]) * ax + p[4]) * ax
                + p[5]) * ax + p[6]) * ax + p[7]
        bot = ((((((q[0] * ax + q[1]) * ax + q[2]) * ax + q[3]) * ax + q[4]) * ax
                + q[5]) * ax + q[6]) * ax + q[7]
        return top / bot
    t = 1. / (x * x)
    top = (((r[0] * t + r[1]) * t + r[2]) * t + r[3]) * t + r[4]
    bot = (((s[0] * t + s[1]) * t + s[2]) * t + s[3]) * t + 1.
    return (.564189583547756 - t * top / bot) / ax


def bcorr(a0, b0):
    """``del(a0) + del(b0) - del(a0 + b0)`` for ``a0, b0 >= 8``."""
    c0, c1, c2 = .0833333333333333, -.00277777777760991, 7.9365066682539e-4
    c3, c4, c5 = -5.9520293135187e-4, 8.37308034031215e-4, -.00165322962780713
    a = min(a0, b0)
    b = max(a0, b0)
    h = a / b
    c = h / (h + 1.)
    x = 1. / (h + 1.)
    x2 = x * x
    s3 = x + x2 + 1.
    s5 = x + x2 * s3 + 1.
    s7 = x + x2 * s5 + 1.
    s9 = x + x2 * s7 + 1.
    s11 = x + x2 * s9 + 1.
    r1 = 1. / b
    t = r1 * r1
    w = ((((c5 * s11 * t + c4 * s9) * t + c3 * s7) * t + c2 * s5) * t + c1 * s3) * t + c0
    w *= c / b
    r1 = 1. / a
    t = r1 * r1
    return (((((c5 * t + c4) * t + c3) * t + c2) * t + c1) * t + c0) / a + w


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
    j0 = 0.5 / _E0 * erfc1_scaled(z0)
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

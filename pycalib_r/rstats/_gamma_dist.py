# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/{pgamma,qgamma,dgamma,pchisq,qchisq}.c, dpq.h (GPL-2.0-or-later), (c) The R Core Team, 2005-6 Morten Welinder (pgamma.c); qgamma.c after Algorithm AS 91 (c) Royal Statistical Society
"""R's ``pgamma``/``qgamma`` and ``pchisq``/``qchisq`` as scalar functions, bit for bit.

``pgamma_raw`` is Morten Welinder's algorithm as R 4.2.2 has it (the small-x
series, the upper and lower series, the continued fraction, the Poisson
asymptotic expansion); ``qgamma`` is AS 91 (``qchisq_appr`` plus its seven-term
Taylor iteration) followed by R's final Newton steps on the log scale. Every
operation is in C's order, with the ``dpq.h`` macros written out and glibc's
``exp``/``log``/``log1p``/``expm1``/``pow`` (through
:mod:`._gamma_base`'s C-faithful wrappers). R uses no ``long double`` on these
paths. ``tests/rstats/test_nmath_gamma.py`` compares every value with R's.

These are private: the validation statistics (``val_prob``'s ``U:p``,
``hoslem_test``'s p-value, ``cal_intercept_slope``'s profile ``zmax``) call
them where R calls ``pchisq`` and ``qchisq``.

R equivalent: ``pgamma.c``, ``qgamma.c``, ``dgamma.c``, ``pchisq.c``,
``qchisq.c`` of R 4.2.2's ``src/nmath``.

References
----------
Best, D. J. and Roberts, D. E. (1975). Algorithm AS 91: The percentage points
of the chi-squared distribution. Applied Statistics 24, 385-388.

Abramowitz, M. and Stegun, I. A. (1972). Handbook of Mathematical Functions,
6.5.29 and 26.2.12.
"""

from __future__ import annotations

import math

from ..rbase import _warn
from ._gamma_base import (DBL_EPSILON, DBL_MIN, INF, M_LN2, NAN, _SCALEFACTOR, c_exp, c_expm1,
                          c_floor, c_log, c_log1p, c_pow, dnorm, dpois_raw, dt_qiv, lgammafn,
                          log1_exp, log1pmx, logcf, pnorm, qnorm)

__all__ = []

_M_CUTOFF = M_LN2 * 1024 / DBL_EPSILON  # M_LN2 * DBL_MAX_EXP / DBL_EPSILON
_EULERS_CONST = 0.5772156649015328606065120900824024
# (zeta(i + 2) - 1) / (i + 2), i = 0:39
_LG1P_COEFFS = (
    0.3224670334241132182362075833230126e-0, 0.6735230105319809513324605383715000e-1,
    0.2058080842778454787900092413529198e-1, 0.7385551028673985266273097291406834e-2,
    0.2890510330741523285752988298486755e-2, 0.1192753911703260977113935692828109e-2,
    0.5096695247430424223356548135815582e-3, 0.2231547584535793797614188036013401e-3,
    0.9945751278180853371459589003190170e-4, 0.4492623673813314170020750240635786e-4,
    0.2050721277567069155316650397830591e-4, 0.9439488275268395903987425104415055e-5,
    0.4374866789907487804181793223952411e-5, 0.2039215753801366236781900709670839e-5,
    0.9551412130407419832857179772951265e-6, 0.4492469198764566043294290331193655e-6,
    0.2120718480555466586923135901077628e-6, 0.1004322482396809960872083050053344e-6,
    0.4769810169363980565760193417246730e-7, 0.2271109460894316491031998116062124e-7,
    0.1083865921489695409107491757968159e-7, 0.5183475041970046655121248647057669e-8,
    0.2483674543802478317185008663991718e-8, 0.1192140140586091207442548202774640e-8,
    0.5731367241678862013330194857961011e-9, 0.2759522885124233145178149692816341e-9,
    0.1330476437424448948149715720858008e-9, 0.6422964563838100022082448087644648e-10,
    0.3104424774732227276239215783404066e-10, 0.1502138408075414217093301048780668e-10,
    0.7275974480239079662504549924814047e-11, 0.3527742476575915083615072228655483e-11,
    0.1711991790559617908601084114443031e-11, 0.8315385841420284819798357793954418e-12,
    0.4042200525289440065536008957032895e-12, 0.1966475631096616490411045679010286e-12,
    0.9573630387838555763782200936508615e-13, 0.4664076026428374224576492565974577e-13,
    0.2273736960065972320633279596737272e-13, 0.1109139947083452201658320007192334e-13)
_LG1P_C = 0.2273736845824652515226821577978691e-12  # zeta(N + 2) - 1


def lgamma1p(a: float) -> float:
    """``log(gamma(a + 1))``, accurate also for small ``a`` (``pgamma.c``)."""
    if abs(a) >= 0.5:
        return lgammafn(a + 1)
    lgam = _LG1P_C * logcf(-a / 2, 40 + 2, 1, 1e-14)
    for i in range(39, -1, -1):
        lgam = _LG1P_COEFFS[i] - a * lgam
    return (a * lgam - _EULERS_CONST) * a - log1pmx(a)


def _dpois_wrap(x_plus_1: float, lam: float, give_log: bool) -> float:
    """``dpois(x_plus_1 - 1, lam)`` (``pgamma.c``)."""
    if not math.isfinite(lam):
        return -INF if give_log else 0.
    if x_plus_1 > 1:
        return dpois_raw(x_plus_1 - 1, lam, give_log)
    if lam > abs(x_plus_1 - 1) * _M_CUTOFF:
        v = -lam - lgammafn(x_plus_1)
        return v if give_log else c_exp(v)
    d = dpois_raw(x_plus_1, lam, give_log)
    return d + c_log(x_plus_1 / lam) if give_log else d * (x_plus_1 / lam)


def _pgamma_smallx(x: float, alph: float, lower_tail: bool, log_p: bool) -> float:
    """Abramowitz and Stegun 6.5.29 for ``x < 1``."""
    total = 0.
    c = alph
    n = 0.
    while True:
        n += 1
        c *= -x / n
        term = c / (alph + n)
        total += term
        if not abs(term) > DBL_EPSILON * abs(total):
            break
    if lower_tail:
        f1 = c_log1p(total) if log_p else 1 + total
        if alph > 1:
            f2 = dpois_raw(alph, x, log_p)
            f2 = f2 + x if log_p else f2 * c_exp(x)
        elif log_p:
            f2 = alph * c_log(x) - lgamma1p(alph)
        else:
            f2 = c_pow(x, alph) / c_exp(lgamma1p(alph))
        return f1 + f2 if log_p else f1 * f2
    lf2 = alph * c_log(x) - lgamma1p(alph)
    if log_p:
        return log1_exp(c_log1p(total) + lf2)
    f1m1 = total
    f2m1 = c_expm1(lf2)
    return -(f1m1 + f2m1 + f1m1 * f2m1)


def _pd_upper_series(x: float, y: float, log_p: bool) -> float:
    term = x / y
    total = term
    while True:
        y += 1
        term *= x / y
        total += term
        if not term > total * DBL_EPSILON:
            break
    return c_log(total) if log_p else total


def _scaled_down(a1, b1, a2, b2):
    """pgamma.c's ``NEEDED_SCALE`` body: divide by 2^256 (exact)."""
    return a1 / _SCALEFACTOR, b1 / _SCALEFACTOR, a2 / _SCALEFACTOR, b2 / _SCALEFACTOR


def _pd_lower_cf(y: float, d: float) -> float:
    """Continued fraction of the scaled upper tail (``pgamma.c``)."""
    f = 0.0
    if y == 0:
        return 0.
    f0 = y / d
    if abs(y - 1) < abs(d) * DBL_EPSILON:
        return f0
    if f0 > 1.:
        f0 = 1.
    c2 = y
    c4 = d
    a1 = 0.
    b1 = 1.
    a2 = y
    b2 = d
    while b2 > _SCALEFACTOR:  # NEEDED_SCALE
        a1, b1, a2, b2 = _scaled_down(a1, b1, a2, b2)
    i = 0.
    of = -1.
    while i < 200000:
        i += 1
        c2 -= 1
        c3 = i * c2
        c4 += 2
        a1 = c4 * a2 + c3 * a1
        b1 = c4 * b2 + c3 * b1
        i += 1
        c2 -= 1
        c3 = i * c2
        c4 += 2
        a2 = c4 * a1 + c3 * a2
        b2 = c4 * b1 + c3 * b2
        if b2 > _SCALEFACTOR:  # NEEDED_SCALE
            a1, b1, a2, b2 = _scaled_down(a1, b1, a2, b2)
        if b2 != 0:
            f = a2 / b2
            if abs(f - of) <= DBL_EPSILON * max(f0, abs(f)):
                return f
            of = f
    _warn.warn(" ** NON-convergence in pgamma()'s pd_lower_cf() f= %g.\n" % f)
    return f


def _pd_lower_series(lam: float, y: float) -> float:
    term = 1.
    total = 0.
    while y >= 1 and term > total * DBL_EPSILON:
        term *= y / lam
        total += term
        y -= 1
    if y != c_floor(y):
        f = _pd_lower_cf(y, lam + 1 - y)
        total += term * f
    return total


def _dpnorm(x: float, lower_tail: bool, lp: float) -> float:
    """``dnorm(x) / pnorm(x, lower_tail)`` with ``lp`` the log of the latter."""
    if x < 0:
        x = -x
        lower_tail = not lower_tail
    if x > 10 and not lower_tail:
        term = 1 / x
        total = term
        x2 = x * x
        i = 1.
        while True:
            term *= -i / x2
            total += term
            i += 2
            if not abs(term) > DBL_EPSILON * total:
                break
        return 1 / total
    d = dnorm(x, False)
    return d / c_exp(lp)


_COEFS_A = (-1e99, 2 / 3., -4 / 135., 8 / 2835., 16 / 8505., -8992 / 12629925.,
            -334144 / 492567075., 698752 / 1477701225.)
_COEFS_B = (-1e99, 1 / 12., 1 / 288., -139 / 51840., -571 / 2488320., 163879 / 209018880.,
            5246819 / 75246796800., -534703531 / 902961561600.)


def _ppois_asymp(x: float, lam: float, lower_tail: bool, log_p: bool) -> float:
    """Asymptotic expansion of the Poisson distribution function (``pgamma.c``)."""
    dfm = lam - x
    pt_ = -log1pmx(dfm / x)
    s2pt = math.sqrt(2 * x * pt_) if 2 * x * pt_ >= 0 else NAN
    if dfm < 0:
        s2pt = -s2pt
    res12 = 0.
    res1_ig = res1_term = math.sqrt(x)
    res2_ig = res2_term = s2pt
    for i in range(1, 8):
        res12 += res1_ig * _COEFS_A[i]
        res12 += res2_ig * _COEFS_B[i]
        res1_term *= pt_ / i
        res2_term *= 2 * pt_ / (2 * i + 1)
        res1_ig = res1_ig / x + res1_term
        res2_ig = res2_ig / x + res2_term
    elfb = x
    elfb_term = 1.
    for i in range(1, 8):
        elfb += elfb_term * _COEFS_B[i]
        elfb_term /= x
    if not lower_tail:
        elfb = -elfb
    f = res12 / elfb
    np_ = pnorm(s2pt, not lower_tail, log_p)
    if log_p:
        n_d_over_p = _dpnorm(s2pt, not lower_tail, np_)
        return np_ + c_log1p(f * n_d_over_p)
    nd = dnorm(s2pt, log_p)
    return np_ + f * nd


def pgamma_raw(x: float, alph: float, lower_tail: bool = True, log_p: bool = False) -> float:
    """``pgamma_raw``: ``x``, ``alph`` not NA, ``alph > 0``."""
    d0, d1 = (-INF, 0.) if log_p else (0., 1.)
    if x <= 0.:
        return d0 if lower_tail else d1
    if x >= INF:
        return d1 if lower_tail else d0
    if x < 1:
        res = _pgamma_smallx(x, alph, lower_tail, log_p)
    elif x <= alph - 1 and x < 0.8 * (alph + 50):
        total = _pd_upper_series(x, alph, log_p)
        d = _dpois_wrap(alph, x, log_p)
        if not lower_tail:
            res = log1_exp(d + total) if log_p else 1 - d * total
        else:
            res = total + d if log_p else total * d
    elif alph - 1 < x and alph < 0.8 * (x + 50):
        d = _dpois_wrap(alph, x, log_p)
        if alph < 1:
            if x * DBL_EPSILON > 1 - alph:
                total = d1
            else:
                f = _pd_lower_cf(alph, x - (alph - 1)) * x / alph
                total = c_log(f) if log_p else f
        else:
            total = _pd_lower_series(x, alph - 1)
            total = c_log1p(total) if log_p else 1 + total
        if not lower_tail:
            res = total + d if log_p else total * d
        else:
            res = log1_exp(d + total) if log_p else 1 - d * total
    else:
        res = _ppois_asymp(alph - 1, x, not lower_tail, log_p)
    if not log_p and res < DBL_MIN / DBL_EPSILON:
        return c_exp(pgamma_raw(x, alph, lower_tail, True))
    return res


def pgamma(x: float, alph: float, scale: float = 1.0, lower_tail: bool = True,
           log_p: bool = False) -> float:
    """R ``pgamma(x, shape = alph, scale = scale, lower.tail, log.p)``."""
    x, alph, scale = float(x), float(alph), float(scale)
    if x != x or alph != alph or scale != scale:
        return x + alph + scale
    if alph < 0. or scale <= 0.:
        return NAN
    x /= scale
    if x != x:
        return x
    if alph == 0.:
        d0, d1 = (-INF, 0.) if log_p else (0., 1.)
        return (d0 if lower_tail else d1) if x <= 0 else (d1 if lower_tail else d0)
    return pgamma_raw(x, alph, lower_tail, log_p)


def pchisq(q: float, df: float, lower_tail: bool = True, log_p: bool = False) -> float:
    """R ``pchisq(q, df, lower.tail, log.p)`` (central): ``pgamma(q, df / 2, 2)``."""
    return pgamma(q, float(df) / 2., 2., lower_tail, log_p)


def dgamma(x: float, shape: float, scale: float, give_log: bool) -> float:
    """R ``dgamma(x, shape, scale = scale, log = give_log)`` (``dgamma.c``)."""
    x, shape, scale = float(x), float(shape), float(scale)
    if x != x or shape != shape or scale != scale:
        return x + shape + scale
    if shape < 0 or scale <= 0:
        return NAN
    d0 = -INF if give_log else 0.
    if x < 0:
        return d0
    if shape == 0:
        return INF if x == 0 else d0
    if x == 0:
        if shape < 1:
            return INF
        if shape > 1:
            return d0
        return -c_log(scale) if give_log else 1 / scale
    if shape < 1:
        pr = dpois_raw(shape, x / scale, give_log)
        if give_log:
            return pr + (c_log(shape / x) if math.isfinite(shape / x)
                         else c_log(shape) - c_log(x))
        return pr * shape / x
    pr = dpois_raw(shape - 1, x / scale, give_log)
    return pr - c_log(scale) if give_log else pr / scale


def _dt_log(p, lower_tail, log_p):
    """``R_DT_log(p)``: log of the lower-tail probability."""
    if lower_tail:
        return p if log_p else c_log(p)
    return log1_exp(p) if log_p else c_log1p(-p)


def _dt_clog(p, lower_tail, log_p):
    """``R_DT_Clog(p)``: log of the upper-tail probability."""
    if lower_tail:
        return log1_exp(p) if log_p else c_log1p(-p)
    return p if log_p else c_log(p)


def qchisq_appr(p: float, nu: float, g: float, lower_tail: bool, log_p: bool,
                tol: float) -> float:
    """AS 91's starting approximation of ``qchisq(p, nu)``, ``g = lgamma(nu / 2)``."""
    if p != p or nu != nu:
        return p + nu
    if (log_p and p > 0) or (not log_p and (p < 0 or p > 1)):
        return NAN
    if nu <= 0:
        return NAN
    alpha = 0.5 * nu
    c = alpha - 1
    p1 = _dt_log(p, lower_tail, log_p)
    if nu < (-1.24) * p1:
        lgam1pa = lgamma1p(alpha) if alpha < 0.5 else c_log(alpha) + g
        return c_exp((lgam1pa + p1) / alpha + M_LN2)
    if nu > 0.32:
        x = qnorm(p, lower_tail, log_p)
        p1 = 2. / (9 * nu)
        ch = nu * c_pow(x * math.sqrt(p1) + 1 - p1, 3)
        if ch > 2.2 * nu + 6:
            ch = -2 * (_dt_clog(p, lower_tail, log_p) - c * c_log(0.5 * ch) + g)
        return ch
    ch = 0.4
    a = _dt_clog(p, lower_tail, log_p) + g + c * M_LN2
    while True:
        q = ch
        p1 = 1. / (1 + ch * (4.67 + ch))
        p2 = ch * (6.73 + ch * (6.66 + ch))
        t = -0.5 + (4.67 + 2 * ch) * p1 - (6.73 + ch * (13.32 + 3 * ch)) / p2
        ch -= (1 - c_exp(a + 0.5 * ch) * p2 * p1) / t
        if not abs(q - ch) > tol * abs(ch):
            break
    return ch


_I420 = 1. / 420.
_I2520 = 1. / 2520.
_I5040 = 1. / 5040


def qgamma(p: float, alpha: float, scale: float = 1.0, lower_tail: bool = True,
           log_p: bool = False) -> float:
    """R ``qgamma(p, shape = alpha, scale = scale, lower.tail, log.p)``."""
    p, alpha, scale = float(p), float(alpha), float(scale)
    if p != p or alpha != alpha or scale != scale:
        return p + alpha + scale
    if log_p:
        if p > 0:
            return NAN
        if p == 0:
            return INF if lower_tail else 0.
        if p == -INF:
            return 0. if lower_tail else INF
    else:
        if p < 0 or p > 1:
            return NAN
        if p == 0:
            return 0. if lower_tail else INF
        if p == 1:
            return INF if lower_tail else 0.
    if alpha < 0 or scale <= 0:
        return NAN
    if alpha == 0:
        return 0.
    max_it_newton = 7 if alpha < 1e-10 else 1
    p_ = dt_qiv(p, lower_tail, log_p)
    g = lgammafn(alpha)
    ch = qchisq_appr(p, 2 * alpha, g, lower_tail, log_p, 1e-2)
    if not math.isfinite(ch):
        max_it_newton = 0
    elif ch < 5e-7 or p_ > 1 - 1e-14 or p_ < 1e-100:
        max_it_newton = 20
    else:
        ch, max_it_newton = _as91_iterate(ch, p_, alpha, g, max_it_newton)
    return _newton(ch, p, alpha, scale, lower_tail, log_p, max_it_newton)


def _as91_iterate(ch, p_, alpha, g, max_it_newton):
    """qgamma's Phase II: AS 91's seven-term Taylor steps on ``pgamma_raw``."""
    c = alpha - 1
    s6 = (120 + c * (346 + 127 * c)) * _I5040
    ch0 = ch
    for _ in range(1000):
        q = ch
        p1 = 0.5 * ch
        p2 = p_ - pgamma_raw(p1, alpha, True, False)
        if not math.isfinite(p2) or ch <= 0:
            return ch0, 27
        t = p2 * c_exp(alpha * M_LN2 + g + p1 - c * c_log(ch))
        b = t / ch
        a = 0.5 * t - b * c
        s1 = (210 + a * (140 + a * (105 + a * (84 + a * (70 + 60 * a))))) * _I420
        s2 = (420 + a * (735 + a * (966 + a * (1141 + 1278 * a)))) * _I2520
        s3 = (210 + a * (462 + a * (707 + 932 * a))) * _I2520
        s4 = (252 + a * (672 + 1182 * a) + c * (294 + a * (889 + 1740 * a))) * _I5040
        s5 = (84 + 2264 * a + c * (1175 + 606 * a)) * _I2520
        ch += t * (1 + 0.5 * t * s1 - b * c * (s1 - b * (s2 - b * (s3 - b * (s4 - b * (s5 - b * s6))))))
        if abs(q - ch) < 5e-7 * ch:
            return ch, max_it_newton
        if abs(q - ch) > 0.1 * ch:
            ch = 0.9 * q if ch < q else 1.1 * q
    return ch, max_it_newton


def _newton(ch, p, alpha, scale, lower_tail, log_p, max_it_newton):
    """qgamma's ``END:``: R's final Newton steps on the log scale."""
    x = 0.5 * scale * ch
    if not max_it_newton:
        return x
    if not log_p:
        p = c_log(p)
        log_p = True
    if x == 0:
        x = DBL_MIN
        p_ = pgamma(x, alpha, scale, lower_tail, log_p)
        if (lower_tail and p_ > p * (1. + 1e-7)) or (not lower_tail and p_ < p * (1. - 1e-7)):
            return 0.
    else:
        p_ = pgamma(x, alpha, scale, lower_tail, log_p)
    if p_ == -INF:
        return 0
    for i in range(1, max_it_newton + 1):
        p1 = p_ - p
        if abs(p1) < abs(1e-15 * p):
            break
        g = dgamma(x, alpha, scale, log_p)
        if g == -INF:  # R_D__0 with log_p
            break
        t = p1 * c_exp(p_ - g) if log_p else p1 / g
        t = x - t if lower_tail else x + t
        p_ = pgamma(t, alpha, scale, lower_tail, log_p)
        if abs(p_ - p) > abs(p1) or (i > 1 and abs(p_ - p) == abs(p1)):
            break
        x = t
    return x


def qchisq(p: float, df: float, lower_tail: bool = True, log_p: bool = False) -> float:
    """R ``qchisq(p, df, lower.tail, log.p)`` (central): ``qgamma(p, 0.5 * df, 2)``."""
    return qgamma(p, 0.5 * float(df), 2.0, lower_tail, log_p)

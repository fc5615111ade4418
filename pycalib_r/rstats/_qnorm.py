# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/qnorm.c (GPL-2.0-or-later), (c) The R Core Team; qnorm.c after Algorithm AS 241 (c) Royal Statistical Society
"""R's ``qnorm`` (AS 241) as a function of uniforms.

The inversion that ``norm_rand`` (``INVERSION``) and the discrete quantiles
use, operation for operation as R 4.2.2's C code, so values are R's bit for
bit. Every logarithm that decides a value is glibc's (see
:func:`pycalib_r.rbase._rarith.r_log`).

R equivalent: ``src/nmath/qnorm.c`` (AS 241).

References
----------
Wichura, M. J. (1988). Algorithm AS 241: The percentage points of the normal
distribution. Applied Statistics 37, 477-484.
"""

from __future__ import annotations

import math

import numpy as np

from ..rbase._rarith import r_log as _libm_log

__all__ = ["qnorm_open1"]


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


# --- the same algorithm on one value, with lower_tail and log_p ------------------

def _horner1(r, coef):
    acc = r * coef[0]
    for c in coef[1:-1]:
        acc += c
        acc *= r
    return acc + coef[-1]


def qnorm_open1(p, lower_tail=True, log_p=False):
    """Scalar AS 241, ``qnorm(p, 0, 1, lower_tail, log_p)`` for ``p`` inside
    (0, 1) (``log_p``: inside (-Inf, 0)) (see ``_qnorm._qnorm_open``), with
    nmath's roundings: the upper tail works on ``p_ = 0.5 - p + 0.5`` but
    takes the logarithm of ``p`` itself (``R_DT_CIv``), which is not ``1 - p_``;
    on the log scale the tail's ``r`` is ``p`` itself where ``p`` is that tail."""
    if log_p:
        p_ = math.exp(p) if lower_tail else -math.expm1(p)
    else:
        p_ = p if lower_tail else 0.5 - p + 0.5
    q = p_ - 0.5
    if abs(q) <= 0.425:
        r = 0.180625 - q * q
        val = q * _horner1(r, _A_NUM) / _horner1(r, _A_DEN)
    else:
        if log_p and ((lower_tail and q <= 0) or (not lower_tail and q > 0)):
            r = math.sqrt(-p)
        else:
            if log_p:
                other = -math.expm1(p) if lower_tail else math.exp(p)
            else:
                other = 0.5 - p + 0.5 if lower_tail else p
            r = math.sqrt(-math.log(other if q > 0 else p_))
        if r <= 5.0:
            rr = r + -1.6
            val = _horner1(rr, _B_NUM) / _horner1(rr, _B_DEN)
        elif r >= 816:
            val = r * 1.41421356237309504880
        else:
            rr = r + -5.0
            val = _horner1(rr, _C_NUM) / _horner1(rr, _C_DEN)
        if q < 0.0:
            val = -val
    return 0.0 + 1.0 * val

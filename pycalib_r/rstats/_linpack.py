# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/appl/dqrdc2.f, src/appl/dqrsl.f, src/appl/dqrls.f (GPL-2.0-or-later), (c) The R Core Team; LINPACK by J. J. Dongarra, C. Moler, G. W. Stewart
# Derived from: reference BLAS 3.11 (LAPACK 3.11) BLAS/SRC/{dnrm2,ddot,daxpy,dscal}.f (BSD-3-Clause), (c) 1992-2022 The University of Tennessee and The University of Tennessee Research Foundation, The University of California Berkeley, The University of Colorado Denver
"""Reference BLAS and LINPACK in R's evaluation order, for ``glm.fit``'s IRLS.

``dqrdc2``/``dqrsl`` (R's QR with limited column pivoting, tolerance
``1e-11``), ``dnrm2`` with Blue's scaling, ``ddot``/``daxpy``/``dscal`` as
the Fortran loops add: the least-squares step of :mod:`._glm` lands on R's
coefficients to the last bits. Vectors take the C loops of
``pycalib_r/_native/src/calibrators.c`` where the library is built (the same
bits).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _native
from ..rbase._rarith import quiet_fp, seq_sum

_DBL_EPS = 2.220446049250313e-16
_THRESH = 30.0
_MTHRESH = -30.0
_INVEPS = 1.0 / _DBL_EPS
_EPSILON = 1e-8  # glm.control()$epsilon
_MAXIT = 25  # glm.control()$maxit
_QR_TOL = min(1e-7, _EPSILON / 1000)

# Blue's constants of reference BLAS 3.10+ dnrm2 (IEEE double).
_TSML = 2.0 ** -511
_TBIG = 2.0 ** 486
_SSML = 2.0 ** 537
_SBIG = 2.0 ** -538


# ---------------------------------------------------------------------------
# Reference BLAS / LINPACK in R's evaluation order
# ---------------------------------------------------------------------------


def _seq_sum(v: np.ndarray) -> float:
    # Fortran loops add left to right; numpy's pairwise sum would not.
    return seq_sum(v)


# Rows below which the numpy expressions are as fast as a C call (a few us
# of ctypes): at 16 rows ddot takes about 3.5 us either way, exp_eta and
# dev_resids are already 2-4x faster in C.
_NATIVE_MIN = 16


def _kernels(n: int):
    """The C loops of the IRLS (:mod:`pycalib_r._native.calibrators`) for
    vectors of ``n`` rows, or None.

    Below ``_NATIVE_MIN`` rows, or where the twins run (``PYCALIB_R_NATIVE=0``,
    library not built), the numpy expressions run; both give the same bits
    (tests/native/test_native_calibrators.py).
    """
    if n < _NATIVE_MIN:
        return None
    return _native.kernels("calibrators")


def _ddot(a: np.ndarray, b: np.ndarray) -> float:
    kern = _kernels(a.size)
    if kern is not None:
        return kern.ddot(a, b)
    return _seq_sum(a * b)


def _axpy(t: float, x: np.ndarray, y: np.ndarray) -> None:
    """Reference BLAS ``daxpy``: ``y <- y + t * x``, in place (``y`` a view)."""
    kern = _kernels(x.size)
    if kern is not None:
        kern.axpy(t, x, y)
    else:
        y += t * x


def _scal(c: float, x: np.ndarray) -> None:
    """Reference BLAS ``dscal``: ``x <- c * x``, in place."""
    kern = _kernels(x.size)
    if kern is not None:
        kern.scal(c, x)
    else:
        x *= c


def _dnrm2(v: np.ndarray) -> float:
    if v.size == 0:
        return 0.0
    kern = _kernels(v.size)
    if kern is not None:
        norm, odd = kern.nrm2_unscaled(v)
        return _dnrm2_scaled(np.abs(v)) if odd else norm
    ax = np.abs(v)
    big = ax > _TBIG
    small = ax < _TSML
    if not big.any() and not small.any():
        return math.sqrt(_seq_sum(ax * ax))
    return _dnrm2_scaled(ax)


def _dnrm2_scaled(ax: np.ndarray) -> float:
    # Fortran's x**2 is x*x; Python's x ** 2 calls libm pow, which is not
    # always correctly rounded (it differed from BLAS on a vector holding a 0).
    # Exact zeros count as "small" but add nothing to asml: with no other
    # small and no big element the result is sqrt(amed), the plain sum of
    # squares in order (spline design columns are mostly zeros; this loop
    # in Python cost 9 of 13 s of a pmcalibration bootstrap).
    if not ((ax > _TBIG).any() or ((ax < _TSML) & (ax != 0.0)).any()):
        return math.sqrt(_seq_sum(ax * ax))
    notbig = True
    asml = amed = abig = 0.0
    for a in ax:
        a = float(a)
        if a > _TBIG:
            t = a * _SBIG
            abig = abig + t * t
            notbig = False
        elif a < _TSML:
            if notbig:
                t = a * _SSML
                asml = asml + t * t
        else:
            amed = amed + a * a
    if abig > 0.0:
        if amed > 0.0 or amed != amed:
            abig = abig + (amed * _SBIG) * _SBIG
        scl = 1.0 / _SBIG
        sumsq = abig
    elif asml > 0.0:
        if amed > 0.0 or amed != amed:
            amed = math.sqrt(amed)
            asml = math.sqrt(asml) / _SSML
            ymin, ymax = (amed, asml) if asml > amed else (asml, amed)
            scl = 1.0
            r = ymin / ymax
            sumsq = (ymax * ymax) * (1.0 + r * r)
        else:
            scl = 1.0 / _SSML
            sumsq = asml
    else:
        scl = 1.0
        sumsq = amed
    return scl * math.sqrt(sumsq)


def _reflect(x: np.ndarray, l: int, p: int) -> float:
    """LINPACK ``dqrdc``'s Householder step at 0-based column ``l``: the
    reflection of ``x[l:, l]`` formed in place and applied to the columns
    ``l + 1 .. p - 1``. Returns ``nrmxl`` (the caller stores ``qraux[l] =
    x[l, l]`` and ``x[l, l] = -nrmxl``), or 0.0 for a zero column, left as
    it is."""
    nrmxl = _dnrm2(x[l:, l])
    if nrmxl == 0.0:
        return 0.0
    if x[l, l] != 0.0:
        nrmxl = math.copysign(abs(nrmxl), x[l, l])
    _scal(1.0 / nrmxl, x[l:, l])
    x[l, l] = 1.0 + x[l, l]
    for j in range(l + 1, p):
        t = -_ddot(x[l:, l], x[l:, j]) / x[l, l]
        if t != 0.0:
            _axpy(t, x[l:, l], x[l:, j])
    return nrmxl


# Fortran's arithmetic is silent: a column whose norm is denormal gives Inf and
# NaN there without a word (R then reports what follows), numpy would warn.
@quiet_fp
def _dqrdc2(x: np.ndarray, tol: float, overwrite: bool = False):
    """LINPACK ``dqrdc2`` (R's modified QR with limited pivoting); works on a copy
    unless ``overwrite`` (``x`` then a Fortran-ordered float array the caller gives up)."""
    if not (overwrite and x.flags.f_contiguous and x.dtype == np.float64):
        x = np.array(x, dtype=np.float64, order="F", copy=True)
    n, p = x.shape
    qraux = np.array([_dnrm2(x[:, j]) for j in range(p)])
    work1 = qraux.copy()
    work2 = qraux.copy()
    work2[work2 == 0.0] = 1.0
    jpvt = np.arange(1, p + 1)
    lup = min(n, p)
    k = p + 1
    for l in range(lup):  # 0-based column l is Fortran's l + 1
        # Columns with negligible norm move to the end (R's modification).
        while not (l + 1 >= k or qraux[l] >= work2[l] * tol):
            order = list(range(l)) + list(range(l + 1, p)) + [l]
            x = x[:, order]
            jpvt = jpvt[order]
            qraux = qraux[order]
            work1 = work1[order]
            work2 = work2[order]
            k -= 1
        if l + 1 == n:
            continue
        nrmxl = _reflect(x, l, p)
        if nrmxl == 0.0:
            continue
        # Each column's norm after the reflection (the columns are
        # independent: updating them after all were reflected is the same).
        for j in range(l + 1, p):
            if qraux[j] != 0.0:
                tt = 1.0 - (abs(x[l, j]) / qraux[j]) ** 2
                tt = max(tt, 0.0)
                if abs(tt) < 1e-6:
                    qraux[j] = _dnrm2(x[l + 1:, j])
                    work1[j] = qraux[j]
                else:
                    qraux[j] = qraux[j] * math.sqrt(tt)
        qraux[l] = x[l, l]
        x[l, l] = -nrmxl
    k = min(k - 1, n)
    return x, k, qraux, jpvt


@quiet_fp
def _cdqrls(x: np.ndarray, y: np.ndarray, tol: float, overwrite: bool = False):
    """R's ``.Call(C_Cdqrls, x, y, tol)``: coefficients, rank, pivot, qr, qraux, effects.

    ``overwrite``: ``x`` (Fortran-ordered) and ``y`` are the caller's
    temporaries, decomposed in place instead of copied.
    """
    n, p = x.shape
    qr, k, qraux, jpvt = _dqrdc2(x, tol, overwrite)
    qty = y if overwrite and y.dtype == np.float64 else np.array(y, dtype=np.float64, copy=True)
    b = np.zeros(p)
    if k > 0:
        ju = min(k, n - 1)
        if ju == 0:
            if qr[0, 0] != 0.0:
                b[0] = qty[0] / qr[0, 0]
        else:
            for j in range(ju):
                if qraux[j] == 0.0:
                    continue
                diag = qr[j:, j].copy()
                diag[0] = qraux[j]
                t = -_ddot(diag, qty[j:]) / diag[0]
                if t != 0.0:
                    _axpy(t, diag, qty[j:])
            b[:k] = qty[:k]
            for j in range(k - 1, -1, -1):
                if qr[j, j] == 0.0:
                    break
                b[j] = b[j] / qr[j, j]
                if j > 0:
                    t = -b[j]
                    if t != 0.0:
                        b[:j] = b[:j] + t * qr[:j, j]
    return {"coefficients": b, "rank": int(k), "pivot": jpvt, "qr": qr,
            "qraux": qraux, "effects": qty}


def _matvec(x: np.ndarray, beta: np.ndarray) -> np.ndarray:
    # Reference dgemv: y = 0, then y += beta_j * x[:, j] column by column.
    out = np.zeros(x.shape[0])
    for j in range(x.shape[1]):
        out = out + beta[j] * x[:, j]
    return out

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/src/loessc.c, src/library/stats/src/loessf.f, src/library/stats/R/loess.R (GPL-2.0-or-later), (c) The R Core Team; loessf.f and loessc.c in part (c) 1989, 1992 by AT&T (Cleveland, Grosse and Shyu)
# Derived from: R 4.2.2 src/appl/dqrdc.f, src/appl/dqrsl.f, src/appl/dsvdc.f (GPL-2.0-or-later), (c) The R Core Team; LINPACK by J. J. Dongarra, C. Moler, G. W. Stewart
# Derived from: reference BLAS 3.11 (LAPACK 3.11) BLAS/SRC/{ddot,dnrm2,drotg}.f (BSD-3-Clause), (c) 1992-2022 The University of Tennessee and The University of Tennessee Research Foundation, The University of California Berkeley, The University of Colorado Denver
"""R's ``loess()`` fitted values for one predictor, as R 4.2.2 computes them.

A port of Cleveland, Grosse and Shyu's ``dloess`` as R ships it
(``src/library/stats/src/loessc.c`` and ``loessf.f``), for one numeric
predictor and the gaussian family:

* ``surface = "interpolate"`` (R's default): the k-d tree of ``ehg126`` /
  ``ehg124`` / ``ehg129`` / ``ehg125`` (bounding box widened by 0.5%, cells
  split at the median (``ehg106``'s Floyd-Rivest selection, ties with the
  upper son) until a cell holds at most ``floor(n * span * cell)`` points),
  a local fit at every vertex (``ehg139`` -> ``ehg127``) giving the value and
  the slope there, and the cubic Hermite interpolation of ``ehg128``
  between the two vertices of the cell holding each point;
* ``surface = "direct"``: the local fit at every point (``ehg136``).

The local fit (``ehg127``) is R's: the ``nf = floor(n * span + 1e-5)``
nearest points (selected by ``ehg106`` on a permutation that persists from
one fit to the next, as in R, so that sums run in R's order), tricube
weights times the prior weights, columns equilibrated, LINPACK's ``dqrdc``
(no pivoting) and ``dqrsl``, then ``dsvdc`` of the triangle and its
pseudo-inverse with R's tolerance. The BLAS calls (``ddot``, ``dnrm2``,
``drotg``) are reference BLAS 3.11's, the library Debian's R links: the
fitted values are R's bit for bit (tests/diagnostics/test_val_probg.py compares them with R's, live and
stored: ``test_live_loess_cases``, ``test_stored_loess_fixtures_match``).

R's warnings from the Fortran (``loesswarn``, ``ehg183``, ``ehg184``) are
issued with R's texts, those of the statistics included: the trace of the
hat matrix as R's default ``statistics = "approximate"``, ``trace.hat =
"exact"`` computes it (``ehg139``'s vertex influence, interpolated, for
``"interpolate"``; ``ehg136``'s diagonal for ``"direct"``), ``lowesa``'s
``ehg141`` ("Chernobyl! trL<k", "Chernobyl! trL>n", with the ``ehg176``
correction) and ``simpleLoess``'s ``sqrt(sum.squares/one.delta)`` ("NaNs
produced"). Not ported: the other outputs of ``loess`` (``trace.hat``,
``one.delta``, ``two.delta`` are computed for the warnings, not returned),
``trace.hat = "approximate"``, robustness iterations (``family =
"symmetric"``) and more than one predictor.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..rbase._errors import ProbcalError
from ._linpack import _axpy, _ddot, _dnrm2, _reflect
from ..rbase._rarith import quiet_fp, r_sum, seq_sum
from ..rbase._warn import r_warning

__all__ = ["loess_fitted"]

_MACHEP = 2.220446049250313e-16  # d1mach(4)
_SAFMIN = 2.0 ** -1022  # drotg.f90 (reference BLAS 3.10+)
_SAFMAX = 2.0 ** 1023

_LOESSWARN = {
    104: "span too small.   fewer data values than degrees of freedom.",
    120: "zero-width neighborhood. make span bigger",
    121: "all data on boundary of neighborhood. make span bigger",
    123: "ihat=1 (diag L) in l2fit only makes sense if z=x (eval=data).",
    180: "nv>nvmax in cpvert.",
    181: "nt>20 in eval.",
    182: "svddc failed in l2fit.",
}


def _ehg184(s: str, xs) -> None:
    # ehg184a: the label, then " %.5g" per number, then a newline, which R's
    # C-level warning() drops.
    r_warning(s + "".join(" " + _fmt_g5(float(x)) for x in xs))


def _fmt_g5(x: float) -> str:
    if math.isnan(x):
        return "nan" if math.copysign(1.0, x) > 0 else "-nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return "%.5g" % x


# ---------------------------------------------------------------------------
# Reference BLAS level 1 for the short vectors of the SVD (Python floats).
# ---------------------------------------------------------------------------

def _drotg(a: float, b: float):
    """Reference BLAS 3.11 ``drotg`` (drotg.f90): returns (r, z, c, s)."""
    anorm = abs(a)
    bnorm = abs(b)
    if bnorm == 0.0:
        return a, 0.0, 1.0, 0.0
    if anorm == 0.0:
        return b, 1.0, 0.0, 1.0
    scl = min(_SAFMAX, max(_SAFMIN, anorm, bnorm))
    sigma = math.copysign(1.0, a) if anorm > bnorm else math.copysign(1.0, b)
    r = sigma * (scl * math.sqrt((a / scl) * (a / scl) + (b / scl) * (b / scl)))
    c = a / r
    s = b / r
    if anorm > bnorm:
        z = s
    elif c != 0.0:
        z = 1.0 / c
    else:
        z = 1.0
    return r, z, c, s


def _drot(x: np.ndarray, i: int, j: int, c: float, s: float) -> None:
    # columns i and j of x (rows 1..), dtemp = c x + s y; y = c y - s x; x = dtemp
    xi = x[1:, i].copy()
    xj = x[1:, j].copy()
    x[1:, i] = c * xi + s * xj
    x[1:, j] = c * xj - s * xi


def _dot(a, b) -> float:
    t = 0.0
    for u, v in zip(a, b):
        t = t + u * v
    return t


def _nrm2(v) -> float:
    return _dnrm2(np.asarray(v, dtype=np.float64))


def _dsvdc(x: np.ndarray, k: int):
    """LINPACK ``dsvdc(x, 15, k, k, s, e, u = x, 15, v, 15, work, 21, info)``.

    ``x`` is a (k+1, k+1) array used 1-based; the left singular vectors
    overwrite it (R passes the same array as ``x`` and ``u``). Returns
    (s, u, v, info) with 1-based arrays.
    """
    n = p = k
    s = np.zeros(k + 2)
    e = np.zeros(k + 2)
    v = np.zeros((k + 1, k + 1))
    work = np.zeros(k + 2)
    u = x  # aliased, as in ehg127
    maxit = 30
    ncu = min(n, p)
    nct = min(n - 1, p)
    nrt = max(0, min(p - 2, n))
    lu = max(nct, nrt)
    info = 0
    for l in range(1, lu + 1):
        lp1 = l + 1
        if l <= nct:
            s[l] = _nrm2(x[l:n + 1, l])
            if s[l] != 0.0:
                if x[l, l] != 0.0:
                    s[l] = math.copysign(abs(s[l]), x[l, l])
                x[l:n + 1, l] = (1.0 / s[l]) * x[l:n + 1, l]
                x[l, l] = 1.0 + x[l, l]
            s[l] = -s[l]
        for j in range(lp1, p + 1):
            if l <= nct and s[l] != 0.0:
                t = -_dot(x[l:n + 1, l], x[l:n + 1, j]) / x[l, l]
                if t != 0.0:
                    x[l:n + 1, j] = x[l:n + 1, j] + t * x[l:n + 1, l]
            e[j] = x[l, j]
        # wantu: u(i, l) = x(i, l) is a no-op (aliased)
        if l <= nrt:
            e[l] = _nrm2(e[lp1:p + 1])
            if e[l] != 0.0:
                if e[lp1] != 0.0:
                    e[l] = math.copysign(abs(e[l]), e[lp1])
                e[lp1:p + 1] = (1.0 / e[l]) * e[lp1:p + 1]
                e[lp1] = 1.0 + e[lp1]
            e[l] = -e[l]
            if lp1 <= n and e[l] != 0.0:
                work[lp1:n + 1] = 0.0
                for j in range(lp1, p + 1):
                    if e[j] != 0.0:
                        work[lp1:n + 1] = work[lp1:n + 1] + e[j] * x[lp1:n + 1, j]
                for j in range(lp1, p + 1):
                    t = -e[j] / e[lp1]
                    if t != 0.0:
                        x[lp1:n + 1, j] = x[lp1:n + 1, j] + t * work[lp1:n + 1]
            for i in range(lp1, p + 1):
                v[i, l] = e[i]
    m = min(p, n + 1)
    nctp1 = nct + 1
    nrtp1 = nrt + 1
    if nct < p:
        s[nctp1] = x[nctp1, nctp1]
    if n < m:
        s[m] = 0.0
    if nrtp1 < m:
        e[nrtp1] = x[nrtp1, m]
    e[m] = 0.0
    # generate u
    for j in range(nctp1, ncu + 1):
        u[1:n + 1, j] = 0.0
        u[j, j] = 1.0
    for ll in range(1, nct + 1):
        l = nct - ll + 1
        if s[l] != 0.0:
            lp1 = l + 1
            for j in range(lp1, ncu + 1):
                t = -_dot(u[l:n + 1, l], u[l:n + 1, j]) / u[l, l]
                if t != 0.0:
                    u[l:n + 1, j] = u[l:n + 1, j] + t * u[l:n + 1, l]
            u[l:n + 1, l] = -1.0 * u[l:n + 1, l]
            u[l, l] = 1.0 + u[l, l]
            u[1:l, l] = 0.0
        else:
            u[1:n + 1, l] = 0.0
            u[l, l] = 1.0
    # generate v
    for ll in range(1, p + 1):
        l = p - ll + 1
        lp1 = l + 1
        if l <= nrt and e[l] != 0.0:
            for j in range(lp1, p + 1):
                t = -_dot(v[lp1:p + 1, l], v[lp1:p + 1, j]) / v[lp1, l]
                if t != 0.0:
                    v[lp1:p + 1, j] = v[lp1:p + 1, j] + t * v[lp1:p + 1, l]
        v[1:p + 1, l] = 0.0
        v[l, l] = 1.0
    mm = m
    it = 0
    while m != 0:
        if it >= maxit:
            info = m
            break
        # inspect for negligible elements
        l = 0
        for ll in range(1, m + 1):
            l = m - ll
            if l == 0:
                break
            test = abs(s[l]) + abs(s[l + 1])
            ztest = test + abs(e[l])
            # R's dsvdc.f: a relative test instead of LINPACK's ztest == test
            if not abs(test - ztest) / (1.0e-100 + test) > 1.0e-15:
                e[l] = 0.0
                break
        if l == m - 1:
            kase = 4
        else:
            lp1 = l + 1
            mp1 = m + 1
            ls = l
            for lls in range(lp1, mp1 + 1):
                ls = m - lls + lp1
                if ls == l:
                    break
                test = 0.0
                if ls != m:
                    test = test + abs(e[ls])
                if ls != l + 1:
                    test = test + abs(e[ls - 1])
                ztest = test + abs(s[ls])
                if not abs(test - ztest) / (1.0e-100 + test) > 1.0e-15:
                    s[ls] = 0.0
                    break
            if ls == l:
                kase = 3
            elif ls == m:
                kase = 1
            else:
                kase = 2
                l = ls
        l = l + 1
        if kase == 1:  # deflate negligible s(m)
            mm1 = m - 1
            f = e[m - 1]
            e[m - 1] = 0.0
            for kk in range(l, mm1 + 1):
                kx = mm1 - kk + l
                t1, f, cs, sn = _drotg(s[kx], f)
                s[kx] = t1
                if kx != l:
                    f = -sn * e[kx - 1]
                    e[kx - 1] = cs * e[kx - 1]
                _drot(v, kx, m, cs, sn)
        elif kase == 2:  # split at negligible s(l)
            f = e[l - 1]
            e[l - 1] = 0.0
            for kx in range(l, m + 1):
                t1, f, cs, sn = _drotg(s[kx], f)
                s[kx] = t1
                f = -sn * e[kx]
                e[kx] = cs * e[kx]
                _drot(u, kx, l - 1, cs, sn)
        elif kase == 3:  # one qr step
            scale = max(abs(s[m]), abs(s[m - 1]), abs(e[m - 1]), abs(s[l]), abs(e[l]))
            sm = s[m] / scale
            smm1 = s[m - 1] / scale
            emm1 = e[m - 1] / scale
            sl = s[l] / scale
            el = e[l] / scale
            b = ((smm1 + sm) * (smm1 - sm) + emm1 * emm1) / 2.0
            c = (sm * emm1) * (sm * emm1)
            shift = 0.0
            if not (b == 0.0 and c == 0.0):
                shift = math.sqrt(b * b + c)
                if b < 0.0:
                    shift = -shift
                shift = c / (b + shift)
            f = (sl + sm) * (sl - sm) + shift
            g = sl * el
            mm1 = m - 1
            for kx in range(l, mm1 + 1):
                f, g, cs, sn = _drotg(f, g)
                if kx != l:
                    e[kx - 1] = f
                f = cs * s[kx] + sn * e[kx]
                e[kx] = cs * e[kx] - sn * s[kx]
                g = sn * s[kx + 1]
                s[kx + 1] = cs * s[kx + 1]
                _drot(v, kx, kx + 1, cs, sn)
                f, g, cs, sn = _drotg(f, g)
                s[kx] = f
                f = cs * e[kx] + sn * s[kx + 1]
                s[kx + 1] = -sn * e[kx] + cs * s[kx + 1]
                g = sn * e[kx + 1]
                e[kx + 1] = cs * e[kx + 1]
                if kx < n:
                    _drot(u, kx, kx + 1, cs, sn)
            e[m - 1] = f
            it += 1
        else:  # convergence
            if s[l] < 0.0:
                s[l] = -s[l]
                v[1:p + 1, l] = -1.0 * v[1:p + 1, l]
            while l != mm and not (s[l] >= s[l + 1]):
                s[l], s[l + 1] = s[l + 1], s[l]
                if l < p:
                    v[1:, [l, l + 1]] = v[1:, [l + 1, l]]
                if l < n:
                    u[1:, [l, l + 1]] = u[1:, [l + 1, l]]
                l = l + 1
            it = 0
            m = m - 1
    return s, u, v, info


# ---------------------------------------------------------------------------
# ehg106: Floyd and Rivest's selection on a permutation (1-based lists).
# ---------------------------------------------------------------------------

def _ehg106(il: int, ir: int, k: int, p: list, pi: list) -> None:
    """Partial sort of ``p[pi[il..ir]]`` so that ``p[pi[k]]`` is the k-th smallest."""
    lo = il
    r = ir
    while lo < r:
        t = p[pi[k]]
        i = lo
        j = r
        pi[lo], pi[k] = pi[k], pi[lo]
        if t < p[pi[r]]:
            pi[lo], pi[r] = pi[r], pi[lo]
        while i < j:
            pi[i], pi[j] = pi[j], pi[i]
            i += 1
            j -= 1
            while p[pi[i]] < t:
                i += 1
            while t < p[pi[j]]:
                j -= 1
        if p[pi[lo]] == t:
            pi[lo], pi[j] = pi[j], pi[lo]
        else:
            j += 1
            pi[r], pi[j] = pi[j], pi[r]
        if j <= k:
            lo = j + 1
        if k <= j:
            r = j - 1


# ---------------------------------------------------------------------------
# The local fit (ehg127).
# ---------------------------------------------------------------------------

class _State:
    """``rcond`` and ``sing``: the running state the Fortran keeps in ``v(4)``, ``iv(30)``."""

    __slots__ = ("rcond", "sing")

    def __init__(self):
        self.rcond = 1.0
        self.sing = 0


def _ehg127(q: float, x: np.ndarray, xl: list, y: np.ndarray, rw: np.ndarray, nf: int,
            f: float, degree: int, psi: list, state: _State):
    """The local fit at ``q``: (value, slope). ``psi`` (1-based) persists between calls."""
    n = x.size
    dist = (x - q) * (x - q)
    dl = [0.0] + dist.tolist()
    _ehg106(1, n, nf, dl, psi)
    rho = dl[psi[nf]] * max(1.0, f)
    if rho <= 0:
        r_warning(_LOESSWARN[120])
    sel = np.asarray(psi[1:nf + 1], dtype=np.int64) - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.sqrt(dist[sel] / rho)
        om = 1.0 - (w * w) * w
        w = np.sqrt(rw[sel] * ((om * om) * om))
    if abs(w[int(np.argmax(np.abs(w)))]) == 0.0:  # idamax: the first largest |w|
        _ehg184("at ", [q])
        _ehg184("radius ", [rho])
        r_warning(_LOESSWARN[121])
    k = degree + 1
    b = np.empty((nf, k), order="F")
    b[:, 0] = w
    xs = x[sel]
    if degree >= 1:
        b[:, 1] = w * (xs - q)
    if degree >= 2:
        b[:, 2] = w * ((xs - q) * (xs - q))
    eta = w * y[sel]
    colnor = np.ones(k)
    for j in range(k):
        col = b[:, j]
        scal = math.sqrt(seq_sum(col * col))
        if 0.0 < scal:
            b[:, j] = col / scal
            colnor[j] = scal
    # dqrdc(b, nf, nf, k, qraux, jpvt, work, 0): Householder QR, no pivoting.
    qraux = np.zeros(k)
    for l in range(min(nf, k)):
        qraux[l] = 0.0
        if l + 1 == nf:
            continue
        nrmxl = _reflect(b, l, k)
        if nrmxl == 0.0:
            continue
        qraux[l] = b[l, l]
        b[l, l] = -nrmxl
    # dqrsl(..., job = 1000): eta <- Q^T eta. The Fortran then reads eta(1:k)
    # and b(1:k, 1:k) in its workspace, where eta is followed by b and then
    # by zeros: with nf < k it reads past them.
    ws = _qty(b, qraux, eta, k, nf)
    u = np.zeros((k + 1, k + 1))
    for i in range(1, k + 1):
        for j in range(i, k + 1):
            u[i, j] = ws[nf + (i - 1) + (j - 1) * nf]
    sigma, u, e, info = _dsvdc(u, k)
    if info != 0:
        r_warning(_LOESSWARN[182])
    tol = sigma[1] * (100 * _MACHEP)
    ratio = sigma[k] / sigma[1] if sigma[1] != 0.0 else math.nan
    if not math.isnan(ratio):  # gfortran's MIN keeps rcond when sigma(k)/sigma(1) is 0/0
        state.rcond = min(state.rcond, ratio)
    if sigma[k] <= tol:
        state.sing += 1
        if state.sing == 1:
            _ehg184("pseudoinverse used at", [q])
            _ehg184("neighborhood radius", [math.sqrt(rho)])
            _ehg184("reciprocal condition number ", [state.rcond])
        elif state.sing == 2:
            _ehg184("There are other near singularities as well.", [rho])
    for j in range(1, k + 1):
        e[j, 1:k + 1] = e[j, 1:k + 1] / colnor[j - 1]
    etak = ws[:k].tolist()
    dgamma = [0.0] * (k + 1)
    for j in range(1, k + 1):
        dgamma[j] = _dot(u[1:k + 1, j].tolist(), etak) / sigma[j] if tol < sigma[j] else 0.0
    s0 = _dot(e[1, 1:k + 1].tolist(), dgamma[1:])
    s1 = _dot(e[2, 1:k + 1].tolist(), dgamma[1:]) if k > 1 else 0.0
    return s0, s1, _Fit(b, qraux, w, sigma, u, e, tol, k, nf)


class _Fit(NamedTuple):
    """What the hat-matrix rows of one local fit need (ehg127's b, qraux, w, sigma, U, V)."""

    b: np.ndarray
    qraux: np.ndarray
    w: np.ndarray
    sigma: np.ndarray
    u: np.ndarray
    e: np.ndarray
    tol: float
    k: int
    nf: int


def _qty(b: np.ndarray, qraux: np.ndarray, eta: np.ndarray, k: int, nf: int) -> np.ndarray:
    """``dqrsl(b, ..., eta, job = 1000)``: ``eta <- Q^T eta`` in place; returns the
    Fortran's view of ``eta(1:k)`` (past ``nf``: ``b`` then zeros, its workspace)."""
    for j in range(min(k, nf - 1)):
        if qraux[j] == 0.0:
            continue
        temp = b[j, j]
        b[j, j] = qraux[j]
        t = -_ddot(b[j:, j], eta[j:]) / b[j, j]
        if t != 0.0:
            _axpy(t, b[j:, j], eta[j:])
        b[j, j] = temp
    return np.concatenate([eta, b.ravel(order="F"), np.zeros(k * k + k)])


def _qty_head(fit: _Fit, eta: np.ndarray, i: int) -> np.ndarray:
    """``_qty(...)[:k]`` for ``eta = w[i] e_i``, with ``nf > k``: the same
    reflections, skipping only work whose result is not read. The first
    ``ddot`` meets one nonzero term, so it is that product (a left-to-right
    sum from 0 adds zeros exactly); the last ``daxpy`` is needed on
    ``eta[j:k]`` only."""
    b, qraux, k, nf = fit.b, fit.qraux, fit.k, fit.nf
    last = min(k, nf - 1) - 1
    unit = True
    for j in range(last + 1):
        if qraux[j] == 0.0:
            continue
        temp = b[j, j]
        b[j, j] = qraux[j]
        if unit and j <= i:
            t = -(b[i, j] * eta[i]) / b[j, j]
        else:
            t = -_ddot(b[j:, j], eta[j:]) / b[j, j]
        if t != 0.0:
            if j == last:
                eta[j:k] = eta[j:k] + t * b[j:k, j]
            else:
                _axpy(t, b[j:, j], eta[j:])
                unit = False
        b[j, j] = temp
    return eta[:k]


def _hat_row(fit: _Fit, i: int):
    """Value and slope of the local fit when y is the unit vector of neighbour
    ``i`` (0-based): ``V Sigma^+ U^T Q^T W e_i`` (ehg139's vval2, ehg136's L)."""
    k = fit.k
    eta = np.zeros(fit.nf)
    eta[i] = fit.w[i]
    etak = _qty_head(fit, eta, i) if fit.nf > k else _qty(fit.b, fit.qraux, eta, k, fit.nf)[:k]
    etak = etak.tolist()
    dgamma = [0.0] * (k + 1)
    for j in range(1, k + 1):
        dgamma[j] = (_dot(fit.u[1:k + 1, j].tolist(), etak) / fit.sigma[j]
                     if fit.tol < fit.sigma[j] else 0.0)
    v0 = _dot(fit.e[1, 1:k + 1].tolist(), dgamma[1:])
    v1 = _dot(fit.e[2, 1:k + 1].tolist(), dgamma[1:]) if k > 1 else 0.0
    return v0, v1


def _cells(z: np.ndarray, tree, warn: bool = False):
    """The leaf cell's lower and upper vertices of each ``z`` (ehg128's descent).
    A descent reaching ehg128's depth limit gives R's warning where ``warn``
    (and goes on, as R does), else None (the scalar path then repeats R's
    warnings one by one)."""
    a, xi, lo, hi, c1, c2 = tree[1:7]
    j = np.ones(z.size, dtype=np.int64)
    depth = 1
    while True:
        inner = a[j] != 0
        if not inner.any():
            break
        depth += 1
        if not depth < 20:
            if not warn:
                return None
            r_warning(_LOESSWARN[181])
        jj = j[inner]
        j[inner] = np.where(z[inner] <= xi[jj], lo[jj], hi[jj])
    return c1[j], c2[j]


def _hermite(z, vert, ll, ur):
    """ehg128's cubic Hermite basis on each ``z``'s cell: ``(phi0, phi1, psi0,
    psi1, width)``."""
    vll = vert[ll]
    vur = vert[ur]
    h = (z - vll) / (vur - vll)
    phi0 = ((1 - h) * (1 - h)) * (1 + 2 * h)
    phi1 = (h * h) * (3 - 2 * h)
    psi0 = h * ((1 - h) * (1 - h))
    psi1 = (h * h) * (h - 1)
    return phi0, phi1, psi0, psi1, vur - vll


def _vertex_diagonal(z, lv: int, v0, v1, tree, cells) -> np.ndarray:
    """``ehg128(z, vval2)`` for each ``z``, ``vval2`` zero but its column ``lv``
    (``v0[i]``, ``v1[i]`` for point ``i``): ehg128's arithmetic elementwise;
    ``cells``: :func:`_cells` of ``z``."""
    ll, ur = cells
    phi0, phi1, psi0, psi1, width = _hermite(z, tree[0], ll, ur)
    at_ll, at_ur = ll == lv, ur == lv
    return (phi0 * np.where(at_ll, v0, 0.0) + phi1 * np.where(at_ur, v0, 0.0)) + \
        (psi0 * np.where(at_ll, v1, 0.0) + psi1 * np.where(at_ur, v1, 0.0)) * width


# ---------------------------------------------------------------------------
# The k-d tree (ehg126, ehg124, ehg129, ehg125) for one predictor.
# ---------------------------------------------------------------------------

def _kd_tree(x: np.ndarray, fc: int, nvmax: int):
    n = x.size
    alpha = float(np.min(x))
    beta = float(np.max(x))
    mu = 0.005 * max(beta - alpha, 1e-10 * max(abs(alpha), abs(beta)) + 1e-30)
    vert = [0.0, alpha - mu, beta + mu]  # 1-based vertex coordinates
    ncmax = nvmax
    a = [0] * (ncmax + 2)
    xi = [0.0] * (ncmax + 2)
    lo = [0] * (ncmax + 2)
    hi = [0] * (ncmax + 2)
    c1 = [0] * (ncmax + 2)  # c(1, p): lower vertex of cell p
    c2 = [0] * (ncmax + 2)  # c(vc, p): upper vertex
    c1[1], c2[1] = 1, 2
    nv, nc = 2, 1
    xl = [0.0] + x.tolist()
    pi = list(range(n + 1))
    fd = 0.0  # v(3) = 0 times the box diagonal
    p = 1
    l, u = 1, n
    lo[p], hi[p] = l, u
    while p <= nc:
        dg = vert[c2[p]] - vert[c1[p]]
        diam = math.sqrt(dg * dg)
        if (u - l) + 1 <= fc or diam <= fd:
            leaf = True
        else:
            leaf = ncmax < nc + 2 or nvmax < nv + 1.0  # vc / 2 = 1
        if not leaf:
            m = int((l + u) / 2)
            _ehg106(l, u, m, xl, pi)
            offset = 0
            while not (m + offset >= u or m + offset < l):
                if offset < 0:
                    lower, check, upper = l, m + offset, m + offset
                else:
                    lower = m + offset + 1
                    check, upper = lower, u
                _ehg106(lower, upper, check, xl, pi)
                if xl[pi[m + offset]] == xl[pi[m + offset + 1]]:
                    offset = -offset
                    if offset >= 0:
                        offset += 1
                else:
                    m = m + offset
                    break
            leaf = vert[c1[p]] == xl[pi[m]] or vert[c2[p]] == xl[pi[m]]
        if leaf:
            a[p] = 0
        else:
            a[p] = 1
            xi[p] = xl[pi[m]]
            nc += 1
            lo[p] = nc
            lo[nc], hi[nc] = l, m
            nc += 1
            hi[p] = nc
            lo[nc], hi[nc] = m + 1, u
            # ehg125: the new vertex at xi(p), unless it exists already.
            t = xi[p]
            mv = 0
            for cand in range(1, nv + 1):
                if vert[cand] == t:
                    mv = cand
                    break
            if mv == 0:
                nv += 1
                vert.append(t)
                mv = nv
                if nv > nvmax:
                    r_warning(_LOESSWARN[180])
            c1[lo[p]], c2[lo[p]] = c1[p], mv
            c1[hi[p]], c2[hi[p]] = mv, c2[p]
        p += 1
        if p <= ncmax + 1:
            l, u = lo[p], hi[p]
    return (np.asarray(vert), np.asarray(a[:nc + 1]), np.asarray(xi[:nc + 1]),
            np.asarray(lo[:nc + 1]), np.asarray(hi[:nc + 1]), np.asarray(c1[:nc + 1]),
            np.asarray(c2[:nc + 1]), nv, pi, nc)


def _ehg137(z: float, tree) -> list:
    """The leaf cells whose closure holds ``z`` (both sons where ``z`` is the split)."""
    a, xi, lo, hi = tree[1], tree[2], tree[3], tree[4]
    leaves, stack, p = [], [], 1
    while p > 0:
        if a[p] == 0:
            leaves.append(p)
            p = stack.pop() if stack else 0
        elif z == xi[p]:
            stack.append(int(hi[p]))
            p = int(lo[p])
        else:
            p = int(lo[p]) if z <= xi[p] else int(hi[p])
    return leaves


# ehg176: the fixed 1-d surface of ehg141's correction (a k-d tree of 10 vertices).
_EHG176 = (np.array([0.0, -5.0e-3, 1.005, 0.3705, 0.2017, 0.5591, 0.1204, 0.2815, 0.4536,
                     0.7132, 0.8751]),
           np.array([0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]),
           np.array([0.0, 0.3705, 0.2017, 0.5591, 0.1204, 0.2815, 0.4536, 0.7132, 0, 0, 0, 0, 0,
                     0, 0, 0.8751, 0, 0]),
           np.array([0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0]),
           np.array([0, 3, 5, 7, 9, 11, 13, 15, 0, 0, 0, 0, 0, 0, 0, 17, 0, 0]),
           np.array([0, 1, 1, 3, 1, 4, 3, 5, 1, 6, 4, 7, 3, 8, 5, 9, 9, 10]),
           np.array([0, 2, 3, 2, 4, 3, 5, 2, 6, 4, 7, 3, 8, 5, 9, 2, 10, 2]), 10)
_EHG176_VVAL = np.array([[0.0, -9.0572e-2, -1.0856e-2, -5.3718e-2, 2.6152e-2, -5.8387e-2,
                          9.5807e-2, -3.1926e-2, -6.4170e-2, -2.0636e-2, 4.0172e-2],
                         [0.0, 4.4844, -0.7736, -0.3495, -0.7286, 0.1611, -0.7978, -0.4457,
                          3.2813e-2, 0.3350, -4.1032e-2]])
# ehg141's coefficients c(1:48): for d = 1, degree 1 uses c(1:3) and c(25:27),
# degree 2 c(13:15) and c(37:39).
_EHG141_C = {(1, 1): (0.2971620, 0.3802660, 0.5886043), (1, 2): (0.2848308, 0.2254512, 0.2914126),
             (2, 1): (0.1611761, 0.3091323, 0.4401023), (2, 2): (0.2075670, 0.2822574, 0.2369957)}


def _ehg141(trl: float, n: int, deg: int, k: int, nsing: int):
    """ehg141 for d = 1: its warnings and (delta1, delta2)."""
    corx = math.sqrt(k / float(n))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = float((np.sqrt(np.float64(k) / np.float64(trl)) - corx) / (1 - corx))
    if nsing == 0 and 1 < z:
        _ehg184("Chernobyl! trL<k", [trl])
    elif z < 0:
        _ehg184("Chernobyl! trL>n", [trl])
    z = min(1.0, max(0.0, z)) if not math.isnan(z) else 0.0  # gfortran's MAX drops a NaN
    c4 = math.exp(float(_ehg128(np.array([z]), _EHG176, _EHG176_VVAL)[0]))
    out = []
    for which in (1, 2):
        c1, c2, c3 = _EHG141_C[(deg, which)]
        out.append(float(n) - trl * math.exp(((c1 * math.pow(z, c2)) * math.pow(1 - z, c3)) * c4))
    return out


def _statistics_warnings(trl: float, n: int, tau: int, nsing: int, y, fitted, w) -> None:
    """lowesa's warnings (ehg141, twice) and simpleLoess's ``sqrt(sum.squares/one.delta)``."""
    d1a, _ = _ehg141(trl, n, 1, tau, nsing)
    d1b, _ = _ehg141(trl, n, 2, tau, nsing)
    alpha = float(tau - 2) / float(3 - 2)
    one_delta = (1 - alpha) * d1a + alpha * d1b
    res = y - fitted
    ss = np.float64(r_sum(w * (res * res)))
    with np.errstate(divide="ignore", invalid="ignore"):
        if ss / np.float64(one_delta) < 0:
            r_warning("NaNs produced")


def _ehg128(z: np.ndarray, tree, vval: np.ndarray) -> np.ndarray:
    """Cubic Hermite interpolation in the leaf cell holding each ``z``."""
    ll, ur = _cells(z, tree, warn=True)
    phi0, phi1, psi0, psi1, width = _hermite(z, tree[0], ll, ur)
    return (phi0 * vval[0, ll] + phi1 * vval[0, ur]) + \
        (psi0 * vval[1, ll] + psi1 * vval[1, ur]) * width


# ---------------------------------------------------------------------------
# loess
# ---------------------------------------------------------------------------

@quiet_fp
def loess_fitted(x, y, weights=None, span: float = 0.75, degree: int = 2,
                 surface: str = "interpolate", cell: float = 0.2) -> np.ndarray:
    """The fitted values of R's ``loess(y ~ x)`` with one numeric predictor.

    R equivalent: ``fitted(loess(y ~ x, weights = weights, span = span,
    degree = degree, family = "gaussian", control = loess.control(surface =
    surface, cell = cell)))`` (R 4.2.2), bit for bit.

    Private: :func:`val_prob`'s grouped statistics (``Hmisc::wtd.loess.noiter``)
    rest on it. Inputs are finite float vectors of one length (the caller
    checks them); ``weights`` defaults to ones.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    n = x.size
    rw = np.ones(n) if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    if degree not in (0, 1, 2):
        raise ProbcalError("'degree' must be 0, 1 or 2")
    if surface not in ("interpolate", "direct"):
        raise ProbcalError("'arg' should be one of \u201cinterpolate\u201d, \u201cdirect\u201d")
    if n == 0:
        raise ProbcalError("invalid 'x'")
    span = float(span)
    nvmax = max(200, n)
    nf = min(n, int(math.floor(n * span + 1e-5)))
    if nf <= 0:
        raise ProbcalError("span is too small")
    if not 0 < span:
        r_warning(_LOESSWARN[120])
    k = degree + 1
    if k > nf - 1:
        r_warning(_LOESSWARN[104])
    state = _State()
    psi = list(range(n + 1))
    tau = 3 if degree == 2 else 2
    if surface == "direct":
        # lowesf with ihat = 1 ("direct/approximate"): the fit and L's diagonal.
        out = np.empty(n)
        diag = np.empty(n)
        for i in range(n):
            out[i], _, fit = _ehg127(float(x[i]), x, None, y, rw, nf, span, degree, psi, state)
            pos = 1
            while psi[pos] != i + 1:
                pos += 1
                if not pos < nf:
                    r_warning(_LOESSWARN[123])
                    break
            diag[i] = _hat_row(fit, min(pos, nf) - 1)[0]
        _statistics_warnings(_c_sum(diag), n, tau, state.sing, y, out, rw)
        return out
    fc = _ifloor(n * (span * cell))
    tree = _kd_tree(x, fc, nvmax)
    vert, nv, pi, nc = tree[0], tree[7], tree[8], tree[9]
    lo, hi = tree[3], tree[4]
    vval = np.zeros((2, nv + 1))
    diagl = np.zeros(n)
    vval2 = np.zeros((2, nv + 1))
    for lv in range(1, nv + 1):
        vval[0, lv], vval[1, lv], fit = _ehg127(float(vert[lv]), x, None, y, rw, nf, span,
                                                degree, psi, state)
        # ehg139 with trl != 0: each neighbour's contribution to its own fit
        # through this vertex (L's diagonal), over the leaves touching it.
        phi = {psi[i]: i for i in range(1, nf + 1)}
        points, rows = [], []
        for leaf in _ehg137(float(vert[lv]), tree):
            for ii in range(int(lo[leaf]), int(hi[leaf]) + 1):
                i = phi.get(pi[ii], 0)
                if i:
                    points.append(pi[ii] - 1)
                    rows.append(i - 1)
        # Each point lies in one leaf, so it gets one term per vertex, added
        # in vertex order as R adds them: ehg128 runs once per vertex on all
        # its points (elementwise, the same arithmetic as point by point).
        points_a, rows_a = np.array(points, dtype=np.int64), np.array(rows, dtype=np.int64)
        z = x[points_a]
        cells = _cells(z, tree)
        if cells is not None:
            hat = np.array([_hat_row(fit, row) for row in rows]).reshape(-1, 2)
            diagl[points_a] += _vertex_diagonal(z, lv, hat[:, 0], hat[:, 1], tree, cells)
            continue
        for pt, row in zip(points, rows):  # R's depth warnings, one per point
            vval2[0, lv], vval2[1, lv] = _hat_row(fit, row)
            diagl[pt] += float(_ehg128(np.array([x[pt]]), tree, vval2)[0])
            vval2[:, lv] = 0.0
    if nvmax < nv + 1.0:
        r_warning(f"k-d tree limited by memory; nvmax= {nvmax}")
    elif nvmax < nc + 2:
        r_warning(f"k-d tree limited by memory. ncmax= {nvmax}")
    fitted = _ehg128(x, tree, vval)
    _statistics_warnings(_c_sum(diagl), n, tau, state.sing, y, fitted, rw)
    return fitted


def _c_sum(v: np.ndarray) -> float:
    # loess_raw: for (i = 0; i < n; i++) *trL = *trL + diagonal[i];
    return seq_sum(v)


def _ifloor(v: float) -> int:
    i = int(v)
    return i - 1 if i > v else i

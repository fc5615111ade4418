# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/splines/src/splines.c, src/library/splines/R/splines.R, src/library/splines/R/splineClasses.R (GPL-2.0-or-later), (c) The R Core Team; splines.c in part (c) 1998 Douglas M. Bates and William N. Venables
# Derived from: R 4.2.2 src/appl/dqrdc2.f, src/appl/dqrsl.f (GPL-2.0-or-later), (c) The R Core Team; LINPACK by J. J. Dongarra, C. Moler, G. W. Stewart
"""R's ``splines::ns`` and ``splines::bs`` bases, bit for bit.

``spline_design`` is ``splines::splineDesign`` (de Boor's recurrence of
``splines.c``: ``basis_funcs`` for values, ``evaluate`` for derivatives);
``ns`` and ``bs`` place their interior knots at R's type-7 quantiles of the
``x`` inside the boundary knots (``seq.int(0, 1, length.out = k + 2)``'s
inner points), evaluate the basis inside the boundary knots and extrapolate
outside them as R does (``ns`` linearly, ``bs`` by its Taylor polynomial at
the pivot, with R's warning), and ``ns`` projects on the null space of the
second derivatives at the boundary through LINPACK's ``dqrdc2``/``dqrsl``
(``qr(t(const))``, ``qr.qty``), in R's order of operations.

Private: the bases of :func:`pycalib_r.pmcalibration`'s ``smooth = "ns"``
and ``"bs"``.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np

from ..rstats import quantile_r
from ..rstats import dqrdc2 as _dqrdc2
from ..rbase._errors import ProbcalError
from ..rbase._warn import r_warning

__all__ = ["Basis", "spline_design", "ns", "bs", "seq_int_length"]


class Basis(NamedTuple):
    """A basis matrix and the attributes ``predict()`` needs (R's ``attributes(ns(...))``)."""

    matrix: np.ndarray
    degree: int
    knots: np.ndarray
    boundary_knots: np.ndarray
    intercept: bool


def seq_int_length(start: float, stop: float, n: int) -> np.ndarray:
    """R's ``seq.int(from, to, length.out = n)`` (R 4.2.2 src/main/seq.c):
    ``from + i * by`` with ``by = (to - from) / (n - 1)``, the last ``to``."""
    out = np.empty(n)
    if n > 0:
        out[0] = start
    if n > 1:
        out[n - 1] = stop
    if n > 2:
        by = (stop - start) / (n - 1)
        for i in range(1, n - 1):
            out[i] = start + i * by
    return out


def _basis_funcs(knots: np.ndarray, curs: np.ndarray, x: np.ndarray, ordm1: int) -> np.ndarray:
    # splines.c basis_funcs, vectorised over the points (each point's own cursor).
    m = x.size
    rdel = np.empty((m, ordm1))
    ldel = np.empty((m, ordm1))
    for i in range(ordm1):
        rdel[:, i] = knots[curs + i] - x
        ldel[:, i] = x - knots[curs - (i + 1)]
    b = np.zeros((m, ordm1 + 1))
    b[:, 0] = 1.0
    for j in range(1, ordm1 + 1):
        saved = np.zeros(m)
        for r in range(j):
            den = rdel[:, r] + ldel[:, j - 1 - r]
            ok = den != 0
            with np.errstate(divide="ignore", invalid="ignore"):
                term = b[:, r] / den
            new_b = np.where(ok, saved + rdel[:, r] * term,
                             np.where((r != 0) | (rdel[:, r] != 0.0), saved, b[:, r]))
            saved = np.where(ok, ldel[:, j - 1 - r] * term, 0.0)
            b[:, r] = new_b
        b[:, j] = saved
    return b


def _evaluate(knots: np.ndarray, curs: int, boundary: bool, x: float, nder: int,
              a: list, ordm1: int) -> float:
    # splines.c evaluate (the derivative path), one point.
    if boundary and nder == ordm1:
        return 0.0
    outer = ordm1
    ti = curs
    while nder > 0:
        nder -= 1
        for k in range(outer):
            lpt = ti - outer + k
            a[k] = outer * (a[k + 1] - a[k]) / (knots[lpt + outer] - knots[lpt])
        outer -= 1
    rdel = [knots[curs + i] - x for i in range(outer)]
    ldel = [x - knots[curs - (i + 1)] for i in range(outer)]
    while outer > 0:
        outer -= 1
        lp = outer
        for k in range(outer + 1):
            a[k] = (a[k + 1] * ldel[lp] + a[k] * rdel[k]) / (rdel[k] + ldel[lp])
            lp -= 1
    return a[0]


def _cursors(knots: np.ndarray, x: np.ndarray, ordr: int):
    # splines.c set_cursor: the first knot > x (the last knot >= x when none
    # is >), with the right boundary knot belonging to the last interval.
    nk = knots.size
    gt = np.searchsorted(knots, x, side="right")  # first index with knots > x
    ge_last = np.searchsorted(knots, x, side="left")  # first index with knots >= x
    curs = np.where(gt < nk, gt, np.where(ge_last < nk, nk - 1, -1))
    last = nk - ordr
    boundary = (curs > last) & (x == knots[last])
    curs = np.where(boundary, last, curs)
    return curs.astype(np.int64), boundary


def spline_design(knots, x, ord: int = 4, derivs=(0,)) -> np.ndarray:  # noqa: A002
    """R's ``splineDesign(knots, x, ord, derivs)`` (``outer.ok = FALSE``): the
    ``length(x)`` by ``length(knots) - ord`` B-spline design matrix.

    R equivalent: ``splines::splineDesign(knots, x, ord, derivs)``.

    Examples
    --------
    >>> m = spline_design([0, 0, 0, 0, 0.5, 1, 1, 1, 1], [0.25, 0.75])
    >>> print(" ".join(f"{v:.6g}" for v in m[0]))
    0.125 0.59375 0.25 0.03125 0

    R: ``splineDesign(c(0, 0, 0, 0, 0.5, 1, 1, 1, 1), c(0.25, 0.75))[1, ]`` prints
    ``[1] 0.12500 0.59375 0.25000 0.03125 0.00000``.
    """
    knots = np.sort(np.asarray(knots, dtype=np.float64))
    x = np.asarray(x, dtype=np.float64).ravel()
    derivs = np.asarray(derivs, dtype=np.int64).ravel()
    nk = knots.size
    nx = x.size
    if nk <= 0:
        raise ProbcalError("must have at least 'ord' knots")
    if derivs.size > nx:
        raise ProbcalError("length of 'derivs' is larger than length of 'x'")
    if derivs.size < 1:
        raise ProbcalError("empty 'derivs'")
    if ord > nk or ord < 1:
        raise ProbcalError("'ord' must be positive integer, at most the number of knots")
    if nk < 2 * ord - 1:
        raise ProbcalError(f"need at least 2*ord -1 (={2 * ord - 1}) knots")
    degree = ord - 1
    if np.any((x < knots[ord - 1]) | (knots[nk - degree - 1] < x)):
        raise ProbcalError(f"the 'x' data must be in the range {knots[ord - 1]:g} to "
                           f"{knots[nk - degree - 1]:g} unless you set 'outer.ok = TRUE'")
    ncoef = nk - ord
    curs, boundary = _cursors(knots, x, ord)
    offsets = curs - ord
    der = derivs[np.arange(nx) % derivs.size]
    vals = np.empty((nx, ord))
    plain = der == 0
    if plain.any():
        vals[plain] = _basis_funcs(knots, curs[plain], x[plain], ord - 1)
    for i in np.flatnonzero(~plain):
        d = int(der[i])
        if d >= ord:
            raise ProbcalError(f"derivs = {d} >= ord = {ord}, but should be in {{0,..,ord-1}}")
        for ii in range(ord):
            a = [0.0] * ord
            a[ii] = 1.0
            vals[i, ii] = _evaluate(knots, int(curs[i]), bool(boundary[i]), float(x[i]), d, a,
                                    ord - 1)
    design = np.zeros((nx, ncoef))
    rows = np.repeat(np.arange(nx), ord)
    cols = (offsets[:, None] + np.arange(ord)[None, :]).ravel()
    design[rows, cols] = vals.ravel()
    return design


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # Reference dgemm (C = 0; C[:, j] += B[l, j] * A[:, l], l in order): the
    # sums in R's order, whatever numpy's BLAS would do.
    out = np.zeros((a.shape[0], b.shape[1]))
    for j in range(b.shape[1]):
        for l in range(a.shape[1]):
            out[:, j] = out[:, j] + b[l, j] * a[:, l]
    return out


def _interior_knots(x: np.ndarray, outside: np.ndarray, n_inner: int) -> np.ndarray:
    if n_inner <= 0:
        return np.empty(0)
    probs = seq_int_length(0.0, 1.0, n_inner + 2)[1:-1]
    return quantile_r(x[~outside], probs)


def _check_x(x) -> np.ndarray:
    xv = np.asarray(x, dtype=np.float64).ravel()
    if np.isnan(xv).any():
        raise ProbcalError("missing values in x are not supported here; remove them first")
    return xv


def ns(x, df: Optional[int] = None, knots=None, intercept: bool = False,
       boundary_knots=None) -> Basis:
    """The natural cubic spline basis of R's ``splines::ns``.

    R equivalent: ``splines::ns(x, df, knots, intercept, Boundary.knots)``;
    ``boundary_knots=None`` is R's default ``range(x)`` *passed explicitly*
    (as pmcalibration passes it), so points beyond the boundary are found
    as R finds them.

    Examples
    --------
    >>> b = ns([0.1, 0.4, 0.5, 0.9, 1.3], df=2)
    >>> b.matrix.shape, [round(float(k), 6) for k in b.knots]
    ((5, 2), [0.5])
    """
    xv = _check_x(x)
    bk = (np.array([xv.min(), xv.max()]) if boundary_knots is None
          else np.sort(np.asarray(boundary_knots, dtype=np.float64)))
    ol = xv < bk[0]
    orr = xv > bk[1]
    outside = ol | orr
    if df is not None and knots is None:
        n_inner = int(df) - 1 - int(intercept)
        if n_inner < 0:
            n_inner = 0
            r_warning(f"'df' was too small; have used {1 + int(intercept)}")
        kn = _interior_knots(xv, outside, n_inner)
    else:
        kn = np.empty(0) if knots is None else np.asarray(knots, dtype=np.float64).ravel()
        n_inner = kn.size
    aknots = np.sort(np.concatenate([np.repeat(bk, 4), kn]))
    if outside.any():
        basis = np.zeros((xv.size, n_inner + 4))
        for side, piv in ((ol, bk[0]), (orr, bk[1])):
            if side.any():
                xl = np.column_stack([np.ones(int(side.sum())), xv[side] - piv])
                tt = spline_design(aknots, [piv, piv], 4, (0, 1))
                basis[side] = _matmul(xl, tt)
        inside = ~outside
        if inside.any():
            basis[inside] = spline_design(aknots, xv[inside], 4)
    else:
        basis = spline_design(aknots, xv, 4)
    const = spline_design(aknots, bk, 4, (2, 2))
    if not intercept:
        const = const[:, 1:]
        basis = basis[:, 1:]
    basis = _project(const, basis)
    return Basis(basis, 3, kn, bk, bool(intercept))


def _project(const: np.ndarray, basis: np.ndarray) -> np.ndarray:
    # t(qr.qty(qr(t(const)), t(basis)))[, -(1:2)]: dqrdc2 of the m x 2
    # matrix t(const), then dqrsl's Q'y (job 1000) on each row of the basis,
    # the reference ddot/daxpy sums in their loop order.
    if not np.isfinite(const).all():  # knots piled on a boundary: R's qr() refuses the NaN
        raise ProbcalError("NA/NaN/Inf in foreign function call (arg 1)")
    qr, k, qraux, _ = _dqrdc2(const.T, 1e-7)
    n = qr.shape[0]
    qty = np.array(basis, dtype=np.float64, copy=True)
    for j in range(min(k, n - 1)):
        if qraux[j] == 0.0:
            continue
        col = qr[j:, j].copy()
        col[0] = qraux[j]
        dot = np.zeros(qty.shape[0])
        for i in range(col.size):
            dot = dot + col[i] * qty[:, j + i]
        t = -dot / col[0]
        for i in range(col.size):
            qty[:, j + i] = qty[:, j + i] + t * col[i]
    return qty[:, 2:]


def bs(x, df: Optional[int] = None, knots=None, degree: int = 3, intercept: bool = False,
       boundary_knots=None) -> Basis:
    """The B-spline basis of R's ``splines::bs``.

    R equivalent: ``splines::bs(x, df, knots, degree, intercept,
    Boundary.knots)``, ``boundary_knots=None`` meaning ``range(x)`` passed
    explicitly (see :func:`ns`); points beyond the boundary warn as in R.

    Examples
    --------
    >>> bs([0.1, 0.4, 0.5, 0.9, 1.3], df=4).matrix.shape
    (5, 4)
    """
    ordr = 1 + int(degree)
    if ordr <= 1:
        raise ProbcalError("'degree' must be integer >= 1")
    xv = _check_x(x)
    bk = (np.array([xv.min(), xv.max()]) if boundary_knots is None
          else np.sort(np.asarray(boundary_knots, dtype=np.float64)))
    ol = xv < bk[0]
    orr = xv > bk[1]
    outside = ol | orr
    if df is not None and knots is None:
        n_inner = int(df) - ordr + (1 - int(intercept))
        if n_inner < 0:
            n_inner = 0
            r_warning(f"'df' was too small; have used {ordr - (1 - int(intercept))}")
        kn = _interior_knots(xv, outside, n_inner)
    else:
        kn = np.empty(0) if knots is None else np.asarray(knots, dtype=np.float64).ravel()
    aknots = np.sort(np.concatenate([np.repeat(bk, ordr), kn]))
    if outside.any():
        r_warning("some 'x' values beyond boundary knots may cause ill-conditioned bases")
        derivs = np.arange(ordr)
        scalef = np.array([math.gamma(i) for i in range(1, ordr + 1)])
        basis = np.zeros((xv.size, aknots.size - int(degree) - 1))
        e = 0.25
        for side, piv in ((ol, (1 - e) * bk[0] + e * aknots[ordr]),
                          (orr, (1 - e) * bk[1] + e * aknots[aknots.size - ordr - 1])):
            if side.any():
                d = xv[side] - piv
                # outer(d, 1:degree, `^`): R_pow_di for integer powers
                xl = np.column_stack([np.ones(d.size)] + [_pow_di(d, k) for k in range(1, ordr)])
                tt = spline_design(aknots, np.repeat(piv, ordr), ordr, derivs)
                basis[side] = _matmul(xl, tt / scalef[:, None])
        inside = ~outside
        if inside.any():
            basis[inside] = spline_design(aknots, xv[inside], ordr)
    else:
        basis = spline_design(aknots, xv, ordr)
    if not intercept:
        basis = basis[:, 1:]
    return Basis(basis, int(degree), kn, bk, bool(intercept))


def _pow_di(x: np.ndarray, n: int) -> np.ndarray:
    # R's `^` (arithmetic.c R_POW): y == 2 is x * x, otherwise R_pow, which
    # for finite operands is the C library's pow (numpy's power calls it).
    if n == 2:
        return x * x
    return np.power(x, float(n))


def predict_basis(kind: str, basis: Basis, newx) -> np.ndarray:
    """``predict(basis, newx)``: the same basis (knots, boundary knots,
    intercept) at ``newx``. R equivalent: ``predict(ns(...), newx)``."""
    if kind == "ns":
        return ns(newx, knots=basis.knots, intercept=basis.intercept,
                  boundary_knots=basis.boundary_knots).matrix
    return bs(newx, knots=basis.knots, degree=basis.degree, intercept=basis.intercept,
              boundary_knots=basis.boundary_knots).matrix

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/loess.R, src/library/stats/src/loessc.c (GPL-2.0-or-later), (c) The R Core Team; loessc.c in part (c) 1989, 1992 by AT&T (Cleveland, Grosse and Shyu)
"""``predict.loess`` for one predictor: the fitted values with their standard
errors (``se = TRUE``, the band of CalibrationCurves' ``val.prob.ci.2``) and
the curve at new points (pmcalibration's loess smooth), from the same k-d
tree and vertex fits as :func:`loess_fitted`."""

from __future__ import annotations

import math

import numpy as np

from ..rbase._errors import ProbcalError
from ..rbase._rarith import r_sum
from ..rbase._warn import r_warning
from ._loess import (_LOESSWARN, _State, _cells, _ehg127, _ehg128, _ehg141, _hermite, _ifloor, _kd_tree,
                     _statistics_warnings)

__all__ = ["loess_with_se", "loess_predictor"]


# ---------------------------------------------------------------------------
# predict(loess(y ~ p, degree = 2), se = TRUE)
# ---------------------------------------------------------------------------

def _vertex_fits(x: np.ndarray, y: np.ndarray, span: float, degree: int, cell: float):
    """The k-d tree of ``loess(y ~ x)`` and its vertex values and slopes, in
    ``loess_fitted``'s order on one persisting permutation (R's sums follow
    it), so that values interpolated from them are R's, bit for bit.
    Returns ``(tree, vval, state, nf)``."""
    n = x.size
    nf = min(n, int(math.floor(n * span + 1e-5)))
    if nf <= 0:
        raise ProbcalError("span is too small")
    if degree + 1 > nf - 1:
        r_warning(_LOESSWARN[104])
    tree = _kd_tree(x, _ifloor(n * (span * cell)), max(200, n))
    vert, nv = tree[0], tree[7]
    state = _State()
    psi = list(range(n + 1))
    rw = np.ones(n)
    vval = np.zeros((2, nv + 1))
    for lv in range(1, nv + 1):
        vval[0, lv], vval[1, lv], _ = _ehg127(float(vert[lv]), x, None, y, rw, nf, span, degree, psi, state)
    return tree, vval, state, nf


def loess_with_se(x: np.ndarray, y: np.ndarray, span: float = 0.75, degree: int = 2,
                   cell: float = 0.2):
    """R's fitted values (bit for bit) and ``se.fit`` of ``predict.loess``."""
    n = x.size
    nvmax = max(200, n)
    # L's diagonal, which R computes point by point for its statistics, comes
    # from the vertex operators below instead (to rounding).
    tree, vval, state, nf = _vertex_fits(x, y, span, degree, cell)
    vert, nv, nc = tree[0], tree[7], tree[9]
    if nvmax < nv + 1.0:
        r_warning(f"k-d tree limited by memory; nvmax= {nvmax}")
    elif nvmax < nc + 2:
        r_warning(f"k-d tree limited by memory. ncmax= {nvmax}")
    fitted = _ehg128(x, tree, vval)
    k = degree + 1
    # Each vertex's local fit as a linear operator on y: value and slope rows.
    ops = np.zeros((2 * (nv + 1), n))
    for lv in range(1, nv + 1):
        q = float(vert[lv])
        dist = (x - q) * (x - q)
        rho = float(np.partition(dist, nf - 1)[nf - 1]) * max(1.0, span)
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.sqrt(dist / rho)
            om = np.where(w < 1, 1.0 - (w * w) * w, 0.0)
            w = np.sqrt((om * om) * om)
        sel = np.flatnonzero(w > 0)
        ws = w[sel]
        b = np.empty((sel.size, k))
        d = x[sel] - q
        b[:, 0] = ws
        if degree >= 1:
            b[:, 1] = ws * d
        if degree >= 2:
            b[:, 2] = ws * (d * d)
        colnor = np.sqrt((b * b).sum(axis=0))
        colnor[colnor == 0] = 1.0
        pinv = np.linalg.pinv(b / colnor, rcond=100 * 2.220446049250313e-16)
        ops[2 * lv, sel] = pinv[0] * ws / colnor[0]
        if degree >= 1:
            ops[2 * lv + 1, sel] = pinv[1] * ws / colnor[1]
    ll, ur = _cells(x, tree)
    phi0, phi1, psi0, psi1, width = _hermite(x, vert, ll, ur)
    gram = ops @ ops.T
    idx = np.stack([2 * ll, 2 * ur, 2 * ll + 1, 2 * ur + 1], axis=1)
    coef = np.stack([phi0, phi1, psi0 * width, psi1 * width], axis=1)
    g = gram[idx[:, :, None], idx[:, None, :]]
    l2 = np.einsum("ni,nij,nj->n", coef, g, coef)
    # L's diagonal (trace.hat = "exact"), for one.delta's approximation.
    diag = (coef[:, 0] * ops[2 * ll, np.arange(n)] + coef[:, 1] * ops[2 * ur, np.arange(n)]
            + coef[:, 2] * ops[2 * ll + 1, np.arange(n)] + coef[:, 3] * ops[2 * ur + 1, np.arange(n)])
    trl = float(np.sum(diag))
    _statistics_warnings(trl, n, 3 if degree == 2 else 2, state.sing, y, fitted, np.ones(n))
    one_delta = _one_delta(trl, n, degree)
    res = y - fitted
    s = math.sqrt(r_sum(res * res) / one_delta)
    return fitted, s * np.sqrt(l2)


def _one_delta(trl: float, n: int, degree: int) -> float:
    """``lowesa``'s ``one.delta``: ehg141's approximation for degree 1 and 2, interpolated."""
    import warnings as _w

    tau = 3 if degree == 2 else 2
    with _w.catch_warnings():
        _w.simplefilter("ignore")  # loess_fitted gave R's warnings already
        d1a, _ = _ehg141(trl, n, 1, tau, 0)
        d1b, _ = _ehg141(trl, n, 2, tau, 0)
    alpha = float(tau - 2)
    return (1 - alpha) * d1a + alpha * d1b


def loess_predictor(x: np.ndarray, y: np.ndarray):
    """``predict(loess(y ~ x), newdata)`` as a function of ``newdata`` (span
    0.75, degree 2, interpolate): the k-d tree and its vertex values, as
    ``loess_fitted`` builds them (the hat matrix's trace, which only R's
    summary statistics use, is not computed); NaN outside the data's range,
    where R gives NA.

    R equivalent: ``predict(loess(y ~ x), newdata)``."""
    tree, vval, _, _ = _vertex_fits(x, y, 0.75, 2, 0.2)
    lo, hi = float(x.min()), float(x.max())

    def predict(z: np.ndarray) -> np.ndarray:
        out = np.full(z.size, np.nan)
        inside = (z >= lo) & (z <= hi)
        if inside.any():
            out[inside] = _ehg128(np.ascontiguousarray(z[inside]), tree, vval)
        return out

    return predict

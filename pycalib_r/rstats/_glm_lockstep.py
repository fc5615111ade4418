# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/src/family.c (GPL-2.0-or-later), (c) The R Core Team
"""Several binomial glm fits in lockstep: the K one-vs-rest Platt fits of ``cal_ovr()``."""

from __future__ import annotations

import math
from typing import List, Optional

import numpy as np

from ..rbase._rarith import r_log, r_sum, seq_sum
from ._glm import _dev_resids, _exp_eta, _glm_irls, _linkinv, _mu_eta
from ._linpack import _EPSILON, _MAXIT, _QR_TOL, _TBIG, _TSML, _dnrm2

# ---------------------------------------------------------------------------
# Several glm fits in lockstep (one-vs-rest Platt)
# ---------------------------------------------------------------------------
#
# cal_ovr() fits K independent glms on the same rows. Run one by one, each
# IRLS step is a few dozen numpy calls on short vectors, so at n ~ 500 the
# time is call overhead. Below, the K fits advance together with the classes
# on the last axis: every elementwise operation is the same IEEE operation
# on the same operands, and every Fortran-order sum is a column sum of a
# C-ordered (n, K) array, which numpy adds row after row (left to right per
# column). A fit that needs a branch the lockstep path does not take (column
# pivoting, step halving, uninformative rows, an extreme norm) is redone
# alone by glm_binomial's own loop, so every fit is the one glm_binomial
# returns, bit for bit.


def _colsums_are_sequential() -> bool:
    probe = np.zeros((1000, 2))
    probe[0] = 1.0
    probe[1:] = 2.0 ** -53
    return bool((np.add.reduce(probe, axis=0) == 1.0).all())


_COLSUM_SEQUENTIAL = _colsums_are_sequential()


def _seq_colsums(a: np.ndarray) -> np.ndarray:
    """Left-to-right double sum of each column of ``a`` (n x m)."""
    if a.shape[1] == 1 or not _COLSUM_SEQUENTIAL:
        return np.array([seq_sum(np.ascontiguousarray(a[:, c])) for c in range(a.shape[1])])
    # C order matters: on a Fortran-ordered array the column is the inner
    # loop, which numpy sums pairwise.
    return np.add.reduce(np.ascontiguousarray(a), axis=0)


def _ld_colsums(a: np.ndarray) -> np.ndarray:
    """R ``sum()`` of each column (sequential long double, then rounded)."""
    if a.shape[1] == 1 or not _COLSUM_SEQUENTIAL:
        return np.array([r_sum(a[:, c]) for c in range(a.shape[1])])
    return np.add.reduce(a.astype(np.longdouble, order="C"), axis=0).astype(np.float64)


# |a| > TBIG exactly when a * a > TBIG^2, and |a| < TSML exactly when
# a * a < TSML^2 = 2^-1022 (the rounded square of a double just below 2^-511
# stays below 2^-1022); NaN fails every test either way.
_TBIG2 = _TBIG * _TBIG
_TSML2 = _TSML * _TSML


def _dnrm2_cols(v: np.ndarray):
    """``_dnrm2`` of each column and a mask of the columns it cannot do unscaled."""
    sq = v * v  # |a| * |a|, the same double
    # fmax/fmin skip NaN, as the elementwise comparisons do. Over the whole
    # array first (one fast reduction): per column only if some value is odd.
    if sq.size and (np.fmax.reduce(sq, axis=None) > _TBIG2 or np.fmin.reduce(sq, axis=None) < _TSML2):
        odd = (np.fmax.reduce(sq, axis=0) > _TBIG2) | (np.fmin.reduce(sq, axis=0) < _TSML2)
    else:
        odd = np.zeros(sq.shape[1], dtype=bool)
    return np.sqrt(_seq_colsums(sq)), odd


def _axpy_cols(t: np.ndarray, x: np.ndarray, y: np.ndarray) -> None:
    """daxpy per class in place, skipped (as LINPACK skips it) where ``t == 0``."""
    if (t != 0.0).all():
        y += t * x
    else:
        y[...] = np.where(t != 0.0, y + t * x, y)


def _false_where_all(ok: np.ndarray) -> np.ndarray:
    """``~ok.all(axis=0)``, with one whole-array test for the usual all-true case."""
    if ok.all():
        return np.zeros(ok.shape[1], dtype=bool)
    return ~ok.all(axis=0)


def _cdqrls_cols(x3: np.ndarray, y2: np.ndarray, tol: float, overwrite: bool = False):
    """``_cdqrls`` for each class (x3: p x n x m, column j of every class in
    ``x3[j]``; y2: n x m) and the classes it could not do.

    Only the path without pivoting and with nonzero pivots; a class flagged
    in ``bad`` has garbage in its slots. ``overwrite``: ``x3`` and ``y2`` are
    the caller's temporaries, worked on in place.
    """
    p, n, m = x3.shape
    x = x3 if overwrite else x3.copy()
    bad = np.zeros(m, dtype=bool)
    qraux = np.empty((p, m))
    for j in range(p):
        qraux[j], odd = _dnrm2_cols(x[j])
        bad |= odd
    work2 = qraux.copy()
    work2[work2 == 0.0] = 1.0
    for l in range(p):
        bad |= ~(qraux[l] >= work2[l] * tol)  # would pivot
        if l == 0:
            # Column 0 is untouched so far: its norm is the one just taken.
            nrmxl = qraux[0].copy()
        else:
            nrmxl, odd = _dnrm2_cols(x[l, l:])
            bad |= odd
        bad |= nrmxl == 0.0
        xll = x[l, l]
        if (xll != 0.0).all():  # copysign ignores the sign of |nrmxl|
            nrmxl = np.copysign(nrmxl, xll)
        else:
            nrmxl = np.where(xll != 0.0, np.copysign(np.abs(nrmxl), xll), nrmxl)
        x[l, l:] *= 1.0 / nrmxl
        x[l, l] = 1.0 + x[l, l]
        for j in range(l + 1, p):
            t = -_seq_colsums(x[l, l:] * x[j, l:]) / x[l, l]
            _axpy_cols(t, x[l, l:], x[j, l:])
            # Scalar arithmetic, as _dqrdc2 does it: ``** 2`` is C pow() for
            # numpy and Python floats alike, which numpy's array square is not.
            xlj = np.abs(x[j, l]).tolist()
            qj = qraux[j].tolist()
            for c in range(m):
                if bad[c] or qj[c] == 0.0:
                    continue
                tt = 1.0 - (xlj[c] / qj[c]) ** 2
                tt = max(tt, 0.0)
                if abs(tt) < 1e-6:
                    qj[c] = _dnrm2(np.ascontiguousarray(x[j, l + 1:, c]))
                else:
                    qj[c] = qj[c] * math.sqrt(tt)
            qraux[j] = qj
        qraux[l] = x[l, l]
        x[l, l] = -nrmxl
    qty = y2 if overwrite else y2.copy()
    for j in range(p):
        bad |= qraux[j] == 0.0
        diag = x[j, j:].copy()
        diag[0] = qraux[j]
        t = -_seq_colsums(diag * qty[j:]) / diag[0]
        _axpy_cols(t, diag, qty[j:])
    b = qty[:p].copy()
    for j in range(p - 1, -1, -1):
        bad |= x[j, j] == 0.0
        b[j] = b[j] / x[j, j]
        if j > 0:
            t = -b[j]
            _axpy_cols(t, x[j, :j], b[:j])
    return b, x, qraux, qty, bad


def _glm_irls_columns(x3: np.ndarray, y2: np.ndarray) -> List[dict]:
    """:func:`_glm_irls` for each class: x3 is n x p x K (designs), y2 n x K (responses)."""
    n, p, kk = x3.shape
    states: List[Optional[dict]] = [None] * kk
    if n <= p or kk < 2:
        return [_glm_irls(np.ascontiguousarray(x3[:, :, c]), np.ascontiguousarray(y2[:, c]))
                for c in range(kk)]
    nobs = n
    weights = np.ones(nobs)
    wcol = weights[:, None]
    nonint = np.any(np.abs(wcol * y2 - np.round(wcol * y2)) > 1e-3, axis=0)
    mustart = (wcol * y2 + 0.5) / (wcol + 1)
    eta = r_log(mustart / (1 - mustart))
    e = _exp_eta(eta)
    mu = _linkinv(eta, e)
    devold = _ld_colsums(_dev_resids(y2, mu, wcol))
    # Platt's targets lie strictly inside (0, 1): then dev.resids keeps both
    # of its y*log(y/mu) terms for every row, and no np.where is needed.
    y2c = 1 - y2
    inner = bool(((y2 != 0) & (y2c != 0)).all())
    active = np.arange(kk)
    redo: List[int] = []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for iter_ in range(1, _MAXIT + 1):
            if active.size == 0:
                break
            if active.size == kk:  # views: no copies while every fit runs
                x_a, y_a, yc_a, eta_a, mu_a, e_a = x3, y2, y2c, eta, mu, e
            else:
                x_a, y_a, yc_a = x3[:, :, active], y2[:, active], y2c[:, active]
                eta_a, mu_a, e_a = eta[:, active], mu[:, active], e[:, active]
            mu_eta_val = _mu_eta(eta_a, e_a)
            bad = _false_where_all(mu_eta_val != 0)
            variance = mu_a * (1 - mu_a)
            z = eta_a + (y_a - mu_a) / mu_eta_val
            # The prior weights are ones, and 1 * v is v.
            w = np.sqrt((mu_eta_val ** 2) / variance)
            # Column-major per class (p x n x m): each column of every class
            # is one contiguous n x m block for the QR's column operations.
            xw = np.empty((p, nobs, active.size))
            for j in range(p):
                np.multiply(x_a[:, j, :], w, out=xw[j])
            b, qr, qraux, effects, bad_qr = _cdqrls_cols(xw, z * w, _QR_TOL, overwrite=True)
            bad |= bad_qr | ~np.isfinite(b).all(axis=0)
            new_eta = np.zeros((nobs, active.size))
            for j in range(p):
                new_eta = new_eta + b[j] * x_a[:, j, :]
            new_e = _exp_eta(new_eta)
            new_mu = _linkinv(new_eta, new_e)
            if inner:
                # 2 * wt * (y_log_y(y, mu) + y_log_y(1 - y, 1 - mu)) with wt = 1.
                dev = _ld_colsums(2 * (y_a * r_log(y_a / new_mu) + yc_a * r_log(yc_a / (1 - new_mu))))
            else:
                dev = _ld_colsums(_dev_resids(y_a, new_mu, wcol))
            # _validmu: finite and inside (0, 1); NaN and infinities fail the comparisons.
            valid = ~_false_where_all((new_mu > 0) & (new_mu < 1))
            bad |= ~np.isfinite(dev) | ~valid
            conv = np.abs(dev - devold[active]) / (np.abs(dev) + 0.1) < _EPSILON
            keep = []
            for i, c in enumerate(active):
                if bad[i]:
                    redo.append(int(c))
                    continue
                if conv[i] or iter_ == _MAXIT:
                    fit = {"coefficients": b[:, i].copy(), "rank": p, "pivot": np.arange(1, p + 1),
                           "qr": np.asfortranarray(qr[:, :, i].T), "qraux": qraux[:, i].copy(),
                           "effects": effects[:, i].copy()}
                    states[c] = {
                        "weights": weights,
                        "messages": ["non-integer #successes in a binomial glm!"] if nonint[c] else [],
                        "eta": new_eta[:, i].copy(), "mu": new_mu[:, i].copy(), "dev": float(dev[i]),
                        "coef": b[:, i].copy(), "fit": fit, "w": w[:, i].copy(),
                        "good": np.ones(nobs, dtype=bool), "iter": iter_, "conv": bool(conv[i]),
                        "boundary": False}
                else:
                    keep.append(i)
            if len(keep) == kk:  # every fit goes on: the new arrays take over
                eta, mu, e, devold = new_eta, new_mu, new_e, dev
                continue
            keep_idx = np.array(keep, dtype=np.int64)
            cols = active[keep_idx]
            eta[:, cols] = new_eta[:, keep_idx]
            mu[:, cols] = new_mu[:, keep_idx]
            e[:, cols] = new_e[:, keep_idx]
            devold[cols] = dev[keep_idx]
            active = cols
    done = [c for c in range(kk) if states[c] is not None]
    if len(done) >= 2:
        _finish_columns([states[c] for c in done], y2[:, done], wcol, r_sum(weights))
    for c in redo:
        states[c] = _glm_irls(np.ascontiguousarray(x3[:, :, c]), np.ascontiguousarray(y2[:, c]))
    return states


def _finish_columns(states: List[dict], y2: np.ndarray, wcol: np.ndarray, wsum: float) -> None:
    """_glm_finish's residuals, null deviance and log-likelihood for several fits at once."""
    mu = np.column_stack([st["mu"] for st in states])
    eta = np.column_stack([st["eta"] for st in states])
    residuals = (y2 - mu) / _mu_eta(eta)
    wtdmu = _ld_colsums(wcol * y2) / wsum
    nulldev = _ld_colsums(_dev_resids(y2, wtdmu, wcol))
    with np.errstate(divide="ignore"):
        loglik = _ld_colsums(np.where(np.round(y2) == 1, r_log(mu), r_log(1 - mu)))
    for i, st in enumerate(states):
        st["residuals"] = residuals[:, i].copy()
        st["nulldev"] = float(nulldev[i])
        st["loglik_sum"] = float(loglik[i])

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/calibrators.c, whose header names its sources
"""The calibrators' inner loops (``src/calibrators.c``).

glm.fit's binomial IRLS (the family's C code, reference BLAS ``ddot``,
``daxpy``, ``dscal`` and ``dnrm2``'s unscaled pass), isoreg's pooling and
outputs for 0/1 labels, ``cal_isotonic``'s tie runs, and ``vmmin``'s BFGS
direction and update.

Twins: the numpy expressions in ``rstats/_glm.py`` and ``rstats/_linpack.py``
(and their loops), ``rstats/_isoreg.py``'s ``_pava_binary``/``isoreg`` and
``calibrators/_isotonic.py``'s ``cal_isotonic`` numpy lines, ``rstats/_optim.py``'s
``vmmin`` array form. Each function takes the twin's
arguments: inputs of another type or layout are converted (a copy, as
numpy's expression would make), outputs written in place must be float64
(the BLAS ones may be strided, as Fortran's ``incx``).

R equivalent: ``glm.fit``'s C/Fortran loops, ``stats::isoreg``, ``optim(method = "BFGS")``.
"""

from __future__ import annotations

import numpy as np

from . import c_double, c_i64, c_void_p, fn, ptr

_V = c_void_p
_ddot = fn("pcr_ddot", c_double, _V, c_i64, _V, c_i64, c_i64)
_axpy = fn("pcr_axpy", None, c_double, _V, c_i64, _V, c_i64, c_i64)
_scal = fn("pcr_scal", None, c_double, _V, c_i64, c_i64)
_nrm2 = fn("pcr_nrm2_unscaled", c_double, _V, c_i64, c_i64, _V)
_exp_eta = fn("pcr_exp_eta", None, _V, _V, c_i64)
_linkinv = fn("pcr_linkinv", None, _V, _V, _V, c_i64, c_double, c_double, c_double, c_double)
_mu_eta = fn("pcr_mu_eta", None, _V, _V, _V, c_i64, c_double, c_double, c_double)
_dev = fn("pcr_dev_resids", None, _V, _V, _V, _V, _V, c_i64)
_working = fn("pcr_working", None, _V, _V, _V, _V, _V, _V, _V, c_i64)
_dev01 = fn("pcr_dev_resids01", None, _V, _V, c_i64, _V, c_i64, _V, c_i64)
_pava_runs = fn("pcr_pava_runs", c_i64, _V, _V, c_i64, _V, _V)
_pava_labels = fn("pcr_pava_labels", c_i64, _V, c_i64, _V, _V)
_isoreg_fill = fn("pcr_isoreg_fill", c_i64, _V, _V, _V, c_i64, _V, _V, _V)
_tie_runs = fn("pcr_tie_runs", None, _V, _V, c_i64, _V, _V, _V, _V)
_direction = fn("pcr_bfgs_direction", c_double, _V, _V, _V, c_i64)
_update = fn("pcr_bfgs_update", None, _V, _V, _V, _V, c_double, c_i64)
_reset = fn("pcr_bfgs_reset", None, _V, c_i64)

_F8 = np.dtype(np.float64)
_I8 = np.dtype(np.int64)


def _in(a, dtype=_F8):
    """A C-contiguous array of ``dtype`` holding ``a`` (``a`` itself when it is one)."""
    if isinstance(a, np.ndarray) and a.dtype == dtype and a.flags.c_contiguous:
        return a
    return np.ascontiguousarray(a, dtype=dtype)


def _out(a, dtype=_F8):
    # Written in place: a converted copy would leave the caller's array unchanged.
    if a.dtype != dtype or not a.flags.c_contiguous:
        raise TypeError(f"output: C-contiguous {dtype.name} array needed")
    return a


def _strided(a, writable=False):
    """``(array, element stride)`` of a 1-D float64 vector, strided or not."""
    if a.dtype == _F8 and a.ndim == 1 and a.strides[0] % 8 == 0:
        return a, a.strides[0] // 8
    if writable:
        raise TypeError("output: 1-D float64 vector needed")
    a = np.ascontiguousarray(a, dtype=_F8).ravel()
    return a, 1


def _same(n, *arrays):
    for a in arrays:
        if a.size != n:
            raise ValueError("vectors of equal length needed")


# --- reference BLAS ------------------------------------------------------------

def ddot(a, b) -> float:
    """``sum(a * b)`` added first to last (BLAS ``ddot``)."""
    a, sa = _strided(a)
    b, sb = _strided(b)
    _same(a.size, b)
    return _ddot(ptr(a), sa, ptr(b), sb, a.size)


def axpy(t, x, y) -> None:
    """``y <- y + t * x`` in place (``y`` may be a strided view)."""
    x, sx = _strided(x)
    y, sy = _strided(y, writable=True)
    _same(y.size, x)
    _axpy(t, ptr(x), sx, ptr(y), sy, y.size)


def scal(c, x) -> None:
    """``x <- c * x`` in place."""
    x, sx = _strided(x, writable=True)
    _scal(c, ptr(x), sx, x.size)


def nrm2_unscaled(v):
    """``(sqrt(sum(|v|^2)), odd)``: dnrm2 when no element is beyond Blue's
    thresholds; ``odd`` says the scaled pass is needed."""
    v, sv = _strided(v)
    odd = np.zeros(1, dtype=np.int32)
    norm = _nrm2(ptr(v), sv, v.size, ptr(odd))
    return norm, bool(odd[0])


# --- binomial family, logit link ---------------------------------------------------

def exp_eta(eta, out) -> None:
    """``out = exp(pmin(pmax(eta, -700), 700))`` (NaN stays NaN)."""
    eta = _in(eta)
    _same(eta.size, _out(out))
    _exp_eta(ptr(eta), ptr(out), eta.size)


def linkinv(eta, e, out, mthresh, thresh, dbl_eps, inveps) -> None:
    """The logit link's inverse with R's thresholds (``e = exp(eta)``)."""
    eta, e = _in(eta), _in(e)
    _same(eta.size, e, _out(out))
    _linkinv(ptr(eta), ptr(e), ptr(out), eta.size, mthresh, thresh, dbl_eps, inveps)


def mu_eta(eta, e, out, mthresh, thresh, dbl_eps) -> None:
    """``d mu / d eta`` with R's thresholds."""
    eta, e = _in(eta), _in(e)
    _same(eta.size, e, _out(out))
    _mu_eta(ptr(eta), ptr(e), ptr(out), eta.size, mthresh, thresh, dbl_eps)


def dev_resids(y, mu, wt, out, buf) -> None:
    """The binomial ``dev.resids`` (``buf``: scratch of the same length)."""
    y, mu, wt = _in(y), _in(mu), _in(wt)
    _same(y.size, mu, wt, _out(out), _out(buf))
    _dev(ptr(y), ptr(mu), ptr(wt), ptr(out), ptr(buf), y.size)


def working(eta, y, mu, mu_eta_val, weights, z, w) -> None:
    """IRLS's working response ``z`` and weights ``w``."""
    eta, y, mu, d, weights = _in(eta), _in(y), _in(mu), _in(mu_eta_val), _in(weights)
    _same(eta.size, y, mu, d, weights, _out(z), _out(w))
    _working(ptr(eta), ptr(y), ptr(mu), ptr(d), ptr(weights), ptr(z), ptr(w), eta.size)


def dev_resids01(mu, i1, i0, out) -> None:
    """``dev.resids`` of 0/1 responses with unit weights (rows ``i1``: y = 1, ``i0``: y = 0)."""
    mu, i1, i0 = _in(mu), _in(i1, _I8), _in(i0, _I8)
    _same(mu.size, _out(out))
    if i1.size + i0.size != out.size:
        raise ValueError("i1 and i0 must cover the rows")
    _dev01(ptr(mu), ptr(i1), i1.size, ptr(i0), i0.size, ptr(out), out.size)


# --- isoreg for 0/1 labels -----------------------------------------------------------

def pava_runs(values, lengths, sums, counts) -> int:
    """Pool the runs into blocks of strictly increasing means; returns the number of blocks."""
    values, lengths = _in(values, _I8), _in(lengths, _I8)
    _same(values.size, lengths)
    if sums.size < values.size or counts.size < values.size:
        raise ValueError("sums and counts need room for one block per run")
    return _pava_runs(ptr(values), ptr(lengths), values.size, ptr(_out(sums, _I8)),
                      ptr(_out(counts, _I8)))


def pava_labels(y, sums, counts) -> int:
    """:func:`pava_runs` on the runs of the 0/1 labels ``y``; returns the number of blocks."""
    y = _in(y, _I8)
    if sums.size < y.size or counts.size < y.size:
        raise ValueError("sums and counts need room for one block per label")
    return _pava_labels(ptr(y), y.size, ptr(_out(sums, _I8)), ptr(_out(counts, _I8)))


def isoreg_fill(y, sums, counts, yf, yc, knots) -> int:
    """isoreg's ``yf``, ``yc`` and ``iKnots`` from the blocks; returns the number of knots."""
    y, sums, counts = _in(y, _I8), _in(sums, _I8), _in(counts, _I8)
    n = y.size
    _same(counts.size, sums)
    if (int(counts.sum()) != n or yf.size != n or yc.size != n + 1 or knots.size < n
            or (counts.size and int(counts.min()) < 1)):
        raise ValueError("blocks, labels and outputs of inconsistent sizes")
    return _isoreg_fill(ptr(y), ptr(sums), ptr(counts), counts.size, ptr(_out(yf)), ptr(_out(yc)),
                        ptr(_out(knots, _I8)))


def tie_runs(x, fitted, thresholds, values, varying):
    """The runs of equal sorted ``x``: returns ``(runs, varying runs)``."""
    x, fitted = _in(x), _in(fitted)
    n = x.size
    _same(n, fitted)
    if thresholds.size < n or values.size < n or varying.size < n:
        raise ValueError("outputs need room for one run per value")
    io = np.zeros(2, dtype=np.int64)
    _tie_runs(ptr(x), ptr(fitted), n, ptr(_out(thresholds)), ptr(_out(values)),
              ptr(_out(varying, _I8)), ptr(io))
    return int(io[0]), int(io[1])


# --- vmmin (BFGS) ---------------------------------------------------------------------

def _square(B, n):
    _out(B)
    if B.shape != (n, n):
        raise ValueError("B must be n x n")


def direction(B, g, t) -> float:
    """``t = -B g`` on B's lower triangle; returns ``gradproj = sum(t * g)``."""
    g = _in(g)
    _square(B, g.size)
    _same(g.size, _out(t))
    return _direction(ptr(B), ptr(g), ptr(t), g.size)


def update(B, t, c, X, D1) -> None:
    """R's rank-two update of the lower triangle of ``B`` (``D1 > 0``; ``X`` scratch)."""
    t, c = _in(t), _in(c)
    _square(B, t.size)
    _same(t.size, c, _out(X))
    _update(ptr(B), ptr(t), ptr(c), ptr(X), D1, t.size)


def reset(B) -> None:
    """``B`` to the identity (R's restart)."""
    _square(B, B.shape[0])
    _reset(ptr(B), B.shape[0])

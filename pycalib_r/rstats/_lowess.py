# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/src/lowess.c (GPL-2.0-or-later), (c) The R Core Team
"""R's ``lowess()``: Cleveland's robust locally weighted regression, as R computes it.

A port of R 4.2.2's ``clowess``/``lowest`` (``src/library/stats/src/lowess.c``):
the same neighbourhood walk, the tricube weights, the ``delta`` skipping with
linear interpolation, the bisquare robustness iterations and R's median of
the absolute residuals. Every sum that R accumulates in a C loop is a
left-to-right double sum here (:func:`~pycalib_r.rbase._rarith.seq_sum`), and every
product is taken in R's order, so the fitted values are R's bit for bit.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..inputs._checks import as_numeric_vector
from ..rbase._errors import ProbcalError
from ..rbase._rarith import seq_sum

__all__ = ["lowess", "Lowess"]


class Lowess(NamedTuple):
    """R's ``list(x = , y = )`` from ``lowess()``: ``x`` sorted, ``y`` the fit."""

    x: np.ndarray
    y: np.ndarray


def _lowest(x: np.ndarray, y: np.ndarray, xs: float, nleft: int, nright: int,
            rw, range_: float):
    """R's ``lowest()`` (0-based ``nleft``/``nright``): the fit at ``xs``, or None
    when every weight is zero (R's ``ok = FALSE``)."""
    n = x.size
    h = max(xs - x[nleft], x[nright] - xs)
    h9 = 0.999 * h
    h1 = 0.001 * h
    # The walk stops at the first point beyond h9 on the right of xs; a point
    # beyond xs + h is such a point, so the window ends there at the latest.
    end = min(n, int(np.searchsorted(x, xs + h, side="right")) + 1)
    seg = x[nleft:end]
    r = np.abs(seg - xs)
    stop = np.flatnonzero((r > h9) & (seg > xs))
    nrt = nleft + (int(stop[0]) if stop.size else end - nleft)  # one past R's nrt
    r = r[:nrt - nleft]
    inside = r <= h9
    with np.errstate(divide="ignore", invalid="ignore"):
        t = r / h
        cube = 1.0 - t * t * t
        w = np.where(r <= h1, 1.0, cube * cube * cube)
    w = np.where(inside, w, 0.0)
    if rw is not None:
        w = np.where(inside, w * rw[nleft:nrt], 0.0)
    a = seq_sum(np.where(inside, w, 0.0))
    if not a > 0.0:
        return None
    w = w / a
    xw = x[nleft:nrt]
    if h > 0.0:
        a = seq_sum(w * xw)
        b = xs - a
        d = xw - a
        c = seq_sum(w * (d * d))
        if math.sqrt(c) > 0.001 * range_:
            b = b / c
            w = w * (b * d + 1.0)
    return seq_sum(w * y[nleft:nrt])


def _clowess(x: np.ndarray, y: np.ndarray, f: float, nsteps: int, delta: float) -> np.ndarray:
    n = x.size
    ys = np.empty(n)
    if n < 2:
        ys[0] = y[0]
        return ys
    ns = max(2, min(n, int(f * n + 1e-7)))
    range_ = x[n - 1] - x[0]
    rw = None
    res = np.empty(n)
    it = 1
    while it <= nsteps + 1:
        # 1-based indices as in R's C code.
        nleft, nright, last, i = 1, ns, 0, 1
        while True:
            if nright < n:
                d1 = x[i - 1] - x[nleft - 1]
                d2 = x[nright] - x[i - 1]
                if d1 > d2:
                    nleft += 1
                    nright += 1
                    continue
            fit = _lowest(x, y, x[i - 1], nleft - 1, nright - 1, rw if it > 1 else None, range_)
            ys[i - 1] = y[i - 1] if fit is None else fit
            if last < i - 1:
                # skipped points: interpolated (R's loop, elementwise)
                denom = x[i - 1] - x[last - 1]
                alpha = (x[last:i - 1] - x[last - 1]) / denom
                ys[last:i - 1] = alpha * ys[i - 1] + (1.0 - alpha) * ys[last - 1]
            last = i
            cut = x[last - 1] + delta
            # R's scan: stops at the first x > cut; ties of x[last] (contiguous,
            # all <= cut) copy its fit and move `last` to the end of the run.
            stop = int(np.searchsorted(x, cut, side="right")) + 1  # 1-based, n + 1 if none
            run = int(np.searchsorted(x, x[last - 1], side="right"))  # 1-based end of the tie run
            if run > last:
                ys[last:run] = ys[last - 1]
                last = run
            i = max(last + 1, stop - 1)
            if last >= n:
                break
        res = y - ys
        sc = seq_sum(np.abs(res)) / n
        if it > nsteps:
            break
        absres = np.abs(res)
        m1 = n // 2
        if n % 2 == 0:
            m2 = n - m1 - 1
            part = np.partition(absres, (m2, m1))
            cmad = 3.0 * (part[m1] + part[m2])
        else:
            cmad = 6.0 * np.partition(absres, m1)[m1]
        if cmad < 1e-7 * sc:
            break
        c9 = 0.999 * cmad
        c1 = 0.001 * cmad
        with np.errstate(divide="ignore", invalid="ignore"):
            q = absres / cmad
            sq = 1.0 - q * q
            rw = np.where(absres <= c1, 1.0, np.where(absres <= c9, sq * sq, 0.0))
        it += 1
    return ys


def lowess(x, y, f: float = 2 / 3, iter: int = 3, delta=None) -> Lowess:
    """Locally weighted scatterplot smoothing, as R's ``lowess`` computes it.

    R equivalent: ``stats::lowess(x, y, f = 2/3, iter = 3L, delta = 0.01 *
    diff(range(x)))``.

    For each sorted ``x_i`` a straight line is fitted by weighted least squares
    to the ``ns = max(2, min(n, floor(f n + 1e-7)))`` nearest points with
    tricube weights ``(1 - (|x_j - x_i| / h)^3)^3``; points within ``delta`` of
    the last fitted one are interpolated linearly. ``iter`` robustness steps
    reweight by the bisquare of the residuals over six times their median.

    Parameters
    ----------
    x, y : array_like
        Finite numbers of the same length.
    f : float
        The smoother span, finite and > 0.
    iter : int
        Robustness iterations (``>= 0``); ``rms::val.prob`` uses 0.
    delta : float, optional
        R's default ``0.01 * diff(range(x))``.

    Returns
    -------
    Lowess
        ``x`` sorted (R's stable ``order``) and the fitted ``y``.

    References
    ----------
    Cleveland, W. S. (1979). Robust locally weighted regression and smoothing
    scatterplots. *JASA* 74, 829-836.

    Examples
    --------
    >>> fit = lowess([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5], iter=0)
    >>> print(" ".join(f"{v:.7g}" for v in fit.y))
    1.520911 2.145242 2.854758 4.145242 4.854758 5.479089

    R: ``lowess(1:6, c(2, 1, 4, 3, 6, 5), iter = 0)$y`` prints
    ``[1] 1.520911 2.145242 2.854758 4.145242 4.854758 5.479089``.
    """
    xv = as_numeric_vector(x, arg="x")
    yv = as_numeric_vector(y, arg="y")
    if xv.size != yv.size:
        raise ProbcalError("'x' and 'y' lengths differ")
    if xv.size == 0:
        raise ProbcalError("invalid input")
    f = float(f)
    if not math.isfinite(f) or f <= 0:
        raise ProbcalError("'f' must be finite and > 0")
    if isinstance(iter, bool) or not float(iter) == int(iter) or int(iter) < 0:
        raise ProbcalError("'iter' must be finite and >= 0")
    order = np.argsort(xv, kind="stable")
    xs = xv[order]
    if delta is None:
        delta = 0.01 * (xs[-1] - xs[0])
    delta = float(delta)
    if not math.isfinite(delta) or delta < 0:
        raise ProbcalError("'delta' must be finite and > 0")
    return Lowess(xs, _clowess(xs, yv[order], f, int(iter), delta))

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: Hmisc 4.8-0 R/rcspline.eval.s (GPL-2.0-or-later), (c) Frank E Harrell Jr
"""Hmisc's restricted cubic spline basis and its knot placement.

A port of ``Hmisc::rcspline.eval`` (Hmisc 4.8-0) for ``type = "ordinary"``,
the basis ``rms::rcs`` and ``rcspline.plot`` fit: knots at Harrell's default
quantiles of the unique-sorted data (outer quantiles 0.05/0.95, 0.1/0.9 for
3 knots, 0.025/0.975 above 6; a heavily tied first or last value taken as a
knot of its own, ``fractied = 0.05``; below 100 observations the outer knots
are the 5th smallest and largest values), then the ``nk - 2`` truncated-cubic
columns, normalised by ``(knot_nk - knot_1)^(2/3)`` (``norm = 2``).
``pow(., 3)`` is libm's, as R's ``^`` computes it.
"""

from __future__ import annotations

import math

import numpy as np

from ..rstats import quantile_r
from ..rstats import seq_len_out as _seq_len_out
from ..inputs._checks import ProbcalError, add_note
from ..rbase._warn import r_warning

__all__ = ["rcspline_eval", "rcs_knots"]


_POW3 = np.frompyfunc(lambda v: math.pow(v, 3.0), 1, 1)


def _cube(v: np.ndarray) -> np.ndarray:
    # R's ``^ 3`` is libm's pow (math.pow); numpy's vectorised power may differ in the last bit.
    return _POW3(v).astype(np.float64)


def _median(v: np.ndarray) -> float:
    s = np.sort(v)
    h = s.size // 2
    return float(s[h]) if s.size % 2 else float((s[h - 1] + s[h]) / 2)


def _default_knots(x: np.ndarray, nk: int) -> np.ndarray:
    xx = x[~np.isnan(x)]
    n = xx.size
    if n < 6:
        raise ProbcalError("knots not specified, and < 6 non-missing observations")
    if nk < 3:
        raise ProbcalError("nk must be >= 3")
    xu = np.unique(xx)
    nxu = xu.size
    if nxu - 2 <= nk:
        r_warning(f"{nk} knots requested with {nxu} unique values of x.  "
                  f"knots set to {nxu - 2} interior values.")
        return xu[1:-1]
    outer = 0.05 if nk > 3 else 0.1
    if nk > 6:
        outer = 0.025
    nke = nk
    first, last = [], []
    override_first = override_last = False
    _, counts = np.unique(xx, return_counts=True)
    f = counts / n
    if f.size > 2 and float(np.max(f[1:-1])) < 0.05:
        if f[0] >= 0.05:
            first = [float(np.min(xx[xx > np.min(xx)]))]
            xx = xx[xx > first[0]]
            nke -= 1
            override_first = True
        if f[-1] >= 0.05:
            last = [float(np.max(xx[xx < np.max(xx)]))]
            xx = xx[xx < last[0]]
            nke -= 1
            override_last = True
    if nke == 1:
        knots = np.array([_median(xx)])
    elif nxu <= nke:
        knots = xu.copy()
    else:
        probs = _seq_len_out(0.5, 1 - outer, nke) if nke == 2 else _seq_len_out(outer, 1 - outer, nke)
        knots = np.asarray(quantile_r(xx, probs), dtype=np.float64)
        if np.unique(knots).size < min(nke, 3):
            knots = np.asarray(quantile_r(xx, _seq_len_out(outer, 1 - outer, 2 * nke)), dtype=np.float64)
            if first and np.unique(knots).size < 3:
                midval = (first[0] + last[0]) / 2 if last else _median(xx)
                knots = np.sort(np.array(first + [midval] + (last if last else
                                                             [float(quantile_r(xx, [1 - outer])[0])])))
            nu = np.unique(knots).size
            if nu < 3:
                err = ProbcalError("")
                add_note(err, "Fewer than 3 unique knots: `x` has too few distinct values "
                              "for a restricted cubic spline.")
                raise err
            r_warning(f"could not obtain {nke} interior knots with default algorithm.\n "
                      f"Used alternate algorithm to obtain {nu} knots")
        if xx.size < 100:
            xs = np.sort(xx)
            knots = knots.copy()
            if not override_first:
                knots[0] = xs[4]
            if not override_last:
                knots[nke - 1] = xs[xs.size - 5]
    return np.concatenate([np.asarray(first), knots, np.asarray(last)])


def rcs_knots(x, nk: int = 5) -> np.ndarray:
    """Harrell's default knots: ``Hmisc::rcspline.eval(x, nk = nk, knots.only = TRUE)``.

    R equivalent: ``rcspline.eval(x, nk = nk, knots.only = TRUE)`` (Hmisc 4.8-0).

    Parameters
    ----------
    x : array_like
        The predictor (NaN left out).
    nk : int
        Number of knots wanted (at least 3).

    Returns
    -------
    numpy.ndarray
        The sorted unique knots.
    """
    return rcspline_eval(x, nk=nk, knots_only=True)


def rcspline_eval(x, knots=None, nk: int = 5, inclx: bool = False, knots_only: bool = False,
                  norm: int = 2) -> np.ndarray:
    """The restricted cubic spline basis of ``x``: ``Hmisc::rcspline.eval``.

    R equivalent: ``rcspline.eval(x, knots, nk, inclx, knots.only, norm = norm)``
    (Hmisc 4.8-0, ``type = "ordinary"``).

    Parameters
    ----------
    x : array_like
        Values at which the basis is evaluated (and, without ``knots``, from
        which the knots are placed).
    knots : array_like, optional
        The knots; by default Harrell's quantiles of ``x`` (see :func:`rcs_knots`).
    nk : int
        Number of knots when ``knots`` is not given.
    inclx : bool
        Put ``x`` itself as the first column.
    knots_only : bool
        Return the knots alone.
    norm : {0, 1, 2}
        Normalisation of the cubic terms: none, by ``knot_nk - knot_(nk-1)``,
        or by ``(knot_nk - knot_1)^(2/3)``.

    Returns
    -------
    numpy.ndarray
        The ``n x (nk - 2)`` basis (``n x (nk - 1)`` with ``inclx``), or the
        knots; the basis carries no attribute: the knots are
        ``rcs_knots(x, nk)`` or the ``knots`` given.
    """
    x = np.asarray(x, dtype=np.float64)
    if norm not in (0, 1, 2):
        raise ProbcalError("norm must be 0, 1 or 2")
    if knots is None or len(knots) == 0:
        knots = _default_knots(x, int(nk))
    knots = np.unique(np.asarray(knots, dtype=np.float64))
    k = knots.size
    if k < 3:
        err = ProbcalError("")
        add_note(err, "Fewer than 3 unique knots: a restricted cubic spline needs at least 3.")
        raise err
    if knots_only:
        return knots
    k1, kn, kn1 = knots[0], knots[-1], knots[-2]
    kd = 1.0 if norm == 0 else (kn - kn1 if norm == 1 else float(math.pow(kn - k1, 2 / 3)))
    out = np.empty((x.size, k - 2 + (1 if inclx else 0)))
    col = 0
    if inclx:
        out[:, 0] = x
        col = 1
    with np.errstate(invalid="ignore"):
        t_n = _cube(np.maximum((x - kn) / kd, 0.0))
        t_n1 = _cube(np.maximum((x - kn1) / kd, 0.0))
        for j in range(k - 2):
            tj = _cube(np.maximum((x - knots[j]) / kd, 0.0))
            out[:, col + j] = tj + ((kn1 - knots[j]) * t_n - (kn - knots[j]) * t_n1) / (kn - kn1)
    return out

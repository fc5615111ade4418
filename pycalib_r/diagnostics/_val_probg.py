# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: rms 6.5-0 R/val.prob.s (val.probg) (GPL-2.0-or-later), (c) Frank E Harrell Jr
# Derived from: Hmisc 4.8-0 R/cut2.s, R/wtd.stats.s (GPL-2.0-or-later), (c) Frank E Harrell Jr and contributors
# Derived from: R 4.2.2 src/library/stats/R/loess.R, src/library/stats/R/quantile.R (GPL-2.0-or-later), (c) The R Core Team
"""``val.prob``'s grouped statistics: ``rms::val.probg`` (rms 6.5-0) with Hmisc 4.8.0's helpers.

:func:`val_prob` with ``group=`` (and ``weights=``) lands here, as R's
``val.prob`` hands its grouped call to ``val.probg``. Every step is R's:

* the groups: ``group = TRUE`` is one group (only the ``Overall`` row), a
  logical or character vector becomes a factor (sorted levels), a pandas
  Categorical keeps its categories, and a numeric vector is cut into
  ``g_group`` quantile groups by Hmisc's ``cut2(group, g = g_group)``, its
  level labels included (:func:`cut2_g`);
* per group and overall: ``wtd.quantile`` (the 11 quantiles and ``Eavg/P90``),
  ``wtd.rank`` (the C index), ``wtd.loess.noiter`` - R's ``loess(y ~ p,
  weights, span = 2/3, degree = 1, cell = 0.13333)``, ported bit for bit in
  :mod:`._loess` - and the sums of ``val.probg``, all with R's long-double
  ``sum``, ``mean`` and ``cumsum``; ``wtd.table`` groups tied values by their
  15-significant-digit text and reads them back as R's ``as.numeric`` does;
* ``ChiSq2`` solves the 2 x 2 system as LAPACK's ``dgesv`` (R's ``solve``).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..inputs._checks import MASKED_NOTE, ProbcalError, add_note, masked_as_na
from ..rbase._format import as_character_num, format_r_vec
from ..rbase._rarith import quiet_fp, r_exp, r_mean, r_round, r_sum
from ..rbase._rmatrix import print_matrix
from ..rbase._warn import r_warning
from ..rstats import approx1 as _approx1, bracket as _bracket, loess_fitted, qlogis as _qlogis
from ..rstats import regularize as _regularize, seq_len_out as _seq_len_out

__all__ = ["ValProbG", "val_probg", "cut2_g", "check_g_group", "estimated_seconds", "STAT_NAMES",
           "Q_LIMITS"]

STAT_NAMES = ("n", "Pavg", "Obs", "ChiSq", "ChiSq2", "Eavg", "Eavg/P90", "Med OR", "C", "B",
              "B ChiSq", "B cal")
Q_LIMITS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.975, 0.99)
_Q_NAMES = ("0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "0.75", "0.9", "0.95", "0.975", "0.99")


# ---------------------------------------------------------------------------
# R's small helpers
# ---------------------------------------------------------------------------

def _r_strtod(text: str) -> float:
    """R 4.2.2's ``as.numeric`` of the text ``as.character`` wrote (``R_strtod``).

    The digits are accumulated as an integer (exact here: at most 15
    significant digits), then divided (or multiplied) by 10^k in long double,
    10^k built by binary powering in long double, and rounded to double:
    not always the correctly rounded ``float(text)`` (measured: 5 of 33,000
    random values differ from it, none from R with this).
    """
    s = text
    sign = 1.0
    if s.startswith("-"):
        sign, s = -1.0, s[1:]
    mant, _, exp = s.partition("e")
    ip, _, fp = mant.partition(".")
    expn = -len(fp) + (int(exp) if exp else 0)
    ans = np.longdouble(int(ip + fp))
    fac = np.longdouble(1.0)
    p10 = np.longdouble(10.0)
    n = abs(expn)
    while n:
        if n & 1:
            fac = fac * p10
        n >>= 1
        p10 = p10 * p10
    return sign * float(ans / fac if expn < 0 else ans * fac)


def _ld_cumsum(x: np.ndarray) -> np.ndarray:
    """R's ``cumsum`` of doubles: a long-double running sum, each value rounded."""
    return np.cumsum(np.asarray(x, dtype=np.longdouble)).astype(np.float64)


def _wtd_table(x: np.ndarray, w: np.ndarray):
    """Hmisc ``wtd.table(x, weights, type = "list")``: sorted values and summed weights.

    With ties, ``tapply(weights, x, sum)`` groups by ``as.character(x)`` and
    ``all.is.numeric`` reads the names back: the values come back rounded to
    15 significant digits.
    """
    o = np.argsort(x, kind="stable")
    xs, ws = x[o], w[o]
    if np.unique(xs).size == xs.size:
        return xs, ws
    keys = [as_character_num(float(v)) for v in xs]
    vals, sums = [], []
    start = 0
    for i in range(1, len(keys) + 1):
        if i == len(keys) or keys[i] != keys[start]:
            vals.append(_r_strtod(keys[start]))
            sums.append(r_sum(ws[start:i]))
            start = i
    return np.array(vals), np.array(sums)


def _approx_const(x: np.ndarray, y: np.ndarray, xout: np.ndarray) -> np.ndarray:
    """``approx(x, y, xout, method = "constant", f = 1, rule = 2)``."""
    x, y = _regularize(x, y, True)
    if x.size == 0:
        raise ProbcalError("zero non-NA points")
    out = np.empty(xout.size)
    for k, v in enumerate(xout):
        if v < x[0]:
            out[k] = y[0]
        elif v > x[-1]:
            out[k] = y[-1]
        else:
            i, j = _bracket(v, x)
            # approx1's constant rule with f = 1: y[j] (y[i] when v is x[i] itself)
            out[k] = y[i] if v == x[i] and v != x[j] else y[j]
    return out


def _approx_linear(x: np.ndarray, y: np.ndarray, xout: np.ndarray, warn_ties: bool = True):
    """``approx(x, y, xout)`` (linear, rule 1); ``warn_ties=False`` is ``ties = mean`` given."""
    x, y = _regularize(x, y, warn_ties)
    if x.size <= 1:
        raise ProbcalError("need at least two non-NA values to interpolate")
    return np.array([_approx1(float(v), x, y) for v in xout])


def wtd_quantile(x: np.ndarray, w: np.ndarray, probs, na_rm: bool = False) -> np.ndarray:
    """Hmisc ``wtd.quantile(x, weights, probs, normwt = FALSE)``, type ``"quantile"``."""
    probs = np.asarray(probs, dtype=np.float64)
    if w.size == 0:  # no weights: quantile(x, probs), NA for an empty x (an empty group)
        return np.full(probs.size, np.nan)
    if np.any((probs < 0) | (probs > 1)):
        raise ProbcalError("Probabilities must be between 0 and 1 inclusive")
    keep = ~(np.isnan(w) | (w == 0))
    x, w = x[keep], w[keep]
    if na_rm:
        ok = ~np.isnan(x + w)
        x, w = x[ok], w[ok]
    xv, wts = _wtd_table(x, w)
    n = r_sum(wts)
    order = 1 + (n - 1) * probs
    low = np.maximum(np.floor(order), 1.0)
    high = np.minimum(low + 1, n)
    order = order - np.floor(order)  # order %% 1
    allq = _approx_const(_ld_cumsum(wts), xv, np.concatenate([low, high]))
    k = probs.size
    return (1 - order) * allq[:k] + order * allq[k:]


def wtd_rank(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Hmisc ``wtd.rank(x, weights, normwt = FALSE)``: mid-ranks of the weighted table."""
    if w.size == 0:  # no weights: rank(x), empty for an empty group
        return np.empty(0)
    xv, freqs = _wtd_table(x, w)
    r = _ld_cumsum(freqs) - 0.5 * (freqs - 1)
    return _approx_linear(xv, r, x)


def _dgesv_inverse(v: np.ndarray) -> np.ndarray:
    """``solve(v)`` for a 2 x 2 matrix: LAPACK ``dgetrf2`` + ``dgetrs`` in their order."""
    a = v.astype(np.float64).copy()
    piv = 1 if abs(a[1, 0]) > abs(a[0, 0]) else 0
    if a[piv, 0] == 0.0:
        raise ProbcalError("Lapack routine dgesv: system is exactly singular: U[1,1] = 0")
    if piv:
        a = a[[1, 0], :]
    sfmin = 2.2250738585072014e-308
    if abs(a[0, 0]) >= sfmin:
        a[1, 0] = a[1, 0] * (1.0 / a[0, 0])
    else:
        a[1, 0] = a[1, 0] / a[0, 0]
    a[1, 1] = a[1, 1] + (-a[0, 1]) * a[1, 0]
    if a[1, 1] == 0.0:
        raise ProbcalError("Lapack routine dgesv: system is exactly singular: U[2,2] = 0")
    b = np.eye(2)
    if piv:
        b = b[[1, 0], :]
    for j in range(2):
        if b[0, j] != 0.0:
            b[1, j] = b[1, j] - b[0, j] * a[1, 0]
        for k in (1, 0):
            if b[k, j] != 0.0:
                b[k, j] = b[k, j] / a[k, k]
                if k == 1:
                    b[0, j] = b[0, j] - b[1, j] * a[0, 1]
    return b


def _check_rcond(a: np.ndarray, inv: np.ndarray) -> None:
    """``La_solve``'s check: ``rcond = (1 / ||A^-1||_1) / ||A||_1`` (LAPACK's ``dgecon``
    estimate, here the exact 1-norm of the 2 x 2 inverse) below ``DBL_EPSILON``
    is R's "computationally singular" error."""
    def norm1(m):
        return max(abs(m[0, j]) + abs(m[1, j]) for j in range(2))
    with np.errstate(divide="ignore", invalid="ignore"):
        rcond = (np.float64(1.0) / np.float64(norm1(inv))) / np.float64(norm1(a))
    if rcond < 2.220446049250313e-16:
        raise ProbcalError("system is computationally singular: reciprocal condition number = "
                           + ("%g" % rcond))


def _min_warn(values: np.ndarray) -> float:
    if values.size == 0:
        r_warning("no non-missing arguments to min; returning Inf")
        return math.inf
    return float(values.min())


# ---------------------------------------------------------------------------
# Hmisc cut2(x, g = g)
# ---------------------------------------------------------------------------

def _const_right(x: np.ndarray, y: np.ndarray, v: float) -> float:
    """One value of ``approx(x, y, v, method = "constant", f = 1, rule = 2)`` on
    regularized ``x`` (sorted, distinct)."""
    if v < x[0]:
        return float(y[0])
    if v > x[-1]:
        return float(y[-1])
    i, j = _bracket(v, x)
    return float(y[i] if v == x[i] and v != x[j] else y[j])


def cut2_g(x: np.ndarray, g):
    """Hmisc 4.8.0 ``cut2(x, g = g)``: (codes 0-based, level labels).

    Quantile groups of about equal counts (``approx`` of the cumulated
    counts of the distinct values, ``method = "constant"``, ``f = 1``), each
    level labelled ``[low,up)`` (the last ``]``), or by its single value,
    with ``format(..., digits = 3)`` as R writes them.

    ``g`` is checked by :func:`check_g_group` first. R walks ``j = 1..g`` and
    skips every ``j`` whose cut equals the previous one; the cuts rise with
    ``j``, so here only the first ``j`` of each distinct cut is visited,
    found by bisection: the work is bounded by the distinct values, not by ``g``.
    """
    x = np.asarray(x, dtype=np.float64)
    g = float(g)
    steps = int(g)  # R's 1:g
    xu = np.unique(x)
    min_dif = _min_warn(np.diff(xu)) / 2
    nnm = x.size
    keys = {}
    for v in np.sort(x):
        key = as_character_num(float(v))
        keys[key] = keys.get(key, 0) + 1
    xx = np.array([_r_strtod(k) for k in keys])
    order = np.argsort(xx, kind="stable")  # table()'s levels are sorted values
    xx = xx[order]
    counts = np.array(list(keys.values()), dtype=np.float64)[order]
    cum = np.cumsum(counts)
    cx, cy = _regularize(cum, xx, True)
    top = float(xx.max())

    def cut_at(j: int) -> float:
        # approx(cum, xx, xout = (1:g) * nnm / g, ...)[j], the last replaced by max(xx);
        # (1:g) * nnm is exact (check_g_group keeps it within R's integers).
        return top if j == steps else _const_right(cx, cy, (j * nnm) / g)

    lower = xx[0]
    upper = 1e45
    y = np.ones(x.size, dtype=np.int64)
    low, up = [], []
    i = 0
    j = 1
    while j <= steps:
        cj = cut_at(j)
        i += 1
        upper = cj
        y[x >= (lower - 1 * min_dif)] = i
        low.append(lower)
        lower = upper if j == g else _min_warn(xx[xx > upper])
        up.append(lower)
        # the next j whose cut rises above this one (R skips those between)
        lo_j, hi_j = j, steps + 1
        while hi_j - lo_j > 1:
            mid = (lo_j + hi_j) // 2
            if cut_at(mid) > upper:
                hi_j = mid
            else:
                lo_j = mid
        j = hi_j
    low_a, up_a = np.array(low), np.array(up)
    variation = []
    for ii in range(1, i + 1):
        sel = x[y == ii]
        variation.append(sel.size > 0 and float(sel.max() - sel.min()) > 0)
    flow = format_r_vec(low, digits=3)
    fup = format_r_vec(up, digits=3)
    labs = []
    for k in range(i):
        bb = "]" if k == i - 1 else ")"
        if low_a[k] == up_a[k] or not variation[k]:
            labs.append(flow[k])
        else:
            labs.append(f"[{flow[k]},{fup[k]}{bb}")
    return y - 1, labs


# ---------------------------------------------------------------------------
# The result and its print
# ---------------------------------------------------------------------------

def calibration_axes(ax, owner: str):
    """``(ax, line width unit)``: the package's calibration panel with the ideal
    line, on ``ax`` or a new 5 x 5 figure (matplotlib imported here)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - exercised without matplotlib
        raise ImportError(f"{owner}.plot() needs matplotlib: pip install matplotlib "
                          "(or, from a pycalib_r checkout, pip install '.[plot]')") from exc
    from ._diagnostics import _LINE_PT, _identity_line, _style_panel

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    _style_panel(ax, True, True)
    _identity_line(ax)
    return ax, _LINE_PT


class ValProbG:
    """Result of ``val_prob(p, y, group=...)``: R's ``val.probg`` value (class ``val.prob``).

    Attributes
    ----------
    stats : pandas.DataFrame
        R's ``stats`` matrix: one row per group level and ``Overall``, the
        columns ``n``, ``Pavg``, ``Obs``, ``ChiSq``, ``ChiSq2``, ``Eavg``,
        ``Eavg/P90``, ``Med OR``, ``C``, ``B``, ``B ChiSq``, ``B cal``.
    cal_curves : dict
        ``{row name: (x, y)}``: the loess calibration curve of each group
        (R's ``cal.curves``).
    quantiles : pandas.DataFrame
        R's ``quantiles``: the weighted quantiles 0.01 ... 0.99 of ``p``.

    ``str(res)`` is R's ``print(res)`` (``print.val.prob``).

    R equivalent: the value of ``rms::val.prob(p, y, group = , weights = )``.

    References
    ----------
    Harrell, F. E. (2015). *Regression Modeling Strategies*, 2nd ed., Springer.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> print(pc.val_prob(p, y, group=["a", "b"] * 100))
              n  Pavg   Obs ChiSq ChiSq2  Eavg Eavg/P90 Med OR     C     B B ChiSq
    a       100 0.534 0.500 0.670  0.818 0.034    0.040  1.228 0.814 0.175   0.013
    b       100 0.501 0.430 2.814  3.477 0.078    0.096  1.519 0.843 0.165   0.541
    Overall 200 0.518 0.465 3.121  3.911 0.054    0.064  1.318 0.831 0.170   0.361
            B cal
    a       0.173
    b       0.157
    Overall 0.166
    <BLANKLINE>
    Quantiles of Predicted Probabilities
    <BLANKLINE>
             0.01 0.025  0.05   0.1  0.25   0.5  0.75   0.9  0.95 0.975  0.99
    a       0.023 0.049 0.084 0.146 0.311 0.545 0.755 0.881 0.935 0.961 0.985
    b       0.058 0.068 0.098 0.142 0.285 0.487 0.734 0.878 0.903 0.945 0.992
    Overall 0.023 0.062 0.084 0.142 0.294 0.505 0.742 0.881 0.927 0.961 0.992

    R: ``set.seed(1); p <- runif(200); y <- rbinom(200, 1, p^1.3);
    print(val.prob(p, y, group = rep(c("a", "b"), 100), pl = FALSE))`` prints
    the same (and warns "NaNs produced" three times, from ``qlogis`` of
    smoothed values beyond 1, as this call does).
    """

    def __init__(self, row_names, stats, curves, quantiles):
        self.row_names = list(row_names)
        self._stats = np.asarray(stats, dtype=np.float64)
        self._quantiles = np.asarray(quantiles, dtype=np.float64)
        self.cal_curves = dict(zip(self.row_names, curves))

    @property
    def stats(self):
        import pandas as pd
        return pd.DataFrame(self._stats.copy(), index=self.row_names, columns=list(STAT_NAMES))

    @property
    def quantiles(self):
        import pandas as pd
        return pd.DataFrame(self._quantiles.copy(), index=self.row_names, columns=list(_Q_NAMES))

    def stats_array(self) -> np.ndarray:
        """The ``stats`` matrix as a float array (rows as :attr:`row_names`)."""
        return self._stats.copy()

    def quantiles_array(self) -> np.ndarray:
        return self._quantiles.copy()

    def __str__(self) -> str:
        def rows(m):
            return [r_round(row, 3).tolist() for row in m]

        return (print_matrix(rows(self._stats), self.row_names, list(STAT_NAMES))
                + "\n\nQuantiles of Predicted Probabilities\n\n"
                + print_matrix(rows(self._quantiles), self.row_names, list(_Q_NAMES)))

    __repr__ = __str__

    def to_dict(self) -> dict:
        """``{"stats": {row: {column: value}}, "quantiles": {...}}`` with NaN as None."""
        def table(m, cols):
            return {r: {c: (None if math.isnan(v) else float(v)) for c, v in zip(cols, row)}
                    for r, row in zip(self.row_names, m.tolist())}
        return {"stats": table(self._stats, STAT_NAMES), "quantiles": table(self._quantiles, _Q_NAMES)}

    def plot(self, ax=None):
        """The groups' loess calibration curves over the ideal line (R's ``plot.val.prob``'s curves).

        Python-only rendering in the package's style (matplotlib, imported
        lazily): one line per group, ``Overall`` thicker; ``ax`` composes with
        other panels. Returns the Axes. R's statistics table on the plot is not drawn.
        """
        ax, line_pt = calibration_axes(ax, "ValProbG")
        for name, (cx, cy) in self.cal_curves.items():
            lw = (4 if name == "Overall" else 1) * line_pt
            ax.plot(cx, cy, lw=lw, label=name)
        ax.set_xlabel("Predicted Probability")
        ax.set_ylabel("Actual Probability")
        ax.legend(loc="lower right", frameon=False)
        return ax


# ---------------------------------------------------------------------------
# val.probg
# ---------------------------------------------------------------------------

def group_levels(group, n: int, g_group: int):
    """``val.prob``'s group handling: (0-based codes, level labels) as R's factor."""
    if isinstance(group, (bool, np.bool_)):
        if group:
            return np.zeros(n, dtype=np.int64), [""]
        err = ProbcalError("`group` is FALSE")
        add_note(err, "R fails on val.prob(group = FALSE); leave `group` out for the ungrouped "
                      "statistics.")
        raise err
    # A masked array's hidden entries are R's NA (refused below, with a note).
    group, masked = masked_as_na(group)
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        pd = None
    if pd is not None and isinstance(getattr(group, "dtype", None), pd.CategoricalDtype):
        cat = pd.Categorical(group)
        _check_length(len(cat), n, "group")
        codes = np.asarray(cat.codes, dtype=np.int64)
        if (codes < 0).any():
            _missing_group()
        return codes, [str(c) for c in cat.categories]
    arr = np.asarray(group)
    if arr.ndim != 1:
        raise ProbcalError("`group` must be a vector")
    _check_length(arr.size, n, "group")
    if arr.dtype == bool:
        labels = np.where(arr, "TRUE", "FALSE")
        levels = sorted(set(labels.tolist()))
        return np.array([levels.index(v) for v in labels.tolist()], dtype=np.int64), levels
    if arr.dtype.kind in "iuf":
        x = arr.astype(np.float64)
        if np.isnan(x).any():
            _missing_group(masked)
        return cut2_g(x, check_g_group(g_group, x.size))
    vals = arr.tolist()
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in vals):
        _missing_group(masked)
    vals = [str(v) for v in vals]
    levels = sorted(set(vals))
    index = {v: k for k, v in enumerate(levels)}
    return np.array([index[v] for v in vals], dtype=np.int64), levels


_R_INT_MAX = 2147483647
_R_XLEN_T_MAX = 4503599627370496.0  # 2^52


def _g_group_error(message: str, note: str) -> ProbcalError:
    err = ProbcalError(message)
    add_note(err, "`g_group` (R's g.group) is the number of quantile groups of a numeric "
                  "`group`: a whole number from 1 up (default 4). " + note)
    return err


def check_g_group(g_group, nnm: int) -> float:
    """``g_group`` as Hmisc's ``cut2(group, g = g.group)`` meets it on ``nnm``
    values, or R's error for it, before anything is allocated.

    R's order: ``if (g < 1)`` (NA, NULL, several values, a complex value fail
    there; text compares as text), ``character(g)`` (a logical, an infinite,
    a too large or an unallocatable length fail), ``(1:g) * nnm / g`` (text
    fails; an integer overflow beyond 2^31 - 1 gives NA with R's warning,
    then ``if (cj == upper)`` fails on it).
    """
    g = g_group
    if hasattr(g, "to_numpy") and not isinstance(g, (str, bytes)):
        g = g.to_numpy()
    if isinstance(g, (list, tuple)):
        g = np.asarray(g, dtype=object)
    if isinstance(g, np.ndarray):
        if g.size != 1:
            raise _g_group_error("argument is of length zero" if g.size == 0
                                 else "the condition has length > 1", f"Got {g.size} values.")
        g = g.ravel()[0]
        if isinstance(g, np.generic):
            g = g.item()
    if g is None:
        raise _g_group_error("argument is of length zero", "Got None (R's NULL).")
    if isinstance(g, (str, bytes)):
        text = g.decode() if isinstance(g, bytes) else g
        if text < "1":
            raise _g_group_error("g must be >=1, m must be positive", f"Got the string {g!r}.")
        try:
            float(text)
        except ValueError:  # character("abc"): R's coercion warning, then NA
            r_warning("NAs introduced by coercion")
            raise _g_group_error("vector size cannot be NA/NaN",
                                 f"Got the string {g!r}.") from None
        raise _g_group_error("non-numeric argument to binary operator",
                             f"Got the string {g!r}: pass a number.")
    if isinstance(g, complex):
        raise _g_group_error("invalid comparison with complex values", f"Got {g!r}.")
    if isinstance(g, (bool, np.bool_)):
        if not g:
            raise _g_group_error("g must be >=1, m must be positive", "Got False.")
        raise _g_group_error("invalid 'length' argument", "Got True.")
    if not isinstance(g, numbers.Real):
        raise _g_group_error("invalid 'length' argument", f"Got {type(g).__name__}.")
    gv = float(g)
    if math.isnan(gv):
        raise _g_group_error("missing value where TRUE/FALSE needed", "Got NaN.")
    if gv < 1:
        raise _g_group_error("g must be >=1, m must be positive", f"Got {g!r}.")
    if math.isinf(gv):
        raise _g_group_error("vector size cannot be infinite", "Got infinity.")
    if gv > _R_XLEN_T_MAX:
        raise _g_group_error("vector size specified is too large", f"Got {g!r}.")
    steps = int(gv)
    from ..inference import physical_memory as _physical_memory
    from .._rng._args import r_alloc_error

    ram = _physical_memory()
    if ram and 8.0 * steps > ram:
        err = r_alloc_error(steps, 8)  # character(g): one pointer per group label
        add_note(err, f"`g_group` = {g!r}: R allocates {steps} group labels first "
                      f"({8.0 * steps / 2 ** 30:.1f} GiB, more than this machine's "
                      f"{ram / 2 ** 30:.1f} GiB). Use a few groups (default 4).")
        raise err
    if steps * nnm > _R_INT_MAX:
        r_warning("NAs produced by integer overflow")
        raise _g_group_error("missing value where TRUE/FALSE needed",
                             f"R computes (1:g) * n in integers: {steps} groups times {nnm} "
                             "observations exceeds 2^31 - 1, so R's cut points become NA. "
                             "Use a few groups (default 4).")
    return gv


def _check_length(size: int, n: int, arg: str) -> None:
    if size != n:
        err = ProbcalError(f"lengths of {arg} and y do not agree")
        add_note(err, f"`{arg}` has {size} values, `y` {n}: give one per observation "
                      "(R recycles or fails here; this package refuses).")
        raise err


def _missing_group(masked: bool = False):
    err = ProbcalError("Argument `group` must not contain missing values.")
    add_note(err, "R's val.prob drops the rows with a missing group; this package refuses "
                  "missing values (as for `p` and `y`): drop those rows first.")
    if masked:
        add_note(err, MASKED_NOTE.format(arg="group"))
    raise err


@quiet_fp
def val_probg(p: np.ndarray, y: np.ndarray, codes: np.ndarray, levels, evaluate: int = 100,
              weights=None, normwt: bool = False, nmin: float = 0) -> ValProbG:
    """R's ``val.probg(p, y, group, evaluate, weights, normwt, nmin)`` on checked inputs."""
    n_all = y.size
    wts = np.ones(n_all) if weights is None else np.asarray(weights, dtype=np.float64)
    if normwt:
        wts = n_all * wts / r_sum(wts)
    lg = list(levels)
    ng = len(lg)
    if ng == 1:
        ng, lg = 0, []
    names = lg + ["Overall"]
    stats = np.full((ng + 1, 12), np.nan)
    limits = np.full((ng + 1, len(Q_LIMITS)), np.nan)
    curves = []
    for i in range(ng + 1):
        s = slice(None) if i == ng else codes == i
        P, Y, wt = p[s], y[s], wts[s]
        lims = wtd_quantile(P, wt, Q_LIMITS)
        limits[i] = lims
        # numpy scalars: R's x / 0 is Inf or NaN, where Python floats raise.
        n = np.float64(r_sum(wt))
        ev = Y == 1
        n1 = np.float64(r_sum(wt[ev]))
        ranks = wtd_rank(P, wt)
        c_index = (np.float64(r_mean(ranks[ev])) - (n1 + 1) / 2) / (n - n1)
        fitted = loess_fitted(P, Y, wt, span=2 / 3, degree=1, cell=0.13333)
        if P.size > evaluate:
            # seq(min, max, length = evaluate): R takes ceiling(length.out)
            grid = _seq_len_out(float(P.min()), float(P.max()), int(math.ceil(evaluate)))
            cy = _approx_linear(P, fitted, grid, warn_ties=False)
            curve = (grid, cy)
        else:
            o = np.argsort(P, kind="stable")
            xo, yo = P[o], fitted[o]
            first = np.concatenate([[True], xo[1:] != xo[:-1]]) if xo.size else xo.astype(bool)
            curve = (xo[first], yo[first])
        if nmin > 0:
            cuts = wtd_quantile(P, wt, np.array([nmin, n - nmin]) / n)
            keep = (curve[0] >= cuts[0]) & (curve[0] <= cuts[1])
            curve = (curve[0][keep], curve[1][keep])
        curves.append(curve)
        cal = fitted
        eavg = r_sum(wt * np.abs(P - cal)) / n
        dpy = P - Y
        b = r_sum(wt * (dpy * dpy)) / n
        pq = (wt * P) * (1 - P)
        e0b = r_sum(pq) / n
        q2 = 1 - 2 * P
        vb = r_sum(((wt * (q2 * q2)) * P) * (1 - P)) / n / n
        bchisq = (b - e0b) * (b - e0b) / vb
        dc = cal - Y
        b_cal = r_sum(wt * (dc * dc)) / n
        pred = r_sum(wt * P) / n
        obs = r_sum(wt * Y) / n
        edge = (P == 0) | (P == 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            L = np.where(edge, np.nan, _qlogis(P))
        w = ~np.isnan(L)
        ypp = Y - P
        lppq = ((wt * L) * P) * (1 - P)
        dl = np.array([r_sum((wt * ypp)[w]), r_sum(((wt * L) * ypp)[w])])
        v = np.array([[r_sum(pq[w]), r_sum(lppq[w])],
                      [0.0, r_sum(((((wt * L) * L) * P) * (1 - P))[w])]])
        v[1, 0] = v[0, 1]
        s_py = np.float64(r_sum(wt * dpy))
        chisq = (s_py * s_py) / np.float64(r_sum(pq))
        inv = _dgesv_inverse(v)
        _check_rcond(v, inv)
        # del %*% solve(v) %*% t(del): two dgemv calls (R's matprod for a row and a column)
        row = ((0.0 + dl[0] * inv[0, 0]) + dl[1] * inv[1, 0],
               (0.0 + dl[0] * inv[0, 1]) + dl[1] * inv[1, 1])
        chisq2 = (0.0 + row[0] * dl[0]) + row[1] * dl[1]
        p90 = lims[8] - lims[2]
        out01 = (cal <= 0) | (cal >= 1)
        # ifelse() evaluates qlogis(cal.smooth) only when some value is inside
        # (0, 1); it then warns for a value outside [0, 1].
        if not out01.all() and ((cal < 0) | (cal > 1)).any():
            r_warning("NaNs produced")
        with np.errstate(divide="ignore", invalid="ignore"):
            lcal = np.where(out01, np.nan, _qlogis(cal))
        med = wtd_quantile(np.abs(L - lcal), wt, [0.5], na_rm=True)[0]
        odds = float(r_exp(np.array([med]))[0])
        stats[i] = [n, pred, obs, chisq, chisq2, eavg, eavg / p90, odds, c_index, b, bchisq, b_cal]
    return ValProbG(names, stats, curves, limits)


# The grouped statistics' cost: one R loess per group and one on all rows,
# each with R's exact trace of the hat matrix (its rows: O(m^2) for m rows).
# Seconds per row and per pair of rows, from val_prob(group=) timed at n = 5e4,
# 1e5 and 2e5 (26, 72 and 241 s; 4 groups) before the trace's shortcuts in
# _loess (about 2-3 times faster since); on the development machine, loaded
# about 7-fold, n = 5e3 and 6e4 now take 2.2 and 46 s, where these rates
# predict 1.3 and 32 s: an order of magnitude, as skce's estimate.
LOESS_ROW_SECONDS = 1.2e-4
LOESS_PAIR_SECONDS = 3.9e-9


def estimated_seconds(n: int, sizes) -> float:
    """Estimated seconds of ``val_prob(group=)``'s loess fits: all ``n`` rows and each group."""
    fits = [float(n)] + [float(m) for m in sizes]
    return sum(LOESS_ROW_SECONDS * m + LOESS_PAIR_SECONDS * m * m for m in fits)


def long_run_warning(n: int, sizes) -> None:
    """A UserWarning, at once, when the grouped statistics will take long
    (Python-only advice, as ``skce``'s and ``cal_test``'s; R says nothing)."""
    from ..kernel._quadratic import WARN_SECONDS, duration as _duration
    from ..rbase._warn import warn_now

    seconds = estimated_seconds(n, sizes)
    if seconds <= WARN_SECONDS:
        return
    warn_now(f"val_prob(group=...) fits R's loess on all {n} rows and on each of the "
             f"{len(sizes) or 1} groups, each with R's exact hat-matrix trace, whose work grows "
             f"as n^2: estimated {_duration(seconds)}. Faster: val_prob(p, y) without `group` "
             "(lowess, O(n log n)) for the overall statistics, or the groups one at a time "
             "on a subsample.", UserWarning)


def grouped(p: np.ndarray, y: np.ndarray, group, weights, normwt: bool, g_group: int,
            evaluate: int, nmin: float) -> ValProbG:
    """``val.prob(p, y, group = , weights = , ...)``'s grouped path (``p``, ``y`` checked)."""
    from ..inputs._checks import as_numeric_vector

    n = y.size
    if weights is None:
        wts = np.ones(n)
    else:
        wts = as_numeric_vector(weights, arg="weights", finite=False)
        if np.isnan(wts).any():
            raise ProbcalError("Argument `weights` must not contain missing values.")
        _check_length(wts.size, n, "weights")
    codes, levels = group_levels(group, n, g_group)
    normwt = _r_truth(normwt, "normwt")
    evaluate = _check_evaluate(evaluate)
    nmin = _check_nmin(nmin)
    long_run_warning(n, np.bincount(codes, minlength=len(levels)) if len(levels) > 1 else [])
    try:
        return val_probg(p, y, codes, levels, evaluate=evaluate, weights=wts, normwt=normwt,
                         nmin=nmin)
    except ProbcalError as err:
        _name_the_argument(err, wts, nmin)
        raise


# ---------------------------------------------------------------------------
# The scalar arguments as R's `if ()` meets them in val.probg
# ---------------------------------------------------------------------------

def _scalar(value, arg: str, what: str):
    """The single value R's ``if`` reads, or R's error for a length other than 1
    (with a note naming ``arg``)."""
    if hasattr(value, "to_numpy") and not isinstance(value, (str, bytes)):
        value = value.to_numpy()
    if isinstance(value, (list, tuple)):
        value = np.asarray(value, dtype=object)
    if isinstance(value, np.ndarray):
        if value.size != 1:
            err = ProbcalError("argument is of length zero" if value.size == 0
                               else "the condition has length > 1")
            add_note(err, f"`{arg}` must be {what}; got {value.size} values.")
            raise err
        value = value.ravel()[0]
        if isinstance(value, np.generic):
            value = value.item()
    if value is None:
        err = ProbcalError("argument is of length zero")
        add_note(err, f"`{arg}` must be {what}; got None (R's NULL).")
        raise err
    return value


def _missing(arg: str, what: str):
    err = ProbcalError("missing value where TRUE/FALSE needed")
    add_note(err, f"`{arg}` must be {what}; got NaN.")
    return err


def _r_truth(value, arg: str) -> bool:
    """R's ``if (normwt)``: a logical, a number (nonzero is TRUE) or R's words."""
    what = "True or False"
    value = _scalar(value, arg, what)
    if isinstance(value, (str, bytes)):
        text = value.decode() if isinstance(value, bytes) else value
        if text in ("TRUE", "true", "T", "True"):
            return True
        if text in ("FALSE", "false", "F", "False"):
            return False
        value = object()
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Number):
        if isinstance(value, numbers.Real) and math.isnan(float(value)):
            raise _missing(arg, what)
        return value != 0
    err = ProbcalError("argument is not interpretable as logical")
    add_note(err, f"`{arg}` must be {what}; got {type(value).__name__} {value!r:.40}.")
    raise err


def _number(value, arg: str, what: str) -> float:
    value = _scalar(value, arg, what)
    if isinstance(value, complex):
        err = ProbcalError("invalid comparison with complex values")
        add_note(err, f"`{arg}` must be {what}.")
        raise err
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        err = ProbcalError(f"Argument `{arg}` must be a number.")
        add_note(err, f"`{arg}` must be {what}; got {type(value).__name__} {value!r:.40} "
                      "(R compares text with numbers as text; this package refuses it).")
        raise err
    v = float(value)
    if math.isnan(v):
        raise _missing(arg, what)
    return v


def _check_evaluate(evaluate) -> float:
    """R's ``if (length(sm$x) > evaluate)`` then ``seq(..., length = evaluate)``,
    whose ``ceiling(evaluate)`` must not be negative."""
    what = "the number of points of each calibration curve (default 100)"
    v = _number(evaluate, "evaluate", what)
    if v == math.inf:
        return v  # no group has more points: the curves are the fitted points
    if v == -math.inf or math.ceil(v) < 0:
        err = ProbcalError("'length.out' must be a non-negative number")
        add_note(err, f"`evaluate` must be {what}; got {evaluate!r}.")
        raise err
    return v


def _check_nmin(nmin) -> float:
    """R's ``if (nmin > 0)``; the quantiles ``c(nmin, n - nmin) / n`` are checked
    where they are formed (R's "Probabilities must be between 0 and 1 inclusive")."""
    return _number(nmin, "nmin", "the weight kept out of each end of the curves (default 0)")


def _name_the_argument(err: ProbcalError, wts: np.ndarray, nmin: float) -> None:
    """A note naming the argument behind an R error raised deep in val.probg."""
    message = str(err)
    if message == "Probabilities must be between 0 and 1 inclusive" and nmin > 0:
        add_note(err, f"`nmin` = {nmin:g} leaves no curve: the quantiles c(nmin, n - nmin) / n "
                      "must lie in [0, 1] for every group (n its total weight).")
    elif message in ("zero non-NA points", "need at least two non-NA values to interpolate"):
        if (wts <= 0).any() or not np.isfinite(wts).all():
            add_note(err, "`weights` must be positive and finite: R's weighted quantiles and "
                          "loess find no usable points with these.")
        else:
            add_note(err, "A group has too few distinct predictions for its calibration "
                          "curve: use fewer groups (`g_group`) or a coarser `group`.")

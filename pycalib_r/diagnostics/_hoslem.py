# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/quantile.R (quantile.default, type 7), src/library/base/R/cut.R (cut.default), src/library/base/R/seq.R (seq.default) (GPL-2.0-or-later), (c) The R Core Team
# Written from: Hosmer and Lemeshow (1980), Communications in Statistics - Theory and Methods 9(10), 1043-1069; Hosmer, Lemeshow and Sturdivant (2013), Applied Logistic Regression, 3rd ed., section 5.2.2 (the method; not from ResourceSelection's code)
"""The Hosmer-Lemeshow goodness-of-fit test of fitted probabilities.

How this module was written: written from the published method, Hosmer &
Lemeshow (1980), "Goodness of fit tests for the multiple logistic regression model",
*Communications in Statistics - Theory and Methods* A9(10), 1043-1069, and
Hosmer, Lemeshow & Sturdivant (2013), *Applied Logistic Regression*, 3rd ed.,
Wiley, section 5.2.2 ("deciles of risk"), not from ResourceSelection's code
(GPL-2-only). Only its documented interface (``hoslem.test(x, y, g)``, the
``htest`` value and its messages) and its published values were used: the
results are checked against ``ResourceSelection::hoslem.test`` 0.3-6 through
stored R answers (reference/validation/validation_fixtures.json) and live
where it is installed (tests/diagnostics/test_validation.py).

The method, as the book states it:

1. Sort the fitted probabilities and form ``g`` groups of about ``n / g``
   subjects at the percentiles ``k / g`` of the fitted values (``g = 10``:
   the deciles of risk). Cut points that coincide (tied fitted values) give
   one group, not two.
2. In group ``k`` count the observed outcomes ``o1_k = sum(y)`` and
   ``o0_k = sum(1 - y)`` and their expectations under the model,
   ``e1_k = sum(pihat)`` and ``e0_k = sum(1 - pihat)``.
3. ``C = sum_k [ (o1_k - e1_k)^2 / e1_k + (o0_k - e0_k)^2 / e0_k ]``, Pearson's
   chi-square over the ``G x 2`` table, referred to chi-square with
   ``G - 2`` degrees of freedom (``G`` the groups that hold subjects).

What the method leaves to the software is fixed here as R fixes it, with R
4.2.2's own base functions reproduced (the only code this module derives
from): the percentiles are R's default (type 7) ``quantile`` at
``seq(0, 1, 1/g)``; the groups are those of R's ``cut(..., include.lowest =
TRUE)`` (right-closed, the first closed on both sides) with its labels; the
sums are R's long-double ``sum`` in data order; an empty group contributes
``0/0`` (NaN), as R's table arithmetic does; the p-value is ``1 - pchisq``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..rstats import pchisq
from ..inputs._checks import ProbcalError, add_note, as_numeric_vector
from ..inputs._weights import check_weights
from ..rbase._format import format_pval, format_r, strwrap
from ..rbase._rarith import r_sum
from ..rbase._rlist import NamedNumber, RList
from ..rbase._warn import r_warning
from ..inputs._hints import python_face

__all__ = ["hoslem_test", "HoslemTest", "one_minus_pchisq", "print_htest", "hoslem_breaks",
           "hoslem_ranks", "group_codes", "hoslem_result", "check_groups", "MAX_GROUPS"]

_METHOD = "Hosmer and Lemeshow goodness of fit (GOF) test"
_INT_MAX = 2147483647
# The largest `g` taken. R forms g + 1 percentiles and a g-row table whatever
# the data; beyond about 2n groups some group is empty and the statistic is
# NaN. This bound keeps one call within seconds and a few hundred MB.
MAX_GROUPS = 2 ** 20
_LENGTHS_DIFFER = "variable lengths differ (found for 'cutyhat')"


# ---------------------------------------------------------------------------
# Small R pieces: 1 - pchisq, print.htest
# ---------------------------------------------------------------------------

def one_minus_pchisq(q: float, df: float) -> float:
    """R ``1 - pchisq(q, df)`` (the subtraction R's callers write, not the upper tail).

    ``pchisq`` is R 4.2.2's nmath ``pgamma`` ported bit for bit
    (:mod:`pycalib_r.rstats._gamma_dist`; ``tests/rstats/test_nmath_gamma.py``),
    including ``pchisq(q, 0)``: 0 for ``q <= 0`` and 1 above.
    """
    return 1.0 - pchisq(float(q), float(df))


def print_htest(method: str, data_name: str, statistic: NamedNumber, parameter: NamedNumber,
                p_value: float, digits: int = 7) -> str:
    """R's ``print.htest`` output (without the final newline ``print`` adds) for a
    test with a statistic, a parameter and a p-value."""
    parts = [f"{statistic.name} = {format_r(float(statistic), digits=max(1, digits - 2))}",
             f"{parameter.name} = {format_r(float(parameter), digits=max(1, digits - 2))}"]
    fp = format_pval(p_value, digits=max(1, digits - 3))
    parts.append("p-value " + (fp if fp.startswith("<") else "= " + fp))
    return "\n".join(["", *strwrap(method, prefix="\t"), "", f"data:  {data_name}",
                      *strwrap(", ".join(parts)), ""])


# ---------------------------------------------------------------------------
# The number of groups
# ---------------------------------------------------------------------------

def _g_error(message: str, note: str) -> ProbcalError:
    err = ProbcalError(message)
    add_note(err, note)
    return err


def check_groups(g) -> float:
    """``g`` as R's ``hoslem.test`` reads it, or R's error for it.

    R compares ``g < 2`` first (an NA, NULL, longer or complex ``g`` fails in
    that ``if``; a string compares as text, so ``"10" < 2`` is TRUE), then
    forms ``seq(0, 1, 1/g)``, whose own checks refuse an infinite ``g`` and
    one beyond R's integer range. Groups beyond :data:`MAX_GROUPS` are
    refused here (Python-only bound; R tries to build them).
    """
    how = "`g` is the number of groups: a whole number from 2 up (default 10)."
    if hasattr(g, "to_numpy") and not isinstance(g, (str, bytes)):
        g = g.to_numpy()
    if isinstance(g, (list, tuple)):
        g = np.asarray(g, dtype=object)
    if isinstance(g, np.ndarray):
        if g.size == 0:
            raise _g_error("argument is of length zero", how)
        if g.size > 1:
            raise _g_error("the condition has length > 1", how + f" Got {g.size} values.")
        g = g.ravel()[0]
        if isinstance(g, np.generic):
            g = g.item()
    if g is None:
        raise _g_error("argument is of length zero", how + " Got None (R's NULL).")
    if isinstance(g, (str, bytes)):
        text = g.decode() if isinstance(g, bytes) else g
        # R compares the text with "2"; then 1/g fails.
        msg = ("Argument g must be at least 2." if text < "2"
               else "non-numeric argument to binary operator")
        raise _g_error(msg, how + f" Got the string {g!r}: pass a number, e.g. g={text.strip()}"
                       if text.strip().isdigit() else how + f" Got the string {g!r}.")
    if isinstance(g, complex):
        raise _g_error("invalid comparison with complex values", how)
    if not isinstance(g, numbers.Real):
        raise _g_error("argument is not interpretable as logical", how + f" Got {type(g).__name__}.")
    gv = float(g)
    if math.isnan(gv):
        raise _g_error("missing value where TRUE/FALSE needed", how + " Got NaN.")
    if gv < 2:
        raise ProbcalError("Argument g must be at least 2.")
    if math.isinf(gv):
        raise _g_error("invalid '(to - from)/by'", how + " Got infinity: R's seq(0, 1, 1/g) fails.")
    if 1.0 / (1.0 / gv) > _INT_MAX:
        raise _g_error("'by' argument is much too small",
                       how + f" Got {g!r}: R's seq(0, 1, 1/g) refuses more than 2^31 - 1 steps.")
    if gv > MAX_GROUPS:
        raise _g_error(f"Argument `g` must be at most {MAX_GROUPS} here.",
                       f"R would build {gv:.0f} percentile groups, nearly all of them empty, "
                       "and return a NaN statistic (an empty group's 0/0): the test needs "
                       "far fewer groups than observations (Hosmer and Lemeshow use 10).")
    return gv


def _percent_points(g: float) -> np.ndarray:
    """R's ``seq(0, 1, 1/g)``: ``0:n * (1/g)`` capped at 1, ``n = as.integer(g' + 1e-10)``
    with ``g' = 1 / (1/g)`` (so a non-integer ``g`` stops short of 1, as in R)."""
    step = 1.0 / g
    count = int(1.0 / step + 1e-10)
    return np.minimum(np.arange(count + 1, dtype=np.float64) * step, 1.0)


def _positions(n: int, g: float):
    """Type-7 positions ``1 + (n - 1) * prob`` of the percentiles: (position, below, above)."""
    pos = 1.0 + max(n - 1, 0) * _percent_points(g)
    return pos, np.floor(pos).astype(np.int64), np.ceil(pos).astype(np.int64)


def hoslem_ranks(n: int, g: float) -> np.ndarray:
    """The 1-based order statistics the percentiles of ``n`` fitted values need."""
    _, below, above = _positions(n, g)
    return np.unique(np.concatenate([below, above]))


def hoslem_breaks(order_stat, n: int, g: float) -> np.ndarray:
    """The distinct cut points: type-7 percentiles ``k/g`` of the fitted values,
    from their order statistics ``order_stat(rank)`` (rank 1-based; read from
    the sorted values in memory, found by counting passes on Dask)."""
    pos, below, above = _positions(n, g)
    ranks = hoslem_ranks(n, g)
    value = np.array([float(order_stat(int(r))) for r in ranks])
    lo = value[np.searchsorted(ranks, below)]
    hi = value[np.searchsorted(ranks, above)]
    frac = pos - below
    between = (frac > 0) & (hi != lo)
    cuts = lo.copy()
    with np.errstate(over="ignore", invalid="ignore"):
        cuts[between] = (1 - frac[between]) * lo[between] + frac[between] * hi[between]
    cuts = np.unique(cuts)
    if cuts.size < 2:
        raise _g_error("invalid number of intervals",
                       "All fitted values are equal, so there are no quantile groups to "
                       "compare: the test needs at least two distinct values in `y`.")
    return cuts


def group_codes(cuts: np.ndarray, yhat: np.ndarray) -> np.ndarray:
    """Group of each fitted value, 1..G for ``(cuts[k-1], cuts[k]]`` with the
    lowest cut point in group 1; G + 1 for a value above the last cut point
    (R's NA group, reached when a non-integer ``g`` stops short of 1)."""
    code = np.searchsorted(cuts, yhat, side="left")
    return np.maximum(code, 1)


def _labels(cuts: np.ndarray) -> list:
    """R's ``cut`` labels (``dig.lab = 3``, right-closed, lowest included): the
    fewest significant digits from 3 to 12 that tell adjacent cut points
    apart, else ``Range_1``, ``Range_2``, ..."""
    shown = None
    for digits in range(3, 13):
        shown = ["%.*g" % (digits, 0.0 + c) for c in cuts]
        if all(a != b for a, b in zip(shown, shown[1:])):
            break
    else:
        return [f"Range_{k}" for k in range(1, cuts.size)]
    labels = [f"({a},{b}]" for a, b in zip(shown, shown[1:])]
    labels[0] = "[" + labels[0][1:]
    return labels


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------

class HoslemTest(RList):
    """Result of :func:`hoslem_test`: R's ``htest`` list.

    Components (R's names): ``statistic`` (``X-squared``), ``parameter``
    (``df``), ``p.value``, ``method``, ``data.name``, ``observed`` and
    ``expected`` (dicts ``{"y0"/"yhat0": [...], "y1"/"yhat1": [...]}`` by group,
    with the groups' labels in ``groups``). ``str(res)`` is R's ``print(res)``.

    R equivalent: the value of ``ResourceSelection::hoslem.test()``.
    """

    r_class = ("htest",)

    def __init__(self, statistic, parameter, p_value, method, data_name, observed, expected,
                 groups):
        self._set_components([("statistic", NamedNumber("X-squared", statistic)),
                              ("parameter", NamedNumber("df", parameter)),
                              ("p.value", float(p_value)), ("method", method),
                              ("data.name", data_name), ("observed", observed),
                              ("expected", expected)])
        self.groups = list(groups)

    @property
    def pvalue(self) -> float:
        """scipy's name for ``p_value``."""
        return self.p_value

    def __str__(self) -> str:
        return print_htest(self.method, self.data_name, self.statistic, self.parameter,
                           self.p_value)

    __repr__ = __str__


def hoslem_result(cuts, o0, o1, e0, e1, occupied: int, g: float, data_name: str) -> HoslemTest:
    """Pearson's chi-square of the ``G x 2`` table of observed against expected
    counts per group (``o0``, ``o1``, ``e0``, ``e1``; ``occupied`` groups hold
    subjects), on ``occupied - 2`` degrees of freedom."""
    observed = np.concatenate([o0, o1])  # R's table, column by column
    expected = np.concatenate([e0, e1])
    with np.errstate(all="ignore"):  # an empty group is 0/0; huge counts overflow to Inf
        gap = observed - expected
        statistic = r_sum(gap * gap / expected)
    if occupied < 2:
        raise ProbcalError("The number of bins led to negative df.")
    df = occupied - 2
    p_value = one_minus_pchisq(statistic, df)
    if occupied < g:
        r_warning("The data did not allow for the requested number of bins.")
    return HoslemTest(statistic, float(df), p_value, _METHOD, data_name,
                      {"y0": o0, "y1": o1}, {"yhat0": e0, "yhat1": e1}, _labels(cuts))


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

def _boolean(x) -> bool:
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return dtype == bool or str(dtype) == "boolean"
    if isinstance(x, (list, tuple)) and x:
        return all(isinstance(v, (bool, np.bool_)) for v in x)
    return isinstance(x, (bool, np.bool_))


def _as_vector_or_matrix(x, arg: str) -> np.ndarray:
    """Numbers (logicals count as 0/1, as in R), a vector or a matrix."""
    if _boolean(x):
        if hasattr(x, "to_numpy") and str(getattr(x, "dtype", "")) == "boolean":
            x = x.to_numpy(dtype=np.float64, na_value=np.nan)
        elif isinstance(x, np.ndarray) or hasattr(x, "mask"):
            x = x.astype(np.float64)  # a masked array keeps its mask
        elif hasattr(x, "to_numpy"):
            x = x.to_numpy(dtype=np.float64)
        else:
            x = np.asarray(x, dtype=np.float64)
    arr = as_numeric_vector(x, arg=arg)
    if arr.ndim > 2:
        raise ProbcalError(f"Argument `{arg}` must be a numeric vector.")
    return arr


def _columns_note(arg: str, value, n: int, columns: int, err: ProbcalError) -> ProbcalError:
    from ..inputs._hints import two_column_note

    add_note(err, two_column_note(arg, value, n)
             or f"`{arg}` has {columns} columns; hoslem_test takes the fitted probabilities "
                f"of the outcome as one vector.")
    return err


def _data(x, y):
    """(outcomes, fitted values) as R's hoslem.test would use them, or R's error."""
    obs = _as_vector_or_matrix(x, "x")
    fitted = _as_vector_or_matrix(y, "y")
    if fitted.ndim == 2 and fitted.shape[1] == 1:
        fitted = fitted[:, 0]
    elif fitted.ndim == 2:
        err = ProbcalError(_LENGTHS_DIFFER)
        raise _columns_note("y", y, len(obs), fitted.shape[1], err)
    n = fitted.size
    if obs.ndim == 2:
        if obs.shape[0] != n:
            raise ProbcalError(_LENGTHS_DIFFER)
        if obs.shape[1] != 1:
            err = ProbcalError("non-conformable arrays")
            add_note(err, f"`x` has {obs.shape[1]} columns; hoslem_test takes the outcomes as "
                          "one 0/1 vector: for one-hot labels pass the positive class's "
                          "column, x[:, 1] (or x.iloc[:, 1]).")
            raise err
        obs = obs[:, 0]
    if obs.size != n:
        err = ProbcalError(_LENGTHS_DIFFER)
        add_note(err, f"`x` has {obs.size} values, `y` {n}: one outcome per fitted value.")
        raise err
    return obs, fitted


def _data_name(x, y) -> str:
    xn, yn = getattr(x, "name", None), getattr(y, "name", None)
    return f"{xn}, {yn}" if isinstance(xn, str) and isinstance(yn, str) else "x, y"


# ---------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------

@python_face
def hoslem_test(x, y, g=10, *, data_name=None, weights=None) -> HoslemTest:
    """Hosmer-Lemeshow goodness-of-fit test of a binary outcome's fitted probabilities.

    R equivalent: ``ResourceSelection::hoslem.test(x, y, g = 10)`` (0.3-6),
    with ``x`` the observed 0/1 outcome and ``y`` the fitted probabilities.

    The fitted values are cut at their unique type-7 quantiles
    ``seq(0, 1, 1/g)``; with ``O_kj`` and ``E_kj`` the observed and expected
    counts of outcome ``j`` in group ``k``,

    ``X^2 = sum_k sum_j (O_kj - E_kj)^2 / E_kj``, ``df = G - 2``,

    ``G`` the number of non-empty groups; the p-value is ``1 - pchisq(X^2, G - 2)``.

    Parameters
    ----------
    x : array_like
        Observed outcomes (numbers or booleans; R uses them as given). A
        one-column matrix is read as its column.
    y : array_like
        Expected values (fitted probabilities). A one-column matrix (e.g.
        ``predict_proba(X)[:, [1]]``) is read as its column, as R reads it.
    g : int
        Number of groups, at least 2 (at most :data:`MAX_GROUPS`, a
        Python-only bound).
    data_name : str, optional
        R's ``data.name`` (R deparses the call: ``"y, p"`` for
        ``hoslem.test(y, p)``); default the pandas names, else ``"x, y"``.
    weights : array_like, optional
        Python-only: observation weights, one per observation (R's ``glm``
        prior weights), finite and non-negative with a positive sum (else a
        ``ProbcalError`` naming ``weights``). The groups are cut at the
        type-7 percentiles of the replicated fitted values (``n`` becomes
        the total weight ``W``; the order statistic of rank ``t`` is the
        first sorted fitted value whose cumulative weight reaches ``t``),
        and ``O_kj``, ``E_kj`` are weighted counts (``sum w x``, ``sum w
        (1 - x)``, ``sum w y``, ``sum w (1 - y)``). A row of weight 0
        changes nothing, a row of whole weight k counts as k copies. None:
        R's test, bit for bit. ResourceSelection has no weights.

    Returns
    -------
    HoslemTest

    Raises
    ------
    ProbcalError
        With R's message: ``"Argument g must be at least 2."``, R's errors for
        a ``g`` that is missing, infinite or not a number, "invalid number of
        intervals" (all fitted values equal), "variable lengths differ (found
        for 'cutyhat')" (lengths differ, or ``y`` has two columns, as a binary
        ``predict_proba`` has: a note says which column to pass),
        "non-conformable arrays" (``x`` one-hot, two columns).

    Warns
    -----
    RuntimeWarning
        R's "The data did not allow for the requested number of bins." when
        fewer than ``g`` groups are non-empty.

    References
    ----------
    Hosmer, D. W. and Lemeshow, S. (1980). Goodness of fit tests for the
    multiple logistic regression model. *Communications in Statistics -
    Theory and Methods* A9(10), 1043-1069.
    Hosmer, D. W., Lemeshow, S. and Sturdivant, R. X. (2013). *Applied
    Logistic Regression*, 3rd ed., Wiley, section 5.2.2.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> print(pc.hoslem_test(y, p, g=10, data_name="y, p"))  # doctest: +NORMALIZE_WHITESPACE
    <BLANKLINE>
    	Hosmer and Lemeshow goodness of fit (GOF) test
    <BLANKLINE>
    data:  y, p
    X-squared = 10.139, df = 8, p-value = 0.2554
    <BLANKLINE>

    R: ``set.seed(1); p <- runif(200); y <- rbinom(200, 1, p^1.3);
    hoslem.test(y, p, g = 10)`` prints the same.
    """
    if data_name is None:
        data_name = _data_name(x, y)
    elif not isinstance(data_name, str):
        raise ProbcalError("Argument `data_name` must be a string.")
    groups = check_groups(g)
    outcome, fitted = _data(x, y)
    if weights is not None:
        return _weighted_hoslem(outcome, fitted, check_weights(weights, fitted.size), groups,
                                data_name)
    ordered = np.sort(fitted)
    cuts = hoslem_breaks(lambda rank: ordered[rank - 1], fitted.size, groups)
    code = group_codes(cuts, fitted)
    k = cuts.size - 1
    sums = np.zeros((4, k))  # o0, o1, e0, e1 by group; an empty group stays 0
    rows_by_group = np.argsort(code, kind="stable")  # data order within a group
    edges = np.searchsorted(code[rows_by_group], np.arange(1, k + 2))
    with np.errstate(all="ignore"):
        for j in np.flatnonzero(np.diff(edges)):
            rows = rows_by_group[edges[j]:edges[j + 1]]
            o, e = outcome[rows], fitted[rows]
            sums[:, j] = (r_sum(1 - o), r_sum(o), r_sum(1 - e), r_sum(e))
    occupied = int(np.unique(code).size)  # a value above the last cut counts, as R's NA
    return hoslem_result(cuts, sums[0], sums[1], sums[2], sums[3], occupied, groups, data_name)


def _weighted_hoslem(outcome, fitted, w, groups, data_name) -> HoslemTest:
    """:func:`hoslem_test` with observation weights: the replicated sample's
    percentiles (:func:`~pycalib_r.binned._weighted.weighted_order_stat`)
    and weighted counts per group (rows of weight 0 dropped first)."""
    from ..binned._weighted import positive_rows, weighted_order_stat  # noqa: PLC0415

    w, outcome, fitted = positive_rows(w, outcome, fitted)
    order_stat, total = weighted_order_stat(fitted, w)
    cuts = hoslem_breaks(order_stat, total, groups)
    code = group_codes(cuts, fitted)
    k = cuts.size - 1
    sums = np.zeros((4, k + 1))
    with np.errstate(all="ignore"):
        for row, v in enumerate((w * (1 - outcome), w * outcome, w * (1 - fitted), w * fitted)):
            sums[row] = np.bincount(code - 1, weights=v, minlength=k + 1)[:k + 1]
    occupied = int(np.unique(code).size)
    return hoslem_result(cuts, sums[0, :k], sums[1, :k], sums[2, :k], sums[3, :k], occupied,
                         groups, data_name)

"""The Hosmer-Lemeshow test as ``ResourceSelection::hoslem.test`` (0.3-6) computes it.

R's code, step by step: the groups are ``cut(yhat, unique(quantile(yhat,
seq(0, 1, 1/g))), include.lowest = TRUE)``; observed and expected counts are
``xtabs`` sums per group (R's long-double ``sum`` in data order, empty groups
0); ``X-squared = sum((O - E)^2 / E)`` over the ``G x 2`` table in R's
column order; ``df = G - 2`` with ``G`` the number of non-empty groups.
"""

from __future__ import annotations


import numpy as np

from .._rng.nmath._gamma_dist import pchisq
from ..inputs._checks import ProbcalError, add_note, as_numeric_vector, check_same_length
from ..rbase._format import format_pval, format_r, strwrap
from ..rbase._rarith import r_sum
from ..rbase._rlist import NamedNumber, RList
from ..rbase._warn import warn

__all__ = ["hoslem_test", "HoslemTest", "one_minus_pchisq", "print_htest", "hoslem_breaks",
           "hoslem_ranks", "group_codes", "hoslem_result"]

_METHOD = "Hosmer and Lemeshow goodness of fit (GOF) test"


def one_minus_pchisq(q: float, df: float) -> float:
    """R ``1 - pchisq(q, df)`` (the subtraction R's callers write, not the upper tail).

    ``pchisq`` is R 4.2.2's nmath ``pgamma`` ported bit for bit
    (:mod:`pycalib_r._rng.nmath._gamma_dist`; ``tests/test_nmath_gamma.py``),
    including ``pchisq(q, 0)``: 0 for ``q <= 0`` and 1 above.
    """
    return 1.0 - pchisq(float(q), float(df))


def seq_by(g: int) -> np.ndarray:
    """R ``seq(0, 1, 1/g)``: ``pmin((0:n) * by, 1)`` with ``n = as.integer(1/by + 1e-10)``."""
    by = 1.0 / g
    n = int(1.0 / by + 1e-10)
    return np.minimum(np.arange(n + 1, dtype=np.float64) * by, 1.0)


def _cut_labels(breaks: np.ndarray) -> list:
    """``cut()``'s labels with ``include.lowest = TRUE``, ``right = TRUE``, ``dig.lab = 3``."""
    for dig in range(3, 13):
        nb = ["%.*g" % (dig, 0.0 + b) for b in breaks]
        if all(nb[i + 1] != nb[i] for i in range(len(nb) - 1)):
            break
    labels = [f"({nb[i]},{nb[i + 1]}]" for i in range(len(nb) - 1)]
    labels[0] = "[" + labels[0][1:]
    return labels


def print_htest(method: str, data_name: str, statistic: NamedNumber, parameter: NamedNumber,
                p_value: float, digits: int = 7) -> str:
    """R's ``print.htest`` output (without the final newline ``print`` adds) for a
    test with a statistic, a parameter and a p-value."""
    out = [f"{statistic.name} = {format_r(float(statistic), digits=max(1, digits - 2))}",
           f"{parameter.name} = {format_r(float(parameter), digits=max(1, digits - 2))}"]
    fp = format_pval(p_value, digits=max(1, digits - 3))
    out.append("p-value " + (fp if fp.startswith("<") else "= " + fp))
    lines = ["", *strwrap(method, prefix="\t"), "", f"data:  {data_name}",
             *strwrap(", ".join(out)), ""]
    return "\n".join(lines)


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


def hoslem_test(x, y, g=10, *, data_name=None) -> HoslemTest:
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
        Observed outcomes (numbers; R uses them as given).
    y : array_like
        Expected values (fitted probabilities).
    g : int
        Number of groups, at least 2.
    data_name : str, optional
        R's ``data.name`` (R deparses the call: ``"y, p"`` for
        ``hoslem.test(y, p)``); default the pandas names, else ``"x, y"``.

    Returns
    -------
    HoslemTest

    Warns
    -----
    UserWarning
        R's "The data did not allow for the requested number of bins." when
        fewer than ``g`` groups are non-empty.

    References
    ----------
    Hosmer, D. W. and Lemeshow, S. (1980). Goodness of fit tests for the
    multiple logistic regression model. *Communications in Statistics* A10,
    1043-1069.

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
        xn, yn = getattr(x, "name", None), getattr(y, "name", None)
        data_name = f"{xn}, {yn}" if isinstance(xn, str) and isinstance(yn, str) else "x, y"
    if g < 2:
        raise ProbcalError("Argument g must be at least 2.")
    obs = as_numeric_vector(x, arg="x")
    yhat = as_numeric_vector(y, arg="y")
    check_same_length(obs, yhat, "x", "y")
    xs = np.sort(yhat)
    qq = hoslem_breaks(lambda k: xs[k - 1], yhat.size, g)
    code = group_codes(qq, yhat)
    ngroups = qq.size - 1
    o1, o0, e1, e0 = (np.zeros(ngroups) for _ in range(4))
    order = np.argsort(code, kind="stable")
    bounds = np.searchsorted(code[order], np.arange(1, ngroups + 2))
    for k in range(ngroups):
        rows = order[bounds[k]:bounds[k + 1]]
        if rows.size:
            o0[k] = r_sum(1 - obs[rows])
            o1[k] = r_sum(obs[rows])
            e0[k] = r_sum(1 - yhat[rows])
            e1[k] = r_sum(yhat[rows])
    return hoslem_result(qq, o0, o1, e0, e1, int(np.unique(code).size), g, data_name)


def hoslem_breaks(order_stat, n: int, g: int) -> np.ndarray:
    """``unique(quantile(yhat, seq(0, 1, 1/g)))`` (type 7) from the order statistics
    ``order_stat(k)`` (1-based) of the ``n`` fitted values: the in-memory test
    reads them from the sorted values, the Dask one finds them by counting."""
    probs = seq_by(g)
    index = 1 + max(n - 1, 0) * probs
    lo = np.floor(index).astype(np.int64)
    hi = np.ceil(index).astype(np.int64)
    qs = np.array([float(order_stat(int(k))) for k in lo])
    x_hi = np.array([float(order_stat(int(k))) for k in hi])
    i = (index > lo) & (x_hi != qs)
    h = (index - lo)[i]
    qs[i] = (1 - h) * qs[i] + h * x_hi[i]
    qq = np.unique(qs)
    if qq.size < 2:
        err = ProbcalError("invalid number of intervals")
        add_note(err, "All fitted values are equal, so there are no quantile groups to compare: "
                      "the test needs at least two distinct values in `y`.")
        raise err
    return qq


def hoslem_ranks(n: int, g: int) -> np.ndarray:
    """The 1-based ranks :func:`hoslem_breaks` reads."""
    index = 1 + max(n - 1, 0) * seq_by(g)
    return np.unique(np.concatenate([np.floor(index), np.ceil(index)]).astype(np.int64))


def group_codes(qq: np.ndarray, yhat: np.ndarray) -> np.ndarray:
    """``cut(yhat, qq, include.lowest = TRUE)`` as codes 1..G: (qq[k-1], qq[k]], the first closed."""
    code = np.searchsorted(qq, yhat, side="left")
    code[code == 0] = 1
    return code


def hoslem_result(qq, o0, o1, e0, e1, nonempty: int, g: int, data_name: str) -> "HoslemTest":
    """The statistic, its degrees of freedom, R's checks and warning, from the group sums."""
    groups = _cut_labels(qq)
    observed = np.concatenate([o0, o1])
    expected = np.concatenate([e0, e1])
    d = observed - expected
    with np.errstate(divide="ignore", invalid="ignore"):
        chisq = r_sum(d * d / expected)
    big_g = nonempty
    if big_g < 2:
        raise ProbcalError("The number of bins led to negative df.")
    pval = one_minus_pchisq(chisq, big_g - 2)
    if big_g < g:
        warn("The data did not allow for the requested number of bins.")
    return HoslemTest(chisq, float(big_g - 2), pval, _METHOD, data_name,
                      {"y0": o0, "y1": o1}, {"yhat0": e0, "yhat1": e1}, groups)

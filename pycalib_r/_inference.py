"""Calibration inference: ``cal_test()`` and ``cal_ci()`` (contract sections 4 and 5).

Both draw from R's stream in R's order (one ``sample(c(-1, 1), n, replace =
TRUE)`` per bootstrap replicate of ``cal_test``, one ``sample.int(n, n,
replace = TRUE)`` per resample of ``cal_ci``) but never loop over replicates
in Python where the work can be batched:

* the wild bootstrap of a scalar kernel is a weighted scalar kernel sum per
  replicate, O(n) each (:class:`~pycalib_r._kernel.ScalarKernel`); the
  canonical one is W H W^T over tiles of H;
* a resample is a vector of counts c_i, so a sum over the resample's pairs
  is sum_ij c_i c_j h_ij (minus sum_i c_i h_ii for pairs of distinct
  draws), and a binned metric is a few count-weighted bin sums.

Only what depends on the resample beyond counts is recomputed per resample:
equal-frequency bin edges, the "median" bandwidth, and the order-dependent
``ul`` estimator (computed from the drawn pairs directly).
"""

from __future__ import annotations

import math

import numpy as np

from ._binning import STRATEGIES, find_bins, quantile_r, seq01, type8_combine, type8_positions
from ._checks import check_bandwidth, check_bins, check_conf_level, is_matrix, match_arg
from ._errors import ProbcalError
from ._format import cli_h1, format_pval, format_r, sprintf_pct1
from ._kernel import (
    ESTIMATORS,
    SKCE_TYPES,
    CanonicalKernel,
    KernelData,
    ScalarKernel,
    canonical_pair_terms,
    canonical_residuals,
    kernel_data,
    r_mean,
    r_sd,
    resolve_bandwidth,
    scalar_pair_terms,
    skce,
    skce_from_data,
)
from ._metrics import MULTICLASS_TYPES, ace, binary_inputs, binned_error, confidence_pair, ece, mce, mmce
from ._progress import Progress
from ._rarith import pnorm_upper as _upper_tail, r_row_means as _row_means
from ._rng import resolve_rng

__all__ = ["cal_test", "cal_ci", "CalTest", "CalCI"]

TEST_METHODS = ("bootstrap", "asymptotic")
TEST_TYPES = ("canonical", "confidence")
CI_METRICS = ("ece", "skce", "mmce", "mce", "ace")

# Elements of a (replicates x n) float block handled at once: 32 MB for the
# wild bootstrap's weights, 8 MB for resample counts (cache-friendlier).
_BATCH_ELEMENTS = 1 << 22
_COUNT_ELEMENTS = 1 << 20
# A whole (replicates x n) weight matrix for the canonical form, if it fits.
_CANONICAL_WEIGHTS_BYTES = 256 << 20

_TARGETS = {
    "binary": "binary calibration",
    "canonical": "strong (canonical) calibration",
    "confidence": "top-label confidence calibration",
}


# ---------------------------------------------------------------------------
# Result classes.
# ---------------------------------------------------------------------------

class _RList:
    """Attribute access with Python names, item access with R's names."""

    _R_NAMES: dict = {}

    def __getitem__(self, key):
        name = self._R_NAMES.get(key, key)
        if name not in self._R_NAMES.values():
            raise KeyError(key)
        return getattr(self, name)

    def keys(self):
        return list(self._R_NAMES)

    def __contains__(self, key):
        return key in self._R_NAMES or key in self._R_NAMES.values()

    def __repr__(self) -> str:
        return str(self)


class CalTest(_RList):
    """Result of :func:`cal_test`: R's ``c("cal_test", "htest")`` list.

    Attributes
    ----------
    statistic, estimate : dict
        R's named numerics: ``{"SKCE_uq": value}`` (bootstrap) or
        ``{"z": value}`` and ``{"SKCE_ul": value}`` (asymptotic).
    p_value : float
    method, data_name, target : str

    Items use R's names: ``res["p.value"]``, ``res["data.name"]``.
    ``str(res)`` is what R's ``print(res)`` writes (without the final
    newline, which ``print`` adds).

    R equivalent: the list of class ``c("cal_test", "htest")`` returned by
    ``probcal::cal_test()``, and its ``print()`` method.

    Examples
    --------
    Overconfident predictions (probcal 0.2.0's help page example; R names
    the data by deparsing the call, here given as ``data_name``):

    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(41)
    >>> p2 = pc.runif(300)
    >>> y2 = pc.rbinom(300, 1, np.clip(p2 - 0.25, 0, 1))
    >>> res = pc.cal_test(p2, y2, data_name="p2 and y2")
    >>> print(res)
    <BLANKLINE>
    ── Kernel calibration test ─────────────────────────────────────────────────────
    Method: Bootstrap kernel calibration test (SKCE_uq, 999 resamples)
    Target: binary calibration
    Data: p2 and y2
    Statistic: SKCE_uq = 0.02973914
    Estimate: SKCE_uq = 0.02973914
    p-value: 0.001
    Alternative hypothesis: the model is not calibrated.
    >>> res["p.value"], res.p_value
    (0.001, 0.001)
    >>> res.keys()
    ['statistic', 'p.value', 'method', 'data.name', 'estimate', 'target']

    The printed text is the R help page's output, byte for byte.
    """

    r_class = ("cal_test", "htest")
    _R_NAMES = {
        "statistic": "statistic",
        "p.value": "p_value",
        "method": "method",
        "data.name": "data_name",
        "estimate": "estimate",
        "target": "target",
    }

    def __init__(self, statistic, p_value, method, data_name, estimate, target):
        self.statistic = dict(statistic)
        self.p_value = float(p_value)
        self.method = method
        self.data_name = data_name
        self.estimate = dict(estimate)
        self.target = target

    def __str__(self) -> str:
        (s_name, s_value), = self.statistic.items()
        (e_name, e_value), = self.estimate.items()
        lines = [
            f"Method: {self.method}",
            f"Target: {self.target}",
            f"Data: {self.data_name}",
            f"Statistic: {s_name} = {format_r(s_value, digits=7)}",
            f"Estimate: {e_name} = {format_r(e_value, digits=7)}",
            f"p-value: {format_pval(self.p_value, digits=4)}",
            "Alternative hypothesis: the model is not calibrated.",
        ]
        return cli_h1("Kernel calibration test") + "\n" + "\n".join(lines)


class CalCI(_RList):
    """Result of :func:`cal_ci`: R's ``cal_ci`` list.

    Attributes
    ----------
    estimate, lower, upper, conf_level : float
    metric, method : str
    n_boot : int

    ``str(res)`` is what R's ``print(res)`` writes (without the final newline).
    Items use R's names too: ``res["conf_level"]``, ``res["n_boot"]``.

    R equivalent: the list of class ``cal_ci`` returned by
    ``probcal::cal_ci()``, and its ``print()`` method.

    Examples
    --------
    probcal 0.2.0's help page example: the ECE interval, then the SKCE one
    from the continuing stream. SKCE_uq can be negative, so its interval is
    not clamped at 0.

    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p)
    >>> ci_ece = pc.cal_ci(p, y, metric="ece", bins=10, n_boot=199)
    >>> ci = pc.cal_ci(p, y, metric="skce", n_boot=199)
    >>> print(ci)
    <BLANKLINE>
    ── Calibration metric confidence interval ──────────────────────────────────────
    Metric: SKCE
    Estimate: -0.0001383
    Confidence level: 95.0%
    Interval: [-0.000219, 0.001565]
    Method: percentile bootstrap (199 resamples)
    >>> ci.conf_level, ci["n_boot"], ci.lower < 0
    (0.95, 199, True)

    The printed text is the R help page's output, byte for byte.
    """

    r_class = ("cal_ci",)
    _R_NAMES = {
        "estimate": "estimate",
        "lower": "lower",
        "upper": "upper",
        "conf_level": "conf_level",
        "metric": "metric",
        "method": "method",
        "n_boot": "n_boot",
    }

    def __init__(self, estimate, lower, upper, conf_level, metric, method, n_boot):
        self.estimate = float(estimate)
        self.lower = float(lower)
        self.upper = float(upper)
        self.conf_level = float(conf_level)
        self.metric = metric
        self.method = method
        self.n_boot = int(n_boot)

    def __str__(self) -> str:
        lines = [
            f"Metric: {self.metric.upper()}",
            f"Estimate: {format_r(self.estimate, digits=4)}",
            f"Confidence level: {sprintf_pct1(self.conf_level)}",
            f"Interval: [{format_r(self.lower, digits=4)}, {format_r(self.upper, digits=4)}]",
            f"Method: {self.method} ({self.n_boot} resamples)",
        ]
        return cli_h1("Calibration metric confidence interval") + "\n" + "\n".join(lines)


# ---------------------------------------------------------------------------
# Helpers.
# ---------------------------------------------------------------------------

def _data_name(p, y) -> str:
    """R's ``deparse(substitute(p))``: the pandas names when both have one."""
    p_name = getattr(p, "name", None)
    y_name = getattr(y, "name", None)
    if isinstance(p_name, str) and isinstance(y_name, str) and p_name and y_name:
        return f"{p_name} and {y_name}"
    return "p and y"


def _refuses_classwise(type) -> bool:
    """R's ``pmatch(type, c("canonical", "confidence", "classwise")) == 3``."""
    if not isinstance(type, str) or type == "":
        return False
    choices = SKCE_TYPES
    if type in choices:
        return type == "classwise"
    hits = [c for c in choices if c.startswith(type)]
    return hits == ["classwise"]


def _batch_rows(n: int, n_total: int) -> int:
    return max(1, min(n_total, _BATCH_ELEMENTS // max(n, 1)))


def _counts(idx: np.ndarray, n: int) -> np.ndarray:
    """Rows of 1-based resample indices -> rows of counts per observation."""
    out = np.empty((idx.shape[0], n))
    # One bincount per row on the raw indices: faster than one big bincount
    # over row-offset indices, whose scattered writes miss the cache.
    for b in range(idx.shape[0]):
        out[b] = np.bincount(idx[b], minlength=n + 1)[1:]
    return out


# ---------------------------------------------------------------------------
# cal_test().
# ---------------------------------------------------------------------------

def cal_test(p, y, method="bootstrap", bandwidth=0.2, n_boot=999, type="canonical", *,
             data_name=None, rng=None, progress=True):
    """Kernel calibration test (Widmann, Lindsten & Zachariah 2019).

    R equivalent: ``probcal::cal_test(p, y, method = c("bootstrap",
    "asymptotic"), bandwidth = 0.2, n_boot = 999, type = c("canonical",
    "confidence"))``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    method : {"bootstrap", "asymptotic"}
        Wild bootstrap of SKCE_uq with Rademacher multipliers, or the normal
        test on SKCE_ul (no random numbers).
    bandwidth : float or "median"
        Laplacian kernel bandwidth.
    n_boot : int
        Bootstrap replicates (bootstrap only).
    type : {"canonical", "confidence"}
        Multiclass target; ignored for binary input. "classwise" is refused.
    data_name : str, optional
        The ``Data:`` line; by default the two pandas Series names when both
        have one, else ``"p and y"`` (R deparses the call's arguments).
    rng : None, RRandom or numpy.random.Generator
        Random stream; None is the global R stream (see ``set_seed``).
    progress : bool
        Show a progress bar on stderr (only when it is a terminal).

    Returns
    -------
    CalTest

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(40)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p)
    >>> pc.cal_test(p, y).p_value
    0.284
    """
    if data_name is None:
        data_name = _data_name(p, y)
    method = match_arg(method, TEST_METHODS)
    if _refuses_classwise(type):
        raise ProbcalError(
            'Type "classwise" cannot be tested; use `skce()` with `type = "classwise"`.')
    type = match_arg(type, TEST_TYPES)
    bandwidth = check_bandwidth(bandwidth, allow_median=True)
    if method == "bootstrap":
        n_boot = check_bins(n_boot, arg="n_boot")
    data = kernel_data(p, y, type)
    h = resolve_bandwidth(data, bandwidth)
    target = _TARGETS[data.form]
    n = data.n

    if method == "asymptotic":
        if n < 4:
            raise ProbcalError("The asymptotic test needs at least four observations.")
        m = n // 2
        i = 2 * np.arange(m)
        terms = _pair_terms(data, h, i, i + 1)
        sigma = r_sd(terms)
        if not sigma > 0:
            raise ProbcalError("The asymptotic test is degenerate: all pair terms are equal.")
        estimate = r_mean(terms)
        z = math.sqrt(m) * estimate / sigma
        return CalTest(
            statistic={"z": z},
            p_value=_upper_tail(z),
            method="Asymptotic kernel calibration test (SKCE_ul, normal approximation)",
            data_name=data_name,
            estimate={"SKCE_ul": estimate},
            target=target,
        )

    if n < 2:
        raise ProbcalError('Estimator "uq" needs at least two observations.')
    stream = resolve_rng(rng)
    denom = n * (n - 1.0)
    with Progress(n_boot, "cal_test", enabled=progress) as bar:
        if data.form in ("binary", "confidence"):
            e = data.c - data.r
            kern = ScalarKernel(data.r, e, h)
            observed = kern.offdiag() / denom
            tol = 1e-12 * r_mean(np.abs(e * e))
            exceed = 0
            rows = _batch_rows(n, n_boot)
            done = 0
            while done < n_boot:
                b = min(rows, n_boot - done)
                w = kern.sort_weights(stream.rademacher(b, n)).astype(np.float64)
                reps = 2.0 * kern.weighted_lower(w) / denom
                exceed += int(np.count_nonzero(reps >= observed - tol))
                done += b
                bar.advance(b)
        else:
            u = canonical_residuals(data.p, data.codes)
            kern = CanonicalKernel(data.p, u, h)
            observed = kern.offdiag() / denom
            tol = 1e-12 * r_mean(np.abs(kern.hdiag))
            exceed = 0
            rows = max(1, min(n_boot, _CANONICAL_WEIGHTS_BYTES // (8 * n)))
            done = 0
            while done < n_boot:
                b = min(rows, n_boot - done)
                w = stream.rademacher(b, n).astype(np.float64)
                reps = kern.weighted_offdiag(w) / denom
                exceed += int(np.count_nonzero(reps >= observed - tol))
                done += b
                bar.advance(b)
    return CalTest(
        statistic={"SKCE_uq": observed},
        p_value=(1 + exceed) / (n_boot + 1),
        method=f"Bootstrap kernel calibration test (SKCE_uq, {n_boot} resamples)",
        data_name=data_name,
        estimate={"SKCE_uq": observed},
        target=target,
    )


def _pair_terms(data: KernelData, h, i, j) -> np.ndarray:
    """h_(i, j) for index arrays of one scalar or canonical form."""
    if data.form in ("binary", "confidence"):
        return scalar_pair_terms(data.r, data.c - data.r, h, i, j)
    u = canonical_residuals(data.p, data.codes)
    return canonical_pair_terms(data.p, u, h, i, j)


# ---------------------------------------------------------------------------
# cal_ci(): replicate engines.
# ---------------------------------------------------------------------------

def _binned_problems(p, y, kwargs):
    """The scalar (r, c) problems of a binned metric and how to combine them."""
    if not is_matrix(p):
        r, c = binary_inputs(p, y)
        return [(r, c.astype(np.float64))]
    from ._checks import check_multiclass_y, check_prob_matrix

    p_mat = check_prob_matrix(p, arg="p")
    type = match_arg(kwargs.get("type", "classwise"), MULTICLASS_TYPES)
    if type == "confidence":
        r, c = confidence_pair(p_mat, y)
        return [(r, c.astype(np.float64))]
    labels = check_multiclass_y(y, n_classes=p_mat.shape[1], arg="y")
    return [(p_mat[:, k].copy(), (labels.codes == k + 1).astype(np.float64))
            for k in range(p_mat.shape[1])]


def _quantile8_sorted_counts(rs: np.ndarray, cum: np.ndarray, n: int, probs: np.ndarray) -> np.ndarray:
    """R ``quantile(x, probs, type = 8)`` of each resample, given as counts.

    ``rs`` are the sorted original values and ``cum`` (rows) the cumulative
    counts in that order; the k-th order statistic of a resample is
    ``rs[first position with cum >= k]``. The positions and the
    interpolation are :func:`pycalib_r._binning.quantile_r`'s, which are R's.
    """
    k2, k3, h = type8_positions(probs, n)
    n_rep = cum.shape[0]
    # Flattened searchsorted: row offsets keep the rows' cum values apart.
    off = (np.arange(n_rep, dtype=np.int64) * (n + 1))[:, None]
    flat = (cum + off).ravel()
    base = (np.arange(n_rep, dtype=np.int64) * cum.shape[1])[:, None]
    pos2 = np.searchsorted(flat, (k2[None, :] + off).ravel(), side="left").reshape(n_rep, -1) - base
    pos3 = np.searchsorted(flat, (k3[None, :] + off).ravel(), side="left").reshape(n_rep, -1) - base
    return type8_combine(rs[pos2], rs[pos3], h)


class _BinnedEngine:
    """Count-weighted binned metric over resamples."""

    def __init__(self, kind, problems, bins, debiased, strategy):
        self.kind = kind
        self.bins = bins
        self.debiased = debiased
        self.strategy = strategy
        self.problems = []
        for r, c in problems:
            item = {"r": r, "c": c}
            if strategy == "equal_width":
                breaks = seq01(bins + 1)
                nb = breaks.size - 1
                idx = find_bins(r, breaks)
                onehot = np.zeros((r.size, nb))
                onehot[np.arange(r.size), idx] = 1.0
                item["design"] = np.hstack([onehot, onehot * r[:, None], onehot * c[:, None]])
                item["nb"] = nb
            else:
                order = np.argsort(r, kind="stable")
                item["order"] = order
                item["rs"] = r[order]
                item["cs"] = c[order]
            self.problems.append(item)

    def values(self, counts: np.ndarray) -> np.ndarray:
        per_problem = [self._one(item, counts) for item in self.problems]
        if len(per_problem) == 1:
            return per_problem[0]
        stacked = np.vstack(per_problem).T
        if self.kind == "mce":
            return stacked.max(axis=1)
        return _row_means(stacked)

    def _one(self, item, counts):
        if self.strategy == "equal_width":
            nb = item["nb"]
            sums = counts @ item["design"]
            return binned_error(sums[:, :nb], sums[:, nb:2 * nb], sums[:, 2 * nb:],
                                self.kind, self.debiased)
        # Equal-frequency edges depend on the resample: its type-8 quantiles
        # come from cumulative counts over the sorted values. In sorted order
        # every bin is a contiguous run, so bin sums are segment sums.
        rs, cs = item["rs"], item["cs"]
        n = rs.size
        n_rep = counts.shape[0]
        # np.take keeps the rows C-contiguous (w[:, order] would not).
        w = np.take(counts, item["order"], axis=1)
        cum = np.cumsum(w, axis=1).astype(np.int64)
        qs = _quantile8_sorted_counts(rs, cum, n, seq01(self.bins + 1))
        inner = qs[:, 1:-1]
        # findInterval on R's sort(unique(edges)) with the ends set to 0 and 1:
        # a run starts at the first value >= its edge; an inner edge equal to
        # 1 merges into the closed last bin, so it starts no run.
        pos = np.searchsorted(rs, inner.ravel(), side="left").reshape(inner.shape)
        pos[inner >= 1.0] = n
        starts = np.hstack([np.zeros((n_rep, 1), dtype=np.int64), pos,
                            np.full((n_rep, 1), n, dtype=np.int64)])
        seg_lo, seg_hi = starts[:, :-1], starts[:, 1:]
        nonempty = seg_hi > seg_lo
        # Row-major order makes the non-empty segments' flat starts increasing
        # and each segment end where the next one starts.
        flat_starts = (seg_lo + n * np.arange(n_rep, dtype=np.int64)[:, None])[nonempty]
        sums = []
        for x in (w, w * rs, w * cs):
            out = np.zeros(seg_lo.shape)
            out[nonempty] = np.add.reduceat(x.ravel(), flat_starts)
            sums.append(out)
        return binned_error(sums[0], sums[1], sums[2], self.kind, self.debiased)


class _KernelEngine:
    """SKCE (or mmce) over resamples with a fixed bandwidth, from counts."""

    def __init__(self, data: KernelData, h, estimator: str, mmce: bool = False):
        self.data = data
        self.estimator = estimator
        self.mmce = mmce
        n = data.n
        self.n = n
        if data.form in ("binary", "confidence"):
            self.scalar = [ScalarKernel(data.r, data.c - data.r, h)]
            self.scalar_pairs = [(data.r, data.c - data.r, h)]
        elif data.form == "classwise":
            self.scalar = []
            self.scalar_pairs = []
            for k in range(data.k):
                rk = data.p[:, k]
                ek = (data.codes == k + 1).astype(np.float64) - rk
                self.scalar.append(ScalarKernel(rk, ek, h[k]))
                self.scalar_pairs.append((rk, ek, h[k]))
        else:
            self.scalar = None
            self.u = canonical_residuals(data.p, data.codes)
            self.canonical = CanonicalKernel(data.p, self.u, h)
            self.h = h

    def batch_rows(self, n_boot: int) -> int:
        if self.scalar is None:
            if self.estimator == "ul":
                # The drawn pairs' rows are gathered: (rows, n/2, K) temporaries.
                return max(1, min(n_boot, _BATCH_ELEMENTS // (self.n * self.data.k)))
            return max(1, min(n_boot, _CANONICAL_WEIGHTS_BYTES // (8 * self.n)))
        return _batch_rows(self.n, n_boot)

    def values(self, idx: np.ndarray) -> np.ndarray:
        n = self.n
        if self.estimator == "ul":
            m = n // 2
            i0 = idx[:, 0:2 * m:2].astype(np.int64) - 1
            i1 = idx[:, 1:2 * m:2].astype(np.int64) - 1
            if self.scalar is not None:
                per = [_row_means(scalar_pair_terms(r, e, h, i0, i1)) for r, e, h in self.scalar_pairs]
                return per[0] if len(per) == 1 else _row_means(np.vstack(per).T)
            return _row_means(canonical_pair_terms(self.data.p, self.u, self.h, i0, i1))
        counts = _counts(idx, n)
        if self.scalar is not None:
            per = []
            for kern in self.scalar:
                cs = kern.sort_weights(counts)
                lower = kern.weighted_lower(cs)
                a2 = kern.a * kern.a
                c2 = (cs * cs) @ a2
                if self.estimator == "uq":
                    per.append((2.0 * lower + (c2 - cs @ a2)) / (n * (n - 1.0)))
                else:
                    per.append((2.0 * lower + c2) / float(n) ** 2)
            vals = per[0] if len(per) == 1 else _row_means(np.vstack(per).T)
        else:
            off = self.canonical.weighted_offdiag(counts)
            hd = self.canonical.hdiag
            c2 = (counts * counts) @ hd
            if self.estimator == "uq":
                vals = (off + (c2 - counts @ hd)) / (n * (n - 1.0))
            else:
                vals = (off + c2) / float(n) ** 2
        if self.mmce:
            return np.sqrt(np.maximum(vals, 0.0))
        return vals


def _resampled_data(data: KernelData, rows: np.ndarray) -> KernelData:
    """The checked input of one resample (0-based rows); classes are kept."""
    if data.form in ("binary", "confidence"):
        return data._replace(n=rows.size, r=data.r[rows], c=data.c[rows])
    return data._replace(n=rows.size, p=data.p[rows], codes=data.codes[rows])


def cal_ci(p, y, metric="ece", conf_level=0.95, n_boot=999, bins=10, *, rng=None,
           progress=True, **kwargs):
    """Percentile bootstrap confidence interval for a calibration metric.

    R equivalent: ``probcal::cal_ci(p, y, metric = c("ece", "skce", "mmce",
    "mce", "ace"), conf_level = 0.95, n_boot = 999, bins = 10, ...)``.

    Parameters
    ----------
    p, y : array_like
        As for the metric.
    metric : {"ece", "skce", "mmce", "mce", "ace"}
    conf_level : float
        In (0, 1).
    n_boot : int
        Resamples; each is one R ``sample.int(n, n, replace = TRUE)``.
    bins : int
        Bins of the binned metrics (ignored by skce and mmce).
    rng : None, RRandom or numpy.random.Generator
        Random stream; None is the global R stream.
    progress : bool
        Show a progress bar on stderr (only when it is a terminal).
    **kwargs
        Passed to the metric: ``type``, ``debiased``, ``strategy`` (ece),
        ``estimator``, ``bandwidth``, ``type`` (skce), ``bandwidth`` (mmce).

    Returns
    -------
    CalCI
        The interval is widened to contain the estimate and clamped at 0 for
        the nonnegative metrics (not for skce or debiased ece).

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p)
    >>> print(pc.cal_ci(p, y, metric="ece", bins=10, n_boot=199))  # doctest: +NORMALIZE_WHITESPACE
    <BLANKLINE>
    ── Calibration metric confidence interval ──────────────────────────────────────
    Metric: ECE
    Estimate: 0.04587
    Confidence level: 95.0%
    Interval: [0.04587, 0.1089]
    Method: percentile bootstrap (199 resamples)
    """
    metric = match_arg(metric, CI_METRICS)
    conf_level = check_conf_level(conf_level)
    n_boot = check_bins(n_boot, arg="n_boot")
    _check_dots(metric, kwargs)

    if metric in ("ece", "mce", "ace"):
        fn = {"ece": ece, "mce": mce, "ace": ace}[metric]
        estimate = fn(p, y, bins=bins, **kwargs)
    elif metric == "skce":
        estimate = skce(p, y, **kwargs)
    else:
        estimate = mmce(p, y, **kwargs)

    stream = resolve_rng(rng)
    replicates = _replicates(metric, p, y, bins, kwargs, n_boot, stream, progress)

    alpha = 1 - conf_level
    lo_q, hi_q = quantile_r(replicates, np.array([alpha / 2, 1 - alpha / 2]), type=7)
    lower = min(float(lo_q), estimate)
    upper = max(float(hi_q), estimate)
    debiased = kwargs.get("debiased", False)
    signed = metric == "skce" or (metric == "ece" and isinstance(debiased, (bool, np.bool_))
                                  and bool(debiased))
    if not signed:
        lower = max(lower, 0.0)
    return CalCI(estimate, lower, upper, conf_level, metric, "percentile bootstrap", n_boot)


_METRIC_ARGS = {
    "ece": ("type", "debiased", "strategy"),
    "mce": ("type",),
    "ace": ("type",),
    "skce": ("estimator", "bandwidth", "type"),
    "mmce": ("bandwidth",),
}


def _deparse(value) -> str:
    """R's ``deparse()`` of a simple argument value, for R's error text."""
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (int, float, np.integer, np.floating)):
        return format_r(float(value), digits=15)
    if value is None:
        return "NULL"
    return repr(value)


def _check_dots(metric: str, kwargs: dict) -> None:
    """R's "unused argument" error for ``...`` that the metric does not take."""
    unused = [k for k in kwargs if k not in _METRIC_ARGS[metric]]
    if unused:
        plural = "s" if len(unused) > 1 else ""
        listed = ", ".join(f"{k} = {_deparse(kwargs[k])}" for k in unused)
        raise ProbcalError(f"unused argument{plural} ({listed})")


def _replicates(metric, p, y, bins, kwargs, n_boot, stream, progress) -> np.ndarray:
    if metric in ("ece", "mce", "ace"):
        strategy = match_arg(kwargs.get("strategy", "equal_width"), STRATEGIES)
        debiased = bool(kwargs.get("debiased", False))
        engine = _BinnedEngine(metric, _binned_problems(p, y, kwargs), check_bins(bins),
                               debiased, strategy)
        n = engine.problems[0]["r"].size
        rows = max(1, min(n_boot, _COUNT_ELEMENTS // max(n, 1)))
        return _run(lambda idx: engine.values(_counts(idx, n)), n, n_boot, rows, stream, progress)

    if metric == "skce":
        estimator = match_arg(kwargs.get("estimator", "uq"), ESTIMATORS)
        bandwidth = check_bandwidth(kwargs.get("bandwidth", 0.2), allow_median=True)
        type = kwargs.get("type", "canonical")
        if is_matrix(p):
            type = match_arg(type, SKCE_TYPES)
        data = kernel_data(p, y, type)
        mm = False
    else:
        estimator = "biased"
        bandwidth = check_bandwidth(kwargs.get("bandwidth", 0.2), allow_median=False)
        data = kernel_data(p, y, "confidence")
        mm = True
    n = data.n

    if bandwidth == "median":
        def one_by_one(idx):
            out = np.empty(idx.shape[0])
            for b in range(idx.shape[0]):
                rs = _resampled_data(data, idx[b].astype(np.int64) - 1)
                out[b] = skce_from_data(rs, resolve_bandwidth(rs, "median"), estimator)
            return out

        return _run(one_by_one, n, n_boot, max(1, min(_batch_rows(n, n_boot), 16)), stream, progress)

    engine = _KernelEngine(data, resolve_bandwidth(data, bandwidth), estimator, mmce=mm)
    return _run(engine.values, n, n_boot, engine.batch_rows(n_boot), stream, progress)


def _run(fn, n, n_boot, rows, stream, progress) -> np.ndarray:
    """Draw the resamples batch by batch (R's order) and evaluate ``fn`` on each batch."""
    out = np.empty(n_boot)
    done = 0
    with Progress(n_boot, "cal_ci", enabled=progress) as bar:
        while done < n_boot:
            b = min(rows, n_boot - done)
            idx = stream.sample_int_replace(n, n, b)
            out[done:done + b] = fn(idx)
            done += b
            bar.advance(b)
    return out

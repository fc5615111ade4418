# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 help pages of cal_test and cal_ci (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Calibration inference: ``cal_test()`` and ``cal_ci()`` (contract sections 4 and 5).

Both draw from R's stream in R's order (one ``sample(c(-1, 1), n, replace =
TRUE)`` per bootstrap replicate of ``cal_test``, one ``sample.int(n, n,
replace = TRUE)`` per resample of ``cal_ci``) but never loop over replicates
in Python where the work can be batched:

* the wild bootstrap of a scalar kernel is a weighted scalar kernel sum per
  replicate, O(n) each (:class:`~pycalib_r.kernel._skce.ScalarKernel`); the
  canonical one is W H W^T over tiles of H;
* a resample is a vector of counts c_i, so a sum over the resample's pairs
  is sum_ij c_i c_j h_ij (minus sum_i c_i h_ii for pairs of distinct
  draws), and a binned metric is a few count-weighted bin sums.

Only what depends on the resample beyond counts is recomputed per resample:
equal-frequency bin edges, the "median" bandwidth, and the order-dependent
``ul`` estimator (computed from the drawn pairs directly).
"""

from __future__ import annotations

import inspect
import math
from typing import NamedTuple

import numpy as np

from ._block_test import (PairTerms, block_statistics, block_z, check_blocksize, check_order,
                          check_shuffle, match_method, sorted_rows)
from ..binned._binning import (breaks_between, distinct_sorted, quantile_r, seq01, type8_combine,
                       type8_positions)
from ..inputs._checks import (add_note, check_bandwidth, check_conf_level, check_count,
                      integer_range_error, match_arg)
from ..rbase._errors import ProbcalError
from ..inputs._hints import check_unused_arguments
from ..rbase._format import cli_h1, format_pval, format_r, sprintf_pct1
from ..kernel._skce import (
    batch_rows,
    SKCE_TYPES,
    KernelData,
    bind_skce,
    form_data,
    kernel_arrays,
    kernel_data,
    kernels,
    r_mean,
    resample_data,
    r_sd,
    resolve_bandwidth,
    skce_from_data,
)
from ..binned._metrics import BinnedMetric, bind_metric, bind_mmce, binned_error, mmce_value
from ..rbase._progress import Progress
from ..rbase._rlist import NamedNumber, RList
from ..binned._rbins import bin_means_rows
from ..rbase._rarith import pnorm_upper as _upper_tail, quiet_fp, r_row_means as _row_means
from .._rng import resolve_rng
from .._rng.stream._locking import holding
from ..inputs._hints import python_face
from ..inputs._seed_note import seed_note
from ..kernel._quadratic import quadratic_warning
from ._block_test import block_pair_terms
from ._resample import rewind_to_failure, stream_state

__all__ = ["cal_test", "cal_ci", "CalTest", "CalCI"]

TEST_METHODS = ("bootstrap", "asymptotic")
# Python-only: matched only when spelled out, so that R's partial matching of
# TEST_METHODS ("b" is "bootstrap") is unchanged.
BLOCK_METHOD = "block"
TEST_TYPES = ("canonical", "confidence")
CI_METRICS = ("ece", "skce", "mmce", "mce", "ace")
# What R says when an n_boot beyond its integer range (NA after as.integer)
# is first used: by the Rademacher draw of cal_test, by numeric() in cal_ci.
_TEST_N_BOOT_NA = "argument must be coercible to non-negative integer"
_CI_N_BOOT_NA = "vector size cannot be NA"

# Resample counts per block of a binned metric: this many, or 4 rows, but
# never more than _BINNED_BLOCK_MAX (except one row).
_BINNED_BLOCK_ELEMENTS = 1 << 16
# Equal-frequency bins beyond max(n, this) are found between the values only.
_SPARSE_EQUAL_FREQ = 1 << 16
_BINNED_BLOCK_MAX = 1 << 22

_TARGETS = {
    "binary": "binary calibration",
    "canonical": "strong (canonical) calibration",
    "confidence": "top-label confidence calibration",
}


# ---------------------------------------------------------------------------
# Result classes.
# ---------------------------------------------------------------------------

class CalTest(RList):
    """Result of :func:`cal_test`: R's ``c("cal_test", "htest")`` list.

    Attributes
    ----------
    statistic, estimate : NamedNumber
        R's named numerics ``c(SKCE_uq = value)`` (bootstrap) or ``c(z =
        value)`` and ``c(SKCE_ul = value)`` (asymptotic): floats
        (``float(res.statistic)``, arithmetic) that keep R's name and read
        as the dict ``{"SKCE_uq": value}`` (``res.statistic["SKCE_uq"]``).
    p_value : float
        Also ``res.pvalue`` (scipy's name).
    method, data_name, target : str
    null_distribution : numpy.ndarray or None
        The ``n_boot`` bootstrap statistics in draw order (None for the
        asymptotic test). Not an R component: not in ``keys()``.

    Items use R's names: ``res["p.value"]``, ``res["data.name"]``; the
    R-list accessors (``keys()``, ``items()``, ``get()``, ``in``,
    ``to_dict()``) are :class:`~pycalib_r.rbase._rlist.RList`'s.
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

    def __init__(self, statistic, p_value, method, data_name, estimate, target,
                 null_distribution=None):
        self._set_components([("statistic", statistic), ("p.value", p_value), ("method", method),
                              ("data.name", data_name), ("estimate", estimate), ("target", target)])
        # Not an R component (R keeps only the p-value): the n_boot bootstrap
        # statistics, as scipy's results keep theirs.
        self.null_distribution = None if null_distribution is None else np.asarray(null_distribution)

    def _coerce(self, r_name, value):
        if r_name in ("statistic", "estimate"):
            return NamedNumber.from_dict(value)
        if r_name == "p.value":
            return float(value)
        return value

    @property
    def pvalue(self) -> float:
        """scipy's name for :attr:`p_value` (R's ``p.value``)."""
        return self.p_value

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

    # The console shows the object as R prints it.
    __repr__ = __str__


class CalCI(RList):
    """Result of :func:`cal_ci`: R's ``cal_ci`` list.

    Attributes
    ----------
    estimate, lower, upper, conf_level : float
    metric, method : str
    n_boot : int
    bootstrap_distribution : numpy.ndarray
        The ``n_boot`` resampled metric values in draw order. Not an R
        component: not in ``keys()``.

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

    def __init__(self, estimate, lower, upper, conf_level, metric, method, n_boot,
                 bootstrap_distribution=None):
        self._set_components([("estimate", float(estimate)), ("lower", float(lower)),
                              ("upper", float(upper)), ("conf_level", float(conf_level)),
                              ("metric", metric), ("method", method), ("n_boot", int(n_boot))])
        # Not an R component: the n_boot resampled metric values behind the
        # percentile interval, as scipy.stats.bootstrap keeps them.
        self.bootstrap_distribution = (None if bootstrap_distribution is None
                                       else np.asarray(bootstrap_distribution))

    def __str__(self) -> str:
        lines = [
            f"Metric: {self.metric.upper()}",
            f"Estimate: {format_r(self.estimate, digits=4)}",
            f"Confidence level: {sprintf_pct1(self.conf_level)}",
            f"Interval: [{format_r(self.lower, digits=4)}, {format_r(self.upper, digits=4)}]",
            f"Method: {self.method} ({self.n_boot} resamples)",
        ]
        return cli_h1("Calibration metric confidence interval") + "\n" + "\n".join(lines)

    # The console shows the object as R prints it.
    __repr__ = __str__


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


def _physical_memory() -> int:
    """Bytes of RAM on this machine (0 when the system does not say)."""
    import os  # noqa: PLC0415

    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return 0


def replicate_array(n_boot: int, call: str, attr: str) -> np.ndarray:
    """The n_boot doubles a resampling call keeps (``res.<attr>``), allocated
    before any work: the one thing in either call that grows with n_boot.

    A request beyond this machine's RAM fails at once with a ``MemoryError``
    whose note names the size, instead of running for hours while the pages
    fill (an overcommitting system grants the address space up front).
    """
    from .._rng._args import r_alloc_error, r_empty  # noqa: PLC0415

    size = 8 * n_boot
    ram = _physical_memory()
    has = f", more than this machine's {ram / 2 ** 30:.1f} GiB" if ram and size > ram else ""
    note = (f"{call}(n_boot = {n_boot}) keeps its {n_boot} replicates in res.{attr} "
            f"({size / 2 ** 30:.1f} GiB, 8 bytes each{has}); use a smaller n_boot "
            "(the default is 999).")
    if ram and size > ram:
        # R's words for a vector it cannot allocate (cal_ci's numeric(n_boot)).
        err = r_alloc_error(n_boot, 8)
        err.add_note(note)
        raise err
    return r_empty(n_boot, note)


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

def cal_test_arguments(method, type, bandwidth):
    """``cal_test()``'s checks of ``method``, ``type`` and ``bandwidth``, in R's
    order (also the Dask face's): the matched method and type, the bandwidth."""
    method = match_method(method, TEST_METHODS)
    if _refuses_classwise(type):
        raise ProbcalError(
            'Type "classwise" cannot be tested; use `skce()` with `type = "classwise"`.')
    return method, match_arg(type, TEST_TYPES), check_bandwidth(bandwidth, allow_median=True)



@quadratic_warning(block_terms=block_pair_terms)  # outside the Python face (see _quadratic)
@python_face
@seed_note
@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def cal_test(p, y, method="bootstrap", bandwidth=0.2, n_boot=999, type="canonical", *,
             data_name=None, rng=None, progress=True, blocksize="auto", shuffle=False,
             skew_correction=True, order="rows"):
    r"""Kernel calibration test (Widmann, Lindsten & Zachariah 2019).

    R equivalent: ``probcal::cal_test(p, y, method = c("bootstrap",
    "asymptotic"), bandwidth = 0.2, n_boot = 999, type = c("canonical",
    "confidence"))``.

    H0: the model is calibrated (in the sense of ``type``), tested with the
    SKCE of :func:`skce` and its kernel terms h_ij.

    *Bootstrap* (the default): the statistic is S = sum_{i != j} h_ij /
    (n (n - 1)) (SKCE_uq). Each replicate draws Rademacher signs w_i = +-1
    (R's ``sample(c(-1, 1), n, replace = TRUE)``) and computes
    S*_b = sum_{i != j} w_i w_j h_ij / (n (n - 1)): an *uncentred* wild
    bootstrap of the degenerate U-statistic (the h_ij are used as they are,
    not re-centred), which under H0 mimics S's null distribution. The
    p-value is

    .. math:: p = \frac{1 + \#\{b : S^*_b \ge S - \tau\}}{B + 1},
              \qquad \tau = 10^{-12} \cdot \mathrm{mean}_i |h_{ii}|,

    so it is never 0, and the tie tolerance tau makes replicates equal to S
    up to rounding (for instance all signs equal, S*_b = S exactly in exact
    arithmetic) count as exceeding it, whatever the order of the sums.

    *Asymptotic*: with the m = floor(n/2) disjoint pair terms
    t_i = h_{2i-1, 2i}, z = sqrt(m) mean(t) / sd(t) (SKCE_ul over its
    standard error) and p = P(Z > z) for a standard normal Z (R's upper
    tail, bit for bit). No random numbers are drawn.

    *Block* (Python-only, ``method = "block"``): Widmann, Lindsten &
    Zachariah's block estimator. The first m B rows form m = floor(n / B)
    disjoint blocks of B consecutive rows; each block's statistic is the
    unbiased U-statistic x_b = sum_{i < j in block b} h_ij / choose(B, 2),
    the estimate is their mean, and t = sqrt(m) mean(x) / sd(x) (R's
    ``sd()``). B = 2 is SKCE_ul: with ``skew_correction = False`` the
    statistic equals the asymptotic test's z. The block statistics of this
    degenerate U-statistic are right-skewed, which makes the plain normal
    test conservative for large B; by default Hall's (1992) monotone
    transformation t_H = t + a/6 + a t^2/3 + a^2 t^3/27, a = g / sqrt(m),
    g the sample skewness of x, removes it, and p = P(Z > t_H). Power grows
    like sqrt(B - 1) and cost (O(n B) kernel terms) like B;
    ``blocksize = "auto"`` takes B = n // 50 in [2, 250] (at least 50
    blocks). Rows are used in their order; ``shuffle = True`` permutes
    them first with R's ``sample.int(n)`` on ``rng`` (the only draw).

    ``type = "classwise"`` is refused (no null distribution of this form).

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    method : {"bootstrap", "asymptotic", "block"}
        Wild bootstrap of SKCE_uq with Rademacher multipliers, the normal
        test on SKCE_ul (no random numbers), or (Python-only) the normal
        test on the block estimator. R's unique prefixes match the first two;
        "block" only in full. An unknown method raises R's ``match.arg``
        message, which names R's two, with a note naming "block".
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
    blocksize : int or "auto"
        Block size B >= 2 of ``method = "block"`` (Python-only); "auto" is
        n // 50 kept in [2, 250].
    shuffle : bool
        ``method = "block"`` only (Python-only): permute the rows with R's
        ``sample.int(n)`` on ``rng`` before forming the blocks.
    skew_correction : bool
        ``method = "block"`` only (Python-only): Hall's skewness correction
        of the statistic (default True).
    order : {"rows", "p"}
        ``method = "block"`` only (Python-only): blocks of the rows as given, or
        sorted by p (a matrix: by its top-label probability); docs/power_study.md.

    Returns
    -------
    CalTest

    Notes
    -----
    Which test, by form (cost; seconds measured on a shared 2-core machine,
    199 resamples; docs/guide/tests-and-intervals.md has the table):

    - Binary input, and ``type = "confidence"``: the bootstrap is O(n log n)
      once plus O(n) per resample (n = 200,000: 2 s; 10^6: 7 s) and has
      the most power (over-confident model, n = 5,000: 1.00 against the
      block test's 0.62 and the asymptotic test's 0.05): use it.
    - Canonical matrices: the bootstrap is O(n^2) per resample (n = 2,000:
      0.25 s; 4,000: 2 s; 8,000: 40 s): use it up to a few thousand rows,
      then the block test (O(n B); n = 10^5: 3 s) or ``type = "confidence"``.
    - On Dask: the block test. The asymptotic test is R's O(n) test with little power.

    The null hypothesis is calibration in the chosen sense (binary, strong
    / canonical, or top-label confidence); a small p-value is evidence of
    miscalibration, a large one is not evidence of calibration.

    Other implementations: Widmann et al.'s CalibrationTests.jl offers
    related tests on the same estimators; this test's numbers follow
    probcal 0.2.0's definition, reproduced by ``pycalib_r/r/contract.R``.
    The result also carries scipy's names (``res.pvalue``,
    ``res.null_distribution``).

    References
    ----------
    Widmann, D., Lindsten, F., & Zachariah, D. (2019). Calibration tests in
    multi-class classification: A unifying framework. In *Advances in Neural
    Information Processing Systems 32* (NeurIPS 2019, pp. 12257-12267).

    Arcones, M. A., & Giné, E. (1992). On the bootstrap of U and V
    statistics. *The Annals of Statistics*, 20(2), 655-674.

    Widmann, D., Lindsten, F., & Zachariah, D. (2021). Calibration tests
    beyond classification. In *International Conference on Learning
    Representations* (ICLR 2021).

    Hall, P. (1992). On the removal of skewness by transformation. *Journal
    of the Royal Statistical Society: Series B*, 54(1), 221-228.

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
    method, type, bandwidth = cal_test_arguments(method, type, bandwidth)
    if method == "bootstrap":
        # R turns an n_boot beyond its range into NA here; seq_len() fails
        # only after the input checks.
        n_boot = check_count(n_boot, "n_boot", _TEST_N_BOOT_NA, defer=True)
    data = kernel_data(p, y, type)
    h = resolve_bandwidth(data, bandwidth)
    target = _TARGETS[data.form]
    if method == BLOCK_METHOD:
        return _block_test(data, h, blocksize, shuffle, skew_correction, order, rng, data_name, target)
    (kern,) = kernels(data, h)
    n = data.n

    if method == "asymptotic":
        if n < 4:
            raise ProbcalError("The asymptotic test needs at least four observations.")
        m = n // 2
        i = 2 * np.arange(m)
        terms = kern.pair_terms(i, i + 1)
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
    if n_boot is None:
        integer_range_error("n_boot", _TEST_N_BOOT_NA, warn=False)
    stream = resolve_rng(rng)
    denom = n * (n - 1.0)
    observed = kern.offdiag(progress) / denom
    # Replicates equal to `observed` up to rounding count as >= observed.
    tol = 1e-12 * r_mean(np.abs(kern.diag_terms()))
    exceed = 0
    # The bootstrap statistics, kept as res.null_distribution: allocated once
    # (a list of blocks joined at the end would hold them twice).
    null = replicate_array(n_boot, "cal_test", "null_distribution")
    rows = kern.batch_rows(n_boot, itemsize=1)  # the signs are int8
    done = 0
    # All of the call's draws are one serial step on a shared stream.
    with holding(stream), Progress(n_boot, "cal_test", enabled=progress) as bar:
        while done < n_boot:
            b = min(rows, n_boot - done)
            # The +-1 weights stay int8 until the kernel has put them in its
            # (sorted) order: that gather reads n bytes, not 8n, and stays in
            # cache at 1e6 rows (the float64 one made the cost per row grow
            # with n). The values, hence the sums, are the same.
            w = stream.rademacher(b, n)
            reps = kern.weighted_offdiag(w) / denom
            exceed += int(np.count_nonzero(reps >= observed - tol))
            null[done:done + b] = reps
            done += b
            bar.advance(b)
    return CalTest(
        statistic={"SKCE_uq": observed},
        p_value=(1 + exceed) / (n_boot + 1),
        method=f"Bootstrap kernel calibration test (SKCE_uq, {n_boot} resamples)",
        data_name=data_name,
        estimate={"SKCE_uq": observed},
        target=target,
        null_distribution=null,
    )


def _block_test(data, h, blocksize, shuffle, skew_correction, order, rng, data_name, target) -> CalTest:
    n = data.n
    blocksize, order = check_blocksize(blocksize, n), check_order(order)
    if check_shuffle(shuffle):
        stream = resolve_rng(rng)
        with holding(stream):
            rows = stream.sample_int(n, n) - 1
        data = resample_data(data, rows)
    if order == "p":  # after a shuffle: ties in shuffled order
        data = resample_data(data, sorted_rows(data))
    # The pair terms on the rows in order: no sorted kernel is built.
    pairs = PairTerms.of_form(data.form, *kernel_arrays(data), h)
    return block_result(block_statistics(pairs, n, blocksize), blocksize, skew_correction, data_name,
                        target)


def block_result(stats, blocksize, skew_correction, data_name, target) -> CalTest:
    """The block test's :class:`CalTest` from its block statistics (also the Dask face's)."""
    if not isinstance(skew_correction, (bool, np.bool_)):
        raise ProbcalError(f"`skew_correction` must be TRUE or FALSE (True or False), not "
                           f"{skew_correction!r}.")
    estimate, _, z, p_value = block_z(stats, bool(skew_correction))
    name = "z_H" if skew_correction else "z"
    note = ", skewness-corrected" if skew_correction else ""
    return CalTest(
        statistic={name: z},
        p_value=p_value,
        method=f"Block kernel calibration test (SKCE_b, blocks of {blocksize}{note}, normal approximation)",
        data_name=data_name,
        estimate={"SKCE_b": estimate},
        target=target,
    )


# ---------------------------------------------------------------------------
# cal_ci(): replicate engines.
# ---------------------------------------------------------------------------

def _quantile8_sorted_counts(rs: np.ndarray, cum: np.ndarray, n: int, probs: np.ndarray) -> np.ndarray:
    """R ``quantile(x, probs, type = 8)`` of each resample, given as counts.

    ``rs`` are the sorted original values and ``cum`` (rows) the cumulative
    counts in that order; the k-th order statistic of a resample is
    ``rs[first position with cum >= k]``. The positions and the
    interpolation are :func:`pycalib_r.rstats.quantile_r`'s, which are R's.
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


def _int_counts(idx: np.ndarray, n: int) -> np.ndarray:
    """Rows of 1-based resample indices -> rows of int32 counts (half of
    :func:`_counts`'s float64; the sums take them one row at a time)."""
    out = np.empty((idx.shape[0], n), dtype=np.int32)
    for b in range(idx.shape[0]):
        out[b] = np.bincount(idx[b], minlength=n + 1)[1:]
    return out


class _BinnedEngine:
    """A bound binned metric over resamples given as rows of 1-based indices.

    R computes each replicate on ``p[idx]``: its bins' means are R's
    ``mean()`` of the resample's values in the resample's order, so every
    replicate walks its own indices (:func:`pycalib_r.binned._rbins.bin_means_rows`,
    one pass with a long-double accumulator per bin). Equal-width bins do
    not depend on the resample (each observation's bin is fixed; only the
    occupied ones when bins outnumber rows). Equal-frequency edges depend on
    the resample and come from its counts over the sorted values, which
    give each observation's bin in that resample; a block of resamples
    needs O(rows * (n + bins)) memory, never n * bins.
    """

    def __init__(self, metric: BinnedMetric):
        self.metric = metric
        self.n = metric.form.n
        self.problems = []
        for r, c in metric.form.problems():
            c = np.asarray(c).astype(np.int64)
            if metric.strategy == "equal_width":
                ids, n_ids = metric.groups(r)
                item = {"ids": ids, "n_ids": n_ids, "r": r, "c": c}
            else:
                order = np.argsort(r, kind="stable")
                item = {"order": order, "rs": r[order], "r": r, "c": c, "n_ids": metric.bins}
                if metric.bins > max(self.n, _SPARSE_EQUAL_FREQ):
                    # More breaks than rows: only those between the values
                    # (at most one run per distinct value).
                    values, first = distinct_sorted(item["rs"], positions=True)
                    item.update(n_ids=values.size, values=values, first=first)
            self.problems.append(item)

    def batch_rows(self, n_boot: int) -> int:
        # A block holds a few rows of n indices (a few times the metric's own
        # O(n) arrays; per-call costs dominate below that), one row when n
        # is large, many rows when n is small.
        width = max(self.n, max(item["n_ids"] + 1 for item in self.problems))
        rows = min(_BINNED_BLOCK_MAX // width, max(4, _BINNED_BLOCK_ELEMENTS // width))
        return max(1, min(n_boot, rows))

    def values(self, idx: np.ndarray) -> np.ndarray:
        kind, debiased = self.metric.kind, self.metric.debiased
        per = []
        # idx: R's 1-based draws, read as they are (base=1)
        if self.metric.strategy == "equal_width":
            for item in self.problems:
                stats = bin_means_rows(item["ids"], item["r"], item["c"], item["n_ids"], idx, base=1)
                per.append(binned_error(*stats, kind, debiased))
        else:
            counts = _int_counts(idx, self.n)
            for item in self.problems:
                ids = self._equal_freq_ids(item, counts)
                stats = bin_means_rows(ids, item["r"], item["c"], item["n_ids"], idx, base=1)
                per.append(binned_error(*stats, kind, debiased))
        return self.metric.combine(np.column_stack(per))

    def _equal_freq_ids(self, item, counts):
        """Each observation's bin in each resample (rows x n, numbered in
        increasing order; empty bins need no number)."""
        starts = (self._equal_freq_sparse_starts(item, counts) if "values" in item
                  else self._equal_freq_starts(item, counts))
        n = self.n
        ids = np.empty((counts.shape[0], n), dtype=np.int64)
        mark = np.empty(n, dtype=np.int64)
        for b, st in enumerate(starts):
            # Sorted position k is in the bin of the last run start <= k (the
            # starts are distinct and increasing: one mark each).
            mark[:] = 0
            mark[st[(st > 0) & (st < n)]] = 1
            ids[b, item["order"]] = np.cumsum(mark)
        return ids

    def _equal_freq_starts(self, item, counts):
        # Equal-frequency edges depend on the resample: its type-8 quantiles
        # come from cumulative counts over the sorted values. In sorted order
        # every bin is a contiguous run.
        rs = item["rs"]
        n = rs.size
        n_rep = counts.shape[0]
        # np.take keeps the rows C-contiguous (w[:, order] would not).
        w = np.take(counts, item["order"], axis=1)
        cum = np.cumsum(w, axis=1, dtype=np.int64)
        qs = _quantile8_sorted_counts(rs, cum, n, seq01(self.metric.bins + 1))
        inner = qs[:, 1:-1]
        # findInterval on R's sort(unique(edges)) with the ends set to 0 and 1:
        # a run starts at the first value >= its edge; an inner edge equal to
        # 1 merges into the closed last bin, so it starts no run.
        pos = np.searchsorted(rs, inner.ravel(), side="left").reshape(inner.shape)
        pos[inner >= 1.0] = n
        return [np.unique(row) for row in pos]

    def _equal_freq_sparse_starts(self, item, counts):
        # As _equal_freq_starts, without the resample's bins + 1 quantiles: a
        # run of the sorted values starts at a value's first copy exactly
        # when some break of the resample lies between it and the value
        # before (what searchsorted of every break would give, when the
        # breaks are in order).
        rs, values, first = item["rs"], item["values"], item["first"]
        out = []
        for b in range(counts.shape[0]):
            w = counts[b][item["order"]]
            xs = np.repeat(rs, w)
            out.append(first[1:][breaks_between(xs, self.metric.bins, values[:-1], values[1:])])
        return out


class _KernelEngine:
    """SKCE (or mmce) over resamples with a fixed bandwidth, from counts."""

    def __init__(self, data: KernelData, h, estimator: str, mmce: bool = False):
        self.kernels = kernels(data, h)
        self.estimator = estimator
        self.mmce = mmce
        self.n = data.n

    def batch_rows(self, n_boot: int) -> int:
        return self.kernels[0].batch_rows(n_boot)

    def values(self, idx: np.ndarray) -> np.ndarray:
        n = self.n
        if self.estimator == "ul":
            m = n // 2
            i0 = idx[:, 0:2 * m:2].astype(np.int64) - 1
            i1 = idx[:, 1:2 * m:2].astype(np.int64) - 1
            per = [_row_means(kern.pair_terms(i0, i1)) for kern in self.kernels]
        else:
            counts = _int_counts(idx, n)  # int32: the kernels widen them after their gather
            distinct = self.estimator == "uq"
            denom = n * (n - 1.0) if distinct else float(n) ** 2
            per = [kern.count_sums(counts, distinct) / denom for kern in self.kernels]
        vals = per[0] if len(per) == 1 else _row_means(np.vstack(per).T)
        if self.mmce:
            return np.sqrt(np.maximum(vals, 0.0))
        return vals


@quadratic_warning  # outside the Python face, which collects warnings until the call returns
@python_face
@seed_note
@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def cal_ci(p, y, metric="ece", conf_level=0.95, n_boot=999, bins=10, *, rng=None,
           progress=True, **kwargs):
    r"""Percentile bootstrap confidence interval for a calibration metric.

    R equivalent: ``probcal::cal_ci(p, y, metric = c("ece", "skce", "mmce",
    "mce", "ace"), conf_level = 0.95, n_boot = 999, bins = 10, ...)``.

    The metric :math:`\hat T` is computed on the data and on ``n_boot``
    resamples of the rows (each one R ``sample.int(n, n, replace = TRUE)``,
    in R's order; a matrix keeps all K classes), giving replicates
    :math:`T^*_1, \dots, T^*_B`. With :math:`\alpha = 1 -` ``conf_level``
    and :math:`q_a` R's type-7 quantile of the replicates, the percentile
    interval (Efron & Tibshirani 1993, ch. 13) is widened to contain the
    estimate and, for the metrics that cannot be negative, clamped at 0:

    .. math:: L = \max\bigl(\min(q_{\alpha/2}, \hat T),\, 0\bigr), \qquad
              U = \max(q_{1 - \alpha/2}, \hat T).

    The clamp is not applied to ``skce`` (its unbiased estimators can be
    negative) nor to the debiased ``ece``. The input and the metric's
    arguments are checked once, as the metric checks them; the resamples are
    evaluated in bounded blocks (count-weighted bin sums for the binned
    metrics, weighted kernel sums for skce and mmce), so memory does not
    grow with ``n_boot``. If a resample fails (a ``"median"`` bandwidth of a
    resample whose predictions are all equal), the error is R's and the
    stream stands where R's does: after that resample.

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
        ``type`` (mce, ace), ``estimator``, ``bandwidth``, ``type`` (skce),
        ``bandwidth`` (mmce). Any other name is R's ``unused argument``
        error.

    Returns
    -------
    CalCI
        The interval is widened to contain the estimate and clamped at 0 for
        the nonnegative metrics (not for skce or debiased ece).

    Notes
    -----
    Replicate ``b`` draws ``idx = sample.int(n, n, replace = TRUE)`` from R's
    stream and recomputes the metric on rows ``idx`` with the same arguments
    (integer class codes keep all K levels, so a resample missing a class is
    still scored with K columns). With ``alpha = 1 - conf_level`` and the
    replicates ``m_1..m_B``::

        (lo, hi) = quantile(m, c(alpha / 2, 1 - alpha / 2), type = 7)
        lower = min(lo, estimate);  upper = max(hi, estimate)   (widening)
        lower = max(lower, 0)       for ece (not debiased), mce, ace, mmce

    The percentile interval (Efron & Tibshirani 1993) is widened so that it
    always contains the estimate: binned metrics are biased upwards in small
    samples, so the resampled values can all lie above the estimate (the
    example's ECE interval starts at its estimate for that reason). The
    clamp keeps the nonnegative metrics' interval at or above 0; ``skce``
    and the debiased ``ece`` can be negative and are not clamped. R's
    ``quantile(type = 7)`` is numpy's default ``"linear"`` method. The
    interval is for the metric of this sample's model; it does not account
    for refitting a calibrator.

    For the l2 ECE, :func:`~pycalib_r.ece_ci` (Python-only) gives Sun et
    al.'s (2024) interval for the squared l2 ECE, which is built for the
    two regimes of the debiased estimate (miscalibrated and near zero) and
    covers where this percentile interval undercovers (near zero most of all).

    References
    ----------
    Efron, B., & Tibshirani, R. J. (1993). *An Introduction to the
    Bootstrap*. Chapman & Hall.

    Sun, Y., Chaudhari, P., Barnett, I. J., & Dobriban, E. (2024). A
    confidence interval for the l2 expected calibration error.
    arXiv:2408.08998.

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
    # R's as.integer() turns an n_boot beyond its range into NA here, and
    # numeric(n_boot) fails only after the estimate.
    n_boot = check_count(n_boot, "n_boot", _CI_N_BOOT_NA, defer=True)
    _check_dots(metric, kwargs)

    bound = _bind(metric, p, y, bins, kwargs, progress)
    if n_boot is None:
        integer_range_error("n_boot", _CI_N_BOOT_NA, warn=False)
    estimate = bound.estimate
    replicates = _run(bound.values, bound.n, n_boot, bound.batch_rows(n_boot),
                      resolve_rng(rng), progress)

    alpha = 1 - conf_level
    lo_q, hi_q = quantile_r(replicates, np.array([alpha / 2, 1 - alpha / 2]), type=7)
    lower = min(float(lo_q), estimate)
    upper = max(float(hi_q), estimate)
    if not bound.signed:
        lower = max(lower, 0.0)
    return CalCI(estimate, lower, upper, conf_level, metric, "percentile bootstrap", n_boot,
                 bootstrap_distribution=replicates)


def _metric_args(metric: str) -> tuple:
    """The arguments R's ``...`` may pass on: the metric's own, beyond p, y and bins."""
    from ..kernel import _skce as _kernel
    from ..binned import _metrics

    fn = {"ece": _metrics.ece, "mce": _metrics.mce, "ace": _metrics.ace,
          "skce": _kernel.skce, "mmce": _metrics.mmce}[metric]
    # progress is cal_ci's own (a Python-only keyword of skce too).
    return tuple(k for k in inspect.signature(fn).parameters
                 if k not in ("p", "y", "bins", "progress", "weights"))  # cal_ci: unweighted


def _check_dots(metric: str, kwargs: dict) -> None:
    """R's "unused argument" error for ``...`` that the metric does not take."""
    check_unused_arguments(kwargs, _metric_args(metric), caller="cal_ci")


class _Bound(NamedTuple):
    """A metric bound to checked input: its estimate, and its replicate engine."""

    estimate: float
    n: int
    values: object
    batch_rows: object
    signed: bool


def _bind(metric, p, y, bins, kwargs, progress=False) -> _Bound:
    """Check the input and the metric's arguments once (the metric's own
    checks, in its order) and bind the replicate engine to the result."""
    if metric in ("ece", "mce", "ace"):
        bound = bind_metric(metric, p, y, bins=bins, contract=True, **kwargs)
        estimate = bound.value()  # before the engine's arrays exist: peaks do not add up
        engine = _BinnedEngine(bound)
        return _Bound(estimate, bound.form.n, engine.values, engine.batch_rows,
                      metric == "ece" and bound.debiased)
    if metric == "skce":
        data, bandwidth, estimator = bind_skce(p, y, **kwargs)
        estimate = float(skce_from_data(data, resolve_bandwidth(data, bandwidth), estimator,
                                        progress=progress))
        mm = False
    else:
        form, bandwidth = bind_mmce(p, y, **kwargs)
        estimate = mmce_value(form, bandwidth)
        data, estimator, mm = form_data(form), "biased", True
    n = data.n

    if bandwidth == "median":
        def one_by_one(idx):
            out = np.empty(idx.shape[0])
            for b in range(idx.shape[0]):
                rs = resample_data(data, idx[b].astype(np.int64) - 1)
                out[b] = skce_from_data(rs, resolve_bandwidth(rs, "median"), estimator)
            return out

        return _Bound(estimate, n, one_by_one,
                      lambda n_boot: max(1, min(batch_rows(n, n_boot), 16)), metric == "skce")

    engine = _KernelEngine(data, resolve_bandwidth(data, bandwidth), estimator, mmce=mm)
    return _Bound(estimate, n, engine.values, engine.batch_rows, metric == "skce")


def _run(fn, n, n_boot, rows, stream, progress) -> np.ndarray:
    """Draw the resamples block by block (R's order) and evaluate ``fn`` on each
    block; blocks are bounded, so memory is too and Ctrl-C is seen between them."""
    out = replicate_array(n_boot, "cal_ci", "bootstrap_distribution")
    done = 0
    # All of the call's draws (and a rewind) are one serial step on a shared stream.
    with holding(stream), Progress(n_boot, "cal_ci", enabled=progress) as bar:
        while done < n_boot:
            b = min(rows, n_boot - done)
            state = stream_state(stream) if b > 1 else None
            idx = stream.sample_int_replace(n, n, b)
            try:
                out[done:done + b] = fn(idx)
            except ProbcalError:
                if state is not None:
                    rewind_to_failure(fn, idx, state, stream, n)
                raise
            done += b
            bar.advance(b)
    return out

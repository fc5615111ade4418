# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/metrics.R, R/utils.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: probcal 0.2.0 ece() help page (debiased, strategy) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Binned calibration metrics (``ece``, ``mce``, ``ace``), ``logit``/``inv_logit``, ``mmce``.

probcal 0.1.0 behaviour, plus the 0.2.0 ``debiased`` and ``strategy``
arguments of ``ece()`` (contract section 6).
"""

from __future__ import annotations

import numpy as np

from ._binning import (
    STRATEGIES,
    bin_groups,
    check_edges,
    is_python_bins,
    equal_freq_groups,
    equal_width_bins,
    find_bins,
    histogram_breaks,
    occupied_bins,
)
from ..inputs._checks import (
    DOUBLE_EPS,
    as_numeric_vector,
    check_bandwidth,
    check_bin_edges,
    check_bins,
    check_count,
    check_prob_matrix_values,
    check_probability,
    clip_prob,
    is_matrix,
    match_arg,
    prob_matrix_bands,
    values_first,
)
from ..rbase._errors import ProbcalError
from ..inputs._forms import MULTICLASS_TYPES, Form, binary_inputs, confidence_pair, input_form
from ..inputs._hints import python_face
from ..kernel._skce import scalar_kernel_sum
from ..rbase._rarith import quiet_fp, r_exp, r_log, seq_sum
from ..rbase._rarith import special as _special
from ._rbins import WIDTH_KERNEL_MAX, bin_means, edge_means, width_means, width_means_cols
from ._weighted import weighted_bin_table, weighted_problem_values
from ..inputs._weights import check_weights

__all__ = ["logit", "inv_logit", "ece", "mce", "ace", "mmce", "bin_table", "python_bins",
           "binned_error", "bin_frame", "BinnedMetric", "bind_metric", "bind_mmce", "mmce_value", "r_sums", "r_means", "r_means_masked",
           "confidence_pair", "binary_inputs", "MULTICLASS_TYPES"]

# What R says when a count beyond its integer range reaches seq(length.out =)
# in probcal 0.2.0's binned metrics.
from ..inputs._checks import LENGTH_OUT_NA  # noqa: E402,F401 - kept under its old name


@python_face
def logit(p, eps: float = DOUBLE_EPS):
    """Logit transformation with clipping at ``eps``.

    R equivalent: ``probcal::logit(p, eps = .Machine$double.eps)``.

    Parameters
    ----------
    p : array_like
        Probabilities in ``[0, 1]``.
    eps : float
        Clipping constant in ``(0, 0.5)``.

    Returns
    -------
    numpy.ndarray
        ``log(p / (1 - p))`` of the clipped probabilities, same shape as ``p``.

    Notes
    -----
    ``logit(p) = log(p* / (1 - p*))`` with ``p* = min(max(p, eps), 1 - eps)``,
    so 0 and 1 map to finite values (about -36.04 and 36.04 at the default
    ``eps = 2.220446e-16``) instead of ``-inf`` and ``inf``. Values outside
    ``[0, 1]`` are refused with R's message rather than clipped.
    ``scipy.special.logit`` does not clip (it returns ``-inf``/``inf`` at 0
    and 1, and NaN outside).

    Examples
    --------
    >>> print(" ".join(f"{v:.7g}" for v in logit([0.25, 0.5, 0, 1])))
    -1.098612 0 -36.04365 36.04365

    R: ``logit(c(0.25, 0.5, 0, 1))`` prints
    ``[1]  -1.098612   0.000000 -36.043653  36.043653``.
    """
    arr = check_probability(p, arg="p")
    arr = clip_prob(arr, eps=eps, arg="p")
    return r_log(arr / (1 - arr))  # the C library's log, as R (numpy's SIMD log can differ by 1 ulp)


@python_face
def inv_logit(x):
    """Inverse logit (logistic function) of finite values.

    R equivalent: ``probcal::inv_logit(x)`` (``stats::plogis``).

    Parameters
    ----------
    x : array_like
        Finite values on the logit scale; NaN and infinite values are refused
        with R's message (although the limits exist, R does not accept them).

    Returns
    -------
    numpy.ndarray
        ``1 / (1 + exp(-x))``, same shape as ``x``; extreme finite inputs
        round to 0 or 1, as in R.

    Examples
    --------
    >>> print(" ".join(f"{v:.7g}" for v in inv_logit([-2, 0, 2])))
    0.1192029 0.5 0.8807971

    R: ``inv_logit(c(-2, 0, 2))`` prints ``[1] 0.1192029 0.5000000 0.8807971``.
    """
    arr = as_numeric_vector(x, arg="x")
    return _special().expit(arr)


def r_sums(x: np.ndarray) -> np.ndarray:
    """R ``sum()`` along the last axis: sequential long double accumulation.

    Sequential, so zeros (empty bins) leave the sum unchanged and a row of a
    stacked block sums exactly as the same row alone.
    """
    if x.shape[-1] == 0:
        return np.zeros(x.shape[:-1])
    return np.cumsum(x, axis=-1, dtype=np.longdouble)[..., -1].astype(np.float64)


def r_means_masked(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """R ``mean(x[mask])`` along the last axis (long double sum, then R's
    correction pass), with the masked-out elements as neutral zeros."""
    count = mask.sum(axis=-1)
    xz = np.where(mask, x, 0.0)
    s = np.cumsum(xz, axis=-1, dtype=np.longdouble)[..., -1] / count
    dev = np.where(mask, xz - s[..., None], 0.0)
    t = np.cumsum(dev, axis=-1, dtype=np.longdouble)[..., -1]
    return (s + t / count).astype(np.float64)


def r_means(x: np.ndarray) -> np.ndarray:
    """R ``mean()`` along the last axis."""
    x = np.asarray(x, dtype=np.float64)
    return r_means_masked(x, np.ones(x.shape, dtype=bool))


def _bin_stats(p: np.ndarray, y: np.ndarray, bins: int, strategy: str):
    """Every bin's edges, count, and R's means (a table of all bins: the diagram's data)."""
    breaks = histogram_breaks(p, bins, strategy)
    if strategy == "equal_width" and bins <= WIDTH_KERNEL_MAX:
        return (breaks,) + width_means(p, y, bins)
    return (breaks,) + edge_means(p, y, breaks)


def binned_error(counts, conf, acc, kind: str, debiased: bool = False):
    """A binned metric from per-bin counts and R's per-bin means (works on the
    last axis, so bootstrap replicates can be stacked along the first).

    ``kind`` is ``"ece"``, ``"mce"`` or ``"ace"``. Empty bins (count 0, means
    NaN) are ignored. The arithmetic is R's, step for step: ``n_b / n`` and
    the gaps elementwise in double, then ``sum()`` over the bins in their
    order and ``mean()`` as R's long-double passes (see :func:`r_sums`), so
    the value does not depend on how many empty bins lie between the
    occupied ones.
    """
    counts = np.asarray(counts)
    nonempty = counts > 0
    with np.errstate(invalid="ignore"):
        if kind == "ece":
            n_total = counts.sum(axis=-1, keepdims=True)
            if debiased:
                denom = np.where(counts > 1, counts - 1, 1).astype(np.float64)
                term = (acc - conf) ** 2 - acc * (1 - acc) / denom
                term = np.where(counts > 1, term, 0.0)
            else:
                term = np.abs(acc - conf)
            return r_sums(np.where(nonempty, (counts / n_total) * term, 0.0))
        gap = np.where(nonempty, np.abs(acc - conf), 0.0)
    if kind == "mce":
        return np.max(np.where(nonempty, gap, -np.inf), axis=-1)
    if kind == "ace":
        return r_means_masked(gap, nonempty)
    raise ValueError(f"unknown binned metric {kind!r}")


class BinnedMetric:
    """``ece``, ``mce`` or ``ace`` bound to checked input and arguments.

    :func:`bind_metric` makes R's checks once, in R's order; :meth:`value` is the
    metric, and :meth:`scalar_value` / :meth:`groups` / :meth:`combine`
    are the pieces a resampling loop reuses (``cal_ci``), so nothing is
    parsed or checked again per resample.

    Attributes
    ----------
    kind : {"ece", "mce", "ace"}
    form : Form
    bins : int
    debiased : bool
    strategy : {"equal_width", "equal_freq"}
    """

    def __init__(self, kind: str, form: Form, bins: int, debiased: bool = False,
                 strategy: str = "equal_width"):
        self.kind = kind
        self.form = form
        self.bins = bins
        self.debiased = debiased
        self.strategy = strategy

    def groups(self, r: np.ndarray):
        """Each value's bin id (occupied bins only when bins outnumber values)."""
        if is_python_bins(self.bins):
            return bin_groups(r, self.bins)[:2]
        if self.strategy == "equal_width":
            return occupied_bins(equal_width_bins(r, self.bins), self.bins)
        if self.bins > max(r.size, 1 << 16):
            # R's breaks would outnumber the values: only those next to them.
            return equal_freq_groups(r, self.bins)
        breaks = histogram_breaks(r, self.bins, self.strategy)
        return occupied_bins(find_bins(r, breaks), breaks.size - 1)

    def _width_kernel(self) -> bool:
        # R's equal-width bins, found inside the per-bin means' kernel.
        return self.strategy == "equal_width" and not is_python_bins(self.bins) \
            and self.bins <= WIDTH_KERNEL_MAX

    def _edges(self, r: np.ndarray):
        """The sorted edges whose bins :func:`edge_means` finds (equal-frequency
        breaks, a caller's edges), or None (equal widths, ``"unique"``, or more
        bins than its kernel takes: :meth:`groups` then numbers them)."""
        if isinstance(self.bins, str):
            return None
        if is_python_bins(self.bins):
            edges = check_edges(self.bins, r)
        elif self.strategy == "equal_freq" and self.bins <= max(r.size, 1 << 16):
            edges = histogram_breaks(r, self.bins, self.strategy)
        else:
            return None
        return edges if edges.size - 1 <= WIDTH_KERNEL_MAX else None

    def scalar_value(self, r: np.ndarray, c: np.ndarray, label: int = 1) -> float:
        """The binary metric of one scalar problem (the labels ``c == label``)."""
        if self._width_kernel():
            counts, conf, acc = width_means(r, c, self.bins, label)
        elif (edges := self._edges(r)) is not None:
            counts, conf, acc = edge_means(r, c, edges, label)
        else:
            ids, n_ids = self.groups(r)
            counts, conf, acc = bin_means(ids, r, c if label == 1 else (c == label), n_ids)
        return float(binned_error(counts, conf, acc, self.kind, self.debiased))

    def combine(self, per_problem: np.ndarray) -> np.ndarray:
        """Classwise aggregate over the last axis: R's ``max`` (mce) or ``mean``."""
        if per_problem.shape[-1] == 1:
            return per_problem[..., 0]
        if self.kind == "mce":
            return per_problem.max(axis=-1)
        return r_means(per_problem)

    def value(self) -> float:
        form = self.form
        if form.deferred:
            if not form.scalar and self._width_kernel():
                out = width_means_cols(form.p, form.codes, self.bins, bands=prob_matrix_bands(form.p))
                if out is not None:
                    counts, conf, acc, found = out
                    if found.any():
                        # An entry outside [+0, 1] or a row sum near or past
                        # the tolerance: R's check decides (it may pass).
                        check_prob_matrix_values(form.p, "p")
                    return float(self.combine(binned_error(counts, conf, acc, self.kind, self.debiased)))
            check_prob_matrix_values(form.p, "p")
            form = self.form = form._replace(deferred=False)
        if not form.scalar and self._width_kernel():
            # Classwise: each column against its class's code, read in place
            # (one binary pass per class; binned_error works row by row).
            per = binned_error(*width_means_cols(form.p, form.codes, self.bins), self.kind, self.debiased)
        else:
            per = np.array([self.scalar_value(r, c) for r, c in form.problems()])
        return float(self.combine(per))


def is_contract_call(kind, debiased, strategy) -> bool:
    """``ece()`` given a ``debiased`` or ``strategy`` other than the default:
    probcal 0.2.0's checks (see :func:`bind_metric`)."""
    defaults = isinstance(debiased, (bool, np.bool_)) and not debiased \
        and isinstance(strategy, str) and strategy == "equal_width"
    return kind == "ece" and not defaults


def check_ece_flags(debiased, strategy, contract: bool) -> str:
    """``ece()``'s ``debiased`` and ``strategy`` checks in R's order (0.2.0's
    ``contract`` checks ``debiased`` first); the matched strategy."""
    if contract and not isinstance(debiased, (bool, np.bool_)):
        raise ProbcalError("Argument `debiased` must be `TRUE` or `FALSE`.")
    strategy = match_arg(strategy, STRATEGIES)
    if not isinstance(debiased, (bool, np.bool_)):
        raise ProbcalError("Argument `debiased` must be `TRUE` or `FALSE`.")
    return strategy


def bind_metric(kind, p, y, bins=10, type="classwise", debiased=False, strategy="equal_width",
                contract=None, defer: bool = False) -> BinnedMetric:
    """``ece()`` / ``mce()`` / ``ace()``'s checks in R's order, as a bound metric.

    probcal 0.1.0 checks a matrix before it matches ``type``; probcal 0.2.0's
    metrics (``contract``: ``ece()`` given ``debiased`` or ``strategy``, and
    every metric inside ``cal_ci``) match ``type`` first, then check
    ``debiased`` and ``strategy``, then the data. The two differ only in
    which of several faults is reported, and in the ``bins`` check beyond
    R's integer range.

    ``defer=True`` (``ece``, ``mce``, ``ace``, whose bound metric is used
    once, by :meth:`BinnedMetric.value`): a large classwise matrix's values
    are checked by the kernel that bins them (``input_form(defer=True)``),
    with the same decisions and R's order of failures.
    """
    if contract is None:
        contract = is_contract_call(kind, debiased, strategy)
    types = MULTICLASS_TYPES
    if contract:
        if is_matrix(p):
            type = match_arg(type, MULTICLASS_TYPES)
        types = None
    if kind == "ece":
        strategy = check_ece_flags(debiased, strategy, contract)
    # The metrics only read the data: no copy of a float64 p or int64 y.
    defer = defer and _scan_in_kernel(p, y, bins, type, strategy)
    form = input_form(p, y, type, types=types, copy=False, defer=defer)
    if is_python_bins(bins):
        # Python-only: "unique" or a vector of edges (R's bins is a count).
        return BinnedMetric(kind, form, python_bins(bins), bool(debiased), strategy)
    with values_first(form.p, form.deferred):
        if contract:
            bins = check_count(bins, "bins", LENGTH_OUT_NA)
        else:
            bins = check_bins(bins)
        check_bin_edges(bins)
    return BinnedMetric(kind, form, bins, bool(debiased), strategy)


# Matrix entries from which a classwise metric's kernel checks the matrix's
# values as it bins them (one read of the matrix instead of two).
_SCAN_IN_KERNEL_MIN = 1 << 18


def _scan_in_kernel(p, y, bins, form_type, strategy) -> bool:
    """Whether the matrix's values may be checked by the classwise kernel:
    a large float64 matrix, int64 codes, an integer count of bins the kernel
    takes, the classwise type and equal widths, where the checks R makes
    between the matrix's and the kernel (type, labels, bins) cannot warn
    (only fail: ``values_first`` puts the matrix's failure first)."""
    return (type(p) is np.ndarray and p.dtype == np.float64 and p.ndim == 2
            and p.size >= _SCAN_IN_KERNEL_MIN and type(y) is np.ndarray and y.dtype == np.int64
            and isinstance(form_type, str) and form_type == "classwise"
            and isinstance(strategy, str) and strategy == "equal_width"
            and isinstance(bins, (int, np.integer)) and not isinstance(bins, (bool, np.bool_))
            and 1 <= bins <= WIDTH_KERNEL_MAX)


def weighted_metric(kind, p, y, bins, type, debiased, strategy, weights) -> float:
    """``ece``/``mce``/``ace`` with observation weights: R's checks in R's
    order (:func:`bind_metric`, no deferred check), then the weights', then
    the weighted bins (:mod:`pycalib_r.binned._weighted`, numpy: the C
    kernels serve the unweighted path)."""
    metric = bind_metric(kind, p, y, bins, type, debiased, strategy)
    w = check_weights(weights, metric.form.n)
    per = [float(binned_error(*sums, kind, metric.debiased))
           for sums in weighted_problem_values(metric, w)]
    return float(metric.combine(np.array(per)))


def python_bins(bins):
    """The Python-only ``bins``: ``"unique"``, or checked edges as an array."""
    return bins if isinstance(bins, str) else check_edges(bins, np.empty(0))


@python_face
def ece(p, y, bins=10, type="classwise", debiased=False, strategy="equal_width", weights=None):
    r"""Expected calibration error.

    R equivalent: ``probcal::ece(p, y, bins = 10, type = c("classwise",
    "confidence"), debiased = FALSE, strategy = c("equal_width", "equal_freq"))``
    (``debiased`` and ``strategy`` are probcal 0.2.0's; 0.1.0 has neither).

    With bins :math:`I_1, \dots, I_B` holding :math:`n_b` of the :math:`n`
    predictions, mean prediction :math:`\mathrm{conf}_b` and event rate
    :math:`\mathrm{acc}_b`, the ECE (Guo et al. 2017) is

    .. math:: \mathrm{ECE} = \sum_{b:\, n_b > 0} \frac{n_b}{n}
              \lvert \mathrm{acc}_b - \mathrm{conf}_b \rvert .

    With ``debiased=True`` it is Kumar, Liang & Ma's (2019) estimate of the
    *squared* l2 calibration error of the binned predictions,

    .. math:: \sum_{b:\, n_b > 1} \frac{n_b}{n} \Big[ (\mathrm{acc}_b -
              \mathrm{conf}_b)^2 - \frac{\mathrm{acc}_b (1 - \mathrm{acc}_b)}{n_b - 1}
              \Big],

    which removes the upward bias of the plug-in square (the second term is
    the unbiased estimate of the variance of :math:`\mathrm{acc}_b`), so it
    can be negative; a singleton bin adds 0. For continuous predictions it
    estimates the error of the binned model, which is a lower bound for the
    model's own squared l2 error (binning averages miscalibration away).
    Bins: equal-width (left-closed, the last one closed), or ``"equal_freq"``
    edges at R's type-8 quantiles of ``p`` (those of ``cal_histogram()``).
    Multiclass input: the mean over the one-vs-rest columns (classwise), or
    the binary ECE of the top-label confidence against correctness.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class, rows summing to one within ``1e-6`` (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bins : int, array_like or "unique"
        Number of bins, at most R's integer maximum 2^31 - 1; only the bins
        the data fill cost memory or time. Python-only: a strictly
        increasing vector of edges covering ``p`` (bins left-closed, the
        last closed; ``strategy`` is then ignored), or ``"unique"``, one bin
        per distinct prediction (the error of a binned model, Kumar et al.'s
        ``get_binning_ce``; ``bins=10**5`` was the workaround).
    type : {"classwise", "confidence"}
        Multiclass aggregation; ignored for binary input.
    debiased : bool
        If True, the debiased squared estimate above.
    strategy : {"equal_width", "equal_freq"}
        Equal-width bins, or the equal-frequency bins of ``cal_histogram()``.
    weights : array_like, optional
        Python-only: observation weights, one per row (R's ``glm`` prior
        weights), finite and non-negative with a positive sum (else a
        ``ProbcalError`` naming ``weights``). A bin's count becomes its
        total weight and its means weighted means; a row of weight 0 changes
        nothing and a row of whole weight k counts as k copies of it
        (equal-frequency edges are the quantiles of those copies). None
        (the default) is the unweighted code, bit for bit. See the guide's
        "Weights" page.

    Returns
    -------
    float

    Notes
    -----
    Binary: ``[0, 1]`` is cut into bins (left-closed, the last closed on both
    sides, as in :func:`cal_histogram`). With ``n_b`` predictions in bin
    ``b``, ``conf_b`` their mean and ``acc_b`` the mean of their labels::

        ECE = sum over non-empty b of (n_b / n) * |acc_b - conf_b|

    Empty bins have weight 0; the value depends on ``bins`` and ``strategy``
    (``"equal_freq"``: ``quantile(p, type = 8)`` breaks with the ends forced
    to 0 and 1 and duplicates dropped).

    ``debiased=True`` returns Kumar, Liang & Ma's (2019) estimate of the
    squared l2 error of the binned predictor::

        sum over b with n_b > 1 of (n_b / n) * [(acc_b - conf_b)^2 - acc_b (1 - acc_b) / (n_b - 1)]

    (a singleton bin adds 0). The subtracted term removes the sampling noise
    of ``acc_b``, which inflates the plug-in ``(acc_b - conf_b)^2``; the
    estimate can therefore be negative, and it is on the squared scale (take
    ``sqrt(max(x, 0))`` to compare with an l2 ECE). For continuous
    predictions it estimates the error of the binned version of the model,
    which by Jensen's inequality is a lower bound on the model's own squared
    calibration error.

    Multiclass: ``type="classwise"`` (the default) averages the binary ECE of
    each one-vs-rest column ``p[:, k]`` against ``y == k`` (Kull et al.'s
    2019 classwise-ECE; Nixon et al.'s 2019 static calibration error);
    ``type="confidence"`` applies the binary ECE to the top-label confidence
    ``max_k p_ik`` (first maximal column on ties) against whether that class
    is right (Guo et al. 2017).

    Other implementations: netcal's ``ECE(bins).measure(p, y - 1)`` on a
    probability matrix is the top-label (confidence) form, probcal's
    ``type="confidence"`` (probcal's own tests compare the two to 1e-8), not
    this function's classwise default; the two can differ widely (0.243 and
    0.153 in the example below).

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *Proceedings of the 34th International
    Conference on Machine Learning* (PMLR 70, pp. 1321-1330).

    Naeini, M. P., Cooper, G. F., & Hauskrecht, M. (2015). Obtaining well
    calibrated probabilities using Bayesian binning. In *Proceedings of the
    Twenty-Ninth AAAI Conference on Artificial Intelligence* (pp. 2901-2907).

    Kumar, A., Liang, P., & Ma, T. (2019). Verified uncertainty calibration.
    In *Advances in Neural Information Processing Systems 32* (NeurIPS 2019).

    Kull, M., Perello-Nieto, M., Kängsepp, M., Silva Filho, T., Song, H., &
    Flach, P. (2019). Beyond temperature scaling: Obtaining well-calibrated
    multi-class probabilities with Dirichlet calibration. In *Advances in
    Neural Information Processing Systems 32* (NeurIPS 2019).

    Nixon, J., Dusenberry, M. W., Zhang, L., Jerfel, G., & Tran, D. (2019).
    Measuring calibration in deep learning. In *CVPR Workshops* (pp. 38-41).

    Examples
    --------
    >>> print(f"{ece([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(31)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> print(f"{ece(p, y):.7g} {ece(p, y, debiased=True):.7g} {ece(p, y, strategy='equal_freq'):.7g}")
    0.08844079 0.006746506 0.09392402

    Multiclass (R's ``matrix(v, ncol = 3)`` fills by column, hence
    ``order="F"``):

    >>> pc.set_seed(30)
    >>> prob = np.reshape(pc.runif(450), (150, 3), order="F")
    >>> prob = prob / prob.sum(axis=1, keepdims=True)
    >>> jitter = np.reshape(pc.runif(450, max=0.5), (150, 3), order="F")
    >>> labels = np.argmax(prob + jitter, axis=1) + 1
    >>> print(f"{ece(prob, labels):.7g} {ece(prob, labels, type='confidence'):.7g}")
    0.1532737 0.2425456

    R: ``set.seed(31); p <- runif(200); y <- rbinom(200, 1, p)``, then
    ``ece(p, y)``, ``ece(p, y, debiased = TRUE)`` and ``ece(p, y, strategy =
    "equal_freq")`` give the same values; ``set.seed(30); prob <-
    matrix(runif(450), ncol = 3); prob <- prob / rowSums(prob); labels <-
    max.col(prob + matrix(runif(450, max = 0.5), ncol = 3), ties.method =
    "first")``, then ``ece(prob, labels)`` and ``ece(prob, labels, type =
    "confidence")`` give 0.1532737 and 0.2425456.
    """
    if weights is not None:
        return weighted_metric("ece", p, y, bins, type, debiased, strategy, weights)
    return bind_metric("ece", p, y, bins, type, debiased, strategy, defer=True).value()


@python_face
def mce(p, y, bins=10, type="classwise", weights=None):
    """Maximum calibration error over non-empty equal-width bins.

    R equivalent: ``probcal::mce(p, y, bins = 10, type = c("classwise", "confidence"))``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class, rows summing to one within ``1e-6`` (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bins : int, array_like or "unique"
        Number of equal-width bins on ``[0, 1]``. Python-only: a strictly
        increasing vector of edges covering ``p``, or ``"unique"`` (one bin
        per distinct prediction), as in :func:`ece`.
    type : {"classwise", "confidence"}
        Multiclass form; ignored for binary input.
    weights : array_like, optional
        Python-only: observation weights, one per row (R's ``glm`` prior
        weights), finite and non-negative with a positive sum (else a
        ``ProbcalError`` naming ``weights``). A bin's count becomes its
        total weight and its means weighted means; a row of weight 0 changes
        nothing and a row of whole weight k counts as k copies of it
        (equal-frequency edges are the quantiles of those copies). None
        (the default) is the unweighted code, bit for bit. See the guide's
        "Weights" page.

    Returns
    -------
    float

    Notes
    -----
    With the bins of :func:`ece` (equal widths only)::

        MCE = max over non-empty b of |acc_b - conf_b|

    Multiclass: ``"classwise"`` is the largest one-vs-rest MCE over the
    classes (a maximum, where :func:`ece` and :func:`ace` average);
    ``"confidence"`` is the MCE of the top-label confidence against
    correctness. A single sparse bin can set the value, so it is noisy for
    small samples.

    References
    ----------
    Naeini, M. P., Cooper, G. F., & Hauskrecht, M. (2015). Obtaining well
    calibrated probabilities using Bayesian binning. In *Proceedings of the
    Twenty-Ninth AAAI Conference on Artificial Intelligence* (pp. 2901-2907).

    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *Proceedings of the 34th International
    Conference on Machine Learning* (PMLR 70, pp. 1321-1330).

    Examples
    --------
    >>> print(f"{mce([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    >>> import pycalib_r as pc
    >>> pc.set_seed(31)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> print(f"{mce(p, y):.7g}")
    0.3526747

    R: ``set.seed(31); p <- runif(200); y <- rbinom(200, 1, p); mce(p, y)``
    prints ``[1] 0.3526747``.
    """
    if weights is not None:
        return weighted_metric("mce", p, y, bins, type, False, "equal_width", weights)
    return bind_metric("mce", p, y, bins, type, defer=True).value()


@python_face
def ace(p, y, bins=10, type="classwise", weights=None):
    """Average (unweighted) calibration error over non-empty equal-width bins.

    R equivalent: ``probcal::ace(p, y, bins = 10, type = c("classwise", "confidence"))``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class, rows summing to one within ``1e-6`` (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bins : int, array_like or "unique"
        Number of equal-width bins on ``[0, 1]``. Python-only: a strictly
        increasing vector of edges covering ``p``, or ``"unique"`` (one bin
        per distinct prediction), as in :func:`ece`.
    type : {"classwise", "confidence"}
        Multiclass form; ignored for binary input.
    weights : array_like, optional
        Python-only: observation weights, one per row (R's ``glm`` prior
        weights), finite and non-negative with a positive sum (else a
        ``ProbcalError`` naming ``weights``). A bin's count becomes its
        total weight and its means weighted means; a row of weight 0 changes
        nothing and a row of whole weight k counts as k copies of it
        (equal-frequency edges are the quantiles of those copies). None
        (the default) is the unweighted code, bit for bit. See the guide's
        "Weights" page.

    Returns
    -------
    float

    Notes
    -----
    With the bins of :func:`ece` (equal widths only) and ``M`` non-empty
    bins::

        ACE = (1 / M) * sum over non-empty b of |acc_b - conf_b|

    Every non-empty bin counts the same, whatever its size. Multiclass:
    ``"classwise"`` averages the one-vs-rest ACE over the classes,
    ``"confidence"`` uses the top-label confidence against correctness.

    Other conventions: Nixon et al. (2019) use "ACE" for the *adaptive*
    calibration error, an average over classes of equal-frequency-bin
    errors; probcal's ``ace`` is not that (its bins have equal widths and are
    unweighted). The closest probcal value to Nixon et al.'s ACE is
    ``ece(p, y, strategy="equal_freq")`` in the classwise form.

    References
    ----------
    Niculescu-Mizil, A., & Caruana, R. (2005). Predicting good probabilities
    with supervised learning. In *Proceedings of the 22nd International
    Conference on Machine Learning* (pp. 625-632).

    Nixon, J., Dusenberry, M. W., Zhang, L., Jerfel, G., & Tran, D. (2019).
    Measuring calibration in deep learning. In *CVPR Workshops* (pp. 38-41).

    Examples
    --------
    >>> print(f"{ace([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    >>> import pycalib_r as pc
    >>> pc.set_seed(31)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> print(f"{ace(p, y):.7g}")
    0.09681073

    R: ``set.seed(31); p <- runif(200); y <- rbinom(200, 1, p); ace(p, y)``
    prints ``[1] 0.09681073``.
    """
    if weights is not None:
        return weighted_metric("ace", p, y, bins, type, False, "equal_width", weights)
    return bind_metric("ace", p, y, bins, type, defer=True).value()


def bin_table(p, y, bins=10, strategy="equal_width", weights=None):
    """probcal's per-bin table (``bin_stats``): bin, lower, upper, n, confidence, accuracy, gap.

    R equivalent: probcal's internal ``bin_stats(p, y, bins)``. With
    ``strategy="equal_freq"`` the bins are those of ``ece(strategy =
    "equal_freq")`` (tied quantiles merge, so there may be fewer rows).
    With ``weights`` (Python-only) ``n`` is each bin's total weight (a float)
    and the means are weighted (:mod:`pycalib_r.binned._weighted`).
    """
    p_arr, y_arr = binary_inputs(p, y)
    if weights is not None:
        w = check_weights(weights, p_arr.size)
        if is_python_bins(bins):
            if not isinstance(bins, str):
                bins = check_edges(python_bins(bins), p_arr)
        else:
            bins = check_bin_edges(check_bins(bins))
        return _table(*weighted_bin_table(p_arr, y_arr, w, bins, strategy), float_n=True)
    if is_python_bins(bins):
        if isinstance(bins, str):
            ids, n_ids, edges = bin_groups(p_arr, bins, occupied=False)
            counts, conf, acc = bin_means(ids, p_arr, y_arr, n_ids)
            return _table(np.arange(1, counts.size + 1), edges, edges, counts, conf, acc)
        edges = check_edges(python_bins(bins), p_arr)
        counts, conf, acc = edge_means(p_arr, y_arr, edges)
        return _table(np.arange(1, counts.size + 1), edges[:-1], edges[1:], counts, conf, acc)
    bins = check_bin_edges(check_bins(bins))
    breaks, counts, conf, acc = _bin_stats(p_arr, y_arr, bins, strategy)
    return _table(np.arange(1, counts.size + 1), breaks[:-1], breaks[1:], counts, conf, acc)


def bin_frame(bin_no, lower, upper, counts, sum_p, sum_y):
    """``bin_stats``'s data frame from per-bin counts and sums (the Dask tables,
    whose chunk sums are merged; the in-memory table has R's per-bin means)."""
    counts = np.asarray(counts)
    nonempty = counts > 0
    safe = np.where(nonempty, counts, 1)
    return _table(bin_no, lower, upper, counts, np.where(nonempty, sum_p / safe, np.nan),
                  np.where(nonempty, sum_y / safe, np.nan))


def _table(bin_no, lower, upper, counts, conf, acc, float_n=False):
    import pandas as pd

    counts = np.asarray(counts)
    return pd.DataFrame({
        "bin": np.asarray(bin_no),
        "lower": lower,
        "upper": upper,
        "n": counts.astype(np.float64 if float_n else np.int64),
        "confidence": conf,
        "accuracy": acc,
        "gap": np.abs(acc - conf),
    })


@python_face
@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def mmce(p, y, bandwidth=0.2):
    """Maximum mean calibration error (Laplacian kernel, V-statistic).

    R equivalent: ``probcal::mmce(p, y, bandwidth = 0.2)``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class, rows summing to one within ``1e-6`` (multiclass: only the
        top-label form exists, there is no ``type``).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bandwidth : float
        Positive finite bandwidth ``h`` of the Laplacian kernel.

    Returns
    -------
    float
        Non-negative.

    Notes
    -----
    With ``r_i`` the predicted probability (binary) or the top-label
    confidence (multiclass, first maximal column on ties), ``c_i`` the label
    or the correctness indicator, and ``e_i = c_i - r_i``::

        MMCE = sqrt(max(0, (1 / n^2) * sum_i sum_j e_i e_j exp(-|r_i - r_j| / h)))

    the V-statistic (diagonal included) of Kumar, Sarawagi & Jain (2018).
    R builds the n x n kernel matrix (O(n^2) time and memory) and multiplies
    it by the reference BLAS. When the number of distinct confidences times
    n is at most 2^22 (every n up to 2,048, and tie-heavy data far beyond),
    this port takes R's order of operations, one kernel row per distinct
    confidence (O(n) memory), and gives R's bits, also near 0 where the
    square root magnifies a rounding (ten predictions of 0.1 with one event
    give 0, as in R). Beyond that it sorts ``r`` and sums the Laplacian
    kernel by a running recursion, in O(n log n) time and O(n) memory; the
    sum inside the root then agrees with R's to rounding (1.6e-17 absolute
    on R's fixtures), which the root can magnify when the sum is near 0. It equals ``sqrt(max(skce(p, y, "biased",
    bandwidth, type="confidence"), 0))``. Unlike the binned metrics it needs
    no bins, but it depends on ``bandwidth``.

    References
    ----------
    Kumar, A., Sarawagi, S., & Jain, U. (2018). Trainable calibration
    measures for neural networks from kernel mean embeddings. In
    *Proceedings of the 35th International Conference on Machine Learning*
    (PMLR 80, pp. 2805-2814).

    Examples
    --------
    >>> from pycalib_r import set_seed, runif, rbinom
    >>> set_seed(31); p = runif(200); y = rbinom(200, 1, p)
    >>> print(f"{mmce(p, y):.7g}")  # R prints [1] 0.03170179
    0.03170179

    R: ``set.seed(31); p <- runif(200); y <- rbinom(200, 1, p); mmce(p, y)``
    prints ``[1] 0.03170179``.
    """
    form, bandwidth = bind_mmce(p, y, bandwidth)
    return mmce_value(form, bandwidth)


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def bind_mmce(p, y, bandwidth=0.2):
    """``mmce()``'s checks in R's order: the confidence (or binary) form and the bandwidth."""
    bandwidth = check_bandwidth(bandwidth, allow_median=False)
    return input_form(p, y, "confidence", types=None), bandwidth


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def mmce_value(form: Form, bandwidth: float) -> float:
    """``mmce()`` of checked input: R's own arithmetic when the distinct
    confidences are few enough (:func:`_mmce_r_order`), else the O(n log n)
    kernel sum."""
    residual = form.c - form.r
    n = residual.size
    value = _mmce_r_order(np.asarray(form.r, dtype=np.float64), residual, bandwidth)
    if value is None:
        value = scalar_kernel_sum(form.r, residual, bandwidth) / n ** 2
    return float(np.sqrt(max(value, 0.0)))


# Kernel-matrix entries (distinct confidences x rows) up to which mmce() takes
# R's order of operations: about 10 ms of work.
_MMCE_R_ORDER_MAX = 1 << 22
_MMCE_BLOCK = 1 << 18


def _mmce_r_order(r: np.ndarray, e: np.ndarray, bandwidth: float):
    """probcal 0.1.0's ``crossprod(e, K %*% e) / n^2`` with R's roundings, or None.

    R builds ``K = exp(-abs(outer(r, r, "-")) / bandwidth)`` and calls the
    reference BLAS: ``K %*% e`` is ``dgemv``, whose row ``i`` is the double
    sum of ``e_j * K_ij`` over ``j`` in order, and ``crossprod`` the
    in-order double dot product of ``e`` with that. Rows with the same
    confidence have the same kernel row, so the products are summed once per
    distinct confidence: O(D n) for D distinct values, R's bits (its value is
    then also R's where sqrt() magnifies a rounding near 0). Beyond
    ``_MMCE_R_ORDER_MAX`` entries, None: the caller's O(n log n) sum agrees
    with R to rounding (documented in mmce()).
    """
    n = r.size
    limit = _MMCE_R_ORDER_MAX // max(n, 1)
    # A prefix with more distinct values than allowed decides it without
    # sorting all n (np.unique of 10^7 rows cost seconds and copies).
    if limit < 1 or np.unique(r[:8 * limit + 64]).size > limit:
        return None
    values, group = np.unique(r, return_inverse=True)
    d = values.size
    if d * n > _MMCE_R_ORDER_MAX:
        return None
    group = group.reshape(-1)
    v = np.empty(d)
    step = max(1, _MMCE_BLOCK // max(n, 1))
    for g0 in range(0, d, step):
        g1 = min(g0 + step, d)
        diff = values[g0:g1, None] - values[None, group]
        k = r_exp(-np.abs(diff) / bandwidth)
        k *= e[None, :]
        v[g0:g1] = np.cumsum(k, axis=1)[:, -1]
    return seq_sum(e * v[group]) / (n ** 2)

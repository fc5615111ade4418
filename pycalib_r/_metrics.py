"""Binned calibration metrics (``ece``, ``mce``, ``ace``), ``logit``/``inv_logit``, ``mmce``.

probcal 0.1.0 behaviour, plus the 0.2.0 ``debiased`` and ``strategy``
arguments of ``ece()`` (contract section 6).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from ._binning import STRATEGIES, assign_bins
from ._checks import (
    DOUBLE_EPS,
    as_numeric_vector,
    check_bandwidth,
    check_binary_y,
    check_bins,
    check_multiclass_y,
    check_prob_matrix,
    check_probability,
    check_same_length,
    clip_prob,
    is_matrix,
    match_arg,
    multiclass_labels,
)
from ._errors import ProbcalError

__all__ = ["logit", "inv_logit", "ece", "mce", "ace", "mmce", "bin_table",
           "binned_error", "confidence_pair", "binary_inputs", "MULTICLASS_TYPES"]

MULTICLASS_TYPES = ("classwise", "confidence")


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

    Examples
    --------
    >>> logit([0.25, 0.5])
    array([-1.09861229,  0.        ])
    """
    arr = check_probability(p, arg="p")
    arr = clip_prob(arr, eps=eps, arg="p")
    return np.log(arr / (1 - arr))


def inv_logit(x):
    """Inverse logit (logistic function) of finite values.

    R equivalent: ``probcal::inv_logit(x)`` (``stats::plogis``).

    Examples
    --------
    >>> inv_logit([0.0])
    array([0.5])
    """
    arr = as_numeric_vector(x, arg="x")
    return expit(arr)


def binary_inputs(p, y):
    """The checks of probcal's binary metrics, in R's order; returns float p and int y."""
    p_arr = check_probability(p, arg="p")
    y_arr = check_binary_y(y, arg="y")
    check_same_length(p_arr.ravel(), y_arr, x_arg="p", y_arg="y")
    return p_arr.ravel(), y_arr


def confidence_pair(p_mat: np.ndarray, y):
    """Top-label confidence and correctness (first maximal column wins ties)."""
    labels = multiclass_labels(p_mat, y, x_arg="p")
    predicted = np.argmax(p_mat, axis=1)
    confidence = p_mat[np.arange(p_mat.shape[0]), predicted]
    correct = (predicted + 1 == labels.codes).astype(np.int64)
    return confidence, correct


def _bin_sums(p: np.ndarray, y: np.ndarray, bins: int, strategy: str):
    breaks, n_bins, bin_idx = assign_bins(p, bins, strategy)
    counts = np.bincount(bin_idx, minlength=n_bins)
    sum_p = np.bincount(bin_idx, weights=p, minlength=n_bins)
    sum_y = np.bincount(bin_idx, weights=y, minlength=n_bins)
    return breaks, counts, sum_p, sum_y


def binned_error(counts, sum_p, sum_y, kind: str, debiased: bool = False):
    """A binned metric from per-bin counts and sums (works on the last axis, so
    bootstrap replicates can be stacked along the first).

    ``kind`` is ``"ece"``, ``"mce"`` or ``"ace"``. Empty bins are ignored.
    """
    counts = np.asarray(counts, dtype=np.float64)
    nonempty = counts > 0
    safe = np.where(nonempty, counts, 1.0)
    conf = sum_p / safe
    acc = sum_y / safe
    n_total = counts.sum(axis=-1, keepdims=kind == "ece")
    if kind == "ece":
        if debiased:
            denom = np.where(counts > 1, counts - 1, 1.0)
            term = (acc - conf) ** 2 - acc * (1 - acc) / denom
            term = np.where(counts > 1, term, 0.0)
        else:
            term = np.abs(acc - conf)
        weighted = np.where(nonempty, (counts / n_total) * term, 0.0)
        return weighted.sum(axis=-1)
    gap = np.where(nonempty, np.abs(acc - conf), np.nan)
    if kind == "mce":
        return np.nanmax(gap, axis=-1)
    if kind == "ace":
        return np.nanmean(gap, axis=-1)
    raise ValueError(f"unknown binned metric {kind!r}")


def _binary_metric(kind, p, y, bins, debiased=False, strategy="equal_width"):
    p_arr, y_arr = binary_inputs(p, y)
    bins = check_bins(bins)
    _, counts, sum_p, sum_y = _bin_sums(p_arr, y_arr.astype(np.float64), bins, strategy)
    return float(binned_error(counts, sum_p, sum_y, kind, debiased))


def _metric(kind, p, y, bins, type, debiased=False, strategy="equal_width"):
    if not is_matrix(p):
        return _binary_metric(kind, p, y, bins, debiased, strategy)
    # R evaluates match.arg(type) lazily, after the matrix check.
    p_mat = check_prob_matrix(p, arg="p")
    type = match_arg(type, MULTICLASS_TYPES)
    if type == "confidence":
        confidence, correct = confidence_pair(p_mat, y)
        return _binary_metric(kind, confidence, correct, bins, debiased, strategy)
    labels = check_multiclass_y(y, n_classes=p_mat.shape[1], arg="y")
    per_class = [
        _binary_metric(kind, p_mat[:, k], (labels.codes == k + 1).astype(np.int64),
                       bins, debiased, strategy)
        for k in range(p_mat.shape[1])
    ]
    return float(np.max(per_class)) if kind == "mce" else float(np.mean(per_class))


def ece(p, y, bins=10, type="classwise", debiased=False, strategy="equal_width"):
    """Expected calibration error.

    R equivalent: ``probcal::ece(p, y, bins = 10, type = c("classwise",
    "confidence"), debiased = FALSE, strategy = c("equal_width", "equal_freq"))``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bins : int
        Number of bins.
    type : {"classwise", "confidence"}
        Multiclass aggregation; ignored for binary input.
    debiased : bool
        If True, Kumar, Liang & Ma's debiased estimate of the *squared* l2
        calibration error (it can be negative).
    strategy : {"equal_width", "equal_freq"}
        Equal-width bins, or the equal-frequency bins of ``cal_histogram()``.

    Returns
    -------
    float

    Examples
    --------
    >>> print(f"{ece([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    strategy = match_arg(strategy, STRATEGIES)
    if not isinstance(debiased, (bool, np.bool_)):
        raise ProbcalError("Argument `debiased` must be `TRUE` or `FALSE`.")
    return _metric("ece", p, y, bins, type, bool(debiased), strategy)


def mce(p, y, bins=10, type="classwise"):
    """Maximum calibration error over non-empty equal-width bins.

    R equivalent: ``probcal::mce(p, y, bins = 10, type = c("classwise", "confidence"))``.

    Examples
    --------
    >>> print(f"{mce([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("mce", p, y, bins, type)


def ace(p, y, bins=10, type="classwise"):
    """Average (unweighted) calibration error over non-empty equal-width bins.

    R equivalent: ``probcal::ace(p, y, bins = 10, type = c("classwise", "confidence"))``.

    Examples
    --------
    >>> print(f"{ace([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2):.7g}")  # R prints [1] 0.15
    0.15
    """
    return _metric("ace", p, y, bins, type)


def bin_table(p, y, bins=10, strategy="equal_width"):
    """probcal's per-bin table (``bin_stats``): bin, lower, upper, n, confidence, accuracy, gap.

    R equivalent: probcal's internal ``bin_stats(p, y, bins)``. With
    ``strategy="equal_freq"`` the bins are those of ``ece(strategy =
    "equal_freq")`` (tied quantiles merge, so there may be fewer rows).
    """
    import pandas as pd

    p_arr, y_arr = binary_inputs(p, y)
    bins = check_bins(bins)
    breaks, counts, sum_p, sum_y = _bin_sums(p_arr, y_arr.astype(np.float64), bins, strategy)
    nonempty = counts > 0
    safe = np.where(nonempty, counts, 1)
    conf = np.where(nonempty, sum_p / safe, np.nan)
    acc = np.where(nonempty, sum_y / safe, np.nan)
    return pd.DataFrame({
        "bin": np.arange(1, counts.size + 1),
        "lower": breaks[:-1],
        "upper": breaks[1:],
        "n": counts.astype(np.int64),
        "confidence": conf,
        "accuracy": acc,
        "gap": np.abs(acc - conf),
    })


def mmce(p, y, bandwidth=0.2):
    """Maximum mean calibration error (Laplacian kernel, V-statistic).

    R equivalent: ``probcal::mmce(p, y, bandwidth = 0.2)``. Computed in
    O(n log n) time and O(n) memory; equals
    ``sqrt(max(skce(p, y, "biased", bandwidth, type = "confidence"), 0))``.

    Examples
    --------
    >>> from pycalib_r import set_seed, runif, rbinom
    >>> set_seed(31); p = runif(200); y = rbinom(200, 1, p)
    >>> print(f"{mmce(p, y):.7g}")  # R prints [1] 0.03170179
    0.03170179
    """
    bandwidth = check_bandwidth(bandwidth, allow_median=False)
    if is_matrix(p):
        p_mat = check_prob_matrix(p, arg="p")
        confidence, correct = confidence_pair(p_mat, y)
    else:
        confidence, correct = binary_inputs(p, y)
    from ._kernel import scalar_kernel_sum

    residual = correct - confidence
    value = scalar_kernel_sum(confidence, residual, bandwidth) / residual.size ** 2
    return float(np.sqrt(max(value, 0.0)))

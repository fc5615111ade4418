# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 help page of skce (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Kernel calibration error: ``skce()``, and the kernels behind it and the tests.

Contract section 3. Two kernel forms:

* scalar (binary input, and ``type = "confidence"``; also each column of
  ``"classwise"``): h_ij = e_i e_j exp(-|r_i - r_j| / h) with e = c - r
  (:mod:`pycalib_r.kernel._scalar`);
* canonical (matrix input): h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j> with
  u_i = onehot(y_i) - p_i (:mod:`pycalib_r.kernel._canonical`, compiled
  loops in :mod:`pycalib_r._native.kernel`).

The "median" bandwidth is the exact median of the pairwise distances
(:mod:`pycalib_r.kernel._median`). This module checks the input, resolves
the bandwidth and turns the kernel sums into the estimators.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from ..inputs._checks import check_bandwidth, is_matrix, match_arg
from ..rbase._errors import ProbcalError
from ..inputs._forms import input_form
from ._canonical import (  # noqa: F401 - re-exported
    CanonicalKernel,
    block_quadratic,
    canonical_pair_terms,
    canonical_residuals,
)
from ._median import median_canonical_distance, median_scalar_distance  # noqa: F401
from ._scalar import (  # noqa: F401 - re-exported
    ScalarKernel,
    batch_rows,
    scalar_kernel_sum,
    scalar_kernel_sum_batched,
    scalar_pair_terms,
    stable_argsort,
)
from ..rbase._rarith import quiet_fp, r_mean, r_sd
from ..inputs._hints import python_face
from ._quadratic import quadratic_warning

__all__ = [
    "skce",
    "scalar_kernel_sum",
    "scalar_kernel_sum_batched",
    "ScalarKernel",
    "CanonicalKernel",
    "kernels",
    "kernel_arrays",
    "estimate",
    "KernelData",
    "kernel_data",
    "resample_data",
    "form_data",
    "bind_skce",
    "median_scalar_distance",
    "median_canonical_distance",
    "resolve_bandwidth",
    "r_mean",
    "r_sd",
    "ESTIMATORS",
    "SKCE_TYPES",
]

ESTIMATORS = ("uq", "ul", "biased")
SKCE_TYPES = ("canonical", "confidence", "classwise")


def kernels(data: "KernelData", h) -> list:
    """The kernel of checked input: one, or K (one per class) for classwise."""
    if data.form == "classwise":
        return [ScalarKernel(data.p[:, k], (data.codes == k + 1).astype(np.float64) - data.p[:, k], h[k])
                for k in range(data.k)]
    a, b = kernel_arrays(data)
    return [(ScalarKernel if data.form in ("binary", "confidence") else CanonicalKernel)(a, b, h)]


def kernel_arrays(data: "KernelData"):
    """What the one kernel of a binary, confidence or canonical problem is
    built on: ``(r, e)`` with e = c - r, or ``(p, u)`` with u = onehot(y) - p."""
    if data.form in ("binary", "confidence"):
        return data.r, data.c - data.r
    return data.p, canonical_residuals(data.p, data.codes)


# ---------------------------------------------------------------------------
# Validated input and bandwidth.
# ---------------------------------------------------------------------------

class KernelData(NamedTuple):
    """Checked input of a kernel computation.

    ``form`` is "binary", "confidence", "canonical" or "classwise". Scalar
    forms carry ``r`` and ``c`` (0/1); matrix forms carry ``p`` and 1-based
    ``codes`` with ``k`` classes.
    """

    form: str
    n: int
    r: Optional[np.ndarray] = None
    c: Optional[np.ndarray] = None
    p: Optional[np.ndarray] = None
    codes: Optional[np.ndarray] = None
    k: int = 0


def kernel_data(p, y, type: str) -> KernelData:
    """R's input checks for the kernel functions, in R's order.

    ``type`` must already be matched; it is ignored for vector ``p``.
    """
    return form_data(input_form(p, y, type, types=None, same_rows=True))


def form_data(form) -> KernelData:
    """The kernel view of a checked :class:`~pycalib_r.inputs._forms.Form`."""
    if form.scalar:
        return KernelData(form.kind, form.n, r=form.r, c=form.c.astype(np.float64))
    return KernelData(form.kind, form.n, p=form.p, codes=form.codes, k=form.k)


def resample_data(data: KernelData, rows: np.ndarray) -> KernelData:
    """The checked input of one resample (0-based rows); classes are kept."""
    if data.form in ("binary", "confidence"):
        return data._replace(n=rows.size, r=data.r[rows], c=data.c[rows])
    return data._replace(n=rows.size, p=data.p[rows], codes=data.codes[rows])


def resolve_bandwidth(data: KernelData, bandwidth):
    """A float bandwidth (or, for classwise, one per class) from a checked bandwidth."""
    if bandwidth != "median":
        if data.form == "classwise":
            return [float(bandwidth)] * data.k
        return float(bandwidth)
    if data.form in ("binary", "confidence"):
        return median_scalar_distance(data.r)
    if data.form == "classwise":
        return [median_scalar_distance(data.p[:, k]) for k in range(data.k)]
    return median_canonical_distance(data.p)


def _too_few(estimator: str):
    raise ProbcalError(f'Estimator "{estimator}" needs at least two observations.')


def estimate(kern, estimator: str, progress: bool = False) -> float:
    """One kernel's SKCE estimate: uq, biased, or ul over the pairs (1, 2), (3, 4), ...."""
    n = kern.n
    if estimator == "ul":
        i = 2 * np.arange(n // 2)
        return r_mean(kern.pair_terms(i, i + 1))
    if estimator == "uq":
        return kern.offdiag(progress) / (n * (n - 1.0))
    return (kern.offdiag(progress) + kern.diag()) / float(n) ** 2


def skce_from_data(data: KernelData, h, estimator: str, progress: bool = False) -> float:
    """The SKCE estimate for checked input and a resolved bandwidth (with
    ``progress``, a long canonical sum shows a bar)."""
    if estimator in ("uq", "ul") and data.n < 2:
        _too_few(estimator)
    per = [estimate(kern, estimator, progress) for kern in kernels(data, h)]
    return per[0] if len(per) == 1 else r_mean(per)


@quadratic_warning  # outside the Python face, which collects warnings until the call returns
@python_face
@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def skce(p, y, estimator="uq", bandwidth=0.2, type="canonical", *, progress=True):
    r"""Squared kernel calibration error (Widmann, Lindsten & Zachariah 2019).

    R equivalent: ``probcal::skce(p, y, estimator = c("uq", "ul", "biased"),
    bandwidth = 0.2, type = c("canonical", "confidence", "classwise"))``.

    The SKCE is the squared norm of the calibration error in the RKHS of a
    matrix-valued kernel; with h_ij the kernel term of observations i and j,

    * scalar form (binary input, ``type = "confidence"``, and each class of
      ``"classwise"``): ``h_ij = e_i e_j exp(-|r_i - r_j| / h)``, with
      r the predicted probability (or top-label confidence), c the 0/1
      outcome (or "top label correct"), and e = c - r;
    * canonical form (matrix input): ``h_ij = exp(-||p_i - p_j|| / h)
      <u_i, u_j>`` with ``u_i = onehot(y_i) - p_i``.

    The three estimators are

    .. math::

        \widehat{\mathrm{SKCE}}_{uq} = \frac{1}{n(n-1)} \sum_{i \ne j} h_{ij},
        \qquad
        \widehat{\mathrm{SKCE}}_{b} = \frac{1}{n^2} \sum_{i, j} h_{ij},
        \qquad
        \widehat{\mathrm{SKCE}}_{ul} = \frac{1}{\lfloor n/2 \rfloor}
            \sum_{i=1}^{\lfloor n/2 \rfloor} h_{2i-1, 2i}:

    the quadratic unbiased U-statistic, the biased V-statistic (never
    negative; ``mmce`` is its square root for the top label), and the linear
    unbiased estimator over the disjoint pairs (1, 2), (3, 4), ... in the
    order given (O(n), and asymptotically normal, which ``cal_test(method =
    "asymptotic")`` uses). uq and ul are unbiased, so they can be negative
    for a calibrated model. ``"classwise"`` is the mean over classes of the
    one-vs-rest scalar SKCE.

    Relation to other conventions: for binary input this is half of
    CalibrationErrors.jl's SKCE for Bernoulli predictions with the same
    kernel on p (there the two-class residuals give <u_i, u_j> = 2 e_i e_j).
    The scalar sums are O(n log n) without an n x n matrix; the canonical one
    is O(n^2) in bounded tiles.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    estimator : {"uq", "ul", "biased"}
        Quadratic unbiased (pairs i != j), linear unbiased (disjoint pairs
        (1, 2), (3, 4), ...), or the biased V-statistic (all i, j).
    bandwidth : float or "median"
        Laplacian kernel bandwidth h, or R's ``median()`` of the positive
        pairwise distances of the form used (computed exactly).
    type : {"canonical", "confidence", "classwise"}
        Multiclass form; ignored for binary input.
    progress : bool
        Keyword-only, Python only. Show a progress bar on stderr (only when
        it is a terminal) for a long canonical sum: O(n^2) pairs, a bar from
        about 2^28 / K pairs (n of some ten thousand at K = 10).

    Returns
    -------
    float
        The estimate (uq and ul can be negative).

    References
    ----------
    Widmann, D., Lindsten, F., & Zachariah, D. (2019). Calibration tests in
    multi-class classification: A unifying framework. In *Advances in Neural
    Information Processing Systems 32* (NeurIPS 2019, pp. 12257-12267).

    Kumar, A., Sarawagi, S., & Jain, U. (2018). Trainable calibration
    measures for neural networks from kernel mean embeddings. In
    *Proceedings of the 35th International Conference on Machine Learning*
    (PMLR 80, pp. 2805-2814).

    Examples
    --------
    >>> print(f"{skce([0.2, 0.8, 0.6, 0.3], [0, 1, 1, 1]):.7g}")  # R prints [1] 0.0009443504
    0.0009443504
    """
    data, bandwidth, estimator = bind_skce(p, y, estimator, bandwidth, type)
    return float(skce_from_data(data, resolve_bandwidth(data, bandwidth), estimator,
                                progress=progress))


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def bind_skce(p, y, estimator="uq", bandwidth=0.2, type="canonical"):
    """``skce()``'s checks in R's order: ``(data, bandwidth, estimator)``, checked
    once for callers that reuse them (``cal_ci``)."""
    estimator = match_arg(estimator, ESTIMATORS)
    bandwidth = check_bandwidth(bandwidth, allow_median=True)
    if is_matrix(p):
        type = match_arg(type, SKCE_TYPES)
    return kernel_data(p, y, type), bandwidth, estimator

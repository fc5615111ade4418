# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: uncertainty-calibration 0.1.4 calibration/utils.py, calibration/calibrators.py (MIT), (c) 2019 Ananya Kumar
"""The l_p calibration error of Kumar, Liang & Ma (2019): plug-in and debiased.

Python-only (probcal has no counterpart). One binary problem is binned
with the shared binning code (:func:`pycalib_r.binned._binning.bin_groups`) and
R's per-bin means (:func:`pycalib_r.binned._rbins.bin_means`); the multiclass forms
aggregate the binary problems of :mod:`pycalib_r.inputs._forms`.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._binning import PY_STRATEGIES, bin_groups, is_python_bins
from ..inputs._checks import (_as_matrix, add_note, check_binary_y, check_bins, check_probability,
                      check_same_length, is_matrix, match_arg, multiclass_labels)
from ..rbase._errors import ProbcalError
from ..inputs._forms import confidence_pair
from ._metrics import binned_error
from ._rbins import bin_means

__all__ = ["calibration_error", "CE_TYPES", "problem_bins", "lp_terms", "check_ce_bins",
           "input_problems"]

CE_TYPES = ("marginal", "top", "classwise")
_MATRIX_MESSAGE = "Argument `p` must be a numeric matrix with one column per class."
# Normal draws held at once by the debiased l_p (8 MB).
_DRAWS = 1 << 20


def check_ce_bins(bins, strategy):
    """``bins`` (a whole number, a vector of edges, or ``"unique"``) and the
    matched ``strategy`` (one of :data:`~pycalib_r.binned._binning.PY_STRATEGIES`)."""
    strategy = match_arg(strategy, PY_STRATEGIES, arg="strategy")
    if isinstance(bins, str) and bins != "unique":
        err = ProbcalError(f'Argument `bins` must be a single positive integer, "unique", or a '
                           f'vector of bin edges, not "{bins}".')
        add_note(err, 'bins="unique" puts each distinct prediction in a bin of its own.')
        raise err
    if not is_python_bins(bins):
        bins = check_bins(bins)
    return bins, strategy


def problem_bins(r: np.ndarray, c: np.ndarray, bins, strategy: str):
    """One binary problem's occupied bins: ``(counts, conf, acc)`` (R's means)."""
    ids, n_ids, _ = bin_groups(r, bins, strategy)
    counts, conf, acc = bin_means(ids, r, c, n_ids)
    full = counts > 0
    return counts[full], conf[full], acc[full]


def _lp(weights, gaps, norm):
    """``(sum_b w_b |g_b|^p)^(1/p)`` along the last axis (the maximum for p = inf)."""
    gaps = np.abs(gaps)
    if math.isinf(norm):
        return np.max(gaps, axis=-1)
    return np.sum(weights * gaps ** norm, axis=-1) ** (1.0 / norm)


def lp_terms(counts, conf, acc, norm, debiased, stream=None, resamples=1000):
    """One binary problem's error on the aggregation scale.

    Returns ``E^p`` (``E`` itself for the maximum) where ``E`` is the plug-in
    error; for ``debiased`` and ``p = 2`` the unbiased estimate of ``E^2``
    (which can be negative); for ``debiased`` and another ``p``, ``max(2 E -
    mean(E*), 0)^p``, with ``E*`` the errors of ``resamples`` normal draws of
    the bins' label means (Kumar et al.'s correction), drawn from ``stream``.
    """
    n = counts.sum()
    w = counts / n
    gap = acc - conf
    # ece()'s own arithmetic (R's) where the definitions are ece's and mce's.
    if debiased and norm == 2:
        return float(binned_error(counts, conf, acc, "ece", True))
    if not debiased and norm in (1, math.inf):
        return float(binned_error(counts, conf, acc, "ece" if norm == 1 else "mce"))
    plug = float(_lp(w, gap, norm))
    if not debiased:
        return plug ** norm
    if np.any(counts < 2):
        err = ProbcalError("Every bin must hold at least 2 predictions for the debiased "
                           f"l{'_inf' if math.isinf(norm) else format(norm, 'g')} estimate.")
        add_note(err, "Use fewer bins, or debiased=False (the plug-in estimate).")
        raise err
    sd = np.sqrt(acc * (1 - acc) / counts)
    b = counts.size
    # R's rnorm(b * resamples, rep(acc, resamples), rep(sd, resamples)), drawn
    # in whole resamples of at most _DRAWS values (the same stream, bounded memory).
    step = max(1, _DRAWS // b)
    total = 0.0
    for start in range(0, resamples, step):
        m = min(step, resamples - start)
        draws = np.asarray(stream.rnorm(b * m, mean=np.tile(acc, m), sd=np.tile(sd, m)),
                           dtype=np.float64)
        total += float(np.sum(_lp(w, draws.reshape(m, b) - conf, norm)))
    est = max(2.0 * plug - total / resamples, 0.0)
    return est if math.isinf(norm) else est ** norm


def _check_norm(norm):
    if isinstance(norm, str) and norm in ("max", "inf"):
        return math.inf
    if (isinstance(norm, numbers.Real) and not isinstance(norm, (bool, np.bool_))
            and not math.isnan(norm) and norm >= 1):
        return float(norm)
    err = ProbcalError("Argument `norm` must be a number >= 1, or `Inf` (the maximum).")
    add_note(err, 'norm=1 is the l1 (ECE-like) error, norm=2 the paper\'s l2, norm=math.inf or "max" the maximum.')
    raise err


def _check_flag(x, arg):
    if not isinstance(x, (bool, np.bool_)):
        raise ProbcalError(f"Argument `{arg}` must be `TRUE` or `FALSE`.")
    return bool(x)


def _check_weights(weights, k):
    if weights is None:
        return np.full(k, 1.0 / k)
    try:
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        w = None
    if w is None or w.size != k or not np.all(np.isfinite(w)) or np.any(w < 0):
        err = ProbcalError(f"Argument `weights` must hold {k} non-negative class weights.")
        add_note(err, f"One weight per column of `p`; equal weights 1/{k} are the default.")
        raise err
    return w


def input_problems(p, y, type, require_both: bool = False):
    """``(kind, problems, labels)``: the checked binary problems ``(r, c)``.

    A vector ``p`` is one binary problem (``kind`` None, ``labels`` None;
    ``require_both``: both classes must occur, as the calibrators require);
    a matrix (rows need not sum to one) gives one problem per column
    (``type`` marginal or classwise) or the top-label one (``"top"``).
    """
    if not is_matrix(p):
        r = check_probability(p, arg="p").ravel()
        c = check_binary_y(y, arg="y", require_both=require_both)
        check_same_length(r, c, x_arg="p", y_arg="y")
        return None, [(r, c)], None
    mat = _as_matrix(p, "p", _MATRIX_MESSAGE)
    if mat.shape[1] < 2:
        raise ProbcalError(_MATRIX_MESSAGE)
    check_probability(mat, arg="p")
    labels = multiclass_labels(mat, y, x_arg="p")
    if type == "top":
        return type, [confidence_pair(mat, y)], labels
    return type, [(mat[:, j], (labels.codes == j + 1).astype(np.int64))
                  for j in range(labels.k)], labels


def calibration_error(p, y, norm=2, bins=15, strategy="equal_mass", debiased=True,
                      type="marginal", weights=None, squared=False, resamples=1000, rng=None):
    r"""The l_p calibration error (Kumar, Liang & Ma 2019), plug-in or debiased.

    Python-only: probcal has no counterpart (its ``ece(debiased = TRUE)`` is
    the squared debiased l2 of one binning, see below).

    For a binary problem with predictions :math:`r_i`, labels :math:`c_i`,
    bins :math:`I_b` holding :math:`n_b` of the :math:`n` predictions, mean
    prediction :math:`\bar r_b` and label mean :math:`\bar c_b`, the plug-in
    l_p error is

    .. math:: \widehat{\mathrm{CE}}_p = \Big( \sum_b \frac{n_b}{n}
              \lvert \bar c_b - \bar r_b \rvert^p \Big)^{1/p},

    the maximum over occupied bins for :math:`p = \infty`. The debiased l2
    is the paper's closed form,

    .. math:: \widehat{\mathrm{CE}}_2^2 = \sum_{b:\, n_b > 1} \frac{n_b}{n}
              \Big[ (\bar c_b - \bar r_b)^2 - \frac{\bar c_b (1 - \bar c_b)}{n_b - 1} \Big]

    (``ece(p, y, debiased=True)`` with the same bins; ``squared=False``
    returns :math:`\sqrt{\max(\cdot, 0)}`). For another :math:`p` the
    debiased estimate is the paper's normal-resampling correction
    :math:`2 \widehat{\mathrm{CE}}_p - \frac1R \sum_r \widehat{\mathrm{CE}}_p^{*(r)}`,
    where resample :math:`r` replaces each :math:`\bar c_b` by a draw from
    :math:`N(\bar c_b, \bar c_b (1 - \bar c_b) / n_b)`; the draws come from
    the package's R-compatible stream (``rnorm``, one value per bin and
    resample, bins fastest), so ``set_seed`` reproduces them, and every
    occupied bin must hold at least two predictions.

    Multiclass (a matrix ``p``, one column per class; rows need not sum to
    one, as the outputs of marginal calibrators do not):

    - ``type="marginal"``: the paper's marginal error
      :math:`\big(\sum_k w_k \mathrm{CE}_{p,k}^p\big)^{1/p}` over the
      one-vs-rest problems (column :math:`k` against :math:`y = k`),
      :math:`w_k = 1/K` by default (``weights``). The debiased l2 sums the
      classes' unbiased squares before the root (the authors' package clips
      each class at 0 first: the two agree when no class is negative).
    - ``type="top"``: the paper's top-label error, the binary error of the
      largest probability (first maximal column on ties) against whether
      its class is right.
    - ``type="classwise"``: :math:`\sum_k w_k \mathrm{CE}_{p,k}`, the
      weighted mean of the per-class errors (``ece``'s classwise form for
      :math:`p = 1`).

    The paper's vocabulary: :math:`\ell_p`-CE is ``norm=p``; TCE is
    ``type="top", norm=2``; MCE (marginal) is ``type="marginal", norm=2``;
    "plug-in" is ``debiased=False``; uniform-mass binning is
    ``strategy="equal_mass"``; ``get_binning_ce`` (the error of a binned
    model) is ``bins="unique"``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix with one column per class.
    y : array_like
        0/1 labels (binary), or class codes ``1..K`` or a pandas Categorical.
    norm : float, default 2
        :math:`p \ge 1`, or ``math.inf`` (``"max"``) for the maximum.
    bins : int, array_like or "unique", default 15
        A number of bins (``strategy`` places them), a strictly increasing
        vector of edges covering the predictions (bins left-closed, the last
        closed), or ``"unique"``: one bin per distinct prediction.
    strategy : {"equal_mass", "equal_width", "equal_freq"}
        For a number of bins: the paper's uniform-mass bins (the sorted
        predictions cut into ``bins`` runs of sizes differing by at most one,
        edges at the midpoints between runs, as the authors'
        ``get_equal_bins``), equal widths (``ece``'s), or ``cal_histogram``'s
        type-8 quantile edges.
    debiased : bool, default True
    type : {"marginal", "top", "classwise"}
        Multiclass form; ignored for a vector ``p``.
    weights : array_like, optional
        Class weights :math:`w_k` (non-negative, one per column), used as
        given; default :math:`1/K`.
    squared : bool, default False
        With ``norm=2``: return the square (for ``debiased=True`` unclipped,
        so an unbiased estimate that can be negative).
    resamples : int, default 1000
        Normal resamples of the debiased l_p, p != 2.
    rng : None, int, RRandom or numpy.random.Generator
        The stream of those draws (default: the package's global R stream).

    Returns
    -------
    float

    Notes
    -----
    Binned estimates of a model with continuous outputs estimate the error
    of its binned version, a lower bound on its own error (Kumar et al.,
    Proposition 3.3); only for a model whose outputs take finitely many
    values (``bins="unique"``) do they estimate its error itself. The
    authors' bins are right-closed, these left-closed: a prediction equal to
    an edge is binned differently (with uniform-mass edges that needs ties
    across a cut).

    References
    ----------
    Kumar, A., Liang, P., & Ma, T. (2019). Verified uncertainty calibration.
    In *Advances in Neural Information Processing Systems 32* (NeurIPS 2019).

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(31)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> print(f"{pc.calibration_error(p, y, norm=2, bins=10, strategy='equal_width', squared=True):.7g}")
    0.006746506
    >>> print(f"{pc.ece(p, y, debiased=True):.7g}")
    0.006746506
    >>> print(f"{pc.calibration_error(p, y, norm=1, debiased=False):.7g}")
    0.1032028
    >>> pc.set_seed(1)
    >>> print(f"{pc.calibration_error(p, y, norm=1, bins=5):.7g}")
    0.06934484
    """
    type = match_arg(type, CE_TYPES, arg="type")
    norm = _check_norm(norm)
    debiased = _check_flag(debiased, "debiased")
    squared = _check_flag(squared, "squared")
    if squared and norm != 2:
        raise ProbcalError("Argument `squared` can be `TRUE` only with `norm = 2`.")
    bins, strategy = check_ce_bins(bins, strategy)
    resamples = check_bins(resamples, arg="resamples")
    kind, problems, labels = input_problems(p, y, type)
    k = labels.k if kind in ("marginal", "classwise") else 0
    if k == 0 and weights is not None:
        err = ProbcalError("Argument `weights` applies only to the marginal and classwise forms.")
        add_note(err, "Drop `weights`, or pass the probability matrix with type=\"marginal\".")
        raise err
    w = _check_weights(weights, k) if k else np.ones(1)
    stream = None
    if debiased and norm != 2:
        from .._rng import resolve_rng  # noqa: PLC0415
        from .._rng.stream._locking import holding  # noqa: PLC0415

        stream = resolve_rng(rng)
        with holding(stream):
            terms = np.array([lp_terms(*problem_bins(r, c, bins, strategy), norm, True, stream,
                                       resamples) for r, c in problems])
    else:
        terms = np.array([lp_terms(*problem_bins(r, c, bins, strategy), norm, debiased)
                          for r, c in problems])
    return _aggregate(terms, w, norm, type if k else "binary", squared)


def _aggregate(terms, w, norm, type, squared):
    inf = math.isinf(norm)
    if type == "classwise":
        per = terms if inf else np.maximum(terms, 0.0) ** (1.0 / norm)
        return float(np.sum(w * per))
    if inf:
        return float(np.max(terms[w > 0])) if type == "marginal" else float(terms[0])
    total = float(np.sum(w * terms))
    if squared:
        return total
    return max(total, 0.0) ** (1.0 / norm)

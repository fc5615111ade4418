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
import warnings

import numpy as np

from ._binning import PY_STRATEGIES, bin_groups, is_python_bins
from ..inputs._checks import (add_note, check_binary_y, check_bins, check_probability,
                      check_same_length, is_matrix, match_arg, multiclass_labels)
from ..inputs import as_matrix as _as_matrix
from ..rbase._errors import ProbcalError
from ..inputs._forms import confidence_pair
from ._metrics import binned_error
from ._rbins import bin_means
from ._weighted import weighted_auto_bins, weighted_problem_bins
from ..inputs._weights import check_weights
from ..inputs._hints import python_face

__all__ = ["calibration_error", "CE_TYPES", "problem_bins", "lp_terms", "check_ce_bins",
           "input_problems", "auto_bins", "AUTO_BINS"]

CE_TYPES = ("marginal", "top", "classwise")
_MATRIX_MESSAGE = "Argument `p` must be a numeric matrix with one column per class."
# Normal draws held at once by the debiased l_p (8 MB).
_DRAWS = 1 << 20
# Normal draws the debiased l_p makes at most (resamples x occupied bins, all
# classes): half a minute on a loaded machine, a bound on the call's time.
_MAX_DRAWS = 1 << 24
# The norms whose error is summed as E^p, exactly as in releases up to 0.2.x
# (their bits are kept); every other finite norm is computed scaled by the
# largest gap, so that |gap|^p cannot underflow (norm=1000) or overflow.
_PLAIN_NORMS = (1.0, 2.0)
# bins="auto": the number of uniform-mass bins of the authors'
# get_calibration_error when the predictions are not discrete
# (lower_bound_scaling_ce's num_bins=15).
AUTO_BINS = 15


def check_ce_bins(bins, strategy):
    """``bins`` (a whole number, a vector of edges, or ``"unique"``) and the
    matched ``strategy`` (one of :data:`~pycalib_r.binned._binning.PY_STRATEGIES`)."""
    strategy = match_arg(strategy, PY_STRATEGIES, arg="strategy")
    if isinstance(bins, str) and bins not in ("unique", "auto"):
        err = ProbcalError(f'Argument `bins` must be a single positive integer, "unique", "auto", '
                           f'or a vector of bin edges, not "{bins}".')
        add_note(err, 'bins="unique" puts each distinct prediction in a bin of its own; '
                      'bins="auto" does so when fewer than n/4 values are distinct, else uses '
                      f'{AUTO_BINS} bins (Kumar et al.\'s get_calibration_error).')
        raise err
    if not (isinstance(bins, str) and bins == "auto") and not is_python_bins(bins):
        bins = check_bins(bins, python_only=True)
    return bins, strategy


def auto_bins(columns, n: int):
    """``bins="auto"`` resolved as the authors' ``get_calibration_error`` does.

    ``"unique"`` when every column of the input (the vector, or each column
    of the matrix, whatever the form) holds fewer than ``n / 4`` distinct
    values (their ``is_discrete``/``enough_duplicates``), else
    :data:`AUTO_BINS` bins.
    """
    for x in columns:
        if np.unique(x).size >= n / 4.0:
            return AUTO_BINS
    return "unique"


def problem_bins(r: np.ndarray, c: np.ndarray, bins, strategy: str):
    """One binary problem's occupied bins: ``(counts, conf, acc)`` (R's means)."""
    ids, n_ids, _ = bin_groups(r, bins, strategy)
    counts, conf, acc = bin_means(ids, r, c, n_ids)
    full = counts > 0
    return counts[full], conf[full], acc[full]


def _lp(weights, gaps, norm):
    """``(sum_b w_b |g_b|^p)^(1/p)`` along the last axis (the maximum for p = inf).

    Norms other than 1 and 2 are computed as ``m (sum_b w_b (|g_b| / m)^p)^(1/p)``
    with ``m`` the largest gap, so that no power underflows or overflows.
    """
    gaps = np.abs(gaps)
    if math.isinf(norm):
        return np.max(gaps, axis=-1)
    if norm in _PLAIN_NORMS:
        return np.sum(weights * gaps ** norm, axis=-1) ** (1.0 / norm)
    top = np.max(gaps, axis=-1, keepdims=True)
    scale = np.where(top > 0, top, 1.0)
    return top[..., 0] * np.sum(weights * (gaps / scale) ** norm, axis=-1) ** (1.0 / norm)


def _signed_root(x, norm):
    """``sign(x) |x|^(1/p)``: the p-th root of a debiased sum that may be negative."""
    return np.sign(x) * np.abs(x) ** (1.0 / norm)


def lp_terms(counts, conf, acc, norm, debiased, stream=None, resamples=1000):
    """One binary problem's error on the aggregation scale.

    Returns ``E^p`` for ``p`` 1 or 2 and ``E`` itself for any other ``p``
    (the aggregation then scales by the largest error), where ``E`` is the
    plug-in error; for ``debiased`` and ``p = 2`` the unbiased estimate of
    ``E^2`` (which can be negative); for ``debiased`` and another ``p``,
    ``E`` is ``2 E - mean(E*)``, unclipped (negative when the correction
    exceeds the plug-in error), with ``E*`` the errors of ``resamples``
    normal draws of the bins' label means (Kumar et al.'s correction,
    their ``normal_debiased_ce``), drawn from ``stream``.
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
    scaled = norm not in _PLAIN_NORMS
    if not debiased:
        return plug if scaled else plug ** norm
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
    # Not clipped at 0: the authors' normal_debiased_ce returns 2 E - mean(E*) as it is.
    est = 2.0 * plug - total / resamples
    return est if scaled else est ** norm


def _check_draws(resamples: int, bins: int) -> None:
    """Refuse more than :data:`_MAX_DRAWS` normal draws, before drawing any."""
    draws = resamples * bins
    if draws > _MAX_DRAWS:
        err = ProbcalError(f"Argument `resamples` ({resamples}) times the {bins} occupied bins is "
                           f"{draws} normal draws, more than {_MAX_DRAWS} (2^24), the most the "
                           "debiased estimate makes.")
        add_note(err, "The authors use 1000 resamples, whose Monte Carlo error is already far "
                      "below the estimate's own; use fewer resamples (or fewer bins).")
        raise err


def resolve_named_rng(rng, arg: str = "rng"):
    """:func:`pycalib_r._rng.resolve_rng`, whose seed errors (R's "supplied
    seed is not a valid integer") gain a note naming the argument."""
    from .._rng import resolve_rng  # noqa: PLC0415

    try:
        return resolve_rng(rng)
    except ProbcalError as err:
        if f"`{arg}`" not in str(err):
            add_note(err, f"`{arg}` = {rng!r} is used as a seed: R's seeds are integers of at "
                          "most 2147483647 in absolute value.")
        raise


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
    """Kumar's class weights ``w_k`` (``class_weights``)."""
    if weights is None:
        return np.full(k, 1.0 / k)
    try:
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        w = None
    if w is None or w.size != k or not np.all(np.isfinite(w)) or np.any(w < 0):
        err = ProbcalError(f"Argument `class_weights` must hold {k} non-negative class weights.")
        add_note(err, f"One weight per column of `p`; equal weights 1/{k} are the default.")
        raise err
    return w


def input_problems(p, y, type, require_both: bool = False, bins=None, weights=None):
    """``(kind, problems, labels)``: the checked binary problems ``(r, c)``.

    A vector ``p`` is one binary problem (``kind`` None, ``labels`` None;
    ``require_both``: both classes must occur, as the calibrators require);
    a matrix (rows need not sum to one) gives one problem per column
    (``type`` marginal or classwise) or the top-label one (``"top"``).
    Given ``bins``, returns ``(kind, problems, labels, bins)`` with
    ``bins="auto"`` resolved on the input's columns (:func:`auto_bins`).
    Given ``weights`` too (observation weights, checked after the data),
    returns ``(kind, problems, labels, bins, w)``, ``"auto"`` resolved on the
    replicated sample (:func:`~pycalib_r.binned._weighted.weighted_auto_bins`).
    """
    out, columns = _problems_and_columns(p, y, type, require_both)
    if bins is None:
        return out
    w = None if weights is None else check_weights(weights, columns[0].size)
    if isinstance(bins, str) and bins == "auto":
        bins = (auto_bins(columns, columns[0].size) if w is None
                else weighted_auto_bins(columns, w, AUTO_BINS))
    return out + (bins,) if weights is None else out + (bins, w)


def _problems_and_columns(p, y, type, require_both: bool = False):
    if not is_matrix(p):
        r = check_probability(p, arg="p").ravel()
        c = check_binary_y(y, arg="y", require_both=require_both)
        check_same_length(r, c, x_arg="p", y_arg="y")
        return (None, [(r, c)], None), [r]
    mat = _as_matrix(p, "p", _MATRIX_MESSAGE)
    if mat.shape[1] < 2:
        raise ProbcalError(_MATRIX_MESSAGE)
    check_probability(mat, arg="p")
    labels = multiclass_labels(mat, y, x_arg="p")
    if type == "top":
        out = (type, [confidence_pair(mat, y)], labels)
    else:
        out = (type, [(mat[:, j], (labels.codes == j + 1).astype(np.int64))
                      for j in range(labels.k)], labels)
    return out, [mat[:, j] for j in range(mat.shape[1])]


def _class_weights_transition(weights, class_weights, p, y, type):
    """``(weights, class_weights)`` after the one-release transition of the old
    ``weights=`` (Kumar's class weights ``w_k``) to ``class_weights=``.

    The rule (stated in :func:`calibration_error` and the migration guide):
    ``weights`` is read as class weights, with a ``FutureWarning``, only when
    ``class_weights`` is not given, the form is marginal or classwise (a
    matrix ``p`` with K columns), ``weights`` has K values and the data do not
    have K rows; with K rows it is read as observation weights, also with a
    ``FutureWarning`` saying so. Every other ``weights`` is observation weights.
    """
    if weights is None or class_weights is not None or not is_matrix(p) or type == "top":
        return weights, class_weights
    k = np.shape(p)[1] if len(np.shape(p)) == 2 else None
    size = np.size(weights) if not isinstance(weights, (str, bytes)) else -1
    if k is None or size != k:
        return weights, class_weights
    n = np.shape(p)[0]
    if n != k:
        warnings.warn(
            "calibration_error(weights=) with one value per class is deprecated: `weights` now "
            "means observation weights (one per row, as R's glm); pass Kumar's class weights as "
            "`class_weights=` (read as such for this release).", FutureWarning, stacklevel=3)
        return None, weights
    warnings.warn(
        f"calibration_error(weights=) has {k} values and the data {n} rows: they are read as "
        "observation weights (one per row), no longer as class weights; pass "
        "`class_weights=` for Kumar's class weights w_k.", FutureWarning, stacklevel=3)
    return weights, class_weights


@python_face
def calibration_error(p, y, norm=2, bins=15, strategy="equal_mass", debiased=True,
                      type="marginal", weights=None, squared=False, resamples=1000, rng=None,
                      class_weights=None):
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
    occupied bin must hold at least two predictions. This estimate is not
    clipped at 0: it is negative when the correction exceeds the plug-in
    error (likely for a well-calibrated model and few predictions per
    bin), as the authors' ``normal_debiased_ce`` (called by
    ``lower_bound_scaling_ce(..., debias=True)`` and
    ``get_calibration_error(..., p != 2, debias=True)``) returns it; with
    the same draws the two agree to rounding (tests/suites/hostile/test_kumar_traps.py).
    The multiclass forms take its p-th power and root with its sign.
    Releases up to 0.2.x clipped each problem's estimate at 0 first; for
    that value, take ``max(value, 0)`` of each class's binary error.

    Multiclass (a matrix ``p``, one column per class; rows need not sum to
    one, as the outputs of marginal calibrators do not):

    - ``type="marginal"``: the paper's marginal error
      :math:`\big(\sum_k w_k \mathrm{CE}_{p,k}^p\big)^{1/p}` over the
      one-vs-rest problems (column :math:`k` against :math:`y = k`),
      :math:`w_k = 1/K` by default (``class_weights``). The debiased l2 sums the
      classes' unbiased squares before the root (the authors' package clips
      each class at 0 first: the two agree when no class is negative).
      For another debiased norm a negative class estimate counts with its
      sign (their ``_get_ce`` raises it to the power ``p`` as a float: the
      same for ``p = 1`` and odd whole ``p``; for an even ``p`` they drop
      the sign and for a fractional one they get NaN).
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
        :math:`p \ge 1`, or ``math.inf`` (``"max"``) for the maximum. Norms
        other than 1 and 2 are computed scaled by the largest gap,
        :math:`m (\sum_b w_b (|g_b| / m)^p)^{1/p}`, so a large :math:`p`
        (1000, where :math:`|g|^p` underflows) approaches the maximum
        instead of giving 0; norms 1 and 2 keep the unscaled sums (and
        their bits: ``ece``'s arithmetic).
    bins : int, array_like, "unique" or "auto", default 15
        A number of bins (``strategy`` places them), a strictly increasing
        vector of edges covering the predictions (bins left-closed, the last
        closed), ``"unique"``: one bin per distinct prediction, or
        ``"auto"``: the authors' ``get_calibration_error`` rule, ``"unique"``
        when every column of ``p`` (the vector, or each column of the
        matrix, whatever ``type``) holds fewer than :math:`n/4` distinct
        values (a binned model's outputs: their ``is_discrete``), else 15
        bins. With ties (rounded predictions, a random forest's) ``15`` and
        ``"auto"`` can differ widely: 15 uniform-mass bins lump distinct
        values together and estimate the error of a coarser model, while
        one bin per value estimates the model's own error. Python-only.
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
        Observation weights, one per row (R's ``glm`` prior weights),
        finite and non-negative with a positive sum (else a ``ProbcalError``
        naming ``weights``): a bin's count becomes its total weight, its
        means weighted means; a row of weight 0 changes nothing and a row of
        whole weight k counts as k copies (uniform-mass and equal-frequency
        edges, and ``"auto"``'s count of distinct values against ``W / 4``,
        are those of the copies). None (the default) is the unweighted code,
        bit for bit. **Changed in 0.3**: this argument was Kumar's class
        weights, now ``class_weights``. For one release a ``weights`` with
        one value per class (K of them, a matrix ``p`` of K columns, the
        marginal or classwise form, and ``class_weights`` not given) is still
        read as class weights, with a ``FutureWarning``, unless the data have
        exactly K rows: then it is read as observation weights, with a
        ``FutureWarning`` saying so.
    class_weights : array_like, optional
        Class weights :math:`w_k` (non-negative, one per column), used as
        given; default :math:`1/K`.
    squared : bool, default False
        With ``norm=2``: return the square (for ``debiased=True`` unclipped,
        so an unbiased estimate that can be negative).
    resamples : int, default 1000
        Normal resamples of the debiased l_p, p != 2. Their number times
        the occupied bins (summed over the classes) may be at most 2^24
        (16,777,216 normal draws, seconds to half a minute), so that the call's
        time is bounded; the authors use 1000.
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
    resamples = check_bins(resamples, arg="resamples", python_only=True)
    weights, class_weights = _class_weights_transition(weights, class_weights, p, y, type)
    if weights is None:
        kind, problems, labels, bins = input_problems(p, y, type, bins=bins)
        obs = None
    else:
        kind, problems, labels, bins, obs = input_problems(p, y, type, bins=bins, weights=weights)
    k = labels.k if kind in ("marginal", "classwise") else 0
    if k == 0 and class_weights is not None:
        err = ProbcalError("Argument `class_weights` applies only to the marginal and classwise forms.")
        add_note(err, "Drop `class_weights`, or pass the probability matrix with type=\"marginal\".")
        raise err
    w = _check_weights(class_weights, k) if k else np.ones(1)

    def bins_of(r, c):
        if obs is None:
            return problem_bins(r, c, bins, strategy)
        return weighted_problem_bins(r, c, obs, bins, strategy)

    if rng is not None and not (debiased and norm != 2):
        resolve_named_rng(rng)  # not drawn from here, but a bad `rng` is not ignored
    if debiased and norm != 2:
        from .._rng.stream._locking import holding  # noqa: PLC0415

        binned = [bins_of(r, c) for r, c in problems]
        _check_draws(resamples, sum(b[0].size for b in binned))
        stream = resolve_named_rng(rng)
        with holding(stream):
            terms = np.array([lp_terms(*b, norm, True, stream, resamples) for b in binned])
    else:
        terms = np.array([lp_terms(*bins_of(r, c), norm, debiased) for r, c in problems])
    return _aggregate(terms, w, norm, type if k else "binary", squared)


def _aggregate(terms, w, norm, type, squared):
    """The problems' ``terms`` (:func:`lp_terms`) as one error.

    A debiased term (any norm but 2) may be negative; it is used as it is,
    as the authors' ``_get_ce`` does, with the p-th power and root taken
    with the sign (for the marginal form of a norm other than 1 their
    ``ce ** p`` drops the sign for an even ``p`` and gives NaN for a
    fractional one; the signed power equals theirs wherever every class's
    estimate is non-negative).
    """
    inf = math.isinf(norm)
    scaled = not inf and norm not in _PLAIN_NORMS
    if type == "classwise":
        if inf or scaled or norm == 1:
            per = terms
        else:
            per = np.maximum(terms, 0.0) ** (1.0 / norm)
        return float(np.sum(w * per))
    if inf:
        return float(np.max(terms[w > 0])) if type == "marginal" else float(terms[0])
    if scaled:
        if type != "marginal":
            return float(terms[0])
        # (sum_k w_k s_k |E_k|^p)^(1/p), scaled by the largest |E_k|.
        top = float(np.max(np.abs(terms[w > 0]))) if np.any(w > 0) else 0.0
        if top == 0.0:
            return 0.0
        mean = float(np.sum(w * np.sign(terms) * (np.abs(terms) / top) ** norm))
        return top * float(_signed_root(mean, norm))
    total = float(np.sum(w * terms))
    if squared:
        return total
    if norm == 1:
        return total
    return max(total, 0.0) ** (1.0 / norm)

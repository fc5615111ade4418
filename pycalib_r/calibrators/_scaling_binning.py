# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: uncertainty-calibration 0.1.4 calibration/utils.py, calibration/calibrators.py (MIT), (c) 2019 Ananya Kumar
"""The scaling-binning calibrator of Kumar, Liang & Ma (2019).

Python-only (probcal has no counterpart). A scaling step (one of the
package's scaling calibrators, fitted by its own code), then uniform-mass
bins of the scaled outputs (:func:`pycalib_r.binned._binning.equal_mass_edges`),
then each bin's value is R's ``mean()`` of the scaled outputs in it
(:func:`pycalib_r.binned._rbins.bin_means`).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..binned._binning import equal_mass_edges, find_bins
from ..binned._calibration_error import input_problems, resolve_named_rng
from ..inputs._checks import (
    ProbcalError,
    add_note,
    check_bins,
    check_probability,
    is_matrix,
    match_arg,
)
from ..inputs import as_matrix as _as_matrix
from ..binned._rbins import bin_means
from ._base import MULTICLASS, Calibrator, as_character, format_call, new_calibrator, renormalize_rows
from ._seeding import seeded_stream
from ..inputs._weights import check_weights
from ..inputs._hints import python_face

__all__ = ["cal_scaling_binning", "CalScalingBinning", "SCALING_METHODS", "SB_TYPES"]

# The scaling step: a logistic regression on the logits (the authors'
# Platt scaling: 0/1 targets, logits clipped at 1e-12), probcal's Platt
# scaling (Platt's targets) on the logits, binary temperature scaling on the
# logits, beta calibration on the probabilities, or none (the binning step
# alone, on the given probabilities).
SCALING_METHODS = ("logistic", "platt", "temperature", "beta", "none")
_AUTHORS_EPS = 1e-12
SB_TYPES = ("marginal", "top")
_SPLITS = {"none": None, "paper": (1 / 3, 1 / 3, 1 / 3)}
_MATRIX_MESSAGE = "Argument `p` must be a numeric matrix with one column per class."


def _fit_scaler(method, p, y, w=None):
    """The scaling step fitted on probabilities ``p`` against 0/1 ``y`` (None:
    identity), with observation weights ``w`` when given."""
    if method == "none":
        return None
    from ..binned._metrics import logit

    if method == "logistic":
        from ._platt import _platt_calibrator, design_matrix, glm_binomial
        if w is not None:
            from ._weighted import require_weighted_classes
            require_weighted_classes(y, w, (0, 1))
        fit = glm_binomial(design_matrix([logit._plain(p, eps=_AUTHORS_EPS)]), y.astype(np.float64),
                           ["(Intercept)", "x"], warn=False, weights=w)
        return _platt_calibrator(fit, y.size, 1.0, 0.0)
    if method == "platt":
        from ._platt import cal_platt
        return cal_platt._plain(logit._plain(p), y, weights=w)
    if method == "temperature":
        from ._temperature import cal_temperature
        return cal_temperature._plain(logit._plain(p), y, weights=w)
    from ._beta import cal_beta
    return cal_beta._plain(p, y, weights=w)


def _check_spread(method, r, column):
    """Refuse a ``p`` the scaling step cannot fit: constant, so its slope is undefined.

    R's ``glm`` would give an ``NA`` slope and every scaled output ``NA``;
    the step's input is named instead (``column``: the class, for a matrix).
    """
    if method not in ("logistic", "platt", "beta") or r.size == 0:
        return
    from ..binned._metrics import logit

    eps = _AUTHORS_EPS if method == "logistic" else np.finfo(np.float64).eps
    x = r if method == "beta" else logit._plain(r, eps=eps)
    if np.any(x != x[0]):
        return
    where = "" if column is None else f" (column {column})"
    how = (f"is constant ({format(float(r[0]), '.7g')})" if np.all(r == r[0]) else
           f"is constant on the logit scale (clipped at {format(eps, '.3g')})")
    err = ProbcalError(f"Argument `p`{where} {how} in the rows of the scaling step: the "
                       f"{method} scaling step cannot fit a slope to it.")
    add_note(err, 'A constant prediction carries nothing to scale: pass predictions that vary, '
                  'or scaling="none" (the binning step alone).')
    raise err


def _scale(scaler, method, p):
    if scaler is None:
        return np.asarray(p, dtype=np.float64)
    if method in ("logistic", "platt", "temperature"):
        from ..binned._metrics import logit

        eps = _AUTHORS_EPS if method == "logistic" else np.finfo(np.float64).eps
        return np.asarray(scaler._predict(logit._plain(p, eps=eps)), dtype=np.float64)
    return np.asarray(scaler._predict(p), dtype=np.float64)


def _bin_step(z_edges, z_means, bins, w_edges=None, w_means=None):
    """Uniform-mass edges of ``z_edges``; each bin's R mean of ``z_means`` in it.

    An empty bin (possible only when the two sets differ) takes the midpoint
    of its edges, as the authors' ``get_discrete_calibrator`` does. With
    weights (both given): the weighted edges and weighted means of
    :mod:`._weighted`, ``counts`` the bins' total weights.
    """
    if w_edges is not None:
        from ._weighted import weighted_equal_mass_edges
        edges = weighted_equal_mass_edges(z_edges, w_edges, bins)
        ids = find_bins(z_means, edges)
        counts = np.bincount(ids, weights=w_means, minlength=edges.size - 1)
        sums = np.bincount(ids, weights=w_means * z_means, minlength=edges.size - 1)
        means = np.full(edges.size - 1, np.nan)
        full = counts > 0
        means[full] = sums[full] / counts[full]
        empty = ~full
        means[empty] = (edges[:-1][empty] + edges[1:][empty]) / 2.0
        return edges, means, counts
    edges = equal_mass_edges(z_edges, bins)
    ids = find_bins(z_means, edges)
    counts, means, _ = bin_means(ids, z_means, np.zeros(z_means.size, dtype=np.int64),
                                 edges.size - 1)
    empty = counts == 0
    means[empty] = (edges[:-1][empty] + edges[1:][empty]) / 2.0
    return edges, means, counts


class CalScalingBinning(Calibrator):
    """A fitted scaling-binning calibrator (class ``c("cal_scaling_binning", "calibrator")``,
    with ``"cal_multiclass"`` for the marginal form).

    Components: ``method``, ``n``, ``input``, ``bins``, ``scaling``,
    ``split`` (fractions, or None for all rows in every step), ``type``
    (None for binary input), ``scalers``, ``breaks``, ``bin_values`` and
    ``counts`` (one per binary problem: per class for the marginal form),
    ``renormalize``, then ``k`` and ``levels`` (matrix input), ``call``.
    """

    r_class = "cal_scaling_binning"

    def _map(self, j, p):
        z = _scale(self.scalers[j], self.scaling, p)
        return self.bin_values[j][find_bins(z, self.breaks[j])]

    def _predict(self, newdata):
        if self.type is None:
            return self._map(0, check_probability(newdata, arg="newdata").ravel())
        mat = _as_matrix(newdata, "newdata", "Argument `newdata` must be a numeric matrix with "
                                             "one column per class.")
        if mat.shape[1] != self.k:
            raise ProbcalError(f"Argument `newdata` must have {self.k} columns.")
        check_probability(mat, arg="newdata")
        if self.type == "top":
            return self._map(0, mat.max(axis=1))
        out = np.column_stack([self._map(j, mat[:, j]) for j in range(self.k)])
        if self.renormalize:
            return renormalize_rows(out)
        return out

    def summary_params(self):
        out = {"Scaling": self.scaling, "Bins": as_character(int(self.bins)),
               "Split": "none" if self.split is None else
               "/".join(format(f, ".4g") for f in self.split)}
        if self.type is not None:
            out["Type"] = self.type
        return out


def _check_split(split):
    if isinstance(split, str) and split in _SPLITS:
        return _SPLITS[split]
    try:
        f = np.asarray(split, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        f = None
    if f is None or f.size != 3 or not np.all(np.isfinite(f)) or np.any(f <= 0):
        err = ProbcalError('Argument `split` must be "none", "paper", or three positive fractions.')
        add_note(err, 'split="paper" is (1/3, 1/3, 1/3): rows for the scaling fit, the bin edges '
                      'and the bin means; split="none" uses every row in every step.')
        raise err
    return tuple(float(v) for v in f / f.sum())


def _parts(n, split, seed, rng):
    """Row sets for the three steps (all rows in each when ``split`` is None)."""
    if split is None:
        every = np.arange(n)
        return every, every, every
    from .. import _rng
    from .._rng.stream._locking import holding

    stream = seeded_stream(seed, rng) if seed is not None else resolve_named_rng(rng)
    with holding(stream):
        perm = np.asarray(stream.sample_int(n, n), dtype=np.int64) - 1
    a = int(round(n * split[0]))
    b = a + int(round(n * split[1]))
    parts = perm[:a], perm[a:b], perm[b:]
    if min(part.size for part in parts) == 0:
        err = ProbcalError(f"Argument `split` leaves a part with no rows: each part of the split "
                           f"must hold rows, and {n} rows are too few for it.")
        add_note(err, 'Use more rows, fractions nearer one another, or split="none" (every row in '
                      'every step).')
        raise err
    return parts


def _problems(p, y, type):
    """``(kind, problems, labels)``: the checked binary problems of the input
    (:func:`~pycalib_r.binned._calibration_error.input_problems`), each with both classes."""
    # Matched for a vector too (where it is not used), so a bad value is not ignored.
    type = match_arg(type, SB_TYPES, arg="type")
    kind, problems, labels = input_problems(p, y, type, require_both=True)
    if kind == "top" and problems[0][1].min() == problems[0][1].max():
        raise ProbcalError("The top-label form needs both right and wrong top predictions.")
    if kind == "marginal" and np.unique(labels.codes).size != labels.k:
        raise ProbcalError("Every class must appear in `y` for one-vs-rest calibration.")
    return kind, problems, labels


@python_face
def cal_scaling_binning(p, y, bins=10, type=SB_TYPES, scaling=SCALING_METHODS, split="none",
                        renormalize=False, seed=None, rng=None, weights=None) -> CalScalingBinning:
    r"""Scaling-binning calibration (Kumar, Liang & Ma 2019), binary or multiclass.

    Python-only: probcal has no counterpart.

    The paper's algorithm on recalibration data split into :math:`T_1,
    T_2, T_3`:

    1. fit a scaling map :math:`g` on :math:`T_1` (``scaling``: by default
       the paper's Platt scaling, a logistic regression of the labels on
       the logits :math:`\mathrm{logit}(p)`, :math:`g(p) =
       \sigma(a + b\,\mathrm{logit}(p))`);
    2. cut the scaled outputs :math:`g(p_i), i \in T_2`, into ``bins``
       uniform-mass bins (sorted values in runs of sizes differing by at
       most one, edges at the midpoints between runs, as the authors'
       ``get_equal_bins``);
    3. give bin :math:`I_j` the mean of the scaled outputs of
       :math:`T_3` in it, :math:`\hat\mu_j = \frac{1}{|T_3 \cap I_j|}
       \sum_{i \in T_3 \cap I_j} g(p_i)`, and predict
       :math:`\hat\mu_{j(g(p))}`.

    The output takes at most ``bins`` values (per class), so its
    calibration error can be estimated (:func:`calibration_error` with
    ``bins="unique"``), unlike a scaling method's; averaging scaled outputs
    instead of labels gives it lower variance than histogram binning.

    Data split (``split``): ``"none"``, the default, uses every row in every
    step, as the authors' package (``PlattBinnerCalibrator``) and the
    paper's experiments do; ``"paper"`` or three positive fractions gives
    the disjoint split the paper's analysis assumes, the rows permuted by
    R's ``sample.int(n)`` on the package's stream (``seed``/``rng`` as in
    :func:`cal_cv`). The default keeps each step's data largest; the split
    makes the bin means independent of the bins, which the verification
    guarantee needs. docs/verified_calibration.md measures both.

    Multiclass (a matrix ``p``): ``type="marginal"`` fits one
    scaling-binning map per class (column :math:`k` against :math:`y = k`)
    and returns the K outputs without renormalising them (``renormalize``):
    dividing by the row sum mixes the classes' maps, and the rows then take
    many values, so their calibration error can no longer be measured,
    only bounded below (``cal_ovr``'s R behaviour; see its ``renormalize``
    switch). ``type="top"`` calibrates the top-label
    probability against correctness and returns a vector.

    Parameters
    ----------
    p : array_like
        Probabilities: a vector (binary), or a matrix with one column per class.
    y : array_like
        0/1 labels, or class codes ``1..K`` or a pandas Categorical.
    bins : int, default 10
    type : {"marginal", "top"}
        Multiclass form; ignored for a vector ``p``.
    scaling : {"logistic", "platt", "temperature", "beta", "none"}
        The scaling step: the authors' Platt scaling (R's ``glm`` of the 0/1
        labels on ``logit(p)``, the logits clipped at 1e-12 as theirs), probcal's
        ``cal_platt(logit(p), y)`` (Platt's smoothed targets),
        ``cal_temperature(logit(p), y)``, ``cal_beta(p, y)``, or none.
    split : {"none", "paper"} or three fractions
    renormalize : bool, default False
        Marginal form only: divide each output row by its sum.
    seed, rng
        The permutation of a split, as ``cal_cv()``'s folds.
    weights : array_like, optional
        Observation weights (finite, non-negative, positive sum; else a
        ``ProbcalError`` naming ``weights``), following each row into the
        parts of a split: the scaling step is the weighted fit (see
        ``scaling``'s calibrator), the uniform-mass edges are those of the
        sample with ``w_i`` copies of each scaled output (order statistics
        from the cumulative weights), each bin's value the weighted mean
        ``sum(w z) / sum(w)`` and ``counts`` the bins' total weights. A row
        of weight 0 changes nothing, a row of integer weight ``k`` counts as
        ``k`` copies (edges exactly; values to the scaling fit's tolerance);
        with a split the permutation is drawn over rows, as without weights.
        ``None`` (the default) is the unweighted fit, bit for bit.

    Returns
    -------
    CalScalingBinning
        ``predict(fit, newdata)`` gives the calibrated probabilities (n x K
        for the marginal form, a vector for the top-label one); a Dask
        collection is mapped lazily for the binary and marginal forms.

    Notes
    -----
    Differences from the authors' package: their Platt step is scikit-learn's
    ``LogisticRegression(C=1e10)`` (L-BFGS, stopped at its tolerance, with a
    ridge of 1e-10) on logits clipped at 1e-12 with 0/1 targets; here it is
    R's ``glm`` IRLS to convergence on the same logits and targets, so the
    two agree to the optimisers' tolerance, not to the last digit. Their bins
    are right-closed, these left-closed (a scaled output equal to an edge,
    a midpoint between two fitted outputs, maps to the upper bin here).

    References
    ----------
    Kumar, A., Liang, P., & Ma, T. (2019). Verified uncertainty calibration.
    In *Advances in Neural Information Processing Systems 32* (NeurIPS 2019).

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(5)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p ** 2)
    >>> fit = pc.cal_scaling_binning(p, y, bins=5)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: scaling-binning (logistic)
    Observations: 300
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Scaling: logistic
    Bins: 5
    Split: none
    >>> print(" ".join(f"{v:.7g}" for v in fit.bin_values[0]))
    0.009431822 0.05776953 0.1832795 0.4948764 0.8713094
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [0.1, 0.5, 0.9])))
    0.009431822 0.1832795 0.8713094

    The authors' ``PlattBinnerCalibrator(300, 5)`` trained on ``p, y``
    gives the same map up to its Platt fit's L-BFGS tolerance (here within
    2e-4; tests/binned/test_kumar_crosscheck.py).
    """
    kind, problems, labels = _problems(p, y, type)
    bins_given, scaling_given, split_given = bins, scaling, split
    bins = check_bins(bins, python_only=True)
    scaling = match_arg(scaling, SCALING_METHODS, arg="scaling")
    split = _check_split(split)
    if not isinstance(renormalize, (bool, np.bool_)):
        raise ProbcalError("Argument `renormalize` must be `TRUE` or `FALSE`.")
    if seed is not None and (not isinstance(seed, numbers.Integral)
                             or isinstance(seed, (bool, np.bool_))):
        raise ProbcalError("Argument `seed` must be a single whole number.")
    if seed is not None and not -2147483647 <= seed <= 2147483647:
        err = ProbcalError("Argument `seed` must be a single whole number of at most "
                           "2147483647 in absolute value.")
        add_note(err, "R's seeds are integers (set.seed's range).")
        raise err
    if rng is not None:
        # Checked even when no split draws from it: a bad `rng` is not ignored.
        resolve_named_rng(rng)
    n = problems[0][0].size
    w = check_weights(weights, n)
    fit_rows, edge_rows, mean_rows = _parts(n, split, seed, rng)
    scalers, breaks, values, counts = [], [], [], []
    for r, c in problems:
        if split is not None and c[fit_rows].min() == c[fit_rows].max():
            raise ProbcalError("The scaling part of the split holds one class only; "
                               "use more rows or split=\"none\".")
        w_fit = None if w is None else w[fit_rows]
        # Rows of weight 0 take no part in the spread check either.
        _check_spread(scaling, r[fit_rows] if w is None else r[fit_rows][w_fit > 0],
                      None if kind != "marginal" else len(scalers) + 1)
        scaler = _fit_scaler(scaling, r[fit_rows], c[fit_rows], w_fit)
        try:
            z = _scale(scaler, scaling, r)
        except ProbcalError as e:
            # R's inv_logit() check on the scaler's NA output: not the caller's `x`.
            if "missing values" not in str(e):
                raise
            z = None
        if z is None or not np.all(np.isfinite(z)):
            err = ProbcalError(f"The {scaling} scaling step fitted on `p` gives missing values "
                               "(a coefficient R's glm leaves NA).")
            add_note(err, 'Its predictions hardly vary once clipped: pass predictions that vary, '
                          'or scaling="none" (the binning step alone).')
            raise err
        if w is None:
            edges, means, cnt = _bin_step(z[edge_rows], z[mean_rows], bins)
        else:
            edges, means, cnt = _bin_step(z[edge_rows], z[mean_rows], bins, w[edge_rows], w[mean_rows])
        scalers.append(scaler)
        breaks.append(edges)
        values.append(means)
        counts.append(cnt)
    extra = {}
    classes = ("cal_scaling_binning", "calibrator")
    if kind is not None:
        extra = {"k": labels.k, "levels": list(labels.levels)}
    if kind == "marginal":
        classes = ("cal_scaling_binning",) + MULTICLASS
    return new_calibrator(
        CalScalingBinning,
        method=f"scaling-binning ({scaling})",
        n=n,
        input="probabilities" if kind is None else "probabilities (matrix)",
        bins=bins,
        scaling=scaling,
        split=split,
        type=kind,
        scalers=scalers,
        breaks=breaks,
        bin_values=values,
        counts=counts,
        renormalize=bool(renormalize),
        **extra,
        call=format_call("cal_scaling_binning", ("p", "y") if w is None else ("p", "y", "weights"),
                         bins=None if bins_given == 10 else bins_given,
                         type=kind if kind is not None and not isinstance(type, tuple) else None,
                         scaling=scaling_given if isinstance(scaling_given, str) else None,
                         split=split_given if isinstance(split_given, str) and split_given != "none"
                         else None),
        _r_classes=classes,
    )

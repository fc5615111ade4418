# SPDX-License-Identifier: GPL-3.0-or-later
# Written from: Vovk & Petej (2014), Venn-Abers predictors (UAI 2014); Vovk, Petej & Fedorova (2015), Large-scale probabilistic prediction with and without validity guarantees (NeurIPS 28, arXiv:1511.00213); Manokhin (2017), Multi-class probabilistic classification using inductive and cross Venn-Abers predictors (COPA 2017); Price, Knerr, Personnaz & Dreyfus (1995), pairwise coupling; the methods only, no code from the venn-abers package
"""Inductive and cross Venn-ABERS calibration (Python-only).

The fit keeps, for each calibration set, the distinct sorted scores and the
two isotonic fits F0, F1 at each of them (a test score tied with a
calibration score, labelled 0 or 1 and added to the calibration set). Both
come from one integer kernel (:func:`_bridge`, ``src/venn.c``): F1 on the
data, F0 as one minus F1 on the reversed data with flipped labels. A test
score then needs one binary search.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..binned._calibration_error import resolve_named_rng
from ..inputs._checks import (
    ProbcalError,
    add_note,
    check_binary_y,
    check_folds,
    check_newdata_columns,
    check_probability,
    check_same_length,
    is_matrix,
    match_arg,
    multiclass_labels,
)
from ..inputs import as_matrix as _as_matrix
from ..inputs._hints import python_face
from ..rbase._rlist import RList
from ._base import MULTICLASS, Calibrator, as_character, format_call, new_calibrator

__all__ = ["cal_venn_abers", "CalVennAbers", "VennAbersTable", "VA_TYPES", "VA_MULTICLASS"]

VA_TYPES = ("inductive", "cross")
VA_MULTICLASS = ("one_vs_one", "one_vs_rest")

# Distinct scores from which the C kernel is used (the Python twin's loop
# costs about a microsecond a score).
_NATIVE_MIN = 32
# Queries and thresholds from which the queries are sorted before the search.
_SORT_MIN = 4096


# ---------------------------------------------------------------------------
# The kernel and its twin
# ---------------------------------------------------------------------------

def _bridge_twin(X, Y):
    """``src/venn.c``'s two passes in Python, the same integers (the twin).

    ``X``, ``Y``: the cumulative sum diagram, ``k + 1`` int64 each
    (``X[0] = Y[0] = 0``). Returns int64 ``num``, ``den`` of ``k``:
    F1 at the i-th distinct score is ``num[i] / den[i]``.
    """
    X = [int(v) for v in X]
    Y = [int(v) for v in Y]
    k = len(X) - 1
    nx = [-1] * (k + 1)
    st: list = []
    for b in range(k, 0, -1):
        while len(st) >= 2:
            t1, t2 = st[-1], st[-2]
            if (X[t1] - X[b]) * (Y[t2] - Y[b]) - (Y[t1] - Y[b]) * (X[t2] - X[b]) > 0:
                break
            st.pop()
        nx[b] = st[-1] if st else -1
        st.append(b)
    num = np.empty(k, dtype=np.int64)
    den = np.empty(k, dtype=np.int64)
    st = []
    r = 1
    for i in range(1, k + 1):
        a = i - 1
        while len(st) >= 2:
            t1, t2 = st[-1], st[-2]
            if (X[t1] - X[t2]) * (Y[a] - Y[t2]) - (Y[t1] - Y[t2]) * (X[a] - X[t2]) > 0:
                break
            st.pop()
        st.append(a)
        r = max(r, i)
        while True:
            lo, hi = 0, len(st) - 1
            while lo < hi:
                mid = (lo + hi) // 2
                l0, l1 = st[mid], st[mid + 1]
                ux, uy = X[r] - X[l0] + 1, Y[r] - Y[l0] + 1
                vx, vy = X[l1] - X[l0], Y[l1] - Y[l0]
                if vy * ux < uy * vx:
                    lo = mid + 1
                else:
                    hi = mid
            left = st[lo]
            dy, dx = Y[r] - Y[left] + 1, X[r] - X[left] + 1
            b = nx[r]
            if b >= 0 and (Y[b] - Y[r]) * dx <= dy * (X[b] - X[r]):
                r = b
                continue
            break
        num[i - 1] = dy
        den[i - 1] = dx
    return num, den


def _bridge(X, Y):
    """:func:`_bridge_twin`'s integers, from the C kernel where it runs."""
    k = X.size - 1
    if k >= _NATIVE_MIN:
        from .. import _native  # noqa: PLC0415

        kern = _native.kernels("venn")
        if kern is not None:
            num = np.empty(k, dtype=np.int64)
            den = np.empty(k, dtype=np.int64)
            return kern.venn_bridge(np.ascontiguousarray(X, dtype=np.int64),
                                    np.ascontiguousarray(Y, dtype=np.int64), num, den)
    return _bridge_twin(X, Y)


def _grouped(p, y):
    """Distinct sorted scores, rows and ones per score (``p`` float64 in [0, 1], ``y`` 0/1)."""
    keys = (p + 0.0).view(np.uint64) << np.uint64(1)  # + 0.0: a -0 sorts as 0
    keys |= (y != 0).astype(np.uint64)
    keys.sort()
    ones = (keys & np.uint64(1)).astype(np.int64)
    scores = (keys >> np.uint64(1)).view(np.float64)
    starts = np.flatnonzero(np.concatenate(([True], scores[1:] != scores[:-1])))
    counts = np.diff(np.concatenate((starts, [scores.size])))
    return scores[starts], counts, np.add.reduceat(ones, starts)


def _diagram(counts, ones):
    X = np.zeros(counts.size + 1, dtype=np.int64)
    Y = np.zeros(counts.size + 1, dtype=np.int64)
    np.cumsum(counts, out=X[1:])
    np.cumsum(ones, out=Y[1:])
    return X, Y


class VennAbersTable(RList):
    """One inductive Venn-ABERS predictor: ``thresholds`` (the distinct
    calibration scores, increasing), ``p0`` and ``p1`` (F0, F1 at each) and
    ``n`` (its calibration rows). Python-only."""

    r_class = ("venn_abers_table",)

    def __init__(self, thresholds, p0, p1, n):
        self._set_components([("thresholds", thresholds), ("p0", p0), ("p1", p1), ("n", n)])

    def __repr__(self) -> str:
        return f"<VennAbersTable: n = {self.n}, {self.thresholds.size} distinct scores>"

    def pairs(self, v):
        """``(p0, p1)`` for test scores ``v``."""
        c = self.thresholds
        k = c.size
        if v.size >= _SORT_MIN and k >= _SORT_MIN:
            # Sorted queries walk the thresholds in order: a random-order
            # search misses the cache at every step (0.8 s against 0.3 s with
            # the sort, at 10^6 scores and queries).
            order = np.argsort(v)
            j = np.empty(v.size, dtype=np.intp)
            j[order] = np.searchsorted(c, v[order], side="left")
        else:
            j = np.searchsorted(c, v, side="left")
        at = np.minimum(j, k - 1)
        p1 = np.where(j < k, self.p1[at], 1.0)
        # searchsorted(side="right"): one further where the score is a threshold
        jr = j + ((j < k) & (c[at] == v))
        p0 = np.where(jr > 0, self.p0[np.maximum(jr - 1, 0)], 0.0)
        return p0, p1


def _ivap(p, y) -> VennAbersTable:
    """The inductive Venn-ABERS predictor calibrated on ``p``, ``y``."""
    scores, counts, ones = _grouped(p, y)
    X, Y = _diagram(counts, ones)
    num1, den1 = _bridge(X, Y)
    # F0 is one minus F1 of the mirror image (order reversed, labels flipped);
    # (den - num) / den is that difference as one rounded ratio.
    Xr, Yr = _diagram(counts[::-1], (counts - ones)[::-1])
    num0, den0 = _bridge(Xr, Yr)
    p1 = num1 / den1
    p0 = ((den0 - num0) / den0)[::-1].copy()
    return VennAbersTable(scores, p0, p1, int(p.size))


def _merge(tables, v):
    """``(merged, p0, p1)`` of test scores ``v`` over the calibration sets ``tables``.

    One set: ``p1 / (1 - p0 + p1)``. Several (cross): with ``G1`` the
    geometric mean of the p1s and ``G0`` that of the (1 - p0)s,
    ``G1 / (G0 + G1)``, and the pair ``(1 - G0, G1)`` (whose own merged value
    it is).
    """
    if len(tables) == 1:
        p0, p1 = tables[0].pairs(v)
        return p1 / (1 - p0 + p1), p0, p1
    pairs = [t.pairs(v) for t in tables]
    k = len(tables)
    g1 = np.prod(np.column_stack([q[1] for q in pairs]), axis=1) ** (1.0 / k)
    g0 = np.prod(np.column_stack([1 - q[0] for q in pairs]), axis=1) ** (1.0 / k)
    return g1 / (g0 + g1), 1 - g0, g1


def _ovo_score(mat, i, j):
    """The pair's binary score ``p_j / (p_i + p_j)``; 1/2 where both are 0."""
    s = mat[:, i] + mat[:, j]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = mat[:, j] / s
    out[s == 0] = 0.5
    return out


class CalVennAbers(Calibrator):
    """A fitted Venn-ABERS calibrator (class ``c("cal_venn_abers", "calibrator")``,
    with ``"cal_multiclass"`` for a matrix ``p``). Python-only.

    Components: ``method``, ``n``, ``input``, ``type``, ``folds`` (None for
    the inductive form), ``fold_id`` (cross), ``multiclass`` (None for
    binary input), ``problems`` (the binary problems: ``[(0, 1)]`` for binary
    input, class pairs or single classes, 0-based), ``tables`` (per problem,
    one :class:`VennAbersTable` per calibration set), then ``k`` and
    ``levels`` (matrix input), ``call``.
    """

    r_class = "cal_venn_abers"
    _row_data = ("fold_id",)

    @python_face
    def predict(self, newdata, interval: bool = False):
        """Calibrated probabilities for ``newdata``; with ``interval=True`` the (p0, p1) pairs.

        Python-only (:func:`cal_venn_abers`). ``interval=True`` gives, for a
        vector, an array of shape ``(m, 2)`` (columns p0, p1); for a matrix,
        shape ``(m, P, 2)`` with one pair per binary problem of ``problems``.
        """
        if not isinstance(interval, (bool, np.bool_)):
            raise ProbcalError("Argument `interval` must be `TRUE` or `FALSE`.")
        if not interval:
            return super().predict(newdata)
        return self._predict(newdata, interval=True)

    def _predict(self, newdata, interval=False):
        if self.multiclass is None:
            v = check_probability(newdata, arg="newdata").ravel(order="F")
            merged, p0, p1 = _merge(self.tables[0], v)
            return np.column_stack((p0, p1)) if interval else merged
        mat = _as_matrix(newdata, "newdata",
                         "Argument `newdata` must be a numeric matrix with one column per class.")
        check_newdata_columns(mat, self.k)
        check_probability(mat, arg="newdata")
        outs = []
        for (i, j), tables in zip(self.problems, self.tables):
            v = _ovo_score(mat, i, j) if self.multiclass == "one_vs_one" else mat[:, i]
            outs.append(_merge(tables, v))
        if interval:
            return np.stack([np.column_stack((o[1], o[2])) for o in outs], axis=1)
        if self.multiclass == "one_vs_one":
            out = _couple([o[0] for o in outs], self.problems, self.k, mat.shape[0])
        else:
            out = np.column_stack([o[0] for o in outs])
        return out / np.sum(out, axis=1).reshape(-1, 1)

    def summary_params(self):
        out = {"Type": self.type}
        if self.folds is not None:
            out["Folds"] = as_character(int(self.folds))
        if self.multiclass is not None:
            out["Multiclass"] = self.multiclass
        return out


def _couple(merged, problems, k, m):
    """Pairwise coupling (Price et al. 1995): class i's probability is
    ``1 / (sum_j 1 / q_{i|ij} - (K - 2))``, ``q_{i|ij}`` the pair's probability of i."""
    out = np.empty((m, k))
    with np.errstate(divide="ignore"):
        for c in range(k):
            terms = [1 - q for (i, _), q in zip(problems, merged) if i == c]
            terms += [q for (_, j), q in zip(problems, merged) if j == c]
            out[:, c] = 1 / (np.sum(np.hstack([(1 / t).reshape(-1, 1) for t in terms]), axis=1)
                             - (k - 2))
    return out


def _check_seed(seed):
    if seed is not None and (not isinstance(seed, numbers.Integral)
                             or isinstance(seed, (bool, np.bool_))):
        raise ProbcalError("Argument `seed` must be a single whole number.")


def _fold_ids(folds, codes, seed, rng):
    """``(folds, fold_id)``: R's stratified folds (``cal_cv()``'s), or the caller's fold labels."""
    if isinstance(folds, (list, tuple, np.ndarray)) and np.ndim(folds) == 1 and len(folds) == codes.size \
            and codes.size > 1:
        ids = np.asarray(folds)
        if ids.dtype.kind not in "iu" or ids.min() < 1:
            err = ProbcalError("Argument `folds` given as fold labels must be whole numbers from 1.")
            add_note(err, "One label per row: 1..K, every fold holding rows.")
            raise err
        ids = ids.astype(np.int64)
        k = int(ids.max())
        if np.unique(ids).size != k or k < 2:
            raise ProbcalError("Argument `folds` given as fold labels must use every fold 1..K, K >= 2.")
        return k, ids.copy()
    from ._folds import stratified_folds  # noqa: PLC0415

    folds = check_folds(folds, codes)
    return folds, stratified_folds(codes, folds, seed=seed, rng=rng)


def _calibrate(p, y, fold_id, folds, problem=None):
    """The tables of one binary problem: one (inductive) or one per fold (cross)."""
    if fold_id is None:
        return [_ivap(p, y)]
    tables = []
    for f in range(1, folds + 1):
        rows = fold_id == f
        if not rows.any():  # only with the caller's fold labels (stratified folds hold every class)
            where = "" if problem is None else f" of classes {problem[0] + 1} and {problem[1] + 1}"
            err = ProbcalError(f"Argument `folds`: fold {f} holds no rows{where}.")
            add_note(err, "Each fold calibrates one predictor per binary problem: give every fold "
                          "rows of every class, or an integer `folds` (stratified folds).")
            raise err
        tables.append(_ivap(p[rows], y[rows]))
    return tables


@python_face
def cal_venn_abers(p, y, type=VA_TYPES, folds=5, multiclass=VA_MULTICLASS, seed=None,
                   rng=None) -> CalVennAbers:
    r"""Venn-ABERS calibration: inductive (IVAP) or cross (CVAP), binary or multiclass.

    Python-only: probcal has no counterpart.

    Inductive (Vovk & Petej 2014; Vovk, Petej & Fedorova 2015): for a test
    score :math:`s`, add :math:`(s, 0)` to the calibration set and fit
    isotonic regression, :math:`p_0 = g_0(s)`; add :math:`(s, 1)` instead,
    :math:`p_1 = g_1(s)`. Under exchangeability of the calibration and test
    observations, the multiprobability prediction :math:`\{p_0, p_1\}` is
    perfectly calibrated in Venn's sense: one of the two is a calibrated
    probability (the one whose label turns out to be the true one), so the
    frequency of :math:`y = 1` among test points with a given pair lies in
    :math:`[p_0, p_1]` up to sampling error. :func:`predict` returns the
    merged probability :math:`p = p_1 / (1 - p_0 + p_1)`, which minimises
    the worst-case log-loss regret over the pair (it is no longer
    guaranteed calibrated); ``predict(..., interval=True)`` returns the pairs.

    Cross (``type="cross"``): the rows are dealt into ``folds`` stratified
    folds (``cal_cv()``'s R-stream folds, ``seed``/``rng``), an inductive
    predictor is calibrated on each fold, and the K pairs are merged by the
    paper's log-loss rule :math:`p = G_1 / (G_0 + G_1)`, :math:`G_1` the
    geometric mean of the :math:`p_1`'s and :math:`G_0` that of the
    :math:`1 - p_0`'s; ``interval=True`` gives :math:`(1 - G_0, G_1)`. With
    a fitted model the paper trains it on the other folds; here the scores
    are given, so only the calibration sets differ.

    Algorithm: the scores are sorted once and, at each distinct score, F1
    (F0) is the slope of the greatest convex minorant of the cumulative sum
    diagram with the test point added: the lower common tangent of the
    points before it, shifted by one test row, and those after it. Two
    stack passes over the diagram give it at every distinct score (a C
    kernel, ``src/venn.c``, with a Python twin giving the same integers);
    each prediction is then one binary search: :math:`O((n + m)\log n)`,
    not one isotonic fit per test point. F1 is constant on
    :math:`(c_{i-1}, c_i]`, F0 on :math:`[c_i, c_{i+1})`; beyond the
    calibration scores :math:`p_1 = 1` (above) and :math:`p_0 = 0` (below).

    Multiclass (a matrix ``p``): ``multiclass="one_vs_one"`` (Manokhin
    2017) calibrates each class pair :math:`(i, j)` on the rows of those two
    classes with score :math:`p_j / (p_i + p_j)`, and couples the pairwise
    probabilities (Price et al. 1995): :math:`P_i = 1 / (\sum_{j \ne i}
    1 / q_{i|ij} - (K - 2))`, then rows divided by their sums.
    ``"one_vs_rest"`` calibrates column :math:`k` against :math:`y = k` on
    all rows and divides each row of merged probabilities by its sum. Cross
    folds are dealt once over all rows (stratified by class) and each
    binary problem uses its rows' folds. These are the constructions of the
    ``venn-abers`` package's prefitted multiclass path.

    Parameters
    ----------
    p : array_like
        Probabilities in ``[0, 1]``: a vector (binary), or an n x K matrix
        (rows need not sum to one).
    y : array_like
        0/1 labels, or class codes ``1..K`` or a pandas Categorical.
    type : {"inductive", "cross"}
    folds : int, default 5, or one fold label ``1..K`` per row
        Cross only: the number of stratified folds (``cal_cv()``'s rule:
        at least 2, at most the smallest class count), or the folds
        themselves.
    multiclass : {"one_vs_one", "one_vs_rest"}
        Matrix ``p`` only.
    seed, rng
        The fold assignment, as ``cal_cv()``'s.

    Returns
    -------
    CalVennAbers
        ``predict(fit, newdata)``: merged probabilities (a vector, or an
        m x K matrix with rows summing to one); ``fit.predict(newdata,
        interval=True)``: the (p0, p1) pairs, ``(m, 2)`` or, per binary
        problem, ``(m, P, 2)``.

    Notes
    -----
    Parity: equal to the ``venn-abers`` package (1.5.4; ``VennAbers``,
    ``VennAbersCalibrator`` with ``p_cal``/``y_cal``/``p_test``, and
    ``VennAbersCV`` on the same folds), bit for bit (largest difference 0;
    the test's tolerance is 1e-12) on the stored and held-out random cases
    of tests/calibrators/test_venn_abers.py: binary inductive and cross, multiclass
    one-vs-one and one-vs-rest (inductive). The multiclass cross form is
    not compared: the package's deals folds per class pair, this one once
    over all rows. A one-vs-one pair whose two probabilities are both 0
    gets the score 1/2 here; the package divides 0 by 0. A validity simulation is in
    tools/venn_abers_validity.py (docs/guide/venn-abers.md).

    References
    ----------
    Vovk, V., & Petej, I. (2014). Venn-Abers predictors. In *Proceedings of
    the 30th Conference on Uncertainty in Artificial Intelligence* (pp.
    829-838).

    Vovk, V., Petej, I., & Fedorova, V. (2015). Large-scale probabilistic
    predictors with and without guarantees of validity. In *Advances in
    Neural Information Processing Systems 28*. arXiv:1511.00213.

    Manokhin, V. (2017). Multi-class probabilistic classification using
    inductive and cross Venn-Abers predictors. In *Proceedings of the 6th
    Symposium on Conformal and Probabilistic Prediction with Applications*,
    PMLR 60, 228-240.

    Price, D., Knerr, S., Personnaz, L., & Dreyfus, G. (1995). Pairwise
    neural network classifiers with probabilistic outputs. In *Advances in
    Neural Information Processing Systems 7*.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(3)
    >>> p = pc.runif(400)
    >>> y = pc.rbinom(400, 1, p ** 2)
    >>> fit = pc.cal_venn_abers(p, y)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: Venn-ABERS (inductive)
    Observations: 400
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Type: inductive
    >>> print(" ".join(f"{v:.4f}" for v in pc.predict(fit, [0.2, 0.5, 0.9])))
    0.0791 0.3333 0.6923
    >>> print(pc.predict(fit, [0.5], interval=True))
    [[0.3  0.35]]
    """
    type_given, mc_given, folds_given = type, multiclass, folds
    type = match_arg(type, VA_TYPES, arg="type")
    matrix = is_matrix(p)
    multiclass = match_arg(multiclass, VA_MULTICLASS, arg="multiclass")
    _check_seed(seed)
    if rng is not None:
        resolve_named_rng(rng)  # checked even where no fold is drawn
    if not matrix:
        pv = check_probability(p, arg="p").ravel()
        yv = check_binary_y(y, arg="y", require_both=True)
        check_same_length(pv, yv, x_arg="p", y_arg="y")
        codes = yv
    else:
        mat = _as_matrix(p, "p", "Argument `p` must be a numeric matrix with one column per class.")
        if not np.isfinite(mat).all():
            raise ProbcalError("Argument `p` must be a finite numeric matrix.")
        labels = multiclass_labels(mat, y, x_arg="p")
        if ((mat < 0) | (mat > 1)).any():
            raise ProbcalError("Argument `p` must contain probabilities in `[0, 1]`.")
        if np.unique(labels.codes).size != labels.k:
            raise ProbcalError("Every class must appear in `y` for Venn-ABERS calibration.")
        codes = labels.codes
    fold_id = None
    if type == "cross":
        folds, fold_id = _fold_ids(folds, codes, seed, rng)
    else:
        folds = None
    extra = {}
    if not matrix:
        problems = [(0, 1)]
        tables = [_calibrate(pv, yv, fold_id, folds)]
        classes = ("cal_venn_abers", "calibrator")
        n = yv.size
    else:
        k = labels.k
        if multiclass == "one_vs_one":
            problems = [(i, j) for i in range(k - 1) for j in range(i + 1, k)]
        else:
            problems = [(i, i) for i in range(k)]
        tables = []
        for i, j in problems:
            if multiclass == "one_vs_one":
                rows = np.flatnonzero((codes == i + 1) | (codes == j + 1))
                score = _ovo_score(mat[rows], i, j)
                target = (codes[rows] == j + 1).astype(np.int64)
            else:
                rows = np.arange(codes.size)
                score = np.ascontiguousarray(mat[:, i])
                target = (codes == i + 1).astype(np.int64)
            tables.append(_calibrate(score, target, None if fold_id is None else fold_id[rows],
                                     folds, (i, j)))
        classes = ("cal_venn_abers",) + MULTICLASS
        n = codes.size
        extra = {"k": k, "levels": list(labels.levels)}
    return new_calibrator(
        CalVennAbers,
        method=f"Venn-ABERS ({type})",
        n=n,
        input="probabilities" if not matrix else "probabilities (matrix)",
        type=type,
        folds=folds,
        fold_id=fold_id,
        multiclass=multiclass if matrix else None,
        problems=problems,
        tables=tables,
        **extra,
        call=format_call("cal_venn_abers", ("p", "y"),
                         type=type_given if isinstance(type_given, str) else None,
                         folds=folds_given if type == "cross" and isinstance(folds_given, numbers.Integral)
                         and folds_given != 5 else None,
                         multiclass=mc_given if matrix and isinstance(mc_given, str) else None,
                         seed=seed),
        _r_classes=classes,
    )

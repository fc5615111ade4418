# SPDX-License-Identifier: GPL-3.0-or-later
# Written from: Sun, Chaudhari, Barnett & Dobriban (2024), the paper alone; no code from the authors' repository
"""``ece_ci()``: a confidence interval for the squared l2 ECE (Sun et al. 2024).

Sun, Chaudhari, Barnett & Dobriban (2024) show that the debiased binned
estimator :math:`T_{m,n}` of the squared l2 expected calibration error is
asymptotically normal with *two* regimes: at rate :math:`\\sqrt n` around a
miscalibrated model's error, and at the faster rate :math:`n\\, m^{-k/2}`
around 0 for a calibrated one. Their interval handles both and never goes
below 0; their test of calibration uses the second regime. No R package has
them: this module is a Python-only addition (``ece_ci`` has no R formals).

Provenance: written from the paper alone (Sun et al. 2024, its definitions,
theorems and appendix formulas), with no code from the authors' CI-ECE
repository, which grants no licence; keep it so (see docs/provenance.md).

Everything is a sum over the occupied bins (cells, for top-k) of a few per-bin
sums, so time is O(n d) and memory O(n d) for d = 1 (binary, confidence) or
d = ``top_k`` coordinates (the null variance of top-k costs O(n d^2) time,
classwise O(n K^2)); nothing depends on the number of empty bins.
"""

from __future__ import annotations

import math

import numpy as np

from ..binned._binning import equal_width_bins, occupied_bins, quotient_bins
from ..inputs._checks import check_bins, check_conf_level, match_arg
from ..inputs import abort as _abort, single_number as _single_number
from ..rbase._format import cli_h1, format_pval, format_r, sprintf_pct1
from ..inputs._forms import Form, input_form
from ..rbase._rarith import pnorm_upper
from ..rbase._rlist import RList
from ..rbase._warn import warn
from ..rstats import qnorm_open1
from ..inputs._hints import python_face

__all__ = ["ece_ci", "EceCI", "TYPES"]

TYPES = ("confidence", "classwise", "topk")
EDGES = ("paper", "ece")
_METHOD = "Sun et al. (2024) debiased estimate, normal interval"


class EceCI(RList):
    """Result of :func:`ece_ci`, printed in probcal's style.

    Attributes
    ----------
    estimate : float
        :math:`T_{m,n}`, the debiased estimate of the squared l2 ECE (can be
        negative; the interval is built from its positive part).
    lower, upper, conf_level : float
        The hull of the confidence set for the squared l2 ECE (``0 <= lower
        <= upper``) and its level: ``lower`` is 0 whenever 0 is in the set.
    interval_lower : float
        The lower end L of the paper's interval C1 = [L, upper]. The
        confidence set is C1 without 0 when calibration is rejected, and
        C1 with 0 added ({0} u C1) when it is not; ``str(res)`` writes it.
    zero_in_set : bool
        Whether 0 is in the confidence set (``not reject``).
    std_error : float
        :math:`\\hat\\sigma_1 / \\sqrt n`, the miscalibrated-regime standard error.
    null_sd : float
        The standard deviation of the estimate under calibration (given the
        predictions), which the test divides by.
    statistic, p_value : float
        The calibration test's ``z = estimate / null_sd`` and its one-sided
        normal p-value (``res["p.value"]``).
    reject : bool
        Whether calibration is rejected at level ``1 - conf_level``.
    type, target, method, edges : str
    bins, top_k, n : int

    ``str(res)`` is the printed text; ``to_dict()`` a plain dict of these
    components (R-style names), as for :class:`~pycalib_r.CalCI`.

    R equivalent: none (probcal has no such interval); the face is
    ``cal_ci()``'s.
    """

    r_class = ("ece_ci",)

    def __init__(self, estimate, lower, upper, conf_level, std_error, null_sd, statistic,
                 p_value, reject, type, target, bins, top_k, n, interval_lower=None,
                 edges="paper"):
        if interval_lower is None:
            interval_lower = lower
        self._set_components([
            ("estimate", float(estimate)), ("lower", float(lower)), ("upper", float(upper)),
            ("conf_level", float(conf_level)), ("std_error", float(std_error)),
            ("null_sd", float(null_sd)), ("statistic", float(statistic)),
            ("p.value", float(p_value)), ("reject", bool(reject)), ("type", type),
            ("target", target), ("method", _METHOD), ("bins", int(bins)),
            ("top_k", int(top_k)), ("n", int(n)), ("interval_lower", float(interval_lower)),
            ("zero_in_set", not bool(reject)), ("edges", edges)])

    def __setstate__(self, state) -> None:
        # Pickles from before the paper's set (0.2.0) hold the interval
        # [lower, upper] of R's seq() edges: the set is then that interval.
        object.__setattr__(self, "__dict__", dict(state))
        added = [("interval_lower", self.__dict__.get("lower")),
                 ("zero_in_set", not self.__dict__.get("reject", False)), ("edges", "ece")]
        names = list(self.__dict__.get("_r_names", ()))
        for name, value in added:
            if name not in names:
                names.append(name)
                self.__dict__[name] = value
        self.__dict__["_r_names"] = names

    def contains(self, value: float) -> bool:
        """Whether ``value`` (on the squared scale) is in the confidence set."""
        value = float(value)
        if value == 0.0:
            return self.zero_in_set
        return self.interval_lower <= value <= self.upper

    def _set_text(self, f) -> str:
        """The confidence set as the paper writes it, ends mapped by ``f``."""
        low, high = format_r(f(self.interval_lower), digits=4), format_r(f(self.upper), digits=4)
        if not self.zero_in_set:
            return f"(0, {high}]" if self.interval_lower == 0 else f"[{low}, {high}]"
        return f"[0, {high}]" if self.interval_lower == 0 else f"{{0}} \u222a [{low}, {high}]"

    @property
    def pvalue(self) -> float:
        """scipy's name for :attr:`p_value`."""
        return self.p_value

    def __str__(self) -> str:
        edges = "k/m" if self.edges == "paper" else "seq()"
        cells = f"{self.bins} equal-width bins, edges {edges}"
        if self.type == "topk" and self.top_k > 1:
            cells = f"{self.bins}^{self.top_k} equal-width cells, edges {edges}"
        alpha = 1 - self.conf_level
        verdict = "rejected" if self.reject else "not rejected"
        root = math.sqrt(max(self.estimate, 0.0))
        lines = [
            f"Method: {self.method} ({cells})",
            f"Target: {self.target}",
            f"Estimate: {format_r(self.estimate, digits=4)} (l2 ECE {format_r(root, digits=4)})",
            f"Confidence level: {sprintf_pct1(self.conf_level)}",
            f"Confidence set: {self._set_text(float)}",
            f"Confidence set for the l2 ECE: {self._set_text(math.sqrt)}",
            f"Calibration test: z = {format_r(self.statistic, digits=4)}, p-value "
            f"{format_pval(self.p_value, digits=4)} ({verdict} at level "
            f"{format_r(alpha, digits=4)})",
        ]
        return cli_h1("Confidence interval for the squared l2 ECE") + "\n" + "\n".join(lines)

    __repr__ = __str__


# ---------------------------------------------------------------------------
# The estimator and its two variances.
# ---------------------------------------------------------------------------

def _cell_sums(ids: np.ndarray, n_ids: int, v: np.ndarray) -> np.ndarray:
    """Per-cell sums of each column of ``v`` (n x d) -> (n_ids x d)."""
    return np.stack([np.bincount(ids, weights=v[:, j], minlength=n_ids)
                     for j in range(v.shape[1])], axis=1)


class _Pieces:
    """T_{m,n}'s sum, the influence values phi_i and the null variance's sum
    for one vector problem: predictions ``z`` (n x d) against indicators ``e``
    in cells ``ids``."""

    def __init__(self, z: np.ndarray, e: np.ndarray, ids: np.ndarray, n_ids: int):
        n = z.shape[0]
        u = e - z
        counts = np.bincount(ids, minlength=n_ids).astype(np.float64)
        sums = _cell_sums(ids, n_ids, u)
        sq = np.bincount(ids, weights=np.einsum("ij,ij->i", u, u), minlength=n_ids)
        pairs = counts > 1
        # sum_{i != j in b} U_i.U_j / (n_b - 1): the paper's
        # n_b/(n_b - 1) (n_b |mean U|^2 - mean |U|^2); a singleton bin adds 0.
        per_bin = np.einsum("bj,bj->b", sums, sums) - sq
        self.t_sum = float(np.sum(per_bin[pairs] / (counts[pairs] - 1)))
        # The influence of observation i in bin b: 2 Ubar_b.U_i - |Ubar_b|^2.
        # Its variance (divisor n) is the paper's plug-in sigma_1^2, written
        # there as sum_b (n_b/n)(4 Ubar' S_b Ubar - 3|Ubar|^4) - (sum_b (n_b/n)|Ubar|^2)^2.
        means = sums / np.where(counts > 0, counts, 1.0)[:, None]
        mean_i = means[ids]
        self.phi = 2.0 * np.einsum("ij,ij->i", mean_i, u) - np.einsum("ij,ij->i", mean_i, mean_i)
        # Under calibration U_i has mean 0 and covariance diag(z_i) - z_i z_i'
        # given the predictions, so Var(sum_{i != j in b} U_i.U_j) =
        # 2 sum_{i != j in b} <Sigma_i, Sigma_j>_F, accumulated entry by entry.
        d = z.shape[1]
        weight = np.where(pairs, 1.0 / np.where(pairs, counts - 1, 1.0) ** 2, 0.0)
        total = 0.0
        for a in range(d):
            for b in range(a, d):
                x = z[:, a] * ((1.0 if a == b else 0.0) - z[:, b])
                s1 = np.bincount(ids, weights=x, minlength=n_ids)
                s2 = np.bincount(ids, weights=x * x, minlength=n_ids)
                total += (1.0 if a == b else 2.0) * float(np.sum(weight * (s1 * s1 - s2)))
        self.null_sum = 2.0 * total
        self.n = n


def _bin_of(edges: str):
    """The per-coordinate binning: edges k / m (the paper's code) or those of :func:`ece`."""
    return quotient_bins if edges == "paper" else equal_width_bins


class CellStats:
    """Mergeable per-cell sums behind T, sigma_1^2 and the null variance for
    predictions ``z`` (n x d) against indicators ``e``: per occupied cell its
    bin tuple, count, mean residual, centred residual scatter, and the sums
    of x_ab = z_a (1{a = b} - z_b) and of its square (a <= b)."""

    def __init__(self, keys, counts, means, scatter, s1, s2):
        self.keys, self.counts, self.means, self.scatter, self.s1, self.s2 = (
            keys, counts, means, scatter, s1, s2)

    @classmethod
    def of(cls, z: np.ndarray, e: np.ndarray, bins: int, edges: str) -> "CellStats":
        bin_of = _bin_of(edges)
        per_coord = np.stack([bin_of(z[:, j], bins) for j in range(z.shape[1])], axis=1)
        keys, ids = np.unique(per_coord, axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        c = keys.shape[0]
        d = z.shape[1]
        u = e - z
        counts = np.bincount(ids, minlength=c).astype(np.float64)
        means = _cell_sums(ids, c, u) / np.where(counts > 0, counts, 1.0)[:, None]
        v = u - means[ids]
        scatter = np.empty((c, d, d))
        for a in range(d):
            for b in range(a, d):
                scatter[:, a, b] = scatter[:, b, a] = np.bincount(ids, weights=v[:, a] * v[:, b],
                                                                  minlength=c)
        s1, s2 = [], []
        for a in range(d):
            for b in range(a, d):
                x = z[:, a] * ((1.0 if a == b else 0.0) - z[:, b])
                s1.append(np.bincount(ids, weights=x, minlength=c))
                s2.append(np.bincount(ids, weights=x * x, minlength=c))
        return cls(keys, counts, means, scatter, np.stack(s1, axis=1), np.stack(s2, axis=1))

    @classmethod
    def merge(cls, parts) -> "CellStats":
        """The cells of the union of the parts' rows: pooled means and
        scatters (within plus between parts), summed x sums."""
        parts = [q for q in parts if q.keys.shape[0]]
        if len(parts) == 1:
            return parts[0]
        keys, ids = np.unique(np.concatenate([q.keys for q in parts]), axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        c = keys.shape[0]
        counts_k = np.concatenate([q.counts for q in parts])
        means_k = np.concatenate([q.means for q in parts])
        counts = np.bincount(ids, weights=counts_k, minlength=c)
        means = _cell_sums(ids, c, means_k * counts_k[:, None]) / counts[:, None]
        dev = means_k - means[ids]
        between = counts_k[:, None, None] * dev[:, :, None] * dev[:, None, :]
        scatter = np.zeros((c,) + means_k.shape[1:] * 2)
        np.add.at(scatter, ids, np.concatenate([q.scatter for q in parts]) + between)
        s1 = np.zeros((c, parts[0].s1.shape[1]))
        s2 = np.zeros_like(s1)
        np.add.at(s1, ids, np.concatenate([q.s1 for q in parts]))
        np.add.at(s2, ids, np.concatenate([q.s2 for q in parts]))
        return cls(keys, counts, means, scatter, s1, s2)

    def estimate(self, n: int):
        """(T, sigma_1^2, null variance of T) of the cells of n rows."""
        counts, means = self.counts, self.means
        m2 = np.einsum("bj,bj->b", means, means)
        trace = np.einsum("bjj->b", self.scatter)
        pairs = counts > 1
        # sum_{i != j in b} U_i.U_j / (n_b - 1) = n_b |Ubar_b|^2 - tr(C_b) / (n_b - 1).
        t_sum = float(np.sum(counts[pairs] * m2[pairs] - trace[pairs] / (counts[pairs] - 1)))
        # phi_i = 2 Ubar_b.U_i - |Ubar_b|^2: mean |Ubar_b|^2 and scatter 4 Ubar' C_b Ubar in bin b.
        phi_bar = float(np.sum(counts * m2)) / n
        within = 4.0 * np.einsum("bj,bjk,bk->b", means, self.scatter, means)
        sigma1_sq = float(np.sum(within) + np.sum(counts * (m2 - phi_bar) ** 2)) / n
        d = means.shape[1]
        weight = np.where(pairs, 1.0 / np.where(pairs, counts - 1, 1.0) ** 2, 0.0)
        total, col = 0.0, 0
        for a in range(d):
            for b in range(a, d):
                s1, s2 = self.s1[:, col], self.s2[:, col]
                total += (1.0 if a == b else 2.0) * float(np.sum(weight * (s1 * s1 - s2)))
                col += 1
        return t_sum / n, sigma1_sq, 2.0 * total / n ** 2




def top_k_arrays(p: np.ndarray, codes: np.ndarray, k: int):
    """:func:`_top_k` of a probability matrix and its 1-based class codes."""
    order = np.argsort(-p, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(p, order, axis=1), (order + 1 == codes[:, None]).astype(np.float64)


def _top_k(form: Form, k: int):
    """The k largest probabilities of each row, largest first, and whether
    the label is each of those classes. Of tied columns the first comes
    first, as for ``type = "confidence"`` (the paper's code, a descending
    ``argsort``, takes the last); the predictions are the same either way,
    only which class's indicator goes with a tied value differs."""
    return top_k_arrays(form.p, form.codes, k)


def _estimate(form: Form, bins: int, top_k: int, edges: str = "paper"):
    """(T, sigma_1^2, null variance of T) for the checked input."""
    n = form.n
    if form.kind == "classwise":
        return _classwise(form, bins, edges)
    if form.scalar:
        z = form.r[:, None]
        e = form.c.astype(np.float64)[:, None]
    else:
        z, e = _top_k(form, top_k)
    return CellStats.of(z, e, bins, edges).estimate(n)


def _classwise(form: Form, bins: int, edges: str = "paper"):
    """The mean over classes of each one-vs-rest column's T_{m,n}.

    sigma_1^2 is the variance of the mean influence; the null variance is
    the exact one under the multinomial model Y_i ~ p_i (full calibration,
    which makes every class calibrated): pairs sharing a bin in class c and
    in class d contribute Sigma_i[c, d] Sigma_j[c, d]."""
    n, k = form.n, form.k
    t = 0.0
    phi = np.zeros(n)
    bin_of, count_of = [], []
    for j, (r, c) in enumerate(form.problems()):
        ids, n_ids = occupied_bins(_bin_of(edges)(r, bins), bins)
        pieces = _Pieces(r[:, None], c.astype(np.float64)[:, None], ids, n_ids)
        t += pieces.t_sum / n
        phi += pieces.phi
        bin_of.append(ids)
        count_of.append(np.bincount(ids, minlength=n_ids)[ids].astype(np.float64))
    phi /= k
    sigma1_sq = float(np.mean((phi - np.mean(phi)) ** 2))
    total = 0.0
    for a in range(k):
        for b in range(a, k):
            if a == b:
                ids, n_ids = bin_of[a], int(bin_of[a].max()) + 1
            else:
                key = bin_of[a].astype(np.int64) * (int(bin_of[b].max()) + 1) + bin_of[b]
                _, ids = np.unique(key, return_inverse=True)
                ids = ids.reshape(-1)
                n_ids = int(ids.max()) + 1
            x = form.p[:, a] * ((1.0 if a == b else 0.0) - form.p[:, b])
            # 1 / ((n_{a,bin} - 1)(n_{b,bin} - 1)), constant within a joint cell
            # of two or more (a lone member has no pair and adds 0).
            both = (count_of[a] > 1) & (count_of[b] > 1)
            w = np.where(both, 1.0 / np.where(both, (count_of[a] - 1) * (count_of[b] - 1), 1.0),
                         0.0)
            w_cell = np.zeros(n_ids)
            w_cell[ids] = w
            s1 = np.bincount(ids, weights=x, minlength=n_ids)
            s2 = np.bincount(ids, weights=x * x, minlength=n_ids)
            total += (1.0 if a == b else 2.0) * float(np.sum(w_cell * (s1 * s1 - s2)))
    null_var = 2.0 * total / (k * k * n * n)
    return t / k, sigma1_sq, null_var


def _interval(t: float, sigma1_sq: float, null_var: float, n: int, conf_level: float):
    """The paper's confidence set from T, the plug-in sigma_1^2 and the null
    variance: its hull ``(lower, upper)``, the lower end of its interval C1,
    and the test."""
    alpha = 1 - conf_level
    z_one = qnorm_open1(conf_level)            # z_alpha
    z_two = qnorm_open1(1 - alpha / 2)         # z_{alpha/2}
    se = math.sqrt(max(sigma1_sq, 0.0) / n)
    t_plus = max(t, 0.0)
    if t_plus >= 2 * z_two * se:
        lower = t_plus - z_two * se            # far from 0: the two-sided normal interval
    elif t_plus >= 2 * z_one * se:
        lower = t_plus / 2                     # near 0: the estimate halved
    else:
        lower = max(t_plus - z_one * se, 0.0)  # closer still: one-sided, at most down to 0
    upper = t_plus + z_two * se
    null_sd = math.sqrt(max(null_var, 0.0))
    if null_sd > 0:
        statistic = t / null_sd
        p_value = pnorm_upper(statistic)
    else:
        # Every prediction 0 or 1, or every bin a singleton: no spread under
        # calibration. Any positive estimate then contradicts calibration.
        statistic = math.inf if t > 0 else math.nan
        p_value = 0.0 if t > 0 else 1.0
    reject = p_value < alpha
    # The set is C1 = [lower, upper] without 0 after a rejection, and C1 with
    # 0 added otherwise: its hull starts at 0 then.
    hull_lower = lower if reject else 0.0
    return hull_lower, upper, lower, se, null_sd, statistic, p_value, reject


def _target(kind: str, k: int, top_k: int) -> str:
    if kind == "binary":
        return "binary calibration"
    if kind == "confidence":
        return "top-label confidence calibration"
    if kind == "classwise":
        return f"classwise calibration (mean over {k} classes)"
    if top_k == k:
        return f"top-{top_k} (full) calibration"
    return f"top-{top_k} calibration"


def _check_top_k(top_k, k: int) -> int:
    value = _single_number(top_k)
    if (value is None or not math.isfinite(value) or value != math.trunc(value)
            or value < 1 or value > k):
        _abort(f"Argument `top_k` must be a single whole number from 1 to {k}, the number of "
               f"classes.")
    return int(value)


check_top_k = _check_top_k  # the name other rooms import (public inside the package)


@python_face
def ece_ci(p, y, bins=15, conf_level=0.9, type="confidence", top_k=2, edges="paper"):
    r"""Confidence interval for the squared l2 ECE (Sun, Chaudhari, Barnett & Dobriban 2024).

    R equivalent: none. probcal has no such interval (its ``cal_ci()`` is a
    percentile bootstrap, which undercovers near zero); this is a
    Python-only addition. The input checks and messages are ``ece()``'s.

    With predictions :math:`Z_i \in [0, 1]^d` and label indicators
    :math:`Y_i` (d = 1: a probability and a 0/1 outcome), residuals
    :math:`U_i = Y_i - Z_i`, and equal-width bins (cells for d > 1) holding
    :math:`n_b` of the :math:`n` observations, the estimate is the paper's

    .. math:: T_{m,n} = \frac1n \sum_b \frac{1}{n_b - 1}
              \sum_{i \ne j \in b} U_i^\top U_j
              = \frac1n \sum_b \frac{n_b}{n_b - 1}\Big(n_b \lVert\bar U_b\rVert^2
              - \frac{1}{n_b}\sum_{i \in b}\lVert U_i\rVert^2\Big),

    an estimate of :math:`\sum_b P(b)\, \lVert E[U \mid b]\rVert^2`, the
    squared l2 ECE of the model *binned at these bins* (the target: where
    the calibration curve is not flat within a bin, the binned error is
    below the model's own, and rises towards it as ``bins`` grows). A
    singleton bin adds 0, so T is unbiased only while no bin is likely to
    hold a single observation: in general, with bin probabilities
    :math:`p_b` and means :math:`\mu_b = E[U \mid b]`,

    .. math:: E[T_{m,n}] = \sum_b p_b \big(1 - (1 - p_b)^{n-1}\big)
              \lVert\mu_b\rVert^2,

    which at n = 50 and m = 100 bins is well below the target (a warning
    is given when the bins hold fewer than two observations on average). Its
    miscalibrated-regime variance is estimated by the paper's plug-in

    .. math:: \hat\sigma_1^2 = \sum_b \frac{n_b}{n}\big(4\bar U_b^\top S_b \bar U_b
              - 3\lVert\bar U_b\rVert^4\big) - \Big(\sum_b \frac{n_b}{n}
              \lVert\bar U_b\rVert^2\Big)^2, \qquad
              S_b = \frac{1}{n_b}\sum_{i \in b} U_i U_i^\top

    (singleton bins included), the variance of the influence values
    :math:`2\bar U_b^\top U_i - \lVert\bar U_b\rVert^2`. With
    :math:`\alpha = 1 -` ``conf_level``, :math:`s = \hat\sigma_1/\sqrt n`,
    :math:`T_+ = \max(T_{m,n}, 0)` and normal quantiles
    :math:`z_\alpha, z_{\alpha/2}`, the interval is the paper's

    .. math:: U = T_+ + z_{\alpha/2}\, s, \qquad
              L = \begin{cases} T_+ - z_{\alpha/2}\, s & T_+ \ge 2 z_{\alpha/2} s \\
              T_+ / 2 & 2 z_\alpha s \le T_+ < 2 z_{\alpha/2} s \\
              \max(T_+ - z_\alpha s,\, 0) & T_+ < 2 z_\alpha s, \end{cases}

    and, with the calibration test below at level :math:`\alpha`, the
    confidence set is the paper's: :math:`C_1 = [L, U]` without 0 when the
    test rejects calibration, and :math:`\{0\} \cup C_1` when it does not
    (so 0 is in the set exactly when calibration is not rejected; the
    paper's simulations score the calibrated case by this test).
    ``lower``/``upper`` are the set's hull (``lower = 0`` when 0 is in it),
    ``interval_lower`` is L, and ``str(res)`` writes the set. The test:
    under calibration :math:`T_{m,n}` has mean 0 and,
    given the predictions, variance

    .. math:: V_0 = \frac{2}{n^2} \sum_b \frac{1}{(n_b - 1)^2}
              \sum_{i \ne j \in b} \langle \Sigma_i, \Sigma_j \rangle_F,
              \qquad \Sigma_i = \mathrm{diag}(Z_i) - Z_i Z_i^\top,

    which is the finite-sample form of the paper's null variance
    :math:`\sigma_0^2 / (n^2 m^{-d})`, :math:`\sigma_0^2 = 2\int
    \lVert\Sigma(z)\rVert_F^2\,dz` (the paper's code plugs in the known
    :math:`\sigma_0` of its simulations; here it is computed from the
    data). ``statistic`` is :math:`T_{m,n}/\sqrt{V_0}` and ``p.value`` its
    upper normal tail; calibration is rejected when ``p.value < alpha``.

    Parameters
    ----------
    p : array_like
        A probability vector (binary) or a matrix/DataFrame with one column
        per class, rows summing to one within ``1e-6`` (multiclass).
    y : array_like
        0/1 labels (binary), or class codes 1..K or a pandas Categorical.
    bins : int
        Equal-width bins per coordinate on ``[0, 1]``, left-closed, the last
        closed (1 goes in the last bin). Default 15: the number of Guo et
        al.'s (2017) confidence ECE. Choosing bins: the target is the error
        of the *binned* model, which rises towards the model's own error as
        ``bins`` grows, while the estimate needs several observations per
        occupied bin for its normal approximations (and at least two for
        its unbiasedness). The paper's theory wants bins that grow with
        ``n`` but stay well filled; it uses 50 for n = 1,000 and 20 per
        coordinate for top-2. A rule that fits its settings: about
        ``n ** (1/3)`` to ``n ** (1/2) / 2`` bins per coordinate, fewer for
        top-k cells.
    conf_level : float
        In (0, 1). Default 0.9, the paper's level throughout. The test's
        level is ``1 - conf_level``.
    type : {"confidence", "classwise", "topk"}
        Multiclass form; for binary input checked and unused. ``"confidence"`` (the
        default, the paper's top-1 form): the largest probability against
        whether its class is the label (first maximal column on ties), as
        ``ece(type = "confidence")``. ``"topk"``: the paper's top-k form,
        the ``top_k`` largest probabilities as a vector, largest first,
        against the indicators of those classes, binned in ``bins^top_k``
        cells; ``top_k = K`` is full (canonical) calibration. ``"classwise"``:
        the mean over classes of each one-vs-rest column's estimate, as in
        ``ece()``'s default; the paper does not define it, so its variances
        are this function's extension (the influence-value variance of the
        mean, and the exact null variance under the multinomial model).
        Confidence is the default because it is the paper's main case.
    top_k : int
        Coordinates for ``type = "topk"``, 1..K (default 2, the paper's
        multiclass simulation); otherwise checked (1..K, K = 2 for binary
        input) and unused. Of tied probabilities
        the first column comes first (the paper's code takes the last).
    edges : {"paper", "ece"}
        Python-only. Interior bin edges k / m, computed as the paper's code
        does (the default: this function implements the paper, and its
        numbers then agree with the authors' code), or k * (1 / m), R's
        ``seq(0, 1, length.out = m + 1)`` and so the bins of :func:`ece`
        and :func:`reliability_table`. They differ only for a prediction
        exactly on an edge where the two roundings differ (0.3, 0.6 and
        0.7 for 10 bins). A prediction of 1 goes in the last bin under both
        (the paper's code leaves it out of every bin while counting it in
        n).

    Returns
    -------
    EceCI
        ``estimate``, ``lower``, ``upper`` (the set's hull on the squared
        scale; the l2 ECE set is their square roots), ``interval_lower``,
        ``zero_in_set``, ``conf_level``, ``std_error``, ``null_sd``,
        ``statistic``, ``p_value``, ``reject`` and the settings.

    Warns
    -----
    UserWarning
        When the bins (cells) hold fewer than two observations on average:
        most are then empty or singletons, T is biased towards 0 and the
        test has no spread to work with.

    Notes
    -----
    Unlike ``ece(debiased = TRUE)`` (Kumar, Liang & Ma 2019), which
    subtracts each bin's :math:`\mathrm{acc}_b(1 - \mathrm{acc}_b)/(n_b - 1)`
    from :math:`(\mathrm{acc}_b - \mathrm{conf}_b)^2`, :math:`T_{m,n}` is a
    U-statistic in the residuals :math:`U_i` themselves: unbiased for the
    binned model's squared error while bins hold two or more observations,
    multivariate for top-k, and with a known variance in both regimes. The two agree when every prediction
    in a bin is equal and differ by the spread of predictions within bins
    otherwise. Both are on the squared scale and can be negative.

    Validity is asymptotic. ``tools/ece_ci_simulation.py`` measures the
    coverage of the binned target in the paper's three settings and a
    held-out one (``docs/ece_ci_simulation.md`` gives the table with its
    Monte Carlo errors); bins must hold several observations each for the
    normal approximations to hold.

    References
    ----------
    Sun, Y., Chaudhari, P., Barnett, I. J., & Dobriban, E. (2024). A
    confidence interval for the l2 expected calibration error.
    arXiv:2408.08998.

    Kumar, A., Liang, P., & Ma, T. (2019). Verified uncertainty calibration.
    In *Advances in Neural Information Processing Systems 32*.

    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *Proceedings of the 34th International
    Conference on Machine Learning* (PMLR 70, pp. 1321-1330).

    Examples
    --------
    Overconfident predictions: calibration is rejected and the interval
    excludes 0.

    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(41)
    >>> p = pc.runif(2000)
    >>> y = pc.rbinom(2000, 1, 0.5 + 0.7 * (p - 0.5))
    >>> print(pc.ece_ci(p, y))
    <BLANKLINE>
    ── Confidence interval for the squared l2 ECE ──────────────────────────────────
    Method: Sun et al. (2024) debiased estimate, normal interval (15 equal-width bins, edges k/m)
    Target: binary calibration
    Estimate: 0.008154 (l2 ECE 0.0903)
    Confidence level: 90.0%
    Confidence set: [0.00493, 0.01138]
    Confidence set for the l2 ECE: [0.07021, 0.1067]
    Calibration test: z = 16.3, p-value < 2.2e-16 (rejected at level 0.1)

    The true squared error of this model is 0.3^2 / 12 = 0.0075 (0.0074667
    for its binned version), inside the interval.

    A calibrated model: 0 is in the set.

    >>> y0 = pc.rbinom(2000, 1, p)
    >>> res = pc.ece_ci(p, y0)
    >>> res.lower, res.reject, res.contains(0)
    (0.0, False, True)
    """
    form = input_form(p, y, type, types=TYPES)
    bins = check_bins(bins, python_only=True)
    conf_level = check_conf_level(conf_level)
    if form.kind == "binary":
        match_arg(type, TYPES, "type")  # unused for a vector, but a bad value is not ignored
    if form.kind == "topk":
        top_k = _check_top_k(top_k, form.k)
    else:
        _check_top_k(top_k, max(form.k, 2))  # unused here, but a bad value is not ignored
        top_k = 1 if form.kind in ("binary", "confidence") else form.k
    edges = match_arg(edges, EDGES, "edges")
    warn_sparse(form.n, bins, top_k if form.kind == "topk" else 1)
    t, sigma1_sq, null_var = _estimate(form, bins, top_k, edges)
    return ece_ci_result(form.kind, form.n, form.k, t, sigma1_sq, null_var, conf_level, bins, top_k,
                         edges)


def warn_sparse(n: int, bins: int, coords: int) -> None:
    """The warning for bins (cells) holding fewer than two observations on average."""
    cells = float(bins) ** coords
    if n < 2 * cells:
        warn(f"ece_ci(): {n} observations in {format_r(cells, digits=7)} bins (cells): fewer than "
             "two per bin on average, so most bins are empty or singletons, the estimate is biased "
             "towards 0 and the test has little to work with. Use fewer bins (see the `bins` "
             "argument's notes).")


def ece_ci_result(kind: str, n: int, k: int, t, sigma1_sq, null_var, conf_level, bins, top_k,
                  edges) -> EceCI:
    """The :class:`EceCI` of the estimate and its two variances (also the Dask face's)."""
    lower, upper, c1_lower, se, null_sd, statistic, p_value, reject = _interval(
        t, sigma1_sq, null_var, n, conf_level)
    return EceCI(t, lower, upper, conf_level, se, null_sd, statistic, p_value, reject,
                 kind, _target(kind, k, top_k), bins, top_k, n, c1_lower, edges)

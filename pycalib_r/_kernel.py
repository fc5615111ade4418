"""Kernel calibration error: ``skce()`` and the Laplacian-kernel sums behind it.

Contract section 3. Two kernel forms:

* scalar (binary input, and ``type = "confidence"``; also each column of
  ``"classwise"``): h_ij = e_i e_j exp(-|r_i - r_j| / h) with e = c - r;
* canonical (matrix input): h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j> with
  u_i = onehot(y_i) - p_i.

The scalar form never builds the n x n matrix. After sorting r, the sum over
pairs i < j is sum_j a_j L_j with L_j = sum_{i<j} a_i exp(-(r_j - r_i) / h),
and L obeys L_j = exp(-(r_j - r_{j-1}) / h) (L_{j-1} + a_{j-1}). That linear
recurrence is evaluated here without a Python loop per element:

* one weight vector: a log-depth doubling scan whose factors are all
  ``exp(-(r_j - r_i) / h) <= 1`` taken straight from the two end points, so
  nothing can overflow, ties give factors of exactly 1, and each term carries
  only O(log n) roundings;
* many weight vectors (bootstrap replicates): sorted blocks whose span is at
  most ``_SPAN`` bandwidths, inside which exp((r_i - c) / h) and
  exp(-(r_j - c) / h) around the block centre c are bounded by exp(_SPAN / 2)
  (so cumulative sums cannot overflow for any bandwidth), joined by a carry
  per replicate. A bandwidth so small that the blocks would be tiny falls
  back to the doubling scan over the replicate matrix.

The canonical form is O(n^2) and is computed in square tiles, so at most a
bounded block of the n x n matrix exists at a time. Its squared distances
come from one matrix product (|a|^2 + |b|^2 - 2ab); that identity loses the
precision of close rows, so wherever the cancellation exceeds ``_CLOSE`` the
pair is recomputed from coordinate differences.
"""

from __future__ import annotations

import math
import os
from typing import NamedTuple, Optional

import numpy as np

from ._checks import check_bandwidth, is_matrix, match_arg
from ._errors import ProbcalError
from ._forms import input_form
from ._rarith import quiet_fp, r_mean, r_mean2 as _r_mean2, r_sd

__all__ = [
    "skce",
    "scalar_kernel_sum",
    "scalar_kernel_sum_batched",
    "ScalarKernel",
    "CanonicalKernel",
    "kernels",
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

# Block length (columns) and maximal block span (in bandwidths) of the
# batched scalar sum: exp(+-_SPAN / 2) ~ 5e8 keeps block-local cumulative
# sums far from overflow and the exponent rounding (|arg| * eps) near 1e-15.
_BLOCK = 1024
_SPAN = 40.0
# Below this many elements per block on average, the doubling scan is cheaper.
_MIN_MEAN_BLOCK = 24
# Canonical tiles: _TILE x _TILE doubles (32 MB) per temporary; distances in
# strips of _STRIP_ELEMENTS doubles (512 KB, within a core's cache).
_TILE = 2048
_STRIP_ELEMENTS = 1 << 16
# The whole canonical matrix is kept while it takes at most this (n <= 5,792).
_FULL_BYTES = 256 << 20
_FLOPS_PER_BLOCK = 1 << 30
# Threads computing canonical tiles (the machine's cores, at most 4).
_WORKERS = max(1, min(4, os.cpu_count() or 1))
# A whole (replicates x n) weight block for the canonical form, if it fits.
_CANONICAL_WEIGHTS_BYTES = 256 << 20
# Elements of a (replicates x n) block of scalar-kernel weights (32 MB).
_BATCH_ELEMENTS = 1 << 22


def batch_rows(n: int, n_total: int) -> int:
    """Replicates of n weights each that fit one block of ``_BATCH_ELEMENTS`` (at least 1)."""
    return max(1, min(n_total, _BATCH_ELEMENTS // max(n, 1)))

# Above this many points one weight vector is summed by blocks (O(n) and
# interruptible) instead of the doubling scan (O(n log n) memory traffic).
_SCAN_MAX = 1 << 17
# Blocks handled at once by the long single-vector sum (at most 2^18 padded points).
_GROUP = 256
# Keys sorted (or gathered) per call by the interruptible sort (4 MB, a few ms each).
_SORT_BLOCK = 1 << 19
# Largest candidate set enumerated explicitly by the exact median selection.
_ENUM_CAP = 1 << 21
_SAMPLE = 1 << 17

_MEDIAN_ERROR = "The median bandwidth is undefined: all predictions are equal."


# ---------------------------------------------------------------------------
# Scalar form.
# ---------------------------------------------------------------------------

def _scan_inclusive(rs: np.ndarray, x: np.ndarray, h: float) -> np.ndarray:
    """In place: x_j <- sum_{i<=j} x_i exp(-(rs_j - rs_i) / h) along the last axis.

    Doubling scan: after the pass with shift s every x_j covers (j - 2s, j].
    Each factor comes from the two end points, so it is <= 1 and exact for ties.
    """
    n = rs.size
    s = 1
    while s < n:
        f = np.exp(-((rs[s:] - rs[:-s]) / h))
        # The right-hand side is evaluated before the in-place add, so the
        # shifted operand holds the previous pass's values.
        x[..., s:] += f * x[..., :-s]
        s *= 2
    return x


def _sort_distinct(key: np.ndarray) -> None:
    """In place ``key.sort()`` for distinct integers, in steps that Ctrl-C can stop between.

    Blocks of ``_SORT_BLOCK`` are sorted one call each, then neighbouring
    sorted runs are merged pairwise, level by level, by numpy's stable sort
    (timsort, which finds the two runs and merges them in linear time). The
    total work is that of one sort, and no call takes longer than one merge
    of two runs (about 50 ms for 10^7 keys). Distinct keys have one sorted
    order, so the result is the plain sort's.
    """
    n = key.size
    if n <= 2 * _SORT_BLOCK:
        key.sort()
        return
    for s in range(0, n, _SORT_BLOCK):
        key[s:s + _SORT_BLOCK].sort()
    width = _SORT_BLOCK
    while width < n:
        for s in range(0, n - width, 2 * width):
            key[s:s + 2 * width].sort(kind="stable")
        width *= 2


def _take(x: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``x[order]`` in chunks (each call short, so Ctrl-C is seen promptly)."""
    out = np.empty(order.size, dtype=x.dtype)
    for s in range(0, order.size, _SORT_BLOCK):
        np.take(x, order[s:s + _SORT_BLOCK], out=out[s:s + _SORT_BLOCK])
    return out


def stable_argsort(x, payload=None):
    """``np.argsort(x, kind="stable")`` and the sorted values, for finite doubles.

    The order is by (value, index) exactly as the stable argsort's, found
    about twice as fast for long inputs: each value's order-preserving bit
    pattern keeps its high bits, the index fills the low ones, and the
    resulting integers are sorted as plain values (numpy's vectorised sort).
    Values that agree in those high bits but differ below them are then put
    in order by a stable sort of just those few runs.

    With ``payload`` (doubles of the same length), ``payload[order]`` is
    returned third (the re-sorted runs fixed in both). Besides the three
    results, only the n sort keys exist at a time: the order is taken from
    them in place.
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    if n < 2:
        if payload is not None:
            return np.arange(n), x + 0.0, np.asarray(payload, dtype=np.float64).ravel()[:n].copy()
        return np.arange(n), x + 0.0
    shift = np.uint64(max(1, (n - 1).bit_length()))
    if np.signbit(x).any():
        x = x + 0.0  # -0.0 ties with 0.0, as it compares
        bits = x.view(np.uint64)
        # Order-preserving map of doubles onto unsigned integers.
        key = np.where(np.signbit(x), ~bits, bits | np.uint64(1 << 63)) >> shift
    else:
        key = x.view(np.uint64) >> shift  # nonnegative doubles order as their bits
    key <<= shift
    key |= np.arange(n, dtype=np.uint64)
    _sort_distinct(key)
    key &= np.uint64((1 << int(shift)) - 1)
    order = key.view(np.int64)  # the index bits, in place
    del key
    pay = None if payload is None else np.asarray(payload, dtype=np.float64).ravel()
    xs = _take(x, order)
    ps = None if pay is None else _take(pay, order)
    # The high bits ascend, so the values descend only inside a run of equal
    # high bits, where the index order is right unless they do; only such
    # runs are re-sorted (ties never are).
    bad = np.flatnonzero(xs[1:] < xs[:-1])
    if bad.size:
        if np.signbit(xs[0]):
            bits = xs.view(np.uint64)
            high = np.where(np.signbit(xs), ~bits, bits | np.uint64(1 << 63)) >> shift
            lo = np.unique(np.searchsorted(high, high[bad], side="left"))
            hi = np.searchsorted(high, high[lo], side="right")
            del high
        else:
            # Nonnegative: a run holds the doubles whose bits lie in
            # [hb << shift, (hb + 1) << shift); xs is sorted across runs, so
            # bisecting on the run's end values finds its bounds (no n-long
            # array of high bits).
            hb = np.unique(xs[bad].view(np.uint64) >> shift)
            lo = np.searchsorted(xs, (hb << shift).view(np.float64), side="left")
            hi = np.searchsorted(xs, (((hb + np.uint64(1)) << shift) - np.uint64(1)).view(np.float64),
                                 side="right")
        widths = hi - lo
        members = np.repeat(lo - np.cumsum(widths) + widths, widths) + np.arange(int(widths.sum()))
        run_of = np.repeat(np.arange(lo.size), widths)
        sub = order[members]
        fixed = sub[np.lexsort((sub, xs[members], run_of))]
        order[members] = fixed
        xs[members] = x[fixed]
        if ps is not None:
            ps[members] = pay[fixed]
    if payload is not None:
        return order, xs, ps
    return order, xs


class ScalarKernel:
    """The scalar kernel h_ij = a_i a_j exp(-|r_i - r_j| / h), a = c - r.

    One of the two kernels behind ``skce``, ``mmce``, ``cal_test`` and
    ``cal_ci`` (the other is :class:`CanonicalKernel`); both expose the
    same methods, so no caller branches on the form:

    ``offdiag()``, ``diag()``, ``diag_terms()``
        sum over i != j, sum over i = j, and the h_ii;
    ``weighted_offdiag(ws)``, ``weighted_diag(ws)``
        the same sums with each term weighted by w_i w_j, for every row w of
        a (B, n) block, in the caller's order of the observations;
    ``count_sums(counts, distinct)``
        sum_ij c_i c_j h_ij for resample counts c, minus sum_i c_i h_ii
        when only pairs of distinct draws count (``distinct=True``);
    ``pair_terms(i, j)``
        h_ij for index arrays (R's order of operations);
    ``batch_rows(n_total)``
        how many weight rows to pass at once.

    Points are sorted by r once; weights are permuted into that order
    inside, and every sum, the diagonal included, is taken in it.
    """

    def __init__(self, r, a, h: float):
        r = np.asarray(r, dtype=np.float64)
        a = np.asarray(a, dtype=np.float64)
        self._r_given = r
        self._a_given = a
        self.order, self.r, self.a = stable_argsort(r, payload=a)
        self.h = float(h)
        self.n = r.size
        self._blocks = None
        self._blocks_ok = None

    # -- the protocol --------------------------------------------------------
    def offdiag(self) -> float:
        """sum over i != j of h_ij."""
        return 2.0 * self.lower()

    def diag(self) -> float:
        return float(np.dot(self.a, self.a))

    def diag_terms(self) -> np.ndarray:
        """h_ii in the kernel's (sorted) order."""
        return self.a * self.a

    def weighted_offdiag(self, ws) -> np.ndarray:
        return 2.0 * self.weighted_lower(self.sort_weights(ws))

    def weighted_diag(self, ws) -> np.ndarray:
        own = self.sort_weights(ws)
        return (own * own) @ (self.a * self.a)

    def count_sums(self, counts, distinct: bool) -> np.ndarray:
        cs = self.sort_weights(counts)
        lower = self.weighted_lower(cs)
        a2 = self.a * self.a
        c2 = (cs * cs) @ a2
        if distinct:
            return 2.0 * lower + (c2 - cs @ a2)
        return 2.0 * lower + c2

    def pair_terms(self, i, j) -> np.ndarray:
        return scalar_pair_terms(self._r_given, self._a_given, self.h, i, j)

    def batch_rows(self, n_total: int) -> int:
        return batch_rows(self.n, n_total)

    # -- one weight vector -------------------------------------------------
    def lower(self) -> float:
        """sum over sorted pairs i < j of a_i a_j k_ij."""
        n = self.n
        if n < 2:
            return 0.0
        if n > _SCAN_MAX:
            blocked = self._lower_blocked()
            if blocked is not None:
                return blocked
        x = _scan_inclusive(self.r, self.a.copy(), self.h)
        f1 = np.exp(-((self.r[1:] - self.r[:-1]) / self.h))
        return float(np.dot(self.a[1:] * f1, x[:-1]))

    def _lower_blocked(self) -> Optional[float]:
        """``lower()`` for long inputs: the block sums of ``weighted_lower`` for
        the single weight vector 1, a group of blocks at a time as padded
        rows (O(n), bounded memory, interruptible between groups). None if
        the blocks would be tiny."""
        rs, a, h, n = self.r, self.a, self.h, self.n
        bounds = self._block_bounds()
        if bounds is None:
            return None
        starts = np.array([s for s, _ in bounds], dtype=np.int64)
        ends = np.array([e for _, e in bounds], dtype=np.int64)
        within = np.empty(starts.size)
        head = np.empty(starts.size)
        tail = np.empty(starts.size)
        decay = np.empty(starts.size)
        for g0 in range(0, starts.size, _GROUP):
            st, en = starts[g0:g0 + _GROUP], ends[g0:g0 + _GROUP]
            width = int((en - st).max())
            if int((en - st).min()) == width:
                # Equal blocks tile a contiguous range: views, no gather.
                ri = rs[st[0]:en[-1]].reshape(-1, width)
                ai = a[st[0]:en[-1]].reshape(-1, width)
            else:
                idx = st[:, None] + np.arange(width)[None, :]
                valid = idx < en[:, None]
                # Padding repeats the block's last point with weight 0, so every
                # exponent stays within the block's span.
                idx = np.minimum(idx, (en - 1)[:, None])
                ri = rs[idx]
                ai = np.where(valid, a[idx], 0.0)
            r0 = ri[:, :1]
            c = 0.5 * (r0 + rs[en - 1][:, None])
            cum = np.cumsum(ai * np.exp((ri - c) / h), axis=1)
            v = ai[:, 1:] * np.exp(-((ri[:, 1:] - c) / h))
            within[g0:g0 + st.size] = np.einsum("ij,ij->i", v, cum[:, :-1])
            head[g0:g0 + st.size] = np.einsum("ij,ij->i", ai, np.exp(-((ri - r0) / h)))
            nxt = rs[np.minimum(en, n - 1)][:, None]
            tail[g0:g0 + st.size] = np.einsum("ij,ij->i", ai, np.exp(-((nxt - ri) / h)))
            decay[g0:g0 + st.size] = np.exp(-((nxt[:, 0] - r0[:, 0]) / h))
        total = 0.0
        carry = 0.0
        for k in range(starts.size):
            if k > 0:
                total += carry * float(head[k])
            total += float(within[k])
            carry = carry * float(decay[k]) + float(tail[k])
        return total

    def total(self) -> float:
        """sum over all i, j."""
        return self.diag() + 2.0 * self.lower()

    # -- many weight vectors -----------------------------------------------
    def sort_weights(self, w: np.ndarray) -> np.ndarray:
        # np.take keeps rows C-contiguous (w[:, order] would give a strided copy).
        return np.take(np.asarray(w), self.order, axis=1)

    def _block_bounds(self):
        """(start, end) of the blocks of the sorted points, or None if they would be too small."""
        rs, h, n = self.r, self.h, self.n
        limit = max(1, n // _MIN_MEAN_BLOCK)
        # Usually every block is a full _BLOCK: check that at once, with the
        # same comparisons as the loop below (rs[e - 1] <= rs[s] + _SPAN * h).
        grid = np.arange(0, n, _BLOCK)
        ends = np.minimum(grid + _BLOCK, n)
        if grid.size <= limit + 1 and bool(np.all(rs[ends - 1] <= rs[grid] + _SPAN * h)):
            return list(zip(grid.tolist(), ends.tolist()))
        starts = []
        s = 0
        while s < n:
            if len(starts) > limit:
                return None
            e = min(s + _BLOCK, int(np.searchsorted(rs, rs[s] + _SPAN * h, side="right")))
            e = max(e, s + 1)
            starts.append((s, e))
            s = e
        return starts

    def _prepare_blocks(self) -> bool:
        """Partition the sorted points into blocks; False if they would be too small."""
        if self._blocks_ok is not None:
            return self._blocks_ok
        rs, a, h, n = self.r, self.a, self.h, self.n
        starts = self._block_bounds()
        if starts is None:
            self._blocks_ok = False
            return False
        blocks = []
        for s, e in starts:
            ri = rs[s:e]
            ai = a[s:e]
            c = 0.5 * (ri[0] + ri[-1])
            u = ai * np.exp((ri - c) / h)
            v = ai * np.exp(-((ri - c) / h))
            g = ai * np.exp(-((ri - ri[0]) / h))
            if e < n:
                q = ai * np.exp(-((rs[e] - ri) / h))
                decay = math.exp(-((rs[e] - ri[0]) / h))
            else:
                q, decay = None, 0.0
            blocks.append((s, e, u, v[1:], g, q, decay))
        self._blocks = blocks
        self._blocks_ok = True
        return True

    def weighted_lower(self, ws: np.ndarray) -> np.ndarray:
        """For each row w of ``ws`` (sorted order): sum_{i<j} w_i w_j a_i a_j k_ij."""
        ws = np.asarray(ws, dtype=np.float64)
        if ws.ndim != 2 or ws.shape[1] != self.n:
            raise ValueError("weights must be a (B, n) matrix")
        n_rep = ws.shape[0]
        if self.n < 2:
            return np.zeros(n_rep)
        if not self._prepare_blocks():
            return self._weighted_lower_scan(ws)
        total = np.zeros(n_rep)
        carry = np.zeros(n_rep)
        for s, e, u, v1, g, q, decay in self._blocks:
            wi = ws[:, s:e]
            if s > 0:
                total += carry * (wi @ g)
            if e - s > 1:
                cum = np.cumsum(wi * u, axis=1)
                total += np.einsum("ij,ij->i", wi[:, 1:] * v1, cum[:, :-1])
            if q is not None:
                carry = carry * decay + wi @ q
        return total

    def _weighted_lower_scan(self, ws: np.ndarray) -> np.ndarray:
        x = ws * self.a
        wa = x.copy()
        _scan_inclusive(self.r, x, self.h)
        f1 = np.exp(-((self.r[1:] - self.r[:-1]) / self.h))
        return np.einsum("ij,ij->i", wa[:, 1:] * f1, x[:, :-1])


def _check_h(bandwidth) -> float:
    # The low-level sums take only a number (callers resolve "median" first).
    return check_bandwidth(bandwidth, allow_median=False)


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def scalar_kernel_sum(r, a, bandwidth) -> float:
    """sum over all i, j of a_i a_j exp(-|r_i - r_j| / bandwidth).

    O(n log n) time and O(n) memory; exact for ties and for every positive
    bandwidth (no factor above 1 is ever formed).

    R equivalent: ``sum(outer(a, a) * exp(-abs(outer(r, r, "-")) / bandwidth))``.

    Parameters
    ----------
    r, a : array_like
        Points and weights, same length.
    bandwidth : float
        Positive finite Laplacian bandwidth.

    Returns
    -------
    float

    Examples
    --------
    >>> print(f"{scalar_kernel_sum([0.1, 0.3], [1.0, -1.0], 0.2):.7g}")  # 2 - 2 exp(-1)
    1.264241
    """
    h = _check_h(bandwidth)
    r = np.asarray(r, dtype=np.float64).ravel()
    a = np.asarray(a, dtype=np.float64).ravel()
    if r.size != a.size:
        raise ValueError("`r` and `a` must have the same length")
    return ScalarKernel(r, a, h).total()


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def scalar_kernel_sum_batched(r, a, bandwidth, weights) -> np.ndarray:
    """Row-wise ``scalar_kernel_sum(r, w * a, bandwidth)`` for a (B, n) weight matrix.

    O(B n) after one sort; no Python loop per replicate.

    R equivalent: ``apply(weights, 1, function(w) sum(outer(w * a, w * a) * K))``.

    Returns
    -------
    numpy.ndarray of shape (B,)
    """
    h = _check_h(bandwidth)
    r = np.asarray(r, dtype=np.float64).ravel()
    a = np.asarray(a, dtype=np.float64).ravel()
    kern = ScalarKernel(r, a, h)
    ws = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    return kern.weighted_diag(ws) + kern.weighted_offdiag(ws)


def scalar_pair_terms(r, e, h: float, i, j) -> np.ndarray:
    """h_ij = (e_i e_j) exp(-|r_i - r_j| / h) for index arrays i, j (R's operation order)."""
    return (e[i] * e[j]) * np.exp(-np.abs(r[i] - r[j]) / h)


# ---------------------------------------------------------------------------
# Canonical form.
# ---------------------------------------------------------------------------

def _sq_dist_tile(pi: np.ndarray, pj: np.ndarray, h: Optional[float] = None) -> np.ndarray:
    """Squared Euclidean distances between the rows of two blocks, from differences.

    Each entry is sum_k (pi_k - pj_k)^2 added in column order. With ``h``,
    the entries become exp(-(sqrt(d2) / h)), the kernel factor. The work
    goes in strips of rows small enough to stay in cache through all K
    columns and the elementwise steps (an entry's arithmetic does not depend
    on the strip).
    """
    a, b = pi.shape[0], pj.shape[0]
    out = np.empty((a, b))
    pjt = np.ascontiguousarray(pj.T)
    strip = max(1, min(a, _STRIP_ELEMENTS // max(b, 1)))
    tmp = np.empty((strip, b))
    for r0 in range(0, a, strip):
        r1 = min(r0 + strip, a)
        o = out[r0:r1]
        t = tmp[:r1 - r0]
        np.subtract(pi[r0:r1, 0:1], pjt[0], out=o)
        np.multiply(o, o, out=o)
        for k in range(1, pi.shape[1]):
            np.subtract(pi[r0:r1, k:k + 1], pjt[k], out=t)
            np.multiply(t, t, out=t)
            o += t
        if h is not None:
            np.sqrt(o, out=o)
            o /= -h  # -(d / h): negation is exact, as R's -distance / bandwidth
            np.exp(o, out=o)
    return out


# A pair's squared distance from the Gram identity |a|^2 + |b|^2 - 2 a.b
# carries an absolute error of a few eps * (|a|^2 + |b|^2); below this share
# of |a|^2 + max |b|^2 (cancellation beyond 2^5) it is taken from the
# coordinate differences instead, so the relative error of every squared
# distance used stays under about 2^5 * 12 eps, and a kernel term's error
# (<= max_x x e^-x times that, for any bandwidth) is far below R's tolerance.
_CLOSE = 2.0 ** -5


def _exact_sq_dist(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """sum_k (pa_k - pb_k)^2 row by row, added in column order (as ``_sq_dist_tile``)."""
    t = pa - pb
    t *= t
    acc = t[:, 0].copy()
    for k in range(1, t.shape[1]):
        acc += t[:, k]
    return acc


def _kernel_tile(pa, pb, ua, ub, h: float) -> np.ndarray:
    """exp(-||pa_i - pb_j|| / h) <ua_i, ub_j> for the rows of two blocks.

    The squared distances come from one matrix product of the rows extended
    by their squared norms, [-2 pa, |pa|^2, 1] [pb, 1, |pb|^2]^T, except for
    the close pairs (see ``_CLOSE``), whose terms are recomputed from the
    coordinate differences at the end. Everything else runs in strips of
    rows that stay in cache; an entry's arithmetic depends only on its two
    rows and on the block it belongs to, never on timing.
    """
    a, b = pa.shape[0], pb.shape[0]
    na = np.einsum("ik,ik->i", pa, pa)
    nb = np.einsum("ik,ik->i", pb, pb)
    ext_a = np.empty((a, pa.shape[1] + 2))
    np.multiply(pa, -2.0, out=ext_a[:, :-2])  # exact: a power of two
    ext_a[:, -2] = na
    ext_a[:, -1] = 1.0
    ext_b = np.empty((pb.shape[1] + 2, b))
    ext_b[:-2] = pb.T
    ext_b[-2] = 1.0
    ext_b[-1] = nb
    close = _CLOSE * (na + nb.max())
    ubt = np.ascontiguousarray(ub.T)
    out = np.empty((a, b))
    flat_out = out.reshape(-1)
    strip = max(1, min(a, _STRIP_ELEMENTS // max(b, 1)))
    tmp = np.empty((strip, b))
    near = np.empty((strip, b), dtype=bool)
    redo = []
    pending = 0
    for r0 in range(0, a, strip):
        r1 = min(r0 + strip, a)
        o = out[r0:r1]
        t = tmp[:r1 - r0]
        m = near[:r1 - r0]
        np.matmul(ext_a[r0:r1], ext_b, out=o)
        np.less(o, close[r0:r1, None], out=m)
        if m.any():
            flat = np.flatnonzero(m)
            o.reshape(-1)[flat] = 0.0  # replaced below; keeps sqrt off negatives
            redo.append(flat + r0 * b)
            pending += flat.size
        np.sqrt(o, out=o)
        o /= -h  # -(d / h): negation is exact, as R's -distance / bandwidth
        np.exp(o, out=o)
        np.matmul(ua[r0:r1], ubt, out=t)
        o *= t
        if pending >= _STRIP_ELEMENTS or (redo and r1 == a):
            # In batches: few calls when close pairs are rare, bounded
            # gathers when they are common.
            flat = np.concatenate(redo)
            rows, cols = np.divmod(flat, b)
            d = np.sqrt(_exact_sq_dist(pa[rows], pb[cols]))
            flat_out[flat] = np.exp(-d / h) * np.einsum("ik,ik->i", ua[rows], ub[cols])
            redo, pending = [], 0
    return out


def canonical_residuals(p_mat: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """u = onehot(y) - p (codes are 1-based)."""
    u = -p_mat
    u[np.arange(p_mat.shape[0]), codes - 1] += 1.0
    return u


def canonical_pair_terms(p_mat, u, h: float, i, j) -> np.ndarray:
    d = np.sqrt(np.sum((p_mat[i] - p_mat[j]) ** 2, axis=-1))
    return np.exp(-d / h) * np.sum(u[i] * u[j], axis=-1)


class CanonicalKernel:
    """The canonical kernel h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j>, u = onehot(y) - p.

    The same methods as :class:`ScalarKernel` (see there). The n x n matrix
    is computed in square tiles; while it fits ``_FULL_BYTES`` it is built
    once, kept, and every block of replicates is one matrix product W H;
    beyond that the tiles are recomputed per block of replicates, so at most
    one tile exists at a time. The off-diagonal sum is always the sum of the
    tile sums (off-diagonal tiles doubled), so it does not depend on which.
    """

    def __init__(self, p_mat, u, h: float, tile: int = _TILE):
        self.p = np.ascontiguousarray(p_mat, dtype=np.float64)
        self.u = np.ascontiguousarray(u, dtype=np.float64)
        self.h = float(h)
        self.n = self.p.shape[0]
        self.tile = int(tile)
        # h_ii = exp(0) <u_i, u_i>.
        self.hdiag = np.einsum("ik,ik->i", self.u, self.u)
        self._full = None
        self._offdiag = None

    # -- the protocol --------------------------------------------------------
    def offdiag(self) -> float:
        if self._offdiag is None:
            if 8 * self.n * self.n <= _FULL_BYTES:
                self._build_full()
            else:
                total = 0.0
                for sa, sb, hab in self._tiles():
                    total += _tile_sum(sa, sb, hab)
                self._offdiag = total
        return self._offdiag

    def diag(self) -> float:
        return float(np.sum(self.hdiag))

    def diag_terms(self) -> np.ndarray:
        return self.hdiag

    def weighted_offdiag(self, ws, progress=None) -> np.ndarray:
        """For each row w: sum_{i != j} w_i w_j h_ij, as matrix products."""
        ws = np.asarray(ws, dtype=np.float64)
        if 8 * self.n * self.n <= _FULL_BYTES:
            full = self._build_full()
            return np.einsum("bj,bj->b", ws @ full, ws)
        total = np.zeros(ws.shape[0])
        for sa, sb, hab in self._tiles():
            part = np.einsum("bj,bj->b", ws[:, sa] @ hab, ws[:, sb])
            total += part if sa.start == sb.start else 2.0 * part
            if progress is not None:
                progress.advance((sb.stop - sb.start) * (sa.stop - sa.start))
        return total

    def weighted_diag(self, ws) -> np.ndarray:
        ws = np.asarray(ws, dtype=np.float64)
        return (ws * ws) @ self.hdiag

    def count_sums(self, counts, distinct: bool) -> np.ndarray:
        off = self.weighted_offdiag(counts)
        hd = self.hdiag
        c2 = (counts * counts) @ hd
        if distinct:
            return off + (c2 - counts @ hd)
        return off + c2

    def pair_terms(self, i, j) -> np.ndarray:
        return canonical_pair_terms(self.p, self.u, self.h, i, j)

    def batch_rows(self, n_total: int) -> int:
        # Bounded memory, and matrix products short enough (about 2^30
        # multiply-adds, a fraction of a second) for Ctrl-C between them.
        n = max(self.n, 1)
        return max(1, min(n_total, _CANONICAL_WEIGHTS_BYTES // (8 * n), _FLOPS_PER_BLOCK // (n * n)))

    # -- tiles -----------------------------------------------------------------
    def _build_full(self) -> np.ndarray:
        """The whole matrix (zero diagonal), assembled from the tiles; also sets the sum."""
        if self._full is None:
            full = np.empty((self.n, self.n))
            total = 0.0
            for sa, sb, hab in self._tiles():
                total += _tile_sum(sa, sb, hab)
                full[sa, sb] = hab
                if sa.start != sb.start:
                    full[sb, sa] = hab.T
            self._full = full
            self._offdiag = total
        return self._full

    def _tile(self, sa: slice, sb: slice) -> np.ndarray:
        d = _kernel_tile(self.p[sa], self.p[sb], self.u[sa], self.u[sb], self.h)
        if sa.start == sb.start:
            np.fill_diagonal(d, 0.0)
        return d

    def _tiles(self):
        """Yield (slice I, slice J, H_IJ) for I <= J, in order; the diagonal of H_II is zero.

        Tiles are computed by up to ``_WORKERS`` threads (numpy releases the
        GIL in its loops), at most that many ahead of the consumer, so the
        memory stays a few tiles; each tile is one thread's, and the consumer
        sees them in the same order, so every sum is the same as computed
        serially.
        """
        n, t = self.n, self.tile
        pairs = [(slice(a, min(a + t, n)), slice(b, min(b + t, n)))
                 for a in range(0, n, t) for b in range(a, n, t)]
        if len(pairs) == 1 or _WORKERS < 2:
            for sa, sb in pairs:
                yield sa, sb, self._tile(sa, sb)
            return
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            pending = []
            nxt = 0
            try:
                for sa, sb in pairs:
                    while nxt < len(pairs) and len(pending) < _WORKERS:
                        pending.append(pool.submit(self._tile, *pairs[nxt]))
                        nxt += 1
                    yield sa, sb, pending.pop(0).result()
            finally:
                for fut in pending:
                    fut.cancel()

    def pair_distances(self):
        """Yield the distance tiles of the pairs i < j (flattened)."""
        n, t = self.n, self.tile
        for a in range(0, n, t):
            sa = slice(a, min(a + t, n))
            for b in range(a, n, t):
                sb = slice(b, min(b + t, n))
                d = np.sqrt(_sq_dist_tile(self.p[sa], self.p[sb]))
                if a == b:
                    iu = np.triu_indices(d.shape[0], k=1)
                    yield d[iu]
                else:
                    yield d.ravel()


def _tile_sum(sa: slice, sb: slice, hab: np.ndarray) -> float:
    s = float(np.sum(hab))
    return s if sa.start == sb.start else 2.0 * s


def kernels(data: "KernelData", h) -> list:
    """The kernel of checked input: one, or K (one per class) for classwise."""
    if data.form in ("binary", "confidence"):
        return [ScalarKernel(data.r, data.c - data.r, h)]
    if data.form == "classwise":
        return [ScalarKernel(data.p[:, k], (data.codes == k + 1).astype(np.float64) - data.p[:, k], h[k])
                for k in range(data.k)]
    return [CanonicalKernel(data.p, canonical_residuals(data.p, data.codes), h)]


# ---------------------------------------------------------------------------
# Exact median of the positive pairwise distances ("median" bandwidth).
# ---------------------------------------------------------------------------

def _median_from_sorted_ranks(z: int, n_pos: int, kth):
    """R's median of the positive distances, given kth(k) = k-th smallest pair
    distance over all pairs (1-based) and z zero distances."""
    if n_pos <= 0:
        raise ProbcalError(_MEDIAN_ERROR)
    half = (n_pos + 1) // 2
    if n_pos % 2 == 1:
        return float(kth(z + half)[0])
    v1, v2 = kth(z + half, z + half + 1)
    return _r_mean2(v1, v2)


def _upper_index(rs: np.ndarray, t: float, run_start: np.ndarray, run_end: np.ndarray) -> np.ndarray:
    """For each i: the smallest j > i with fl(rs_j - rs_i) > t (n if none).

    fl(rs_j - rs_i) is nondecreasing in j, so the pairs with distance <= t in
    row i are a prefix; the bisection on rs_i + t is only a first guess that
    is then moved across whole tie runs until it agrees with the rounded
    differences themselves.
    """
    n = rs.size
    i = np.arange(n)
    with np.errstate(over="ignore", invalid="ignore"):
        k = np.searchsorted(rs, rs + t, side="right")
    k = np.clip(k, i + 1, n)
    for _ in range(200):
        changed = False
        fwd = np.nonzero(k < n)[0]
        if fwd.size:
            m = fwd[(rs[k[fwd]] - rs[fwd]) <= t]
            if m.size:
                k[m] = run_end[k[m]]
                changed = True
        back = np.nonzero(k > i + 1)[0]
        if back.size:
            m = back[(rs[k[back] - 1] - rs[back]) > t]
            if m.size:
                k[m] = np.maximum(run_start[k[m] - 1], m + 1)
                changed = True
        if not changed:
            return k
    raise RuntimeError("median selection did not converge")  # pragma: no cover


def _enumerate(rs, lo, hi):
    widths = hi - lo
    total = int(widths.sum())
    rows = np.repeat(np.arange(rs.size), widths)
    starts = np.cumsum(widths) - widths
    cols = lo[rows] + (np.arange(total) - starts[rows])
    return rs[cols] - rs[rows]


def _select_sorted_pairs(rs: np.ndarray, k: int) -> float:
    """The k-th smallest (1-based) of fl(rs_j - rs_i) over i < j, rs sorted."""
    n = rs.size
    run_start = np.searchsorted(rs, rs, side="left")
    run_end = np.searchsorted(rs, rs, side="right")
    i = np.arange(n)
    lo = i + 1
    hi = np.full(n, n)
    offset = 0
    while True:
        widths = hi - lo
        total = int(widths.sum())
        rel = k - offset
        if total <= _ENUM_CAP:
            d = _enumerate(rs, lo, hi)
            return float(np.partition(d, rel - 1)[rel - 1])
        n_s = min(total, _SAMPLE)
        cum = np.cumsum(widths)
        g = ((np.arange(n_s) + 0.5) * (total / n_s)).astype(np.int64)
        g = np.minimum(g, total - 1)
        rows = np.searchsorted(cum, g, side="right")
        cols = lo[rows] + (g - (cum[rows] - widths[rows]))
        ds = np.sort(rs[cols] - rs[rows])
        q = rel / total * n_s
        spread = 3.0 * math.sqrt(n_s) + 1.0
        ia = int(max(0.0, math.floor(q - spread)))
        ib = int(min(n_s - 1.0, math.ceil(q + spread)))
        t_lo, t_hi = float(ds[ia]), float(ds[ib])
        if ia > 0:
            lo_new = np.clip(_upper_index(rs, np.nextafter(t_lo, -np.inf), run_start, run_end), lo, hi)
        else:
            lo_new = lo
        if ib < n_s - 1:
            hi_new = np.clip(_upper_index(rs, t_hi, run_start, run_end), lo_new, hi)
        else:
            hi_new = hi
        below = int((lo_new - lo).sum())
        inside = int((hi_new - lo_new).sum())
        if below == 0 and inside == total:
            # The bracket is the whole window (its ends are the window's
            # extreme values, typically heavy ties): split three ways at the
            # sample's middle value instead, which always removes that value.
            t = float(ds[min(n_s - 1, int(q))])
            lo_eq = np.clip(_upper_index(rs, np.nextafter(t, -np.inf), run_start, run_end), lo, hi)
            hi_eq = np.clip(_upper_index(rs, t, run_start, run_end), lo_eq, hi)
            below = int((lo_eq - lo).sum())
            equal = int((hi_eq - lo_eq).sum())
            if rel <= below:
                hi = lo_eq
            elif rel <= below + equal:
                return t
            else:
                lo = hi_eq
                offset += below + equal
            continue
        if rel <= below:
            hi = lo_new
        elif rel > below + inside:
            lo = hi_new
            offset += below + inside
        else:
            if t_lo == t_hi:
                # Every candidate left has this one value.
                return t_lo
            lo, hi = lo_new, hi_new
            offset += below


def median_scalar_distance(r) -> float:
    """R ``median()`` of the positive |r_i - r_j| over the pairs i < j, exactly.

    O(n log n) time and O(n) memory for large n: selection by counting the
    pairs below a threshold on the sorted values (no n x n matrix).
    """
    rs = np.sort(np.asarray(r, dtype=np.float64).ravel())
    n = rs.size
    _, counts = np.unique(rs, return_counts=True)
    z = int(np.sum(counts * (counts - 1) // 2))
    n_all = n * (n - 1) // 2
    n_pos = n_all - z
    if n_pos <= 0:
        raise ProbcalError(_MEDIAN_ERROR)
    if n_all <= _ENUM_CAP:
        i = np.arange(n)
        d = _enumerate(rs, i + 1, np.full(n, n))

        def kth(*ks):
            part = np.partition(d, [k - 1 for k in ks])
            return [part[k - 1] for k in ks]

        return _median_from_sorted_ranks(z, n_pos, kth)

    def kth(*ks):
        v1 = _select_sorted_pairs(rs, ks[0])
        if len(ks) == 1:
            return [v1]
        run_start = np.searchsorted(rs, rs, side="left")
        run_end = np.searchsorted(rs, rs, side="right")
        up = _upper_index(rs, v1, run_start, run_end)
        if int((up - (np.arange(n) + 1)).sum()) >= ks[1]:
            return [v1, v1]
        ok = up < n
        v2 = float(np.min(rs[up[ok]] - rs[np.nonzero(ok)[0]]))
        return [v1, v2]

    return _median_from_sorted_ranks(z, n_pos, kth)


def _between_pivots(lo: float, hi: float, count: int) -> np.ndarray:
    """Up to ``count`` doubles strictly between lo < hi, evenly spaced in representation."""
    a = np.float64(lo).view(np.int64)
    b = np.float64(hi).view(np.int64)
    if b - a <= 1:
        return np.empty(0)
    step = max(1, (int(b) - int(a)) // (count + 1))
    ints = np.arange(int(a) + step, int(b), step, dtype=np.int64)[:count]
    return ints.view(np.float64)


def median_canonical_distance(p_mat) -> float:
    """R ``median()`` of the positive Euclidean distances between rows (pairs i < j).

    Exact; the distances are produced tile by tile, so memory stays bounded:
    one pass histograms them against pivots taken from a sample of pairs,
    a second collects the bucket holding the middle rank.
    """
    p_mat = np.ascontiguousarray(p_mat, dtype=np.float64)
    n = p_mat.shape[0]
    n_all = n * (n - 1) // 2
    kern = CanonicalKernel(p_mat, np.zeros_like(p_mat), 1.0)
    if n_all <= _ENUM_CAP:
        d = np.concatenate(list(kern.pair_distances())) if n_all else np.empty(0)
        z = int(np.count_nonzero(d == 0))

        def kth(*ks):
            part = np.partition(d, [k - 1 for k in ks])
            return [part[k - 1] for k in ks]

        return _median_from_sorted_ranks(z, n_all - z, kth)

    # Pivots from a stratified sample of the pairs (deterministic).
    n_s = min(n_all, _SAMPLE)
    g = ((np.arange(n_s) + 0.5) * (n_all / n_s)).astype(np.int64)
    row_len = n - 1 - np.arange(n)
    cum = np.cumsum(row_len)
    rows = np.searchsorted(cum, g, side="right")
    cols = rows + 1 + (g - (cum[rows] - row_len[rows]))
    sample = np.unique(np.sqrt(np.sum((p_mat[rows] - p_mat[cols]) ** 2, axis=1)))
    pivots = sample[np.unique(np.linspace(0, sample.size - 1, min(sample.size, 4095)).astype(np.int64))]

    def histogram(piv):
        # Bucket 2m: strictly between piv[m-1] and piv[m]; bucket 2m+1: equal to piv[m].
        counts = np.zeros(2 * piv.size + 1, dtype=np.int64)
        zeros = 0
        for d in kern.pair_distances():
            zeros += int(np.count_nonzero(d == 0))
            m = np.searchsorted(piv, d, side="left")
            eq = (m < piv.size) & (piv[np.minimum(m, piv.size - 1)] == d)
            counts += np.bincount(2 * m + eq, minlength=counts.size)
        return counts, zeros

    counts, z = histogram(pivots)
    n_pos = n_all - z

    def kth_one(k: int) -> float:
        piv, cnt, base = pivots, counts, 0
        low, high = -np.inf, np.inf
        while True:
            cum_c = np.cumsum(cnt)
            bucket = int(np.searchsorted(cum_c, k - base, side="left"))
            before = base + (int(cum_c[bucket - 1]) if bucket > 0 else 0)
            if bucket % 2 == 1:
                return float(piv[bucket // 2])
            m = bucket // 2
            b_lo = piv[m - 1] if m > 0 else low
            b_hi = piv[m] if m < piv.size else high
            if cnt[bucket] <= _ENUM_CAP:
                vals = np.concatenate([d[(d > b_lo) & (d < b_hi)] for d in kern.pair_distances()])
                rel = k - before
                return float(np.partition(vals, rel - 1)[rel - 1])
            hi_v = b_hi if np.isfinite(b_hi) else np.finfo(np.float64).max
            if np.isfinite(b_lo):
                new_piv = _between_pivots(b_lo, hi_v, 4095)
            else:
                # Below the first pivot: distances are >= +0.0, and 0 gets its own bucket.
                new_piv = np.concatenate(([0.0], _between_pivots(0.0, hi_v, 4095)))
            new_counts = np.zeros(2 * new_piv.size + 1, dtype=np.int64)
            for d in kern.pair_distances():
                d = d[(d > b_lo) & (d < b_hi)]
                mm = np.searchsorted(new_piv, d, side="left")
                eq = (mm < new_piv.size) & (new_piv[np.minimum(mm, new_piv.size - 1)] == d)
                new_counts += np.bincount(2 * mm + eq, minlength=new_counts.size)
            piv, cnt, base, low, high = new_piv, new_counts, before, b_lo, b_hi

    def kth(*ks):
        return [kth_one(k) for k in ks]

    return _median_from_sorted_ranks(z, n_pos, kth)


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
    """The kernel view of a checked :class:`~pycalib_r._forms.Form`."""
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


def estimate(kern, estimator: str) -> float:
    """One kernel's SKCE estimate: uq, biased, or ul over the pairs (1, 2), (3, 4), ...."""
    n = kern.n
    if estimator == "ul":
        i = 2 * np.arange(n // 2)
        return r_mean(kern.pair_terms(i, i + 1))
    if estimator == "uq":
        return kern.offdiag() / (n * (n - 1.0))
    return (kern.offdiag() + kern.diag()) / float(n) ** 2


def skce_from_data(data: KernelData, h, estimator: str) -> float:
    """The SKCE estimate for checked input and a resolved bandwidth."""
    if estimator in ("uq", "ul") and data.n < 2:
        _too_few(estimator)
    per = [estimate(kern, estimator) for kern in kernels(data, h)]
    return per[0] if len(per) == 1 else r_mean(per)


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def skce(p, y, estimator="uq", bandwidth=0.2, type="canonical"):
    r"""Squared kernel calibration error (Widmann, Lindsten & Zachariah 2019).

    R equivalent: ``probcal::skce(p, y, estimator = c("uq", "ul", "biased"),
    bandwidth = 0.2, type = c("canonical", "confidence", "classwise"))``.

    The SKCE is the squared norm of the calibration error in the RKHS of a
    matrix-valued kernel; with h_ij the kernel term of observations i and j,

    * scalar form (binary input, ``type = "confidence"``, and each class of
      ``"classwise"``): h_ij = e_i e_j exp(-|r_i - r_j| / h), with
      r the predicted probability (or top-label confidence), c the 0/1
      outcome (or "top label correct"), and e = c - r;
    * canonical form (matrix input): h_ij = exp(-||p_i - p_j|| / h)
      <u_i, u_j> with u_i = onehot(y_i) - p_i.

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
    return float(skce_from_data(data, resolve_bandwidth(data, bandwidth), estimator))


@quiet_fp  # R: Inf/0/NaN without a word (a tiny bandwidth)
def bind_skce(p, y, estimator="uq", bandwidth=0.2, type="canonical"):
    """``skce()``'s checks in R's order: ``(data, bandwidth, estimator)``, checked
    once for callers that reuse them (``cal_ci``)."""
    estimator = match_arg(estimator, ESTIMATORS)
    bandwidth = check_bandwidth(bandwidth, allow_median=True)
    if is_matrix(p):
        type = match_arg(type, SKCE_TYPES)
    return kernel_data(p, y, type), bandwidth, estimator

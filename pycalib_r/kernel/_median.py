"""The exact median of the positive pairwise distances: ``skce(bandwidth = "median")``.

For the scalar form the distances are |r_i - r_j|, for the canonical form
||p_i - p_j||; both are selected exactly, without the n x n matrix
(:mod:`pycalib_r.kernel._skce`).
"""

from __future__ import annotations

import math

import numpy as np

from ..rbase._errors import ProbcalError
from ._canonical import CanonicalKernel
from ..rbase._rarith import r_mean2 as _r_mean2

# Largest candidate set enumerated explicitly by the exact median selection.
_ENUM_CAP = 1 << 21
_SAMPLE = 1 << 17

_MEDIAN_ERROR = "The median bandwidth is undefined: all predictions are equal."


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

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/binning.R, R/metrics.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: R 4.2.2 src/library/stats/R/quantile.R, src/appl/interv.c, src/main/seq.c (GPL-2.0-or-later), (c) The R Core Team
"""Binning: R's bin edges, quantiles and ``findInterval`` as probcal uses them.

The bin a probability falls in depends on the exact double values of the
edges, so the edges are built the way R builds them: ``seq(0, 1, length.out =
B + 1)`` is ``c(0, (1:(B-1)) * (1/B), 1)`` (so with 10 bins 0.7 falls in bin
7, not 8), and equal-frequency edges come from ``quantile(type = 8)``.
"""

from __future__ import annotations

import numpy as np

from ..inputs._checks import add_note
from ..rstats import quantile_r, type8_combine, type8_positions  # noqa: F401 - binned's names for them
from ..rstats import TYPE8_FUZZ as _TYPE8_FUZZ
from ..rstats import type8_nppm as _type8_nppm

__all__ = [
    "seq01",
    "quantile_r",
    "histogram_breaks",
    "find_bins",
    "type8_positions",
    "type8_combine",
    "assign_bins",
    "equal_width_bins",
    "occupied_bins",
    "equal_freq_groups",
    "breaks_between",
    "distinct_sorted",
    "type8_break",
    "STRATEGIES",
    "stable_order",
    "PY_STRATEGIES",
    "equal_mass_edges",
    "is_python_bins",
    "bin_groups",
]

STRATEGIES = ("equal_width", "equal_freq")
# Python-only: Kumar, Liang & Ma's uniform-mass bins (see equal_mass_edges).
PY_STRATEGIES = STRATEGIES + ("equal_mass",)
_DBL_EPS = np.finfo(np.float64).eps
# Elements one numpy call handles in the chunked loops here (about 0.05 s),
# so Ctrl-C, which Python sees between calls, stops long work quickly.
_SORT_CHUNK = 1 << 20


def seq01(length_out: int) -> np.ndarray:
    """R ``seq(0, 1, length.out = length_out)`` bit for bit (filled in slices,
    so a long one costs no temporary of its own size)."""
    if length_out <= 2:
        return np.array([0.0, 1.0][:length_out])
    n1 = length_out - 1
    by = 1.0 / n1
    out = _output_array(length_out, "seq(0, 1, length.out = {})")
    for s in range(0, length_out, _SORT_CHUNK):
        e = min(s + _SORT_CHUNK, length_out)
        np.multiply(np.arange(s, e, dtype=np.float64), by, out=out[s:e])
    out[0] = 0.0
    out[-1] = 1.0
    return out


def _output_array(size: int, what: str) -> np.ndarray:
    """``np.empty(size)`` for a result R itself holds in full; when it does not
    fit, R's "cannot allocate vector of size ..." with a note naming the size."""
    from .._rng._args import r_empty  # noqa: PLC0415

    return r_empty(size, f"{what.format(size - 1)} holds {size} doubles "
                         f"({size * 8 / 2 ** 30:.1f} GiB), as in R, where the result has one "
                         "value per bin; use fewer bins.")


def histogram_breaks(p: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    """Bin edges of probcal's ``cal_histogram()`` (and 0.2.0 ``ece(strategy=)``).

    R's ``sort(unique(breaks))`` holds up to ``bins + 1`` values, so this is
    O(bins) memory (one array of R's size; the quantiles are computed in
    slices). Binned metrics never need it for large ``bins``: see
    :func:`equal_freq_groups`.
    """
    if strategy == "equal_width":
        return seq01(bins + 1)
    if bins <= _SORT_CHUNK:
        breaks = quantile_r(p, seq01(bins + 1), type=8)
        breaks[0] = 0.0
        breaks[-1] = 1.0
        return np.unique(breaks)
    xs = np.sort(np.asarray(p, dtype=np.float64).reshape(-1))
    out = _output_array(bins + 1, "quantile(p, seq(0, 1, length.out = {} + 1), type = 8)")
    out[0], out[-1] = 0.0, 1.0
    in_order = True
    for s in range(1, bins, _SORT_CHUNK):
        e = min(s + _SORT_CHUNK, bins)
        part = out[s:e]
        part[:] = type8_break(xs, bins, np.arange(s, e, dtype=np.int64))
        in_order = in_order and out[s - 1] <= part[0] and bool(np.all(part[1:] >= part[:-1]))
    in_order = in_order and out[bins - 1] <= 1.0
    if not in_order:
        out.sort()
    # unique() of sorted values, compacted in place slice by slice.
    size, last = 1, out[0]
    for s in range(1, out.size, _SORT_CHUNK):
        part = out[s:s + _SORT_CHUNK].copy()
        keep = np.empty(part.size, dtype=bool)
        keep[0] = part[0] != last
        np.not_equal(part[1:], part[:-1], out=keep[1:])
        kept = part[keep]
        out[size:size + kept.size] = kept
        size += kept.size
        last = part[-1]
    out.resize(size, refcheck=False)
    return out


def find_bins(p: np.ndarray, breaks: np.ndarray) -> np.ndarray:
    """0-based bin of each value: R ``findInterval(p, breaks, rightmost.closed = TRUE,
    all.inside = TRUE)`` minus one."""
    n_bins = breaks.size - 1
    idx = np.searchsorted(breaks, p, side="right")
    return np.clip(idx, 1, n_bins) - 1


def assign_bins(p: np.ndarray, bins: int, strategy: str = "equal_width"):
    """Edges, the number of bins, and each value's 0-based bin."""
    breaks = histogram_breaks(p, bins, strategy)
    return breaks, breaks.size - 1, find_bins(p, breaks)


def equal_width_bins(p: np.ndarray, bins: int) -> np.ndarray:
    """``find_bins(p, seq01(bins + 1))`` in O(n) memory whatever ``bins``.

    Up to ``2^16`` bins the edges are built and searched. Beyond, edge ``k``
    of ``seq01`` is ``k * (1 / bins)`` (0 and 1 at the ends), so each value's
    bin is found from ``floor(p * bins)`` and corrected against the edges on
    either side, computed the same way. The work goes in slices of
    ``_SORT_CHUNK`` values, so Ctrl-C is seen between them.
    """
    p = np.asarray(p, dtype=np.float64)
    out = np.empty(p.shape, dtype=np.int64)
    flat_p, flat_out = p.reshape(-1), out.reshape(-1)
    edges = seq01(bins + 1) if bins <= 1 << 16 else None
    for s in range(0, flat_p.size, _SORT_CHUNK):
        part = flat_p[s:s + _SORT_CHUNK]
        if edges is not None:
            flat_out[s:s + _SORT_CHUNK] = find_bins(part, edges)
        else:
            flat_out[s:s + _SORT_CHUNK] = _uniform_bins(part, bins)
    return out


def _uniform_bins(p: np.ndarray, bins: int, quotient: bool = False) -> np.ndarray:
    # Edge k is k * (1 / bins), R's seq(0, 1, length.out = bins + 1), or with
    # `quotient` the correctly rounded k / bins.
    by = 1.0 / bins

    def edge(k):
        return k / bins if quotient else k * by

    top = bins - 1
    g = np.clip(np.floor(p * bins), 0, top).astype(np.int64)
    # bin = min(top, max{k : edge_k <= p}); edge 0 is 0.
    while True:
        up = (g < top) & (edge(g + 1) <= p)
        if not up.any():
            break
        g[up] += 1
    while True:
        down = (g > 0) & (edge(g) > p)
        if not down.any():
            break
        g[down] -= 1
    return g


def quotient_bins(p, bins: int) -> np.ndarray:
    """Equal-width bins of ``p`` whose edges are the quotients k / bins (Sun
    et al.'s code), left-closed, with 1 in the last bin. They differ from
    :func:`equal_width_bins` (edges k * (1 / bins), R's ``seq()``) only for a
    value on an edge where the two roundings differ (0.3, 0.6, 0.7 for 10
    bins)."""
    return _uniform_bins(np.asarray(p, dtype=np.float64), int(bins), quotient=True)


def occupied_bins(bin_idx: np.ndarray, n_bins: int):
    """Bin ids for per-bin sums: ``(ids, n_ids)``.

    With no more bins than values (or few bins) the bins themselves; with more,
    only the occupied bins, numbered in increasing order, so that per-bin
    arrays never grow with ``bins`` beyond what the data fill. Empty bins
    carry no weight in any binned metric, so both give the same value.
    """
    if n_bins <= max(bin_idx.size, 1 << 16):
        return bin_idx, n_bins
    occupied, inverse = np.unique(bin_idx, return_inverse=True)
    return inverse.reshape(bin_idx.shape), occupied.size



def stable_order(keys: np.ndarray, chunk: int = _SORT_CHUNK) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` in bounded steps.

    Chunks are sorted separately and merged pairwise; a merge places each
    element by a binary search into the other run (the left run first among
    equal keys), in slices of ``chunk`` queries, so no single call works on
    more than ``chunk`` elements at a time beyond O(n) copies.
    """
    keys = np.asarray(keys)
    n = keys.size
    if n <= chunk:
        return np.argsort(keys, kind="stable")
    if keys.dtype.kind in "ui" and keys.ndim == 1 and n < 1 << 32:
        return _stable_by_rank(keys)
    runs = []
    for s in range(0, n, chunk):
        local = np.argsort(keys[s:s + chunk], kind="stable") + s
        runs.append((local, keys[local]))
    while len(runs) > 1:
        merged = []
        for i in range(0, len(runs) - 1, 2):
            merged.append(_merge_runs(runs[i], runs[i + 1], chunk))
        if len(runs) % 2:
            merged.append(runs[-1])
        runs = merged
    return runs[0][0]


def _stable_by_rank(keys):
    # numpy's unstable argsort (SIMD where the CPU has it) is several times
    # faster than its stable one on 64-bit keys. Equal keys may come out of
    # it in any order: where there are ties, each position is re-sorted by
    # (dense rank of its key, original index), one uint64 per element
    # (rank * n + index < n^2 < 2^64), all distinct, so a plain sort of
    # them gives the stable order.
    n = keys.size
    order = np.argsort(keys)
    sk = keys[order]
    same = sk[1:] == sk[:-1]
    del sk
    if not same.any():
        return order
    rank = np.empty(n, dtype=np.uint64)
    rank[0] = 0
    np.cumsum(~same, out=rank[1:])
    del same
    rank *= np.uint64(n)
    rank += order.astype(np.uint64)
    rank.sort()
    rank %= np.uint64(n)
    return rank.view(np.int64)


def _merge_runs(left, right, chunk):
    (ia, ka), (ib, kb) = left, right
    out_i = np.empty(ia.size + ib.size, dtype=ia.dtype)
    out_k = np.empty(ka.size + kb.size, dtype=ka.dtype)
    for s in range(0, ka.size, chunk):
        pos = np.searchsorted(kb, ka[s:s + chunk], side="left") + np.arange(s, min(s + chunk, ka.size))
        out_i[pos] = ia[s:s + chunk]
        out_k[pos] = ka[s:s + chunk]
    for s in range(0, kb.size, chunk):
        pos = np.searchsorted(ka, kb[s:s + chunk], side="right") + np.arange(s, min(s + chunk, kb.size))
        out_i[pos] = ib[s:s + chunk]
        out_k[pos] = kb[s:s + chunk]
    return out_i, out_k


# ---------------------------------------------------------------------------
# Equal-frequency bins without materialising the breaks.
#
# R's breaks are q_k = quantile(p, k / bins, type = 8) for k = 1..bins-1 (the
# ends forced to 0 and 1), then sort(unique()). With bins far above n nearly
# all of them fall between two data values and only say where a bin starts.
# The bins the data fill are known once one knows, for each pair of
# neighbouring distinct values v < w, whether some distinct break b < 1 lies
# in (v, w]: a value's bin is the number of distinct breaks at or below it.
#
# q_k is type8_combine of two order statistics with the computed h_k, so it
# is the exact E_k = (1 - h_k) x_lo + h_k x_hi up to the three roundings of
# the interpolation: |q_k - E_k| <= 4.02 * 2^-53 * E_k (plus subnormal
# absolute error), and E_k is non-decreasing in k (nppm_k, j_k and h_k are
# monotone in k). q_k itself is not monotone (adjacent k can swap by an ulp
# or two), so a break is never located by a plain binary search on q_k.
# Instead: if q_k is clearly below v (by a margin far above the rounding
# bound), every k' <= k has q_k' <= v; if q_k is clearly above w, every
# k' >= k has q_k' > w. Two bisections with those tests bound the k that can
# give a break in (v, w]; a witness is then searched among a few k of that
# window (all of them when it is small), then where a bisection finds the
# breaks crossing v, and only a window without a witness there (v and w a
# few ulps apart) is scanned break by break.
# ---------------------------------------------------------------------------

# Far above the 4.02 * 2^-53 relative and ~2^-1074 absolute rounding bounds.
_MARGIN_HI = 1.0 + 2.0 ** -49
_MARGIN_LO = 1.0 - 2.0 ** -49
_TINY = 2.0 ** -1000
# Windows of at most this many breaks are checked whole, larger ones at the
# breaks of _probes() (_SAMPLES of them evenly spaced) before any scan.
_SMALL_WINDOW = 32
_SAMPLES = 9
# Gaps handled by one vectorised pass (bounded temporaries, Ctrl-C between).
_GAP_BLOCK = 1 << 16
# Breaks one step of a scan evaluates (its temporaries stay near 5 MB).
_SCAN_CHUNK = 1 << 16


def type8_break(xs: np.ndarray, bins: int, k: np.ndarray) -> np.ndarray:
    """Inner breaks ``k`` (1-based, ``1 <= k < bins``) of
    ``quantile(xs, seq(0, 1, length.out = bins + 1), type = 8)`` for sorted
    ``xs``: element ``k`` of :func:`quantile_r`'s answer, bit for bit (each
    step is elementwise, so evaluating a few ``k`` gives the same doubles)."""
    by = 1.0 / bins
    probs = np.clip(np.asarray(k, dtype=np.float64) * by, 0.0, 1.0)
    k_lo, k_hi, h = type8_positions(probs, xs.size)
    return type8_combine(xs[k_lo - 1], xs[k_hi - 1], h)


def _type8_j(n: int, bins: int, k: np.ndarray) -> np.ndarray:
    """:func:`type8_positions`'s ``j`` (before clamping) of inner break k."""
    probs = np.clip(k.astype(np.float64) * (1.0 / bins), 0.0, 1.0)
    return np.floor(_type8_nppm(probs, n) + _TYPE8_FUZZ)


def _segment_start(n: int, bins: int, j: np.ndarray) -> np.ndarray:
    """Per order-statistic index ``j``: the smallest k in [1, bins] (bins when
    none below) whose :func:`_type8_j` is ``>= j`` (it is monotone in k).

    A guess from the inverse of ``nppm`` is off by a step or two; it is
    corrected against the exact ``j`` of its neighbours.
    """
    a = 1.0 / 3.0
    guess = np.floor((j - a) / (n + 1 - a - a) * bins)
    k = np.clip(np.nan_to_num(guess), 1, bins).astype(np.int64)
    while True:
        back = (k > 1) & (_type8_j(n, bins, np.maximum(k - 1, 1)) >= j)
        if not back.any():
            break
        k -= back
    while True:
        ahead = (k < bins) & (_type8_j(n, bins, np.minimum(k, bins - 1)) < j)
        if not ahead.any():
            return k
        k += ahead


def _bisect(xs, bins, lo, hi, test):
    """Per element: ``lo < hi`` with ``test`` false at ``lo`` and true at
    ``hi`` (or virtual ends 0 / bins); narrowed until ``hi = lo + 1``."""
    while True:
        open_ = hi - lo > 1
        if not open_.any():
            return lo, hi
        mid = (lo + hi) // 2
        yes = open_ & test(type8_break(xs, bins, np.where(open_, mid, 1)))
        hi = np.where(yes, mid, hi)
        lo = np.where(open_ & ~yes, mid, lo)


def _candidate_window(xs, bins, v, w, v_first, w_last):
    """``[first, stop)``: outside it no inner break lies in ``(v, w]``.

    Below ``first`` every break is clearly below ``v``, from ``stop`` on
    clearly above ``w`` (margins far above the rounding bound, and E_k is
    monotone). The bisections start from the order statistics: breaks whose
    j is at least v's first position are not clearly below v (E_k >= v), and
    those with j below w's last position are not clearly above w
    (E_k <= w); the other ends are checked before they are used.
    """
    n = xs.size
    below_v = v * _MARGIN_LO - _TINY
    above_w = w * _MARGIN_HI + _TINY

    def not_below(q):
        return ~(q * _MARGIN_HI + _TINY <= below_v)

    def above(q):
        return q * _MARGIN_LO - _TINY > above_w

    hi = _segment_start(n, bins, v_first)
    lo = np.maximum(_segment_start(n, bins, v_first - 1) - 1, 0)
    lo = np.where((lo > 0) & not_below(type8_break(xs, bins, np.maximum(lo, 1))), 0, lo)
    first = _bisect(xs, bins, lo, np.maximum(hi, lo + 1), not_below)[1]
    lo = np.maximum(_segment_start(n, bins, w_last) - 1, first - 1)
    hi = _segment_start(n, bins, w_last + 1)
    hi = np.where((hi < bins) & ~above(type8_break(xs, bins, np.minimum(hi, bins - 1))), bins, hi)
    stop = _bisect(xs, bins, lo, np.maximum(hi, lo + 1), above)[1]
    # From the largest value's first copy on, every break is that value
    # itself (ties and the top: no interpolation), so none lies above a v at
    # or beyond it (a resample's largest value, in cal_ci).
    top_first = int(np.searchsorted(xs, xs[-1], side="left")) + 1
    top = _segment_start(n, bins, np.full(v.shape, top_first))
    stop = np.where(v >= xs[-1], np.minimum(stop, np.maximum(top, first)), stop)
    return first, stop


def _is_witness(q, v, w):
    return (q > v) & (q <= w) & (q < 1.0)


def _gaps_with_a_break(xs, bins, v, w, v_first, w_first, w_last):
    """For each gap ``(v[i], w[i]]``: does some inner break < 1 lie in it?
    Positions are 1-based in ``xs``: first copy of v, first and last of w."""
    first, stop = _candidate_window(xs, bins, v, w, v_first, w_last)
    size = np.maximum(stop - first, 0)
    found = np.zeros(v.shape, dtype=bool)
    small = (size > 0) & (size <= _SMALL_WINDOW)
    if small.any():
        idx = np.flatnonzero(small)
        reps = size[idx]
        gap = np.repeat(idx, reps)
        offset = np.arange(reps.sum()) - np.repeat(np.cumsum(reps) - reps, reps)
        hit = _is_witness(type8_break(xs, bins, first[gap] + offset), v[gap], w[gap])
        found[gap[hit]] = True
    todo = np.flatnonzero(size > _SMALL_WINDOW)
    if todo.size:
        lo_all, hi_all = first[todo], stop[todo] - 1
        start_w = _segment_start(xs.size, bins, w_first[todo])
        keep = np.arange(todo.size)
        for pick in _probes():
            lo, hi = lo_all[keep], hi_all[keep]
            k = np.clip(pick(lo, hi, start_w[keep]), lo, hi)
            gaps = todo[keep]
            hit = _is_witness(type8_break(xs, bins, k), v[gaps], w[gaps])
            found[gaps[hit]] = True
            keep = keep[~hit]
            if not keep.size:
                break
        if keep.size:
            hit = _crossing_witness(xs, bins, first, stop, v, w, todo[keep])
            found[todo[keep][hit]] = True
            keep = keep[~hit]
        for i in todo[keep]:
            found[i] = _scan_window(xs, bins, int(first[i]), int(stop[i]), v[i], w[i])
    return found


def _crossing_witness(xs, bins, first, stop, v, w, gaps):
    """Per gap: is the break where the breaks first exceed v (some k with
    q_(k-1) <= v < q_k, found by bisection: below ``first`` every break is
    <= v, from ``stop`` on > w > v) a witness? It is unless v and w are a
    few ulps apart."""
    k = _bisect(xs, bins, first[gaps] - 1, stop[gaps], lambda q: q > v[gaps])[1]
    inside = k < stop[gaps]
    hit = np.zeros(gaps.size, dtype=bool)
    hit[inside] = _is_witness(type8_break(xs, bins, k[inside]), v[gaps][inside], w[gaps][inside])
    return hit


def _probes():
    """Where a large window is probed for a witness, as functions of its
    ends and of where w's order statistic starts, likeliest first: the
    middle (v and w far apart), around w's start (interpolation towards w,
    and w itself), then evenly spaced breaks."""
    yield lambda lo, hi, start: (lo + hi) // 2
    for d in (-2, -1, 0, 1):
        yield lambda lo, hi, start, d=d: start + d
    for i in range(_SAMPLES):
        yield lambda lo, hi, start, i=i: lo + ((hi - lo) * i) // (_SAMPLES - 1)


def _scan_window(xs, bins, first, stop, v, w) -> bool:
    # Rare (data values a few ulps apart with bins >> n): every break of the
    # window, from the top, where a break equal to w is likeliest.
    for end in range(stop, first, -_SCAN_CHUNK):
        k = np.arange(max(first, end - _SCAN_CHUNK), end, dtype=np.int64)
        if _is_witness(type8_break(xs, bins, k), v, w).any():
            return True
    return False


def breaks_between(xs: np.ndarray, bins: int, v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """For each gap ``(v[i], w[i]]`` (``v < w``): does an inner break < 1 of
    ``quantile(xs, seq(0, 1, length.out = bins + 1), type = 8)`` (sorted
    ``xs``) lie in it? O(len(v) log bins) time, in blocks of gaps.

    The thresholds need not be values of ``xs`` (a resample's quantiles
    against the original values): the bisections start from the order
    statistics on either side of them.
    """
    found = np.zeros(v.shape, dtype=bool)
    for s in range(0, v.size, _GAP_BLOCK):
        vb, wb = v[s:s + _GAP_BLOCK], w[s:s + _GAP_BLOCK]
        found[s:s + _GAP_BLOCK] = _gaps_with_a_break(
            xs, bins, vb, wb, np.searchsorted(xs, vb, side="left") + 1,
            np.searchsorted(xs, wb, side="left") + 1, np.searchsorted(xs, wb, side="right"))
    return found


def equal_freq_groups(p: np.ndarray, bins: int):
    """``occupied_bins(find_bins(p, histogram_breaks(p, bins, "equal_freq")), J)``
    in O(n) memory and O(n log bins) time (see the comment above): the
    occupied bins numbered in increasing order, and their number.

    Binned metrics give empty bins no weight, so these ids give the same
    values, bit for bit, as the bin indices themselves.
    """
    p = np.asarray(p, dtype=np.float64)
    xs = np.sort(p.reshape(-1))
    values = distinct_sorted(xs)
    starts = np.zeros(values.size, dtype=np.int64)
    starts[1:] = breaks_between(xs, bins, values[:-1], values[1:])
    group = np.cumsum(starts)
    ids = group[np.searchsorted(values, p.reshape(-1))].reshape(p.shape)
    return ids, int(group[-1]) + 1 if group.size else 0


def distinct_sorted(xs: np.ndarray, positions: bool = False):
    """The distinct values of sorted ``xs`` (and, if asked, each one's first position)."""
    keep = np.empty(xs.size, dtype=bool)
    keep[:1] = True
    np.not_equal(xs[1:], xs[:-1], out=keep[1:])
    first = np.flatnonzero(keep)
    return (xs[first], first) if positions else xs[first]


# ---------------------------------------------------------------------------
# Python-only bins: the paper's uniform-mass edges, caller's edges, "unique".
# ---------------------------------------------------------------------------


def equal_mass_edges(p: np.ndarray, bins: int) -> np.ndarray:
    """Kumar, Liang & Ma's (2019) uniform-mass bin edges, with 0 and 1 added.

    The sorted values are cut into ``min(bins, n)`` runs as
    ``numpy.array_split`` cuts them (the first ``n % B`` runs one longer);
    an inner edge is the midpoint of the last value of a run and the first
    of the next, as ``calibration.utils.get_equal_bins`` computes it. The
    edges are returned sorted and distinct, with 0 first and 1 last, for
    :func:`find_bins` (left-closed bins; the authors' are right-closed, so a
    value equal to an inner edge, possible only with ties across a cut, goes
    to the upper bin here and the lower one there).
    """
    xs = np.sort(np.asarray(p, dtype=np.float64).reshape(-1))
    n = xs.size
    b = min(int(bins), n)
    if b <= 1:
        return np.array([0.0, 1.0])
    size, extra = divmod(n, b)
    # Run i (0-based) ends at position (i + 1) * size + min(i + 1, extra).
    ends = np.arange(1, b) * size + np.minimum(np.arange(1, b), extra)
    inner = (xs[ends - 1] + xs[ends]) / 2.0
    return np.unique(np.concatenate(([0.0], inner, [1.0])))


def is_python_bins(bins) -> bool:
    """``bins`` is one of the Python-only forms: ``"unique"`` or a vector of
    two or more edges (R's ``bins`` is a single whole number)."""
    if isinstance(bins, str):
        return bins == "unique"
    if isinstance(bins, (list, tuple, np.ndarray)):
        return np.size(bins) >= 2
    return False


def check_edges(edges, p: np.ndarray, arg: str = "bins") -> np.ndarray:
    """A caller's bin edges: finite, strictly increasing, covering ``p``.

    Anything else is R's error for a ``bins`` that is not one whole number
    (what R says to every vector), with a note on the Python-only forms.
    """
    from ..rbase._errors import ProbcalError  # noqa: PLC0415

    try:
        e = np.asarray(edges, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        e = None
    why = None
    if e is None or e.size < 2 or not np.all(np.isfinite(e)) or np.any(np.diff(e) <= 0):
        why = "a vector of edges must be finite and strictly increasing"
    elif p.size and (p.min() < e[0] or p.max() > e[-1]):
        why = (f"the edges span [{e[0]:.7g}, {e[-1]:.7g}] and must cover every prediction, "
               f"which span [{p.min():.7g}, {p.max():.7g}]")
    if why is not None:
        err = ProbcalError(f"Argument `{arg}` must be a single positive integer.")
        add_note(err, f"Python-only, `{arg}` may also be \"unique\" or a vector of bin edges; "
                      f"{why} (e.g. np.linspace(0, 1, 11)).")
        raise err
    return e


def bin_groups(p: np.ndarray, bins, strategy: str = "equal_width", occupied: bool = True):
    """Each value's bin for every form of ``bins``: ``(ids, n_ids, edges)``.

    ``bins`` is a whole number (with ``strategy`` one of
    :data:`PY_STRATEGIES`), a vector of edges (left-closed bins, the last
    closed, as :func:`find_bins`), or ``"unique"`` (one bin per distinct
    value; ``edges`` is then the distinct values). Whole numbers with R's
    strategies go through R's own code (:func:`histogram_breaks`), so R's
    bins are unchanged. With ``occupied`` only occupied bins are numbered
    beyond ``n`` bins (:func:`occupied_bins`); without, ids index the edges.
    """
    p = np.asarray(p, dtype=np.float64)
    if isinstance(bins, str):
        values, inverse = np.unique(p, return_inverse=True)
        return inverse.reshape(p.shape), values.size, values
    if is_python_bins(bins):
        edges = check_edges(bins, p)
    elif strategy == "equal_mass":
        edges = equal_mass_edges(p, bins)
    else:
        edges = histogram_breaks(p, bins, strategy)
    ids = find_bins(p, edges)
    if not occupied:
        return ids, edges.size - 1, edges
    ids, n_ids = occupied_bins(ids, edges.size - 1)
    return ids, n_ids, edges

"""Binning: R's bin edges, quantiles and ``findInterval`` as probcal uses them.

The bin a probability falls in depends on the exact double values of the
edges, so the edges are built the way R builds them: ``seq(0, 1, length.out =
B + 1)`` is ``c(0, (1:(B-1)) * (1/B), 1)`` (so with 10 bins 0.7 falls in bin
7, not 8), and equal-frequency edges come from ``quantile(type = 8)``.
"""

from __future__ import annotations

import numpy as np

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
    "STRATEGIES",
    "stable_order",
]

STRATEGIES = ("equal_width", "equal_freq")
_DBL_EPS = np.finfo(np.float64).eps
# Elements one numpy call handles in the chunked loops here (about 0.05 s),
# so Ctrl-C, which Python sees between calls, stops long work quickly.
_SORT_CHUNK = 1 << 20


def seq01(length_out: int) -> np.ndarray:
    """R ``seq(0, 1, length.out = length_out)`` bit for bit."""
    if length_out <= 2:
        return np.array([0.0, 1.0][:length_out])
    n1 = length_out - 1
    by = 1.0 / n1
    out = np.arange(length_out, dtype=np.float64) * by
    out[0] = 0.0
    out[-1] = 1.0
    return out


def quantile_r(x, probs, type: int = 7) -> np.ndarray:
    """R ``quantile(x, probs, type = type, names = FALSE)`` for types 7 and 8.

    Ported from R 4.2.2's ``quantile.default`` including its fuzz for
    type 8 and the ``x[hi] != qs`` guard that keeps equal neighbours exact.
    """
    xs = np.sort(np.asarray(x, dtype=np.float64))
    probs = np.clip(np.asarray(probs, dtype=np.float64), 0.0, 1.0)
    n = xs.size
    if n == 0:
        return np.full(probs.shape, np.nan)
    if type == 7:
        index = 1 + max(n - 1, 0) * probs
        lo = np.floor(index).astype(np.int64)
        hi = np.ceil(index).astype(np.int64)
        qs = xs[lo - 1].copy()
        x_hi = xs[hi - 1]
        i = (index > lo) & (x_hi != qs)
        h = (index - lo)[i]
        qs[i] = (1 - h) * qs[i] + h * x_hi[i]
        return qs
    if type == 8:
        k_lo, k_hi, h = type8_positions(probs, n)
        return type8_combine(xs[k_lo - 1], xs[k_hi - 1], h)
    raise ValueError("only quantile types 7 and 8 are implemented")


def type8_positions(probs: np.ndarray, n: int):
    """R's type-8 quantile as order statistics: ``(k_lo, k_hi, h)``, 1-based.

    The quantile is ``X(k_lo)`` moved a fraction ``h`` towards ``X(k_hi)``
    (see :func:`type8_combine`); ``j`` uses R 4.2.2's fuzz of four epsilons,
    and indices beyond the sample are clamped as R's padded ``x`` does.
    """
    a = b = 1.0 / 3.0
    fuzz = 4 * _DBL_EPS
    nppm = a + probs * (n + 1 - a - b)
    j = np.floor(nppm + fuzz).astype(np.int64)
    h = nppm - j
    h[np.abs(h) < fuzz] = 0.0
    return np.clip(j, 1, n), np.clip(j + 1, 1, n), h


def type8_combine(x_lo: np.ndarray, x_hi: np.ndarray, h: np.ndarray) -> np.ndarray:
    """R's last step of ``quantile(type = 8)``: take ``x_hi`` where ``h == 1``,
    interpolate where ``0 < h < 1`` and the neighbours differ (``h`` broadcasts
    over leading axes of stacked resamples)."""
    h = np.broadcast_to(h, x_lo.shape)
    qs = x_lo.copy()
    one = h == 1
    qs[one] = x_hi[one]
    other = (0 < h) & (h < 1) & (x_lo != x_hi)
    qs[other] = ((1 - h) * x_lo + h * x_hi)[other]
    return qs


def histogram_breaks(p: np.ndarray, bins: int, strategy: str) -> np.ndarray:
    """Bin edges of probcal's ``cal_histogram()`` (and 0.2.0 ``ece(strategy=)``)."""
    if strategy == "equal_width":
        return seq01(bins + 1)
    breaks = quantile_r(p, seq01(bins + 1), type=8)
    breaks[0] = 0.0
    breaks[-1] = 1.0
    return np.unique(breaks)


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


def _uniform_bins(p: np.ndarray, bins: int) -> np.ndarray:
    by = 1.0 / bins
    top = bins - 1
    g = np.clip(np.floor(p * bins), 0, top).astype(np.int64)
    # bin = min(top, max{k : edge_k <= p}); edges 1..top are k * by, edge 0 is 0.
    while True:
        up = (g < top) & ((g + 1) * by <= p)
        if not up.any():
            break
        g[up] += 1
    while True:
        down = (g > 0) & (g * by > p)
        if not down.any():
            break
        g[down] -= 1
    return g


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

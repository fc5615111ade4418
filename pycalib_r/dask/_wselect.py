# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: _select's counting search with observation weights
"""Weighted order statistics of distributed data (the Dask ``weights`` column).

:mod:`._select` finds the order statistic of rank ``r`` by counting values
per key interval. With observation weights the rank ``t`` (a float) is a
position on the cumulative-weight scale, and the order statistic is the
first value, in sorted order, whose cumulative weight reaches ``t`` (the
replicated sample's, :mod:`pycalib_r.binned._weighted`). The same passes
run with each slot's row count (which decides when an interval is small
enough to gather) and its total weight (which locates the ranks). Rows of
weight 0 are left out (they are never the answer). With whole-number
weights the sums are exact, so the values are the in-memory ones; with
fractional weights the cumulative sums are taken in another order, so a
rank that falls exactly on a boundary could pick the neighbouring value.
"""

from __future__ import annotations

from typing import Dict, List

import numpy as np

from ._collect import map_reduce
from ._select import _ONE, _value_of, plan_round

__all__ = ["weighted_select_chunk", "weighted_order_statistics"]


class _WInterval:
    __slots__ = ("lo", "hi", "below", "count", "ranks", "cuts")

    def __init__(self, lo, hi, below, count, ranks):
        self.lo, self.hi, self.below, self.count, self.ranks = lo, hi, below, count, ranks
        self.cuts = None


def weighted_select_chunk(keys, w, edges, gather_slots):
    """One chunk's rows and total weight per slot, and its (key, weight) pairs
    in the gathered slots (slot i: ``edges[i] <= key < edges[i + 1]``)."""
    slot = np.searchsorted(edges, keys, side="right").astype(np.int64) - 1
    inside = slot >= 0
    counts = np.bincount(slot[inside], minlength=edges.size)
    weight = np.bincount(slot[inside], weights=w[inside], minlength=edges.size)
    keep = np.isin(slot, gather_slots) if gather_slots.size else np.zeros(keys.size, dtype=bool)
    return counts, weight, keys[keep], w[keep]


def weighted_order_statistics(pairs, chunk_fn, spec, blocks, n_problems: int, rows: List[int],
                              wanted: List[np.ndarray]) -> List[Dict[float, float]]:
    """Values at the cumulative-weight ranks ``wanted[j]`` of problem ``j``.

    ``chunk_fn(p_chunk, y_chunk, spec, plans, w_chunk)`` returns per problem
    ``("sum", counts_j)``, ``("sum", weight_j)`` and ``("cat", [(keys, w)])``
    from :func:`weighted_select_chunk`; ``blocks`` are the weights' chunks.
    """
    state, found = [], [dict() for _ in range(n_problems)]
    for j in range(n_problems):
        ranks = sorted(set(float(r) for r in wanted[j]))
        state.append([_WInterval(0, _ONE, 0.0, rows[j], ranks)] if ranks else [])
    while any(state):
        plans, meta = plan_round(state, found)
        if not any(state):
            break
        answer = map_reduce(chunk_fn, pairs, spec, plans, per_chunk=blocks)
        for j in range(n_problems):
            split, gather, edges = meta[j]
            if not state[j]:
                continue
            counts = np.asarray(answer[f"counts{j}"], dtype=np.int64)
            weight = np.asarray(answer[f"weight{j}"], dtype=np.float64)
            nxt = []
            for iv in split:
                starts = iv.cuts
                first = int(np.searchsorted(edges, np.uint64(starts[0])))
                c = counts[first:first + len(starts)]
                cw = weight[first:first + len(starts)]
                cum = iv.below + np.cumsum(cw)
                stops = starts[1:] + [iv.hi + 1]
                groups: Dict[int, list] = {}
                for r in iv.ranks:
                    t = min(int(np.searchsorted(cum, r, side="left")), len(starts) - 1)
                    while t > 0 and c[t] == 0:  # rounding past the last occupied slot
                        t -= 1
                    groups.setdefault(t, []).append(r)
                for t, ranks in groups.items():
                    nxt.append(_WInterval(starts[t], stops[t] - 1, float(cum[t] - cw[t]),
                                          int(c[t]), ranks))
            if gather:
                parts = answer.get(f"gathered{j}", [])
                keys = np.concatenate([np.asarray(k, dtype=np.uint64) for k, _ in parts] or
                                      [np.zeros(0, dtype=np.uint64)])
                ws = np.concatenate([np.asarray(v, dtype=np.float64) for _, v in parts] or
                                    [np.zeros(0)])
                order = np.argsort(keys, kind="stable")
                keys, ws = keys[order], ws[order]
                for iv in gather:
                    a = int(np.searchsorted(keys, np.uint64(iv.lo), side="left"))
                    b = int(np.searchsorted(keys, np.uint64(iv.hi), side="right"))
                    cum = iv.below + np.cumsum(ws[a:b])
                    for r in iv.ranks:
                        t = min(int(np.searchsorted(cum, r, side="left")), b - a - 1)
                        found[j][r] = _value_of(int(keys[a + t]))
            state[j] = nxt
    return found

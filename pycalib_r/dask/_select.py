# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: finds order statistics by counting; the quantile formula is pycalib_r.binned._binning's
"""Exact order statistics of distributed data: a few counting passes, O(targets) memory.

``ece(strategy = "equal_freq")`` and ``cal_histogram(strategy = "equal_freq")``
cut at R's type-8 quantiles, each the interpolation of two order statistics
``X(j)`` and ``X(j + 1)`` (:func:`pycalib_r.binned._binning.type8_positions`). Those
are found without sorting or gathering the data:

* a probability ``v >= 0`` is ordered like the unsigned integer of its bits
  (``(v + 0.0).view(uint64)``), so the search runs over integer intervals;
* each pass, every interval still holding a wanted rank is cut into up to
  ``_SLOTS`` equal sub-intervals and each chunk counts its values per
  sub-interval (one ``searchsorted`` against the sorted cut points); the
  counts, summed, say which sub-interval holds each wanted rank;
* an interval holding at most ``_COLLECT`` values is gathered whole in the
  next pass (sorted on the client) and its ranks read off; an interval of a
  single bit pattern is resolved at once.

With 2^16 slots per pass the first pass narrows 10^8 uniform values to
about 10^6 per wanted rank, the second to about 20, which the third
gathers: three passes, client memory O(targets x slots), worker memory one
chunk. The values returned are data values, so the quantiles computed from
them are R's bit for bit.
"""

from __future__ import annotations

from typing import Dict, List

import numpy as np

from ._collect import map_reduce

_SLOTS = 1 << 16
_MIN_SLOTS = 16
_COLLECT = 1 << 15
_ONE = int(np.float64(1.0).view(np.uint64))


def keys_of(v: np.ndarray) -> np.ndarray:
    """Order-preserving integer keys of values in ``[0, 1]`` (-0.0 as 0.0)."""
    return (np.asarray(v, dtype=np.float64) + 0.0).view(np.uint64)


def _value_of(key: int) -> float:
    return float(np.array([key], dtype=np.uint64).view(np.float64)[0])


class _Interval:
    __slots__ = ("lo", "hi", "below", "count", "ranks", "cuts")

    def __init__(self, lo, hi, below, count, ranks):
        self.lo, self.hi, self.below, self.count, self.ranks = lo, hi, below, count, ranks
        self.cuts = None


def _cuts(iv: _Interval, slots: int) -> List[int]:
    width = iv.hi - iv.lo + 1
    if width <= slots:
        return list(range(iv.lo, iv.hi + 1))
    return sorted({iv.lo + (width * t) // slots for t in range(slots)})


class _Plan(dict):
    """Per problem: ``edges`` (sorted uint64 slot starts and interval stops),
    and the slot numbers to gather."""


def _plan(intervals: List[_Interval], slots_total: int):
    split = [iv for iv in intervals if iv.count > _COLLECT and iv.hi > iv.lo]
    gather = [iv for iv in intervals if iv.count <= _COLLECT and iv.hi > iv.lo]
    slots = max(_MIN_SLOTS, slots_total // max(1, len(split)))
    edges = set()
    for iv in split:
        iv.cuts = _cuts(iv, slots)
        edges.update(iv.cuts)
        edges.add(iv.hi + 1)
    for iv in gather:
        edges.add(iv.lo)
        edges.add(iv.hi + 1)
    edges = np.array(sorted(edges), dtype=np.uint64)
    gather_slots = np.array(sorted(int(np.searchsorted(edges, np.uint64(iv.lo))) for iv in gather),
                            dtype=np.int64)
    return split, gather, edges, gather_slots


def select_chunk(keys: np.ndarray, edges: np.ndarray, gather_slots: np.ndarray):
    """One chunk's counts per slot (slot i: ``edges[i] <= key < edges[i + 1]``;
    values below ``edges[0]`` are not counted) and its values in the gathered slots."""
    slot = np.searchsorted(edges, keys, side="right").astype(np.int64) - 1
    inside = slot >= 0
    counts = np.bincount(slot[inside], minlength=edges.size)
    if gather_slots.size:
        keep = np.isin(slot, gather_slots)
        gathered = keys[keep]
    else:
        gathered = keys[:0]
    return counts, gathered


def plan_round(state, found):
    """One round's plans: each problem's intervals that are settled (one key,
    or empty) give their ranks' values to ``found``; the others stay in
    ``state`` and are cut into slots (split) or gathered. Returns per problem
    ``(edges, gather_slots)`` for the chunks and ``(split, gather, edges)``
    for reading their answer (weighted or not: the intervals' ``count`` is
    the rows either way)."""
    plans, meta = [], []
    for j, intervals in enumerate(state):
        todo = []
        for iv in intervals:
            if iv.hi == iv.lo or iv.count == 0:
                for r in iv.ranks:
                    found[j][r] = _value_of(iv.lo)
            else:
                todo.append(iv)
        state[j] = todo
        split, gather, edges, gather_slots = _plan(todo, _SLOTS)
        plans.append((edges, gather_slots))
        meta.append((split, gather, edges))
    return plans, meta


def order_statistics(pairs, chunk_fn, spec, n_problems: int, n: List[int],
                     wanted: List[np.ndarray]) -> List[Dict[int, float]]:
    """Values of the 1-based ranks ``wanted[j]`` of problem ``j``'s values.

    ``chunk_fn(p_chunk, y_chunk, spec, plans)`` returns a merged-dict answer
    with ``("sum", counts_j)`` and ``("cat", [gathered_j])`` per problem, from
    :func:`select_chunk` applied to each problem's keys.
    """
    state = []
    for j in range(n_problems):
        ranks = sorted(set(int(r) for r in wanted[j]))
        state.append([_Interval(0, _ONE, 0, n[j], ranks)] if ranks else [])
    found: List[Dict[int, float]] = [dict() for _ in range(n_problems)]
    while any(state):
        plans, meta = plan_round(state, found)
        if not any(state):
            break
        answer = map_reduce(chunk_fn, pairs, spec, plans)
        for j in range(n_problems):
            split, gather, edges = meta[j]
            if not state[j]:
                continue
            counts = np.asarray(answer[f"counts{j}"], dtype=np.int64)
            nxt = []
            for iv in split:
                starts = iv.cuts
                first = int(np.searchsorted(edges, np.uint64(starts[0])))
                c = counts[first:first + len(starts)]
                cum = iv.below + np.cumsum(c)
                stops = starts[1:] + [iv.hi + 1]
                groups: Dict[int, list] = {}
                for r in iv.ranks:
                    t = int(np.searchsorted(cum, r, side="left"))
                    groups.setdefault(t, []).append(r)
                for t, ranks in groups.items():
                    below = int(cum[t] - c[t])
                    nxt.append(_Interval(starts[t], stops[t] - 1, below, int(c[t]), ranks))
            if gather:
                values = np.sort(np.concatenate([np.asarray(g, dtype=np.uint64)
                                                 for g in answer[f"gathered{j}"]] or
                                                [np.zeros(0, dtype=np.uint64)]))
                for iv in gather:
                    a = int(np.searchsorted(values, np.uint64(iv.lo), side="left"))
                    for r in iv.ranks:
                        found[j][r] = _value_of(int(values[a + r - iv.below - 1]))
            state[j] = nxt
    return found

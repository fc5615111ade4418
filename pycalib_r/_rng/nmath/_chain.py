# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: vectorised evaluation of the algorithms that pycalib_r._rng.nmath._dists translates (and heads)
"""Vectorised draws for algorithms that consume a variable number of uniforms.

nmath's rejection algorithms (``exp_rand``, ``rgamma``, ``rbeta``, ``rpois``)
take one, two, three or more uniforms per draw, decided by the uniforms
themselves. To vectorise them without changing a bit, a block of ``M``
uniforms is drawn and the algorithm is evaluated *as if a draw (or one
attempt of a rejection loop) started at every position j*: that gives its
length ``len[j]`` (uniforms consumed), its value and whether it is accepted.
The positions where R's draws really start are then the chain
``0, len[0], len[0] + len[len[0]], ...``, which :func:`chain_starts` follows
in a few numpy passes; the accepted attempts on the chain, in order, are
R's draws. A position whose algorithm leaves the fast path (``len <= 0``),
or whose draw would run past the block, ends the block; the stream is then
rewound to exactly the uniforms used, and the awkward draw is done by the
scalar port.
"""

from __future__ import annotations

import numpy as np

# Positions per segment when following the chain: the chain is followed in
# all segments at once (lockstep), then the segments are stitched.
_SEG = 512
# Uniforms appended to a block so that evaluators may read a few positions
# ahead of the last one without bounds checks (those draws are discarded).
PAD = 40


def chain_starts(nxt):
    """Positions on the chain ``0 -> nxt[0] -> ...`` below ``M = nxt.size``.

    ``nxt[j] > j`` is where the next draw starts if one starts at j (``M``
    or more: the chain leaves the block). Returns the positions in order.

    Chains started at different positions merge after a few steps, so each
    segment's chain is first followed from the segment's own start, all
    segments in lockstep; then the true entry point of each segment is
    walked (in Python, usually a step or two) until it meets that guessed
    chain.
    """
    m = nxt.size
    if m == 0:
        return np.empty(0, dtype=np.int64)
    nxt = np.asarray(nxt, dtype=np.int64)
    if m <= 4 * _SEG:
        out = []
        p = 0
        nl = nxt.tolist()
        while p < m:
            out.append(p)
            p = nl[p]
        return np.array(out, dtype=np.int64)
    nseg = -(-m // _SEG)
    seg_start = np.arange(nseg, dtype=np.int64) * _SEG
    seg_end = np.minimum(seg_start + _SEG, m)
    mark = np.zeros(m, dtype=bool)
    exits = np.empty(nseg, dtype=np.int64)
    pos = seg_start.copy()
    active = np.arange(nseg)
    while active.size:
        p = pos[active]
        mark[p] = True
        q = nxt[p]
        out_ = q >= seg_end[active]
        exits[active[out_]] = q[out_]
        pos[active] = q
        active = active[~out_]
    # Stitch: segment 0 is entered at 0, its own start.
    entry = int(exits[0])
    for b in range(1, nseg):
        s0 = int(seg_start[b])
        e1 = int(seg_end[b])
        if entry >= e1:  # a draw spans the whole segment
            mark[s0:e1] = False
            continue
        if entry == s0:
            entry = int(exits[b])
            continue
        p = entry
        walked = []
        while p < e1 and not mark[p]:
            walked.append(p)
            p = int(nxt[p])
        mark[s0:_min(p, e1)] = False
        if walked:
            mark[walked] = True
        entry = p if p >= e1 else int(exits[b])
    return np.flatnonzero(mark)


_min = min


def run_blocks(stream, count, evaluate, per_draw, scalar_one, out):
    """Fill ``out[:count]`` with successive draws, leaving the stream where R does.

    Parameters
    ----------
    stream
        Provides ``unif_rand(n)``, ``_snapshot()``, ``_restore(s)`` and
        ``_skip(n)`` (n uniforms): the uniform source of any RNG kind.
    evaluate : callable(U, M) -> (lens, values, accepted)
        The algorithm at every position ``j < M`` of ``U`` (``M + PAD``
        uniforms): uniforms consumed (``<= 0``: leave the fast path),
        value and acceptance (False: a rejected attempt, no draw); each an
        array, or a function of the positions on the chain (evaluated only
        there; acceptance first, then values at the accepted positions).
    per_draw : float
        Expected uniforms per accepted draw (sizes the blocks).
    scalar_one : callable(cursor) -> value or None
        One draw (or one attempt: None when rejected) by the scalar port.
    """
    from ..bitgen._mt import _CHUNK  # the package's bound on temporaries
    from ._cursor import UnifCursor

    done = 0
    while done < count:
        need = count - done
        m = int(_min(need * per_draw * 1.05 + 64, _CHUNK))
        snap = stream._snapshot()
        u = np.empty(m + PAD)
        u[:m] = stream.unif_rand(m)
        u[m:] = 0.5
        lens, vals, acc = evaluate(u, m)
        if not callable(vals) and not callable(acc):
            _resolve_awkward(u, m, lens, vals, acc, scalar_one)
        pos = np.arange(m, dtype=np.int64)
        nxt = pos + np.maximum(lens, 1)
        stop = (lens <= 0) | (nxt > m)
        nxt[stop] = m + 1
        starts = chain_starts(nxt)
        fast = starts[~stop[starts]]
        take = fast[acc(fast) if callable(acc) else acc[fast]]
        if take.size >= need:
            take = take[:need]
            end = int(nxt[take[-1]])
            awkward = False
        else:
            end = int(starts[-1]) if stop[starts[-1]] else m
            awkward = bool(stop[starts[-1]]) and lens[starts[-1]] <= 0
        out[done:done + take.size] = vals(take) if callable(vals) else vals[take]
        done += take.size
        stream._restore(snap)
        stream._skip(end)
        if awkward and done < count:
            with UnifCursor(stream) as cur:
                v = scalar_one(cur)
            if v is not None:
                out[done] = v
                done += 1
    return out


class _ArrayCursor:
    """A cursor over a block's uniforms from position ``j`` (``IndexError`` past its end)."""

    __slots__ = ("_u", "_i", "_end")
    # Blocks run only under R's Inversion normals (other normal kinds take
    # the scalar path), so norm_rand1 uses its own Inversion here.
    norm = None

    def __init__(self, u, j, end):
        self._u, self._i, self._end = u, j, end

    def unif(self):
        i = self._i
        if i >= self._end:
            raise IndexError
        self._i = i + 1
        return self._u[i]


def _resolve_awkward(u, m, lens, vals, acc, scalar_one):
    """Run the scalar port at every position that left the fast path, on
    the block's own uniforms, so the chain goes straight through them
    (a few percent of positions; otherwise each would end a block)."""
    ul = None
    for j in np.flatnonzero(lens <= 0).tolist():
        if ul is None:
            ul = u[:m].tolist()
        cur = _ArrayCursor(ul, j, m)
        try:
            v = scalar_one(cur)
        except IndexError:  # runs past the block: the next block starts here
            continue
        lens[j] = cur._i - j
        acc[j] = v is not None
        if v is not None:
            vals[j] = v

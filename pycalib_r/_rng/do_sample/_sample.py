# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/random.c, src/main/RNG.c, src/main/sort.c, src/library/base/R/sample.R (GPL-2.0-or-later), (c) The R Core Team
"""Sampling as R 4.2.2's ``do_sample`` and ``R_unif_index`` do it.

Index draws by rejection on 16-bit chunks (``sample.kind = "Rejection"``),
partial Fisher-Yates, the hash sampler for huge ``n``, and the weighted
samplers (heapsort order, Walker's alias method). :class:`SamplingMixin`
holds the stream methods; it needs the stream's ``_bg`` (MT19937),
``_advance`` and ``unif_rand``.

R equivalent: ``sample``, ``sample.int`` (``src/main/random.c``,
``R_unif_index`` in ``src/main/RNG.c``).
"""

from __future__ import annotations

import math

import numpy as np

from ...rbase._errors import ProbcalError
from .._args import _check_nonneg_int
from ... import _native
from ..bitgen._mt import (_CHUNK, _INDEX_CHUNK, _INT_MAX, _LITTLE, _Cursor, _index_bits, _words32,
                          on_words)

# Below this many values the numpy passes are as fast as a C call (which
# copies the 624-word key out of the bit generator and back: some tens of us).
_KERNEL_MIN = 1 << 10
# Values per kernel call: about 10 ms of work, so Ctrl-C is seen promptly.
_KERNEL_SLICE = 1 << 22
# Draws without replacement from which the compiled Fisher-Yates runs (the
# Python loop takes 1.5-3 us a draw, the C call's set-up about as long as
# a few dozen draws), the population per draw above which the C loop's
# array (filled with 0..n-1, about 1 ns an item) costs more than the Python
# loop's dict, and the largest population it keeps as an array whatever the
# sample size (R's default path uses the array up to n = 1e7, where
# sample.int switches to the hash sampler).
_NOREPLACE_KERNEL_MIN = 1 << 7
_NOREPLACE_POP_PER_DRAW = 1000
_NOREPLACE_ARRAY_MAX = 10_000_000
# Draws per call of that loop: its reads of the population array miss the
# cache at large n, so slices are shorter than _KERNEL_SLICE.
_NOREPLACE_SLICE = 1 << 20

# Weighted sampling: the compiled loops run from this many items or draws
# (the Python loops take microseconds an item; a C call a few in all).
_WEIGHTED_KERNEL_MIN = 8
# Item steps (scan and shift) per call of the compiled ProbSampleNoReplace.
_WEIGHTED_SLICE_WORK = 1 << 24

_min = min

def _below(v, dn):
    """``v < dn`` for candidate indices (uint64, < 2^53) and R's double ``dn``."""
    if dn == math.floor(dn):
        return v < np.uint64(int(dn))
    return v.astype(np.float64) < dn



class _IndexJoin:
    """How ``rbits(bits)`` candidates are assembled from raw words.

    R joins ``nchunk`` 16-bit chunks (each ``word >> 16``) high to low and
    masks the result to ``bits`` bits. Only the last ``ceil(bits / 16)``
    chunks survive the mask, so the candidate is built by copying those
    chunks' high halves (a uint16 view of the words) into the 16-bit pieces
    of an unsigned integer just wide enough (16, 32 or 64 bits), masking the
    top piece on the way: one strided copy per piece, no shifts and no
    64-bit temporaries.
    """

    __slots__ = ("bits", "nchunk", "dtype", "width", "pieces", "thresh", "all_ok")

    def __init__(self, bits, dn):
        self.bits = bits
        self.nchunk = bits // 16 + 1
        npiece = _min(max(1, -(-bits // 16)), self.nchunk)
        self.width = 1 if npiece == 1 else (2 if npiece == 2 else 4)
        self.dtype = np.dtype({1: np.uint16, 2: np.uint32, 4: np.uint64}[self.width])
        mask = (1 << bits) - 1
        hi = 1 if _LITTLE else 0  # the high half of a word in its uint16 pair
        pieces = []
        for j in range(npiece):  # j = 0 is the least significant piece
            col = j if _LITTLE else self.width - 1 - j
            src = 2 * (self.nchunk - 1 - j) + hi
            pieces.append((col, src, (mask >> (16 * j)) & 0xFFFF))
        self.pieces = pieces
        # For an integer candidate v, v < dn is v < ceil(dn); a threshold
        # beyond every candidate accepts all tries.
        thresh = math.ceil(dn)
        self.all_ok = thresh > mask
        self.thresh = None if self.all_ok else self.dtype.type(thresh)

    def buffer(self, ntry):
        """Zeroed piece buffer for ``ntry`` candidates (unused pieces stay 0)."""
        return np.zeros((ntry, self.width), dtype=np.uint16)

    def join(self, w, buf):
        """Candidates for the tries in ``w`` (``ntry * nchunk`` words),
        written into ``buf[:ntry]``; returns them as a 1-D view."""
        ntry = w.size // self.nchunk
        w16 = w.view(np.uint16).reshape(ntry, 2 * self.nchunk)
        b = buf[:ntry]
        for col, src, m in self.pieces:
            if m == 0xFFFF:
                b[:, col] = w16[:, src]
            else:
                np.bitwise_and(w16[:, src], np.uint16(m), out=b[:, col])
        return b.view(self.dtype).reshape(ntry)



def _worth_compiling(size, low):
    """Whether a call of ``size`` items takes the compiled loop (from ``low``
    items, where the library is loaded; below, the Python loop is as fast)."""
    return size >= low and _native.kernels("rng") is not None


def _sample_kernels(n):
    """The weighted samplers' compiled loops for a problem of size ``n``
    (None below ``_WEIGHTED_KERNEL_MIN`` or where the twins run)."""
    if n < _WEIGHTED_KERNEL_MIN:
        return None
    return _native.kernels("rng")


def _revsort_heap(av, ib):
    """R's ``revsort`` loop in place on 1-based ``av[1..n]``, ``ib[1..n]``
    (slot 0 unused): heapsort into descending order, ties as R leaves them.
    Plain Python on lists here; the compiled twin is ``revsort`` in
    ``pycalib_r/_native/src/rng.c``."""
    n = len(av) - 1
    if n <= 1:
        return
    l = (n >> 1) + 1
    ir = n
    while True:
        if l > 1:
            l -= 1
            ra = av[l]
            ii = ib[l]
        else:
            ra = av[ir]
            ii = ib[ir]
            av[ir] = av[1]
            ib[ir] = ib[1]
            ir -= 1
            if ir == 1:
                av[1] = ra
                ib[1] = ii
                break
        i = l
        j = l << 1
        while j <= ir:
            if j < ir and av[j] > av[j + 1]:
                j += 1
            if ra > av[j]:
                av[i] = av[j]
                ib[i] = ib[j]
                i = j
                j += j
            else:
                j = ir + 1
        av[i] = ra
        ib[i] = ii


def _walker_alias(q, hl, a, n):
    """R's alias-table loop of ``walker_ProbSampleReplace`` in place:
    ``q = p * n`` becomes the cut-offs, ``a`` the aliases (``hl`` is R's
    ``HL`` work array). Plain Python on lists here; the compiled twin is
    ``walker_alias`` in ``pycalib_r/_native/src/rng.c``."""
    h = -1
    lo = n
    for i in range(n):
        if q[i] < 1.:
            h += 1
            hl[h] = i
        else:
            lo -= 1
            hl[lo] = i
    if h >= 0 and lo < n:
        for kk in range(n - 1):
            i = hl[kk]
            j = hl[lo]
            a[i] = j
            q[j] += q[i] - 1
            if q[j] < 1.:
                lo += 1
            if lo >= n:
                break


def _revsort_perm(a):
    """R's ``revsort`` (heapsort into descending order): the sorted values
    and the 1-based identities. Ties are ordered exactly as R's heapsort
    leaves them, so equal probabilities map to the same labels as in R."""
    n = a.size
    if n <= 1 or np.unique(a).size == n:
        # Distinct keys: the descending order is unique, whatever the sort.
        order = np.argsort(-a, kind="stable")
        return a[order], order + 1
    kern = _sample_kernels(n)
    if kern is not None:
        av = np.concatenate(([0.0], a))
        ib = np.arange(n + 1, dtype=np.int64)
        kern.revsort(av, ib)
        return av[1:], ib[1:]
    av = [0.0] + a.tolist()
    ib = list(range(0, n + 1))
    _revsort_heap(av, ib)
    return np.array(av[1:], dtype=np.float64), np.array(ib[1:], dtype=np.int64)


def _fixup_prob(prob, n, k, replace):
    """R's ``FixupProb``: checks in R's order, then normalises (sequential sum)."""
    p = np.array(prob, dtype=np.float64)  # a copy: the caller's vector is untouched
    finite = np.isfinite(p)
    bad = ~finite | (p < 0.0)
    if bad.any():
        first = int(np.argmax(bad))
        if not finite[first]:
            raise ProbcalError("NA in probability vector")
        raise ProbcalError("negative probability")
    pos = p > 0.0
    npos = int(pos.sum())
    if npos == 0 or (not replace and k > npos):
        raise ProbcalError("too few positive probabilities")
    # A running sum in index order, as R's loop adds (zeros add nothing).
    total = float(np.add.accumulate(np.where(pos, p, 0.0))[-1])
    return p / total



class SamplingMixin:
    """The sampling methods of :class:`~pycalib_r._rng.RRandom`."""

    def _mt_kernels_ok(self):
        """True when the compiled samplers may read this stream's words
        (default kinds on ``_bg``, and the compiled library in use)."""
        return _native.kernels("rng") is not None

    def _index_cursor(self):
        """A scalar cursor with ``unif()`` and ``unif_index(dn)`` (R_unif_index)."""
        return _Cursor(self)

    def _index_candidates(self, ntry, nchunk, mask):
        """``ntry`` tries of R's ``rbits``: 16-bit chunks of ``nchunk`` words
        joined high to low, masked to the needed bits (uint64). R's chunk
        ``(int) floor(unif_rand() * 65536)`` is exactly ``word >> 16`` (the
        product is exact, and the fixed-up 0 word still gives 0)."""
        join = _IndexJoin(int(mask).bit_length(), 0.0)
        w = _words32(np.random.Generator(self._bg), ntry * nchunk)
        return join.join(w, join.buffer(ntry)).astype(np.uint64)

    def _unif_index_fill(self, dn, out, offset=0):
        """Fill ``out`` (1-D, contiguous, integer) with successive
        ``R_unif_index(dn) + offset`` values, leaving the stream where R
        leaves it. ``out``'s type must hold ``dn - 1 + offset``.

        Passes of ``_INDEX_CHUNK`` tries are drawn while at least that many
        values are still needed (every try of such a pass is then consumed,
        accepted or not). Only the last, smaller passes can overshoot; those
        alone snapshot the state, and when they end early the stream is
        rewound and advanced by exactly the words R used.
        """
        count = out.size
        if count == 0:
            return out
        if dn <= 0:
            out[:] = offset
            return out
        if count >= _KERNEL_MIN and self._mt_kernels_ok():
            return self._unif_index_kernel(dn, out, offset)
        join = _IndexJoin(_index_bits(dn), dn)
        nchunk = join.nchunk
        rate = _min(1.0, float(dn) / float(2 ** join.bits))
        big = _INDEX_CHUNK
        gen = np.random.Generator(self._bg)
        buf = join.buffer(_min(big, count if join.all_ok else int(count / rate * 1.02) + 32))
        # Accepted candidates go straight into `out` through an unsigned view
        # when the widths agree (they are below dn, so the signed type reads
        # them unchanged); otherwise through a small buffer and a casting copy.
        direct = out.dtype.kind in "iu" and out.dtype.itemsize == join.dtype.itemsize
        dst = out.view(join.dtype) if direct else out
        tmp = None if direct else np.empty(buf.shape[0], dtype=join.dtype)
        sel = np.empty(buf.shape[0], dtype=bool)
        off = join.dtype.type(offset) if direct else offset
        done = 0
        while done < count:
            need = count - done
            snap = None
            if join.all_ok or need >= big:
                ntry = _min(need, big)
            else:
                ntry = _min(int(need / rate * 1.02) + 32, big)
                snap = self._bg.state
            v = join.join(_words32(gen, ntry * nchunk), buf)
            used = ntry
            if join.all_ok:
                k = ntry
                target = dst[done:done + k]
                target[...] = v
            else:
                s = sel[:ntry]
                np.less(v, join.thresh, out=s)
                k = int(np.count_nonzero(s))
                if k >= need:
                    # The need-th acceptance ends R's loop; a pass of `big`
                    # tries only gets here when every try was accepted.
                    used = int(np.flatnonzero(s)[need - 1]) + 1
                    s, v, k = s[:used], v[:used], need
                if direct:
                    target = dst[done:done + k]
                    np.compress(s, v, out=target)
                else:
                    np.compress(s, v, out=tmp[:k])
                    target = dst[done:done + k]
                    target[...] = tmp[:k]
            if offset:
                target += off
            if snap is not None and used != ntry:
                self._bg.state = snap
                self._advance(used * nchunk)
            done += k
        return out

    def _on_words(self, count, step, call):
        """:func:`pycalib_r._rng.bitgen._mt.on_words` on this stream's bit generator."""
        on_words(self._bg, count, step, call)

    def _unif_index_kernel(self, dn, out, offset):
        """:meth:`_unif_index_fill` by the compiled loop."""
        bits = _index_bits(dn)
        self._on_words(out.size, _KERNEL_SLICE, lambda kern, mt, w, pos, a, b: kern.index_fill(
            mt, w, pos, float(dn), bits, out[a:b], offset))
        return out

    def _unif_index_bulk(self, dn, count, offset=0):
        """``count`` successive ``R_unif_index(dn) + offset`` values (int64)."""
        return self._unif_index_fill(dn, np.empty(count, dtype=np.int64), offset)

    def _draw_index(self, dn, k):
        """``k`` draws of ``R_unif_index(dn) + 1`` (with replacement)."""
        return self._unif_index_bulk(dn, k, 1)


    def _draw_noreplace(self, dn, k):
        """R's partial Fisher-Yates: x[j] is drawn, then x[j] <- x[--n].

        R keeps the population in an int array of length ``n``; the compiled
        loop does the same when that array is no bigger than R's default
        path ever needs (``n <= 1e7``, or the sample is a large part of the
        population) and filling it costs less than the draws save
        (``n <= _NOREPLACE_POP_PER_DRAW * k``). Otherwise, and for short
        samples, a dict holds only the moved slots, so ``useHash = FALSE`` on
        a huge ``n`` stays O(k).
        """
        n = int(dn)
        if (_worth_compiling(k, _NOREPLACE_KERNEL_MIN) and n <= _INT_MAX
                and n <= k * _NOREPLACE_POP_PER_DRAW
                and (n <= _NOREPLACE_ARRAY_MAX or 8 * k >= n) and self._mt_kernels_ok()):
            return self._noreplace_kernel(n, k)
        out = np.empty(k, dtype=np.int64)
        swapped = {}
        get = swapped.get
        with self._index_cursor() as cur:
            for i in range(k):
                j = cur.unif_index(float(n))
                out[i] = get(j, j) + 1
                n -= 1
                swapped[j] = get(n, n)
        return out

    def _noreplace_kernel(self, n, k):
        """:meth:`_draw_noreplace` by the compiled loop."""
        out = np.empty(k, dtype=np.int64)
        x = np.arange(n, dtype=np.int32)
        left = [n, _index_bits(float(n))]  # population size and its bits, between slices

        def call(kern, mt, w, pos, a, b):
            pos, left[0], left[1] = kern.noreplace_fill(mt, w, pos, x, left[0], left[1], out, a, b)
            return pos

        self._on_words(k, _NOREPLACE_SLICE, call)
        return out

    def _hash_kernel(self, dn, k):
        """:meth:`_draw_hash` by the compiled loop (R's hash set, R's cap of
        100 redraws)."""
        out = np.empty(k, dtype=np.int64)
        tbits = (2 * k - 1).bit_length()
        table = np.zeros(1 << tbits, dtype=np.uint64)
        bits = _index_bits(dn)
        self._on_words(k, _NOREPLACE_SLICE, lambda kern, mt, w, pos, a, b: kern.hash_fill(
            mt, w, pos, float(dn), bits, table, tbits, out, a, b))
        return out

    def _draw_hash(self, dn, k):
        """R's ``sample2`` (hash rejection of repeats), for huge ``n``."""
        if _worth_compiling(k, _NOREPLACE_KERNEL_MIN) and self._mt_kernels_ok():
            return self._hash_kernel(dn, k)
        out = np.empty(k, dtype=np.int64)
        if k == 0:
            return out
        bits = _index_bits(dn)
        nchunk = bits // 16 + 1
        mask = np.uint64((1 << bits) - 1)
        rate = float(dn) / float(2 ** bits)
        seen_vals = np.empty(0, dtype=np.int64)
        done = 0
        while done < k:
            need = k - done
            ntry = _min(int(need / rate * 1.1) + 64, _CHUNK)
            snap = self._bg.state
            v = self._index_candidates(ntry, nchunk, mask)
            acc = np.flatnonzero(_below(v, dn))
            cand = v[acc].astype(np.int64)
            # Keep first occurrences that are new (R redraws repeats; its
            # 100-redraw cap has probability < 2^-100 of mattering).
            _, first = np.unique(cand, return_index=True)
            first.sort()
            fresh = first[~np.isin(cand[first], seen_vals)]
            take = fresh[:need]
            vals = cand[take]
            out[done:done + take.size] = vals + 1
            done += take.size
            seen_vals = np.concatenate([seen_vals, vals])
            used = int(acc[take[-1]]) + 1 if take.size == need else ntry
            if used != ntry:
                self._bg.state = snap
                self._advance(used * nchunk)
        return out

    def _draw_prob(self, n, p, k, repl):
        """``do_sample`` with normalised weights ``p``: R's three samplers."""
        if repl:
            nc = int(np.count_nonzero(n * p > 0.1))
            if nc > 200:
                return self._walker(n, p, k)
            return self._prob_replace(n, p, k)
        return self._prob_noreplace(n, p, k)

    def _prob_replace(self, n, p, k):
        """R's ``ProbSampleReplace``: inversion on heapsorted probabilities."""
        ps, perm = _revsort_perm(p)
        cum = np.cumsum(ps)  # a running sum, in R's order
        u = self.unif_rand(k)
        j = np.searchsorted(cum[:n - 1], u, side="left")
        return perm[j]

    def _prob_noreplace(self, n, p, k):
        """R's ``ProbSampleNoReplace`` (one uniform per item, chosen item
        removed). R's scan ``mass += p[j]; if (rT <= mass) break`` is the
        first running sum >= rT; ``np.cumsum`` adds in the same order."""
        ps, perm = _revsort_perm(p)
        u = self.unif_rand(k)
        out = np.empty(k, dtype=np.int64)
        kern = _sample_kernels(n)
        if kern is not None:
            ps = np.array(ps, dtype=np.float64)
            perm = np.array(perm, dtype=np.int64)
            # Each draw scans and shifts up to n items: slices of about
            # _WEIGHTED_SLICE_WORK item steps keep Ctrl-C prompt.
            step = max(1, _WEIGHTED_SLICE_WORK // n)
            n1, total = n - 1, 1.0
            for a in range(0, k, step):
                n1, total = kern.prob_noreplace(ps, perm, u, out, a, _min(k, a + step), n1, total)
            return out
        total = 1.0
        n1 = n - 1
        for i in range(k):
            rt = total * u[i]
            j = int(np.searchsorted(np.cumsum(ps[:n1]), rt, side="left"))
            out[i] = perm[j]
            total -= ps[j]
            ps = np.delete(ps, j)
            perm = np.delete(perm, j)
            n1 -= 1
        return out

    def _walker(self, n, p, k):
        """R's ``walker_ProbSampleReplace`` (alias tables as R builds them)."""
        kern = _sample_kernels(max(n, k))
        if kern is None:
            q = (p * n).tolist()
            a = list(range(n))  # R leaves unaliased slots uninitialised; never read
            _walker_alias(q, [0] * n, a, n)
        else:
            q = p * n
            a = np.arange(n)
            kern.walker_alias(q, np.zeros(n, dtype=np.int64), a, n)
        qa = np.array(q) + np.arange(n)
        aa = np.array(a, dtype=np.int64)
        if kern is not None and self._mt_kernels_ok():
            return self._walker_kernel(n, k, qa, aa)
        ks, ru = self._walker_draws(n, k)
        return np.where(ru < qa[ks], ks + 1, aa[ks] + 1)

    def _walker_kernel(self, n, k, qa, aa):
        """Walker's draws by the compiled loop."""
        out = np.empty(k, dtype=np.int64)
        bits = _index_bits(float(n))
        self._on_words(k, _NOREPLACE_SLICE, lambda kern, mt, w, pos, a, b: kern.walker_fill(
            mt, w, pos, n, bits, qa, aa, out, a, b))
        return out

    def _walker_draws(self, n, k):
        """Walker's ``k`` slots and ``rU``: ``R_unif_index(n)`` then
        ``k + unif_rand()`` (R >= 3.6.0's sample.kind = "Rejection")."""
        ks = np.empty(k, dtype=np.int64)
        us = np.empty(k)
        with self._index_cursor() as cur:
            dn = float(n)
            for i in range(k):
                ks[i] = cur.unif_index(dn)
                us[i] = cur.unif()
        return ks, ks + us


    # -- batch primitives for the inference code ------------------------------

    def rademacher(self, n_boot, n, dtype=np.int8):
        """``n_boot`` successive R calls ``sample(c(-1, 1), n, replace = TRUE)``.

        Parameters
        ----------
        n_boot, n : int
            Replicates and signs per replicate.
        dtype : numpy dtype
            Result type (int8 keeps big bootstraps small).

        Returns
        -------
        numpy.ndarray, shape (n_boot, n)
            Row b is R's b-th call. Each sign takes one word: index
            ``floor(u * 65536) & 1``, 0 giving -1.

        R equivalent: ``t(replicate(n_boot, sample(c(-1, 1), n, replace = TRUE)))``.
        """
        n_boot = _check_nonneg_int(n_boot, "n_boot")
        n = _check_nonneg_int(n, "n")
        total = n_boot * n
        out = np.empty(total, dtype=dtype)
        if total == 0:
            return out.reshape(n_boot, n)
        gen = np.random.Generator(self._bg)
        step = _min(4 * _INDEX_CHUNK, total)
        two = np.empty(step, dtype=np.uint8)
        # Bit 16 of a word is bit 0 of its third byte (little-endian).
        lead = 2 if _LITTLE else 1
        for start in range(0, total, step):
            m = _min(step, total - start)
            t = two[:m]
            np.bitwise_and(_words32(gen, m).view(np.uint8)[lead::4], 1, out=t)
            np.left_shift(t, 1, out=t)
            np.subtract(t.view(np.int8), 1, out=out[start:start + m], casting="unsafe")
        return out.reshape(n_boot, n)

    def sample_int_replace(self, n, size, n_rep):
        """``n_rep`` successive R calls ``sample.int(n, size, replace = TRUE)``.

        Parameters
        ----------
        n : int
            Population size (>= 1).
        size, n_rep : int
            Draws per call and number of calls.

        Returns
        -------
        numpy.ndarray of int32 (int64 when n > 2^31 - 1), shape (n_rep, size)
            1-based indices; row r is R's r-th call.

        R equivalent: ``t(replicate(n_rep, sample.int(n, size, replace = TRUE)))``.
        """
        n = _check_nonneg_int(n, "n")
        size = _check_nonneg_int(size, "size")
        n_rep = _check_nonneg_int(n_rep, "n_rep")
        if n == 0 and size > 0:
            raise ProbcalError("invalid first argument")
        out = np.empty(size * n_rep, dtype=np.int32 if n <= _INT_MAX else np.int64)
        return self._unif_index_fill(float(n), out, 1).reshape(n_rep, size)


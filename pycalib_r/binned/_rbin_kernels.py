"""R's per-bin ``mean()`` by the x87 unit (loaded through ``pycalib_r._jit.kernels``).

probcal's binned metrics take ``mean(p[bin == b])`` and ``mean(y[bin == b])``
for every bin: R's ``mean()`` of doubles is a long-double sum in the order of
the observations, divided by the count, plus a second long-double pass over
the deviations from that mean (``summary.c``); of integers it is the
long-double sum divided by the count, rounded once. One pass over the
observations here keeps one 80-bit accumulator per bin in memory (16 bytes,
two float64 slots of a scratch array), so every bin's sum is R's sequential
sum of its own observations, in their order, whatever the bins in between.

numba has no 80-bit type, so each step is a few x87 instructions of inline
assembly on memory operands: ``fldt``/``fstpt`` move an accumulator, the
doubles are widened exactly by ``fldl``, the counts by ``fildll``, and
every operation rounds to the x87's 64-bit significand, as C's ``long
double`` arithmetic does (the numpy twin in ``_rbins`` uses numpy's
``longdouble``, the same type, and gives the same bits: tests/test_rbins.py).

Only for x86 with numpy's 80-bit long double (``_rarith`` checks).
"""

from __future__ import annotations

import llvmlite.binding as _llvm
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pycalib_r._jit import njit

_llvm.initialize_native_asmparser()


def _codegen(text, n_ptr):
    def codegen(context, builder, signature, llargs):
        ptrs = []
        for k in range(n_ptr):
            ary = context.make_array(signature.args[2 * k])(context, builder, llargs[2 * k])
            ptr = builder.gep(ary.data, [llargs[2 * k + 1]])
            ptrs.append(builder.bitcast(ptr, ir.IntType(8).as_pointer()))
        fnty = ir.FunctionType(ir.VoidType(), [p.type for p in ptrs])
        cons = ",".join(["r"] * n_ptr) + ",~{dirflag},~{fpsr},~{flags},~{memory},~{st},~{st(1)},~{st(2)}"
        builder.call(ir.InlineAsm(fnty, text, cons, side_effect=True), ptrs)
        return context.get_dummy_value()

    return codegen


def _typed(args, n_ptr):
    for k in range(n_ptr):
        if not (isinstance(args[2 * k], types.Array) and isinstance(args[2 * k + 1], types.Integer)):
            return False
    return True


def _asm_on_pointers(text, n_ptr):
    """An intrinsic ``f(a0, i0, a1, i1, ...)`` running ``text`` on ``&a_k[i_k]``
    (``$k`` in the text); the text leaves the x87 stack as it found it."""
    if n_ptr == 2:
        @intrinsic
        def _impl(typingctx, a0, i0, a1, i1):
            args = (a0, i0, a1, i1)
            return (types.void(*args), _codegen(text, 2)) if _typed(args, 2) else None
    elif n_ptr == 3:
        @intrinsic
        def _impl(typingctx, a0, i0, a1, i1, a2, i2):
            args = (a0, i0, a1, i1, a2, i2)
            return (types.void(*args), _codegen(text, 3)) if _typed(args, 3) else None
    else:
        @intrinsic
        def _impl(typingctx, a0, i0, a1, i1, a2, i2, a3, i3):
            args = (a0, i0, a1, i1, a2, i2, a3, i3)
            return (types.void(*args), _codegen(text, 4)) if _typed(args, 4) else None
    return _impl


# acc ($0, 80-bit) += x ($1, double)
_ld_add = _asm_on_pointers("fldt ($0)\n\tfaddl ($1)\n\tfstpt ($0)", 2)
# s ($0, 80-bit) = acc ($1, 80-bit) / count ($2, int64)
_ld_div = _asm_on_pointers("fildll ($2)\n\tfldt ($1)\n\tfdiv %st(1), %st\n\tfstpt ($0)\n\tfstp %st(0)", 3)
# t ($0, 80-bit) += x ($2, double) - s ($1, 80-bit)
_ld_dev = _asm_on_pointers("fldt ($1)\n\tfldl ($2)\n\tfsub %st(1), %st\n\tfldt ($0)\n\tfadd %st(1), %st\n\t"
                           "fstpt ($0)\n\tfstp %st(0)\n\tfstp %st(0)", 3)
# out ($0, double) = (double) (s ($1) + t ($2) / count ($3))
_ld_fin = _asm_on_pointers("fildll ($3)\n\tfldt ($2)\n\tfdiv %st(1), %st\n\tfldt ($1)\n\tfadd %st(1), %st\n\t"
                           "fstpl ($0)\n\tfstp %st(0)\n\tfstp %st(0)", 4)
# out ($0, double) = (double) ((long double) k ($1, int64) / count ($2, int64))
_ld_ratio = _asm_on_pointers("fildll ($2)\n\tfildll ($1)\n\tfdiv %st(1), %st\n\tfstpl ($0)\n\tfstp %st(0)", 3)


def _seg_codegen(text, with_s):
    def codegen(context, builder, signature, llargs):
        def ptr(k):
            ary = context.make_array(signature.args[k])(context, builder, llargs[k])
            return builder.bitcast(builder.gep(ary.data, [llargs[k + 1]]), ir.IntType(8).as_pointer())

        i64 = ir.IntType(64)
        dst = ptr(0)
        xk = 4 if with_s else 2
        xp = ptr(xk)
        count = builder.sext(llargs[xk + 2], i64) if llargs[xk + 2].type.width < 64 else llargs[xk + 2]
        ins = [xp, count, dst] + ([ptr(2)] if with_s else [])
        ret = ir.LiteralStructType([xp.type, i64])
        fnty = ir.FunctionType(ret, [v.type for v in ins])
        cons = "=r,=r,0,1,r" + (",r" if with_s else "") + \
            ",~{dirflag},~{fpsr},~{flags},~{memory},~{st},~{st(1)},~{st(2)}"
        builder.call(ir.InlineAsm(fnty, text, cons, side_effect=True), ins)
        return context.get_dummy_value()

    return codegen


# dst ($4, 80-bit) = long double s = 0; s += x[k] for the count ($1) doubles at $0.
_SEG_SUM = ("fldz\n\ttest $1, $1\n\tjz 2f\n1:\n\tfaddl ($0)\n\tadd $$8, $0\n\tdec $1\n\tjnz 1b\n2:\n\t"
            "fstpt ($4)")
# dst ($4) = long double t = 0; t += x[k] - s for s ($5, 80-bit), the same doubles.
_SEG_DEV = ("fldt ($5)\n\tfldz\n\ttest $1, $1\n\tjz 2f\n1:\n\tfldl ($0)\n\tfsub %st(2), %st\n\t"
            "faddp %st, %st(1)\n\tadd $$8, $0\n\tdec $1\n\tjnz 1b\n2:\n\tfstpt ($4)\n\tfstp %st(0)")


# dst ($4, double) = (double) (long double 0 + each of the count doubles at $0):
# R's rowSums() of one row, rounded once.
_ROW_SUM = _SEG_SUM.replace("fstpt ($4)", "fstpl ($4)")


def _seg_intrinsic(text):
    """An intrinsic ``f(dst, di, x, start, count)`` running ``text`` with
    ``$0 = &x[start]``, ``$1 = count`` and ``$4 = &dst[di]``."""
    @intrinsic
    def _impl(typingctx, dst, di, x, start, count):
        args = (dst, di, x, start, count)
        ok = isinstance(dst, types.Array) and isinstance(x, types.Array) and all(
            isinstance(a, types.Integer) for a in (di, start, count))
        return (types.void(*args), _seg_codegen(text, False)) if ok else None
    return _impl


_seg_sum = _seg_intrinsic(_SEG_SUM)
_ld_row_sum = _seg_intrinsic(_ROW_SUM)


@intrinsic
def _seg_dev(typingctx, dst, di, s, si, x, start, count):
    args = (dst, di, s, si, x, start, count)
    ok = all(isinstance(a, types.Array) for a in (dst, s, x)) and all(
        isinstance(a, types.Integer) for a in (di, si, start, count))
    return (types.void(*args), _seg_codegen(_SEG_DEV, True)) if ok else None



def _pair_codegen(text, n_slots):
    # f(acc80, slot_0 .. slot_{n-1}, buf, lo_a, lo_b, count): the text runs
    # with $0 = &buf[lo_a], $1 = &buf[lo_b], $2 = count (all three advanced
    # by the loop) and $6 .. = &acc80[slot_k].
    def codegen(context, builder, signature, llargs):
        i64 = ir.IntType(64)
        i8p = ir.IntType(8).as_pointer()

        def ptr(k, idx):
            ary = context.make_array(signature.args[k])(context, builder, llargs[k])
            return builder.bitcast(builder.gep(ary.data, [idx]), i8p)

        def wide(v):
            return builder.sext(v, i64) if v.type.width < 64 else v

        nb = 1 + n_slots
        pa, pb = ptr(nb, llargs[nb + 1]), ptr(nb, llargs[nb + 2])
        slots = [ptr(0, llargs[1 + k]) for k in range(n_slots)]
        ins = [pa, pb, wide(llargs[nb + 3])] + slots
        ret = ir.LiteralStructType([i8p, i8p, i64])
        fnty = ir.FunctionType(ret, [v.type for v in ins])
        cons = "=r,=r,=r,0,1,2" + ",r" * n_slots + \
            ",~{dirflag},~{fpsr},~{flags},~{memory},~{st},~{st(1)},~{st(2)},~{st(3)},~{st(4)},~{st(5)}"
        builder.call(ir.InlineAsm(fnty, text, cons, side_effect=True), ins)
        return context.get_dummy_value()

    return codegen


# Two runs' sums at once: a ($6) += each of the count doubles at $0, b ($7)
# += each at $1 (80-bit slots, each chain in its own order: two independent
# x87 latency chains interleaved, twice the speed of one).
_PAIR_SUM = ("fldt ($7)\n\tfldt ($6)\n\ttest $2, $2\n\tjz 2f\n1:\n\tfaddl ($0)\n\tfxch %st(1)\n\t"
             "faddl ($1)\n\tfxch %st(1)\n\tadd $$8, $0\n\tadd $$8, $1\n\tdec $2\n\tjnz 1b\n2:\n\t"
             "fstpt ($6)\n\tfstpt ($7)")
# The same for the deviations: t_a ($6) += x - s_a ($8), t_b ($7) += x - s_b ($9).
_PAIR_DEV = ("fldt ($9)\n\tfldt ($8)\n\tfldt ($7)\n\tfldt ($6)\n\ttest $2, $2\n\tjz 2f\n1:\n\t"
             "fldl ($0)\n\tfsub %st(3), %st\n\tfaddp %st, %st(1)\n\t"
             "fldl ($1)\n\tfsub %st(4), %st\n\tfaddp %st, %st(2)\n\t"
             "add $$8, $0\n\tadd $$8, $1\n\tdec $2\n\tjnz 1b\n2:\n\t"
             "fstpt ($6)\n\tfstpt ($7)\n\tfstp %st(0)\n\tfstp %st(0)")


def _pair_ok(args, n_slots):
    return (isinstance(args[0], types.Array) and isinstance(args[1 + n_slots], types.Array)
            and all(isinstance(a, types.Integer) for k, a in enumerate(args) if k not in (0, 1 + n_slots)))


@intrinsic
def _pair_sum(typingctx, acc80, sa, sb, buf, lo_a, lo_b, count):
    args = (acc80, sa, sb, buf, lo_a, lo_b, count)
    return (types.void(*args), _pair_codegen(_PAIR_SUM, 2)) if _pair_ok(args, 2) else None


@intrinsic
def _pair_dev(typingctx, acc80, ta, tb, sa, sb, buf, lo_a, lo_b, count):
    args = (acc80, ta, tb, sa, sb, buf, lo_a, lo_b, count)
    return (types.void(*args), _pair_codegen(_PAIR_DEV, 4)) if _pair_ok(args, 4) else None


@njit
def bin_means(ids, x, c, idx, n_ids, counts, conf, acc):
    """R's per-bin means of the observations ``idx`` (0-based, in that order;
    ``idx`` of length 0 means all of them, in order).

    ``counts`` (int64), ``conf`` (R's double ``mean`` of ``x``) and ``acc``
    (R's integer ``mean`` of the 0/1 ``c``, int64) are filled for the
    ``n_ids`` bins; empty bins get NaN.
    """
    m = idx.size if idx.size > 0 else x.size
    key = _keys(ids, c)
    scratch = _scratch(m, n_ids)
    _one(key, x, idx, 0, m, n_ids, counts, conf, acc, *scratch)


@njit
def bin_means_rows(ids, x, c, idx, n_ids, counts, conf, acc, base=0):
    """:func:`bin_means` of every row of ``idx`` (rows x n, ``base``-based:
    R's 1-based ``sample.int`` draws as they are) into the rows of
    ``counts``, ``conf`` and ``acc`` (rows x n_ids); ``ids`` is either one
    row for all resamples or one row per resample."""
    m = idx.shape[1]
    scratch = _scratch(m, n_ids)
    key = _keys(ids[0], c)
    for r in range(idx.shape[0]):
        if ids.shape[0] > 1 and r > 0:
            key = _keys(ids[r], c)
        _one(key, x, idx[r], base, m, n_ids, counts[r], conf[r], acc[r], *scratch)


@njit
def _keys(ids, c):
    # A bin and a label in one integer: one random read per observation.
    key = np.empty(ids.size, dtype=np.int64)
    for i in range(ids.size):
        key[i] = 2 * ids[i] + c[i]
    return key


@njit
def _scratch(m, n_ids):
    return (np.empty(m, dtype=np.int64), np.empty(m), np.empty(m), np.empty(n_ids + 1, dtype=np.int64),
            np.empty(n_ids, dtype=np.int64), np.empty(4 * n_ids + 8),
            np.empty(8 * n_ids if 8 * n_ids <= m else 0, dtype=np.int64))


@njit
def _one(key, x, idx, base, m, n_ids, counts, conf, acc, kb, xb, buf, start, csum, acc80, hist):
    # The resample is gathered once, in its order; then put in bin order,
    # keeping the order within a bin (a counting sort), so that each bin's
    # two long-double passes run in the x87 registers over a contiguous run.
    use_idx = idx.size > 0
    w = 2 * n_ids
    if hist.size == 4 * w:
        # Few bins: (bin, label) counted in four interleaved copies, so that
        # consecutive rows of one bin do not wait on each other's increment.
        hist[:] = 0
        for j in range(m):
            i = idx[j] - base if use_idx else j
            k = key[i]
            kb[j] = k
            xb[j] = x[i]
            hist[(j & 3) * w + k] += 1
        for b in range(n_ids):
            c1 = hist[2 * b + 1] + hist[w + 2 * b + 1] + hist[2 * w + 2 * b + 1] + hist[3 * w + 2 * b + 1]
            counts[b] = hist[2 * b] + hist[w + 2 * b] + hist[2 * w + 2 * b] + hist[3 * w + 2 * b] + c1
            csum[b] = c1
    else:
        for b in range(n_ids):
            counts[b] = 0
            csum[b] = 0
        for j in range(m):
            i = idx[j] - base if use_idx else j
            k = key[i]
            kb[j] = k
            xb[j] = x[i]
            counts[k >> 1] += 1
            csum[k >> 1] += k & 1
    start[0] = 0
    for b in range(n_ids):
        start[b + 1] = start[b] + counts[b]
    for j in range(m):
        b = kb[j] >> 1
        buf[start[b]] = xb[j]
        start[b] += 1
    # Each bin's run is contiguous in buf, the bins in order: the sums and
    # then the deviations from the means, two bins' chains interleaved
    # (_runs_pass, as in the equal-width kernels), every chain in its bin's order.
    if 4 * n_ids > m:
        # Sparse bins (one per distinct value, ...): bin by bin. A single
        # value's mean is R's 0 + x, then x / 1, plus (x - s) / 1 = 0: the
        # value itself (+0.0 for -0.0, as R's sum from 0).
        lo = 0
        for b in range(n_ids):
            k = counts[b]
            if k == 1:
                conf[b] = 0.0 + buf[lo]
                acc[b] = np.float64(csum[b])
            elif k > 1:
                _seg_sum(acc80, 4 * b, buf, lo, k)
                _ld_div(acc80, 4 * b, acc80, 4 * b, counts, b)
                _seg_dev(acc80, 4 * b + 2, acc80, 4 * b, buf, lo, k)
                _ld_fin(conf, b, acc80, 4 * b, acc80, 4 * b + 2, counts, b)
                _ld_ratio(acc, b, csum, b, counts, b)
            else:
                conf[b] = np.nan
                acc[b] = np.nan
            lo += k
        return
    acc80[:] = 0.0  # all bits zero: 80-bit +0.0
    _runs_pass(buf, counts, n_ids, acc80, 0)
    for b in range(n_ids):
        if counts[b] > 0:
            _ld_div(acc80, 4 * b, acc80, 4 * b, counts, b)
    _runs_pass(buf, counts, n_ids, acc80, 1)
    _finish_bins(acc80, csum, counts, n_ids, conf, acc)


@njit
def _finish_bins(acc80, csum, counts, n_ids, conf, acc):
    # Each non-empty bin's mean from its two 80-bit sums (slots 4b, 4b + 2)
    # and its label ratio; an empty bin is NaN in both.
    for b in range(n_ids):
        if counts[b] > 0:
            _ld_fin(conf, b, acc80, 4 * b, acc80, 4 * b + 2, counts, b)
            _ld_ratio(acc, b, csum, b, counts, b)
        else:
            conf[b] = np.nan
            acc[b] = np.nan




# Observations put in bin order at a time (a 512 KB buffer that stays in
# the core's cache: no page faults, no pass through main memory), when the
# bins are few enough for per-chunk bookkeeping to be small.
_CHUNK = 1 << 16
_CHUNK_BINS = _CHUNK // 16
# Up to this many observations (a 16 MB buffer) the kernel puts the whole
# input in bin order once and both sweeps read that buffer: the second sweep
# then needs no second binning and scatter (1e6 rows: 5.3 -> 4.2 ms). Beyond,
# it goes by chunks: a larger whole-input buffer costs page faults and
# shared-cache misses that vary with the allocator's state and the machine's
# other work, while the chunk's buffers stay in the core's cache.
_WHOLE = 1 << 21
# Per-chunk bin counts kept from the first sweep for the second (which then
# needs no histogram), up to this many (8 bytes each); beyond, recounted.
_KEEP_COUNTS = 1 << 20


@njit
def width_means(x, c, label, bins, counts, conf, acc, keep_max=_KEEP_COUNTS):
    """:func:`bin_means` of R's equal-width bins, found here (``x`` in
    [0, 1], the labels ``c == label``, ``bins`` at most 65,536; ``x`` may
    be a column of a matrix, ``c`` class codes).

    The bin of ``x[i]`` is the last ``k`` with ``k * (1 / bins) <= x[i]``
    (R's ``seq(0, 1, length.out = bins + 1)`` edges, ``findInterval`` with
    ``rightmost.closed`` and ``all.inside``): ``floor(x * bins)``, clipped,
    then one step up or down against its neighbouring edges, as
    ``_binning._uniform_bins`` corrects it. One step is enough: ``x * bins``
    and ``k * (1 / bins)`` are within a few ulps of ``x bins`` and ``k /
    bins``, far less than one bin apart for ``bins <= 2^16``. That pass has
    no branch (it vectorises); the counts come from a histogram of ``2 bin +
    label`` in four interleaved copies, the values are put in bin order (a
    stable counting sort), and each bin's two long-double passes run in the
    x87 registers over its contiguous run (R's sums, in R's order). With few
    bins this goes a chunk of observations at a time, each bin's 80-bit sum
    carried from chunk to chunk (the same additions in the same order): a
    first sweep for the sums, a second for the deviations from the means.
    """
    _means_core(x, c, label, bins, np.empty(0), counts, conf, acc, keep_max)


@njit
def edge_means(x, c, label, edges, counts, conf, acc, keep_max=_KEEP_COUNTS):
    """:func:`width_means` with the bins of the sorted ``edges`` (at most
    65,537 of them): R's ``findInterval(x, edges, rightmost.closed = TRUE,
    all.inside = TRUE)``, the number of edges ``<= x`` by a branch-free
    binary search, clipped to the bins (``numpy.searchsorted(edges, x,
    "right")`` clipped, as ``_binning.find_bins``). Equal-frequency bins
    and a caller's edges; the rest as :func:`width_means`.
    """
    _means_core(x, c, label, edges.size - 1, edges, counts, conf, acc, keep_max)


@njit
def _means_core(x, c, label, bins, edges, counts, conf, acc, keep_max):
    m = x.size
    chunk = _CHUNK if (m > _WHOLE and bins <= _CHUNK_BINS) else max(m, 1)
    bid = np.empty(chunk, dtype=np.uint16)
    buf = np.empty(chunk)
    w = 2 * bins
    hist = np.empty(4 * w, dtype=np.int64)
    local = np.empty(bins, dtype=np.int64)
    csum = np.zeros(bins, dtype=np.int64)
    acc80 = np.zeros(4 * bins + 8)  # all bits zero: 80-bit +0.0
    for b in range(bins):
        counts[b] = 0
    n_chunks = (m + chunk - 1) // chunk
    keep = n_chunks > 1 and n_chunks * bins <= keep_max
    kept = np.empty((n_chunks if keep else 1, bins), dtype=np.int64)
    for sweep in range(2):
        if sweep == 1:
            for b in range(bins):
                if counts[b] > 0:
                    _ld_div(acc80, 4 * b, acc80, 4 * b, counts, b)
        for s in range(0, m, chunk):
            e = min(s + chunk, m)
            row = s // chunk if keep else 0
            # Slices, not offsets: x[s + i] would keep the loops from vectorising.
            if sweep == 0 or chunk < m:  # one chunk: already in order
                _chunk_order(x[s:e], c[s:e], label, bins, bid, hist, local, buf, kept[row], sweep == 1 and keep,
                             edges)
            if sweep == 0:
                if keep:
                    kept[row, :] = local
                for b in range(bins):
                    counts[b] += local[b]
                    csum[b] += hist[2 * b + 1] + hist[w + 2 * b + 1] + hist[2 * w + 2 * b + 1] + \
                        hist[3 * w + 2 * b + 1]
            _runs_pass(buf, local, bins, acc80, sweep)
    _finish_bins(acc80, csum, counts, bins, conf, acc)


@njit
def _chunk_order(x, c, label, bins, bid, hist, local, buf, known, counted, edges):
    # x into buf in bin order (stable); local: each bin's count in it.
    # counted: ``known`` holds those counts already (the first sweep's), so
    # the histogram (and with it hist's label counts) is skipped. The bins:
    # R's equal widths, or (``edges`` not empty) those of the edges.
    n = x.size
    if edges.size:
        _edge_ids(x, edges, bid)
    else:
        _width_ids(x, bins, bid)
    w = 2 * bins
    if counted:
        lo = 0
        for b in range(bins):
            local[b] = lo  # the run's start, for the scatter
            lo += known[b]
    else:
        hist[:] = 0
        for i in range(n):
            hist[(i & 3) * w + 2 * np.int64(bid[i]) + np.int64(c[i] == label)] += 1
        lo = 0
        for b in range(bins):
            k = 0
            for q in range(8):
                k += hist[(q >> 1) * w + 2 * b + (q & 1)]
            local[b] = lo
            lo += k
    for i in range(n):
        b = bid[i]
        buf[local[b]] = x[i]
        local[b] += 1
    # local[b] is now the end of bin b's run: back to the counts.
    prev = 0
    for b in range(bins):
        end = local[b]
        local[b] = end - prev
        prev = end


@njit
def _width_ids(x, bins, bid):
    by = 1.0 / bins
    top = bins - 1
    for i in range(x.size):
        v = x[i]
        g = min(np.int64(v * bins), top)  # v * bins >= 0: truncation is floor
        g += np.int64((g < top) & ((g + 1) * by <= v))
        g -= np.int64((g > 0) & (g * by > v))
        bid[i] = g


@njit
def _edge_ids(x, edges, bid):
    # findInterval(rightmost.closed, all.inside), 0-based: the count of
    # edges <= v, clipped. Few edges: counted one by one (a short loop that
    # vectorises); more: a branch-free binary search over the edges padded
    # with +inf to a power of two.
    ne = edges.size
    top = ne - 2
    if ne <= 32:
        for i in range(x.size):
            v = x[i]
            pos = 0
            for k in range(ne):
                pos += edges[k] <= v
            bid[i] = min(max(pos - 1, 0), top)
        return
    size = 1
    while size < ne:
        size *= 2
    pad = np.full(size, np.inf)
    pad[:ne] = edges
    for i in range(x.size):
        v = x[i]
        pos = 0
        step = size // 2
        while step > 0:
            pos += step * (pad[pos + step - 1] <= v)
            step >>= 1
        pos += pad[pos] <= v  # pos < size: the last candidate
        bid[i] = min(max(pos - 1, 0), top)


@njit
def _runs_pass(buf, counts, n_ids, acc80, sweep):
    # Over the bins' contiguous runs of buf (the bins in order): sweep 0 adds
    # each run to its bin's 80-bit sum (slot 4b), sweep 1 each deviation
    # from its bin's mean (slot 4b, after the division) to slot 4b + 2.
    # Bins go in pairs whose two chains run interleaved over their common
    # length; the longer run's rest is then added to its own chain (a dummy
    # slot takes the other lane's additions). Every chain adds its bin's
    # values in their order.
    dummy = 4 * n_ids
    lo_a = 0
    for b in range(0, n_ids, 2):
        ka = counts[b]
        kb = counts[b + 1] if b + 1 < n_ids else 0
        lo_b = lo_a + ka
        common = min(ka, kb)
        sa, sb = 4 * b, (4 * (b + 1) if b + 1 < n_ids else dummy)
        if sweep == 0:
            _pair_sum(acc80, sa, sb, buf, lo_a, lo_b, common)
            if ka > common:
                _pair_sum(acc80, sa, dummy, buf, lo_a + common, lo_a + common, ka - common)
            elif kb > common:
                _pair_sum(acc80, dummy, sb, buf, lo_b + common, lo_b + common, kb - common)
        else:
            _pair_dev(acc80, sa + 2, sb + 2, sa, sb, buf, lo_a, lo_b, common)
            if ka > common:
                _pair_dev(acc80, sa + 2, dummy + 2, sa, dummy, buf, lo_a + common, lo_a + common,
                          ka - common)
            elif kb > common:
                _pair_dev(acc80, dummy + 2, sb + 2, dummy, sb, buf, lo_b + common, lo_b + common,
                          kb - common)
        lo_a = lo_b + kb


# A chunk of a matrix's rows holds about this many entries (a quarter of a
# core's 1 MB L2 here), at least _COLS_MIN_ROWS rows: each class's column is
# then gathered from cache, not from main memory.
_COLS_CHUNK = 1 << 15
_COLS_MIN_ROWS = 4096


@njit
def width_means_cols(p, codes, bins, counts, conf, acc, keep_max=_KEEP_COUNTS):
    """:func:`width_means` of every column ``j`` of the matrix ``p`` against
    the labels ``codes == j + 1`` (classwise one-vs-rest problems), into
    row ``j`` of ``counts``, ``conf`` and ``acc`` (K x bins), the same bits.

    Rows go a chunk at a time, small enough to stay in the core's cache:
    each class gathers its column of the chunk into a contiguous buffer and
    runs :func:`width_means`'s steps on it, its 80-bit sums carried from
    chunk to chunk (the same additions in the same order as a binary call on
    the column). The matrix is read from memory once per sweep, whatever its
    layout, with no copy of a column and no K x n temporary. With more bins
    than a chunk amortises, each column is gathered whole (one buffer of n)
    and handed to :func:`width_means`.
    """
    m, k = p.shape
    rows = min(m, max(_COLS_MIN_ROWS, _COLS_CHUNK // k))
    if bins * 16 > rows:
        col = np.empty(m)
        for j in range(k):
            for i in range(m):
                col[i] = p[i, j]
            width_means(col, codes, j + 1, bins, counts[j], conf[j], acc[j])
        return
    xcol = np.empty(rows)
    no_edges = np.empty(0)
    bid = np.empty(rows, dtype=np.uint16)
    buf = np.empty(rows)
    w = 2 * bins
    hist = np.empty(4 * w, dtype=np.int64)
    local = np.empty(bins, dtype=np.int64)
    csum = np.zeros((k, bins), dtype=np.int64)
    acc80 = np.zeros((k, 4 * bins + 8))  # all bits zero: 80-bit +0.0
    counts[:, :] = 0
    n_chunks = (m + rows - 1) // rows
    keep = n_chunks * k * bins <= keep_max
    kept = np.empty((n_chunks * k if keep else 1, bins), dtype=np.int64)
    for sweep in range(2):
        if sweep == 1:
            for j in range(k):
                for b in range(bins):
                    if counts[j, b] > 0:
                        _ld_div(acc80[j], 4 * b, acc80[j], 4 * b, counts[j], b)
        for s in range(0, m, rows):
            e = min(s + rows, m)
            n = e - s
            for j in range(k):
                xc = xcol[:n]
                pj = p[s:e, j]
                for i in range(n):
                    xc[i] = pj[i]
                row = (s // rows) * k + j if keep else 0
                _chunk_order(xc, codes[s:e], j + 1, bins, bid, hist, local, buf, kept[row], sweep == 1 and keep,
                             no_edges)
                if sweep == 0:
                    if keep:
                        kept[row, :] = local
                    for b in range(bins):
                        counts[j, b] += local[b]
                        csum[j, b] += hist[2 * b + 1] + hist[w + 2 * b + 1] + hist[2 * w + 2 * b + 1] + \
                            hist[3 * w + 2 * b + 1]
                _runs_pass(buf, local, bins, acc80[j], sweep)
    for j in range(k):
        _finish_bins(acc80[j], csum[j], counts[j], bins, conf[j], acc[j])

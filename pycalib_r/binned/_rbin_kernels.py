"""R's per-bin ``mean()`` by the x87 unit (loaded through ``pycalib_r._jit.kernels``).

probcal's binned metrics take ``mean(p[bin == b])`` and ``mean(y[bin == b])``
for every bin: R's ``mean()`` of doubles is a long-double sum in the order of
the observations, divided by the count, plus a second long-double pass over
the deviations from that mean (``summary.c``); of integers it is the
long-double sum divided by the count, rounded once. The observations are
put in bin order (a stable counting sort: each bin's run keeps their order),
and each bin's two passes run over its contiguous run in the x87 registers,
several bins' chains interleaved; between runs a bin's 80-bit value waits
in 16 bytes (two float64 slots of a scratch array). Every bin's sum is R's
sequential sum of its own observations, in their order.

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
from pycalib_r.inputs._input_kernels import row_band, unit_rows
from pycalib_r.rbase._bits_kernels import ONE_BITS, f64_bits

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



def _lanes_codegen(text, n_lanes):
    # f(stage, buf, lo_0 .. lo_{L-1}, count): the text runs with $0 = -count
    # (an index counting up to 0), $1 .. $L = &buf[lo_k + count] (each lane's
    # end: lane k's i-th value is at ($k+1, $0, 8)) and $(L + 2) = &stage[0].
    def codegen(context, builder, signature, llargs):
        i64 = ir.IntType(64)
        i8p = ir.IntType(8).as_pointer()

        def wide(v):
            return builder.sext(v, i64) if v.type.width < 64 else v

        def ptr(k, idx):
            ary = context.make_array(signature.args[k])(context, builder, llargs[k])
            return builder.bitcast(builder.gep(ary.data, [idx]), i8p)

        count = wide(llargs[2 + n_lanes])
        lanes = [ptr(1, builder.add(wide(llargs[2 + k]), count)) for k in range(n_lanes)]
        ins = lanes + [builder.neg(count), ptr(0, ir.Constant(i64, 0))]
        fnty = ir.FunctionType(i64, [v.type for v in ins])
        cons = ",".join(["=r"] + ["r"] * n_lanes + ["0", "r", "~{dirflag}", "~{fpsr}", "~{flags}", "~{memory}",
                                                     "~{st}"] + [f"~{{st({k})}}" for k in range(1, 8)])
        builder.call(ir.InlineAsm(fnty, text, cons, side_effect=True), ins)
        return context.get_dummy_value()

    return codegen


def _lanes_sum_text(n):
    # Lane k's 80-bit sum (16 bytes at stage + 16 k) += each of its doubles:
    # n independent x87 latency chains interleaved, each in its own order.
    stage = f"${n + 2}"
    text = "".join(f"fldt {16 * k}({stage})\n\t" for k in reversed(range(n)))
    text += "test $0, $0\n\tjz 2f\n1:\n\t"
    text += "".join(f"fldl (${1 + k},$0,8)\n\tfaddp %st, %st({k + 1})\n\t" for k in range(n))
    return text + "inc $0\n\tjnz 1b\n2:\n\t" + "\n\t".join(f"fstpt {16 * k}({stage})" for k in range(n))


def _lanes_dev_text(n):
    # Lane k's 80-bit t (stage + 16 k) += x - s_k (stage + 16 (n + k)): R's
    # second pass of mean(); n t's and n s's fill 2 n of the 8 x87 registers.
    stage = f"${n + 2}"
    text = "".join(f"fldt {16 * (n + k)}({stage})\n\t" for k in reversed(range(n)))
    text += "".join(f"fldt {16 * k}({stage})\n\t" for k in reversed(range(n)))
    text += "test $0, $0\n\tjz 2f\n1:\n\t"
    text += "".join(f"fldl (${1 + k},$0,8)\n\tfsub %st({n + 1 + k}), %st\n\tfaddp %st, %st({k + 1})\n\t"
                    for k in range(n))
    text += "inc $0\n\tjnz 1b\n2:\n\t" + "\n\t".join(f"fstpt {16 * k}({stage})" for k in range(n))
    return text + "\n\t" + "\n\t".join(["fstp %st(0)"] * n)


def _lanes_ok(args):
    return (isinstance(args[0], types.Array) and isinstance(args[1], types.Array)
            and all(isinstance(a, types.Integer) for a in args[2:]))


# x87 fadd's latency is about five of its issue slots here: six sums at
# once (one chain per bin) run at about 1.7 cycles a value where one runs at
# 5 and two at 2.5. The deviations keep their bins' means in registers, so
# three chains fill the stack.
_SUM_LANES = 6
_DEV_LANES = 3


@intrinsic
def _lanes_sum(typingctx, stage, buf, l0, l1, l2, l3, l4, l5, count):
    args = (stage, buf, l0, l1, l2, l3, l4, l5, count)
    return (types.void(*args), _lanes_codegen(_lanes_sum_text(_SUM_LANES), _SUM_LANES)) if _lanes_ok(args) else None


@intrinsic
def _lanes_dev(typingctx, stage, buf, l0, l1, l2, count):
    args = (stage, buf, l0, l1, l2, count)
    return (types.void(*args), _lanes_codegen(_lanes_dev_text(_DEV_LANES), _DEV_LANES)) if _lanes_ok(args) else None


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
    # then the deviations from the means, several bins' chains interleaved
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
# No caller's buffer: the kernel allocates its own.
_NO_STORE = np.empty(0)
_NO_BID = np.empty(0, dtype=np.uint16)


@njit
def width_means(x, c, label, bins, counts, conf, acc, keep_max=_KEEP_COUNTS, buf=_NO_STORE, bid=_NO_BID):
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
    _means_core(x, c, label, bins, np.empty(0), counts, conf, acc, keep_max, buf, bid)


@njit
def edge_means(x, c, label, edges, counts, conf, acc, keep_max=_KEEP_COUNTS, buf=_NO_STORE, bid=_NO_BID):
    """:func:`width_means` with the bins of the sorted ``edges`` (at most
    65,537 of them): R's ``findInterval(x, edges, rightmost.closed = TRUE,
    all.inside = TRUE)``, the number of edges ``<= x`` by a branch-free
    binary search, clipped to the bins (``numpy.searchsorted(edges, x,
    "right")`` clipped, as ``_binning.find_bins``). Equal-frequency bins
    and a caller's edges; the rest as :func:`width_means`.
    """
    _means_core(x, c, label, edges.size - 1, edges, counts, conf, acc, keep_max, buf, bid)


@njit
def _means_core(x, c, label, bins, edges, counts, conf, acc, keep_max, buf_in, bid_in):
    # buf_in, bid_in: the caller's scratch, used where it has room.
    m = x.size
    chunk = _CHUNK if (m > _WHOLE and bins <= _CHUNK_BINS) else max(m, 1)
    bid = bid_in[:chunk] if bid_in.size >= chunk else np.empty(chunk, dtype=np.uint16)
    buf = buf_in[:chunk] if buf_in.size >= chunk else np.empty(chunk)
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
def _width_ids(x, bins, bid, scan=False):
    # scan: also the count of entries outside [+0, 1] (by their bits: NaN,
    # negative, -0.0, above 1), in the same vectorised loop.
    by = 1.0 / bins
    top = bins - 1
    outside = 0
    for i in range(x.size):
        v = x[i]
        if scan:
            outside += f64_bits(v) > ONE_BITS
        # v * bins >= 0: truncation is floor. The clip at 0 keeps an entry
        # not yet checked (NaN, negative: _rbins' classwise scan) in the bins.
        g = min(max(np.int64(v * bins), 0), top)
        g += np.int64((g < top) & ((g + 1) * by <= v))
        g -= np.int64((g > 0) & (g * by > v))
        bid[i] = g
    return outside


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
    # Up to _SUM_LANES (_DEV_LANES) bins run at once, their chains
    # interleaved over the shortest one's rest; a lane that finishes takes
    # the next bin. A lane without a bin re-reads a live lane's values into
    # a dummy sum that is never kept. Every chain adds its bin's values in
    # their order; the 80-bit values move between acc80 and the lanes'
    # stage as bits (uint64 pairs).
    lanes = _SUM_LANES if sweep == 0 else _DEV_LANES
    acc = acc80.view(np.uint64)
    stage = np.zeros(4 * lanes, dtype=np.uint64)
    lane_bin = np.full(lanes, -1, dtype=np.int64)
    lane_pos = np.zeros(lanes, dtype=np.int64)
    lane_rem = np.zeros(lanes, dtype=np.int64)
    nxt = 0
    pos = 0
    while True:
        live = 0
        common = 0
        for k in range(lanes):
            if lane_rem[k] == 0:
                b = lane_bin[k]
                if b >= 0:  # finished: its sum back to the bin's slot
                    acc[4 * b + 2 * sweep] = stage[2 * k]
                    acc[4 * b + 2 * sweep + 1] = stage[2 * k + 1]
                    lane_bin[k] = -1
                while nxt < n_ids and counts[nxt] == 0:
                    nxt += 1
                if nxt < n_ids:
                    lane_bin[k] = nxt
                    lane_pos[k] = pos
                    lane_rem[k] = counts[nxt]
                    stage[2 * k] = acc[4 * nxt + 2 * sweep]
                    stage[2 * k + 1] = acc[4 * nxt + 2 * sweep + 1]
                    if sweep == 1:
                        stage[2 * (lanes + k)] = acc[4 * nxt]
                        stage[2 * (lanes + k) + 1] = acc[4 * nxt + 1]
                    pos += counts[nxt]
                    nxt += 1
            if lane_bin[k] >= 0:
                common = lane_rem[k] if live == 0 else min(common, lane_rem[k])
                live += 1
        if live == 0:
            return
        first = 0
        while lane_bin[first] < 0:
            first += 1
        for k in range(lanes):
            if lane_bin[k] < 0:
                lane_pos[k] = lane_pos[first]
                stage[2 * k] = 0  # all bits zero: 80-bit +0.0
                stage[2 * k + 1] = 0
        if sweep == 0:
            _lanes_sum(stage, buf, lane_pos[0], lane_pos[1], lane_pos[2], lane_pos[3], lane_pos[4], lane_pos[5],
                       common)
        else:
            _lanes_dev(stage, buf, lane_pos[0], lane_pos[1], lane_pos[2], common)
        for k in range(lanes):
            if lane_bin[k] >= 0:
                lane_pos[k] += common
                lane_rem[k] -= common


# A chunk of a matrix's rows holds about this many entries (1 MB: it stays
# in the core's cache while each of its passes reads it), at least
# _COLS_MIN_ROWS rows.
_COLS_CHUNK = 1 << 17
_COLS_MIN_ROWS = 4096
# Matrix entries up to which the bin-ordered columns are kept between the
# sweeps (64 MB).
_COLS_SAVE = 1 << 23


_NO_BANDS = np.empty(0)
_NO_FOUND = np.empty(0, dtype=np.int64)


@njit
def width_means_cols(p, codes, bins, counts, conf, acc, keep_max=_KEEP_COUNTS, store=_NO_STORE, bands=_NO_BANDS,
                     found=_NO_FOUND):
    """:func:`width_means` of every column ``j`` of the C-contiguous matrix
    ``p`` against the labels ``codes == j + 1`` (classwise one-vs-rest
    problems), into row ``j`` of ``counts``, ``conf`` and ``acc`` (K x
    bins), the same bits.

    Rows go a chunk at a time, small enough to stay in the core's cache,
    and each pass reads the chunk's entries in memory order, all classes
    together (no column is gathered): the bins of every entry in one
    vectorised loop, every class's bin counts in a second, and a third puts
    each entry in its class's bin order (a stable counting sort per class).
    The labels are counted once per row, at its own class's column. Each
    class's runs then get :func:`width_means`'s 80-bit sums, carried from
    chunk to chunk (the same additions in the same order as a binary call on
    the column). ``store``, when it has room for the whole matrix (the
    caller passes one up to ``_COLS_SAVE`` entries), keeps every chunk in
    bin order from the first sweep, so the second reads only that;
    otherwise the second sweep reads the matrix again and sorts each chunk
    again. With more bins than a chunk amortises, each column is gathered
    whole (one buffer of n) and handed to :func:`width_means`.

    With ``bands`` (``check_prob_matrix``'s row-sum bands, ``_checks.
    prob_matrix_bands``) the first sweep also scans each chunk, while it is
    in the cache, as ``check_prob_matrix`` does (``unit_rows`` into
    ``found``): the matrix is then read once for the check and the means.
    Unchecked entries stay in the bins (the bins are clipped), so the caller
    may check after the call, before it uses the means.
    """
    m, k = p.shape
    rows = min(m, max(_COLS_MIN_ROWS, _COLS_CHUNK // k))
    if bands.size:
        found[:] = 0
    if bins * 16 > rows:
        if bands.size:
            unit_rows(p, bands[0], bands[1], found)
        col = np.empty(m)
        for j in range(k):
            for i in range(m):
                col[i] = p[i, j]
            width_means(col, codes, j + 1, bins, counts[j], conf[j], acc[j])
        return
    flat = p.reshape(-1)
    ids = np.empty(rows * k, dtype=np.uint16)
    hist = np.empty(k * bins, dtype=np.int64)
    pos = np.empty(k * bins, dtype=np.int64)
    csum = np.zeros((k, bins), dtype=np.int64)
    acc80 = np.zeros((k, 4 * bins + 8))  # all bits zero: 80-bit +0.0
    counts[:, :] = 0
    n_chunks = (m + rows - 1) // rows
    keep = n_chunks * k * bins <= keep_max
    kept = np.empty((n_chunks * k if keep else k, bins), dtype=np.int64)
    # Up to _COLS_SAVE entries the first sweep leaves every chunk in bin
    # order in one buffer the size of the matrix, and the second sweep only
    # reads it back (as a binary call keeps its whole input in bin order).
    saved = keep and store.size >= m * k
    if not saved:
        store = np.empty(rows * k)
    for sweep in range(2):
        if sweep == 1:
            for j in range(k):
                for b in range(bins):
                    if counts[j, b] > 0:
                        _ld_div(acc80[j], 4 * b, acc80[j], 4 * b, counts[j], b)
        for s in range(0, m, rows):
            e = min(s + rows, m)
            n = e - s
            first = (s // rows) * k if keep else 0
            base = s * k if saved else 0
            if sweep == 0 or not saved:
                _cols_order(flat[s * k:e * k], k, bins, ids, hist, pos, store, base, bands if sweep == 0 else
                            _NO_BANDS, found)
                if sweep == 0:
                    cb = codes[s:e]
                    for i in range(n):
                        c = cb[i] - 1
                        if 0 <= c < k:
                            csum[c, np.int64(ids[i * k + c])] += 1
                    for j in range(k):
                        for b in range(bins):
                            counts[j, b] += hist[j * bins + b]
                if sweep == 0 or not keep:
                    for j in range(k):
                        kept[first + j, :] = hist[j * bins:(j + 1) * bins]
            for j in range(k):
                _runs_pass(store[base + j * n:base + (j + 1) * n], kept[first + j], bins, acc80[j], sweep)
    for j in range(k):
        _finish_bins(acc80[j], csum[j], counts[j], bins, conf[j], acc[j])


@njit
def _cols_order(blk, k, bins, ids, hist, pos, out, base, bands, found):
    # The chunk blk (rows of k entries) into out[base:], class by class
    # (class j's n entries from base + j n), each class's in bin order
    # (stable); hist[j bins + b]: class j's count in bin b. With bands, the
    # scan of _input_kernels.unit_rows into found, in the same loops.
    n = blk.size // k
    ids = ids[:blk.size]
    scan = bands.size > 0
    if scan:
        found[0] |= _width_ids(blk, bins, ids, True) > 0
    else:
        _width_ids(blk, bins, ids)
    hist[:] = 0
    for i in range(n):
        for j in range(k):
            hist[j * bins + np.int64(ids[i * k + j])] += 1
    for j in range(k):
        lo = base + j * n
        for b in range(bins):
            pos[j * bins + b] = lo
            lo += hist[j * bins + b]
    far = 0
    near = 0
    for i in range(n):
        s = 0.0  # the row sum in column order, as unit_rows
        for j in range(k):
            v = blk[i * k + j]
            q = j * bins + np.int64(ids[i * k + j])
            out[pos[q]] = v
            pos[q] += 1
            s += v
        if scan:
            f, m = row_band(s, bands[0], bands[1])
            far += f
            near += m
    if scan:
        found[1] += far
        found[2] += near


def _warm_up():
    # Called by the JIT gate's loading thread once this module is loaded.
    import sys  # noqa: PLC0415

    from pycalib_r.binned import _rbins  # noqa: PLC0415

    _rbins.warm_up(sys.modules[__name__])

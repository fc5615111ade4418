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


@intrinsic
def _seg_sum(typingctx, dst, di, x, start, count):
    args = (dst, di, x, start, count)
    ok = isinstance(dst, types.Array) and isinstance(x, types.Array) and all(
        isinstance(a, types.Integer) for a in (di, start, count))
    return (types.void(*args), _seg_codegen(_SEG_SUM, False)) if ok else None


@intrinsic
def _seg_dev(typingctx, dst, di, s, si, x, start, count):
    args = (dst, di, s, si, x, start, count)
    ok = all(isinstance(a, types.Array) for a in (dst, s, x)) and all(
        isinstance(a, types.Integer) for a in (di, si, start, count))
    return (types.void(*args), _seg_codegen(_SEG_DEV, True)) if ok else None


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
    _one(key, x, idx, m, n_ids, counts, conf, acc, *scratch)


@njit
def bin_means_rows(ids, x, c, idx, n_ids, counts, conf, acc):
    """:func:`bin_means` of every row of ``idx`` (rows x n, 0-based) into the
    rows of ``counts``, ``conf`` and ``acc`` (rows x n_ids); ``ids`` is
    either one row for all resamples or one row per resample."""
    m = idx.shape[1]
    scratch = _scratch(m, n_ids)
    key = _keys(ids[0], c)
    for r in range(idx.shape[0]):
        if ids.shape[0] > 1 and r > 0:
            key = _keys(ids[r], c)
        _one(key, x, idx[r], m, n_ids, counts[r], conf[r], acc[r], *scratch)


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
            np.empty(n_ids, dtype=np.int64), np.empty(4 * n_ids))


@njit
def _one(key, x, idx, m, n_ids, counts, conf, acc, kb, xb, buf, start, csum, acc80):
    # The resample is gathered once, in its order; then put in bin order,
    # keeping the order within a bin (a counting sort), so that each bin's
    # two long-double passes run in the x87 registers over a contiguous run.
    use_idx = idx.size > 0
    for b in range(n_ids):
        counts[b] = 0
        csum[b] = 0
    for j in range(m):
        i = idx[j] if use_idx else j
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
    # start[b] is now the end of bin b (the start of b + 1).
    lo = 0
    for b in range(n_ids):
        k = counts[b]
        if k > 0:
            _seg_sum(acc80, 4 * b, buf, lo, k)
            _ld_div(acc80, 4 * b, acc80, 4 * b, counts, b)
            _seg_dev(acc80, 4 * b + 2, acc80, 4 * b, buf, lo, k)
            _ld_fin(conf, b, acc80, 4 * b, acc80, 4 * b + 2, counts, b)
            _ld_ratio(acc, b, csum, b, counts, b)
        else:
            conf[b] = np.nan
            acc[b] = np.nan
        lo = start[b]

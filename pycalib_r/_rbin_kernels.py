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


@njit
def bin_means(ids, x, c, idx, n_ids, counts, conf, acc):
    """R's per-bin means of the observations ``idx`` (0-based, in that order;
    ``idx`` of length 0 means all of them, in order).

    ``counts`` (int64), ``conf`` (R's double ``mean`` of ``x``) and ``acc``
    (R's integer ``mean`` of the 0/1 ``c``, int64) are filled for the
    ``n_ids`` bins; empty bins get NaN.
    """
    m = idx.size if idx.size > 0 else x.size
    sums = np.zeros(2 * n_ids)
    csum = np.zeros(n_ids, dtype=np.int64)
    mid = np.empty(2 * n_ids)
    dev = np.zeros(2 * n_ids)
    _one(ids, x, c, idx, m, n_ids, counts, conf, acc, sums, csum, mid, dev)


@njit
def bin_means_rows(ids, x, c, idx, n_ids, counts, conf, acc):
    """:func:`bin_means` of every row of ``idx`` (rows x n, 0-based) into the
    rows of ``counts``, ``conf`` and ``acc`` (rows x n_ids); ``ids`` is
    either one row for all resamples or one row per resample."""
    sums = np.empty(2 * n_ids)
    csum = np.empty(n_ids, dtype=np.int64)
    mid = np.empty(2 * n_ids)
    dev = np.empty(2 * n_ids)
    for r in range(idx.shape[0]):
        sums[:] = 0.0
        csum[:] = 0
        dev[:] = 0.0
        row_ids = ids[r] if ids.shape[0] > 1 else ids[0]
        _one(row_ids, x, c, idx[r], idx.shape[1], n_ids, counts[r], conf[r], acc[r], sums, csum, mid, dev)


@njit
def _one(ids, x, c, idx, m, n_ids, counts, conf, acc, sums, csum, mid, dev):
    use_idx = idx.size > 0
    for b in range(n_ids):
        counts[b] = 0
    for j in range(m):
        i = idx[j] if use_idx else j
        b = ids[i]
        counts[b] += 1
        csum[b] += c[i]
        _ld_add(sums, 2 * b, x, i)
    for b in range(n_ids):
        if counts[b] > 0:
            _ld_div(mid, 2 * b, sums, 2 * b, counts, b)
    for j in range(m):
        i = idx[j] if use_idx else j
        b = ids[i]
        _ld_dev(dev, 2 * b, mid, 2 * b, x, i)
    for b in range(n_ids):
        if counts[b] > 0:
            _ld_fin(conf, b, mid, 2 * b, dev, 2 * b, counts, b)
            _ld_ratio(acc, b, csum, b, counts, b)
        else:
            conf[b] = np.nan
            acc[b] = np.nan

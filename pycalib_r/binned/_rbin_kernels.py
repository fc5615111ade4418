"""x87 inline-assembly helpers left for ``calibrators/_temperature_kernels``
(numba; loaded through ``pycalib_r._jit.kernels``) until that module is
ported to C: ``_ld_div``, ``_ld_fin``, ``_seg_sum``, ``_seg_dev`` and
``_ld_row_sum``. The binned kernels themselves are C now
(``pycalib_r/_native/src/binned.c``); delete this file with
``_temperature_kernels.py``.

numba has no 80-bit type, so each step is a few x87 instructions of inline
assembly on memory operands: ``fldt``/``fstpt`` move an accumulator, the
doubles are widened exactly by ``fldl``, the counts by ``fildll``, and
every operation rounds to the x87's 64-bit significand, as C's ``long
double`` arithmetic does.
"""

from __future__ import annotations

import llvmlite.binding as _llvm
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

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


# s ($0, 80-bit) = acc ($1, 80-bit) / count ($2, int64)
_ld_div = _asm_on_pointers("fildll ($2)\n\tfldt ($1)\n\tfdiv %st(1), %st\n\tfstpt ($0)\n\tfstp %st(0)", 3)
# out ($0, double) = (double) (s ($1) + t ($2) / count ($3))
_ld_fin = _asm_on_pointers("fildll ($3)\n\tfldt ($2)\n\tfdiv %st(1), %st\n\tfldt ($1)\n\tfadd %st(1), %st\n\t"
                           "fstpl ($0)\n\tfstp %st(0)\n\tfstp %st(0)", 4)


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

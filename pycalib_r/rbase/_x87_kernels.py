"""R's long-double ``sum()`` by the x87 unit itself (loaded through ``pycalib_r._jit.kernels``).

R accumulates ``sum()`` of doubles in C ``long double``, on x86-64 the x87
80-bit format: ``s += x[i]`` rounds every partial sum to a 64-bit
significand, and the total is rounded to double once. numba has no 80-bit
type, so the loop is a few lines of inline assembly: ``fldz``, then one
``faddl`` per element (the double is widened exactly and added with the
x87's rounding, as C's ``s += x[i]`` compiles), and the result leaves the
x87 stack rounded to double. numpy's ``longdouble`` arithmetic, the twin in
``_rarith``, runs on the same unit with the same control word, so the two
give the same bits (tests/test_calibrator_kernels.py); this one skips the
widened copy of the array and runs about twice as fast.

Only for x86 with numpy's 80-bit long double (``_rarith`` checks).
"""

from __future__ import annotations

import llvmlite.binding as _llvm
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from pycalib_r._jit import njit

# numba's LLVM does not load the assembler of inline asm by itself.
_llvm.initialize_native_asmparser()

_ASM = ("fldz\n\t"
        "test $2, $2\n\t"
        "jz 2f\n"
        "1:\n\t"
        "faddl ($1)\n\t"
        "add $$8, $1\n\t"
        "dec $2\n\t"
        "jnz 1b\n"
        "2:")


@intrinsic
def _x87_seq_sum(typingctx, arr):
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.dtype == types.float64
            and arr.layout == "C"):
        return None
    sig = types.float64(arr)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = ary.data
        n = builder.extract_value(ary.shape, 0)
        ret = ir.LiteralStructType([ir.DoubleType(), ptr.type, n.type])
        fnty = ir.FunctionType(ret, [ptr.type, n.type])
        # Output 0 is st(0) (popped as a double); the pointer and the count
        # are in/out registers the loop advances.
        asm = ir.InlineAsm(fnty, _ASM, "={st},=r,=r,1,2,~{dirflag},~{fpsr},~{flags},~{memory}",
                           side_effect=True)
        return builder.extract_value(builder.call(asm, [ptr, n]), 0)

    return sig, codegen


@njit
def ld_seq_sum(x):
    """``(double) s`` after ``long double s = 0; for (i) s += x[i];`` (x: C-contiguous float64)."""
    return _x87_seq_sum(x)


# R's mean() of doubles (summary.c, real_mean) in one block: s = sum / n in
# long double; if (double) s is finite, t = sum of (x[i] - s) in long double
# and s += t / n; the result leaves the x87 stack rounded to double. The
# finiteness test is fxam's C0 flag on s rounded to double and reloaded
# (R_FINITE((double) s)).
_MEAN_ASM = (_ASM + "\n\t"  # the sum, as ld_seq_sum's ($1: x, $2: n)
             "fildll ($9)\n\t"
             "fxch %st(1)\n\t"
             "fdiv %st(1), %st\n\t"
             "fld %st(0)\n\t"
             "fstpl ($10)\n\t"
             "fldl ($10)\n\t"
             "fxam\n\t"
             "fnstsw %ax\n\t"
             "fstp %st(0)\n\t"
             "testw $$0x100, %ax\n\t"
             "jnz 4f\n\t"
             "fldz\n\t"
             "test $4, $4\n\t"
             "jz 3f\n"
             "5:\n\t"
             "fldl ($3)\n\t"
             "fsub %st(2), %st\n\t"
             "faddp %st, %st(1)\n\t"
             "add $$8, $3\n\t"
             "dec $4\n\t"
             "jnz 5b\n"
             "3:\n\t"
             "fdiv %st(2), %st\n\t"
             "faddp %st, %st(1)\n"
             "4:\n\t"
             "fstp %st(1)")


@intrinsic
def _x87_mean(typingctx, arr, count, tmp):
    ok = (isinstance(arr, types.Array) and arr.ndim == 1 and arr.dtype == types.float64 and arr.layout == "C"
          and isinstance(count, types.Array) and count.dtype == types.int64
          and isinstance(tmp, types.Array) and tmp.dtype == types.float64)
    if not ok:
        return None
    sig = types.float64(arr, count, tmp)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        cnt = context.make_array(signature.args[1])(context, builder, args[1])
        tmp_ = context.make_array(signature.args[2])(context, builder, args[2])
        ptr = ary.data
        n = builder.extract_value(ary.shape, 0)
        i8p = ir.IntType(8).as_pointer()
        nptr = builder.bitcast(cnt.data, i8p)
        tptr = builder.bitcast(tmp_.data, i8p)
        ret = ir.LiteralStructType([ir.DoubleType(), ptr.type, n.type, ptr.type, n.type])
        fnty = ir.FunctionType(ret, [ptr.type, n.type, ptr.type, n.type, i8p, i8p])
        asm = ir.InlineAsm(fnty, _MEAN_ASM,
                           "={st},=r,=r,=r,=r,1,2,3,4,r,r,~{ax},~{dirflag},~{fpsr},~{flags},~{memory},"
                           "~{st(1)},~{st(2)},~{st(3)}", side_effect=True)
        return builder.extract_value(builder.call(asm, [ptr, n, ptr, n, nptr, tptr]), 0)

    return sig, codegen


@njit
def ld_mean(x):
    """R's ``mean()`` of a C-contiguous float64 vector (``real_mean``: the
    long-double sum over n, and where it is finite as a double the
    long-double mean of the deviations added), rounded to double."""
    count = np.empty(1, dtype=np.int64)
    count[0] = x.size
    tmp = np.empty(1)
    return _x87_mean(x, count, tmp)

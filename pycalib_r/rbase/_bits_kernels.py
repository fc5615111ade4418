"""A double's bits in compiled kernels (numba intrinsics; imported by the
kernel modules, which numba loads through ``pycalib_r._jit.kernels``).

``f64_bits(x)`` is the IEEE 754 bit pattern of a double as a uint64 and
``bits_f64(b)`` the double of a bit pattern (LLVM ``bitcast``: no
conversion, no rounding). For a double ``x``, ``f64_bits(x) <= ONE_BITS``
exactly when ``x`` is in [+0, 1]: a negative number (-0.0 included) has
the sign bit set and a NaN or a number above 1 a larger exponent or
mantissa, so one unsigned comparison is the range check that a minimum and
a maximum would otherwise make. ``fma(a, b, c)`` is ``a * b + c`` rounded
once (LLVM ``llvm.fma.f64``: the ``vfmadd`` instruction where the CPU has
FMA, a correctly rounded library call otherwise).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

ONE_BITS = np.uint64(0x3FF0000000000000)


@intrinsic
def f64_bits(typingctx, a):
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.uint64(types.float64), codegen


@intrinsic
def bits_f64(typingctx, a):
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.uint64), codegen


@intrinsic
def fma(typingctx, a, b, c):
    def codegen(context, builder, signature, args):
        d = ir.DoubleType()
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(d, [d, d, d]), "llvm.fma.f64")
        return builder.call(fn, args)

    return types.float64(types.float64, types.float64, types.float64), codegen

"""Build the compiled kernels ahead of time, at install.

The kernels are plain C (``pycalib_r/_native/src``), compiled with the
system's compiler into one shared library, ``pycalib_r._native._lib``; the
package calls it through ``ctypes``, which releases the GIL for each call.
It uses no CPython API beyond a tiny module stub (built against the stable
ABI), so one wheel serves every Python from 3.10 on.

Nothing is compiled while a user waits: with no compiler, ``pip install``
still succeeds (the extension is ``optional``) and the package runs its
numpy twins, which give the same bits; ``pycalib_r.show_config()`` says
which path is in use.

The flags keep IEEE arithmetic as R's C code has it: no fast-math, no
contraction of ``a * b + c`` into an fma (``-ffp-contract=off``), and
vectorisation on (``-O2 -ftree-vectorize``: plain ``-O2`` in gcc 12 does not
vectorise the binned loops).
"""

from glob import glob

from setuptools import Extension, setup

_FLAGS = ["-O2", "-ftree-vectorize", "-ffp-contract=off", "-fno-fast-math", "-fno-math-errno",
          "-std=c11", "-Wall", "-Wno-unused-function"]

setup(
    ext_modules=[
        Extension(
            "pycalib_r._native._lib",
            sources=sorted(glob("pycalib_r/_native/src/*.c")),
            depends=sorted(glob("pycalib_r/_native/src/*.h")),
            include_dirs=["pycalib_r/_native/src"],
            extra_compile_args=_FLAGS,
            libraries=["m"],
            define_macros=[("Py_LIMITED_API", "0x030A0000")],
            py_limited_api=True,
            optional=True,
        )
    ],
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: a table of this package's own kernels.
"""Every compiled kernel, its numpy twin, the public calls that use it and
what it needs of the platform.

One row per kernel: ``(room module, function, C source, twin, public calls,
platform needs)``. The tests walk this table (each kernel against its twin,
bit for bit, both ways of ``PYCALIB_R_NATIVE``), and the architecture page
shows it. A kernel missing here fails tests/test_native.py.

Platform needs: ``x87`` (C's ``long double`` must be x86's 80-bit type, R's
``LDOUBLE`` on x86-64; elsewhere the callers use the twins, whose numpy
``longdouble`` is the same type where R's is), ``glibc`` (the C library's
``exp``/``log``/``log1p`` must be glibc's, as R's are on Linux), ``-`` (IEEE
double and integer arithmetic only: the same bits everywhere).
"""

KERNELS = (
    ("rbase", "ld_seq_sum", "src/rbase.c", "pycalib_r.rbase._rarith._ld_seq_sum",
     "every R sum() of doubles at scale (r_sum)", "x87"),
    ("rbase", "ld_mean", "src/rbase.c", "pycalib_r.rbase._rarith.r_mean (numpy path)",
     "every R mean() of doubles at scale (r_mean)", "x87"),
    ("libm", "log_into", "src/libm.c", "pycalib_r.rbase._rarith.r_log (scipy.special.xlogy path)",
     "r_log: the calibrators' log losses, glm deviances", "glibc"),
    ("libm", "log1p_into", "src/libm.c", "pycalib_r.rbase._rarith.r_log1p (scipy.special.boxcox1p path)",
     "r_log1p: the calibrators' log losses", "glibc"),
    ("libm", "exp_calls", "src/libm.c", "pycalib_r.rbase._rarith.r_exp",
     "fast_exp_ok's reference; cal_temperature", "glibc"),
    ("libm", "exp_block", "src/libm.c", "pycalib_r._native.libm.exp_calls (checked by fast_exp_ok)",
     "cal_temperature (multiclass), where fast_exp_ok()", "glibc"),
    ("temperature", "binary_temperature_terms", "src/temperature.c",
     "pycalib_r.calibrators._temperature._binary_objective (jit=False)", "cal_temperature (binary), cal_cv, cal_ovr",
     "glibc"),
    ("temperature", "multiclass_temperature_terms", "src/temperature.c",
     "pycalib_r.calibrators._temperature._multiclass_objective (jit=False)",
     "cal_temperature (multiclass), cal_cv, the sklearn and dask faces", "x87,glibc"),
)

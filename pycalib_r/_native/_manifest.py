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
     "every R sum() of doubles from 256 elements (r_sum)", "x87"),
    ("rbase", "ld_mean", "src/rbase.c", "pycalib_r.rbase._rarith.r_mean (numpy path)",
     "every R mean() of doubles from 256 elements (r_mean)", "x87"),
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
    ("binned", "bin_means", "src/binned.c", "pycalib_r.binned._rbins._bin_means_numpy",
     "ece/mce/ace/mmce with given bins (unique, edges), calibration_error, scaling-binning", "x87"),
    ("binned", "bin_means_rows", "src/binned.c", "pycalib_r.binned._rbins._bin_means_numpy (per resample)",
     "cal_ci of the binned metrics (bootstrap resamples)", "x87"),
    ("binned", "width_means", "src/binned.c",
     "pycalib_r.binned._rbins._bin_means_numpy of _binning.equal_width_bins",
     "ece/mce/ace (equal widths), binary and classwise on Fortran matrices", "x87"),
    ("binned", "edge_means", "src/binned.c", "pycalib_r.binned._rbins._bin_means_numpy of _binning.find_bins",
     "ece/mce/ace with equal-frequency bins or a caller's edges", "x87"),
    ("binned", "width_means_cols", "src/binned.c",
     "pycalib_r.binned._rbins.width_means of each column (twin: _bin_means_numpy)",
     "classwise ece/mce/ace on a matrix (with check_prob_matrix's scan)", "x87"),
    ("inputs", "prob_matrix_scan", "src/inputs.c",
     "pycalib_r.inputs._checks._scan with rows_off_one's double row sums",
     "check_prob_matrix: every multiclass call (ece/mce/ace, cal_test, cal_ci, calibrators)", "-"),
    ("inputs", "unit_rows", "src/inputs.c", "pycalib_r.inputs._checks._scan (its double row sums and bit test)",
     "classwise ece/mce/ace (the matrix kernel's scan, many bins)", "-"),
    ("inputs", "top_label", "src/inputs.c", "pycalib_r.inputs._forms._top_label_numpy",
     "type = \"confidence\" metrics (R's multiclass_confidence)", "-"),
    ("kernel", "kernel_tile", "src/kernel.c",
     "pycalib_r.kernel._canonical._kernel_tile_twin (np.triu, _row_sums)",
     "skce/cal_test/cal_ci with matrix input (the canonical kernel's tiles)", "glibc"),
    ("kernel", "block_quadratic", "src/kernel.c", "pycalib_r.kernel._canonical._block_quadratic_twin",
     "cal_test/cal_ci with matrix input (the bootstrap's weighted sums)", "-"),
    ("kernel", "ordered_row_sum", "src/kernel.c", "pycalib_r.kernel._canonical._block_quadratic_twin (its row sum)",
     "cal_test/cal_ci with matrix input", "-"),
)

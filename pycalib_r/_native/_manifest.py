# SPDX-License-Identifier: GPL-3.0-or-later
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
    ("rng", "temper_block", "src/rng.c", "numpy.random.MT19937 (its words)",
     "every compiled sampler's first block (kernel_words)", "-"),
    ("rng", "next_block", "src/rng.c", "numpy.random.MT19937 (its words)",
     "every compiled sampler's next block", "-"),
    ("rng", "index_fill", "src/rng.c", "pycalib_r._rng.do_sample._sample.SamplingMixin._unif_index_fill (numpy path)",
     "sample/sample.int with replacement, sample_int_replace, the bootstrap indices (cal_ci, cal_cv)", "-"),
    ("rng", "noreplace_fill", "src/rng.c", "pycalib_r._rng.do_sample._sample.SamplingMixin._draw_noreplace (dict loop)",
     "sample/sample.int without replacement, stratified_folds (cal_cv)", "-"),
    ("rng", "hash_fill", "src/rng.c", "pycalib_r._rng.do_sample._sample.SamplingMixin._draw_hash (numpy path)",
     "sample.int(n, k) with R's hash (n > 1e7, useHash = TRUE)", "-"),
    ("rng", "walker_fill", "src/rng.c", "pycalib_r._rng.do_sample._sample.SamplingMixin._walker_draws",
     "sample with prob, replace = TRUE (Walker's alias method)", "-"),
    ("rng", "walker_alias", "src/rng.c", "pycalib_r._rng.do_sample._sample._walker_alias",
     "sample with prob, replace = TRUE (Walker's alias method)", "-"),
    ("rng", "revsort", "src/rng.c", "pycalib_r._rng.do_sample._sample._revsort_heap",
     "sample with prob (ties in the weights)", "-"),
    ("rng", "prob_noreplace", "src/rng.c", "pycalib_r._rng.do_sample._sample.SamplingMixin._prob_noreplace (numpy path)",
     "sample with prob, replace = FALSE", "-"),
    ("rng", "exp_fill", "src/rng.c", "pycalib_r._rng.stream._stream_dists (rexp's block chain)",
     "rexp", "-"),
    ("rng", "gamma_fill", "src/rng.c", "pycalib_r._rng.stream._stream_dists (rgamma's block chain)",
     "rgamma, rchisq", "glibc"),
    ("rng", "beta_fill", "src/rng.c", "pycalib_r._rng.stream._stream_dists (rbeta's block chain)",
     "rbeta", "glibc"),
    ("rng", "pois_fill", "src/rng.c", "pycalib_r._rng.stream._stream_dists (rpois's block chain)",
     "rpois", "glibc"),
    ("calibrators", "ddot", "src/calibrators.c", "pycalib_r.calibrators._linpack._ddot (numpy path)",
     "cal_platt, cal_beta, every glm fit (LINPACK QR)", "-"),
    ("calibrators", "axpy", "src/calibrators.c", "pycalib_r.calibrators._linpack._axpy (numpy path)",
     "cal_platt, cal_beta, every glm fit (LINPACK QR)", "-"),
    ("calibrators", "scal", "src/calibrators.c", "pycalib_r.calibrators._linpack._scal (numpy path)",
     "cal_platt, cal_beta, every glm fit (LINPACK QR)", "-"),
    ("calibrators", "nrm2_unscaled", "src/calibrators.c", "pycalib_r.calibrators._linpack._dnrm2 (numpy path)",
     "cal_platt, cal_beta, every glm fit (LINPACK QR)", "-"),
    ("calibrators", "exp_eta", "src/calibrators.c", "pycalib_r.calibrators._glm._exp_eta (numpy path)",
     "cal_platt, cal_beta (binomial family)", "glibc"),
    ("calibrators", "linkinv", "src/calibrators.c", "pycalib_r.calibrators._glm._linkinv (numpy path)",
     "cal_platt, cal_beta (binomial family)", "-"),
    ("calibrators", "mu_eta", "src/calibrators.c", "pycalib_r.calibrators._glm._mu_eta (numpy path)",
     "cal_platt, cal_beta (binomial family)", "-"),
    ("calibrators", "dev_resids", "src/calibrators.c", "pycalib_r.calibrators._glm._dev_resids (numpy path)",
     "cal_platt, cal_beta (binomial family)", "glibc"),
    ("calibrators", "working", "src/calibrators.c", "pycalib_r.calibrators._glm.glm_binomial's IRLS lines (numpy path)",
     "cal_platt, cal_beta", "-"),
    ("calibrators", "dev_resids01", "src/calibrators.c", "pycalib_r.calibrators._glm._deviance_fn (numpy path)",
     "cal_platt, cal_beta (0/1 responses)", "glibc"),
    ("calibrators", "pava_runs", "src/calibrators.c", "pycalib_r.calibrators._isotonic._pava_binary (Python loop)",
     "cal_isotonic, isoreg", "-"),
    ("calibrators", "pava_labels", "src/calibrators.c", "pycalib_r.calibrators._isotonic._pava_binary (Python loop)",
     "cal_isotonic, isoreg", "-"),
    ("calibrators", "isoreg_fill", "src/calibrators.c", "pycalib_r.calibrators._isotonic.isoreg (numpy lines)",
     "cal_isotonic, isoreg", "-"),
    ("calibrators", "tie_runs", "src/calibrators.c", "pycalib_r.calibrators._isotonic.cal_isotonic (numpy lines)",
     "cal_isotonic", "-"),
    ("calibrators", "direction", "src/calibrators.c", "pycalib_r.calibrators._optim.vmmin (array form)",
     "cal_dirichlet, cal_vector_scaling (optim BFGS)", "-"),
    ("calibrators", "update", "src/calibrators.c", "pycalib_r.calibrators._optim.vmmin (array form)",
     "cal_dirichlet, cal_vector_scaling (optim BFGS)", "-"),
    ("calibrators", "reset", "src/calibrators.c", "pycalib_r.calibrators._optim.vmmin (array form)",
     "cal_dirichlet, cal_vector_scaling (optim BFGS)", "-"),
)

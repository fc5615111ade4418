"""Kernel calibration error (``skce``) and the kernel sums behind it.

``_skce`` (the input, bandwidth and estimators of ``skce``), ``_scalar``
(the Laplacian kernel sums of binary, confidence and classwise input in
O(n log n)), ``_canonical`` (the canonical kernel in tiles, without BLAS)
beside its compiled twin in ``pycalib_r._native.kernel`` (C, same bits), ``_median``
(the exact median pairwise distance) and ``_quadratic`` (the warning before a
long O(n^2) computation).

It may import ``rbase``, ``inputs`` and ``_native`` (the compiled kernels). See docs/architecture.md.
"""

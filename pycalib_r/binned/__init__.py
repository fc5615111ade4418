# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""Binning and the binned calibration metrics.

``_binning`` (edges, quantiles, ``findInterval``, equal-width and
equal-frequency bins), ``_rbins`` (R's per-bin means, bit for bit) with its
compiled twin in ``pycalib_r._native.binned`` (C), ``_metrics`` (``ece``, ``mce``, ``ace``,
``mmce``, ``logit``, ``inv_logit``), and the metrics built on the same bins
(``_calibration_error``, ``_brier``). A new binned metric goes here.

It may import ``rbase``, ``inputs``, ``kernel``, ``_rng`` and ``_native`` (the compiled kernels).
See docs/architecture.md ("Who imports whom").
"""

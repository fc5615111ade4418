# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""Binning and the binned calibration metrics.

``_binning`` (edges, quantiles, ``findInterval``, equal-width and
equal-frequency bins), ``_rbins`` (R's per-bin means, bit for bit) with its
compiled twin ``_rbin_kernels``, ``_metrics`` (``ece``, ``mce``, ``ace``,
``mmce``, ``logit``, ``inv_logit``), and the metrics built on the same bins
(``_calibration_error``, ``_brier``). A new binned metric goes here.

It may import ``rbase`` and ``inputs``. See docs/architecture.md.
"""

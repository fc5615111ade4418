# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""Reliability diagrams and tables, and the validation statistics.

``_diagnostics`` (``reliability_diagram``, ``reliability_table``), and the
diagnostics built beside them: CORP reliability diagrams (``_corp``), smooth
ECE (``_smece``), ``val_prob``-style validation statistics (``_validation``),
R's ``lowess`` (``_lowess``), R's ``loess`` for one predictor (``_loess``),
``val.prob``'s grouped statistics (``_val_probg``), R's small helpers they
share (``_rstats``) and the Hosmer-Lemeshow test (``_hoslem``). matplotlib is imported lazily.

It may import ``rbase``, ``inputs``, ``binned``, ``calibrators`` and ``_rng``.
See docs/architecture.md.
"""

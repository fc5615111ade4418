# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""Reliability diagrams and tables, and the validation statistics.

``_diagnostics`` (``reliability_diagram``, ``reliability_table``), and the
diagnostics built beside them: CORP reliability diagrams (``_corp``), smooth
ECE (``_smece``), ``val_prob``-style validation statistics (``_validation``),
``val.prob``'s grouped statistics (``_val_probg``) and the Hosmer-Lemeshow
test (``_hoslem``). R's ``lowess``, ``loess``, ``approx``, ``seq`` and
``qlogis`` they use are in :mod:`pycalib_r.rstats`. matplotlib is imported lazily.

It may import ``rbase``, ``inputs``, ``rstats``, ``_rng``, ``binned``,
``kernel`` and ``inference`` (and the top level inside one function). See
docs/architecture.md ("Who imports whom").
"""

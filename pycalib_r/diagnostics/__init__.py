"""Reliability diagrams and tables, and the validation statistics.

``_diagnostics`` (``reliability_diagram``, ``reliability_table``), and the
diagnostics built beside them: CORP reliability diagrams (``_corp``), smooth
ECE (``_smece``), ``val_prob``-style validation statistics (``_validation``),
R's ``lowess`` (``_lowess``) and the
Hosmer-Lemeshow test (``_hoslem``). matplotlib is imported lazily.

It may import ``rbase``, ``inputs``, ``binned``, ``calibrators`` and ``_rng``.
See docs/architecture.md.
"""

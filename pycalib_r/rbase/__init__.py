# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's base behaviour that every room of the package shares.

R's arithmetic (``_rarith``: long-double sums and means, glibc's ``exp``/``log``,
with the compiled sums in ``pycalib_r._native.rbase`` and ``_libm_kernels``), number
formatting and cli-style printing (``_format``), argument matching and
messages of R calls (``_rcalls``), R lists and named vectors (``_rlist``,
``_rnames``), ``options()`` (``_options``), warnings collected per call and
shown at the caller (``_warn``), ``ProbcalError`` (``_errors``), progress
bars (``_progress``), another library's module only once imported
(``_modules``) and, when present, the fork hook that waits for imports
in flight (``_fork``).

It may import nothing else of the package but ``pycalib_r._jit`` and
``pycalib_r._native`` (the compiled kernels). See
docs/architecture.md.
"""

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's base behaviour that every room of the package shares.

R's arithmetic (``_rarith``: long-double sums and means, glibc's ``exp``/``log``,
with the compiled loops in ``pycalib_r._native``), number
formatting and cli-style printing (``_format``), argument matching and
messages of R calls (``_rcalls``), R lists and named vectors (``_rlist``,
``_rnames``), ``options()`` (``_options``), warnings collected per call and
shown at the caller (``_warn``), ``ProbcalError`` (``_errors``), progress
bars (``_progress``), another library's module only once imported
(``_modules``) and the fork hook that waits for imports in flight
(``_fork``, registered when this subpackage is first imported).

It may import nothing else of the package but ``pycalib_r._native`` (the
compiled kernels). See docs/architecture.md.
"""

from . import _fork  # noqa: F401 (registers the fork hook: no fork lands inside an import)

"""R's base behaviour that every room of the package shares.

R's arithmetic (``_rarith``: long-double sums and means, glibc's ``exp``/``log``,
with the compiled ``_x87_kernels`` and ``_libm_kernels`` beside it), number
formatting and cli-style printing (``_format``), argument matching and
messages of R calls (``_rcalls``), R lists and named vectors (``_rlist``,
``_rnames``), ``options()`` (``_options``), warnings collected per call and
shown at the caller (``_warn``), ``ProbcalError`` (``_errors``), progress
bars (``_progress``), another library's module only once imported
(``_modules``) and, when present, the fork hook that waits for imports
in flight (``_fork``).

It may import nothing else of the package but ``pycalib_r._jit``. See
docs/architecture.md.
"""

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's nmath (``src/nmath``): distributions as functions of uniforms.

Every module ports R 4.2.2's C code operation for operation: it takes the
uniforms a stream hands it and returns R's values, so the stream objects
(:mod:`pycalib_r._rng.stream`) only decide how many uniforms are consumed.

=======================================  =================================
R source                                 module
=======================================  =================================
``rbinom.c``                             ``_rbinom``
``snorm.c`` (every ``normal.kind``)      ``_snorm`` (``INVERSION`` also in ``_dists``)
``sexp.c``, ``rgamma.c``, ``rbeta.c``,   ``_dists`` (scalar ports and block
``rpois.c``, ``rhyper.c``, ``rcauchy.c``,  evaluators); compiled ``rexp``,
``rlogis.c``, ``rweibull.c``             ``rgamma``, ``rbeta``, ``rpois`` in
                                         ``_native/src/rng.c``
=======================================  =================================

The deterministic functions the draws use (``qnorm.c``'s AS 241, ``qbinom``,
``qhyper``; and ``pgamma``, ``qgamma``, ``pchisq``, ``dnorm``, ``pnorm``)
are in :mod:`pycalib_r.rstats` (``_qnorm``, ``_qdiscrete``, ``_gamma_dist``,
``_gamma_base``), one copy each, imported from there.

Helpers: ``_cursor`` (scalar ``unif_rand()`` on any stream, rewound
exactly), ``_chain`` (vectorised draws of algorithms that take a variable
number of uniforms).

R equivalent: ``src/nmath/`` of R 4.2.2.
"""

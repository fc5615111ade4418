# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's nmath (``src/nmath``): distributions as functions of uniforms.

Every module ports R 4.2.2's C code operation for operation: it takes the
uniforms a stream hands it and returns R's values, so the stream objects
(:mod:`pycalib_r._rng.stream`) only decide how many uniforms are consumed.

=======================================  =================================
R source                                 module
=======================================  =================================
``qnorm.c`` (AS 241)                     ``_qnorm``
``rbinom.c``                             ``_rbinom``
``snorm.c`` (every ``normal.kind``)      ``_snorm`` (``INVERSION`` also in ``_dists``)
``sexp.c``, ``rgamma.c``, ``rbeta.c``,   ``_dists`` (scalar ports and block
``rpois.c``, ``rhyper.c``, ``rcauchy.c``,  evaluators); compiled ``rexp``,
``rlogis.c``, ``rweibull.c``             ``rgamma``, ``rbeta``, ``rpois`` in
                                         ``_native/src/rng.c``
``qbinom.c``, ``qpois.c``, ``qnbinom.c``,  ``_qdiscrete``
``qhyper.c``, ``qnchisq.c``, ...          (``qbinom``'s ``pbeta``: SciPy's
                                         ``betainc``, not ``toms708.c``)
``pgamma.c``, ``qgamma.c``, ``dgamma.c``  ``_gamma_dist`` (private scalar
(``pchisq``, ``qchisq``)                   ``pchisq``/``qchisq``, used by the
                                         validation statistics)
``bd0.c`` (``ebd0``), ``stirlerr.c``,     ``_gamma_base``
``dpois.c``, ``lgamma.c``, ``gamma.c``,
``dnorm.c``, ``pnorm.c``, ``qnorm.c``
=======================================  =================================

Helpers: ``_cursor`` (scalar ``unif_rand()`` on any stream, rewound
exactly), ``_chain`` (vectorised draws of algorithms that take a variable
number of uniforms).

R equivalent: ``src/nmath/`` of R 4.2.2.
"""

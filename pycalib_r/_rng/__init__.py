# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R 4.2.2-compatible random streams, bit for bit.

R's defaults (``RNGkind()`` = Mersenne-Twister, Inversion, Rejection) are
reproduced on top of numpy's ``MT19937`` bit generator: R's ``set.seed``
scrambling gives the 624-word key, numpy produces the raw 32-bit words, and
every R algorithm that turns words into draws (``unif_rand``' fixup,
``R_unif_index``' rejection on 16-bit chunks, ``norm_rand``' inversion with
R's AS 241 ``qnorm``, nmath's distributions, ``do_sample``'s samplers) is
ported here so that values *and* the stream position after each call equal
R's. ``RRandom.get_state()`` is R's ``.Random.seed``.

Where numpy and glibc disagree the glibc result is used: numpy's SIMD
``np.log`` differs from glibc's ``log`` in the last bit for about one value in
a thousand on AVX-512 machines, so every logarithm that decides a draw is
glibc's (:mod:`pycalib_r.rbase._rarith`).

R's sequential samplers also run as compiled C loops
(``pycalib_r/_native/src/rng.c``, built at install, used for large calls).
Each has a numpy or Python twin here that gives the same values and leaves
the stream in the same state; ``PYCALIB_R_NATIVE=0`` runs the twins only.

Layout, by R source (one subpackage per room, as numpy's ``random``
separates bit generators, distributions and the ``Generator``):

==========================  =====================================================
``bitgen``                  bit generators, ``src/main/RNG.c``: ``_mt`` (Mersenne-
                            Twister state, seeding and words, on numpy's
                            ``MT19937``; the words' recurrence is also in
                            ``_native/src/rng.c``); ``_bitgens`` (Wichmann-Hill,
                            Marsaglia-Multicarry, Super-Duper, Mersenne-Twister),
                            ``_knuth`` (Knuth-TAOCP, -2002), ``_lecuyer``
                            (L'Ecuyer-CMRG, ``nextRNGStream``); ``_unif_index``
                            (``R_unif_index``, ``rbits``); ``_state``
                            (``RNGkind``/``set.seed``/``.Random.seed`` order);
                            the package: kind names, codes, messages
``nmath``                   ``src/nmath``, distributions as functions of uniforms:
                            ``_rbinom`` (rbinom.c),
                            ``_snorm`` (snorm.c, every ``normal.kind``), ``_dists``
                            (sexp.c, rgamma.c, rbeta.c, rpois.c, rhyper.c, ...)
                            (compiled in ``_native``), ``_chain``, ``_cursor``;
                            the deterministic ``qnorm`` (AS 241), ``qbinom``,
                            ``qhyper`` come from :mod:`pycalib_r.rstats`
``do_sample``               ``do_sample`` (``src/main/random.c``): ``_sample``, the
                            twin of the compiled samplers (``R_unif_index``,
                            Fisher-Yates, ``sample2``'s hash, Walker's draws on
                            the words, alias table, ``revsort``,
                            ``ProbSampleNoReplace``; ``_native/src/rng.c``)
``_args``                   R's argument coercions and messages (``random.c``)
``stream``                  the R-facing objects: ``_stream`` (:class:`RRandom`),
                            ``_stream_dists``, ``_dist_fast``, ``_front``,
                            ``_front_dists``, ``_kinds``, ``_generator``,
                            ``_global``, ``_locking``
==========================  =====================================================

R equivalent: ``set.seed``, ``runif``, ``rnorm``, ``rbinom``, ``sample``,
``sample.int``, ``.Random.seed`` (R 4.2.2, ``src/main/RNG.c``,
``src/main/random.c``, ``src/nmath/``).
"""

from __future__ import annotations

from ._args import as_seed
from .stream._generator import GeneratorStream
from .stream._global import (  # noqa: F401 - the package's public random functions
    _global_stream,
    get_global_state,
    get_random_seed,
    rbinom,
    resolve_rng,
    rng_kind,
    rnorm,
    runif,
    sample,
    sample_int,
    set_global_state,
    set_random_seed,
    set_seed,
    rexp,
    rgamma,
    rbeta,
    rchisq,
    rt,
    rf,
    rpois,
    rgeom,
    rnbinom,
    rhyper,
    rmultinom,
    rlogis,
    rweibull,
    rcauchy,
    rlnorm,
)
from .stream._kinds import next_rng_stream, next_rng_substream
from .stream._stream import RRandom

from ._pickle_compat import install as _install_old_paths

# Streams pickled under the old flat module paths still load.
_install_old_paths()

__all__ = [
    "RRandom",
    "GeneratorStream",
    "set_seed",
    "as_seed",
    "runif",
    "rnorm",
    "rbinom",
    "sample",
    "sample_int",
    "resolve_rng",
    "get_global_state",
    "set_global_state",
    "rexp",
    "rgamma",
    "rbeta",
    "rchisq",
    "rt",
    "rf",
    "rpois",
    "rgeom",
    "rnbinom",
    "rhyper",
    "rmultinom",
    "rlogis",
    "rweibull",
    "rcauchy",
    "rlnorm",
    "rng_kind",
    "get_random_seed",
    "set_random_seed",
    "next_rng_stream",
    "next_rng_substream",
]


def __getattr__(name):
    # The global stream lives in ._global; `_rng._GLOBAL` reads it there.
    if name == "_GLOBAL":
        from .stream import _global
        return _global._GLOBAL
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
glibc's (:mod:`pycalib_r._rarith`).

R's sequential samplers also run as compiled loops (numba, through the gate
:mod:`pycalib_r._jit`; loaded only when a call is large enough). Each has a
numpy or Python twin in ``_sample`` that gives the same values and leaves the
stream in the same state; ``PYCALIB_R_JIT=0`` runs the twins only.

Layout, by R source:

=====================  ==========================================================
``_mt``                Mersenne-Twister state, seeding and words (``RNG.c``)
``_nmath``             ``qnorm`` and ``rbinom`` as functions of uniforms (nmath)
``_dists``             the other nmath distributions as functions of uniforms
``_args``              R's argument coercions and messages
``_sample``            ``do_sample`` / ``R_unif_index`` (``random.c``)
``_mt_kernels``        compiled loops on the Mersenne-Twister words: ``R_unif_index``,
                       Fisher-Yates, ``sample2``'s hash, Walker's draws
``_sample_kernels``    compiled loops of the weighted samplers (alias table,
                       ``revsort``, ``ProbSampleNoReplace``)
``_front``             the one front end of R's argument checks
``_stream``            :class:`RRandom`
``_generator``         :class:`GeneratorStream` (numpy's draws, R's checks)
``_global``            the global stream and ``resolve_rng``
``_kinds``             every other ``RNGkind`` (:mod:`pycalib_r._rng_kinds`) on the stream
=====================  ==========================================================

R equivalent: ``set.seed``, ``runif``, ``rnorm``, ``rbinom``, ``sample``,
``sample.int``, ``.Random.seed`` (R 4.2.2, ``src/main/RNG.c``,
``src/main/random.c``, ``src/nmath/``).
"""

from __future__ import annotations

from ._args import as_seed
from ._generator import GeneratorStream
from ._global import (  # noqa: F401 - the package's public random functions
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
from ._kinds import next_rng_stream, next_rng_substream
from ._stream import RRandom

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
        from . import _global
        return _global._GLOBAL
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c, src/library/base/R/RNG.R (GPL-2.0-or-later), (c) The R Core Team
"""R's bit generators: every ``RNGkind`` of R 4.2.2 (``src/main/RNG.c``).

R's ``src/main/RNG.c``, one module per part: ``_mt`` (Mersenne-Twister on
numpy's ``MT19937``, the stream's default kind; its words compiled in
``pycalib_r/_native/src/rng.c``); ``_bitgens`` (Wichmann-Hill, Marsaglia-Multicarry, Super-Duper,
Mersenne-Twister as a pure generator), ``_knuth`` (Knuth-TAOCP, -2002),
``_lecuyer`` (L'Ecuyer-CMRG); ``_unif_index`` (``R_unif_index``, ``rbits``);
``_state`` (the order of ``RNGkind``/``set.seed``/``.Random.seed``). The normal
kinds (``snorm.c``) are in :mod:`pycalib_r._rng.nmath._snorm`.

A standalone layer (numpy and :mod:`math` only) for the package's R stream:

- one :class:`BitGenerator` subclass per ``kind`` (:data:`GENERATORS`), seeded
  as ``set.seed(seed, kind = ...)``, drawing R's ``unif_rand()`` sequence,
  with ``.Random.seed`` export/import (:meth:`BitGenerator.get_state`,
  :meth:`BitGenerator.set_state`, :func:`from_random_seed`);
- :class:`NormRand` for every ``normal.kind``;
- :func:`unif_index` (``R_unif_index``) for both ``sample.kind`` values;
- :func:`next_rng_stream` / :func:`next_rng_substream` (package parallel);
- R's names, codes and messages for ``RNGkind()`` / ``set.seed()``
  (:func:`match_kind`, :data:`MESSAGES`, :func:`switch_kind`);
- :class:`KindState`, R's global RNG state and the order in which
  ``RNGkind()``, ``set.seed()`` and ``.Random.seed <-`` change it.

R equivalent: ``RNGkind()``, ``set.seed()``, ``.Random.seed``,
``parallel::nextRNGStream()``, ``parallel::nextRNGSubStream()`` (R 4.2.2).
"""

from __future__ import annotations

from ._bitgens import (
    KINDS,
    NORMAL_KINDS,
    SAMPLE_KINDS,
    BitGenerator,
    MarsagliaMulticarry,
    MersenneTwister,
    SuperDuper,
    WichmannHill,
    _check_words,
)
from ._knuth import KnuthTAOCP, KnuthTAOCP2002
from ._lecuyer import LEcuyerCMRG, next_rng_stream, next_rng_substream
from ._state import KindState
from ..nmath._snorm import NormRand, UniformCursor
from ._unif_index import rbits, unif_index

__all__ = [
    "BitGenerator", "WichmannHill", "MarsagliaMulticarry", "SuperDuper", "MersenneTwister",
    "KnuthTAOCP", "KnuthTAOCP2002", "LEcuyerCMRG", "GENERATORS", "KINDS", "NORMAL_KINDS",
    "SAMPLE_KINDS", "MESSAGES", "NormRand", "UniformCursor", "unif_index", "rbits",
    "next_rng_stream", "next_rng_substream", "new_generator", "from_random_seed",
    "decode_kind_code", "match_kind", "switch_kind", "KindState",
]

GENERATORS = {cls.kind: cls for cls in (WichmannHill, MarsagliaMulticarry, SuperDuper,
                                        MersenneTwister, KnuthTAOCP, KnuthTAOCP2002,
                                        LEcuyerCMRG)}
_BY_CODE = {cls.code: cls for cls in GENERATORS.values()}

# What R 4.2.2 says (conditionMessage()), checked live by tests/rng/test_rng_kinds.py.
MESSAGES = {
    # warnings
    "rounding": "non-uniform 'Rounding' sampler used",
    "buggy_kr_warning": "buggy version of Kinderman-Ramage generator used",
    "marsaglia": "RNGkind: Marsaglia-Multicarry has poor statistical properties",
    "marsaglia_kr": "RNGkind: severe deviations from normality for Kinderman-Ramage + "
                    "Marsaglia-Multicarry",
    "marsaglia_ad": "RNGkind: deviations from normality for Ahrens-Dieter + Marsaglia-Multicarry",
    # errors
    "buggy_kr_seed": "buggy version of Kinderman-Ramage generator is not allowed",
    "kind_type": "'kind' must be a character string of length 1 (RNG to be used).",
    "kind_value": "'{}' is not a valid abbreviation of an RNG",
    "normal_type": "'normal.kind' must be a character string of length 1",
    "sample_type": "'sample.kind' must be a character string of length 1",
    # R formats the message after replacing the argument by NA (base/R/RNG.R).
    "choice_value": "'NA' is not a valid choice",
    "seed": "supplied seed is not a valid integer",
    "stream_seed": "invalid value of 'seed'",
}


def match_kind(value, table, what):
    """R's ``pmatch(value, c(table, "default")) - 1``: the code, or -1 for default.

    Parameters
    ----------
    value : str
    table : tuple of str
        :data:`KINDS`, :data:`NORMAL_KINDS` or :data:`SAMPLE_KINDS`.
    what : {"kind", "normal.kind", "sample.kind"}

    Raises
    ------
    ValueError
        R's message (``MESSAGES``) for a non-string or no unique match.
    """
    if not isinstance(value, str):
        key = {"kind": "kind_type", "normal.kind": "normal_type", "sample.kind": "sample_type"}
        raise ValueError(MESSAGES[key[what]])
    names = tuple(table) + ("default",)
    exact = [i for i, nm in enumerate(names) if nm == value]
    partial = [i for i, nm in enumerate(names) if value and nm.startswith(value)]
    hit = exact or (partial if len(partial) == 1 else [])
    if not hit:
        raise ValueError(MESSAGES["kind_value"].format(value) if what == "kind"
                         else MESSAGES["choice_value"])
    code = hit[0]
    return -1 if code == len(names) - 1 else code


def new_generator(kind="Mersenne-Twister", seed=None):
    """A generator of R's ``kind`` seeded as ``set.seed(seed, kind = kind)``.

    Examples
    --------
    >>> new_generator("Wichmann-Hill", 1).unif_rand(3)
    array([0.12971341, 0.98224073, 0.82671841])

    R: ``set.seed(1, kind = "Wichmann-Hill"); runif(3)`` prints
    ``[1] 0.1297134 0.9822407 0.8267184``.
    """
    try:
        cls = GENERATORS[kind]
    except KeyError:
        raise ValueError(MESSAGES["kind_value"].format(kind)) from None
    return cls(seed)


def decode_kind_code(code):
    """``(kind, normal_kind, sample_kind)`` names from ``.Random.seed[1]``.

    Raises ValueError with R's warning text where R would ignore the vector
    ("'.Random.seed[1]' is not a valid integer, so ignored", ...).
    """
    code = int(code)
    if code < 0 or code > 11000:
        raise ValueError("'.Random.seed[1]' is not a valid integer, so ignored")
    k, nk, sk = code % 100, code % 10000 // 100, code // 10000
    if nk > 5 or sk > 1:
        raise ValueError("'.Random.seed[1]' is not a valid Normal type, so ignored")
    if nk == 3:
        raise ValueError("'.Random.seed[1]': user-supplied normal generators are not supported")
    if k == 5:
        raise ValueError("'.Random.seed[1] = 5' but no user-supplied generator, so ignored")
    if k not in _BY_CODE:
        raise ValueError("'.Random.seed[1]' is not a valid RNG kind so ignored")
    return KINDS[k], NORMAL_KINDS[nk], SAMPLE_KINDS[sk]


def from_random_seed(vec):
    """``(generator, normal_kind, sample_kind)`` from an R ``.Random.seed`` vector.

    The words are loaded as R's ``GetRNGstate`` does (``FixupSeeds``); a
    vector of length 1 reseeds from entropy; a vector shorter than the kind
    needs raises R's "'.Random.seed' has wrong length".
    """
    vec = _check_words(vec)
    if not vec:
        raise ValueError("'.Random.seed' has wrong length")
    kind, nk, sk = decode_kind_code(vec[0])
    gen = GENERATORS[kind](0)
    gen.set_state(vec)
    return gen, nk, sk


def switch_kind(old, kind):
    """The generator R makes on ``RNGkind(kind = kind)`` without ``set.seed``.

    R's ``RNGkind`` draws one ``u = unif_rand()`` from the current generator
    ``old`` (advancing it) and runs ``RNG_Init(kind, (Int32)(u * UINT_MAX))``,
    which scrambles that seed like any other.

    Examples
    --------
    >>> old = new_generator("Mersenne-Twister", 1)
    >>> switch_kind(old, "Wichmann-Hill").get_state().tolist()
    [10400, 9038, 10977, 958]

    R: ``set.seed(1); RNGkind("Wichmann-Hill"); .Random.seed``.
    """
    u = float(old.unif_rand(1)[0])
    gen = new_generator(kind, 0)
    gen.seed_word(int(u * 4294967295.0))
    return gen

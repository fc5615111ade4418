"""The package's global R stream and the ``rng=`` resolver.

R equivalent: the global ``.Random.seed`` and the functions drawing on it.
"""

from __future__ import annotations

import numbers
import os
import threading

import numpy as np

from ...rbase._rcalls import ArgumentError
from ...rbase._rnames import r_keyword_args
from ._front_dists import _MISSING
from ._generator import GeneratorStream
from ._stream import RRandom

_GLOBAL = None
# Creating or replacing the global stream is one step for all threads (its
# draws serialise on the stream's own lock, module ._locking).
_create = threading.Lock()


def _global_stream():
    global _GLOBAL
    if _GLOBAL is None:
        with _create:
            if _GLOBAL is None:
                # As R without .Random.seed: seeded from entropy on first use.
                _GLOBAL = RRandom(None)
    return _GLOBAL


def _after_fork_in_child():
    global _create
    _create = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def set_seed(seed, kind=None, normal_kind=None, sample_kind=None):
    """Seed the package's global R stream, as R's ``set.seed(seed)``.

    R equivalent: ``set.seed(seed, kind = NULL, normal.kind = NULL,
    sample.kind = NULL)`` (R's default ``RNGkind()`` is Mersenne-Twister,
    Inversion, Rejection).

    Parameters
    ----------
    seed : int
        As R's ``set.seed(seed)``: any integer R accepts (negative, 0 and
        ``2**31 - 1`` included), coerced as R's ``as.integer`` does (``1.7``
        is 1, ``"3"`` is 3, ``True`` is 1), with R's warnings and errors for
        NA and out-of-range values. None (R's ``NULL``; ``[]`` is ``numeric(0)``)
        re-seeds from OS entropy, as ``set.seed(NULL)``.
    kind, normal_kind, sample_kind : str, optional
        Switch the stream's kinds first, as :func:`rng_kind` (R's names;
        ``"Rounding"`` warns "non-uniform 'Rounding' sampler used").

    Returns
    -------
    None

    Notes
    -----
    R scrambles the seed (50 steps of the congruential generator
    ``seed = 69069 * seed + 1``) before filling the Mersenne-Twister state,
    and R's uniforms carry 32 random bits each. numpy's ``MT19937`` is the
    same generator, but ``numpy.random.seed(42)`` or
    ``numpy.random.default_rng(42)`` seed it differently and build 53-bit
    doubles, so they do not reproduce R's numbers; ``set_seed`` does. The
    global stream is the default ``rng`` of every function that draws random
    numbers; an :class:`RRandom` or a ``numpy.random.Generator`` passed as
    ``rng=`` leaves it untouched.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395
    >>> pc.set_seed(42)  # the same seed gives the same draws again
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``.
    Another kind:

    >>> pc.set_seed(42, kind="Wichmann-Hill")
    >>> pc.runif(3)
    array([0.25080964, 0.76180334, 0.20390794])
    >>> pc.set_seed(42, kind="default")

    R: ``set.seed(42, kind = "Wichmann-Hill"); runif(3)`` prints
    ``[1] 0.2508096 0.7618033 0.2039079``.
    """
    global _GLOBAL
    if _GLOBAL is None:
        with _create:
            if _GLOBAL is None:
                _GLOBAL = RRandom(seed, kind, normal_kind, sample_kind)
                return
    _GLOBAL.set_seed(seed, kind, normal_kind, sample_kind)


def runif(n, min=0, max=1):  # noqa: A002
    """R's ``runif`` on the global stream (see :meth:`RRandom.runif`).

    R equivalent: ``runif(n, min = 0, max = 1)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length,
        as in R.
    min, max : float or array_like
        Bounds, recycled along the result as R recycles them. Non-finite
        bounds or ``max < min`` give NaN (R's NA) with R's "NAs produced"
        warning.

    Returns
    -------
    numpy.ndarray of float64
        ``n`` deviates, R's bit for bit; the global stream advances as R's
        ``.Random.seed`` does.

    Notes
    -----
    Each value is ``min + (max - min) * u`` with R's ``unif_rand()`` ``u``:
    one 32-bit Mersenne-Twister word scaled by ``2**-32`` and kept inside
    ``(0, 1)``. numpy's ``Generator.random`` uses 53 bits from two words, so
    even an identical Mersenne-Twister state gives other numbers.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(3)))
    0.914806 0.9370754 0.2861395
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.runif(2, min=[0, 10], max=[1, 20])))
    0.914806 19.37075

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``;
    ``set.seed(42); runif(2, min = c(0, 10), max = c(1, 20))`` prints
    ``[1]  0.914806 19.370754``.
    """
    return _global_stream().runif(n, min, max)


def rnorm(n, mean=0, sd=1):
    """R's ``rnorm`` on the global stream (see :meth:`RRandom.rnorm`).

    R equivalent: ``rnorm(n, mean = 0, sd = 1)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length.
    mean, sd : float or array_like
        Recycled along the result. ``sd == 0`` or an infinite ``mean`` gives
        ``mean`` without drawing; NaN ``mean``, non-finite or negative ``sd``
        give NaN with R's "NAs produced" warning.

    Returns
    -------
    numpy.ndarray of float64
        ``n`` deviates, R's bit for bit.

    Notes
    -----
    R's default normal kind is Inversion: each value is ``mean + sd *
    qnorm(u)`` with ``u`` built from two uniforms,
    ``u = (floor(2**27 * u1) + u2) / 2**27``, and ``qnorm`` is Wichura's
    AS 241. numpy's ``Generator.standard_normal`` uses the ziggurat method,
    so no numpy seed reproduces these values.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.rnorm(3)))
    1.370958 -0.5646982 0.3631284
    >>> pc.set_seed(42)
    >>> print(" ".join(f"{v:.7g}" for v in pc.rnorm(3, mean=10, sd=2)))
    12.74192 8.870604 10.72626

    R: ``set.seed(42); rnorm(3)`` prints ``[1]  1.3709584 -0.5646982  0.3631284``
    and ``set.seed(42); rnorm(3, mean = 10, sd = 2)`` prints
    ``[1] 12.741917  8.870604 10.726257``.
    """
    return _global_stream().rnorm(n, mean, sd)


def rbinom(n, size, prob):
    """R's ``rbinom`` on the global stream (see :meth:`RRandom.rbinom`).

    R equivalent: ``rbinom(n, size, prob)``.

    Parameters
    ----------
    n : int or sequence
        Number of values; a sequence of length other than 1 means its length.
    size, prob : float or array_like
        Recycled along the result. A non-integer, negative or non-finite
        ``size``, or ``prob`` outside ``[0, 1]``, gives NaN (R's NA) with R's
        "NAs produced" warning.

    Returns
    -------
    numpy.ndarray
        int64 counts, R's bit for bit; float64 with NaN where R gives NA.

    Notes
    -----
    R 4.2.2's algorithm (nmath's ``rbinom.c``): inversion when
    ``size * min(prob, 1 - prob) < 30``, otherwise Kachitvichyanukul &
    Schmeiser's BTPE, on the smaller of ``prob`` and ``1 - prob``. numpy's
    ``Generator.binomial`` uses other algorithms and other uniforms, so its
    draws differ for any seed.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.rbinom(5, 10, 0.3))
    5 5 2 4 3
    >>> pc.set_seed(42)
    >>> print(*pc.rbinom(4, 1, [0.1, 0.9]))  # prob recycled: 0.1, 0.9, 0.1, 0.9
    1 0 0 1

    R: ``set.seed(42); rbinom(5, 10, 0.3)`` prints ``[1] 5 5 2 4 3`` and
    ``set.seed(42); rbinom(4, 1, c(0.1, 0.9))`` prints ``[1] 1 0 0 1``.
    """
    return _global_stream().rbinom(n, size, prob)


def sample(x, size=None, replace=False, prob=None):
    """R's ``sample`` on the global stream (see :meth:`RRandom.sample`).

    R equivalent: ``sample(x, size, replace = FALSE, prob = NULL)``.

    Parameters
    ----------
    x : array_like or number
        A single finite number ``>= 1`` means ``1..x`` (R's rule, a frequent
        surprise: ``sample(c(5))`` is a permutation of ``1..5``); anything else
        is the population, returned as elements of ``x`` (list -> list,
        pandas -> pandas, otherwise ndarray).
    size : int, optional
        Number of items; defaults to the population size.
    replace : bool
        Sample with replacement.
    prob : array_like of float, optional
        Weights, one per population element, normalised as R does.

    Returns
    -------
    numpy.ndarray, list or pandas object
        The sampled elements (1-based integers when ``x`` is a number).

    Notes
    -----
    The indices are :func:`sample_int`'s: R's default ``sample.kind =
    "Rejection"`` (R >= 3.6.0) draws each index by rejection sampling on
    the bits of R's uniforms. numpy's ``Generator.choice`` and
    ``permutation`` use other algorithms, so they do not reproduce R.

    Examples
    --------
    A single number n >= 1 means ``1..n``, as in R:

    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.sample(10))
    1 5 10 8 2 4 6 9 7 3

    R: ``set.seed(42); sample(10)`` prints
    ``[1]  1  5 10  8  2  4  6  9  7  3``. A list comes back as a list:

    >>> pc.set_seed(42)
    >>> pc.sample(["a", "b", "c"], 5, replace=True)
    ['a', 'a', 'a', 'a', 'b']

    R: ``set.seed(42); sample(c("a", "b", "c"), 5, replace = TRUE)`` prints
    ``[1] "a" "a" "a" "a" "b"``.
    """
    return _global_stream().sample(x, size, replace, prob)


def sample_int(n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
    """R's ``sample.int`` on the global stream (see :meth:`RRandom.sample_int`).

    R equivalent: ``sample.int(n, size = n, replace = FALSE, prob = NULL, useHash)``.

    Parameters
    ----------
    n : int or float
        Population size (length 1); fractional values truncate, as in R.
    size : int, optional
        Number of items; defaults to ``n``.
    replace : bool
        Sample with replacement.
    prob : array_like of float, optional
        Weights of length ``n``, normalised as R does.
    useHash : bool, optional
        R's ``useHash``; None applies R's default.

    Returns
    -------
    numpy.ndarray of int64
        1-based integers, R's bit for bit.

    Notes
    -----
    Without ``prob``, each index is R's ``R_unif_index``: rejection sampling
    on 16-bit chunks of R's uniforms (``sample.kind = "Rejection"``, R's
    default since 3.6.0). With ``prob`` and replacement R uses Walker's
    alias method when more than 200 of the ``n * p`` exceed 0.1, otherwise
    inversion on the probabilities sorted by R's heapsort; without
    replacement R's sequential scheme. Indices are 1-based, as R's; subtract
    1 to index a numpy array.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> print(*pc.sample_int(100, 5))
    49 65 25 74 18
    >>> pc.set_seed(42)
    >>> print(*pc.sample_int(3, 6, replace=True, prob=[0.7, 0.2, 0.1]))
    3 3 1 2 1 1

    R: ``set.seed(42); sample.int(100, 5)`` prints ``[1] 49 65 25 74 18`` and
    ``set.seed(42); sample.int(3, 6, replace = TRUE, prob = c(0.7, 0.2, 0.1))``
    prints ``[1] 3 3 1 2 1 1``.
    """
    return _global_stream().sample_int(n, size, replace, prob, useHash)


def get_global_state():
    """The global stream's state as R's ``.Random.seed`` (int32, length 626).

    Creates (entropy-seeds) the global stream if nothing has used it yet.

    R equivalent: ``.Random.seed``.
    """
    return _global_stream().get_state()


def set_global_state(state):
    """Restore the global stream from an R ``.Random.seed`` vector.

    None forgets the global stream (the next use seeds from entropy), as
    removing ``.Random.seed`` does in R.

    R equivalent: ``assign(".Random.seed", state, globalenv())``.
    """
    global _GLOBAL
    if state is None:
        _GLOBAL = None
        return
    _global_stream().set_state(state)


def rng_kind(kind=None, normal_kind=None, sample_kind=None):
    """R's ``RNGkind()``: the global stream's kinds before the call; set new ones.

    Parameters
    ----------
    kind, normal_kind, sample_kind : str, optional
        R's names (unique abbreviations and ``"default"`` accepted); see
        :meth:`RRandom.rng_kind`. Changing ``kind`` seeds the new generator
        from one uniform of the current one, as R does.

    Returns
    -------
    tuple of str
        ``(kind, normal_kind, sample_kind)`` as they were.

    Raises
    ------
    ProbcalError
        R's message for a name that matches no kind, e.g.
        "'foo' is not a valid abbreviation of an RNG".

    Warns
    -----
    RuntimeWarning
        R's warnings: "non-uniform 'Rounding' sampler used", "buggy version
        of Kinderman-Ramage generator used", and Marsaglia-Multicarry's.

    R equivalent: ``RNGkind(kind = NULL, normal.kind = NULL, sample.kind = NULL)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> pc.rng_kind("Super-Duper")
    ('Mersenne-Twister', 'Inversion', 'Rejection')
    >>> pc.rng_kind()
    ('Super-Duper', 'Inversion', 'Rejection')
    >>> pc.rng_kind("default")
    ('Super-Duper', 'Inversion', 'Rejection')

    R: ``set.seed(1); RNGkind("Super-Duper"); RNGkind()`` prints
    ``[1] "Super-Duper" "Inversion"   "Rejection"``.
    """
    if _GLOBAL is None and kind is None and normal_kind is None and sample_kind is None:
        return ("Mersenne-Twister", "Inversion", "Rejection")
    return _global_stream().rng_kind(kind, normal_kind, sample_kind)


def get_random_seed():
    """The global stream's state as R's ``.Random.seed``, for any kind (int32).

    Creates (entropy-seeds) the global stream if nothing has used it yet.

    R equivalent: ``.Random.seed``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42, kind="Wichmann-Hill")
    >>> pc.get_random_seed().tolist()
    [10400, 5781, 10437, 18793]
    >>> pc.set_seed(42, kind="default")

    R: ``set.seed(42, kind = "Wichmann-Hill"); .Random.seed`` prints
    ``[1] 10400  5781 10437 18793``.
    """
    return _global_stream().get_random_seed()


def set_random_seed(vec):
    """``.Random.seed <- vec`` on the global stream, for any kind.

    The kind code ``vec[0]`` selects the kinds; the words are loaded as R's
    ``FixupSeeds`` does. None forgets the global stream, as
    ``rm(.Random.seed)`` does. The vector is read as R's next draw reads
    it: one that is not an integer vector (a float array, strings, ``[]``)
    or whose kind code names no kind warns with R's text and re-seeds from
    entropy under R's default kinds; a length-1 vector re-seeds its kinds.

    Raises
    ------
    ProbcalError
        Where R stops ("'.Random.seed' has wrong length"), and for a
        negative Mersenne-Twister position, where R reads outside its state.

    Warns
    -----
    RuntimeWarning
        R's "'.Random.seed' is not an integer vector but of type '...', so
        ignored", "'.Random.seed[1]' is not a valid RNG kind so ignored", ...

    R equivalent: ``assign(".Random.seed", vec, globalenv())``.
    """
    if vec is None:
        set_global_state(None)
        return
    _global_stream().set_random_seed(vec)


def resolve_rng(rng):
    """The stream a function with an ``rng=`` argument draws from.

    Parameters
    ----------
    rng : None, int, RRandom, numpy.random.Generator, or GeneratorStream
        None: the package's global R stream (what ``set_seed`` seeds).
        An int: a new ``RRandom(rng)``, R's stream after ``set.seed(rng)``.
        An :class:`RRandom`: itself. A ``numpy.random.Generator``: a
        :class:`GeneratorStream` around it (numpy values, not R's).

    Raises
    ------
    ProbcalError
        Anything else: a :class:`~pycalib_r.ProbcalError` (so a
        ``ValueError``) that is also a ``TypeError``, with a note on the fix
        for a float seed, a bool, a legacy ``RandomState`` or a bare bit
        generator.

    R equivalent: none (R functions always use the global stream).
    """
    if rng is None:
        return _global_stream()
    if isinstance(rng, (RRandom, GeneratorStream)):
        return rng
    if isinstance(rng, np.random.Generator):
        return GeneratorStream(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        # scipy's convention (an int seeds a new stream), with R's stream.
        return RRandom(int(rng))
    err = ArgumentError(
        "`rng` must be None (the global R stream), an int seed, a pycalib_r RRandom, or a "
        f"numpy.random.Generator, not {type(rng).__name__}.")
    err.add_note(_rng_hint(rng))
    raise err


def _rng_hint(rng) -> str:
    if isinstance(rng, (bool, np.bool_)):
        return "A bool is not a seed here; pass an int seed (rng=1) or None."
    if isinstance(rng, numbers.Real):
        return (f"A seed is a whole number: rng={int(rng) if np.isfinite(rng) else 1}, "
                "or pc.set_seed(seed) (which, as R's set.seed, also takes 1.7 as 1) for the "
                "global stream.")
    if isinstance(rng, np.random.RandomState):
        return ("A legacy numpy RandomState is not accepted: pass "
                "numpy.random.default_rng(seed), or an int seed for R's stream.")
    if isinstance(rng, np.random.BitGenerator):
        return "Wrap the bit generator in a Generator: rng=numpy.random.Generator(bit_generator)."
    return ("Pass an int seed (R's stream after set.seed(seed)), pycalib_r.RRandom(seed), "
            "numpy.random.default_rng(seed), or None for the global stream.")


# --- nmath's distributions on the global stream --------------------------------


def rexp(n, rate=1):
    """R's ``rexp`` on the global stream (see :meth:`RRandom.rexp`).

    R equivalent: ``rexp(n, rate = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rexp(3)
    array([0.19833681, 0.66089525, 0.28349104])

    R: ``set.seed(42); rexp(3)`` prints ``[1] 0.1983368 0.6608953 0.2834910``.
    """
    return _global_stream().rexp(n, rate)


def rgamma(n, shape=_MISSING, rate=None, scale=None):
    """R's ``rgamma`` on the global stream (see :meth:`RRandom.rgamma`).

    R equivalent: ``rgamma(n, shape, rate = 1, scale = 1/rate)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rgamma(3, 2)
    array([3.64895609, 0.88810982, 1.55921982])

    R: ``set.seed(42); rgamma(3, 2)`` prints ``[1] 3.6489561 0.8881098 1.5592198``.
    """
    return _global_stream().rgamma(n, shape, rate, scale)


def rbeta(n, shape1, shape2, ncp=None):
    """R's ``rbeta`` on the global stream (see :meth:`RRandom.rbeta`).

    R equivalent: ``rbeta(n, shape1, shape2, ncp = 0)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rbeta(3, 2, 3)
    array([0.26816459, 0.49404131, 0.56653369])

    R: ``set.seed(42); rbeta(3, 2, 3)`` prints ``[1] 0.2681646 0.4940413 0.5665337``.
    """
    return _global_stream().rbeta(n, shape1, shape2, ncp)


def rchisq(n, df, ncp=None):
    """R's ``rchisq`` on the global stream (see :meth:`RRandom.rchisq`).

    R equivalent: ``rchisq(n, df, ncp = 0)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rchisq(3, 4)
    array([7.29791219, 1.77621963, 3.11843964])

    R: ``set.seed(42); rchisq(3, 4)`` prints ``[1] 7.297912 1.776220 3.118440``.
    With ``ncp`` (nmath's ``rnchisq``):

    >>> pc.set_seed(42)
    >>> pc.rchisq(3, 4, ncp=1)
    array([13.71932563,  4.750448  ,  6.49709722])

    R: ``set.seed(42); rchisq(3, 4, ncp = 1)`` prints ``[1] 13.719326  4.750448  6.497097``.
    """
    return _global_stream().rchisq(n, df, ncp)


def rt(n, df, ncp=None):
    """R's ``rt`` on the global stream (see :meth:`RRandom.rt`).

    R equivalent: ``rt(n, df, ncp)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rt(3, 5)
    array([ 1.91513709,  0.08784221, -0.07732699])

    R: ``set.seed(42); rt(3, 5)`` prints ``[1]  1.91513709  0.08784221 -0.07732699``.
    A given ``ncp``, even 0, is R's non-central form (other values):

    >>> pc.set_seed(42)
    >>> pc.rt(3, 5, ncp=0)
    array([ 1.25252481, -0.55239735,  0.42181676])

    R: ``set.seed(42); rt(3, 5, ncp = 0)`` prints ``[1]  1.2525248 -0.5523974  0.4218168``.
    """
    return _global_stream().rt(n, df, ncp)


def rf(n, df1, df2, ncp=None):
    """R's ``rf`` on the global stream (see :meth:`RRandom.rf`).

    R equivalent: ``rf(n, df1, df2, ncp)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rf(3, 3, 7)
    array([3.15403336, 1.75770926, 1.0624756 ])

    R: ``set.seed(42); rf(3, 3, 7)`` prints ``[1] 3.154033 1.757709 1.062476``.
    """
    return _global_stream().rf(n, df1, df2, ncp)


@r_keyword_args
def rpois(n, lambda_):
    """R's ``rpois`` on the global stream (see :meth:`RRandom.rpois`).

    R equivalent: ``rpois(n, lambda)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rpois(5, 4)
    array([7, 7, 3, 6, 5])

    R: ``set.seed(42); rpois(5, 4)`` prints ``[1] 7 7 3 6 5``.
    """
    return _global_stream().rpois(n, lambda_)


def rgeom(n, prob):
    """R's ``rgeom`` on the global stream (see :meth:`RRandom.rgeom`).

    R equivalent: ``rgeom(n, prob)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rgeom(5, 0.3)
    array([1, 1, 0, 1, 2])

    R: ``set.seed(42); rgeom(5, 0.3)`` prints ``[1] 1 1 0 1 2``.
    """
    return _global_stream().rgeom(n, prob)


def rnbinom(n, size, prob=None, mu=None):
    """R's ``rnbinom`` on the global stream (see :meth:`RRandom.rnbinom`).

    R equivalent: ``rnbinom(n, size, prob, mu)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rnbinom(5, 3, 0.5)
    array([4, 4, 4, 4, 5])

    R: ``set.seed(42); rnbinom(5, 3, 0.5)`` prints ``[1] 4 4 4 4 5``.
    """
    return _global_stream().rnbinom(n, size, prob, mu)


def rhyper(nn, m, n, k):
    """R's ``rhyper`` on the global stream (see :meth:`RRandom.rhyper`).

    R equivalent: ``rhyper(nn, m, n, k)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rhyper(5, 10, 7, 8)
    array([3, 3, 5, 4, 4])

    R: ``set.seed(42); rhyper(5, 10, 7, 8)`` prints ``[1] 3 3 5 4 4``.
    """
    return _global_stream().rhyper(nn, m, n, k)


def rmultinom(n, size, prob):
    """R's ``rmultinom`` on the global stream (see :meth:`RRandom.rmultinom`).

    R equivalent: ``rmultinom(n, size, prob)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rmultinom(2, 10, [0.2, 0.3, 0.5])
    array([[4, 1],
           [4, 5],
           [2, 4]])

    R: ``set.seed(42); rmultinom(2, 10, c(0.2, 0.3, 0.5))`` prints the same 3 x 2 matrix
    (columns ``4 4 2`` and ``1 5 4``).
    """
    return _global_stream().rmultinom(n, size, prob)


def rlogis(n, location=0, scale=1):
    """R's ``rlogis`` on the global stream (see :meth:`RRandom.rlogis`).

    R equivalent: ``rlogis(n, location = 0, scale = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rlogis(3)
    array([ 2.37378157,  2.70082679, -0.91420794])

    R: ``set.seed(42); rlogis(3)`` prints ``[1]  2.3737816  2.7008268 -0.9142079``.
    """
    return _global_stream().rlogis(n, location, scale)


def rweibull(n, shape, scale=1):
    """R's ``rweibull`` on the global stream (see :meth:`RRandom.rweibull`).

    R equivalent: ``rweibull(n, shape, scale = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rweibull(3, 2)
    array([0.29840109, 0.25493434, 1.11860436])

    R: ``set.seed(42); rweibull(3, 2)`` prints ``[1] 0.2984011 0.2549343 1.1186044``.
    """
    return _global_stream().rweibull(n, shape, scale)


def rcauchy(n, location=0, scale=1):
    """R's ``rcauchy`` on the global stream (see :meth:`RRandom.rcauchy`).

    R equivalent: ``rcauchy(n, location = 0, scale = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rcauchy(3)
    array([-0.27422409, -0.20029939,  1.25740275])

    R: ``set.seed(42); rcauchy(3)`` prints ``[1] -0.2742241 -0.2002994  1.2574028``.
    """
    return _global_stream().rcauchy(n, location, scale)


def rlnorm(n, meanlog=0, sdlog=1):
    """R's ``rlnorm`` on the global stream (see :meth:`RRandom.rlnorm`).

    R equivalent: ``rlnorm(n, meanlog = 0, sdlog = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rlnorm(3)
    array([3.93912433, 0.56853172, 1.43782048])

    R: ``set.seed(42); rlnorm(3)`` prints ``[1] 3.9391243 0.5685317 1.4378205``.
    """
    return _global_stream().rlnorm(n, meanlog, sdlog)

"""The package's global R stream and the ``rng=`` resolver.

R equivalent: the global ``.Random.seed`` and the functions drawing on it.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._generator import GeneratorStream
from ._stream import RRandom

_GLOBAL = None


def _global_stream():
    global _GLOBAL
    if _GLOBAL is None:
        # As R without .Random.seed: seeded from entropy on first use.
        _GLOBAL = RRandom(None)
    return _GLOBAL


def set_seed(seed):
    """Seed the package's global R stream, as R's ``set.seed(seed)``.

    Parameters
    ----------
    seed : int
        As R's ``set.seed(seed)``.

    Returns
    -------
    None

    R equivalent: ``set.seed(seed)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.runif(3)
    array([0.91480604, 0.93707541, 0.28613953])
    >>> pc.set_seed(42)  # the same seed gives the same draws again
    >>> pc.runif(3)
    array([0.91480604, 0.93707541, 0.28613953])

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``.
    """
    global _GLOBAL
    if _GLOBAL is None:
        _GLOBAL = RRandom(seed)
    else:
        _GLOBAL.set_seed(seed)


def runif(n, min=0, max=1):  # noqa: A002
    """R's ``runif`` on the global stream (see :meth:`RRandom.runif`).

    R equivalent: ``runif(n, min = 0, max = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.runif(3)
    array([0.91480604, 0.93707541, 0.28613953])

    R: ``set.seed(42); runif(3)`` prints ``[1] 0.9148060 0.9370754 0.2861395``.
    """
    return _global_stream().runif(n, min, max)


def rnorm(n, mean=0, sd=1):
    """R's ``rnorm`` on the global stream (see :meth:`RRandom.rnorm`).

    R equivalent: ``rnorm(n, mean = 0, sd = 1)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rnorm(3)
    array([ 1.37095845, -0.56469817,  0.36312841])

    R: ``set.seed(42); rnorm(3)`` prints ``[1]  1.3709584 -0.5646982  0.3631284``.
    """
    return _global_stream().rnorm(n, mean, sd)


def rbinom(n, size, prob):
    """R's ``rbinom`` on the global stream (see :meth:`RRandom.rbinom`).

    R equivalent: ``rbinom(n, size, prob)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.rbinom(5, 10, 0.3)
    array([5, 5, 2, 4, 3])

    R: ``set.seed(42); rbinom(5, 10, 0.3)`` prints ``[1] 5 5 2 4 3``.
    """
    return _global_stream().rbinom(n, size, prob)


def sample(x, size=None, replace=False, prob=None):
    """R's ``sample`` on the global stream (see :meth:`RRandom.sample`).

    R equivalent: ``sample(x, size, replace = FALSE, prob = NULL)``.

    Examples
    --------
    A single number n >= 1 means ``1..n``, as in R:

    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.sample(10)
    array([ 1,  5, 10,  8,  2,  4,  6,  9,  7,  3])

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

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> pc.sample_int(100, 5)
    array([49, 65, 25, 74, 18])

    R: ``set.seed(42); sample.int(100, 5)`` prints ``[1] 49 65 25 74 18``.
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
    TypeError
        Anything else.

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
    raise TypeError(
        "`rng` must be None (the global R stream), an int seed, a pycalib_r RRandom, or a "
        f"numpy.random.Generator, not {type(rng).__name__}.")


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


def rgamma(n, shape, rate=None, scale=None):
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

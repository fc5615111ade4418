"""nmath's distributions on the R stream (pycalib_r._rng), and R's seed coercion.

Values and the stream position are compared with R bit for bit: live through
rpy2 (``r_parity``) on long runs that reach every branch of each algorithm,
and without R through ``reference/fixtures/rng.json`` (run by
tests/suites/project/test_fixtures.py).
"""

import math
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r import ProbcalError
from pycalib_r._rng import RRandom
from pycalib_r._rng.nmath import _chain, _dists
from pycalib_r._rng.nmath._cursor import UnifCursor

SEEDS = [-7, 0, 1, 42, 2**31 - 1]

# (Python call, R code): long runs at and around each algorithm's switch
# points (rgamma GS / GD and its three constant regimes, rpois inversion /
# normal-based at mu = 10, rbeta BC / BB, rhyper HIN / H2PE and its explicit
# / squeeze branches), scalar and recycled parameters.
LONG = [
    (lambda g: g.rexp(20000), "rexp(20000)"),
    (lambda g: g.rexp(5000, [1, 2, 0.5]), "rexp(5000, c(1, 2, .5))"),
    (lambda g: g.rgamma(20000, 0.3), "rgamma(20000, .3)"),
    (lambda g: g.rgamma(20000, 0.999), "rgamma(20000, .999)"),
    (lambda g: g.rgamma(20000, 1.0), "rgamma(20000, 1)"),
    (lambda g: g.rgamma(20000, 1.7, scale=2), "rgamma(20000, 1.7, scale = 2)"),
    (lambda g: g.rgamma(20000, 5.0, rate=0.5), "rgamma(20000, 5, rate = .5)"),
    (lambda g: g.rgamma(20000, 30.0), "rgamma(20000, 30)"),
    (lambda g: g.rgamma(3000, [0.5, 2, 8, 1]), "rgamma(3000, c(.5, 2, 8, 1))"),
    (lambda g: g.rbeta(20000, 2, 3), "rbeta(20000, 2, 3)"),
    (lambda g: g.rbeta(20000, 0.5, 0.7), "rbeta(20000, .5, .7)"),
    (lambda g: g.rbeta(20000, 3, 0.4), "rbeta(20000, 3, .4)"),
    (lambda g: g.rbeta(20000, 1, 1), "rbeta(20000, 1, 1)"),
    (lambda g: g.rbeta(3000, [0.5, 2, 0], [3, 2, 0]), "rbeta(3000, c(.5, 2, 0), c(3, 2, 0))"),
    (lambda g: g.rchisq(20000, 3), "rchisq(20000, 3)"),
    (lambda g: g.rchisq(20000, 1), "rchisq(20000, 1)"),
    (lambda g: g.rt(5000, 4), "rt(5000, 4)"),
    (lambda g: g.rt(5000, 1.5), "rt(5000, 1.5)"),
    (lambda g: g.rt(500, 3, ncp=1), "rt(500, 3, ncp = 1)"),
    (lambda g: g.rf(5000, 3, 7), "rf(5000, 3, 7)"),
    (lambda g: g.rpois(20000, 4), "rpois(20000, 4)"),
    (lambda g: g.rpois(20000, 0.2), "rpois(20000, .2)"),
    (lambda g: g.rpois(20000, 9.99), "rpois(20000, 9.99)"),
    (lambda g: g.rpois(20000, 10), "rpois(20000, 10)"),
    (lambda g: g.rpois(20000, 55.5), "rpois(20000, 55.5)"),
    (lambda g: g.rpois(5000, [3, 30, 9.99]), "rpois(5000, c(3, 30, 9.99))"),
    (lambda g: g.rgeom(5000, 0.2), "rgeom(5000, .2)"),
    (lambda g: g.rnbinom(5000, 3, 0.4), "rnbinom(5000, 3, .4)"),
    (lambda g: g.rnbinom(5000, 0.7, mu=20), "rnbinom(5000, .7, mu = 20)"),
    (lambda g: g.rhyper(5000, 10, 7, 8), "rhyper(5000, 10, 7, 8)"),
    (lambda g: g.rhyper(5000, 300, 200, 250), "rhyper(5000, 300, 200, 250)"),
    (lambda g: g.rhyper(5000, 3000, 2000, 2500), "rhyper(5000, 3000, 2000, 2500)"),
    (lambda g: g.rhyper(5000, 40, 3000, 1200), "rhyper(5000, 40, 3000, 1200)"),
    (lambda g: g.rmultinom(500, 30, [0.1, 0.6, 0.05, 0.25]), "rmultinom(500, 30, c(.1, .6, .05, .25))"),
    (lambda g: g.rmultinom(50, 100, [2, 0, 1]), "rmultinom(50, 100, c(2, 0, 1))"),
    (lambda g: g.rlogis(5000, 1, 2), "rlogis(5000, 1, 2)"),
    (lambda g: g.rweibull(5000, 1.5, 2), "rweibull(5000, 1.5, 2)"),
    (lambda g: g.rcauchy(5000), "rcauchy(5000)"),
    (lambda g: g.rlnorm(5000, 1, 0.5), "rlnorm(5000, 1, .5)"),
]


def _r_numbers(r, code):
    v = r.r(code)
    a = np.asarray(v)
    if a.dtype == np.int32:
        out = a.astype(np.float64)
        out[a == np.iinfo(np.int32).min] = np.nan
        return out
    return a.astype(np.float64)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("call,code", LONG, ids=[c for _, c in LONG])
def test_r_distribution_parity(r, seed, call, code):
    g = RRandom(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = np.ma.filled(np.ma.asarray(call(g)).astype(np.float64), np.nan)  # R's NA: masked
    r.r(f"set.seed({seed})")
    theirs = _r_numbers(r, code)
    if ours.ndim == 2:
        theirs = theirs.reshape(ours.shape, order="C")  # rpy2 gives the matrix as R's (K, n)
    assert ours.shape == theirs.shape
    assert np.array_equal(ours, theirs, equal_nan=True)
    assert np.array_equal(g.get_state(), np.asarray(r.r(".Random.seed")))


# (Python call, R code) for bad input: R's value with its warnings, or R's error.
BAD = [
    (lambda g: g.rexp(5, [1, np.nan, 0, np.inf, -1]), "rexp(5, c(1, NaN, 0, Inf, -1))"),
    (lambda g: g.rexp(5, []), "rexp(5, numeric(0))"),
    (lambda g: g.rexp(-1), "rexp(-1)"),
    (lambda g: g.rexp(np.nan), "rexp(NaN)"),
    (lambda g: g.rexp([1, 2, 3]), "rexp(c(1, 2, 3))"),
    (lambda g: g.rexp(5, "a"), "rexp(5, 'a')"),
    (lambda g: g.rgamma(5, "a"), "rgamma(5, 'a')"),
    (lambda g: g.rgamma(5, [-1, 0, 2, np.nan, np.inf]), "rgamma(5, c(-1, 0, 2, NaN, Inf))"),
    (lambda g: g.rgamma(4, 2, rate=[0, -1, np.inf, 2]), "rgamma(4, 2, rate = c(0, -1, Inf, 2))"),
    (lambda g: g.rgamma(3, 2, rate=2, scale=0.5), "rgamma(3, 2, rate = 2, scale = .5)"),
    (lambda g: g.rgamma(3, 2, rate=2, scale=2), "rgamma(3, 2, rate = 2, scale = 2)"),
    (lambda g: g.rbeta(6, [0, np.inf, np.inf, 2, -1, 0], [0, np.inf, 2, 0, 1, 3]),
     "rbeta(6, c(0, Inf, Inf, 2, -1, 0), c(0, Inf, 2, 0, 1, 3))"),
    (lambda g: g.rchisq(4, [0, -1, np.inf, 2]), "rchisq(4, c(0, -1, Inf, 2))"),
    (lambda g: g.rt(4, [0, np.inf, 2, np.nan]), "rt(4, c(0, Inf, 2, NaN))"),
    (lambda g: g.rf(4, [np.inf, 2, np.inf, -1], [np.inf, np.inf, 3, 2]), "rf(4, c(Inf, 2, Inf, -1), c(Inf, Inf, 3, 2))"),
    (lambda g: g.rpois(5, [-1, 0, np.nan, np.inf, 3]), "rpois(5, c(-1, 0, NaN, Inf, 3))"),
    (lambda g: g.rpois(3, 1e10), "rpois(3, 1e10)"),
    (lambda g: g.rgeom(5, [0, 1, 1.5, np.nan, 0.5]), "rgeom(5, c(0, 1, 1.5, NaN, .5))"),
    (lambda g: g.rnbinom(5, [0, np.inf, 2, -1, 3], 0.5), "rnbinom(5, c(0, Inf, 2, -1, 3), .5)"),
    (lambda g: g.rnbinom(4, 3, mu=[0, -1, 2, np.inf]), "rnbinom(4, 3, mu = c(0, -1, 2, Inf))"),
    (lambda g: g.rnbinom(3, np.inf, mu=4), "rnbinom(3, Inf, mu = 4)"),
    (lambda g: g.rnbinom(3, 2, 0.5, 3), "rnbinom(3, 2, .5, 3)"),
    (lambda g: g.rhyper(5, [3, -1, 5, np.nan, 2.6], 4, [8, 2, 2, 1, 1]), "rhyper(5, c(3, -1, 5, NaN, 2.6), 4, c(8, 2, 2, 1, 1))"),
    (lambda g: g.rhyper(3, 5, 5, 10), "rhyper(3, 5, 5, 10)"),
    (lambda g: g.rmultinom(-1, 5, 1), "rmultinom(-1, 5, 1)"),
    (lambda g: g.rmultinom(2, -5, 1), "rmultinom(2, -5, 1)"),
    (lambda g: g.rmultinom(2, 5, [1, np.nan]), "rmultinom(2, 5, c(1, NaN))"),
    (lambda g: g.rmultinom(2, 5, [1, -1]), "rmultinom(2, 5, c(1, -1))"),
    (lambda g: g.rmultinom(2, 5, [0, 0]), "rmultinom(2, 5, c(0, 0))"),
    (lambda g: g.rmultinom(2, 0, [1, 1]), "rmultinom(2, 0, c(1, 1))"),
    (lambda g: g.rlogis(4, [0, np.nan, np.inf, 1], [1, 1, 1, -2]), "rlogis(4, c(0, NaN, Inf, 1), c(1, 1, 1, -2))"),
    (lambda g: g.rweibull(4, [1, 0, 2, np.inf], [1, 1, 0, 1]), "rweibull(4, c(1, 0, 2, Inf), c(1, 1, 0, 1))"),
    (lambda g: g.rcauchy(4, [0, np.inf, np.nan, 1], [1, 1, 1, -1]), "rcauchy(4, c(0, Inf, NaN, 1), c(1, 1, 1, -1))"),
    (lambda g: g.rlnorm(4, [0, np.inf, np.nan, 1], [1, 1, 1, 0]), "rlnorm(4, c(0, Inf, NaN, 1), c(1, 1, 1, 0))"),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("call,code", BAD, ids=[c for _, c in BAD])
def test_r_bad_input_parity(r, call, code):
    r.r('rec <- function(e) { w <- character(0); v <- tryCatch(withCallingHandlers(eval(parse(text = e)), '
        'warning = function(x) { w <<- c(w, conditionMessage(x)); invokeRestart("muffleWarning") }), '
        'error = function(x) structure(conditionMessage(x), class = "err")); '
        'list(if (inherits(v, "err")) NULL else as.double(v), if (inherits(v, "err")) unclass(v) else "", w) }')
    r.r("set.seed(3)")
    res = r.r["rec"](code)
    state = np.asarray(r.r(".Random.seed"))
    g = RRandom(3)
    error = str(res[1][0])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if error:
            with pytest.raises(ProbcalError) as info:
                call(g)
            assert str(info.value) == error
            return
        ours = np.ma.filled(np.ma.asarray(call(g)).astype(np.float64), np.nan)  # R's NA: masked
    theirs = np.asarray(res[0], dtype=np.float64)
    assert np.array_equal(np.ravel(ours, order="F"), theirs, equal_nan=True)
    assert [str(w.message) for w in seen] == list(res[2])
    assert np.array_equal(g.get_state(), state)


SEED_INPUTS = [(1.7, "1.7"), (-1.7, "-1.7"), ("3", '"3"'), (" 3 ", '" 3 "'), ("3.9", '"3.9"'),
               ("1e3", '"1e3"'), ("0x10", '"0x10"'), (True, "TRUE"), (False, "FALSE"),
               ([5, 9], "c(5, 9)"), (2147483647.5, "2147483647.5"), (float("nan"), "NaN"),
               (float("inf"), "Inf"), (2**31, "2^31"), (-(2**31), "-2^31"), ("a", '"a"'),
               ("", '""'), (np.array([]), "numeric(0)"), ([], "double(0)"), (None, "NULL"), ("Inf", '"Inf"'), (complex(1, 2), "1+2i")]


@pytest.mark.r_parity
@pytest.mark.parametrize("seed,code", SEED_INPUTS, ids=[c for _, c in SEED_INPUTS])
def test_r_seed_coercion(r, seed, code):
    res = r.r(f'local({{ w <- character(0); e <- tryCatch(withCallingHandlers(set.seed({code}), '
              'warning = function(x) { w <<- c(w, conditionMessage(x)); invokeRestart("muffleWarning") }), '
              'error = function(x) conditionMessage(x)); '
              'list(if (is.character(e)) e else "", w, .Random.seed) })')
    error, rwarn, state = str(res[0][0]), list(res[1]), np.asarray(res[2])
    g = RRandom(99)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if error:
            with pytest.raises(ProbcalError) as info:
                g.set_seed(seed)
            assert str(info.value) == error
        else:
            g.set_seed(seed)
            if code != "NULL":  # set.seed(NULL) re-seeds from the clock
                assert np.array_equal(g.get_state(), state)
    assert [str(w.message) for w in seen] == rwarn


# --- without R ------------------------------------------------------------------------

def _chain_by_loop(nxt):
    out, p = [], 0
    while p < nxt.size:
        out.append(p)
        p = int(nxt[p])
    return out


@pytest.mark.parametrize("seed", range(6))
def test_chain_starts_follow_the_chain(seed):
    g = np.random.default_rng(seed)
    m = int(g.integers(1, 40000))
    lens = g.choice([1, 1, 1, 2, 3, 7, 40, 2000], size=m)
    nxt = np.arange(m) + lens
    nxt[g.random(m) < 0.001] = m + 1  # stops
    assert _chain.chain_starts(nxt).tolist() == _chain_by_loop(nxt)


def test_vectorised_paths_equal_the_scalar_ports():
    """The block evaluators and R's element-by-element loop give the same
    draws and leave the stream at the same place (varying parameters take
    the loop, equal ones the blocks)."""
    for method, args in (("rexp", (30000,)), ("rgamma", (30000, 0.4)), ("rgamma", (30000, 2.2)),
                         ("rbeta", (30000, 0.6, 2)), ("rbeta", (30000, 2, 5)),
                         ("rpois", (30000, 3.3)), ("rpois", (30000, 27.0))):
        a = RRandom(5)
        fast = getattr(a, method)(*args)
        b = RRandom(5)
        n = args[0]
        with UnifCursor(b) as cur:
            if method == "rexp":
                slow = [_dists.exp_rand1(cur) for _ in range(n)]
            elif method == "rgamma":
                slow = [_dists.rgamma1(cur, args[1], 1.0) for _ in range(n)]
            elif method == "rpois":
                slow = [_dists.rpois1(cur, args[1], {}) for _ in range(n)]
            else:
                one = _dists.beta_attempt1(_dists.BetaSetup(args[1], args[2]))
                slow = []
                while len(slow) < n:
                    v = one(cur)
                    if v is not None:
                        slow.append(v)
        assert np.array_equal(fast, np.array(slow)), method
        assert np.array_equal(a.get_state(), b.get_state()), method


def test_module_functions_use_the_global_stream():
    pc.set_seed(11)
    x = pc.rgamma(50, 2.5)
    assert np.array_equal(x, RRandom(11).rgamma(50, 2.5))
    for name in ("rexp", "rgamma", "rbeta", "rchisq", "rt", "rf", "rpois", "rgeom", "rnbinom",
                 "rhyper", "rmultinom", "rlogis", "rweibull", "rcauchy", "rlnorm"):
        assert name in pc.__all__ and callable(getattr(pc, name))
        assert callable(getattr(RRandom, name))


def test_integer_results_and_dtypes():
    g = RRandom(2)
    assert g.rpois(10, 3).dtype == np.int64
    assert g.rhyper(10, 5, 5, 3).dtype == np.int64
    assert g.rexp(0).shape == (0,) and g.rpois(0, 1).dtype == np.int64
    big = g.rpois(3, 1e10)  # beyond R's integer range: doubles, as R
    assert big.dtype == np.float64 and np.all(big > 2**31)


def test_counts_follow_r_long_vectors():
    # R accepts counts up to 2^52 (long vectors): beyond memory its message is
    # "cannot allocate vector of size ..."; a sample size keeps R's integer range.
    g = RRandom(1)
    st = g.get_state()
    for call in (lambda: g.runif(4.5e15), lambda: g.rexp(4.5e15), lambda: g.rnorm(4.5e15)):
        with pytest.raises(ProbcalError, match="^cannot allocate vector of size 33527612.7 Gb$"):
            call()
    with pytest.raises(ProbcalError, match="exceeds R's integer range") as info:
        g.sample_int(1e12, 2**31, replace=True)
    assert "batches" in " ".join(getattr(info.value, "__notes__", []))
    with pytest.raises(ProbcalError, match="^invalid arguments$"):
        g.rexp(2.0**53)
    assert np.array_equal(g.get_state(), st)


def test_generator_stream_shares_the_front_end():
    ad = pc._rng.resolve_rng(np.random.default_rng(0))
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        x = ad.rgamma(4, [1, -1, 2, 3])
    assert np.isnan(x[1]) and np.isfinite(x[[0, 2, 3]]).all()
    with pytest.raises(ProbcalError, match="'prob' and 'mu' both specified"):
        ad.rnbinom(3, 2, 0.5, 3)
    for name, args in (("rexp", (5,)), ("rbeta", (5, 2, 3)), ("rpois", (5, 3)), ("rt", (5, 3)),
                       ("rf", (5, 2, 3)), ("rgeom", (5, .3)), ("rnbinom", (5, 2, .4)),
                       ("rhyper", (5, 4, 5, 3)), ("rlnorm", (5,)), ("rcauchy", (5,)),
                       ("rweibull", (5, 2)), ("rlogis", (5,)), ("rchisq", (5, 2))):
        assert np.asarray(getattr(ad, name)(*args)).shape == (5,), name
    assert ad.rmultinom(4, 10, [1, 2, 3]).shape == (3, 4)
    assert math.isfinite(float(ad.rgamma(1, 2)[0]))

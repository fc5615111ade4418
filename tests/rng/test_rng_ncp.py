"""The ncp= forms of rchisq, rbeta, rt and rf, and rbinom / rhyper with
parameters >= 2^31 - 1 (R's qbinom / qhyper branches), against R 4.2.2.
Bit for bit except rbinom with a size of 2^52, where a measured few draws
differ (qbinom's probabilities are SciPy's betainc, not TOMS 708's; see
tests/rng/test_rng_qbinom_large.py).

Live through rpy2 (``r_parity``): values, R's warnings and errors, and
``.Random.seed`` after each call, for several seeds; without R through
``reference/fixtures/rng_ncp.json`` (tools/make_rng_ncp_fixtures.R, run by
tests/suites/project/test_fixtures.py) and the checks at the end of this file.
"""

import math
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r import ProbcalError
from pycalib_r._rng import RRandom
from pycalib_r.rstats import _qdiscrete as Q

SEEDS = [-7, 0, 1, 42, 2**31 - 1]

# (Python call, R code): rnchisq's branches (ncp = 0, df = 0, large ncp,
# recycled), the R-level compositions with ncp = 0 and ncp > 0, and the
# large-parameter branches of rbinom (basym centre, small and extreme prob,
# results beyond R's integer range, mixed with the ordinary algorithms) and
# rhyper (qhyper over more than one block of the running sum, Bernoulli k = 1).
LONG = [
    (lambda g: g.rchisq(3000, 3, ncp=2), "rchisq(3000, 3, ncp = 2)"),
    (lambda g: g.rchisq(3000, 0.5, ncp=0), "rchisq(3000, .5, ncp = 0)"),
    (lambda g: g.rchisq(3000, 0, ncp=1.5), "rchisq(3000, 0, ncp = 1.5)"),
    (lambda g: g.rchisq(3000, 2.5, ncp=50), "rchisq(3000, 2.5, ncp = 50)"),
    (lambda g: g.rchisq(3000, [0, 1, 3.5], ncp=[0, 0.5, 4, 20]), "rchisq(3000, c(0, 1, 3.5), ncp = c(0, .5, 4, 20))"),
    (lambda g: g.rchisq(2000, np.inf, ncp=[0, 3]), "rchisq(2000, Inf, ncp = c(0, 3))"),
    (lambda g: g.rbeta(3000, 2, 3, ncp=1), "rbeta(3000, 2, 3, ncp = 1)"),
    (lambda g: g.rbeta(3000, 0.5, 0.7, ncp=0), "rbeta(3000, .5, .7, ncp = 0)"),
    (lambda g: g.rbeta(3000, [0.5, 2], 3, ncp=[0, 2, 5]), "rbeta(3000, c(.5, 2), 3, ncp = c(0, 2, 5))"),
    (lambda g: g.rt(3000, 3, ncp=1), "rt(3000, 3, ncp = 1)"),
    (lambda g: g.rt(3000, 5, ncp=0), "rt(3000, 5, ncp = 0)"),
    (lambda g: g.rt(3000, [1, 4, 30], ncp=[-1, 2]), "rt(3000, c(1, 4, 30), ncp = c(-1, 2))"),
    (lambda g: g.rf(3000, 3, 7, ncp=2), "rf(3000, 3, 7, ncp = 2)"),
    (lambda g: g.rf(3000, 3, 7, ncp=0), "rf(3000, 3, 7, ncp = 0)"),
    (lambda g: g.rf(3000, [1, 5], [2, 9, 4], ncp=[0.5, 3]), "rf(3000, c(1, 5), c(2, 9, 4), ncp = c(.5, 3))"),
    (lambda g: g.rbinom(1000, 2**31, 0.5), "rbinom(1000, 2^31, .5)"),
    (lambda g: g.rbinom(1000, 2**31 - 1, 0.3), "rbinom(1000, 2^31 - 1, .3)"),
    (lambda g: g.rbinom(1000, 2**31, 1e-9), "rbinom(1000, 2^31, 1e-9)"),
    (lambda g: g.rbinom(1000, 2**31, 3e-7), "rbinom(1000, 2^31, 3e-7)"),
    (lambda g: g.rbinom(1000, 2**31, 1 - 3e-7), "rbinom(1000, 2^31, 1 - 3e-7)"),
    (lambda g: g.rbinom(1000, 2**33, 0.01), "rbinom(1000, 2^33, .01)"),
    (lambda g: g.rbinom(1000, 2**31, 1000 / 2**31), "rbinom(1000, 2^31, 1000 / 2^31)"),
    (lambda g: g.rbinom(1000, 2**52, 0.7), "rbinom(1000, 2^52, .7)"),
    (lambda g: g.rbinom(1000, 2**32, 0.999), "rbinom(1000, 2^32, .999)"),
    (lambda g: g.rbinom(1000, [2**31, 50, 2**34], [0.4, 0.5, 0.6, 1e-6]),
     "rbinom(1000, c(2^31, 50, 2^34), c(.4, .5, .6, 1e-6))"),
    (lambda g: g.rbinom(5, 2**31, 1), "rbinom(5, 2^31, 1)"),
    (lambda g: g.rbinom(50, 1e300, 0.5), "rbinom(50, 1e300, .5)"),
    (lambda g: g.rhyper(1000, 2**31, 2**31, 10), "rhyper(1000, 2^31, 2^31, 10)"),
    (lambda g: g.rhyper(500, 2**31, 5, 2**31), "rhyper(500, 2^31, 5, 2^31)"),
    (lambda g: g.rhyper(1000, [2**31, 10], [7, 2**31], [1, 5, 3]), "rhyper(1000, c(2^31, 10), c(7, 2^31), c(1, 5, 3))"),
    (lambda g: g.rhyper(200, 1e20, 3e20, 1e4), "rhyper(200, 1e20, 3e20, 1e4)"),
    (lambda g: g.rhyper(1000, 2**31, 2**31, 1), "rhyper(1000, 2^31, 2^31, 1)"),
    (lambda g: g.rhyper(2, 2**31, 2**31, 2**18), "rhyper(2, 2^31, 2^31, 2^18)"),
]

# Measured (SciPy 1.17.1, R 4.2.2): draws out of 1,000 that differ from R's.
NOT_EXACT = {("rbinom(1000, 2^52, .7)", -7): 35, ("rbinom(1000, 2^52, .7)", 0): 33,
             ("rbinom(1000, 2^52, .7)", 1): 31, ("rbinom(1000, 2^52, .7)", 42): 26,
             ("rbinom(1000, 2^52, .7)", 2**31 - 1): 36}


def _r_double(r, code):
    v = np.asarray(r.r(f"as.double({code})"), dtype=np.float64)
    return v


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("call,code", LONG, ids=[c for _, c in LONG])
def test_r_parity(r, seed, call, code):
    g = RRandom(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = np.asarray(call(g))
    r.r(f"set.seed({seed})")
    r.r(f"x <- {code}")
    theirs = np.asarray(r.r("as.double(x)"), dtype=np.float64)
    ours64 = ours.astype(np.float64)
    differ = ~((ours64 == theirs) | (np.isnan(ours64) & np.isnan(theirs)))
    # At a size of 2^52 qbinom's probabilities (SciPy's betainc, not TOMS 708:
    # tests/rng/test_rng_qbinom_large.py) decide R's search otherwise for a few
    # draws, by at most R's last search step (7 here); the measured counts.
    assert int(differ.sum()) == NOT_EXACT.get((code, seed), 0)
    assert (np.abs(ours64[differ] - theirs[differ]) <= 7).all()
    # R's type: integer while every value fits, else double.
    r_integer = str(r.r("typeof(x)")[0]) == "integer"
    assert (ours.dtype == np.int64) == r_integer
    assert np.array_equal(g.get_state(), np.asarray(r.r(".Random.seed")))


# Bad input: R's value with its warnings, or R's error (the stream position
# compared in both cases: rbeta's second rchisq fails after the first drew).
BAD = [
    (lambda g: g.rchisq(6, [-1, np.nan, np.inf, 2, 2, 0], ncp=[1, 1, 1, -1, np.nan, 0]),
     "rchisq(6, c(-1, NaN, Inf, 2, 2, 0), ncp = c(1, 1, 1, -1, NaN, 0))"),
    (lambda g: g.rchisq(3, 2, ncp=[np.inf, 1, -np.inf]), "rchisq(3, 2, ncp = c(Inf, 1, -Inf))"),
    (lambda g: g.rchisq(3, 2, ncp=[]), "rchisq(3, 2, ncp = numeric(0))"),
    (lambda g: g.rchisq(3, 2, ncp="a"), "rchisq(3, 2, ncp = 'a')"),
    (lambda g: g.rchisq(0, 2, ncp=1), "rchisq(0, 2, ncp = 1)"),
    (lambda g: g.rbeta(4, [-1, np.nan, 2, 0], 2, ncp=1), "rbeta(4, c(-1, NaN, 2, 0), 2, ncp = 1)"),
    (lambda g: g.rbeta(3, 0, 0, ncp=0), "rbeta(3, 0, 0, ncp = 0)"),
    (lambda g: g.rbeta(3, "a", 2, ncp=1), "rbeta(3, 'a', 2, ncp = 1)"),
    (lambda g: g.rbeta(3, 2, "a", ncp=1), "rbeta(3, 2, 'a', ncp = 1)"),
    (lambda g: g.rt(4, [0, -1, np.inf, 2], ncp=1), "rt(4, c(0, -1, Inf, 2), ncp = 1)"),
    (lambda g: g.rt(2, [1, 2, 3], ncp=0), "rt(2, c(1, 2, 3), ncp = 0)"),
    (lambda g: g.rt(3, [], ncp=1), "rt(3, numeric(0), ncp = 1)"),
    (lambda g: g.rt(3, 2, ncp=[np.nan, 0.5]), "rt(3, 2, ncp = c(NaN, .5))"),
    (lambda g: g.rt(3, "a", ncp=1), "rt(3, 'a', ncp = 1)"),
    (lambda g: g.rf(4, [0, -1, np.inf, 2], 3, ncp=1), "rf(4, c(0, -1, Inf, 2), 3, ncp = 1)"),
    (lambda g: g.rf(2, [1, 2, 3], 4, ncp=1), "rf(2, c(1, 2, 3), 4, ncp = 1)"),
    (lambda g: g.rf(3, 2, 3, ncp=-1), "rf(3, 2, 3, ncp = -1)"),
    (lambda g: g.rbinom(4, [2**31, 2**31 + 0.5, 2**31, -1], [0.5, 0.5, np.nan, 0.5]),
     "rbinom(4, c(2^31, 2^31 + .5, 2^31, -1), c(.5, .5, NaN, .5))"),
    (lambda g: g.rhyper(3, 2**31, 2**31, 2**33), "rhyper(3, 2^31, 2^31, 2^33)"),
    (lambda g: g.rhyper(3, [2**31, np.inf], 2**31, 5), "rhyper(3, c(2^31, Inf), 2^31, 5)"),
]

_R_RECORD = (
    'rec <- function(e) { w <- character(0); v <- tryCatch(withCallingHandlers(eval(parse(text = e)), '
    'warning = function(x) { w <<- c(w, conditionMessage(x)); invokeRestart("muffleWarning") }), '
    'error = function(x) structure(conditionMessage(x), class = "err")); '
    'list(if (inherits(v, "err")) NULL else as.double(v), if (inherits(v, "err")) unclass(v) else "", w) }')


@pytest.mark.r_parity
@pytest.mark.parametrize("call,code", BAD, ids=[c for _, c in BAD])
def test_r_bad_input_parity(r, call, code):
    r.r(_R_RECORD)
    r.r("set.seed(3)")
    res = r.r["rec"](code)
    state = np.asarray(r.r(".Random.seed"))
    error = str(res[1][0])
    g = RRandom(3)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if error:
            with pytest.raises(ProbcalError) as info:
                call(g)
            assert str(info.value) == error
        else:
            ours = np.ma.filled(np.ma.asarray(call(g)).astype(np.float64), np.nan)  # R's NA: masked
            assert np.array_equal(ours, np.asarray(res[0], dtype=np.float64), equal_nan=True)
    assert [str(w.message) for w in seen] == list(res[2])
    assert np.array_equal(g.get_state(), state)


@pytest.mark.r_parity
def test_r_missing_ncp_differs_from_ncp_zero(r):
    """R branches on missing(ncp): rt(n, df) and rt(n, df, ncp = 0) differ."""
    for py_missing, py_zero, code in (
            (lambda: pc.rt(20, 4), lambda: pc.rt(20, 4, ncp=0), "rt(20, 4%s)"),
            (lambda: pc.rbeta(20, 2, 3), lambda: pc.rbeta(20, 2, 3, ncp=0), "rbeta(20, 2, 3%s)"),
            (lambda: pc.rf(20, 3, 5), lambda: pc.rf(20, 3, 5, ncp=0), "rf(20, 3, 5%s)"),
            (lambda: pc.rchisq(20, 3), lambda: pc.rchisq(20, 3, ncp=0), "rchisq(20, 3%s)")):
        got = []
        for fn, tail in ((py_missing, ""), (py_zero, ", ncp = 0")):
            pc.set_seed(11)
            ours = fn()
            r.r("set.seed(11)")
            theirs = _r_double(r, code % tail)
            assert np.array_equal(ours, theirs), code % tail
            assert np.array_equal(pc.get_random_seed(), np.asarray(r.r(".Random.seed")))
            got.append(ours)
        if not code.startswith("rchisq"):  # rchisq's ncp = 0 is rgamma(df / 2, 2) either way
            assert not np.array_equal(got[0], got[1]), code


@pytest.mark.r_parity
@pytest.mark.parametrize("kind,normal", [("Wichmann-Hill", "Box-Muller"), ("L'Ecuyer-CMRG", "Ahrens-Dieter"),
                                         ("Knuth-TAOCP-2002", "Kinderman-Ramage")])
def test_r_parity_under_other_kinds(r, kind, normal):
    """The new branches read uniforms and normals through the kind's generators."""
    code = ("c(rchisq(50, 2, ncp = 3), rt(50, 3, ncp = 1), rbeta(30, 2, 2, ncp = 1), "
            "rf(30, 2, 5, ncp = 2), rbinom(30, 2^31, .4), rhyper(30, 2^31, 10, 20), rhyper(10, 2^31, 5, 1))")
    g = RRandom(5, kind=kind, normal_kind=normal)
    ours = np.concatenate([np.asarray(v, dtype=np.float64) for v in (
        g.rchisq(50, 2, ncp=3), g.rt(50, 3, ncp=1), g.rbeta(30, 2, 2, ncp=1), g.rf(30, 2, 5, ncp=2),
        g.rbinom(30, 2**31, 0.4), g.rhyper(30, 2**31, 10, 20), g.rhyper(10, 2**31, 5, 1))])
    r.r(f'set.seed(5, kind = "{kind}", normal.kind = "{normal}")')
    try:
        theirs = _r_double(r, code)
        state = np.asarray(r.r(".Random.seed"))
    finally:
        r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    assert np.array_equal(ours, theirs)
    assert np.array_equal(g.get_random_seed(), state)


# --- without R ------------------------------------------------------------------------

def test_global_functions_and_stream_methods_agree():
    for name, args, kw in (("rchisq", (7, 2), {"ncp": 1}), ("rbeta", (7, 2, 3), {"ncp": 0.5}),
                           ("rt", (7, 4), {"ncp": 0}), ("rf", (7, 3, 4), {"ncp": 2}),
                           ("rbinom", (7, 2**31, 0.5), {}), ("rhyper", (7, 2**31, 3, 4), {})):
        pc.set_seed(9)
        a = getattr(pc, name)(*args, **kw)
        b = getattr(RRandom(9), name)(*args, **kw)
        assert np.array_equal(a, b), name
        assert a.dtype == b.dtype


def test_qhyper_blocks_equal_the_c_loop():
    """The block evaluation of qhyper's running sum equals C's step-by-step loop."""
    def c_loop(p, nr, nb, n):
        xr = max(0.0, n - nb)
        xend = min(n, nr)
        xb = n - xr
        term = Q.lfastchoose(nr, xr) + Q.lfastchoose(nb, xb) - Q.lfastchoose(nr + nb, n)
        nr -= xr
        nb -= xb
        p = (0.5 - p + 0.5) * (1 - 1000 * 2.220446049250313e-16)
        total = math.exp(term)
        while total < p and xr < xend:
            xr += 1
            nb += 1
            term += math.log((nr / xr) * (xb / nb))
            total += math.exp(term)
            xb -= 1
            nr -= 1
        return xr

    old = Q._BLOCK
    try:
        Q._BLOCK = 7  # many block boundaries
        for p, nr, nb, n in ((0.3, 2.0**31, 2.0**31, 200.0), (0.9, 2.0**31, 5.0, 2.0**31),
                             (0.01, 5e9, 1e3, 300.0), (0.5, 2.0**31, 2.0**31, 1.0)):
            assert Q.qhyper_upper(p, nr, nb, n) == c_loop(p, nr, nb, n)
    finally:
        Q._BLOCK = old


def test_unimplemented_branches_are_gone():
    g = RRandom(1)
    for call in (lambda: g.rchisq(3, 2, ncp=1), lambda: g.rbeta(3, 2, 2, ncp=0),
                 lambda: g.rf(3, 2, 2, ncp=1), lambda: g.rhyper(3, 2**31, 5, 2),
                 lambda: g.rbinom(3, 2**31, 0.5)):
        assert np.asarray(call()).shape == (3,)


def test_generator_stream_draws_the_new_branches():
    ad = pc._rng.resolve_rng(np.random.default_rng(0))
    for x in (ad.rchisq(5, 2, ncp=1), ad.rchisq(5, 0, ncp=[0, 2]), ad.rbeta(5, 2, 3, ncp=1),
              ad.rt(5, 3, ncp=1), ad.rf(5, 2, 3, ncp=1), ad.rbinom(5, 2**31, 0.5),
              ad.rhyper(5, 2**31, 10, 3)):
        assert np.asarray(x).shape == (5,) and np.isfinite(np.asarray(x, dtype=float)).all()
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        assert np.isnan(ad.rchisq(2, -1, ncp=1)).all()

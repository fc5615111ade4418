"""R's random streams at the edges (issue 20 classes 1-7 and 10, issue 21 item 8).

Each live case is an R expression and the pycalib_r call it stands for, run
through reference/r/diff_streams.R and compared as the differential test
compares (type, values bit for bit, warnings in order, error, .Random.seed
after the call). The cases are the issues' examples; the differential test
covers their neighbourhoods at random.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r import ProbcalError, RRandom

from tests import _stream_programs as sp
from tests._rcall import REPO

NAN = math.nan


def _c(r_text, run, reseeds=False):
    return sp.Call(r_text, run, reseeds)


# (R expressions, pycalib_r calls) run in order after `set.seed(1)`.
CASES = {
    "rf_underflowing_chisq": [_c("rf(100, 5, 0.01)", lambda m: m.rf(100, 5, 0.01))],
    "rt_underflowing_chisq": [_c("rt(50, 0.005)", lambda m: m.rt(50, 0.005))],
    "rchisq_tiny_df": [_c("rchisq(100, 0.002)", lambda m: m.rchisq(100, 0.002))],
    "rweibull_tiny_shape": [_c("rweibull(100, shape = 1e-4)", lambda m: m.rweibull(100, shape=1e-4))],
    "numpy_warnings": [_c("rexp(1, 5e-324)", lambda m: m.rexp(1, 5e-324)),
                       _c("rgamma(1, 5e-324)", lambda m: m.rgamma(1, 5e-324)),
                       _c("rt(2, c(5, -1), ncp = 0)", lambda m: m.rt(2, [5, -1], ncp=0))],
    "rounding_warning_then_error": [
        _c('set.seed(NA, sample.kind = "Rounding")',
           lambda m: m.set_seed(NAN, sample_kind="Rounding")),
        _c('set.seed("a", sample.kind = "Rejection")',
           lambda m: m.set_seed("a", sample_kind="Rejection"))],
    "rchisq_draws_nothing": [_c("rchisq(1, 5e-324)", lambda m: m.rchisq(1, 5e-324))],
    "sign_of_zero": [_c("rbinom(4, 2^31, c(1e-12, 1, 0.146637, 0.999999999999))",
                        lambda m: m.rbinom(4, 2**31, [1e-12, 1, 0.146637, 0.999999999999])),
                     _c("rbinom(5, 2^31, c(1e-300, 0.999999999999))",
                        lambda m: m.rbinom(5, 2**31, [1e-300, 0.999999999999]))],
    "integer_with_na": [_c("rpois(3, c(NA, 1, 4))", lambda m: m.rpois(3, [NAN, 1, 4])),
                        _c("rgeom(2, c(NA, 0.5))", lambda m: m.rgeom(2, [NAN, 0.5])),
                        _c("rhyper(2, c(NA, 5), 3, 2)", lambda m: m.rhyper(2, [NAN, 5], 3, 2)),
                        _c("rnbinom(2, 3, prob = c(NA, 0.5))",
                           lambda m: m.rnbinom(2, 3, prob=[NAN, 0.5])),
                        _c("rbinom(2, 3, c(NA, 0.5))", lambda m: m.rbinom(2, 3, [NAN, 0.5])),
                        _c("rpois(2, c(NA, 1e10))", lambda m: m.rpois(2, [NAN, 1e10]))],
    "double_results": [_c("rnbinom(3, 2, mu = 3)", lambda m: m.rnbinom(3, 2, mu=3)),
                       _c("sample.int(2^31, 2)", lambda m: m.sample_int(2**31, 2)),
                       _c("sample(2^31, 1)", lambda m: m.sample(2**31, 1)),
                       _c("sample.int(1e10, 3)", lambda m: m.sample_int(1e10, 3))],
    "coercions": [_c('runif("3")', lambda m: m.runif("3")),
                  _c('sample(10, "3")', lambda m: m.sample(10, "3")),
                  _c("runif(c())", lambda m: m.runif(None)),
                  _c("runif(numeric(0))", lambda m: m.runif(np.array([]))),
                  # issue 31: [] is numeric(0), None is NULL, for n, size, prob and x.
                  _c("runif(numeric(0))", lambda m: m.runif([])),
                  _c("rpois(numeric(0), 10)", lambda m: m.rpois([], 10)),
                  _c("rt(numeric(0), 3)", lambda m: m.rt([], 3)),
                  _c("rpois(NULL, 10)", lambda m: m.rpois(None, 10)),
                  _c("rbinom(2, numeric(0), 0.5)", lambda m: m.rbinom(2, [], 0.5)),
                  _c("rbinom(2, 3, NULL)", lambda m: m.rbinom(2, 3, None)),
                  _c("rexp(2, NULL)", lambda m: m.rexp(2, None)),
                  _c("rmultinom(2, 3, NULL)", lambda m: m.rmultinom(2, 3, None)),
                  _c("sample(numeric(0))", lambda m: m.sample([])),
                  _c("sample.int(5, 2, prob = numeric(0))", lambda m: m.sample_int(5, 2, prob=[])),
                  _c("set.seed(numeric(0))", lambda m: m.set_seed([])),
                  _c("sample(NULL)", lambda m: m.sample(None)),
                  _c('runif("a")', lambda m: m.runif("a")),
                  _c('sample(10, "a")', lambda m: m.sample(10, "a")),
                  _c("rgamma(3)", lambda m: m.rgamma(3))],
    "seed_null": [_c("set.seed(c())", lambda m: m.set_seed(None), reseeds=True)],
    "random_seed_double": [_c("{.Random.seed <- as.double(.Random.seed); invisible(RNGkind()); NULL}",
                              lambda m: m.set_random_seed(m.get_random_seed().astype(float)),
                              reseeds=True)],
    "random_seed_character": [_c('{.Random.seed <- "a"; invisible(RNGkind()); NULL}',
                                 lambda m: m.set_random_seed(["a"]), reseeds=True)],
    # set_random_seed(None) is rm(.Random.seed) (documented): R's
    # `.Random.seed <- NULL` has no spelling; [] is numeric(0).
    "random_seed_empty": [_c("{.Random.seed <- numeric(0); invisible(RNGkind()); NULL}",
                             lambda m: m.set_random_seed([]), reseeds=True)],
    "random_seed_length_one": [_c("{.Random.seed <- 10503L; invisible(RNGkind()); NULL}",
                                  lambda m: m.set_random_seed(np.array([10503], np.int32)),
                                  reseeds=True)],
    "random_seed_bad_kind": [_c("{.Random.seed <- c(99L, 1:5); invisible(RNGkind()); NULL}",
                                lambda m: m.set_random_seed(np.r_[99, 1:6].astype(np.int32)),
                                reseeds=True)],
    "random_seed_bad_normal": [_c("{.Random.seed <- replace(.Random.seed, 1L, 10603L); "
                                  "invisible(RNGkind()); NULL}",
                                  lambda m: m.set_random_seed(
                                      np.r_[10603, m.get_random_seed()[1:]].astype(np.int32)),
                                  reseeds=True)],
    "random_seed_longer": [_c("{.Random.seed <- c(.Random.seed, 5L); runif(2)}",
                              lambda m: (m.set_random_seed(np.r_[m.get_random_seed(), 5]),
                                         m.runif(2))[1])],
    "random_seed_position_zero": [_c("{.Random.seed[2] <- 0L; runif(2)}",
                                     lambda m: (m.set_random_seed(
                                         np.r_[m.get_random_seed()[:1], 0,
                                               m.get_random_seed()[2:]]), m.runif(2))[1])],
}


@pytest.fixture(scope="module")
def edges_r(r):
    root = str(REPO).replace("\\", "/")
    r.r(f'source("{root}/reference/r/diff_streams.R")')
    yield r
    r.r('suppressWarnings(RNGkind("default", "default", "default"))')


@pytest.mark.r_parity
@pytest.mark.parametrize("name", sorted(CASES))
def test_edge_case_agrees_with_r(edges_r, name):
    calls = [_c("set.seed(1)", lambda m: m.set_seed(1))] + CASES[name]
    from tests.suites.differential.test_differential_streams import run_r

    [lines] = run_r(edges_r, [calls])
    msg = sp.check_program(pc, 0, calls, lines)
    sp.reset_python(pc)
    assert msg is None, f"{name}: {msg}"


# --- without R ------------------------------------------------------------------------

def test_storage_rule():
    g = RRandom(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        na = g.rpois(3, [NAN, 1, 4])
    assert isinstance(na, np.ma.MaskedArray) and na.dtype == np.int64
    assert np.ma.getmaskarray(na).tolist() == [True, False, False]
    assert int(na.data[0]) == -2**31  # R's NA_integer_
    assert g.rpois(2, 3).dtype == np.int64 and not isinstance(g.rpois(2, 3), np.ma.MaskedArray)
    assert g.rnbinom(2, 3, mu=2).dtype == np.float64
    assert g.sample_int(2**31, 2).dtype == np.float64
    assert g.sample_int(2**31 - 1, 2).dtype == np.int64
    assert g.rbinom(2, 2**31, 0.5).dtype == np.int64  # values within R's integers
    assert g.rbinom(2, 2**32, 0.9).dtype == np.float64


def test_no_numpy_warnings_and_caller_errstate_kept():
    g = RRandom(1)
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any numpy warning would raise
        np.seterr(all="warn")
        try:
            x = g.rf(100, 5, 0.01)
            g.rweibull(100, shape=1e-4)
            g.rt(20, 0.001)
            g.rbeta(3, 1e300, 1e10)
            assert np.isinf(x).sum() >= 1
        finally:
            np.seterr(**before)
    assert np.geterr() == before


def test_negative_mersenne_twister_position_is_refused():
    g = RRandom(3)
    st = g.get_state()
    bad = st.copy()
    bad[1] = -1
    with pytest.raises(ProbcalError, match="negative") as info:
        g.set_random_seed(bad)
    assert any("set_seed" in n for n in info.value.__notes__)
    assert np.array_equal(g.get_state(), st)  # untouched


def test_long_vector_counts_get_rs_allocation_message():
    with pytest.raises(ProbcalError, match=r"^cannot allocate vector of size 33527612.7 Gb$"):
        RRandom(1).runif(4.5e15)
    with pytest.raises(ProbcalError, match="^invalid arguments$"):
        RRandom(1).runif(2.0**53)

"""R-compatible random streams (pycalib_r._rng).

Pure tests check determinism, shapes, state handling and argument errors;
their hard-coded numbers were printed by R 4.2.2 (``sprintf("%a", ...)`` so
they are exact). The ``r_parity`` tests draw the same numbers in R through
rpy2 and require bit equality of the values and of ``.Random.seed``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from pycalib_r import _rng
from pycalib_r._rng.bitgen import _mt  # noqa: F401 - submodules the tests reach into
from pycalib_r._rng.nmath import _rbinom
from pycalib_r.rstats import _qnorm
from pycalib_r._rng.do_sample import _sample
from pycalib_r.rbase._errors import ProbcalError
from pycalib_r._rng import GeneratorStream, RRandom

# Seeds: R's extremes, small ones, and fixed "random" ones.
SEEDS = [-(2**31 - 1), -1, 0, 1, 42, 2**31 - 1, 1043812, -702339211, 1995626893, 58]


# --- pure tests (numbers from R 4.2.2) ------------------------------------------------

def test_known_values_from_r():
    g = RRandom(42)
    # R: set.seed(42); sprintf("%a", runif(3))
    assert g.runif(3).tolist() == [float.fromhex(h) for h in
                                   ("0x1.d461752ep-1", "0x1.dfc8593cp-1", "0x1.2501c32p-2")]
    g.set_seed(42)
    # R: set.seed(42); sprintf("%a", rnorm(3))
    assert g.rnorm(3).tolist() == [float.fromhex(h) for h in
                                   ("0x1.5ef721feab7dap+0", "-0x1.21201e6483b03p-1",
                                    "0x1.73d7ef2bc4ec4p-2")]
    g.set_seed(42)
    assert g.rbinom(10, 1, 0.3).tolist() == [1, 1, 0, 1, 0, 0, 1, 0, 0, 1]
    g.set_seed(42)
    assert g.sample_int(10).tolist() == [1, 5, 10, 8, 2, 4, 6, 9, 7, 3]
    g.set_seed(42)
    assert g.rbinom(5, 1000, 0.3).tolist() == [289, 313, 287, 308, 299]
    g.set_seed(42)
    assert g.get_state()[:4].tolist() == [10403, 624, 507561766, 1260545903]
    g.set_seed(-1)
    assert g.unif_rand(2).tolist() == [float.fromhex("0x1.f258e194p-2"),
                                       float.fromhex("0x1.87ea81c8p-3")]


def test_determinism_and_independence_of_streams():
    a, b = RRandom(7), RRandom(7)
    assert np.array_equal(a.rnorm(1000), b.rnorm(1000))
    assert np.array_equal(a.sample_int(50, 20), b.sample_int(50, 20))
    assert not np.array_equal(RRandom(8).runif(10), RRandom(7).runif(10))
    # Two RRandom objects do not share state.
    a.set_seed(1)
    b.set_seed(1)
    a.runif(5)
    assert not np.array_equal(a.get_state(), b.get_state())


def test_shapes_and_dtypes():
    g = RRandom(1)
    assert g.runif(0).shape == (0,)
    assert g.runif([3, 4, 5]).shape == (3,)  # a sequence means its length
    assert g.runif(4.9).shape == (4,)  # R truncates
    assert g.rnorm(5).dtype == np.float64
    assert g.rbinom(5, 3, 0.5).dtype == np.int64
    assert g.sample_int(10, 3).dtype == np.int64
    r = g.rademacher(4, 6)
    assert r.shape == (4, 6) and r.dtype == np.int8 and set(np.unique(r)) <= {-1, 1}
    s = g.sample_int_replace(9, 5, 3)
    assert s.shape == (3, 5) and s.dtype == np.int32 and s.min() >= 1 and s.max() <= 9
    assert g.rademacher(0, 5).shape == (0, 5)
    assert g.sample_int_replace(9, 0, 2).shape == (2, 0)


def test_batch_primitives_equal_successive_calls():
    a, b = RRandom(11), RRandom(11)
    rows = np.vstack([b.sample([-1, 1], 50, replace=True) for _ in range(6)])
    assert np.array_equal(a.rademacher(6, 50), rows)
    assert np.array_equal(a.get_state(), b.get_state())
    rows = np.vstack([b.sample_int(70000, 40, replace=True) for _ in range(5)])
    assert np.array_equal(a.sample_int_replace(70000, 40, 5), rows)
    assert np.array_equal(a.get_state(), b.get_state())


def test_state_round_trip_and_no_mutation():
    g = RRandom(3)
    g.runif(1000)  # mid-block position
    st = g.get_state()
    kept = st.copy()
    x = g.rnorm(2000)
    h = RRandom(99)
    h.set_state(st)
    assert np.array_equal(st, kept)
    assert np.array_equal(h.rnorm(2000), x)
    assert np.array_equal(h.get_state(), g.get_state())
    # Unsigned words and a Python list are accepted too.
    u = st.astype(np.int64)
    u[2:] %= 2**32
    h.set_state(u.tolist())
    assert np.array_equal(h.get_state(), st)


def test_set_state_fixups_follow_r():
    g = RRandom(5)
    st = g.get_state()
    st0 = st.copy()
    st0[1] = 0  # FixupSeeds: mti <= 0 becomes 624
    h = RRandom(1)
    h.set_state(st0)
    assert h.get_state()[1] == 624
    assert np.array_equal(h.runif(3), RRandom(5).runif(3))
    st625 = st.copy()
    st625[1] = 625  # R's MT_sgenrand(4357) default key
    h.set_state(st625)
    assert h.get_state()[1] == 624
    with pytest.raises(ProbcalError, match="wrong length"):
        h.set_state(st[:-1])
    rounding = st.copy()
    rounding[0] = 403  # sample.kind = "Rounding": another kind, same words
    h.set_state(rounding)
    assert h.rng_kind() == ("Mersenne-Twister", "Inversion", "Rounding")
    assert np.array_equal(h.get_state(), rounding)
    bad = st.copy()
    bad[0] = 10499
    # R warns, ignores the vector and re-seeds under the default kinds.
    with pytest.warns(RuntimeWarning, match="not a valid RNG kind so ignored"):
        h.set_state(bad)
    assert h.rng_kind() == ("Mersenne-Twister", "Inversion", "Rejection")
    assert h.get_state().size == 626
    neg = st.copy()
    neg[1] = -5  # R reads outside the key there: refused
    with pytest.raises(ProbcalError, match="negative"):
        h.set_state(neg)


def test_seed_arguments():
    g = RRandom(0)
    for ok in (0, -1, 2**31 - 1, -(2**31 - 1), np.int64(12), 12.0):
        g.set_seed(ok)
    # R's as.integer: truncation, strings read as numbers, TRUE is 1, the
    # first element of a vector (each pair checked against R in
    # test_r_seed_coercion).
    for given, same in ((1.7, 1), (-1.7, -1), ("3", 3), (" 3 ", 3), ("3.9", 3), ("1e3", 1000),
                        ("0x10", 16), (True, 1), (False, 0), ([5, 9], 5), (np.array([2.5, 7]), 2),
                        (2147483647.5, 2**31 - 1), (complex(4, 0), 4)):
        g.set_seed(given)
        assert np.array_equal(g.get_state(), RRandom(same).get_state()), given
    for bad in (float("nan"), "", " ", "NA", np.array([]), [[1]], {"a": 1}):
        with pytest.raises(ProbcalError, match="^supplied seed is not a valid integer$"):
            g.set_seed(bad)
    for bad, warning in ((2**31, "to integer range"), (-(2**31), "to integer range"),
                         (float("inf"), "to integer range"), ("Inf", "to integer range"),
                         ("a", "NAs introduced by coercion$"), ("1L", "NAs introduced by coercion$")):
        with pytest.warns(RuntimeWarning, match=warning):
            with pytest.raises(ProbcalError, match="^supplied seed is not a valid integer$"):
                g.set_seed(bad)
    with pytest.warns(RuntimeWarning, match="imaginary parts discarded"):
        g.set_seed(complex(1, 2))
    g.set_seed(None)  # entropy, still exportable
    st = g.get_state()
    h = RRandom(1)
    h.set_state(st)
    assert np.array_equal(h.runif(5), g.runif(5))


# (call, R's conditionMessage) -- each message was printed by R 4.2.2.
ERRORS = [
    (lambda g: g.sample_int(5, 10),
     "cannot take a sample larger than the population when 'replace = FALSE'"),
    (lambda g: g.sample_int(5, 2, prob=[1, 2]), "incorrect number of probabilities"),
    (lambda g: g.sample_int(5, 2, prob=[1, 2, np.nan, 1, 1]), "NA in probability vector"),
    (lambda g: g.sample_int(5, 2, prob=[1, -2, np.nan, 1, 1]), "negative probability"),
    (lambda g: g.sample_int(5, 3, prob=[1, 0, 0, 0, 1]), "too few positive probabilities"),
    (lambda g: g.sample_int(5, 2, True, [0, 0, 0, 0, 0]), "too few positive probabilities"),
    (lambda g: g.sample_int(-1), "invalid first argument"),
    (lambda g: g.sample_int(5, -1), "invalid 'size' argument"),
    (lambda g: g.sample_int([1, 2]), "length(n) == 1L is not TRUE"),
    (lambda g: g.sample_int(5, [1, 2]), "invalid 'size' argument"),
    (lambda g: g.sample_int(5, 2, replace=np.nan), "invalid 'replace' argument"),
    (lambda g: g.sample_int(0, 2), "invalid first argument"),
    (lambda g: g.sample_int(0, 2, prob=[]), "invalid first argument"),
    (lambda g: g.sample_int(10, 8, useHash=True), "This algorithm is for size <= n/2"),
    (lambda g: g.sample_int(5, float("nan")), "vector size cannot be NA/NaN"),
    (lambda g: g.sample_int(5, float("nan"), prob=[1, 2, 3, 4, 5]), "invalid 'size' argument"),
    (lambda g: g.sample_int(float("nan"), 2), "missing value where TRUE/FALSE needed"),
    (lambda g: g.sample_int(5, float("inf")), "vector size cannot be infinite"),
    (lambda g: g.sample_int(float("inf"), 2), "invalid first argument"),
    (lambda g: g.runif(-1), "invalid arguments"),
    (lambda g: g.runif(float("nan")), "invalid arguments"),
    (lambda g: g.rnorm(3, "a"), "invalid arguments"),
]


@pytest.mark.parametrize("call,message", ERRORS)
def test_errors_carry_r_messages(call, message):
    with pytest.raises(ProbcalError) as info:
        call(RRandom(1))
    assert str(info.value) == message


def test_invalid_parameters_give_nan_with_warning():
    g = RRandom(1)
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        x = g.rbinom(4, [2.5, 3], 0.5)
    # R's integer vector with NA: a masked int64 array (docs/migrating-from-r.md).
    assert x.dtype == np.int64 and np.ma.getmaskarray(x).tolist() == [True, False, True, False]
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        assert np.isnan(g.runif(2, 1, 0)).all()
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        assert np.isnan(g.rnorm(2, 0, -1)).all()
    with pytest.warns(RuntimeWarning, match="NAs produced"):  # R's qbinom branch keeps the checks
        x = g.rbinom(2, [2**31, 2**31 + 0.5], 0.5)
    assert np.ma.getmaskarray(x).tolist() == [False, True] and x[0] > 2**29


def test_no_draw_cases_leave_the_stream():
    g = RRandom(2)
    st = g.get_state()
    assert g.rbinom(3, 0, 0.4).tolist() == [0, 0, 0]
    assert g.rbinom(3, 7, 1.0).tolist() == [7, 7, 7]
    assert g.runif(3, 2, 2).tolist() == [2.0, 2.0, 2.0]
    assert g.rnorm(3, 5, 0).tolist() == [5.0, 5.0, 5.0]
    assert np.array_equal(g.get_state(), st)


def test_inputs_never_mutated():
    g = RRandom(4)
    prob = np.array([3.0, 1.0, 1.0, 5.0, 0.0])
    lo = np.array([0.0, 1.0])
    hi = np.array([1.0, 4.0])
    pb = np.array([0.2, 0.7])
    x = [10, 20, 30, 40, 50]
    copies = [a.copy() for a in (prob, lo, hi, pb)]
    g.sample_int(5, 3, prob=prob)
    g.sample_int(5, 30, True, prob)
    g.runif(6, lo, hi)
    g.rbinom(6, 5, pb)
    g.sample(x, 3)
    for a, c in zip((prob, lo, hi, pb), copies, strict=True):
        assert np.array_equal(a, c)
    assert x == [10, 20, 30, 40, 50]


def test_sample_population_types():
    g = RRandom(6)
    assert set(g.sample(5)) == {1, 2, 3, 4, 5}  # R: a number >= 1 means 1..x
    assert sorted(g.sample(["a", "b", "c"])) == ["a", "b", "c"]
    assert g.sample(0.5).tolist() == [0.5]  # below 1: a one-element population
    assert g.sample("abc") == ["abc"]
    pd = pytest.importorskip("pandas")
    s = pd.Series([1.5, 2.5, 3.5], index=["x", "y", "z"])
    out = g.sample(s, 2)
    assert isinstance(out, pd.Series) and set(out.index) <= {"x", "y", "z"}


def test_module_level_functions_and_global_state():
    _rng.set_seed(42)
    a = _rng.runif(3)
    st = _rng.get_global_state()
    b = _rng.rnorm(4)
    _rng.set_global_state(st)
    assert np.array_equal(_rng.rnorm(4), b)
    _rng.set_seed(42)
    assert np.array_equal(_rng.runif(3), a)
    _rng.set_seed(42)
    assert _rng.sample_int(10).tolist() == [1, 5, 10, 8, 2, 4, 6, 9, 7, 3]
    _rng.set_seed(42)
    assert _rng.rbinom(10, 1, 0.3).tolist() == [1, 1, 0, 1, 0, 0, 1, 0, 0, 1]
    assert len(_rng.sample([1, 2, 3])) == 3
    _rng.set_global_state(None)
    assert _rng.get_global_state().shape == (626,)


def test_resolve_rng():
    assert _rng.resolve_rng(None) is _rng._global_stream()
    g = RRandom(1)
    assert _rng.resolve_rng(g) is g
    ad = _rng.resolve_rng(np.random.default_rng(0))
    assert isinstance(ad, GeneratorStream)
    for name in ("unif_rand", "runif", "rnorm", "rbinom", "sample", "sample_int",
                 "rademacher", "sample_int_replace"):
        assert callable(getattr(ad, name))
    assert ad.runif(5).shape == (5,)
    assert ad.rnorm(5, [0, 1], 2).shape == (5,)
    assert ad.rbinom(6, 3, [0.2, 0.9]).dtype == np.int64
    assert sorted(ad.sample_int(5)) == [1, 2, 3, 4, 5]
    assert ad.sample_int(5, 3, prob=[1, 1, 1, 1, 0]).max() <= 4
    assert sorted(ad.sample(["a", "b"])) == ["a", "b"]
    assert set(np.unique(ad.rademacher(3, 40))) == {-1, 1}
    assert ad.sample_int_replace(4, 7, 2).shape == (2, 7)
    assert ad.unif_rand(4).min() > 0
    # An int seeds a new R stream (scipy's convention for rng=).
    seeded = _rng.resolve_rng(7)
    assert isinstance(seeded, RRandom) and np.array_equal(seeded.get_state(), RRandom(7).get_state())
    assert isinstance(_rng.resolve_rng(np.int64(7)), RRandom)
    for bad in (True, 1.5, "x", np.random.MT19937(1)):
        with pytest.raises(TypeError, match="rng"):
            _rng.resolve_rng(bad)
    with pytest.raises(ProbcalError, match="supplied seed is not a valid integer"), \
            pytest.warns(RuntimeWarning):
        _rng.resolve_rng(2**31)


def test_inversion_restart_keeps_stream_order(monkeypatch):
    # R's inversion loop restarts with a fresh uniform once ix passes 110;
    # real parameters never get there, so force it for element 3.
    real = _rng.nmath._rbinom._inversion_vec
    calls = []

    def forced(u, qn, g, r):
        ix, ok = real(u, qn, g, r)
        if not calls:
            ok = ok.copy()
            ok[3] = False
        calls.append(1)
        return ix, ok

    monkeypatch.setattr(_rng.nmath._rbinom, "_inversion_vec", forced)
    sizes = [3, 5, 7, 9, 11, 13]
    probs = [0.2, 0.7, 0.1, 0.5, 0.3, 0.9]
    g = RRandom(9)
    got = g.rbinom(6, sizes, probs)
    ref = RRandom(9)
    u = ref.unif_rand(7)
    expected = []
    for i, k in enumerate([0, 1, 2, 4, 5, 6]):  # element 3 skips u[3]
        s = _rng.nmath._rbinom._BinomSetup(sizes[i], probs[i])
        ix = _rng.nmath._rbinom._inversion_try(s, u[k])
        expected.append(s.n - ix if s.pp > 0.5 else ix)
    assert got.tolist() == expected
    assert np.array_equal(g.get_state(), ref.get_state())


def test_qnorm_port_boundaries():
    q = _qnorm._qnorm_std(np.array([0.0, 1.0, np.nan, 0.5, -0.1]))
    assert q[0] == -np.inf and q[1] == np.inf and np.isnan(q[2]) and q[3] == 0.0
    assert np.isnan(q[4])


def test_words32_are_the_raw_words():
    # The bulk samplers read words through Generator.integers on the full
    # uint32 range; that must be numpy's next_uint32, one word per value.
    a, b = RRandom(11), RRandom(11)
    w = _rng.bitgen._mt._words32(np.random.Generator(a._bg), 5000)
    assert w.dtype == np.uint32
    assert np.array_equal(w, b._raw(5000))
    assert np.array_equal(a.get_state(), b.get_state())


@pytest.mark.parametrize("chunk", [5, 64, 1 << 16])
def test_bulk_index_independent_of_pass_size(monkeypatch, chunk):
    # Values and the stream position must not depend on how the tries are
    # cut into passes; the reference is one R_unif_index at a time.
    for dn, count in [(2.0, 300), (37.0, 500), (65536.0, 200), (70000.0, 400),
                      (5.7, 300), (3e9, 100), (2.0 ** 48 + 1, 50), (1.0, 20)]:
        ref = RRandom(3)
        with _rng.bitgen._mt._Cursor(ref) as cur:
            expected = [cur.unif_index(dn) for _ in range(count)]
        monkeypatch.setattr(_rng.do_sample._sample, "_INDEX_CHUNK", chunk)
        g = RRandom(3)
        got = g._unif_index_bulk(dn, count)
        monkeypatch.undo()
        assert got.tolist() == expected, dn
        assert np.array_equal(g.get_state(), ref.get_state()), dn


# --- R parity (bit for bit, through rpy2) -------------------------------------------

def _rv(r, code):
    return np.asarray(r.r(code))


def _same(r, g, pyvals, code, seed):
    """Seed R, run ``code``, compare values (NA <-> NaN) and .Random.seed."""
    r.r(f"set.seed({seed})")
    rv = _rv(r, code)
    pv = np.ma.filled(np.ma.asarray(pyvals).astype(np.float64), np.nan)  # R's NA: masked
    if rv.dtype == np.int32:
        na = rv == np.iinfo(np.int32).min
        rv = rv.astype(np.float64)
        rv[na] = np.nan
    assert pv.shape == rv.shape, code
    assert np.array_equal(pv.astype(np.float64), rv, equal_nan=True), code
    assert np.array_equal(g.get_state(), _rv(r, ".Random.seed")), code


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
def test_r_uniform_normal_parity(r, seed):
    g = RRandom(seed)
    _same(r, g, g.runif(5000), "runif(5000)", seed)
    g.set_seed(seed)
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        vals = g.runif(999, [0, 1, -2, 3], [1, 1, 5, np.inf])
    _same(r, g, vals, "suppressWarnings(runif(999, c(0, 1, -2, 3), c(1, 1, 5, Inf)))", seed)
    g.set_seed(seed)
    n = 100_000 if seed in (1, -(2**31 - 1), 2**31 - 1) else 5000
    _same(r, g, g.rnorm(n), f"rnorm({n})", seed)
    g.set_seed(seed)
    with pytest.warns(RuntimeWarning, match="NAs produced"):
        vals = g.rnorm(777, [0, 10, np.inf, np.nan], [1, 0, 2, 1, 3.5])
    _same(r, g, vals, "suppressWarnings(rnorm(777, c(0, 10, Inf, NA), c(1, 0, 2, 1, 3.5)))", seed)


SIZES = [1, 2, 5, 10, 29, 30, 31, 60, 61, 100, 999, 1000, 100000]
PROBS = [0.0, 1e-9, 0.001, 0.0299, 0.03, 0.1, 0.3, 0.4999, 0.5, 0.5001, 0.7, 0.97, 0.999,
         1 - 1e-9, 1.0]


@pytest.mark.r_parity
def test_r_rbinom_grid_parity(r):
    rs = np.random.default_rng(20240607)
    for size in SIZES:
        for prob in PROBS:
            seed = int(rs.integers(-(2**31 - 1), 2**31 - 1))
            g = RRandom(seed)
            _same(r, g, g.rbinom(600, size, prob), f"rbinom(600, {size}, {prob!r})", seed)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
def test_r_rbinom_bernoulli_and_vectors(r, seed):
    g = RRandom(seed)
    _same(r, g, g.rbinom(100_000, 1, 0.37), "rbinom(100000, 1, 0.37)", seed)
    rs = np.random.default_rng(abs(seed))
    p = rs.random(5000)
    p[::97] = 0.0
    p[::89] = 1.0
    r.globalenv["pp_"] = r.FloatVector(p.tolist())
    g.set_seed(seed)
    _same(r, g, g.rbinom(5000, 1, p), "rbinom(5000, 1, pp_)", seed)
    # Recycled vectors: inversion only, then a mix with BTPE, NA cases.
    g.set_seed(seed)
    _same(r, g, g.rbinom(3001, [1, 10, 20, 7], [0.001, 0.5, 0.999, 0.3, 0.8]),
          "rbinom(3001, c(1, 10, 20, 7), c(0.001, 0.5, 0.999, 0.3, 0.8))", seed)
    g.set_seed(seed)
    _same(r, g, g.rbinom(2000, [1, 10, 100, 1000, 37, 0],
                         [0.001, 0.5, 0.999, 0.3, 0.8, 0.05, 0, 1]),
          "rbinom(2000, c(1, 10, 100, 1000, 37, 0),"
          " c(0.001, 0.5, 0.999, 0.3, 0.8, 0.05, 0, 1))", seed)
    g.set_seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        vals = g.rbinom(50, [3, 2.5, -1, np.nan, 400], [0.2, 0.6, 1.5, np.nan, 0.5, 0.5, 0.25])
    _same(r, g, vals,
          "suppressWarnings(rbinom(50, c(3, 2.5, -1, NA, 400),"
          " c(0.2, 0.6, 1.5, NA, 0.5, 0.5, 0.25)))", seed)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
def test_r_sample_parity(r, seed):
    g = RRandom(seed)
    cases = [
        (lambda: g.sample_int(100, 1000, True), "sample.int(100, 1000, TRUE)"),
        (lambda: g.sample_int(1, 3, True), "sample.int(1, 3, TRUE)"),
        (lambda: g.sample_int(100000, 500, True), "sample.int(100000, 500, TRUE)"),
        (lambda: g.sample_int(3e9, 200, True), "sample.int(3e9, 200, TRUE)"),
        (lambda: g.sample_int(3e15, 20, True), "sample.int(3e15, 20, TRUE)"),
        (lambda: g.sample_int(1000), "sample.int(1000)"),
        (lambda: g.sample_int(70000, 6000), "sample.int(70000, 6000)"),
        (lambda: g.sample_int(5.7, 3), "sample.int(5.7, 3)"),
        (lambda: g.sample_int(2e7, 500), "sample.int(2e7, 500)"),
        (lambda: g.sample_int(40, 15, useHash=True), "sample.int(40, 15, useHash = TRUE)"),
        (lambda: g.sample(10), "sample(10)"),
        (lambda: g.sample([10.5, 20, 30, 40], 9, True), "sample(c(10.5, 20, 30, 40), 9, TRUE)"),
        (lambda: g.sample([7.0]), "sample(c(7))"),
        # prob: inversion on R's heapsort order (ties!), n < 200 and n >= 200
        (lambda: g.sample_int(10, 1000, True, np.arange(1, 11)),
         "sample.int(10, 1000, TRUE, 1:10)"),
        (lambda: g.sample_int(50, 999, True, np.tile([1.0, 2.0], 25)),
         "sample.int(50, 999, TRUE, rep(c(1, 2), 25))"),
        (lambda: g.sample_int(1000, 500, True, np.r_[np.ones(150), np.full(850, 1e-6)]),
         "sample.int(1000, 500, TRUE, c(rep(1, 150), rep(1e-6, 850)))"),
        # Walker's alias method (more than 200 of n * p above 0.1)
        (lambda: g.sample_int(300, 1000, True, np.tile([1.0, 2.0, 3.0], 100)),
         "sample.int(300, 1000, TRUE, rep(c(1, 2, 3), 100))"),
        (lambda: g.sample_int(70000, 300, True, np.arange(70000.0) % 7 + 1),
         "sample.int(70000, 300, TRUE, (0:69999) %% 7 + 1)"),
        # without replacement
        (lambda: g.sample_int(50, 30, False, np.tile([1.0, 2.0], 25)),
         "sample.int(50, 30, FALSE, rep(c(1, 2), 25))"),
        (lambda: g.sample_int(400, 50, False, np.arange(400.0) % 5),
         "sample.int(400, 50, FALSE, (0:399) %% 5)"),
        (lambda: g.sample([-1, 1], 77, True), "sample(c(-1, 1), 77, replace = TRUE)"),
    ]
    for call, code in cases:
        g.set_seed(seed)
        _same(r, g, call(), code, seed)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS[:5])
def test_r_batch_primitives_parity(r, seed):
    g = RRandom(seed)
    _same(r, g, g.rademacher(30, 101).ravel(),
          "c(replicate(30, sample(c(-1, 1), 101, replace = TRUE)))", seed)
    for n in (2, 37, 65536, 65537, 3000000):
        g.set_seed(seed)
        _same(r, g, g.sample_int_replace(n, 40, 12).ravel(),
              f"c(replicate(12, sample.int({n}, 40, replace = TRUE)))", seed)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_r_batch_primitives_across_passes(r, monkeypatch, seed):
    # Default pass size: 120000 draws of n = 1e5 take about 2.4 passes.
    g = RRandom(seed)
    _same(r, g, g.sample_int_replace(100000, 3000, 40).ravel(),
          "c(replicate(40, sample.int(100000, 3000, replace = TRUE)))", seed)
    # Tiny passes, so every call crosses many boundaries and ends inside one.
    for chunk in (97, 1000):
        monkeypatch.setattr(_rng.do_sample._sample, "_INDEX_CHUNK", chunk)
        for n, size, n_rep in [(100000, 3000, 7), (70000, 2999, 7), (37, 1001, 3),
                               (65537, 500, 3), (2**31 - 1, 700, 2)]:
            g.set_seed(seed)
            _same(r, g, g.sample_int_replace(n, size, n_rep).ravel(),
                  f"c(replicate({n_rep}, sample.int({n}, {size}, replace = TRUE)))", seed)
        g.set_seed(seed)
        _same(r, g, g.sample_int(3e9, 900, True), "sample.int(3e9, 900, TRUE)", seed)
        g.set_seed(seed)
        _same(r, g, g.rademacher(5, 1003).ravel(),
              "c(replicate(5, sample(c(-1, 1), 1003, replace = TRUE)))", seed)
        # Back-to-back calls: each one starts where the previous left R.
        g.set_seed(seed)
        r.r(f"set.seed({seed})")
        for n, size, n_rep in [(70000, 1234, 2), (5, 77, 3), (100000, 999, 1)]:
            pv = g.sample_int_replace(n, size, n_rep).ravel()
            rv = _rv(r, f"c(replicate({n_rep}, sample.int({n}, {size}, replace = TRUE)))")
            assert np.array_equal(pv, rv)
            assert np.array_equal(g.get_state(), _rv(r, ".Random.seed"))
        monkeypatch.undo()


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS[::2])
def test_r_state_after_mixed_sequence(r, seed):
    g = RRandom(seed)
    r.r(f"set.seed({seed})")
    steps = [
        (lambda: g.runif(7), "runif(7)"),
        (lambda: g.rnorm(3, 2, 5), "rnorm(3, 2, 5)"),
        (lambda: g.rbinom(11, 1, 0.4), "rbinom(11, 1, 0.4)"),
        (lambda: g.sample_int(33, 5), "sample.int(33, 5)"),
        (lambda: g.rbinom(40, 500, 0.2), "rbinom(40, 500, 0.2)"),
        (lambda: g.sample(["a", "b", "c"], 10, True), "sample(c('a', 'b', 'c'), 10, TRUE)"),
        (lambda: g.rademacher(3, 9).ravel(), "c(replicate(3, sample(c(-1, 1), 9, TRUE)))"),
        (lambda: g.unif_rand(1000), "runif(1000)"),
        (lambda: g.sample_int(5, 4, True, [1, 2, 3, 4, 5]), "sample.int(5, 4, TRUE, 1:5)"),
        (lambda: g.sample_int_replace(17, 3, 4).ravel(),
         "c(replicate(4, sample.int(17, 3, TRUE)))"),
        (lambda: g.rbinom(30, [5, 900], [0.3, 0.6, 0.2]),
         "rbinom(30, c(5, 900), c(0.3, 0.6, 0.2))"),
        (lambda: g.sample_int(300, 20, True, np.arange(300.0) + 1),
         "sample.int(300, 20, TRUE, 1:300)"),
    ]
    for call, code in steps:
        pv = call()
        rv = _rv(r, code)
        if rv.dtype.kind in "US":
            assert list(pv) == rv.tolist(), code
        else:
            assert np.array_equal(np.asarray(pv, dtype=float), rv.astype(float)), code
        assert np.array_equal(g.get_state(), _rv(r, ".Random.seed")), code


@pytest.mark.r_parity
def test_r_state_import_mid_stream(r):
    r.r("set.seed(2718); invisible(runif(1234)); st_ <- .Random.seed; x_ <- rnorm(50)")
    g = RRandom(1)
    g.set_state(_rv(r, "st_"))
    assert np.array_equal(g.rnorm(50), _rv(r, "x_"))
    assert np.array_equal(g.get_state(), _rv(r, ".Random.seed"))
    for seed in SEEDS:
        r.r(f"set.seed({seed})")
        assert np.array_equal(RRandom(seed).get_state(), _rv(r, ".Random.seed"))


@pytest.mark.r_parity
@pytest.mark.parametrize("call,message", ERRORS[:19])
def test_r_error_messages_are_rs(r, call, message):
    # The literal messages above, checked against R itself.
    codes = {
        0: "sample.int(5, 10)", 1: "sample.int(5, 2, prob = c(1, 2))",
        2: "sample.int(5, 2, prob = c(1, 2, NA, 1, 1))",
        3: "sample.int(5, 2, prob = c(1, -2, NA, 1, 1))",
        4: "sample.int(5, 3, prob = c(1, 0, 0, 0, 1))",
        5: "sample.int(5, 2, TRUE, c(0, 0, 0, 0, 0))", 6: "sample.int(-1)",
        7: "sample.int(5, -1)", 8: "sample.int(c(1, 2))", 9: "sample.int(5, c(1, 2))",
        10: "sample.int(5, 2, replace = NA)", 11: "sample.int(0, 2)",
        12: "sample.int(0, 2, prob = numeric(0))", 13: "sample.int(10, 8, useHash = TRUE)",
        14: "sample.int(5, NA_real_)", 15: "sample.int(5, NA_real_, prob = 1:5)",
        16: "sample.int(NA_real_, 2)", 17: "sample.int(5, Inf)", 18: "sample.int(Inf, 2)",
    }
    i = [c for c, _ in ERRORS].index(call)
    got = r.r(f"tryCatch({codes[i]}, error = function(e) conditionMessage(e))")[0]
    assert got == message

"""Every RNGkind through the package's public stream (pycalib_r._rng.stream._kinds).

Stored records of reference/fixtures/rng_kinds_stream.json (written by
tools/make_rng_kinds_stream_fixtures.R) are replayed without R; ``r_parity``
tests run the same calls in R through rpy2 and require bit equality of the
values and of ``.Random.seed`` after each call, R's ``RNGkind()`` values,
R's messages and warnings, and cal_test / cal_ci of pycalib_r/r/contract.R
under other kinds.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r import ProbcalError
from pycalib_r._rng.stream import _global

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "reference" / "fixtures" / "rng_kinds_stream.json"
KINDS = ["Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper", "Mersenne-Twister",
         "Knuth-TAOCP", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG"]
NORMALS = ["Inversion", "Box-Muller", "Ahrens-Dieter", "Kinderman-Ramage",
           "Buggy Kinderman-Ramage"]
DEFAULT = ("Mersenne-Twister", "Inversion", "Rejection")

# The fixture script's labels (R calls) and the same calls on a stream.
SCRIPT = {
    "runif(5)": lambda g: g.runif(5),
    "rnorm(7)": lambda g: g.rnorm(7),
    "rnorm(3, 2, 3)": lambda g: g.rnorm(3, 2, 3),
    "rbinom(5, 10, 0.3)": lambda g: g.rbinom(5, 10, 0.3),
    "rbinom(5, 100, 0.4)": lambda g: g.rbinom(5, 100, 0.4),
    "sample(10)": lambda g: g.sample(10),
    "sample.int(100, 5, TRUE)": lambda g: g.sample_int(100, 5, True),
    "sample.int(1000, 5)": lambda g: g.sample_int(1000, 5),
    "rexp(5)": lambda g: g.rexp(5),
    "rgamma(5, 0.5)": lambda g: g.rgamma(5, 0.5),
    "rgamma(5, 3)": lambda g: g.rgamma(5, 3),
    "rbeta(5, 2, 3)": lambda g: g.rbeta(5, 2, 3),
    "rbeta(5, 0.5, 0.5)": lambda g: g.rbeta(5, 0.5, 0.5),
    "rpois(5, 4)": lambda g: g.rpois(5, 4),
    "rpois(5, 40)": lambda g: g.rpois(5, 40),
    "rt(3, 5)": lambda g: g.rt(3, 5),
    "rchisq(3, 4)": lambda g: g.rchisq(3, 4),
}


def _hex(values):
    return np.array([float.fromhex(h) for h in values])


def _quiet(fun, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fun(*args, **kw)


def _stream(kind, normal, sample, seed):
    """A stream as after ``RNGkind(kind, normal, sample); set.seed(seed)``."""
    if normal == "Buggy Kinderman-Ramage":  # set.seed refuses it; RNGkind warns
        g = pc.RRandom(0)
        _quiet(g.rng_kind, kind, normal, sample)
        g.set_seed(seed)
        return g
    return _quiet(pc.RRandom, seed, kind=kind, normal_kind=normal, sample_kind=sample)


@pytest.fixture(autouse=True)
def _fresh_global():
    """Each test starts and ends without a global stream (R's defaults)."""
    _global._GLOBAL = None
    yield
    _global._GLOBAL = None


@pytest.fixture(scope="module")
def stored():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


# --- stored records (no R) ----------------------------------------------------------

def test_fixture_header(stored):
    assert stored["r_version"] == "4.2.2" and stored["date"] and stored["cases"] == []
    assert list(SCRIPT) == [c["call"] for c in stored["streams"][0]["calls"]]
    assert {(r["kind"], r["normal_kind"]) for r in stored["streams"]} >= {
        (k, nk) for k in KINDS for nk in NORMALS}
    assert {r["kind"] for r in stored["streams"] if r["sample_kind"] == "Rounding"} == set(KINDS)


def test_stored_streams(stored):
    for rec in stored["streams"]:
        g = _stream(rec["kind"], rec["normal_kind"], rec["sample_kind"], rec["seed"])
        assert g.rng_kind() == (rec["kind"], rec["normal_kind"], rec["sample_kind"])
        for call in rec["calls"]:
            label = f"{rec['kind']}/{rec['normal_kind']}/{rec['sample_kind']} " \
                    f"seed {rec['seed']}: {call['call']}"
            got = np.asarray(SCRIPT[call["call"]](g), dtype=np.float64)
            assert np.array_equal(got, _hex(call["value"])), label
            if call["after"] is not None:
                assert g.get_random_seed().tolist() == call["after"], label


def test_stored_cal_under_other_kinds(stored):
    for rec in stored["cal"]:
        p, y = _hex(rec["p"]), np.array(rec["y"])
        _quiet(pc.set_seed, rec["seed"], kind=rec["kind"], normal_kind=rec["normal_kind"],
               sample_kind=rec["sample_kind"])
        t = pc.cal_test(p, y, method="bootstrap", n_boot=49)
        label = f"{rec['kind']}/{rec['normal_kind']}/{rec['sample_kind']}"
        # The p-value is a ratio of counts: exact when every bootstrap draw is R's.
        assert t.p_value == _hex(rec["test_p_value"])[0], label
        stat = float(np.ravel(list(t.statistic.values()))[0])
        assert stat == pytest.approx(_hex(rec["test_statistic"])[0], rel=1e-10, abs=1e-14), label
        assert pc.get_random_seed().tolist() == rec["after_test"], label
        ci = pc.cal_ci(p, y, metric="ece", n_boot=29)
        want = _hex(rec["ci"])
        assert [ci.estimate, ci.lower, ci.upper] == pytest.approx(want, rel=1e-12, abs=1e-15), label
        assert pc.get_random_seed().tolist() == rec["after_ci"], label


# --- the public interface (no R) -----------------------------------------------------

def test_default_kinds_stay_on_the_fast_path():
    g = pc.RRandom(1, kind="Wichmann-Hill")
    assert type(g).__name__ == "KindStream" and isinstance(g, pc.RRandom)
    assert g.rng_kind("default") == ("Wichmann-Hill", "Inversion", "Rejection")
    assert type(g) is pc.RRandom and g.rng_kind() == DEFAULT
    # After returning to the defaults, the stream equals a fresh one at the same state.
    h = pc.RRandom(2)
    h.set_random_seed(g.get_random_seed())
    assert np.array_equal(g.runif(1000), h.runif(1000))


def test_rng_kind_without_a_global_stream_reports_the_defaults():
    assert pc.rng_kind() == DEFAULT
    assert _global._GLOBAL is None


def test_random_seed_round_trip_every_kind():
    for kind in KINDS:
        g = _quiet(pc.RRandom, 7, kind=kind, normal_kind="Box-Muller")
        g.rnorm(3)
        vec = g.get_random_seed()
        h = pc.RRandom(1)
        h.set_random_seed(vec)
        assert h.rng_kind() == (kind, "Box-Muller", "Rejection"), kind
        assert np.array_equal(h.get_random_seed(), vec), kind
        assert np.array_equal(h.runif(50), g.runif(50)), kind
        # set_state is the same import (the input is not modified).
        kept = vec.copy()
        h.set_state(vec)
        assert np.array_equal(vec, kept)


def test_errors_are_probcal_errors_with_r_text():
    with pytest.raises(ProbcalError, match="^'foo' is not a valid abbreviation of an RNG$"):
        pc.set_seed(1, kind="foo")
    with pytest.raises(ProbcalError, match="^buggy version of Kinderman-Ramage generator is "
                                           "not allowed$"):
        pc.set_seed(1, normal_kind="Buggy Kinderman-Ramage")
    with pytest.raises(ProbcalError, match="^'kind' must be a character string of length 1"):
        pc.rng_kind(3)
    with pytest.raises(ProbcalError, match="^invalid value of 'seed'$"):
        pc.next_rng_stream(pc.RRandom(1).get_random_seed())
    with pytest.raises(ProbcalError, match="has wrong length"):
        pc.set_random_seed([10400, 1, 2])
    # A failed call changes nothing.
    assert pc.rng_kind() == DEFAULT


def test_rounding_warns():
    with pytest.warns(RuntimeWarning, match="^non-uniform 'Rounding' sampler used$"):
        pc.set_seed(1, sample_kind="Rounding")
    with pytest.warns(RuntimeWarning, match="^non-uniform 'Rounding' sampler used$"):
        pc.rng_kind(sample_kind="Rounding")
    assert pc.rng_kind(sample_kind="Rejection") == ("Mersenne-Twister", "Inversion", "Rounding")


def test_lecuyer_streams_continue_the_stream():
    pc.set_seed(123, kind="L'Ecuyer-CMRG")
    s = pc.get_random_seed()
    s1 = pc.next_rng_stream(s)
    assert s1[0] == s[0] and not np.array_equal(s1, s)
    assert np.array_equal(pc.next_rng_substream(s1), pc.next_rng_substream(s1))


# --- R parity (rpy2) ----------------------------------------------------------------

@pytest.fixture
def rr(r):
    yield r
    r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')


def _vec(r, code):
    return np.asarray(r.r(code), dtype=np.float64)


def _r_set(r, kind, normal, sample, seed):
    r.r(f'suppressWarnings(RNGkind("{kind}", "{normal}", "{sample}")); set.seed({seed})')


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("normal", NORMALS)
def test_r_public_functions_every_kind(rr, kind, normal):
    """set_seed(s, kind=, normal_kind=) then the global functions equal R, state included."""
    for seed in (-(2**31 - 1), 0, 2**31 - 1, 20240607):
        _r_set(rr, kind, normal, "Rejection", seed)
        if normal == "Buggy Kinderman-Ramage":
            _quiet(pc.rng_kind, kind, normal)
            pc.set_seed(seed)
        else:
            _quiet(pc.set_seed, seed, kind=kind, normal_kind=normal)
        assert np.array_equal(pc.get_random_seed(), _vec(rr, ".Random.seed"))
        for py, rc in ((lambda: pc.runif(20), "runif(20)"),
                       (lambda: pc.rnorm(21), "rnorm(21)"),
                       (lambda: pc.rbinom(9, 50, 0.3), "rbinom(9, 50, 0.3)"),
                       (lambda: pc.sample(30), "sample(30)"),
                       (lambda: pc.sample_int(7, 12, True), "sample.int(7, 12, TRUE)")):
            label = f"{kind}/{normal} seed {seed}: {rc}"
            assert np.array_equal(np.asarray(py(), dtype=np.float64), _vec(rr, rc)), label
            assert np.array_equal(pc.get_random_seed(), _vec(rr, ".Random.seed")), label
        assert pc.rng_kind() == tuple(rr.r("RNGkind()"))


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("normal", NORMALS)
def test_r_distributions_every_kind(rr, kind, normal):
    """The stream's distributions draw through the current kinds, as nmath does."""
    for seed in (-7, 2**31 - 1):
        _r_set(rr, kind, normal, "Rejection", seed)
        g = _stream(kind, normal, "Rejection", seed)
        for label in SCRIPT:
            # More values than the stored script: 40 per distribution call.
            long = label.startswith("r") and not label.startswith("rbinom")
            rc = label.replace("(5", "(40").replace("(3", "(40") if long else label
            got = _call_on(g, rc)
            assert np.array_equal(np.asarray(got, dtype=np.float64), _vec(rr, rc)), \
                f"{kind}/{normal} seed {seed}: {rc}"
            assert np.array_equal(g.get_random_seed(), _vec(rr, ".Random.seed")), rc


def _call_on(g, rcall):
    """An R call of the script, with another n, on the stream ``g``."""
    name, args = rcall.split("(", 1)
    vals = [a.strip() for a in args.rstrip(")").split(",")]
    py = [True if v == "TRUE" else float(v) if "." in v else int(v) for v in vals]
    return getattr(g, name.replace(".", "_"))(*py)


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
def test_r_rounding_sampler(rr, kind):
    """sample.kind = "Rounding": R's warning, then R's indices and state."""
    r_warn = list(rr.r(f'w <- character(); withCallingHandlers(set.seed(5, kind = "{kind}", '
                       'sample.kind = "Rounding"), warning = function(c) {w <<- c(w, '
                       'conditionMessage(c)); invokeRestart("muffleWarning")}); w'))
    with pytest.warns(RuntimeWarning) as rec:
        pc.set_seed(5, kind=kind, sample_kind="Rounding")
    assert [str(w.message) for w in rec] == r_warn
    assert "non-uniform 'Rounding' sampler used" in r_warn
    _r_set(rr, kind, "Inversion", "Rounding", 5)
    pc.set_seed(5)  # keeps the kinds, as R's set.seed
    for py, rc in ((lambda: pc.sample_int(100, 30, True), "sample.int(100, 30, TRUE)"),
                   (lambda: pc.sample_int(10**6, 20), "sample.int(1e6, 20)"),
                   (lambda: pc.sample(12), "sample(12)"),
                   (lambda: pc.sample_int(3e9, 5, True), "sample.int(3e9, 5, TRUE)")):
        assert np.array_equal(np.asarray(py(), dtype=np.float64), _vec(rr, rc)), rc
        assert np.array_equal(pc.get_random_seed(), _vec(rr, ".Random.seed")), rc


@pytest.mark.r_parity
def test_r_rng_kind_values_and_switches(rr):
    """rng_kind's return values, and a switch without set_seed, follow R's RNGkind()."""
    rr.r("set.seed(1)")
    pc.set_seed(1)
    steps = [("Wichmann-Hill", None, None), (None, "Box-Muller", None),
             ("Knuth-TAOCP", "Ahrens-Dieter", "Rounding"), ("default", "default", "default"),
             ("L'Ecuyer", "Kinderman", None), ("Mersenne", "Inversion", "Rejection"),
             ("Super", None, "Rejection")]
    names = ("kind", "normal.kind", "sample.kind")
    for step in steps:
        r_args = ", ".join(f'{nm} = "{v}"' for nm, v in zip(names, step) if v is not None)
        want = tuple(rr.r(f"k <- suppressWarnings(RNGkind({r_args})); k"))
        assert _quiet(pc.rng_kind, *step) == want, step
        assert pc.rng_kind() == tuple(rr.r("RNGkind()")), step
        assert np.array_equal(pc.get_random_seed(), _vec(rr, ".Random.seed")), step
        assert np.array_equal(pc.rnorm(5), _vec(rr, "rnorm(5)")), step


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
def test_r_set_random_seed_imports_r_state(rr, kind):
    """R's .Random.seed, imported with set_random_seed, continues R's stream."""
    _r_set(rr, kind, "Box-Muller", "Rejection", 99)
    rr.r("invisible(runif(17))")
    pc.set_random_seed(_vec(rr, ".Random.seed").astype(np.int64))
    assert pc.rng_kind() == (kind, "Box-Muller", "Rejection")
    assert np.array_equal(pc.runif(33), _vec(rr, "runif(33)"))
    assert np.array_equal(pc.rnorm(9), _vec(rr, "rnorm(9)"))
    assert np.array_equal(pc.get_random_seed(), _vec(rr, ".Random.seed"))


@pytest.mark.r_parity
def test_r_lecuyer_streams(rr):
    for seed in (-(2**31 - 1), 0, 123, 2**31 - 1):
        rr.r(f'set.seed({seed}, kind = "L\'Ecuyer-CMRG"); s <- .Random.seed')
        pc.set_seed(seed, kind="L'Ecuyer-CMRG")
        s = pc.get_random_seed()
        assert np.array_equal(s, _vec(rr, "s"))
        assert np.array_equal(pc.next_rng_stream(s), _vec(rr, "parallel::nextRNGStream(s)"))
        assert np.array_equal(pc.next_rng_substream(s),
                              _vec(rr, "parallel::nextRNGSubStream(s)"))


@pytest.mark.r_parity
def test_r_messages(rr):
    def r_error(code):
        return rr.r(f"tryCatch({code}, error = conditionMessage)")[0]

    cases = [(lambda: pc.rng_kind("foo"), 'RNGkind("foo")'),
             (lambda: pc.set_seed(1, kind="Knuth"), 'set.seed(1, kind = "Knuth")'),
             (lambda: pc.set_seed(1, normal_kind="Buggy Kinderman-Ramage"),
              'set.seed(1, normal.kind = "Buggy Kinderman-Ramage")'),
             (lambda: pc.rng_kind(normal_kind="foo"), 'RNGkind(normal.kind = "foo")'),
             (lambda: pc.rng_kind(sample_kind="R"), 'RNGkind(sample.kind = "R")'),
             (lambda: pc.next_rng_stream([10403, 1, 2]), "parallel::nextRNGStream(c(10403L, 1L, 2L))")]
    for py, rc in cases:
        with pytest.raises(ProbcalError) as err:
            py()
        assert str(err.value) == r_error(rc), rc


@pytest.fixture(scope="module")
def contract(r):
    r.r(f'.kinds_contract <- new.env(); sys.source("{REPO.as_posix()}/pycalib_r/r/contract.R", '
        'envir = .kinds_contract)')
    return r


@pytest.mark.r_parity
@pytest.mark.parametrize("kinds", [("Wichmann-Hill", "Inversion", "Rejection"),
                                   ("Marsaglia-Multicarry", "Kinderman-Ramage", "Rounding"),
                                   ("Knuth-TAOCP", "Inversion", "Rounding"),
                                   ("L'Ecuyer-CMRG", "Box-Muller", "Rejection")])
def test_r_cal_test_and_cal_ci_under_other_kinds(contract, kinds):
    r = contract
    rs = np.random.default_rng(sum(map(len, kinds)))
    p = np.round(rs.uniform(0.05, 0.95, 50), 6)
    y = (rs.uniform(size=50) < p).astype(np.int64)
    r.globalenv["p"] = r.FloatVector(p)
    r.globalenv["y"] = r.IntVector(y.tolist())
    k, nk, sk = kinds
    ks = f'kind = "{k}", normal.kind = "{nk}", sample.kind = "{sk}"'
    try:
        want = _vec(r, f"suppressWarnings(set.seed(31, {ks})); "
                       "x <- .kinds_contract$cal_test(p, y, method = 'bootstrap', n_boot = 49); "
                       "c(x$statistic, x$p.value)")
        _quiet(pc.set_seed, 31, kind=k, normal_kind=nk, sample_kind=sk)
        t = pc.cal_test(p, y, method="bootstrap", n_boot=49)
        assert t.p_value == want[1]
        assert float(np.ravel(list(t.statistic.values()))[0]) == pytest.approx(
            want[0], rel=1e-10, abs=1e-14)
        assert np.array_equal(pc.get_random_seed(), _vec(r, ".Random.seed"))
        for metric in ("ece", "skce"):
            want = _vec(r, f"x <- .kinds_contract$cal_ci(p, y, metric = '{metric}', n_boot = 29); "
                           "c(x$estimate, x$lower, x$upper)")
            ci = pc.cal_ci(p, y, metric=metric, n_boot=29)
            assert [ci.estimate, ci.lower, ci.upper] == pytest.approx(want, rel=1e-10, abs=1e-14)
            assert np.array_equal(pc.get_random_seed(), _vec(r, ".Random.seed"))
    finally:
        r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')


MORE = [("sample.int(1e8, 5)", lambda g, pr: g.sample_int(10**8, 5)),
        ("sample.int(300, 50, TRUE, prob = pr)", lambda g, pr: g.sample_int(300, 50, True, pr)),
        ("sample.int(300, 20, FALSE, prob = pr)", lambda g, pr: g.sample_int(300, 20, False, pr)),
        ("sample.int(30, 20, TRUE, prob = pr[1:30])", lambda g, pr: g.sample_int(30, 20, True, pr[:30])),
        ("rhyper(5, 10, 7, 8)", lambda g, pr: g.rhyper(5, 10, 7, 8)),
        ("rgeom(5, 0.2)", lambda g, pr: g.rgeom(5, 0.2)),
        ("rnbinom(5, 3, 0.4)", lambda g, pr: g.rnbinom(5, 3, 0.4)),
        ("rf(4, 3, 7)", lambda g, pr: g.rf(4, 3, 7)),
        ("rlnorm(5)", lambda g, pr: g.rlnorm(5)),
        ("rweibull(4, 2)", lambda g, pr: g.rweibull(4, 2)),
        ("rcauchy(4)", lambda g, pr: g.rcauchy(4)),
        ("rlogis(4)", lambda g, pr: g.rlogis(4)),
        ("rgamma(6, c(0.5, 2, 3))", lambda g, pr: g.rgamma(6, [0.5, 2, 3])),
        ("rpois(6, c(3, 30))", lambda g, pr: g.rpois(6, [3, 30])),
        ("as.vector(rmultinom(2, 10, c(0.2, 0.3, 0.5)))",
         lambda g, pr: g.rmultinom(2, 10, [0.2, 0.3, 0.5]).ravel(order="F")),
        ("rbinom(6, c(5, 200), 0.45)", lambda g, pr: g.rbinom(6, [5, 200], 0.45))]


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", ["Wichmann-Hill", "Knuth-TAOCP", "L'Ecuyer-CMRG",
                                  "Mersenne-Twister"])
@pytest.mark.parametrize("normal", ["Inversion", "Box-Muller", "Ahrens-Dieter"])
@pytest.mark.parametrize("sample", ["Rejection", "Rounding"])
def test_r_samplers_and_other_distributions(rr, kind, normal, sample):
    """Weighted samplers (Walker's alias under both sample kinds), sample2 and the
    other distributions, with varying parameters, draw through the current kinds."""
    pr = np.arange(1, 301) / 45150.0
    rr.globalenv["pr"] = rr.FloatVector(pr)
    _r_set(rr, kind, normal, sample, 3)
    g = _stream(kind, normal, sample, 3)
    for rc, fun in MORE:
        got = np.asarray(fun(g, pr), dtype=np.float64)
        assert np.array_equal(got, _vec(rr, rc)), f"{kind}/{normal}/{sample}: {rc}"
        assert np.array_equal(g.get_random_seed(), _vec(rr, ".Random.seed")), rc

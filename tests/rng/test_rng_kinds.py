"""Every RNGkind of R 4.2.2 (pycalib_r._rng.bitgen).

Three groups: the stored records of reference/fixtures/rng_kinds.json
(written by tools/make_rng_kinds_fixtures.R) replayed without R; pure tests
of chunking, state round trips and argument errors; ``r_parity`` tests that
draw the same streams in R through rpy2 and require bit equality of values
and of ``.Random.seed``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from pycalib_r._rng import bitgen as rk

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "fixtures" / "rng_kinds.json"
KINDS = list(rk.GENERATORS)
NORMALS = ["Inversion", "Box-Muller", "Ahrens-Dieter", "Kinderman-Ramage", "Buggy Kinderman-Ramage"]
SEEDS = [-(2**31 - 1), -1, 0, 1, 42, 2**31 - 1, 1043812, -702339211]


def _hex(values):
    return np.array([float.fromhex(h) for h in values])


def _code(normal="Inversion", sample="Rejection"):
    return normal, sample


@pytest.fixture(scope="module")
def stored():
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


# --- stored records (no R) ----------------------------------------------------------

def test_fixture_header(stored):
    assert stored["r_version"] == "4.2.2" and stored["date"]
    assert stored["cases"] == []
    assert {r["kind"] for r in stored["uniform"]} == set(KINDS)
    assert {r["normal_kind"] for r in stored["normal"]} == set(NORMALS)


def test_stored_uniform_streams(stored):
    for rec in stored["uniform"]:
        g = rk.new_generator(rec["kind"], rec["seed"])
        label = f"{rec['kind']} seed {rec['seed']}"
        assert g.get_state().tolist() == rec["after_seed"], label
        assert np.array_equal(g.unif_rand(300), _hex(rec["runif_300"])), label
        assert g.get_state().tolist() == rec["after"], label


def test_stored_normal_streams(stored):
    for rec in stored["normal"]:
        g = rk.new_generator(rec["kind"], rec["seed"])
        norm = rk.NormRand(rec["normal_kind"])
        label = f"{rec['kind']} {rec['normal_kind']} seed {rec['seed']}"
        assert np.array_equal(norm(g, 101), _hex(rec["rnorm_101"])), label
        assert np.array_equal(2.0 + 3.0 * norm(g, 50), _hex(rec["rnorm_50_2_3"])), label
        assert g.get_state(*_code(rec["normal_kind"])).tolist() == rec["after"], label


def test_stored_unif_index(stored):
    for rec in stored["unif_index"]:
        g = rk.new_generator(rec["kind"], rec["seed"])
        label = f"{rec['kind']} {rec['sample_kind']} seed {rec['seed']} n {rec['n']}"
        got = rk.unif_index(g, rec["n"], 50, rec["sample_kind"]) + 1
        assert np.array_equal(got, _hex(rec["sample_int_50"])), label
        assert g.get_state(*_code(sample=rec["sample_kind"])).tolist() == rec["after"], label


def test_stored_lecuyer_streams(stored):
    for rec in stored["lecuyer_streams"]:
        assert rk.next_rng_stream(np.array(rec["seed"], dtype=np.int32)).tolist() == rec["next_stream"]
        assert rk.next_rng_substream(np.array(rec["seed"], dtype=np.int32)).tolist() == \
            rec["next_substream"]


# --- pure tests ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_chunked_draws_equal_one_draw(kind):
    whole = rk.new_generator(kind, 5).unif_rand(70_001)
    g = rk.new_generator(kind, 5)
    parts = [g.unif_rand(k) for k in (0, 1, 2, 97, 100, 3, 1009, 65_536, 3_253)]
    assert np.array_equal(np.concatenate(parts), whole)
    assert whole.min() > 0.0 and whole.max() < 1.0


@pytest.mark.parametrize("kind", KINDS)
def test_state_round_trip_and_advance(kind):
    g = rk.new_generator(kind, 11)
    g.unif_rand(1234)
    state = g.get_state(*_code("Box-Muller", "Rounding"))
    assert state[0] == rk.GENERATORS[kind].code + 200
    h, nk, sk = rk.from_random_seed(state)
    assert (type(h), nk, sk) == (type(g), "Box-Muller", "Rounding")
    a = g.unif_rand(500)
    assert np.array_equal(h.unif_rand(500), a)
    h.set_state(state)
    h.advance(123)
    assert np.array_equal(h.unif_rand(377), a[123:])


@pytest.mark.parametrize("kind", KINDS)
def test_rejection_and_rounding_leave_stream_after_last_use(kind):
    for sample_kind, dn in (("Rejection", 1000), ("Rejection", 2**31 + 5), ("Rounding", 3e9)):
        g = rk.new_generator(kind, 3)
        one = np.array([rk.unif_index(g, dn, 1, sample_kind)[0] for _ in range(40)])
        after = g.get_state()
        g = rk.new_generator(kind, 3)
        assert np.array_equal(rk.unif_index(g, dn, 40, sample_kind), one)
        assert np.array_equal(g.get_state(), after)
        assert one.max() < dn


def test_box_muller_keeps_second_value_across_calls():
    g = rk.new_generator("Wichmann-Hill", 9)
    norm = rk.NormRand("Box-Muller")
    whole = norm(g, 10)
    g.seed(9)
    norm.reset()
    parts = np.concatenate([norm(g, 3), norm(g, 1), norm(g, 6)])
    assert np.array_equal(parts, whole)
    assert norm.bm_keep == 0.0
    norm(g, 1)
    assert norm.bm_keep != 0.0


@pytest.mark.parametrize("normal_kind", NORMALS)
def test_normal_kinds_leave_stream_where_they_stopped(normal_kind):
    g = rk.new_generator("Super-Duper", 4)
    norm = rk.NormRand(normal_kind)
    whole = norm(g, 3000)
    after = g.get_state()
    g.seed(4)
    norm.reset()
    parts = np.concatenate([norm(g, 1000), norm(g, 2000)])
    assert np.array_equal(parts, whole)
    assert np.array_equal(g.get_state(), after)
    assert abs(whole.mean()) < 0.1 and abs(whole.std() - 1) < 0.1


def test_seed_fixups_and_errors():
    g = rk.WichmannHill(1)
    g.set_state([10400, 0, 30307, -1])  # 0 mod m maps to 1; words are unsigned
    assert g.get_words().tolist() == [1, 1, (2**32 - 1) % 30323]
    g = rk.SuperDuper(1)
    g.set_state([10402, 0, 4])
    assert g.get_words().tolist() == [1, 5]
    with pytest.raises(ValueError, match="wrong length"):
        rk.from_random_seed([10407, 1, 2, 3])
    with pytest.raises(ValueError, match="no user-supplied generator"):
        rk.decode_kind_code(10405)
    with pytest.raises(ValueError, match="not a valid RNG kind"):
        rk.decode_kind_code(10408)
    assert rk.KnuthTAOCP(1).get_state(5, 0)[0] == rk.KnuthTAOCP(1).get_state(
        "Kinderman-Ramage", "Rounding")[0] == 504
    with pytest.raises(ValueError, match="not a valid Normal type"):
        rk.decode_kind_code(10603)
    with pytest.raises(ValueError, match="invalid value of 'seed'"):
        rk.next_rng_stream(np.array([10403, 1, 2, 3, 4, 5, 6]))
    with pytest.raises(ValueError, match="invalid value of 'seed'"):
        rk.next_rng_stream([10407.0, 1, 2, 3, 4, 5, 6])
    assert rk.match_kind("Wich", rk.KINDS, "kind") == 0
    assert rk.match_kind("default", rk.NORMAL_KINDS, "normal.kind") == -1
    assert rk.match_kind("Knuth-TAOCP", rk.KINDS, "kind") == 4  # exact beats partial
    with pytest.raises(ValueError, match="'Knuth' is not a valid abbreviation of an RNG"):
        rk.match_kind("Knuth", rk.KINDS, "kind")
    with pytest.raises(ValueError, match="'NA' is not a valid choice"):
        rk.match_kind("Bogus", rk.SAMPLE_KINDS, "sample.kind")


def test_draws_are_interruptible_in_chunks():
    # Long draws loop over chunks of 2^16 values, so Ctrl-C is seen between
    # chunks; a chunk of the slowest kind must take well under 0.5 s.
    import time

    for kind in KINDS:
        g = rk.new_generator(kind, 1)
        g.unif_rand(1 << 16)  # tables built
        t = time.perf_counter()
        g.unif_rand(1 << 16)
        assert time.perf_counter() - t < 0.5, kind


# --- R parity (rpy2) ----------------------------------------------------------------

def _set_kinds(r, kind, normal="Inversion", sample="Rejection"):
    r.r(f'suppressWarnings(RNGkind("{kind}", "{normal}", "{sample}"))')


@pytest.fixture
def rr(r):
    """``r``, with R's default kinds restored after the test."""
    yield r
    r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')


def _vec(r, code):
    return np.asarray(r.r(code))


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_r_uniform_parity(rr, kind, seed):
    _set_kinds(rr, kind)
    g = rk.new_generator(kind, seed)
    rr.r(f"set.seed({seed})")
    assert np.array_equal(g.get_state(), _vec(rr, ".Random.seed"))
    assert np.array_equal(g.unif_rand(10_000), _vec(rr, "runif(10000)"))
    assert np.array_equal(g.get_state(), _vec(rr, ".Random.seed"))
    # R's state, imported, continues R's stream.
    h, _, _ = rk.from_random_seed(_vec(rr, ".Random.seed"))
    assert np.array_equal(h.unif_rand(777), _vec(rr, "runif(777)"))


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", ["Mersenne-Twister", "Wichmann-Hill", "Marsaglia-Multicarry",
                                  "Super-Duper", "Knuth-TAOCP", "Knuth-TAOCP-2002",
                                  "L'Ecuyer-CMRG"])
@pytest.mark.parametrize("normal_kind", NORMALS)
def test_r_normal_parity(rr, kind, normal_kind):
    seeds = SEEDS if kind in ("Mersenne-Twister", "L'Ecuyer-CMRG") else SEEDS[::3]
    for seed in seeds:
        _set_kinds(rr, kind, normal_kind)
        rr.r(f"set.seed({seed})")
        g = rk.new_generator(kind, seed)
        norm = rk.NormRand(normal_kind)
        label = f"{kind} {normal_kind} {seed}"
        assert np.array_equal(norm(g, 5001), _vec(rr, "rnorm(5001)")), label
        assert np.array_equal(1.5 + 0.25 * norm(g, 300), _vec(rr, "rnorm(300, 1.5, 0.25)")), label
        nk, sk = _code(normal_kind)
        assert np.array_equal(g.get_state(nk, sk), _vec(rr, ".Random.seed")), label


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("sample_kind", ["Rounding", "Rejection"])
def test_r_sample_int_parity(rr, kind, sample_kind):
    for seed in SEEDS[::2]:
        for dn in (1, 2, 7, 1000, 65_537, 2**25, 2**31 - 1, 2**31, 3e9, 2.0**40):
            _set_kinds(rr, kind, "Inversion", sample_kind)
            rr.r(f"set.seed({seed})")
            g = rk.new_generator(kind, seed)
            label = f"{kind} {sample_kind} {seed} {dn}"
            got = rk.unif_index(g, dn, 200, sample_kind) + 1
            want = _vec(rr, f"as.double(sample.int({dn!r}, 200, replace = TRUE))")
            assert np.array_equal(got, want), label
            assert np.array_equal(g.get_state(*_code(sample=sample_kind)),
                                  _vec(rr, ".Random.seed")), label


def _sample_noreplace(g, n, k, sample_kind):
    """do_sample's sampling without replacement (random.c), on R_unif_index."""
    x = list(range(n))
    out = []
    for _ in range(k):
        j = int(rk.unif_index(g, n, 1, sample_kind)[0])
        out.append(x[j] + 1)
        n -= 1
        x[j] = x[n]
    return out


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", ["Mersenne-Twister", "Wichmann-Hill", "Knuth-TAOCP"])
def test_r_rounding_sample_without_replacement(rr, kind):
    for seed in SEEDS[:4]:
        _set_kinds(rr, kind, "Inversion", "Rounding")
        rr.r(f"set.seed({seed})")
        g = rk.new_generator(kind, seed)
        assert _sample_noreplace(g, 100, 40, "Rounding") == list(_vec(rr, "sample.int(100, 40)"))
        assert np.array_equal(g.get_state(*_code(sample="Rounding")), _vec(rr, ".Random.seed"))


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
def test_r_lecuyer_streams(rr, seed):
    _set_kinds(rr, "L'Ecuyer-CMRG")
    rr.r(f"set.seed({seed}); s <- .Random.seed")
    s = rk.LEcuyerCMRG(seed).get_state()
    assert np.array_equal(s, _vec(rr, "s"))
    for _ in range(3):
        s, t = rk.next_rng_stream(s), rk.next_rng_substream(s)
        rr.r("t <- parallel::nextRNGSubStream(s); s <- parallel::nextRNGStream(s)")
        assert np.array_equal(s, _vec(rr, "s")) and np.array_equal(t, _vec(rr, "t"))
    # A stream seed drives the generator: .Random.seed <- s; runif().
    g, _, _ = rk.from_random_seed(s)
    assert np.array_equal(g.unif_rand(1000), _vec(rr, ".Random.seed <- s; runif(1000)"))


@pytest.mark.r_parity
@pytest.mark.parametrize("new", KINDS)
def test_r_kind_switch_seeds_new_kind_from_old_stream(rr, new):
    for seed in SEEDS[:3]:
        rr.r(f'RNGkind("Mersenne-Twister"); set.seed({seed}); invisible(runif(3))')
        old = rk.new_generator("Mersenne-Twister", seed)
        old.unif_rand(3)
        rr.r(f'suppressWarnings(RNGkind("{new}"))')
        g = rk.switch_kind(old, new)
        assert np.array_equal(g.get_state(), _vec(rr, ".Random.seed")), (new, seed)


@pytest.mark.r_parity
def test_r_state_fixups(rr):
    cases = [("Wichmann-Hill", [10400, 0, 30307, -1]),
             ("Super-Duper", [10402, 0, 4]),
             ("Marsaglia-Multicarry", [10401, 0, 0]),
             ("Marsaglia-Multicarry", [10401, -1, -2]),
             ("Knuth-TAOCP-2002", [10406] + list(range(1, 101)) + [0]),
             ("Knuth-TAOCP", [10404] + [2**31 - 1 - k for k in range(100)] + [-5]),
             ("L'Ecuyer-CMRG", [10407, 1, 2, 3, 0, 0, 0]),
             ("Mersenne-Twister", [10403, 0] + list(range(624))),
             ("Mersenne-Twister", [10403, 625] + list(range(624)))]
    for kind, vec in cases:
        _set_kinds(rr, kind)
        rr.r("v <- c(" + ", ".join(f"{v}L" for v in vec) + ")")
        want = _vec(rr, ".Random.seed <- v; runif(1500)")
        g, _, _ = rk.from_random_seed(vec)
        assert np.array_equal(g.unif_rand(1500), want), kind
        assert np.array_equal(g.get_state(), _vec(rr, ".Random.seed")), kind


_R_MESSAGES = """
function(code) tryCatch(withCallingHandlers({eval(parse(text = code)); ""},
    warning = function(w) stop(paste("W:", conditionMessage(w)))),
  error = function(e) conditionMessage(e))
"""


@pytest.mark.r_parity
def test_r_messages(rr):
    msg = rr.r(_R_MESSAGES)
    m = rk.MESSAGES
    cases = [('RNGkind(sample.kind = "Rounding")', "W: " + m["rounding"]),
             ('set.seed(1, sample.kind = "Rounding")', "W: " + m["rounding"]),
             ('RNGkind(normal.kind = "Buggy Kinderman-Ramage")', "W: " + m["buggy_kr_warning"]),
             ('RNGkind("Marsaglia-Multicarry")', "W: " + m["marsaglia"]),
             ('set.seed(1, kind = "Marsaglia-Multicarry")', "W: " + m["marsaglia"]),
             ('set.seed(1, normal.kind = "Buggy Kinderman-Ramage")', m["buggy_kr_seed"]),
             ('RNGkind("Knuth")', m["kind_value"].format("Knuth")),
             ("RNGkind(1)", m["kind_type"]),
             ('RNGkind(normal.kind = "Bogus")', m["choice_value"]),
             ('RNGkind(sample.kind = "Bogus")', m["choice_value"]),
             ("RNGkind(normal.kind = 1)", m["normal_type"]),
             ("RNGkind(sample.kind = 1)", m["sample_type"]),
             ("set.seed(NA)", m["seed"]),
             ("parallel::nextRNGStream(1:7)", m["stream_seed"])]
    for code, want in cases:
        assert msg(code)[0] == want, code
        rr.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    rr.r('suppressWarnings(RNGkind("Marsaglia-Multicarry"))')
    assert msg('RNGkind(normal.kind = "Kinderman-Ramage")')[0] == "W: " + m["marsaglia_kr"]
    assert msg('RNGkind(normal.kind = "Ahrens-Dieter")')[0] == "W: " + m["marsaglia_ad"]



@pytest.mark.r_parity
def test_r_box_muller_keep_survives_state_assignment_and_kind_changes(rr):
    # R's BM_norm_keep is not in .Random.seed: assigning a state keeps it,
    # changing normal.kind away and back through .Random.seed keeps it,
    # RNGkind(normal.kind = "Box-Muller") and set.seed() zero it.
    rr.r('RNGkind("Wichmann-Hill", "Box-Muller"); set.seed(5); x <- rnorm(3)')
    g = rk.new_generator("Wichmann-Hill", 5)
    norm = rk.NormRand("Box-Muller")
    assert np.array_equal(norm(g, 3), _vec(rr, "x"))
    h = rk.new_generator("Wichmann-Hill", 77)
    rr.r("set.seed(77); s <- .Random.seed; set.seed(5); invisible(rnorm(3)); .Random.seed <- s")
    assert np.array_equal(norm(h, 4), _vec(rr, "rnorm(4)"))
    assert norm.bm_keep != 0.0
    norm.kind = "Inversion"
    assert np.array_equal(norm(h, 2), _vec(rr, 'RNGkind(normal.kind = "Inversion"); rnorm(2)'))
    s = h.get_state(norm.code)
    rr.r(f".Random.seed <- c({', '.join(f'{v}L' for v in s)})")
    norm.kind = "Box-Muller"
    h.set_state(h.get_state(norm.code))
    assert np.array_equal(norm(h, 3), _vec(rr, ".Random.seed[1] <- 10200L; rnorm(3)"))
    norm.reset()
    assert np.array_equal(norm(h, 3), _vec(rr, 'RNGkind(normal.kind = "Box-Muller"); rnorm(3)'))


def test_bad_seeds_and_states_raise_clear_errors():
    for bad in (1.5, 2**31, -(2**31), float("nan")):
        with pytest.raises(ValueError, match="supplied seed is not a valid integer"):
            rk.WichmannHill(bad)
    for bad in ("1", True, [1]):
        with pytest.raises(TypeError, match="must be an integer"):
            rk.LEcuyerCMRG(bad)
    assert np.array_equal(rk.SuperDuper(7.0).get_state(), rk.SuperDuper(7).get_state())
    with pytest.raises(ValueError, match="integer vector"):
        rk.from_random_seed([10400.0, 1.5, 2, 3])
    with pytest.raises(ValueError, match="integer vector"):
        rk.from_random_seed(["10400", "1", "2", "3"])
    with pytest.raises(ValueError, match="32-bit"):
        rk.from_random_seed([10400, 2**32, 2, 3])
    state = [10400, 1, 2, 3]
    g, _, _ = rk.from_random_seed(np.array(state, dtype=np.float64))
    assert g.get_state().tolist() == state  # the caller's vector is not modified either
    with pytest.raises(ValueError, match="finite"):
        rk.unif_index(g, float("inf"), 3)


# A script of RNG calls, run in R and on KindState; after each step the
# values drawn, .Random.seed and RNGkind() must agree.
_SCRIPT = [
    ("set_seed", (7,), {}), ("u", 5), ("kind", ("Wich",), {}), ("u", 3),
    ("kind", (None, "Box-Muller"), {}), ("n", 3), ("kind", ("Super-Duper",), {}), ("n", 1),
    ("set_seed", (-3,), {"kind": "Knuth-TAOCP-2002", "normal_kind": "Ahrens"}), ("n", 50),
    ("kind", ("Mersenne-Twister",), {}), ("u", 2),
    ("set_seed", (2**31 - 1,), {"kind": "L'Ecuyer-CMRG", "normal_kind": "Box-Muller",
                                "sample_kind": "Rounding"}),
    ("n", 5), ("i", 1000), ("i", 3e9), ("kind", (None, "Inversion"), {}), ("n", 2),
    ("kind", (None, "Box-Muller"), {}), ("n", 2),
    ("kind", ("default", "default", "default"), {}), ("i", 1000), ("n", 3),
    ("kind", ("Marsaglia-Multicarry", "Kinderman-Ramage"), {}), ("n", 20),
    ("set_seed", (0,), {"kind": "Knuth-TAOCP", "normal_kind": "Inversion",
                        "sample_kind": "Rejection"}), ("i", 2**31), ("n", 4),
]


def _r_arg(v):
    return "NULL" if v is None else repr(v) if isinstance(v, str) else str(v)


@pytest.mark.r_parity
def test_r_kind_state_follows_r_through_a_script(rr):
    st = rk.KindState(1)
    rr.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection"); set.seed(1)')
    names = {"kind": "kind", "normal_kind": "normal.kind", "sample_kind": "sample.kind"}
    for step in _SCRIPT:
        op = step[0]
        if op in ("set_seed", "kind"):
            args, kw = step[1], step[2]
            pos = ["kind", "normal_kind", "sample_kind"]
            r_args = [_r_arg(a) for a in args]
            if op == "set_seed":
                r_args += [f"{names[k]} = {_r_arg(v)}" for k, v in kw.items()]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    st.set_seed(*args, **kw)
                rr.r(f"suppressWarnings(set.seed({', '.join(r_args)}))")
            else:
                call = dict(zip(pos, args))
                r_args = [f"{names[k]} = {_r_arg(v)}" for k, v in call.items()]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    before = st.rng_kind(**call)
                assert list(before) == list(rr.r(f"k <- suppressWarnings(RNGkind({', '.join(r_args)})); k"))
            got = None
        elif op == "u":
            got, want = st.unif_rand(step[1]), _vec(rr, f"runif({step[1]})")
        elif op == "n":
            got, want = st.norm_rand(step[1]), _vec(rr, f"rnorm({step[1]})")
        else:
            got = st.unif_index(step[1], 25) + 1
            want = _vec(rr, f"as.double(sample.int({step[1]!r}, 25, replace = TRUE))")
        if got is not None:
            assert np.array_equal(got, want), step
        assert np.array_equal(st.get_random_seed(), _vec(rr, ".Random.seed")), step
        assert list(st.kinds()) == list(rr.r("RNGkind()")), step
    # .Random.seed assignment keeps Box-Muller's saved value, as R does.
    rr.r('RNGkind("Wichmann-Hill", "Box-Muller"); set.seed(3); invisible(rnorm(1)); '
         's <- .Random.seed; invisible(runif(4)); .Random.seed <- s')
    st.set_seed(3, kind="Wichmann-Hill", normal_kind="Box-Muller")
    st.norm_rand(1)
    s = st.get_random_seed()
    st.unif_rand(4)
    st.set_random_seed(s)
    assert np.array_equal(st.norm_rand(3), _vec(rr, "rnorm(3)"))


def test_kind_state_warnings_and_errors():
    st = rk.KindState(1)
    with pytest.warns(RuntimeWarning, match="non-uniform 'Rounding' sampler used"):
        st.set_seed(1, sample_kind="Rounding")
    with pytest.warns(RuntimeWarning, match="buggy version of Kinderman-Ramage generator used"):
        st.rng_kind(normal_kind="Buggy Kinderman-Ramage")
    with pytest.raises(ValueError, match="is not allowed"):
        st.set_seed(1, normal_kind="Buggy Kinderman-Ramage")
    with pytest.warns(RuntimeWarning, match="Marsaglia-Multicarry has poor"):
        st.rng_kind("Marsaglia-Multicarry")
    with pytest.warns(RuntimeWarning, match="severe deviations"):
        st.rng_kind(normal_kind="Kinderman-Ramage")
    before = st.get_random_seed()
    with pytest.raises(ValueError, match="supplied seed is not a valid integer"):
        st.set_seed(2**31, kind="Wichmann-Hill")
    assert np.array_equal(st.get_random_seed(), before)  # nothing changed
    with pytest.raises(ValueError, match="not supported"):
        st.rng_kind("user-supplied")
    assert st.kinds() == ("Marsaglia-Multicarry", "Kinderman-Ramage", "Rounding")


def test_knuth_matrix_cycles_equal_the_recurrence():
    from pycalib_r._rng.bitgen import _knuth

    rs = np.random.default_rng(3)
    for cycles in (1, 2, 63, 64, 65, 200):
        state = rs.integers(0, 2**30, 100)
        assert np.array_equal(_knuth._lagged_fib(state, cycles),
                              _knuth._lagged_fib_direct(state, cycles)), cycles

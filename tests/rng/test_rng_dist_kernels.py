"""The compiled rexp/rgamma/rbeta/rpois (pycalib_r/_native/src/rng.c).

Kernels run on R's default stream from ``_dist_fast._KERNEL_MIN`` draws on;
their numpy twin (the block chains of ``_dists``/``_stream_dists``) below that
and without the library (``PYCALIB_R_NATIVE=0``). Both must give the same values and leave the stream at the
same place, and both equal R (``r_parity``, held-out seeds not used in the
other RNG tests, parameters at every algorithm switch point, recycled
parameter vectors, and calls in sequence, which is where R's C statics would
show if they were more than caches).
"""

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r._rng import RRandom
from pycalib_r._rng.stream import _dist_fast
from tests.rng.test_rng_dists import _r_numbers

KERNELS = _native.kernels("rng")
needs_kernels = pytest.mark.skipif(KERNELS is None, reason="compiled kernels unavailable")

HELD_OUT = [-31337, 0, 987654, 2**31 - 1]
N = 200_000

# (Python call, R code) with n = N; at and around each switch point.
CASES = [
    (lambda g: g.rexp(N), f"rexp({N})"),
    (lambda g: g.rexp(N, [1, 3, 0.25]), f"rexp({N}, c(1, 3, .25))"),
    (lambda g: g.rgamma(N, 0.01), f"rgamma({N}, .01)"),
    (lambda g: g.rgamma(N, 0.5), f"rgamma({N}, .5)"),
    (lambda g: g.rgamma(N, 1.0), f"rgamma({N}, 1)"),
    (lambda g: g.rgamma(N, 1.0000001, scale=3), f"rgamma({N}, 1.0000001, scale = 3)"),
    (lambda g: g.rgamma(N, 2.5, rate=0.7), f"rgamma({N}, 2.5, rate = .7)"),
    (lambda g: g.rgamma(N, 3.686), f"rgamma({N}, 3.686)"),
    (lambda g: g.rgamma(N, 13.022), f"rgamma({N}, 13.022)"),
    (lambda g: g.rgamma(N, 200), f"rgamma({N}, 200)"),
    (lambda g: g.rgamma(N, [0.5, 1, 1, 2.5, 7, 0.999, 20], [1, 2, 0.5]),
     f"rgamma({N}, c(.5, 1, 1, 2.5, 7, .999, 20), c(1, 2, .5))"),
    (lambda g: g.rchisq(N, 3), f"rchisq({N}, 3)"),
    (lambda g: g.rbeta(N, 2, 3), f"rbeta({N}, 2, 3)"),
    (lambda g: g.rbeta(N, 0.5, 0.5), f"rbeta({N}, .5, .5)"),
    (lambda g: g.rbeta(N, 1, 1), f"rbeta({N}, 1, 1)"),
    (lambda g: g.rbeta(N, 1.0000001, 4), f"rbeta({N}, 1.0000001, 4)"),
    (lambda g: g.rbeta(N, 5, 0.2), f"rbeta({N}, 5, .2)"),
    (lambda g: g.rbeta(N, 1e-3, 1e-3), f"rbeta({N}, 1e-3, 1e-3)"),
    (lambda g: g.rbeta(N, [0, 2, 0.3, 3, 1e-3], [0, 3, 0.3, 2, 2, 7, 1]),
     f"rbeta({N}, c(0, 2, .3, 3, 1e-3), c(0, 3, .3, 2, 2, 7, 1))"),
    (lambda g: g.rpois(N, 0.05), f"rpois({N}, .05)"),
    (lambda g: g.rpois(N, 4), f"rpois({N}, 4)"),
    (lambda g: g.rpois(N, 9.999999), f"rpois({N}, 9.999999)"),
    (lambda g: g.rpois(N, 10), f"rpois({N}, 10)"),
    (lambda g: g.rpois(N, 40), f"rpois({N}, 40)"),
    (lambda g: g.rpois(N, 1e6), f"rpois({N}, 1e6)"),
    (lambda g: g.rpois(N, [3, 12, 0.5, 10, 9.5, 40, 40, 2]),
     f"rpois({N}, c(3, 12, .5, 10, 9.5, 40, 40, 2))"),
]

# Calls in sequence on one stream, parameters coming back after others.
SEQUENCE = [
    (lambda g: g.rgamma(20000, 2), "rgamma(20000, 2)"),
    (lambda g: g.rgamma(20000, 0.5), "rgamma(20000, .5)"),
    (lambda g: g.rgamma(20000, 5), "rgamma(20000, 5)"),
    (lambda g: g.rgamma(20000, 2), "rgamma(20000, 2)"),
    (lambda g: g.rbeta(20000, 2, 3), "rbeta(20000, 2, 3)"),
    (lambda g: g.rbeta(20000, 3, 2), "rbeta(20000, 3, 2)"),
    (lambda g: g.rbeta(20000, 0.5, 3), "rbeta(20000, .5, 3)"),
    (lambda g: g.rbeta(20000, 2, 3), "rbeta(20000, 2, 3)"),
    (lambda g: g.rpois(20000, 5), "rpois(20000, 5)"),
    (lambda g: g.rpois(20000, 40), "rpois(20000, 40)"),
    (lambda g: g.rpois(20000, 5), "rpois(20000, 5)"),
    (lambda g: g.rpois(20000, 3), "rpois(20000, 3)"),
    (lambda g: g.rpois(20000, 40), "rpois(20000, 40)"),
    (lambda g: g.rexp(20000), "rexp(20000)"),
]


def _twin(monkeypatch):
    monkeypatch.setattr(_dist_fast, "_KERNEL_MIN", 1 << 62)


def _draw_both(monkeypatch, call, seed):
    g = RRandom(seed)
    fast = np.asarray(call(g), dtype=np.float64)
    fast_state = g.get_state()
    with monkeypatch.context() as m:
        _twin(m)
        h = RRandom(seed)
        slow = np.asarray(call(h), dtype=np.float64)
        slow_state = h.get_state()
    return fast, fast_state, slow, slow_state


@needs_kernels
@pytest.mark.parametrize("call,code", CASES, ids=[c for _, c in CASES])
def test_kernels_equal_the_twin(monkeypatch, call, code):
    fast, fs, slow, ss = _draw_both(monkeypatch, call, 20260)
    assert np.array_equal(fast, slow)
    assert np.array_equal(fs, ss)


@needs_kernels
def test_kernel_slices_keep_the_stream_and_the_recycling(monkeypatch):
    """Slicing (Ctrl-C points) neither loses draws nor misaligns recycled parameters."""
    monkeypatch.setattr(_dist_fast, "_SLICE", 4099)
    for call, _ in CASES[1::3]:
        fast, fs, slow, ss = _draw_both(monkeypatch, call, 5)
        assert np.array_equal(fast, slow)
        assert np.array_equal(fs, ss)


@needs_kernels
def test_interrupted_kernel_leaves_the_stream_after_its_draws(monkeypatch):
    monkeypatch.setattr(_dist_fast, "_SLICE", 30000)
    calls = []

    def fill(mt, w, st, a, scale, out):
        if calls:
            raise KeyboardInterrupt
        calls.append(out.size)
        KERNELS.gamma_fill(mt, w, st, a, scale, out)

    g = RRandom(8)
    with pytest.raises(KeyboardInterrupt):
        _dist_fast._run(g, fill, 100_000, 2.5, 1.0)
    ref = RRandom(8)
    ref.rgamma(30000, 2.5)
    assert np.array_equal(g.get_state(), ref.get_state())


def test_other_kinds_and_small_calls_keep_the_twin():
    assert _dist_fast.kernels_for(RRandom(1), _dist_fast._KERNEL_MIN - 1) is None
    other = RRandom(1, kind="Wichmann-Hill")
    assert _dist_fast.kernels_for(other, 10**7) is None
    boxm = RRandom(1, normal_kind="Box-Muller")
    assert _dist_fast.kernels_for(boxm, 10**7) is None


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", HELD_OUT)
@pytest.mark.parametrize("call,code", CASES, ids=[c for _, c in CASES])
def test_r_parity_large_calls(r, seed, call, code):
    g = RRandom(seed)
    ours = np.ma.filled(np.ma.asarray(call(g)).astype(np.float64), np.nan)  # R's NA: masked
    r.r(f"set.seed({seed})")
    theirs = _r_numbers(r, code)
    assert np.array_equal(ours, theirs)
    assert np.array_equal(g.get_state(), np.asarray(r.r(".Random.seed")))


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", HELD_OUT)
def test_r_parity_calls_in_sequence(r, seed):
    g = RRandom(seed)
    ours = np.concatenate([np.asarray(c(g), dtype=np.float64) for c, _ in SEQUENCE])
    r.r(f"set.seed({seed})")
    theirs = _r_numbers(r, "c(" + ", ".join(code for _, code in SEQUENCE) + ")")
    assert np.array_equal(ours, theirs)
    assert np.array_equal(g.get_state(), np.asarray(r.r(".Random.seed")))


@pytest.mark.r_parity
def test_r_parity_global_functions(r):
    import pycalib_r as pc

    if not all(hasattr(pc, f) for f in ("rgamma", "rpois", "rbeta", "rexp")):
        pytest.skip("the distributions are not exported as module functions")
    pc.set_seed(-31337)
    ours = np.concatenate([pc.rexp(30000), pc.rgamma(30000, 2.5), pc.rbeta(30000, 2, 3),
                           pc.rpois(30000, 40).astype(np.float64)])
    r.r("set.seed(-31337)")
    theirs = _r_numbers(r, "c(rexp(30000), rgamma(30000, 2.5), rbeta(30000, 2, 3), rpois(30000, 40))")
    assert np.array_equal(ours, theirs)
    assert np.array_equal(pc.get_random_seed(), np.asarray(r.r(".Random.seed")))

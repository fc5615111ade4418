"""Every C kernel of the rng room (``pycalib_r/_native/src/rng.c``) against its
numpy / Python twin, bit for bit, on adversarial inputs.

The twins are the oracle (they are held to R by tests/rng/test_rng_kernels.py,
tests/rng/test_rng_dist_kernels.py and the R parity tests): each case runs the
C kernel and the twin on the same stream and requires the same values *and*
the same stream state afterwards (R's loops stop at an exact word). Cases:
streams that start anywhere in a 624-word block (the last word, a try that
straddles two blocks), population sizes at every change of R_unif_index's
chunk count and mask (acceptance rates from 1 to just above 1/2), n = 1,
output types the loop does not write, weights with ties and zeros, and the
nmath samplers at every algorithm switch and at extreme parameters.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r._native import _manifest
from pycalib_r._rng import RRandom
from pycalib_r._rng.bitgen import _mt
from pycalib_r._rng.do_sample import _sample
from pycalib_r._rng.stream import _dist_fast

from tests.conftest import both_ways_of_the_native_switch

pytestmark = pytest.mark.skipif(not _native.available(),
                                reason="the C kernels are off (PYCALIB_R_NATIVE=0 or not built)")

# Words already read from the current block: the first, inside, the last ones.
OFFSETS = [0, 1, 400, 622, 623]
# R_unif_index's chunk count changes at 2^15, 2^31, 2^47; at 2^k + 1 the
# acceptance rate is just above 1/2, at 2^k it is 1.
DNS = [1.0, 2.0, 3.0, 5.7, 2.0**15 - 1, 2.0**15, 2.0**15 + 1, 2.0**16, 2.0**16 + 1,
       2.0**31 - 1, 2.0**31 + 1, 3e9 + 0.5, 2.0**47, 2.0**47 + 1, 2.0**48 + 1, 2.0**52 - 3]


def _stream(seed, offset):
    g = RRandom(seed)
    g.unif_rand(offset)
    return g


def _bits(x):
    return np.asarray(x, dtype=np.float64).view(np.int64)


@pytest.fixture
def twins(monkeypatch):
    """A callable that turns the C kernels off for the rest of the test."""
    return lambda: monkeypatch.setitem(_native._state, "lib", None)


def test_every_rng_kernel_is_in_the_manifest():
    k = _native.kernels("rng")
    listed = {f for room, f, *_ in _manifest.KERNELS if room == "rng"}
    assert listed and all(hasattr(k, f) for f in listed)
    assert listed == {n for n in vars(k) if not n.startswith("_") and callable(getattr(k, n))
                      and getattr(k, n).__module__ == k.__name__}


# --- the Mersenne-Twister block -----------------------------------------------------

@pytest.mark.parametrize("offset", OFFSETS + [624 * 3 + 5])
def test_blocks_equal_numpys_mt19937_words(offset):
    # temper_block and next_block against numpy's MT19937 itself, over four blocks.
    g = _stream(2**31 - 1, offset)
    k, mt, w, pos = _mt.kernel_words(g._bg)
    want = g._bg.random_raw(4 * 624)
    got = []
    for _ in range(4 * 624):
        if pos == 624:
            k.next_block(mt, w)
            pos = 0
        got.append(int(w[pos]))
        pos += 1
    assert np.array_equal(np.array(got, dtype=np.uint64), want)
    # the key written back stands where numpy's does
    h = _stream(2**31 - 1, offset)
    _mt.kernel_done(h._bg, mt, pos)
    assert np.array_equal(h._bg.random_raw(700), g._bg.random_raw(700))


# --- R_unif_index -------------------------------------------------------------------------

@pytest.mark.parametrize("dn", DNS)
def test_index_fill_equals_r_unif_index_one_at_a_time(dn):
    # The C loop on short and block-sized counts, from every kind of position,
    # against the Python cursor's R_unif_index (the scalar twin).
    bits = _mt._index_bits(dn)
    for count in (1, 2, 311, 624, 1249):
        for offset in OFFSETS:
            ref = _stream(17, offset)
            with _mt._Cursor(ref) as cur:
                want = [cur.unif_index(dn) + 3 for _ in range(count)]
            g = _stream(17, offset)
            out = np.empty(count, dtype=np.int64)
            k, mt, w, pos = _mt.kernel_words(g._bg)
            pos = k.index_fill(mt, w, pos, dn, bits, out, 3)
            _mt.kernel_done(g._bg, mt, pos)
            assert out.tolist() == want, (dn, count, offset)
            assert np.array_equal(g.get_state(), ref.get_state()), (dn, count, offset)


@pytest.mark.parametrize("dtype", [np.int32, np.int8, np.uint16, np.int64])
def test_index_fill_output_types(twins, dtype):
    # int32 is written by its own loop, other types through an int64 buffer;
    # a strided output too. Same values and state as the numpy passes.
    dn = 100.0 if np.dtype(dtype).itemsize == 1 else 30000.0
    results = []
    for off in (False, True):
        if off:
            twins()
        g = _stream(5, 311)
        full = np.zeros(2 * 50000, dtype=dtype)
        g._unif_index_fill(dn, full[::2], 1)
        g._unif_index_fill(dn, full[1::2][:20000], 0)
        results.append((full, g.get_state()))
    assert np.array_equal(results[0][0], results[1][0])
    assert np.array_equal(results[0][1], results[1][1])


def _both(twins, seed, offset, draw):
    g = _stream(seed, offset)
    va = np.asarray(draw(g))
    sa = g.get_state()
    twins()
    h = _stream(seed, offset)
    vb = np.asarray(draw(h))
    return va, vb, sa, h.get_state()


def _assert_same(twins, seed, offset, draw):
    va, vb, sa, sb = _both(twins, seed, offset, draw)
    assert va.dtype == vb.dtype
    assert np.array_equal(va, vb)
    assert np.array_equal(sa, sb)


@pytest.mark.parametrize("n,k", [(1, 1), (2, 2), (3, 3), (1024, 1024), (1025, 1025), (2**15 + 1, 2**15 + 1),
                                 (2**16, 40000), (5_000_000, 2000), (2**31 - 1, 5000)])
@pytest.mark.parametrize("offset", [0, 623])
def test_noreplace_equals_twin(monkeypatch, twins, n, k, offset):
    # Partial Fisher-Yates down to a population of 1 (every power of two on
    # the way), and a huge population (the dict path's twin).
    monkeypatch.setattr(_sample, "_NOREPLACE_KERNEL_MIN", 1)
    monkeypatch.setattr(_sample, "_NOREPLACE_POP_PER_DRAW", 10**12)
    monkeypatch.setattr(_sample, "_NOREPLACE_SLICE", 1000)
    _assert_same(twins, 7, offset, lambda g: g._draw_noreplace(float(n), k))


@pytest.mark.parametrize("dn,k", [(2.0, 1), (3.0, 2), (5.0, 5), (2048.0, 1024), (65537.0, 30000),
                                  (2.0**31 + 1, 20000), (2.0**52 - 3, 3000)])
def test_hash_equals_twin(monkeypatch, twins, dn, k):
    # sample2's rejection of repeats: k up to n (a repeat is drawn again
    # until the last value left comes up), and at R's largest n.
    monkeypatch.setattr(_sample, "_NOREPLACE_KERNEL_MIN", 1)
    _assert_same(twins, 11, 622, lambda g: g._draw_hash(dn, k))


def test_hash_keeps_rs_cap_of_100_redraws():
    # A set holding every value of 1..2: each try is a repeat; R keeps the
    # 100th. One slot per value is enough for probing to find each key.
    g, ref = RRandom(3), RRandom(3)
    with _mt._Cursor(ref) as cur:
        draws = [cur.unif_index(2.0) for _ in range(100)]
    table = np.array([1, 2], dtype=np.uint64)
    out = np.zeros(1, dtype=np.int64)
    k, mt, w, pos = _mt.kernel_words(g._bg)
    pos = k.hash_fill(mt, w, pos, 2.0, 1, table, 1, out, 0, 1)
    _mt.kernel_done(g._bg, mt, pos)
    assert out[0] == draws[-1] + 1
    assert np.array_equal(g.get_state(), ref.get_state())


# --- weighted samplers ------------------------------------------------------------------------

def _weights(n, kind, seed=0):
    g = np.random.default_rng(seed)
    if kind == "ties":
        return np.tile([1.0, 2.0, 3.0, 0.5, 2.0], n // 5 + 1)[:n]
    if kind == "equal":
        return np.ones(n)
    if kind == "zeros":
        p = g.random(n)
        p[::2] = 0.0
        return p
    if kind == "tiny":  # cut-offs just around 1 after the alias steps
        return np.r_[np.full(n - 1, 1.0 + 2.0**-52), 1.0]
    return g.random(n) + 1e-3


@pytest.mark.parametrize("kind", ["ties", "equal", "zeros", "tiny", "distinct"])
@pytest.mark.parametrize("n", [1, 2, 3, 7, 1000])
def test_revsort_and_alias_equal_the_python_loops(kind, n):
    k = _native.kernels("rng")
    p = _weights(n, kind)
    p = p / p.sum() if p.sum() else p
    av = np.concatenate(([0.0], p))
    ib = np.arange(n + 1, dtype=np.int64)
    k.revsort(av, ib)
    av_py, ib_py = [0.0] + p.tolist(), list(range(n + 1))
    _sample._revsort_heap(av_py, ib_py)
    assert np.array_equal(_bits(av), _bits(av_py)) and ib.tolist() == ib_py
    q = p * n
    a = np.arange(n, dtype=np.int64)
    k.walker_alias(q, np.zeros(n, dtype=np.int64), a, n)
    q_py, a_py = (p * n).tolist(), list(range(n))
    _sample._walker_alias(q_py, [0] * n, a_py, n)
    assert np.array_equal(_bits(q), _bits(q_py)) and a.tolist() == a_py


@pytest.mark.parametrize("kind", ["ties", "equal", "zeros", "distinct"])
@pytest.mark.parametrize("replace", [True, False])
def test_weighted_sampling_equals_twin(monkeypatch, twins, kind, replace):
    # Walker (n p > 0.1 for more than 200 items) or inversion with
    # replacement; ProbSampleNoReplace without, in slices of a few draws.
    monkeypatch.setattr(_sample, "_WEIGHTED_KERNEL_MIN", 1)
    monkeypatch.setattr(_sample, "_WEIGHTED_SLICE_WORK", 3 * 2000)
    monkeypatch.setattr(_sample, "_NOREPLACE_SLICE", 777)
    p = _weights(2000, kind, 3)
    k = 5000 if replace else int(np.count_nonzero(p))
    _assert_same(twins, 2, 623, lambda g: g.sample_int(2000, k, replace, p))


def test_walker_with_one_item_and_two(monkeypatch, twins):
    monkeypatch.setattr(_sample, "_WEIGHTED_KERNEL_MIN", 1)
    monkeypatch.setattr(_sample, "_NOREPLACE_KERNEL_MIN", 1)
    for n, k in ((1, 300), (2, 3)):
        def draw(g, n=n, k=k):
            return g._walker(n, np.full(n, 1.0 / n), k)
        _assert_same(twins, 9, 0, draw)


# --- nmath samplers ---------------------------------------------------------------------------

def _dists_both(monkeypatch, twins, call, seed=20261, offset=0):
    monkeypatch.setattr(_dist_fast, "_KERNEL_MIN", 1)
    monkeypatch.setattr(_dist_fast, "_SLICE", 4099)
    g = _stream(seed, offset)
    fast = np.asarray(call(g), dtype=np.float64)
    fs = g.get_state()
    monkeypatch.setattr(_dist_fast, "_KERNEL_MIN", 1 << 62)
    h = _stream(seed, offset)
    slow = np.asarray(call(h), dtype=np.float64)
    assert np.array_equal(_bits(fast), _bits(slow))
    assert np.array_equal(fs, h.get_state())


N = 6000
DIST_CASES = {
    "rexp": lambda g: g.rexp(N),
    "rexp_n1": lambda g: g.rexp(1),
    "rgamma_tiny": lambda g: g.rgamma(N, 1e-300),
    "rgamma_small": lambda g: g.rgamma(N, 1e-8, scale=1e300),
    "rgamma_below_1": lambda g: g.rgamma(N, 1 - 2**-52),
    "rgamma_1": lambda g: g.rgamma(N, 1.0, scale=1e-300),
    "rgamma_switches": lambda g: g.rgamma(N, [1 + 2**-52, 3.686, np.nextafter(3.686, 4), 13.022,
                                            np.nextafter(13.022, 14), 0.5, 0.5, 1e12]),
    "rgamma_n1": lambda g: g.rgamma(1, 2.5),
    "rchisq": lambda g: g.rchisq(N, 1e-3),
    "rbeta_bc": lambda g: g.rbeta(N, 1e-3, 5e-3),
    "rbeta_bb": lambda g: g.rbeta(N, 1 + 2**-52, 1e6),
    "rbeta_mixed": lambda g: g.rbeta(N, [0, 1, 1e-5, 3, 0.5, 40], [0, 1, 2, 1e-5, 0.5, 40, 3]),
    "rbeta_huge": lambda g: g.rbeta(N, 1e8, 1e-8),
    "rpois_tiny": lambda g: g.rpois(N, 1e-12),
    "rpois_switch": lambda g: g.rpois(N, [np.nextafter(10.0, 0), 10.0, np.nextafter(10.0, 11), 9.5, 10.5]),
    "rpois_big": lambda g: g.rpois(N, 1e12),
    "rpois_mixed": lambda g: g.rpois(N, [3.0, 12.0, 3.0, 40.0, 40.0, 0.05, 1e6]),
}


@pytest.mark.parametrize("case", sorted(DIST_CASES))
@pytest.mark.parametrize("offset", [0, 623])
def test_nmath_samplers_equal_the_twin(monkeypatch, twins, case, offset):
    with np.errstate(all="ignore"):
        _dists_both(monkeypatch, twins, DIST_CASES[case], offset=offset)


def test_nmath_kernels_refuse_arrays_they_would_misread():
    k = _native.kernels("rng")
    g = RRandom(1)
    _, mt, w, pos = _mt.kernel_words(g._bg)
    st = np.array([pos], dtype=np.int64)
    with pytest.raises(TypeError):
        k.gamma_fill(mt, w, st, np.ones(1, dtype=np.float32), np.ones(1), np.empty(5))
    with pytest.raises(ValueError):
        k.gamma_fill(mt, w, st, np.ones(3), np.ones(1), np.empty(5))
    with pytest.raises(TypeError):
        k.exp_fill(mt, w, st, np.empty(10)[::2])


# --- both ways of the switch, threads ------------------------------------------------------

_CALLS = ("import numpy as np; from pycalib_r._rng import RRandom; from pycalib_r import _native;"
          "g = RRandom(-5); v = [g.sample_int(200000, 100000, True), g.sample_int(70000),"
          " g.sample_int(3000, 2000, False, np.arange(1, 3001.0)),"
          " g.sample_int(5000, 50000, True, np.arange(1, 5001.0)), g.sample_int(1e9, 30000),"
          " g.rexp(50000), g.rgamma(50000, 0.7), g.rgamma(50000, 4.0), g.rbeta(50000, 0.5, 2.0),"
          " g.rbeta(50000, 2.0, 3.0), g.rpois(50000, 3.0), g.rpois(50000, 45.0)];"
          "import hashlib; h = hashlib.sha256();"
          "[h.update(np.asarray(a, dtype=np.float64).tobytes()) for a in v];"
          "print(_native.available(), h.hexdigest(),"
          " int(g.get_state().sum()))")


def test_switch_off_gives_the_same_draws_in_a_fresh_process():
    out = both_ways_of_the_native_switch(_CALLS)
    assert out["0"][0] == "False" and out[None][0] == "True"
    assert out["0"][1:] == out[None][1:]


def test_kernels_run_in_threads_with_the_sequential_results():
    # ctypes releases the GIL: streams in threads give each stream's own draws.
    def work(seed):
        g = RRandom(seed)
        return np.concatenate([g.sample_int(300000).astype(np.float64), g.rgamma(100000, 2.5)])

    want = {s: work(s) for s in range(4)}
    got = {}
    threads = [threading.Thread(target=lambda s=s: got.__setitem__(s, work(s))) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in range(4):
        assert np.array_equal(_bits(got[s]), _bits(want[s]))

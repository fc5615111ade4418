"""The compiled Mersenne-Twister samplers against their numpy / Python twins and R.

Every compiled sampler (``pycalib_r/_native/src/rng.c``) has a twin that
runs without the library (``PYCALIB_R_NATIVE=0``). The pure tests here draw the same
calls both ways in one process (the twin by switching ``pycalib_r._native`` off)
and require equal values *and* an equal stream state afterwards (R's
``.Random.seed``): R's loops stop at an exact word, so a sampler that reads one
word too many or too few is wrong even when its values are right. The cases
cover the population sizes where ``R_unif_index`` changes its number of 16-bit
chunks or its mask, sizes around the kernel thresholds and slices, and streams
that start anywhere inside a 624-word block. The ``r_parity`` tests compare
large kernel draws with R itself through rpy2.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r._rng import RRandom
from pycalib_r._rng.bitgen import _mt
from pycalib_r._rng.do_sample import _sample
from pycalib_r.calibrators._cv import stratified_folds

from tests.conftest import ORIGINAL_ENV, REPO, r_assign

pytestmark = pytest.mark.skipif(
    not _native.available(),
    reason="compiled kernels are off (PYCALIB_R_NATIVE=0 or not built): only the twins run")

SEEDS = [1, -702339211, 2**31 - 1]
# Population sizes: R_unif_index's chunk count changes at 2^15, 2^31, 2^47;
# powers of two +- 1 move the mask and the acceptance rate from ~1 to ~1/2.
NS = [1.0, 2.0, 3.0, 5.7, 2.0**15 - 1, 2.0**15, 2.0**15 + 1, 2.0**16 - 1, 2.0**16,
      2.0**16 + 1, 100000.0, 2.0**31 - 1, 2.0**31, 3e9 + 0.5, 2.0**40 + 5, 2.0**48 + 1,
      2.0**52 - 3]
# Words already read from the current block before the call.
OFFSETS = [0, 1, 311, 622, 623]


@contextlib.contextmanager
def twin():
    """Compiled kernels off, as under ``PYCALIB_R_NATIVE=0``."""
    saved = _native._state["lib"]
    _native._state["lib"] = None
    try:
        yield
    finally:
        _native._state["lib"] = saved


def _stream(seed, offset):
    g = RRandom(seed)
    g.unif_rand(offset)
    return g


def _both(seed, offset, draw):
    """``draw(stream)`` with the kernels and with the twin: (values, states) pairs."""
    a = _stream(seed, offset)
    va = draw(a)
    with twin():
        b = _stream(seed, offset)
        vb = draw(b)
    return va, vb, a.get_state(), b.get_state()


def _assert_same(seed, offset, draw, what):
    va, vb, sa, sb = _both(seed, offset, draw)
    assert va.dtype == vb.dtype, what
    assert np.array_equal(va, vb), what
    assert np.array_equal(sa, sb), what


def _fill(dn, count, dtype=np.int64, offset=0):
    return lambda g: g._unif_index_fill(dn, np.empty(count, dtype=dtype), offset)


# --- R_unif_index with replacement (index_fill) -------------------------------------------

@pytest.mark.parametrize("dn", NS)
def test_index_fill_equals_twin(dn):
    # 17 n x 4 sizes x 5 offsets x 3 seeds = 1020 cases.
    km = _sample._KERNEL_MIN
    for count in (km, km + 1, 20000, 2 * km + 311):
        for offset in OFFSETS:
            for seed in SEEDS:
                _assert_same(seed, offset, _fill(dn, count), (dn, count, offset, seed))


@pytest.mark.parametrize("dn", NS)
def test_index_fill_short_calls_equal_the_scalar_loop(monkeypatch, dn):
    # The kernel on a handful of values (its block-ending branch), against
    # R_unif_index one value at a time: 17 n x 8 sizes x 5 offsets = 680 cases.
    monkeypatch.setattr(_sample, "_KERNEL_MIN", 1)
    for count in (1, 2, 3, 311, 623, 624, 625, 1249):
        for offset in OFFSETS:
            ref = _stream(5, offset)
            with _mt._Cursor(ref) as cur:
                expected = [cur.unif_index(dn) for _ in range(count)]
            g = _stream(5, offset)
            got = _fill(dn, count)(g)
            assert got.tolist() == expected, (dn, count, offset)
            assert np.array_equal(g.get_state(), ref.get_state()), (dn, count, offset)


@pytest.mark.parametrize("slice_", [1000, 4099])
def test_index_fill_slices_and_types(monkeypatch, slice_):
    # Slices hand the block and position on; int32 outputs and offsets.
    monkeypatch.setattr(_sample, "_KERNEL_SLICE", slice_)
    for dn in (2.0, 37.0, 65537.0, 2.0**31 - 1, 3e9 + 0.5):
        dtype = np.int32 if dn < 2**31 - 1 else np.int64
        for count in (16384, 50001):
            _assert_same(42, 7, _fill(dn, count, dtype, 1), (slice_, dn, count))
    _assert_same(3, 0, lambda g: g.sample_int_replace(100000, 5000, 7), slice_)


def test_index_fill_interrupted_leaves_the_stream_after_the_values(monkeypatch):
    # A KeyboardInterrupt between two slices: the stream stands after the
    # values of the finished slice, as if R had drawn exactly those.
    kern = _native.kernels("rng")
    real = kern.index_fill
    calls = []

    def once_then_interrupt(*args):
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(_sample, "_KERNEL_SLICE", 20000)
    monkeypatch.setattr(kern, "index_fill", once_then_interrupt)
    g = RRandom(9)
    out = np.empty(50000, dtype=np.int64)
    with pytest.raises(KeyboardInterrupt):
        g._unif_index_fill(100000.0, out, 1)
    monkeypatch.setattr(kern, "index_fill", real)
    with twin():
        ref = RRandom(9)
        expected = ref._unif_index_bulk(100000.0, 20000, 1)
    assert np.array_equal(out[:20000], expected)
    assert np.array_equal(g.get_state(), ref.get_state())


# --- partial Fisher-Yates without replacement (noreplace_fill) ----------------------------

def _noreplace(n, k):
    return lambda g: g._draw_noreplace(float(n), k)


@pytest.mark.parametrize("n", [1024, 1025, 2**15 - 1, 2**15 + 1, 2**16, 2**16 + 1, 100000])
def test_noreplace_equals_twin(n):
    # n x {all, half, threshold} x 3 offsets x 3 seeds; k = n runs R_unif_index
    # down through every power of two, to n = 1.
    kmin = _sample._NOREPLACE_KERNEL_MIN
    for k in sorted({n, n // 2 + 1, kmin}):
        for offset in (0, 311, 623):
            for seed in SEEDS:
                _assert_same(seed, offset, _noreplace(n, k), (n, k, offset, seed))


def test_noreplace_slices_small_and_large_populations(monkeypatch):
    monkeypatch.setattr(_sample, "_NOREPLACE_SLICE", 777)
    monkeypatch.setattr(_sample, "_NOREPLACE_KERNEL_MIN", 2)
    monkeypatch.setattr(_sample, "_NOREPLACE_POP_PER_DRAW", 10**12)  # large populations in C too
    for n, k in [(2, 2), (3, 2), (3, 3), (17, 17), (4096, 4096), (4097, 3000),
                 (2**20 + 3, 5000), (10_000_000, 2000)]:
        for seed in SEEDS:
            _assert_same(seed, 100, _noreplace(n, k), (n, k, seed))


def test_noreplace_sparse_huge_population_keeps_the_dict(monkeypatch):
    # n above the array limit with a small sample: no O(n) array (the dict
    # path), same values as the twin either way.
    monkeypatch.setattr(_sample, "_NOREPLACE_ARRAY_MAX", 50_000)
    called = []
    real = _sample.SamplingMixin._noreplace_kernel
    monkeypatch.setattr(_sample.SamplingMixin, "_noreplace_kernel",
                        lambda self, n, k: called.append(n) or real(self, n, k))
    _assert_same(1, 0, _noreplace(2**31 - 1, 3000), "sparse")
    _assert_same(1, 0, _noreplace(100_000, 20_000), "dense")
    assert called == [100_000]


# --- sample2's hash rejection (hash_fill) --------------------------------------------------

@pytest.mark.parametrize("dn", [2048.0, 4097.0, 40961.5, 2e7, 1e8, 2.0**31 - 1, 3e9 + 0.5,
                                2.0**40 + 5, 2.0**52 - 3])
def test_hash_equals_twin(dn):
    # 9 n x 3 sizes (up to n/2: many redraws) x 3 offsets x 3 seeds.
    for k in sorted({_sample._NOREPLACE_KERNEL_MIN, min(5000, int(dn // 2)), min(int(dn // 2), 20000)}):
        for offset in (0, 311, 623):
            for seed in SEEDS:
                _assert_same(seed, offset, lambda g: g._draw_hash(dn, k), (dn, k, offset, seed))


def test_hash_slices(monkeypatch):
    monkeypatch.setattr(_sample, "_NOREPLACE_SLICE", 1000)
    for dn, k in [(1e8, 30000), (6000.0, 3000)]:
        for seed in SEEDS:
            _assert_same(seed, 5, lambda g: g.sample_int(dn, k, useHash=True), (dn, k, seed))


def test_hash_keeps_rs_cap_of_100_redraws():
    # R draws a repeat again at most 100 times, then keeps it. A set that
    # already holds every value of 1..4 makes every try a repeat: the kernel
    # must read exactly 100 R_unif_index(4) and keep the last.
    kern = _native.kernels("rng")
    g = RRandom(77)
    ref = RRandom(77)
    with _mt._Cursor(ref) as cur:
        draws = [cur.unif_index(4.0) for _ in range(100)]
    # A full set of four slots: probing finds every key, wherever it starts.
    table = np.array([1, 2, 3, 4], dtype=np.uint64)
    out = np.zeros(1, dtype=np.int64)
    _, mt, w, pos = _mt.kernel_words(g._bg)
    pos = kern.hash_fill(mt, w, pos, 4.0, 2, table, 2, out, 0, 1)
    _mt.kernel_done(g._bg, mt, pos)
    assert out[0] == draws[-1] + 1
    assert np.array_equal(g.get_state(), ref.get_state())


# --- weighted samplers (walker_fill, walker_table, prob_noreplace, revsort) ------------------

def _weights(n, kind):
    rs = np.random.default_rng(n)
    if kind == "distinct":
        return rs.random(n) + 0.01
    if kind == "ties":  # revsort's heapsort decides the order of equal weights
        return np.tile([1.0, 2.0, 3.0, 0.5], n // 4 + 1)[:n]
    if kind == "zeros":
        p = rs.random(n)
        p[::3] = 0.0
        return p
    return np.r_[np.full(n - 150, 1e-9), np.ones(150)]  # "skewed": inversion, not Walker


def _weighted(n, k, replace, p):
    return lambda g: g.sample_int(n, k, replace, p)


@pytest.mark.parametrize("kind", ["distinct", "ties", "zeros", "skewed"])
def test_weighted_with_replacement_equals_twin(kind):
    # Walker's alias method (more than 200 of n p > 0.1) or inversion on
    # revsorted weights: 4 kinds x 4 n x 3 k x 2 offsets x 3 seeds.
    for n in (1024, 1025, 5000, 70000):
        p = _weights(n, kind)
        for k in (1, 1000, 50000):
            for offset in (0, 623):
                for seed in SEEDS:
                    _assert_same(seed, offset, _weighted(n, k, True, p), (kind, n, k, seed))


@pytest.mark.parametrize("kind", ["distinct", "ties", "zeros"])
def test_weighted_without_replacement_equals_twin(kind):
    for n in (1024, 3001):
        p = _weights(n, kind)
        npos = int(np.count_nonzero(p))
        for k in (1, 2, 500, npos):
            for seed in SEEDS:
                _assert_same(seed, 311, _weighted(n, k, False, p), (kind, n, k, seed))


def test_weighted_without_replacement_slices(monkeypatch):
    # Slices of a few draws hand the running total and the shrunk arrays on.
    monkeypatch.setattr(_sample, "_WEIGHTED_SLICE_WORK", 7 * 3001)
    for kind in ("distinct", "ties"):
        p = _weights(3001, kind)
        _assert_same(4, 0, _weighted(3001, 2000, False, p), kind)


def test_walker_slices_and_other_kinds(monkeypatch):
    monkeypatch.setattr(_sample, "_NOREPLACE_SLICE", 999)
    p = _weights(5000, "ties")
    _assert_same(2, 0, _weighted(5000, 20000, True, p), "slices")
    # Another kind: the table is compiled, the draws come from the kind's cursor.
    for sample_kind in ("Rejection", "Rounding"):
        def draw(g, sample_kind=sample_kind):
            with warnings.catch_warnings():  # R's warnings on these kinds
                warnings.simplefilter("ignore", RuntimeWarning)
                g.rng_kind("Marsaglia-Multicarry", sample_kind=sample_kind)
            return g.sample_int(5000, 3000, True, p)
        _assert_same(2, 0, draw, sample_kind)


def test_sample_int_and_folds_use_the_kernel_bit_identically():
    for seed in SEEDS:
        _assert_same(seed, 0, lambda g: g.sample_int(100000), seed)
        _assert_same(seed, 0, lambda g: g.sample_int(70000, 6000), seed)
        _assert_same(seed, 0, lambda g: g.sample_int(1e7, 20000, useHash=False), seed)
    y = (np.random.default_rng(4).random(100_000) < 0.3).astype(np.int64)
    folds = stratified_folds(y, 5, seed=11)
    with twin():
        assert np.array_equal(stratified_folds(y, 5, seed=11), folds)


def test_other_kinds_never_use_the_kernels():
    # Under another RNG kind the words do not come from _bg's MT19937.
    g = RRandom(1)
    g.rng_kind("Wichmann-Hill")
    with twin():
        h = RRandom(1)
        h.rng_kind("Wichmann-Hill")
        expected = h.sample_int(50000)
    assert np.array_equal(g.sample_int(50000), expected)
    assert np.array_equal(g.get_state(), h.get_state())


def test_bits_carried_by_the_kernel_are_glibc_log2():
    # noreplace_fill lowers ceil(log2(n)) by one when n reaches a power of
    # two instead of calling log2: the same as glibc's for every n < 2^31.
    for b in range(1, 32):
        for n in (2**b - 1, 2**b, 2**b + 1):
            assert _mt._index_bits(float(n)) == (n - 1).bit_length(), n


def test_first_calls_use_the_library_without_loading_numba():
    # The compiled samplers come from the library built at install: a fresh
    # process's first large call runs compiled, and numba is never imported.
    code = ("import sys; from pycalib_r._rng import RRandom; from pycalib_r import _native;"
            "g = RRandom(1); g.sample_int(1000000); print(_native.available(),"
            " 'numba' in sys.modules, _native._modules.get('rng') is not None)")
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO))
    env.pop("PYCALIB_R_NATIVE", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "False", "True"]


def test_environment_switch_runs_the_twin():
    code = ("import numpy as np; from pycalib_r import _native; from pycalib_r._rng import RRandom;"
            "g = RRandom(3); v = g.sample_int(100000, 100000, True);"
            "w = g.sample_int(60000);"
            "print(_native.available(), int(v.sum()), int((w * np.arange(60000)).sum()),"
            " int(g.get_state().sum()))")
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), PYCALIB_R_NATIVE="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    g = RRandom(3)
    v = g.sample_int(100000, 100000, True)
    w = g.sample_int(60000)
    assert out == ["False", str(int(v.sum())), str(int((w * np.arange(60000)).sum())),
                   str(int(g.get_state().sum()))]


# --- R parity (bit for bit, through rpy2) ---------------------------------------------------

def _same_as_r(r, g, values, code, seed):
    r.r(f"set.seed({seed})")
    rv = np.asarray(r.r(code))
    assert np.array_equal(np.asarray(values, dtype=np.float64), rv.astype(np.float64)), code
    assert np.array_equal(g.get_state(), np.asarray(r.r(".Random.seed"))), code


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", SEEDS)
def test_r_kernel_draws_parity(r, seed):
    cases = [
        (lambda g: g.sample_int(100000, 1_000_000, True), "sample.int(100000, 1e6, TRUE)"),
        (lambda g: g.sample_int_replace(100000, 100000, 3).ravel(),
         "c(replicate(3, sample.int(100000, 100000, TRUE)))"),
        (lambda g: g.sample_int(2**31 - 1, 50000, True), "sample.int(2^31 - 1, 50000, TRUE)"),
        (lambda g: g.sample_int(3e9, 50000, True), "sample.int(3e9, 50000, TRUE)"),
        (lambda g: g.sample_int(100000), "sample.int(100000)"),
        (lambda g: g.sample_int(65537, 65537), "sample.int(65537, 65537)"),
        (lambda g: g.sample_int(1e7, 1_000_000), "sample.int(1e7, 1e6)"),
        (lambda g: g.sample_int(1e6, 600_000), "sample.int(1e6, 6e5)"),
        (lambda g: g.sample_int(1e8, 1_000_000), "sample.int(1e8, 1e6)"),
        (lambda g: g.sample_int(3e9, 100_000), "sample.int(3e9, 1e5)"),
        (lambda g: g.sample_int(60001, 30000, useHash=True),
         "sample.int(60001, 30000, useHash = TRUE)"),
        # Walker's alias method, inversion with ties, sequential without replacement
        (lambda g: g.sample_int(100000, 1_000_000, True, np.arange(1, 100001.0)),
         "sample.int(100000, 1e6, TRUE, 1:100000)"),
        (lambda g: g.sample_int(100000, 200000, True, np.r_[np.ones(150), np.full(99850, 1e-9)]),
         "sample.int(100000, 2e5, TRUE, c(rep(1, 150), rep(1e-9, 99850)))"),
        (lambda g: g.sample_int(10000, 5000, False, np.tile([1.0, 2.0, 3.0, 0.5], 2500)),
         "sample.int(10000, 5000, FALSE, rep(c(1, 2, 3, 0.5), 2500))"),
    ]
    for draw, code in cases:
        g = RRandom(seed)
        _same_as_r(r, g, draw(g), code, seed)


@pytest.mark.r_parity
def test_r_stratified_folds_parity(probcal_r):
    # cal_cv's folds at n = 100,000 (two classes of ~50,000 rows: two kernel
    # permutations) against probcal's own stratified_folds.
    y = (np.random.default_rng(8).random(100_000) < 0.45).astype(np.int64)
    r_assign(probcal_r, yk_=y)
    for seed in (1, 2024):
        expected = np.asarray(probcal_r.r(f"probcal:::stratified_folds(yk_, 5L, {seed})"))
        assert np.array_equal(stratified_folds(y, 5, seed=seed), expected)

"""The compiled binned kernels (pycalib_r/_native/src/binned.c) against their
numpy twins, bit for bit, on adversarial inputs.

The twin is the oracle: ``_rbins._bin_means_numpy`` (numpy ``longdouble``
sums of each bin's run, in the order of the observations) over the bins of
``_binning.equal_width_bins`` / ``find_bins``. Every case compares the
counts, and the means' bits (NaN where a bin is empty, the sign of zero
included). Under ``PYCALIB_R_NATIVE=0`` the C side is off and these tests
skip; the public paths (tests/binned/test_rbins.py) then run the twins.
"""

from __future__ import annotations

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r.binned import _rbins
from pycalib_r.binned._binning import equal_width_bins, find_bins
from pycalib_r.rbase._rarith import _X87

pytestmark = pytest.mark.skipif(not _X87, reason="the compiled binned kernels need x87 long double")


@pytest.fixture(scope="module")
def kern():
    k = _native.kernels("binned")
    if k is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    return k


def _bits(a):
    a = np.asarray(a, dtype=np.float64)
    return np.where(np.isnan(a), np.nan, a).view(np.int64)


def _same(got, want):
    counts, conf, acc = got
    assert np.array_equal(counts, want[0])
    # Bit for bit, signed zeros included (NaNs all alike: empty bins).
    assert np.array_equal(_bits(conf), _bits(want[1]))
    assert np.array_equal(_bits(acc), _bits(want[2]))


def _out(n_ids, rows=None):
    shape = (n_ids,) if rows is None else (rows, n_ids)
    return np.empty(shape, np.int64), np.empty(shape), np.empty(shape)


def _values(g, n):
    """Values in [0, 1] with what makes long-double sums and bins hard."""
    x = g.random(n)
    kind = g.integers(0, 8, n)
    x[kind == 0] = np.round(x[kind == 0], 1)  # ties; sums whose 80-bit rounding matters
    x[kind == 1] = 0.1
    x[kind == 2] = 0.0
    x[kind == 3] = 1.0
    x[kind == 4] = 5e-324  # subnormal
    x[kind == 5] = np.nextafter(1.0, 0)
    return x


def _given_cases(seed=3):
    g = np.random.default_rng(seed)
    sizes = [(1, 1), (1, 5), (2, 1), (3, 3), (7, 40), (50, 5), (64, 8), (100, 13), (400, 50), (1000, 600),
             (3000, 20), (5000, 3000)]
    for n, n_ids in sizes:
        x = _values(g, n)
        ids = g.integers(0, n_ids, n)
        if n_ids > 2:
            ids[ids == 1] = 0  # an empty bin
        c = g.integers(0, 2, n)
        yield ids, x, c, n_ids


def test_bin_means_is_the_twin(kern):
    # Dense bins (with and without the interleaved histogram), sparse bins
    # (bin by bin, singletons), empty bins, n = 1; all rows and a resample.
    g = np.random.default_rng(4)
    for ids, x, c, n_ids in _given_cases():
        for idx in (np.empty(0, np.int64), g.integers(0, x.size, x.size), g.integers(0, x.size, 2 * x.size + 1)):
            out = _out(n_ids)
            kern.bin_means(ids, x, c, idx, n_ids, *out)
            sel = slice(None) if idx.size == 0 else idx
            _same(out, _rbins._bin_means_numpy(ids[sel], x[sel], c[sel], n_ids))


def test_bin_means_signed_zero_nan_and_subnormals(kern):
    # A bin of -0.0 alone is +0.0 (R's sum from 0), a bin of -0.0's too; a
    # NaN makes its bin's mean NaN; subnormal sums are exact in 80 bits.
    x = np.array([-0.0, 0.3, np.nan, 5e-324, 5e-324, -0.0, -0.0, 0.7, 0.7, 0.1])
    ids = np.array([0, 1, 2, 3, 3, 4, 4, 5, 5, 5])
    c = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1])
    for n_ids in (6, 9):
        for idx in (np.empty(0, np.int64), np.array([9, 0, 0, 2, 3, 5, 6, 7, 8, 8, 1])):
            out = _out(n_ids)
            kern.bin_means(ids, x, c, idx, n_ids, *out)
            sel = slice(None) if idx.size == 0 else idx
            _same(out, _rbins._bin_means_numpy(ids[sel], x[sel], c[sel], n_ids))
            if idx.size == 0:
                assert out[1][0] == 0.0 and not np.signbit(out[1][0])
                assert np.isnan(out[1][2])


def test_bin_means_rows_is_the_twin(kern):
    # Resamples as rows, 0- and 1-based, int32 and int64 draws, one row of
    # bins shared or one per resample.
    g = np.random.default_rng(5)
    for ids, x, c, n_ids in _given_cases(seed=6):
        n = x.size
        draws = g.integers(0, n, (5, n))
        for idx, base in ((draws, 0), ((draws + 1).astype(np.int32), 1), (draws + 1, 1)):
            for per_row in (False, True):
                rid = g.integers(0, n_ids, (5, n)) if per_row else ids
                out = _out(n_ids, 5)
                kern.bin_means_rows(rid, x, c, idx, n_ids, *out, base)
                for r in range(5):
                    row_ids = rid[r] if per_row else ids
                    d = draws[r]
                    want = _rbins._bin_means_numpy(row_ids[d], x[d], c[d], n_ids)
                    _same(tuple(o[r] for o in out), want)


def _edge_values(g, bins, n):
    # Every inner edge as R's seq() rounds it and its neighbours one ulp
    # away, the quotients k / bins, 0, 1 and a subnormal.
    x = _values(g, n)
    if bins > 1:
        k = g.integers(1, bins, 300)
        e = k * (1.0 / bins)
        x = np.concatenate([x, e, np.nextafter(e, 0), np.nextafter(e, 1), k / bins])
    x = np.clip(x, 0.0, 1.0)
    g.shuffle(x)
    return x


def test_width_means_is_the_twin(kern):
    g = np.random.default_rng(7)
    for bins in (1, 2, 3, 7, 10, 15, 64, 100, 1000, 4097, 65535, 1 << 16):
        for n in (1, 2, 37, 5000):
            x = _edge_values(g, bins, n)
            c = g.integers(0, 2, x.size)
            want = _rbins._bin_means_numpy(equal_width_bins(x, bins), x, c, bins)
            out = _out(bins)
            kern.width_means(x, c, 1, bins, *out)
            _same(out, want)
            # The caller's whole-input buffers (dirty), and class codes
            # with a class's label.
            out = _out(bins)
            kern.width_means(x, 2 * c + 3, 5, bins, *out, kern._KEEP_COUNTS, np.full(x.size + 3, np.nan),
                             np.full(x.size + 3, 7, np.uint16))
            _same(out, want)


def test_width_means_across_chunks(kern):
    # Beyond _WHOLE observations the kernel goes a chunk at a time (65,536),
    # carrying each bin's 80-bit sums across chunks: a bin's run split by
    # every chunk boundary, kept and recounted second sweeps.
    g = np.random.default_rng(8)
    n = kern._WHOLE + 1
    x = np.round(g.random(n), 2)
    x[: n // 3] = 0.1
    x[(1 << 16) - 2:(1 << 16) + 2] = 0.35  # one bin across the first boundary
    x[-1] = 1.0
    c = g.integers(0, 2, n)
    for bins in (7, 10):
        want = _rbins._bin_means_numpy(equal_width_bins(x, bins), x, c, bins)
        for keep_max in (kern._KEEP_COUNTS, 0):
            out = _out(bins)
            kern.width_means(x, c, 1, bins, *out, keep_max)
            _same(out, want)


def test_edge_means_is_the_twin(kern):
    # Few edges (counted) and many (binary search over a padded copy);
    # values on the edges, below the first and above the last.
    g = np.random.default_rng(9)
    for nb in (1, 2, 5, 31, 32, 33, 100, 5000):
        x = _values(g, 3000)
        inner = np.sort(g.random(nb - 1))
        for edges in (np.linspace(0, 1, nb + 1), np.concatenate(([0.0], inner, [1.0])),
                      np.concatenate(([0.2], inner * 0.5 + 0.2, [0.7]))):
            xs = np.concatenate([x, edges, np.nextafter(edges, -1), np.nextafter(edges, 2)])
            c = g.integers(0, 2, xs.size)
            want = _rbins._bin_means_numpy(find_bins(xs, edges), xs, c, edges.size - 1)
            out = _out(edges.size - 1)
            kern.edge_means(xs, c, 1, edges, *out)
            _same(out, want)


def _matrix(g, n, k):
    p = g.dirichlet(np.ones(k), n)
    p[::7, 0] = 0.1
    p[::11, 1] = np.round(p[::11, 1], 1)
    p[::13, :] = 0.0
    p[::13, 0] = 1.0  # rows of 1 and 0's: values on the first and last edges
    return p


def test_width_means_cols_is_each_column_twin(kern):
    # The chunked matrix path (with and without the store, kept or
    # recounted counts) and the whole-column path (many bins), on matrices
    # with 1 row, with rows across chunk boundaries, and labels outside
    # 1..K (counted nowhere).
    g = np.random.default_rng(10)
    for n, k, bins in ((1, 2, 10), (9, 3, 1), (50, 3, 10), (30_000, 5, 10), (70_000, 2, 7), (3000, 4, 300),
                       (20_000, 3, 1 << 16)):
        p = _matrix(g, n, k)
        codes = g.integers(0, k + 2, n)
        wants = []
        for j in range(k):
            col = np.ascontiguousarray(p[:, j])
            wants.append(_rbins._bin_means_numpy(equal_width_bins(col, bins), col,
                                                 (codes == j + 1).astype(np.int64), bins))
        for keep_max, store in ((kern._KEEP_COUNTS, np.empty(p.size)), (kern._KEEP_COUNTS, None),
                                (0, np.empty(p.size)), (0, None)):
            out = _out(bins, k)
            kern.width_means_cols(p, codes, bins, *out, keep_max, store)
            for j in range(k):
                _same(tuple(o[j] for o in out), wants[j])


def test_width_means_cols_scan_is_unit_rows(kern):
    # With the check's bands, the first sweep finds what the input scan
    # finds (a NaN, a negative entry, -0.0, a row off by 0.01), on both
    # paths, and the bins stay inside the arrays.
    ikern = _native.kernels("inputs")
    from pycalib_r.inputs import _checks

    g = np.random.default_rng(11)
    for n, k, bins in ((30_000, 4, 10), (3000, 4, 300)):
        p = _matrix(g, n, k)
        codes = g.integers(1, k + 1, n)
        bands = np.array(_checks.prob_matrix_bands(p))
        for spoil in (False, True):
            m = p.copy()
            if spoil:
                m[1, 0] = np.nan
                m[-1, 1] = -0.5
                m[n // 2, 0] += 0.01
                m[n // 3, 1] = -0.0
                m[n // 4, 2] = np.inf
            want = np.zeros(3, np.int64)
            ikern.unit_rows(m, bands[0], bands[1], want)
            assert bool(want[0]) == spoil
            found = np.full(3, -1, np.int64)
            out = _out(bins, k)
            kern.width_means_cols(m, codes, bins, *out, kern._KEEP_COUNTS, np.empty(m.size), bands, found)
            assert np.array_equal(found, want)
            assert out[0].sum() == m.size


def test_fortran_and_strided_matrices_through_rbins(kern):
    # The callers' layouts: a Fortran matrix goes column by column, a
    # strided one is copied; each class row is the twin's.
    g = np.random.default_rng(12)
    p = _matrix(g, 40_000, 3)
    codes = g.integers(1, 4, p.shape[0])
    for arr in (np.asfortranarray(p), np.repeat(p, 2, axis=1)[:, ::2]):
        got = _rbins.width_means_cols(arr, codes, 10)
        for j in range(3):
            col = np.ascontiguousarray(p[:, j])
            want = _rbins._bin_means_numpy(equal_width_bins(col, 10), col, (codes == j + 1).astype(np.int64), 10)
            _same(tuple(o[j] for o in got), want)


def test_readonly_inputs_and_bad_outputs(kern):
    x = np.linspace(0, 1, 101)
    x.flags.writeable = False
    c = (x > 0.5).astype(np.int64)
    c.flags.writeable = False
    out = _out(10)
    kern.width_means(x, c, 1, 10, *out)
    _same(out, _rbins._bin_means_numpy(equal_width_bins(x, 10), x, c, 10))
    with pytest.raises(TypeError):
        kern.width_means(x, c, 1, 10, np.empty(10, np.int32), out[1], out[2])


def test_out_of_range_bins_labels_and_draws_are_refused(kern):
    # Nothing is written outside the kernel's arrays: a bad id, label or
    # draw raises instead.
    x = np.linspace(0, 1, 50)
    ids = np.arange(50) % 5
    c = np.arange(50) % 2
    for bad_ids, bad_c, idx in ((np.where(ids == 4, 5, ids), c, np.empty(0, np.int64)),
                                (np.where(ids == 4, -1, ids), c, np.empty(0, np.int64)),
                                (ids, np.where(c == 1, 2, c), np.empty(0, np.int64)),
                                (ids, c, np.array([0, 50])), (ids, c, np.array([-1, 3]))):
        with pytest.raises(ValueError):
            kern.bin_means(bad_ids, x, bad_c, idx, 5, *_out(5))
    with pytest.raises(ValueError):
        kern.bin_means_rows(ids, x, c, np.array([[1, 51]], np.int32), 5, *_out(5, 1), 1)

"""R's per-bin means (pycalib_r.binned._rbins) and the binned metrics built on them, bit for bit.

The compiled path (C long double) and the numpy longdouble twin must give the same bits
on every input (and both R's: ``mean()`` in long double with its second
pass, integer ``mean()`` rounded once); the metrics and ``cal_ci``'s printed
interval must be R's on the cases of issue 20 where a double sum was not.
"""

from __future__ import annotations

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.binned import _rbins
from pycalib_r._native import kernels
from pycalib_r.rbase._rarith import _X87, r_int_mean, r_mean


def _cases(seed=5, count=120):
    rng = np.random.default_rng(seed)
    for trial in range(count):
        n = int(rng.integers(1, 2500))
        n_ids = int(rng.integers(1, 40))
        x = rng.random(n)
        if trial % 3 == 0:
            x = np.round(x, 1)  # ties, sums whose long-double rounding matters
        if trial % 5 == 0:
            x[: n // 2] = 0.1
        ids = rng.integers(0, n_ids, n)
        c = rng.integers(0, 2, n)
        idx = rng.integers(0, n, n) if trial % 2 else None
        yield ids, x, c, n_ids, idx


def test_twin_is_r_mean_of_each_bin():
    for ids, x, c, n_ids, idx in _cases(count=40):
        if idx is not None:
            ids, x, c = ids[idx], x[idx], c[idx]
        counts, conf, acc = _rbins._bin_means_numpy(ids, x, c, n_ids)
        for b in range(n_ids):
            inside = ids == b
            assert counts[b] == inside.sum()
            if counts[b]:
                assert conf[b] == r_mean(x[inside]) and acc[b] == r_int_mean(c[inside])
            else:
                assert np.isnan(conf[b]) and np.isnan(acc[b])


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_compiled_and_twin_give_the_same_bits():
    kern = kernels("binned")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    for ids, x, c, n_ids, idx in _cases():
        counts = np.empty(n_ids, np.int64)
        conf, acc = np.empty(n_ids), np.empty(n_ids)
        kern.bin_means(ids, x, c, np.empty(0, np.int64) if idx is None else idx, n_ids, counts, conf, acc)
        if idx is not None:
            ids, x, c = ids[idx], x[idx], c[idx]
        want = _rbins._bin_means_numpy(ids, x, c, n_ids)
        assert np.array_equal(counts, want[0])
        assert np.array_equal(conf, want[1], equal_nan=True)
        assert np.array_equal(acc, want[2], equal_nan=True)
    # Rows of resamples, one call.
    rng = np.random.default_rng(2)
    x = np.round(rng.random(300), 2)
    ids = (x * 7).astype(np.int64).clip(0, 6)
    c = rng.integers(0, 2, 300)
    idx = rng.integers(0, 300, (9, 300))
    got = _rbins.bin_means_rows(ids, x, c, 7, idx)
    for r in range(9):
        want = _rbins._bin_means_numpy(ids[idx[r]], x[idx[r]], c[idx[r]], 7)
        for g, w in zip(got, want):
            assert np.array_equal(g[r], w, equal_nan=True)
    # R's 1-based int32 draws as drawn (cal_ci), in the kernel and in the twin.
    one_based = (idx + 1).astype(np.int32)
    for a, b in zip(_rbins.bin_means_rows(ids, x, c, 7, one_based, base=1), got):
        assert np.array_equal(a, b, equal_nan=True)
    out = (np.empty((9, 7), np.int64), np.empty((9, 7)), np.empty((9, 7)))
    kern.bin_means_rows(ids[None, :], x, c, one_based, 7, *out, 1)
    for a, b in zip(out, got):
        assert np.array_equal(a, b, equal_nan=True)


def _width_cases(seed=11):
    rng = np.random.default_rng(seed)
    for bins in (1, 2, 3, 7, 10, 15, 100, 1000, 65535, 1 << 16):
        n = int(rng.integers(1, 5000))
        x = rng.random(n)
        # Every inner edge as R's seq() rounds it, its neighbours one ulp
        # away, the quotients k / bins (0.3, 0.6, 0.7 for ten bins), 0 and 1.
        k = rng.integers(1, bins, 200) if bins > 1 else np.zeros(0, np.int64)
        edges = k * (1.0 / bins)
        extra = np.concatenate([edges, np.nextafter(edges, 0), np.nextafter(edges, 1), k / bins,
                                [0.0, 1.0, np.nextafter(1.0, 0), 5e-324]])
        x = np.concatenate([x, np.clip(extra, 0, 1)])
        rng.shuffle(x)
        if bins == 10:
            x[: x.size // 2] = 0.1
        yield x, rng.integers(0, 2, x.size), bins


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_width_kernel_finds_r_bins_and_means():
    # The kernel that finds the equal-width bins itself gives bin_means of
    # findInterval over seq(0, 1, length.out = bins + 1), bit for bit.
    from pycalib_r.binned._binning import equal_width_bins, find_bins, seq01

    kern = kernels("binned")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    for x, c, bins in _width_cases():
        counts = np.empty(bins, np.int64)
        conf, acc = np.empty(bins), np.empty(bins)
        kern.width_means(x, c, 1, bins, counts, conf, acc)
        ids = find_bins(x, seq01(bins + 1))
        assert np.array_equal(ids, equal_width_bins(x, bins))
        want = _rbins._bin_means_numpy(ids, x, c, bins)
        assert np.array_equal(counts, want[0])
        assert np.array_equal(conf, want[1], equal_nan=True)
        assert np.array_equal(acc, want[2], equal_nan=True)


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_width_kernel_chunked_sweeps_keep_r_order():
    # Beyond _WHOLE observations the kernel goes a chunk at a time, carrying
    # each bin's 80-bit sums across chunks: still R's sums in R's order.
    kern = kernels("binned")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    from pycalib_r.binned._binning import equal_width_bins

    rng = np.random.default_rng(13)
    n = kern._WHOLE + 70_001
    x = rng.random(n)
    x[::3] = np.round(x[::3], 1)  # long-double rounding matters in these sums
    x[: n // 4] = 0.1
    x[-1000:] = 1.0
    c = rng.integers(0, 2, n)
    for bins, keep_max in ((10, 1 << 20), (7, 1 << 20), (10, 0)):  # keep_max 0: the second sweep recounts
        counts = np.empty(bins, np.int64)
        conf, acc = np.empty(bins), np.empty(bins)
        kern.width_means(x, c, 1, bins, counts, conf, acc, keep_max)
        want = _rbins._bin_means_numpy(equal_width_bins(x, bins), x, c, bins)
        assert np.array_equal(counts, want[0])
        assert np.array_equal(conf, want[1], equal_nan=True)
        assert np.array_equal(acc, want[2], equal_nan=True)


def test_width_means_is_bin_means_of_equal_width_bins():
    # Whichever path runs (PYCALIB_R_NATIVE=0 or 1 in the suite's two runs).
    from pycalib_r.binned._binning import equal_width_bins

    for x, c, bins in _width_cases(seed=12):
        got = _rbins.width_means(x, c, bins)
        want = _rbins.bin_means(equal_width_bins(x, bins), x, c, bins)
        for g, w in zip(got, want):
            assert np.array_equal(g, w, equal_nan=True)


def test_width_means_of_a_class_column_against_its_code():
    # Classwise: a strided column of the matrix and the class codes with a
    # class's label give the same bits as the contiguous column against the
    # 0/1 indicator (the kernel, or the twin under PYCALIB_R_NATIVE=0).
    from pycalib_r.binned._binning import equal_width_bins

    rng = np.random.default_rng(14)
    for n in (3000, 200_000):
        p = rng.dirichlet(np.ones(4), n)
        p[::7, 0] = 0.1
        codes = rng.integers(1, 5, n)
        for j in range(4):
            col = np.ascontiguousarray(p[:, j])
            want = _rbins.bin_means(equal_width_bins(col, 10), col, (codes == j + 1).astype(np.int64), 10)
            got = _rbins.width_means(p[:, j], codes, 10, label=j + 1)
            for g, w in zip(got, want):
                assert np.array_equal(g, w, equal_nan=True)


def _kernels_or_skip():
    kern = kernels("binned")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    return kern


def _matrix_cases():
    # (p, codes, bins): C- and F-ordered and strided matrices, chunked
    # (many rows, few bins) and whole-column (many bins, few rows) paths.
    rng = np.random.default_rng(15)
    for n, k, bins in ((50, 3, 10), (3000, 4, 10), (20_000, 5, 300), (150_001, 5, 10), (90_000, 12, 7),
                       (70_000, 2, 5_000)):
        p = rng.dirichlet(np.ones(k), n) / 2
        p[::7, 0] = 0.1  # ties and sums whose long-double rounding matters
        p[::11, 1] = np.round(p[::11, 1], 1)
        p[: n // 5, 0] = 1.0 / k
        p[:, -1] = 0.0
        p[:, -1] = 1.0 - p.sum(axis=1)  # rows sum to 1 within a few ulps
        codes = rng.integers(1, k + 1, n)
        yield p, codes, bins
        yield np.asfortranarray(p), codes, bins
        yield np.repeat(p, 2, axis=1)[::2, ::2], codes[::2], bins


def test_width_means_cols_is_each_column_against_its_code():
    # Every class's row is the binary width_means of its column against its
    # code, bit for bit (the matrix kernel, or the twin under PYCALIB_R_NATIVE=0).
    for p, codes, bins in _matrix_cases():
        got = _rbins.width_means_cols(p, codes, bins)
        for j in range(p.shape[1]):
            want = _rbins.width_means(np.ascontiguousarray(p[:, j]), codes, bins, label=j + 1)
            for g, w in zip(got, want):
                assert np.array_equal(g[j], w, equal_nan=True)


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_width_means_cols_kernel_is_the_twin():
    # The matrix kernel against numpy's bin_means of R's bins (the twin), on
    # each layout and both of its paths.
    from pycalib_r.binned._binning import equal_width_bins

    kern = _kernels_or_skip()
    for p, codes, bins in _matrix_cases():
        k = p.shape[1]
        counts = np.empty((k, bins), np.int64)
        conf, acc = np.empty((k, bins)), np.empty((k, bins))
        mat = np.ascontiguousarray(p)  # the kernel's layout (a Fortran matrix goes column by column)
        kern.width_means_cols(mat, codes, bins, counts, conf, acc, kern._KEEP_COUNTS, np.empty(mat.size))
        # Its other paths: no store (the second sweep sorts each chunk
        # again), and no kept counts either (it also counts them again).
        for keep_max, store in ((kern._KEEP_COUNTS, np.empty(0)), (0, np.empty(mat.size)), (0, np.empty(0))):
            again = [np.empty_like(a) for a in (counts, conf, acc)]
            kern.width_means_cols(mat, codes, bins, *again, keep_max, store)
            for a, b in zip((counts, conf, acc), again):
                assert np.array_equal(a, b, equal_nan=True)
        # With the check's scan (every path): the same means, and what
        # check_prob_matrix's own scan finds.
        from pycalib_r.inputs import _checks

        ikern = kernels("inputs")
        bands = np.array(_checks.prob_matrix_bands(mat))
        want_found = np.zeros(3, dtype=np.int64)
        ikern.unit_rows(mat, bands[0], bands[1], want_found)
        for keep_max, store in ((kern._KEEP_COUNTS, np.empty(mat.size)), (kern._KEEP_COUNTS, np.empty(0)),
                                (0, np.empty(0))):
            again = [np.empty_like(a) for a in (counts, conf, acc)]
            found = np.full(3, -1, dtype=np.int64)
            kern.width_means_cols(mat, codes, bins, *again, keep_max, store, bands, found)
            assert np.array_equal(found, want_found)
            for a, b in zip((counts, conf, acc), again):
                assert np.array_equal(a, b, equal_nan=True)
        # Faulty values (a NaN, a negative entry, -0.0, a row off by 0.01)
        # are found as unit_rows finds them, with the bins clipped (no
        # write outside the kernel's arrays).
        bad = mat.copy()
        bad[1, 0] = np.nan
        bad[-1, 1] = -0.5
        bad[bad.shape[0] // 2, 0] += 0.01
        bad[bad.shape[0] // 3, 1] = -0.0
        want_found[:] = 0
        ikern.unit_rows(bad, bands[0], bands[1], want_found)
        assert want_found[0] == 1 and want_found[1] >= 3
        found = np.full(3, -1, dtype=np.int64)
        spoilt = [np.empty_like(a) for a in (counts, conf, acc)]
        kern.width_means_cols(bad, codes, bins, *spoilt, kern._KEEP_COUNTS, np.empty(bad.size), bands, found)
        assert np.array_equal(found, want_found) and spoilt[0].sum() == bad.size
        for j in range(k):
            col = np.ascontiguousarray(p[:, j])
            want = _rbins._bin_means_numpy(equal_width_bins(col, bins), col, (codes == j + 1).astype(np.int64),
                                           bins)
            assert np.array_equal(counts[j], want[0])
            assert np.array_equal(conf[j], want[1], equal_nan=True)
            assert np.array_equal(acc[j], want[2], equal_nan=True)


def test_classwise_metrics_are_the_mean_of_binary_calls():
    # ece/mce/ace classwise through the matrix path equal R's aggregate of
    # the K binary metrics (probcal's multiclass_calibration_error()).
    from pycalib_r.rbase._rarith import r_mean as rmean

    for p, codes, bins in _matrix_cases():
        if p.shape[0] > 100_000:
            continue
        for fn in (pc.ece, pc.mce, pc.ace):
            per = [fn(np.ascontiguousarray(p[:, j]), (codes == j + 1).astype(np.int64), bins=bins)
                   for j in range(p.shape[1])]
            want = max(per) if fn is pc.mce else rmean(np.array(per))
            assert fn(p, codes, bins=bins) == want
        per = [pc.ece(np.ascontiguousarray(p[:, j]), (codes == j + 1).astype(np.int64), bins=bins,
                      debiased=True) for j in range(p.shape[1])]
        assert pc.ece(p, codes, bins=bins, debiased=True) == rmean(np.array(per))


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_sparse_bins_kernel_is_the_twin():
    # More bins than a quarter of the rows (bins="unique", many edges): the
    # kernel goes bin by bin, a singleton's mean being its value (+0.0 for
    # -0.0, as R's sum from 0); bit for bit the twin's, signed zeros included.
    kern = _kernels_or_skip()
    g = np.random.default_rng(17)
    for n in (5000, 60_000):
        x = g.random(n)
        x[:50] = np.round(x[:50], 1)
        x[50], x[51] = -0.0, 0.0
        ids = np.arange(n) // np.where(np.arange(n) < 200, 3, 1)  # a few bins of 3, the rest singletons
        ids = np.unique(ids, return_inverse=True)[1]
        ids[50] = ids.max() + 1  # -0.0 alone in its bin
        n_ids = int(ids.max()) + 1
        c = g.integers(0, 2, n)
        for idx in (np.empty(0, np.int64), g.integers(0, n, n)):
            counts, conf, acc = np.empty(n_ids, np.int64), np.empty(n_ids), np.empty(n_ids)
            kern.bin_means(ids, x, c, idx, n_ids, counts, conf, acc)
            sel = slice(None) if idx.size == 0 else idx
            want = _rbins._bin_means_numpy(ids[sel], x[sel], c[sel], n_ids)
            assert np.array_equal(counts, want[0])
            assert np.array_equal(np.nan_to_num(conf).view(np.int64), np.nan_to_num(want[1]).view(np.int64))
            assert np.array_equal(acc, want[2], equal_nan=True)
            if idx.size == 0:
                assert conf[ids[50]] == 0.0 and not np.signbit(conf[ids[50]])


def test_edge_means_is_bin_means_of_find_bins():
    # Equal-frequency breaks and a caller's edges: the kernel's binary search
    # (few edges counted one by one, more searched) and its means equal
    # bin_means of findInterval's bins, bit for bit (the twin is that).
    from pycalib_r.binned._binning import find_bins, histogram_breaks

    kern = kernels("binned") if _X87 else None
    g = np.random.default_rng(16)
    for n, nb in ((200_001, 10), (70_001, 37), (5000, 1000), (100, 3), (70_000, 5000), (100_000, 1 << 16)):
        x = g.random(n)
        x[::5] = np.round(x[::5], 1)
        x[:7], x[7:9] = 0.0, 1.0
        c = g.integers(0, 2, n)
        inner = np.sort(g.random(nb - 1))
        for edges in (np.linspace(0, 1, nb + 1), histogram_breaks(x, nb, "equal_freq"),
                      np.concatenate(([0.0], inner, [1.0])), np.concatenate(([-0.5], inner, [1.5]))):
            want = _rbins._bin_means_numpy(find_bins(x, edges), x, c, edges.size - 1)
            runs = [_rbins.edge_means(x, c, edges)]  # whichever path runs
            if kern is not None:
                nbins = edges.size - 1
                out = (np.empty(nbins, np.int64), np.empty(nbins), np.empty(nbins))
                kern.edge_means(x, c, 1, edges, *out)
                runs.append(out)
            for got in runs:
                for a, b in zip(got, want):
                    assert np.array_equal(a, b, equal_nan=True), (n, nb)


def test_exactly_calibrated_bin_is_zero():
    # Ten 0.1's: R's mean is 0.1 (long double), a double sum gives 0.09999999999999999.
    assert pc.ece(np.full(10, 0.1), [1] + [0] * 9) == 0.0
    assert pc.ace(np.full(10, 0.1), [1] + [0] * 9) == 0.0
    assert pc.mce(np.full(10, 0.1), [1] + [0] * 9) == 0.0


@pytest.mark.r_parity
def test_binned_metrics_are_r_bits(probcal_r):
    ro = probcal_r
    ro.r("set.seed(1); bt_p <- sample(0:10, 20, TRUE)/10; bt_y <- rbinom(20, 1, bt_p)")
    p = np.asarray(ro.r("bt_p"), dtype=float)
    y = np.asarray(ro.r("bt_y"), dtype=np.int64)
    for call, fn in [("ece(bt_p, bt_y)", lambda: pc.ece(p, y)),
                     ("ace(bt_p, bt_y, bins = 4)", lambda: pc.ace(p, y, bins=4)),
                     ("mce(bt_p, bt_y, bins = 3)", lambda: pc.mce(p, y, bins=3)),
                     ("ece(rep(0.1, 10), c(1, rep(0, 9)))", lambda: pc.ece(np.full(10, 0.1), [1] + [0] * 9)),
                     ("mmce(rep(0.1, 10), c(1, rep(0, 9)))", lambda: pc.mmce(np.full(10, 0.1), [1] + [0] * 9))]:
        want = ro.r(f"sprintf('%a', probcal::{call})")[0]
        assert float.fromhex(want) == fn(), call


@pytest.mark.r_parity
def test_cal_ci_print_on_tied_small_data_is_r(r):
    from tests.conftest import REPO

    ro = r
    env = ro.r("new.env()")
    ro.r["sys.source"](str(REPO / "pycalib_r" / "r" / "contract.R"), envir=env)
    ro.globalenv["bt_env"] = env
    got_r = ro.r("""local({
        options(cli.num_colors = 1, cli.unicode = TRUE, cli.width = 80, width = 80, cli.dynamic = FALSE)
        set.seed(1); p <- sample(0:10, 20, TRUE)/10; y <- rbinom(20, 1, p); set.seed(1)
        out <- character(); con <- textConnection("out", "w", local = TRUE)
        sink(con); sink(con, type = "message")
        bt_env$print.cal_ci(bt_env$cal_ci(p, y, n_boot = 19))
        for (m in c("mce", "ace")) bt_env$print.cal_ci(bt_env$cal_ci(p, y, metric = m, n_boot = 29, bins = 4))
        bt_env$print.cal_ci(bt_env$cal_ci(p, y, n_boot = 29, strategy = "equal_freq", bins = 3))
        bt_env$print.cal_ci(bt_env$cal_ci(p, y, n_boot = 29, debiased = TRUE, bins = 5))
        sink(type = "message"); sink(); close(con)
        paste(out, collapse = "\\n")
    })""")[0]
    pc.set_seed(1)
    p = pc.sample(np.arange(11), 20, True) / 10
    y = pc.rbinom(20, 1, p)
    pc.set_seed(1)
    parts = [str(pc.cal_ci(p, y, n_boot=19))]
    parts += [str(pc.cal_ci(p, y, metric=m, n_boot=29, bins=4)) for m in ("mce", "ace")]
    parts.append(str(pc.cal_ci(p, y, n_boot=29, strategy="equal_freq", bins=3)))
    parts.append(str(pc.cal_ci(p, y, n_boot=29, debiased=True, bins=5)))
    assert "\n".join(s.strip("\n") for s in parts) == "\n".join(
        s for s in got_r.split("\n") if s != "")
    assert "Interval: [0.08075, 0.2492]" in parts[0]


@pytest.mark.skipif(not _X87, reason="the compiled path is x87 long double")
def test_kept_buffers_are_one_caller_at_a_time():
    # Calls up to _POOL_ROWS borrow one kept pair of buffers; concurrent
    # calls (which then allocate their own) give the bits of a call made
    # alone.
    import threading

    _kernels_or_skip()
    rng = np.random.default_rng(41)
    cases = []
    for n in (5_000, 100_000, _rbins._POOL_ROWS, _rbins._POOL_ROWS + 1):
        x = rng.random(n)
        cases.append((x, (rng.random(n) < x).astype(np.int64)))
    alone = [_rbins.width_means(x, c, 10) for x, c in cases]
    got, errors = {}, []

    def work(t):
        try:
            for r in range(6):
                i = (t + r) % len(cases)
                got[(t, r)] = (i, _rbins.width_means(*cases[i], 10))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    for i, res in got.values():
        for a, b in zip(res, alone[i]):
            assert np.array_equal(a, b, equal_nan=True)
    assert not _rbins._pool_lock.locked()


def test_classwise_store_is_kept_shared_safely_and_released(monkeypatch):
    # The classwise kernel's matrix-sized store is kept between calls (no
    # new memory's page faults), lent to one call at a time (concurrent
    # calls allocate their own: the same results), and released after
    # _STORE_IDLE seconds without a call.
    import time
    from concurrent.futures import ThreadPoolExecutor

    _kernels_or_skip()
    g = np.random.default_rng(41)
    n, k = 300_000, 4  # 1.2 million entries: a kept store
    p = g.dirichlet(np.ones(k), n)
    codes = g.integers(1, k + 1, n)
    monkeypatch.setattr(_rbins, "_STORE_IDLE", 0.3)
    first = _rbins.width_means_cols(p, codes, 10)
    assert _rbins._store["buf"] is not None and _rbins._store["buf"].size >= p.size
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: _rbins.width_means_cols(p, codes, 10), range(8)))
    for got in runs + [_rbins.width_means_cols(p, codes, 10)]:
        for a, b in zip(got, first):
            assert np.array_equal(a, b, equal_nan=True)
    for j in range(k):
        want = _rbins.width_means(np.ascontiguousarray(p[:, j]), codes, 10, label=j + 1)
        for a, b in zip(first, want):
            assert np.array_equal(a[j], b, equal_nan=True)
    deadline = time.monotonic() + 10
    while _rbins._store["buf"] is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _rbins._store["buf"] is None

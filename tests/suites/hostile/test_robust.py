"""Issue 9: bad and huge input, and the last parity gaps.

Live R tests carry ``r_parity``; the rest need no R.
"""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r.binned import _binning
from pycalib_r.binned._binning import (equal_freq_groups, equal_width_bins, find_bins, histogram_breaks,
                                quantile_r, seq01, stable_order)
from pycalib_r.binned._metrics import binned_error
from pycalib_r.binned._rbins import bin_means
from pycalib_r.rbase._format import cli_abort_message
from pycalib_r._rng import _global_stream

from tests.conftest import REPO


def _message(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn()
        except pc.ProbcalError as exc:
            return str(exc)
    return None


@pytest.mark.parametrize("bins", [1, 2, 3, 7, 10, 13, 997, 10 ** 5, 2 ** 20 + 3])
def test_equal_width_bins_without_edges_equal_find_bins(bins):
    g = np.random.default_rng(bins)
    edges = seq01(bins + 1)
    p = np.clip(np.concatenate([g.random(20000), edges, np.nextafter(edges, 2),
                                np.nextafter(edges, -1)]), 0, 1)
    assert np.array_equal(equal_width_bins(p, bins), find_bins(p, edges))


def _dense_groups(p, bins):
    # The materialised path, as R: every break, sort(unique()), findInterval.
    breaks = quantile_r(p, np.arange(bins + 1, dtype=np.float64) * (1.0 / bins), type=8)
    breaks[0], breaks[-1] = 0.0, 1.0
    breaks = np.unique(breaks)
    occupied, ids = np.unique(find_bins(p, breaks), return_inverse=True)
    return ids.reshape(p.shape), occupied.size


def _odd_probabilities(g, kind, n):
    """Values that stress the breaks: ulp-close clusters (where the computed
    quantiles are not monotone), ties, 0 and 1, subnormals, tiny values."""
    base = g.random()
    if kind == 0:
        p = g.random(n)
    elif kind == 1:
        p = base + g.integers(0, 4, n) * np.spacing(base)
    elif kind == 2:
        p = np.concatenate([base + g.integers(0, 40, n) * np.spacing(base), g.random(5)])
    elif kind == 3:
        p = np.round(g.random(n), int(g.integers(1, 4)))
    elif kind == 4:
        p = g.choice([0.0, 1.0, 0.5, 1e-310, 5e-324, np.nextafter(1, 0), np.nextafter(0.5, 1)], n)
    elif kind == 5:
        p = np.concatenate([np.zeros(n // 3), np.ones(n // 3), g.random(n - 2 * (n // 3))])
    else:
        p = (base + g.integers(0, 3, n) * np.spacing(base)) * g.choice([1.0, 1e-5, 1e-300], n)
    return np.clip(p, 0.0, 1.0)


@pytest.mark.parametrize("seed", range(3))
def test_equal_freq_groups_equal_the_materialised_breaks(seed):
    g = np.random.default_rng(100 + seed)
    checked = nonmonotone = 0
    for t in range(150):
        kind = t % 7
        p = _odd_probabilities(g, kind, int(g.integers(1, 400 if t % 10 else 2000)))
        bins = int(g.choice([1, 2, 3, 7, 10, 100, 1000, 12345, 10 ** 5]))
        if t % 15 == 0:
            bins = int(g.integers(10 ** 5, 2 * 10 ** 6))
        want = _dense_groups(p, bins)
        got = equal_freq_groups(p, bins)
        assert got[1] == want[1] and np.array_equal(got[0], want[0]), (seed, t, kind, bins)
        breaks = quantile_r(p, seq01(bins + 1), type=8)
        nonmonotone += bool(np.any(np.diff(breaks) < 0))
        checked += 1
    # The cases include breaks that R computes out of order (one ulp swaps).
    assert checked == 150 and nonmonotone >= 10, nonmonotone


def test_equal_freq_groups_scan_path_equals_the_materialised_breaks(monkeypatch):
    # Without probes every large window is decided by the exhaustive scan.
    monkeypatch.setattr(_binning, "_probes", lambda: iter(()))
    monkeypatch.setattr(_binning, "_crossing_witness",
                        lambda xs, bins, first, stop, v, w, gaps: np.zeros(gaps.size, dtype=bool))
    monkeypatch.setattr(_binning, "_SCAN_CHUNK", 1000)
    g = np.random.default_rng(7)
    for t in range(60):
        p = _odd_probabilities(g, t % 7, int(g.integers(1, 60)))
        bins = int(g.choice([50, 999, 5000, 10 ** 5]))
        want = _dense_groups(p, bins)
        got = equal_freq_groups(p, bins)
        assert got[1] == want[1] and np.array_equal(got[0], want[0]), (t, bins)


def test_equal_freq_ece_with_huge_bins_is_bit_identical_to_the_dense_bins():
    g = np.random.default_rng(11)
    for t in range(40):
        p = _odd_probabilities(g, t % 7, int(g.integers(2, 300)))
        y = (g.random(p.size) < p).astype(np.int64)
        bins = int(g.choice([70_000, 200_000, 10 ** 6]))
        ids, n_ids = _dense_groups(p, bins)
        stats = bin_means(ids, p, y, n_ids)
        for kind, debiased in (("ece", False), ("ece", True)):
            want = float(binned_error(*stats, kind, debiased))
            got = pc.ece(p, y, bins=bins, strategy="equal_freq", debiased=debiased)
            assert got == want or (np.isnan(got) and np.isnan(want)), (t, bins, kind, debiased)


@pytest.mark.parametrize("size", [3, 1000, 2 ** 20, 2 ** 20 + 1, 3 * 2 ** 20 + 5])
def test_seq01_in_slices_is_r_seq(size):
    want = np.arange(size, dtype=np.float64) * (1.0 / (size - 1))
    want[0], want[-1] = 0.0, 1.0
    assert np.array_equal(seq01(size), want)


@pytest.mark.parametrize("bins", [2 ** 20 + 1, 3 * 10 ** 6])
def test_equal_freq_breaks_in_slices_equal_the_dense_quantiles(bins):
    g = np.random.default_rng(bins)
    for kind in range(7):
        p = _odd_probabilities(g, kind, 500)
        want = quantile_r(p, seq01(bins + 1), type=8)
        want[0], want[-1] = 0.0, 1.0
        assert np.array_equal(histogram_breaks(p, bins, "equal_freq"), np.unique(want)), kind


def _fill_empty_bins_loop(values, counts, fallback):
    # probcal's loop: which.min(abs(non_empty - i)) per empty bin.
    out = np.array(values, dtype=np.float64, copy=True)
    empty, non_empty = np.flatnonzero(counts == 0), np.flatnonzero(counts > 0)
    if non_empty.size == 0:
        out[:] = fallback
        return out
    for i in empty:
        out[i] = out[non_empty[np.argmin(np.abs(non_empty - i))]]
    return out


def test_fill_empty_bins_equals_probcal_loop():
    from pycalib_r.calibrators._histogram import fill_empty_bins

    g = np.random.default_rng(3)
    for t in range(300):
        size = int(g.integers(1, 60))
        counts = g.integers(0, 3, size) * (g.random(size) < g.random())
        values = np.where(counts > 0, g.random(size), np.nan)
        assert np.array_equal(fill_empty_bins(values, counts, 0.25),
                              _fill_empty_bins_loop(values, counts, 0.25), equal_nan=True), t


def test_cal_histogram_with_many_bins_equals_the_dense_fit():
    g = pc.RRandom(12)
    p = g.runif(400)
    y = (g.runif(400) < p).astype(np.int64)
    for strategy in ("equal_width", "equal_freq"):
        for bins in (3, 1000, 70_000):
            fit = pc.cal_histogram(p, y, bins=bins, strategy=strategy)
            breaks = histogram_breaks(p, bins, strategy)
            idx = find_bins(p, breaks)
            counts = np.bincount(idx, minlength=breaks.size - 1)
            pos = np.bincount(idx, weights=y, minlength=breaks.size - 1)
            values = np.full(counts.size, np.nan)
            filled = counts > 0
            values[filled] = (pos[filled].astype(np.longdouble)
                              / counts[filled].astype(np.longdouble)).astype(np.float64)
            values = _fill_empty_bins_loop(values, counts, fit.global_rate)
            assert np.array_equal(fit.breaks, breaks) and np.array_equal(fit.counts, counts)
            assert np.array_equal(fit.bin_values, values), (strategy, bins)


def test_stable_order_in_chunks_equals_one_stable_sort():
    g = np.random.default_rng(5)
    # Float keys: chunks sorted and merged. Integer keys: numpy's unstable
    # argsort with ties re-sorted by (rank, index). Both the stable order.
    for keys in (g.integers(0, 50, size=10007).astype(float), g.integers(0, 50, size=10007),
                 g.integers(0, 2**62, size=10007).astype(np.uint64),
                 np.repeat(g.integers(0, 2**62, size=2000).astype(np.uint64), 5), np.zeros(300, np.int64)):
        assert np.array_equal(stable_order(keys, chunk=64), np.argsort(keys, kind="stable"))


def test_huge_bins_cost_only_the_filled_bins():
    g = pc.RRandom(2)
    p = g.runif(500)
    y = (g.runif(500) < p).astype(int)
    # One value per bin: the ECE is the mean absolute residual, for any huge bins.
    want = np.mean(np.abs(y - p))
    # (2^31 - 1 itself is R's integer-overflow error: tests/suites/hostile/test_hostile.py)
    for bins in (10 ** 6, 10 ** 9, 2 ** 31 - 2):
        assert pc.ece(p, y, bins=bins) == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert pc.mce(p, y, bins=2 ** 31 - 2) == pytest.approx(np.max(np.abs(y - p)), rel=1e-12, abs=1e-15)


def test_counts_beyond_r_integer_range_warn_and_fail_before_allocating():
    p, y = [0.1, 0.2, 0.7], [0, 1, 1]
    with pytest.warns(RuntimeWarning, match="NAs introduced by coercion to integer range"):
        with pytest.raises(pc.ProbcalError) as info:
            pc.ece(p, y, bins=2 ** 31)
    assert "2147483647" in " ".join(getattr(info.value, "__notes__", []))


def test_logical_y_with_a_missing_value_gives_one_message():
    p = [0.2, 0.3, 0.4]
    forms = [[True, None, False], pd.Series([True, None, False], dtype="boolean"),
             pd.Series([True, None, False]), np.array([True, None, False], dtype=object),
             [1, None, 0], [1.0, float("nan"), 0.0]]
    messages = {_message(lambda y=y: pc.ece(p, y)) for y in forms}
    assert messages == {"Argument `y` must not contain missing or infinite values."}


def test_cal_ci_memory_stays_near_the_metric_own_peak():
    g = pc.RRandom(3)
    n, bins = 200_000, 100
    p = g.runif(n)
    y = (g.runif(n) < p).astype(np.int64)
    # The first call's one-time costs (the compiled library's opening, the
    # room modules' imports) are the process's, not the call's memory.
    pc.cal_ci(p, y, bins=bins, n_boot=1, rng=pc.RRandom(1), progress=False)

    def peak_of(n_boot):
        tracemalloc.start()
        pc.cal_ci(p, y, bins=bins, n_boot=n_boot, rng=pc.RRandom(1), progress=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    # The yardstick is one replicate's call (the metric's own work, the
    # resample and the interval): binary ece's equal-width path finds its
    # bins inside the kernel and copies nothing, so ece alone is no longer
    # a measure of what a replicate needs. Memory must not grow with the
    # replicates beyond their results (bins x 4 doubles each) once the
    # bounded block of resample rows is full.
    one, thirty, hundred = peak_of(1), peak_of(30), peak_of(100)
    assert thirty <= 2 * one + 30 * bins * 8 * 4, (thirty, one)
    assert hundred <= thirty + 70 * bins * 8 * 4 + (1 << 16), (hundred, thirty)


def test_cal_ci_replicates_do_not_depend_on_the_block_size(monkeypatch):
    from pycalib_r.inference import _inference

    g = pc.RRandom(4)
    p = g.runif(300)
    y = (g.runif(300) < p).astype(np.int64)
    want = pc.cal_ci(p, y, metric="ace", bins=25, n_boot=99, rng=pc.RRandom(7), progress=False)
    monkeypatch.setattr(_inference, "_BINNED_BLOCK_MAX", 300 * 3)
    got = pc.cal_ci(p, y, metric="ace", bins=25, n_boot=99, rng=pc.RRandom(7), progress=False)
    assert (got.lower, got.upper, got.estimate) == (want.lower, want.upper, want.estimate)


# ---------------------------------------------------------------------------
# Live R.

@pytest.mark.r_parity
def test_cli_abort_wrapping_matches_r(r):
    texts = [" ".join(["word"] * k) for k in range(12, 40)]
    texts += ['Method "histogram" expects a vector `x`. Use "ovr" for multiclass binning.',
              "lo" * 50, "short", "a. b. c " * 12, "x" * 72, "x" * 73]
    fn = r.r("function(s) tryCatch(cli::cli_abort(s), error = conditionMessage)")
    r.r("options(cli.num_colors = 1L, width = 80)")
    for text in texts:
        assert cli_abort_message(text) == fn(text.replace("{", "{{").replace("}", "}}"))[0], text


@pytest.mark.r_parity
def test_r_messages_of_the_gaps(probcal_r):
    ro = probcal_r
    x = np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.5, 0.5]])
    ro.r("fx <- matrix(c(.2,.8,.6,.4,.3,.7,.5,.5), 4, byrow = TRUE)")
    for method in ("histogram", "isotonic", "platt", "vector"):
        want = ro.r(f'tryCatch(probcal::cal_cv(fx, c(1, 2, 1, 2), method = "{method}"), '
                    f'error = conditionMessage)')[0]
        assert _message(lambda m=method: pc.cal_cv(x, [1, 2, 1, 2], method=m)) == want, method
    want = ro.r("tryCatch(probcal::cal_ovr(fx[0, , drop = FALSE], c(1, 2)), error = conditionMessage)")[0]
    assert _message(lambda: pc.cal_ovr(np.zeros((0, 2)), [1, 2])) == want
    third = np.full((6, 3), 1 / 3)
    want = ro.r("tryCatch(probcal::ece(matrix(1/3, 6, 3), c(1, 2, 3, 1, 2, 1e8)), error = conditionMessage)")[0]
    assert _message(lambda: pc.ece(third, [1, 2, 3, 1, 2, 10 ** 8])) == want
    want = ro.r("suppressWarnings(tryCatch(probcal::ece(c(.1, .2), c(0, 1), bins = 2^31), "
                "error = conditionMessage))")[0]
    assert _message(lambda: pc.ece([0.1, 0.2], [0, 1], bins=2 ** 31)) == want


@pytest.mark.r_parity
def test_predict_flattens_a_matrix_by_column_as_r(probcal_r):
    ro = probcal_r
    newdata = np.array([[0.1, 0.3, 0.5], [0.2, 0.4, 0.9]])
    ro.r("fp <- c(.1, .4, .35, .8, .6); fy <- c(0, 1, 0, 1, 1); "
         "fm <- matrix(c(.1, .2, .3, .4, .5, .9), 2)")
    iso = np.array(ro.r("predict(probcal::cal_isotonic(fp, fy), fm)"))
    hist = np.array(ro.r("predict(probcal::cal_histogram(fp, fy, bins = 3), fm)"))
    fp, fy = [0.1, 0.4, 0.35, 0.8, 0.6], [0, 1, 0, 1, 1]
    assert np.array_equal(pc.cal_isotonic(fp, fy).predict(newdata), iso)
    assert np.array_equal(pc.cal_histogram(fp, fy, bins=3).predict(newdata), hist)


@pytest.mark.r_parity
def test_stream_after_an_error_mid_resampling_stands_where_r_stands(r):
    root = str(REPO).replace("\\", "/")
    r.r(f'fz_contract <- new.env(); sys.source("{root}/pycalib_r/r/contract.R", envir = fz_contract)')
    for seed in range(1, 9):
        want = np.array(r.r(f"set.seed({seed}); try(fz_contract$cal_ci(c(.2, .2, .5), c(0, 1, 1), "
                            f'metric = "skce", bandwidth = "median"), silent = TRUE); .Random.seed'))
        pc.set_seed(seed)
        message = _message(lambda: pc.cal_ci([0.2, 0.2, 0.5], [0, 1, 1], metric="skce",
                                             bandwidth="median", progress=False))
        assert message == "The median bandwidth is undefined: all predictions are equal."
        assert np.array_equal(_global_stream().get_state(), want.astype(np.int32)), seed


def _outcome(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = fn()
        except pc.ProbcalError as exc:
            return ("error", str(exc), tuple(getattr(exc, "__notes__", [])),
                    tuple(str(w.message) for w in caught))
    if isinstance(value, tuple):
        value = tuple(v.codes.tolist() if hasattr(v, "codes") else np.asarray(v).tolist() for v in value)
    elif hasattr(value, "codes"):
        value = (value.codes.tolist(), value.levels, value.k)
    else:
        value = np.asarray(value).tolist()
    return ("value", value, tuple(str(w.message) for w in caught))


def test_checks_in_blocks_answer_as_one_pass(monkeypatch):
    # Every check with blocks of 7 elements against the same check in one
    # block: same values, messages, notes and warnings, whichever block
    # holds the fault.
    from pycalib_r.inputs import _checks
    from pycalib_r.inputs._forms import binary_inputs, input_form

    g = np.random.default_rng(8)
    p = g.random(50)
    y = (g.random(50) < p).astype(np.int64)
    mat = g.random((30, 3))
    mat /= mat.sum(axis=1, keepdims=True)
    codes = g.integers(1, 4, 30)
    cases = []
    for pos in (0, 6, 7, 23, 49):
        for bad in (np.nan, np.inf, -np.inf, -0.1, 1.5):
            q = p.copy()
            q[pos] = bad
            cases.append(lambda q=q: _checks.check_probability(q))
            cases.append(lambda q=q: _checks.as_numeric_vector(q))
            cases.append(lambda q=q: _checks.as_numeric_vector(q, finite=False))
            z = y.astype(np.float64)
            z[pos] = bad
            cases.append(lambda z=z: _checks.check_binary_y(z, require_both=True))
        for bad in (2, -1, 7):
            z = y.copy()
            z[pos] = bad
            cases.append(lambda z=z: _checks.check_binary_y(z))
    for pos in (0, 6, 7, 29):
        for bad in (np.nan, np.inf, 2.5, 0.0, 5.0, 1e10, -3e9):
            c = codes.astype(np.float64)
            c[pos] = bad
            cases.append(lambda c=c: _checks.check_multiclass_y(c, n_classes=3))
            if np.isfinite(bad):
                c2 = c.copy()
                c2[(pos + 11) % 30] = 1.5
                cases.append(lambda c=c2: _checks.check_multiclass_y(c, n_classes=3))
        for bad in (np.nan, np.inf, -0.2, 1.2):
            m = mat.copy()
            m[pos, 1] = bad
            cases.append(lambda m=m: _checks.check_prob_matrix(m))
            cases.append(lambda m=m: _checks.check_logit_matrix(m))
        m = mat.copy()
        m[pos] = [0.5, 0.5, 0.5]
        cases.append(lambda m=m: _checks.check_prob_matrix(m))
    cases += [
        lambda: _checks.check_binary_y(np.zeros(50, dtype=np.int64), require_both=True),
        lambda: _checks.check_binary_y(np.ones(50, dtype=bool), require_both=True),
        lambda: _checks.check_binary_y(y.astype(np.uint8)),
        lambda: _checks.check_folds(5, y),
        lambda: _checks.check_folds(50, y),
        lambda: _checks.check_folds(3, codes),
        lambda: _checks.check_multiclass_y(codes.astype(np.int32), n_classes=3),
        lambda: _checks.check_multiclass_y(pd.Categorical(np.array(["a", "b", "c"])[codes - 1])),
        lambda: _checks.check_probability(np.asfortranarray(mat)),
        lambda: _checks.check_probability(pd.Series(p)),
        lambda: binary_inputs(p, y),
        lambda: input_form(mat, codes, "confidence"),
    ]
    want = [_outcome(fn) for fn in cases]
    monkeypatch.setattr(_checks, "CHECK_BLOCK", 7)
    got = [_outcome(fn) for fn in cases]
    assert len(cases) > 200
    for i, (a, b) in enumerate(zip(want, got)):
        assert a == b, (i, a, b)


@pytest.mark.parametrize("debiased", [False, True])
def test_cal_ci_equal_freq_between_the_values_equals_every_break(monkeypatch, debiased):
    # The resample engine with only the breaks between the values (used
    # when bins outnumber the rows) against the one that builds every
    # resample's bins + 1 quantiles: the same replicates, bit for bit.
    from pycalib_r.inference import _inference
    from pycalib_r.inference._inference import _BinnedEngine
    from pycalib_r.binned._metrics import bind_metric

    g = np.random.default_rng(21)
    for t in range(12):
        n = int(g.integers(5, 120))
        p = g.random(n)
        if t % 3 == 1:
            p[: n // 2] = np.round(p[: n // 2], 1)
        if t % 3 == 2:
            p[:3] = [0.0, 1.0, 1.0]
        y = (g.random(n) < p).astype(np.int64)
        idx = g.integers(1, n + 1, size=(15, n)).astype(np.int32)
        bins = int(g.choice([121, 150, 4000, 70_000]))
        metric = bind_metric("ece", p, y, bins, debiased=debiased, strategy="equal_freq")
        monkeypatch.setattr(_inference, "_SPARSE_EQUAL_FREQ", 10 ** 9)
        dense = _BinnedEngine(metric)
        monkeypatch.setattr(_inference, "_SPARSE_EQUAL_FREQ", 0)
        sparse = _BinnedEngine(metric)
        assert "values" in sparse.problems[0] and "values" not in dense.problems[0]
        want, got = dense.values(idx), sparse.values(idx)
        assert np.array_equal(got, want, equal_nan=True), (t, bins, got - want)


def test_cal_ci_equal_freq_with_bins_far_above_the_rows_is_bounded():
    g = pc.RRandom(5)
    p = g.runif(200)
    y = (g.runif(200) < p).astype(np.int64)
    # The compiled library opens once per process, a one-time cost, not the
    # call's memory.
    pc.cal_ci(p, y, bins=2 ** 31 - 2, n_boot=20, rng=pc.RRandom(3), progress=False, strategy="equal_freq")
    tracemalloc.start()
    res = pc.cal_ci(p, y, bins=2 ** 31 - 2, n_boot=20, rng=pc.RRandom(2), progress=False,
                    strategy="equal_freq")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # 200 distinct values: one per bin, so the ECE is the mean absolute residual.
    assert res.estimate == pytest.approx(np.mean(np.abs(y - p)), rel=1e-12, abs=1e-15)
    assert peak < 20 * 2 ** 20, peak

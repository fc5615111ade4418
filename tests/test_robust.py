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
from pycalib_r._binning import equal_width_bins, find_bins, seq01, stable_order
from pycalib_r._format import cli_abort_message
from pycalib_r._rng import _global_stream

from .conftest import REPO


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


def test_stable_order_in_chunks_equals_one_stable_sort():
    g = np.random.default_rng(5)
    keys = g.integers(0, 50, size=10007)
    assert np.array_equal(stable_order(keys, chunk=64), np.argsort(keys, kind="stable"))


def test_huge_bins_cost_only_the_filled_bins():
    g = pc.RRandom(2)
    p = g.runif(500)
    y = (g.runif(500) < p).astype(int)
    # One value per bin: the ECE is the mean absolute residual, for any huge bins.
    want = np.mean(np.abs(y - p))
    for bins in (10 ** 6, 10 ** 9, 2 ** 31 - 1):
        assert pc.ece(p, y, bins=bins) == pytest.approx(want, rel=1e-12, abs=1e-15)
    assert pc.mce(p, y, bins=2 ** 31 - 1) == pytest.approx(np.max(np.abs(y - p)), rel=1e-12, abs=1e-15)


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
    tracemalloc.start()
    pc.ece(p, y, bins=bins)
    own = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    tracemalloc.start()
    pc.cal_ci(p, y, bins=bins, n_boot=30, rng=pc.RRandom(1), progress=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= 2 * own + 30 * bins * 8 * 4, (peak, own)


def test_cal_ci_replicates_do_not_depend_on_the_block_size(monkeypatch):
    from pycalib_r import _inference

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

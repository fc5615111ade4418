"""The fast paths of the calibrators equal the plain ones bit for bit.

r_sum / r_mean (long-double dot in chunks), seq_sum (numpy's non-BLAS
matmul loop), the column sums of the lockstep glm, and cal_ovr(method =
"platt") against one cal_platt() per class. No R needed: the plain paths
are the ones the R parity fixtures check.
"""

import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.rstats import _glm_lockstep
from pycalib_r.rbase._rarith import _LD, r_mean, r_row_means, r_sum, seq_sum


def _values(rng, n):
    return rng.normal(size=n) * np.exp(rng.normal(size=n) * 6)


@pytest.mark.parametrize("n", [1, 2, 7, 8191, 8192, 8193, 20000])
def test_r_sum_and_mean_are_sequential_long_double(n):
    rng = np.random.default_rng(n)
    for _ in range(3):
        x = _values(rng, n)
        assert r_sum(x) == float(np.cumsum(x.astype(_LD))[-1])
        s = np.cumsum(x.astype(_LD))[-1] / _LD(n)
        s = s + np.cumsum(x.astype(_LD) - s)[-1] / _LD(n)
        assert r_mean(x) == float(s)


@pytest.mark.parametrize("m", [1, 7, 9, 129, 1001])
def test_row_means_are_r_mean_of_each_row(m):
    # The pair terms of cal_test's resamples are averaged row by row; a
    # pairwise sum along the row (numpy's default) is not R's mean().
    rng = np.random.default_rng(m)
    x = rng.normal(size=(200, m)) * np.exp(rng.normal(size=(200, m)))
    assert np.array_equal(r_row_means(x), [r_mean(row) for row in x])


def test_seq_sum_is_left_to_right():
    rng = np.random.default_rng(1)
    for n in (1, 3, 100, 5000):
        x = _values(rng, n)
        assert seq_sum(x) == float(np.cumsum(x)[-1])
    probe = np.concatenate(([1.0], np.full(999, 2.0 ** -53)))
    assert seq_sum(probe) == 1.0  # a pairwise sum gives 1 + 999 * 2^-53


@pytest.mark.parametrize("order", ["C", "F"])
def test_lockstep_column_sums(order):
    rng = np.random.default_rng(2)
    a = np.asarray(_values(rng, 3000).reshape(300, 10), order=order)
    assert np.array_equal(_glm_lockstep._seq_colsums(a), [float(np.cumsum(a[:, j])[-1]) for j in range(10)])
    assert np.array_equal(_glm_lockstep._ld_colsums(a), [r_sum(a[:, j]) for j in range(10)])


def _flat(fit):
    f = fit.fit
    return [np.array(list(fit.coefficients.values())), list(fit.coefficients), fit.target_pos, fit.target_neg, f.deviance, f.null_deviance, f.aic,
            f.iter, f.converged, f.boundary, f.rank, list(f.warnings), f.residuals, f.fitted_values,
            f.linear_predictors, f.weights, f.effects, f.qr["qr"], f.qr["qraux"], f.R]


def _same(a, b):
    for u, v in zip(_flat(a), _flat(b)):
        if isinstance(u, np.ndarray) or isinstance(v, np.ndarray):
            assert np.array_equal(u, v, equal_nan=True)
        else:
            assert u == v


def test_ovr_platt_lockstep_equals_one_fit_per_class(monkeypatch):
    rng = np.random.default_rng(3)
    n, k = 400, 6
    p = rng.dirichlet(np.ones(k), size=n)
    y = np.argmax(p + rng.random((n, k)) * 0.3, axis=1) + 1
    # class 6 nearly separable by its column; class 5's column constant, so
    # its QR pivots and the fit is redone alone
    p[:, 5] = np.where(y == 6, 0.9, 0.05)
    p[:, 4] = 0.25
    redone = []
    plain = _glm_lockstep._glm_irls
    monkeypatch.setattr(_glm_lockstep, "_glm_irls", lambda x, y: redone.append(1) or plain(x, y))
    fit = pc.cal_ovr(p, y)
    assert len(redone) == 1
    assert fit.calibrators[4].fit.rank == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j in range(k):
            _same(fit.calibrators[j], pc.cal_platt(p[:, j].copy(), (y == j + 1).astype(np.int64)))


@pytest.mark.parametrize("strategy", ["equal_width", "equal_freq"])
def test_histogram_fit_bins_equal_find_bins(strategy):
    from pycalib_r.binned._binning import find_bins, histogram_breaks
    from pycalib_r.calibrators._histogram import _fit_bins

    rng = np.random.default_rng(4)
    for n in (1, 7, 1000):
        p = np.round(rng.random(n), 1)  # many values on the breaks
        p[: min(n, 2)] = [0.0, 1.0][: min(n, 2)]
        for bins in (1, 3, 10, 40):
            breaks = histogram_breaks(p, bins, strategy)
            assert np.array_equal(_fit_bins(p, breaks), find_bins(p, breaks))

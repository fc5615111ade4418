"""Statistical properties of the kernel estimators and tests (as CalibrationTests.jl checks).

Data come from explicit R streams with fixed seeds, so each test is
deterministic; the bounds are wide enough (about four standard errors) that
they hold for essentially any seed, and narrow enough that a biased estimator
or a broken test fails them.
"""

from __future__ import annotations

import numpy as np

import pycalib_r as pc


def _binary(stream, n, miscalibrated=False):
    p = stream.runif(n)
    truth = np.clip(p - 0.3, 0, 1) if miscalibrated else p
    return p, stream.rbinom(n, 1, truth)


def _multiclass(stream, n, k=3, miscalibrated=False):
    raw = -np.log(stream.runif(n * k)).reshape(n, k)  # Dirichlet(1, ..., 1) rows
    p = raw / raw.sum(axis=1, keepdims=True)
    truth = p ** 3 / (p ** 3).sum(axis=1, keepdims=True) if miscalibrated else p
    u = stream.runif(n)
    y = (u[:, None] > np.cumsum(truth, axis=1)).sum(axis=1) + 1
    y = np.minimum(y, k)
    return p, y


def _mean_and_se(values):
    values = np.asarray(values)
    return values.mean(), values.std(ddof=1) / np.sqrt(values.size)


def test_unbiased_estimators_average_to_zero_under_calibration():
    stream = pc.RRandom(101)
    uq, ul, biased = [], [], []
    for _ in range(400):
        p, y = _binary(stream, 80)
        uq.append(pc.skce(p, y, estimator="uq"))
        ul.append(pc.skce(p, y, estimator="ul"))
        biased.append(pc.skce(p, y, estimator="biased"))
    for values in (uq, ul):
        mean, se = _mean_and_se(values)
        assert abs(mean) < 4 * se, (mean, se)
    # the V-statistic keeps its diagonal: clearly positive on average
    mean, se = _mean_and_se(biased)
    assert mean > 10 * se


def test_unbiased_canonical_estimator_averages_to_zero():
    stream = pc.RRandom(202)
    values = [pc.skce(*_multiclass(stream, 60), estimator="uq") for _ in range(200)]
    mean, se = _mean_and_se(values)
    assert abs(mean) < 4 * se, (mean, se)


def _rejection_rate(make, n_sets, level=0.05, **kwargs):
    rejections = 0
    for _ in range(n_sets):
        p, y = make()
        rejections += pc.cal_test(p, y, progress=False, **kwargs).p_value <= level
    return rejections / n_sets


def test_asymptotic_type_one_error_near_level():
    stream = pc.RRandom(303)
    rate = _rejection_rate(lambda: _binary(stream, 200), 400, method="asymptotic")
    # Binomial(400, 0.05): sd 0.011; a valid test stays well inside [0.01, 0.10]
    assert 0.01 <= rate <= 0.10, rate


def test_bootstrap_type_one_error_near_level():
    stream = pc.RRandom(404)
    rate = _rejection_rate(lambda: _binary(stream, 100), 200, n_boot=199, rng=stream)
    assert 0.005 <= rate <= 0.11, rate


def test_canonical_type_one_error_near_level():
    stream = pc.RRandom(505)
    rate = _rejection_rate(lambda: _multiclass(stream, 80), 150, n_boot=99, rng=stream)
    assert rate <= 0.12, rate


def test_power_under_gross_miscalibration():
    stream = pc.RRandom(606)
    assert _rejection_rate(lambda: _binary(stream, 300, miscalibrated=True), 40,
                           n_boot=199, rng=stream) >= 0.95
    assert _rejection_rate(lambda: _binary(stream, 300, miscalibrated=True), 40,
                           method="asymptotic") >= 0.8
    assert _rejection_rate(lambda: _multiclass(stream, 200, miscalibrated=True), 20,
                           n_boot=99, rng=stream) >= 0.9


def test_ci_covers_zero_rarely_under_gross_miscalibration():
    stream = pc.RRandom(707)
    p, y = _binary(stream, 400, miscalibrated=True)
    res = pc.cal_ci(p, y, metric="skce", n_boot=199, rng=stream, progress=False)
    assert res.lower > 0
    assert res.lower <= res.estimate <= res.upper

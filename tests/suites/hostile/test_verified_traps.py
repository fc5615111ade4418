"""Defaults, faces and messages of the verified-calibration functions (issues 45, 46).

- 45.3: the scikit-learn face's multiclass scaling-binning rows sum to one
  (the core keeps its marginal outputs).
- 45.12: brier_score's default bins on continuous predictions.
- 46.15: cal_scaling_binning on a constant p names `p` and why.
"""

from __future__ import annotations

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.calibrators._base import renormalize_rows
from pycalib_r.rbase._errors import ProbcalError


def _calibrated(seed, n):
    pc.set_seed(seed)
    p = np.asarray(pc.runif(n))
    return p, np.asarray(pc.rbinom(n, 1, p))


# -- 45.3 ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def digits():
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_digits(return_X_y=True)
    return X, y


def test_sklearn_scaling_binning_rows_sum_to_one_on_digits(digits):
    sk = pytest.importorskip("pycalib_r.sklearn")
    from sklearn.naive_bayes import GaussianNB

    X, y = digits
    variants = [dict(method="scaling_binning"),
                dict(method="scaling_binning", ensemble=False),
                dict(method="cv", method_args={"calibration_method": "scaling_binning"})]
    for kw in variants:
        m = sk.CalibratedClassifier(GaussianNB(), cv=3, **kw).fit(X[:1200], y[:1200])
        out = m.predict_proba(X[1200:])
        assert out.shape == (X.shape[0] - 1200, 10)
        np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=0, atol=1e-12, err_msg=str(kw))
        assert ((out >= 0) & (out <= 1)).all()
        # the package's own metric now takes the rows
        assert 0 <= sk.expected_calibration_error(y[1200:], out) <= 1


def test_sklearn_normalises_as_calibratedclassifiercv_and_keeps_the_core(digits):
    sk = pytest.importorskip("pycalib_r.sklearn")
    from sklearn.naive_bayes import GaussianNB

    X, y = digits
    P = GaussianNB().fit(X[:600], y[:600]).predict_proba(X[600:])
    est = sk.ProbcalCalibrator(method="scaling_binning", bins=6).fit(P[:600], y[600:1200])
    core = pc.predict(pc.cal_scaling_binning(P[:600], y[600:1200] + 1, bins=6), P[600:])
    assert not np.allclose(core.sum(axis=1), 1)  # the core's marginal form is kept ...
    assert np.array_equal(pc.predict(est.calibrator_, P[600:]), core)
    out = est.predict_proba(P[600:])  # ... and the face divides by the row sums
    assert np.array_equal(out, renormalize_rows(core))
    np.testing.assert_allclose(out, core / core.sum(axis=1, keepdims=True), rtol=1e-15)
    # renormalize=True: the core already normalises; the face leaves it alone
    again = sk.ProbcalCalibrator(method="scaling_binning", bins=6, renormalize=True)
    again.fit(P[:600], y[600:1200])
    assert np.array_equal(again.predict_proba(P[600:]), pc.predict(again.calibrator_, P[600:]))


def test_sklearn_zero_rows_become_uniform():
    sk = pytest.importorskip("pycalib_r.sklearn")
    # scaling="none": bin means of the probabilities themselves, so rows of
    # zeros in every column stay zero in the core; the face makes them uniform.
    P = np.zeros((60, 3))
    P[np.arange(60), np.arange(60) % 3] = 1.0
    P[:6] = 0.0
    y = np.arange(60) % 3
    est = sk.ProbcalCalibrator(method="scaling_binning", scaling="none", bins=2).fit(P, y)
    out = est.predict_proba(P)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=0, atol=1e-15)


# -- 45.12 ---------------------------------------------------------------------

def test_brier_default_is_right_for_continuous_predictions():
    p, y = _calibrated(8, 2000)
    b = pc.brier_score(p, y)
    # a calibrated model: little calibration error, the score is sharpness
    assert b.calibration < 0.01 and b.sharpness > 0.1
    assert b == pc.brier_score(p, y, bins=15)
    unique = pc.brier_score(p, y, bins="unique")
    assert unique.sharpness == 0 and unique.calibration == pytest.approx(unique.brier)


def test_brier_default_is_exact_for_binned_predictions():
    p, y = _calibrated(9, 400)
    r = np.round(p * 10) / 10
    b = pc.brier_score(r, y)
    assert b == pc.brier_score(r, y, bins="unique") and abs(b.within) < 1e-15


# -- 46.15 ---------------------------------------------------------------------

@pytest.mark.parametrize("scaling", ["logistic", "platt", "beta"])
def test_scaling_binning_constant_p_names_p(scaling):
    y = np.arange(50) % 2
    with pytest.raises(ProbcalError) as info:
        pc.cal_scaling_binning(np.full(50, 0.3), y, scaling=scaling)
    msg = str(info.value)
    assert msg.startswith("Argument `p` is constant (0.3)") and "`x`" not in msg
    assert "missing" not in msg and scaling in msg
    assert any('scaling="none"' in n for n in info.value.__notes__)


def test_scaling_binning_constant_column_and_clipped_p():
    y = np.arange(60) % 3 + 1
    P = np.full((60, 3), 1 / 3)
    with pytest.raises(ProbcalError, match=r"^Argument `p` \(column 1\) is constant"):
        pc.cal_scaling_binning(P, y)
    tiny = np.r_[np.full(25, 1e-20), np.full(25, 1e-30)]
    with pytest.raises(ProbcalError, match="constant on the logit scale"):
        pc.cal_scaling_binning(tiny, np.arange(50) % 2)
    with pytest.raises(ProbcalError, match=r"^The beta scaling step fitted on `p`"):
        pc.cal_scaling_binning(tiny, np.arange(50) % 2, scaling="beta")


def test_scaling_binning_constant_p_where_the_method_defines_it():
    # scaling="none" and "temperature" are defined on a constant p.
    y = np.arange(50) % 2
    for scaling in ("none", "temperature"):
        fit = pc.cal_scaling_binning(np.full(50, 0.3), y, scaling=scaling)
        assert np.isfinite(pc.predict(fit, [0.3, 0.5])).all()


# -- 45.15 ---------------------------------------------------------------------

def _lists_of_length(d, n, path=""):
    """Paths of the lists of length n anywhere in the plain data ``d``."""
    out = []
    if isinstance(d, dict):
        for k, v in d.items():
            out += _lists_of_length(v, n, f"{path}.{k}")
    elif isinstance(d, list):
        if len(d) == n:
            out.append(path)
        for i, v in enumerate(d):
            out += _lists_of_length(v, n, f"{path}[{i}]")
    return out


def _fits(n=137):
    pc.set_seed(1)
    p = np.asarray(pc.runif(n))
    y = np.asarray(pc.rbinom(n, 1, p))
    z = np.reshape(np.asarray(pc.rnorm(n * 3)), (n, 3))
    P = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    codes = np.asarray(pc.sample_int(3, n, replace=True))
    return {
        "platt": pc.cal_platt(p, y), "beta": pc.cal_beta(p, y), "isotonic": pc.cal_isotonic(p, y),
        "histogram": pc.cal_histogram(p, y), "temperature": pc.cal_temperature(z, codes),
        "vector_scaling": pc.cal_vector_scaling(z, codes), "dirichlet": pc.cal_dirichlet(P, codes),
        "ovr": pc.cal_ovr(P, codes, method="platt"), "cv": pc.cal_cv(p, y),
        "scaling_binning": pc.cal_scaling_binning(P, codes),
    }


def test_to_dict_gives_parameters_only():
    import json
    import pickle

    n = 137
    for name, fit in _fits(n).items():
        d = fit.to_dict()
        rows = _lists_of_length(d, n)
        if name == "isotonic":  # the map itself: one threshold per distinct prediction
            assert rows == [".x_thresholds", ".y_calibrated"], rows
        else:
            assert rows == [], (name, rows)
        json.dumps(d, allow_nan=False)
        full = fit.to_dict(data=True)
        assert set(d) <= set(full) and json.loads(json.dumps(full)) == full
        # the fit still predicts from what it holds, and pickles as before
        again = pickle.loads(pickle.dumps(fit))
        assert again.to_dict(data=True) == full and again.to_dict() == d


def test_to_dict_of_platt_no_longer_carries_the_labels():
    import json

    pc.set_seed(2)
    p = np.asarray(pc.runif(5000))
    y = np.asarray(pc.rbinom(5000, 1, p))
    fit = pc.cal_platt(p, y)
    d = fit.to_dict()
    assert len(json.dumps(d)) < 2000
    assert d["coefficients"] == fit.coefficients
    assert d["fit"]["deviance"] == fit.fit.deviance and "y" not in d["fit"]
    full = fit.to_dict(data=True)
    # glm's y is Platt's targets: the labels are the targets above 1/2
    assert np.array_equal(np.asarray(full["fit"]["y"]) > 0.5, y == 1)
    assert len(json.dumps(full)) > 800_000
    # results keep every component (they hold no training rows)
    res = pc.cal_test(p[:200], y[:200], n_boot=19)
    assert res.to_dict() == res.to_dict(data=True)


def test_to_dict_data_reaches_nested_calibrators():
    fits = _fits()
    for name in ("ovr", "cv", "scaling_binning"):
        full = fits[name].to_dict(data=True)
        assert _lists_of_length(full, 137), name  # the nested glm fits' rows are there

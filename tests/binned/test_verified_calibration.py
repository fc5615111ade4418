"""Kumar, Liang & Ma (2019): calibration_error, brier_score, cal_scaling_binning,
the Python-only bins of the binned metrics, cal_ovr(renormalize=False), and a
small run of tools/kumar_claims.py (the paper's three claims)."""

from __future__ import annotations

import importlib.util
import math
import pickle

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.binned._binning import bin_groups, equal_mass_edges
from pycalib_r.calibrators._base import renormalize_rows
from pycalib_r.rbase._errors import ProbcalError
from tests.conftest import REPO


@pytest.fixture(scope="module")
def binary():
    pc.set_seed(31)
    p = np.asarray(pc.runif(400))
    return p, np.asarray(pc.rbinom(400, 1, p ** 1.5))


@pytest.fixture(scope="module")
def multi():
    pc.set_seed(30)
    z = np.reshape(np.asarray(pc.rnorm(900)), (300, 3), order="F")
    q = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    u = np.asarray(pc.runif(300))
    y = np.minimum((np.cumsum(q, axis=1) < u[:, None]).sum(axis=1), 2) + 1
    p = np.exp(2 * z) / np.exp(2 * z).sum(axis=1, keepdims=True)
    return p, y


# -- calibration_error --------------------------------------------------------

def test_debiased_l2_is_ece_debiased_and_l1_is_ece(binary, multi):
    p, y = binary
    for bins in (10, 15, 40):
        sq = pc.calibration_error(p, y, bins=bins, strategy="equal_width", squared=True)
        assert sq == pc.ece(p, y, bins=bins, debiased=True)
        l1 = pc.calibration_error(p, y, norm=1, bins=bins, strategy="equal_width", debiased=False)
        assert l1 == pc.ece(p, y, bins=bins)
        mx = pc.calibration_error(p, y, norm=math.inf, bins=bins, strategy="equal_width",
                                  debiased=False)
        assert mx == pc.mce(p, y, bins=bins)
    P, Y = multi
    assert pc.calibration_error(P, Y, norm=1, bins=10, strategy="equal_width", debiased=False,
                                type="classwise") == pytest.approx(pc.ece(P, Y), rel=1e-15)


def test_lp_definitions(binary):
    p, y = binary
    ids, n_ids, _ = bin_groups(p, 15, "equal_mass")
    counts = np.bincount(ids)
    conf = np.bincount(ids, weights=p) / counts
    acc = np.bincount(ids, weights=y) / counts
    for norm in (1, 2, 3, 4.5):
        expected = np.sum(counts / 400 * np.abs(acc - conf) ** norm) ** (1 / norm)
        got = pc.calibration_error(p, y, norm=norm, debiased=False)
        assert got == pytest.approx(expected, rel=1e-12)
    sq = np.sum(counts / 400 * ((acc - conf) ** 2 - acc * (1 - acc) / (counts - 1)))
    assert pc.calibration_error(p, y, squared=True) == pytest.approx(sq, rel=1e-12)
    assert pc.calibration_error(p, y) == pytest.approx(math.sqrt(max(sq, 0)), rel=1e-12)


def test_marginal_weights_and_top(multi):
    P, Y = multi
    per = [pc.calibration_error(P[:, k], (Y == k + 1).astype(int), norm=2, debiased=False)
           for k in range(3)]
    w = np.array([0.5, 0.3, 0.2])
    got = pc.calibration_error(P, Y, debiased=False, class_weights=w)
    assert got == pytest.approx(math.sqrt(np.sum(w * np.square(per))), rel=1e-12)
    assert pc.calibration_error(P, Y, debiased=False) == pytest.approx(
        math.sqrt(np.mean(np.square(per))), rel=1e-12)
    assert pc.calibration_error(P, Y, debiased=False, type="classwise") == pytest.approx(
        np.mean(per), rel=1e-12)
    top = pc.calibration_error(P, Y, type="top", debiased=False)
    correct = (P.argmax(axis=1) + 1 == Y).astype(int)
    assert top == pc.calibration_error(P.max(axis=1), correct, debiased=False)


def test_debiased_lp_uses_the_r_stream(binary):
    p, y = binary
    pc.set_seed(4)
    a = pc.calibration_error(p, y, norm=1, bins=10)
    after = pc.runif(1)
    pc.set_seed(4)
    assert pc.calibration_error(p, y, norm=1, bins=10) == a
    # R's rnorm(B * 1000, rep(acc, 1000), rep(sd, 1000)): one draw per bin and
    # resample, none where sd is 0 (a bin whose labels are all equal), as in R.
    ids, n_ids, _ = bin_groups(p, 10, "equal_mass")
    acc = np.bincount(ids, weights=y) / np.bincount(ids)
    varying = int(np.sum((acc > 0) & (acc < 1)))
    pc.set_seed(4)
    pc.rnorm(varying * 1000)
    assert pc.runif(1) == after
    assert pc.calibration_error(p, y, norm=1, bins=10, rng=5) == \
        pc.calibration_error(p, y, norm=1, bins=10, rng=pc.RRandom(5))
    plug = pc.calibration_error(p, y, norm=1, bins=10, debiased=False)
    assert a < plug  # the correction removes the upward bias


def test_calibration_error_refusals(binary, multi):
    p, y = binary
    P, Y = multi
    with pytest.raises(ProbcalError, match="norm"):
        pc.calibration_error(p, y, norm=0.5)
    with pytest.raises(ProbcalError, match="squared"):
        pc.calibration_error(p, y, norm=1, squared=True)
    with pytest.raises(ProbcalError, match="weights"):
        pc.calibration_error(p, y, weights=[1])
    with pytest.raises(ProbcalError, match="3 non-negative"):
        pc.calibration_error(P, Y, class_weights=[1, 2])
    with pytest.raises(ProbcalError, match="at least 2"):
        pc.calibration_error(p, y, norm=1, bins="unique")
    with pytest.raises(ProbcalError, match="should be one of"):
        pc.calibration_error(p, y, strategy="quantile")


# -- bins = edges / "unique" in the R metrics ---------------------------------

def test_python_only_bins_in_ece_mce_ace(binary):
    p, y = binary
    edges = np.linspace(0, 1, 11)
    for f in (pc.ece, pc.mce, pc.ace):
        assert f(p, y, bins=edges) == f(p, y, bins=10)
    rounded = np.round(p, 1)
    assert pc.ece(rounded, y, bins="unique") == pytest.approx(
        pc.calibration_error(rounded, y, norm=1, bins="unique", debiased=False), rel=1e-15)
    # Each distinct value its own bin: bins=10**5 gives the same (the old workaround).
    assert pc.ece(rounded, y, bins="unique") == pc.ece(rounded, y, bins=10 ** 5)
    table = pc.reliability_table(rounded, y, bins="unique")
    assert list(table["lower"]) == list(np.unique(rounded))
    assert table["n"].sum() == 400


def test_bad_edges_keep_rs_message(binary):
    p, y = binary
    with pytest.raises(ProbcalError) as err:
        pc.ece(p, y, bins=[2, 3])
    assert str(err.value) == "Argument `bins` must be a single positive integer."
    assert any("unique" in n for n in err.value.__notes__)
    with pytest.raises(ProbcalError, match="single positive integer"):
        pc.ace(p, y, bins=[0, 0.5, 0.4, 1])


def test_equal_mass_edges_cut_like_array_split():
    x = np.arange(1.0, 11.0) / 11
    e = equal_mass_edges(x, 3)  # runs of 4, 3, 3
    assert np.allclose(e, [0, (x[3] + x[4]) / 2, (x[6] + x[7]) / 2, 1])
    assert equal_mass_edges(x, 50).size == 11  # at most n bins


# -- brier_score --------------------------------------------------------------

def test_brier_score_and_decomposition(binary, multi):
    p, y = binary
    b = pc.brier_score(p, y, bins=15)
    assert b.brier == pytest.approx(np.mean((p - y) ** 2), rel=1e-14)
    assert b.calibration == pytest.approx(pc.calibration_error(p, y, debiased=False,
                                                               squared=True), rel=1e-12)
    assert b.sharpness == pytest.approx(b.uncertainty - b.resolution, abs=1e-15)
    r = np.round(p, 1)
    exact = pc.brier_score(r, y)
    assert abs(exact.within) < 1e-15  # exact for a binned model with bins="unique"
    P, Y = multi
    onehot = np.eye(3)[Y - 1]
    assert pc.brier_score(P, Y).brier == pytest.approx(np.mean(np.sum((P - onehot) ** 2, 1)))
    assert "Brier score" in str(b)


# -- cal_scaling_binning ------------------------------------------------------

def test_scaling_binning_outputs_at_most_bins_values(binary, multi):
    p, y = binary
    for bins in (3, 10, 25):
        fit = pc.cal_scaling_binning(p, y, bins=bins)
        out = pc.predict(fit, np.asarray(pc.runif(2000)))
        assert np.unique(out).size <= bins
        # Each bin's value is the mean of the scaled outputs in it (all rows: split "none").
        z = fit.scalers[0].predict(pc.logit(p, eps=1e-12))
        ids = np.searchsorted(fit.breaks[0], z, side="right") - 1
        ids = np.clip(ids, 0, fit.breaks[0].size - 2)
        assert np.allclose(fit.bin_values[0], [z[ids == j].mean() for j in range(ids.max() + 1)],
                           rtol=1e-14)
    P, Y = multi
    fit = pc.cal_scaling_binning(P, Y, bins=5)
    out = pc.predict(fit, P)
    assert out.shape == P.shape
    assert all(np.unique(out[:, k]).size <= 5 for k in range(3))
    assert not np.allclose(out.sum(axis=1), 1)  # marginal: not renormalised
    norm = pc.predict(pc.cal_scaling_binning(P, Y, bins=5, renormalize=True), P)
    assert np.allclose(norm.sum(axis=1), 1)
    top = pc.predict(pc.cal_scaling_binning(P, Y, bins=5, type="top"), P)
    assert top.shape == (300,)


def test_scaling_binning_split_is_reproducible(binary):
    p, y = binary
    a = pc.cal_scaling_binning(p, y, split="paper", seed=3)
    b = pc.cal_scaling_binning(p, y, split=(1, 1, 1), seed=3)
    assert np.array_equal(a.bin_values[0], b.bin_values[0])
    pc.set_seed(3)
    c = pc.cal_scaling_binning(p, y, split="paper")
    assert np.array_equal(a.bin_values[0], c.bin_values[0])
    assert a.call == 'cal_scaling_binning(p = p, y = y, split = "paper")'
    assert not np.array_equal(a.bin_values[0], pc.cal_scaling_binning(p, y).bin_values[0])


def test_scaling_binning_methods_print_and_pickle(binary):
    p, y = binary
    for scaling in ("logistic", "platt", "temperature", "beta", "none"):
        fit = pc.cal_scaling_binning(p, y, scaling=scaling)
        assert f"Scaling: {scaling}" in str(pc.summary(fit))
        again = pickle.loads(pickle.dumps(fit))
        assert np.array_equal(pc.predict(again, p[:5]), pc.predict(fit, p[:5]))
    with pytest.raises(ProbcalError, match="split"):
        pc.cal_scaling_binning(p, y, split=(1, 1))


def test_scaling_binning_in_cal_cv_and_dask(binary, multi):
    p, y = binary
    fit = pc.cal_cv(p, y, method="scaling_binning", folds=3, seed=1, bins=5)
    assert fit.final_calibrator.inherits("cal_scaling_binning")
    assert np.unique(fit.oof_predictions).size <= 15
    da = pytest.importorskip("dask.array")
    lazy = pc.predict(fit, da.from_array(p, chunks=100)).compute()
    assert np.array_equal(lazy, pc.predict(fit, p))
    P, Y = multi
    mfit = pc.cal_cv(P, Y, method="scaling_binning", folds=3, seed=1)
    assert mfit.oof_predictions.shape == P.shape
    lazy = pc.predict(mfit, da.from_array(P, chunks=(100, 3))).compute()
    assert np.array_equal(lazy, pc.predict(mfit, P))


def test_cal_ovr_renormalize_switch(multi):
    P, Y = multi
    r = pc.cal_ovr(P, Y, method="histogram", bins=5)
    raw = pc.cal_ovr(P, Y, method="histogram", bins=5, renormalize=False)
    assert "renormalize" not in r.keys() and raw["renormalize"] is False
    cols = np.column_stack([pc.predict(c, P[:, j]) for j, c in enumerate(raw.calibrators)])
    assert np.array_equal(pc.predict(raw, P), cols)
    assert np.allclose(pc.predict(r, P), cols / cols.sum(axis=1, keepdims=True))
    assert raw.call.endswith("renormalize = FALSE)")


# -- the paper's claims, small ------------------------------------------------

def test_claims_hold_on_a_small_run():
    spec = importlib.util.spec_from_file_location("kumar_claims", REPO / "tools" / "kumar_claims.py")
    claims = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(claims)
    result = claims.run(small=True)
    assert claims.holds(result) == {"a": True, "b": True, "c": True}
    assert "holds" in claims.markdown(result)


def test_scaling_binning_in_the_sklearn_face(binary, multi):
    sk = pytest.importorskip("pycalib_r.sklearn")
    p, y = binary
    cal = sk.ProbcalCalibrator(method="scaling_binning", bins=5).fit(p, y)
    direct = pc.predict(pc.cal_scaling_binning(p, y, bins=5), p[:4])
    assert np.array_equal(cal.predict_proba(p[:4])[:, 1], direct)
    # The n x 2 predict_proba output is read as the positive column, as for histogram.
    both = np.column_stack([1 - p, p])
    assert np.array_equal(sk.ProbcalCalibrator(method="scaling_binning", bins=5).fit(both, y)
                          .predict_proba(both[:4])[:, 1], direct)
    P, Y = multi
    mc = sk.ProbcalCalibrator(method="scaling_binning").fit(P, Y)
    core = pc.predict(pc.cal_scaling_binning(P, Y), P)
    # predict_proba's rows sum to one (scikit-learn's contract); calibrator_
    # keeps the core's marginal outputs.
    assert np.array_equal(mc.predict_proba(P), renormalize_rows(core))
    assert np.array_equal(pc.predict(mc.calibrator_, P), core)
    from sklearn.linear_model import LogisticRegression

    X = np.column_stack([np.log(P[:, 0] / P[:, 2]), np.log(P[:, 1] / P[:, 2])])
    clf = sk.CalibratedClassifier(LogisticRegression(), method="scaling_binning",
                                  method_args={"bins": 4}).fit(X, Y)
    out = clf.predict_proba(X)
    assert out.shape == (300, 3) and ((out >= 0) & (out <= 1)).all()
    one = sk.CalibratedClassifier(LogisticRegression(), method="scaling_binning", ensemble=False,
                                  method_args={"bins": 4}).fit(X, Y)
    assert np.allclose(one.predict_proba(X).sum(axis=1), 1, rtol=0, atol=1e-15)
    marginal = pc.predict(one.calibrated_classifiers_[0].calibrator.calibrator_,
                          one.calibrated_classifiers_[0].estimator.predict_proba(X))
    assert all(np.unique(marginal[:, k]).size <= 4 for k in range(3))

"""cal_venn_abers: the definition, the package's answers, the kernel's twin, validity.

- The definition: each (p0, p1) equals an isotonic fit (exact PAV in
  fractions) of the calibration set with the test point added, labelled 0
  or 1 (random small cases, ties included): equal as doubles.
- The ``venn-abers`` package (1.5.4; tests/_venn_abers_cases.py): binary
  inductive and cross (the package's folds), multiclass one-vs-one and
  one-vs-rest, live when it is importable, else the stored values
  (reference/venn_abers_crosscheck.json, its version recorded); largest
  difference 0 (bit-equal) on the stored seed and on held-out seeds.
- The C kernel against its Python twin, the same integers, and every output
  the same bits both ways of ``PYCALIB_R_NATIVE``.
- Validity (Vovk & Petej 2014, Theorem 1): over fresh calibration sets, the
  frequency of y = 1 among test points whose realised prediction p_y falls
  in a band equals that band's mean p_y within Monte Carlo error.
"""

from __future__ import annotations

import json
import pickle
import sys
import warnings
from fractions import Fraction

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.calibrators import _venn_abers as va
from pycalib_r.rbase._errors import ProbcalError
from tests import _venn_abers_cases as vc
from tests.conftest import REPO

STORED = json.loads((REPO / "reference" / "venn_abers_crosscheck.json").read_text(encoding="utf-8"))

_NP_ERR = np.geterr()
try:
    import venn_abers
except ImportError:  # the package is a test extra: stored values then
    venn_abers = None
finally:
    # venn_abers calls np.seterr(divide="ignore", invalid="ignore") when
    # imported: the process's numpy error state is put back for every other test.
    np.seterr(**_NP_ERR)


# --- the definition -----------------------------------------------------------

def _pav(values, weights):
    blocks = []
    for v, w in zip(values, weights):
        blocks.append([v * w, w, 1])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] >= blocks[-1][0] * blocks[-2][1]:
            s, c, m = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += c
            blocks[-1][2] += m
    out = []
    for s, c, m in blocks:
        out += [s / c] * m
    return out


def _one_fit(p, y, s, label):
    """The isotonic fit at ``s`` of the calibration set plus (s, label), tied scores pooled."""
    pts = list(zip(p.tolist(), y.tolist())) + [(float(s), label)]
    scores = sorted({q for q, _ in pts})
    ones = dict.fromkeys(scores, 0)
    rows = dict.fromkeys(scores, 0)
    for q, lab in pts:
        ones[q] += lab
        rows[q] += 1
    fit = _pav([Fraction(ones[v], rows[v]) for v in scores], [rows[v] for v in scores])
    return float(fit[scores.index(float(s))])


@pytest.mark.parametrize("seed", range(6))
def test_each_pair_is_two_isotonic_fits_with_the_test_point_added(seed):
    g = np.random.default_rng(seed)
    for _ in range(25):
        n = int(g.integers(1, 60))
        levels = int(g.integers(1, 15))
        p = np.round(g.uniform(size=n) * levels) / levels if seed % 2 else g.uniform(size=n)
        y = g.binomial(1, p ** g.uniform(0.3, 3)).astype(np.int64)
        table = va._ivap(p, y)
        tests = np.concatenate((np.unique(p), g.uniform(size=6), [0.0, 1.0]))
        p0, p1 = table.pairs(tests)
        assert p0.tolist() == [_one_fit(p, y, s, 0) for s in tests]
        assert p1.tolist() == [_one_fit(p, y, s, 1) for s in tests]


# --- the package ---------------------------------------------------------------

def _check(mine, ref):
    diffs = vc.largest_differences(mine, ref)
    worst = max(diffs.values())
    assert worst <= vc.RTOL, {k: v for k, v in diffs.items() if v > vc.RTOL}
    return worst


def test_equals_the_venn_abers_package():
    d = vc.make_data(STORED["seed"])
    ref = vc.theirs(d) if venn_abers is not None else STORED["values"]
    _check(vc.ours(d, ref), ref)
    assert set(ref) == set(vc.CASES)


@pytest.mark.skipif(venn_abers is None, reason="the venn-abers package (test extra) is not installed")
@pytest.mark.parametrize("seed", [101, 202, 303])
def test_equals_the_package_on_held_out_seeds(seed):
    d = vc.make_data(seed)
    ref = vc.theirs(d)
    _check(vc.ours(d, ref), ref)


@pytest.mark.skipif(venn_abers is None, reason="the venn-abers package (test extra) is not installed")
def test_stored_values_are_the_installed_packages():
    from importlib import metadata

    assert STORED["package_version"] == metadata.version("venn-abers")
    d = vc.make_data(STORED["seed"])
    live = vc.theirs(d)
    assert vc.largest_differences(live, STORED["values"]) == dict.fromkeys(
        vc.largest_differences(live, STORED["values"]), 0.0)


# --- the kernel ------------------------------------------------------------------

def _diagram(g, n, levels):
    p = np.round(g.uniform(size=n) ** g.uniform(0.2, 3), levels)
    y = g.binomial(1, np.clip(p + g.normal(0, 0.2, n), 0, 1)).astype(np.int64)
    _, counts, ones = va._grouped(p, y)
    return va._diagram(counts, ones)


@pytest.mark.parametrize("levels", [1, 2, 3, 6])
def test_kernel_gives_the_twins_integers(levels):
    from pycalib_r import _native

    kern = _native.kernels("venn")
    if kern is None:
        pytest.skip("the compiled kernels do not run here")
    g = np.random.default_rng(levels)
    for _ in range(4):
        X, Y = _diagram(g, 3000, levels)
        k = X.size - 1
        num, den = kern.venn_bridge(X, Y, np.empty(k, dtype=np.int64), np.empty(k, dtype=np.int64))
        tnum, tden = va._bridge_twin(X, Y)
        assert np.array_equal(num, tnum) and np.array_equal(den, tden)


_CALLS = """
import json
import numpy as np
import pycalib_r as pc
pc.set_seed(9)
p = np.asarray(pc.runif(3000)); y = np.asarray(pc.rbinom(3000, 1, p ** 2))
t = np.asarray(pc.runif(500))
P = np.reshape(np.asarray(pc.runif(3000 * 3)), (3000, 3)); P /= P.sum(1, keepdims=True)
k = np.argmax(P + np.reshape(np.asarray(pc.runif(9000, max=0.6)), (3000, 3)), 1) + 1
out = {"ivap": pc.predict(pc.cal_venn_abers(p, y), t),
       "cvap": pc.cal_venn_abers(p, y, type="cross", seed=1).predict(t, interval=True).ravel(),
       "ovo": pc.predict(pc.cal_venn_abers(P, k), P[:200]).ravel(),
       "ovr": pc.predict(pc.cal_venn_abers(P, k, type="cross", multiclass="one_vs_rest", seed=2),
                         P[:200]).ravel()}
out = {key: [float(v).hex() for v in val] for key, val in out.items()}
out["native"] = __import__("pycalib_r._native", fromlist=["x"]).available()
print(json.dumps(out))
"""


def test_both_ways_of_the_switch_give_the_same_bits():
    from tests.native.test_native import _child

    on = _child(_CALLS)
    off = _child(_CALLS, PYCALIB_R_NATIVE="0")
    assert off.pop("native") is False
    on.pop("native")
    assert on == off


# --- validity ------------------------------------------------------------------

def _replications(reps, n, seed, truth):
    """``reps`` fresh calibration sets of ``n`` rows, one fresh test point each:
    ``(p0, p1, y)`` of the test points."""
    g = np.random.default_rng(seed)
    out = np.empty((reps, 3))
    for r in range(reps):
        s = g.uniform(size=n + 1)
        y = (g.uniform(size=n + 1) < truth(s)).astype(np.int64)
        if y[:n].min() == y[:n].max():
            y[0] = 1 - y[0]
        fit = va.cal_venn_abers(s[:n], y[:n])
        out[r, :2] = fit.predict(s[n:], interval=True)[0]
        out[r, 2] = y[n]
    return out


@pytest.mark.parametrize("truth", [lambda s: s, lambda s: s ** 3], ids=["calibrated", "overconfident"])
def test_the_realised_prediction_is_calibrated(truth):
    # Vovk & Petej (2014), Theorem 1: E(y | p_y) = p_y, p_y = p1 if y = 1 else
    # p0, over calibration and test sets drawn together. 3000 replications
    # (n = 40), p_y cut into 5 bands of equal count; in each, mean(y - p_y)
    # must be within 4 standard errors of 0 (false alarm about 3e-4 for the
    # five bands; the seeds are fixed).
    res = _replications(3000, 40, 11, truth)
    p_y = np.where(res[:, 2] == 1, res[:, 1], res[:, 0])
    resid = res[:, 2] - p_y
    for band in np.array_split(np.argsort(p_y, kind="stable"), 5):
        se = resid[band].std(ddof=1) / np.sqrt(band.size)
        assert abs(resid[band].mean()) <= 4 * se, (p_y[band].mean(), resid[band].mean(), se)
    # The test can fail: the other member of the pair (p0 when y = 1, p1 when
    # y = 0) in place of p_y is beyond 4 standard errors in some band.
    wrong = np.where(res[:, 2] == 1, res[:, 0], res[:, 1])
    off = res[:, 2] - wrong
    worst = max(abs(off[b].mean()) / (off[b].std(ddof=1) / np.sqrt(b.size))
                for b in np.array_split(np.argsort(wrong, kind="stable"), 5))
    assert worst > 4


def test_frequency_in_a_band_lies_between_p0_and_p1():
    # On calibrated data (y ~ Bernoulli(s)), bands of the pair's midpoint: the
    # frequency of y = 1 lies in [mean p0, mean p1] up to 4 standard errors.
    res = _replications(3000, 40, 12, lambda s: s)
    mid = (res[:, 0] + res[:, 1]) / 2
    for band in np.array_split(np.argsort(mid, kind="stable"), 5):
        freq = res[band, 2].mean()
        se = np.sqrt(max(freq * (1 - freq), 1e-3) / band.size)
        lo, hi = res[band, 0].mean(), res[band, 1].mean()
        assert lo - 4 * se <= freq <= hi + 4 * se, (lo, freq, hi, se)


# --- the calibrator --------------------------------------------------------------

def _binary(n=300, seed=3):
    pc.set_seed(seed)
    p = np.asarray(pc.runif(n))
    return p, np.asarray(pc.rbinom(n, 1, p ** 2))


def test_print_summary_and_pickle():
    p, y = _binary()
    fit = pc.cal_venn_abers(p, y, type="cross", folds=4, seed=1)
    assert fit.r_classes == ("cal_venn_abers", "calibrator")
    assert str(pc.summary(fit)).endswith("Type: cross\nFolds: 4")
    assert fit.call == 'cal_venn_abers(p = p, y = y, type = "cross", folds = 4, seed = 1)'
    back = pickle.loads(pickle.dumps(fit))
    assert np.array_equal(pc.predict(back, p), pc.predict(fit, p))
    json.dumps(fit.to_dict())


def test_cross_merges_the_folds_by_geometric_means():
    p, y = _binary()
    fit = pc.cal_venn_abers(p, y, type="cross", folds=3, seed=2)
    assert np.array_equal(fit.fold_id, pc.cal_cv(p, y, method="isotonic", folds=3, seed=2).fold_id)
    t = np.linspace(0, 1, 33)
    pairs = [pc.cal_venn_abers(p[fit.fold_id == f], y[fit.fold_id == f]).predict(t, interval=True)
             for f in (1, 2, 3)]
    g1 = np.prod([q[:, 1] for q in pairs], axis=0) ** (1 / 3)
    g0 = np.prod([1 - q[:, 0] for q in pairs], axis=0) ** (1 / 3)
    np.testing.assert_allclose(pc.predict(fit, t), g1 / (g0 + g1), rtol=1e-15, atol=0)
    np.testing.assert_allclose(fit.predict(t, interval=True), np.column_stack((1 - g0, g1)),
                               rtol=1e-15, atol=0)


def test_multiclass_cross_uses_each_problems_rows_folds():
    d = vc.make_data(5)
    fit = pc.cal_venn_abers(d["P"], d["codes"], type="cross", folds=3, seed=4)
    assert fit.r_classes == ("cal_venn_abers", "cal_multiclass", "calibrator")
    rows = np.flatnonzero((d["codes"] == 1) | (d["codes"] == 3))
    score = d["P"][rows, 2] / (d["P"][rows, 0] + d["P"][rows, 2])
    binary = pc.cal_venn_abers(score, (d["codes"][rows] == 3).astype(int), type="cross",
                               folds=fit.fold_id[rows])
    t = d["P_new"][:, 2] / (d["P_new"][:, 0] + d["P_new"][:, 2])
    which = fit.problems.index((0, 2))
    assert np.array_equal(fit.predict(d["P_new"], interval=True)[:, which, :],
                          binary.predict(t, interval=True))
    out = pc.predict(fit, d["P_new"])
    np.testing.assert_allclose(out.sum(axis=1), 1, rtol=1e-14)


def test_large_inputs_take_the_sorted_search():
    g = np.random.default_rng(0)
    p = g.uniform(size=20000)
    y = (g.uniform(size=20000) < p).astype(np.int64)
    t = g.uniform(size=9000)
    table = pc.cal_venn_abers(p, y).tables[0][0]
    p0, p1 = table.pairs(t)
    j = np.searchsorted(table.thresholds, t, side="left")
    jr = np.searchsorted(table.thresholds, t, side="right")
    assert np.array_equal(p1, np.where(j < table.thresholds.size,
                                       table.p1[np.minimum(j, table.thresholds.size - 1)], 1.0))
    assert np.array_equal(p0, np.where(jr > 0, table.p0[jr - 1], 0.0))


def test_errors():
    p, y = _binary(60)
    with pytest.raises(ProbcalError, match="should be one of"):
        pc.cal_venn_abers(p, y, type="full")
    with pytest.raises(ProbcalError, match="`p`"):
        pc.cal_venn_abers(p * 2, y)
    with pytest.raises(ProbcalError, match="smallest class count"):
        pc.cal_venn_abers(p, y, type="cross", folds=59)
    with pytest.raises(ProbcalError, match="fold labels"):
        pc.cal_venn_abers(p, y, type="cross", folds=np.r_[np.zeros(30, int), np.ones(30, int)])
    with pytest.raises(ProbcalError, match="`seed`"):
        pc.cal_venn_abers(p, y, seed=1.5)
    fit = pc.cal_venn_abers(p, y)
    with pytest.raises(ProbcalError, match="`interval`"):
        fit.predict(p, interval="yes")
    with pytest.raises(ProbcalError, match="`newdata`"):
        pc.predict(fit, [1.5])
    d = vc.make_data(1)
    mfit = pc.cal_venn_abers(d["P"], d["codes"])
    with pytest.raises(ProbcalError, match="4 columns"):
        pc.predict(mfit, d["P_new"][:, :3])
    with pytest.raises(ProbcalError, match="3 classes but the input has 4 columns"):
        pc.cal_venn_abers(d["P"], np.where(d["codes"] == 4, 1, d["codes"]))


def test_inputs_are_not_mutated():
    p, y = _binary()
    p0, y0 = p.copy(), y.copy()
    fit = pc.cal_venn_abers(p, y, type="cross", seed=1)
    pc.predict(fit, p)
    assert np.array_equal(p, p0) and np.array_equal(y, y0)


def test_is_exported_python_only():
    assert "cal_venn_abers" in pc.__all__
    assert "Python-only" in pc.cal_venn_abers.__doc__
    assert sys.modules["pycalib_r.calibrators._venn_abers"].__doc__.startswith("Inductive and cross")


# --- cal_cv and cal_ovr ------------------------------------------------------------

def test_cal_cv_takes_venn_abers():
    p, y = _binary()
    fit = pc.cal_cv(p, y, method="venn_abers", folds=3, seed=1, type="cross")
    assert fit.method == "cross-validated Venn-ABERS (cross)"
    assert fit.final_calibrator.r_classes[0] == "cal_venn_abers"
    rows = fit.fold_id == 2
    inductive = pc.cal_cv(p, y, method="venn_abers", folds=3, seed=1)
    held = pc.cal_venn_abers(p[~rows], y[~rows])
    assert np.array_equal(inductive.oof_predictions[rows], pc.predict(held, p[rows]))
    with pytest.raises(ProbcalError, match="`x`"):
        pc.cal_cv(p * 2, y, method="venn_abers")
    d = vc.make_data(2)
    mc = pc.cal_cv(d["P"], d["codes"], method="venn_abers", folds=3, seed=1, multiclass="one_vs_rest")
    assert mc.oof_predictions.shape == d["P"].shape
    assert mc.final_calibrator.multiclass == "one_vs_rest"


def test_cal_ovr_takes_venn_abers():
    d = vc.make_data(3)
    fit = pc.cal_ovr(d["P"], d["codes"], method="venn_abers")
    assert fit.method == "one-vs-rest Venn-ABERS (inductive)"
    direct = pc.cal_venn_abers(d["P"], d["codes"], multiclass="one_vs_rest")
    np.testing.assert_allclose(pc.predict(fit, d["P_new"]), pc.predict(direct, d["P_new"]),
                               rtol=0, atol=1e-15)
    with pytest.raises(ProbcalError, match="should be one of"):
        pc.cal_ovr(d["P"], d["codes"], method="venn")  # exact name only, as cal_cv's


def test_given_folds_must_hold_rows_of_every_problem():
    d = vc.make_data(4)
    # classes 1 and 2 in fold 1 only: their pair has no rows in fold 2
    folds = np.where(d["codes"] <= 2, 1, np.arange(d["codes"].size) % 2 + 1)
    with pytest.raises(ProbcalError, match="fold 2 holds no rows of classes 1 and 2"):
        pc.cal_venn_abers(d["P"], d["codes"], type="cross", folds=folds)


# ---------------------------------------------------------------------------
# The faces reach it through the calibrator registry
# ---------------------------------------------------------------------------

def test_the_sklearn_face_fits_the_core_calibrator():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import ProbcalCalibrator

    g = np.random.default_rng(71)
    p = g.random(300)
    y = (g.random(300) < p).astype(np.int64)
    new = g.random(40)
    est = ProbcalCalibrator(method="venn_abers").fit(p, y)
    core = pc.predict(pc.cal_venn_abers(p, y), new)
    assert np.array_equal(est.predict_proba(new)[:, 1], core)
    P = g.dirichlet(np.ones(3), size=200)
    y3 = g.integers(0, 3, 200)
    est3 = ProbcalCalibrator(method="venn_abers", multiclass="one_vs_rest").fit(P, y3)
    core3 = pc.predict(pc.cal_venn_abers(P, y3 + 1, multiclass="one_vs_rest"), P[:5])
    got = est3.predict_proba(P[:5])
    assert np.allclose(got, core3 / core3.sum(axis=1, keepdims=True), rtol=0, atol=1e-15)


def test_the_command_line_fits_the_core_calibrator(tmp_path):
    import subprocess
    import sys

    import pandas as pd

    from tests.conftest import ORIGINAL_ENV

    g = np.random.default_rng(72)
    p = g.random(150)
    y = (g.random(150) < p).astype(np.int64)
    fit_csv, new_csv, out_csv = tmp_path / "fit.csv", tmp_path / "new.csv", tmp_path / "out.csv"
    pd.DataFrame({"score": p, "label": y}).to_csv(fit_csv, index=False, float_format="%.17g")
    new = np.linspace(0, 1, 41)
    pd.DataFrame({"score": new}).to_csv(new_csv, index=False, float_format="%.17g")
    out = subprocess.run([sys.executable, "-m", "pycalib_r", "calibrate", "--method", "venn_abers",
                          "--fit", str(fit_csv), "--apply", str(new_csv), "-o", str(out_csv),
                          "--p", "score", "--y", "label"],
                         capture_output=True, text=True, check=False, env=ORIGINAL_ENV)
    assert out.returncode == 0, out.stderr
    fit = pc.cal_venn_abers(p, y)
    assert out.stdout == str(fit) + "\n"
    assert np.array_equal(pd.read_csv(out_csv)["cal_score"].to_numpy(), pc.predict(fit, new))


@pytest.mark.parametrize("seed", [11, 22, 33, 44])
def test_equals_mapie_where_they_coincide(seed):
    """MAPIE 1.x's binary ``VennAbers`` (the inductive predictor on given
    scores: where MAPIE and this package compute the same thing; its
    multiclass class refits an estimator). Measured: bit-equal merged
    probabilities and (p0, p1) pairs on these seeds."""
    calibration = pytest.importorskip("mapie.calibration")
    g = np.random.default_rng(seed)
    n = int(g.integers(20, 3000))
    p = np.round(g.random(n), int(g.integers(2, 6)))  # ties
    y = (g.random(n) < p ** 1.5).astype(np.int64)
    t = np.round(g.random(500), 3)
    va = calibration.VennAbers()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # MAPIE's own 0/0 slopes
        va.fit(np.c_[1 - p, p], y)
        merged, pairs = va.predict_proba(np.c_[1 - t, t])
    fit = pc.cal_venn_abers(p, y)
    assert np.max(np.abs(merged[:, 1] - pc.predict(fit, t))) <= 1e-12
    assert np.max(np.abs(pairs - pc.predict(fit, t, interval=True))) <= 1e-12

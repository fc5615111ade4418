"""Observation weights (``weights=``, R's glm prior weights) on the metrics and their faces.

For every weighted function: (1) ``weights=None`` gives the bits of the call
without the argument; (2) a row of whole weight k equals k copies of it and a
row of weight 0 no row (random weights with zeros, against ``np.repeat``-ed
data, to 1e-12 relative: not bit for bit, because the weighted path sums
``w * x`` in double by bins where the copies go through R's long-double
means, so the roundings differ in the last bits); (3) negative, NaN,
infinite, wrong-length and zero-sum weights are refused naming ``weights``;
(4) the faces (scikit-learn ``sample_weight``, the Dask weights column, the
CLI's ``--weights``) give the in-memory value.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r.rbase._errors import ProbcalError
from pycalib_r.inputs._weights import check_weights
from tests.conftest import ORIGINAL_ENV

REL = 1e-12
N = 400


@pytest.fixture(scope="module")
def data():
    g = np.random.default_rng(20260504)
    p = g.uniform(size=N)
    y = (g.uniform(size=N) < p ** 1.3).astype(np.int64)
    P = g.dirichlet([1.0, 1.5, 2.0], size=N)
    lab = np.array([g.choice(3, p=row) for row in P]) + 1
    w = g.integers(0, 4, size=N)          # whole weights, zeros included
    assert (w == 0).sum() > 50
    rep = np.repeat(np.arange(N), w)
    return dict(p=p, y=y, P=P, lab=lab, w=w, rep=rep)


def _close(a, b, rel=REL):
    assert a == pytest.approx(b, rel=rel, abs=1e-15), (a, b)


# -- the one check -------------------------------------------------------------

@pytest.mark.parametrize("bad, message", [
    ([1.0, -1.0, 1.0], "must be non-negative"),
    ([1.0, math.nan, 1.0], "missing or infinite"),
    ([1.0, math.inf, 1.0], "missing or infinite"),
    ([1.0, 1.0], "must have length 3"),
    ([0.0, 0.0, 0.0], "positive sum"),
    (["a", "b", "c"], "numeric vector"),
    (np.ones((3, 2)), "numeric vector"),
])
def test_check_weights_refuses(bad, message):
    with pytest.raises(ProbcalError, match=message) as info:
        check_weights(bad, 3)
    assert "`weights`" in str(info.value)
    assert any("non-negative" in note for note in info.value.__notes__)


def test_check_weights_returns_a_new_float_array():
    w = np.array([1, 0, 2])
    out = check_weights(w, 3)
    assert out.dtype == np.float64 and out is not w
    out[0] = 9
    assert w[0] == 1
    assert check_weights(None, 3) is None
    assert check_weights(pd.Series([1, 2, 3]), 3).tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ProbcalError, match="`sample_weight` must be non-negative"):
        check_weights([-1, 1, 1], 3, arg="sample_weight")


# -- the functions ----------------------------------------------------------------
# (name, call(p, y, **kw), [keyword sets]) over the binary or multiclass data.

def _value(x):
    """A comparable tuple of a function's result."""
    if isinstance(x, pd.DataFrame):
        return tuple(x.select_dtypes("number").to_numpy().ravel())
    if isinstance(x, tuple):
        return tuple(float(v) for v in x)
    if hasattr(x, "statistic"):
        return (float(x.statistic), float(x.p_value), float(x.parameter))
    return (float(x),)


def _smece_ref(p, y, **kw):
    return pc.smece(p, y, **kw)


CASES = [
    ("ece", "bin", pc.ece, {}),
    ("ece", "bin", pc.ece, {"debiased": True}),
    ("ece", "bin", pc.ece, {"strategy": "equal_freq"}),
    ("ece", "bin", pc.ece, {"bins": 3000, "strategy": "equal_freq"}),
    ("ece", "bin", pc.ece, {"bins": [0.0, 0.25, 0.5, 0.6, 1.0]}),
    ("ece", "bin", pc.ece, {"bins": "unique"}),
    ("ece", "multi", pc.ece, {}),
    ("ece", "multi", pc.ece, {"type": "confidence", "strategy": "equal_freq"}),
    ("mce", "bin", pc.mce, {}),
    ("mce", "multi", pc.mce, {"bins": 7}),
    ("ace", "bin", pc.ace, {"bins": 15}),
    ("ace", "multi", pc.ace, {"type": "confidence"}),
    ("calibration_error", "bin", pc.calibration_error, {}),
    ("calibration_error", "bin", pc.calibration_error, {"norm": 1, "debiased": False}),
    ("calibration_error", "bin", pc.calibration_error, {"norm": 3, "debiased": False}),
    ("calibration_error", "bin", pc.calibration_error, {"norm": math.inf, "debiased": False}),
    ("calibration_error", "bin", pc.calibration_error, {"norm": 1, "bins": 8, "rng": 7}),
    ("calibration_error", "bin", pc.calibration_error, {"bins": "auto", "strategy": "equal_freq"}),
    ("calibration_error", "bin", pc.calibration_error, {"strategy": "equal_width", "squared": True}),
    ("calibration_error", "multi", pc.calibration_error, {"debiased": False}),
    ("calibration_error", "multi", pc.calibration_error, {"type": "top", "bins": 10}),
    ("calibration_error", "multi", pc.calibration_error, {"type": "classwise", "norm": 1, "rng": 3}),
    ("brier_score", "bin", pc.brier_score, {}),
    ("brier_score", "bin", pc.brier_score, {"bins": 10, "strategy": "equal_width"}),
    ("brier_score", "multi", pc.brier_score, {"bins": 5}),
    ("brier_score", "multi", pc.brier_score, {"type": "top"}),
    ("smece", "bin", _smece_ref, {}),
    ("smece", "bin", _smece_ref, {"sigma": 0.05}),
    ("smece", "multi", _smece_ref, {"type": "confidence"}),
    ("reliability_table", "bin", pc.reliability_table, {}),
    ("reliability_table", "bin", pc.reliability_table, {"strategy": "equal_freq", "conf_level": 0.9}),
    ("reliability_table", "multi", pc.reliability_table, {"bins": 5}),
    ("reliability_table", "multi", pc.reliability_table, {"type": "confidence"}),
    ("hoslem_test", "hl", pc.hoslem_test, {}),
    ("hoslem_test", "hl", pc.hoslem_test, {"g": 7}),
]
IDS = [f"{name}-{kind}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'default'}"
       for name, kind, _, kw in CASES]


def _args(data, kind, rows=None):
    if kind == "bin":
        p, y = data["p"], data["y"]
    elif kind == "multi":
        p, y = data["P"], data["lab"]
    else:  # hoslem_test(x = outcomes, y = fitted)
        p, y = data["y"], data["p"]
    if rows is not None:
        p, y = p[rows], y[rows]
    return p, y


def _call(fn, args, kw):
    # The debiased l_p (norm != 2) draws from the stream: the same seed for both.
    if "rng" in kw:
        kw = dict(kw, rng=pc.RRandom(kw["rng"]))
    return _value(fn(*args, **kw))


@pytest.mark.parametrize("name, kind, fn, kw", CASES, ids=IDS)
def test_weights_none_is_the_unweighted_call(data, name, kind, fn, kw):
    args = _args(data, kind)
    assert _call(fn, args, dict(kw, weights=None)) == _call(fn, args, kw)


@pytest.mark.parametrize("name, kind, fn, kw", CASES, ids=IDS)
def test_whole_weight_k_is_k_copies(data, name, kind, fn, kw):
    got = _call(fn, _args(data, kind), dict(kw, weights=data["w"]))
    want = _call(fn, _args(data, kind, data["rep"]), kw)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        _close(a, b)


@pytest.mark.parametrize("name, kind, fn, kw", CASES, ids=IDS)
def test_zero_weight_rows_change_nothing(data, name, kind, fn, kw):
    keep = data["w"] > 0
    w = data["w"].astype(np.float64) * 0.37  # fractional weights too
    got = _call(fn, _args(data, kind), dict(kw, weights=w))
    want = _call(fn, _args(data, kind, keep), dict(kw, weights=w[keep]))
    assert got == want  # the rows of weight 0 are dropped first: the same bits


@pytest.mark.parametrize("name, kind, fn, kw", CASES[::3], ids=IDS[::3])
@pytest.mark.parametrize("bad, message", [
    ("negative", "must be non-negative"), ("nan", "missing or infinite"),
    ("inf", "missing or infinite"), ("short", "must have length"), ("zero", "positive sum"),
])
def test_bad_weights_are_refused(data, name, kind, fn, kw, bad, message):
    w = np.ones(N)
    if bad == "negative":
        w[5] = -0.5
    elif bad == "nan":
        w[5] = math.nan
    elif bad == "inf":
        w[5] = math.inf
    elif bad == "short":
        w = w[:-1]
    else:
        w[:] = 0.0
    with pytest.raises(ProbcalError, match=message) as info:
        fn(*_args(data, kind), **dict(kw, weights=w))
    assert "`weights`" in str(info.value)


def test_weights_of_one_agree_with_the_unweighted_value(data):
    ones = np.ones(N)
    for fn in (pc.ece, pc.mce, pc.ace, pc.calibration_error, pc.smece):
        _close(fn(data["p"], data["y"], weights=ones), fn(data["p"], data["y"]))
    _close(float(pc.hoslem_test(data["y"], data["p"], weights=ones).statistic),
           float(pc.hoslem_test(data["y"], data["p"]).statistic))


def test_weighted_table_counts_are_total_weights(data):
    t = pc.reliability_table(data["p"], data["y"], weights=data["w"] * 0.5)
    assert t["n"].dtype == np.float64
    assert t["n"].sum() == pytest.approx(data["w"].sum() * 0.5, rel=1e-14)
    assert pc.reliability_table(data["p"], data["y"])["n"].dtype == np.int64


def test_weighted_diagram_draws_the_weighted_table(data):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = pc.reliability_diagram(data["p"], data["y"], weights=data["w"])
    try:
        text = " ".join(t.get_text() for t in fig.findobj(matplotlib.text.Text))
        assert f"ECE = {pc.ece(data['p'], data['y'], weights=data['w']):.4f}" in text
    finally:
        plt.close(fig)


def test_smece_matches_relplot_on_copies(data):
    relplot = pytest.importorskip("relplot")
    p, y, rep = data["p"], data["y"], data["rep"]
    got, sigma = pc.smece(p, y, weights=data["w"], return_sigma=True)
    want, width = relplot.smECE(p[rep], y[rep], return_width=True)
    assert sigma == width
    _close(got, float(want), rel=1e-9)  # test_smece.py's tolerance against relplot
    _close(pc.smece(p, y, weights=data["w"], sigma=0.07),
           float(relplot.smECE_sigma(p[rep], y[rep], 0.07)), rel=1e-9)


# -- class_weights: the rename of calibration_error(weights=) ---------------------

def test_class_weights_is_kumars_w_k(data):
    P, lab = data["P"], data["lab"]
    cw = np.array([0.5, 0.3, 0.2])
    per = [pc.calibration_error(P[:, k], (lab == k + 1).astype(int), debiased=False)
           for k in range(3)]
    got = pc.calibration_error(P, lab, debiased=False, class_weights=cw)
    _close(got, math.sqrt(np.sum(cw * np.square(per))))


def test_old_spelling_warns_and_keeps_its_meaning(data):
    P, lab = data["P"], data["lab"]
    cw = [0.5, 0.3, 0.2]
    with pytest.warns(FutureWarning, match="class_weights"):
        old = pc.calibration_error(P, lab, debiased=False, weights=cw)
    assert old == pc.calibration_error(P, lab, debiased=False, class_weights=cw)


def test_old_spelling_with_as_many_rows_as_classes_means_observation_weights():
    P = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6]])
    lab = np.array([1, 2, 3])
    w = [1.0, 2.0, 1.0]
    with pytest.warns(FutureWarning, match="observation weights"):
        got = pc.calibration_error(P, lab, debiased=False, bins=2, weights=w)
    rows = np.repeat(np.arange(3), [1, 2, 1])
    _close(got, pc.calibration_error(P[rows], lab[rows], debiased=False, bins=2))


def test_observation_and_class_weights_together(data):
    P, lab, w, rep = data["P"], data["lab"], data["w"], data["rep"]
    cw = [0.2, 0.2, 0.6]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = pc.calibration_error(P, lab, weights=w, class_weights=cw, debiased=False)
    _close(got, pc.calibration_error(P[rep], lab[rep], class_weights=cw, debiased=False))
    with pytest.raises(ProbcalError, match="`class_weights` must hold 3"):
        pc.calibration_error(P, lab, class_weights=[1, 2])


# -- functions where weights have no accepted meaning -------------------------------

def test_cal_ci_refuses_weights(data):
    with pytest.raises(ProbcalError, match=r"unused argument \(weights = ") as info:
        pc.cal_ci(data["p"], data["y"], n_boot=9, weights=data["w"], progress=False)
    assert any("bootstrap" in note for note in info.value.__notes__)


@pytest.mark.parametrize("fn", ["skce", "cal_test", "ece_ci"])
def test_kernel_tests_and_ece_ci_have_no_weights(data, fn):
    with pytest.raises(TypeError, match="weights"):
        getattr(pc, fn)(data["p"], data["y"], weights=data["w"])


# -- faces -------------------------------------------------------------------------

def test_sklearn_sample_weight(data):
    pytest.importorskip("sklearn")
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.metrics import make_scorer

    from pycalib_r import sklearn as pcs

    p, y, w = data["p"], data["y"], data["w"]
    assert pcs.expected_calibration_error(y, p, sample_weight=w) == pc.ece(p, y, weights=w)
    assert pcs.expected_calibration_error(y, p, sample_weight=None) == pc.ece(p, y)
    assert pcs.maximum_calibration_error(y, p, sample_weight=w) == pc.mce(p, y, weights=w)
    assert pcs.average_calibration_error(y, p, sample_weight=w) == pc.ace(p, y, weights=w)
    P, lab = data["P"], data["lab"]
    assert pcs.expected_calibration_error(lab, P, type="confidence", sample_weight=w) == \
        pc.ece(P, lab, type="confidence", weights=w)

    class Fixed(ClassifierMixin, BaseEstimator):  # predict_proba is the data's
        classes_ = np.array([0, 1])

        def fit(self, X, y):
            return self

        def predict_proba(self, X):
            return np.column_stack([1 - p, p])

    scorer = make_scorer(pcs.expected_calibration_error, greater_is_better=False,
                         response_method="predict_proba")
    assert scorer(Fixed(), np.zeros((N, 1)), y, sample_weight=w) == -pc.ece(p, y, weights=w)
    with pytest.raises(ProbcalError, match="`sample_weight` must have length"):
        pcs.expected_calibration_error(y, p, sample_weight=w[:-1])
    with pytest.raises(ProbcalError, match="does not take `sample_weight`"):
        pcs.squared_kernel_calibration_error(y, p, sample_weight=w)
    with pytest.raises(ProbcalError, match="does not take `sample_weight`"):
        pcs.maximum_mean_calibration_error(y, p, sample_weight=w)
    from pycalib_r.sklearn._scorers import brier_score

    with pytest.raises(ProbcalError, match="takes no observation weights"):
        brier_score(y, p, sample_weight=w)


@pytest.mark.parametrize("kind", ["array", "frame"])
def test_dask_weights_column(data, kind):
    pytest.importorskip("dask")
    import dask.array as da
    import dask.dataframe as dd

    import pycalib_r.dask as pcd

    p, y, w = data["p"], data["y"], data["w"].astype(np.float64)
    if kind == "array":
        dp, dy, dw = (da.from_array(p, chunks=90), da.from_array(y, chunks=90),
                      da.from_array(w, chunks=130))  # other chunks: rechunked to p's
    else:
        frame = dd.from_pandas(pd.DataFrame({"p": p, "y": y, "w": w}), npartitions=3)
        dp, dy, dw = frame["p"], frame["y"], frame["w"]
    for fn in ("ece", "mce", "ace"):
        _close(getattr(pcd, fn)(dp, dy, weights=dw), getattr(pc, fn)(p, y, weights=w))
    _close(pcd.ece(dp, dy, weights=dw, bins=10 ** 6), pc.ece(p, y, weights=w, bins=10 ** 6))
    _close(pcd.ece(dp, dy, weights=dw, debiased=True), pc.ece(p, y, weights=w, debiased=True))
    got = pcd.reliability_table(dp, dy, weights=dw)
    want = pc.reliability_table(p, y, weights=w)
    assert list(got.columns) == list(want.columns) and got.shape == want.shape
    np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=REL, atol=1e-15)
    assert pcd.ece(dp, dy) == pcd.ece(dp, dy, weights=None)


@pytest.mark.parametrize("bins", [10, 37, 3000])
def test_dask_weighted_equal_freq_edges(data, bins):
    pytest.importorskip("dask")
    import dask.array as da

    import pycalib_r.dask as pcd

    p, y, w = data["p"].copy(), data["y"], data["w"].astype(np.float64)
    p[:60] = np.round(p[:60], 1)  # ties across the edges
    dp, dy, dw = da.from_array(p, chunks=70), da.from_array(y, chunks=70), da.from_array(w, chunks=70)
    # whole weights: the in-memory edges exactly, the value to rounding
    _close(pcd.ece(dp, dy, weights=dw, strategy="equal_freq", bins=bins),
           pc.ece(p, y, weights=w, strategy="equal_freq", bins=bins))
    got = pcd.reliability_table(dp, dy, weights=dw, strategy="equal_freq", bins=bins)
    want = pc.reliability_table(p, y, weights=w, strategy="equal_freq", bins=bins)
    assert got[["lower", "upper"]].equals(want[["lower", "upper"]])
    np.testing.assert_allclose(got.to_numpy(float), want.to_numpy(float), rtol=REL, atol=1e-15)
    P, lab = data["P"], data["lab"]
    _close(pcd.ece(da.from_array(P, chunks=(70, 3)), da.from_array(lab, chunks=70), weights=dw,
                   strategy="equal_freq", bins=bins),
           pc.ece(P, lab, weights=w, strategy="equal_freq", bins=bins))


def test_dask_weights_multiclass_and_refusals(data):
    pytest.importorskip("dask")
    import dask.array as da

    import pycalib_r.dask as pcd

    P, lab, w = data["P"], data["lab"], data["w"].astype(np.float64)
    dP, dl, dw = da.from_array(P, chunks=(100, 3)), da.from_array(lab, chunks=100), \
        da.from_array(w, chunks=100)
    for t in ("classwise", "confidence"):
        _close(pcd.ece(dP, dl, type=t, weights=dw), pc.ece(P, lab, type=t, weights=w))
    dp, dy = da.from_array(data["p"], chunks=100), da.from_array(data["y"], chunks=100)
    for bad, message in ((-w - 1, "non-negative"), (w * np.nan, "missing or infinite"),
                         (w * 0, "positive sum"), (w[:-1], "must have length 400")):
        with pytest.raises(ProbcalError, match=message):
            pcd.ece(dp, dy, weights=da.from_array(bad, chunks=100))
    with pytest.raises(TypeError, match="Dask collection"):
        pcd.ece(dp, dy, weights=w)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, text=True, check=False, env=ORIGINAL_ENV)


def test_cli_metrics_weights(data, tmp_path):
    p, y, w = data["p"], data["y"], data["w"]
    path = tmp_path / "preds.csv"
    pd.DataFrame({"prob": p, "label": y, "wt": w}).to_csv(path, index=False, float_format="%.17g")
    out = _cli("metrics", path, "--p", "prob", "--y", "label", "--weights", "wt", "--bins", 12,
               "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["weights"] == "wt"
    assert set(got["metrics"]) == {"ece", "mce", "ace"}
    assert got["metrics"]["ece"] == pc.ece(p, y, bins=12, weights=w)
    assert got["metrics"]["mce"] == pc.mce(p, y, bins=12, weights=w)
    assert got["metrics"]["ace"] == pc.ace(p, y, bins=12, weights=w)
    assert "weights = wt" in got["arguments"]["ece"]
    pd.DataFrame({"prob": p, "label": y, "wt": -w}).to_csv(path, index=False)
    out = _cli("metrics", path, "--p", "prob", "--y", "label", "--weights", "wt")
    # R's message with the flag for the argument (the CLI's flag_message)
    assert out.returncode != 0 and "--weights: must be non-negative" in out.stderr


def test_weighted_quantile_bins_are_bounded(data):
    p, y = data["p"], data["y"]
    with pytest.raises(ProbcalError, match="too large for equal_freq bins with `weights`"):
        pc.ece(p, y, bins=2 ** 30, strategy="equal_freq", weights=np.ones(N))
    with pytest.raises(ProbcalError, match="too large for equal_mass bins"):
        pc.calibration_error(p, y, bins=2 ** 30, weights=np.full(N, 1e12))
    # the unweighted metric finds R's bins for any count
    assert math.isfinite(pc.ece(p, y, bins=2 ** 30, strategy="equal_freq"))


@pytest.mark.r_parity
def test_same_as_r_refuses_python_only_weights(data, r):
    from pycalib_r import rcheck
    from pycalib_r.rcheck._errors import NotExpressibleInR

    for fn in (pc.ece, pc.mce, pc.ace, pc.reliability_table):
        with pytest.raises(NotExpressibleInR, match="weights= is Python-only"):
            rcheck.same_as_r(fn, data["p"], data["y"], weights=data["w"])


@pytest.mark.parametrize("g", [10, 7])
def test_dask_weighted_hoslem(data, g):
    pytest.importorskip("dask")
    import dask.array as da

    import pycalib_r.dask as pcd

    y, p, w = data["y"], data["p"], data["w"].astype(np.float64)
    got = pcd.hoslem_test(da.from_array(y, chunks=70), da.from_array(p, chunks=70), g=g,
                          weights=da.from_array(w, chunks=90))
    want = pc.hoslem_test(y, p, g=g, weights=w, data_name="x, y")
    assert got.groups == want.groups and float(got.parameter) == float(want.parameter)
    _close(float(got.statistic), float(want.statistic))
    for key in ("y0", "y1"):
        np.testing.assert_allclose(got.observed[key], want.observed[key], rtol=REL)
    unweighted = pcd.hoslem_test(da.from_array(y, chunks=70), da.from_array(p, chunks=70), g=g)
    assert float(unweighted.statistic) == float(pcd.hoslem_test(
        da.from_array(y, chunks=70), da.from_array(p, chunks=70), g=g, weights=None).statistic)

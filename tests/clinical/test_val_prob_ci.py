"""val_prob_ci against CalibrationCurves 2.0.0's val.prob.ci.2 (and rcspline_eval against Hmisc).

* Stored: reference/clinical/val_prob_ci_fixtures.json holds R's answers for
  cases 0-47 of tests/_val_prob_ci_cases.py (tools/make_val_prob_ci_fixtures.py,
  which records "CalibrationCurves 2.0.0 (43ebdf6)", rms, Hmisc and R's
  versions); checked without R.
* Live (r_parity): fresh cases through rpy2, skipped when CalibrationCurves
  2.0.0 is not installed (it is installed by hand from its source; set
  PYCALIB_R_RLIB to its library).

Tolerances (tests/_val_prob_ci_cases.py): statistics, intervals, the loess
curve and the prints: 1e-12 relative and byte-equal (the c-statistic's
Newcombe interval 1e-11: polynomial roots by two different solvers); the loess limits 1e-10
(R forms L's n x n matrix, we its vertex Gram matrix; largest seen 4e-13);
the spline curve 1e-12 (largest seen 3e-16; diverged fits included: R's
covariance is then solvet() of the Fortran's workspace, reproduced).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tests import _val_prob_ci_cases as vc

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "reference" / "clinical" / "val_prob_ci_fixtures.json"
LIVE = int(os.environ.get("PYCALIB_R_VAL_PROB_CI_CASES", "12"))


def test_stored_fixtures_match():
    data = json.loads(FIXTURE.read_text())
    assert data["versions"]["CalibrationCurves"] == "CalibrationCurves 2.0.0 (43ebdf6)"
    assert data["versions"]["R"] == "4.2.2" and data["versions"]["rms"] == "6.5.0"
    largest, bad = {}, []
    for stored in data["cases"]:
        c = vc.case(stored["id"])
        assert vc.inputs_sha256(c) == stored["inputs_sha256"], \
            "the case generator changed: store again (python tools/make_val_prob_ci_fixtures.py)"
        bad += vc.compare(vc.python_side(c), stored["r"], largest, f"case {stored['id']}",
                          c["kw"]["method_ci"])
    print("largest relative differences:", largest)
    assert not bad, "\n".join(bad[:10])


@pytest.fixture(scope="module")
def cc_r():
    import rpy2.robjects  # noqa: F401
    import sys
    sys.path.insert(0, str(REPO))
    from tools.make_val_prob_ci_fixtures import r_session
    ro, versions = r_session()
    if ro is None:
        pytest.skip("CalibrationCurves 2.0.0 is not installed (the stored fixtures cover it)")
    return ro, versions


@pytest.mark.r_parity
def test_live_random_cases(cc_r):
    ro, versions = cc_r
    largest, bad = {}, []
    for i in range(1000, 1000 + LIVE):
        c = vc.case(i)
        bad += vc.compare(vc.python_side(c), vc.r_side(ro, c), largest, f"case {i}",
                          c["kw"]["method_ci"])
    print(f"{LIVE} live cases ({versions}): largest relative differences {largest}")
    assert not bad, "\n".join(bad[:10])


@pytest.mark.r_parity
def test_rcspline_eval_matches_hmisc(r):
    from pycalib_r.clinical._rcspline import rcs_knots, rcspline_eval
    import warnings
    r.r("suppressMessages(library(Hmisc))")
    rng = np.random.default_rng(5)
    worst = 0.0
    for n in (10, 60, 99, 100, 500, 3000):
        for kind in range(3):
            x = rng.uniform(size=n)
            if kind == 1:
                x = np.round(x, 1)
            if kind == 2:
                x[: n // 5] = 0.0
            for nk in (3, 4, 5, 6, 7):
                r.globalenv["x"] = r.FloatVector(x)
                rk = np.array(r.r(f"suppressWarnings(rcspline.eval(x, nk = {nk}, knots.only = TRUE))"))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    pk = rcs_knots(x, nk)
                assert np.array_equal(rk, pk), (n, kind, nk)
                r.globalenv["k"] = r.FloatVector(rk)  # not as text: R's strtod is not exact
                rb = np.array(r.r("rcspline.eval(x, knots = k, inclx = TRUE)"))
                pb = rcspline_eval(x, knots=pk, inclx=True)
                d = np.abs(rb - pb) / np.maximum(np.abs(rb), 1e-300)
                worst = max(worst, float(d[rb != pb].max(initial=0.0)))
    print("rcspline.eval: largest relative difference", worst)
    assert worst == 0.0  # libm's pow, as R's ^ calls it: bit for bit


def test_print_and_curve_shape():
    from pycalib_r import set_seed, runif, rbinom
    from pycalib_r.clinical import val_prob_ci
    set_seed(1)
    p = runif(200)
    y = rbinom(200, 1, p ** 1.3)
    res = val_prob_ci(p, y)
    text = str(res)
    assert text.startswith("Call:\nval.prob.ci.2(p = p, y = y)\n\nA 95% confidence interval")
    assert list(res.stats)[-3:] == ["Brier scaled", "Eavg", "ECI"]
    cur = res.CalibrationCurves["FlexibleCalibration"]
    assert set(cur) == {"x", "y", "ymin", "ymax"} and len(cur["x"]) == 200
    assert np.all((cur["ymin"] >= 0) & (cur["ymax"] <= 1))
    assert res.Cindex["Lower confidence limit"] < res.Cindex["Point estimate"]


def test_refusals():
    from pycalib_r.clinical import val_prob_ci
    from pycalib_r.rbase._errors import ProbcalError
    p = np.linspace(0.1, 0.9, 20)
    y = np.tile([0.0, 1.0], 10)
    with pytest.raises(ProbcalError, match="should be one of"):
        val_prob_ci(p, y, smooth="gam")
    with pytest.raises(ProbcalError, match="CL.BT"):
        val_prob_ci(p, y, cl_bt=True)
    with pytest.raises(ProbcalError, match="lengths of p or logit and y do not agree"):
        val_prob_ci(p, y[:-1])


def test_plot_draws(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    from pycalib_r.clinical import val_prob_ci
    rng = np.random.default_rng(2)
    p = rng.uniform(size=300)
    y = (rng.uniform(size=300) < p).astype(float)
    ax = val_prob_ci(p, y, logistic_cal=True).plot()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "Flexible calibration (Loess)" in labels and "Logistic calibration" in labels
    ax.figure.savefig(tmp_path / "f.png")


def test_manifest_records_the_fixtures_versions():
    from tests._rcall import MANIFEST, load_toml

    entry = load_toml(MANIFEST)["val_prob_ci"]
    assert (REPO / entry["file"]) == FIXTURE
    stored = json.loads(FIXTURE.read_text())["versions"]
    assert {k: v.replace("-", ".") if k != "CalibrationCurves" else v
            for k, v in entry["versions"].items()} == stored


@pytest.mark.r_parity
def test_group_returns_val_probg_as_r(cc_r):
    # With `group`, val.prob.ci.2 returns rms's val.probg value: so do we, printed as R.
    ro, _ = cc_r
    from pycalib_r.clinical import val_prob_ci
    rng = np.random.default_rng(4)
    p = rng.uniform(size=120)
    y = (rng.uniform(size=120) < p).astype(float)
    g = np.array(["a", "b", "c"] * 40)
    ro.globalenv["p"] = ro.FloatVector(p)
    ro.globalenv["y"] = ro.FloatVector(y)
    ro.globalenv["g"] = ro.StrVector(g.tolist())
    r_text = "\n".join(ro.r("suppressWarnings(capture.output(print(val.prob.ci.2(p, y, group = g))))"))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = str(val_prob_ci(p, y, group=g))
    assert ours == r_text


def test_weights_without_group_warn_as_val_prob_does():
    from pycalib_r.clinical import val_prob_ci
    rng = np.random.default_rng(3)
    p = rng.uniform(size=50)
    y = (rng.uniform(size=50) < p).astype(float)
    with pytest.warns(UserWarning, match="used only with `group`"):
        res = val_prob_ci(p, y, weights=np.ones(50), smooth="none")
    assert res.stats == val_prob_ci(p, y, smooth="none").stats


def test_cli_validate_curve_prints_the_indices(tmp_path):
    import subprocess
    import sys
    from tests.conftest import ORIGINAL_ENV
    from pycalib_r.clinical import val_prob_ci
    rng = np.random.default_rng(6)
    p = rng.uniform(size=150)
    y = (rng.uniform(size=150) < p).astype(int)
    csv = tmp_path / "d.csv"
    csv.write_text("prob,label\n" + "".join(f"{float(a)!r},{int(b)}\n" for a, b in zip(p, y)))
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO))
    for curve in ("loess", "rcs"):
        out = subprocess.run([sys.executable, "-m", "pycalib_r", "validate", str(csv), "--p", "prob",
                              "--y", "label", "--curve", curve, "--no-profile"],
                             capture_output=True, text=True, env=env, cwd=REPO, check=True)
        got = json.loads(out.stdout)["val_prob_ci"]
        res = val_prob_ci(p, y.astype(float), smooth=curve)
        assert got["stats"] == res.stats
        assert got["Cindex"] == res.Cindex and got["Calibration"] == res.Calibration


@pytest.mark.r_parity
def test_special_paths_print_as_r(cc_r):
    # allowPerfectPredictions with 0 and 1, an odd cl.level, logits, constant predictions.
    ro, _ = cc_r
    import warnings
    from pycalib_r.clinical import val_prob_ci
    rng = np.random.default_rng(9)
    p = rng.uniform(size=100)
    y = (rng.uniform(size=100) < p).astype(float)
    p[:3] = [0.0, 1.0, 0.0]
    lg = np.log(p[3:] / (1 - p[3:]))
    const = np.full(40, 0.3)
    yc = np.tile([0.0, 0.0, 1.0, 0.0], 10)
    calls = [
        (dict(p=p, y=y), "p = p, y = y, cl.level = 0.975, allowPerfectPredictions = TRUE",
         dict(p=p, y=y, cl_level=0.975, allow_perfect_predictions=True)),
        (dict(logit=lg, y=y[3:]), "logit = logit, y = y", dict(logit=lg, y=y[3:])),
        (dict(p=const, y=yc), "p = p, y = y", dict(p=const, y=yc)),
    ]
    for bind, r_args, kw in calls:
        for name, v in bind.items():
            ro.globalenv[name] = ro.FloatVector(v)
        r_text = "\n".join(ro.r(f"suppressWarnings(capture.output(print(val.prob.ci.2({r_args}))))"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert str(val_prob_ci(**kw)) == r_text, r_args

"""pycalib_r.rcheck: parity reports against the user's R.

The ``r_parity`` tests run every export of pycalib_r through ``same_as_r``
against live R (R 4.2.2 with probcal 0.1.0 here: the 0.2.0 functions are
answered by the shipped contract.R, and the reports must say so), plant
differences and check that they are caught, and drive ``pycalib-r parity``
as a subprocess. The others need no R: the shipped files equal the
reference ones, the tolerance policy equals the manifest's, and importing
the package never imports rpy2.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r import rcheck
from pycalib_r.rcheck import NotExpressibleInR, RUnavailable, assert_same_as_r, same_as_r
from pycalib_r.rcheck import _session

from tests import _rcall
from tests.conftest import ORIGINAL_ENV

REPO = _rcall.REPO


# ---------------------------------------------------------------------------
# Without R


@pytest.mark.parametrize("name", ["contract.R", "harness.R", "rcheck.R"])
def test_r_files_ship_with_the_package_once(name):
    # rcheck runs the shipped files; the fixture scripts source the same ones,
    # so there is no second copy to drift.
    from importlib import resources

    shipped = resources.files("pycalib_r").joinpath("r", name)
    assert shipped.is_file()
    assert not (REPO / "reference" / "r" / name).exists()


def test_tolerance_policy_equals_the_manifest():
    manifest = _rcall.load_toml(_rcall.MANIFEST)
    policy = {name: (t["rtol"], t["atol"]) for name, t in manifest["tolerance"].items()}
    assert rcheck.TOLERANCE == policy


def test_pyproject_r_extra_pins_rpy2_as_the_test_extra():
    project = _rcall.load_toml(REPO / "pyproject.toml")
    extras = project["project"]["optional-dependencies"]
    rpy2_test = [d for d in extras["test"] if d.startswith("rpy2")]
    assert [d for d in extras["r"] if d.startswith("rpy2")] == rpy2_test
    assert "r/*.R" in project["tool"]["setuptools"]["package-data"]["pycalib_r"]


def _py(code: str, env=None):
    env = dict(ORIGINAL_ENV if env is None else env)
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False, timeout=600)


def test_importing_the_package_and_cli_does_not_import_rpy2():
    out = _py("import sys, pycalib_r, pycalib_r.rcheck, pycalib_r.cli._app as c; c.build_parser(); "
              "print('rpy2' in sys.modules)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_missing_rpy2_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpy2", None)
    monkeypatch.setattr(_session, "_SESSION", None)
    with pytest.raises(RUnavailable, match=r"rpy2 is not installed.*pip install 'rpy2>=3.5,<3.6'.*pip install '\.\[r\]'"):
        same_as_r(pc.ece, [0.2, 0.7], [0, 1])
    with pytest.raises(pytest.skip.Exception, match="parity with R not checked: rpy2 is not installed"):
        assert_same_as_r(pc.ece, [0.2, 0.7], [0, 1])


@pytest.mark.parametrize("env_change, expected", [
    ({"R_HOME": "/nonexistent/R"}, "R_HOME=/nonexistent/R is not an R installation"),
    ({"R_HOME": None, "PATH": "/nonexistent"}, "R was not found: R_HOME is not set and no R is on PATH"),
])
def test_missing_r_says_how_to_install(env_change, expected):
    env = dict(ORIGINAL_ENV)
    for key, value in env_change.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    out = _py("import pycalib_r as pc\nfrom pycalib_r.rcheck import same_as_r, RUnavailable\n"
              "try:\n    same_as_r(pc.ece, [0.2, 0.7], [0, 1])\n"
              "except RUnavailable as e:\n    print(e)\n", env)
    assert out.returncode == 0, out.stderr
    assert expected in out.stdout
    assert "apt-get install r-base" in out.stdout and "R RHOME" in out.stdout


def test_required_r_turns_the_skip_into_a_failure(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpy2", None)
    monkeypatch.setattr(_session, "_SESSION", None)
    monkeypatch.setenv("PYCALIB_R_REQUIRE_R", "1")
    with pytest.raises(RUnavailable):
        assert_same_as_r(pc.ece, [0.2, 0.7], [0, 1])


# ---------------------------------------------------------------------------
# Against live R: every export


def _binary(n=120, seed=11):
    rng = pc.RRandom(seed)
    p = rng.runif(n)
    y = rng.rbinom(n, 1, p)
    return p, y


def _multiclass(n=90, k=3, seed=12):
    rng = pc.RRandom(seed)
    m = rng.runif(n * k).reshape(n, k) ** 2
    m = m / m.sum(axis=1, keepdims=True)
    y = np.array([1 + (i % k) if rng.runif(1)[0] < 0.4 else 1 + int(np.argmax(row))
                  for i, row in enumerate(m)], dtype=np.int64)
    return m, y


P, Y = _binary()
M, YM = _multiclass()
YCAT = pd.Categorical(np.array(["a", "b", "c"])[YM - 1], categories=["a", "b", "c"])


def _calls():
    """(export name, call label, function, args, kwargs) for every export."""
    logits = np.log(M)
    cases = [
        ("ece", "ece binary", pc.ece, (P, Y), {"bins": 15}),
        ("ece", "ece multiclass confidence", pc.ece, (M, YM), {"type": "confidence"}),
        ("ece", "ece debiased equal_freq (0.2.0)", pc.ece, (P, Y), {"debiased": True, "strategy": "equal_freq"}),
        ("ece", "ece with NA", pc.ece, (np.r_[P[:5], np.nan], Y[:6]), {}),
        ("mce", "mce multiclass Categorical", pc.mce, (M, YCAT), {}),
        ("mce", "mce DataFrame", pc.mce, (pd.DataFrame(M, columns=["a", "b", "c"]), YM), {}),
        ("ace", "ace", pc.ace, (P, Y), {"bins": 4}),
        ("mmce", "mmce", pc.mmce, (M, YM), {"bandwidth": 0.3}),
        ("skce", "skce canonical", pc.skce, (M, YM), {"estimator": "ul", "bandwidth": "median"}),
        ("logit", "logit", pc.logit, (P,), {"eps": 1e-6}),
        ("inv_logit", "inv_logit", pc.inv_logit, (np.array([-3.0, 0.0, 2.5]),), {}),
        ("cal_test", "cal_test bootstrap", pc.cal_test, (P, Y), {"n_boot": 49, "progress": False}),
        ("cal_test", "cal_test asymptotic multiclass", pc.cal_test, (M, YM), {"method": "asymptotic"}),
        ("cal_test", "cal_test data_name and rng", pc.cal_test, (P, Y),
         {"n_boot": 29, "data_name": "probs and labels", "rng": pc.RRandom(3), "progress": False}),
        ("cal_ci", "cal_ci skce", pc.cal_ci, (P, Y), {"metric": "skce", "n_boot": 29, "progress": False}),
        ("cal_ci", "cal_ci ece error", pc.cal_ci, (P, Y), {"metric": "ece", "conf_level": 1.5}),
        ("cal_platt", "cal_platt", pc.cal_platt, (P, Y), {}),
        ("cal_temperature", "cal_temperature", pc.cal_temperature, (logits, YM), {}),
        ("cal_beta", "cal_beta", pc.cal_beta, (P, Y), {}),
        ("cal_isotonic", "cal_isotonic", pc.cal_isotonic, (P, Y), {}),
        ("cal_histogram", "cal_histogram", pc.cal_histogram, (P, Y), {"bins": 5, "strategy": "equal_freq"}),
        ("cal_vector_scaling", "cal_vector_scaling", pc.cal_vector_scaling, (logits, YM), {}),
        ("cal_dirichlet", "cal_dirichlet", pc.cal_dirichlet, (M, YM), {"lambda_": 0.01}),
        ("cal_ovr", "cal_ovr", pc.cal_ovr, (M, YCAT), {"method": "isotonic"}),
        ("cal_cv", "cal_cv", pc.cal_cv, (P, Y), {"method": "beta", "folds": 3, "seed": 9}),
        ("reliability_diagram", "reliability_diagram", pc.reliability_diagram, (M, YM),
         {"bins": 5, "type": "confidence"}),
        ("reliability_table", "reliability_table", pc.reliability_table, (P, Y), {"bins": 8}),
        ("set_seed", "set_seed", pc.set_seed, (2024,), {}),
        ("runif", "runif", pc.runif, (7,), {"min": -1, "max": 2}),
        ("rnorm", "rnorm", pc.rnorm, (5,), {"mean": 1.5}),
        ("rbinom", "rbinom", pc.rbinom, (6, 10, 0.3), {}),
        ("sample", "sample", pc.sample, (["a", "b", "c"], 5), {"replace": True}),
        ("sample_int", "sample_int", pc.sample_int, (100, 4), {"prob": None}),
        ("RRandom", "RRandom", pc.RRandom, (-7,), {}),
        ("rexp", "rexp", pc.rexp, (5,), {"rate": 2}),
        ("rgamma", "rgamma", pc.rgamma, (6, 0.7), {}),
        ("rbeta", "rbeta", pc.rbeta, (5, 2, 3), {}),
        ("rchisq", "rchisq", pc.rchisq, (5, 3), {}),
        ("rt", "rt", pc.rt, (5, 4), {}),
        ("rf", "rf", pc.rf, (5, 3, 7), {}),
        ("rpois", "rpois", pc.rpois, (6, 12.5), {}),
        ("rgeom", "rgeom", pc.rgeom, (5, 0.3), {}),
        ("rnbinom", "rnbinom", pc.rnbinom, (5, 3), {"prob": 0.4}),
        ("rhyper", "rhyper", pc.rhyper, (5, 7, 5, 4), {}),
        ("rmultinom", "rmultinom", pc.rmultinom, (3, 10, [0.2, 0.3, 0.5]), {}),
        ("rlogis", "rlogis", pc.rlogis, (5,), {"scale": 2}),
        ("rweibull", "rweibull", pc.rweibull, (5, 1.5), {}),
        ("rcauchy", "rcauchy", pc.rcauchy, (5,), {}),
        ("rlnorm", "rlnorm", pc.rlnorm, (5,), {"sdlog": 0.5}),
        ("rng_kind", "rng_kind", pc.rng_kind, ("Mersenne-Twister", "Inversion", "Rejection"), {}),
        ("next_rng_stream", "next_rng_stream", pc.next_rng_stream,
         (np.array([10407, 1, 2, 3, 4, 5, 6], dtype=np.int32),), {}),
        ("next_rng_substream", "next_rng_substream", pc.next_rng_substream,
         (np.array([10407, 1, 2, 3, 4, 5, 6], dtype=np.int32),), {}),
        ("options", "options", pc.options, (), {"probcal_emoji": True}),
        ("get_option", "get_option", pc.get_option, ("probcal.emoji",), {}),
    ]
    return cases


# Exports that are classes: same_as_r refuses them, naming the function to check.
CLASSES = {"CalTest": "cal_test", "CalCI": "cal_ci", "Calibrator": "cal_platt",
           "ProbcalError": "raises", "get_random_seed": "Random.seed",
           "set_random_seed": "Random.seed", "reliabilitydiag": "reliabilitydiag",
           "ReliabilityDiag": "reliabilitydiag", "CorpSummary": "reliabilitydiag"}
# Python-only exports: same_as_r refuses them (no R function to compare with).
PYTHON_ONLY = {"ece_ci", "EceCI", "calibration_error", "brier_score", "BrierScore",
               "cal_scaling_binning", "cal_venn_abers", "smece", "smooth_reliability_diagram", "SmoothReliability",
               "show_config"}
# Exports checked through a fitted calibrator (test_calibrator_methods_match_r).
METHODS = {"predict", "summary"}
# Exports whose R counterpart is outside probcal (rms, ResourceSelection, MASS):
# same_as_r refuses them; tests/diagnostics/test_validation.py checks them against R.
OTHER_PACKAGES = {"val_prob", "ValProb", "ValProbG", "hoslem_test", "HoslemTest", "cal_intercept_slope",
                  "CalInterceptSlope", "val_prob_ci", "CalibrationCurve",
                  "pmcalibration", "cal_metrics", "PmCalibration"}


def test_every_export_is_covered():
    covered = ({c[0] for c in _calls()} | set(CLASSES) | METHODS | PYTHON_ONLY
               | OTHER_PACKAGES)
    assert covered == set(pc.__all__), sorted(set(pc.__all__) ^ covered)


@pytest.fixture(scope="module")
def live(probcal_r):
    """The rcheck session: it compares with the probcal R package, so these
    tests fail without R and skip, saying so, where probcal is not installed
    (the stored fixtures cover probcal's values)."""
    return _session.session()


@pytest.mark.r_parity
@pytest.mark.parametrize("case", _calls(), ids=[c[1] for c in _calls()])
def test_export_matches_r(case, live):
    _, _, fn, args, kwargs = case
    pc.set_seed(77)
    report = same_as_r(fn, *args, **kwargs)
    assert report.passed, str(report)
    assert report.checks[-1].name == "stream" and report.checks[-1].status == "pass"
    compared = [c for c in report.checks if c.status == "pass" and c.name != "stream"]
    assert compared, str(report)
    if report.python_error is not None:
        assert report.r_error == report.python_error
    # Text equality where R has a print method.
    if fn in (pc.cal_test, pc.cal_ci) and report.python_error is None:
        assert any(c.name == "print" and c.status == "pass" for c in report.checks)


@pytest.mark.r_parity
@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class_exports_are_refused_with_the_function_to_check(name, live):
    with pytest.raises(NotExpressibleInR, match=CLASSES[name]):
        same_as_r(getattr(pc, name))


@pytest.mark.parametrize("name", sorted(PYTHON_ONLY))
def test_python_only_exports_are_refused_as_having_no_r_counterpart(name):
    with pytest.raises(NotExpressibleInR, match="Python-only addition"):
        same_as_r(getattr(pc, name))


@pytest.mark.r_parity
@pytest.mark.parametrize("fitter, args", [
    (pc.cal_platt, (P, Y)), (pc.cal_temperature, (np.log(M), YM)), (pc.cal_beta, (P, Y)),
    (pc.cal_isotonic, (P, Y)), (pc.cal_histogram, (P, Y)), (pc.cal_vector_scaling, (np.log(M), YM)),
    (pc.cal_dirichlet, (M, YM)), (pc.cal_ovr, (M, YM)),
    (lambda x, y: pc.cal_cv(x, y, method="ovr", folds=3, base_method="histogram"), (M, YM)),
], ids=["platt", "temperature", "beta", "isotonic", "histogram", "vector_scaling", "dirichlet",
        "ovr", "cv"])
def test_calibrator_methods_match_r(fitter, args, live):
    kwargs = {}
    if fitter.__name__ == "<lambda>":
        fitter, kwargs = pc.cal_cv, {"method": "ovr", "folds": 3, "base_method": "histogram"}
    fit_report = assert_same_as_r(fitter, *args, **kwargs)
    names = {c.name for c in fit_report.checks if c.status == "pass"}
    assert {"print", "summary", "predict", "n", "method"} <= names, str(fit_report)
    fit = fit_report.python_value
    newdata = args[0][:7]
    assert_same_as_r(pc.predict, fit, newdata)
    assert_same_as_r(fit.predict, newdata)
    report = assert_same_as_r(pc.summary, fit)
    assert [c.name for c in report.checks] == ["summary", "stream"]
    # The emoji option reaches R too.
    old = pc.options(probcal_emoji=False)
    try:
        report = assert_same_as_r(fitter, *args, **kwargs)
        assert "⚖" not in str(report.python_value)
    finally:
        pc.options(**old)


@pytest.mark.r_parity
def test_rrandom_methods_continue_the_same_stream(live):
    rng = pc.RRandom(99)
    for method, args in ((rng.runif, (3,)), (rng.rbinom, (4, 5, 0.5)), (rng.sample_int, (50, 5)),
                         (rng.rnorm, (2,))):
        report = assert_same_as_r(method, *args)
        assert report.stream_python == [int(v) for v in rng.get_state()]


@pytest.mark.r_parity
def test_inputs_reach_r_faithfully(live):
    ro = live.ro
    from pycalib_r.rcheck._convert import as_r

    describe = ro.r("function(x) sprintf('%s %s dim=%s levels=%s NA=%d', class(x)[1], typeof(x), "
                    "paste(dim(x), collapse = 'x'), paste(levels(x), collapse = ','), sum(is.na(x)))")
    assert describe(as_r(ro, np.array([1, 2, 3])))[0] == "integer integer dim= levels= NA=0"
    assert describe(as_r(ro, np.array([0.5, np.nan])))[0] == "numeric double dim= levels= NA=1"
    assert describe(as_r(ro, pd.Series([1, None, 3], dtype="Int64")))[0] == "numeric double dim= levels= NA=1"
    assert describe(as_r(ro, [True, False]))[0] == "logical logical dim= levels= NA=0"
    assert describe(as_r(ro, YCAT))[0] == "factor integer dim= levels=a,b,c NA=0"
    assert describe(as_r(ro, M))[0] == "matrix double dim=90x3 levels= NA=0"
    # column-major: R's m[2, 1] is M[1, 0]
    assert ro.r("function(m) m[2, 1]")(as_r(ro, M))[0] == M[1, 0]
    probs = as_r(ro, pd.DataFrame(M, columns=["x", "y", "z"]))
    assert describe(probs)[0] == "matrix double dim=90x3 levels= NA=0"
    assert list(ro.r("colnames")(probs)) == ["x", "y", "z"]
    frame = as_r(ro, pd.DataFrame({"a": [0.1, 0.2], "b b": ["x", None]}))
    assert list(ro.r("names")(frame)) == ["a", "b b"]
    assert ro.r("function(d) sum(is.na(d[[2]]))")(frame)[0] == 1


@pytest.mark.r_parity
def test_fallback_to_contract_is_reported(live):
    report = assert_same_as_r(pc.skce, P, Y)
    if live.probcal_has("skce", []):
        assert report.fallback == "" and report.r_source.startswith("probcal")
    else:
        assert report.r_source.startswith("contract.R")
        assert f"installed probcal {live.probcal_version} lacks skce()" in report.fallback
        assert "fallback: installed probcal" in str(report)
    report = assert_same_as_r(pc.ece, P, Y)
    assert report.fallback == "" and report.r_source == f"probcal {live.probcal_version}"


@pytest.mark.r_parity
def test_missing_probcal_says_how_to_install(live, monkeypatch):
    monkeypatch.setattr(live, "probcal_version", None)
    with pytest.raises(RUnavailable, match=r'install.packages\("probcal"\)'):
        same_as_r(pc.ece, P, Y)
    with pytest.raises(pytest.skip.Exception, match="probcal R package is not installed"):
        assert_same_as_r(pc.cal_platt, P, Y)
    assert_same_as_r(pc.runif, 2)  # base R needs no probcal


@pytest.mark.r_parity
@pytest.mark.parametrize("fn, args, kwargs, match", [
    (pc.cal_test, (P, Y), {"rng": np.random.default_rng(1)}, "R draws from its own"),
    (pc.cal_test, (P, Y), {"data_name": "my data"}, "two distinct R names"),
    (pc.ece, (np.zeros((2, 2, 2)), Y), {}, "3-D array"),
    (pc.ece, (P + 0j, Y), {}, "complex"),
    (pc.ece, (P, [object()] * len(P)), {}, "no R counterpart|mixes"),
    (pc.RRandom, (), {}, "entropy"),
    (pc.options, (), {}, "lists all of R's options"),
    (lambda x: x, (1,), {}, "not a pycalib_r export"),
    (np.mean, (P,), {}, "not a pycalib_r export"),
], ids=["generator", "data_name", "3d", "complex", "object", "rrandom-none", "options", "lambda", "numpy"])
def test_calls_r_cannot_express_are_refused(fn, args, kwargs, match, live):
    with pytest.raises(NotExpressibleInR, match=match):
        same_as_r(fn, *args, **kwargs)


@pytest.mark.r_parity
def test_predict_of_a_fit_r_never_saw_is_refused(live):
    fit = pc.cal_platt(P, Y)
    with pytest.raises(NotExpressibleInR, match="R has not seen this calibrator"):
        same_as_r(pc.predict, fit, P)


# ---------------------------------------------------------------------------
# Planted differences are caught


@pytest.mark.r_parity
def test_planted_metric_difference_is_caught(live, monkeypatch):
    import pycalib_r.binned._metrics as metrics

    original = metrics.BinnedMetric.value
    monkeypatch.setattr(metrics.BinnedMetric, "value", lambda self: original(self) * (1 + 1e-9))
    report = same_as_r(pc.ece, P, Y)
    assert not report.passed
    [value] = report.failures
    assert value.name == "value" and 5e-10 < value.max_rel < 2e-9
    assert "rtol 1e-12" in value.tolerance
    with pytest.raises(AssertionError, match=r"(?s)FAIL: ece\(p, y\).*value\s+fail"):
        assert_same_as_r(pc.ece, P, Y)


@pytest.mark.r_parity
def test_planted_text_difference_is_caught_with_a_diff(live, monkeypatch):
    from pycalib_r.inference._inference import CalTest

    original = CalTest.__str__
    monkeypatch.setattr(CalTest, "__str__", lambda self: original(self).replace("p-value", "p value"))
    report = same_as_r(pc.cal_test, P, Y, n_boot=19, progress=False)
    assert [c.name for c in report.failures] == ["print"]
    diff = report.failures[0].diff
    assert "-p-value: " in diff and "+p value: " in diff


@pytest.mark.r_parity
def test_planted_stream_difference_is_caught(live, monkeypatch):
    original = pc.RRandom.runif

    def one_more(self, n, *args):
        self.unif_rand(1)
        return original(self, n, *args)

    monkeypatch.setattr(pc.RRandom, "runif", one_more)
    report = same_as_r(pc.runif, 3)
    assert {c.name for c in report.failures} == {"value", "stream"}


@pytest.mark.r_parity
def test_one_side_raising_is_never_equal(live, monkeypatch):
    import pycalib_r.binned._metrics as metrics

    def broken(self):
        raise pc.ProbcalError("planted")

    monkeypatch.setattr(metrics.BinnedMetric, "value", broken)
    report = same_as_r(pc.mce, P, Y)
    assert not report.passed and report.python_error == "planted" and report.r_error is None
    assert [c.name for c in report.checks] == ["error", "stream"]
    assert "nothing else compared" in report.checks[0].detail


# ---------------------------------------------------------------------------
# The command line


def _cli_env():
    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO)
    return env


def _parity(*args, code=None):
    if code is None:
        cmd = [sys.executable, "-m", "pycalib_r", "parity", *args]
    else:
        cmd = [sys.executable, "-c", code, *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=_cli_env(), check=False, timeout=900)


@pytest.fixture(scope="module")
def csv_files(tmp_path_factory):
    where = tmp_path_factory.mktemp("parity")
    binary = where / "binary.csv"
    pd.DataFrame({"prob": P[:60], "label": Y[:60]}).to_csv(binary, index=False, float_format="%.17g")
    multi = where / "multi.csv"
    frame = pd.DataFrame(M[:60], columns=["a", "b", "c"])
    frame["cls"] = np.asarray(YCAT)[:60]
    frame.to_csv(multi, index=False, float_format="%.17g")
    return binary, multi


@pytest.mark.r_parity
def test_cli_parity_binary_table(csv_files, live):
    out = _parity(str(csv_files[0]), "--p", "prob", "--y", "label", "--n-boot", "19")
    assert out.returncode == 0, out.stdout + out.stderr
    for name in ("ece(", "mce(", "ace(", "mmce(", "skce(", "cal_test(", "cal_ci(", "cal_platt(",
                 "cal_temperature(", "cal_beta(", "cal_isotonic(", "cal_histogram(", "cal_cv(",
                 "reliability_diagram("):
        assert name in out.stdout
    assert "all calls agree with R: 23 of 23 pass" in out.stdout
    assert "FAIL" not in out.stdout


@pytest.mark.r_parity
def test_cli_parity_multiclass_json(csv_files, live):
    out = _parity(str(csv_files[1]), "--p", "a", "b", "c", "--y", "cls", "--n-boot", "9", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["passed"] is True and data["n"] == 60
    labels = [c["label"] for c in data["checks"]]
    assert "cal_dirichlet(p, y)" in labels and "cal_vector_scaling(log(p), y)" in labels
    assert all(c["passed"] for c in data["checks"])
    contract = [c for c in data["checks"] if c["fallback"]]
    if not live.probcal_has("cal_test", []):
        assert {c["function"] for c in contract} == {"ece", "skce", "cal_test", "cal_ci"}


@pytest.mark.r_parity
def test_cli_parity_exits_non_zero_on_a_planted_difference(csv_files, live):
    code = ("import sys, pycalib_r.binned._metrics as m\n"
            "orig = m.BinnedMetric.value\n"
            "m.BinnedMetric.value = lambda self: orig(self) * (1 + 1e-9)\n"
            "from pycalib_r.cli import main\n"
            "sys.exit(main(['parity'] + sys.argv[1:]))\n")
    out = _parity(str(csv_files[0]), "--p", "prob", "--y", "label", "--only", "ece", "skce", code=code)
    assert out.returncode == 1, out.stdout + out.stderr
    # the three ece calls differ, the three skce calls (another code path) agree
    assert "DIFFERENCES FOUND: 3 of 6 pass" in out.stdout
    assert "FAIL: ece(p, y" in out.stdout and "FAIL: skce" not in out.stdout


def test_cli_parity_without_rpy2_exits_2_with_the_install_hint(csv_files):
    code = ("import sys\nsys.modules['rpy2'] = None\nfrom pycalib_r.cli import main\n"
            "sys.exit(main(['parity'] + sys.argv[1:]))\n")
    out = _parity(str(csv_files[0]), "--p", "prob", "--y", "label", code=code)
    assert out.returncode == 2
    assert "rpy2 is not installed" in out.stderr and "pip install '.[r]'" in out.stderr
    assert "agree" not in out.stdout


@pytest.mark.r_parity
def test_ctrl_c_stops_the_r_half(live):
    import signal
    import time

    code = ("import sys, time\nfrom pycalib_r.rcheck import _session\n"
            "s = _session.session()\n"
            "loop = s.ro.r('function() { x <- 0; for (i in 1:2000000000) x <- x + i; x }')\n"
            "print('start', flush=True)\n"
            "t = time.time()\n"
            "try:\n    with _session._interruptible():\n        loop()\n    print('finished')\n"
            "except KeyboardInterrupt:\n    print('interrupted', round(time.time() - t))\n")
    env = _cli_env()
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "start"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert out.startswith("interrupted"), out

"""val_prob, hoslem_test and cal_intercept_slope against R (rms 6.5-0, ResourceSelection 0.3-6, MASS).

* Stored: reference/validation/validation_fixtures.json holds R's answers for
  cases 0-79 of tests/_validation_cases.py (tools/make_validation_fixtures.py,
  which records the versions); checked without R's packages.
* Live (``r_parity``): the same and further cases through rpy2 against
  ``rms::val.prob`` (rms and MASS are Debian packages, present where the
  README's test command ran), ``ResourceSelection::hoslem.test`` when it is
  installed (from source; the stored answers cover it otherwise), ``glm``,
  ``confint.default``, MASS's ``confint`` and ``lowess``.

Comparison (tests/_validation_cases.py ``TOLERANCE``): every val.prob
statistic, hoslem's statistic and counts, lowess and the glm estimates,
standard errors and Wald and profile bounds are compared bit for bit or to
relative 1e-12 ("close"; measured: equal); the p-values ``1 - pchisq`` bit
for bit (R's nmath pgamma ported: tests/rstats/test_nmath_gamma.py).
val.prob's intercept and slope are lrm.fit's Newton iterate, which pycalib_r
repeats step by step, so they are bit-equal rather than equal to R's
tolerance (eps = 0.025 on the -2 log likelihood). Printed text byte for byte.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.rstats._lowess import lowess

from tests import _validation_cases as vc
from tests._rcall import REPO

FIXTURE = REPO / "reference" / "validation" / "validation_fixtures.json"
LIVE_CASES = int(os.environ.get("PYCALIB_R_VALIDATION_CASES", "60"))


def _report(diffs: vc.Diffs, what: str) -> None:
    print(f"{what}: largest relative differences {diffs.largest}; "
          f"{diffs.separation_profiles} of the profile intervals under separation")
    assert not diffs.items, "\n".join(diffs.items[:20])


# ---------------------------------------------------------------------------
# Stored answers (no R packages needed).

def test_stored_fixtures_match():
    data = json.loads(FIXTURE.read_text())
    assert data["versions"]["rms"] == "6.5.0" and data["versions"]["R"] == "4.2.2"
    assert data["versions"]["ResourceSelection"] == "0.3.6"
    diffs = vc.Diffs()
    for stored in data["cases"]:
        c = vc.case(stored["id"])
        assert vc.inputs_sha256(c) == stored["inputs_sha256"], \
            "the case generator changed: store again (python tools/make_validation_fixtures.py)"
        vc.compare(vc.python_side(c), stored["r"], diffs, f"stored case {stored['id']}")
    _report(diffs, f"{len(data['cases'])} stored cases")


def test_manifest_records_the_fixtures_versions():
    from tests._rcall import MANIFEST, load_toml

    entry = load_toml(MANIFEST)["validation"]
    assert (REPO / entry["file"]) == FIXTURE
    stored = json.loads(FIXTURE.read_text())["versions"]
    assert {k: v.replace("-", ".") for k, v in entry["versions"].items()} == stored


def test_stored_fixtures_cover_the_branches():
    # The stored cases reach R's special paths, so a regression there is seen without R.
    data = json.loads(FIXTURE.read_text())
    vp = [c["r"]["val_prob"] for c in data["cases"]]
    assert any("error" in v for v in vp)
    assert any(v.get("names", [None])[-1] == "NA" for v in vp)  # all p equal: 19 values
    assert any(w.endswith("due to probs. of 0 or 1") for v in vp for w in v.get("warnings", []))
    hl = [c["r"]["hoslem"] for c in data["cases"]]
    assert any("The data did not allow" in w for h in hl for w in h.get("warnings", []))


def test_doc_example_prints_as_r():
    pc.set_seed(1)
    p = pc.runif(200)
    y = pc.rbinom(200, 1, p ** 1.3)
    res = pc.val_prob(p, y)
    assert res["Brier"] == 0.16998887136788446  # R: sprintf("%.17g", v["Brier"])
    assert math.isnan(res["D:p"]) and res.to_dict()["D:p"] is None
    assert str(pc.hoslem_test(y, p, data_name="y, p")).splitlines()[4] == \
        "X-squared = 10.139, df = 8, p-value = 0.2554"


def test_val_prob_slope_is_glm_slope_to_lrm_tolerance():
    # val.prob's Slope is lrm.fit's iterate (stopping at a -2LL change <= 0.025);
    # glm's IRLS runs to a relative deviance change of 1e-8: the same MLE.
    pc.set_seed(3)
    p = pc.runif(400)
    y = pc.rbinom(400, 1, p)
    v = pc.val_prob(p, y)
    r = pc.cal_intercept_slope(p, y)
    assert abs(v["Slope"] - r.slope) < 1e-4
    assert v["Slope"] != r.slope or v["Intercept"] != r.intercept or True


def test_refusals_say_why():
    # R drops rows with a missing group; the package refuses them, as for p and y.
    with pytest.raises(pc.ProbcalError, match="`group` must not contain missing values") as e:
        pc.val_prob([0.2, 0.5, 0.7], [0, 1, 1], group=[1.0, float("nan"), 2.0])
    assert "drop those rows" in "".join(getattr(e.value, "__notes__", []))
    with pytest.raises(pc.ProbcalError, match="lengths of p or logit and y do not agree"):
        pc.val_prob([0.2, 0.5, 0.7], [0, 1])
    with pytest.raises(pc.ProbcalError, match="Argument g must be at least 2."):
        pc.hoslem_test([0, 1, 1], [0.2, 0.5, 0.7], g=1)


def test_inputs_not_mutated():
    p = np.array([0.0, 0.2, 0.5, 0.7, 1.0, 0.3])
    y = np.array([0, 0, 1, 1, 1, 0])
    p0, y0 = p.copy(), y.copy()
    with pytest.warns(RuntimeWarning, match="2 observations deleted"):
        pc.val_prob(p, y)
    assert np.array_equal(p, p0) and np.array_equal(y, y0)


def test_plot_composes_with_ax():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    pc.set_seed(2)
    p = pc.runif(100)
    y = pc.rbinom(100, 1, p)
    fig, axes = plt.subplots(1, 2)
    ax = pc.val_prob(p, y).plot(ax=axes[1])
    assert ax is axes[1] and len(ax.lines) == 3  # ideal, logistic, lowess
    plt.close(fig)


# ---------------------------------------------------------------------------
# Live against R.

@pytest.fixture(scope="module")
def validation_r(r):
    ok = r.r('as.integer(requireNamespace("rms", quietly = TRUE) && requireNamespace("MASS", quietly = TRUE))')[0]
    if ok != 1:
        pytest.fail("rms and MASS are needed in R (apt-get install r-cran-rms r-cran-mass; "
                    "tools/run_tests.sh installs them)")
    root = str(REPO).replace("\\", "/")
    r.r(f'source("{root}/pycalib_r/r/harness.R"); source("{root}/reference/r/validation.R")')
    versions = json.loads(r.r("harness_json(validation_versions())")[0])
    return r, versions


@pytest.mark.r_parity
def test_live_cases_match_r(validation_r):
    ro, versions = validation_r
    has_rs = versions.get("ResourceSelection") not in (None, "NA")
    diffs = vc.Diffs()
    for cid in range(1000, 1000 + LIVE_CASES):
        c = vc.case(cid)
        vc.compare(vc.python_side(c), vc.r_json(ro, c), diffs, f"case {cid}", hoslem=has_rs)
    _report(diffs, f"{LIVE_CASES} live cases (versions {versions})")


@pytest.mark.r_parity
def test_live_bad_input_messages(validation_r):
    ro, _ = validation_r
    calls = [
        ("val.prob(c(.1, .2, .3), c(0, 1), pl = FALSE)",
         lambda: pc.val_prob([.1, .2, .3], [0, 1])),
        ("val.prob(c(.1, .2), c(0, 1), pl = FALSE)", lambda: pc.val_prob([.1, .2], [0, 1])),
        ("val.prob(c(0, .2, 1), c(0, 1, 1), pl = FALSE)",
         lambda: pc.val_prob([0, .2, 1], [0, 1, 1])),
        ("val.prob(c(.1, .2, .3, .4, .5), c(0, 0, 0, 0, 0), pl = FALSE)",
         lambda: pc.val_prob([.1, .2, .3, .4, .5], [0, 0, 0, 0, 0])),
    ]
    for r_call, py in calls:
        expected = ro.r(f'tryCatch(suppressWarnings(rms::{r_call}), error = function(e) conditionMessage(e))')[0]
        with pytest.raises(pc.ProbcalError) as e:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                py()
        assert str(e.value) == expected, r_call


@pytest.mark.r_parity
def test_live_lowess_bit_for_bit(validation_r):
    ro, _ = validation_r
    from rpy2.robjects import FloatVector
    rng = np.random.default_rng(5)
    for k in range(40):
        n = int(rng.integers(1, 400))
        x = np.round(rng.random(n), int(rng.integers(1, 4))) if k % 2 else rng.normal(size=n)
        y = rng.normal(size=n)
        f = float(rng.choice([0.1, 0.3, 2 / 3, 1.0]))
        it = int(rng.integers(0, 4))
        expected = np.array(ro.r["lowess"](FloatVector(x), FloatVector(y), f=f, iter=it).rx2("y"))
        assert np.array_equal(lowess(x, y, f=f, iter=it).y, expected), (k, n, f, it)


# ---------------------------------------------------------------------------
# Faces.

def test_sklearn_scorers_are_val_prob_statistics():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    from pycalib_r.sklearn import _scorers as vs

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    y = (rng.random(300) < 1 / (1 + np.exp(-X[:, 0]))).astype(int)
    model = LogisticRegression().fit(X, y)
    proba = model.predict_proba(X)
    mem = pc.val_prob(proba[:, 1], y)
    for name, (r_name, greater) in vs.VALIDATION_SCORES.items():
        assert getattr(vs, f"{name}_score")(y, proba) == mem[r_name]
        scorer = vs.make_validation_scorer(name)
        assert scorer(model, X, y) == (mem[r_name] if greater else -mem[r_name])
    scores = cross_val_score(LogisticRegression(), X, y, cv=3,
                             scoring=vs.make_validation_scorer("brier"))
    assert scores.shape == (3,) and np.all(scores < 0)
    for name in ("Intercept", "Slope", "S:z", "S:p", "hoslem"):
        with pytest.raises(ValueError, match="is not a score"):
            vs.make_validation_scorer(name)


def test_validate_report_is_json():
    from pycalib_r.diagnostics._validation import validate_report

    pc.set_seed(4)
    p = pc.runif(120)
    y = pc.rbinom(120, 1, p)
    report = validate_report(p, y, g=8, conf_level=0.9)
    assert json.loads(json.dumps(report, allow_nan=False)) == report
    assert report["val_prob"]["Slope"] == pc.val_prob(p, y)["Slope"]
    assert report["cal_intercept_slope"]["conf_level"] == 0.9
    assert len(report["hoslem_test"]["groups"]) <= 8


def test_threads_and_pickling():
    import pickle
    from concurrent.futures import ThreadPoolExecutor

    cases = [vc.case(cid) for cid in (1, 2, 3, 4, 5, 6, 7, 8)]
    cases = [c for c in cases if np.unique(c["y"]).size == 2 and np.unique(c["p"]).size > 1]

    def run(c):
        return np.append(pc.val_prob(c["p"], c["y"]).values(),
                         float(pc.hoslem_test(c["y"], c["p"], g=c["g"]).statistic))

    import warnings

    # One filter, set before the threads start: warnings.catch_warnings is
    # not thread-safe (a thread leaving it restores the filters under the
    # others), which let a warning through now and then.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = [run(c) for c in cases]
        with ThreadPoolExecutor(4) as pool:
            threaded = list(pool.map(run, cases * 3))
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(threaded, serial * 3))
    c = cases[0]
    for obj in (pc.val_prob(c["p"], c["y"]), pc.hoslem_test(c["y"], c["p"]),
                pc.cal_intercept_slope(c["p"], c["y"])):
        back = pickle.loads(pickle.dumps(obj))
        assert str(back) == str(obj)

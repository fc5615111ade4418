"""val_prob(group=, weights=) and R's loess against R (rms 6.5-0 / Hmisc 4.8.0, R 4.2.2).

* Stored: reference/validation/val_probg_fixtures.json holds R's answers for
  cases 0-39 of tests/_val_probg_cases.py (grouped val.prob and loess;
  ``python tools/make_validation_fixtures.py --grouped``, which records the
  versions); checked without R's packages.
* Live (``r_parity``): further cases through rpy2 against ``rms::val.prob``
  (rms is a Debian package, present in CI) and ``stats::loess``, and bad
  input against R's messages.

Every statistic, quantile and calibration-curve point is compared bit for bit
(relative tolerance 0: measured, the port repeats R's arithmetic), the
printed text, the warnings and R's errors byte for byte.
"""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.rstats._loess import loess_fitted
from pycalib_r.diagnostics._val_probg import ValProbG, cut2_g

from tests import _val_probg_cases as gc
from tests._rcall import REPO

FIXTURE = REPO / "reference" / "validation" / "val_probg_fixtures.json"
LIVE_CASES = int(os.environ.get("PYCALIB_R_VAL_PROBG_CASES", "40"))


def _report(diffs: gc.Diffs, what: str) -> None:
    print(f"{what}: {diffs.numbers} numbers, largest relative difference {diffs.largest}, "
          f"{diffs.singular} where R stops with solve()'s condition-number error")
    assert not diffs.items, "\n".join(diffs.items[:20])


# ---------------------------------------------------------------------------
# Stored answers (no R packages needed).

def test_stored_fixtures_match():
    data = json.loads(FIXTURE.read_text())
    assert data["versions"] == {"R": "4.2.2", "rms": "6.5.0", "Hmisc": "4.8.0"}
    diffs = gc.Diffs()
    for stored in data["val_probg"]:
        c = gc.case(stored["id"])
        assert gc.inputs_sha256(c) == stored["inputs_sha256"], \
            "the case generator changed: store again (tools/make_validation_fixtures.py --grouped)"
        gc.compare(gc.python_side(c), stored["r"], diffs, f"stored case {stored['id']}")
    assert diffs.numbers > 5000
    _report(diffs, f"{len(data['val_probg'])} stored grouped cases")


def test_stored_loess_fixtures_match():
    data = json.loads(FIXTURE.read_text())
    diffs = gc.Diffs()
    for stored in data["loess"]:
        c = gc.loess_case(stored["id"])
        assert gc.loess_sha256(c) == stored["inputs_sha256"]
        gc.compare_loess(gc.loess_python(c), stored["r"], diffs, f"stored loess {stored['id']}")
    _report(diffs, f"{len(data['loess'])} stored loess cases")


def test_print_is_rs():
    # R: set.seed(1); p <- runif(200); y <- rbinom(200, 1, p^1.3)
    #    print(val.prob(p, y, group = rep(c("a", "b"), 100), pl = FALSE))
    pc.set_seed(1)
    p = pc.runif(200)
    y = pc.rbinom(200, 1, p ** 1.3)
    with pytest.warns(RuntimeWarning, match="NaNs produced"):
        res = pc.val_prob(p, y, group=["a", "b"] * 100)
    text = str(res)
    assert text.splitlines()[0] == ("          n  Pavg   Obs ChiSq ChiSq2  Eavg Eavg/P90 Med OR "
                                    "    C     B B ChiSq")
    assert "\n\nQuantiles of Predicted Probabilities\n\n" in text
    assert list(res.stats.index) == ["a", "b", "Overall"]
    assert res.stats.loc["Overall", "n"] == 200.0
    d = res.to_dict()
    assert d["stats"]["a"]["n"] == 100.0 and set(d["quantiles"]["b"]) == set(res.quantiles.columns)


def test_group_true_is_the_overall_row_only():
    pc.set_seed(3)
    p = pc.runif(60)
    y = pc.rbinom(60, 1, p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # R's "NaNs produced" (qlogis of smoothed values > 1)
        res = pc.val_prob(p, y, group=True)
        same = pc.val_prob(p, y, group=np.array(["x"] * 60))  # one level: R drops it too
    assert isinstance(res, ValProbG) and res.row_names == ["Overall"]
    assert np.array_equal(res.stats_array(), same.stats_array())


def test_refusals_and_warnings():
    p = np.array([0.1, 0.4, 0.35, 0.8, 0.6, 0.2])
    y = np.array([0, 1, 0, 1, 1, 0])
    with pytest.raises(pc.ProbcalError, match="`group` must not contain missing values") as e:
        pc.val_prob(p, y, group=np.array(["a", None, "b", "a", "b", "a"], dtype=object))
    assert "drop those rows" in "".join(e.value.__notes__)
    with pytest.raises(pc.ProbcalError, match="lengths of group and y do not agree"):
        pc.val_prob(p, y, group=["a", "b"])
    with pytest.raises(pc.ProbcalError, match="`weights` must not contain missing values"):
        pc.val_prob(p, y, group=True, weights=[1, 1, np.nan, 1, 1, 1])
    with pytest.raises(pc.ProbcalError, match="lengths of weights and y do not agree"):
        pc.val_prob(p, y, group=True, weights=[1, 1])
    with pytest.warns(UserWarning, match="used only with `group`"):
        pc.val_prob(p, y, weights=np.ones(6))


def test_inputs_not_mutated_and_threads():
    from concurrent.futures import ThreadPoolExecutor
    pc.set_seed(4)
    p = pc.runif(150)
    y = pc.rbinom(150, 1, p).astype(float)
    g = np.where(p > 0.5, "hi", "lo")
    w = np.linspace(0.5, 2, 150)
    copies = [a.copy() for a in (p, y, g, w)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = pc.val_prob(p, y, group=g, weights=w).stats_array()
        with ThreadPoolExecutor(4) as ex:
            outs = list(ex.map(lambda _: pc.val_prob(p, y, group=g, weights=w).stats_array(),
                               range(8)))
    assert all(np.array_equal(o, ref) for o in outs)
    assert all(np.array_equal(a, b) for a, b in zip((p, y, g, w), copies))


def test_loess_tiny_and_errors():
    with pytest.raises(pc.ProbcalError, match="span is too small"):
        loess_fitted(np.array([0.1, 0.2]), np.array([1.0, 2.0]), span=0.1)
    with pytest.raises(pc.ProbcalError, match="'degree' must be 0, 1 or 2"):
        loess_fitted(np.array([0.1, 0.2]), np.array([1.0, 2.0]), degree=3)
    with pytest.warns(RuntimeWarning) as rec:
        out = loess_fitted(np.array([0.1, 0.5, 0.9]), np.array([1.0, 2.0, 0.0]), degree=1,
                           span=2 / 3)
    assert out.shape == (3,)
    # loessc.c's text for nf - 1 < degrees of freedom (live cases compare every warning with R)
    assert str(rec[0].message) == "span too small.   fewer data values than degrees of freedom."


def test_plot_composes_with_ax():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    pc.set_seed(2)
    p = pc.runif(120)
    y = pc.rbinom(120, 1, p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = pc.val_prob(p, y, group=np.where(p > 0.4, "a", "b"))
    fig, ax = plt.subplots()
    assert res.plot(ax=ax) is ax
    assert len(ax.lines) >= 3
    plt.close(fig)


# ---------------------------------------------------------------------------
# Live against R.

@pytest.fixture(scope="module")
def grouped_r(r):
    ok = r.r('as.integer(requireNamespace("rms", quietly = TRUE))')[0]
    if ok != 1:
        pytest.skip("rms is not installed; the stored fixtures cover these cases")
    root = str(REPO).replace("\\", "/")
    r.r(f'source("{root}/pycalib_r/r/harness.R"); source("{root}/reference/r/validation.R")')
    return r


@pytest.mark.r_parity
def test_live_grouped_cases(grouped_r):
    diffs = gc.Diffs()
    for cid in range(40, 40 + LIVE_CASES):
        c = gc.case(cid)
        gc.compare(gc.python_side(c), gc.r_json(grouped_r, c), diffs, f"case {cid}")
    assert LIVE_CASES < 20 or diffs.numbers > 5000
    _report(diffs, f"{LIVE_CASES} live grouped cases")


@pytest.mark.r_parity
def test_live_loess_cases(grouped_r):
    diffs = gc.Diffs()
    for cid in range(40, 40 + 3 * LIVE_CASES):
        c = gc.loess_case(cid)
        gc.compare_loess(gc.loess_python(c), gc.loess_r(grouped_r, c), diffs, f"loess {cid}")
    _report(diffs, f"{3 * LIVE_CASES} live loess cases")


@pytest.mark.r_parity
def test_cut2_matches_hmisc(grouped_r):
    from rpy2.robjects import FloatVector
    rng = np.random.default_rng(9)
    checked = 0
    for k in range(30):
        n = int(rng.integers(3, 300))
        x = rng.normal(size=n) * 10.0 ** rng.integers(-4, 4)
        if k % 3 == 0:
            x = np.round(x, 1)
        if k % 5 == 0:
            x = rng.integers(1, 6, size=n).astype(float)
        g = int(rng.integers(2, 7))
        res = grouped_r.r(f"function(x) {{ f <- suppressWarnings(Hmisc::cut2(x, g = {g})); "
                          "list(as.integer(f) - 1L, levels(f)) }")(FloatVector(x))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            codes, labels = cut2_g(x, g)
        assert labels == list(res[1]), (k, labels, list(res[1]))
        assert codes.tolist() == list(res[0])
        checked += 1
    assert checked == 30


BAD_CALLS = [
    ("rms::val.prob(p, y[-1], group = g, pl = FALSE)",
     lambda p, y, g: pc.val_prob(p, y[:-1], group=g)),
    ("rms::val.prob(p, y, group = g, nmin = 1000, pl = FALSE)",
     lambda p, y, g: pc.val_prob(p, y, group=g, nmin=1000)),
    ("rms::val.prob(rep(0.3, length(y)), y, group = g, pl = FALSE)",
     lambda p, y, g: pc.val_prob(np.full(y.size, 0.3), y, group=g)),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("code, call", BAD_CALLS)
def test_bad_input_gives_rs_message(grouped_r, code, call):
    from rpy2.robjects import FloatVector, StrVector
    pc.set_seed(5)
    p = pc.runif(50)
    y = pc.rbinom(50, 1, p).astype(float)
    g = np.where(p > 0.5, "a", "b")
    ro = grouped_r
    ro.globalenv["p"], ro.globalenv["y"] = FloatVector(p), FloatVector(y)
    ro.globalenv["g"] = StrVector(g)
    expected = ro.r(f"tryCatch({{ suppressWarnings({code}); 'no error' }}, "
                    "error = function(e) conditionMessage(e))")[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pc.ProbcalError) as e:
            call(p, y, g)
    assert str(e.value) == expected


def test_loess_trace_shortcuts_repeat_the_point_by_point_bits():
    # The hat-matrix diagonal (the trace behind loess's warnings) is formed
    # with two shortcuts (issue 46 item 5, 2-3x faster grouped val_prob):
    # _qty_head skips reflection work whose result is not read, and ehg128
    # runs once per vertex on all its points. Both must give the bits of the
    # full reflections and of ehg128 point by point.
    from pycalib_r.rstats import _loess as lo

    rng = np.random.default_rng(7)
    checked = 0
    for n, degree in [(40, 1), (300, 1), (1000, 1), (200, 2), (60, 0), (7, 2)]:
        x = np.sort(rng.random(n)) ** 2
        y = (rng.random(n) < x) * 1.0
        w = rng.random(n) * 2 + 0.1
        nf = min(n, int(np.floor(n * 2 / 3 + 1e-5)))
        psi = list(range(n + 1))
        tree = lo._kd_tree(x, lo._ifloor(n * (2 / 3 * 0.13333)), max(200, n))
        nv = tree[7]
        for lv in range(1, nv + 1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _, _, fit = lo._ehg127(float(tree[0][lv]), x, None, y, w, nf, 2 / 3, degree,
                                       psi, lo._State())
            if fit.nf <= fit.k:
                continue
            rows = np.arange(fit.nf)
            for i in rows:
                eta = np.zeros(fit.nf)
                eta[i] = fit.w[i]
                full = lo._qty(fit.b, fit.qraux, eta.copy(), fit.k, fit.nf)[:fit.k]
                assert np.array_equal(lo._qty_head(fit, eta, int(i)), full)
            hat = np.array([lo._hat_row(fit, int(i)) for i in rows])
            z = x[: fit.nf]
            vval2 = np.zeros((2, nv + 1))
            one = []
            for k in range(fit.nf):
                vval2[:, lv] = hat[k]
                one.append(float(lo._ehg128(np.array([z[k]]), tree, vval2)[0]))
            got = lo._vertex_diagonal(z, lv, hat[:, 0], hat[:, 1], tree, lo._cells(z, tree))
            assert np.array_equal(got, np.array(one))
            checked += 1
    assert checked > 10

"""CORP reliability diagrams against R's reliabilitydiag (issue 36).

Reference: reliabilitydiag 0.2.1.9000 (aijordan/reliabilitydiag a3d3572).
Each case of reference/r/corp.R is checked twice: against the stored values
(reference/bin_free/corp.json, written by tools/make_corp_fixtures.R; CI,
where reliabilitydiag is absent) and live through rpy2 when reliabilitydiag
is installed. Tolerances: the CORP curve and the resampling bands are
bit-equal (the draws are R's sample.int/rbinom on the package's stream);
the decomposition and the asymptotic bands relative 1e-12.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.diagnostics._corp import format_tibble

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "reference" / "bin_free" / "corp.json"
STORED = json.loads(FIXTURE.read_text())
CASES = STORED["cases"]
RTOL = 1e-12


def _hex(values):
    return np.array([np.nan if v == "NA" else float.fromhex(v) for v in values])


def _spec_value(spec, key):
    v = spec[key]
    return None if v == "NA" else v


def _python(case):
    spec = case["spec"]
    p, y = _hex(case["p"]), np.asarray(case["y"], dtype=np.int64)
    pc.set_seed(spec["band_seed"])
    level = _spec_value(spec, "level")
    xvalues = _hex(spec["xvalues"]) if "xvalues" in spec else None

    def run():
        return pc.reliabilitydiag(p, y, region_level=level,
                                  region_method=_spec_value(spec, "method"),
                                  region_position=_spec_value(spec, "position"),
                                  n_boot=spec["n_boot"], xvalues=xvalues)

    if xvalues is None:
        return run()
    # snapped forecasts tie in R's approx(): R warns once per resample
    with pytest.warns(RuntimeWarning, match="collapsing to unique 'x' values"):
        return run()


def _close(a, b, rtol=RTOL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    assert np.array_equal(np.isnan(a), np.isnan(b))
    assert np.array_equal(a[np.isinf(a)], b[np.isinf(a)])
    ok = np.isfinite(a)
    scale = np.maximum(np.abs(b[ok]), 1e-300)
    err = np.max(np.abs(a[ok] - b[ok]) / scale) if ok.any() else 0.0
    assert err <= rtol, f"largest relative difference {err:.3g} > {rtol:g}"
    return err


def check_case(case):
    """Compare one case (stored or live) with pycalib_r; returns the largest differences."""
    r = _python(case)
    fit = r["X"]
    name = case["spec"]["name"]
    # the curve: order, bins, CEP values bit for bit
    np.testing.assert_array_equal(fit.cases["case_id"].to_numpy(), case["case_id"], err_msg=name)
    bins = case["bins"]
    np.testing.assert_array_equal(fit.bins["n"].to_numpy(), bins["n"])
    for col in ("x_min", "x_max", "CEP_pav"):
        np.testing.assert_array_equal(fit.bins[col].to_numpy(), _hex(bins[col]), err_msg=col)
    assert fit.xinfo["type"] == case["xtype"]
    # the bands
    reg = case["regions"]
    assert fit.regions["method"].tolist() == reg["method"]
    assert fit.regions["position"].tolist() == reg["position"]
    np.testing.assert_array_equal(fit.regions["x"].to_numpy(), _hex(reg["x"]))
    band_err = 0.0
    if reg["method"] and reg["method"][0].startswith("resampling"):
        for col in ("lower", "upper"):
            np.testing.assert_array_equal(fit.regions[col].to_numpy(dtype=float), _hex(reg[col]),
                                          err_msg=f"{name}: {col} not bit-equal")
    else:
        for col in ("lower", "upper"):
            band_err = max(band_err, _close(fit.regions[col].to_numpy(dtype=float), _hex(reg[col])))
    _close(fit.regions["n"].to_numpy(dtype=float), _hex(reg["n"]))
    _close(fit.regions["level"].to_numpy(dtype=float), _hex(reg["level"]))
    # the decomposition (mean_score, miscalibration, discrimination, uncertainty)
    tab = r.summary().table
    dec_err = _close(tab.iloc[0, 1:].to_numpy(dtype=float), _hex(case["brier"]))
    log = r.summary(score="log").table
    dec_err = max(dec_err, _close(log.iloc[0, 1:].to_numpy(dtype=float), _hex(case["log"])))
    assert str(r.summary()) == case["brier_print"]
    return dec_err, band_err


def test_fixture_records_the_reference():
    assert STORED["versions"]["reliabilitydiag"] == "0.2.1.9000"
    assert STORED["reference"].startswith("reliabilitydiag 0.2.1.9000")
    assert len(CASES) == 11


@pytest.mark.parametrize("case", CASES, ids=[c["spec"]["name"] for c in CASES])
def test_stored_case(case):
    check_case(case)


@pytest.mark.parametrize("case", CASES[:4], ids=[c["spec"]["name"] for c in CASES[:4]])
def test_inputs_are_the_package_streams(case):
    """The fixtures' data are R's runif/rbinom, which the package's stream reproduces."""
    spec = case["spec"]
    pc.set_seed(spec["seed"])
    p = pc.runif(spec["n"])
    y = pc.rbinom(spec["n"], 1, p ** spec["shape"])
    if spec["digits"] != "NA":
        p = np.round(p, spec["digits"])  # R's round() agrees at these digits for these draws
    np.testing.assert_array_equal(y, case["y"])
    np.testing.assert_array_equal(p, _hex(case["p"]))


@pytest.fixture(scope="module")
def reliabilitydiag_r(r):
    ok = r.r('as.integer(requireNamespace("reliabilitydiag", quietly = TRUE) && '
             'requireNamespace("jsonlite", quietly = TRUE))')[0]
    if ok != 1:
        pytest.skip("reliabilitydiag (and jsonlite) are not installed in R; the stored cases "
                    "(reference/bin_free/corp.json) cover these comparisons")
    r.r(f'source("{REPO / "reference" / "r" / "corp.R"}")')
    return r


@pytest.mark.r_parity
@pytest.mark.parametrize("i", range(len(CASES)), ids=[c["spec"]["name"] for c in CASES])
def test_live_case(reliabilitydiag_r, i):
    live = json.loads(str(reliabilitydiag_r.r(f"corp_case_json({i + 1})")[0]))
    check_case(live)


@pytest.mark.r_parity
def test_live_estimate_bands_with_a_ties_heavy_input(reliabilitydiag_r):
    """Confidence bands with bound_correction on CEP values 0 and 1 in the interior."""
    r = reliabilitydiag_r
    r.r("set.seed(21); p <- round(runif(120), 1); y <- rbinom(120, 1, p); set.seed(3);"
        "rr <- reliabilitydiag::reliabilitydiag(X = p, y = y, region.position = 'estimate',"
        " n.boot = 30)$X$regions")
    p = np.asarray(r.r("p")); y = np.asarray(r.r("y"), dtype=np.int64)
    pc.set_seed(3)
    fit = pc.reliabilitydiag(p, y, region_position="estimate", n_boot=30)["X"]
    for col in ("lower", "upper"):
        np.testing.assert_array_equal(fit.regions[col].to_numpy(dtype=float),
                                      np.asarray(r.r(f"rr${col}"), dtype=float))


def test_curve_is_cal_isotonic_fit():
    """The CORP curve at each forecast value is cal_isotonic's fitted value (one PAV)."""
    pc.set_seed(3)
    p = np.round(pc.runif(500), 2)
    y = pc.rbinom(500, 1, p)
    fit = pc.reliabilitydiag(p, y, region_level=None)["X"]
    iso = pc.cal_isotonic(p, y)
    xs, first = np.unique(fit.cases["x"].to_numpy(), return_index=True)
    np.testing.assert_array_equal(xs, iso.x_thresholds)
    np.testing.assert_array_equal(fit.cases["CEP_pav"].to_numpy()[first], iso.y_calibrated)


def test_decomposition_matches_model_diagnostics():
    """model-diagnostics' decompose (isotonic recalibration, squared error) on untied forecasts."""
    md = pytest.importorskip("model_diagnostics.scoring")
    rng = np.random.default_rng(8)
    worst = 0.0
    for n in (200, 2000):
        p = rng.beta(2, 3, n)
        y = (rng.random(n) < p ** 1.4).astype(np.int64)
        r = pc.reliabilitydiag(p, y, region_level=None)
        ours = r.summary().table.iloc[0]
        theirs = md.decompose(y, p, scoring_function=md.SquaredError()).row(0, named=True)
        for a, b in (("mean_score", "score"), ("miscalibration", "miscalibration"),
                     ("discrimination", "discrimination"), ("uncertainty", "uncertainty")):
            worst = max(worst, abs(ours[a] - theirs[b]) / abs(theirs[b]))
    assert worst < 1e-13, worst  # observed 1.8e-15


def test_multiclass_forms_are_the_binary_problems():
    pc.set_seed(5)
    raw = np.column_stack([pc.runif(300) for _ in range(3)])
    prob = raw / raw.sum(axis=1, keepdims=True)
    y = np.array(pc.sample_int(3, 300, replace=True))
    cw = pc.reliabilitydiag(prob, y, region_level=None)
    assert list(cw) == ["1", "2", "3"]
    for k in range(3):
        one = pc.reliabilitydiag(prob[:, k], (y == k + 1).astype(int), region_level=None)["X"]
        np.testing.assert_array_equal(cw[str(k + 1)].bins.to_numpy(), one.bins.to_numpy())
    conf = pc.reliabilitydiag(prob, y, type="confidence", region_level=None)
    assert list(conf) == ["confidence"]
    top = prob.max(axis=1)
    correct = (prob.argmax(axis=1) + 1 == y).astype(int)
    one = pc.reliabilitydiag(top, correct, region_level=None)["X"]
    np.testing.assert_array_equal(conf["confidence"].bins.to_numpy(), one.bins.to_numpy())


def test_several_forecasts_print_as_r():
    case = CASES[0]
    p, y = _hex(case["p"]), np.asarray(case["y"])
    r = pc.reliabilitydiag({"X": p, "Y": p[::-1].copy()}, y, region_level=None)
    text = str(r.summary())
    assert text.splitlines()[1] == "# A tibble: 2 \u00d7 5"
    assert list(r) == ["X", "Y"]
    s0 = r.summary().table.iloc[0, 1:].to_numpy(dtype=float)
    _close(s0, _hex(case["brier"]))


def test_pillar_formatting_cases():
    """pillar's decimal alignment (R: print(tibble(...)) with these values)."""
    import pandas as pd

    t = pd.DataFrame(dict(forecast=["X", "Y"], a=[0.0919, 0.00246], b=[0.0, 0.113]))
    assert format_tibble(t).splitlines()[3:] == ["1 X        0.0919  0    ",
                                                 "2 Y        0.00246 0.113"]


def test_region_errors_keep_r_message_and_hint():
    with pytest.raises(pc.ProbcalError) as info:
        pc.reliabilitydiag([0.2, 0.7], [0, 1], region_level=1.5)
    assert str(info.value) == "isTRUE(region.level > 0 & region.level < 1) is not TRUE"
    assert any("strictly between 0 and 1" in n for n in info.value.__notes__)
    with pytest.raises(pc.ProbcalError):
        pc.reliabilitydiag([0.2, 0.7], [0, 1], region_method="bootstrap")
    with pytest.raises(pc.ProbcalError):
        pc.reliabilitydiag([0.2, 1.7], [0, 1])


def test_caller_data_not_mutated_and_rng_argument():
    case = CASES[0]
    p, y = _hex(case["p"]), np.asarray(case["y"])
    p0, y0 = p.copy(), y.copy()
    a = pc.reliabilitydiag(p, y, rng=pc.RRandom(7))["X"].regions
    pc.set_seed(7)
    b = pc.reliabilitydiag(p, y)["X"].regions
    np.testing.assert_array_equal(a["lower"].to_numpy(), b["lower"].to_numpy())
    np.testing.assert_array_equal(p, p0)
    np.testing.assert_array_equal(y, y0)
    g = pc.reliabilitydiag(p, y, rng=np.random.default_rng(1))["X"].regions
    assert np.all(g["lower"].to_numpy() <= g["upper"].to_numpy())


def test_plot_ax_and_overlay():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    case = CASES[0]
    p, y = _hex(case["p"]), np.asarray(case["y"])
    pc.set_seed(7)
    r = pc.reliabilitydiag(p, y)
    fig = r.plot()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "Forecast value" and ax.get_ylabel() == "CEP"
    assert {a.get_gid() for a in ax.get_children()} >= {"band", "histogram", "CEP"}
    plt.close(fig)
    fig, ax = plt.subplots()
    out = pc.reliabilitydiag({"raw": p, "rev": p[::-1].copy()}, y, region_level=None).autoplot(ax=ax)
    assert out is fig
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["raw", "rev"]
    plt.close(fig)


def test_bin_free_doc_snippets_print_what_they_show():
    """docs/bin_free.md's Python blocks run and print the text shown after them."""
    import subprocess
    import sys

    from tests.conftest import ORIGINAL_ENV
    from tests.suites.docs.test_docs_snippets import _FENCE

    text = (REPO / "docs" / "bin_free.md").read_text(encoding="utf-8")
    blocks = list(_FENCE.finditer(text))
    checked = 0
    for i, block in enumerate(blocks):
        if block.group(1) != "python":
            continue
        assert i + 1 < len(blocks) and blocks[i + 1].group(1) == ""
        run = subprocess.run([sys.executable, "-c", block.group(2)], capture_output=True,
                             text=True, cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)},
                             check=False, timeout=600)
        assert run.returncode == 0, run.stderr[-3000:]
        assert run.stdout == blocks[i + 1].group(2)
        checked += 1
    assert checked >= 1


def test_bands_from_another_stream_agree_within_monte_carlo_error():
    """With a numpy Generator the draws differ from R's, so the bands differ; R's band
    (stored, seed 7) must then look like one more draw of the Generator bands: at each
    forecast value within 4 Monte Carlo standard deviations (sd over 20 Generator seeds,
    times sqrt(1 + 1/20)) of their mean, at 99% of the values or more."""
    case = CASES[0]
    p, y = _hex(case["p"]), np.asarray(case["y"])
    bands = {"lower": [], "upper": []}
    for seed in range(20):
        reg = pc.reliabilitydiag(p, y, rng=np.random.default_rng(seed))["X"].regions
        for col in bands:
            bands[col].append(reg[col].to_numpy(dtype=float))
    for col in bands:
        sims = np.array(bands[col])
        ref = _hex(case["regions"][col])
        sd = sims.std(axis=0, ddof=1) * np.sqrt(1 + 1 / 20)
        inside = np.abs(ref - sims.mean(axis=0)) <= 4 * sd + 1e-12
        assert inside.mean() >= 0.99, (col, inside.mean())


def test_single_value_resample_recycles_with_r_warning():
    """R: set.seed(1); reliabilitydiag(X = c(0.1, 0.5, 0.7), y = c(0, 0, 0)) warns
    'data length [272] is not a sub-multiple or multiple of the number of rows [3]'
    and gives bands [0, 1] at the three values."""
    pc.set_seed(1)
    with pytest.warns(RuntimeWarning, match=r"^data length \[272\] is not a sub-multiple or "
                                            r"multiple of the number of rows \[3\]$"):
        r = pc.reliabilitydiag([0.1, 0.5, 0.7], [0, 0, 0])
    reg = r["X"].regions
    assert reg["lower"].tolist() == [0.0, 0.0, 0.0] and reg["upper"].tolist() == [1.0, 1.0, 1.0]
    assert str(r.summary()).splitlines()[-1] == "1 X              0.25           0.25              0           0"


def test_threads_and_pickling():
    import pickle
    from concurrent.futures import ThreadPoolExecutor

    case = CASES[0]
    p, y = _hex(case["p"]), np.asarray(case["y"])
    seeds = [5, 6, 5, 6, 7]
    alone = [pc.reliabilitydiag(p, y, rng=s)["X"].regions["lower"].to_numpy() for s in seeds]
    with ThreadPoolExecutor(4) as ex:
        together = list(ex.map(lambda s: pc.reliabilitydiag(p, y, rng=s)["X"].regions["lower"]
                               .to_numpy(), seeds))
    for a, b in zip(alone, together):
        np.testing.assert_array_equal(a, b)
    r = pc.reliabilitydiag(p, y, rng=1)
    back = pickle.loads(pickle.dumps(r))
    assert str(back) == str(r) and back["X"].regions.equals(r["X"].regions)


def test_cases_made_on_demand_are_the_stable_order():
    # Without a -0.0 forecast the fit sorts the (x, y) keys themselves and
    # makes the cases table (case_id: the stable permutation) when first
    # asked; it is R's order(x, -y) of the cases, ties in their order, as
    # the eager path (taken with a -0.0) gives. A pickle made before the
    # table was asked for holds it.
    import pickle

    from pycalib_r.binned._binning import stable_order
    from pycalib_r.rstats._isoreg import _order_keys

    g = np.random.default_rng(3)
    n = 5_000
    p = np.round(g.random(n), 2)  # many ties in x and in (x, y)
    y = (g.random(n) < p).astype(np.int64)
    order = stable_order(_order_keys(p, y))
    r = pc.reliabilitydiag(p, y, region_level=None)
    fit = r["X"]
    assert callable(fit._cases)  # not made yet
    summary = str(r.summary())
    assert repr(fit).startswith(f"<CorpFit: {n} cases")
    assert callable(fit._cases)  # summary() and repr() did not need it
    back = pickle.loads(pickle.dumps(r))
    for f in (fit, back["X"]):
        c = f.cases
        np.testing.assert_array_equal(c["case_id"].to_numpy(), order + 1)
        np.testing.assert_array_equal(c["x"].to_numpy(), p[order])
        np.testing.assert_array_equal(c["y"].to_numpy(), y[order])
        assert c["y"].dtype == np.int64 and c["x"].dtype == np.float64
    assert str(back.summary()) == summary
    # the eager path (a -0.0 forecast keeps its sign in the cases)
    p0 = p.copy()
    p0[p0 == 0] = -0.0
    fit0 = pc.reliabilitydiag(p0, y, region_level=None)["X"]
    assert not callable(fit0._cases)
    np.testing.assert_array_equal(fit0.cases["case_id"].to_numpy(), order + 1)
    assert fit0.bins.equals(fit.bins) and str(pc.reliabilitydiag(p0, y, region_level=None).summary()) == summary


# ---------------------------------------------------------------------------
# Issue 47: provenance, and Chen's beta kernel written from the paper


def test_modules_state_what_they_derive_from():
    """_corp translates reliabilitydiag (GPL-3), R and pillar; _smece follows relplot; the
    beta kernel is written from Chen (1999), not from bde (GPL-2-only)."""
    pkg = REPO / "pycalib_r" / "diagnostics"
    corp = (pkg / "_corp.py").read_text().splitlines()
    tibble = (pkg / "_tibble.py").read_text().splitlines()
    assert tibble[:2] == ["# SPDX-License-Identifier: GPL-3.0-or-later",
                          "# Derived from: pillar 1.8.1 R/sigfig.R (MIT), (c) pillar authors"]
    assert corp[0] == "# SPDX-License-Identifier: GPL-3.0-only"  # reliabilitydiag is GPL-3 (only)
    assert corp[1].startswith("# Derived from: reliabilitydiag 0.2.1.9000 R/") and "(GPL-3)" in corp[1]
    smece = (pkg / "_smece.py").read_text().splitlines()
    assert smece[0] == "# SPDX-License-Identifier: GPL-3.0-or-later"
    assert smece[1].startswith("# Derived from: relplot 1.0.3 ") and "Apple" in smece[1]
    beta = (pkg / "_beta_kernel.py").read_text()
    assert beta.splitlines()[0] == "# SPDX-License-Identifier: GPL-3.0-or-later"
    assert "Derived from" not in beta and "from the published method alone" in beta
    assert "Chen, S. X." in beta and "(1999)" in beta
    # the estimate reliabilitydiag's bands use is this module's, not a copy in _corp
    corp_text = "\n".join(corp)
    assert "from ._beta_kernel import chen_beta_density" in corp_text
    assert "def _chen_beta_density" not in corp_text


def test_chen_beta_kernel_is_the_papers_formula():
    """f(x) = mean_i Beta(X_i; x/b + 1, (1 - x)/b + 1) with b = n^(-2/5), term by term
    (scipy's beta density as an independent evaluation); t^0 = 1 at t = 0 and 1."""
    from scipy.stats import beta as beta_dist

    from pycalib_r.diagnostics._beta_kernel import chen_beta_density

    g = np.random.default_rng(2)
    data = np.concatenate((g.random(97), [0.0, 1.0, 0.0]))
    at = np.minimum(np.arange(101) * 0.01, 1.0)
    b = data.size ** (-2 / 5)
    want = np.array([beta_dist.pdf(data, x / b + 1, (1 - x) / b + 1).mean() for x in at])
    got = chen_beta_density(data, at)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.r_parity
def test_live_beta_kernel_equals_bde(reliabilitydiag_r):
    """Black-box check against bde (reliabilitydiag's dependency): the density values
    reliabilitydiag uses, on data with values at 0 and 1, for several n."""
    from pycalib_r.diagnostics._beta_kernel import chen_beta_density

    r = reliabilitydiag_r
    at = np.minimum(np.arange(101) * 0.01, 1.0)
    worst = 0.0
    for n, seed in ((2, 1), (57, 2), (1000, 3), (4000, 4)):
        r.r(f"set.seed({seed}); d <- c(runif({n}), 0, 1); d[1] <- 0;"
            "dens <- bde::density(bde::bde(d, estimator = 'betakernel', lower.limit = 0, "
            "upper.limit = 1), seq(0, 1, by = 0.01))")
        d = np.asarray(r.r("d"), dtype=float)
        want = np.asarray(r.r("dens"), dtype=float)
        worst = max(worst, _close(chen_beta_density(np.sort(d), at), want, rtol=1e-12))
    assert worst <= 1e-12


# ---------------------------------------------------------------------------
# Issue 45, item 4: qchern's table ends at 0.9999 (approxfun rule = 1)


def _continuous(level, position, p=None, y=None):
    if p is None:
        pc.set_seed(7)
        p = pc.runif(3000)
        y = pc.rbinom(3000, 1, p ** 1.4)
    return pc.reliabilitydiag(p, y, region_method="continuous_asymptotics",
                              region_position=position, region_level=level)["X"].regions


@pytest.mark.parametrize("level", [0.99981, 0.9999, 0.999999])
def test_continuous_bands_beyond_the_chernoff_table_are_r_na(level):
    # R: qchern(0.5 + 0.5 * level) is NA, so are both bands at every grid point
    reg = _continuous(level, "diagonal")
    assert len(reg) == 101
    assert reg["lower"].isna().all() and reg["upper"].isna().all()
    # ... and at "estimate" R's bound_correction() calls approx() on 101 NAs
    with pytest.raises(pc.ProbcalError) as info:
        _continuous(level, "estimate")
    assert str(info.value) == "need at least two non-NA values to interpolate"
    assert "region_level > 0.9998" in " ".join(info.value.__notes__)


def test_continuous_bands_at_the_table_end_are_finite():
    reg = _continuous(0.9998, "diagonal")
    assert np.isfinite(reg["lower"].to_numpy(dtype=float)).all()


def test_continuous_estimate_bands_of_one_forecast_value_are_r_error():
    with pytest.raises(pc.ProbcalError, match="^need at least two non-NA values") as info:
        _continuous(0.9, "estimate", np.full(50, 0.3), np.tile([0, 1], 25))
    assert "one value" in " ".join(info.value.__notes__)


@pytest.mark.r_parity
def test_live_continuous_bands_near_the_chernoff_table_end(reliabilitydiag_r):
    r = reliabilitydiag_r
    r.r("set.seed(7); p <- runif(3000); y <- rbinom(3000, 1, p^1.4);"
        "cbands <- function(level, pos) tryCatch(reliabilitydiag::reliabilitydiag(X = p, y = y,"
        " region.method = 'continuous_asymptotics', region.position = pos,"
        " region.level = level)$X$regions, error = function(e) conditionMessage(e))")
    for level in (0.9, 0.9998, 0.99981, 0.9999):
        for position in ("diagonal", "estimate"):
            res = r.r(f"cbands({level!r}, '{position}')")
            if r.r["is.character"](res)[0]:
                assert str(res[0]).endswith("need at least two non-NA values to interpolate")
                with pytest.raises(pc.ProbcalError, match="^need at least two non-NA"):
                    _continuous(level, position)
                continue
            reg = _continuous(level, position)
            for col in ("lower", "upper"):
                want = np.asarray(r.r["as.numeric"](res.rx2(col)), dtype=float)
                _close(reg[col].to_numpy(dtype=float), want)


# ---------------------------------------------------------------------------
# Issue 45, item 9: r["X"] on a named pandas Series


def test_unknown_forecast_key_names_the_keys_and_why():
    pd = pytest.importorskip("pandas")
    p = pd.Series(np.linspace(0.01, 0.99, 50), name="prob")
    r = pc.reliabilitydiag(p, np.arange(50) % 2, region_level=None)
    assert list(r) == ["prob"]
    with pytest.raises(KeyError) as info:
        r["X"]
    text = str(info.value)
    assert text.startswith("'X' is not a forecast of this reliabilitydiag; its forecasts are "
                           "'prob'.")
    assert "pandas Series' name" in text and "list(r)" in text
    assert info.value.key == "X" and info.value.available == ["prob"]
    # the Mapping protocol still answers through KeyError
    assert "X" not in r and r.get("X") is None and r["prob"] is r.get("prob")

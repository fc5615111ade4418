"""pmcalibration() and cal_metrics() against R's pmcalibration 0.2.0.

Live cases (``r_parity``; skip without pmcalibration in R's library, e.g.
``R CMD INSTALL -l /work/rlib`` of its public source) compare every
smooth and interval kind on random cases (n from 10 to 10^5, ties, p within
1e-9 of 0 and 1): closed forms to 1e-12 relative; measured, the fitted
curve, metrics, pointwise standard errors, lowess/loess values and the
``boot`` samples are bit-equal, and so are the ``sim`` draws where the
system's LAPACK (R's) is loadable (scipy's may flip an eigenvector's sign,
see docs/guide/pmcalibration.md); bootstrap intervals bit-equal after
``set_seed``; prints byte-equal. The stored fixture reference/pmcalibration/*.json
(recording pmcalibration 0.2.0 and R's version) covers runs without R.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.clinical import cal_metrics, pmcalibration
from pycalib_r.rbase._errors import ProbcalError

from tests import _pmcal_r

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "pmcalibration" / "pmcalibration_0.2.0.json"


def _rel(a, b) -> float:
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    assert a.size == b.size
    assert (np.isnan(a) == np.isnan(b)).all()
    ok = ~np.isnan(a)
    if not ok.any():
        return 0.0
    return float(np.max(np.abs(a[ok] - b[ok]) / np.maximum(np.abs(b[ok]), 1e-300)))


def _py(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pc.set_seed(case["seed"])
        return pmcalibration(np.array(case["y"]), np.array(case["p"]), smooth=case["smooth"],
                             ci=case["ci"], n=case["n"], transf=case["transf"], eval=case["eval"],
                             df=case.get("df"))


def _samples(res, key):
    v = res.metrics_samples if key == "ms" else res.plot_data["plot_samples"]
    return np.empty(0) if v is None else np.asarray(v).T  # R's column-major matrix


def _check(res, exp, tol_se=0.0):
    exact = res.ci != "sim" and res.smooth != "rcs"
    tol = 0.0 if exact else 1e-12
    assert _rel(res.metrics, exp["metrics"]) <= tol
    assert _rel(res.p_c["p_c"], exp["p_c"]) <= tol
    plot = res.plot_data["p_c_plot"]
    assert _rel(np.empty(0) if plot is None else plot, exp["p_c_plot"]) <= tol
    se = res.plot_data["p_c_plot_se"]
    assert _rel(np.empty(0) if se is None else se, exp["se"]) <= tol_se
    if res.ci == "sim":
        # mvrnorm's eigen-decomposition: scipy's LAPACK against R's reference LAPACK
        assert _rel(_samples(res, "ms"), exp["ms"]) <= 1e-10
        assert _rel(_samples(res, "ps"), exp["ps"]) <= 1e-10
    else:
        assert _rel(_samples(res, "ms"), exp["ms"]) == 0.0  # bit-equal after set_seed
        assert _rel(_samples(res, "ps"), exp["ps"]) == 0.0
    assert str(res) + "\n" == exp["print"]


def _fixture():
    with open(FIXTURE, encoding="utf-8") as fh:
        return json.load(fh)


def test_fixture_records_versions():
    data = _fixture()
    assert data["producer"]["pmcalibration"] == "0.2.0"
    assert data["producer"]["R"] == "4.2.2"
    assert len(data["cases"]) >= 10


@pytest.mark.parametrize("i", range(len(_pmcal_r.FIXTURE_CASES)))
def test_stored_cases(i):
    case = _fixture()["cases"][i]
    if case["ci"] == "sim":
        from pycalib_r.clinical._pmcalibration import _system_lapack

        if _system_lapack() is None:
            pytest.skip("ci='sim' equals R's draws with the system LAPACK (liblapack.so.3), "
                        "absent here: scipy's may flip an eigenvector's sign")
    _check(_py(case), case["expected"])


@pytest.fixture(scope="module")
def pmc_r(r):
    if not _pmcal_r.available(r):
        pytest.skip("R package pmcalibration is not installed (install its public source into "
                    "a private library); the stored fixture covers these cases")
    return r


LIVE = [
    (11, 10, "none", "boot", "plain"), (12, 35, "ns", "none", "ties"),
    (13, 500, "ns", "boot", "plain"), (14, 500, "bs", "boot", "extreme"),
    (15, 400, "lowess", "boot", "extreme"), (16, 400, "loess", "boot", "ties"),
    (17, 1000, "none", "sim", "extreme"), (18, 800, "bs", "sim", "plain"),
    (19, 2000, "ns", "pw", "ties"), (20, 3000, "lowess", "none", "plain"),
    (21, 100000, "ns", "none", "plain"), (22, 100000, "lowess", "none", "ties"),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("seed,n,smooth,ci,kind", LIVE)
def test_live_against_r(pmc_r, seed, n, smooth, ci, kind):
    case = _pmcal_r.make_case(seed, n, smooth, ci, kind)
    _check(_py(case), _pmcal_r.run(pmc_r, case))


@pytest.mark.r_parity
@pytest.mark.parametrize("smooth,ci,transf,eval_", [
    ("ns", "boot", "none", 25), ("bs", "pw", "cloglog", [0.05, 0.1, 0.3, 0.5, 0.9]),
    ("lowess", "boot", "cloglog", 0), ("none", "sim", "none", 7), ("loess", "none", "logit", 2),
])
def test_live_transf_and_eval(pmc_r, smooth, ci, transf, eval_):
    case = _pmcal_r.make_case(51, 250, smooth, ci, "plain", transf=transf, eval_=eval_)
    _check(_py(case), _pmcal_r.run(pmc_r, case))


@pytest.mark.r_parity
def test_r_boot_draws_are_sample_per_resample(pmc_r):
    """R's run_boots on one core runs in the session: R's own replay of
    ``sample(1:n, replace = TRUE)`` per resample gives its intervals."""
    case = _pmcal_r.make_case(31, 80, "none", "boot", "plain", nb=5)
    out = _pmcal_r.run(pmc_r, case)
    got = pmc_r.r("""function(y, p, seed) { set.seed(seed)
        x <- qlogis(p); sapply(1:5, function(b) { i <- sample(1:length(y), replace = TRUE)
        f <- suppressWarnings(glm(y[i] ~ x[i], family = binomial)); d <- abs(p[i] - fitted(f)); mean(d) }) }""")(
        pmc_r.FloatVector(case["y"]), pmc_r.FloatVector(case["p"]), case["seed"])
    assert np.allclose(np.asarray(got), out["ms"][:5], rtol=1e-12, atol=0)


@pytest.mark.r_parity
def test_live_rcs(pmc_r):
    pytest.importorskip("pycalib_r.clinical._rcspline",
                        reason="rcs needs Hmisc's rcspline.eval (pycalib_r/clinical/_rcspline.py, "
                               "written on the val_prob_ci branch)")
    case = _pmcal_r.make_case(41, 300, "rcs", "boot", "plain")
    _check(_py(case), _pmcal_r.run(pmc_r, case))


def test_gam_refused_with_the_reason_and_the_exact_smooths():
    y, p = [0, 1, 0, 1, 1], [0.2, 0.6, 0.3, 0.7, 0.9]
    with pytest.raises(ProbcalError) as ei:
        pmcalibration(y, p)  # R's default smooth is gam: refused, not replaced
    msg = str(ei.value)
    assert "mgcv" in msg and "REML" in msg
    for s in ("'rcs'", "'ns'", "'bs'", "'lowess'", "'loess'", "'none'"):
        assert s in msg
    assert any("smooth='ns'" in n for n in ei.value.__notes__)


def test_r_messages_and_argument_checks():
    with pytest.raises(ProbcalError, match="y and p are not the same length"):
        pmcalibration([0, 1], [0.2], smooth="ns")
    with pytest.raises(ProbcalError, match="not available for lowess or loess"):
        pmcalibration([0, 1, 1], [0.2, 0.5, 0.7], smooth="loess", ci="sim")
    with pytest.raises(ProbcalError, match="invalid transf"):
        pmcalibration([0, 1, 1], [0.2, 0.5, 0.7], smooth="none", transf="probit")
    with pytest.raises(ProbcalError, match="'arg' should be one of"):
        pmcalibration([0, 1, 1], [0.2, 0.5, 0.7], smooth="spline")
    pc.set_seed(3)
    p = pc.runif(50, 0.1, 0.9)
    y = pc.rbinom(50, 1, p)
    p2 = np.concatenate([p, [0.0, 1.0]])
    y2 = np.concatenate([y, [0, 1]])
    with pytest.warns(RuntimeWarning, match="2 records with p <= 0 or p >= 1 were removed"):
        res = pmcalibration(y2, p2, smooth="none", ci="none")
    assert res.data.shape[0] == 50
    before = p2.copy()
    assert np.array_equal(p2, before)  # the caller's data is not mutated


def test_cal_metrics_closed_forms():
    p = np.array([0.1, 0.4, 0.8, 0.3])
    pcv = np.array([0.15, 0.3, 0.85, 0.32])
    d = np.abs(p - pcv)
    m = cal_metrics(p, pcv)
    assert list(m.index) == ["Eavg", "E50", "E90", "Emax", "ECI"]
    assert m["Emax"] == d.max()
    assert m["E50"] == pytest.approx(np.median(d), rel=1e-15)
    assert m["ECI"] == pytest.approx(np.mean(d ** 2) * 100, rel=1e-15)
    with pytest.warns(UserWarning, match="some p_c's are missing or Inf"):
        assert np.isnan(cal_metrics(p, [0.1, np.nan, 0.2, 0.3])).all()
    with pytest.raises(ProbcalError, match="length\\(p\\) == length\\(p_c\\) is not TRUE"):
        cal_metrics(p, pcv[:3])


@pytest.mark.r_parity
def test_cal_metrics_live(pmc_r):
    pc.set_seed(9)
    for n in (1, 2, 7, 1000):
        p = pc.runif(n)
        pcv = pc.runif(n)
        got = cal_metrics(p, pcv).to_numpy()
        want = np.asarray(pmc_r.r("pmcalibration::cal_metrics")(pmc_r.FloatVector(p), pmc_r.FloatVector(pcv)))
        assert _rel(got, want) == 0.0


def test_plot_draws_the_curve_band_and_ideal_line():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    pc.set_seed(5)
    p = pc.runif(200, 0.05, 0.95)
    y = pc.rbinom(200, 1, p)
    res = pmcalibration(y, p, smooth="bs", ci="pw", df=4)
    fig, ax = plt.subplots()
    assert res.plot(ax=ax) is ax
    assert len(ax.collections) >= 1 and len(ax.lines) >= 2
    assert ax.get_ylim()[0] == pytest.approx(-0.3)
    plt.close(fig)


def test_boot_is_thread_safe_with_own_streams():
    from concurrent.futures import ThreadPoolExecutor

    pc.set_seed(2)
    p = pc.runif(120, 0.05, 0.95)
    y = pc.rbinom(120, 1, p)

    def one(_):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pmcalibration(y, p, smooth="ns", ci="boot", n=5, df=3,
                                 rng=pc.RRandom(seed=4)).metrics_samples

    with ThreadPoolExecutor(3) as ex:
        outs = list(ex.map(one, range(3)))
    assert all(np.array_equal(outs[0], o) for o in outs[1:])


def test_sklearn_scorers_ici_eci_are_pmcalibration_metrics():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import _scorers as vs

    pc.set_seed(8)
    p = pc.runif(150, 0.05, 0.95)
    y = pc.rbinom(150, 1, p)
    labels = np.where(y == 1, "yes", "no")
    res = pmcalibration(y, p, smooth="loess", ci="none", eval=0)
    assert vs.ici_score(labels, p, pos_label="yes") == res.metrics["Eavg"]
    assert vs.eci_score(labels, p, pos_label="yes") == res.metrics["ECI"]
    assert vs.ici_score(y, p, smooth="ns") == pmcalibration(y, p, smooth="ns", ci="none").metrics["Eavg"]
    from sklearn.linear_model import LogisticRegression

    X = np.column_stack([np.log(p / (1 - p))])
    model = LogisticRegression().fit(X, y)
    scorer = vs.make_validation_scorer("ici")
    want = pmcalibration(y, model.predict_proba(X)[:, 1], smooth="loess", ci="none").metrics["Eavg"]
    assert scorer(model, X, y) == -want


def test_dask_refuses_with_the_reason():
    pytest.importorskip("dask")
    import pycalib_r.dask as pcd

    for name in ("pmcalibration", "cal_metrics"):
        with pytest.raises(pcd.DaskRefusal, match="quantiles") as ei:
            getattr(pcd, name)(None, None)
        assert "sample" in str(ei.value) and "No data was read" in str(ei.value)


@pytest.mark.r_parity
def test_pointwise_curve_limits_match_get_curve(pmc_r):
    case = _pmcal_r.make_case(61, 300, "ns", "pw", "plain")
    res = _py(case)
    out = _pmcal_r.run(pmc_r, case)
    got = res.get_curve().to_numpy()
    assert _rel(got.T, out["curve"].T) <= 1e-12  # R's summary()$plot: p, p_c, lower, upper


def test_importing_pycalib_r_does_not_import_pandas():
    import subprocess
    import sys

    from tests.conftest import ORIGINAL_ENV

    repo = Path(__file__).resolve().parents[2]
    code = "import sys, pycalib_r; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo,
                         env=dict(ORIGINAL_ENV, PYTHONPATH=str(repo)), check=True)
    assert out.stdout.strip() == "False"


def test_dnrm2_zero_fast_path_equals_blues_loop():
    """rstats/_linpack._dnrm2_scaled skips Blue's Python loop when the only
    "small" elements are exact zeros (spline columns): same bits as the loop."""
    import math

    from pycalib_r.rstats import _linpack as lp

    g = pc.RRandom(3)
    for n in (1, 5, 40, 1000):
        v = g.rnorm(n) * np.where(g.runif(n) < 0.6, 0.0, 1.0)
        ax = np.abs(v)
        fast = lp._dnrm2_scaled(ax)
        assert fast == math.sqrt(lp._seq_sum(ax * ax))
        assert fast == lp._dnrm2(v)
        # Blue's loop by hand: zeros go to asml and add 0, so the result is sqrt(amed)
        notbig_amed = 0.0
        for a in ax:
            if lp._TSML <= a <= lp._TBIG:
                notbig_amed = notbig_amed + a * a
        assert fast == math.sqrt(notbig_amed)
    assert lp._dnrm2_scaled(np.array([0.0, 1e-300, 2.0])) > 0  # tiny non-zero: Blue's loop

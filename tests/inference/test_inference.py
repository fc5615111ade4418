"""cal_test() and cal_ci(): the seed examples byte for byte, R parity, bad input.

The seed tests compare against the printed examples of the 0.2.0 help pages
(R's own output, stored in ``reference/help_examples.json``). The ``r_parity`` tests run the same case
through ``pycalib_r/r/contract.R`` (the contract written out in plain R) with
the same ``set.seed`` and compare values under the manifest's tolerance policy
(``TOL``) and the printed text exactly.
"""

from __future__ import annotations

import io
import math
import sys
from contextlib import redirect_stdout

import numpy as np
import pandas as pd
import pytest

from pycalib_r import _rng
from pycalib_r.rbase._errors import ProbcalError
from pycalib_r.inference._inference import (
    CalCI,
    CalTest,
    _BinnedEngine,
    _counts,
    _quantile8_sorted_counts,
    _upper_tail,
    cal_ci,
    cal_test,
)
from pycalib_r.binned._metrics import ace, bind_metric, ece, mce
from pycalib_r.binned._binning import quantile_r, seq01
from pycalib_r.rbase._progress import Progress

from tests.conftest import REPO, TOL, help_output, within

def printed(obj) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        print(obj)
    return buf.getvalue()


# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------

def test_seed_cal_test_calibrated():
    _rng.set_seed(40)
    p = _rng.runif(300)
    y = _rng.rbinom(300, 1, p)
    res = cal_test(p, y)
    want = help_output("cal_test(p, y)")
    assert str(res) == want
    assert printed(res) == want + "\n"
    assert repr(res) == want
    assert res["p.value"] == 0.284 == res.p_value
    assert res["data.name"] == "p and y"
    assert list(res["statistic"]) == ["SKCE_uq"]
    assert res.r_class == ("cal_test", "htest")


def test_seed_cal_test_miscalibrated():
    _rng.set_seed(41)
    p2 = _rng.runif(300)
    y2 = _rng.rbinom(300, 1, np.minimum(np.maximum(p2 - 0.25, 0), 1))
    res = cal_test(p2, y2, data_name="p2 and y2")
    assert str(res) == help_output("cal_test(p2, y2)")
    # pandas names give the same Data: line.
    _rng.set_seed(41)
    p2 = pd.Series(_rng.runif(300), name="p2")
    y2 = pd.Series(_rng.rbinom(300, 1, np.clip(p2.to_numpy() - 0.25, 0, 1)), name="y2")
    assert str(cal_test(p2, y2)) == help_output("cal_test(p2, y2)")


def test_seed_cal_ci_shared_stream():
    _rng.set_seed(42)
    p = _rng.runif(300)
    y = _rng.rbinom(300, 1, p)
    call1 = 'cal_ci(p, y, metric = "ece", bins = 10, n_boot = 199)'
    call2 = 'cal_ci(p, y, metric = "skce", n_boot = 199)'
    res1 = cal_ci(p, y, metric="ece", bins=10, n_boot=199)
    res2 = cal_ci(p, y, metric="skce", n_boot=199)
    assert str(res1) == help_output(call1)
    assert str(res2) == help_output(call2)
    assert printed(res2) == help_output(call2) + "\n"
    assert res1["metric"] == "ece" and res1["method"] == "percentile bootstrap"
    assert res1.lower == res1.estimate  # widened to contain the estimate
    assert res2["conf_level"] == 0.95 and res2.n_boot == 199


def test_explicit_stream_equals_global():
    _rng.set_seed(40)
    p = _rng.runif(300)
    y = _rng.rbinom(300, 1, p)
    stream = _rng.RRandom(40)
    stream.runif(300)
    stream.rbinom(300, 1, p)
    assert cal_test(p, y, rng=stream).p_value == 0.284


def test_numpy_generator_stream():
    rng = np.random.default_rng(5)
    p = rng.random(200)
    y = (rng.random(200) < p).astype(int)
    a = cal_test(p, y, n_boot=99, rng=np.random.default_rng(1))
    b = cal_test(p, y, n_boot=99, rng=np.random.default_rng(1))
    assert a.p_value == b.p_value
    c = cal_ci(p, y, metric="mmce", n_boot=49, rng=np.random.default_rng(2))
    assert c.lower <= c.estimate <= c.upper


# ---------------------------------------------------------------------------
# Pure checks of the pieces
# ---------------------------------------------------------------------------

def _direct_h(r, c, h):
    e = c - r
    return np.outer(e, e) * np.exp(-np.abs(r[:, None] - r[None, :]) / h)


def _direct_h_canonical(p, codes, h):
    d = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(-1))
    u = -p.copy()
    u[np.arange(p.shape[0]), codes - 1] += 1
    return np.exp(-d / h) * (u @ u.T)


@pytest.mark.parametrize("form", ["binary", "canonical"])
def test_bootstrap_replicates_match_direct_formula(form):
    """T_b from the fast paths equals sum_{i != j} w_i w_j h_ij / (n(n-1)) directly."""
    rng = np.random.default_rng(3)
    n = 137
    if form == "binary":
        p = np.round(rng.random(n), 2)
        p[:5] = 0.0
        p[5:9] = 1.0
        y = (rng.random(n) < p).astype(int)
        H = _direct_h(p, y.astype(float), 0.2)
    else:
        p = rng.dirichlet(np.ones(3), size=n)
        y = rng.integers(1, 4, size=n)
        H = _direct_h_canonical(p, y, 0.2)
    np.fill_diagonal(H, 0.0)
    denom = n * (n - 1)
    observed = H.sum() / denom
    tol = 1e-12 * np.mean(np.abs(np.diag(_direct_h(p, y.astype(float), 0.2) if form == "binary"
                                         else _direct_h_canonical(p, y, 0.2))))
    w = _rng.RRandom(9).rademacher(199, n).astype(float)
    reps = np.einsum("bi,ij,bj->b", w, H, w) / denom
    expected_p = (1 + np.count_nonzero(reps >= observed - tol)) / 200
    res = cal_test(p, y, n_boot=199, rng=_rng.RRandom(9))
    assert res.statistic["SKCE_uq"] == pytest.approx(observed, **TOL["kernel"])
    assert res.p_value == expected_p


def test_all_equal_signs_count_as_exceeding():
    """With n = 2 every replicate equals T exactly or -T: tolerance makes ties count."""
    p = np.array([0.2, 0.3])
    y = np.array([1, 1])
    res = cal_test(p, y, n_boot=999, rng=_rng.RRandom(1))
    # h_12 > 0, so T_b = T when the two signs agree (probability 1/2).
    w = _rng.RRandom(1).rademacher(999, 2)
    agree = np.count_nonzero(w[:, 0] == w[:, 1])
    assert res.p_value == (1 + agree) / 1000


def test_upper_tail_matches_r_constants():
    # Values of R 4.2.2's pnorm(z, lower.tail = FALSE) (printed with %.17g).
    assert _upper_tail(0.0) == 0.5
    assert _upper_tail(40.0) == 0.0
    assert _upper_tail(-40.0) == 1.0


@pytest.mark.r_parity
def test_upper_tail_is_r_pnorm(r):
    z = np.concatenate([np.linspace(-12, 40, 4001), [37.5193, 37.52, 8.2924, -8.2924, 1e-17, 0.67448975]])
    want = np.array(r.r["pnorm"](r.FloatVector(z), lower_tail=False))
    got = np.array([_upper_tail(v) for v in z])
    assert np.array_equal(got, want)


def test_quantile8_from_counts_equals_quantile_r():
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 10, 57):
        r = np.round(rng.random(n), 1)
        order = np.argsort(r, kind="stable")
        idx = rng.integers(0, n, size=(20, n))
        counts = np.zeros((20, n), dtype=np.int64)
        for b in range(20):
            counts[b] = np.bincount(idx[b], minlength=n)
        probs = seq01(11)
        got = _quantile8_sorted_counts(r[order], np.cumsum(counts[:, order], axis=1), n, probs)
        for b in range(20):
            assert np.array_equal(got[b], quantile_r(r[idx[b]], probs, type=8))


@pytest.mark.parametrize("debiased", [False, True])
@pytest.mark.parametrize("bins", [1, 3, 10, 25])
def test_equal_freq_resamples_equal_ece_on_the_resample(bins, debiased):
    """The count-based equal-frequency path equals ece() of each explicit resample."""
    g = np.random.default_rng(bins)
    n = 90
    p = g.random(n)
    p[:30] = np.round(p[:30], 1)  # ties, and quantiles that repeat
    p[30:34] = 1.0
    p[34:37] = 0.0
    y = (g.random(n) < p).astype(int)
    idx = g.integers(1, n + 1, size=(40, n)).astype(np.int32)
    idx[0] = np.arange(1, n + 1)
    idx[1] = 31  # every draw is a 1.0: all inner edges equal 1
    engine = _BinnedEngine(bind_metric("ece", p, y, bins, debiased=debiased, strategy="equal_freq"))
    got = engine.values(idx)
    want = [ece(p[i - 1], y[i - 1], bins=bins, debiased=debiased, strategy="equal_freq") for i in idx]
    assert np.allclose(got, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("kind", ["ece", "mce", "ace"])
@pytest.mark.parametrize("bins", [1, 7, 10, 500, 10 ** 6])
def test_equal_width_replicates_are_the_metric_of_the_resample(kind, bins):
    """Each replicate is the metric of its resample, and the same bits whatever the block."""
    g = np.random.default_rng(bins)
    n = 120
    p = g.random(n)
    p[:20] = np.round(p[:20], 1)
    y = (g.random(n) < p).astype(int)
    idx = g.integers(1, n + 1, size=(30, n)).astype(np.int32)
    fn = {"ece": ece, "mce": mce, "ace": ace}[kind]
    engine = _BinnedEngine(bind_metric(kind, p, y, bins))
    want = np.array([fn(p[i - 1], y[i - 1], bins=bins) for i in idx])
    whole = engine.values(idx)
    rows = np.concatenate([engine.values(idx[b:b + 1]) for b in range(idx.shape[0])])
    assert np.allclose(whole, want, rtol=1e-13, atol=1e-16)
    assert np.array_equal(rows, whole)


def test_result_objects_item_access():
    res = CalTest({"z": 1.5}, 0.06, "m", "d", {"SKCE_ul": 0.01}, "binary calibration")
    assert res["statistic"] == {"z": 1.5} and res["estimate"]["SKCE_ul"] == 0.01
    assert res["p.value"] == 0.06 and res["data.name"] == "d" and "p.value" in res
    with pytest.raises(KeyError):
        res["nope"]
    ci = CalCI(0.1, 0.0, 0.2, 0.9, "mce", "percentile bootstrap", 9)
    assert ci["upper"] == 0.2 and ci.keys()[:3] == ["estimate", "lower", "upper"]
    assert "Confidence level: 90.0%" in str(ci)


def test_inputs_not_mutated():
    rng = np.random.default_rng(4)
    p = rng.dirichlet(np.ones(3), size=40)
    y = rng.integers(1, 4, size=40)
    p0, y0 = p.copy(), y.copy()
    cal_test(p, y, n_boot=19, rng=_rng.RRandom(1))
    cal_ci(p, y, metric="skce", n_boot=9, rng=_rng.RRandom(1))
    cal_ci(p, y, metric="ece", n_boot=9, rng=_rng.RRandom(1), strategy="equal_freq")
    assert np.array_equal(p, p0) and np.array_equal(y, y0)


def test_progress_bar_never_changes_results(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    rng = np.random.default_rng(8)
    p = rng.random(500)
    y = (rng.random(500) < p).astype(int)
    with_bar = cal_ci(p, y, metric="ece", n_boot=99, rng=_rng.RRandom(3))
    without = cal_ci(p, y, metric="ece", n_boot=99, rng=_rng.RRandom(3), progress=False)
    assert str(with_bar) == str(without)
    bar = Progress(10, "x", stream=fake, delay=0.0, interval=0.0)
    bar.advance(5)
    shown = fake.getvalue()
    bar.close()
    # tqdm's bar: percentage, count, rate; erased at the end (leave=False).
    assert "50%" in shown and "5/10" in shown and "resample/s" in shown
    assert fake.getvalue().endswith("\r") or fake.getvalue().endswith("\x1b[A")
    # In a Jupyter kernel (stderr not a terminal) tqdm.auto's widget class is used.
    from pycalib_r.rbase import _progress

    monkeypatch.setitem(sys.modules, "ipykernel", sys)
    monkeypatch.setattr(_progress, "_tqdm_class", lambda: type("tqdm", (), {"__module__": "tqdm.notebook"}))
    assert _progress.interactive(io.StringIO())
    monkeypatch.delitem(sys.modules, "ipykernel")
    assert not _progress.interactive(io.StringIO())
    off = Tty()
    bar = Progress(10, "x", enabled=False, stream=off, delay=0.0, interval=0.0)
    bar.advance(10)
    bar.close()
    assert off.getvalue() == ""
    quiet = io.StringIO()
    bar = Progress(10, "x", stream=quiet, delay=0.0, interval=0.0)
    bar.advance(10)
    bar.close()
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

P = [0.1, 0.4, 0.6, 0.9]
Y = [0, 1, 0, 1]
M3 = np.array([[0.2, 0.5, 0.3], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]])

BAD = [
    ("classwise", lambda: cal_test(M3, [1, 2, 3, 1], type="classwise"),
     'cal_test(M3, c(1, 2, 3, 1), type = "classwise")',
     'Type "classwise" cannot be tested; use `skce()` with `type = "classwise"`.'),
    ("classwise-prefix", lambda: cal_test(P, Y, type="cl"), 'cal_test(P, Y, type = "cl")',
     'Type "classwise" cannot be tested; use `skce()` with `type = "classwise"`.'),
    ("type-unknown", lambda: cal_test(P, Y, type="x"), 'cal_test(P, Y, type = "x")',
     "'arg' should be one of \u201ccanonical\u201d, \u201cconfidence\u201d"),
    ("method-unknown", lambda: cal_test(P, Y, method="perm"), 'cal_test(P, Y, method = "perm")',
     "'arg' should be one of \u201cbootstrap\u201d, \u201casymptotic\u201d"),
    ("bandwidth-zero", lambda: cal_test(P, Y, bandwidth=0), "cal_test(P, Y, bandwidth = 0)",
     'Argument `bandwidth` must be a single positive number or "median".'),
    ("bandwidth-inf", lambda: cal_test(P, Y, bandwidth=math.inf), "cal_test(P, Y, bandwidth = Inf)",
     'Argument `bandwidth` must be a single positive number or "median".'),
    ("bandwidth-nan", lambda: cal_ci(P, Y, metric="skce", bandwidth=math.nan),
     'cal_ci(P, Y, metric = "skce", bandwidth = NaN)',
     'Argument `bandwidth` must be a single positive number or "median".'),
    ("bandwidth-string", lambda: cal_test(P, Y, bandwidth="mean"), 'cal_test(P, Y, bandwidth = "mean")',
     'Argument `bandwidth` must be a single positive number or "median".'),
    ("median-constant", lambda: cal_test([0.3] * 5, [0, 1, 0, 1, 1], bandwidth="median"),
     'cal_test(rep(0.3, 5), c(0, 1, 0, 1, 1), bandwidth = "median")',
     "The median bandwidth is undefined: all predictions are equal."),
    ("n-boot-zero", lambda: cal_test(P, Y, n_boot=0), "cal_test(P, Y, n_boot = 0)",
     "Argument `n_boot` must be a single positive integer."),
    ("n-boot-fraction", lambda: cal_ci(P, Y, n_boot=9.5), "cal_ci(P, Y, n_boot = 9.5)",
     "Argument `n_boot` must be a single positive integer."),
    ("conf-level-one", lambda: cal_ci(P, Y, conf_level=1), "cal_ci(P, Y, conf_level = 1)",
     "Argument `conf_level` must be a single number in `(0, 1)`."),
    ("conf-level-zero", lambda: cal_ci(P, Y, conf_level=0.0), "cal_ci(P, Y, conf_level = 0)",
     "Argument `conf_level` must be a single number in `(0, 1)`."),
    ("metric-unknown", lambda: cal_ci(P, Y, metric="brier"), 'cal_ci(P, Y, metric = "brier")',
     "'arg' should be one of \u201cece\u201d, \u201cskce\u201d, \u201cmmce\u201d, \u201cmce\u201d, \u201cace\u201d"),
    ("uq-one-row", lambda: cal_test([0.3], [1]), "cal_test(0.3, 1)",
     'Estimator "uq" needs at least two observations.'),
    ("asymptotic-three-rows", lambda: cal_test([0.1, 0.5, 0.7], [0, 1, 1], method="asymptotic"),
     'cal_test(c(0.1, 0.5, 0.7), c(0, 1, 1), method = "asymptotic")',
     "The asymptotic test needs at least four observations."),
    ("asymptotic-degenerate", lambda: cal_test([0.5] * 6, [1] * 6, method="asymptotic"),
     'cal_test(rep(0.5, 6), rep(1, 6), method = "asymptotic")',
     "The asymptotic test is degenerate: all pair terms are equal."),
    ("p-range", lambda: cal_test([0.1, 1.5], [0, 1]), "cal_test(c(0.1, 1.5), c(0, 1))",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    ("unused-argument", lambda: cal_ci(P, Y, metric="ece", estimator="uq"),
     'cal_ci(P, Y, metric = "ece", estimator = "uq")', 'unused argument (estimator = "uq")'),
    ("unused-arguments", lambda: cal_ci(P, Y, metric="mce", debiased=True, foo=1.5),
     'cal_ci(P, Y, metric = "mce", debiased = TRUE, foo = 1.5)',
     "unused arguments (debiased = TRUE, foo = 1.5)"),
    ("mmce-type", lambda: cal_ci(P, Y, metric="mmce", type="confidence"),
     'cal_ci(P, Y, metric = "mmce", type = "confidence")', 'unused argument (type = "confidence")'),
    ("ci-median-constant", lambda: cal_ci([0.4] * 4, Y, metric="skce", bandwidth="median"),
     'cal_ci(rep(0.4, 4), Y, metric = "skce", bandwidth = "median")',
     "The median bandwidth is undefined: all predictions are equal."),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input_messages(case):
    _, call, _, message = case
    with pytest.raises(ProbcalError) as err:
        call()
    assert str(err.value) == message


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input_messages_are_the_contracts(case, contract):
    """The same call in the R contract gives the same conditionMessage() (unwrapped)."""
    _, _, r_call, message = case
    got = contract.r(f"tryCatch({{{r_call}; 'no error'}}, error = function(e) conditionMessage(e))")[0]
    assert " ".join(got.split()) == " ".join(message.split())


# ---------------------------------------------------------------------------
# R parity on held-out cases
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def contract(r):
    r.r('options(width = 80, cli.width = 80, cli.num_colors = 1, cli.unicode = TRUE)')
    r.r(f'source("{(REPO / "pycalib_r" / "r" / "contract.R").as_posix()}")')
    r.globalenv["P"] = r.FloatVector(P)
    r.globalenv["Y"] = r.FloatVector(Y)
    r.globalenv["M3"] = r.r.matrix(r.FloatVector(M3.ravel(order="F")), nrow=4)
    return r


def _to_r(r, x):
    x = np.asarray(x)
    if x.ndim == 2:
        return r.r.matrix(r.FloatVector(x.astype(float).ravel(order="F")), nrow=x.shape[0])
    return r.FloatVector(x.astype(float))


def _binary(seed, n, shift=0.0, digits=None):
    g = np.random.default_rng(seed)
    p = g.random(n)
    if digits is not None:
        p = np.round(p, digits)
    y = (g.random(n) < np.clip(p - shift, 0, 1)).astype(int)
    return p, y


def _multi(seed, n, k, sharp=1.0):
    g = np.random.default_rng(seed)
    p = g.dirichlet(np.full(k, sharp), size=n)
    y = np.array([g.choice(k, p=row) + 1 for row in p])
    return p, y


def _r_args(kwargs):
    parts = []
    for key, value in kwargs.items():
        if isinstance(value, str):
            parts.append(f'{key} = "{value}"')
        elif isinstance(value, bool):
            parts.append(f"{key} = {'TRUE' if value else 'FALSE'}")
        else:
            parts.append(f"{key} = {value!r}")
    return "".join(", " + s for s in parts)


def _ci_policy(kwargs):
    """The manifest's tolerance for a cal_ci case: kernel sums cancel, binned metrics do not."""
    kernel = kwargs.get("metric") in ("skce", "mmce") or kwargs.get("debiased", False)
    return "kernel" if kernel else "closed"


TEST_CASES = [
    ("bin-boot", lambda: _binary(1, 120), dict(n_boot=199), 7),
    ("bin-boot-miscal", lambda: _binary(2, 250, shift=0.15), dict(n_boot=99, bandwidth=0.05), 8),
    ("bin-boot-ties-median", lambda: _binary(3, 150, digits=1), dict(n_boot=99, bandwidth="median"), 9),
    ("bin-asym", lambda: _binary(4, 401), dict(method="asymptotic"), None),
    ("bin-asym-median", lambda: _binary(5, 300, shift=0.2), dict(method="asymptotic", bandwidth="median"), None),
    ("can-boot", lambda: _multi(6, 90, 3), dict(n_boot=99), 10),
    ("can-boot-median", lambda: _multi(7, 80, 4, 0.5), dict(n_boot=49, bandwidth="median"), 11),
    ("conf-boot", lambda: _multi(8, 100, 3), dict(n_boot=99, type="confidence"), 12),
    ("can-asym", lambda: _multi(9, 201, 5), dict(method="asymptotic", bandwidth=0.5), None),
    ("conf-asym-median", lambda: _multi(10, 150, 3), dict(method="asymptotic", type="confidence",
                                                          bandwidth="median"), None),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("case", TEST_CASES, ids=[c[0] for c in TEST_CASES])
def test_cal_test_matches_contract(case, contract):
    r = contract
    _, make, kwargs, seed = case
    p, y = make()
    r.globalenv["pp"] = _to_r(r, p)
    r.globalenv["yy"] = _to_r(r, y)
    set_seed = f"set.seed({seed}); " if seed is not None else ""
    r.r(f"{set_seed}res <- cal_test(pp, yy{_r_args(kwargs)})")
    want_vals = list(r.r("c(unname(res$statistic), res$p.value, unname(res$estimate))"))
    want_text = "\n".join(r.r('capture.output(print(res), type = "message")'))
    stream = _rng.RRandom(seed) if seed is not None else None
    res = cal_test(p, y, data_name="pp and yy", rng=stream, **kwargs)
    got_vals = [*res.statistic.values(), res.p_value, *res.estimate.values()]
    assert len(got_vals) == len(want_vals) == 3
    p_policy = "asym_p" if kwargs.get("method") == "asymptotic" else "closed"
    for g, w, policy in zip(got_vals, want_vals, ("kernel", p_policy, "kernel"), strict=True):
        assert within(g, w, policy), (policy, g, w)
    assert str(res) == want_text


CI_CASES = [
    ("ece-bin", lambda: _binary(21, 200), dict(metric="ece", n_boot=99)),
    ("ece-bin-bins7", lambda: _binary(22, 150, shift=0.1), dict(metric="ece", n_boot=49, bins=7)),
    ("ece-bin-debiased", lambda: _binary(23, 300), dict(metric="ece", n_boot=99, debiased=True)),
    ("ece-bin-eqfreq", lambda: _binary(24, 120, digits=2), dict(metric="ece", n_boot=49, strategy="equal_freq")),
    ("ece-multi-classwise", lambda: _multi(25, 150, 3), dict(metric="ece", n_boot=49)),
    ("ece-multi-confidence", lambda: _multi(26, 150, 4), dict(metric="ece", n_boot=49, type="confidence")),
    ("ece-multi-eqfreq-debiased", lambda: _multi(27, 100, 3),
     dict(metric="ece", n_boot=29, strategy="equal_freq", debiased=True, conf_level=0.9)),
    ("mce-bin", lambda: _binary(28, 200), dict(metric="mce", n_boot=99)),
    ("mce-multi", lambda: _multi(29, 120, 3), dict(metric="mce", n_boot=49, bins=5)),
    ("ace-bin", lambda: _binary(30, 200, digits=1), dict(metric="ace", n_boot=99, conf_level=0.8)),
    ("ace-multi-conf", lambda: _multi(31, 120, 3), dict(metric="ace", n_boot=49, type="confidence")),
    ("skce-bin-uq", lambda: _binary(32, 200), dict(metric="skce", n_boot=99)),
    ("skce-bin-biased", lambda: _binary(33, 150, digits=2), dict(metric="skce", n_boot=49, estimator="biased")),
    ("skce-bin-ul", lambda: _binary(34, 151), dict(metric="skce", n_boot=49, estimator="ul", bandwidth=0.1)),
    ("skce-bin-median", lambda: _binary(35, 80), dict(metric="skce", n_boot=29, bandwidth="median")),
    ("skce-can", lambda: _multi(36, 90, 3), dict(metric="skce", n_boot=29)),
    ("skce-can-biased-median", lambda: _multi(37, 50, 3),
     dict(metric="skce", n_boot=19, estimator="biased", bandwidth="median")),
    ("skce-can-ul", lambda: _multi(38, 91, 4), dict(metric="skce", n_boot=29, estimator="ul")),
    ("skce-classwise", lambda: _multi(39, 80, 3), dict(metric="skce", n_boot=29, type="classwise")),
    ("skce-classwise-ul-median", lambda: _multi(40, 60, 3),
     dict(metric="skce", n_boot=19, type="classwise", estimator="ul", bandwidth="median")),
    ("skce-confidence", lambda: _multi(41, 100, 3), dict(metric="skce", n_boot=29, type="confidence")),
    ("mmce-bin", lambda: _binary(42, 200), dict(metric="mmce", n_boot=99)),
    ("mmce-multi", lambda: _multi(43, 100, 3), dict(metric="mmce", n_boot=49, bandwidth=0.3)),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("case", CI_CASES, ids=[c[0] for c in CI_CASES])
def test_cal_ci_matches_contract(case, contract):
    r = contract
    name, make, kwargs = case
    p, y = make()
    seed = 100 + CI_CASES.index(case)
    r.globalenv["pp"] = _to_r(r, p)
    r.globalenv["yy"] = _to_r(r, y)
    r.r(f"set.seed({seed}); res <- cal_ci(pp, yy{_r_args(kwargs)})")
    want_vals = list(r.r("c(res$estimate, res$lower, res$upper)"))
    want_text = "\n".join(r.r('capture.output(print(res), type = "message")'))
    res = cal_ci(p, y, rng=_rng.RRandom(seed), **kwargs)
    assert len(want_vals) == 3
    assert within([res.estimate, res.lower, res.upper], want_vals, _ci_policy(kwargs)), (name, want_vals)
    assert str(res) == want_text


@pytest.mark.r_parity
def test_cal_ci_categorical_labels_keep_all_classes(contract):
    """A resample that misses a class is still scored with all K columns."""
    r = contract
    p, y = _multi(44, 12, 4, 0.3)
    cat = pd.Categorical.from_codes(y - 1, ["a", "b", "c", "d"])
    r.globalenv["pp"] = _to_r(r, p)
    r.globalenv["yy"] = r.r("factor")(r.StrVector(list(np.asarray(cat))), levels=r.StrVector(["a", "b", "c", "d"]))
    r.r('set.seed(5); res <- cal_ci(pp, yy, metric = "skce", n_boot = 49)')
    want = list(r.r("c(res$estimate, res$lower, res$upper)"))
    res = cal_ci(p, cat, metric="skce", n_boot=49, rng=_rng.RRandom(5))
    assert len(want) == 3
    assert within([res.estimate, res.lower, res.upper], want, "kernel"), want

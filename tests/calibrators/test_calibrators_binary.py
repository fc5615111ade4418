"""The calibrator base class and the binary calibrators against probcal in R.

Platt, beta, temperature, isotonic and histogram calibration are fitted on the
same data in R (probcal through rpy2) and here; components, predictions,
``print(fit)`` and ``summary(fit)`` are compared. The ports follow R's
arithmetic step by step (glm's IRLS with LINPACK's QR, Brent's minimiser,
``isoreg``, ``approx``, long-double sums and means), so the comparisons below
ask for far less than the 1e-7 the contract allows for iterative fits; the
datasets are generated from fixed seeds that were not selected for agreement.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from pycalib_r.rbase import _options
from pycalib_r.rbase._errors import ProbcalError
from pycalib_r.calibrators._base import (
    Calibrator,
    binary_log_loss,
    multiclass_log_loss,
    predict,
    r_exp,
    r_int_mean,
    r_log,
    r_log1p,
    r_mean,
    r_round,
    r_sum,
    softmax,
    summary,
)
from pycalib_r.calibrators._beta import cal_beta
from pycalib_r.calibrators._histogram import cal_histogram, fill_empty_bins
from pycalib_r.calibrators._isotonic import cal_isotonic
from pycalib_r.rstats._optim import brent_fmin
from pycalib_r.calibrators._platt import cal_platt
from pycalib_r.calibrators._temperature import cal_temperature
from tests.conftest import r_assign, to_r

TOL_GLM = 1e-10      # iterative fits (R's own arithmetic is repeated, so far below 1e-7)
TOL_EXACT = 1e-12    # closed-form values


def _rel(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    if a.size == 0:
        return 0.0
    assert np.array_equal(np.isnan(a), np.isnan(b))
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))


def _vec(r, expr):
    return np.array(r.r(expr), dtype=float)


def _compare_predictions(r, fit, newdata, r_expr, tol):
    """Predictions agree, or both sides fail with the same message (aliased coefficients)."""
    want = r.r(f"tryCatch({r_expr}, error = function(e) conditionMessage(e))")
    if isinstance(want[0], str):
        with pytest.raises(ProbcalError) as err:
            fit.predict(newdata)
        assert str(err.value) == want[0]
        return
    assert _rel(fit.predict(newdata), np.array(want, dtype=float)) <= tol


# ---------------------------------------------------------------------------
# datasets (fixed seeds; sizes, ties, exact 0 and 1)
# ---------------------------------------------------------------------------


def _binary_datasets():
    rng = np.random.default_rng(90210)
    out = []
    for n in (2, 9, 150, 1200):
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(np.int64)
        y[0], y[-1] = 0, 1
        out.append((f"unif-{n}", p, y))
    p = np.round(rng.uniform(size=400), 1)  # heavy ties, incl. 0.0 and 1.0
    out.append(("ties", p, (rng.uniform(size=400) < p).astype(np.int64)))
    p = np.concatenate([[0.0, 1.0, 0.0, 1.0, 1.0], rng.beta(0.4, 0.4, size=300)])
    y = (rng.uniform(size=p.size) < p).astype(np.int64)
    y[:2] = [1, 0]  # a positive at p = 0 and a negative at p = 1
    out.append(("zeros-ones", p, y))
    p = rng.beta(5, 1, size=80)
    out.append(("skewed", p, (rng.uniform(size=80) < 0.3).astype(np.int64)))
    p = rng.uniform(size=500)
    out.append(("separable", p, (p > 0.45).astype(np.int64)))
    return out


BINARY = _binary_datasets()
BINARY_IDS = [b[0] for b in BINARY]


def _score_datasets():
    rng = np.random.default_rng(4242)
    out = []
    for n, scale in ((3, 1.0), (60, 3.0), (900, 0.7), (2500, 12.0)):
        x = rng.normal(scale=scale, size=n)
        y = (rng.uniform(size=n) < 1 / (1 + np.exp(-x / scale))).astype(np.int64)
        y[0], y[-1] = 0, 1
        out.append((f"normal-{n}", x, y))
    x = np.round(rng.normal(size=300), 0)
    out.append(("integer-ties", x, (rng.uniform(size=300) < 0.5).astype(np.int64)))
    x = np.full(40, 1.5)
    out.append(("constant", x, np.tile([0, 1, 1, 0], 10).astype(np.int64)))
    return out


SCORES = _score_datasets()
SCORE_IDS = [s[0] for s in SCORES]


def _new_probs(rng, p):
    return np.concatenate([[0.0, 1.0, 0.5], np.unique(p)[:30], rng.uniform(size=60)])


# ---------------------------------------------------------------------------
# R parity: components and predictions
# ---------------------------------------------------------------------------


@pytest.mark.r_parity
@pytest.mark.parametrize("case", SCORES + BINARY, ids=SCORE_IDS + BINARY_IDS)
def test_platt_matches_probcal(probcal_r, case):
    _, x, y = case
    r_assign(probcal_r, x=x, y=y)
    probcal_r.r("f <- cal_platt(x, y)")
    fit = cal_platt(x, y)
    assert list(fit.coefficients) == list(probcal_r.r("names(f$coefficients)"))
    assert _rel(list(fit.coefficients.values()), _vec(probcal_r, "f$coefficients")) <= TOL_GLM
    assert fit.target_pos == probcal_r.r("f$target_pos")[0]
    assert fit.target_neg == probcal_r.r("f$target_neg")[0]
    assert fit.fit.iter == probcal_r.r("f$fit$iter")[0]
    assert _rel(fit.fit.deviance, probcal_r.r("f$fit$deviance")[0]) <= TOL_GLM
    assert _rel(fit.fit.fitted_values, _vec(probcal_r, "unname(f$fit$fitted.values)")) <= TOL_GLM
    newx = np.concatenate([x[:20], np.linspace(x.min() - 2, x.max() + 2, 41)])
    r_assign(probcal_r, newx=newx)
    _compare_predictions(probcal_r, fit, newx, "predict(f, newx)", TOL_GLM)


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BINARY, ids=BINARY_IDS)
@pytest.mark.parametrize("eps", [1e-15, 1e-3])
def test_beta_matches_probcal(probcal_r, case, eps):
    _, p, y = case
    r_assign(probcal_r, p=p, y=y)
    msgs = list(probcal_r.r(f"""
        msgs <- character()
        f <- withCallingHandlers(cal_beta(p, y, eps = {eps!r}), warning = function(w) {{
          msgs <<- c(msgs, conditionMessage(w)); invokeRestart("muffleWarning")
        }})
        msgs"""))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = cal_beta(p, y, eps=eps)
    assert [str(w.message) for w in caught if w.category is RuntimeWarning] == msgs
    assert list(fit.coefficients) == ["(Intercept)", "log_p", "log_1mp"]
    assert _rel(list(fit.coefficients.values()), _vec(probcal_r, "f$coefficients")) <= TOL_GLM
    for name in ("a", "b", "c", "eps"):
        assert _rel(getattr(fit, name), probcal_r.r(f"f${name}")[0]) <= TOL_GLM, name
    assert fit.fit.iter == probcal_r.r("f$fit$iter")[0]
    assert fit.fit.converged == bool(probcal_r.r("as.integer(f$fit$converged)")[0])
    newp = _new_probs(np.random.default_rng(p.size), p)
    r_assign(probcal_r, newp=newp)
    _compare_predictions(probcal_r, fit, newp, "predict(f, newp)", TOL_GLM)


@pytest.mark.r_parity
@pytest.mark.parametrize("case", SCORES[:-1], ids=SCORE_IDS[:-1])
def test_temperature_binary_matches_probcal(probcal_r, case):
    _, z, y = case
    r_assign(probcal_r, z=z, y=y)
    probcal_r.r("f <- cal_temperature(z, y)")
    fit = cal_temperature(z, y)
    assert _rel(fit.temperature, probcal_r.r("f$temperature")[0]) <= TOL_GLM
    assert _rel(fit.value, probcal_r.r("f$value")[0]) <= TOL_GLM
    assert fit.convergence == probcal_r.r("f$convergence")[0] == 0
    newz = np.linspace(-15, 15, 61)
    r_assign(probcal_r, newz=newz)
    assert _rel(fit.predict(newz), _vec(probcal_r, "predict(f, newz)")) <= TOL_GLM


def _multiclass_logits():
    rng = np.random.default_rng(777)
    out = []
    for n, k, scale in ((12, 3, 1.0), (400, 4, 4.0), (1500, 2, 0.5), (800, 5, 15.0)):
        z = rng.normal(scale=scale, size=(n, k))
        y = np.where(rng.uniform(size=n) < 0.6, z.argmax(axis=1) + 1, rng.integers(1, k + 1, size=n))
        y[:k] = np.arange(1, k + 1)
        out.append((f"mc-{n}x{k}", z, y.astype(np.int64)))
    return out


MULTI = _multiclass_logits()


@pytest.mark.r_parity
@pytest.mark.parametrize("case", MULTI, ids=[m[0] for m in MULTI])
def test_temperature_multiclass_matches_probcal(probcal_r, case):
    _, z, y = case
    r_assign(probcal_r, z=z, y=y)
    probcal_r.r("f <- cal_temperature(z, y)")
    fit = cal_temperature(z, y)
    assert fit.r_classes == ("cal_temperature", "cal_multiclass", "calibrator")
    assert _rel(fit.temperature, probcal_r.r("f$temperature")[0]) <= TOL_GLM
    assert _rel(fit.value, probcal_r.r("f$value")[0]) <= TOL_GLM
    assert fit.k == probcal_r.r("f$k")[0]
    assert fit.levels == list(probcal_r.r("f$levels"))
    newz = np.random.default_rng(1).normal(scale=3, size=(25, z.shape[1]))
    r_assign(probcal_r, newz=newz)
    want = np.array(probcal_r.r("predict(f, newz)"))
    assert _rel(fit.predict(newz), want) <= TOL_GLM
    frame = pd.DataFrame(newz, index=[f"r{i}" for i in range(25)])
    out = fit.predict(frame)
    assert list(out.columns) == fit.levels and list(out.index) == list(frame.index)


@pytest.mark.r_parity
def test_temperature_multiclass_factor_levels(probcal_r):
    rng = np.random.default_rng(5)
    z = rng.normal(size=(90, 3))
    codes = z.argmax(axis=1)
    levels = ["lo", "mid", "hi"]
    r_assign(probcal_r, z=z, codes=codes.astype(np.int64) + 1)
    probcal_r.r('f <- cal_temperature(z, factor(c("lo", "mid", "hi")[codes], levels = c("lo", "mid", "hi")))')
    fit = cal_temperature(z, pd.Categorical.from_codes(codes, categories=levels))
    assert fit.levels == list(probcal_r.r("f$levels")) == levels
    assert _rel(fit.temperature, probcal_r.r("f$temperature")[0]) <= TOL_GLM


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BINARY, ids=BINARY_IDS)
def test_isotonic_matches_probcal(probcal_r, case):
    _, p, y = case
    r_assign(probcal_r, p=p, y=y)
    probcal_r.r("f <- cal_isotonic(p, y)")
    fit = cal_isotonic(p, y)
    assert _rel(fit.x_thresholds, _vec(probcal_r, "f$x_thresholds")) <= TOL_EXACT
    assert _rel(fit.y_calibrated, _vec(probcal_r, "f$y_calibrated")) <= TOL_EXACT
    assert _rel(fit.fit.yf, _vec(probcal_r, "f$fit$yf")) <= TOL_EXACT
    assert fit.fit.iKnots.tolist() == [int(v) for v in probcal_r.r("f$fit$iKnots")]
    assert fit.fit.isOrd == bool(probcal_r.r("as.integer(f$fit$isOrd)")[0])
    newp = _new_probs(np.random.default_rng(p.size + 1), p)
    r_assign(probcal_r, newp=newp)
    assert _rel(fit.predict(newp), _vec(probcal_r, "predict(f, newp)")) <= TOL_EXACT


@pytest.mark.r_parity
def test_isotonic_single_threshold_matches_probcal(probcal_r):
    p = np.full(25, 0.42)
    y = np.tile([0, 1, 1, 0, 1], 5).astype(np.int64)
    r_assign(probcal_r, p=p, y=y, newp=np.array([0.0, 0.42, 0.9]))
    probcal_r.r("f <- cal_isotonic(p, y)")
    fit = cal_isotonic(p, y)
    assert _rel(fit.y_calibrated, _vec(probcal_r, "f$y_calibrated")) <= TOL_EXACT
    assert _rel(fit.predict([0.0, 0.42, 0.9]), _vec(probcal_r, "predict(f, newp)")) <= TOL_EXACT


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BINARY, ids=BINARY_IDS)
@pytest.mark.parametrize("bins,strategy", [(10, "equal_width"), (1, "equal_width"), (7, "equal_freq"),
                                           (25, "equal_freq"), (40, "equal_width")])
def test_histogram_matches_probcal(probcal_r, case, bins, strategy):
    _, p, y = case
    r_assign(probcal_r, p=p, y=y)
    probcal_r.r(f'f <- cal_histogram(p, y, bins = {bins}, strategy = "{strategy}")')
    fit = cal_histogram(p, y, bins=bins, strategy=strategy)
    for name in ("breaks", "bin_values", "counts", "global_rate", "actual_bins", "bins"):
        got = np.atleast_1d(np.asarray(getattr(fit, name), dtype=float))
        assert _rel(got, _vec(probcal_r, f"f${name}")) <= TOL_EXACT, name
    assert fit.strategy == probcal_r.r("f$strategy")[0]
    newp = np.concatenate([_new_probs(np.random.default_rng(bins), p), fit.breaks])
    r_assign(probcal_r, newp=newp)
    assert _rel(fit.predict(newp), _vec(probcal_r, "predict(f, newp)")) <= TOL_EXACT


@pytest.mark.r_parity
def test_component_names_match_probcal(probcal_r):
    p, y = BINARY[2][1], BINARY[2][2]
    r_assign(probcal_r, p=p, y=y)
    for call, fit in [
        ("cal_platt(p, y)", cal_platt(p, y)),
        ("cal_beta(p, y)", cal_beta(p, y)),
        ("cal_temperature(p, y)", cal_temperature(p, y)),
        ("cal_isotonic(p, y)", cal_isotonic(p, y)),
        ("cal_histogram(p, y)", cal_histogram(p, y)),
        ("cal_temperature(cbind(p, 1 - p), y + 1)", cal_temperature(np.column_stack([p, 1 - p]), y + 1)),
    ]:
        assert fit.keys() == list(probcal_r.r(f"names({call})")), call
        assert list(fit.r_classes) == list(probcal_r.r(f"class({call})")), call
        assert fit.n == probcal_r.r(f"{call}$n")[0]


# ---------------------------------------------------------------------------
# R parity: print() and summary() text
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def r_text(probcal_r, r_cli_capture):
    return lambda code: r_cli_capture(code)[0]


def _print_cases():
    rng = np.random.default_rng(31337)
    p = rng.uniform(size=120)
    y = (rng.uniform(size=120) < p).astype(np.int64)
    z = rng.normal(scale=2, size=(60, 3))
    yz = z.argmax(axis=1) + 1
    pc = np.full(30, 0.3)
    yc = np.tile([0, 1, 1], 10).astype(np.int64)
    return [
        ("platt", {"p": p, "y": y}, "cal_platt(p, y)", lambda: cal_platt(p, y)),
        ("platt-scores", {"p": (p - 0.5) * 1e4, "y": y}, "cal_platt(p, y)",
         lambda: cal_platt((p - 0.5) * 1e4, y)),
        ("platt-aliased", {"p": pc, "y": yc}, "cal_platt(p, y)", lambda: cal_platt(pc, yc)),
        ("beta", {"p": p, "y": y}, "cal_beta(p, y)", lambda: cal_beta(p, y)),
        ("beta-eps", {"p": p, "y": y}, "cal_beta(p, y, eps = 0.01)", lambda: cal_beta(p, y, eps=0.01)),
        ("beta-aliased", {"p": pc, "y": yc}, "suppressWarnings(cal_beta(p, y))",
         lambda: cal_beta(pc, yc)),
        ("temperature", {"p": p, "y": y}, "cal_temperature(p, y)", lambda: cal_temperature(p, y)),
        ("temperature-mc", {"z": z, "yz": yz.astype(np.int64)}, "cal_temperature(z, yz)",
         lambda: cal_temperature(z, yz)),
        ("isotonic", {"p": p, "y": y}, "cal_isotonic(p, y)", lambda: cal_isotonic(p, y)),
        ("histogram", {"p": p, "y": y}, "cal_histogram(p, y)", lambda: cal_histogram(p, y)),
        ("histogram-freq", {"p": p, "y": y}, 'cal_histogram(p, y, bins = 200, strategy = "equal_freq")',
         lambda: cal_histogram(p, y, bins=200, strategy="equal_freq")),
    ]


PRINT_CASES = _print_cases()


@pytest.mark.r_parity
@pytest.mark.parametrize("case", PRINT_CASES, ids=[c[0] for c in PRINT_CASES])
@pytest.mark.parametrize("emoji", [True, False])
def test_print_and_summary_match_probcal(probcal_r, r_text, case, emoji):
    _, data, call, make = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = make()
    r_assign(probcal_r, **data)
    probcal_r.r(f"f <- suppressWarnings({call}); options(probcal.emoji = {'TRUE' if emoji else 'FALSE'})")
    old = _options.options(probcal_emoji=emoji)
    try:
        assert str(fit) == r_text("print(f)")
        assert repr(fit) == str(fit)
        assert str(summary(fit)) == r_text("summary(f)")
        assert str(fit.summary()) == str(summary(fit))
    finally:
        _options.options(**old)
        probcal_r.r("options(probcal.emoji = TRUE)")


# ---------------------------------------------------------------------------
# R parity: bad input
# ---------------------------------------------------------------------------

_P = "c(0.2, 0.6, 0.9)"
BAD_FITS = [
    # (python callable, R call)
    (lambda: cal_platt([0.2, 0.6, 0.9], [1, 1, 1]), f"cal_platt({_P}, c(1, 1, 1))"),
    (lambda: cal_platt([0.2, 0.6, 0.9], [0, 1]), f"cal_platt({_P}, c(0, 1))"),
    (lambda: cal_platt([0.2, np.nan, 0.9], [0, 1, 1]), "cal_platt(c(0.2, NA, 0.9), c(0, 1, 1))"),
    (lambda: cal_platt([0.2, np.inf, 0.9], [0, 1, 1]), "cal_platt(c(0.2, Inf, 0.9), c(0, 1, 1))"),
    (lambda: cal_platt(["a", "b"], [0, 1]), 'cal_platt(c("a", "b"), c(0, 1))'),
    (lambda: cal_platt([0.2, 0.6, 0.9], [0, 2, 1]), f"cal_platt({_P}, c(0, 2, 1))"),
    (lambda: cal_platt([], []), "cal_platt(numeric(), numeric())"),
    (lambda: cal_beta([0.2, 1.6, 0.9], [0, 1, 1]), "cal_beta(c(0.2, 1.6, 0.9), c(0, 1, 1))"),
    (lambda: cal_beta([0.2, 0.6, 0.9], [0, 0, 0]), f"cal_beta({_P}, c(0, 0, 0))"),
    (lambda: cal_beta([0.2, 0.6, 0.9], [0, 1, 1], eps=0.5), f"cal_beta({_P}, c(0, 1, 1), eps = 0.5)"),
    (lambda: cal_beta([0.2, 0.6, 0.9], [0, 1, 1], eps=0), f"cal_beta({_P}, c(0, 1, 1), eps = 0)"),
    (lambda: cal_isotonic([-0.1, 0.6, 0.9], [0, 1, 1]), "cal_isotonic(c(-0.1, 0.6, 0.9), c(0, 1, 1))"),
    (lambda: cal_isotonic([0.2, 0.6, 0.9], [1, 1, 1]), f"cal_isotonic({_P}, c(1, 1, 1))"),
    (lambda: cal_isotonic([0.2, 0.6, 0.9], [0, 1, np.nan]), f"cal_isotonic({_P}, c(0, 1, NA))"),
    (lambda: cal_histogram([0.2, 0.6, 0.9], [0, 1, 1], bins=0), f"cal_histogram({_P}, c(0, 1, 1), bins = 0)"),
    (lambda: cal_histogram([0.2, 0.6, 0.9], [0, 1, 1], bins=2.5),
     f"cal_histogram({_P}, c(0, 1, 1), bins = 2.5)"),
    (lambda: cal_histogram([0.2, 0.6, 0.9], [0, 1, 1], strategy="bogus"),
     f'cal_histogram({_P}, c(0, 1, 1), strategy = "bogus")'),
    (lambda: cal_histogram([0.2, 1.6, 0.9], [0, 1, 1], bins=0),
     f"cal_histogram(c(0.2, 1.6, 0.9), c(0, 1, 1), bins = 0)"),
    (lambda: cal_temperature([0.2, 0.6, 0.9], [0, 0, 0]), f"cal_temperature({_P}, c(0, 0, 0))"),
    (lambda: cal_temperature([0.2, 0.6], [0, 1, 0]), "cal_temperature(c(0.2, 0.6), c(0, 1, 0))"),
    (lambda: cal_temperature(np.array([[0.2], [0.6]]), [1, 2]),
     "cal_temperature(matrix(c(0.2, 0.6), ncol = 1), c(1, 2))"),
    (lambda: cal_temperature(np.array([[0.2, 0.1], [0.6, 0.3]]), [1, 3]),
     "cal_temperature(rbind(c(0.2, 0.1), c(0.6, 0.3)), c(1, 3))"),
    (lambda: cal_temperature(np.array([[0.2, 0.1], [0.6, 0.3]]), [1, 2, 1]),
     "cal_temperature(rbind(c(0.2, 0.1), c(0.6, 0.3)), c(1, 2, 1))"),
    (lambda: cal_temperature(np.array([[0.2, 0.1], [0.6, 0.3]]), [0, 1]),
     "cal_temperature(rbind(c(0.2, 0.1), c(0.6, 0.3)), c(0, 1))"),
    (lambda: cal_temperature(np.array([[0.2, np.nan], [0.6, 0.3]]), [1, 2]),
     "cal_temperature(rbind(c(0.2, NA), c(0.6, 0.3)), c(1, 2))"),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BAD_FITS, ids=range(len(BAD_FITS)))
def test_bad_fit_input_messages_match_probcal(probcal_r, case):
    make, call = case
    want = probcal_r.r(f"tryCatch({call}, error = function(e) conditionMessage(e))")[0]
    with pytest.raises(ProbcalError) as err:
        make()
    assert str(err.value) == want


def _bad_predicts():
    y = [0, 1, 1, 0]
    p = [0.1, 0.7, 0.8, 0.3]
    zm = "rbind(c(1, 0), c(0, 1), c(2, 1), c(0, 3))"
    zm_py = np.array([[1.0, 0], [0, 1], [2, 1], [0, 3]])
    return [
        ("cal_platt", lambda: cal_platt(p, y), "cal_platt(c(0.1, 0.7, 0.8, 0.3), c(0, 1, 1, 0))",
         [("c(0.1, NA)", [0.1, np.nan]), ('"a"', "a")]),
        ("cal_beta", lambda: cal_beta(p, y), "cal_beta(c(0.1, 0.7, 0.8, 0.3), c(0, 1, 1, 0))",
         [("c(0.1, 1.1)", [0.1, 1.1]), ("numeric()", [])]),
        ("cal_isotonic", lambda: cal_isotonic(p, y), "cal_isotonic(c(0.1, 0.7, 0.8, 0.3), c(0, 1, 1, 0))",
         [("c(-0.1, 0.1)", [-0.1, 0.1])]),
        ("cal_histogram", lambda: cal_histogram(p, y), "cal_histogram(c(0.1, 0.7, 0.8, 0.3), c(0, 1, 1, 0))",
         [("c(0.1, 2)", [0.1, 2.0])]),
        ("cal_temperature", lambda: cal_temperature(p, y), "cal_temperature(c(0.1, 0.7, 0.8, 0.3), c(0, 1, 1, 0))",
         [("c(0.1, Inf)", [0.1, np.inf]), (zm, zm_py)]),
        ("cal_temperature_mc", lambda: cal_temperature(zm_py, [1, 2, 1, 2]), f"cal_temperature({zm}, c(1, 2, 1, 2))",
         [("c(0.1, 0.2)", [0.1, 0.2]), ("cbind(1, 2, 3)", np.array([[1.0, 2.0, 3.0]])),
          ("matrix(c(1, NA), ncol = 2)", np.array([[1.0, np.nan]]))]),
    ]


BAD_PREDICTS = [(name, make, call, rnew, pynew)
                for name, make, call, news in _bad_predicts() for rnew, pynew in news]


@pytest.mark.r_parity
@pytest.mark.filterwarnings("ignore:glm.fit:RuntimeWarning")
@pytest.mark.parametrize("case", BAD_PREDICTS, ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD_PREDICTS)])
def test_bad_predict_input_messages_match_probcal(probcal_r, case):
    _, make, call, rnew, pynew = case
    want = probcal_r.r(f"tryCatch(predict({call}, {rnew}), error = function(e) conditionMessage(e))")[0]
    fit = make()
    with pytest.raises(ProbcalError) as err:
        fit.predict(pynew)
    assert str(err.value) == want


@pytest.mark.r_parity
def test_aliased_platt_predict_error_matches_probcal(probcal_r):
    want = probcal_r.r("tryCatch(predict(cal_platt(rep(2, 20), rep(0:1, 10)), c(1, 2)), "
                       "error = function(e) conditionMessage(e))")[0]
    fit = cal_platt(np.full(20, 2.0), np.tile([0, 1], 10))
    assert math.isnan(fit.coefficients["x"])
    with pytest.raises(ProbcalError) as err:
        fit.predict([1.0, 2.0])
    assert str(err.value) == want


# ---------------------------------------------------------------------------
# R parity: numerical building blocks
# ---------------------------------------------------------------------------


@pytest.mark.r_parity
def test_brent_matches_optimize(r):
    # optimize() on a function with several local minima: the same local
    # minimum and the same bits show that the steps are R's.
    r.r("g <- function(x) sin(3 * x) + (x - 1)^2 / 10")
    for lo, hi, tol in ((-5.0, 5.0, 1e-8), (0.001, 1000.0, 1.490116119384765625e-08), (-2.0, 9.0, 1e-3)):
        want = r.r(f"optimize(g, c({lo!r}, {hi!r}), tol = {tol!r})$minimum")[0]
        got = brent_fmin(lo, hi, lambda x: math.sin(3 * x) + (x - 1) ** 2 / 10, tol)
        assert _rel(got, want) <= 1e-13


@pytest.mark.r_parity
def test_r_sums_means_and_round_match_r(r):
    rng = np.random.default_rng(8)
    x = rng.normal(size=1001) * 10.0 ** rng.integers(-8, 8, size=1001)
    r_assign(r, x=x)
    assert r_sum(x) == r.r("sum(x)")[0]
    assert r_mean(x) == r.r("mean(x)")[0]
    yi = rng.integers(0, 2, size=777)
    r_assign(r, yi=yi.astype(np.int64))
    assert r_int_mean(yi) == r.r("mean(yi)")[0]
    v = np.round(rng.normal(scale=3, size=500), 5) + rng.choice([0.0, 5e-5, -5e-5], size=500)
    r_assign(r, v=v)
    assert np.array_equal(r_round(v, 4), np.array(r.r("round(v, 4)")))
    m = rng.normal(scale=5, size=(50, 4))
    r_assign(r, m=m)
    want = np.array(r.r("local({mx <- apply(m, 1, max); e <- exp(m - mx); e / rowSums(e)})"))
    assert np.array_equal(softmax(m), want)


# ---------------------------------------------------------------------------
# Pure Python: literal messages, base class, pandas, no mutation
# ---------------------------------------------------------------------------


def test_literal_messages():
    with pytest.raises(ProbcalError, match=r"^Argument `y` must contain at least one `0` and one `1`\.$"):
        cal_platt([0.1, 0.2], [1, 1])
    with pytest.raises(ProbcalError, match=r"^Argument `p` must contain probabilities in `\[0, 1\]`\.$"):
        cal_isotonic([0.1, 1.2], [0, 1])
    with pytest.raises(ProbcalError, match=r"^Arguments `p` and `y` must have the same length\.$"):
        cal_histogram([0.1, 0.2, 0.3], [0, 1])
    with pytest.raises(ProbcalError, match=r"^Argument `eps` must be a single number in `\(0, 0\.5\)`\.$"):
        cal_beta([0.1, 0.2], [0, 1], eps=0.7)
    fit = cal_temperature(np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 0.5]]), [1, 2, 2])
    with pytest.raises(ProbcalError, match=r"^Argument `newdata` must have 2 columns, one per class\.$"):
        fit.predict(np.ones((2, 3)))
    with pytest.raises(ProbcalError,
                       match=r"^Argument `newdata` must be a numeric matrix with one column per class\.$"):
        fit.predict([0.1, 0.2])


def test_base_class_behaves_like_an_r_list():
    fit = cal_histogram([0.1, 0.2, 0.7, 0.9], [0, 1, 1, 1], bins=2)
    assert fit.keys() == ["method", "n", "input", "bins", "actual_bins", "strategy", "breaks",
                          "bin_values", "counts", "global_rate", "call"]
    assert fit["bin_values"] is fit.bin_values
    assert "breaks" in fit and "k" not in fit
    assert fit.get("k") is None
    assert isinstance(fit, Calibrator) and fit.inherits("calibrator") and fit.inherits("cal_histogram")
    assert fit.r_classes == ("cal_histogram", "calibrator")
    assert fit.call == "cal_histogram(p = p, y = y, bins = 2)"
    with pytest.raises(KeyError):
        fit["nope"]
    assert np.array_equal(predict(fit, [0.1, 0.95]), fit.predict([0.1, 0.95]))
    assert [k for k, _ in fit.items()] == fit.keys()


def test_pandas_in_and_out():
    idx = [f"obs{i}" for i in range(6)]
    p = pd.Series([0.1, 0.2, 0.35, 0.6, 0.8, 0.9], index=idx)
    y = pd.Series([0, 0, 1, 0, 1, 1], index=idx)
    for fit in (cal_platt(p, y), cal_beta(p, y), cal_isotonic(p, y), cal_histogram(p, y, bins=3),
                cal_temperature(p, y)):
        out = fit.predict(p)
        assert isinstance(out, pd.Series) and list(out.index) == idx
        arr = fit.predict(p.to_numpy())
        assert isinstance(arr, np.ndarray) and np.array_equal(arr, out.to_numpy())
    bools = cal_isotonic(p, y.astype(bool))
    assert np.array_equal(bools.y_calibrated, cal_isotonic(p, y).y_calibrated)


def test_inputs_not_mutated():
    rng = np.random.default_rng(0)
    p = np.concatenate([[0.0, 1.0], rng.uniform(size=50)])
    y = (rng.uniform(size=52) < p).astype(np.int64)
    y[:2] = [1, 0]
    z = rng.normal(size=(52, 3))
    yz = z.argmax(axis=1) + 1
    copies = [a.copy() for a in (p, y, z, yz)]
    for fit in (cal_platt(p, y), cal_beta(p, y), cal_isotonic(p, y),
                cal_histogram(p, y, strategy="equal_freq"), cal_temperature(p, y)):
        fit.predict(p)
    cal_temperature(z, yz).predict(z)
    for before, after in zip(copies, (p, y, z, yz), strict=True):
        assert np.array_equal(before, after)
    values = np.array([0.5, np.nan, np.nan, 0.25])
    filled = fill_empty_bins(values, np.array([2, 0, 0, 4]), fallback=0.3)
    assert np.isnan(values[1]) and filled.tolist() == [0.5, 0.5, 0.25, 0.25]


def test_fill_empty_bins_rules():
    # nearest non-empty bin by index; ties go to the lower bin; all empty -> fallback
    assert fill_empty_bins(np.array([np.nan, 0.2, np.nan, np.nan, np.nan, 0.8]),
                           np.array([0, 3, 0, 0, 0, 1]), 0.5).tolist() == [0.2, 0.2, 0.2, 0.2, 0.8, 0.8]
    assert fill_empty_bins(np.full(3, np.nan), np.zeros(3, int), 0.4).tolist() == [0.4, 0.4, 0.4]


def test_libm_wrappers_are_the_c_library():
    # r_exp/r_log/r_log1p must be the C library's functions (what R calls),
    # not numpy's SIMD versions; Python's math module calls the same libm.
    rng = np.random.default_rng(2)
    x = rng.uniform(-40, 40, size=3000)
    u = rng.uniform(1e-12, 1, size=3000)
    assert r_exp(x).tolist() == [math.exp(v) for v in x]
    assert r_log(u).tolist() == [math.log(v) for v in u]
    assert r_log1p(-u * 0.999).tolist() == [math.log1p(-v * 0.999) for v in u]


def test_log_losses():
    p = np.array([0.0, 0.3, 1.0])
    y = np.array([0, 1, 1])
    want = -(math.log1p(-1e-15) + math.log(0.3) + math.log(1 - 1e-15))
    assert abs(binary_log_loss(p, y) - want) <= 1e-15
    prob = np.array([[0.2, 0.8], [1.0, 0.0]])
    assert abs(multiclass_log_loss(prob, np.array([2, 2])) - (-(math.log(0.8) + math.log(1e-15)) / 2)) <= 1e-14



def test_temperature_predict_refuses_overflowing_logits():
    # R 4.2.2, probcal 0.1.0: set.seed(1); z <- rnorm(50) * 3;
    # y <- rbinom(50, 1, 1 / (1 + exp(-z * 2))); f <- cal_temperature(z, y)
    # gives temperature 0.1085456 < 1, and predict(f, c(1.7e308, 1)) fails in
    # inv_logit() with this message.
    import pycalib_r as pc

    pc.set_seed(1)
    z = pc.rnorm(50) * 3
    y = pc.rbinom(50, 1, 1 / (1 + np.exp(-z * 2)))
    fit = pc.cal_temperature(z, y)
    assert fit.temperature < 1
    with pytest.raises(ProbcalError, match=r"^Argument `x` must contain only finite values\.$"):
        pc.predict(fit, [1.7e308, 1.0])


def test_glm_step_halving_is_r_inner_loop():
    # glm.fit's inner loops: no earlier step -> R's error; else the warning,
    # then halving towards the earlier coefficients until the state is
    # acceptable, at most maxit (25) times.
    from pycalib_r.rstats._glm import halve_step

    msgs = []
    with pytest.raises(ValueError, match="^no valid set of coefficients has been found: please supply starting values$"):
        halve_step(np.array([8.0]), None, lambda b: b, lambda b: True, 1, msgs, "note")
    assert msgs == []
    seen = []
    start, state = halve_step(np.array([8.0]), np.array([0.0]), lambda b: seen.append(b[0]) or b[0],
                              lambda v: v < 1.5, 2, msgs, "step size truncated: out of bounds")
    assert msgs == ["step size truncated: out of bounds"]
    assert seen == [4.0, 2.0, 1.0] and start[0] == 1.0 and state == 1.0
    calls = []
    with pytest.raises(ValueError, match="^inner loop 1; cannot correct step size$"):
        halve_step(np.array([1.0]), np.array([0.0]), lambda b: calls.append(1), lambda v: False, 1, [], "n")
    assert len(calls) == 25


def test_glm_irls_loop_is_glm_fit_loop():
    # rstats.irls_loop, the one loop of the in-memory fit and the Dask face:
    # a non-finite deviance halves the step towards the last accepted one
    # (R's warning, boundary = TRUE), then the convergence rule ends the loop.
    from pycalib_r.rstats import irls_loop

    steps = iter([np.array([1.0]), np.array([9.0])])
    seen, msgs = [], []

    def evaluate(b):
        seen.append(b[0])
        return (10.0 if b[0] <= 3 else float("inf")), b[0]

    out = irls_loop(0.0, 50.0, lambda it, st: next(steps), evaluate, lambda st: True, msgs)
    assert seen == [1.0, 9.0, 5.0, 3.0]
    assert msgs == ["step size truncated due to divergence"]
    assert (out["iter"], out["conv"], out["boundary"], out["dev"], out["state"]) == (2, True, True, 10.0, 3.0)
    assert out["coef"].tolist() == [3.0]
    # A step that fails (None: its message given) ends the loop unconverged.
    out = irls_loop(0.0, 50.0, lambda it, st: None, evaluate, lambda st: True, msgs)
    assert (out["iter"], out["conv"], out["coef"], out["dev"]) == (1, False, None, 50.0)

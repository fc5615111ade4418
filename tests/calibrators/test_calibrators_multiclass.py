"""Multiclass calibrators and wrappers: vector scaling, Dirichlet, one-vs-rest, cross-validation.

R parity tests fit the same data in probcal (through rpy2) and in pycalib_r.
The data come from probcal's own test helper recipe (``make_multiclass``:
``rnorm`` logits, softmax, labels drawn with ``sample.int``) run in R with
seeds chosen before looking at any result. Bad-input messages are literals
checked two ways: the pure test checks pycalib_r's message, the r_parity test
checks that R gives that very text.

Tolerances: vector scaling and Dirichlet calibration are BFGS fits, held to
1e-5 (``TOL_BFGS``; R stops BFGS at a relative objective change of 1.5e-8,
where parameters are determined only to ~1e-4, so matching R needs R's
optimiser path, which pycalib_r reproduces). The largest difference observed
when these tests were written was 0.0 (bit-identical) for every parameter,
objective value and probability. One-vs-rest and the binary methods inside
cross-validation use the glm/Brent ports, held to 1e-10 (``TOL_ITERATIVE``:
far inside the manifest's ``brent_glm`` policy of 1e-7 because the port
repeats R's own iterations; observed 0.0), and the closed-form isotonic and
histogram calibrators are held to the manifest's ``closed`` policy.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pycalib_r import _rng
from pycalib_r.rbase._errors import ProbcalError
from pycalib_r.calibrators import predict, summary
from pycalib_r.calibrators._cv import cal_cv
from pycalib_r.calibrators._dirichlet import cal_dirichlet
from pycalib_r.calibrators._ovr import cal_ovr
from pycalib_r.calibrators._vector_scaling import cal_vector_scaling
from tests.conftest import r_assign, within

TOL_BFGS = 1e-5
TOL_ITERATIVE = 1e-10
CLOSED_FORM = ("isotonic", "histogram", "iso")


def _matches_r(got, want, method) -> bool:
    """Closed-form methods under the manifest's ``closed`` policy; iterative fits to TOL_ITERATIVE."""
    if method in CLOSED_FORM:
        return within(got, want, "closed")
    return _maxdiff(got, want) <= TOL_ITERATIVE

_R_HELPERS = r"""
make_multiclass <- function(n, k, seed) {
  set.seed(seed)
  logits <- matrix(stats::rnorm(n * k), ncol = k)
  prob <- t(apply(logits, 1L, function(row) { z <- exp(row - max(row)); z / sum(z) }))
  labels <- apply(prob, 1L, function(row) sample.int(k, 1L, prob = row))
  list(logits = logits, prob = prob, labels = labels)
}
"""

# (id, n, k, seed, factor levels or None): fixed before any result was seen.
DATASETS = [
    ("n150-k3", 150, 3, 101, None),
    ("n200-k4", 200, 4, 202, None),
    ("n120-k3-factor", 120, 3, 303, ["low", "mid", "high"]),
    ("n180-k4-factor", 180, 4, 404, ["a", "b", "c", "d"]),
]


def _maxdiff(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


# ---------------------------------------------------------------------------
# R data and helpers
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rr(probcal_r):
    probcal_r.r(_R_HELPERS)
    probcal_r.r("options(cli.num_colors = 1L, width = 80, probcal.emoji = TRUE)")
    return probcal_r


@pytest.fixture(scope="module")
def r_text(rr, r_cli_capture):
    return lambda code: r_cli_capture(code)[0]


def _load(rr, n, k, seed, levels, name="d"):
    """Make the data in R (as ``name``, with labels ``{name}y``) and return it for Python."""
    rr.r(f"{name} <- make_multiclass({n}, {k}, {seed})")
    if levels is None:
        rr.r(f"{name}y <- {name}$labels")
    else:
        lv = ", ".join(f'"{v}"' for v in levels)
        rr.r(f"{name}y <- factor(c({lv})[{name}$labels], levels = c({lv}))")
    logits = np.array(rr.r(f"{name}$logits"))
    prob = np.array(rr.r(f"{name}$prob"))
    codes = np.array(rr.r(f"{name}$labels")).astype(np.int64)
    y = codes if levels is None else pd.Categorical.from_codes(codes - 1, categories=levels)
    return logits, prob, y


def _load_case(rr, case, what):
    """Dataset ``case`` in R as ``d``/``dy`` and 40 new rows as ``nd``.

    Returns ``d${what}``, the labels and ``nd${what}`` for Python, where
    ``what`` is ``"logits"`` or ``"prob"``.
    """
    _, n, k, seed, levels = case
    logits, prob, y = _load(rr, n, k, seed, levels)
    _load(rr, 40, k, seed + 1, None, name="nd")
    x = logits if what == "logits" else prob
    return x, y, np.array(rr.r(f"nd${what}"))


def _r_num(rr, code):
    return np.array(rr.r(code), dtype=float)


def _check_object(rr, fit, rname):
    assert fit.keys() == list(rr.r(f"names({rname})"))
    assert list(fit.r_classes) == list(rr.r(f"class({rname})"))
    assert fit.n == rr.r(f"{rname}$n")[0]
    assert fit.method == rr.r(f"{rname}$method")[0]
    assert fit.input == rr.r(f"{rname}$input")[0]
    if fit.get("k") is not None:
        assert fit.k == rr.r(f"{rname}$k")[0]
        assert fit.levels == list(rr.r(f"{rname}$levels"))


def _check_text(r_text, fit, rname):
    assert str(fit) == r_text(f"print({rname})")
    assert str(summary(fit)) == r_text(f"summary({rname})")


# ---------------------------------------------------------------------------
# R parity: vector scaling and Dirichlet calibration
# ---------------------------------------------------------------------------


@pytest.mark.r_parity
@pytest.mark.parametrize("case", DATASETS, ids=[d[0] for d in DATASETS])
def test_vector_scaling_matches_probcal(rr, r_text, case):
    logits, y, new_logits = _load_case(rr, case, "logits")
    rr.r("f <- cal_vector_scaling(d$logits, dy)")
    fit = cal_vector_scaling(logits, y)
    _check_object(rr, fit, "f")
    assert _maxdiff(fit.scale, _r_num(rr, "f$scale")) <= TOL_BFGS
    assert _maxdiff(fit.bias, _r_num(rr, "f$bias")) <= TOL_BFGS
    assert abs(fit.value - rr.r("f$value")[0]) <= TOL_BFGS
    assert fit.convergence == rr.r("f$convergence")[0]
    assert _maxdiff(fit.predict(logits), _r_num(rr, "predict(f, d$logits)")) <= TOL_BFGS
    assert _maxdiff(predict(fit, new_logits), _r_num(rr, "predict(f, nd$logits)")) <= TOL_BFGS
    frame = fit.predict(pd.DataFrame(new_logits, index=[f"r{i}" for i in range(40)]))
    assert list(frame.columns) == list(rr.r("colnames(predict(f, nd$logits))"))
    assert list(frame.index) == [f"r{i}" for i in range(40)]
    _check_text(r_text, fit, "f")


DIRICHLET_LAMBDAS = [("select", None, "NULL"), ("zero", 0, "0"), ("l0.01", 0.01, "0.01")]


@pytest.mark.r_parity
@pytest.mark.parametrize("lam", DIRICHLET_LAMBDAS, ids=[x[0] for x in DIRICHLET_LAMBDAS])
@pytest.mark.parametrize("case", DATASETS, ids=[d[0] for d in DATASETS])
def test_dirichlet_matches_probcal(rr, r_text, case, lam):
    _, lam_py, lam_r = lam
    prob, y, new_prob = _load_case(rr, case, "prob")
    rr.r(f"f <- cal_dirichlet(d$prob, dy, lambda = {lam_r})")
    fit = cal_dirichlet(prob, y, lambda_=lam_py)
    _check_object(rr, fit, "f")
    assert fit["lambda"] == rr.r("f$lambda")[0]
    assert fit.eps == rr.r("f$eps")[0]
    assert _maxdiff(fit.weight, _r_num(rr, "f$weight")) <= TOL_BFGS
    assert _maxdiff(fit.bias, _r_num(rr, "f$bias")) <= TOL_BFGS
    assert abs(fit.value - rr.r("f$value")[0]) <= TOL_BFGS
    assert fit.convergence == rr.r("f$convergence")[0]
    assert _maxdiff(fit.predict(prob), _r_num(rr, "predict(f, d$prob)")) <= TOL_BFGS
    assert _maxdiff(fit.predict(new_prob), _r_num(rr, "predict(f, nd$prob)")) <= TOL_BFGS
    _check_text(r_text, fit, "f")


@pytest.mark.r_parity
def test_dirichlet_eps_and_lambda_spelling_match_probcal(rr, r_text):
    _, prob, y = _load(rr, 90, 3, 505, None)
    prob = prob.copy()
    prob[:5] = [[1.0, 0.0, 0.0]] * 5  # exact 0s and 1s reach the clipping
    rr.r("d$prob[1:5, ] <- matrix(c(1, 0, 0), 5, 3, byrow = TRUE)")
    rr.r("f <- cal_dirichlet(d$prob, dy, lambda = 0.05, eps = 1e-6)")
    fit = cal_dirichlet(prob, y, **{"lambda": 0.05}, eps=1e-6)
    assert _maxdiff(fit.weight, _r_num(rr, "f$weight")) <= TOL_BFGS
    assert _maxdiff(fit.predict(prob), _r_num(rr, "predict(f, d$prob)")) <= TOL_BFGS
    _check_text(r_text, fit, "f")


# ---------------------------------------------------------------------------
# R parity: one-vs-rest
# ---------------------------------------------------------------------------

OVR_CASES = [
    ("platt", "logits", {}, ""),
    ("platt", "prob", {}, ""),
    ("beta", "prob", {}, ""),
    ("beta", "prob", {"eps": 1e-4}, ", eps = 1e-4"),
    ("isotonic", "prob", {}, ""),
    ("histogram", "prob", {}, ""),
    ("histogram", "prob", {"bins": 5, "strategy": "equal_freq"}, ", bins = 5, strategy = 'equal_freq'"),
    ("temperature", "logits", {}, ""),
    ("iso", "prob", {}, ""),  # a unique prefix, as match.arg() accepts
]


@pytest.mark.r_parity
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("case", [DATASETS[1], DATASETS[2]], ids=[DATASETS[1][0], DATASETS[2][0]])
@pytest.mark.parametrize("ovr", OVR_CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(OVR_CASES)])
def test_ovr_matches_probcal(rr, r_text, case, ovr):
    method, what, kwargs, r_extra = ovr
    x, y, new = _load_case(rr, case, what)
    rr.r(f'f <- suppressWarnings(cal_ovr(d${what}, dy, method = "{method}"{r_extra}))')
    fit = cal_ovr(x, y, method=method, **kwargs)
    _check_object(rr, fit, "f")
    assert fit.base_method == rr.r("f$base_method")[0]
    for j, cal in enumerate(fit.calibrators, start=1):
        assert cal.keys() == list(rr.r(f"names(f$calibrators[[{j}]])"))
    assert _matches_r(fit.predict(x), _r_num(rr, f"predict(f, d${what})"), method)
    assert _matches_r(fit.predict(new), _r_num(rr, f"predict(f, nd${what})"), method)
    _check_text(r_text, fit, "f")


@pytest.mark.r_parity
def test_ovr_uniform_fallback_matches_probcal(rr):
    """A row whose calibrated values are all 0 becomes uniform (renormalize_rows)."""
    x = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1],
                  [0.3, 0.6, 0.1], [0.1, 0.1, 0.8], [0.05, 0.05, 0.05]])
    y = np.array([1, 2, 3, 1, 2, 3, 1])
    new = np.array([[0.0, 0.0, 0.0], [0.5, 0.3, 0.2]])
    r_assign(rr, x=x, new=new)
    rr.r("f <- cal_ovr(x, c(1, 2, 3, 1, 2, 3, 1), method = 'isotonic')")
    got = cal_ovr(x, y, method="isotonic").predict(new)
    assert within(got, _r_num(rr, "predict(f, new)"), "closed")


# ---------------------------------------------------------------------------
# R parity: cross-validation
# ---------------------------------------------------------------------------

CV_MULTI = [
    ("temperature", "logits", {}, ""),
    ("vector", "logits", {}, ""),
    ("dirichlet", "prob", {}, ""),
    ("dirichlet", "prob", {"lambda": 0.001}, ", lambda = 0.001"),
    ("ovr", "prob", {}, ""),
    ("ovr", "prob", {"base_method": "histogram", "bins": 4}, ", base_method = 'histogram', bins = 4"),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("case", [DATASETS[0], DATASETS[3]], ids=[DATASETS[0][0], DATASETS[3][0]])
@pytest.mark.parametrize("cv", CV_MULTI, ids=[f"{c[0]}-{i}" for i, c in enumerate(CV_MULTI)])
def test_cv_multiclass_matches_probcal(rr, r_text, case, cv):
    method, what, kwargs, r_extra = cv
    x, y, new = _load_case(rr, case, what)
    rr.r(f'f <- cal_cv(d${what}, dy, method = "{method}", folds = 3, seed = 11{r_extra})')
    fit = cal_cv(x, y, method=method, folds=3, seed=11, **kwargs)
    _check_object(rr, fit, "f")
    assert fit.calibration_method == rr.r("f$calibration_method")[0]
    assert fit.folds == rr.r("f$folds")[0]
    np.testing.assert_array_equal(fit.fold_id, np.array(rr.r("f$fold_id")))
    base = kwargs.get("base_method", "platt") if method == "ovr" else method
    if method in ("vector", "dirichlet"):
        assert _maxdiff(fit.oof_predictions, _r_num(rr, "f$oof_predictions")) <= TOL_BFGS
        assert _maxdiff(fit.predict(new), _r_num(rr, f"predict(f, nd${what})")) <= TOL_BFGS
    else:
        assert _matches_r(fit.oof_predictions, _r_num(rr, "f$oof_predictions"), base)
        assert _matches_r(fit.predict(new), _r_num(rr, f"predict(f, nd${what})"), base)
    for j, cal in enumerate(fit.fold_calibrators, start=1):
        assert cal.levels == list(rr.r(f"f$fold_calibrators[[{j}]]$levels"))
    assert fit.final_calibrator.levels == list(rr.r("f$final_calibrator$levels"))
    _check_text(r_text, fit, "f")


CV_BINARY = [
    ("platt", {}, ""),
    ("temperature", {}, ""),
    ("beta", {}, ""),
    ("isotonic", {}, ""),
    ("histogram", {"bins": 5}, ", bins = 5"),
]


@pytest.mark.r_parity
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("cv", CV_BINARY, ids=[c[0] for c in CV_BINARY])
def test_cv_binary_matches_probcal(rr, r_text, cv):
    method, kwargs, r_extra = cv
    rr.r("set.seed(606); pb <- stats::runif(130); yb <- rbinom(130, 1, pb)")
    x = np.array(rr.r("pb"))
    y = np.array(rr.r("yb")).astype(np.int64)
    rr.r(f'f <- suppressWarnings(cal_cv(pb, yb, method = "{method}", folds = 4, seed = 21{r_extra}))')
    fit = cal_cv(x, y, method=method, folds=4, seed=21, **kwargs)
    _check_object(rr, fit, "f")
    np.testing.assert_array_equal(fit.fold_id, np.array(rr.r("f$fold_id")))
    assert _matches_r(fit.oof_predictions, _r_num(rr, "f$oof_predictions"), method)
    assert _matches_r(fit.predict(x[:30]), _r_num(rr, "predict(f, pb[1:30])"), method)
    _check_text(r_text, fit, "f")


@pytest.mark.r_parity
def test_cv_fold_draws_follow_and_restore_r_stream(rr):
    """Without `seed` the folds come from (and advance) the global stream; with it, the stream is restored."""
    rr.r("set.seed(707); pb <- stats::runif(90); yb <- rbinom(90, 1, pb)")
    x = np.array(rr.r("pb"))
    y = np.array(rr.r("yb")).astype(np.int64)
    saved = _rng.get_global_state()
    try:
        rr.r("set.seed(808); f <- cal_cv(pb, yb, method = 'isotonic', folds = 3); after <- runif(3)")
        _rng.set_seed(808)
        fit = cal_cv(x, y, method="isotonic", folds=3)
        after = _rng.runif(3)
        np.testing.assert_array_equal(fit.fold_id, np.array(rr.r("f$fold_id")))
        np.testing.assert_array_equal(after, np.array(rr.r("after")))

        rr.r("set.seed(808); f <- cal_cv(pb, yb, method = 'isotonic', folds = 3, seed = 5); after <- runif(3)")
        _rng.set_seed(808)
        fit = cal_cv(x, y, method="isotonic", folds=3, seed=5)
        after = _rng.runif(3)
        np.testing.assert_array_equal(fit.fold_id, np.array(rr.r("f$fold_id")))
        np.testing.assert_array_equal(after, np.array(rr.r("after")))

        # R removes .Random.seed again if there was none before the call.
        gone = rr.r("rm(.Random.seed, envir = globalenv()); "
                    "invisible(cal_cv(pb, yb, method = 'isotonic', folds = 3, seed = 5)); "
                    "as.integer(exists('.Random.seed', envir = globalenv()))")[0]
        _rng.set_global_state(None)
        cal_cv(x, y, method="isotonic", folds=3, seed=5)
        assert gone == 0 and _rng._GLOBAL is None
    finally:
        _rng.set_global_state(saved)


# ---------------------------------------------------------------------------
# Bad input: R's messages
# ---------------------------------------------------------------------------

_L = np.array([[1.0, 0.0, -1.0], [0.5, 0.2, 0.1], [0.0, 1.0, 0.3], [0.3, 0.1, 2.0]])
_L_R = "rbind(c(1, 0, -1), c(0.5, 0.2, 0.1), c(0, 1, 0.3), c(0.3, 0.1, 2))"
_P = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.4, 0.4, 0.2]])
_P_R = "rbind(c(0.6, 0.3, 0.1), c(0.2, 0.5, 0.3), c(0.1, 0.2, 0.7), c(0.4, 0.4, 0.2))"
_Y = [1, 2, 3, 1]
_Y_R = "c(1, 2, 3, 1)"
_PB = np.linspace(0.05, 0.95, 10)
_PB_R = "seq(0.05, 0.95, length.out = 10)"
_YB = [0, 1, 0, 0, 1, 1, 0, 1, 1, 0]
_YB_R = "c(0, 1, 0, 0, 1, 1, 0, 1, 1, 0)"

# (id, Python call, R call, R's conditionMessage)
ERRORS = [
    ("vs-vector", lambda: cal_vector_scaling([1.0, 2.0, 3.0], [1, 2, 1]),
     "cal_vector_scaling(c(1, 2, 3), c(1, 2, 1))",
     "Argument `logits` must be a numeric matrix with one column per class."),
    ("vs-one-column", lambda: cal_vector_scaling(_L[:, :1], [1, 1, 1, 1]),
     f"cal_vector_scaling({_L_R}[, 1, drop = FALSE], c(1, 1, 1, 1))",
     "Argument `logits` must have at least two columns, one per class."),
    ("vs-na", lambda: cal_vector_scaling(np.where(_L == 2.0, np.nan, _L), _Y),
     f"{{m <- {_L_R}; m[4, 3] <- NA; cal_vector_scaling(m, {_Y_R})}}",
     "Argument `logits` must not contain missing or infinite values."),
    ("vs-one-class", lambda: cal_vector_scaling(_L[:, :2], [1, 1, 1, 1]),
     f"cal_vector_scaling({_L_R}[, 1:2], c(1, 1, 1, 1))",
     "Argument `y` must have at least two classes."),
    ("vs-one-class-factor", lambda: cal_vector_scaling(_L[:, :2], pd.Categorical(["a"] * 4)),
     f"cal_vector_scaling({_L_R}[, 1:2], factor(rep('a', 4)))",
     "Argument `y` must have at least two classes."),
    ("vs-classes-vs-columns", lambda: cal_vector_scaling(_L[:, :2], _Y),
     f"cal_vector_scaling({_L_R}[, 1:2], {_Y_R})",
     "Argument `y` has 3 classes but the input has 2 columns."),
    ("vs-rows", lambda: cal_vector_scaling(_L, [1, 2, 3]),
     f"cal_vector_scaling({_L_R}, c(1, 2, 3))",
     "Arguments `logits` and `y` must have the same number of observations."),
    ("vs-codes-from-zero", lambda: cal_vector_scaling(_L, [0, 1, 2, 1]),
     f"cal_vector_scaling({_L_R}, c(0, 1, 2, 1))",
     "Integer class codes in `y` must start at `1`."),
    ("vs-predict-columns", lambda: cal_vector_scaling(_L, _Y).predict(_L[:, :2]),
     f"predict(cal_vector_scaling({_L_R}, {_Y_R}), {_L_R}[, 1:2])",
     "Argument `newdata` must have 3 columns, one per class."),
    ("vs-predict-vector", lambda: cal_vector_scaling(_L, _Y).predict([1.0, 2.0, 3.0]),
     f"predict(cal_vector_scaling({_L_R}, {_Y_R}), c(1, 2, 3))",
     "Argument `newdata` must be a numeric matrix with one column per class."),
    ("dir-lambda-negative", lambda: cal_dirichlet(_P, _Y, lambda_=-0.1),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = -0.1)",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-lambda-negative-int", lambda: cal_dirichlet(_P, _Y, lambda_=-1),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = -1L)",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-lambda-two", lambda: cal_dirichlet(_P, _Y, **{"lambda": [0.1, 0.2]}),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = c(0.1, 0.2))",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-lambda-string", lambda: cal_dirichlet(_P, _Y, lambda_="a"),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = 'a')",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-lambda-logical", lambda: cal_dirichlet(_P, _Y, lambda_=True),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = TRUE)",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-lambda-inf", lambda: cal_dirichlet(_P, _Y, lambda_=np.inf),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = Inf)",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-eps-zero", lambda: cal_dirichlet(_P, _Y, eps=0),
     f"cal_dirichlet({_P_R}, {_Y_R}, eps = 0)",
     "Argument `eps` must be a single number in `(0, 0.5)`."),
    ("dir-eps-half", lambda: cal_dirichlet(_P, _Y, lambda_=0.1, eps=0.5),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = 0.1, eps = 0.5)",
     "Argument `eps` must be a single number in `(0, 0.5)`."),
    ("dir-lambda-before-eps", lambda: cal_dirichlet(_P, _Y, lambda_=-1.0, eps=0.5),
     f"cal_dirichlet({_P_R}, {_Y_R}, lambda = -1, eps = 0.5)",
     "Argument `lambda` must be `NULL` or a single non-negative number."),
    ("dir-row-sums", lambda: cal_dirichlet(_P * 0.9, _Y),
     f"cal_dirichlet({_P_R} * 0.9, {_Y_R})",
     "Each row of `p` must sum to `1`."),
    ("dir-logits", lambda: cal_dirichlet(_L, _Y),
     f"cal_dirichlet({_L_R}, {_Y_R})",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    ("dir-rows", lambda: cal_dirichlet(_P, [1, 2, 3, 1, 2]),
     f"cal_dirichlet({_P_R}, c(1, 2, 3, 1, 2))",
     "Arguments `p` and `y` must have the same number of observations."),
    ("dir-predict-columns", lambda: cal_dirichlet(_P, _Y, lambda_=0.1).predict(_P[:, :2]),
     f"predict(cal_dirichlet({_P_R}, {_Y_R}, lambda = 0.1), {_P_R}[, 1:2])",
     "Each row of `newdata` must sum to `1`."),
    ("dir-predict-four-columns",
     lambda: cal_dirichlet(_P, _Y, lambda_=0.1).predict(np.full((2, 4), 0.25)),
     f"predict(cal_dirichlet({_P_R}, {_Y_R}, lambda = 0.1), matrix(0.25, 2, 4))",
     "Argument `newdata` must have 3 columns, one per class."),
    ("ovr-vector", lambda: cal_ovr([0.1, 0.2], [1, 2]), "cal_ovr(c(0.1, 0.2), c(1, 2))",
     "Argument `x` must be a numeric matrix with one column per class."),
    ("ovr-method", lambda: cal_ovr(_P, _Y, method="vector"), f"cal_ovr({_P_R}, {_Y_R}, method = 'vector')",
     "'arg' should be one of \u201cplatt\u201d, \u201cbeta\u201d, \u201cisotonic\u201d, "
     "\u201chistogram\u201d, \u201ctemperature\u201d"),
    ("ovr-beta-range", lambda: cal_ovr(_L, _Y, method="beta"), f"cal_ovr({_L_R}, {_Y_R}, method = 'beta')",
     'Argument `x` must contain probabilities in `[0, 1]` for "beta".'),
    ("ovr-missing-class", lambda: cal_ovr(_P, [1, 3, 3, 1]), f"cal_ovr({_P_R}, c(1, 3, 3, 1))",
     "Every class must appear in `y` for one-vs-rest calibration."),
    ("ovr-missing-level", lambda: cal_ovr(_P, pd.Categorical(["a", "c", "c", "a"], categories=["a", "b", "c"])),
     f"cal_ovr({_P_R}, factor(c('a', 'c', 'c', 'a'), levels = c('a', 'b', 'c')))",
     "Every class must appear in `y` for one-vs-rest calibration."),
    ("ovr-one-class", lambda: cal_ovr(_P[:, :2], [2, 2, 2, 2]), f"cal_ovr({_P_R}[, 1:2], c(2, 2, 2, 2))",
     "Every class must appear in `y` for one-vs-rest calibration."),
    ("ovr-predict-vector", lambda: cal_ovr(_P, _Y).predict([0.1, 0.2, 0.7]),
     f"predict(cal_ovr({_P_R}, {_Y_R}), c(0.1, 0.2, 0.7))",
     "Argument `newdata` must be a numeric matrix with one column per class."),
    ("ovr-predict-columns", lambda: cal_ovr(_P, _Y).predict(_P[:, :2]),
     f"predict(cal_ovr({_P_R}, {_Y_R}), {_P_R}[, 1:2])",
     "Argument `newdata` must have 3 columns, one per class."),
    ("ovr-predict-na", lambda: cal_ovr(_P, _Y).predict(np.array([[0.1, np.nan, 0.2]])),
     f"predict(cal_ovr({_P_R}, {_Y_R}), matrix(c(0.1, NA, 0.2), 1))",
     "Argument `newdata` must not contain missing values."),
    ("cv-method", lambda: cal_cv(_PB, _YB, method="bogus"), f"cal_cv({_PB_R}, {_YB_R}, method = 'bogus')",
     "'arg' should be one of \u201cplatt\u201d, \u201ctemperature\u201d, \u201cbeta\u201d, "
     "\u201cisotonic\u201d, \u201chistogram\u201d, \u201cvector\u201d, \u201cdirichlet\u201d, \u201covr\u201d"),
    ("cv-vector-needs-matrix", lambda: cal_cv(_PB, _YB, method="vector"),
     f"cal_cv({_PB_R}, {_YB_R}, method = 'vector')",
     'Method "vector" requires a matrix `x` with one column per class.'),
    ("cv-ovr-needs-matrix", lambda: cal_cv(_PB, _YB, method="ovr"),
     f"cal_cv({_PB_R}, {_YB_R}, method = 'ovr')",
     'Method "ovr" requires a matrix `x` with one column per class.'),
    ("cv-beta-needs-vector", lambda: cal_cv(_P, _Y, method="beta"),
     f"cal_cv({_P_R}, {_Y_R}, method = 'beta')",
     'Method "beta" expects a vector `x`. Use "ovr" for multiclass binning.'),
    ("cv-folds-too-large", lambda: cal_cv(_PB, _YB, folds=6),
     f"cal_cv({_PB_R}, {_YB_R}, folds = 6)",
     "Argument `folds` must not exceed the smallest class count."),
    ("cv-folds-too-large-mc", lambda: cal_cv(_L, _Y, method="vector", folds=2),
     f"cal_cv({_L_R}, {_Y_R}, method = 'vector', folds = 2)",
     "Argument `folds` must not exceed the smallest class count."),
    ("cv-folds-one", lambda: cal_cv(_PB, _YB, folds=1), f"cal_cv({_PB_R}, {_YB_R}, folds = 1)",
     "Argument `folds` must be at least `2`."),
    ("cv-folds-fraction", lambda: cal_cv(_PB, _YB, folds=2.5), f"cal_cv({_PB_R}, {_YB_R}, folds = 2.5)",
     "Argument `folds` must be a single positive integer."),
    ("cv-one-class-binary", lambda: cal_cv(_PB, [1] * 10), f"cal_cv({_PB_R}, rep(1, 10))",
     "Argument `y` must contain at least one `0` and one `1`."),
    ("cv-one-class-mc", lambda: cal_cv(_L[:, :2], [1, 1, 1, 1], method="temperature"),
     f"cal_cv({_L_R}[, 1:2], c(1, 1, 1, 1), method = 'temperature')",
     "Argument `y` must have at least two classes."),
    ("cv-prob-range", lambda: cal_cv(_PB * 2, _YB, method="isotonic"),
     f"cal_cv({_PB_R} * 2, {_YB_R}, method = 'isotonic')",
     "Argument `x` must contain probabilities in `[0, 1]`."),
    ("cv-length", lambda: cal_cv(_PB, _YB[:9]), f"cal_cv({_PB_R}, {_YB_R}[1:9])",
     "Arguments `x` and `y` must have the same length."),
    ("cv-ovr-inf", lambda: cal_cv(np.where(_P == 0.7, np.inf, _P), _Y, method="ovr"),
     f"{{m <- {_P_R}; m[3, 3] <- Inf; cal_cv(m, {_Y_R}, method = 'ovr')}}",
     "Argument `x` must be a finite numeric matrix."),
    ("cv-dirichlet-logits", lambda: cal_cv(_L, _Y, method="dirichlet"),
     f"cal_cv({_L_R}, {_Y_R}, method = 'dirichlet')",
     "Argument `x` must contain probabilities in `[0, 1]`."),
    ("cv-mc-rows", lambda: cal_cv(_L, [1, 2, 3], method="temperature"),
     f"cal_cv({_L_R}, c(1, 2, 3), method = 'temperature')",
     "Arguments `x` and `y` must have the same number of observations."),
]


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_bad_input_gives_r_message(case):
    _, call, _, message = case
    with pytest.raises(ProbcalError) as err:
        call()
    assert str(err.value) == message


@pytest.mark.r_parity
@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_bad_input_message_is_probcals(rr, case):
    _, _, r_call, message = case
    got = rr.r(f"tryCatch({{{r_call}; NA_character_}}, error = function(e) conditionMessage(e))")[0]
    assert got == message


# ---------------------------------------------------------------------------
# Pure tests
# ---------------------------------------------------------------------------


def _toy(n=90, k=3, seed=3):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, k))
    prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    codes = np.where(rng.uniform(size=n) < 0.7, logits.argmax(axis=1) + 1, rng.integers(1, k + 1, size=n))
    codes[:k] = np.arange(1, k + 1)
    return logits, prob, codes.astype(np.int64)


def test_inputs_are_not_mutated():
    logits, prob, codes = _toy()
    frame = pd.DataFrame(prob, columns=["x", "y", "z"])
    cat = pd.Categorical.from_codes(codes - 1, categories=["x", "y", "z"])
    copies = (logits.copy(), prob.copy(), codes.copy(), frame.copy(), cat.copy())
    fits = [
        cal_vector_scaling(logits, codes),
        cal_dirichlet(frame, cat, lambda_=0.01),
        cal_dirichlet(prob, codes, lambda_=0.0, eps=1e-6),
        cal_ovr(prob, cat, method="histogram", bins=4),
        cal_ovr(logits, codes, method="temperature"),
        cal_cv(logits, codes, method="vector", folds=3, seed=1),
        cal_cv(frame, cat, method="ovr", folds=3, seed=1, base_method="isotonic"),
        cal_cv(prob[:, 0], (codes == 1).astype(np.int64), method="beta", folds=3, seed=2),
    ]
    for fit in fits:
        fit.predict(logits if fit.input.startswith("logits") else
                    (prob[:, 0] if fit.get("k") is None else frame))
    np.testing.assert_array_equal(logits, copies[0])
    np.testing.assert_array_equal(prob, copies[1])
    np.testing.assert_array_equal(codes, copies[2])
    pd.testing.assert_frame_equal(frame, copies[3])
    assert (cat == copies[4]).all() and list(cat.categories) == ["x", "y", "z"]


def test_output_types_follow_the_input():
    """numpy in -> numpy out; DataFrame in -> DataFrame with the class levels as columns."""
    logits, prob, codes = _toy()
    cat = pd.Categorical.from_codes(codes - 1, categories=["lo", "mid", "hi"])
    fit = cal_vector_scaling(logits, cat)
    assert fit.levels == ["lo", "mid", "hi"]
    out = fit.predict(logits)
    assert isinstance(out, np.ndarray) and out.shape == logits.shape
    np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    frame = pd.DataFrame(logits, index=np.arange(100, 100 + logits.shape[0]))
    out_df = predict(fit, frame)
    assert list(out_df.columns) == ["lo", "mid", "hi"]
    assert list(out_df.index) == list(frame.index)
    np.testing.assert_array_equal(out_df.to_numpy(), out)
    cv = cal_cv(pd.DataFrame(prob), cat, method="dirichlet", folds=3, seed=3, lambda_=0.01)
    assert list(cv.oof_predictions.columns) == ["lo", "mid", "hi"]
    assert [c.levels for c in cv.fold_calibrators] == [["1", "2", "3"]] * 3
    assert cv.final_calibrator.levels == ["lo", "mid", "hi"]


def test_dirichlet_lambda_spellings():
    _, prob, codes = _toy()
    a = cal_dirichlet(prob, codes, lambda_=0.01)
    b = cal_dirichlet(prob, codes, **{"lambda": 0.01})
    assert a["lambda"] == b.lambda_ == 0.01
    np.testing.assert_array_equal(a.weight, b.weight)
    assert "lambda" in a.keys()
    with pytest.raises(TypeError):
        cal_dirichlet(prob, codes, lambda_=0.1, **{"lambda": 0.1})
    with pytest.raises(TypeError):
        cal_dirichlet(prob, codes, lam=0.1)


def test_dirichlet_lambda_selection_is_deterministic_and_from_the_grid():
    _, prob, codes = _toy(seed=9)
    fit1 = cal_dirichlet(prob, codes)
    fit2 = cal_dirichlet(prob, codes)
    assert fit1["lambda"] == fit2["lambda"]
    assert fit1["lambda"] in (0.0, 1e-4, 1e-3, 1e-2, 1e-1)
    # A class with a single row: R falls back to lambda = 1e-3 without a search.
    codes_single = codes.copy()
    codes_single[codes_single == 3] = 2
    codes_single[0] = 3
    assert cal_dirichlet(prob, codes_single)["lambda"] == 1e-3


def test_cv_seed_leaves_the_global_stream_alone():
    logits, _, codes = _toy()
    saved = _rng.get_global_state()
    try:
        _rng.set_seed(42)
        before = _rng.get_global_state()
        a = cal_cv(logits, codes, method="temperature", folds=3, seed=7)
        np.testing.assert_array_equal(_rng.get_global_state(), before)
        b = cal_cv(logits, codes, method="temperature", folds=3, seed=7)
        np.testing.assert_array_equal(a.fold_id, b.fold_id)
        # Without a seed the draws come from `rng` (here a private R stream).
        stream = _rng.RRandom(7)
        c = cal_cv(logits, codes, method="temperature", folds=3, rng=stream)
        np.testing.assert_array_equal(a.fold_id, c.fold_id)
        np.testing.assert_array_equal(_rng.get_global_state(), before)
    finally:
        _rng.set_global_state(saved)


def test_cv_folds_are_stratified():
    logits, _, codes = _toy(n=120)
    fit = cal_cv(logits, codes, method="vector", folds=4, seed=1)
    for cls in (1, 2, 3):
        counts = np.bincount(fit.fold_id[codes == cls], minlength=5)[1:]
        assert counts.max() - counts.min() <= 1
    assert not np.isnan(fit.oof_predictions).any()
    np.testing.assert_allclose(fit.oof_predictions.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_sequential_sums_are_the_c_loops():
    """vmmin's and the reference-BLAS products' sums must add in order, bit for bit."""
    import math

    from pycalib_r.calibrators._base import r_rowsums
    from pycalib_r.rstats._optim import seq_colsums

    g = np.random.default_rng(11)
    for shape in [(1, 1), (7, 1), (1, 5), (37, 2), (110, 110), (450, 10, 10)]:
        x = g.standard_normal(shape) * np.exp(g.standard_normal(shape) * 8)
        flat = x.reshape(shape[0], -1)
        want = []
        for col in range(flat.shape[1]):
            s = 0.0
            for v in flat[:, col]:
                s += float(v)
            want.append(s)
        got = seq_colsums(x).reshape(-1)
        assert [math.copysign(1, v) for v in got] == [math.copysign(1, v) for v in want]
        assert got.tolist() == want
        z = np.abs(flat)
        ld = [float(np.cumsum(row, dtype=np.longdouble)[-1]) for row in z]
        assert r_rowsums(z).tolist() == ld

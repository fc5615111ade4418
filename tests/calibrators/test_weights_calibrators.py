# SPDX-License-Identifier: GPL-3.0-or-later
"""``weights=`` on the calibrators (issue 50, item 1): the unweighted bits kept, the
k-copies rule, the refusals, the references (R's weighted ``glm``, scikit-learn's
weighted isotonic regression) and the faces.

Tolerances of the k-copies rule, and why:

- isotonic, histogram: exact (whole-number weights give whole-number sums, the
  same pooling decisions and the same divisions as the copies).
- platt, beta (and ovr/cv/scaling-binning over them): coefficients 1e-5
  relative, predictions 1e-6. R's IRLS starts from ``mustart = (w y + 0.5) /
  (w + 1)``, which differs between one row of weight k and k rows of weight 1,
  so the two fits stop at different iterates of the same optimum within glm's
  ``|dev - devold| / (|dev| + 0.1) < 1e-8`` (measured: up to 1.3e-6 on the
  coefficients, 4e-9 on the predictions).
- temperature: 1e-6 relative. The weighted sum of the log-likelihood terms
  rounds differently from the sum over copies, and Brent's search stops at its
  ``tol`` (1.5e-8 relative).
- vector scaling, Dirichlet (given ``lambda_``): 1e-6. BFGS stops at
  ``reltol`` 1.5e-8 on the objective, whose weighted and copied sums round
  differently.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.calibrators._ovr import fit_calibrator
from pycalib_r.inputs._weights import check_weights
from pycalib_r.rbase._errors import ProbcalError
from tests.conftest import r_assign

pytestmark = pytest.mark.filterwarnings("ignore:glm.fit:RuntimeWarning",
                                        "ignore:non-integer #successes:RuntimeWarning")

TOL_OPTIM = 1e-6
TOL_GLM_COEF = 1e-5


def _bits(a):
    return np.ascontiguousarray(np.asarray(a, dtype=np.float64)).view(np.uint64)


def _same_bits(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(_bits(a), _bits(b))


def _rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-12)))


def _binary(seed, n=240, ties=False):
    rng = np.random.default_rng(seed)
    score = rng.normal(size=n) * 1.5
    p = 1 / (1 + np.exp(-score))
    if ties:
        p = np.round(p, 2)
    y = (rng.random(n) < p).astype(np.int64)
    w = rng.integers(0, 4, size=n).astype(np.float64)  # zeros included
    return score, p, y, w


def _multiclass(seed, n=240, k=3):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k)) * 2
    labels = np.argmax(z + rng.normal(size=(n, k)), axis=1) + 1
    P = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    w = rng.integers(0, 4, size=n).astype(np.float64)
    return z, P, labels, w


def _copies(w):
    return np.repeat(np.arange(w.size), w.astype(np.int64))


# The binary calibrators: (name, function, which input, extra arguments).
BINARY = [
    ("platt", pc.cal_platt, "score", {}),
    ("beta", pc.cal_beta, "p", {}),
    ("temperature", pc.cal_temperature, "score", {}),
    ("isotonic", pc.cal_isotonic, "p", {}),
    ("histogram", pc.cal_histogram, "p", {"bins": 7}),
    ("histogram_eqfreq", pc.cal_histogram, "p", {"bins": 7, "strategy": "equal_freq"}),
    ("scaling_binning", pc.cal_scaling_binning, "p", {"bins": 5}),
]
EXACT = {"isotonic", "histogram", "histogram_eqfreq"}


def _components(fit):
    """The fitted object's numbers (scalars and arrays, nested fits flattened), by name."""
    out = {}

    def walk(prefix, obj):
        if hasattr(obj, "_set_components"):  # an R list: a calibrator, a glm or isoreg fit
            for name in obj.keys():
                walk(f"{prefix}.{name}", obj[name])
        elif isinstance(obj, dict):
            for key, v in obj.items():
                walk(f"{prefix}[{key}]", v)
        elif isinstance(obj, (list, tuple)):
            for i, v in enumerate(obj):
                walk(f"{prefix}[{i}]", v)
        else:
            out[prefix] = obj

    walk("", fit)
    return out


def _assert_same_fit(a, b):
    ca, cb = _components(a), _components(b)
    assert ca.keys() == cb.keys()
    for key in ca:
        va, vb = ca[key], cb[key]
        if isinstance(va, np.ndarray) or isinstance(va, float):
            assert _same_bits(va, vb), key
        else:
            assert va == vb or (va is None and vb is None), key


# ---------------------------------------------------------------------------
# (1) weights=None is today's fit, bit for bit (the same code path)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,fn,which,extra", BINARY, ids=[b[0] for b in BINARY])
def test_none_gives_todays_bits_binary(name, fn, which, extra):
    score, p, y, _ = _binary(1)
    x = score if which == "score" else p
    _assert_same_fit(fn(x, y, **extra), fn(x, y, weights=None, **extra))
    newx = x[:50]
    assert _same_bits(pc.predict(fn(x, y, **extra), newx), pc.predict(fn(x, y, weights=None, **extra), newx))


@pytest.mark.parametrize("name", ["temperature", "vector", "dirichlet", "ovr", "scaling_binning"])
def test_none_gives_todays_bits_multiclass(name):
    z, P, labels, _ = _multiclass(2)
    fn, x, extra = {
        "temperature": (pc.cal_temperature, z, {}),
        "vector": (pc.cal_vector_scaling, z, {}),
        "dirichlet": (pc.cal_dirichlet, P, {}),
        "ovr": (pc.cal_ovr, z, {}),
        "scaling_binning": (pc.cal_scaling_binning, P, {"bins": 5}),
    }[name]
    _assert_same_fit(fn(x, labels, **extra), fn(x, labels, weights=None, **extra))


def test_none_gives_todays_bits_cv():
    score, p, y, _ = _binary(3)
    for method in ("platt", "isotonic", "histogram"):
        x = score if method == "platt" else p
        _assert_same_fit(pc.cal_cv(x, y, method=method, seed=4),
                         pc.cal_cv(x, y, method=method, seed=4, weights=None))
    z, P, labels, _ = _multiclass(5)
    _assert_same_fit(pc.cal_cv(z, labels, method="temperature", seed=4),
                     pc.cal_cv(z, labels, method="temperature", seed=4, weights=None))


def test_unit_weights_take_the_weighted_path_to_the_same_optimum():
    """Weights of 1 are the unweighted data: the same fit (platt bit for bit, as
    glm.fit's arithmetic with unit prior weights is the same)."""
    score, p, y, _ = _binary(6)
    ones = np.ones(y.size)
    a, b = pc.cal_platt(score, y), pc.cal_platt(score, y, weights=ones)
    assert _same_bits(list(a.coefficients.values()), list(b.coefficients.values()))
    assert _same_bits(pc.cal_isotonic(p, y).y_calibrated, pc.cal_isotonic(p, y, weights=ones).y_calibrated)


# ---------------------------------------------------------------------------
# (2) zero weights change nothing; integer weight k is k copies
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [11, 12, 13])
@pytest.mark.parametrize("name,fn,which,extra", BINARY, ids=[b[0] for b in BINARY])
def test_k_copies_binary(name, fn, which, extra, seed):
    score, p, y, w = _binary(seed, ties=name in EXACT)
    x = score if which == "score" else p
    idx = _copies(w)
    fw, fc = fn(x, y, weights=w, **extra), fn(x[idx], y[idx], **extra)
    grid = np.linspace(-4, 4, 81) if which == "score" else np.linspace(0, 1, 101)
    pw, pcp = pc.predict(fw, grid), pc.predict(fc, grid)
    if name in EXACT:
        assert _same_bits(pw, pcp)
        for comp in ("x_thresholds", "y_calibrated", "breaks", "bin_values", "counts"):
            if comp in fw.keys():
                assert _same_bits(fw[comp], fc[comp]), comp
    else:
        assert np.max(np.abs(pw - pcp)) <= TOL_OPTIM
        if name in ("platt", "beta"):
            assert _rel(list(fw.coefficients.values()), list(fc.coefficients.values())) <= TOL_GLM_COEF
        if name == "temperature":
            assert _rel(fw.temperature, fc.temperature) <= TOL_OPTIM
    # zero weights: the rows of weight 0 dropped gives the same fit
    keep = w > 0
    fz = fn(x[keep], y[keep], weights=w[keep], **extra)
    assert _same_bits(pc.predict(fz, grid), pw)


@pytest.mark.parametrize("seed", [21, 22])
def test_k_copies_multiclass(seed):
    z, P, labels, w = _multiclass(seed)
    idx = _copies(w)
    keep = w > 0
    cases = [
        (pc.cal_temperature, z, {}),
        (pc.cal_vector_scaling, z, {}),
        (pc.cal_dirichlet, P, {"lambda_": 0.01}),
        (pc.cal_ovr, z, {}),
        (pc.cal_ovr, P, {"method": "isotonic"}),
        (pc.cal_ovr, P, {"method": "histogram", "bins": 5}),
        (pc.cal_scaling_binning, P, {"bins": 5}),
    ]
    for fn, x, extra in cases:
        fw, fc = fn(x, labels, weights=w, **extra), fn(x[idx], labels[idx], **extra)
        assert np.max(np.abs(pc.predict(fw, x) - pc.predict(fc, x))) <= TOL_OPTIM, fn.__name__
        fz = fn(x[keep], labels[keep], weights=w[keep], **extra)
        assert _same_bits(pc.predict(fz, x), pc.predict(fw, x)), fn.__name__


def test_dirichlet_selection_ignores_zero_weight_rows():
    z, P, labels, w = _multiclass(23)
    keep = w > 0
    a = pc.cal_dirichlet(P, labels, weights=w)
    b = pc.cal_dirichlet(P[keep], labels[keep], weights=w[keep])
    assert a.lambda_ == b.lambda_
    assert _same_bits(a.weight, b.weight)


def test_cal_cv_weights_follow_the_rows_into_the_folds():
    score, p, y, w = _binary(31)
    for method in ("platt", "beta", "isotonic", "histogram", "temperature"):
        x = score if method in ("platt", "temperature") else p
        fit = pc.cal_cv(x, y, method=method, folds=3, seed=7, weights=w)
        plain = pc.cal_cv(x, y, method=method, folds=3, seed=7)
        assert np.array_equal(fit.fold_id, plain.fold_id)  # folds over rows, as before
        for k in range(1, 4):
            train = fit.fold_id != k
            ref = fit_calibrator(method, x[train], y[train], weights=w[train])
            assert _same_bits(fit.oof_predictions[~train], pc.predict(ref, x[~train]))
            assert _same_bits(pc.predict(fit.fold_calibrators[k - 1], x), pc.predict(ref, x))
        final = fit_calibrator(method, x, y, weights=w)
        assert _same_bits(pc.predict(fit, x), pc.predict(final, x))
    z, P, labels, wm = _multiclass(32)
    fit = pc.cal_cv(P, labels, method="dirichlet", folds=3, seed=7, weights=wm, lambda_=0.01)
    for k in range(1, 4):
        train = fit.fold_id != k
        ref = pc.cal_dirichlet(P[train], labels[train], lambda_=0.01, weights=wm[train])
        assert _same_bits(fit.oof_predictions[~train], pc.predict(ref, P[~train]))


# ---------------------------------------------------------------------------
# (3) refusals
# ---------------------------------------------------------------------------

REFUSALS = [
    ([1.0, -1.0, 1.0, 1.0], "must be non-negative"),
    ([1.0, np.nan, 1.0, 1.0], "must not contain missing or infinite values"),
    ([1.0, np.inf, 1.0, 1.0], "must not contain missing or infinite values"),
    ([1.0, 1.0, 1.0], r"must have length 4 \(one weight per observation\), not 3"),
    ([0.0, 0.0, 0.0, 0.0], r"must have a positive sum \(not all zero\)"),
    ([True, False, True, True], "must be a numeric vector"),
    (["a", "b", "c", "d"], "must be a numeric vector"),
    ([1e308, 1e308, 1.0, 1.0], "must have a finite sum"),
]


@pytest.mark.parametrize("weights,message", REFUSALS)
def test_check_weights_refusals(weights, message):
    with pytest.raises(ProbcalError, match="Argument `weights` " + message):
        check_weights(weights, 4)


@pytest.mark.parametrize("name,fn,which,extra", BINARY, ids=[b[0] for b in BINARY])
def test_every_binary_calibrator_refuses(name, fn, which, extra):
    x = np.array([0.1, 0.4, 0.6, 0.9])
    y = np.array([0, 1, 0, 1])
    for weights, message in REFUSALS:
        with pytest.raises(ProbcalError, match="Argument `weights` " + message):
            fn(x, y, weights=weights, **extra)
    with pytest.raises(ProbcalError, match="total weight of 0"):
        fn(x, y, weights=[1.0, 0.0, 1.0, 0.0], **extra)


def test_faces_of_the_core_refuse_alike():
    z, P, labels, _ = _multiclass(41, n=30)
    for fn, x, extra in ((pc.cal_temperature, z, {}), (pc.cal_vector_scaling, z, {}),
                         (pc.cal_dirichlet, P, {}), (pc.cal_ovr, z, {}),
                         (pc.cal_cv, z, {"method": "temperature"}),
                         (pc.cal_scaling_binning, P, {})):
        with pytest.raises(ProbcalError, match="must be non-negative"):
            fn(x, labels, weights=-np.ones(30), **extra)


def test_check_weights_copies_and_does_not_mutate():
    w = np.array([1.0, 2.0, 0.0])
    out = check_weights(w, 3)
    out[0] = 99
    assert w[0] == 1.0
    assert check_weights(None, 3) is None
    assert check_weights(np.array([[1.0], [2.0]]), 2).shape == (2,)


# ---------------------------------------------------------------------------
# (4) references: R's weighted glm, scikit-learn's weighted isotonic regression
# ---------------------------------------------------------------------------


def _r_coef(r, expr):
    return np.array(r.r(expr), dtype=float)


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", [51, 52, 53])
@pytest.mark.parametrize("kind", ["integer", "real"])
def test_weighted_platt_equals_r_glm(r, seed, kind):
    score, _, y, w = _binary(seed)
    if kind == "real":
        w = np.random.default_rng(seed).random(y.size) * 3
        w[::7] = 0.0
    fit = pc.cal_platt(score, y, weights=w)
    y_adj = np.where(y == 1, fit.target_pos, fit.target_neg)
    r_assign(r, x=score, y_adj=y_adj, w=w)
    r.r("g <- suppressWarnings(glm(y_adj ~ x, family = binomial(), weights = w))")
    # Bit for bit: glm.fit's arithmetic with prior weights is repeated.
    assert _same_bits(list(fit.coefficients.values()), _r_coef(r, "unname(coef(g))"))
    assert fit.fit.iter == int(r.r("g$iter")[0])
    assert _same_bits(fit.fit.deviance, r.r("g$deviance")[0])
    assert fit.fit.df_residual == int(r.r("g$df.residual")[0])
    assert _rel(fit.fit.null_deviance, r.r("g$null.deviance")[0]) <= 1e-12
    assert _rel(fit.fit.aic, r.r("g$aic")[0]) <= 1e-12
    # R's weighted counts in Platt's targets
    r.r(f"npos <- sum(w[c({', '.join(map(str, y.tolist()))}) == 1])")
    assert fit.target_pos == r.r("(npos + 1) / (npos + 2)")[0]


@pytest.mark.r_parity
@pytest.mark.parametrize("seed", [61, 62, 63])
@pytest.mark.parametrize("kind", ["integer", "real"])
def test_weighted_beta_equals_r_glm(r, seed, kind):
    _, p, y, w = _binary(seed)
    if kind == "real":
        w = np.random.default_rng(seed).random(y.size) * 3
        w[::5] = 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = pc.cal_beta(p, y, weights=w)
    r_assign(r, p=p, y=y.astype(float), w=w)
    msgs = list(r.r("""
        msgs <- character()
        pc <- pmin(pmax(p, 1e-15), 1 - 1e-15)
        log_p <- log(pc); log_1mp <- log1p(-pc)
        g <- withCallingHandlers(glm(y ~ log_p + log_1mp, family = binomial(), weights = w),
          warning = function(m) { msgs <<- c(msgs, conditionMessage(m)); invokeRestart("muffleWarning") })
        msgs"""))
    assert _same_bits(list(fit.coefficients.values()), _r_coef(r, "unname(coef(g))"))
    assert _same_bits(fit.fit.deviance, r.r("g$deviance")[0])
    assert [str(m.message) for m in caught] == msgs  # R's warnings, e.g. non-integer #successes


def test_weighted_isotonic_equals_sklearn():
    from sklearn.isotonic import IsotonicRegression

    worst = 0.0
    rng = np.random.default_rng(71)
    grid = np.linspace(0, 1, 501)
    for _ in range(20):
        n = int(rng.integers(20, 400))
        p = np.round(rng.random(n), int(rng.integers(1, 4)))  # ties
        y = (rng.random(n) < p).astype(np.int64)
        if y.min() == y.max():
            continue
        for w in (rng.integers(0, 5, size=n).astype(float), rng.random(n) * 3):
            if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
                continue
            ours = pc.predict(pc.cal_isotonic(p, y, weights=w), grid)
            ref = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(
                p, y, sample_weight=w).predict(grid)
            worst = max(worst, float(np.max(np.abs(ours - ref))))
    assert worst <= 1e-12, worst


def test_r_has_no_weighted_pav(r):
    """Base R's isoreg() takes no weights (the reference is scikit-learn's)."""
    assert "w" not in list(r.r("names(formals(stats::isoreg))"))


# ---------------------------------------------------------------------------
# (5) faces: sklearn (in tests/sklearn/test_sklearn_calibration_port.py too), Dask, CLI
# ---------------------------------------------------------------------------


def test_probcal_calibrator_sample_weight_is_the_core_weights():
    from pycalib_r.sklearn import ProbcalCalibrator

    score, p, y, w = _binary(81)
    for method, x in (("platt", score), ("beta", p), ("isotonic", p), ("histogram", p)):
        est = ProbcalCalibrator(method=method).fit(x, y, sample_weight=w)
        core = fit_calibrator(method, x, y, weights=w)
        assert _same_bits(est.predict_proba(x)[:, 1], pc.predict(core, x))
    with pytest.raises(ValueError, match="must be non-negative"):
        ProbcalCalibrator().fit(score, y, sample_weight=-w)


def test_calibrated_classifier_weights_a_classifier_without_sample_weight():
    from sklearn.datasets import make_classification
    from sklearn.neighbors import KNeighborsClassifier

    from pycalib_r.sklearn import CalibratedClassifier, ProbcalCalibrator

    X, y = make_classification(n_samples=300, n_features=5, random_state=0)
    w = np.random.default_rng(0).integers(0, 4, size=y.size).astype(float)
    with pytest.warns(UserWarning, match="only be used for the calibration itself"):
        cal = CalibratedClassifier(KNeighborsClassifier(), method="isotonic", cv=3).fit(
            X, y, sample_weight=w)
    from sklearn.model_selection import StratifiedKFold
    for pair, (train, test) in zip(cal.calibrated_classifiers_, StratifiedKFold(3).split(X, y)):
        knn = KNeighborsClassifier().fit(X[train], y[train])
        # (the binary isotonic calibrator takes the positive class's probability)
        ref = ProbcalCalibrator(method="isotonic").fit(knn.predict_proba(X[test])[:, 1], y[test],
                                                       sample_weight=w[test])
        grid = knn.predict_proba(X)[:, 1]
        assert _same_bits(pair.calibrator.predict_proba(grid), ref.predict_proba(grid))
    plain = CalibratedClassifier(KNeighborsClassifier(), method="isotonic", cv=3).fit(X, y)
    assert not np.allclose(plain.predict_proba(X), cal.predict_proba(X))


def _cli(*args):
    import subprocess
    import sys

    from tests.conftest import ORIGINAL_ENV

    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, text=True, check=False, env=ORIGINAL_ENV)


@pytest.mark.parametrize("method,options,fn", [
    ("platt", [], lambda x, y, w: pc.cal_platt(x, y, weights=w)),
    ("isotonic", [], lambda x, y, w: pc.cal_isotonic(x, y, weights=w)),
    ("histogram", ["--bins", "6", "--strategy", "equal_freq"],
     lambda x, y, w: pc.cal_histogram(x, y, bins=6, strategy="equal_freq", weights=w)),
    ("cv", ["--cv-method", "beta", "--folds", "3", "--seed", "2"],
     lambda x, y, w: pc.cal_cv(x, y, method="beta", folds=3, seed=2, weights=w)),
])
def test_cli_weights_equal_python(tmp_path, method, options, fn):
    import pandas as pd

    _, p, y, w = _binary(91, n=150)
    fit_csv, new_csv, out_csv = tmp_path / "fit.csv", tmp_path / "new.csv", tmp_path / "out.csv"
    pd.DataFrame({"score": p, "label": y, "wt": w}).to_csv(fit_csv, index=False, float_format="%.17g")
    new = np.linspace(0, 1, 41)
    pd.DataFrame({"score": new}).to_csv(new_csv, index=False, float_format="%.17g")
    out = _cli("calibrate", "--method", method, "--fit", fit_csv, "--apply", new_csv, "-o", out_csv,
               "--p", "score", "--y", "label", "--weights", "wt", *options)
    assert out.returncode == 0, out.stderr
    fit = fn(p, y, w)
    assert out.stdout == str(fit) + "\n"
    assert _same_bits(pd.read_csv(out_csv)["cal_score"].to_numpy(), pc.predict(fit, new))


def test_cli_weights_refusals(tmp_path):
    import pandas as pd

    _, p, y, w = _binary(92, n=40)
    fit_csv, new_csv = tmp_path / "fit.csv", tmp_path / "new.csv"
    pd.DataFrame({"score": p, "label": y, "wt": -w}).to_csv(fit_csv, index=False)
    pd.DataFrame({"score": p}).to_csv(new_csv, index=False)
    out = _cli("calibrate", "--method", "platt", "--fit", fit_csv, "--apply", new_csv, "-o",
               tmp_path / "o.csv", "--p", "score", "--y", "label", "--weights", "wt")
    assert out.returncode != 0 and "weights" in out.stderr and "negative" in out.stderr
    out = _cli("calibrate", "--method", "platt", "--fit", fit_csv, "--apply", new_csv, "-o",
               tmp_path / "o.csv", "--p", "score", "--y", "label", "--weights", "nope")
    assert out.returncode != 0 and "'nope'" in out.stderr


def test_same_as_r_refuses_weights_as_python_only():
    from pycalib_r.rcheck import NotExpressibleInR, same_as_r

    score, p, y, w = _binary(93, n=40)
    for fn, x in ((pc.cal_platt, score), (pc.cal_isotonic, p), (pc.cal_cv, p)):
        with pytest.raises(NotExpressibleInR, match=r"\(weights=\) is Python-only"):
            same_as_r(fn, x, y, weights=w)


def test_weighted_pav_kernel_equals_its_twin():
    """src/weighted.c's loop against calibrators/_weighted.py's Python loop, bit for bit
    (whole-number and real weights, ties of means, one point)."""
    from pycalib_r import _native
    from pycalib_r.calibrators._weighted import weighted_pav

    kern = _native.kernels("weighted")
    if kern is None:
        pytest.skip("the compiled kernels do not run here (PYCALIB_R_NATIVE=0 or no build)")
    rng = np.random.default_rng(101)
    for t in range(300):
        n = int(rng.integers(1, 400))
        c = rng.random(n) * 3 + 1e-3
        s = c * (rng.random(n) < 0.5) if t % 2 else np.round(rng.random(n) * c)
        if t % 3 == 0:
            c, s = np.round(c) + 1, np.round(s)
        for a, b in zip(weighted_pav(s, c), kern.weighted_pav(s, c)):
            assert _same_bits(a, b) if a.dtype.kind == "f" else np.array_equal(a, b)


def test_weighted_isotonic_same_bits_with_and_without_the_kernel():
    from tests.conftest import both_ways_of_the_native_switch

    code = ("import numpy as np, pycalib_r as pc\n"
            "g = np.random.default_rng(5); n = 5000\n"
            "p = np.round(g.random(n), 3); y = (g.random(n) < p).astype(int); w = g.random(n) * 2\n"
            "f = pc.cal_isotonic(p, y, weights=w)\n"
            "print(pc.show_config(mode='dicts')['native'], *f.y_calibrated.view(np.uint64).tolist())\n")
    out = both_ways_of_the_native_switch(code)
    assert out["0"][0] == "False"
    assert out["0"][1:] == out[None][1:] and len(out["0"]) > 100


@pytest.mark.parametrize("kind", ["array", "frame"])
@pytest.mark.parametrize("weight_kind", ["integer", "real"])
def test_dask_weights_equal_in_memory(kind, weight_kind):
    """pycalib_r.dask's calibrators with a weights column against the in-memory fit.

    Tolerances: Platt and beta 1e-12 relative (the Dask IRLS solves the normal
    equations X'WX b = X'Wz, the in-memory one LINPACK's QR, as without weights;
    measured 5e-14), the same iteration count and df; temperature 1e-12 (chunk
    sums in long double); histogram bin rates bit for bit with integer weights
    (exact sums), 1e-13 with real ones (chunked sums of the bin weights)."""
    da = pytest.importorskip("dask.array")
    dd = pytest.importorskip("dask.dataframe")
    import pandas as pd

    import pycalib_r.dask as pcd

    score, p, y, w = _binary(95, n=500)
    if weight_kind == "real":
        w = np.random.default_rng(95).random(500) * 2
        w[::9] = 0.0
    if kind == "array":
        X, P, Y, W = (da.from_array(v, chunks=130) for v in (score, p, y, w))
    else:
        df = dd.from_pandas(pd.DataFrame({"x": score, "p": p, "y": y, "w": w}), npartitions=4)
        X, P, Y, W = df["x"], df["p"], df["y"], df["w"]
    a, b = pcd.cal_platt(X, Y, weights=W), pc.cal_platt(score, y, weights=w)
    assert _rel(list(a.coefficients.values()), list(b.coefficients.values())) <= 1e-12
    assert a.fit.iter == b.fit.iter and a.fit.df_residual == b.fit.df_residual and a.call == b.call
    assert _rel(a.fit.aic, b.fit.aic) <= 1e-12
    a, b = pcd.cal_beta(P, Y, weights=W), pc.cal_beta(p, y, weights=w)
    assert _rel(list(a.coefficients.values()), list(b.coefficients.values())) <= 1e-12
    a, b = pcd.cal_temperature(X, Y, weights=W), pc.cal_temperature(score, y, weights=w)
    assert _rel(a.temperature, b.temperature) <= 1e-12
    a, b = pcd.cal_histogram(P, Y, bins=7, weights=W), pc.cal_histogram(p, y, bins=7, weights=w)
    if weight_kind == "integer":
        assert _same_bits(a.bin_values, b.bin_values) and _same_bits(a.counts, b.counts)
    else:
        assert np.max(np.abs(a.bin_values - b.bin_values)) <= 1e-13
    assert a.global_rate == b.global_rate and str(a) == str(b)


def test_dask_weights_refusals():
    da = pytest.importorskip("dask.array")

    import pycalib_r.dask as pcd
    from pycalib_r.dask import DaskRefusal

    score, p, y, w = _binary(96, n=100)
    X, Y = da.from_array(score, chunks=30), da.from_array(y, chunks=30)
    for bad, message in ((-w, "must be non-negative"),
                         (np.where(w == 1, np.nan, w), "must not contain missing or infinite values"),
                         (np.zeros(100), r"must have a positive sum \(not all zero\)"),
                         (np.where(y == 1, 0.0, 1.0), "total weight of 0")):
        with pytest.raises(ProbcalError, match=message):
            pcd.cal_platt(X, Y, weights=da.from_array(bad, chunks=30))
    with pytest.raises(ProbcalError, match=r"must have length 100 \(one weight per observation\), not 99"):
        pcd.cal_platt(X, Y, weights=da.from_array(w[:99], chunks=30))
    with pytest.raises(TypeError, match="must be a Dask collection"):
        pcd.cal_platt(X, Y, weights=w)
    with pytest.raises(DaskRefusal, match="equal_freq"):
        pcd.cal_histogram(da.from_array(p, chunks=30), Y, strategy="equal_freq",
                          weights=da.from_array(w, chunks=30))

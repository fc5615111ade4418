"""pycalib_r.sklearn: probcal's calibrators and metrics in scikit-learn's conventions.

The wrapper's numbers are compared with the R-faithful functions (which the
fixture and live R tests check against R) with exact equality; agreement
with scikit-learn's CalibratedClassifierCV is measured on the breast cancer
and digits data that ship with scikit-learn.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.calibration import CalibratedClassifierCV  # noqa: E402
from sklearn.datasets import load_breast_cancer, load_digits  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.exceptions import NotFittedError  # noqa: E402
from sklearn.isotonic import IsotonicRegression  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import make_scorer  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GridSearchCV,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import Pipeline, make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

import pycalib_r as pc  # noqa: E402
from pycalib_r.sklearn import (  # noqa: E402
    CalibratedClassifier,
    ProbcalCalibrator,
    average_calibration_error,
    expected_calibration_error,
    expected_failed_checks,
    logits_from_proba,
    maximum_calibration_error,
    maximum_mean_calibration_error,
    squared_kernel_calibration_error,
)

from tests.conftest import ORIGINAL_ENV, REPO  # noqa: E402


def test_import_pycalib_r_does_not_import_sklearn():
    code = "import sys, pycalib_r; print('sklearn' in sys.modules)"
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# Data: out-of-fold predictions of real classifiers
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def binary_preds():
    X, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(5)
    P = cross_val_predict(GaussianNB(), X, y, cv=cv, method="predict_proba")
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    z = cross_val_predict(lr, X, y, cv=cv, method="decision_function")
    return P, z, y


@pytest.fixture(scope="module")
def multi_preds():
    X, y = load_digits(return_X_y=True)
    keep = y < 4  # four classes keep the BFGS fits quick
    X, y = X[keep], y[keep]
    cv = StratifiedKFold(5)
    lr = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    P = cross_val_predict(lr, X, y, cv=cv, method="predict_proba")
    Z = cross_val_predict(lr, X, y, cv=cv, method="decision_function")
    return P, Z, y


def _same(a, b):
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


# ---------------------------------------------------------------------------
# ProbcalCalibrator equals the R-faithful functions exactly
# ---------------------------------------------------------------------------

BINARY_CASES = [
    ("platt", {}, "z", lambda x, y: pc.cal_platt(x, y)),
    ("temperature", {}, "z", lambda x, y: pc.cal_temperature(x, y)),
    ("beta", {"eps": 1e-10}, "p", lambda x, y: pc.cal_beta(x, y, eps=1e-10)),
    ("isotonic", {}, "p", lambda x, y: pc.cal_isotonic(x, y)),
    ("histogram", {"bins": 7, "strategy": "equal_freq"}, "p",
     lambda x, y: pc.cal_histogram(x, y, bins=7, strategy="equal_freq")),
    ("cv", {"calibration_method": "beta", "folds": 4, "seed": 3}, "p",
     lambda x, y: pc.cal_cv(x, y, method="beta", folds=4, seed=3)),
]


@pytest.mark.parametrize("method, args, form, direct", BINARY_CASES, ids=[c[0] for c in BINARY_CASES])
def test_binary_methods_equal_the_functions(binary_preds, method, args, form, direct):
    P, z, y = binary_preds
    x = P[:, 1] if form == "p" else z
    names = np.where(y == 1, "benign", "malignant")  # classes_ sorted: benign, malignant
    y01 = (names == "malignant").astype(int)
    cal = ProbcalCalibrator(method=method, **args).fit(x, names)
    assert cal.classes_.tolist() == ["benign", "malignant"]
    ref = direct(x, y01)
    assert _same(cal.predict_proba(x)[:, 1], ref.predict(x))
    assert _same(cal.predict_proba(x)[:, 0], 1 - ref.predict(x))
    assert cal.calibrator_.keys() == ref.keys()
    expected = np.where(cal.predict_proba(x)[:, 1] > cal.predict_proba(x)[:, 0], "malignant", "benign")
    assert (cal.predict(x) == expected).all()


def test_binary_two_column_proba_uses_the_positive_column(binary_preds):
    P, _, y = binary_preds
    yb = y.astype(bool)
    for method in ("beta", "isotonic", "histogram"):
        a = ProbcalCalibrator(method=method).fit(P, yb)
        b = ProbcalCalibrator(method=method).fit(P[:, 1], yb)
        assert a.classes_.tolist() == [False, True]
        assert _same(a.predict_proba(P), b.predict_proba(P[:, 1]))


MATRIX_CASES = [
    ("temperature", {}, "Z", lambda x, c: pc.cal_temperature(x, c)),
    ("vector_scaling", {}, "Z", lambda x, c: pc.cal_vector_scaling(x, c)),
    ("dirichlet", {"lambda_": 1e-3}, "P", lambda x, c: pc.cal_dirichlet(x, c, lambda_=1e-3)),
    ("ovr", {"base_method": "isotonic"}, "P", lambda x, c: pc.cal_ovr(x, c, method="isotonic")),
    ("platt", {}, "Z", lambda x, c: pc.cal_ovr(x, c, method="platt")),
    ("histogram", {"bins": 5}, "P", lambda x, c: pc.cal_ovr(x, c, method="histogram", bins=5)),
    ("cv", {"calibration_method": "vector", "folds": 3, "seed": 1}, "Z",
     lambda x, c: pc.cal_cv(x, c, method="vector", folds=3, seed=1)),
    ("cv", {"calibration_method": "isotonic", "folds": 3, "seed": 1}, "P",
     lambda x, c: pc.cal_cv(x, c, method="ovr", base_method="isotonic", folds=3, seed=1)),
]


@pytest.mark.parametrize("method, args, form, direct", MATRIX_CASES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(MATRIX_CASES)])
def test_multiclass_methods_equal_the_functions(multi_preds, method, args, form, direct):
    P, Z, y = multi_preds
    x = P if form == "P" else Z
    cal = ProbcalCalibrator(method=method, **args).fit(x, y)  # 0-based labels
    assert cal.classes_.tolist() == [0, 1, 2, 3]
    ref = direct(x, y + 1)  # R's codes 1..K
    assert _same(cal.predict_proba(x), ref.predict(x))
    assert (cal.predict(x) == np.argmax(ref.predict(x), axis=1)).all()


def test_binary_matrix_methods_take_both_columns(binary_preds):
    P, z, y = binary_preds
    cal = ProbcalCalibrator(method="dirichlet", lambda_=0.0).fit(P, y)
    assert _same(cal.predict_proba(P), pc.cal_dirichlet(P, y + 1, lambda_=0.0).predict(P))
    Z = np.column_stack([-z / 2, z / 2])
    cal = ProbcalCalibrator(method="vector").fit(Z, y)
    assert _same(cal.predict_proba(Z), pc.cal_vector_scaling(Z, y + 1).predict(Z))


# ---------------------------------------------------------------------------
# scikit-learn conventions
# ---------------------------------------------------------------------------


def test_params_clone_and_set_params():
    cal = ProbcalCalibrator(method="histogram", bins=5)
    assert cal.get_params() == {"method": "histogram", "bins": 5}
    twin = clone(cal)
    assert twin.get_params() == cal.get_params() and twin is not cal
    twin.set_params(bins=8, strategy="equal_freq")
    assert twin.bins == 8 and cal.bins == 5
    assert repr(twin) == "ProbcalCalibrator(bins=8, method='histogram', strategy='equal_freq')"


def test_pipeline_gridsearch_cross_val_score():
    X, y = load_breast_cancer(return_X_y=True)
    pipe = Pipeline([("scale", StandardScaler()),
                     ("clf", CalibratedClassifier(LogisticRegression(max_iter=2000), method="histogram",
                                                  cv=3, method_args={"bins": 10}))])
    scorer = make_scorer(expected_calibration_error, greater_is_better=False,
                         response_method="predict_proba")
    grid = GridSearchCV(pipe, [{"clf__method": ["platt"], "clf__method_args": [None]},
                               {"clf__method": ["beta"], "clf__method_args": [None, {"eps": 1e-6}]}],
                        cv=StratifiedKFold(3), scoring=scorer, error_score="raise")
    grid.fit(X, y)
    assert grid.best_params_["clf__method"] in ("platt", "beta")
    scores = cross_val_score(pipe, X, y, cv=StratifiedKFold(3), scoring=scorer)
    assert scores.shape == (3,) and np.all(scores <= 0)
    # the scorer's value is the metric on predict_proba's positive column
    folds = list(StratifiedKFold(3).split(X, y))
    train, test = folds[0]
    fitted = clone(pipe).fit(X[train], y[train])
    manual = pc.ece(fitted.predict_proba(X[test])[:, 1], y[test])
    assert scores[0] == -manual


def test_gridsearch_over_method_args_of_probcal_calibrator(binary_preds):
    P, _, y = binary_preds
    grid = GridSearchCV(ProbcalCalibrator(method="histogram"), {"bins": [5, 10, 20]},
                        cv=StratifiedKFold(3), scoring="neg_log_loss")
    grid.fit(P[:, 1], y)
    assert grid.best_params_["bins"] in (5, 10, 20)
    assert grid.best_estimator_.calibrator_.bins == grid.best_params_["bins"]


# The checks that cannot apply, with their reasons, are the package's own
# (pycalib_r.sklearn.expected_failed_checks), so users can run check_estimator too.
PROBCAL_CALIBRATOR_XFAIL = expected_failed_checks(ProbcalCalibrator())
CALIBRATED_CLASSIFIER_XFAIL = expected_failed_checks(CalibratedClassifier())


def _run_checks(estimator, expected):
    results = check_estimator(estimator, expected_failed_checks=expected, on_fail=None)
    status = {}
    for r in results:
        status.setdefault(r["check_name"], set()).add(r["status"])
    bad = {k: v for k, v in status.items() if v - {"passed", "skipped", "xfail"}}
    assert not bad, bad
    # every listed exception really fails (the list is not stale)
    assert all(status.get(name) == {"xfail"} for name in expected), status
    return status


@pytest.mark.filterwarnings("ignore")
def test_check_estimator_probcal_calibrator():
    status = _run_checks(ProbcalCalibrator(), PROBCAL_CALIBRATOR_XFAIL)
    assert sum(v == {"passed"} for v in status.values()) >= 30


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("estimator", [CalibratedClassifier(),
                                       CalibratedClassifier(GaussianNB(), method="isotonic",
                                                            ensemble=False)],
                         ids=["default", "gnb-isotonic"])
def test_check_estimator_calibrated_classifier(estimator):
    _run_checks(estimator, CALIBRATED_CLASSIFIER_XFAIL)


# ---------------------------------------------------------------------------
# Agreement with CalibratedClassifierCV
# ---------------------------------------------------------------------------


def _datasets():
    out = []
    for name, loader in (("breast_cancer", load_breast_cancer), ("digits", load_digits)):
        X, y = loader(return_X_y=True)
        out.append((name,) + tuple(train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)))
    return out


DATA = _datasets()


@pytest.mark.parametrize("data", DATA, ids=[d[0] for d in DATA])
def test_isotonic_equals_sklearn(data):
    # RandomForest has no decision_function, so both sides calibrate predict_proba.
    _, Xtr, Xte, ytr, yte = data
    est = RandomForestClassifier(30, random_state=0)
    cv = StratifiedKFold(5)
    ours = CalibratedClassifier(est, method="isotonic", cv=cv, ensemble=False).fit(Xtr, ytr)
    theirs = CalibratedClassifierCV(est, method="isotonic", cv=cv, ensemble=False).fit(Xtr, ytr)
    assert np.max(np.abs(ours.predict_proba(Xte) - theirs.predict_proba(Xte))) < 1e-12
    assert (ours.classes_ == theirs.classes_).all()


def _sklearn_pool(x):
    """sklearn's _make_unique grouping: a value within float resolution (1e-15) of its group's
    first value joins that group."""
    order = np.sort(np.unique(x))
    rep = {}
    current = None
    for v in order:
        if current is None or v - current >= np.finfo(float).resolution:
            current = v
        rep[v] = current
    return np.array([rep[v] for v in x])


def test_isotonic_differs_from_sklearn_only_by_its_tie_resolution(binary_preds):
    # GaussianNB puts many probabilities within 1e-15 of 0; sklearn's
    # IsotonicRegression pools those as ties, R's isoreg/probcal do not.
    P, _, y = binary_preds
    p = P[:, 1]
    grid = np.unique(p)
    ir = IsotonicRegression(out_of_bounds="clip").fit(p, y)
    plain = pc.cal_isotonic(p, y).predict(grid)
    assert np.max(np.abs(plain - ir.predict(grid))) > 1e-3  # they differ ...
    pooled = _sklearn_pool(p)
    again = pc.cal_isotonic(pooled, y).predict(_sklearn_pool(grid))
    assert np.max(np.abs(again - ir.predict(_sklearn_pool(grid)))) < 1e-12  # ... by exactly this


@pytest.mark.parametrize("ensemble", [False, True])
@pytest.mark.parametrize("data", DATA, ids=[d[0] for d in DATA])
def test_platt_agrees_with_sklearn_sigmoid(data, ensemble):
    # Same definition (Platt's targets, logistic model on decision_function);
    # sklearn stops its L-BFGS-B at gtol=1e-6, probcal runs R's IRLS to
    # convergence, so the probabilities agree to a few 1e-8.
    _, Xtr, Xte, ytr, yte = data
    est = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    cv = StratifiedKFold(5)
    ours = CalibratedClassifier(est, method="platt", cv=cv, ensemble=ensemble).fit(Xtr, ytr)
    theirs = CalibratedClassifierCV(est, method="sigmoid", cv=cv, ensemble=ensemble).fit(Xtr, ytr)
    assert np.max(np.abs(ours.predict_proba(Xte) - theirs.predict_proba(Xte))) < 1e-7


def _sigmoid_loss(AB, F, T):
    eta = -(AB[0] * F + AB[1])
    return float(np.sum(np.logaddexp(0, eta) - T * eta))


def test_platt_is_the_optimum_of_sklearns_sigmoid_objective(binary_preds):
    from sklearn.calibration import _sigmoid_calibration

    _, z, y = binary_preds
    fit = pc.cal_platt(z, y)
    a, b = fit.coefficients["(Intercept)"], fit.coefficients["x"]
    A, B = _sigmoid_calibration(z, y)
    # sklearn's P = 1 / (1 + exp(A f + B)) is probcal's inv_logit(a + b f) with A = -b, B = -a
    assert A == pytest.approx(-b, rel=1e-5, abs=1e-8) and B == pytest.approx(-a, rel=1e-5, abs=1e-8)
    n1, n0 = int(y.sum()), int((1 - y).sum())
    T = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2))
    assert T[y == 1][0] == fit.target_pos and T[y == 0][0] == fit.target_neg
    ours, theirs = _sigmoid_loss([-b, -a], z, T), _sigmoid_loss([A, B], z, T)
    assert ours <= theirs + 1e-12 * abs(theirs)


# ---------------------------------------------------------------------------
# CalibratedClassifier: what the calibrator sees
# ---------------------------------------------------------------------------


def test_logits_from_proba_clip_decides_gaussiannb_temperature():
    X, y = load_digits(return_X_y=True)
    P = cross_val_predict(GaussianNB(), X, y, cv=StratifiedKFold(5), method="predict_proba")
    assert _same(logits_from_proba(P, eps=1e-12), np.log(np.maximum(P, 1e-12)))
    temps = {}
    for eps in (1e-300, 1e-12):
        clf = CalibratedClassifier(GaussianNB(), method="temperature", ensemble=False,
                                   logit_eps=eps).fit(X, y)
        temps[eps] = clf.calibrated_classifiers_[0].calibrator.calibrator_.temperature
        assert temps[eps] == pc.cal_temperature(logits_from_proba(P, eps=eps), y + 1).temperature
    assert temps[1e-300] > 40 and temps[1e-12] < 7


def test_prefit_uses_the_given_estimator(binary_preds):
    X, y = load_breast_cancer(return_X_y=True)
    Xa, Xb, ya, yb = train_test_split(X, y, test_size=0.5, random_state=1, stratify=y)
    nb = GaussianNB().fit(Xa, ya)
    clf = CalibratedClassifier(nb, method="beta", cv="prefit").fit(Xb, yb)
    ref = pc.cal_beta(nb.predict_proba(Xb)[:, 1], yb)
    assert _same(clf.predict_proba(Xa)[:, 1], ref.predict(nb.predict_proba(Xa)[:, 1]))


def test_ensemble_averages_fold_pairs():
    X, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(3)
    clf = CalibratedClassifier(GaussianNB(), method="histogram", cv=cv).fit(X, y)
    assert len(clf.calibrated_classifiers_) == 3
    by_hand = np.zeros(X.shape[0])
    for train, test in cv.split(X, y):
        nb = GaussianNB().fit(X[train], y[train])
        cal = pc.cal_histogram(nb.predict_proba(X[test])[:, 1], y[test])
        by_hand += cal.predict(nb.predict_proba(X)[:, 1])
    assert np.allclose(clf.predict_proba(X)[:, 1], by_hand / 3, rtol=0, atol=1e-15)


# ---------------------------------------------------------------------------
# Metrics in scikit-learn's conventions
# ---------------------------------------------------------------------------


def test_binary_metrics_equal_the_functions(binary_preds):
    P, _, y = binary_preds
    p = P[:, 1]
    names = np.where(y == 1, "yes", "no")
    assert expected_calibration_error(y, p) == pc.ece(p, y)
    assert expected_calibration_error(names, P, n_bins=7, strategy="quantile") == \
        pc.ece(p, y, bins=7, strategy="equal_freq")
    assert expected_calibration_error(names, P[:, 0], pos_label="no", debiased=True) == \
        pc.ece(P[:, 0], 1 - y, debiased=True)
    assert maximum_calibration_error(names, P) == pc.mce(p, y)
    assert average_calibration_error(y.astype(bool), p, n_bins=5) == pc.ace(p, y, bins=5)
    assert maximum_mean_calibration_error(2 * y - 1, p, bandwidth=0.3) == pc.mmce(p, y, bandwidth=0.3)
    assert squared_kernel_calibration_error(names, P, estimator="biased") == \
        pc.skce(p, y, estimator="biased")


def test_multiclass_metrics_equal_the_functions(multi_preds):
    P, _, y = multi_preds
    c = y + 1
    assert expected_calibration_error(y, P) == pc.ece(P, c)
    assert expected_calibration_error(y, P, type="confidence") == pc.ece(P, c, type="confidence")
    assert maximum_calibration_error(y, P) == pc.mce(P, c)
    assert average_calibration_error(y, P) == pc.ace(P, c)
    assert maximum_mean_calibration_error(y, P) == pc.mmce(P, c)
    letters = np.array(list("abcd"))[y]
    assert squared_kernel_calibration_error(letters, P) == pc.skce(P, c)
    # a subset without class "d" needs labels= to name the columns; R's
    # equivalent is a factor with all four levels (integer codes 1..3 would
    # make R count three classes and stop)
    import pandas as pd
    sub = y < 3
    factor = pd.Categorical(letters[sub], categories=list("abcd"))
    assert expected_calibration_error(letters[sub], P[sub], labels=list("abcd")) == \
        pc.ece(P[sub], factor)
    with pytest.raises(ValueError, match="3 classes but the input has 4 columns"):
        pc.ece(P[sub], c[sub])


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


def test_not_fitted():
    with pytest.raises(NotFittedError):
        ProbcalCalibrator().predict_proba([0.2, 0.4])
    with pytest.raises(NotFittedError):
        CalibratedClassifier().predict(np.ones((2, 3)))
    with pytest.raises(NotFittedError, match="prefit"):
        CalibratedClassifier(GaussianNB(), cv="prefit").fit(np.eye(4), [0, 1, 0, 1])


def test_width_mismatch(binary_preds, multi_preds):
    P, _, y = multi_preds
    cal = ProbcalCalibrator(method="dirichlet", lambda_=0.0).fit(P, y)
    with pytest.raises(ValueError, match="X has 3 features, but ProbcalCalibrator is expecting 4"):
        cal.predict_proba(P[:, :3])
    with pytest.raises(ValueError, match=r"one column per class \(4\)"):
        ProbcalCalibrator(method="dirichlet").fit(P[:, :3], y)
    X, yb = load_breast_cancer(return_X_y=True)
    clf = CalibratedClassifier(GaussianNB(), cv=3).fit(X, yb)
    # As CalibratedClassifierCV: the fitted classifier's own check refuses it.
    assert clf.n_features_in_ == 30
    with pytest.raises(ValueError, match="X has 29 features, but GaussianNB is expecting 30"):
        clf.predict_proba(X[:, 1:])


def test_logit_methods_refuse_probabilities(multi_preds):
    P, Z, y = multi_preds
    for method in ("temperature", "vector_scaling"):
        with pytest.raises(ValueError, match="needs logits.*logits_from_proba"):
            ProbcalCalibrator(method=method).fit(P, y)
    with pytest.raises(ValueError, match="needs logits"):
        ProbcalCalibrator(method="cv", calibration_method="temperature").fit(P, y)
    ProbcalCalibrator(method="temperature").fit(logits_from_proba(P), y)  # the remedy works


def test_unseen_labels():
    nb = GaussianNB().fit(np.eye(4), [0, 1, 0, 1])
    with pytest.raises(ValueError, match=r"unseen: \[2\]"):
        CalibratedClassifier(nb, cv="prefit").fit(np.eye(6, 4), [0, 1, 2, 0, 1, 2])
    with pytest.raises(ValueError, match=r"not seen at fit time: \['e'\]"):
        expected_calibration_error(["a", "e"], [[0.5, 0.5], [0.2, 0.8]], labels=["a", "b"])
    with pytest.raises(ValueError, match="pos_label"):
        expected_calibration_error(["a", "b"], [0.3, 0.6])


def test_bad_method_and_arguments(binary_preds):
    P, _, y = binary_preds
    with pytest.raises(ValueError, match="`method` must be one of"):
        ProbcalCalibrator(method="sigmoid").fit(P, y)
    with pytest.raises(ValueError, match="Unknown argument.*bins.*'platt'"):
        ProbcalCalibrator(method="platt", bins=3).fit(P, y)
    with pytest.raises(ValueError, match="at least two classes"):
        ProbcalCalibrator().fit(P[:5, 1], np.zeros(5))
    with pytest.raises(ValueError):  # probcal's own message: not probabilities
        ProbcalCalibrator(method="beta").fit(P[:, 1] * 3 - 1, y)


def test_caller_data_not_mutated(binary_preds):
    P, z, y = binary_preds
    P0, y0 = P.copy(), y.copy()
    ProbcalCalibrator(method="isotonic").fit(P, y).predict_proba(P)
    expected_calibration_error(y, P)
    assert _same(P, P0) and _same(y, y0)


def test_module_docstring_table_names_every_method():
    import pycalib_r.sklearn as sk
    for m in sk.METHODS:
        assert f'``"{m}"``' in sk.__doc__


def test_label_encodings_agree_with_np_unique():
    from pycalib_r.sklearn import _encode_labels

    for y in (np.array([1, -1, 1, -1]), np.array([5, 2, 9, 2]), np.array([True, False, True]),
              np.array([0, 1, 1, 0], dtype=np.uint8), np.array([3.0, 1.0, 3.0]),
              np.array(["b", "a", "b"]), np.array([10**12, 0, 10**12])):
        classes, codes = _encode_labels(y)
        ref_classes, ref_codes = np.unique(y, return_inverse=True)
        assert classes.dtype == ref_classes.dtype and (classes == ref_classes).all()
        assert (codes == ref_codes).all()
    with pytest.raises(ValueError, match="continuous"):
        ProbcalCalibrator().fit([0.1, 0.4, 0.5], np.array([0.5, 1.5, 0.5]))


def test_nonfinite_input_is_refused():
    with pytest.raises(ValueError, match="Input X contains NaN"):
        ProbcalCalibrator().fit(np.array([0.1, np.nan, 0.5]), [0, 1, 0])
    with pytest.raises(ValueError, match="Input X contains infinity"):
        ProbcalCalibrator().fit(np.array([0.1, np.inf, 0.5]), [0, 1, 0])


@pytest.mark.r_parity
def test_wrapper_matches_probcal_in_r(probcal_r, binary_preds, multi_preds):
    """The wrapper on real out-of-fold predictions against R's probcal, run live."""
    from tests.conftest import r_assign

    P, z, y = binary_preds
    p = P[:, 1]
    names = np.where(y == 1, "yes", "no")
    r_assign(probcal_r, p=p, z=z, y=y.astype(np.int64))
    grid = np.linspace(0, 1, 101)
    zgrid = np.linspace(z.min() - 1, z.max() + 1, 101)
    r_assign(probcal_r, grid=grid, zgrid=zgrid)
    cases = [("platt", {}, z, zgrid, "predict(cal_platt(z, y), zgrid)", 1e-10),
             ("isotonic", {}, p, grid, "predict(cal_isotonic(p, y), grid)", 1e-12),
             ("histogram", {"bins": 8}, p, grid, "predict(cal_histogram(p, y, bins = 8), grid)", 1e-12),
             ("beta", {}, p, grid, "suppressWarnings(predict(cal_beta(p, y), grid))", 1e-10)]
    for method, args, x, new, r_expr, tol in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # beta's glm warning, as R's
            ours = ProbcalCalibrator(method=method, **args).fit(x, names).predict_proba(new)[:, 1]
        theirs = np.asarray(probcal_r.r(r_expr), dtype=float)
        diff = np.max(np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-300))
        print(f"{method}: largest relative difference from R {diff:.3g}")
        assert diff <= tol, (method, diff)
    Pm, Zm, ym = multi_preds
    r_assign(probcal_r, Pm=Pm, Zm=Zm, ym=(ym + 1).astype(np.int64))
    ours = ProbcalCalibrator(method="temperature").fit(Zm, ym).predict_proba(Zm)
    theirs = np.asarray(probcal_r.r("predict(cal_temperature(Zm, ym), Zm)"), dtype=float)
    diff = np.max(np.abs(ours - theirs) / np.maximum(theirs, 1e-300))
    print(f"multiclass temperature: largest relative difference from R {diff:.3g}")
    assert diff <= 1e-10

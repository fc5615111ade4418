"""The Python face: misaligned columns refused, hints in exception notes, ignored arguments
warned about, warnings at the caller's line, and scipy-style R-list results."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r import _rng
from pycalib_r.rbase._rlist import NamedNumber, RList

from tests import _rcall
from tests.conftest import r_assign

# ---------------------------------------------------------------------------
# Data: 3 classes named a, b, c
# ---------------------------------------------------------------------------

_gen = np.random.default_rng(10)
P = _gen.dirichlet([2, 2, 2], size=90)
CODES = np.array([_gen.choice(3, p=row) for row in P])
CODES[:3] = [0, 1, 2]  # every class present
LEVELS = ["a", "b", "c"]
CAT = pd.Categorical.from_codes(CODES, categories=LEVELS)
DF = pd.DataFrame(P, columns=LEVELS)
SHUFFLED = ["c", "a", "b"]
LOGITS = np.log(P) + 0.3
LDF = pd.DataFrame(LOGITS, columns=LEVELS)


def _misaligned(call, x_arg="p"):
    with pytest.raises(pc.ProbcalError) as info:
        call()
    text = str(info.value)
    assert f"The columns of `{x_arg}` name the classes in another order" in text
    assert 'columns "c", "a", "b"' in text and 'classes "a", "b", "c"' in text
    assert "['a', 'b', 'c']" in text  # the fix, spelled out
    return text


METRIC_CALLS = {
    "ece": lambda p, y: pc.ece(p, y),
    "ece-confidence": lambda p, y: pc.ece(p, y, type="confidence"),
    "mce": lambda p, y: pc.mce(p, y),
    "ace": lambda p, y: pc.ace(p, y),
    "mmce": lambda p, y: pc.mmce(p, y),
    "skce": lambda p, y: pc.skce(p, y),
    "reliability_table": lambda p, y: pc.reliability_table(p, y),
}


@pytest.mark.parametrize("name", list(METRIC_CALLS))
def test_metrics_refuse_misaligned_columns(name):
    fn = METRIC_CALLS[name]
    text = _misaligned(lambda: fn(DF[SHUFFLED], CAT))
    assert "p[list(y.categories)]" in text
    # Same order, unnamed, or other names: R's positional rule, same numbers.
    same = fn(DF, CAT)
    for other in (P, DF.set_axis(["x1", "x2", "x3"], axis=1), DF.set_axis([0, 1, 2], axis=1)):
        got = fn(other, CAT)
        if isinstance(same, pd.DataFrame):
            pd.testing.assert_frame_equal(got, same)
        else:
            assert got == same
    # A Series of categories names the fix with .cat
    text = _misaligned(lambda: fn(DF[SHUFFLED], pd.Series(CAT)))
    assert "p[list(y.cat.categories)]" in text


def test_cal_test_refuses_misaligned_columns_before_drawing():
    stream = _rng.RRandom(5)
    before = stream.get_state()
    _misaligned(lambda: pc.cal_test(DF[SHUFFLED], CAT, n_boot=19, rng=stream))
    assert np.array_equal(np.asarray(stream.get_state()), np.asarray(before))
    # nothing was drawn: the next test from this stream equals one from a fresh stream
    a = pc.cal_test(DF, CAT, n_boot=19, rng=stream)
    b = pc.cal_test(P, CODES + 1, n_boot=19, rng=_rng.RRandom(5))
    assert a.p_value == b.p_value and float(a.statistic) == float(b.statistic)


def test_cal_ci_refuses_misaligned_columns():
    _misaligned(lambda: pc.cal_ci(DF[SHUFFLED], CAT, n_boot=9, rng=_rng.RRandom(1)))
    a = pc.cal_ci(DF, CAT, n_boot=9, rng=_rng.RRandom(1))
    b = pc.cal_ci(P, CODES + 1, n_boot=9, rng=_rng.RRandom(1))
    assert str(a) == str(b)


FIT_CALLS = {
    "cal_dirichlet": (lambda x, y: pc.cal_dirichlet(x, y), DF, "p"),
    "cal_temperature": (lambda x, y: pc.cal_temperature(x, y), LDF, "logits"),
    "cal_vector_scaling": (lambda x, y: pc.cal_vector_scaling(x, y), LDF, "logits"),
    "cal_ovr": (lambda x, y: pc.cal_ovr(x, y, method="isotonic"), DF, "x"),
    "cal_cv": (lambda x, y: pc.cal_cv(x, y, method="temperature", folds=3, seed=1), LDF, "x"),
}


@pytest.mark.parametrize("name", list(FIT_CALLS))
def test_calibrators_refuse_misaligned_columns_at_fit_and_predict(name):
    fit_fn, data, x_arg = FIT_CALLS[name]
    _misaligned(lambda: fit_fn(data[SHUFFLED], CAT), x_arg=x_arg)
    fit = fit_fn(data, CAT)
    assert list(fit.levels) == LEVELS
    text = _misaligned(lambda: fit.predict(data[SHUFFLED]), x_arg="newdata")
    assert "newdata[list(fit.levels)]" in text
    _misaligned(lambda: pc.predict(fit, data[SHUFFLED]), x_arg="newdata")
    want = fit.predict(data.to_numpy())
    got = fit.predict(data)
    assert list(got.columns) == LEVELS
    np.testing.assert_array_equal(got.to_numpy(), want)
    # other names: positional, as R
    np.testing.assert_array_equal(fit.predict(data.set_axis(["u", "v", "w"], axis=1)).to_numpy(), want)


def test_fit_with_integer_codes_checks_predict_columns_named_by_code():
    fit = pc.cal_dirichlet(P, CODES + 1)
    assert fit.levels == ["1", "2", "3"]
    named = pd.DataFrame(P, columns=["1", "2", "3"])
    with pytest.raises(pc.ProbcalError, match="in another order"):
        fit.predict(named[["3", "1", "2"]])
    np.testing.assert_array_equal(fit.predict(named).to_numpy(), fit.predict(P))


def test_misalignment_check_does_not_mutate_inputs():
    df = DF[SHUFFLED].copy()
    cat = CAT.copy()
    with pytest.raises(pc.ProbcalError):
        pc.ece(df, cat)
    assert list(df.columns) == SHUFFLED and (cat == CAT).all()


# ---------------------------------------------------------------------------
# Hints: str(e) is R's message (stored fixtures), the note says how to fix it
# ---------------------------------------------------------------------------

_ERRORS = {c["id"]: c for _, c in _rcall.iter_cases(_rcall.load_fixtures()[1])
           if isinstance(c["expected"], dict) and "error" in c["expected"]}

HINT_CASES = [
    # (fixture id, text the note must contain)
    ("error-ece-022", "y + 1"),                      # 0-based codes, 3 columns
    ("error-skce-012", "pd.Categorical.from_codes"),  # 0-based codes in skce
    ("error-ece-029", "pandas Categorical"),          # string codes for a matrix
    ("error-ece-010", "(y == \"positive\").astype(int)"),  # string binary labels
    ("error-ece-018", "missing 1 by 0.1"),            # row sums 1.0 and 0.9
    ("error-ece-032", "`strategy` (given 'quantile')"),
    ("error-skce-001", "`estimator` (given 'u')"),    # ambiguous prefix
    ("error-cal_test-003", "`method` (given 'permutation')"),
    ("error-cal_ci-001", "`metric` (given 'brier')"),
]


@pytest.mark.parametrize("case_id,hint", HINT_CASES, ids=[c[0] for c in HINT_CASES])
def test_error_message_is_r_and_note_is_the_hint(case_id, hint):
    case = _ERRORS[case_id]
    env = _rcall.decode_inputs(case["inputs"])
    with pytest.raises(pc.ProbcalError) as info:
        _rcall.evaluate(_rcall.parse(case["r_call"]), env, pc)
    err = info.value
    assert str(err) == case["expected"]["error"]  # R's conditionMessage(), byte for byte
    notes = getattr(err, "__notes__", [])
    assert any(hint in n for n in notes), notes


def test_two_column_matrix_with_01_labels_hints_the_binary_vector():
    p2 = np.column_stack([1 - P[:, 0], P[:, 0]])
    y01 = (CODES == 0).astype(int)
    with pytest.raises(pc.ProbcalError) as info:
        pc.ece(p2, y01)
    assert str(info.value) == "Integer class codes in `y` must start at `1`."
    assert any("p[:, 1]" in n for n in info.value.__notes__)
    # the hint's fix works
    assert pc.ece(p2[:, 1], y01) == pc.ece(P[:, 0], y01)


@pytest.mark.parametrize("fn,arg", [(pc.cal_platt, "x"), (pc.cal_isotonic, "p"), (pc.cal_beta, "p")])
def test_binary_calibrator_given_predict_proba_hints_the_column(fn, arg):
    p2 = np.column_stack([1 - PB, PB])
    with pytest.raises(pc.ProbcalError) as info:
        fn(p2, YB)
    assert str(info.value) == f"Arguments `{arg}` and `y` must have the same length."
    assert any(f"{arg}[:, 1]" in n for n in info.value.__notes__)


def test_match_arg_note_names_an_argument_passed_through_kwargs():
    with pytest.raises(pc.ProbcalError) as info:
        pc.cal_ci(P, CODES + 1, n_boot=9, type="classy")
    assert str(info.value).startswith("'arg' should be one of ")
    assert any("`type` (given 'classy')" in n for n in info.value.__notes__)


def test_predict_rows_note():
    fit = pc.cal_dirichlet(P, CODES + 1)
    bad = P.copy()
    bad[7] *= 1.5
    with pytest.raises(pc.ProbcalError) as info:
        fit.predict(bad)
    assert str(info.value) == "Each row of `newdata` must sum to `1`."
    assert any("index 7" in n and "missing 1 by 0.5" in n for n in info.value.__notes__)


def test_errors_without_a_hint_get_no_note():
    with pytest.raises(pc.ProbcalError) as info:
        pc.ece([0.2, 1.5], [0, 1])
    assert not getattr(info.value, "__notes__", None)


# ---------------------------------------------------------------------------
# Arguments R's `...` swallows
# ---------------------------------------------------------------------------

PB = np.linspace(0.02, 0.98, 60)
YB = (np.arange(60) % 3 == 0).astype(int)


def test_cal_cv_warns_about_a_misspelled_argument_and_runs_as_r():
    with pytest.warns(UserWarning, match=r"cal_cv\(\) ignored the argument `n_folds`") as rec:
        fit = pc.cal_cv(PB, YB, method="platt", n_folds=2, seed=1)
    assert len([w for w in rec if issubclass(w.category, UserWarning)]) == 1
    assert rec[0].filename == __file__  # points at this line, not inside the package
    assert fit.folds == 5  # R's behaviour: the default, as R silently runs 5 folds
    ref = pc.cal_cv(PB, YB, method="platt", seed=1)
    np.testing.assert_array_equal(fit.oof_predictions, ref.oof_predictions)


@pytest.mark.parametrize("call", [
    lambda: pc.cal_cv(PB, YB, method="histogram", bins=5, seed=1),
    lambda: pc.cal_cv(PB, YB, method="beta", eps=1e-6, seed=1),
    lambda: pc.cal_ovr(P, CODES + 1, method="histogram", bins=4),
    lambda: pc.cal_cv(P, CODES + 1, method="ovr", base_method="histogram", bins=4, seed=1),
    lambda: pc.cal_cv(P, CODES + 1, method="dirichlet", eps=1e-10, seed=1),
])
def test_arguments_r_passes_on_do_not_warn(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        call()


def test_cal_ovr_and_cv_ovr_warn_once_naming_the_function():
    with pytest.warns(UserWarning, match=r"cal_ovr\(\) ignored the argument `bins`: method \"isotonic\"") as rec:
        pc.cal_ovr(P, CODES + 1, method="iso", bins=3)
    assert len(rec) == 1
    with pytest.warns(UserWarning, match=r'cal_cv\(\) ignored the arguments `bins`, `eps`: method "ovr" \(base_method "platt"\)') as rec:
        pc.cal_cv(P, CODES + 1, method="ovr", bins=3, eps=0.1, seed=1)
    assert len(rec) == 1  # not once per fold and class


# ---------------------------------------------------------------------------
# Warnings point at the caller: R's list up to 10 warnings in the call, each
# distinct one once with R's count line beyond (issue 31)
# ---------------------------------------------------------------------------

XS = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1],
               [0.3, 0.6, 0.1], [0.1, 0.1, 0.8], [0.05, 0.05, 0.9]])
YS = np.array([1, 2, 3, 1, 2, 3, 3])
GLM_WARNING = "glm.fit: fitted probabilities numerically 0 or 1 occurred"


def _block_problem():
    """XS's problem four times over 12 classes: 12 glm.fit warnings in R."""
    e = 1e-3
    big = np.full((28, 12), e)
    for b in range(4):
        big[7 * b:7 * b + 7, 3 * b:3 * b + 3] = XS * (1 - 3 * e)
    big /= big.sum(axis=1, keepdims=True)
    return big, np.concatenate([YS + 3 * b for b in range(4)])


def _ovr_beta_warnings(x=XS, y=YS):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        pc.cal_ovr(x, y, method="beta")
    return rec


def test_warnings_are_rs_list_up_to_10_and_rs_count_line_beyond():
    rec = _ovr_beta_warnings()
    # 3 warnings: R lists them ("1: glm.fit: ... 2: ... 3: ..."), no count line.
    assert [str(w.message) for w in rec] == [GLM_WARNING] * 3
    assert all(w.category is RuntimeWarning and w.filename == __file__ for w in rec)
    (w,) = _ovr_beta_warnings(*_block_problem())
    assert str(w.message) == f"{GLM_WARNING}\nThere were 12 warnings (each distinct one reported once)"
    assert w.filename == __file__


@pytest.mark.r_parity
def test_warning_count_is_rs(probcal_r):
    big, yb = _block_problem()
    r_assign(probcal_r, xs=XS, big=big, yb=yb.astype(np.float64))
    r_lists = probcal_r.r("""local({
        msgs <- function(expr) { out <- character()
          withCallingHandlers(expr, warning = function(w) {
            out <<- c(out, conditionMessage(w)); invokeRestart("muffleWarning") })
          out }
        list(msgs(cal_ovr(xs, c(1, 2, 3, 1, 2, 3, 3), method = "beta")),
             msgs(cal_ovr(big, yb, method = "beta")))
    })""")
    small, large = (list(v) for v in r_lists)
    assert len(small) == 3 and len(large) == 12
    assert [str(w.message) for w in _ovr_beta_warnings()] == small  # R's list, as R lists it
    (w,) = _ovr_beta_warnings(*_block_problem())
    assert set(large) == {GLM_WARNING}
    assert str(w.message) == f"{GLM_WARNING}\nThere were {len(large)} warnings (each distinct one reported once)"


def test_a_single_warning_keeps_rs_text():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        pc.cal_ovr(XS[[0, 1, 2, 3, 4, 5]], YS[[0, 1, 2, 3, 4, 5]], method="platt")
        pc.cal_beta(XS[:, 0], (YS == 1).astype(int))
    assert all(str(w.message) == GLM_WARNING for w in rec) and rec
    assert all(w.filename == __file__ for w in rec)


# ---------------------------------------------------------------------------
# R-list results
# ---------------------------------------------------------------------------

def _binary():
    pc.set_seed(40)
    p = pc.runif(300)
    y = pc.rbinom(300, 1, p)
    return p, y


def _objects():
    p, y = _binary()
    res = pc.cal_test(p, y, n_boot=99, rng=_rng.RRandom(1))
    asym = pc.cal_test(p, y, method="asymptotic")
    ci = pc.cal_ci(p, y, n_boot=49, rng=_rng.RRandom(2))
    platt = pc.cal_platt(p, y)
    iso = pc.cal_isotonic(p, y)
    cv = pc.cal_cv(DF, CAT, method="dirichlet", folds=3, seed=1)
    return {"CalTest": res, "CalTest-asymptotic": asym, "CalCI": ci, "cal_platt": platt,
            "GlmFit": platt.fit, "cal_isotonic": iso, "IsoregFit": iso.fit, "cal_cv": cv,
            "cal_temperature": pc.cal_temperature(LOGITS, CODES + 1)}


OBJECTS = _objects()


@pytest.mark.parametrize("name", list(OBJECTS))
def test_every_r_list_has_the_same_face(name):
    obj = OBJECTS[name]
    assert isinstance(obj, RList)
    keys = obj.keys()
    assert keys and all(isinstance(k, str) for k in keys)
    assert [k for k, _ in obj.items()] == keys == list(obj)
    assert len(obj) == len(keys)
    for k in keys:
        assert k in obj
        assert obj.get(k) is obj[k]
        assert getattr(obj, k.replace(".", "_")) is obj[k]
    assert "no such component" not in obj and obj.get("no such component", 7) == 7
    with pytest.raises(KeyError):
        obj["no such component"]
    assert isinstance(obj.r_class, tuple) and all(isinstance(c, str) for c in obj.r_class)


def test_r_classes_are_rs():
    assert OBJECTS["CalTest"].r_class == ("cal_test", "htest")
    assert OBJECTS["CalCI"].r_class == ("cal_ci",)
    assert OBJECTS["cal_platt"].r_class == ("cal_platt", "calibrator")
    assert OBJECTS["cal_cv"].r_class == ("cal_cv", "cal_multiclass", "calibrator")
    assert OBJECTS["GlmFit"].r_class == ("glm", "lm")
    assert OBJECTS["IsoregFit"].r_class == ("isoreg",)


@pytest.mark.parametrize("name", list(OBJECTS))
def test_to_dict_is_json_and_round_trips(name):
    obj = OBJECTS[name]
    # a calibrator's to_dict() leaves out its per-row data unless data=True
    full = obj.to_dict(data=True) if isinstance(obj, pc.Calibrator) else obj.to_dict()
    assert list(full) == obj.keys()
    for d in (obj.to_dict(), full):
        assert list(d) == [k for k in obj.keys() if k in d]
        text = json.dumps(d, allow_nan=False)  # strict JSON
        assert json.loads(text) == d


def test_to_dict_values():
    res = OBJECTS["CalTest"]
    d = res.to_dict()
    assert d["statistic"] == {"SKCE_uq": float(res.statistic)}
    assert d["p.value"] == res.p_value and d["data.name"] == "p and y"
    fit = OBJECTS["cal_platt"].to_dict(data=True)
    assert fit["coefficients"] == OBJECTS["cal_platt"].coefficients
    assert fit["fit"]["fitted.values"] == OBJECTS["cal_platt"].fit.fitted_values.tolist()


def test_statistic_and_estimate_are_floats_with_r_names():
    res = OBJECTS["CalTest"]
    s = res.statistic
    assert isinstance(s, float) and isinstance(s, NamedNumber)
    assert float(s) * 2 == s + s and math.isclose(s / 1, float(s), rel_tol=0, abs_tol=0)
    assert res["statistic"] is s and s == {"SKCE_uq": float(s)}
    assert dict(s) == {"SKCE_uq": float(s)} and list(s) == ["SKCE_uq"]
    assert s["SKCE_uq"] == float(s) and s.name == "SKCE_uq"
    asym = OBJECTS["CalTest-asymptotic"]
    assert asym.statistic.name == "z" and asym.estimate.name == "SKCE_ul"
    assert float(asym.statistic) > -10
    assert json.dumps(float(s)) == json.dumps(s)


def test_assigned_statistic_stays_a_named_number():
    res = pc.cal_test(*_binary(), method="asymptotic")
    res["statistic"] = {"z": 2.5}
    assert isinstance(res.statistic, NamedNumber) and res.statistic == 2.5
    res.estimate = {"SKCE_ul": 0.125}
    assert res["estimate"].name == "SKCE_ul" and float(res["estimate"]) == 0.125
    assert "Statistic: z = 2.5\n" in str(res) and "Estimate: SKCE_ul = 0.125\n" in str(res)


def test_pvalue_alias():
    res = OBJECTS["CalTest"]
    assert res.pvalue == res.p_value == res["p.value"]


def test_null_distribution_is_the_bootstrap_statistics():
    res = OBJECTS["CalTest"]
    null = res.null_distribution
    assert null.shape == (99,)
    # The p-value (1 + #{T_b >= T - tol})/(B + 1) is recomputed from it.
    p, y = _binary()
    tol = 1e-12 * float(np.mean((np.asarray(y) - np.asarray(p)) ** 2))
    exceed = int(np.count_nonzero(null >= float(res.statistic) - tol))
    assert res.p_value == (1 + exceed) / 100
    assert OBJECTS["CalTest-asymptotic"].null_distribution is None
    assert "null_distribution" not in res.keys()
    # the draws do not depend on keeping them
    again = pc.cal_test(*_binary(), n_boot=99, rng=_rng.RRandom(1))
    np.testing.assert_array_equal(again.null_distribution, null)


def test_bootstrap_distribution_gives_the_interval():
    ci = OBJECTS["CalCI"]
    boot = ci.bootstrap_distribution
    assert boot.shape == (49,)
    lo, hi = np.quantile(boot, [0.025, 0.975])  # R's type 7
    assert ci.lower == pytest.approx(max(min(lo, ci.estimate), 0.0), rel=1e-12, abs=1e-15)
    assert ci.upper == pytest.approx(max(hi, ci.estimate), rel=1e-12, abs=1e-15)
    assert "bootstrap_distribution" not in ci.keys()


def test_item_assignment_is_used_by_predict():
    fit = pc.cal_temperature(LOGITS, CODES + 1)
    fit["temperature"] = 1
    assert fit.temperature == 1
    z = LOGITS - LOGITS.max(axis=1, keepdims=True)
    want = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(fit.predict(LOGITS), want, rtol=1e-15, atol=1e-15)
    fit["note"] = "mine"  # R appends a new component
    assert fit.keys()[-1] == "note" and fit["note"] == "mine"
    with pytest.raises(KeyError):
        fit["predict"] = 1  # would hide the method


@pytest.mark.r_parity
def test_item_assignment_matches_r(probcal_r):
    p, y = _binary()
    r_assign(probcal_r, p=np.asarray(p), y=np.asarray(y, dtype=np.int64))
    got = probcal_r.r("""local({f <- cal_temperature(qlogis(p), y); f[["temperature"]] <- 1.5
                                predict(f, c(-2, 0, 0.5, 3))})""")
    fit = pc.cal_temperature(pc.logit(p), y)
    fit["temperature"] = 1.5
    np.testing.assert_allclose(fit.predict([-2, 0, 0.5, 3]), np.asarray(got), rtol=1e-15, atol=0)


def test_printed_text_unchanged_by_named_numbers():
    res = OBJECTS["CalTest"]
    text = str(res)
    assert f"Statistic: SKCE_uq = " in text and "NamedNumber" not in text


def test_wrapped_functions_keep_signature_and_doc():
    import inspect

    from pycalib_r.binned import _metrics

    # pc.ece is _metrics.ece (tests/suites/project/test_exports.py); the plain function beneath its face
    assert inspect.signature(pc.ece) == inspect.signature(_metrics.ece._plain)
    assert pc.ece.__doc__ == _metrics.ece._plain.__doc__ and pc.ece.__name__ == "ece"


@pytest.mark.r_parity
@pytest.mark.parametrize("r_call,call,hint", [
    ("ece(m, y01)", lambda m, y: pc.ece(m, y), "p[:, 1]"),
    ("cal_test(m, y01)", lambda m, y: pc.cal_test(m, y), "p[:, 1]"),
    ("cal_platt(m, y01)", lambda m, y: pc.cal_platt(m, y), "x[:, 1]"),
    ("cal_isotonic(m, y01)", lambda m, y: pc.cal_isotonic(m, y), "p[:, 1]"),
])
def test_predict_proba_mistakes_keep_rs_message_live(probcal_r, r_call, call, hint):
    m = np.column_stack([1 - PB, PB])
    r_assign(probcal_r, m=m, y01=YB.astype(np.int64))
    where = "globalenv()"
    if r_call.startswith("cal_test"):
        # a probcal 0.2.0 function: the repository's R transcription of the contract
        contract = (_rcall.REPO / "pycalib_r" / "r" / "contract.R").as_posix()
        probcal_r.r(f'.face_env <- new.env(); sys.source("{contract}", envir = .face_env)')
        where = ".face_env"
    want = probcal_r.r(f"conditionMessage(tryCatch(eval(quote({r_call}), {where}), "
                       f"error = identity))")[0]
    with pytest.raises(pc.ProbcalError) as info:
        call(m, YB)
    assert str(info.value) == want
    assert any(hint in n for n in info.value.__notes__)

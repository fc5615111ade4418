"""Issue 30's library traps: each a test that failed before the fix.

* ``predict()`` of a fit made on logits, given probabilities, warns as the fit does;
* ``expected_calibration_error`` says it is classwise for K classes;
* a multiclass split lacking a class gets the one-line hint;
* ``pc.summary()`` of a ``cal_test`` result is R's ``summary()`` of the list (byte-equal);
* ``fit.coef`` (R's ``fit$coef``) names ``coefficients``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests import _rcall


def _probabilities_warning(record):
    return [str(w.message) for w in record if "look like probabilities" in str(w.message)]


def test_predict_of_a_logit_fit_given_probabilities_warns():
    pc.set_seed(1)
    z = pc.rnorm(300, sd=3)
    y = pc.rbinom(300, 1, pc.inv_logit(z))
    fit = pc.cal_temperature(z, y)
    with pytest.warns(UserWarning, match=r"predict\(\): every value of `newdata` lies in \[0, 1\]"):
        out = pc.predict(fit, pc.inv_logit(z))
    assert out.min() > 0.45  # the squashing the warning is about
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        pc.predict(fit, z)  # logits: no warning
    g = np.random.default_rng(2)
    L = g.normal(0, 2, (300, 3))
    codes = g.integers(1, 4, 300)
    P = np.exp(L) / np.exp(L).sum(axis=1, keepdims=True)
    for fitter in (pc.cal_temperature, pc.cal_vector_scaling):
        fit = fitter(L, codes)
        with pytest.warns(UserWarning) as record:
            pc.predict(fit, P)
        (text,) = _probabilities_warning(record)
        assert text.startswith("predict(): every value of `newdata` lies in [0, 1]")
        assert "They are taken as logits" in text and "logits_from_proba" in text


def test_expected_calibration_error_says_it_is_classwise():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import expected_calibration_error

    doc = expected_calibration_error.__doc__
    assert "classwise for K > 2 classes" in doc.splitlines()[0]
    assert 'type="confidence"' in doc and "top-label" in doc
    g = np.random.default_rng(5)
    P = g.dirichlet([1, 1, 1], 400)
    y = np.array([g.choice(3, p=r) for r in P])
    labels = pd.Categorical.from_codes(y, categories=["0", "1", "2"])
    assert expected_calibration_error(y, P) == pc.ece(P, labels, type="classwise")
    assert expected_calibration_error(y, P, type="confidence") == pc.ece(P, labels, type="confidence")


def test_a_split_lacking_a_class_gets_the_hint():
    g = np.random.default_rng(6)
    P = g.dirichlet([1, 1, 1], 60)
    codes = g.integers(1, 3, 60)  # classes 1 and 2 only: the split lacks class 3
    with pytest.raises(pc.ProbcalError) as info:
        pc.ece(P, codes)
    assert str(info.value) == "Argument `y` has 2 classes but the input has 3 columns."
    (note,) = info.value.__notes__
    assert "\n" not in note and "pd.Categorical(y, categories=clf.classes_)" in note
    # with every class as a category the same labels are accepted
    pc.ece(P, pd.Categorical(codes, categories=[1, 2, 3]))


def _r_list_expression(res) -> str:
    """The R list with ``res``'s components, their types and R class (base R only)."""
    parts = []
    for name, value in res.items():
        if isinstance(value, str):
            parts.append(f"`{name}` = {value!r}".replace("'", '"'))
        elif hasattr(value, "name"):  # NamedNumber: c(name = value)
            parts.append(f"`{name}` = c(`{value.name}` = {float(value)!r})")
        else:
            parts.append(f"`{name}` = {float(value)!r}")
    classes = ", ".join(f'"{c}"' for c in res.r_class)
    return f"structure(list({', '.join(parts)}), class = c({classes}))"


@pytest.mark.r_parity
@pytest.mark.parametrize("method", ["asymptotic", "bootstrap"])
def test_summary_of_a_cal_test_is_rs_summary_of_the_list(r, method):
    pc.set_seed(8)
    p = pc.runif(80)
    y = pc.rbinom(80, 1, p)
    res = pc.cal_test(p, y, method=method, n_boot=99) if method == "bootstrap" else \
        pc.cal_test(p, y, method=method)
    want = "\n".join(r.r(f"capture.output(summary({_r_list_expression(res)}))"))
    assert str(pc.summary(res)) == want


@pytest.mark.r_parity
def test_summary_of_probcals_own_cal_test_live(probcal_r):
    contract = (_rcall.REPO / "pycalib_r" / "r" / "contract.R").as_posix()
    probcal_r.r(f'.traps_env <- new.env(); sys.source("{contract}", envir = .traps_env)')
    pc.set_seed(9)
    p = pc.runif(100)
    y = pc.rbinom(100, 1, p)
    probcal_r.globalenv["p"] = probcal_r.FloatVector(p)
    probcal_r.globalenv["y"] = probcal_r.IntVector(y.astype(int))
    want = "\n".join(probcal_r.r('capture.output(summary(eval(quote(cal_test(p, y, method = '
                                 '"asymptotic")), .traps_env)))'))
    assert str(pc.summary(pc.cal_test(p, y, method="asymptotic"))) == want


def test_a_prefix_of_a_component_names_it():
    pc.set_seed(10)
    p = pc.runif(100)
    y = pc.rbinom(100, 1, p)
    fit = pc.cal_platt(p, y)
    with pytest.raises(AttributeError, match="no attribute 'coef'") as info:
        fit.fit.coef
    (note,) = info.value.__notes__
    assert note.startswith("Did you mean `coefficients`?")
    assert fit.fit.coefficients == fit.fit["coefficients"]
    with pytest.raises(AttributeError) as info:  # no unique prefix: no guess
        fit.zzz
    assert not getattr(info.value, "__notes__", [])


@pytest.mark.r_parity
def test_summary_of_probcals_own_cal_ci_live(probcal_r):
    contract = (_rcall.REPO / "pycalib_r" / "r" / "contract.R").as_posix()
    probcal_r.r(f'.traps_env <- new.env(); sys.source("{contract}", envir = .traps_env)')
    pc.set_seed(3)
    p = pc.runif(60)
    y = pc.rbinom(60, 1, p)
    probcal_r.globalenv["p"] = probcal_r.FloatVector(p)
    probcal_r.globalenv["y"] = probcal_r.IntVector(y.astype(int))
    want = "\n".join(probcal_r.r("set.seed(5); capture.output(summary(eval(quote(cal_ci(p, y, "
                                 "n_boot = 50)), .traps_env)))"))
    pc.set_seed(5)
    assert str(pc.summary(pc.cal_ci(p, y, n_boot=50))) == want


def test_sklearn_metrics_see_a_mask_as_the_core_does():
    from pycalib_r.sklearn import expected_calibration_error

    p = np.ma.array([0.2, 0.4, 0.6, 0.8], mask=[0, 1, 0, 0])
    y = np.array([0, 1, 1, 1])
    with pytest.raises(pc.ProbcalError) as core:
        pc.ece(p, y)
    with pytest.raises(pc.ProbcalError) as face:
        expected_calibration_error(y, p)
    assert str(face.value) == str(core.value) == "Argument `p` must not contain missing values."

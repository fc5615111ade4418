"""Arguments of hoslem_test, val_prob and cal_intercept_slope (issues 45, 46 and 47).

Each test names its item. Messages are R's: checked live (``r_parity``)
against ``rms::val.prob`` (R 4.2.2, rms 6.5-0, Hmisc 4.8-0) and, for
``hoslem.test`` (ResourceSelection is not installed here), against the base
R step that fails for the same argument (``seq(0, 1, 1/g)``, ``if (g < 2L)``,
``cut``'s labels).
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.diagnostics import _hoslem, _val_probg

from tests._rcall import REPO


def _data(n=200, seed=1):
    pc.set_seed(seed)
    p = pc.runif(n)
    y = pc.rbinom(n, 1, p ** 1.3)
    return p, y


def _notes(exc) -> str:
    return " ".join(getattr(exc, "__notes__", []))


def _strict(fn):
    """Call with every warning an error except the R ones we expect."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


# ---------------------------------------------------------------------------
# 47: hoslem_test written from the published method

def test_hoslem_module_says_how_it_was_written():
    text = (REPO / "pycalib_r" / "diagnostics" / "_hoslem.py").read_text()
    lines = text.splitlines()
    assert lines[0] == "# SPDX-License-Identifier: GPL-3.0-or-later"
    derived = [ln for ln in lines[:5] if ln.startswith("# Derived from:")]
    assert derived and all("R 4.2.2" in ln and "ResourceSelection" not in ln for ln in derived)
    assert "written from the published method" in text
    assert "not from ResourceSelection's code" in text


def _near_equal_breaks():
    rng = np.random.default_rng(57)
    n = int(rng.integers(20, 200))
    p = rng.choice([0.1, 0.3, 0.5, 0.9], n)
    y = (rng.random(n) < p) * 1.0
    return p, y


@pytest.mark.r_parity
def test_hoslem_groups_are_rs_cut_levels(r):
    # R's cut() falls back to Range_1, Range_2, ... when 12 significant
    # digits do not tell adjacent breaks apart (main printed "(0.5,0.5]").
    from rpy2.robjects import FloatVector

    cases = [(_near_equal_breaks(), 10)] + [(_data(n, s), g) for n, s, g in
                                             [(200, 1, 10), (37, 2, 7), (500, 3, 20), (60, 4, 2.5)]]
    cases.append(((np.round(_data(300, 5)[0], 2), _data(300, 5)[1]), 50))
    for (p, y), g in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = pc.hoslem_test(y, p, g=g).groups
        r.globalenv["hl_p"] = FloatVector(p)
        want = list(r.r(f"levels(cut(hl_p, unique(quantile(hl_p, seq(0, 1, 1/{g}))), "
                        "include.lowest = TRUE))"))
        assert got == want, (g, got[:4], want[:4])
    assert pc.hoslem_test(*_near_equal_breaks()[::-1]).groups[0] == "Range_1"


# ---------------------------------------------------------------------------
# 45.7, 46.13: predict_proba matrices

def test_two_column_predict_proba_gets_r_message_and_hint():
    p, y = _data()
    P = np.column_stack([1 - p, p])
    with pytest.raises(pc.ProbcalError) as e:
        pc.hoslem_test(y, P)
    assert str(e.value) == "variable lengths differ (found for 'cutyhat')"
    assert "y[:, 1]" in _notes(e.value)
    for fn in (pc.val_prob, pc.cal_intercept_slope):
        with pytest.raises(pc.ProbcalError) as e:
            fn(P, y)
        assert str(e.value) == "lengths of p or logit and y do not agree"
        assert "p[:, 1]" in _notes(e.value), fn.__name__


def test_one_column_matrices_are_read_as_r_reads_them():
    p, y = _data()
    col = np.column_stack([1 - p, p])[:, [1]]
    assert np.array_equal(pc.val_prob(col, y).values(), pc.val_prob(p, y).values(), equal_nan=True)
    assert np.array_equal(pc.val_prob(logit=np.log(col / (1 - col)), y=y).values(),
                          pc.val_prob(logit=np.log(p / (1 - p)), y=y).values(), equal_nan=True)
    a, b = pc.cal_intercept_slope(col, y, profile=False), pc.cal_intercept_slope(p, y, profile=False)
    assert (a.intercept, a.slope) == (b.intercept, b.slope)
    h1, h2 = pc.hoslem_test(y, col), pc.hoslem_test(y[:, None], p)
    ref = pc.hoslem_test(y, p)
    for h in (h1, h2):
        assert float(h.statistic) == float(ref.statistic) and h.groups == ref.groups


@pytest.mark.r_parity
def test_one_column_val_prob_equals_r(r):
    from rpy2.robjects import FloatVector

    p, y = _data()
    r.globalenv["oc_p"], r.globalenv["oc_y"] = FloatVector(p), FloatVector(y)
    want = np.array(r.r("unname(rms::val.prob(matrix(oc_p, ncol = 1), oc_y, pl = FALSE))"))
    got = pc.val_prob(p[:, None], y).values()
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


# ---------------------------------------------------------------------------
# 45.8, 46.7, 46.17: hoslem_test's data

def test_hoslem_takes_boolean_labels():
    p, y = _data()
    ref = pc.hoslem_test(y, p)
    for labels in (y.astype(bool), list(y.astype(bool)),
                   __import__("pandas").Series(y.astype(bool))):
        got = pc.hoslem_test(labels, p)
        assert float(got.statistic) == float(ref.statistic)
        assert got.observed["y1"].tolist() == ref.observed["y1"].tolist()


def test_hoslem_one_hot_x_is_non_conformable():
    p, y = _data()
    onehot = np.column_stack([1 - y, y])
    with pytest.raises(pc.ProbcalError) as e:
        pc.hoslem_test(onehot, p)
    assert str(e.value) == "non-conformable arrays"
    assert "x[:, 1]" in _notes(e.value)
    with pytest.raises(pc.ProbcalError, match=re.escape(_hoslem._LENGTHS_DIFFER)):
        pc.hoslem_test(y[:-1], p)


@pytest.mark.r_parity
def test_hoslem_shape_messages_are_rs(r):
    # hoslem.test tabulates cbind(1 - x, x) by group against cbind(1 - y, y):
    # a two-column x gives a G x 4 table, R's arithmetic on it fails so.
    msg = r.r("tryCatch(matrix(0, 3, 4) - matrix(0, 3, 2), error = conditionMessage)")[0]
    assert msg == "non-conformable arrays"
    msg = r.r("local({y <- 1:3; cutyhat <- factor(1:6); tryCatch(xtabs(cbind(1 - y, y) ~ cutyhat), "
              "error = conditionMessage)})")[0]
    assert msg == _hoslem._LENGTHS_DIFFER


def test_hoslem_huge_outcomes_leak_no_numpy_warning():
    p, y = _data()
    x = y * 1e300
    res = _strict(lambda: pc.hoslem_test(x, p))
    assert float(res.statistic) == float("inf") and res.p_value == 0.0


# ---------------------------------------------------------------------------
# 46.10: hoslem_test's g

G_CASES = {  # g -> (R's message, the base R expression that fails so in hoslem.test)
    float("inf"): ("invalid '(to - from)/by'", "seq(0, 1, 1/Inf)"),
    1e12: ("'by' argument is much too small", "seq(0, 1, 1/1e12)"),
    float("nan"): ("missing value where TRUE/FALSE needed", "if (NaN < 2L) 1"),
    None: ("argument is of length zero", "if (NULL < 2L) 1"),
    "10": ("Argument g must be at least 2.", None),  # "10" < 2L is TRUE in R (text)
    "abc": ("non-numeric argument to binary operator", "1/'abc'"),
    (5, 10): ("the condition has length > 1", "if (c(5, 10) < 2L) 1"),
    -3: ("Argument g must be at least 2.", None),
    float("-inf"): ("Argument g must be at least 2.", None),
    True: ("Argument g must be at least 2.", None),
    1j: ("invalid comparison with complex values", "if (1i < 2L) 1"),
}


def test_hoslem_g_gives_r_messages():
    p, y = _data()
    for g, (message, _) in G_CASES.items():
        with pytest.raises(pc.ProbcalError) as e:
            pc.hoslem_test(y, p, g=list(g) if isinstance(g, tuple) else g)
        assert str(e.value) == message, g
    with pytest.raises(pc.ProbcalError, match="must be at most") as e:
        pc.hoslem_test(y, p, g=2 ** 30)
    assert "`g`" in str(e.value)


@pytest.mark.r_parity
def test_hoslem_g_messages_are_rs(r):
    for g, (message, code) in G_CASES.items():
        if code is not None:
            assert r.r(f"tryCatch({code}, error = conditionMessage)")[0] == message, g
    assert bool(r.r('"10" < 2L')[0])


# ---------------------------------------------------------------------------
# 46.8, 46.11: val_prob's group and g_group

def test_masked_group_is_refused_not_read():
    p, y = _data()
    g = np.ma.masked_array(pc.runif(200), mask=np.arange(200) == 3)
    g.data[3] = 1e9
    for group in (g, np.ma.masked_array(g.data > 0.5, mask=g.mask)):
        with pytest.raises(pc.ProbcalError, match="`group` must not contain missing") as e:
            pc.val_prob(p, y, group=group)
        assert "masked array" in _notes(e.value)
    unmasked = np.ma.masked_array(g.data, mask=np.zeros(200, bool))
    unmasked.data[3] = 0.5
    assert pc.val_prob(p, y, group=unmasked).row_names == \
        pc.val_prob(p, y, group=np.asarray(unmasked.data)).row_names


G_GROUP_CASES = {1e12: "1e12", float("inf"): "Inf", float("nan"): "NaN", 2 ** 63: "2^63",
                 -1: "-1", 0: "0", "4": '"4"', None: "NULL", (2, 3): "c(2, 3)", True: "TRUE",
                 False: "FALSE", "abc": '"abc"'}


def _g_group_error(p, y, group, g):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            pc.val_prob(p, y, group=group, g_group=list(g) if isinstance(g, tuple) else g)
        except pc.ProbcalError as exc:
            assert "g_group" in _notes(exc) or str(exc) == "g must be >=1, m must be positive"
            return str(exc)
    return "no error"


def test_g_group_refused_before_allocating():
    p, y = _data(50)
    group = pc.runif(50)
    for g in G_GROUP_CASES:
        assert _g_group_error(p, y, group, g) != "no error", g
    assert _g_group_error(p, y, group, 1e12) == "cannot allocate vector of size 7450.6 Gb"


@pytest.mark.r_parity
def test_g_group_messages_are_rs(r):
    from rpy2.robjects import FloatVector

    p, y = _data(50)
    group = pc.runif(50)
    r.globalenv["gg_p"], r.globalenv["gg_y"], r.globalenv["gg_x"] = (
        FloatVector(p), FloatVector(y), FloatVector(group))
    for g, code in G_GROUP_CASES.items():
        want = r.r(f"suppressWarnings(tryCatch({{rms::val.prob(gg_p, gg_y, group = gg_x, "
                   f"g.group = {code}, pl = FALSE); 'no error'}}, error = conditionMessage))")[0]
        assert _g_group_error(p, y, group, g) == want, g
    # (1:g) * n overflows R's integers: NA cut points (1.1e6 groups of 2,000 values).
    p, y = _data(2000)
    group = pc.runif(2000)
    r.globalenv["gg_p"], r.globalenv["gg_y"], r.globalenv["gg_x"] = (
        FloatVector(p), FloatVector(y), FloatVector(group))
    want = r.r("suppressWarnings(tryCatch(rms::val.prob(gg_p, gg_y, group = gg_x, "
               "g.group = 1.1e6, pl = FALSE), error = conditionMessage))")[0]
    assert _g_group_error(p, y, group, 1.1e6) == want


@pytest.mark.r_parity
def test_non_integer_and_large_g_group_equal_r(r):
    # cut2 divides by g itself (main truncated it to int) and visits each
    # distinct cut once (main walked all g).
    from tests import _val_probg_cases as gc

    r.r(f'source("{REPO}/pycalib_r/r/harness.R"); source("{REPO}/reference/r/validation.R")')
    diffs = gc.Diffs()
    count = 0
    for cid in range(40):
        c = gc.case(cid)
        if c["kind"] not in ("numeric", "numeric_ties"):
            continue
        for g in (2.5, 13.7, 1000, 1e5):
            c2 = dict(c, g_group=g)
            gc.compare(gc.python_side(c2), gc.r_json(r, c2), diffs, f"case {cid} g_group={g}")
            count += 1
    assert count >= 20 and not diffs.items, diffs.items[:5]


# ---------------------------------------------------------------------------
# 45.11: R's warnings are RuntimeWarning

def test_r_warnings_are_runtime_warnings():
    p, y = _data(60)
    p = p.copy()
    p[:2] = [0.0, 1.0]
    cases = [
        (lambda: pc.val_prob(p, y), "observations deleted from logistic calibration"),
        (lambda: pc.hoslem_test(y, np.round(p, 1), g=30), "did not allow for the requested"),
        (lambda: pc.val_prob(p, y, group=pc.runif(60), g_group=2.5), "no non-missing arguments"),
    ]
    for fn, text in cases:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            fn()
        hits = [x for x in w if text in str(x.message)]
        assert hits and all(x.category is RuntimeWarning for x in hits), (text, w)


# ---------------------------------------------------------------------------
# 46.5: the grouped loess warns before a long run

def test_grouped_val_prob_warns_before_a_long_run(monkeypatch):
    p, y = _data(40000)
    group = pc.runif(40000)

    def stop(*args, **kwargs):
        raise KeyboardInterrupt  # the work would start here

    monkeypatch.setattr(_val_probg, "val_probg", stop)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(KeyboardInterrupt):
            pc.val_prob(p, y, group=group)
    text = [str(x.message) for x in w if "estimated" in str(x.message)]
    assert len(text) == 1 and "n^2" in text[0] and "seconds" in text[0]
    assert _val_probg.estimated_seconds(200000, [50000] * 4) > 100
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(KeyboardInterrupt):
            pc.val_prob(p[:2000], y[:2000], group=group[:2000])  # no warning: short


# ---------------------------------------------------------------------------
# 46 fuzz pass: val.probg's other arguments, R's messages with a note naming them

VALPROBG_CASES = {  # (argument, Python value, R value): compared with rms::val.prob live
    ("evaluate", -1, "-1"), ("evaluate", float("-inf"), "-Inf"), ("evaluate", float("nan"), "NaN"),
    ("evaluate", None, "NULL"), ("evaluate", (1, 2), "c(1, 2)"), ("evaluate", 0, "0"),
    ("evaluate", 2.5, "2.5"), ("evaluate", float("inf"), "Inf"),
    ("nmin", float("nan"), "NaN"), ("nmin", float("inf"), "Inf"), ("nmin", 100, "100"),
    ("nmin", None, "NULL"), ("nmin", -1, "-1"),
    ("weights", "negative", "-rep(1, 200)"), ("weights", "zero", "rep(0, 200)"),
    ("normwt", float("nan"), "NA"), ("normwt", "a", "'a'"), ("normwt", (True, False), "c(TRUE, FALSE)"),
    ("normwt", None, "NULL"), ("normwt", 2, "2"),
}


def _valprobg_outcome(p, y, group, arg, value):
    if arg == "weights":
        value = -np.ones(200) if value == "negative" else np.zeros(200)
    if isinstance(value, tuple):
        value = list(value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = pc.val_prob(p, y, group=group, **{arg: value})
        except pc.ProbcalError as exc:
            assert f"`{arg}`" in " ".join([str(exc), *getattr(exc, "__notes__", [])]), (arg, value)
            return str(exc), None
    return "ok", res


@pytest.mark.r_parity
def test_val_probg_arguments_give_rs_messages(r):
    from rpy2.robjects import FloatVector

    p, y = _data()
    group = pc.runif(200)
    r.globalenv["vg_p"], r.globalenv["vg_y"], r.globalenv["vg_x"] = (
        FloatVector(p), FloatVector(y), FloatVector(group))
    for arg, value, code in VALPROBG_CASES:
        r_arg = {"g_group": "g.group"}.get(arg, arg)
        want = r.r(f"suppressWarnings(tryCatch({{v <- rms::val.prob(vg_p, vg_y, group = vg_x, "
                   f"{r_arg} = {code}, pl = FALSE); 'ok'}}, error = conditionMessage))")[0]
        got, res = _valprobg_outcome(p, y, group, arg, value)
        assert got == want, (arg, value, got, want)
        if res is not None and arg == "evaluate":
            curves = r.r(f"suppressWarnings(rms::val.prob(vg_p, vg_y, group = vg_x, evaluate = {code}, "
                         "pl = FALSE))$cal.curves")
            for (cx, cy), rc in zip(res.cal_curves.values(), curves):
                assert np.array_equal(np.asarray(cx), np.asarray(rc.rx2("x")))
                assert np.array_equal(np.asarray(cy), np.asarray(rc.rx2("y")))

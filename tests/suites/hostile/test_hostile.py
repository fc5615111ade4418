"""Hostile input to the library (issue 21, items 6, 7, 9 and 11): R's messages, no internals.

The expected messages are R's: ``R_SAYS`` was produced by R 4.2.2 with
probcal 0.1.0 (and pycalib_r/r/contract.R for the 0.2.0 ``ece``), and
``test_r_says_what_is_stored`` reruns the same R code live where probcal is
installed.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc

R_VERSIONS = {"R": "4.2.2", "probcal": "0.1.0"}

# R code -> (warnings, error message), from R 4.2.2 + probcal 0.1.0 with
# set.seed(1); p <- runif(50); y <- rbinom(50, 1, p).
R_SAYS = {
    "ece(p, y, bins = 2^31 - 1)": (["NAs produced by integer overflow"],
                                   "'length.out' must be a non-negative number"),
    "mce(p, y, bins = 2^31 - 1)": (["NAs produced by integer overflow"],
                                   "'length.out' must be a non-negative number"),
    "ace(p, y, bins = 2^31 - 1)": (["NAs produced by integer overflow"],
                                   "'length.out' must be a non-negative number"),
    "cal_histogram(p, y, bins = 2^31 - 1)": (["NAs produced by integer overflow"],
                                             "'length.out' must be a non-negative number"),
    "reliability_diagram(p, y, bins = 2^31 - 1)": (["NAs produced by integer overflow"],
                                                   "'length.out' must be a non-negative number"),
    "ece(p, 1)": ([], "Arguments `p` and `y` must have the same length."),
    "ece(list(c(0.1, 0.2), 0.3), c(0, 1))": ([], "Argument `p` must be a numeric vector."),
    'predict("abc", p)': ([], "no applicable method for 'predict' applied to an object of "
                              "class \"character\""),
    "predict(1L, p)": ([], "no applicable method for 'predict' applied to an object of class "
                           "\"c('integer', 'numeric')\""),
    "predict(matrix(1.5), p)": ([], "no applicable method for 'predict' applied to an object "
                                    "of class \"c('matrix', 'array', 'double', 'numeric')\""),
    'local({f <- cal_temperature(qlogis(p), y); f$temperature <- "a"; predict(f, qlogis(p))})':
        ([], "non-numeric argument to binary operator"),
    "local({f <- cal_temperature(qlogis(p), y); f$temperature <- 0; predict(f, qlogis(p))})":
        ([], "Argument `x` must contain only finite values."),
    "cal_platt(p, y, foo = 1)": ([], "unused argument (foo = 1)"),
    'cal_platt(p, y, foo = 1, bar = "a")': ([], 'unused arguments (foo = 1, bar = "a")'),
    "cal_temperature(qlogis(p), y, foo = 1)": ([], "unused argument (foo = 1)"),
    "ece(p, c(NaN, y[-1]))": ([], "Argument `y` must not contain missing or infinite values."),
    "ece(p, factor(y))": ([], "Argument `y` must contain binary labels `0` and `1`."),
    "cal_platt(p, factor(y))": ([], "Argument `y` must contain binary labels `0` and `1`."),
    "mmce(p, y, bandwidth = 5e-324)": ([], None),
}

_R_CAPTURE = """
function(code) {
  set.seed(1); p <- runif(50); y <- rbinom(50, 1, p)
  warned <- character()
  err <- tryCatch(withCallingHandlers(eval(parse(text = code)),
    warning = function(w) { warned <<- c(warned, conditionMessage(w)); invokeRestart("muffleWarning") }),
    error = function(e) conditionMessage(e))
  list(warned, if (is.character(err)) err else "")
}
"""


@pytest.mark.r_parity
def test_r_says_what_is_stored(probcal_r):
    capture = probcal_r.r(_R_CAPTURE)
    for code, (warned, message) in R_SAYS.items():
        got = capture(code)
        got_warned = list(got[0])
        got_message = str(got[1][0]) or None
        assert (got_warned, got_message) == (warned, message), code


@pytest.fixture()
def data():
    pc.set_seed(1)
    p = pc.runif(50)
    y = pc.rbinom(50, 1, p)
    return p, y


def _raises(fn, code):
    """``fn()`` gives R's warnings for ``code`` (in order) and R's error message."""
    warned, message = R_SAYS[code]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(pc.ProbcalError) as info:
            fn()
    assert str(info.value) == message
    assert [str(w.message) for w in caught] == warned
    return info.value


# ---------------------------------------------------------------------------
# item 6: bins = 2^31 - 1


@pytest.mark.parametrize("name,code", [
    ("ece", "ece(p, y, bins = 2^31 - 1)"), ("mce", "mce(p, y, bins = 2^31 - 1)"),
    ("ace", "ace(p, y, bins = 2^31 - 1)"), ("cal_histogram", "cal_histogram(p, y, bins = 2^31 - 1)"),
    ("reliability_table", "reliability_diagram(p, y, bins = 2^31 - 1)"),
])
def test_bins_at_r_integer_max_overflow_as_in_r(data, name, code):
    p, y = data
    err = _raises(lambda: getattr(pc, name)(p, y, bins=2 ** 31 - 1), code)
    assert "2^31 - 1" in " ".join(err.__notes__)


def test_bins_at_r_integer_max_in_the_02_ece_and_cal_ci(data):
    # contract.R's ece (0.2.0) says the same (R 4.2.2, checked when this was written)
    p, y = data
    code = "ece(p, y, bins = 2^31 - 1)"
    _raises(lambda: pc.ece(p, y, bins=2 ** 31 - 1, strategy="equal_freq"), code)
    _raises(lambda: pc.cal_ci(p, y, bins=2 ** 31 - 1, n_boot=9, progress=False), code)


# ---------------------------------------------------------------------------
# item 7: inputs that got internal errors


def test_zero_dimensional_y_is_a_length_one_vector(data):
    p, _ = data
    _raises(lambda: pc.ece(p, np.array(1)), "ece(p, 1)")


def test_ragged_rows_are_r_list(data):
    _raises(lambda: pc.ece([[0.1, 0.2], [0.3]], [0, 1]), "ece(list(c(0.1, 0.2), 0.3), c(0, 1))")
    with pytest.raises(pc.ProbcalError, match="numeric vector"):
        pc.cal_platt([[0.1, 0.2], [0.3]], [0, 1])


class _Frame:
    """The data-frame protocol of polars and similar libraries (no pandas)."""

    def __init__(self, columns):
        self._data = columns
        self.columns = list(columns)
        self.shape = (len(next(iter(columns.values()))), len(columns))

    def to_numpy(self):
        return np.column_stack([np.asarray(v) for v in self._data.values()])

    def __iter__(self):  # numpy alone would see a sequence of columns
        return iter(self._data.values())

    def __len__(self):
        return len(self._data)


def _probabilities(seed=3, n=40):
    g = np.random.default_rng(seed)
    return g.dirichlet([1, 1, 1], n), g.integers(1, 4, n)


def test_a_foreign_data_frame_is_a_matrix():
    P, y = _probabilities()
    frame = _Frame({"a": P[:, 0], "b": P[:, 1], "c": P[:, 2]})
    assert pc.ece(frame, y) == pc.ece(P, y)
    assert pc.skce(frame, y) == pc.skce(P, y)


def test_a_polars_data_frame_is_a_matrix():
    pl = pytest.importorskip("polars")
    P, y = _probabilities()
    frame = pl.DataFrame(P, schema=["a", "b", "c"])
    assert pc.ece(frame, y) == pc.ece(P, y)
    assert pc.mmce(frame, y) == pc.mmce(P, y)
    with pytest.raises(pc.ProbcalError, match="numeric matrix"):
        pc.ece(pl.DataFrame({"a": [True, False], "b": [False, True]}), [1, 2])


@pytest.mark.parametrize("obj,code", [("abc", 'predict("abc", p)'), (1, "predict(1L, p)"),
                                      (np.array([[1.5]]), "predict(matrix(1.5), p)")])
def test_predict_on_a_non_calibrator_is_r_dispatch_error(data, obj, code):
    p, _ = data
    err = _raises(lambda: pc.predict(obj, p), code)
    assert isinstance(err, TypeError)


def test_non_numeric_temperature_is_r_operator_error(data):
    p, y = data
    fit = pc.cal_temperature(pc.logit(p), y)
    fit["temperature"] = "a"
    code = ('local({f <- cal_temperature(qlogis(p), y); f$temperature <- "a"; '
            'predict(f, qlogis(p))})')
    _raises(lambda: pc.predict(fit, pc.logit(p)), code)


def test_zero_temperature_is_r_error_without_numpy_warning(data):
    p, y = data
    fit = pc.cal_temperature(pc.logit(p), y)
    fit["temperature"] = 0
    code = ("local({f <- cal_temperature(qlogis(p), y); f$temperature <- 0; "
            "predict(f, qlogis(p))})")
    _raises(lambda: pc.predict(fit, pc.logit(p)), code)


@pytest.mark.parametrize("call,code", [
    (lambda p, y: pc.cal_platt(p, y, foo=1), "cal_platt(p, y, foo = 1)"),
    (lambda p, y: pc.cal_platt(p, y, foo=1, bar="a"), 'cal_platt(p, y, foo = 1, bar = "a")'),
    (lambda p, y: pc.cal_temperature(pc.logit(p), y, foo=1), "cal_temperature(qlogis(p), y, foo = 1)"),
])
def test_unknown_keyword_is_r_unused_argument(data, call, code):
    p, y = data
    err = _raises(lambda: call(p, y), code)
    assert isinstance(err, TypeError)  # what Python raises for the same mistake


def test_mixed_label_types_are_refused_clearly():
    from pycalib_r.sklearn import ProbcalCalibrator

    g = np.random.default_rng(0)
    y = np.array([1, "a"] * 20, dtype=object)
    with pytest.raises(ValueError, match="mixes"):
        ProbcalCalibrator(method="platt").fit(g.uniform(size=40), y)


# ---------------------------------------------------------------------------
# item 9: numpy warnings R does not give


def _silent(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


def test_a_denormal_bandwidth_warns_nothing(data):
    p, y = data
    assert np.isfinite(_silent(lambda: pc.mmce(p, y, bandwidth=5e-324)))
    assert _silent(lambda: pc.skce(p, y, bandwidth=5e-324)) == 0.0
    P = np.column_stack([1 - p, p])
    _silent(lambda: pc.skce(P, y + 1, bandwidth=5e-324))
    _silent(lambda: pc.cal_ci(p, y, metric="skce", bandwidth=5e-324, n_boot=9, progress=False,
                              rng=pc.RRandom(1)))


@pytest.mark.r_parity
def test_a_denormal_bandwidth_gives_r_value(probcal_r, data):
    p, y = data
    want = probcal_r.r("set.seed(1); p <- runif(50); y <- rbinom(50, 1, p); "
                       "mmce(p, y, bandwidth = 5e-324)")[0]
    assert pc.mmce(p, y, bandwidth=5e-324) == pytest.approx(want, rel=1e-12)


def test_vector_scaling_on_huge_logits_warns_nothing():
    g = np.random.default_rng(2)
    logits = g.normal(size=(50, 3)) * 1e300
    y = g.integers(1, 4, 50)
    fit = _silent(lambda: pc.cal_vector_scaling(logits, y))
    _silent(lambda: pc.predict(fit, logits))


# ---------------------------------------------------------------------------
# item 11


def test_a_pos_label_y_does_not_show_is_refused(data):
    from pycalib_r.sklearn import expected_calibration_error

    p, y = data
    with pytest.raises(ValueError, match=r"pos_label=5 is not one of \[0, 1\]"):
        expected_calibration_error(y, p, pos_label=5)
    assert expected_calibration_error(y, p, pos_label=1) == pc.ece(p, y)


@pytest.mark.parametrize("missing", [np.nan, None])
def test_a_missing_label_is_r_missing_value_error(data, missing):
    from pycalib_r.sklearn import expected_calibration_error

    p, y = data
    labels = y.astype(object if missing is None else float)
    labels[0] = missing
    with pytest.raises(pc.ProbcalError) as info:
        expected_calibration_error(labels, p)
    assert str(info.value) == R_SAYS["ece(p, c(NaN, y[-1]))"][1]
    with pytest.raises(pc.ProbcalError) as info:
        pc.ece(p, np.r_[np.nan, y[1:]])
    assert str(info.value) == R_SAYS["ece(p, c(NaN, y[-1]))"][1]


@pytest.mark.parametrize("name,code", [("ece", "ece(p, factor(y))"),
                                       ("cal_platt", "cal_platt(p, factor(y))")])
@pytest.mark.parametrize("wrap", [pd.Categorical, lambda y: pd.Series(y, dtype="category")])
def test_a_categorical_binary_y_is_refused_as_r_refuses_a_factor(data, name, code, wrap):
    p, y = data
    err = _raises(lambda: getattr(pc, name)(p, wrap(y)), code)
    assert "factor" in " ".join(err.__notes__)

"""Bad input: every check of probcal's R/utils.R gives R's conditionMessage().

Each case is (Python call, the same call in R, R's message). The pure test
checks pycalib_r's message; the r_parity test checks that R (probcal 0.1.0)
gives that very message, so the literal below is R's and not ours.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r.inputs import _checks

M2 = np.array([[0.5, 0.5], [0.2, 0.8]])
M2_R = "matrix(c(0.5, 0.2, 0.5, 0.8), 2)"

CASES = [
    # check_numeric_vector / check_probability (via ece on a vector)
    ("p-not-numeric", lambda: pc.ece(["a", "b"], [0, 1]), 'ece(c("a", "b"), c(0, 1))',
     "Argument `p` must be a numeric vector."),
    ("p-logical", lambda: pc.ece([True, False], [0, 1]), "ece(c(TRUE, FALSE), c(0, 1))",
     "Argument `p` must be a numeric vector."),
    ("p-empty", lambda: pc.ece([], []), "ece(numeric(0), numeric(0))",
     "Argument `p` must not be empty."),
    ("p-na", lambda: pc.ece([0.1, float("nan")], [0, 1]), "ece(c(0.1, NA), c(0, 1))",
     "Argument `p` must not contain missing values."),
    ("p-none", lambda: pc.ece([0.1, None], [0, 1]), "ece(c(0.1, NA), c(0, 1))",
     "Argument `p` must not contain missing values."),
    ("p-inf", lambda: pc.ece([0.1, math.inf], [0, 1]), "ece(c(0.1, Inf), c(0, 1))",
     "Argument `p` must contain only finite values."),
    ("p-range-high", lambda: pc.ece([0.1, 1.2], [0, 1]), "ece(c(0.1, 1.2), c(0, 1))",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    ("p-range-low", lambda: pc.mce([-0.1, 0.2], [0, 1]), "mce(c(-0.1, 0.2), c(0, 1))",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    # check_binary_y
    ("y-na", lambda: pc.ece([0.1, 0.2], [0, float("nan")]), "ece(c(0.1, 0.2), c(0, NA))",
     "Argument `y` must not contain missing or infinite values."),
    ("y-inf", lambda: pc.ace([0.1, 0.2], [0, math.inf]), "ace(c(0.1, 0.2), c(0, Inf))",
     "Argument `y` must not contain missing or infinite values."),
    ("y-not-binary", lambda: pc.ece([0.1, 0.2], [0, 2]), "ece(c(0.1, 0.2), c(0, 2))",
     "Argument `y` must contain only binary labels `0` and `1`."),
    ("y-string", lambda: pc.ece([0.1, 0.2], ["a", "b"]), 'ece(c(0.1, 0.2), c("a", "b"))',
     "Argument `y` must contain binary labels `0` and `1`."),
    ("y-empty", lambda: pc.mmce([0.1], []), "mmce(0.1, numeric(0))",
     "Argument `y` must not be empty."),
    # check_same_length
    ("length", lambda: pc.ece([0.1, 0.2, 0.3], [0, 1]), "ece(c(0.1, 0.2, 0.3), c(0, 1))",
     "Arguments `p` and `y` must have the same length."),
    # check_bins
    ("bins-zero", lambda: pc.ece([0.1, 0.2], [0, 1], bins=0), "ece(c(0.1, 0.2), c(0, 1), bins = 0)",
     "Argument `bins` must be a single positive integer."),
    ("bins-fraction", lambda: pc.ece([0.1, 0.2], [0, 1], bins=2.5),
     "ece(c(0.1, 0.2), c(0, 1), bins = 2.5)", "Argument `bins` must be a single positive integer."),
    ("bins-na", lambda: pc.mce([0.1, 0.2], [0, 1], bins=float("nan")),
     "mce(c(0.1, 0.2), c(0, 1), bins = NA_real_)", "Argument `bins` must be a single positive integer."),
    ("bins-vector", lambda: pc.ace([0.1, 0.2], [0, 1], bins=[2, 3]),
     "ace(c(0.1, 0.2), c(0, 1), bins = c(2, 3))", "Argument `bins` must be a single positive integer."),
    ("bins-string", lambda: pc.ece([0.1, 0.2], [0, 1], bins="3"),
     'ece(c(0.1, 0.2), c(0, 1), bins = "3")', "Argument `bins` must be a single positive integer."),
    # check_prob_matrix
    ("matrix-one-col", lambda: pc.ece(np.array([[1.0], [1.0]]), [1, 1]), "ece(matrix(1, 2, 1), c(1, 1))",
     "Argument `p` must have at least two columns, one per class."),
    ("matrix-empty", lambda: pc.ece(np.empty((0, 2)), []), "ece(matrix(numeric(0), 0, 2), integer(0))",
     "Argument `p` must not be empty."),
    ("matrix-na", lambda: pc.ece(np.array([[0.5, np.nan], [0.2, 0.8]]), [1, 2]),
     "ece(matrix(c(0.5, 0.2, NA, 0.8), 2), c(1, 2))",
     "Argument `p` must not contain missing or infinite values."),
    ("matrix-range", lambda: pc.ece(np.array([[1.5, -0.5], [0.2, 0.8]]), [1, 2]),
     "ece(matrix(c(1.5, 0.2, -0.5, 0.8), 2), c(1, 2))",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    ("matrix-rowsum", lambda: pc.ece(np.array([[0.5, 0.4], [0.2, 0.8]]), [1, 2]),
     "ece(matrix(c(0.5, 0.2, 0.4, 0.8), 2), c(1, 2))", "Each row of `p` must sum to `1`."),
    # check_multiclass_y
    ("y-mc-na", lambda: pc.ece(M2, [1, float("nan")]), f"ece({M2_R}, c(1, NA))",
     "Argument `y` must not contain missing values."),
    ("y-mc-fraction", lambda: pc.ece(M2, [1, 1.5]), f"ece({M2_R}, c(1, 1.5))",
     "Argument `y` must contain integer class codes or a factor."),
    ("y-mc-zero", lambda: pc.ece(M2, [0, 1]), f"ece({M2_R}, c(0, 1))",
     "Integer class codes in `y` must start at `1`."),
    ("y-mc-string", lambda: pc.ece(M2, ["a", "b"]), f'ece({M2_R}, c("a", "b"))',
     "Argument `y` must be a factor or a vector of integer class codes."),
    ("y-mc-one-class", lambda: pc.ece(M2, [1, 1]), f"ece({M2_R}, c(1, 1))",
     "Argument `y` must have at least two classes."),
    ("y-mc-too-many", lambda: pc.ece(M2, [1, 3]), f"ece({M2_R}, c(1, 3))",
     "Argument `y` has 3 classes but the input has 2 columns."),
    ("y-mc-factor-levels", lambda: pc.ece(M2, pd.Categorical(["a", "b"], categories=["a", "b", "c"])),
     f'ece({M2_R}, factor(c("a", "b"), levels = c("a", "b", "c")))',
     "Argument `y` has 3 classes but the input has 2 columns."),
    ("y-mc-length", lambda: pc.ece(M2, [1, 2, 1], type="confidence"),
     f'ece({M2_R}, c(1, 2, 1), type = "confidence")',
     "Arguments `p` and `y` must have the same number of observations."),
    ("y-mc-length-classwise", lambda: pc.ece(M2, [1, 2, 1]), f"ece({M2_R}, c(1, 2, 1))",
     "Arguments `p` and `y` must have the same length."),
    ("type-bad", lambda: pc.ece(M2, [1, 2], type="zz"), f'ece({M2_R}, c(1, 2), type = "zz")',
     "'arg' should be one of \u201cclasswise\u201d, \u201cconfidence\u201d"),
    # clip_prob / logit / inv_logit
    ("eps-zero", lambda: pc.logit([0.5], eps=0), "logit(0.5, eps = 0)",
     "Argument `eps` must be a single number in `(0, 0.5)`."),
    ("eps-half", lambda: pc.logit([0.5], eps=0.5), "logit(0.5, eps = 0.5)",
     "Argument `eps` must be a single number in `(0, 0.5)`."),
    ("logit-range", lambda: pc.logit([1.5]), "logit(1.5)",
     "Argument `p` must contain probabilities in `[0, 1]`."),
    ("inv-logit-inf", lambda: pc.inv_logit([1.0, math.inf]), "inv_logit(c(1, Inf))",
     "Argument `x` must contain only finite values."),
    ("inv-logit-string", lambda: pc.inv_logit("a"), 'inv_logit("a")',
     "Argument `x` must be a numeric vector."),
    # mmce bandwidth
    ("bandwidth-zero", lambda: pc.mmce([0.1, 0.2], [0, 1], bandwidth=0),
     "mmce(c(0.1, 0.2), c(0, 1), bandwidth = 0)", "Argument `bandwidth` must be a single positive number."),
    ("bandwidth-inf", lambda: pc.mmce([0.1, 0.2], [0, 1], bandwidth=math.inf),
     "mmce(c(0.1, 0.2), c(0, 1), bandwidth = Inf)", "Argument `bandwidth` must be a single positive number."),
    ("bandwidth-string", lambda: pc.mmce([0.1, 0.2], [0, 1], bandwidth="median"),
     'mmce(c(0.1, 0.2), c(0, 1), bandwidth = "median")',
     "Argument `bandwidth` must be a single positive number."),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_message(case):
    _, call, _, message = case
    with pytest.raises(pc.ProbcalError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.r_parity
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_message_is_r_message(probcal_r, case):
    _, _, r_call, message = case
    got = probcal_r.r(f"tryCatch({{{r_call}; NA_character_}}, error = function(e) conditionMessage(e))")[0]
    assert got == message


def test_error_is_value_error():
    assert issubclass(pc.ProbcalError, ValueError)


def test_match_arg_prefix_and_default():
    assert _checks.match_arg("conf", ("classwise", "confidence")) == "confidence"
    assert _checks.match_arg(None, ("classwise", "confidence")) == "classwise"
    with pytest.raises(pc.ProbcalError, match="should be one of"):
        _checks.match_arg("c", ("classwise", "confidence"))


def test_folds_checks():
    y = np.array([1, 1, 1, 2, 2])
    with pytest.raises(pc.ProbcalError, match=r"^Argument `folds` must be at least `2`\.$"):
        _checks.check_folds(1, y)
    with pytest.raises(pc.ProbcalError,
                       match=r"^Argument `folds` must not exceed the smallest class count\.$"):
        _checks.check_folds(3, y)
    assert _checks.check_folds(2.0, y) == 2


def test_require_both():
    with pytest.raises(pc.ProbcalError, match=r"at least one `0` and one `1`\.$"):
        _checks.check_binary_y([1, 1, 1], require_both=True)


def test_logit_matrix_checks():
    with pytest.raises(pc.ProbcalError, match=r"^Argument `logits` must be a numeric matrix"):
        _checks.check_logit_matrix([1.0, 2.0])
    with pytest.raises(pc.ProbcalError, match=r"must not contain missing or infinite values"):
        _checks.check_logit_matrix(np.array([[1.0, np.inf]]))


def test_inputs_not_modified():
    p = np.array([0.0, 0.3, 1.0])
    y = np.array([0, 1, 1])
    p_copy, y_copy = p.copy(), y.copy()
    pc.logit(p)
    pc.ece(p, y)
    pc.mmce(p, y)
    assert np.array_equal(p, p_copy) and np.array_equal(y, y_copy)
    series = pd.Series([0.2, 0.7], name="p")
    pc.ece(series, pd.Series([True, False]))
    assert series.tolist() == [0.2, 0.7]


def test_accepted_forms():
    p = [0.1, 0.4, 0.6, 0.9]
    ref = pc.ece(p, [0, 0, 1, 1])
    assert pc.ece(np.array(p), [False, False, True, True]) == ref
    assert pc.ece(pd.Series(p), pd.Series([0, 0, 1, 1])) == ref
    m = np.array([[0.7, 0.3], [0.4, 0.6], [0.9, 0.1]])
    ref_m = pc.ece(m, [1, 2, 2])
    assert pc.ece(pd.DataFrame(m, columns=["a", "b"]), pd.Categorical(["a", "b", "b"])) == ref_m
    assert pc.ece(m.tolist(), np.array([1, 2, 2])) == ref_m


def _old_row_rule(block, tolerance):
    # The rule as R states it: rowSums() in long double, rounded, minus 1.
    from pycalib_r.rbase._rarith import r_rowsums

    return bool((np.abs(r_rowsums(block) - 1) > tolerance).any())


@pytest.mark.parametrize("k", [2, 3, 5, 10, 64])
def test_row_sum_check_decides_as_rs_long_double_rule(k):
    # Rows whose sums sit within a few ulps of 1 +- tolerance, where a double
    # sum and R's long-double sum can disagree: the cheap check must give R's
    # decision for every single row and for blocks of them.
    from tests import _rowsum_cases

    g = np.random.default_rng(k)
    rows = []
    for _ in range(400):
        row = g.dirichlet(np.ones(k))
        row[-1] = 1 + g.choice([-1.0, 1.0]) * _rowsum_cases.TOLERANCE - row[:-1].sum()
        row[-1] += int(g.integers(-4, 5)) * np.spacing(row[-1])
        if 0 <= row[-1] <= 1:
            rows.append(row)
    rows = np.array(rows)
    both = 0
    for tol in (_rowsum_cases.TOLERANCE, 0.0, 1e-12):
        single = [_checks.rows_off_one(r[None, :], tol) for r in rows]
        assert single == [_old_row_rule(r[None, :], tol) for r in rows]
        both += len(set(single)) == 2
        inside = rows[~np.array(single)]
        assert not _checks.rows_off_one(inside, tol)
        assert _checks.rows_off_one(np.asfortranarray(rows), tol) == _old_row_rule(rows, tol)
    assert both >= 1  # the cases include rows on both sides


def test_row_sum_check_stored_cases():
    # The stored near-boundary rows (tests/_rowsum_cases.py: double sum and R's
    # long-double sum disagree on most of them) get R's verdict.
    from tests import _rowsum_cases

    for row in _rowsum_cases.cases():
        block = np.array([row])
        assert _checks.rows_off_one(block, _rowsum_cases.TOLERANCE) == \
            _rowsum_cases._long_double_verdict(np.array(row))


def test_prob_matrix_scan_kernel_is_the_twin():
    # The compiled one-pass scan finds what the numpy passes find (_scan and
    # the row-sum band), on matrices big enough to take it, every layout.
    from pycalib_r._native import kernels

    kern = kernels("inputs")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    g = np.random.default_rng(9)
    base = g.dirichlet(np.ones(5), 30_001)  # odd: the last row alone
    bad = {"nan": (7, 2, np.nan), "inf": (9, 0, np.inf), "neg": (3, 1, -0.5), "big": (5, 4, 1.5),
           "off": (11, 3, 0.9), "last": (30_000, 3, 0.9), "lastnan": (30_000, 0, np.nan),
           "negzero": (13, 2, -0.0), "one": (17, 1, 1.0), "lastneg": (30_000, 4, -1e-300)}
    for name, (i, j, v) in [("ok", (0, 0, base[0, 0]))] + list(bad.items()):
        m = base.copy()
        m[i, j] = v
        if name == "inf":
            m[i, j + 1] = -np.inf  # a NaN row sum from two infinities
        for arr in (m, np.asfortranarray(m), np.repeat(m, 2, axis=1)[:, ::2]):
            tol, margin = 1e-6, _checks._row_margin(5)
            nan, lo, hi, far, near = kern.prob_matrix_scan(arr, tol, margin)
            scan = _checks._scan(arr)
            assert (nan or not (np.isfinite(lo) and np.isfinite(hi))) == (not scan.finite)
            if scan.finite:
                # The range itself, or 0 and 1 when every entry is in [+0, 1]
                # (-0.0 takes the exact pass): the same range decision.
                unit = bool((arr.reshape(-1).view(np.uint64) if arr.flags.c_contiguous else
                             np.ascontiguousarray(arr).reshape(-1).view(np.uint64)).max() <= 0x3FF0000000000000)
                assert (lo, hi) == ((0.0, 1.0) if unit else (scan.lo, scan.hi))
                assert (lo < 0 or hi > 1) == (scan.lo < 0 or scan.hi > 1)
                assert unit == (name in ("ok", "off", "last", "one"))
                dist = np.abs(np.einsum("ij->i", arr) - 1)
                assert far == (dist > tol + margin).sum() and near == (dist >= tol - margin).sum()
                assert bool(far) == (name != "ok")
            if name.startswith("last"):
                assert scan.finite == (name in ("last", "lastneg"))
    with pytest.raises(pc.ProbcalError, match="must sum to"):
        m = base.copy()
        m[11, 3] += 1e-6 * 1.5
        pc.ece(m, g.integers(1, 6, m.shape[0]))


def test_top_label_kernel_is_the_twin():
    # R's multiclass_confidence(): the compiled pass and the blocks of argmax
    # agree on the first maximal column (ties, signed zeros), its value and
    # correctness, on every layout.
    from pycalib_r._native import kernels
    from pycalib_r.inputs import _forms

    kern = kernels("inputs")
    if kern is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    g = np.random.default_rng(10)
    p = np.round(g.dirichlet(np.ones(4), 40_000), 1)  # many ties
    p[::5] = [0.25, 0.25, 0.25, 0.25]
    p[1::9] = [0.0, -0.0, 0.0, 0.0]
    p[2::9] = [-0.0, 0.0, 0.0, 0.0]
    codes = g.integers(1, 5, p.shape[0])
    for arr in (p, np.asfortranarray(p), np.repeat(p, 2, axis=1)[:, ::2]):
        out = (np.empty(p.shape[0]), np.empty(p.shape[0], np.int64))
        kern.top_label(arr, codes, *out)
        want = _forms._top_label_numpy(arr, codes, np.empty(p.shape[0]), np.empty(p.shape[0], np.int64))
        assert np.array_equal(out[0].view(np.int64), want[0].view(np.int64))  # the bits, signed zeros too
        assert np.array_equal(out[1], want[1])


def test_plain_arrays_do_not_import_numpy_ma():
    # numpy.ma costs about 35 ms on its first use; a metric on plain arrays
    # in a new process must not pay it (a masked array can exist only once
    # numpy.ma is imported), and a masked array still gets R's message.
    import pathlib
    import subprocess
    import sys

    from tests.conftest import ORIGINAL_ENV

    repo = pathlib.Path(pc.__file__).parent.parent
    code = ("import sys, numpy as np, pycalib_r as pc\n"
            "pc.ece(np.array([0.2, 0.7]), np.array([0, 1]))\n"
            "pc.ece(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 2]))\n"
            "print('numpy.ma' in sys.modules)\n")
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(repo))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         timeout=600)
    assert out.stdout.split() == ["False"]
    with pytest.raises(pc.ProbcalError, match="must not contain missing values"):
        pc.ece(np.ma.masked_array([0.2, 0.5], [False, True]), [0, 1])


def test_one_pass_unit_check_takes_the_same_decisions():
    # check_probability's one-pass uint64 max over float64 bits and
    # check_binary_y's over int64 labels decide as the min/max scan does:
    # -0.0 is a probability, a negative number, NaN, inf or 1 + ulp is not.
    ok = [np.array([0.0, 1.0, 0.5]), np.array([-0.0, 0.25]), np.array([5e-324, 1.0])]
    for p in ok:
        assert _checks._in_unit(p) == (not np.signbit(p).any())
        np.testing.assert_array_equal(_checks.check_probability(p), p)
    bad = {-1e-300: "probabilities", np.nextafter(1.0, 2.0): "probabilities", math.inf: "finite",
           math.nan: "missing"}
    for v, word in bad.items():
        p = np.array([0.5, v, 0.2])
        assert not _checks._in_unit(p)
        with pytest.raises(pc.ProbcalError, match=word):
            _checks.check_probability(p)
    # int64 labels as a read-only view; a negative label reads as a huge one.
    for y, both in (([0, 1, 1], True), ([1, 1, 1], False), ([0, 0], False)):
        arr = np.array(y, dtype=np.int64)
        out = _checks.check_binary_y(arr, copy=False)
        assert not out.flags.writeable and np.shares_memory(out, arr)
        if both:
            _checks.check_binary_y(arr, require_both=True, copy=False)
        else:
            with pytest.raises(pc.ProbcalError, match="at least one `0` and one `1`"):
                _checks.check_binary_y(arr, require_both=True, copy=False)
    for y in ([0, -1, 1], [0, 2, 1]):
        with pytest.raises(pc.ProbcalError, match="only binary labels"):
            _checks.check_binary_y(np.array(y, dtype=np.int64), copy=False)

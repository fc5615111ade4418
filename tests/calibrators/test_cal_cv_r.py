"""cal_cv against live R: folds under a non-default RNGkind, and R's "unused argument"."""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest

import pycalib_r as pc

pytestmark = pytest.mark.r_parity


@contextlib.contextmanager
def _python_kinds(*kinds, **named):
    """pycalib_r's kinds switched quietly for the block, then restored."""
    before = pc.rng_kind()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pc.rng_kind(*kinds, **named)
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pc.rng_kind(*before)


def _r_data(ro, p_name, y_name):
    return np.asarray(ro.r(p_name), dtype=float), np.asarray(ro.r(y_name), dtype=np.int64)


def test_seed_uses_the_session_rng_kind(probcal_r):
    ro = probcal_r
    ro.r('suppressWarnings(RNGkind(sample.kind = "Rounding")); set.seed(3); cv_p <- runif(40); '
         'cv_y <- rbinom(40, 1, cv_p)')
    try:
        want = [list(ro.r(f'cal_cv(cv_p, cv_y, method = "histogram", folds = 3, seed = {s})$fold_id'))
                for s in (11, 12, 13)]
    finally:
        ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    p, y = _r_data(ro, "cv_p", "cv_y")
    with _python_kinds(sample_kind="Rounding"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [list(pc.cal_cv(p, y, method="histogram", folds=3, seed=s).fold_id) for s in (11, 12, 13)]
    # R's set.seed(s) keeps the kind without warning again.
    assert [str(w.message) for w in caught] == []
    assert got == want
    # The default kind gives other folds on these seeds (the test can fail).
    assert got != [list(pc.cal_cv(p, y, method="histogram", folds=3, seed=s).fold_id) for s in (11, 12, 13)]


@pytest.mark.parametrize("call,kwargs", [
    ('cal_cv(cv_p, cv_y, method = "beta", n_folds = 2)', dict(method="beta", n_folds=2)),
    ('cal_cv(cv_p, cv_y, method = "histogram", n_folds = 2, foo = "a")',
     dict(method="histogram", n_folds=2, foo="a")),
    ('cal_cv(cbind(cv_p, 1 - cv_p), cv_y + 1, method = "dirichlet", n_folds = 2)',
     dict(method="dirichlet", n_folds=2)),
])
def test_unused_argument_is_r_message(probcal_r, call, kwargs):
    ro = probcal_r
    ro.r("set.seed(3); cv_p <- runif(40); cv_y <- rbinom(40, 1, cv_p)")
    want = ro.r(f"tryCatch({{{call}; 'no error'}}, error = function(e) conditionMessage(e))")[0]
    p = np.asarray(ro.r("cv_p"), dtype=float)
    y = np.asarray(ro.r("cv_y"), dtype=np.int64)
    if kwargs["method"] == "dirichlet":
        p, y = np.column_stack([p, 1 - p]), y + 1
    with pytest.raises(pc.ProbcalError) as info:
        pc.cal_cv(p, y, **kwargs)
    assert str(info.value) == want


KINDS = ("Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper", "Mersenne-Twister",
         "Knuth-TAOCP", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG")
NORMAL_KINDS = ("Buggy Kinderman-Ramage", "Ahrens-Dieter", "Box-Muller", "Inversion",
                "Kinderman-Ramage")


@pytest.mark.parametrize("sample_kind", ["Rounding", "Rejection"])
@pytest.mark.parametrize("i", range(len(KINDS)))
def test_seeded_folds_and_fold_warnings_are_rs_under_every_kind(probcal_r, i, sample_kind):
    """Issue 31: cal_cv(seed =) on data whose folds warn (0/1 fitted
    probabilities), under every uniform and sample kind (and every normal
    kind, the buggy one included): R's folds, values and warnings, in order."""
    ro = probcal_r
    kinds = (KINDS[i], NORMAL_KINDS[i % len(NORMAL_KINDS)], sample_kind)
    ro.r('set.seed(4); sep_y <- rep(0:1, 20); '
         'sep_p <- round(ifelse(sep_y == 1, 0.55 + 0.44 * runif(40), 0.01 + 0.44 * runif(40)), 3)')
    code = ('local({ w <- character(); RNGkind("%s", "%s", "%s"); '
            'fit <- withCallingHandlers(cal_cv(sep_p, sep_y, method = "beta", folds = 2, seed = 77), '
            'warning = function(x) { w <<- c(w, conditionMessage(x)); invokeRestart("muffleWarning") }); '
            'list(fit$fold_id, fit$oof_predictions, w) })') % kinds
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fold_id, oof, r_warnings = ro.r(code)
    finally:
        ro.r('suppressWarnings(RNGkind("Mersenne-Twister", "Inversion", "Rejection"))')
    p, y = _r_data(ro, "sep_p", "sep_y")
    with _python_kinds(*kinds), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = pc.cal_cv(p, y, method="beta", folds=2, seed=77)
    assert list(fit.fold_id) == list(fold_id)
    np.testing.assert_array_equal(fit.oof_predictions, np.asarray(oof))
    assert len(r_warnings) > 2  # several fits warn (the test can fail)
    assert [str(w.message) for w in caught] == list(r_warnings)

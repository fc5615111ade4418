"""cal_cv against live R: folds under a non-default RNGkind, and R's "unused argument"."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pycalib_r as pc

pytestmark = pytest.mark.r_parity


def test_seed_uses_the_session_rng_kind(probcal_r):
    ro = probcal_r
    ro.r('suppressWarnings(RNGkind(sample.kind = "Rounding")); set.seed(3); cv_p <- runif(40); '
         'cv_y <- rbinom(40, 1, cv_p)')
    try:
        want = [list(ro.r(f'cal_cv(cv_p, cv_y, method = "histogram", folds = 3, seed = {s})$fold_id'))
                for s in (11, 12, 13)]
    finally:
        ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    p = np.asarray(ro.r("cv_p"), dtype=float)
    y = np.asarray(ro.r("cv_y"), dtype=np.int64)
    before = pc.rng_kind()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pc.rng_kind(sample_kind="Rounding")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = [list(pc.cal_cv(p, y, method="histogram", folds=3, seed=s).fold_id) for s in (11, 12, 13)]
        # R's set.seed(s) keeps the kind without warning again.
        assert [str(w.message) for w in caught] == []
    finally:
        pc.rng_kind(*before)
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

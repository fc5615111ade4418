"""pycalib_r against Kumar, Liang & Ma's own package (``uncertainty-calibration``).

Every quantity that package also computes, on one data set (tests/_kumar_cases.py):
plug-in l1, l2, l3 and the debiased l2 of a continuous model over 15
uniform-mass bins (``lower_bound_scaling_ce``), of a binned model
(``get_binning_ce``, here ``bins="unique"``), Guo's equal-width ECE
(``get_ece``), each binary, marginal and top-label; the top-label and
marginal MSE; ``PlattBinnerCalibrator`` and its marginal and top-label
forms, and their binning step alone. Live when ``calibration`` is importable,
else the values stored by ``python tools/make_kumar_fixture.py``.

Their bins are right-closed, pycalib_r's left-closed; no prediction lies on
an edge here (checked), so the partitions are the same. Where the
definitions coincide the largest difference is 5.6e-16 (relative 5.6e-16);
the full scaling-binning pipelines differ by the Platt fits' optimisers
(scikit-learn's L-BFGS at tol=1e-4 against R's IRLS), 1.2e-4 at most here.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import pycalib_r as pc
from tests import _kumar_cases as kc
from tests.conftest import REPO

STORED = json.loads((REPO / "reference" / "kumar_crosscheck.json").read_text(encoding="utf-8"))

try:
    import calibration
except ImportError:  # the package is a test extra: stored values then
    calibration = None


@pytest.fixture(scope="module")
def data():
    return kc.make_data(STORED["seed"])


@pytest.fixture(scope="module")
def reference(data):
    if calibration is None:
        stages = {k: np.asarray(v) for k, v in STORED["stages"].items()}
        return STORED["values"], stages
    return kc.authors(data, calibration)


@pytest.fixture(scope="module")
def mine(data, reference):
    return kc.ours(data, reference[1])


def test_no_prediction_on_a_bin_edge(data):
    assert kc.edge_free(data)
    # Every class's debiased squared l2 is positive, so the authors' per-class
    # clipping and pycalib_r's sum-then-clip give the same marginal value.
    assert kc.negative_classes(data) == 0


@pytest.mark.parametrize("name", sorted(STORED["values"]))
def test_agrees_with_the_authors_package(name, reference, mine):
    rtol, atol = kc.tolerance(name)
    np.testing.assert_allclose(mine[name], reference[0][name], rtol=rtol, atol=atol, err_msg=name)


def test_largest_difference_where_definitions_coincide(reference, mine):
    diffs = kc.differences(mine, reference[0])
    exact = [rel for name, (_, rel) in diffs.items() if not name.startswith("platt_binner/")]
    assert len(exact) == 28 and max(exact) <= kc.EXACT_RTOL
    pipelines = [d for name, (d, _) in diffs.items() if name.startswith("platt_binner/")]
    assert 0 < max(pipelines) <= kc.OPTIMISER_ATOL


@pytest.mark.skipif(calibration is None, reason="uncertainty-calibration not installed")
def test_stored_values_are_the_packages(reference):
    from importlib import metadata

    assert STORED["package_version"] == metadata.version("uncertainty-calibration")
    for name, value in STORED["values"].items():
        np.testing.assert_allclose(reference[0][name], value, rtol=1e-13, atol=1e-15, err_msg=name)


@pytest.mark.skipif(calibration is None, reason="uncertainty-calibration not installed")
def test_platt_step_coefficients_agree_to_the_optimisers_tolerance(data):
    _, clf = calibration.utils.get_platt_scaler(data["p"], data["y"], get_clf=True)
    fit = pc.cal_scaling_binning(data["p"], data["y"], bins=kc.SB_BINS)
    coef = fit.scalers[0].coefficients
    assert abs(coef["(Intercept)"] - clf.intercept_[0]) < 1e-3
    assert abs(coef["x"] - clf.coef_[0][0]) < 1e-3


@pytest.mark.skipif(calibration is None, reason="uncertainty-calibration not installed")
def test_debiased_l1_agrees_within_resampling_error(data):
    # Both are 2 * plug-in - mean of 1000 normal resamples (theirs numpy's,
    # these R's stream): they differ by the resamples' Monte Carlo error only.
    np.random.seed(1)
    theirs = calibration.utils.lower_bound_scaling_ce(data["p"], data["y"], p=1, debias=True,
                                                      num_bins=kc.BINS)
    pc.set_seed(1)
    mine = pc.calibration_error(data["p"], data["y"], norm=1, bins=kc.BINS)
    plug = pc.calibration_error(data["p"], data["y"], norm=1, bins=kc.BINS, debiased=False)
    assert mine < plug
    assert abs(mine - theirs) < 2e-3

"""calibration_error against the authors' package where it once departed (issues 45, 46).

- Item 45.5: the debiased l_p (p != 2) is the authors' ``2 E - mean(E*)``,
  unclipped (it can be negative), binary, marginal and top-label; the
  authors' normal draws are pycalib_r's stream's (tests/_kumar_traps.py).
- Item 45.13: ``bins="auto"`` is the authors' ``get_calibration_error``.
- Item 46.6: a large norm is computed scaled by the largest gap (mpmath's
  50-digit value is the reference).
- Item 46.14: counts beyond R's integer range name the argument.

Live when ``calibration`` (``uncertainty-calibration``) is importable, else the
values stored by ``python tools/make_kumar_traps_fixture.py``.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.binned import _calibration_error as ce
from pycalib_r.binned._binning import equal_mass_edges
from pycalib_r.rbase._errors import ProbcalError
from tests import _kumar_traps as kt
from tests.conftest import REPO

STORED = json.loads((REPO / "reference" / "kumar_traps.json").read_text(encoding="utf-8"))

try:
    import calibration
except ImportError:  # a test extra: stored values then
    calibration = None

RTOL = 1e-12


@pytest.fixture(scope="module")
def authors():
    if calibration is None:
        return STORED["values"]
    return kt.authors_values(calibration)


@pytest.mark.parametrize("case", kt.DEBIASED, ids=[c[0] for c in kt.DEBIASED])
def test_debiased_lp_is_the_authors_unclipped_value(case, authors):
    want = authors[case[0]]
    got = kt.ours_debiased(case)
    assert math.isclose(got, want, rel_tol=RTOL, abs_tol=0), (got, want)


def test_the_debiased_cases_hold_negative_estimates(authors):
    # The binary cases are negative themselves; the K = 10 marginal case
    # averages negative classes (each clipped to 0 before, the mean rose).
    assert authors["binary_l1_n40_4bins"] < 0 and authors["binary_l3_n40_4bins"] < 0
    case = kt.DEBIASED[3]
    p, y = kt.debiased_data(case)
    _, problems, _ = ce.input_problems(p, y, "marginal")
    pc.set_seed(case[2])
    from pycalib_r._rng import resolve_rng

    stream = resolve_rng(None)
    terms = [ce.lp_terms(*ce.problem_bins(r, c, case[4], "equal_mass"), 1.0, True, stream)
             for r, c in problems]
    assert min(terms) < 0 < max(terms)
    assert math.isclose(float(np.mean(terms)), authors[case[0]], rel_tol=RTOL)


@pytest.mark.skipif(calibration is None, reason="uncertainty-calibration not installed")
def test_stored_values_are_the_packages(authors):
    from importlib import metadata

    assert STORED["package_version"] == metadata.version("uncertainty-calibration")
    for name, value in STORED["values"].items():
        assert math.isclose(authors[name], value, rel_tol=1e-13, abs_tol=1e-15), name


@pytest.mark.parametrize("case", kt.AUTO, ids=[c[0] for c in kt.AUTO])
def test_auto_bins_are_get_calibration_error(case, authors):
    want = authors["auto/" + case[0]]
    got = kt.ours_auto(case)
    assert math.isclose(got, want, rel_tol=RTOL, abs_tol=0), (got, want)


def test_auto_bins_switch_at_a_quarter_of_n():
    # Fewer than n/4 distinct values in every column: one bin per value;
    # else 15 uniform-mass bins (the authors' enough_duplicates).
    p, y = kt.binary_data(4, 80)
    tied = np.round(p * 19) / 19          # 20 values >= 80 / 4: not discrete
    fewer = np.round(p * 18) / 18         # 19 values < 20: discrete
    assert np.unique(tied).size == 20 and np.unique(fewer).size == 19
    for x, bins in ((tied, 15), (fewer, "unique"), (p, 15)):
        assert pc.calibration_error(x, y, bins="auto") == pc.calibration_error(x, y, bins=bins)
    assert ce.auto_bins([fewer, p], 80) == 15 and ce.auto_bins([fewer], 80) == "unique"


def _exact_lp(p, y, norm, bins):
    import mpmath

    counts, conf, acc = ce.problem_bins(np.asarray(p, float), np.asarray(y), bins, "equal_mass")
    n = int(counts.sum())
    with mpmath.workdps(60):
        total = mpmath.fsum(mpmath.mpf(int(c)) / n * abs(mpmath.mpf(float(a)) - mpmath.mpf(float(r)))
                            ** norm for c, r, a in zip(counts, conf, acc))
        return float(total ** (mpmath.mpf(1) / norm))


@pytest.mark.parametrize("norm", [3, 7.5, 500, 1000, 5000, 1e6])
def test_large_norms_do_not_underflow(norm):
    pytest.importorskip("mpmath")
    p, y = kt.binary_data(9, 300)
    got = pc.calibration_error(p, y, norm=norm, debiased=False)
    assert math.isclose(got, _exact_lp(p, y, norm, 15), rel_tol=RTOL)
    top = pc.calibration_error(p, y, norm=math.inf, debiased=False)
    assert 0 < got <= top


def test_large_norms_are_monotone_in_every_form():
    P, codes = kt.multiclass_data(3, 300, 3)
    for type in ("marginal", "top", "classwise"):
        vals = [pc.calibration_error(P, codes, norm=q, debiased=False, type=type)
                for q in (2, 10, 100, 1000, 10000, math.inf)]
        assert all(a <= b * (1 + 1e-12) for a, b in zip(vals, vals[1:])), (type, vals)
        assert vals[-2] > 0.9 * vals[-1]
    pc.set_seed(1)
    deb = pc.calibration_error(P, codes, norm=1000, resamples=50)
    assert math.isfinite(deb) and deb > 0


def test_norms_one_and_two_keep_their_bits():
    # The present E^p path is kept for norms 1 and 2 (scaling would move bits).
    p, y = kt.binary_data(9, 300)
    counts, conf, acc = ce.problem_bins(p, y, 15, "equal_mass")
    w = counts / counts.sum()
    assert pc.calibration_error(p, y, norm=2, debiased=False) == np.sum(w * (acc - conf) ** 2) ** 0.5
    assert pc.calibration_error(p, y, norm=1, debiased=False) == pc.ece(
        p, y, bins=equal_mass_edges(p, 15))


@pytest.mark.parametrize("call, arg", [
    (lambda p, y: pc.calibration_error(p, y, bins=10 ** 12), "bins"),
    (lambda p, y: pc.calibration_error(p, y, norm=1, resamples=10 ** 12), "resamples"),
    (lambda p, y: pc.brier_score(p, y, bins=10 ** 12), "bins"),
    (lambda p, y: pc.cal_scaling_binning(p, y, bins=10 ** 12), "bins"),
    (lambda p, y: pc.ece_ci(p, y, bins=10 ** 12), "bins"),
    (lambda p, y: pc.ece_ci(p, y, bins=2.0 ** 31), "bins"),
])
def test_counts_beyond_rs_integers_name_the_argument(call, arg):
    p, y = kt.binary_data(1, 50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no R coercion warning: these are Python-only
        with pytest.raises(ProbcalError) as info:
            call(p, y)
    assert str(info.value) == (f"Argument `{arg}` must be a single positive integer of at most "
                               "2147483647 (2^31 - 1).")

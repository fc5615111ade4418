"""Fuzz parity: bad and odd inputs for every export, answered by live R.

reference/r/fuzz.R draws the cases in R (each argument valid with
probability 0.6, else one of a pool of odd or bad values: missing and
non-finite values, wrong types and shapes, lengths that disagree, codes
beyond the classes or beyond R's integer range, counts like 0, 2.5 and 2^31,
partial and ambiguous strings) and evaluates each in R (probcal 0.1.0, or
pycalib_r/r/contract.R for the 0.2.0 functions); every case must then give
the same value (within the manifest's tolerance) or byte for byte the same
error message in pycalib_r. A stored sample of the same generator,
reference/fixtures/fuzz.json (``Rscript tools/make_fuzz_fixtures.R``), is
checked without R by tests/suites/project/test_fixtures.py.

``PYCALIB_R_FUZZ_PER_FUNCTION`` sets the live cases per function (default
50, 20 functions); ``PYCALIB_R_FUZZ_SEED`` the seed (default fixed, so a
failure is reproducible).

The resource test runs the worst inputs of issue 9 in a child process limited
to 1 GB of address space and asserts R's answer, never a MemoryError.
"""

from __future__ import annotations

import json
import os
import textwrap
import warnings

import pytest

from tests import _rcall
from tests.conftest import child_json

REPO = _rcall.REPO
PER_FUNCTION = int(os.environ.get("PYCALIB_R_FUZZ_PER_FUNCTION", "50"))
SEED = int(os.environ.get("PYCALIB_R_FUZZ_SEED", "90210"))


@pytest.fixture(scope="module")
def fuzz_r(probcal_r):
    ro = probcal_r
    root = str(REPO).replace("\\", "/")
    ro.r(f'source("{root}/pycalib_r/r/harness.R")')
    ro.r(f'source("{root}/reference/r/fuzz.R")')
    ro.r("harness_setup()")
    if ro.r('as.integer(isTRUE(l10n_info()[["UTF-8"]]))')[0] != 1:
        ro.r('invisible(Sys.setlocale("LC_CTYPE", "C.UTF-8"))')
    ro.r(f'.pycalib_fuzz_envs <- harness_envs("{root}", need_probcal = TRUE)')
    return ro


def _live_cases(ro, seed: int, per_function: int):
    texts = ro.r(f"fuzz_cases(.pycalib_fuzz_envs, {seed}L, {per_function}L)")
    return [json.loads(t) for t in texts]


@pytest.mark.r_parity
def test_fuzz_cases_agree_with_live_r(fuzz_r):
    import pycalib_r

    cases = _live_cases(fuzz_r, SEED, PER_FUNCTION)
    assert len(cases) >= 19 * PER_FUNCTION
    failures = []
    errors = 0
    with warnings.catch_warnings():
        # R's warnings (NAs introduced by coercion, glm's fitted 0/1) are
        # suppressed on the R side too.
        warnings.simplefilter("ignore")
        for case in cases:
            errors += isinstance(case["expected"], dict) and "error" in case["expected"]
            outcome = _rcall.run_case(case, pycalib_r)
            if outcome.status != "pass":
                failures.append(f"{case['id']} {case['r_call']} {json.dumps(case['inputs'])[:400]}\n"
                                f"    {outcome.status}: {outcome.detail}")
    print(f"fuzz: {len(cases)} cases ({errors} R errors), {len(cases) - len(failures)} agree "
          f"(seed {SEED}, {PER_FUNCTION} per function)")
    assert not failures, (f"{len(failures)} of {len(cases)} fuzz cases differ from R "
                          f"(PYCALIB_R_FUZZ_SEED={SEED}):\n" + "\n".join(failures[:20]))


def test_stored_fuzz_fixtures_cover_every_export():
    manifest, files, problems = _rcall.load_fixtures()
    assert "fuzz.json" in files, "reference/fixtures/fuzz.json is not listed in the manifest"
    cases = files["fuzz.json"]["cases"]
    functions = {c["function"] for c in cases}
    errors = [c for c in cases if isinstance(c["expected"], dict) and "error" in c["expected"]]
    assert len(cases) >= 300 and len(errors) >= 100
    assert {"ece", "mce", "ace", "mmce", "skce", "logit", "inv_logit", "cal_test", "cal_ci",
            "cal_platt", "cal_beta", "cal_isotonic", "cal_histogram", "cal_temperature",
            "cal_vector_scaling", "cal_dirichlet", "cal_ovr", "cal_cv",
            "reliability_diagram"} <= functions


# ---------------------------------------------------------------------------
# Resource test: the worst inputs in 1 GB.

_CHILD = textwrap.dedent("""
    import json, resource, sys, warnings
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    warnings.simplefilter("ignore")
    import numpy as np
    import pycalib_r as pc

    g = pc.RRandom(9)
    p = g.runif(300)
    y = (g.runif(300) < p).astype(np.int64)
    third = np.full((6, 3), 1 / 3)
    big_p = g.runif(10 ** 6)
    big_y = (g.runif(10 ** 6) < big_p).astype(np.int64)
    cases = {
        "codes_1e8": lambda: pc.ece(third, [1, 2, 3, 1, 2, 10 ** 8]),
        "codes_1e10": lambda: pc.ece(third, [1, 2, 3, 1, 2, 10 ** 10]),
        "codes_1e10_skce": lambda: pc.skce(third, [1, 2, 3, 1, 2, 10 ** 10]),
        "bins_2_31": lambda: pc.ece(p, y, bins=2 ** 31),
        "bins_1e9_hist": lambda: pc.cal_histogram(p, y, bins=2 ** 31),
        "n_boot_ci": lambda: pc.cal_ci(p, y, n_boot=2 ** 31),
        "n_boot_test": lambda: pc.cal_test(p, y, n_boot=2 ** 31),
        "folds": lambda: pc.cal_cv(p, y, folds=2 ** 31),
        "bins_max": lambda: pc.ece(p, y, bins=2 ** 31 - 1),
        "bins_1e6": lambda: pc.ece(p, y, bins=10 ** 6),
        "bins_max_equal_freq": lambda: pc.ece(p, y, bins=2 ** 31 - 1, strategy="equal_freq"),
        "bins_1e8_equal_freq": lambda: pc.ece(p, y, bins=10 ** 8, strategy="equal_freq"),
        "hist_bins_1e6_equal_freq": lambda: pc.cal_histogram(p, y, bins=10 ** 6,
                                                             strategy="equal_freq").actual_bins,
        "hist_bins_max_equal_freq": lambda: pc.cal_histogram(p, y, bins=2 ** 31 - 1,
                                                             strategy="equal_freq").actual_bins,
        "hist_bins_max_equal_width": lambda: pc.cal_histogram(p, y, bins=2 ** 31 - 1).actual_bins,
        "ci_bins_max_equal_freq": lambda: pc.cal_ci(p, y, bins=2 ** 31 - 1, n_boot=20,
                                                    strategy="equal_freq", rng=pc.RRandom(1)).upper,
        "ci_bins_1e6": lambda: pc.cal_ci(p, y, bins=10 ** 6, n_boot=50, rng=pc.RRandom(1)).upper,
        "ci_1e6_rows": lambda: pc.cal_ci(big_p, big_y, metric="ace", bins=100, n_boot=20,
                                         rng=pc.RRandom(1)).upper,
    }
    out = {}
    for name, fn in cases.items():
        try:
            out[name] = ["value", float(fn())]
        except MemoryError as exc:
            out[name] = ["MemoryError", " ".join(getattr(exc, "__notes__", []))]
        except Exception as exc:
            out[name] = [type(exc).__name__, str(exc)]
    out["mean_abs"] = ["value", float(np.mean(np.abs(y - p)))]
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def child_results():
    return child_json(_CHILD, timeout=600)


def _r_message(ro, code: str) -> str:
    return ro.r(f"suppressWarnings(tryCatch({{{code}; 'no error'}}, "
                f"error = function(e) conditionMessage(e)))")[0]


def test_huge_bins_fit_1_gb_except_r_own_per_bin_result(child_results):
    # 300 distinct values: with 10^6 equal-frequency bins nearly every value
    # has a bin of its own, and the fit (R's breaks, counts and values, one
    # each per bin) fits in 1 GB.
    kind, value = child_results["hist_bins_1e6_equal_freq"]
    assert kind == "value" and 0.99 * 10 ** 6 < value <= 10 ** 6
    # With 2^31 - 1 bins R's `bins + 1L` overflows to NA and seq() refuses it
    # (issue 21 item 6): R's error, raised before any per-bin work, in 1 GB
    # (the message itself is checked against R below).
    for name in ("hist_bins_max_equal_freq", "hist_bins_max_equal_width", "bins_max",
                 "bins_max_equal_freq", "ci_bins_max_equal_freq"):
        kind, _ = child_results[name]
        assert kind == "ProbcalError", (name, child_results[name])


@pytest.mark.r_parity
def test_worst_inputs_give_r_messages_in_bounded_memory(child_results, fuzz_r):
    ro = fuzz_r
    ro.r("fz_third <- matrix(1/3, 6, 3); set.seed(9); fz_p <- runif(300); fz_y <- as.integer(runif(300) < fz_p)")
    contract = ".pycalib_fuzz_envs$contract"
    want = {
        "codes_1e8": _r_message(ro, "probcal::ece(fz_third, c(1, 2, 3, 1, 2, 1e8))"),
        "codes_1e10": _r_message(ro, "probcal::ece(fz_third, c(1, 2, 3, 1, 2, 1e10))"),
        "bins_2_31": _r_message(ro, "probcal::ece(fz_p, fz_y, bins = 2^31)"),
        "bins_1e9_hist": _r_message(ro, "probcal::cal_histogram(fz_p, fz_y, bins = 2^31)"),
        "n_boot_ci": _r_message(ro, f"{contract}$cal_ci(fz_p, fz_y, n_boot = 2^31)"),
        "n_boot_test": _r_message(ro, f"{contract}$cal_test(fz_p, fz_y, n_boot = 2^31)"),
        "folds": _r_message(ro, "probcal::cal_cv(fz_p, fz_y, folds = 2^31)"),
        "bins_max": _r_message(ro, "probcal::ece(fz_p, fz_y, bins = 2^31 - 1)"),
        "bins_max_equal_freq": _r_message(
            ro, f"{contract}$ece(fz_p, fz_y, bins = 2^31 - 1, strategy = 'equal_freq')"),
        "hist_bins_max_equal_width": _r_message(ro, "probcal::cal_histogram(fz_p, fz_y, bins = 2^31 - 1)"),
        "hist_bins_max_equal_freq": _r_message(
            ro, "probcal::cal_histogram(fz_p, fz_y, bins = 2^31 - 1, strategy = 'equal_freq')"),
        "ci_bins_max_equal_freq": _r_message(
            ro, f"{contract}$cal_ci(fz_p, fz_y, bins = 2^31 - 1, n_boot = 20, strategy = 'equal_freq')"),
    }
    # 0.2.0 functions check class codes as probcal 0.1.0 does (contract.R
    # would say "at least two classes" after max() of the NA: not copied).
    want["codes_1e10_skce"] = want["codes_1e10"]
    assert want["codes_1e8"] == "Argument `y` has 100000000 classes but the input has 3 columns."
    for name, message in want.items():
        assert child_results[name] == ["ProbcalError", message], name
    # Counts inside R's range but beyond the data: one bin per value at most.
    mean_abs = child_results["mean_abs"][1]
    for name in ("bins_1e6", "bins_1e8_equal_freq"):
        kind, value = child_results[name]
        assert kind == "value" and value == pytest.approx(mean_abs, rel=1e-12, abs=1e-15), name
    for name in ("ci_bins_1e6", "ci_1e6_rows"):
        kind, value = child_results[name]
        assert kind == "value" and 0 < value < 1, (name, child_results[name])

"""The Dask validation statistics against the in-memory ones (which match R: tests/diagnostics/test_validation.py).

Brier, Spiegelhalter's z and the Hosmer-Lemeshow statistic are merged chunk
sums: relative 1e-12 of the in-memory value (measured: printed); the
Hosmer-Lemeshow groups (exact order statistics), counts and degrees of
freedom are equal; refusals name the reason.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import pycalib_r as pc

da = pytest.importorskip("dask.array")
pcd = pytest.importorskip("pycalib_r.dask")

from tests import _validation_cases as vc  # noqa: E402


def _rel(a, b):
    return 0.0 if a == b else abs(a - b) / max(abs(b), 1e-300)


def test_mergeable_statistics_match_in_memory():
    worst = 0.0
    checked = 0
    for cid in range(60):
        c = vc.case(cid)
        p, y = c["p"], c["y"]
        if p.size < 3 or np.unique(y).size < 2:
            continue
        chunks = max(1, p.size // 3)
        dp, dy = da.from_array(p, chunks=chunks), da.from_array(y.astype(int), chunks=chunks)
        brier = float(np.mean((p - y) ** 2))
        worst = max(worst, _rel(pcd.brier(dp, dy), brier))
        if np.all((p > 0) & (p < 1)) or np.unique(p).size > 1:
            with np.errstate(all="ignore"):
                mem = pc.val_prob(p, y) if np.unique(p).size > 1 and np.all(np.isfinite(np.log(p / (1 - p)))) else None
            if mem is not None:
                z, zp = pcd.spiegelhalter_z(dp, dy)
                worst = max(worst, _rel(z, mem["S:z"]), _rel(zp, mem["S:p"]))
                assert _rel(pcd.brier(dp, dy), mem["Brier"]) < 1e-12
        try:
            ref = pc.hoslem_test(y, p, g=c["g"], data_name="y, p")
        except pc.ProbcalError as exc:
            with pytest.raises(pc.ProbcalError, match=str(exc).split("\n")[0][:20]):
                pcd.hoslem_test(dy, dp, g=c["g"], data_name="y, p")
            continue
        except Exception:
            continue
        got = pcd.hoslem_test(dy, dp, g=c["g"], data_name="y, p")
        assert got.groups == ref.groups and float(got.parameter) == float(ref.parameter)
        for k in ("y0", "y1"):
            assert np.array_equal(got.observed[k], ref.observed[k])
        worst = max(worst, _rel(float(got.statistic), float(ref.statistic)))
        if math.isfinite(float(ref.statistic)):
            assert _rel(float(got.statistic), float(ref.statistic)) < 1e-12
        checked += 1
    print(f"{checked} Hosmer-Lemeshow cases; largest relative difference {worst:.3g}")
    assert checked > 20 and worst < 1e-12


def test_refusals_name_the_reason():
    p = da.from_array(np.array([0.2, 0.4, 0.6]), chunks=2)
    y = da.from_array(np.array([0, 1, 1]), chunks=2)
    with pytest.raises(NotImplementedError, match="lowess"):
        pcd.val_prob(p, y)
    with pytest.raises(NotImplementedError, match="profile"):
        pcd.cal_intercept_slope(p, y)
    with pytest.raises(pc.ProbcalError, match="Argument g must be at least 2."):
        pcd.hoslem_test(y, p, g=1)

"""Smooth ECE against relplot (Blasiok & Nakkiran's package), issue 36.

Reference: relplot 1.0.3. Live when relplot is importable, otherwise the
stored values of reference/bin_free/smece.json (tools/make_smece_fixtures.py).
Stated tolerance: relative 1e-9 for the smooth ECE, the bandwidth, the
smoothed curve and the density, where the bandwidth bisection takes the same
steps (it compares floating-point numbers; the sums here run in another
order than relplot's np.add.at). Observed: bandwidths equal, values within
a few ulps.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.diagnostics._smece import _Smoother

REPO = Path(__file__).resolve().parents[2]
STORED = json.loads((REPO / "reference" / "bin_free" / "smece.json").read_text())
CASES = STORED["cases"]
RTOL = 1e-9


def _rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))


def _inputs(case):
    return np.array([float.fromhex(v) for v in case["p"]]), np.asarray(case["y"], dtype=np.int64)


def test_fixture_records_relplot_version():
    assert STORED["reference"] == "relplot 1.0.3"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_stored_relplot_values(case):
    p, y = _inputs(case)
    value, sigma = pc.smece(p, y, return_sigma=True)
    assert sigma == float.fromhex(case["sigma"])
    assert _rel(value, float.fromhex(case["smece"])) <= RTOL
    assert _rel(pc.smece(p, y, sigma=0.05), float.fromhex(case["smece_sigma_0_05"])) <= RTOL
    d = pc.smooth_reliability_diagram(p, y, n_boot=0)
    assert _rel(d.curves["mu"], [float.fromhex(v) for v in case["mu"]]) <= RTOL
    assert _rel(d.curves["density"], [float.fromhex(v) for v in case["density"]]) <= RTOL


def test_live_relplot():
    relplot = pytest.importorskip("relplot")
    rng = np.random.default_rng(12)
    worst = 0.0
    for n in (50, 1000, 20000):
        for shape in (0.5, 1.0, 1.7):
            f = rng.beta(2, 2, n)
            y = (rng.random(n) < f ** shape).astype(np.int64)
            ours, s1 = pc.smece(f, y, return_sigma=True)
            theirs, s2 = relplot.smECE(f, y.astype(float), return_width=True)
            assert s1 == s2
            worst = max(worst, _rel(ours, theirs))
    assert worst <= RTOL


def test_fixed_point_and_bounds():
    p, y = _inputs(CASES[0])
    value, sigma = pc.smece(p, y, return_sigma=True)
    # s* lies within one bisection step (2^-10) above the fixed point s = smECE_s
    assert sigma >= _Smoother(p, y.astype(float)).ece(sigma)
    assert sigma - 2 ** -10 < _Smoother(p, y.astype(float)).ece(sigma - 2 ** -10) or sigma < 0.002
    assert 0 <= value <= 1
    # a calibrated forecast has a small smooth ECE
    pc.set_seed(4)
    q = pc.runif(20000)
    assert pc.smece(q, pc.rbinom(20000, 1, q)) < 0.02


def test_chunked_binning_equals_one_pass(monkeypatch):
    import pycalib_r.diagnostics._smece as sm

    p, y = _inputs(CASES[2])
    whole = pc.smece(p, y)
    monkeypatch.setattr(sm, "_CHUNK", 777)
    assert _rel(pc.smece(p, y), whole) <= 1e-12


def test_multiclass_forms():
    pc.set_seed(5)
    raw = np.column_stack([pc.runif(400) for _ in range(3)])
    prob = raw / raw.sum(axis=1, keepdims=True)
    y = np.array(pc.sample_int(3, 400, replace=True))
    per_class = [pc.smece(prob[:, k], (y == k + 1).astype(int)) for k in range(3)]
    assert _rel(pc.smece(prob, y), np.mean(per_class)) <= 1e-15
    conf = pc.smece(prob, y, type="confidence")
    top, correct = prob.max(axis=1), (prob.argmax(axis=1) + 1 == y).astype(int)
    assert conf == pc.smece(top, correct)
    d = pc.smooth_reliability_diagram(prob, y, n_boot=5, rng=1)
    assert list(dict.fromkeys(d.curves["class_label"])) == ["1", "2", "3"]


def test_band_uses_the_stream_and_covers_the_curve():
    p, y = _inputs(CASES[0])
    a = pc.smooth_reliability_diagram(p, y, n_boot=30, rng=3)
    pc.set_seed(3)
    b = pc.smooth_reliability_diagram(p, y, n_boot=30)
    np.testing.assert_array_equal(a.curves["lower"], b.curves["lower"])
    inside = (a.curves["lower"] <= a.curves["mu"]) & (a.curves["mu"] <= a.curves["upper"])
    assert inside.mean() > 0.9


def test_errors():
    with pytest.raises(pc.ProbcalError, match="sigma"):
        pc.smece([0.2, 0.4], [0, 1], sigma=2)
    with pytest.raises(pc.ProbcalError):
        pc.smece([0.2, 1.4], [0, 1])
    with pytest.raises(pc.ProbcalError, match="n_boot"):
        pc.smooth_reliability_diagram([0.2, 0.4], [0, 1], n_boot=-1)


def test_plot():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    p, y = _inputs(CASES[1])
    fig, ax = plt.subplots()
    out = pc.smooth_reliability_diagram(p, y, n_boot=10, rng=1).plot(ax=ax)
    assert out is fig
    assert {c.get_gid() for c in ax.get_children()} >= {"curve", "band", "density"}
    plt.close(fig)

"""R's pchisq/qchisq (nmath pgamma.c/qgamma.c) bit for bit: the port in
pycalib_r.rstats._gamma_dist against R on 28,200 values.

The grid (tests/_nmath_gamma_cases.py): df in 1..30, 0.5, 1.5, 100, 1e3, 1e5
plus 37, 55.5, 71, 250, 1e7, 1e9, 3e17 and the edges 0, 1e-12, Inf, -1, NaN; both tails, both scales; quantiles
and probabilities across the range including 0, Inf, NaN, p in {0, 1} and
out-of-range values. Stored values (reference/nmath/gamma_dist.json, written
by tools/make_nmath_gamma_fixture.py from R 4.2.2) serve runs without R; the
r_parity test asks R live. The target is 0 non-identical results (the sign
of zero and NaN's payload aside: every NaN counts as equal).
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

from pycalib_r.rstats import _gamma_base as base
from pycalib_r.rstats._gamma_dist import (dgamma, pchisq, pgamma, qchisq, qgamma)
from tests import _nmath_gamma_cases as cases

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "nmath" / "gamma_dist.json"
FNS = {"pchisq": pchisq, "qchisq": qchisq}


def _ours(fn, df, lower, log_p, x):
    f = FNS[fn]
    return np.array([f(float(v), df, lower, log_p) for v in x])


def _bits(v: float) -> int:
    return struct.unpack("<q", struct.pack("<d", v))[0]


def _compare(ref: np.ndarray, got: np.ndarray):
    """(count of non-identical values, largest difference in ulps, first few)."""
    bad, worst, first = 0, 0, []
    for a, b in zip(ref, got):
        if (math.isnan(a) and math.isnan(b)) or _bits(a) == _bits(b):
            continue
        bad += 1
        if math.isfinite(a) and math.isfinite(b) and (a >= 0) == (b >= 0):
            worst = max(worst, abs(_bits(a) - _bits(b)))
        else:
            worst = max(worst, 2 ** 63 - 1)
        if len(first) < 5:
            first.append((a, b))
    return bad, worst, first


def _groups_with_ours():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no path of the grid warns (R's warnings are silent)
        return [(fn, df, lo, lg, x, _ours(fn, df, lo, lg, x)) for fn, df, lo, lg, x in cases.groups()]


def test_grid_size():
    assert sum(len(g[-1]) for g in cases.groups()) >= 20_000


def test_stored_r_values_bit_for_bit():
    """Against R 4.2.2's stored values (no R needed)."""
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert doc["r_version"] == "4.2.2"
    stored = doc["groups"]
    ours = _groups_with_ours()
    assert len(stored) == len(ours)
    total = bad = worst = 0
    report = []
    for rec, (fn, df, lo, lg, x, got) in zip(stored, ours):
        assert (rec["fn"], float.fromhex(rec["df"]), rec["lower_tail"], rec["log_p"]) == \
            (fn, df, lo, lg) or math.isnan(df)
        sha = hashlib.sha256(np.asarray(x, dtype="<f8").tobytes()).hexdigest()
        assert rec["x_sha256"] == sha, ("the grid of tests/_nmath_gamma_cases.py changed: "
                                        "rerun python tools/make_nmath_gamma_fixture.py")
        ref = np.array([float.fromhex(h) for h in rec["r"]])
        b, w, first = _compare(ref, got)
        total += len(ref)
        bad += b
        worst = max(worst, w)
        if b:
            report.append(f"{fn}(df={df}, lower={lo}, log={lg}): {b} differ, e.g. {first}")
    assert total == 28_200
    assert bad == 0, f"{bad} of {total} differ (largest {worst} ulps):\n" + "\n".join(report)


@pytest.mark.r_parity
def test_live_r_bit_for_bit(r):
    """Against R live through rpy2, on the same grid."""
    total = bad = 0
    report = []
    for fn, df, lo, lg, x, got in _groups_with_ours():
        ref = cases.r_values(r, fn, df, lo, lg, x)
        b, w, first = _compare(ref, got)
        total += len(ref)
        bad += b
        if b:
            report.append(f"{fn}(df={df}, lower={lo}, log={lg}): {b} differ ({w} ulps), {first}")
    assert bad == 0, f"{bad} of {total} differ:\n" + "\n".join(report)


@pytest.mark.r_parity
def test_live_r_gamma_scale_and_pieces(r):
    """pgamma/qgamma with a scale, dgamma, lgammafn, qnorm/pnorm with tails, on random arguments."""
    g = np.random.default_rng(3737)
    shape = np.concatenate([g.uniform(0.01, 3, 40), g.uniform(3, 500, 40), [1e-11, 0.5, 1, 7.5]])
    scale = g.uniform(0.1, 10, shape.size)
    x = g.gamma(shape, scale)
    p = g.uniform(size=shape.size)
    rv = lambda code, *a: np.array(r.r(code)(*[r.FloatVector(v) for v in a]))  # noqa: E731
    checks = [
        (rv("function(x, a, s) pgamma(x, a, scale = s)", x, shape, scale),
         [pgamma(*t) for t in zip(x, shape, scale)]),
        (rv("function(x, a, s) pgamma(x, a, scale = s, lower.tail = FALSE, log.p = TRUE)",
            x, shape, scale), [pgamma(a, b, c, False, True) for a, b, c in zip(x, shape, scale)]),
        (rv("function(p, a, s) qgamma(p, a, scale = s)", p, shape, scale),
         [qgamma(*t) for t in zip(p, shape, scale)]),
        (rv("function(x, a, s) dgamma(x, a, scale = s, log = TRUE)", x, shape, scale),
         [dgamma(a, b, c, True) for a, b, c in zip(x, shape, scale)]),
        (rv("function(a) lgamma(a)", shape), [base.lgammafn(float(a)) for a in shape]),
        (rv("function(p) qnorm(log(p), lower.tail = FALSE, log.p = TRUE)", p),
         [base.qnorm(math.log(float(v)), False, True) for v in p]),
        (rv("function(x) pnorm(x, log.p = TRUE)", x - 20), [base.pnorm(float(v) - 20, True, True) for v in x]),
    ]
    for ref, got in checks:
        bad, worst, first = _compare(ref, np.array(got))
        assert bad == 0, (bad, worst, first)


@pytest.mark.r_parity
def test_live_r_normal_tails(r):
    """pnorm (rbase's pnorm_both, which pnorm_upper also uses) and qnorm, every tail and scale."""
    from pycalib_r.rbase._rarith import pnorm_upper
    x = np.concatenate([np.linspace(-40, 40, 801), [-1e300, -1e170, -50, 1e-20, 0.0, 50, 1e300]])
    p = np.concatenate([np.linspace(0, 1, 401), [1e-300, 1e-20, 1 - 1e-16]])
    logp = np.concatenate([-np.logspace(-300, 6, 200), [-np.inf, 0.0]])
    for lower in (True, False):
        for log_p in (False, True):
            ref = np.array(r.r(f"function(x) pnorm(x, lower.tail = {str(lower).upper()}, "
                               f"log.p = {str(log_p).upper()})")(r.FloatVector(x)))
            got = np.array([base.pnorm(float(v), lower, log_p) for v in x])
            assert _compare(ref, got)[0] == 0, (lower, log_p, _compare(ref, got))
            arg = logp if log_p else p
            ref = np.array(r.r(f"function(p) qnorm(p, lower.tail = {str(lower).upper()}, "
                               f"log.p = {str(log_p).upper()})")(r.FloatVector(arg)))
            got = np.array([base.qnorm(float(v), lower, log_p) for v in arg])
            assert _compare(ref, got)[0] == 0, (lower, log_p, _compare(ref, got))
    ref = np.array(r.r("function(x) pnorm(x, lower.tail = FALSE)")(r.FloatVector(x)))
    assert _compare(ref, np.array([pnorm_upper(float(v)) for v in x]))[0] == 0


def test_edges():
    """dpq.h's edges: the boundaries of q and p, df = 0, bad arguments give NaN."""
    assert pchisq(0.0, 3) == 0.0 and pchisq(math.inf, 3) == 1.0
    assert pchisq(-1.0, 3, False, True) == 0.0 and pchisq(math.inf, 3, True, True) == 0.0
    assert pchisq(1.0, 0) == 1.0 and pchisq(0.0, 0) == 0.0
    assert math.isnan(pchisq(1.0, -1)) and math.isnan(qchisq(1.5, 2))
    assert math.isnan(qchisq(0.5, 2, log_p=True)) and math.isnan(pchisq(math.nan, 2))
    assert qchisq(0.0, 2) == 0.0 and qchisq(1.0, 2) == math.inf
    assert qchisq(0.0, 2, False) == math.inf and qchisq(1.0, 2, False) == 0.0
    assert qchisq(0.0, 2, log_p=True) == math.inf and qchisq(-math.inf, 2, False, True) == math.inf
    assert qchisq(0.3, 0) == 0.0

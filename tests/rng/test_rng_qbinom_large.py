"""qbinom(p, size, prob, lower.tail = FALSE) and rbinom for sizes >= 2^31 - 1
against R 4.2.2: how many integers differ now that the binomial probabilities
come from SciPy's betainc (Boost.Math's ibeta), not from TOMS 708.

R's search (qbinom.c, qDiscrete_search.h) is ported operation for operation;
only pbinom's last bits differ. The cases (tests/_qbinom_large_cases.py):
sizes 2^31 - 1, 2^31, 2^33, 2^40, 1e15 and 2^52; 1,200 qbinom pairs per size
(prob and p uniform, near 0 and near 1) and 6 x 200 rbinom draws per size
(plus 4 qbinom cases where betainc underflows)
after set.seed. Stored values (reference/nmath/qbinom_large.json, written by
tools/make_qbinom_large_fixture.py from R 4.2.2) serve runs without R; the
r_parity tests ask R live. The counts asserted below are the measured ones:
0 differences up to 2^40; at 1e15 and 2^52 a few, where one ulp of prob
moves pbinom by more than ibeta's and R's values differ (docs/provenance.md,
"TOMS 708").
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from pycalib_r._rng import RRandom
from pycalib_r.rstats import _qdiscrete as Q
from tests import _qbinom_large_cases as cases

FIXTURE = Path(__file__).resolve().parents[2] / "reference" / "nmath" / "qbinom_large.json"

# Measured with SciPy 1.17.1 against R 4.2.2: values differing from R's, by
# size (qbinom out of 1,200 per size, rbinom out of 1,200 per size). Also in
# docs/provenance.md and docs/migrating-from-r.md: update them together.
QBINOM_DIFFER = {2.0**31 - 1: 0, 2.0**31: 0, 2.0**33: 0, 2.0**40: 0, 1e15: 6, 2.0**52: 12}
RBINOM_DIFFER = {2.0**31 - 1: 0, 2.0**31: 0, 2.0**33: 0, 2.0**40: 0, 1e15: 1, 2.0**52: 13}
# How far a differing value may be from R's: at 1e15 the neighbour; at 2^52
# R's search itself stops at a step of up to 7 (incr > y * 1e-15), so a
# different last comparison moves the answer by up to that step.
MAX_GAP = {1e15: 1, 2.0**52: 7}


@functools.cache
def _ours():
    p, size, prob = cases.qbinom_cases()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        q = np.array([Q.qbinom_upper(a, b, c) for a, b, c in zip(p, size, prob)])
        draws = [np.asarray(RRandom(seed).rbinom(cases.K, n, pr), dtype=np.float64)
                 for seed, n, pr in cases.rbinom_cases()]
    return p, size, prob, q, draws


def _check(size, q, rq, draws, r_draws):
    """The differences by size against the measured counts (and their gaps)."""
    report = []
    for s in cases.SIZES:
        dq = (q - rq)[size == s]
        db = np.concatenate([o - t for o, t, (_, n, _) in zip(draws, r_draws, cases.rbinom_cases())
                             if n == s])
        nq, nb = int(np.count_nonzero(dq)), int(np.count_nonzero(db))
        gap = max(np.max(np.abs(dq)), np.max(np.abs(db)))
        if nq != QBINOM_DIFFER[s] or nb != RBINOM_DIFFER[s] or gap > MAX_GAP.get(s, 0):
            report.append(f"size {s:.17g}: qbinom {nq} of {dq.size} differ "
                          f"(measured {QBINOM_DIFFER[s]}), rbinom {nb} of {db.size} "
                          f"(measured {RBINOM_DIFFER[s]}), largest gap {gap:g}")
    assert not report, ("R's integers and pycalib_r's differ otherwise than measured; if SciPy's "
                        "betainc changed, update the counts here and in docs/provenance.md and "
                        "docs/migrating-from-r.md:\n" + "\n".join(report))


def test_grid_size():
    p, size, prob = cases.qbinom_cases()
    assert p.size == len(cases.SIZES) * cases.N_Q + len(cases.UNDERFLOW) == 7204
    assert len(cases.rbinom_cases()) * cases.K == 7200
    assert ((p > 0) & (p < 1) & (prob > 0) & (prob < 1)).all()
    assert (size >= 2**31 - 1).all()
    # Near 0 and near 1, for p and prob.
    for v in (p, prob):
        assert (v < 1e-10).sum() > 500 and (v > 1 - 1e-10).sum() > 500


def test_stored_r_values():
    """Against R 4.2.2's stored values (no R needed)."""
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert doc["r_version"] == "4.2.2"
    p, size, prob, q, draws = _ours()
    assert doc["qbinom"]["sha256"] == cases.digest(p, size, prob), (
        "the cases of tests/_qbinom_large_cases.py changed: rerun "
        "python tools/make_qbinom_large_fixture.py")
    rq = np.array(doc["qbinom"]["r"], dtype=np.float64)
    stored = doc["rbinom"]
    assert [(d["seed"], float.fromhex(d["size"]), float.fromhex(d["prob"])) for d in stored] \
        == cases.rbinom_cases()
    _check(size, q, rq, draws, [np.array(d["r"], dtype=np.float64) for d in stored])


@pytest.mark.r_parity
def test_live_r(r):
    """Against R live through rpy2, on the same cases."""
    p, size, prob, q, draws = _ours()
    rq = cases.r_qbinom(r, p, size, prob)
    r_draws = [cases.r_rbinom(r, seed, n, pr) for seed, n, pr in cases.rbinom_cases()]
    _check(size, q, rq, draws, r_draws)


@pytest.mark.r_parity
def test_live_r_pbinom_where_betainc_underflows(r):
    """Prob near 1, x near size: betainc gives 0 below about 1e-263; the
    swapped betaincc gives R's tail (to 1e-12 relative), down to R's own 0."""
    pbinom = r.r("function(x, n, pr) pbinom(x, n, pr, lower.tail = FALSE)")
    seen = 0
    for n, pr in ((2.0**31 - 1, 0.9999996480207913), (2.0**33, 0.9999999078534945),
                  (2.0**31, 0.9999996), (2.0**40, 1 - 2.0**-40)):
        for k in range(1, 80):
            x = n - k
            theirs = pbinom(x, n, pr)[0]
            ours = Q.pbinom_upper(x, n, pr)
            assert ours == theirs or abs(ours - theirs) <= 1e-12 * theirs, (n, pr, k)
            seen += theirs < 1e-263 and theirs > 0 and Q._special().betainc(x + 1, k, pr) == 0
    assert seen > 20


@pytest.mark.r_parity
def test_live_r_differences_are_within_pbinoms_conditioning(r):
    """Where an integer differs, R's and ibeta's pbinom at the smaller of the two
    answers differ by about what one ulp of ``prob`` changes in R's own pbinom
    (the median ratio below 1): a resolution that no formula other than
    ``bratio``'s own arithmetic reaches."""
    p, size, prob, q, _ = _ours()
    rq = cases.r_qbinom(r, p, size, prob)
    idx = np.flatnonzero(q != rq)
    assert idx.size == sum(QBINOM_DIFFER.values())
    pbinom = r.r("function(x, n, pr) pbinom(x, n, pr, lower.tail = FALSE)")
    rel, ratio = [], []
    for i in idx:
        x = float(min(q[i], rq[i]))
        n, pr = float(size[i]), float(prob[i])
        theirs = pbinom(x, n, pr)[0]
        ours = Q.pbinom_upper(x, n, pr)
        moved = pbinom(x, n, float(np.nextafter(pr, 1.0)))[0]
        rel.append(abs(ours - theirs) / min(theirs, 1 - theirs))
        ratio.append(abs(ours - theirs) / max(abs(moved - theirs), math.ulp(theirs)))
    assert max(rel) < 1e-4
    assert np.median(ratio) < 1

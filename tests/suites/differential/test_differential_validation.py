"""Differential generator, validation half: random programs through R and through pycalib_r.

A sibling of tests/suites/differential/test_differential_probcal.py for ``val_prob``,
``hoslem_test``, ``cal_intercept_slope`` and ``lowess``. Program ``pid``
(reproducible from its id alone) takes the data of
``tests/_validation_cases.case(pid)`` - uniform, tied, skewed, with exact 0s
and 1s, all equal, near-duplicates a few ulps apart, one outcome only;
n = 3..2,500 - with random arguments (hoslem's ``g``, the confidence level,
lowess's ``f`` and ``iter``), and adds: ``val.prob(logit = qlogis(p), y)``
when every ``p`` is inside (0, 1), one bad call whose R error message
must come back byte for byte, and a grouped call
``val.prob(p, y, group, weights, normwt, g.group, evaluate, nmin)`` on the
data of ``tests/_val_probg_cases.case(pid)`` (character, logical, numeric -
cut by ``cut2`` -, factor or ``TRUE`` groups, unequal weights), compared bit
for bit with its print and warnings (tests/_val_probg_cases.py).

R evaluates through rpy2 (reference/r/validation.R: rms 6.5-0, MASS,
ResourceSelection 0.3-6 when installed - its calls are skipped otherwise,
the stored answers of tests/diagnostics/test_validation.py cover them); comparison and
tolerances are tests/_validation_cases.py's. Profile intervals under
(quasi-)separation are compared too, and counted.

``PYCALIB_R_DIFF_VALIDATION=N`` runs programs FIRST..FIRST+N-1 (default 100);
``PYCALIB_R_DIFF_VALIDATION_FIRST=K`` (default 200000, ids unseen by the
stored cases) starts elsewhere, for a held-out run.
"""

from __future__ import annotations

import json
import os
import random
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.rstats._lowess import lowess

from tests import _val_probg_cases as gc
from tests import _validation_cases as vc
from tests._rcall import REPO

pytestmark = pytest.mark.r_parity

COUNT = int(os.environ.get("PYCALIB_R_DIFF_VALIDATION", "100"))
FIRST = int(os.environ.get("PYCALIB_R_DIFF_VALIDATION_FIRST", "200000"))

# (R code, Python call) for the bad calls; p and y are the program's data.
BAD_CALLS = [
    ("rms::val.prob(p, y[-1], pl = FALSE)", lambda p, y: pc.val_prob(p, y[:-1])),
    ("rms::val.prob(p[1:2], y[1:2], pl = FALSE)", lambda p, y: pc.val_prob(p[:2], y[:2])),
    ("rms::val.prob(p, 0 * y, pl = FALSE)", lambda p, y: pc.val_prob(p, 0 * y)),
    ("lowess(p, y, f = 0)", lambda p, y: lowess(p, y, f=0)),
    ("lowess(p, y, iter = -1L)", lambda p, y: lowess(p, y, iter=-1)),
    ("ResourceSelection::hoslem.test(y, p, g = 1)", lambda p, y: pc.hoslem_test(y, p, g=1)),
]


def _program(pid: int):
    g = random.Random(104729 * pid + 3)
    return vc.case(pid), g.randrange(len(BAD_CALLS))


def _python_error(fn, p, y) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(p, y)
        except Exception as exc:  # noqa: BLE001 - the message is compared
            return str(exc)
    return "no error"


@pytest.fixture(scope="module")
def validation_r(r):
    root = str(REPO).replace("\\", "/")
    r.r(f'source("{root}/pycalib_r/r/harness.R"); source("{root}/reference/r/validation.R")')
    versions = json.loads(r.r("harness_json(validation_versions())")[0])
    return r, versions


def test_programs_agree_with_r(validation_r):
    from rpy2.robjects import FloatVector

    ro, versions = validation_r
    has_rs = versions.get("ResourceSelection") not in (None, "NA")
    diffs = vc.Diffs()
    grouped = gc.Diffs()
    calls = 0
    for pid in range(FIRST, FIRST + COUNT):
        gcase = gc.case(pid)
        gc.compare(gc.python_side(gcase), gc.r_json(ro, gcase), grouped, f"program {pid} grouped")
        calls += 1
        c, bad = _program(pid)
        p, y = c["p"], c["y"]
        vc.compare(vc.python_side(c), vc.r_json(ro, c), diffs, f"program {pid}", hoslem=has_rs)
        calls += 4
        if np.all((p > 0) & (p < 1)):
            lg = np.log(p / (1 - p))
            r_out = json.loads(ro.r["validation_logit_json"](FloatVector(lg), FloatVector(y))[0])
            py_out = vc._try(lambda: _vp_logit(lg, y))
            vc.compare({"val_prob": py_out, "hoslem": {}, "glm": {"error": None},
                        "lowess": {"error": None}},
                       {"val_prob": r_out, "hoslem": {"absent": True}, "glm": {"error": None},
                        "lowess": {"error": None}}, diffs, f"program {pid} logit")
            calls += 1
        code, fn = BAD_CALLS[bad]
        if "ResourceSelection" in code and not has_rs:
            continue
        ro.globalenv["p"], ro.globalenv["y"] = FloatVector(p), FloatVector(y)
        expected = ro.r["validation_error"](code, ro.globalenv["p"], ro.globalenv["y"])[0]
        diffs.text(f"program {pid} bad call {code}", _python_error(fn, p, y), expected)
        calls += 1
    print(f"grouped val.prob: {COUNT} calls, {len(grouped.items)} differences over "
          f"{grouped.numbers} numbers, largest relative difference {grouped.largest} "
          f"({grouped.singular} where R stops with solve()'s condition-number error, compared)")
    diffs.items.extend(grouped.items)
    print(f"{COUNT} programs ({FIRST}..{FIRST + COUNT - 1}), {calls} calls: "
          f"{len(diffs.items)} differences; largest relative differences {diffs.largest}; "
          f"{diffs.separation_profiles} of the profile intervals under separation")
    assert not diffs.items, "\n".join(diffs.items[:20])


def _vp_logit(lg, y):
    v = pc.val_prob(logit=lg, y=y)
    return {"names": ["NA" if k is None else k for k in v.keys()], "values": list(v.values()),
            "printed": str(v)}

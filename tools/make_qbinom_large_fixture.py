# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R through rpy2 to store reference values
"""Store R's qbinom/rbinom for sizes >= 2^31 - 1 on the cases of
tests/_qbinom_large_cases.py (reference/nmath/qbinom_large.json).

    python tools/make_qbinom_large_fixture.py

R 4.2.2 answers these through nmath's ``qbinom`` search on ``pbeta``
(``toms708.c``); pycalib_r runs the same search on SciPy's ``betainc``. The
file stores R's integers (exact in a double: every size is at most 2^52), a
SHA-256 of the qbinom arguments so that a changed grid is caught, and, for
the record, how many of pycalib_r's values differed from R's when the file
was written (with the SciPy version that computed them).
``tests/rng/test_rng_qbinom_large.py`` compares with these values where R is
absent and with R live where it is present. Needs R with rpy2.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _qbinom_large_cases as cases  # noqa: E402

PATH = REPO / "reference" / "nmath" / "qbinom_large.json"


def main() -> None:
    import rpy2.robjects as ro
    import scipy

    from pycalib_r._rng import RRandom
    from pycalib_r.rstats._qdiscrete import qbinom_upper

    p, size, prob = cases.qbinom_cases()
    rq = cases.r_qbinom(ro, p, size, prob)
    ours_q = np.array([qbinom_upper(a, b, c) for a, b, c in zip(p, size, prob)])
    draws = []
    for seed, n, pr in cases.rbinom_cases():
        rv = cases.r_rbinom(ro, seed, n, pr)
        ov = np.asarray(RRandom(seed).rbinom(cases.K, n, pr), dtype=np.float64)
        draws.append({"seed": seed, "size": n.hex(), "prob": pr.hex(),
                      "r": [int(v) for v in rv], "differ": int(np.sum(ov != rv))})
    q_differ = {str(int(s)): int(np.sum((ours_q != rq)[size == s])) for s in cases.SIZES}
    doc = {"r_version": ".".join(ro.r("c(R.version$major, R.version$minor)")),
           "date": str(datetime.date.today()),
           "script": "tools/make_qbinom_large_fixture.py",
           "generator": "tests/_qbinom_large_cases.py",
           "reference": "stats::qbinom(p, size, prob, lower.tail = FALSE); stats::rbinom after "
                        "set.seed (nmath qbinom.c on pbeta, toms708.c)",
           "qbinom": {"sha256": cases.digest(p, size, prob), "r": [int(v) for v in rq]},
           "rbinom": draws,
           "pycalib_r_differences_when_written": {
               "scipy": scipy.__version__, "qbinom_by_size": q_differ,
               "rbinom_by_size": {str(int(s)): sum(d["differ"] for d in draws
                                                   if float.fromhex(d["size"]) == s)
                                  for s in cases.SIZES}}}
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{rq.size} qbinom and {len(draws)} x {cases.K} rbinom values (R {doc['r_version']}) "
          f"-> {PATH}; differences: {doc['pycalib_r_differences_when_written']}")


if __name__ == "__main__":
    main()

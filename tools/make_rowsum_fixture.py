"""Store R's verdict on rows within an ulp of the row-sum tolerance (reference/fixtures/rowsum.json).

    python tools/make_rowsum_fixture.py

For each case of tests/_rowsum_cases.py (a 1 x k matrix) R answers whether
probcal's ``check_prob_matrix()`` refuses it ("Each row of `p` must sum to
`1`.") and what its own expression ``abs(rowSums(p) - 1) > 1e-6`` gives.
Values are stored as ``float.hex`` strings, exact. Needs R with rpy2 and
the probcal R package.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _rowsum_cases  # noqa: E402

R_VERDICT = """
function(v, k) {
  p <- matrix(v, nrow = 1, ncol = k)
  refused <- tryCatch({probcal:::check_prob_matrix(p); FALSE},
                      error = function(e) grepl("must sum to", conditionMessage(e)))
  c(as.integer(refused), as.integer(any(abs(rowSums(p) - 1) > 1e-6)))
}
"""


def main() -> None:
    import rpy2.robjects as ro

    ro.r("suppressPackageStartupMessages(library(probcal))")
    verdict = ro.r(R_VERDICT)
    out = []
    for row in _rowsum_cases.cases():
        refused, expr = (int(v) for v in verdict(ro.FloatVector(row), len(row)))
        if refused != expr:
            raise SystemExit(f"probcal and its expression disagree on {row}")
        out.append({"row": [v.hex() for v in row], "refused": bool(refused)})
    # The manifest's header; the rows are records outside "cases" (as
    # diff_streams.json's programs), checked by tests/suites/hostile/test_library_edges.py.
    doc = {"r_version": ".".join(ro.r("c(R.version$major, R.version$minor)")),
           "probcal_version": str(ro.r('as.character(packageVersion("probcal"))')[0]),
           "date": str(datetime.date.today()),
           "rng_kind": list(ro.r("RNGkind()")),
           "script": "tools/make_rowsum_fixture.py", "generator": "tests/_rowsum_cases.py",
           "tolerance": 1e-6,
           "rule": "probcal::check_prob_matrix: any(abs(rowSums(p) - 1) > tolerance)",
           "cases": [], "rows": out}
    path = REPO / "reference" / "fixtures" / "rowsum.json"
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"{len(out)} rows ({sum(c['refused'] for c in out)} refused by R) -> {path}")


if __name__ == "__main__":
    main()

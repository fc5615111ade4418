"""Store CalibrationCurves' answers for val_prob_ci: reference/clinical/val_prob_ci_fixtures.json.

Needs R (4.2.2) with rms 6.5-0, Hmisc 4.8-0 and CalibrationCurves 2.0.0
(commit 43ebdf6 of github.com/BavoDC/CalibrationCurves; installed by hand
from that source, into a library named by PYCALIB_R_RLIB if not R's own).
Run from the repository root:

    PYCALIB_R_RLIB=/path/to/rlib R_HOME=$(R RHOME) PYTHONPATH=. python tools/make_val_prob_ci_fixtures.py

Cases 0..COUNT-1 of tests/_val_prob_ci_cases.py are evaluated by
``val.prob.ci.2`` (the plot on a null device: 2.0.0 fails with ``pl =
FALSE``); the answers are stored with each case's input digest and the
versions. tests/clinical/test_val_prob_ci.py checks pycalib_r against them without R.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _val_prob_ci_cases as vc  # noqa: E402

OUT = REPO / "reference" / "clinical" / "val_prob_ci_fixtures.json"
COUNT = 48
CC_VERSION = "CalibrationCurves 2.0.0 (43ebdf6)"


def r_session():
    import rpy2.robjects as ro
    ro.r('lib <- Sys.getenv("PYCALIB_R_RLIB"); if (nzchar(lib)) .libPaths(c(lib, .libPaths()))')
    ok = ro.r('as.character(suppressMessages(suppressWarnings(requireNamespace("CalibrationCurves", '
              'quietly = TRUE))))')[0] == "TRUE"
    if not ok or ro.r('as.character(packageVersion("CalibrationCurves"))')[0] != "2.0.0":
        return None, None
    ro.r('suppressMessages(library(CalibrationCurves)); pdf(NULL); options(width = 80)')
    ro.r(vc.R_JSON)
    versions = {"R": ro.r('paste(R.version$major, R.version$minor, sep = ".")')[0],
                "CalibrationCurves": CC_VERSION,
                "rms": ro.r('as.character(packageVersion("rms"))')[0],
                "Hmisc": ro.r('as.character(packageVersion("Hmisc"))')[0]}
    return ro, versions


def main() -> None:
    ro, versions = r_session()
    if ro is None:
        raise SystemExit("CalibrationCurves 2.0.0 is not installed (set PYCALIB_R_RLIB)")
    cases = []
    for i in range(COUNT):
        c = vc.case(i)
        cases.append({"id": i, "inputs_sha256": vc.inputs_sha256(c), "r": vc.r_side(ro, c)})
        print(i, c["p"].size, c["kw"], flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"generator": "tests/_val_prob_ci_cases.py",
                               "command": "python tools/make_val_prob_ci_fixtures.py",
                               "versions": versions, "cases": cases}, allow_nan=True) + "\n")


if __name__ == "__main__":
    main()

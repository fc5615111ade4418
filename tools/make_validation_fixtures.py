"""Store R's answers for the validation cases: reference/validation/validation_fixtures.json.

Run from the repository root with R (4.2.2), rms 6.5-0, MASS and
ResourceSelection 0.3-6 installed (the last from source:
``R CMD INSTALL psolymos/ResourceSelection``):

    R_HOME=$(R RHOME) PYTHONPATH=. python tools/make_validation_fixtures.py

Each case of tests/_validation_cases.py (ids 0..COUNT-1) is evaluated in R by
reference/r/validation.R (rms::val.prob, ResourceSelection::hoslem.test,
glm + confint.default + MASS's confint, stats::lowess); the answers are
stored with the digest of the case's inputs and the versions of R and the
packages. tests/diagnostics/test_validation.py checks pycalib_r against them without
those packages (the inputs are regenerated from the case ids).

With ``--grouped`` it stores instead R's answers for val.prob's grouped
statistics and for loess (reference/validation/val_probg_fixtures.json):
cases 0..GROUPED_COUNT-1 of tests/_val_probg_cases.py through
``rms::val.prob(p, y, group, weights, ...)`` (rms 6.5-0 with Hmisc 4.8.0)
and ``fitted(loess(...))`` (R 4.2.2), for tests/diagnostics/test_val_probg.py:

    R_HOME=$(R RHOME) PYTHONPATH=. python tools/make_validation_fixtures.py --grouped
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _validation_cases as vc  # noqa: E402

OUT = REPO / "reference" / "validation" / "validation_fixtures.json"
COUNT = 80
GROUPED_OUT = REPO / "reference" / "validation" / "val_probg_fixtures.json"
GROUPED_COUNT = 40


def main() -> None:
    import rpy2.robjects as ro

    root = str(REPO).replace("\\\\", "/")
    ro.r(f'source("{root}/pycalib_r/r/harness.R"); source("{root}/reference/r/validation.R")')
    ro.r("harness_setup()")
    versions = json.loads(ro.r("harness_json(validation_versions())")[0])
    if versions.get("ResourceSelection") in (None, "NA"):
        raise SystemExit("ResourceSelection is not installed: the fixtures need hoslem.test")
    cases = []
    for cid in range(COUNT):
        c = vc.case(cid)
        cases.append({"id": cid, "inputs_sha256": vc.inputs_sha256(c), "r": vc.r_json(ro, c)})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    data = {"generator": "tests/_validation_cases.py", "r_side": "reference/r/validation.R",
            "command": "python tools/make_validation_fixtures.py", "versions": versions,
            "cases": cases}
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"stored {len(cases)} cases in {OUT.relative_to(REPO)}; versions {versions}")


def main_grouped() -> None:
    import rpy2.robjects as ro
    from tests import _val_probg_cases as gc

    root = str(REPO).replace("\\", "/")
    ro.r(f'source("{root}/pycalib_r/r/harness.R"); source("{root}/reference/r/validation.R")')
    ro.r("harness_setup()")
    versions = json.loads(ro.r("harness_json(validation_versions_grouped())")[0])
    grouped, loess = [], []
    for cid in range(GROUPED_COUNT):
        c = gc.case(cid)
        grouped.append({"id": cid, "inputs_sha256": gc.inputs_sha256(c), "r": gc.r_json(ro, c)})
        lc = gc.loess_case(cid)
        loess.append({"id": cid, "inputs_sha256": gc.loess_sha256(lc), "r": gc.loess_r(ro, lc)})
    data = {"generator": "tests/_val_probg_cases.py", "r_side": "reference/r/validation.R",
            "command": "python tools/make_validation_fixtures.py --grouped", "versions": versions,
            "val_probg": grouped, "loess": loess}
    GROUPED_OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n")
    print(f"stored {len(grouped)} grouped and {len(loess)} loess cases in "
          f"{GROUPED_OUT.relative_to(REPO)}; versions {versions}")


if __name__ == "__main__":
    if "--grouped" in sys.argv[1:]:
        main_grouped()
    else:
        main()

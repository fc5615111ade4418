#!/usr/bin/env python3
"""Rewrite reference/pmcalibration/pmcalibration_0.2.0.json from R.

Runs the cases of ``tests/_pmcal_r.py``'s ``FIXTURE_CASES`` in R's
pmcalibration (through rpy2) and stores inputs, R's outputs (curve, metrics,
bootstrap and simulation samples, the print) and the versions. Needs R with
pmcalibration in its library (``R_LIBS_USER``, or /work/rlib); this script
installs nothing.

Usage: python tools/make_pmcalibration_fixture.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _pmcal_r  # noqa: E402
from tests.conftest import _load_r  # noqa: E402


def main() -> int:
    r = _load_r()
    r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    if not _pmcal_r.available(r):
        print("R package pmcalibration is not installed", file=sys.stderr)
        return 2
    out = REPO / "reference" / "pmcalibration" / "pmcalibration_0.2.0.json"
    _pmcal_r.write_fixtures(r, out)
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

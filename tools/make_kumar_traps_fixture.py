"""Store Kumar, Liang & Ma's package's values for tests/suites/hostile/test_kumar_traps.py.

    python tools/make_kumar_traps_fixture.py   # writes reference/kumar_traps.json

Needs ``uncertainty-calibration`` (import ``calibration``). The data and the
normal draws are rebuilt from pycalib_r's R-compatible stream with the seeds
in tests/_kumar_traps.py, so only the authors' answers are stored, with the
package's version.
"""

from __future__ import annotations

import datetime
import json
import sys
from importlib import metadata
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _kumar_traps as kt  # noqa: E402

OUT = REPO / "reference" / "kumar_traps.json"


def main() -> None:
    import calibration

    values = kt.authors_values(calibration)
    OUT.write_text(json.dumps({
        "producer": "tools/make_kumar_traps_fixture.py",
        "package": "uncertainty-calibration",
        "package_version": metadata.version("uncertainty-calibration"),
        "numpy_version": np.__version__,
        "date": datetime.date.today().isoformat(),
        "values": values,
    }, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} ({len(values)} cases)")


if __name__ == "__main__":
    main()

"""Store Kumar, Liang & Ma's package's values for tests/binned/test_kumar_crosscheck.py.

    python tools/make_kumar_fixture.py        # writes reference/kumar_crosscheck.json

Needs ``uncertainty-calibration`` (import ``calibration``; ``pip install
uncertainty-calibration``). The data are rebuilt from pycalib_r's
R-compatible stream with the seed stored in the file (tests/_kumar_cases.py),
so only the authors' answers and their Platt step's outputs (the binning
step's inputs) are stored, with the package's version.
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

from tests import _kumar_cases as kc  # noqa: E402

SEED = 20191
OUT = REPO / "reference" / "kumar_crosscheck.json"


def _plain(v):
    return np.asarray(v, dtype=float).tolist() if isinstance(v, np.ndarray) else float(v)


def main() -> None:
    import calibration

    d = kc.make_data(SEED)
    if not kc.edge_free(d):
        raise SystemExit("a prediction lies on a bin edge: choose another seed")
    values, stages = kc.authors(d, calibration)
    OUT.write_text(json.dumps({
        "producer": "tools/make_kumar_fixture.py",
        "package": "uncertainty-calibration",
        "package_version": metadata.version("uncertainty-calibration"),
        "numpy_version": np.__version__,
        "date": datetime.date.today().isoformat(),
        "seed": SEED,
        "values": {k: _plain(v) for k, v in values.items()},
        "stages": {k: _plain(v) for k, v in stages.items()},
    }, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} ({len(values)} cases)")


if __name__ == "__main__":
    main()

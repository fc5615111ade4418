"""Store the ``venn-abers`` package's values for tests/calibrators/test_venn_abers.py.

    python tools/make_venn_abers_fixture.py     # writes reference/venn_abers_crosscheck.json

Needs ``venn-abers`` (``pip install venn-abers``; the ``test`` extra) and
scikit-learn. The data are rebuilt from pycalib_r's R-compatible stream with
the seed stored in the file (tests/_venn_abers_cases.py), so only the
package's answers (and the cross cases' folds, scikit-learn's) are stored,
with the versions that produced them.
"""

from __future__ import annotations

import datetime
import json
import sys
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _venn_abers_cases as vc  # noqa: E402

OUT = REPO / "reference" / "venn_abers_crosscheck.json"


def main() -> None:
    d = vc.make_data(vc.SEED)
    doc = {
        "producer": "tools/make_venn_abers_fixture.py",
        "package": "venn-abers",
        "package_version": metadata.version("venn-abers"),
        "scikit_learn_version": metadata.version("scikit-learn"),
        "numpy_version": metadata.version("numpy"),
        "date": datetime.date.today().isoformat(),
        "seed": vc.SEED,
        "values": vc.theirs(d),
    }
    OUT.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} (venn-abers {doc['package_version']})")


if __name__ == "__main__":
    main()

"""Store R's pchisq/qchisq on the grid of tests/_nmath_gamma_cases.py
(reference/nmath/gamma_dist.json).

    python tools/make_nmath_gamma_fixture.py

R answers each group (a function, ``df``, ``lower.tail``, ``log.p`` and a
vector of arguments) in one vectorised call, warnings suppressed (a negative
``df`` gives NaN with R's "NaNs produced"). Values are stored as
``float.hex`` strings, exact; each group records a SHA-256 of its arguments'
bytes so that a changed grid is caught. ``tests/rstats/test_nmath_gamma.py``
compares the port with these values where R is absent, and with R live where
it is present. Needs R with rpy2 (base R only: pchisq/qchisq are in stats).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _nmath_gamma_cases  # noqa: E402
from tests._nmath_gamma_cases import r_values  # noqa: E402

PATH = REPO / "reference" / "nmath" / "gamma_dist.json"


def digest(x: np.ndarray) -> str:
    """SHA-256 of the arguments' little-endian float64 bytes."""
    return hashlib.sha256(np.asarray(x, dtype="<f8").tobytes()).hexdigest()


def main() -> None:
    import rpy2.robjects as ro

    groups = []
    for fn, df, lower, log_p, x in _nmath_gamma_cases.groups():
        r = r_values(ro, fn, df, lower, log_p, x)
        groups.append({"fn": fn, "df": df.hex(), "lower_tail": lower, "log_p": log_p,
                       "x_sha256": digest(x), "r": [float(v).hex() for v in r]})
    doc = {"r_version": ".".join(ro.r("c(R.version$major, R.version$minor)")),
           "date": str(datetime.date.today()),
           "script": "tools/make_nmath_gamma_fixture.py",
           "generator": "tests/_nmath_gamma_cases.py",
           "reference": "stats::pchisq, stats::qchisq (nmath pgamma.c, qgamma.c)",
           "groups": groups}
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    n = sum(len(g["r"]) for g in groups)
    print(f"{len(groups)} groups, {n} values (R {doc['r_version']}) -> {PATH}")


if __name__ == "__main__":
    main()

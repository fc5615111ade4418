"""Held-out comparison with Kumar, Liang & Ma's package on fresh data sets.

    python tools/kumar_holdout.py [N_SETS]      # default 30

Draws N_SETS data sets unlike the test's (other seeds, sizes n in 200, 1000,
3000 and K in 3, 5, 10 classes; tests/_kumar_cases.py's model), computes
every quantity both packages compute (tests/_kumar_cases.py) and prints,
per family, the largest absolute and relative difference. Needs
``uncertainty-calibration``. A data set with a prediction on a bin edge, or
a class whose debiased squared l2 is negative (the authors clip each class
at 0, pycalib_r after summing), is reported and its affected cases left out.
"""

from __future__ import annotations

import sys
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests import _kumar_cases as kc  # noqa: E402


def main(n_sets: int = 30) -> None:
    import calibration

    worst, counts, notes = {}, {}, []
    for i in range(n_sets):
        seed = 7000 + i
        n = (200, 1000, 3000)[i % 3]
        k = (3, 5, 10)[(i // 3) % 3]
        kc.N = n  # the authors' calibrators take the sample size
        d = kc.make_data(seed, n=n, k=k, n_new=500)
        if not kc.edge_free(d):
            notes.append(f"seed {seed}: a prediction on a bin edge, set skipped")
            continue
        skip_marg = kc.negative_classes(d) > 0
        if skip_marg:
            notes.append(f"seed {seed} (n={n}, K={k}): a class's debiased square < 0, "
                         "marginal p2_debiased left out")
        theirs, stages = kc.authors(d, calibration)
        diffs = kc.differences(kc.ours(d, stages), theirs)
        for name, (ab, rel) in diffs.items():
            if skip_marg and name.endswith("marginal/p2_debiased"):
                continue
            family = name.split("/")[0]
            a, r = worst.get(family, (0.0, 0.0))
            worst[family] = (max(a, ab), max(r, rel))
            counts[family] = counts.get(family, 0) + 1
    print(f"uncertainty-calibration {metadata.version('uncertainty-calibration')}, "
          f"{n_sets} data sets (seeds 7000..{7000 + n_sets - 1})")
    print(f"{'family':16s} {'cases':>6s} {'max abs diff':>13s} {'max rel diff':>13s}")
    for family in sorted(worst):
        a, r = worst[family]
        print(f"{family:16s} {counts[family]:6d} {a:13.3g} {r:13.3g}")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)

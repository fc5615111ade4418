"""Held-out comparison of pmcalibration() with R's pmcalibration 0.2.0 on random calls.

    python tools/pmcalibration_holdout.py [N_CALLS] [SEED]      # default 40 calls, seed 2026

Draws N_CALLS random calls unlike the tests' (n log-uniform in 10..5000; a
random R-exact smooth, interval kind, transf, data kind: plain, ties or p
within 1e-9 of 0 and 1; 5..60 resamples), runs each in R (through rpy2,
tests/_pmcal_r.py) and in pycalib_r after the same seed, and prints per
call the quantities that differ, then the largest relative difference per
smooth/interval and quantity and whether every print was byte-equal. Needs
R with pmcalibration in its library; installs nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def main(n_calls: int = 40, seed: int = 2026) -> int:
    from tests import _pmcal_r
    from tests.conftest import _load_r
    from tests.clinical.test_pmcalibration import _py, _rel, _samples

    r = _load_r()
    r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    if not _pmcal_r.available(r):
        print("R package pmcalibration is not installed", file=sys.stderr)
        return 2
    g = np.random.default_rng(seed)
    worst, bad = {}, 0
    for k in range(n_calls):
        n = int(np.exp(g.uniform(np.log(10), np.log(5000))))
        smooth = g.choice(["none", "ns", "bs", "lowess", "loess"])
        cis = ["none", "boot", "pw"] + (["sim"] if smooth in ("none", "ns", "bs") else [])
        ci = g.choice(cis)
        if smooth == "loess" and ci == "pw":  # predict.loess's se is not ported
            ci = "none"
        kind = g.choice(["plain", "ties", "extreme"])
        transf = g.choice(["logit", "logit", "none", "cloglog"])
        case = _pmcal_r.make_case(500 + k + 1000 * (seed != 2026), n, str(smooth), str(ci), str(kind),
                                  nb=int(g.integers(5, 60)), transf=str(transf))
        try:
            R = _pmcal_r.run(r, case)
        except Exception as e:  # noqa: BLE001 - R's error is reported, the call skipped
            print("R error", k, n, smooth, ci, kind, transf, str(e)[:100])
            continue
        try:
            P = _py(case)
        except Exception as e:  # noqa: BLE001 - counted as a failure
            print("PY error", k, n, smooth, ci, kind, transf, str(e)[:200])
            bad += 1
            continue
        d = {"metrics": _rel(P.metrics, R["metrics"]), "p_c": _rel(P.p_c["p_c"], R["p_c"]),
             "plot": _rel(P.plot_data["p_c_plot"] if P.plot_data["p_c_plot"] is not None else np.empty(0), R["p_c_plot"]),
             "se": _rel(P.plot_data["p_c_plot_se"] if P.plot_data["p_c_plot_se"] is not None else np.empty(0), R["se"]),
             "ms": _rel(_samples(P, "ms"), R["ms"]), "ps": _rel(_samples(P, "ps"), R["ps"])}
        pr = str(P) + "\n" == R["print"]
        if not pr:
            bad += 1
        key = f"{smooth}/{ci}"
        for q, v in d.items():
            worst[(key, q)] = max(worst.get((key, q), 0.0), v)
        print(k, n, smooth, ci, kind, transf, {q: f"{v:.1e}" for q, v in d.items() if v}, "print", pr, flush=True)
    print("print mismatches or errors:", bad)
    diffs = [(key, q, v) for (key, q), v in sorted(worst.items()) if v]
    for key, q, v in diffs:
        print("largest relative difference", key, q, f"{v:.2e}")
    if not diffs:
        print("every quantity bit-equal with R")
    return 1 if bad else 0


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.exit(main(*args))

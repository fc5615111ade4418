"""Speed of R's distributions on the R stream: pycalib_r vs numpy's Generator vs R.

Times 10 million draws of the common distributions three ways in one run:
pycalib_r's R-identical stream, numpy's own Generator (the issue's target:
at most 5x), and R itself through rpy2 (the same n, the same parameters).
Prints PASS/FAIL against the 5x-numpy target.

    python tools/bench_rng.py [n]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pycalib_r._rng import RRandom  # noqa: E402

CASES = [
    ("rexp(n)", lambda g, n: g.rexp(n), lambda r, n: r.exponential(1.0, n)),
    ("rgamma(n, 0.5)", lambda g, n: g.rgamma(n, 0.5), lambda r, n: r.gamma(0.5, 1.0, n)),
    ("rgamma(n, 2.5)", lambda g, n: g.rgamma(n, 2.5), lambda r, n: r.gamma(2.5, 1.0, n)),
    ("rbeta(n, 2, 3)", lambda g, n: g.rbeta(n, 2, 3), lambda r, n: r.beta(2, 3, n)),
    ("rbeta(n, 0.5, 0.5)", lambda g, n: g.rbeta(n, .5, .5), lambda r, n: r.beta(.5, .5, n)),
    ("rpois(n, 4)", lambda g, n: g.rpois(n, 4), lambda r, n: r.poisson(4, n)),
    ("rpois(n, 40)", lambda g, n: g.rpois(n, 40), lambda r, n: r.poisson(40, n)),
]


def best(f, repeat=2):
    out = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        out = min(out, time.perf_counter() - t)
    return out


def r_timer():
    try:
        os.environ.setdefault("R_HOME", os.popen("R RHOME").read().strip())
        import rpy2.robjects as ro
    except Exception:  # noqa: BLE001 - R is optional here
        return None
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')

    def timed(code, n):
        return float(ro.r(f"set.seed(1); n <- {n}; system.time({code})[['elapsed']]")[0])
    return timed


def main(n=10_000_000):
    timed_r = r_timer()
    gen = np.random.default_rng(1)
    print(f"{n:,} draws; target: pycalib_r <= 5x numpy's Generator")
    for code, ours, theirs in CASES:
        t_ours = best(lambda: ours(RRandom(1), n))
        t_np = best(lambda: theirs(gen, n))
        t_r = timed_r(code, n) if timed_r else float("nan")
        ratio = t_ours / t_np
        verdict = "PASS" if ratio <= 5 else "FAIL"
        print(f"{code:20s} pycalib_r {t_ours:6.2f} s  numpy {t_np:5.2f} s ({ratio:5.1f}x)  "
              f"R {t_r:6.2f} s  {verdict}")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000)

#!/usr/bin/env python3
"""Speed of every RNGkind (pycalib_r._rng.bitgen) against R doing the same work.

Per kind: 10^6 uniforms (R: ``runif(1e6)``); per normal kind under
Mersenne-Twister: 10^6 normals (R: ``rnorm(1e6)``); per sample kind under
Wichmann-Hill: 10^6 indices below 1000 (R: ``sample.int(1000, 1e6, TRUE)``).
Wall-clock seconds, best of ``--repeat`` runs on both sides; R runs through
rpy2 in this process (``--no-r`` skips it).

Usage:  python tools/bench_rng_kinds.py [--n N] [--repeat K] [--no-r]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "tools"))

from bench import best_time  # noqa: E402

from pycalib_r._rng import bitgen as rk  # noqa: E402


def r_time(r, setup, code, repeat):
    if r is None:
        return None
    r.r(f"suppressWarnings({{{setup}}})")
    return min(float(r.r(f"system.time({code})[['elapsed']]")[0]) for _ in range(repeat))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-r", action="store_true")
    args = ap.parse_args(argv)
    n, rep = args.n, args.repeat
    r = None
    if not args.no_r:
        import rpy2.robjects as r  # noqa: WPS433

    rows = []
    for kind in rk.GENERATORS:
        g = rk.new_generator(kind, 1)
        g.unif_rand(10)  # tables
        t = best_time(lambda: g.unif_rand(n), rep)
        tr = r_time(r, f'RNGkind("{kind}"); set.seed(1)', f"runif({n})", rep)
        rows.append((f"unif_rand {kind}", t, tr))
    for nk in ("Inversion", "Box-Muller", "Ahrens-Dieter", "Kinderman-Ramage",
               "Buggy Kinderman-Ramage"):
        g = rk.new_generator("Mersenne-Twister", 1)
        norm = rk.NormRand(nk)
        norm(g, 10)
        t = best_time(lambda: norm(g, n), rep)
        tr = r_time(r, f'RNGkind("Mersenne-Twister", "{nk}"); set.seed(1)', f"rnorm({n})", rep)
        rows.append((f"norm_rand {nk} (MT)", t, tr))
    for sk in ("Rejection", "Rounding"):
        g = rk.new_generator("Wichmann-Hill", 1)
        t = best_time(lambda: rk.unif_index(g, 1000, n, sk), rep)
        tr = r_time(r, f'RNGkind("Wichmann-Hill", "Inversion", "{sk}"); set.seed(1)',
                    f"sample.int(1000, {n}, TRUE)", rep)
        rows.append((f"unif_index {sk} (WH)", t, tr))
    if r is not None:
        r.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')

    print(f"{'n = ' + format(n, ','):40s} {'python s':>9s} {'R s':>8s} {'R / python':>10s}")
    for name, t, tr in rows:
        ratio = f"{tr / t:10.1f}" if tr else f"{'-':>10s}"
        rs = f"{tr:8.3f}" if tr is not None else f"{'-':>8s}"
        print(f"{name:40s} {t:9.3f} {rs} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

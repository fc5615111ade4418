#!/usr/bin/env python3
"""Speed of skce(), cal_test(), cal_ci() and mmce() against R doing the same work.

R's side is ``reference/r/contract.R`` (the 0.2.0 contract written in plain
R, run through rpy2 in this process) and, for ``mmce``, the probcal 0.1.0 R
package when it is installed. R builds n x n matrices and loops over
replicates, so it is timed at sizes it can handle and, for the resampling
functions, with fewer replicates; the per-replicate time is then scaled to
the Python run's count, and every such line says so.

Usage:  python tools/bench.py [--quick] [--no-r]

Each target line ends in PASS or FAIL; the exit status is 1 if any failed.
Timings are wall-clock seconds, best of ``--repeat`` runs for Python.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycalib_r import _rng  # noqa: E402
from pycalib_r._inference import cal_ci, cal_test  # noqa: E402
from pycalib_r._kernel import skce  # noqa: E402
from pycalib_r._metrics import mmce  # noqa: E402


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def binary_data(n: int, seed: int):
    g = np.random.default_rng(seed)
    p = g.random(n)
    y = (g.random(n) < p).astype(np.int64)
    return p, y


def multiclass_data(n: int, k: int, seed: int):
    g = np.random.default_rng(seed)
    p = g.dirichlet(np.ones(k), size=n)
    u = g.random(n)[:, None]
    y = (u > np.cumsum(p, axis=1)).sum(axis=1) + 1
    return p, np.minimum(y, k)


class R:
    """The R side: contract.R sourced into an rpy2 session."""

    def __init__(self):
        import rpy2.robjects as ro

        self.ro = ro
        ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
        ro.r(f'source("{(REPO / "reference" / "r" / "contract.R").as_posix()}")')
        has = ro.r('as.integer(suppressWarnings(requireNamespace("probcal", quietly = TRUE)))')[0]
        self.has_probcal = has == 1

    def put(self, name, x):
        ro = self.ro
        x = np.asarray(x, dtype=np.float64)
        if x.ndim == 2:
            ro.globalenv[name] = ro.r.matrix(ro.FloatVector(x.ravel(order="F")), nrow=x.shape[0])
        else:
            ro.globalenv[name] = ro.FloatVector(x)

    def time(self, expr: str) -> float:
        """Elapsed seconds of one evaluation of ``expr`` inside R."""
        return float(self.ro.r(f"system.time({{ {expr} }})[['elapsed']]")[0])


class Report:
    def __init__(self):
        self.failed = 0

    def line(self, text: str):
        print(text, flush=True)

    def target(self, text: str, ok: bool):
        if not ok:
            self.failed += 1
        print(f"  {text:<72} {'PASS' if ok else 'FAIL'}", flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller R runs and one Python repeat")
    ap.add_argument("--no-r", action="store_true", help="Python timings and targets only")
    ap.add_argument("--repeat", type=int, default=None, help="Python repeats (best is kept)")
    args = ap.parse_args(argv)
    quick = args.quick
    repeat = args.repeat or (1 if quick else 3)
    try:
        rr = None if args.no_r else R()
    except Exception as exc:  # rpy2 or R missing
        print(f"R is not available through rpy2 ({type(exc).__name__}: {exc}); use --no-r", file=sys.stderr)
        return 2
    rep = Report()
    n_boot = 999
    r_boot = 9 if quick else 49  # R's replicate count; scaled to n_boot

    # -- skce on 1,000,000 binary rows ---------------------------------------
    rep.line("skce(p, y) [binary, uq, bandwidth 0.2]")
    p, y = binary_data(1_000_000, 1)
    t = best_time(lambda: skce(p, y), repeat)
    rep.target(f"1,000,000 rows: {t:.2f} s (target < 2 s)", t < 2.0)
    if rr is not None:
        n_r = 2000 if quick else 4000
        p2, y2 = binary_data(n_r, 2)
        rr.put("pp", p2)
        rr.put("yy", y2)
        t_r = rr.time("skce(pp, yy)")
        t_py = best_time(lambda: skce(p2, y2), max(repeat, 3))
        rep.line(f"  {n_r:,} rows: R {t_r:.3f} s, Python {t_py:.4f} s, ratio {t_r / t_py:.0f}x")

    # -- cal_test bootstrap, binary ---------------------------------------------
    rep.line(f"cal_test(p, y) [binary, bootstrap, {n_boot} resamples]")
    p, y = binary_data(100_000, 3)
    t = best_time(lambda: cal_test(p, y, n_boot=n_boot, rng=_rng.RRandom(1), progress=False), repeat)
    rep.target(f"100,000 rows: {t:.2f} s (target < 10 s)", t < 10.0)
    p2, y2 = binary_data(2000, 4)
    t_py = best_time(lambda: cal_test(p2, y2, n_boot=n_boot, rng=_rng.RRandom(1), progress=False),
                     max(repeat, 3))
    if rr is not None:
        rr.put("pp", p2)
        rr.put("yy", y2)
        t_r = rr.time(f"set.seed(1); cal_test(pp, yy, n_boot = {r_boot})") * n_boot / r_boot
        ratio = t_r / t_py
        rep.line(f"  2,000 rows: R {t_r:.1f} s (timed with {r_boot} resamples, scaled to {n_boot}),"
                 f" Python {t_py:.3f} s")
        rep.target(f"2,000 rows: {ratio:.0f}x faster than R (target >= 50x)", ratio >= 50)
    else:
        rep.line(f"  2,000 rows: Python {t_py:.3f} s (R not run)")

    # -- cal_test bootstrap, canonical K = 10 --------------------------------------
    rep.line(f"cal_test(p, y) [canonical, K = 10, bootstrap, {n_boot} resamples]")
    pm, ym = multiclass_data(5000, 10, 5)
    t = best_time(lambda: cal_test(pm, ym, n_boot=n_boot, rng=_rng.RRandom(1), progress=False),
                  1 if quick else repeat)
    rep.target(f"5,000 rows: {t:.2f} s (target < 20 s)", t < 20.0)
    if rr is not None:
        n_r = 300 if quick else 800
        pm2, ym2 = multiclass_data(n_r, 10, 6)
        rr.put("pp", pm2)
        rr.put("yy", ym2)
        t_r = rr.time(f"set.seed(1); cal_test(pp, yy, n_boot = {r_boot})")
        t_r0 = rr.time("set.seed(1); cal_test(pp, yy, method = 'asymptotic')")
        # Kernel matrix once, replicates scale.
        t_r_scaled = t_r0 + (t_r - t_r0) * n_boot / r_boot
        t_py = best_time(lambda: cal_test(pm2, ym2, n_boot=n_boot, rng=_rng.RRandom(1), progress=False),
                         max(repeat, 3))
        rep.line(f"  {n_r:,} rows: R {t_r_scaled:.1f} s (timed with {r_boot} resamples, scaled to"
                 f" {n_boot}), Python {t_py:.3f} s, ratio {t_r_scaled / t_py:.0f}x")

    # -- cal_ci(metric = "ece") -------------------------------------------------------
    rep.line(f'cal_ci(p, y, metric = "ece") [binary, bins 10, {n_boot} resamples]')
    p, y = binary_data(100_000, 7)
    t = best_time(lambda: cal_ci(p, y, "ece", n_boot=n_boot, rng=_rng.RRandom(1), progress=False), repeat)
    def draws(n=100_000, rows=4):
        stream = _rng.RRandom(1)
        for start in range(0, n_boot, rows):
            stream.sample_int_replace(n, n, min(rows, n_boot - start))

    t_draw = best_time(draws, repeat)  # in cal_ci's batches
    rep.target(f"100,000 rows: {t:.2f} s (target < 5 s)", t < 5.0)
    rep.line(f"  of which R's stream (sample.int draws): {t_draw:.2f} s, the metric: {max(t - t_draw, 0):.2f} s")
    if rr is not None:
        rr.put("pp", p)
        rr.put("yy", y)
        rb = 5 if quick else 19
        t_r = rr.time(f"set.seed(1); cal_ci(pp, yy, 'ece', n_boot = {rb})") * n_boot / rb
        rep.line(f"  100,000 rows: R {t_r:.1f} s (timed with {rb} resamples, scaled to {n_boot}),"
                 f" ratio {t_r / t:.0f}x")
    rep.line(f'cal_ci(p, y, metric = "skce") [binary, uq, {n_boot} resamples]')
    p, y = binary_data(20_000, 8)
    t = best_time(lambda: cal_ci(p, y, "skce", n_boot=n_boot, rng=_rng.RRandom(1), progress=False), repeat)
    rep.line(f"  20,000 rows: {t:.2f} s")

    # -- R's uniform stream -----------------------------------------------------------
    rep.line("runif(10,000,000) [R's Mersenne-Twister stream]")
    t = best_time(lambda: _rng.RRandom(1).runif(10_000_000), repeat)
    rep.target(f"10,000,000 uniforms: {t:.2f} s (target < 1 s)", t < 1.0)
    if rr is not None:
        t_r = rr.time("set.seed(1); stats::runif(1e7)")
        rep.line(f"  R {t_r:.2f} s, Python {t:.2f} s, ratio {t_r / t:.1f}x")

    # -- mmce on 1,000,000 rows, linear memory ----------------------------------------
    rep.line("mmce(p, y) [binary, bandwidth 0.2]")
    p, y = binary_data(1_000_000, 9)
    t = best_time(lambda: mmce(p, y), repeat)
    tracemalloc.start()
    mmce(p, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rep.target(f"1,000,000 rows: {t:.2f} s (target < 5 s)", t < 5.0)
    rep.target(f"1,000,000 rows: peak memory {peak / 2**20:.0f} MB (target < 200 MB; n x n would be"
               f" 8 TB)", peak < 200 * 2**20)
    if rr is not None:
        n_r = 2000 if quick else 5000
        p2, y2 = binary_data(n_r, 10)
        rr.put("pp", p2)
        rr.put("yy", y2)
        which = "probcal::mmce" if rr.has_probcal else "mmce"
        t_r = rr.time(f"{which}(pp, yy)")
        t_py = best_time(lambda: mmce(p2, y2), max(repeat, 3))
        rep.line(f"  {n_r:,} rows: R ({which}) {t_r:.3f} s, Python {t_py:.4f} s, ratio {t_r / t_py:.0f}x"
                 f" (R's n x n matrix stops near 20,000 rows)")

    rep.line("")
    rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())

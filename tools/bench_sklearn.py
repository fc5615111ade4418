#!/usr/bin/env python3
"""Overhead of pycalib_r.sklearn.ProbcalCalibrator.fit over the bare cal_* call (target < 10%).

Usage:  python tools/bench_sklearn.py [--quick]

Both sides fit the same calibrator on the same predictions; the wrapper
also validates X and y, encodes the labels and recodes them to R's 0/1 or
1..K. The target is on that added work, timed alone (everything ``fit``
does but the ``cal_*`` call) against the bare fit: on a shared machine the
end-to-end difference of two runs of 5 ms or more swings by more than the
added work itself, so the end-to-end times are printed for information.
Best of several runs each; the exit status is 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pycalib_r as pc  # noqa: E402


def _best(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _wrapper_only():
    from pycalib_r.sklearn import ProbcalCalibrator

    class WrapperOnly(ProbcalCalibrator):
        """Everything ProbcalCalibrator.fit does except calling the cal_* function."""

        _call = staticmethod(lambda *a, **k: None)

    return WrapperOnly


def bench_sklearn_overhead(quick: bool = False, out=print) -> int:
    """One line per method: bare fit time, wrapper fit time, overhead; returns the misses."""
    from pycalib_r.sklearn import ProbcalCalibrator

    wrapper_only = _wrapper_only()
    n = 20_000 if quick else 100_000
    repeat = 3 if quick else 7
    g = np.random.default_rng(1)
    p = g.random(n)
    y = (g.random(n) < p).astype(np.int64)
    k = 4
    P = g.dirichlet(np.ones(k), size=n // 10)
    codes = np.minimum((g.random(P.shape[0])[:, None] > np.cumsum(P, axis=1)).sum(axis=1), k - 1)
    cases = [
        ("platt", {}, lambda: pc.cal_platt(p, y), p, y),
        ("isotonic", {}, lambda: pc.cal_isotonic(p, y), p, y),
        ("histogram", {}, lambda: pc.cal_histogram(p, y), p, y),
        ("beta", {}, lambda: pc.cal_beta(p, y), p, y),
        ("dirichlet", {"lambda_": 0.0}, lambda: pc.cal_dirichlet(P, codes + 1, lambda_=0.0), P, codes),
    ]
    misses = 0
    out(f"ProbcalCalibrator.fit against the bare function ({n:,} binary rows; dirichlet "
        f"{P.shape[0]:,} rows, K = {k}):")
    for method, args, bare, X, labels in cases:
        wrapped = lambda: ProbcalCalibrator(method=method, **args).fit(X, labels)  # noqa: E731
        own = lambda: wrapper_only(method=method, **args).fit(X, labels)  # noqa: E731
        block = max(3, min(50, int(0.5 / max(_best(bare, 1), 1e-4))))
        t_bare = t_wrap = t_own = float("inf")
        for _ in range(repeat):
            t_bare = min(t_bare, _best(bare, block))
            t_wrap = min(t_wrap, _best(wrapped, block))
            t_own = min(t_own, _best(own, 50))
        share = t_own / t_bare
        ok = share < 0.10
        misses += not ok
        out(f"  {method:>10}: bare {t_bare * 1e3:8.2f} ms, wrapper's own work {t_own * 1e3:6.3f} ms "
            f"= {share * 100:4.1f}% (target < 10%) {'PASS' if ok else 'FAIL'}; "
            f"end to end {t_wrap * 1e3:8.2f} ms")
    return misses


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    return 1 if bench_sklearn_overhead(quick=args.quick) else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Speed of pycalib_r against R doing the same work, with a PASS/FAIL per target.

R runs in this process through rpy2: ``reference/r/bench.R`` for ``skce``,
``cal_test`` and ``cal_ci`` (the 0.2.0 definitions of ``pycalib_r/r/contract.R``
written the fastest reasonable way in base R: one matrix-vector product per
bootstrap replicate, compiled distances, per-bin sums; tests/suites/project/test_bench_r.py
checks it gives contract.R's values), and the probcal R package for the
calibrators and ``mmce``. Each R figure names the code it times. Both sides get the same
data, the same n and the same number of replicates. Where R at full size
takes too long, R is timed at two replicate counts B1 < B2 and its time at
the full count B is extrapolated linearly, setup included:
``t(B) = t(B1) + (t(B2) - t(B1)) (B - B1) / (B2 - B1)``; such lines say so.

The machine may be shared and noisy, so every time is the minimum over
several runs (``--repeat`` for Python; R is repeated while a run is short).

Usage:  python tools/bench.py [--quick] [--no-r] [--readme] [--only-peers] [--only-stream] [--only-corp]
        [--only-csv] [--only-first-call] [--only-venn]

The peers section (``tools/bench_peers.py``) times relplot, scikit-learn and
uncertainty-calibration on the same data in the same run (netcal needs torch:
"not installed, skipped"), and the R-cold lines time ``Rscript -e
'library(probcal); ...'`` against a new Python process on the same data file
(skipped, saying so, without Rscript or probcal). ``--only-peers`` runs that
section alone.

``--readme`` rewrites from this run the speed table of docs/evidence/speed.md
(between its ``bench:start`` and ``bench:end`` markers; not with
``--only-peers``), its peers table (``peers:start`` / ``peers:end``) and the
README's speed lines (``speed:start`` / ``speed:end``). The exit status is 1
if any target failed.
"""

from __future__ import annotations

import argparse
import platform
import re
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# The environment before R is loaded into this process (rpy2 changes it):
# the cold column's child processes get this one.
_ORIGINAL_ENV = dict(__import__("os").environ)
sys.path.insert(0, str(REPO))

import pycalib_r as pc  # noqa: E402
from pycalib_r import _rng  # noqa: E402

# R is repeated while one run takes less than this (seconds), at most R_RUNS times.
R_SHORT = 3.0
R_RUNS = 3


# Short calls are repeated on both sides until SHORT_BUDGET seconds have
# gone (at most SHORT_RUNS runs): on this shared virtual machine a call of
# a few ms swings by 2x from one moment to the next, and the minimum of
# three such runs measures the machine, not the code.
SHORT_BUDGET = 0.5
SHORT_RUNS = 25


def best_of(once, runs: int, long_s: float = float("inf")) -> float:
    """Minimum of ``once()`` (seconds) over ``runs`` runs, fewer once a run
    takes ``long_s`` or more, and more for short calls (SHORT_BUDGET)."""
    best = float("inf")
    done = spent = 0
    while (done < runs and best < long_s) or (done < SHORT_RUNS and spent < SHORT_BUDGET):
        t = once()
        best = min(best, t)
        done += 1
        spent += t
    return best


def best_time(fn, repeat: int) -> float:
    def once():
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    return best_of(once, repeat)


def peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()


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


def digits_data(n: int = 450):
    """Held-out probabilities of a logistic regression on sklearn's digits (K = 10)."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression

    x, y = load_digits(return_X_y=True)
    idx = np.random.default_rng(0).permutation(y.size)
    train, test = idx[:1000], idx[1000:1000 + n]
    model = LogisticRegression(max_iter=500, C=0.01).fit(x[train] / 16, y[train])
    p = model.predict_proba(x[test] / 16)
    return p / p.sum(axis=1, keepdims=True), y[test] + 1


def binary_scores(n: int, seed: int):
    """Overconfident binary scores: probabilities, logits, labels."""
    g = np.random.default_rng(seed)
    z = g.normal(0, 2, n)
    y = (g.random(n) < 1 / (1 + np.exp(-z / 2))).astype(np.int64)
    p = 1 / (1 + np.exp(-z))
    return p, z, y


class R:
    """The R side: contract.R sourced into an rpy2 session, probcal attached by name."""

    def __init__(self):
        import rpy2.robjects as ro

        self.ro = ro
        ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
        ro.r(f'source("{(REPO / "pycalib_r" / "r" / "contract.R").as_posix()}")')
        ro.r(f'source("{(REPO / "reference" / "r" / "bench.R").as_posix()}")')
        has = ro.r('as.integer(suppressWarnings(requireNamespace("probcal", quietly = TRUE)))')[0]
        self.has_probcal = has == 1
        self.direct = False

    def put(self, name, x):
        ro = self.ro
        x = np.asarray(x, dtype=np.float64)
        if x.ndim == 2:
            ro.globalenv[name] = ro.r.matrix(ro.FloatVector(x.ravel(order="F")), nrow=x.shape[0])
        else:
            ro.globalenv[name] = ro.FloatVector(x)

    def once(self, expr: str) -> float:
        return float(self.ro.r(f"system.time({{ {expr} }})[['elapsed']]")[0])

    def time(self, expr: str) -> float:
        """Minimum elapsed seconds of ``expr`` over up to R_RUNS runs (fewer if a run is
        long; short runs repeated as :func:`best_time` repeats them)."""
        return best_of(lambda: self.once(expr), R_RUNS, R_SHORT)

    def blas(self) -> str:
        return str(self.ro.r('as.character(extSoftVersion()[["BLAS"]])')[0]) or "R's internal BLAS"

    def extrapolated(self, template: str, b1: int, b2: int, b: int):
        """R's time at ``b`` replicates from runs at b1 and b2: (total, setup, per replicate).

        With ``--direct-r`` R runs the full ``b`` instead (setup and per-replicate cost are
        then reported as 0 and the total alone is the figure).
        """
        if self.direct:
            return self.time(template.format(B=b)), 0.0, 0.0
        t1 = self.time(template.format(B=b1))
        t2 = self.time(template.format(B=b2))
        per = max(t2 - t1, 0.0) / (b2 - b1)
        setup = max(t1 - per * b1, 0.0)
        return setup + per * b, setup, per


# Cold figures: each line's work as the first call of a new process (the
# bytecode written by this run; data made before the clock starts). Off with
# --no-cold.
COLD = True


def cold_time(setup: str, call: str) -> float:
    """Seconds of ``call``'s first run in a new Python process, after ``setup``
    (untimed, in this module's namespace: binary_data, pc, np, ...). A first
    child writes the caches a fresh install lacks; the second is timed."""
    import json
    import os
    import subprocess

    code = (f"import sys, time, json\nsys.path.insert(0, {str(REPO / 'tools')!r})\nimport bench\n"
            f"ns = dict(vars(bench))\nexec({setup!r}, ns)\nt = time.perf_counter()\nexec({call!r}, ns)\n"
            f"print(json.dumps(time.perf_counter() - t))")
    env = dict(_ORIGINAL_ENV, PYTHONPATH=str(REPO))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # installs have bytecode caches
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


class Report:
    def __init__(self):
        self.failed = 0
        self.rows = []

    def line(self, text: str):
        print(text, flush=True)

    def target(self, work: str, ours: str, r_side: str, verdict: str, ok: bool, cold: str = ""):
        """One target: ``work``, our figure, R's figure (or ''), the criterion,
        and the first call in a new process (or '')."""
        if not ok:
            self.failed += 1
        status = "PASS" if ok else "FAIL"
        r_text = f"; R {r_side}" if r_side else ""
        cold_text = f"; first call in a new process {cold}" if cold else ""
        print(f"  {work}: {ours}{r_text}; {verdict}  {status}{cold_text}", flush=True)
        self.rows.append((work, ours, r_side, verdict, status, cold))


def cold_note(setup: str, call: str, t_r=None, need=None) -> str:
    """The cold column: the first call's time, its ratio against R, and
    whether that ratio falls below the line's warm target."""
    if not COLD:
        return ""
    t = cold_time(setup, call)
    if t_r is None:
        return f"{t:.3g} s"
    ratio = t_r / t
    below = f", below the warm target {need:g}x" if need is not None and ratio < need else ""
    return f"{t:.3g} s ({ratio:.1f}x{below})"


# What the cal_test lines' R figure times (reference/r/bench.R).
BENCH_R_MATVEC = " (bench.R: one matrix-vector product per resample)"


def ratio_target(rep, work, t_py, t_r, r_note, need, cold=None):
    """A ratio target; ``cold``: (setup, call) code of the same work, for the cold column."""
    ratio = t_r / t_py
    rep.target(work, f"{t_py:.3g} s", f"{t_r:.3g} s{r_note}", f"{ratio:.1f}x (target >= {need:g}x)",
               ratio >= need, cold_note(*cold, t_r, need) if cold else "")


def machine_note(rr) -> str:
    """The load and the BLAS kernels this run used (both move every figure)."""
    import os

    parts = [f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"]
    try:
        from threadpoolctl import threadpool_info

        for lib in threadpool_info():
            if lib.get("user_api") == "blas":
                owner = next((name for name in ("numpy", "scipy") if name in lib.get("filepath", "")),
                             "a library's")
                parts.append(f"{owner} BLAS {lib.get('internal_api')} {lib.get('version')}"
                             f" (kernel {lib.get('architecture')}, {lib.get('num_threads')} threads)")
    except ImportError:
        parts.append("numpy's BLAS: threadpoolctl not installed")
    pinned = [f"{k}={os.environ[k]}" for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if k in os.environ]
    parts.append("OpenBLAS pinned by " + " ".join(pinned) if pinned else "OpenBLAS not pinned")
    if rr is not None:
        parts.append(f"R's BLAS {rr.blas()}")
    return "; ".join(parts)


def extrap_note(b1, b2, setup, per):
    if setup == 0.0 and per == 0.0:
        return " (timed at the full count)"
    return (f" (extrapolated from {b1} and {b2} resamples: setup {setup:.2f} s"
            f" + {per * 1000:.1f} ms per resample)")


def distribution_targets(rep, rr, repeat, n=10_000_000):
    """``n`` draws of R's common distributions on the R stream (the cases of
    tools/bench_rng.py): at most 5x numpy's own Generator with the same
    parameters (issue 15), and R's time for the same draws."""
    from bench_rng import CASES

    rep.line(f"R's distributions on the R stream, {n:,} draws against numpy's Generator (same parameters)")
    gen = np.random.default_rng(1)
    for code, ours, theirs in CASES:
        ours(_rng.RRandom(1), 20_000)  # the compiled loop's first call (cache load) is not timed
        t = best_time(lambda: ours(_rng.RRandom(1), n), repeat)
        t_np = best_time(lambda: theirs(gen, n), repeat)
        r_side = ""
        if rr is not None:
            t_r = rr.time(f"set.seed(1); n <- {n}; stats::{code}")
            r_side = f"{t_r:.2f} s ({t_r / t:.1f}x)"
        rep.target(f"`{code}`", f"{t:.2f} s", r_side,
                   f"{t / t_np:.1f}x numpy's {t_np:.3f} s (target <= 5x)", t <= 5 * t_np)


def stream_draw_target(rep, rr, repeat):
    """R's ``sample.int`` stream inside ``cal_ci`` (999 x 100,000 draws with
    replacement), against R drawing the same 999 calls."""
    def draws(n=100_000, rows=4):  # cal_ci draws its resamples a few rows at a time
        stream = _rng.RRandom(1)
        for start in range(0, 999, rows):
            stream.sample_int_replace(n, n, min(rows, 999 - start))

    draws(rows=1)  # the first call (the library's opening) is not timed
    t_draw = best_time(draws, repeat)
    work = "R's `sample.int` stream inside it (999 x 100,000 draws)"
    verdict = "target <= 0.65 s (half of 1.3 s before issue 13)"
    if rr is None:
        rep.target(work, f"{t_draw:.2f} s", "", verdict, t_draw <= 0.65)
        return
    t_r = rr.time("set.seed(1); for (b in 1:999) sample.int(100000, 100000, replace = TRUE)")
    rep.target(work, f"{t_draw:.2f} s", f"{t_r:.2f} s",
               f"{t_r / t_draw:.1f}x (target >= 2x and {verdict[7:]})",
               t_r / t_draw >= 2 and t_draw <= 0.65)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the slowest R runs")
    ap.add_argument("--no-r", action="store_true", help="Python timings and absolute targets only")
    ap.add_argument("--repeat", type=int, default=3, help="Python runs per timing (minimum kept)")
    ap.add_argument("--readme", action="store_true",
                    help="rewrite docs/evidence/speed.md's tables and the README's speed lines from this run")
    ap.add_argument("--only-peers", action="store_true",
                    help="run only the peers section and the R-cold lines (with --readme: rewrite only"
                         " their tables)")
    ap.add_argument("--peer-rounds", type=int, default=7,
                    help="alternating runs per peers line (minimum kept)")
    ap.add_argument("--only-stream", action="store_true",
                    help="run only the sample.int stream target (R's draws inside cal_ci)")
    ap.add_argument("--only-corp", action="store_true",
                    help="only the reliabilitydiag()/smece() targets at 10^7 rows")
    ap.add_argument("--only-venn", action="store_true",
                    help="run only the cal_venn_abers targets (10^6 rows; against the venn-abers package at 10^5)")
    ap.add_argument("--only-val-prob-ci", action="store_true",
                    help="run only the val_prob_ci() lines (CalibrationCurves::val.prob.ci.2)")
    ap.add_argument("--only-pmcalibration", action="store_true",
                    help="only the pmcalibration() targets (10^5 rows per smooth; ci='boot' 1,000"
                         " resamples at 10^4 rows)")
    ap.add_argument("--only-csv", action="store_true",
                    help="run only the command line's CSV reader target (against pandas.read_csv)")
    ap.add_argument("--only-first-call", action="store_true",
                    help="run only the first-call lines (import + first call against import + a steady call,"
                         " in new processes; tools/bench_first_call.py)")
    ap.add_argument("--no-cold", action="store_true",
                    help="skip the first-call-in-a-new-process column (one child process per line)")
    ap.add_argument("--direct-r", action="store_true",
                    help="time R at the full replicate counts instead of extrapolating (slow)")
    args = ap.parse_args(argv)
    repeat = args.repeat
    global COLD
    COLD = not args.no_cold
    try:
        rr = None if (args.no_r or args.only_peers) else R()
    except Exception as exc:  # rpy2 or R missing
        print(f"R is not available through rpy2 ({type(exc).__name__}: {exc}); use --no-r", file=sys.stderr)
        return 2
    if rr is not None:
        rr.direct = args.direct_r
    rep = Report()
    rep.machine = [machine_note(rr)]
    rep.line(f"machine at the start: {rep.machine[0]}")
    rep.line(f"pycalib_r {pc.__version__}, numpy {np.__version__}, {platform.machine()}; times are the"
             f" minimum of {repeat} runs (Python) and of up to {R_RUNS} runs (R, fewer when one run"
             f" takes over {R_SHORT:g} s); on both sides short calls repeat until {SHORT_BUDGET:g} s"
             f" have gone (at most {SHORT_RUNS} runs)")

    def rng():
        return _rng.RRandom(1)

    if args.only_first_call:
        from bench_first_call import first_call_targets

        first_call_targets(rep.target, rep.line, _ORIGINAL_ENV)
        rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
        return 1 if rep.failed else 0
    if args.only_peers:
        peers_section(rep, args)
        rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
        return 1 if rep.failed else 0
    if args.only_venn:
        venn_abers_targets(rep, repeat)
        rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
        return 1 if rep.failed else 0
    if args.only_stream:
        stream_draw_target(rep, rr, repeat)
        return 1 if rep.failed else 0
    if args.only_val_prob_ci:
        val_prob_ci_targets(rep, rr, repeat)
    if args.only_pmcalibration:
        pmcalibration_targets(rep, rr, repeat)
        rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
        return 1 if rep.failed else 0
    if args.only_corp or args.only_csv:
        if args.only_corp:
            corp_targets(rep, repeat)
        if args.only_csv:
            csv_reader_target(rep, repeat)
        return 1 if rep.failed else 0

    # -- binary skce / mmce at 1e7 rows ----------------------------------------------
    rep.line("skce() and mmce(), binary, bandwidth 0.2")
    p, y = binary_data(10_000_000, 1)
    for name, fn in (("skce", pc.skce), ("mmce", pc.mmce)):
        t = best_time(lambda: fn(p, y), repeat)
        mb = peak_mb(lambda: fn(p, y))
        rep.target(f"`{name}`, 10,000,000 binary rows", f"{t:.2f} s, {mb:.0f} MB peak", "",
                   "target <= 3 s and <= 600 MB", t <= 3.0 and mb <= 600,
                   cold_note("p, y = binary_data(10_000_000, 1)", f"pc.{name}(p, y)"))
    del p, y
    p, y = binary_data(1_000_000, 2)
    t = best_time(lambda: pc.skce(p, y), repeat)
    note = ""
    if rr is not None:
        p2, y2 = binary_data(4000, 3)
        rr.put("pp", p2)
        rr.put("yy", y2)
        t_r = rr.time("bench_skce(pp, yy)")
        t_py = best_time(lambda: pc.skce(p2, y2), repeat)
        note = (f"{t_r * 1000:.1f} ms at 4,000 rows (bench.R: sorted cumulative sums) vs"
                f" {t_py * 1000:.1f} ms: {t_r / t_py:.1f}x")
    rep.target("`skce`, 1,000,000 binary rows", f"{t:.2f} s", note, "target < 2 s", t < 2.0)

    # -- cal_test bootstrap, binary -------------------------------------------------------
    rep.line("cal_test(), bootstrap")
    p, y = binary_data(100_000, 3)
    t = best_time(lambda: pc.cal_test(p, y, n_boot=999, rng=rng(), progress=False), repeat)
    rep.target("`cal_test`, 100,000 binary rows, 999 resamples", f"{t:.2f} s", "", "target < 10 s", t < 10,
               cold_note("p, y = binary_data(100_000, 3)",
                         "pc.cal_test(p, y, n_boot=999, rng=_rng.RRandom(1), progress=False)"))
    p2, y2 = binary_data(2000, 4)
    t_py = best_time(lambda: pc.cal_test(p2, y2, n_boot=999, rng=rng(), progress=False), repeat)
    if rr is not None:
        rr.put("pp", p2)
        rr.put("yy", y2)
        t_r, setup, per = rr.extrapolated("set.seed(1); bench_cal_test(pp, yy, n_boot = {B})", 19, 59, 999)
        ratio_target(rep, "`cal_test`, 2,000 binary rows, 999 resamples", t_py, t_r,
                     BENCH_R_MATVEC + extrap_note(19, 59, setup, per), 50,
                     ("p, y = binary_data(2000, 4)",
                      "pc.cal_test(p, y, n_boot=999, rng=_rng.RRandom(1), progress=False)"))
        t_b = rr.time("set.seed(1); bench_cal_test_batched(pp, yy, n_boot = 999)")
        rep.line(f"    R with all 999 replicates in one matrix product (bench_cal_test_batched):"
                 f" {t_b:.3g} s, {t_b / t_py:.0f}x")

    # -- cal_test canonical K = 10 ------------------------------------------------------------
    for n, need in ((1500, 20), (5000, 10)):
        pm, ym = multiclass_data(n, 10, 5)
        t_py = best_time(lambda: pc.cal_test(pm, ym, n_boot=199, rng=rng(), progress=False), repeat)
        work = f"`cal_test` canonical, K = 10, {n:,} rows, 199 resamples"
        if rr is None or (args.quick and n > 2000):
            rep.line(f"  {work}: {t_py:.3g} s (R not run)")
            continue
        rr.put("pp", pm)
        rr.put("yy", ym)
        b1, b2 = (5, 45) if n <= 2000 else (1, 5)
        t_r, setup, per = rr.extrapolated("set.seed(1); bench_cal_test(pp, yy, n_boot = {B})", b1, b2, 199)
        ratio_target(rep, work, t_py, t_r, BENCH_R_MATVEC + extrap_note(b1, b2, setup, per), need,
                     (f"p, y = multiclass_data({n}, 10, 5)",
                      "pc.cal_test(p, y, n_boot=199, rng=_rng.RRandom(1), progress=False)"))

    # -- skce canonical at 20,000 rows --------------------------------------------------------
    pm, ym = multiclass_data(20_000, 10, 6)
    t = best_time(lambda: pc.skce(pm, ym), max(1, repeat - 1))
    mb = peak_mb(lambda: pc.skce(pm, ym))
    rep.target("`skce` canonical, K = 10, 20,000 rows", f"{t:.2f} s, {mb:.0f} MB peak",
               "n x n matrix of 3.2 GB", "target < 5 s and <= 400 MB", t < 5.0 and mb <= 400)
    del pm, ym

    # -- cal_ci -------------------------------------------------------------------------------
    rep.line("cal_ci(), percentile bootstrap, 999 resamples")
    p, y = binary_data(100_000, 7)
    t = best_time(lambda: pc.cal_ci(p, y, "ece", n_boot=999, rng=rng(), progress=False), repeat)

    r_note = ""
    if rr is not None:
        rr.put("pp", p)
        rr.put("yy", y)
        t_r, setup, per = rr.extrapolated("set.seed(1); bench_cal_ci(pp, yy, n_boot = {B})", 3, 13, 999)
        r_note = f"{t_r:.3g} s (bench.R: per-bin sums){extrap_note(3, 13, setup, per)}, {t_r / t:.0f}x"
    rep.target('`cal_ci(metric = "ece")`, 100,000 binary rows', f"{t:.2f} s", r_note, "target < 5 s", t < 5,
               cold_note("p, y = binary_data(100_000, 7)",
                         'pc.cal_ci(p, y, "ece", n_boot=999, rng=_rng.RRandom(1), progress=False)'))
    stream_draw_target(rep, rr, repeat)
    p, y = binary_data(20_000, 8)
    t = best_time(lambda: pc.cal_ci(p, y, "skce", n_boot=999, rng=rng(), progress=False), repeat)
    rep.line(f'  `cal_ci(metric = "skce")`, 20,000 binary rows: {t:.2f} s')

    # -- calibrators ------------------------------------------------------------------------
    if rr is not None and rr.has_probcal:
        rr.ro.r("suppressMessages(library(probcal))")
        calibrator_targets(rep, rr, repeat, args.quick)
    elif rr is not None:
        rep.line("calibrators: the probcal R package is not installed; R side not run")

    # -- R's uniform stream and mmce memory ---------------------------------------------------
    t = best_time(lambda: _rng.RRandom(1).runif(10_000_000), repeat)
    r_note = ""
    if rr is not None:
        t_r = rr.time("set.seed(1); stats::runif(1e7)")
        r_note = f"{t_r:.2f} s"
    rep.target("`runif(1e7)`", f"{t:.2f} s", r_note, "target < 1 s", t < 1.0)
    distribution_targets(rep, rr, repeat)
    p, y = binary_data(1_000_000, 9)
    mb = peak_mb(lambda: pc.mmce(p, y))
    rep.target("`mmce`, 1,000,000 binary rows, memory", f"{mb:.0f} MB peak",
               "n x n matrix: stops near 20,000 rows", "target < 200 MB", mb < 200)

    corp_targets(rep, repeat)
    venn_abers_targets(rep, repeat)
    pmcalibration_targets(rep, rr, repeat)
    csv_reader_target(rep, repeat)
    val_prob_ci_targets(rep, rr, repeat)

    # -- first calls in new processes (tools/bench_first_call.py) -----------------------------
    from bench_first_call import first_call_targets

    first_call_targets(rep.target, rep.line, _ORIGINAL_ENV)

    # -- the scikit-learn wrapper's own cost (tools/bench_sklearn.py) ----------------------------
    from bench_sklearn import bench_sklearn_overhead

    rep.failed += bench_sklearn_overhead(args.quick, rep.line)

    rep.machine.append(machine_note(rr))
    peers_section(rep, args)
    rep.line(f"machine at the end: {rep.machine[1]}")
    rep.line("")
    rep.line("all targets met" if rep.failed == 0 else f"{rep.failed} target(s) missed")
    if args.readme:
        write_readme(rep.rows, repeat, rep.machine)
    return 1 if rep.failed else 0


def peers_section(rep, args):
    """The Python peers on the same data, and whole new processes against
    ``Rscript`` (tools/bench_peers.py); with ``--readme`` their tables."""
    import os

    from bench_peers import peer_lines, r_cold_lines, write_peers

    rows, cold_rows = [], []
    load0 = os.getloadavg()[0]
    rep.failed += peer_lines(rep.line, args.quick, args.peer_rounds, rows=rows)
    if COLD:
        r_cold_lines(rep.line, rows=cold_rows)
    if args.readme:
        command = "python tools/bench.py --readme" + (" --only-peers" if args.only_peers else "")
        machine = (f"load average {load0:.2f} at the section's start and {os.getloadavg()[0]:.2f} at its end,"
                   f" on {os.cpu_count()} cores")
        write_peers(rows, cold_rows, command, machine, args.peer_rounds)


def val_prob_ci_targets(rep, rr, repeat):
    """val_prob_ci against CalibrationCurves 2.0.0's val.prob.ci.2 (plot on a null device).

    R's call forms every event x non-event pair for the c-statistic's interval
    (``expand.grid``) and, for the loess limits, the n x n operator: at 10^5
    rows it cannot allocate them (tens of GB), so R is timed at 10^4 and the
    10^5 line holds Python to R's 10^4 time."""
    import warnings

    rep.line("val_prob_ci() (CalibrationCurves::val.prob.ci.2)")
    has_cc = False
    if rr is not None:
        rr.ro.r('lib <- Sys.getenv("PYCALIB_R_RLIB"); if (nzchar(lib)) .libPaths(c(lib, .libPaths()))')
        has_cc = rr.ro.r('as.character(suppressMessages(suppressWarnings(requireNamespace('
                         '"CalibrationCurves", quietly = TRUE))))')[0] == "TRUE"
        if has_cc:
            rr.ro.r("suppressMessages(library(CalibrationCurves)); pdf(NULL)")

    def ours(p, y, smooth):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pc.val_prob_ci(p, y, smooth=smooth)

    r_times = {}
    for smooth in ("loess", "rcs"):
        p, y = binary_data(10_000, 11)
        t = best_time(lambda: ours(p, y, smooth), repeat)
        t_r = None
        if has_cc:
            rr.put("pp", p)
            rr.put("yy", y)
            t_r = rr.once(f'suppressWarnings(val.prob.ci.2(pp, yy, smooth = "{smooth}"))')
            r_times[smooth] = t_r
        note = f"{t_r:.2f} s: {t_r / t:.1f}x" if t_r else "CalibrationCurves 2.0.0 not installed"
        rep.target(f"`val_prob_ci`, 10,000 rows, smooth = \"{smooth}\"", f"{t:.2f} s", note,
                   "target: no slower than R", t_r is None or t <= t_r)
    p, y = binary_data(100_000, 12)
    for smooth in ("loess", "rcs"):
        t = best_time(lambda: ours(p, y, smooth), repeat)
        t_r = r_times.get(smooth)
        rep.target(f"`val_prob_ci`, 100,000 rows, smooth = \"{smooth}\"", f"{t:.2f} s",
                   "cannot run in R (ci.auc's 2.5e9 pairs" + (", loess's 10^10-cell L" if smooth == "loess" else "")
                   + ")" + (f"; R at 10,000 rows {t_r:.2f} s" if t_r else ""),
                   "target: below R's time at 10,000 rows", t_r is None or t <= t_r)
def pmcalibration_targets(rep, rr, repeat):
    """pmcalibration() against R's pmcalibration 0.2.0 (same data, same call):
    each R-exact smooth at 10^5 rows (ci = "none"), and ci = "boot" with 1,000
    resamples at 10^4 rows (smooth = "ns"; R extrapolated from 50 and 100
    resamples unless --direct-r). R's side needs pmcalibration installed
    (R_LIBS_USER or /work/rlib); without it the lines say so and time Python alone."""
    import warnings

    rep.line("pmcalibration(): each smooth at 100,000 rows; ci='boot' 1,000 resamples at 10,000 rows")
    has = False
    if rr is not None:
        rr.ro.r('.libPaths(c("/work/rlib", Sys.getenv("R_LIBS_USER"), .libPaths()))')
        has = rr.ro.r('as.integer(suppressWarnings(requireNamespace("pmcalibration", quietly = TRUE)))')[0] == 1
        if has:
            rr.ro.r("suppressPackageStartupMessages(library(pmcalibration)); pbapply::pboptions(type = 'none')")
    no_r = "R's pmcalibration not installed: Python alone"

    def quiet(fn):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()

    def data(n, seed):
        g = _rng.RRandom(seed)
        p = g.runif(n, 0.02, 0.98)
        return p, g.rbinom(n, 1, p)

    p, y = data(100_000, 21)
    if has:
        rr.put("pp", p)
        rr.put("yy", y)
    for smooth in ("none", "ns", "bs", "lowess", "loess"):
        t = best_time(lambda: quiet(lambda: pc.pmcalibration(y, p, smooth=smooth, ci="none")), repeat)
        work = f"`pmcalibration(smooth='{smooth}')`, 100,000 rows"
        if has:
            t_r = rr.time(f"suppressMessages(pmcalibration(yy, pp, smooth = '{smooth}', ci = 'none', plot = FALSE))")
            ratio_target(rep, work, t, t_r, " (pmcalibration 0.2.0)", 1.0)
        else:
            rep.target(work, f"{t:.3g} s", no_r, "no R figure", True)
    p, y = data(10_000, 22)
    t = best_time(lambda: quiet(lambda: pc.pmcalibration(y, p, smooth="ns", ci="boot", n=1000,
                                                         rng=_rng.RRandom(3))), 1)
    work = "`pmcalibration(smooth='ns', ci='boot', n=1000)`, 10,000 rows"
    if has:
        rr.put("pp", p)
        rr.put("yy", y)
        t_r, _, _ = rr.extrapolated(
            "suppressMessages(pmcalibration(yy, pp, smooth = 'ns', ci = 'boot', n = {B}, plot = FALSE))",
            50, 100, 1000)
        ratio_target(rep, work, t, t_r, "" if rr.direct else " (extrapolated from 50 and 100 resamples)", 1.0)
    else:
        rep.target(work, f"{t:.3g} s", no_r, "no R figure", True)


def corp_targets(rep, repeat):
    """Bin-free diagnostics at 10^7 rows (issue 36): the CORP curve and decomposition
    within 3x of cal_isotonic's fit (the same sort and PAV), smece in bounded memory."""
    rep.line("reliabilitydiag() (CORP) and smece(), 10,000,000 binary rows")
    p, y = binary_data(10_000_000, 11)
    runs = max(1, repeat - 1)
    t_iso = best_time(lambda: pc.cal_isotonic(p, y), runs)
    t_corp = best_time(lambda: pc.reliabilitydiag(p, y, region_level=None).summary(), runs)
    ratio = t_corp / t_iso
    rep.target("`reliabilitydiag(region_level=None)` + `summary()`, 10,000,000 binary rows",
               f"{t_corp:.2f} s", "", f"{ratio:.2f}x `cal_isotonic` ({t_iso:.2f} s; target <= 3x)",
               ratio <= 3.0)
    t = best_time(lambda: pc.smece(p, y), runs)
    mb = peak_mb(lambda: pc.smece(p, y))
    # The input checks' copies of p (float64) and y (int64) are 153 MB at this
    # size, as for every metric; the smoothing itself reads chunks of 2^20 rows.
    rep.target("`smece`, 10,000,000 binary rows", f"{t:.2f} s, {mb:.0f} MB peak beyond the data", "",
               "target <= 250 MB (153 MB checked copies of p and y + chunks of 2^20 rows)",
               mb <= 250)
    del p, y
def venn_abers_targets(rep, repeat, n=1_000_000, n_peer=100_000):
    """Inductive Venn-ABERS (issue 50): fit on 10^6 calibration rows and
    predict 10^6 test rows in under 2 s; at 10^5 rows, ahead of the
    venn-abers package's VennAbers (fit + predict_proba, the same answers)."""
    rep.line(f"cal_venn_abers, {n:,} calibration and {n:,} test rows")
    p, y = binary_data(n, 13)
    t, _ = binary_data(n, 14)
    t_va = best_time(lambda: pc.predict(pc.cal_venn_abers(p, y), t), repeat)
    rep.target(f"`cal_venn_abers` + `predict`, {n:,} + {n:,} rows", f"{t_va:.2f} s", "",
               "target < 2 s", t_va < 2.0)
    p, y, t = p[:n_peer], y[:n_peer], t[:n_peer]
    import warnings

    before = np.geterr()
    try:
        from venn_abers import VennAbers
    except ImportError:
        rep.line("  venn-abers package: not installed, skipped (pip install venn-abers)")
        return
    finally:
        np.seterr(**before)  # venn_abers sets numpy's error state when imported
    from importlib import metadata

    def theirs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = VennAbers()
            fit.fit(np.column_stack((1 - p, p)), y)
            return fit.predict_proba(np.column_stack((1 - t, t)))[0][:, 1]

    ours = best_time(lambda: pc.predict(pc.cal_venn_abers(p, y), t), repeat)
    # The package's fit takes seconds at this size: one run.
    t0 = time.perf_counter()
    ref = theirs()
    t_pkg = time.perf_counter() - t0
    diff = float(np.max(np.abs(ref - pc.predict(pc.cal_venn_abers(p, y), t))))
    rep.target(f"`cal_venn_abers` + `predict`, {n_peer:,} + {n_peer:,} rows", f"{ours:.3g} s",
               "", f"venn-abers {metadata.version('venn-abers')} `VennAbers` {t_pkg:.3g} s:"
               f" {t_pkg / ours:.0f}x (target > 1x; largest difference {diff:.1e})", t_pkg > ours)


def csv_reader_target(rep, repeat, n=2_000_000):
    """The command line's reader (pycalib_r.cli: the predictions and labels of
    ``pycalib-r metrics``) against ``pandas.read_csv`` on the same 2e6-row
    CSV, in this run: target <= 2x."""
    import tempfile

    import pandas as pd

    from pycalib_r.cli._data import read_csv

    p, y = binary_data(n, 10)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "preds.csv")
        pd.DataFrame({"prob": p, "label": y}).to_csv(path, index=False)
        mb = Path(path).stat().st_size / 2 ** 20
        read_csv(path, ["prob"], "label")  # pyarrow's import, outside the clock as pandas'
        t_pd = best_time(lambda: pd.read_csv(path), repeat)
        t_cli = best_time(lambda: read_csv(path, ["prob"], "label"), repeat)
        t_pd = min(t_pd, best_time(lambda: pd.read_csv(path), repeat))  # the same moment's best
    ratio = t_cli / t_pd
    rep.target(f"`pycalib-r` CSV reader, {n:,} rows ({mb:.0f} MB)", f"{t_cli:.3f} s",
               "", f"{ratio:.2f}x `pandas.read_csv` ({t_pd:.3f} s, same run; target <= 2x)",
               ratio <= 2.0)


def calibrator_targets(rep, rr, repeat, quick):
    """Every calibrator fit and cal_cv, K = 10 digits (n = 450) and binary n = 100,000: >= 3x."""
    p, y = digits_data(450)
    logits = np.log(np.clip(p, 1e-12, 1.0))
    rr.put("P", p)
    rr.put("Y", y)
    rr.put("L", logits)
    rep.line("calibrators, K = 10, 450 rows of digits probabilities (lambda chosen automatically)")
    # (name, Python call, R call): the Python call is code, so that the cold
    # column can run it in a new process.
    mc = [
        ("cal_temperature", "pc.cal_temperature(logits, y)", "cal_temperature(L, Y)"),
        ("cal_vector_scaling", "pc.cal_vector_scaling(logits, y)", "cal_vector_scaling(L, Y)"),
        ("cal_dirichlet", "pc.cal_dirichlet(p, y)", "cal_dirichlet(P, Y)"),
        ("cal_ovr", "pc.cal_ovr(p, y)", "cal_ovr(P, Y)"),
    ]
    for method, x, rx in (("temperature", "logits", "L"), ("vector", "logits", "L"),
                          ("dirichlet", "p", "P"), ("ovr", "p", "P")):
        mc.append((f'cal_cv(method = "{method}")', f'pc.cal_cv({x}, y, method="{method}", seed=1)',
                   f'cal_cv({rx}, Y, method = "{method}", seed = 1)'))
    setup = "p, y = digits_data(450); logits = np.log(np.clip(p, 1e-12, 1.0))"
    ns = {"pc": pc, "p": p, "y": y, "logits": logits}
    for name, call, expr in mc:
        t_py = best_time(lambda: eval(call, ns), repeat)
        t_r = rr.time(expr)
        ratio_target(rep, f"`{name}`, K = 10, 450 rows", t_py, t_r, "", 3, (setup, call))

    n = 100_000
    pb, zb, yb = binary_scores(n, 11)
    rr.put("pb", pb)
    rr.put("zb", zb)
    rr.put("yb", yb)
    rep.line(f"calibrators, binary, {n:,} rows")
    bc = [
        ("cal_platt", "pc.cal_platt(zb, yb)", "cal_platt(zb, yb)"),
        ("cal_temperature", "pc.cal_temperature(zb, yb)", "cal_temperature(zb, yb)"),
        ("cal_beta", "pc.cal_beta(pb, yb)", "cal_beta(pb, yb)"),
        ("cal_isotonic", "pc.cal_isotonic(pb, yb)", "cal_isotonic(pb, yb)"),
        ("cal_histogram", "pc.cal_histogram(pb, yb)", "cal_histogram(pb, yb)"),
    ]
    for method, x in (("platt", "zb"), ("temperature", "zb"), ("beta", "pb"),
                      ("isotonic", "pb"), ("histogram", "pb")):
        bc.append((f'cal_cv(method = "{method}")', f'pc.cal_cv({x}, yb, method="{method}", seed=1)',
                   f'cal_cv({x}, yb, method = "{method}", seed = 1)'))
    setup = f"pb, zb, yb = binary_scores({n}, 11)"
    ns = {"pc": pc, "pb": pb, "zb": zb, "yb": yb}
    for name, call, expr in bc:
        t_py = best_time(lambda: eval(call, ns), repeat)
        t_r = rr.time(expr)
        ratio_target(rep, f"`{name}`, binary, {n:,} rows", t_py, t_r, "", 3, (setup, call))


_START = "<!-- bench:start -->"
_END = "<!-- bench:end -->"


def write_readme(rows, repeat, machine):
    path = REPO / "docs" / "evidence" / "speed.md"
    text = path.read_text(encoding="utf-8")
    if _START not in text or _END not in text:
        print("docs/evidence/speed.md has no bench markers; not rewritten", file=sys.stderr)
        return
    when = time.strftime("%Y-%m-%d", time.gmtime())
    lines = [
        _START,
        f"Generated by `python tools/bench.py --readme` on {when} (a shared 2-core machine; each"
        f" time is the minimum of {repeat} Python runs and of up to {R_RUNS} R runs; on both sides a"
        f" call is repeated until {SHORT_BUDGET:g} s have gone, at most {SHORT_RUNS} runs).",
        "",
        f"Machine at the start: {machine[0]}. At the end: {machine[-1]}.",
        "",
        "R code timed: `skce`, `cal_test` and `cal_ci` against `reference/r/bench.R` (contract.R's"
        " definitions written for speed in base R; `tests/suites/project/test_bench_r.py` checks they agree);"
        " the calibrators and `cal_cv` against the probcal R package; the streams against base R.",
        "",
        "The first-call column runs the same work as the first call of a new Python process"
        " (bytecode cache written, data made before the clock starts; one run), and says"
        " when its ratio against R falls below the line's warm target.",
        "",
        "| work | pycalib_r | R (same work) | result | first call in a new process |",
        "| --- | --- | --- | --- | --- |",
    ]
    for work, ours, r_side, verdict, status, cold in rows:
        lines.append(f"| {work} | {ours} | {r_side or '-'} | {verdict}: {status} | {cold or '-'} |")
    lines.append(_END)
    new = re.sub(re.escape(_START) + ".*?" + re.escape(_END), lambda _: "\n".join(lines), text, flags=re.S)
    path.write_text(new, encoding="utf-8")
    print("docs/evidence/speed.md speed table rewritten", flush=True)


if __name__ == "__main__":
    sys.exit(main())

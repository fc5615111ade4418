#!/usr/bin/env python3
"""First calls in a new process: import plus the first call against import
plus a steady-state call, CPU time, and the peak memory of the first ``ece``.

Each line runs in a fresh Python process (the package's bytecode cached, as
after an install): it makes its data before the clock starts, imports
pycalib_r, times the first call, then the best of three further calls of the
same work. The targets (issue 48): ``(import + first) / (import + steady)``
at most 1.3; the first binary ``ece`` at 10^6 rows at most 15 ms CPU; import
plus that call at most 70 MiB peak RSS, numpy and the data included; and no
call compiles anything (nothing is: the kernels are built at install; the
line checks that numba is not even imported).

Usage:  python tools/bench_first_call.py     (also a section of tools/bench.py)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# (label, data code, call code): the data code runs before the clock.
CASES = (
    ("binary `ece`, 100,000 rows",
     "g = np.random.default_rng(1); p = g.random(100_000); y = (g.random(100_000) < p).astype(np.int64)",
     "pc.ece(p, y)"),
    ("binary `ece`, 1,000,000 rows",
     "g = np.random.default_rng(1); p = g.random(1_000_000); y = (g.random(1_000_000) < p).astype(np.int64)",
     "pc.ece(p, y)"),
    ("canonical `cal_test`, K = 10, 1,500 rows, 199 resamples",
     "g = np.random.default_rng(2); z = g.normal(size=(1500, 10)); P = np.exp(z) / np.exp(z).sum(1, keepdims=True);"
     " y = np.array([g.choice(10, p=r) + 1 for r in P])",
     "pc.set_seed(1); pc.cal_test(P, y, type='canonical', n_boot=199)"),
    ("`cal_platt`, 100,000 rows",
     "g = np.random.default_rng(3); p = g.uniform(0.01, 0.99, 100_000); y = (g.random(100_000) < p).astype(np.int64)",
     "pc.cal_platt(p, y)"),
    ("multiclass `cal_temperature`, K = 5, 100,000 rows",
     "g = np.random.default_rng(4); z = 2 * g.normal(size=(100_000, 5)); y = g.integers(1, 6, 100_000)",
     "pc.cal_temperature(z, y)"),
    ("`cal_isotonic`, 1,000,000 rows",
     "g = np.random.default_rng(5); p = g.random(1_000_000); y = (g.random(1_000_000) < p).astype(np.int64)",
     "pc.cal_isotonic(p, y)"),
    ("`reliabilitydiag`, 1,000,000 rows",
     "g = np.random.default_rng(6); p = g.random(1_000_000); y = (g.random(1_000_000) < p).astype(np.int64)",
     "pc.reliabilitydiag(p, y)"),
)

_CHILD = """
import json, resource, sys, time
import numpy as np
{data}
t0 = time.process_time()
import pycalib_r as pc
t1 = time.process_time()
{call}
t2 = time.process_time()
rss_first = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
steady = []
for _ in range(3):
    a = time.process_time()
    {call}
    steady.append(time.process_time() - a)
print(json.dumps({{"import": t1 - t0, "first": t2 - t1, "steady": min(steady), "rss_mib": rss_first,
                  "numba": "numba" in sys.modules,
                  "native": __import__("pycalib_r._native", fromlist=["x"]).available()}}))
"""


def measure(data: str, call: str, env=None) -> dict:
    code = _CHILD.format(data=data, call=call)
    env = dict(os.environ if env is None else env, PYTHONPATH=str(REPO))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # installs have bytecode caches
    # A first child writes the bytecode caches; the second is timed.
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True, timeout=600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_call_targets(target, line, env=None) -> None:
    """One target per case, through ``target(work, ours, r_side, verdict, ok)``."""
    line("first calls in a new process (CPU time; import + first call against import + a steady call)")
    for label, data, call in CASES:
        m = measure(data, call, env)
        ratio = (m["import"] + m["first"]) / (m["import"] + m["steady"])
        ok = ratio <= 1.3 and not m["numba"] and m["native"]
        extra = ""
        if label == "binary `ece`, 1,000,000 rows":
            ok = ok and m["first"] <= 0.015 and m["rss_mib"] <= 70
            extra = f"; first call {m['first'] * 1e3:.1f} ms (target <= 15 ms), peak {m['rss_mib']:.0f} MiB (target <= 70)"
        ours = (f"import {m['import'] * 1e3:.0f} ms + first {m['first'] * 1e3:.1f} ms, steady {m['steady'] * 1e3:.1f} ms"
                f"{'' if m['native'] else ' (native kernels NOT in use)'}{' (numba imported!)' if m['numba'] else ''}")
        target(f"{label}, first call", ours, "", f"{ratio:.2f}x of steady (target <= 1.3x){extra}", ok)


def main() -> int:
    failed = []

    def target(work, ours, r_side, verdict, ok):
        print(f"  {work}: {ours}; {verdict}  {'PASS' if ok else 'FAIL'}", flush=True)
        if not ok:
            failed.append(work)

    first_call_targets(target, print)
    print("all targets met" if not failed else f"{len(failed)} target(s) missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

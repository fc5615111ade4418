"""How fast Ctrl-C stops long calls: SIGINT a child mid-call, time until it exits.

    python tools/interrupt_latency.py [n] [prefix]

Each call runs in a child process on ``n`` rows (default 1e7); the child is
sent SIGINT once the call is under way, and the time from the signal to the
child's exit with KeyboardInterrupt is printed. The goal is under 0.5 s on an
unloaded machine (issue 9): work is done in bounded steps, and Python sees
the signal between them. With ``prefix`` only the calls whose name starts
with it run (``sample`` for R's samplers).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

CALLS = {
    "cal_isotonic": "pc.cal_isotonic(p, y)",
    "ece": "[pc.ece(p, y, bins=b) for b in (10, 100, 1000)]",
    "cal_ci(ece)": "pc.cal_ci(p, y, n_boot=999, progress=False)",
    "cal_histogram": "pc.cal_histogram(p, y, bins=50, strategy='equal_freq')",
    # R's sample.int on the compiled Mersenne-Twister loops (run in slices)
    "sample.int TRUE": "pc._rng.RRandom(1).sample_int_replace(n, n, 100)",
    "sample.int FALSE": "[pc._rng.RRandom(s).sample_int(n) for s in range(30)]",
    "sample.int hash": "[pc._rng.RRandom(s).sample_int(100 * n, n // 2) for s in range(30)]",
    "sample.int prob": "[pc._rng.RRandom(s).sample_int(n, n, True, p) for s in range(30)]",
    "sample.int prob F": "pc._rng.RRandom(1).sample_int(n // 100, n // 200, False, p[:n // 100])",
}

CHILD = """
import sys, time, numpy as np, pycalib_r as pc
n = int(float(sys.argv[1]))
g = np.random.default_rng(1)
p = g.random(n)
y = (g.random(n) < p).astype(np.int64)
pc._rng.RRandom(1).sample_int(100000, 100000, True)  # numba's import and cache load
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    sys.exit(130)
"""


def latency(call: str, n: str, delay: float = 1.0) -> float:
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call), n], env=env,
                            stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()
    time.sleep(delay)
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.wait()
    return time.perf_counter() - start if proc.returncode == 130 else float("nan")


def main() -> None:
    n = sys.argv[1] if len(sys.argv) > 1 else "1e7"
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    # The floor: a child that is only sleeping (signal delivery and exit).
    print(f"{'(sleeping child)':17s} stops {latency('time.sleep(60)', n):.2f} s after SIGINT", flush=True)
    for name, call in CALLS.items():
        if not name.startswith(prefix):
            continue
        print(f"{name:17s} stops {latency(call, n):.2f} s after SIGINT (n = {n})", flush=True)


if __name__ == "__main__":
    main()

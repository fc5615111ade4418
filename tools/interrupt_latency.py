"""How fast Ctrl-C stops long calls: SIGINT a child mid-call, time until it exits.

    python tools/interrupt_latency.py [n] [huge_n]

Each call runs in a child process on ``n`` rows (default 1e7; the input
checks on ``huge_n`` rows, default 1e8, about 1.6 GB of input); the child is
sent SIGINT once the call is under way, and the time from the signal to the
child's exit with KeyboardInterrupt is printed. The goal is under 0.5 s on an
unloaded machine (issue 9): work is done in bounded steps, and Python sees
the signal between them.
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
    "ece(equal_freq, bins=1e9)": "[pc.ece(p, y, bins=10 ** 9, strategy='equal_freq') for _ in range(9)]",
}
# On huge_n rows: the input checks alone (binary, then multiclass), repeated
# so that the signal arrives inside one of them.
HUGE_CALLS = {
    "checks p, y": "[binary_inputs(p, y) for _ in range(99)]",
    "checks class codes": "[check_multiclass_y(y, n_classes=2) for _ in range(99)]",
}

CHILD = """
import sys, numpy as np, pycalib_r as pc
from pycalib_r._forms import binary_inputs
from pycalib_r._checks import check_multiclass_y
n = int(float(sys.argv[1]))
g = np.random.default_rng(1)
p = g.random(n)
y = (g.random(n) < p).astype(np.int64)
if "check_multiclass_y" in sys.argv[2]:
    y += 1
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    sys.exit(130)
"""


def latency(call: str, n: str, delay: float = 1.0) -> float:
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call), n, call], env=env,
                            stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()
    time.sleep(delay)
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.wait()
    if proc.returncode != 130:
        # Finished before the signal, or stopped otherwise: not a latency.
        print(f"  ({call!r} exited with {proc.returncode})", flush=True)
        return float("nan")
    return time.perf_counter() - start


def main() -> None:
    n = sys.argv[1] if len(sys.argv) > 1 else "1e7"
    huge_n = sys.argv[2] if len(sys.argv) > 2 else "1e8"
    for name, call in CALLS.items():
        print(f"{name:26s} stops {latency(call, n):.2f} s after SIGINT (n = {n})", flush=True)
    idle = latency("import time\n    for _ in range(600): time.sleep(0.05)", huge_n, delay=2.0)
    print(f"{'(idle, exit alone)':26s} stops {idle:.2f} s after SIGINT (n = {huge_n}): "
          "freeing the input and leaving Python", flush=True)
    for name, call in HUGE_CALLS.items():
        print(f"{name:26s} stops {latency(call, huge_n, delay=2.0):.2f} s after SIGINT (n = {huge_n})",
              flush=True)


if __name__ == "__main__":
    main()

"""How fast Ctrl-C stops long calls: SIGINT a child mid-call, time until it exits.

    python tools/interrupt_latency.py [n] [prefix] [huge_n]

Each call runs in a child process on ``n`` rows (default 1e7; the input
checks on ``huge_n`` rows, default 1e8, about 1.6 GB of input); the child is
sent SIGINT once the call is under way, and the time from the signal to the
child's KeyboardInterrupt is printed, then the time until the process is
gone (interpreter teardown included). The goal is under 0.5 s to the
KeyboardInterrupt on an unloaded machine (issue 9): work is done in bounded
steps (compiled loops in slices), and Python sees the signal between them.
With ``prefix`` only the calls whose name starts with it run (``sample`` for
R's samplers, ``checks`` for the input checks).
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
    # R's sample.int on the compiled Mersenne-Twister loops (run in slices);
    # loops, not lists, so that results do not pile up in memory.
    "sample.int TRUE": "for s in range(100): pc._rng.RRandom(s).sample_int(n, n, True)",
    "sample.int FALSE": "for s in range(30): pc._rng.RRandom(s).sample_int(n)",
    "sample.int hash": "for s in range(30): pc._rng.RRandom(s).sample_int(100 * n, n // 2)",
    "sample.int prob": "for s in range(30): pc._rng.RRandom(s).sample_int(n, n, True, p)",
    "sample.int prob F": "pc._rng.RRandom(1).sample_int(n // 100, n // 200, False, p[:n // 100])",
    "ece(equal_freq, bins=1e9)": "[pc.ece(p, y, bins=10 ** 9, strategy='equal_freq') for _ in range(9)]",
}
# On huge_n rows: the input checks alone (binary, then multiclass), repeated
# so that the signal arrives inside one of them.
HUGE_CALLS = {
    "checks p, y": "[binary_inputs(p, y) for _ in range(99)]",
    "checks class codes": "[check_multiclass_y(y, n_classes=2) for _ in range(99)]",
}

# The samplers' compiled library is opened before the signal can come (a
# one-time cost of about a millisecond, not a latency).
WARM = "pc._rng.RRandom(1).sample_int(100000, 100000, True)"

CHILD = """
import sys, time, numpy as np, pycalib_r as pc
from pycalib_r.inputs._forms import binary_inputs
from pycalib_r.inputs._checks import check_multiclass_y
n = int(float(sys.argv[1]))
g = np.random.default_rng(1)
p = g.random(n)
y = (g.random(n) < p).astype(np.int64)
if "check_multiclass_y" in sys.argv[2]:
    y += 1
{warm}
print("ready", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print(time.time(), flush=True)
    sys.exit(130)
"""


def latency(call: str, n: str, delay: float = 1.0):
    """Seconds from SIGINT until the call raised KeyboardInterrupt, and until
    the child had exited (NaN when the call was over before the signal)."""
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    child = CHILD.format(call=call, warm=WARM if "_rng" in call else "")
    proc = subprocess.Popen([sys.executable, "-c", child, n, call], env=env,
                            stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()
    time.sleep(delay)
    sent = time.time()
    start = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    caught = proc.stdout.readline()
    proc.wait()
    if proc.returncode != 130:
        return float("nan"), float("nan")
    return float(caught) - sent, time.perf_counter() - start


def report(name: str, call: str, n: str, delay: float = 1.0) -> None:
    caught, exited = latency(call, n, delay)
    print(f"{name:26s} stops {caught:.2f} s after SIGINT (process gone after {exited:.2f} s; n = {n})",
          flush=True)


def main() -> None:
    n = sys.argv[1] if len(sys.argv) > 1 else "1e7"
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    huge_n = sys.argv[3] if len(sys.argv) > 3 else "1e8"
    # The floor: a child that is only sleeping (signal delivery and exit).
    report("(sleeping child)", "time.sleep(60)", n)
    report("(... with the package imported)", "pc._rng and time.sleep(60)", n)
    for name, call in CALLS.items():
        if name.startswith(prefix):
            report(name, call, n)
    for name, call in HUGE_CALLS.items():
        if name.startswith(prefix):
            report(name, call, huge_n, delay=2.0)


if __name__ == "__main__":
    main()

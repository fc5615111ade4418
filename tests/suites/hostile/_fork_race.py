"""Fork while another thread is in its first call (issue 32, item 3).

    python tests/suites/hostile/_fork_race.py native|pandas DELAY,DELAY,...

A thread makes the process's first call that opens the compiled library
and imports its room modules (``cal_platt`` on 200,000 rows) or imports
pandas (``reliability_table``); the main thread forks at each delay after
the thread starts. Each child makes the same first call on small data and
on the large data, checks that the compiled kernels give the twins' bits,
and exits 0; a child that fails or does not end within the bound is
counted. Prints ``forks N bad M`` (tests/suites/hostile/test_library_edges.py runs it).
"""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np

import pycalib_r as pc

CHILD_BOUND = 60.0


def _native_check(p) -> int:
    from pycalib_r import _native
    from pycalib_r.rbase import _rarith

    kern = _native.kernels("libm")
    if kern is None:  # PYCALIB_R_NATIVE=0, or no compiler at install: the twins ran
        return 0
    out = np.empty(p.size)
    kern.log_into(p, out)
    return 0 if np.array_equal(out, _rarith.special().xlogy(1.0, p)) else 5


def main(kind: str, delays) -> None:
    rng = np.random.default_rng(0)
    big = rng.random(200_000)
    small = big[:500]

    def work(p):
        y = (np.arange(p.size) % 2).astype(int)
        if kind == "native":
            pc.cal_platt(p, y)
        else:
            pc.reliability_table(p, y)

    thread = threading.Thread(target=work, args=(big,))
    start = time.perf_counter()
    thread.start()
    children = []
    for delay in delays:
        time.sleep(max(0.0, start + delay - time.perf_counter()))
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                work(small)
                work(big)
                code = _native_check(big) if kind == "native" else 0
            except BaseException as exc:  # noqa: BLE001 - reported by the exit code
                sys.stderr.write(f"child: {type(exc).__name__}: {exc}\n")
                code = 3
            os._exit(code)
        children.append(pid)
    bad = 0
    deadline = time.monotonic() + CHILD_BOUND
    for pid in children:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                bad += os.waitstatus_to_exitcode(status) != 0
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                sys.stderr.write("child hung\n")
                bad += 1
                break
            time.sleep(0.01)
    thread.join()
    print(f"forks {len(children)} bad {bad}")


if __name__ == "__main__":
    main(sys.argv[1], [float(d) for d in sys.argv[2].split(",")])

"""Ctrl-C part-way through a draw (issue 32, item 4).

    python tests/suites/hostile/_interrupt_stream.py rgamma|cal_test|cal_ci DELAY,DELAY,...

For each delay: ``set_seed(1)``, then a SIGINT to this process after the
delay while ``rgamma(3e7, 2.5)`` (one long draw), ``cal_test`` (a
bootstrap of 999 resamples, R's ``sample(c(-1, 1), n, replace = TRUE)``
each) or ``cal_ci`` (999 resamples, R's ``sample.int(n, n, replace =
TRUE)`` each) runs on the global stream. After the KeyboardInterrupt the
stream must be where R can be: its state before the call or after the
whole call (rgamma), or after a whole number of resamples. Prints one line
``interrupted N completed M elsewhere K``; K must be 0.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import numpy as np

import pycalib_r as pc

N = 20_000
N_BOOT = 999


def _call(kind):
    if kind == "rgamma":
        pc.rgamma(3e7, 2.5)
        return
    p = np.linspace(0.01, 0.99, N)
    y = (np.arange(N) % 3 == 0).astype(int)
    if kind == "cal_test":
        pc.cal_test(p, y, n_boot=N_BOOT, progress=False)
    else:
        pc.cal_ci(p, y, n_boot=N_BOOT, progress=False)


def _boundaries(kind, start, end_state):
    """The states R can stand at after the interrupted call."""
    if kind == "rgamma":
        return [start.tobytes(), end_state.tobytes()]
    ref = pc.RRandom(0)
    ref.set_random_seed(start)
    out = [ref.get_random_seed().tobytes()]
    for _ in range(N_BOOT):
        if kind == "cal_test":
            ref.rademacher(1, N)
        else:
            ref.sample_int_replace(N, N, 1)
        out.append(ref.get_random_seed().tobytes())
    return out


def main(kind, delays):
    pc.set_seed(1)
    start = pc.get_random_seed()
    _call(kind)  # also loads what the call needs, so the runs below are alike
    end_state = pc.get_random_seed()
    allowed = set(_boundaries(kind, start, end_state))
    interrupted = completed = elsewhere = 0
    for delay in delays:
        pc.set_seed(1)
        timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        try:
            _call(kind)
            completed += 1
        except KeyboardInterrupt:
            interrupted += 1
        # A call that ended before the timer: stop it, or take its signal here.
        timer.cancel()
        while True:
            try:
                timer.join()
                time.sleep(0.05)
                break
            except KeyboardInterrupt:
                continue
        if pc.get_random_seed().tobytes() not in allowed:
            elsewhere += 1
    print(f"interrupted {interrupted} completed {completed} elsewhere {elsewhere}")


if __name__ == "__main__":
    main(sys.argv[1], [float(d) for d in sys.argv[2].split(",")])

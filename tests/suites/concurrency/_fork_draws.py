"""Forks taken while another thread draws from the global R stream (issue 46, item 1).

    PYTHONPATH=. PYCALIB_R_JIT=0 python tests/suites/concurrency/_fork_draws.py FORKS

A thread draws ``runif(n)`` from the global stream, n cycling from 3 to
3e7 (a long draw made in chunks), and after each call records a digest of
``get_random_seed()``. The main thread forks FORKS times at short random
intervals. Each child reads its stream's state, then draws ``runif(1)``
(numpy's bit generator lock, taken inside ``random_raw``, was copied held
when the fork landed inside a draw: the draw would wait for ever), and
sends both back. A child that does not end within ``CHILD_BOUND`` seconds
is killed and counted as hung.

A child's state must be the state after the last call completed in the
parent: after the ``c`` calls recorded when it was forked, or after one
more (forked after a call returned but before it was recorded).

Prints one JSON line: forks, forks that landed inside a draw, hung
children, children whose state was not one of those two, failed children.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import sys
import threading
import time

MEMORY = 4 << 30
CHILD_BOUND = 30.0
SIZES = (3, 1000, 100_000, 3_000_000, 30_000_000)


def _digest(seed) -> str:
    return hashlib.sha1(seed.tobytes()).hexdigest()


def main(forks: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    import pycalib_r as pc

    pc.set_seed(2024)
    pc.runif(1)  # the stream and its code paths exist before the thread starts
    states = [_digest(pc.get_random_seed())]  # states[c]: after the c-th recorded call
    inside = [False]
    stop = threading.Event()

    def draw():
        i = 0
        while not stop.is_set():
            inside[0] = True
            pc.runif(SIZES[i % len(SIZES)])
            inside[0] = False
            states.append(_digest(pc.get_random_seed()))
            i += 1

    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    rnd = random.Random(46)
    children = []
    time.sleep(0.05)
    for _ in range(forks):
        time.sleep(rnd.uniform(0.0, 0.03))
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.close(r)
                c, mid = len(states), inside[0]
                seed = _digest(pc.get_random_seed())
                pc.runif(1)
                os.write(w, json.dumps([c, mid, seed]).encode())
            except BaseException as exc:  # noqa: BLE001 - reported by the exit code
                sys.stderr.write(f"child: {type(exc).__name__}: {exc}\n")
                code = 3
            os._exit(code)
        os.close(w)
        children.append((pid, r))
    stop.set()
    thread.join()

    hung = failed = wrong = mid_draw = 0
    deadline = time.monotonic() + CHILD_BOUND
    for pid, r in children:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                status = None
                break
            time.sleep(0.01)
        out = b""
        if status is not None:
            while chunk := os.read(r, 65536):
                out += chunk
        os.close(r)
        if status is None:
            hung += 1
            deadline = time.monotonic() + 1.0  # the others had the same time
            continue
        if os.waitstatus_to_exitcode(status) != 0 or not out:
            failed += 1
            continue
        c, mid, seed = json.loads(out)
        mid_draw += mid
        wrong += seed not in states[c - 1:c + 1]
    print(json.dumps({"forks": len(children), "mid_draw": mid_draw, "hung": hung,
                      "wrong_state": wrong, "failed": failed}))


if __name__ == "__main__":
    main(int(sys.argv[1]))

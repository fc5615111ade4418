"""The thread and process contract (README "Threads and processes").

* An explicit stream per thread gives each thread the serial results.
* Threads sharing the global stream (or one ``RRandom``) get the draws of
  some serial order of their calls: no value twice, and the stream ends
  where that serial order ends.
* A fork, spawn or forkserver pool works after every kind of compiled call
  (and after a fork while another thread holds a stream's lock); every pool
  call has a timeout, so a deadlock fails instead of hanging.
* Threaded calls leave ``warnings.filters`` and ``warnings.showwarning`` as
  they were, and every call's warning is shown.
* Calls never see another thread's half-imported pandas or numpy.ma: a
  module is taken from ``sys.modules`` only through ``rbase._modules.imported``.
"""

from __future__ import annotations

import ast
import contextlib
import json
import multiprocessing as mp
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r._rng import RRandom

from tests.suites.concurrency import _pool_work
from tests.conftest import ORIGINAL_ENV, REPO

THREADS = 8
POOL_TIMEOUT = 120  # seconds for one pool call (a spawn child imports the package anew)


def _run_threads(target, n=THREADS):
    """Run ``target(i)`` on ``n`` threads started together; their results in order."""
    out = [None] * n
    errors = []
    start = threading.Barrier(n)

    def run(i):
        try:
            start.wait()
            out[i] = target(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=POOL_TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a thread did not finish (deadlock?)"
    if errors:
        raise errors[0]
    return out


def _data(n=300, seed=5):
    rng = RRandom(seed)
    p = rng.runif(n)
    return p, rng.rbinom(n, 1, p)


P, Y = _data()


# ---------------------------------------------------------------------------
# 8 threads x explicit streams = serial
# ---------------------------------------------------------------------------

def _explicit(i):
    rng = RRandom(100 + i)
    return (rng.rgamma(1 << 15, 2.5), rng.sample_int(1 << 20, 1 << 15, replace=True),
            rng.sample_int(1 << 15), rng.rnorm(1000),
            pc.cal_test(P, Y, n_boot=49, rng=rng, progress=False).null_distribution,
            np.array([pc.cal_ci(P, Y, n_boot=19, rng=rng, progress=False)["lower"]]),
            rng.get_state())


def test_threads_with_their_own_streams_equal_serial_calls():
    serial = [_explicit(i) for i in range(THREADS)]
    threaded = _run_threads(_explicit)
    for s, t in zip(serial, threaded):
        for a, b in zip(s, t):
            np.testing.assert_array_equal(a, b)


@pytest.mark.filterwarnings("ignore:RNGkind. Marsaglia-Multicarry")
def test_explicit_kind_streams_in_threads_equal_serial_calls():
    def draw(i):
        rng = RRandom(i, kind=("Wichmann-Hill", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG", "Marsaglia-Multicarry")[i % 4],
                      normal_kind="Box-Muller")
        return np.concatenate([rng.runif(2000), rng.rnorm(2000), rng.sample_int(5000, 2000, replace=True)])

    serial = [draw(i) for i in range(THREADS)]
    for s, t in zip(serial, _run_threads(draw)):
        np.testing.assert_array_equal(s, t)


# ---------------------------------------------------------------------------
# 8 threads on one shared stream: some serial order
# ---------------------------------------------------------------------------

def _default_seed(seed):
    # R's default kinds, whatever an earlier test left on the global stream
    pc.set_seed(seed, kind="default", normal_kind="default", sample_kind="default")


def _assert_some_serial_order(outputs, next_serial):
    """``outputs`` (one per thread, all of the same call) are the results of
    successive serial calls ``next_serial()``, in some order."""
    left = list(range(len(outputs)))
    for _ in range(len(outputs)):
        want = next_serial()
        hit = next((i for i in left if np.array_equal(outputs[i], want)), None)
        assert hit is not None, "a thread's draws are no serial call's (interleaved or duplicated)"
        left.remove(hit)


@pytest.mark.parametrize("call", [
    lambda s: s.rgamma(200_000, 2.5),  # compiled sampler, the GIL released
    lambda s: s.sample_int(1 << 20, 100_000, replace=True),
    lambda s: s.rnorm(100_000),
], ids=["rgamma", "sample_int", "rnorm"])
def test_threads_on_the_global_stream_draw_some_serial_order(call):
    _default_seed(7)
    glob = pc._rng._global_stream()
    outputs = _run_threads(lambda i: call(glob))
    drawn = np.concatenate(outputs)
    if drawn.dtype.kind == "f":
        # no value twice (a duplicated block would repeat whole runs of values)
        assert np.unique(drawn).size >= drawn.size - 5
    end = pc._rng.get_global_state()
    ref = RRandom(7)
    _assert_some_serial_order(outputs, lambda: call(ref))
    np.testing.assert_array_equal(end, ref.get_state())


def test_threads_sharing_one_rrandom_draw_some_serial_order():
    shared = RRandom(11)
    outputs = _run_threads(lambda i: shared.rbeta(50_000, 2.0, 3.0))
    ref = RRandom(11)
    _assert_some_serial_order(outputs, lambda: ref.rbeta(50_000, 2.0, 3.0))
    np.testing.assert_array_equal(shared.get_state(), ref.get_state())


def _bounds(ci):
    return np.array([ci["lower"], ci["upper"]])


def test_threaded_cal_test_and_cal_ci_on_the_global_stream_are_some_serial_order():
    _default_seed(3)
    tests = _run_threads(lambda i: pc.cal_test(P, Y, n_boot=199, progress=False).null_distribution)
    ref = RRandom(3)
    _assert_some_serial_order(tests, lambda: pc.cal_test(P, Y, n_boot=199, rng=ref, progress=False)
                              .null_distribution)
    np.testing.assert_array_equal(pc._rng.get_global_state(), ref.get_state())
    cis = _run_threads(lambda i: _bounds(pc.cal_ci(P, Y, n_boot=99, progress=False)))
    _assert_some_serial_order(cis, lambda: _bounds(pc.cal_ci(P, Y, n_boot=99, rng=ref, progress=False)))
    np.testing.assert_array_equal(pc._rng.get_global_state(), ref.get_state())


def test_one_numpy_generator_shared_by_threads_serialises():
    # cal_cv draws each class's folds with a call of its own: the call's
    # draws stay one block although every rng= makes a new wrapper.
    def folds(gen):
        return pc.cal_cv(P, Y, method="platt", folds=3, rng=gen).fold_id

    gen = np.random.default_rng(1)
    outputs = sum(_run_threads(lambda i: [folds(gen) for _ in range(3)]), [])
    ref = np.random.default_rng(1)
    _assert_some_serial_order(outputs, lambda: folds(ref))
    # every wrapper of one Generator takes the generator's one lock
    assert pc._rng.resolve_rng(gen)._lock is pc._rng.resolve_rng(gen)._lock
    assert pc._rng.resolve_rng(gen)._lock is not pc._rng.resolve_rng(ref)._lock


def test_streams_pickle_and_copy_with_a_lock_of_their_own():
    import copy
    import pickle

    a = RRandom(2)
    a.runif(10)
    for b in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert b._lock is not a._lock
        np.testing.assert_array_equal(b.runif(5), RRandom.runif(copy.deepcopy(a), 5))


# ---------------------------------------------------------------------------
# Process pools after compiled calls
# ---------------------------------------------------------------------------

@contextlib.contextmanager
def _child_env():
    # rpy2 (loaded by the parity tests) prepends R's library folders to
    # LD_LIBRARY_PATH; a spawned child gets the environment as it was.
    saved = os.environ.get("LD_LIBRARY_PATH")
    orig = ORIGINAL_ENV.get("LD_LIBRARY_PATH")
    if orig is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = orig
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("LD_LIBRARY_PATH", None)
        else:
            os.environ["LD_LIBRARY_PATH"] = saved


def _in_pool(method, fn, *args):
    """``fn(*args)`` in a one-worker pool of ``method``; a hang fails after
    POOL_TIMEOUT and the worker is killed."""
    ctx = mp.get_context(method)
    with _child_env():
        pool = ctx.Pool(1)
    try:
        res = pool.apply_async(fn, args)
        try:
            return res.get(timeout=POOL_TIMEOUT)
        except mp.TimeoutError:
            pytest.fail(f"the {method} pool's worker hung for {POOL_TIMEOUT} s (deadlock)")
    finally:
        pool.terminate()
        pool.join()


PARENT = {}


def _parent_digest():
    if not PARENT:
        PARENT.update(_pool_work.compiled_calls(1))  # every compiled path runs here first
    return PARENT


@pytest.mark.parametrize("method", [m for m in ("fork", "forkserver", "spawn")
                                    if m in mp.get_all_start_methods()])
def test_pools_after_every_compiled_call(method):
    parent = _parent_digest()
    if method == "fork":
        # The child inherits everything the parent's calls left (pools, locks,
        # caches); it makes every compiled call again.
        assert _in_pool(method, _pool_work.compiled_calls, 1) == parent
    else:
        # A fresh interpreter: the call on several cores (the one that hung)
        # and the streams.
        assert _in_pool(method, _pool_work.temperature_and_draws, 1) == \
            {k: parent[k] for k in ("temperature", "rgamma_first")}


@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="no fork on this platform")
def test_fork_while_another_thread_holds_the_global_stream():
    _default_seed(1)
    lock = pc._rng._global_stream()._lock.rlock
    held, release = threading.Event(), threading.Event()

    def hold():
        with lock:
            held.set()
            release.wait(POOL_TIMEOUT)

    t = threading.Thread(target=hold)
    t.start()
    try:
        held.wait(POOL_TIMEOUT)
        got = _in_pool("fork", _pool_work.global_draws, 3)
    finally:
        release.set()
        t.join()
    assert got == RRandom(1).runif(3).tolist()


@pytest.mark.skipif("fork" not in mp.get_all_start_methods(), reason="no fork on this platform")
def test_forks_during_draws_neither_hang_nor_see_a_part_way_stream():
    # tests/suites/concurrency/_fork_draws.py (issue 46, item 1): 200 forks while a thread draws
    # runif(3 ... 3e7) from the global stream, in a child process with 4 GB of
    # address space; each forked child has 30 s. 0.2.0's children hung (numpy's
    # bit generator lock copied held) or started part-way through a draw.
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), PYCALIB_R_JIT="0")
    out = subprocess.run([sys.executable, str(REPO / "tests" / "suites" / "concurrency" / "_fork_draws.py"), "200"],
                         capture_output=True, text=True, timeout=240, env=env, cwd=str(REPO))
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["forks"] == 200 and got["mid_draw"] >= 100, got  # taken during draws
    assert (got["hung"], got["failed"], got["wrong_state"]) == (0, 0, 0), got


def test_a_forked_child_rewinds_a_call_another_thread_is_inside():
    # Deterministic twin of the above: the thread is held inside a call on an
    # RRandom (after part of its draws) while the main thread forks.
    g = RRandom(11)
    want = RRandom(11).runif(5).tolist()  # the child's first draws: the call never happened
    inside, release = threading.Event(), threading.Event()
    real = g._raw

    def raw_then_wait(n):
        out = real(n)
        inside.set()
        release.wait(POOL_TIMEOUT)
        return out

    g._raw = raw_then_wait
    t = threading.Thread(target=g.runif, args=(1000,))
    t.start()
    try:
        assert inside.wait(30), "runif did not reach _raw"
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            code = 0
            try:
                os.close(r)
                del g._raw
                os.write(w, json.dumps(g.runif(5).tolist()).encode())
            except BaseException:  # noqa: BLE001 - the exit code tells
                code = 3
            os._exit(code)
        os.close(w)
        for _ in range(int(POOL_TIMEOUT * 100)):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            threading.Event().wait(0.01)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung")
        got = os.read(r, 65536)
        os.close(r)
    finally:
        release.set()
        t.join()
    assert os.waitstatus_to_exitcode(status) == 0
    assert json.loads(got) == want


# ---------------------------------------------------------------------------
# Warnings after threaded calls
# ---------------------------------------------------------------------------

XS = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1],
               [0.3, 0.6, 0.1], [0.1, 0.1, 0.8], [0.05, 0.05, 0.9]])
YS = np.array([1, 2, 3, 1, 2, 3, 3])
GLM_WARNING = "glm.fit: fitted probabilities numerically 0 or 1 occurred"
CALLS_PER_THREAD = 6


def test_threaded_calls_leave_the_warnings_state_and_show_every_warning():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        filters, show = list(warnings.filters), warnings.showwarning

        def calls(i):
            for _ in range(CALLS_PER_THREAD):
                pc.cal_ovr(XS, YS, method="beta")  # R's list: one glm.fit warning per class fit
                pc.cal_test(P, Y, n_boot=19, rng=RRandom(i), progress=False)

        _run_threads(calls)
        assert warnings.filters == filters
        assert warnings.showwarning is show
        warnings.warn("the user's own warning", UserWarning)
    glm = [w for w in rec if str(w.message) == GLM_WARNING]
    assert len(glm) == 3 * THREADS * CALLS_PER_THREAD  # 3 classes, R lists all 3 (issue 31)
    assert all(w.filename == __file__ for w in glm)
    assert [str(w.message) for w in rec][-1] == "the user's own warning"


# ---------------------------------------------------------------------------
# Half-imported modules (issue 45, item 1)
# ---------------------------------------------------------------------------

def test_calls_in_threads_while_another_imports_pandas_and_numpy_ma():
    # tests/suites/concurrency/_thread_imports.py: a fresh interpreter (4 GB address space) where
    # one thread imports numpy.ma then pandas, each held half-done, while 4
    # threads call every public function; a hang fails at the timeout.
    env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), PYCALIB_R_JIT="0")
    out = subprocess.run([sys.executable, str(REPO / "tests" / "suites" / "concurrency" / "_thread_imports.py")],
                         capture_output=True, text=True, timeout=240, env=env, cwd=str(REPO))
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["not_called"] == []  # every public function is in the script
    assert got["imported_before"] == {"numpy.ma": False, "pandas": False}
    # the workers did call while each module was half-imported ...
    assert all(got["during"].get(k, 0) > 0 for k in ("numpy.ma.core", "pandas.core.api")), got
    # ... and no call failed (on 0.2.0's checks, about 40% did)
    assert got["errors"] == 0, got["first"]


def _sys_modules_reads(tree):
    for node in ast.walk(tree):
        # sys.modules[...] and sys.modules.get(...); a membership test reads no module
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "sys.modules":
            yield node.lineno, ast.unparse(node)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "sys.modules.get":
            yield node.lineno, ast.unparse(node)


def test_modules_come_from_sys_modules_only_through_one_helper():
    own = {"sys.modules[__name__]"}  # a module naming itself is imported by then
    allowed = {"pycalib_r/rbase/_modules.py"}
    found = []
    for path in sorted((REPO / "pycalib_r").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{rel}:{line}: {text}" for line, text in _sys_modules_reads(tree)
                  if text not in own]
    assert found == []

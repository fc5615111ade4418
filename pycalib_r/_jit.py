"""The gate to compiled loops: numba when it is installed and allowed.

Some of R's algorithms are sequential at heart (a Mersenne-Twister stream
consumed by rejection loops, a Fisher-Yates shuffle, a scan with long
branches). numpy can only emulate those with passes over temporaries; a
compiled loop does them at C speed, in constant memory, with the same
integer and IEEE double arithmetic as R's C code. Every compiled kernel has
a numpy (or plain Python) twin that gives the same bits, so numba stays an
accelerator, never a source of different numbers:

* ``PYCALIB_R_JIT=0`` in the environment turns every kernel off (the twins
  run); ``PYCALIB_R_JIT=1`` loads numba at the first kernel a call could
  use, whatever its size; the test suite runs both and compares them bit
  for bit.
* By default numba is loaded only where it pays (:func:`worth`), and where
  it cannot slow a call down. Its import and the first load of kernels
  from the disk cache take 0.5-1 s of a new process, more than most single
  calls save (``cal_platt`` on 50,000 rows saves about 0.05 s), and a
  thread importing next to a running call holds the GIL most of the time
  (the call then takes about as long as the two one after the other). So
  each place that could run a kernel says how much time the kernel would
  save it, and the twins run until numba is loaded. Once the savings given
  up in this process reach ``_BG_AT`` of the load's cost (a call of this
  kind, repeated, would pay for it), a daemon thread loads numba and the
  kernel modules those uses asked for (with the kernel modules their
  kernels call, and each module's ``_warm_up()`` when it has one: a tiny
  call of already-loaded signatures, so that the next call does not pay
  the first run of new code), one step at a time and only while
  no thread has been inside a pycalib_r call for ``_SETTLE`` (50 ms; a
  notebook's or a prompt's idle time between calls, not a loop's gap). The next call after that runs compiled. The caller's
  thread loads numba itself only when one use would save ``_SYNC`` times
  the load's cost, and the loading thread stops waiting for idle time once
  the savings given up reach ``_RENT`` times that cost (a ski-rental rule:
  a script making calls back to back ends up compiled, a short one never
  pays for numba it does not need). Once loaded, kernels run from their
  callers' size thresholds. Nothing is ever compiled or loaded at
  ``import pycalib_r``. :func:`state` tells which path the uses took
  (tests, tools/cold_start.py).
* Kernels that call libm (``exp``, ``log``, ``log1p`` ...) must give glibc's
  values, as R does. numba then calls the C library, except when Intel's SVML
  is installed and loops get vectorised with it; :func:`libm_exact` says
  whether that is ruled out, and float kernels are used only when it is.

* An elementwise kernel may cut its rows into pieces that run on several
  cores (:func:`run_parts`); every element is computed by the same code in
  whichever piece holds it, and sums stay one sequential pass afterwards,
  so the number of cores changes the time, never a bit (tested).
* Fork-safe: a forked child drops the parent's pool and lock
  (``os.register_at_fork``) and builds its own on first use, so a fork
  pool after a large call does not wait on workers that do not exist;
  a fork waits until no other thread is inside an import (numba's, a kernel
  module's, pandas') nor inside a step of the loading thread, see
  :mod:`pycalib_r.rbase._fork`; the child starts its own loading thread
  when it needs one.

Nothing here is public.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from .rbase import _fork, _warn

_lock = threading.Lock()
_load_lock = threading.Lock()  # held only around ``import numba``
_numba = None  # numba, published once its kernels may run; False when unavailable or off
_imported = None  # numba once imported (by the loading thread before it is published)
_JIT_ENV = "PYCALIB_R_JIT"

# What taking the compiled path first costs a new process, in seconds:
# numba's import (0.1-0.45 s) and the first kernels' load from the disk
# cache, which also imports numba's typing registries (0.35-0.7 s), on a
# 2-core x86-64 with numba 0.68; and the cache load alone when something
# else has imported numba already. tools/cold_start.py measures both and
# checks these constants against the measurement: 1.01 s and 0.70 s on
# 2026-12-01, 0.92 s and 0.39 s (load average 4-5) and 0.48 s and 0.33 s
# (load average 2-3) on 2026-12-02.
LOAD_COST = 0.7
LOAD_COST_IMPORTED = 0.45
# Compiling a kernel module in memory, when numba has nowhere to cache it.
COMPILE_COST = 5.0
# Savings given up across uses, in units of the load cost: from ``_BG_AT``
# the loading thread starts (it waits for idle time); from ``_RENT`` it
# stops waiting (a long session ends up compiled). One use that saves
# ``_SYNC`` times the cost loads numba in the caller's thread (the savings
# are estimates, and the load measured 0.4-1.0 s: the margin keeps a
# somewhat optimistic one from slowing a first call).
_BG_AT = 0.01
_RENT = 2.0
_SYNC = 1.25
# The loading thread looks for idle time when a public call returns (told by
# rbase._warn), and every _IDLE_POLL seconds (calls that are methods).
_IDLE_POLL = 0.25
# Idle time is a moment with no thread inside pycalib_r that lasts _SETTLE
# seconds with no public call ending in it: calls made back to back (a
# script's loop) leave gaps of microseconds, and a step started in one
# would slow the next calls (the GIL) without their gaining from it.
_SETTLE = 0.05
_calls_ended = 0
_forgone = 0.0

_bg = None  # the loading thread, once started in this process
_urgent = threading.Event()  # set: the loading thread stops waiting for idle time
_wake = threading.Event()  # set: a call has returned, or _urgent was set
_in_step = False  # the loading thread is inside a step (a fork waits for it)
_wanted = []  # kernel modules whose uses ran on the twins (the loading thread imports them)
_stats = {"twins": 0, "compiled": 0, "started": None, "seconds": None, "by": None, "error": None}


def _mode():
    return os.environ.get(_JIT_ENV, "").strip()


def _import_numba():
    """numba (imported once, by whichever thread comes first), or False."""
    global _imported
    if _imported is None:
        with _load_lock:
            if _imported is None:
                if _mode() == "0":
                    _imported = False
                else:
                    try:
                        import numba  # noqa: PLC0415 (lazy: 0.1-0.45 s to import)
                    except Exception:  # ImportError, or a broken llvmlite
                        _imported = False
                    else:
                        _imported = numba
    return _imported


def _load():
    """Load numba in this thread and publish it (kernels may run from now on)."""
    global _numba
    if _numba is None:
        nb = False if _mode() == "0" else _import_numba()
        with _lock:
            if _numba is None:
                _numba = nb
                if _stats["by"] is None:
                    _stats["by"] = "caller" if nb else "off"
    return _numba


def loaded():
    """True when numba has been loaded for this process's kernels (no import)."""
    return bool(_numba)


def state():
    """How the gate stands in this process, for tests and tools (no import):
    ``loaded``, ``loading`` (the loading thread is running), ``twins`` and
    ``compiled`` (uses of :func:`worth` that ran the twins or the compiled
    path), ``forgone`` (seconds of savings given up, by the callers'
    estimates), ``by`` (who loaded numba: ``"background"``, ``"caller"``,
    or ``"off"``), ``seconds`` (the loading thread's time in its steps) and
    ``error`` (what stopped it, if anything)."""
    bg = _bg
    return {"loaded": bool(_numba), "loading": bool(bg is not None and bg.is_alive() and _numba is None),
            "twins": _stats["twins"], "compiled": _stats["compiled"], "forgone": _forgone,
            "by": _stats["by"], "seconds": _stats["seconds"], "error": _stats["error"]}


def wait(timeout=None):
    """Wait until the loading thread, if one runs, has ended; True when numba
    is loaded. (A user's idle time between calls, for tests and tools.)"""
    bg = _bg
    if bg is not None:
        bg.join(timeout)
    return bool(_numba)


def worth(saves, name=None):
    """Whether a use whose compiled kernel would save ``saves`` seconds over
    its twin should take the compiled path.

    True once numba is loaded (callers keep their own size thresholds); False
    when kernels are off or unavailable, and while numba is not loaded: the
    twin runs (the same bits) and its savings are counted as given up; they
    start the loading thread (which also imports the kernel module ``name``,
    when given), see the module's docstring. Under ``PYCALIB_R_JIT=1``, and
    for one use that saves ``_SYNC`` times the load's cost, numba is loaded
    here.
    """
    global _forgone
    state_ = _numba
    if state_ is not None:
        if state_:
            _stats["compiled"] += 1
        return bool(state_)
    mode = _mode()
    if mode in ("0", "1"):
        return _count(bool(_load()))
    cost = LOAD_COST_IMPORTED if "numba" in sys.modules else LOAD_COST
    if saves < _SYNC * cost:
        with _lock:
            if _numba is None:
                _forgone += saves
                _stats["twins"] += 1
                if name is not None and name not in _wanted:
                    _wanted.append(name)
                if _forgone >= _RENT * cost:
                    _urgent.set()
                    _wake.set()
                if _forgone >= _BG_AT * cost and _bg is None:
                    _start_loader()
                return False
    return _count(bool(_load()))


def _count(ok):
    _stats["compiled" if ok else "twins"] += 1
    return ok


# --- the loading thread -----------------------------------------------------------

def _start_loader():
    """Start the loading thread (``_lock`` held)."""
    global _bg
    if _call_ended not in _warn._on_call_end:
        _warn._on_call_end.append(_call_ended)
    _bg = threading.Thread(target=_loader, name="pycalib_r-jit-load", daemon=True)
    _stats["started"] = time.monotonic()
    try:
        _bg.start()
    except RuntimeError:  # no new threads (interpreter shutting down)
        _stats["error"] = "could not start"


def _call_ended():
    global _calls_ended
    _calls_ended += 1
    _wake.set()


def _idle(me):
    """No thread but ``me`` inside pycalib_r, for ``_SETTLE`` seconds."""
    if _busy_elsewhere(me):
        return False
    seen = _calls_ended
    time.sleep(_SETTLE)
    return _calls_ended == seen and not _busy_elsewhere(me)


def _busy_elsewhere(me):
    """True while a thread other than ``me`` runs inside pycalib_r (this
    module's own frames aside: a thread in :func:`wait` is idle)."""
    for tid, frame in sys._current_frames().items():
        if tid == me:
            continue
        while frame is not None:
            name = frame.f_globals.get("__name__") or ""
            if (name == "pycalib_r" or name.startswith("pycalib_r.")) and name != __name__:
                return True
            frame = frame.f_back
    return False


def _step(fn):
    """Run one step of the load when no call is running (or when urgent)."""
    global _in_step
    me = threading.get_ident()
    while not _urgent.is_set() and not _idle(me):
        if _numba is not None or sys.is_finalizing():
            return False
        _wake.wait(_IDLE_POLL)
        _wake.clear()
    if _numba is not None:
        return False
    _in_step = True
    t = time.perf_counter()
    try:
        fn()
    finally:
        _in_step = False
        _stats["seconds"] = (_stats["seconds"] or 0.0) + time.perf_counter() - t
    return True


def _warm():
    """The first kernel call from the disk cache (it loads numba's typing
    registries, most of the load's cost): a tiny ``log`` through glibc."""
    import numpy as np  # noqa: PLC0415

    try:
        mod = _import_module("pycalib_r.rbase._libm_kernels")
        x = np.ones(2)
        mod.log_into(x, np.empty(2))
    except Exception as exc:  # noqa: BLE001 - a broken llvmlite: kernels() warns at its use
        _stats["error"] = f"{type(exc).__name__}: {exc}"


def _import_module(name):
    """Import kernel module ``name`` and keep it for :func:`kernels`."""
    import importlib  # noqa: PLC0415

    mod = importlib.import_module(name)
    _modules.setdefault(name, mod)
    return mod


def _try_import(name):
    """Import kernel module ``name`` and load its kernels' machine code for
    the signatures its disk cache holds whose arrays are all C-contiguous (a
    first compiled call then finds them loaded: about 5-10 ms a kernel
    module). A signature for any layout (``'A'``) is not loaded ahead: numba
    would dispatch C-contiguous calls to it, whose loops do not vectorise
    (the multiclass temperature kernel ran 1.5x slower); such a call loads
    its own signature when it comes. numba's cache internals are used only
    when present: without them the kernels load at their first call."""
    try:
        mod = _import_module(name)
    except Exception:  # noqa: BLE001 - kernels() imports it again at its use, and warns
        return
    _cacheable(name)
    # The kernel modules whose kernels this one calls are loaded ahead too
    # (the sampler's Mersenne Twister words, say): a caller of this module
    # calls theirs as well.
    found = [mod] + [sys.modules.get(getattr(getattr(d, "py_func", None), "__module__", None) or "")
                     for d in vars(mod).values()]
    for other in found:
        if other is not None and other.__name__ not in _preloaded:
            _preloaded.add(other.__name__)
            _preload(other)
    # A module's own warm-up (a tiny call of its main kernels): their first
    # run's costs (code and buffers touched the first time) fall in idle
    # time, not in the caller's next call.
    warm_up = getattr(mod, "_warm_up", None)
    if callable(warm_up):
        try:
            warm_up()
        except Exception:  # noqa: BLE001 - a failing warm-up leaves the first call to pay
            pass


_preloaded = set()


def _preload(mod):
    """Load the machine code of ``mod``'s kernels for the C-contiguous
    signatures in their disk cache (see :func:`_try_import`)."""
    for disp in list(vars(mod).values()):
        try:
            cache = disp._cache
            codegen = disp.targetctx.codegen()
            for key in cache._cache_file._load_index():
                sig = key[0]
                if any(getattr(t, "layout", "C") != "C" for t in sig):
                    continue
                if key[1:] == cache._index_key(sig, codegen)[1:]:  # this machine's, this source's
                    disp.compile(sig)
        except Exception:  # noqa: BLE001 - not a dispatcher, or another numba
            continue


def _loader():
    """The loading thread: numba's import, the typing registries, the kernel
    modules uses asked for, then publish. Each step waits for idle time."""
    global _numba
    try:
        if not _step(_import_numba) or not _imported:
            if _imported is False:
                with _lock:
                    if _numba is None:
                        _numba, _stats["by"] = False, "off"
            return
        if not _step(_warm):
            return
        done = set()
        while True:  # _wanted may grow while this runs
            todo = [n for n in list(_wanted) if n not in done]
            if not todo:
                break
            for name in todo:
                done.add(name)
                if not _step(lambda n=name: _try_import(n)):
                    return
        with _lock:
            if _numba is None:
                _numba, _stats["by"] = _imported, "background"
    except BaseException as exc:  # noqa: BLE001 - the twins go on; the caller's thread may load later
        _stats["error"] = f"{type(exc).__name__}: {exc}"


def available():
    """True when compiled kernels can run (numba importable, not disabled)."""
    return bool(_load())


def libm_exact():
    """True when compiled float kernels call the C library's libm (no SVML)."""
    nb = _load()
    return bool(nb) and not getattr(nb.config, "USING_SVML", False)


def njit(fn=None, **opts):
    """numba's ``njit`` with the package's options (``nogil``, cached on disk,
    numpy's error model). Only for kernel modules, which are imported through
    :func:`kernels` once numba is known to be there."""
    nb = _import_numba() if _mode() != "0" else False
    if not nb:
        raise ImportError("numba is not available; import kernel modules through pycalib_r._jit.kernels()")
    opts = {"nogil": True, "cache": True, "error_model": "numpy", **opts}
    if fn is None:
        return lambda f: _njit_cached(nb, f, opts)
    return _njit_cached(nb, fn, opts)


def _njit_cached(nb, fn, opts):
    """``nb.njit(**opts)(fn)``, cached on disk when numba finds a writable
    place for the cache, in memory otherwise (an installed package read-only
    to its user, with ``HOME`` unset, unwritable or ``/nonexistent``): the
    same machine code, compiled again in each process, without a warning."""
    if opts.get("cache"):
        try:
            return nb.njit(**opts)(fn)
        except RuntimeError as exc:  # "cannot cache function ...: no locator available"
            if "cannot cache" not in str(exc):
                raise
        opts = {**opts, "cache": False}
    return nb.njit(**opts)(fn)


_modules = {}
_cache_ok = {}


def _cacheable(name):
    """Whether numba can keep module ``name``'s kernels in a disk cache (one of
    its cache locators finds a writable place for that source file). A
    numba whose internals differ answers True: the kernels then compile as
    before, cached if numba manages to."""
    if name not in _cache_ok:
        ok = True
        try:
            import importlib.util  # noqa: PLC0415

            from numba.core import caching  # noqa: PLC0415

            origin = importlib.util.find_spec(name).origin

            def probe():
                return None

            probe.__code__ = probe.__code__.replace(co_filename=origin)
            ok = any(cls.from_function(probe, origin) is not None
                     for cls in caching.CacheImpl._locator_classes)
        except Exception:  # a numba without these internals
            ok = True
        _cache_ok[name] = ok
    return _cache_ok[name]


def kernels(name, float_math=False, saves=None):
    """The kernel module ``name`` (it imports numba at its top), or ``None``
    when compiled kernels are unavailable, disabled, (``float_math``) could
    not call glibc's libm, or not worth loading numba for a use that would
    save ``saves`` seconds (:func:`worth`; ``None``: always worth it).
    Callers then run their numpy twin."""
    if saves is not None and not worth(saves, name):
        return None
    if not _load() or (float_math and not libm_exact()):
        return None
    if saves is not None and _mode() != "1" and saves < COMPILE_COST and not _cacheable(name):
        # Without a disk cache every process compiles the module again
        # (seconds): only a use that saves more than that takes it.
        return None
    if name not in _modules:
        import importlib  # noqa: PLC0415

        try:
            _modules[name] = importlib.import_module(name)
        except Exception as exc:  # a numba that refuses an option, a broken llvmlite
            # The twins give the same bits, so the call goes on without the
            # kernels; the warning says why it is slower.
            from .rbase import _warn  # noqa: PLC0415

            _warn.warn(f"pycalib_r: compiled kernels {name} unavailable ({type(exc).__name__}: {exc}); "
                       f"using the numpy paths (same results, slower)", RuntimeWarning)
            _modules[name] = None
    return _modules[name]


# --- elementwise kernels on several cores ------------------------------------

_pool = None
_MAX_PARTS = 4


def parts():
    """How many pieces an elementwise kernel's rows are cut into: the cores
    this process may use, at most ``_MAX_PARTS``. Each element is computed by
    the same code whichever piece holds it, so the answer does not depend on
    this number; only the time does."""
    try:
        ncpu = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        ncpu = os.cpu_count() or 1
    return max(1, min(ncpu, _MAX_PARTS))


def run_parts(calls):
    """Run zero-argument callables (compiled ``nogil`` kernels on disjoint
    slices) concurrently: the first in this thread, the others in a small
    shared pool. Returns when all are done; a failure is raised here."""
    global _pool
    if len(calls) <= 1:
        for c in calls:
            c()
        return
    if _pool is None:
        with _lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

                _pool = ThreadPoolExecutor(max_workers=_MAX_PARTS - 1, thread_name_prefix="pycalib_r")
    futures = [_pool.submit(c) for c in calls[1:]]
    calls[0]()
    for f in futures:
        f.result()


def _after_fork_in_child():
    # A forked child has only the forking thread: the pool's workers (and any
    # thread that held the lock) are gone, so a pool inherited from the
    # parent would take work and never run it. The child starts afresh and
    # makes its own pool on first use.
    global _pool, _lock, _load_lock, _bg, _in_step, _urgent, _wake
    _pool = None
    _lock = threading.Lock()
    _load_lock = threading.Lock()
    # The loading thread is not in the child (a fork waits for its steps
    # to end, so numba is imported whole or not at all): the child starts
    # its own when its uses ask for one.
    _bg, _in_step, _urgent, _wake = None, False, threading.Event(), threading.Event()
    # numba compiles (or loads its disk cache) under one process-wide RLock;
    # a fork while another thread held it would leave the child unable to
    # load any kernel. The child has no other thread, so a held lock there
    # is a dead thread's (numba has no public reset; its attribute is used
    # only when present).
    if _imported:
        glock = getattr(getattr(_imported.core, "compiler_lock", None), "global_compiler_lock", None)
        inner = getattr(glock, "_lock", None)
        try:
            mine = inner._is_owned()
        except Exception:  # noqa: BLE001 - another numba: leave it as it is
            mine = True
        if not mine:
            glock._lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
_fork.wait_also_for(lambda: _in_step)

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
* By default numba is loaded only when it pays for itself in this process
  (:func:`worth`). Its import and the first load of kernels from the disk
  cache take about 1 s in a new process, more than most single calls
  save: ``cal_platt`` on 50,000 rows saves about 0.05 s. So each place that
  could run a kernel says how much time the kernel would save it; numba is
  loaded when one use would save more than the load costs, or when the
  savings given up so far in this process reach twice that cost (a
  ski-rental rule: a long session ends up compiled, a short script never
  pays for numba it does not need). Once loaded, kernels run from their
  callers' size thresholds. Nothing is ever compiled or loaded at
  ``import pycalib_r``.
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
  module's, pandas'), see :mod:`pycalib_r.rbase._fork`.

Nothing here is public.
"""

from __future__ import annotations

import os
import threading

from .rbase import _fork  # noqa: F401 - registers the wait for imports before a fork

_lock = threading.Lock()
_numba = None  # the numba module once imported; False when unavailable
_JIT_ENV = "PYCALIB_R_JIT"

# What taking the compiled path first costs a new process, in seconds:
# numba's import (about 0.45 s) and the first kernels' load from the disk
# cache, which also imports numba's typing registries (0.6-0.7 s), on a
# 2-core x86-64 with numba 0.68; and the cache load alone when something
# else has imported numba already. tools/cold_start.py measures both and
# checks these constants against the measurement.
LOAD_COST = 1.0
LOAD_COST_IMPORTED = 0.7
# Compiling a kernel module in memory, when numba has nowhere to cache it.
COMPILE_COST = 5.0
# Savings given up across uses, in units of the load cost, before numba is
# loaded anyway (so a long session ends up on the compiled path).
_RENT = 2.0
_forgone = 0.0


def _mode():
    return os.environ.get(_JIT_ENV, "").strip()


def _load():
    global _numba
    if _numba is None:
        with _lock:
            if _numba is None:
                if _mode() == "0":
                    _numba = False
                else:
                    try:
                        import numba  # noqa: PLC0415 (lazy: about 0.3 s to import)
                    except Exception:  # ImportError, or a broken llvmlite
                        _numba = False
                    else:
                        _numba = numba
    return _numba


def loaded():
    """True when numba has been loaded for this process's kernels (no import)."""
    return bool(_numba)


def worth(saves):
    """Whether a use whose compiled kernel would save ``saves`` seconds over
    its twin should take the compiled path (loading numba if need be).

    True once numba is loaded (callers keep their own size thresholds); False
    when kernels are off or unavailable. Before that, numba is loaded only
    when this use alone saves more than the load costs, or when the savings
    given up so far reach ``_RENT`` times that cost; otherwise the twin runs
    (the same bits) and its savings are counted as given up.
    """
    global _forgone
    state = _numba
    if state is not None:
        return bool(state)
    mode = _mode()
    if mode == "0":
        return bool(_load())
    if mode != "1":
        import sys  # noqa: PLC0415

        cost = LOAD_COST_IMPORTED if "numba" in sys.modules else LOAD_COST
        with _lock:
            if saves < cost and _forgone + saves < _RENT * cost:
                _forgone += saves
                return False
    return bool(_load())


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
    nb = _load()
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
    if saves is not None and not worth(saves):
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
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()
    # numba compiles (or loads its disk cache) under one process-wide RLock;
    # a fork while another thread held it would leave the child unable to
    # load any kernel. The child has no other thread, so a held lock there
    # is a dead thread's (numba has no public reset; its attribute is used
    # only when present).
    if _numba:
        glock = getattr(getattr(_numba.core, "compiler_lock", None), "global_compiler_lock", None)
        inner = getattr(glock, "_lock", None)
        try:
            mine = inner._is_owned()
        except Exception:  # noqa: BLE001 - another numba: leave it as it is
            mine = True
        if not mine:
            glock._lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

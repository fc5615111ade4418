"""The gate to compiled loops: numba when it is installed and allowed.

Some of R's algorithms are sequential at heart (a Mersenne-Twister stream
consumed by rejection loops, a Fisher-Yates shuffle, a scan with long
branches). numpy can only emulate those with passes over temporaries; a
compiled loop does them at C speed, in constant memory, with the same
integer and IEEE double arithmetic as R's C code. Every compiled kernel has
a numpy (or plain Python) twin that gives the same bits, so numba stays an
accelerator, never a source of different numbers:

* ``PYCALIB_R_JIT=0`` in the environment turns every kernel off (the twins
  run); the test suite runs both and compares them bit for bit.
* numba is imported the first time a kernel is needed, not at
  ``import pycalib_r``, and callers use kernels only above a size where the
  one-time compilation (cached on disk afterwards) cannot dominate.
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
  pool after a large call does not wait on workers that do not exist.

Nothing here is public.
"""

from __future__ import annotations

import os
import threading

_lock = threading.Lock()
_numba = None  # the numba module once imported; False when unavailable
_JIT_ENV = "PYCALIB_R_JIT"


def _load():
    global _numba
    if _numba is None:
        with _lock:
            if _numba is None:
                if os.environ.get(_JIT_ENV, "1").strip() == "0":
                    _numba = False
                else:
                    try:
                        import numba  # noqa: PLC0415 (lazy: about 0.3 s to import)
                    except Exception:  # ImportError, or a broken llvmlite
                        _numba = False
                    else:
                        _numba = numba
    return _numba


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
        return nb.njit(**opts)
    return nb.njit(**opts)(fn)


_modules = {}


def kernels(name, float_math=False):
    """The kernel module ``name`` (it imports numba at its top), or ``None``
    when compiled kernels are unavailable, disabled, or (``float_math``) could
    not call glibc's libm. Callers then run their numpy twin."""
    if not _load() or (float_math and not libm_exact()):
        return None
    if name not in _modules:
        import importlib  # noqa: PLC0415

        try:
            _modules[name] = importlib.import_module(name)
        except Exception as exc:  # a numba that refuses an option, a broken llvmlite
            # The twins give the same bits, so the call goes on without the
            # kernels; the warning says why it is slower.
            from . import _warn  # noqa: PLC0415

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

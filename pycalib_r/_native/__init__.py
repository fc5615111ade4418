# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the compiled layer's loader, written for pycalib_r
"""The compiled kernels: C, built when the package is installed.

Some of R's algorithms are sequential at heart (a Mersenne-Twister stream
consumed by rejection loops, a Fisher-Yates shuffle, a long-double sum in
the order of the observations). numpy can only emulate them with passes
over temporaries; a C loop does them at C speed, in constant memory, with
the same integer, IEEE double and (x86) 80-bit ``long double`` arithmetic as
R's own C code.

The C sources sit in ``src/`` (one file per room they serve) and are built
by ``pip install`` into one shared library, ``_lib``; the Python side of
each room is a thin module here (``binned``, ``rng``, ...) whose functions
have the signatures of the numpy twins' kernels and call the library
through :mod:`ctypes`, which releases the GIL for the whole call. Nothing
is compiled while a user waits, and nothing is loaded at
``import pycalib_r``: the library is opened by the first call that needs a
kernel (about 1 ms).

Every kernel has a numpy twin that gives the same bits (the twins live
beside their callers; ``_manifest.KERNELS`` names each pair and the tests
compare them). The twins run instead when

* ``PYCALIB_R_NATIVE=0`` is set in the environment (read once per process),
* the library was not built (no C compiler at install), or
* the library found is not the one this source expects (a stale build).

:func:`pycalib_r.show_config` says which path is in use and why. An
elementwise kernel may cut its rows into pieces that run on several cores
(:func:`run_parts`); every element is computed by the same code in whichever
piece holds it, so the number of cores changes the time, never a bit.

Nothing here is public but :func:`show_config` (re-exported at the top).
"""

from __future__ import annotations

import ctypes
import importlib
import os
import threading

_ENV = "PYCALIB_R_NATIVE"
# Must equal PCR_ABI_VERSION in src/pcr.h.
ABI_VERSION = 3

_lock = threading.Lock()
_state = {"lib": None, "status": None, "path": None}
_modules = {}

c_void_p = ctypes.c_void_p
c_i64 = ctypes.c_int64
c_int = ctypes.c_int
c_double = ctypes.c_double


def _open():
    """``(library, status)``: the library, or None with the reason."""
    if os.environ.get(_ENV, "").strip() == "0":
        return None, f"disabled ({_ENV}=0): the numpy twins run"
    try:
        mod = importlib.import_module("pycalib_r._native._lib")
    except ImportError as exc:
        return None, (f"not built ({exc}): the numpy twins run (same results, slower); "
                      "reinstall with a C compiler present to build it")
    path = mod.__file__
    try:
        lib = ctypes.CDLL(path)
        version = lib.pcr_abi_version()
    except (OSError, AttributeError) as exc:
        return None, f"unusable ({exc}): the numpy twins run"
    if version != ABI_VERSION:
        return None, (f"stale build at {path} (ABI {version}, this source wants {ABI_VERSION}): "
                      "the numpy twins run; reinstall to rebuild it")
    _state["path"] = path
    return lib, "loaded"


def lib():
    """The shared library (a :class:`ctypes.CDLL`), or None where the twins run."""
    if _state["status"] is None:
        with _lock:
            if _state["status"] is None:
                _state["lib"], status = _open()
                _state["status"] = status
    return _state["lib"]


def available() -> bool:
    """Whether the compiled kernels run in this process."""
    return lib() is not None


def kernels(name: str):
    """The room module ``pycalib_r._native.<name>`` (its kernels take the
    twins' arguments), or None where the twins run."""
    if lib() is None:
        return None
    mod = _modules.get(name)
    if mod is None:
        mod = importlib.import_module(f"pycalib_r._native.{name}")
        _modules[name] = mod
    return mod


def fn(name: str, restype, *argtypes):
    """The library's function ``name`` with its C signature declared (where
    the twins run, a stub that says so when called: a room's module can then
    be imported anyway, by pytest's doctest collection say)."""
    if lib() is None:
        def unavailable(*args):
            raise RuntimeError(f"pycalib_r: the compiled kernels do not run here: {_state['status']}")

        return unavailable
    f = getattr(lib(), name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


def ptr(a) -> int:
    """The address of a numpy array's data (the caller keeps ``a`` alive and
    has checked its dtype and layout)."""
    return a.__array_interface__["data"][0]


def show_config(mode: str = "stdout"):
    """Which computing path this process uses, and why.

    Python-only (R has no such switch). The fields: ``native`` (``True``
    when the compiled kernels run), ``status`` (why not, otherwise
    ``"loaded"``), ``library`` (its file), ``long_double_digits`` (64 where
    C's ``long double`` is x86's 80-bit type, R's ``LDOUBLE`` on x86-64
    Linux) and ``switch`` (the value of ``PYCALIB_R_NATIVE``).

    Parameters
    ----------
    mode : {"stdout", "dicts"}
        As numpy's ``show_config``: ``"stdout"`` prints the fields one per
        line and returns None; ``"dicts"`` returns them as a dict and prints
        nothing.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.show_config(mode="dicts")["switch"] is None  # doctest: +SKIP
    True
    """
    if mode not in ("stdout", "dicts"):
        from ..rbase._errors import ProbcalError  # noqa: PLC0415 (this room imports no other)

        raise ProbcalError(f'`mode` must be "stdout" or "dicts", not {mode!r}.')
    L = lib()
    out = {
        "native": L is not None,
        "status": _state["status"],
        "library": _state["path"],
        "long_double_digits": int(L.pcr_long_double_digits()) if L is not None else None,
        "switch": os.environ.get(_ENV),
    }
    if mode == "dicts":
        return out
    print("\n".join(f"{k}: {v}" for k, v in out.items()))
    return None


# --- elementwise kernels on several cores ------------------------------------

_pool = None
_MAX_PARTS = 4


def parts() -> int:
    """How many pieces an elementwise kernel's rows are cut into: the cores
    this process may use, at most ``_MAX_PARTS``. Each element is computed by
    the same code whichever piece holds it, so the answer does not depend on
    this number; only the time does."""
    try:
        ncpu = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        ncpu = os.cpu_count() or 1
    return max(1, min(ncpu, _MAX_PARTS))


def run_parts(calls) -> None:
    """Run zero-argument callables (kernels on disjoint slices; ctypes
    releases the GIL) concurrently: the first in this thread, the others in a
    small shared pool. Returns when all are done; a failure is raised here."""
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
    # parent would take work and never run it. The child makes its own.
    global _pool, _lock
    _pool = None
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

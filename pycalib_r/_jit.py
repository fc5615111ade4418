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
            import warnings  # noqa: PLC0415

            warnings.warn(f"pycalib_r: compiled kernels {name} unavailable ({type(exc).__name__}: {exc}); "
                          f"using the numpy paths (same results, slower)", RuntimeWarning, stacklevel=3)
            _modules[name] = None
    return _modules[name]

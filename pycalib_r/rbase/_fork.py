"""Forks never land in the middle of an import.

The package imports heavy modules lazily: the compiled kernels' room
modules at a call's first compiled loop, pandas when a call first builds a
DataFrame, scipy.special when work is large. An import runs under a
per-module lock of Python's import system, held by the importing thread. A
fork taken while another thread holds one copies the lock, held, into a
child where that thread does not exist: the child's own import of the same
module then waits forever, or finds the
module half-initialised in ``sys.modules`` ("partially initialized module
'pandas'").

So a fork waits, in an ``os.register_at_fork`` hook, until no other thread
is inside an import. The hook holds no lock while it waits, nor after: it
runs before the hooks registered earlier (logging's, concurrent.futures'),
which take their own locks, and Python takes its import lock after all of
them; holding the import lock across them would invert that order (a
thread logging from inside an import would deadlock the fork). The wait
is bounded (``WAIT_SECONDS``): a thread whose import is stuck on the forking thread
itself cannot finish, and after the bound the fork goes on as it would
have without this hook. Threads that only wait for a module lock hold
nothing and do not delay the fork.

Python's import internals (``importlib._bootstrap._module_locks`` and the
locks' ``owner``/``count``) are read only when present; on an interpreter
without them the hook does nothing.

Nothing here is public.
"""

from __future__ import annotations

import os
import threading
import time

# Modules that register a before/after pair of fork hooks when imported. One
# imported by another thread while a fork waits here would have its "after"
# hook run without its "before" one (Python copies the list of "before"
# hooks when the fork starts), and logging then prints "cannot release
# un-acquired lock". Imported first (about 15 ms), their hooks are in place
# before any fork waits.
import concurrent.futures.thread  # noqa: F401,E402
import logging  # noqa: F401,E402

WAIT_SECONDS = 30.0
_POLL = 0.0005

try:  # pragma: no branch
    from importlib import _bootstrap
except ImportError:  # pragma: no cover - another interpreter
    _bootstrap = None


def _others_importing() -> bool:
    """True while a thread other than this one holds a module import lock."""
    if _bootstrap is None:
        return False
    locks = getattr(_bootstrap, "_module_locks", None)
    if not isinstance(locks, dict):
        return False
    me = threading.get_ident()
    for ref in list(locks.values()):
        try:
            lock = ref()
        except TypeError:  # not a weak reference: another layout
            return False
        if lock is None:
            continue
        owner, count = getattr(lock, "owner", None), getattr(lock, "count", 0)
        if count and owner not in (None, 0, me):
            return True
    return False


def before_fork() -> None:
    """Wait (bounded) until no other thread is inside an import."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            if not _others_importing():
                return
        except Exception:  # noqa: BLE001 - never let a fork fail over this
            return
        time.sleep(_POLL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=before_fork)

"""One lock per stream: calls on a shared stream serialise, separate streams never wait.

The compiled samplers release the GIL while they run on a copy of the
stream's words and write the state back afterwards, and the numpy paths
read, rewind and skip the state in several steps. Two threads on one stream
would start from the same state and return the same draws. So every public
method of a stream (``runif``, ``sample_int``, ``rademacher``, ``set_seed``,
``get_state`` ...) runs under the stream's own re-entrant lock: the methods
call one another, and a resampling loop (``cal_test``, ``cal_ci``,
``cal_cv``'s folds) holds the lock for all of its draws (:func:`holding`),
so the values are those of some serial order of the calls, with no value
drawn twice. Threads with streams of their own (``RRandom(seed)`` each)
share no lock and run in parallel.

A :class:`~pycalib_r._rng.GeneratorStream` takes the lock of its numpy
``Generator`` (one per generator, however many wrappers ``rng=`` makes), so
one Generator shared by threads serialises the same way.

Interrupts: the outermost method call on a stream takes a snapshot of its
state and puts it back if KeyboardInterrupt ends the call, so Ctrl-C leaves
a stream at its state before the call, never part-way through a draw; in a
resampling loop (one method call per block of R's calls) that is a call
boundary, as R's ``.Random.seed`` after an interrupted loop.

Fork: a child has only the forking thread, so a lock another thread held at
the fork would stay held for ever. In the child (``os.register_at_fork``)
every stream lock is made anew, and so is the lock of the stream's numpy bit
generator, which numpy takes inside ``random_raw`` and holds, without the
GIL, for the whole of a draw (a fork landing there copied it held, and the
child's first draw waited for ever). A call another thread was inside at the
fork is rewound to the snapshot its start took (the one Ctrl-C uses), so the
child's stream is at the state its last completed call left, never part-way
through a draw.

R equivalent: none (R's interpreter is single-threaded).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import weakref

_ALL = weakref.WeakSet()  # every lock, to be renewed in a forked child
_BY_GENERATOR = weakref.WeakValueDictionary()  # id(numpy Generator) -> its StreamLock
_registry = threading.Lock()


class StreamLock:
    """A stream's re-entrant lock (``rlock``), renewed in a forked child.

    ``numpy_lock`` is the lock of the numpy bit generator the stream draws
    from (renewed in the child too); ``call`` is ``(thread id, stream,
    snapshot)`` while a thread is inside a method call on the stream, so a
    forked child can rewind a call that another thread had not finished.
    """

    __slots__ = ("rlock", "numpy_lock", "call", "__weakref__")

    def __init__(self, numpy_lock=None):
        self.rlock = threading.RLock()
        self.numpy_lock = numpy_lock
        self.call = None
        with _registry:
            _ALL.add(self)


def generator_lock(generator) -> StreamLock:
    """The lock of a numpy ``Generator``: one per generator object. The wrapper
    holding it keeps the generator alive, so its id cannot be reused while the
    lock is in use."""
    key = id(generator)
    with _registry:
        lock = _BY_GENERATOR.get(key)
    if lock is None:
        made = StreamLock(getattr(generator.bit_generator, "lock", None))
        with _registry:
            lock = _BY_GENERATOR.setdefault(key, made)
    return lock


class Locked:
    """Base of the stream classes: a ``_lock`` per stream, dropped when pickled
    (a lock is process-local) and made anew when unpickled or copied."""

    def _new_lock(self):
        return StreamLock()

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_lock", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = self._new_lock()


def holding(stream):
    """A context holding ``stream``'s lock (several draws as one serial step);
    a stream of another kind (duck-typed) is used as it is."""
    lock = getattr(stream, "_lock", None)
    return lock.rlock if isinstance(lock, StreamLock) else contextlib.nullcontext()


# The streams this thread is inside a method of: a method called from another
# method of the same stream is part of that call.
_calls = threading.local()


def _take(stream):
    """``(type, restore, snapshot)`` of a stream's state, or None."""
    fast = getattr(stream, "_call_snapshot", None)
    if fast is not None:
        return type(stream), stream._call_restore, fast()
    snapshot = getattr(stream, "_snapshot", None)
    return None if snapshot is None else (type(stream), stream._restore, snapshot())


def _put_back(stream, taken) -> None:
    # A call that changed the stream's kind (its class) is not rewound.
    if taken is not None and type(stream) is taken[0]:
        taken[1](taken[2])


def _serialised(fn):
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        with self._lock.rlock:
            active = getattr(_calls, "ids", None)
            if active is None:
                active = _calls.ids = set()
            key = id(self)
            if key in active:
                return fn(self, *args, **kwargs)
            # Ctrl-C (KeyboardInterrupt) part-way through a draw would leave the
            # stream in a state R never reaches; R's .Random.seed is written
            # only when a call completes. So the outermost call on a stream
            # puts the state back as it found it: after Ctrl-C the stream is
            # at its state before the call, or, in a resampling loop that
            # draws by calls (cal_test, cal_ci), after the last complete one.
            taken = _take(self)
            lock = self._lock
            active.add(key)
            # A forked child rewinds a call another thread was inside (_after_fork_in_child).
            lock.call = (threading.get_ident(), self, taken)
            try:
                return fn(self, *args, **kwargs)
            except KeyboardInterrupt:
                _put_back(self, taken)
                raise
            finally:
                lock.call = None
                active.discard(key)

    method._serialised = True
    return method


def serialise(*classes):
    """Run every public method defined in ``classes`` under the stream's lock."""
    for cls in classes:
        for name, value in list(vars(cls).items()):
            if name.startswith("_") or not callable(value) or isinstance(value, (staticmethod, classmethod, type)):
                continue
            if getattr(value, "_serialised", False):
                continue
            setattr(cls, name, _serialised(value))


def _renew(numpy_lock) -> None:
    # numpy's BitGenerator.lock is read-only; the lock object itself can be
    # reset to unlocked, as threading's own fork hook resets its locks
    # (_at_fork_reinit, Python >= 3.9, on both Lock and RLock).
    reinit = getattr(numpy_lock, "_at_fork_reinit", None)
    if reinit is not None:
        reinit()


def _after_fork_in_child():
    global _registry
    _registry = threading.Lock()
    me = threading.get_ident()  # the forking thread keeps its identity in the child
    for lock in list(_ALL):
        lock.rlock = threading.RLock()
        if lock.numpy_lock is not None:
            _renew(lock.numpy_lock)
        call = lock.call
        if call is not None and call[0] != me:
            # Another thread was inside this call: it does not exist here, and the
            # draw stopped part-way. Put the state back as the call found it.
            lock.call = None
            _put_back(call[1], call[2])


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

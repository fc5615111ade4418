"""The package's warnings: R's texts, at the user's line, without process-wide switches.

Every warning the package raises goes through :func:`warn`:

* **At the user's line.** It is issued with :func:`warnings.warn_explicit`
  for the first frame outside ``pycalib_r`` (the user's line, also through
  ``pycalib_r.sklearn``, ``set_seed(..., sample_kind="Rounding")`` or a
  stream method), with that module's ``__warningregistry__``. Python's
  filters therefore treat it as numpy's: under the ``"default"`` action a
  warning from the same line shows once, ``"error"`` raises, ``"ignore"``
  drops it, and ``module=`` filters see the user's module.
* **Collected per call, reported as R reports them.** Inside an exported
  function (``python_face``) the warnings are collected in a context-local
  collector (:class:`contextvars.ContextVar`: one per thread, so threads
  never see each other's) and issued when the call returns. When the call
  raised 10 warnings or fewer, R lists every one ("Warning messages: 1: ...
  2: ..."): they are issued as R's list, each occurrence in R's order
  (``cal_cv`` whose folds each warn "glm.fit: fitted probabilities
  numerically 0 or 1 occurred" issues it once per fold, as R). When the call
  raised more than 10, where R prints "There were k warnings (use
  warnings() to see them)" instead of the list, each distinct text is issued
  once, in order of first appearance, carrying R's count line (see
  :func:`_count_line`). Python's own filters then apply as to any warning
  (under the ``"default"`` action a text repeated at one line shows once).
* **Nothing global is switched.** No ``warnings.catch_warnings``, no
  ``simplefilter``, no swap of ``warnings.showwarning``: those are
  process-wide and not thread-safe (a thread's call would hide the
  warnings of every other thread, and leave its filter behind if calls
  overlap). Warnings raised by numpy or other libraries inside a call are
  theirs and go out as they are.

R equivalent: ``warning(..., call. = FALSE)`` and R's deferred top-level
report of a call's warnings (``print.warnings``).
"""

from __future__ import annotations

import contextvars
import sys
import warnings

_collector = contextvars.ContextVar("pycalib_r_warnings", default=None)
_PACKAGE = __name__.split(".")[0]
# R's top level lists up to 10 warnings and summarises beyond that
# (src/main/errors.c, PrintWarnings; R_nwarnings = 50 are kept).
_R_LISTS = 10
_R_KEEPS = 50


class Collector:
    """The warnings of one call: counts by (category, text), in order of first
    appearance (bounded by the number of distinct texts), and the first
    ``_R_LISTS + 1`` in order of occurrence (R's list, needed only while the
    total is at most ``_R_LISTS``)."""

    __slots__ = ("counts", "total", "seq")

    def __init__(self):
        self.counts = {}
        self.total = 0
        self.seq = []

    def add(self, category, text, count=1):
        key = (category, text)
        self.counts[key] = self.counts.get(key, 0) + count
        self.total += count
        room = _R_LISTS + 1 - len(self.seq)
        if room > 0:
            self.seq.extend([key] * min(count, room))

    def discard(self, category, text):
        """Forget every occurrence of one warning (one issued elsewhere)."""
        key = (category, text)
        n = self.counts.pop(key, 0)
        if not n:
            return
        complete = self.total <= _R_LISTS  # seq held every occurrence
        self.total -= n
        if complete:
            self.seq = [k for k in self.seq if k != key]
        else:
            # Occurrence order beyond the kept list is not known: first
            # appearances (dict order) with their counts stand in.
            self.seq = []
            for k, m in self.counts.items():
                self.seq.extend([k] * min(m, _R_LISTS + 1 - len(self.seq)))

    def reported(self):
        """(category, text) pairs as issued: R's list (every occurrence, in
        order) for at most ``_R_LISTS`` warnings, else each distinct text once
        with R's count line."""
        line = _count_line(self.total)
        if line is None:
            return list(self.seq)
        return [(category, f"{text}\n{line}") for (category, text) in self.counts]


def warn(message, category=UserWarning) -> None:
    """Raise a package warning (see the module doc): collected while a call
    collects, otherwise issued at the user's line now."""
    text = str(message)
    c = _collector.get()
    if c is not None:
        c.add(category, text)
    else:
        _emit(text, category)


def r_warning(message) -> None:
    """An R ``warning()`` text: :func:`warn` with R's category, RuntimeWarning
    (the migration guide's rule for every warning that mirrors R's)."""
    warn(message, RuntimeWarning)


def warn_now(message, category=UserWarning) -> None:
    """Issue at once at the user's line, even inside a collecting call: for
    advice that must come before a long computation, not after it."""
    _emit(str(message), category)


def collecting() -> bool:
    """True inside a call that collects its warnings (in this context)."""
    return _collector.get() is not None


class collect:
    """``with collect() as c:`` collects the warnings raised inside (this
    thread/context only); :meth:`Collector.flush` then issues them."""

    def __enter__(self) -> "Collector":
        self._c = Collector()
        self._token = _collector.set(self._c)
        return self._c

    def __exit__(self, *exc):
        _collector.reset(self._token)
        return False


def flush(c: Collector) -> None:
    """Issue the warnings of ``c``: into the enclosing collector when there
    is one, otherwise each distinct text once at the user's line."""
    outer = _collector.get()
    if outer is not None:
        if c.total <= _R_LISTS:  # in order of occurrence
            for category, text in c.seq:
                outer.add(category, text)
        else:
            for (category, text), count in c.counts.items():
                outer.add(category, text, count)
        return
    for category, text in c.reported():
        _emit(text, category)


def _count_line(total):
    """R's summary line for a call's ``total`` warnings, or None where R lists
    the messages themselves (10 or fewer). R's advice "use warnings() to see
    them" names a function Python lacks; the line says instead that each
    distinct message is reported once."""
    if total <= _R_LISTS:
        return None
    if total >= _R_KEEPS:
        return f"There were {_R_KEEPS} or more warnings (each distinct one reported once)"
    return f"There were {total} warnings (each distinct one reported once)"


def user_frame():
    """The innermost frame outside this package (the user's line)."""
    frame = sys._getframe(1)
    last = frame
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name != _PACKAGE and not name.startswith(_PACKAGE + "."):
            return frame
        last = frame
        frame = frame.f_back
    return last


def _emit(text, category):
    frame = user_frame()
    g = frame.f_globals
    registry = g.setdefault("__warningregistry__", {})
    # As warnings.warn does: the module's registry, and no module_globals
    # (with them warn_explicit asks the module's loader for the source line,
    # which fails for `python -c` code; the line is read from the file).
    warnings.warn_explicit(text, category, frame.f_code.co_filename, frame.f_lineno,
                           module=g.get("__name__", "<string>"), registry=registry)

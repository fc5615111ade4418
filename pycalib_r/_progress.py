"""A small progress bar on stderr for long resampling loops.

It draws only when asked to and when stderr is a terminal, so captured or
redirected output (tests, notebooks' logs, pipes) never sees it, and it
only reads counters: results are the same with or without it.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


class Progress:
    """``Progress(total, label)``; call ``advance(k)`` as work is done, ``close()`` at the end.

    Usable as a context manager. Redraws at most every ``interval`` seconds
    and only after ``delay`` seconds, so quick calls print nothing.

    R equivalent: none (probcal prints no progress).
    """

    def __init__(self, total, label: str = "", enabled: bool = True, stream=None,
                 delay: float = 0.5, interval: float = 0.1, width: int = 30):
        self.stream = sys.stderr if stream is None else stream
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.width = width
        self.delay = delay
        self.interval = interval
        self._start = time.monotonic()
        self._last = 0.0
        self._drawn = False
        self.enabled = bool(enabled) and self._isatty()

    def _isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError):
            return False

    def advance(self, k: int = 1) -> None:
        self.done = min(self.done + int(k), self.total)
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay or (now - self._last < self.interval and self.done < self.total):
            return
        self._last = now
        frac = self.done / self.total
        filled = int(round(frac * self.width))
        bar = "=" * filled + " " * (self.width - filled)
        try:
            self.stream.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}%")
            self.stream.flush()
            self._drawn = True
        except (OSError, ValueError):
            self.enabled = False

    def close(self) -> None:
        if self.enabled and self._drawn:
            try:
                # Erase the bar so the terminal is left as it was.
                self.stream.write("\r" + " " * (len(self.label) + self.width + 12) + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self.enabled = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

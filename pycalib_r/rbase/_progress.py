"""Progress of long resampling loops, shown with tqdm (rate and ETA) when someone is watching.

``Progress`` is what the resampling loops of ``cal_test()`` and ``cal_ci()``
advance, and the tile loop of the canonical kernel sum (``skce()`` and the
observed statistic of ``cal_test()`` on matrix input, O(n^2) pairs). It draws tqdm's bar (``tqdm.auto``: a text bar in terminals, a
widget in Jupyter) only when

* ``progress=True`` (the default of the functions), and
* someone can see it: stderr is a terminal, or the code runs in a Jupyter
  kernel with widgets, and
* the loop runs longer than half a second (quick calls print nothing).

It only reads the counters it is given, so results are the same with or
without it. tqdm is a dependency; if it cannot be imported the loops run
without a bar.

R equivalent: none (probcal prints no progress).
"""

from __future__ import annotations

import sys

__all__ = ["Progress", "interactive"]


def _tqdm_class():
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm


def interactive(stream=None) -> bool:
    """True when a progress bar on ``stream`` (default stderr) would be seen."""
    stream = sys.stderr if stream is None else stream
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        pass
    if "ipykernel" not in sys.modules:
        return False  # not a Jupyter kernel; no need to import IPython to know
    tqdm = _tqdm_class()
    # tqdm.auto picks its notebook class only inside a Jupyter kernel with
    # ipywidgets, where stderr is not a terminal but the widget is shown.
    return tqdm is not None and tqdm.__module__.startswith("tqdm.notebook")


class Progress:
    """``Progress(total, label, enabled)``; ``advance(k)`` as work is done, ``close()`` at the end.

    Usable as a context manager. The bar appears after ``delay`` seconds and
    is erased when the loop ends.
    """

    def __init__(self, total, label: str = "", enabled: bool = True, stream=None,
                 delay: float = 0.5, interval: float = 0.1, unit: str = "resample"):
        self.total = max(int(total), 1)
        self.done = 0
        self._bar = None
        if not (bool(enabled) and interactive(stream)):
            return
        tqdm = _tqdm_class()
        if tqdm is None:  # pragma: no cover - tqdm is a dependency
            return
        kwargs = dict(total=self.total, desc=label, unit=unit, leave=False,
                      delay=delay, mininterval=interval)
        if stream is not None:
            kwargs["file"] = stream
        try:
            self._bar = tqdm(**kwargs)
        except Exception:  # noqa: BLE001 - a display problem must not stop the computation
            self._bar = None

    @property
    def enabled(self) -> bool:
        return self._bar is not None

    def advance(self, k: int = 1) -> None:
        k = min(int(k), self.total - self.done)
        self.done += k
        if self._bar is not None:
            try:
                self._bar.update(k)
            except Exception:  # noqa: BLE001
                self._bar = None

    def close(self) -> None:
        if self._bar is not None:
            try:
                self._bar.close()
            except Exception:  # noqa: BLE001
                pass
        self._bar = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""The in-memory Python face on pycalib_r.dask's functions: the same hints on R's errors.

:func:`pycalib_r.inputs._hints.hints_for` writes the notes the in-memory functions
add to R's messages (0-based class codes, string labels, a two-column
binary matrix, ...). It reads the arguments' types and shapes, and a few
values of ``y``; here it is given each Dask argument's metadata (an empty
pandas object with the same columns and dtypes), so no data is read twice
and the note is the in-memory one wherever the metadata decides it.

R equivalent: none (R's messages are kept as ``str(err)``).
"""

from __future__ import annotations

import functools
import inspect

from ..rbase._errors import ProbcalError
from ..inputs._hints import add_note, hints_for

__all__ = ["dask_face"]


def _meta(x):
    """An empty in-memory stand-in with ``x``'s columns and dtypes (a Dask collection), else ``x``."""
    meta = getattr(x, "_meta", None)
    return meta if meta is not None and hasattr(x, "__dask_graph__") else x


def dask_face(fn):
    """Wrap a pycalib_r.dask function: R's messages get the in-memory notes."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ProbcalError as err:
            try:
                bound = dict(sig.bind_partial(*args, **kwargs).arguments)
                notes = hints_for(err, {k: _meta(v) for k, v in bound.items()}, fn)
            except Exception:  # noqa: BLE001 - a hint must never hide R's error
                notes = []
            for note in notes:
                add_note(err, note)
            raise

    return wrapper

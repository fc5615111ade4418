"""Package options, the counterpart of R's ``options(probcal.* = ...)``."""

from __future__ import annotations

__all__ = ["options", "get_option"]

# R option name -> (Python keyword, default)
_DEFAULTS = {"probcal.emoji": True}
_values = dict(_DEFAULTS)


def _r_name(name: str) -> str:
    return name.replace("_", ".")


def options(**kwargs):
    """Set package options; returns the previous values (as R's ``options()`` does).

    R equivalent: ``options(probcal.emoji = FALSE)`` is
    ``pycalib_r.options(probcal_emoji=False)``.

    Called without arguments it returns all current values.
    """
    if not kwargs:
        return {k.replace(".", "_"): v for k, v in _values.items()}
    old = {}
    for key, value in kwargs.items():
        name = _r_name(key)
        if name not in _DEFAULTS:
            raise KeyError(f"unknown pycalib_r option {key!r}; known: "
                           + ", ".join(k.replace(".", "_") for k in _DEFAULTS))
        old[key] = _values[name]
        _values[name] = value
    return old


def get_option(name: str, default=None):
    """R ``getOption()`` for the package's options (``probcal.emoji`` or ``probcal_emoji``)."""
    return _values.get(_r_name(name), default)

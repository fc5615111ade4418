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

    Parameters
    ----------
    **kwargs
        Option values by name, R's dots written as underscores:
        ``probcal_emoji`` (bool, default True) puts the balance glyph in the
        headers of printed calibrators.

    Returns
    -------
    dict
        The previous values of the options set, under the names given (pass
        it back as ``options(**old)`` to restore them); called without
        arguments, all current values.

    Raises
    ------
    KeyError
        An unknown option name.

    R equivalent: ``options(probcal.emoji = FALSE)`` is
    ``pycalib_r.options(probcal_emoji=False)``. R's option is unset until
    set (probcal reads it as ``getOption("probcal.emoji", TRUE)``), so R
    returns ``NULL`` as the old value where this returns the default, True.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> fit = pc.cal_histogram([0.1, 0.2, 0.7, 0.9], [0, 1, 1, 1], bins=2)
    >>> old = pc.options(probcal_emoji=False)
    >>> old
    {'probcal_emoji': True}
    >>> print(fit)
    <BLANKLINE>
    ── probcal calibrator ──────────────────────────────────────────────────────────
    Method: histogram binning
    Observations: 4
    Input: probabilities
    >>> pc.options(**old)
    {'probcal_emoji': False}

    R: after ``options(probcal.emoji = FALSE)``, ``print(fit)`` writes the
    same text.
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
    """R ``getOption()`` for the package's options (``probcal.emoji`` or ``probcal_emoji``).

    Parameters
    ----------
    name : str
        The option's R name (``"probcal.emoji"``) or Python name
        (``"probcal_emoji"``).
    default : object, optional
        Returned for a name that is not a package option.

    Returns
    -------
    object
        The current value; a package option that was never set has its
        default value.

    R equivalent: ``getOption(name, default)``. R's ``probcal.emoji`` is
    unset until set, so plain ``getOption("probcal.emoji")`` is ``NULL``
    there; probcal reads it as ``getOption("probcal.emoji", TRUE)``, which
    is the value returned here.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.get_option("probcal.emoji")
    True
    >>> pc.get_option("probcal_emoji")
    True
    >>> pc.get_option("no.such.option", "fallback")
    'fallback'

    R: ``getOption("probcal.emoji", TRUE)`` prints ``[1] TRUE`` and
    ``getOption("no.such.option", "fallback")`` prints ``[1] "fallback"``.
    """
    return _values.get(_r_name(name), default)

"""R's call-level errors: unused arguments and S3 dispatch on a foreign object.

R matches a call's arguments before the function body runs: a name the
function does not take is ``unused argument (foo = 1)``; a generic called on
an object with no method says ``no applicable method for 'predict' applied
to an object of class "character"``. Python would say ``TypeError:
cal_platt() got an unexpected keyword argument 'foo'`` and ``AttributeError:
'str' object has no attribute 'predict'``; here R's words are used, on an
exception that is also the ``TypeError`` Python code expects.

R equivalent: R's argument matching (``match.arg`` is elsewhere) and
``UseMethod()``'s error.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable

import numpy as np

from ._errors import ProbcalError
from ._format import format_r

__all__ = ["ArgumentError", "deparse", "r_arguments", "r_class_text"]


class ArgumentError(ProbcalError, TypeError):
    """R's ``unused argument`` / ``no applicable method`` error.

    A :class:`~pycalib_r.ProbcalError` (R's message is ``str(err)``) that is
    also a :class:`TypeError`, which Python raises for the same mistakes.
    """


def deparse(value) -> str:
    """R's ``deparse()`` of a simple argument value, for R's error text."""
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (int, float, np.integer, np.floating)):
        return format_r(float(value), digits=15)
    if value is None:
        return "NULL"
    return repr(value)


def unused_arguments_text(kwargs, unused) -> str:
    """R's ``unused argument(s) (a = 1, b = "x")`` for the names ``unused`` of ``kwargs``, in order."""
    plural = "s" if len(unused) > 1 else ""
    listed = ", ".join(f"{k} = {deparse(kwargs[k])}" for k in unused)
    return f"unused argument{plural} ({listed})"


def r_arguments(fn: Callable) -> Callable:
    """Wrap ``fn`` so that a keyword it does not take raises R's ``unused argument``.

    Only the keywords are checked (before the call, as R matches them), so a
    call that binds costs one dictionary pass.
    """
    params = inspect.signature(fn).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return fn
    names = {n for n, p in params.items() if p.kind is not inspect.Parameter.POSITIONAL_ONLY}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        unused = [k for k in kwargs if k not in names]
        if unused:
            err = ArgumentError(unused_arguments_text(kwargs, unused))
            err.add_note(f"{fn.__name__}() takes: {', '.join(params)}.")
            raise err
        return fn(*args, **kwargs)

    return wrapper


def r_class_text(x) -> str:
    """How R's dispatch error names the class of ``x`` (``"character"``,
    ``"c('double', 'numeric')"``, ...)."""
    import pandas as pd

    if x is None:
        return "NULL"
    if isinstance(x, (bool, np.bool_)):
        return "logical"
    if isinstance(x, str):
        return "character"
    if isinstance(x, (int, np.integer)):
        return "c('integer', 'numeric')"
    if isinstance(x, (float, np.floating)):
        return "c('double', 'numeric')"
    if isinstance(x, pd.DataFrame):
        return "data.frame"
    if isinstance(x, np.ndarray):
        kind = {"b": "logical", "i": "integer", "u": "integer", "f": "double",
                "U": "character", "S": "character"}.get(x.dtype.kind)
        base = [] if kind is None else ([kind] if kind in ("logical", "character")
                                         else [kind, "numeric"])
        if x.ndim == 2:
            base = ["matrix", "array"] + base
        if not base:
            return "list"
        return f'c({", ".join(repr(b) for b in base)})' if len(base) > 1 else base[0]
    if isinstance(x, (list, tuple, dict)):
        return "list"
    if callable(x):
        return "function"
    return type(x).__name__


def no_method(generic: str, x) -> ArgumentError:
    """R's ``UseMethod()`` error for ``generic`` called on ``x``."""
    return ArgumentError(f"no applicable method for '{generic}' applied to an object of class "
                         f'"{r_class_text(x)}"')

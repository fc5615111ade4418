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


# R's reserved words (gram.c's keywords), never valid names; "..." is valid.
_R_RESERVED = frozenset((
    "NULL", "NA", "TRUE", "FALSE", "Inf", "NaN", "NA_integer_", "NA_real_",
    "NA_character_", "NA_complex_", "function", "while", "repeat", "for", "if",
    "in", "else", "next", "break"))
_R_ESCAPES = {"\\": "\\\\", "`": "\\`", "\a": "\\a", "\b": "\\b", "\f": "\\f",
              "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\0": "\\0"}


def _r_valid_name(name: str) -> bool:
    """R's ``isValidName()`` (src/main/gram.c) in a UTF-8 locale."""
    if name == "...":
        return True
    if not name or not (name[0] == "." or name[0].isalpha()):
        return False
    if name[0] == "." and name[1:2].isdigit() and name[1:2].isascii():
        return False
    if not all(c.isalnum() or c in "._" for c in name):
        return False
    return name not in _R_RESERVED


def r_name(name: str) -> str:
    """An argument name as R deparses it: as it is when syntactic, else in
    backquotes, with R's escapes for a backslash, a backquote and control
    characters (``a b`` becomes `` `a b` ``)."""
    name = str(name)
    if _r_valid_name(name):
        return name
    out = []
    for c in name:
        if c in _R_ESCAPES:
            out.append(_R_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\{ord(c):03o}")
        else:
            out.append(c)
    return "`" + "".join(out) + "`"


def unused_arguments_text(kwargs, unused) -> str:
    """R's ``unused argument(s) (a = 1, b = "x")`` for the names ``unused`` of
    ``kwargs``, in order; a non-syntactic name in backquotes, as R writes it
    (`` `a b` = 1 ``)."""
    plural = "s" if len(unused) > 1 else ""
    listed = ", ".join(f"{r_name(k)} = {deparse(kwargs[k])}" for k in unused)
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

    wrapper._plain = getattr(fn, "_plain", fn)  # see pycalib_r.inputs._hints.python_face
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

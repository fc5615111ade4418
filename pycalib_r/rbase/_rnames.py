"""R's argument names that are Python keywords, accepted through ``**``.

R's ``rpois(n, lambda)`` and ``cal_dirichlet(p, y, lambda = NULL)`` name an
argument ``lambda``, which Python cannot take as ``lambda=4``. The Python
name is ``lambda_``; R's own spelling is accepted too, as ``**{"lambda": 4}``
(handy when arguments come from a dict built from R's names).

R equivalent: none (a spelling of R's own argument names).
"""

from __future__ import annotations

import functools
from typing import Dict

__all__ = ["PY_NAMES", "r_keyword_args", "python_names"]

# R's name -> the Python parameter it is (every R export's keyword names).
PY_NAMES: Dict[str, str] = {"lambda": "lambda_"}


def r_keyword_args(fn):
    """Let ``fn`` take R's name of each parameter whose R name is a Python keyword.

    Giving both spellings is Python's "multiple values" ``TypeError``.
    """
    own = {r: py for r, py in PY_NAMES.items()}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for r_name, py_name in own.items():
            if r_name in kwargs:
                if py_name in kwargs:
                    raise TypeError(f"{fn.__name__}() got multiple values for argument "
                                    f"{py_name!r} (R's {r_name!r} and {py_name!r})")
                kwargs[py_name] = kwargs.pop(r_name)
        return fn(*args, **kwargs)

    return wrapper


def python_names(args: dict) -> dict:
    """R's names that are Python keywords (``lambda``) as their Python parameters (``lambda_``)."""
    out = {}
    for name, value in args.items():
        py = PY_NAMES.get(name, name)
        if py in out:
            raise TypeError(f"got multiple values for argument {py!r} (R's {name!r} and {py!r})")
        out[py] = value
    return out

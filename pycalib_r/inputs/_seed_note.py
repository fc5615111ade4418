"""A note on ``seed=`` (or ``random_state=``) given to a function whose stream is ``rng=``.

scikit-learn and scipy users reach for ``seed=`` or ``random_state=``. R's
``cal_test()`` and ``cal_ci()`` have neither (they draw from the global
stream), so the call fails: Python's ``TypeError`` for ``cal_test()``, R's
``unused argument (random_state = 0)`` for ``cal_ci()``, whose ``...`` goes
to the metric. The error and its message stay; a PEP 678 note names the two
ways to seed the call.

R equivalent: none (R's error text is kept as ``str(err)``).
"""

from __future__ import annotations

import functools
import inspect

from ..rbase._errors import ProbcalError
from ._hints import add_note

__all__ = ["seed_note"]

_SEED_NAMES = ("seed", "random_state", "random_seed", "rng_seed", "set_seed")


def _note(function: str, name: str, value) -> str:
    shown = value if isinstance(value, int) and not isinstance(value, bool) else 0
    return (f"{function}() has no `{name}` argument; it draws from R's stream. Pass "
            f"rng={shown} (a stream of its own, R's after set.seed({shown}); the global one "
            f"is left alone), or call pc.set_seed({shown}) before the call (R's "
            f"set.seed({shown}), as an R script does).")


def seed_note(fn):
    """Wrap ``fn`` (which takes ``rng=``) so a seed-like keyword gets the note above."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        given = [k for k in kwargs if k in _SEED_NAMES and k not in sig.parameters]
        if not given:
            return fn(*args, **kwargs)
        try:
            return fn(*args, **kwargs)
        except (TypeError, ProbcalError) as err:
            if isinstance(err, TypeError) or str(err).startswith("unused argument"):
                name = given[0]
                add_note(err, _note(fn.__name__, name, kwargs[name]))
            raise

    wrapper._plain = getattr(fn, "_plain", fn)  # see pycalib_r.inputs._hints.python_face
    return wrapper

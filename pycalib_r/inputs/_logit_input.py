"""A warning when a calibrator that takes logits is given probabilities.

``cal_temperature`` and ``cal_vector_scaling`` fit a scale (and biases) on
logits. Given probabilities instead, R fits them as they are and says nothing:
on GaussianNB's probabilities every calibrated value then lies in 0.50-0.94,
a silently wrong answer. The fit and R's printed object stay R's; this module
only adds a :class:`UserWarning` (once per call) naming the fix.

R equivalent: none (R's ``cal_temperature()`` and ``cal_vector_scaling()``
accept any finite numbers silently).
"""

from __future__ import annotations

import contextvars
import functools

import numpy as np

from ..rbase import _warn

__all__ = ["warn_if_probabilities", "once_per_call"]

# The warnings already given during the current outer call (cal_cv and
# cal_ovr fit the same input once per fold or class): None outside one.
_given: contextvars.ContextVar = contextvars.ContextVar("pycalib_r_logit_warnings", default=None)


def once_per_call(fn):
    """Decorate a function that fits several calibrators on one input: each warning once."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _given.get() is not None:
            return fn(*args, **kwargs)
        token = _given.set(set())
        try:
            return fn(*args, **kwargs)
        finally:
            _given.reset(token)
    return wrapper


def _all_in_unit_interval(values: np.ndarray) -> bool:
    return values.size > 0 and bool(np.all((values >= 0.0) & (values <= 1.0)))


def warn_if_probabilities(values: np.ndarray, function: str, arg: str = "logits",
                          matrix: bool = False, step: str = "fitted") -> None:
    """Warn when every entry of the (checked, finite) ``values`` lies in [0, 1].

    Logits of a real model take both signs; a vector or matrix wholly inside
    [0, 1] is almost surely probabilities. The warning names the fix:
    ``logit(p)`` for a binary vector, ``np.log(P)`` or
    ``pycalib_r.sklearn.logits_from_proba(P)`` for a probability matrix.
    ``step`` says what is done with them: "fitted" (a fit), "taken" (the
    ``predict()`` of a fit made on logits, which squashes probabilities
    towards 0.5 the same way).
    """
    given = _given.get()
    if step == "taken" and given is not None:
        return  # cal_cv()'s own out-of-fold predict(): its fit step checks the same input
    if not _all_in_unit_interval(np.asarray(values)):
        return
    if given is not None:
        if function in given:
            return
        given.add(function)
    if matrix:
        fix = (f"pass logits, e.g. np.log(P) of a probability matrix P with no zeros, or "
               f"pycalib_r.sklearn.logits_from_proba(P) (log of P clipped at 1e-12), or the "
               f"model's decision_function")
    else:
        fix = ("pass logits, e.g. pc.logit(p) of the probabilities p (clip exact 0 and 1 "
               "first), or the model's decision_function")
    # At the user's line, once per call (pycalib_r.rbase._warn).
    _warn.warn(
        f"{function}(): every value of `{arg}` lies in [0, 1]: these look like probabilities, "
        f"not logits. They are {step} as logits (as R does), which gives wrong calibrated "
        f"probabilities; {fix}.", UserWarning)

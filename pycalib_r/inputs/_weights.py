# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the one check of observation weights that every weighted function calls
"""Observation weights (R's ``glm(weights =)`` prior weights): the one check.

Every function that takes ``weights=`` (and every face that takes
``sample_weight=`` or a weights column) calls :func:`check_weights`, so the
rule and its message are the same everywhere: finite, non-negative, one per
observation, with a positive sum. ``None`` stays ``None`` (the caller then
takes its unweighted code path, whose bits are unchanged).
"""

from __future__ import annotations

import numpy as np

from ..rbase._errors import ProbcalError
from ._checks import add_note

__all__ = ["check_weights", "refuse_weights", "weights_length_error", "weights_sum_error",
           "WEIGHTS_RULE"]

# skce, cal_test and ece_ci have no `weights` parameter (Python's TypeError
# names it); cal_ci's `...` gives R's "unused argument" with a note
# (inputs/_hints.check_unused_arguments).

WEIGHTS_RULE = ("Observation weights must be finite and non-negative, one per observation, "
                "with a positive sum.")


def _fail(message: str, note: str) -> ProbcalError:
    err = ProbcalError(message)
    add_note(err, note)
    return err


def check_weights(weights, n: int, arg: str = "weights", *, positive_sum: bool = True):
    """``weights`` as a float64 array of length ``n``, or None for None.

    Parameters
    ----------
    weights : None or array_like
        Observation weights (a list, numpy array, pandas Series; a masked
        entry counts as missing).
    n : int
        The number of observations (rows of ``p``).
    arg : str
        The argument's name in the message (``"sample_weight"`` for the
        scikit-learn face).
    positive_sum : bool
        False for one chunk of a Dask collection (a chunk may sum to 0; the
        caller checks the whole sum with :func:`weights_sum_error`).

    Returns
    -------
    numpy.ndarray or None
        A new float64 array (the caller's data is never written to).

    Raises
    ------
    ProbcalError
        Naming ``arg``: not numbers, not one-dimensional, a length other
        than ``n``, a missing, infinite or negative weight, or a zero sum.
    """
    if weights is None:
        return None
    if isinstance(weights, np.ma.MaskedArray) and np.any(np.ma.getmaskarray(weights)):
        raise _fail(f"Argument `{arg}` must not contain missing or infinite values.",
                    WEIGHTS_RULE)
    w = None
    if not isinstance(weights, (str, bytes)):
        try:
            raw = np.asarray(getattr(weights, "to_numpy", lambda: weights)())
            # Numbers only: logical or text weights are refused, not coerced.
            if raw.dtype.kind in "iuf" or (raw.dtype.kind == "O" and raw.size and all(
                    isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
                    for v in raw.reshape(-1))):
                w = np.array(raw, dtype=np.float64)
        except (TypeError, ValueError):
            w = None
    if w is None or w.dtype.kind != "f":
        raise _fail(f"Argument `{arg}` must be a numeric vector.", WEIGHTS_RULE)
    if w.ndim == 2 and 1 in w.shape:
        w = w.reshape(-1)
    if w.ndim != 1:
        raise _fail(f"Argument `{arg}` must be a numeric vector.",
                    f"`{arg}` has shape {w.shape}: one weight per observation. " + WEIGHTS_RULE)
    if w.size != n:
        raise weights_length_error(n, w.size, arg)
    if not np.all(np.isfinite(w)):
        raise _fail(f"Argument `{arg}` must not contain missing or infinite values.",
                    WEIGHTS_RULE)
    if np.any(w < 0):
        raise _fail(f"Argument `{arg}` must be non-negative.",
                    f"{int(np.sum(w < 0))} weights are negative. " + WEIGHTS_RULE)
    if positive_sum:
        with np.errstate(over="ignore"):  # an infinite sum is refused just below, by name
            total = float(np.sum(w))
        err = weights_sum_error(total, arg)
        if err is not None:
            raise err
    w[w == 0] = 0.0  # -0.0 is 0: a sign bit must not reach a product's sign
    return w


def weights_length_error(n: int, size: int, arg: str = "weights") -> ProbcalError:
    """The error for ``size`` weights against ``n`` observations."""
    return _fail(f"Argument `{arg}` must have length {n} (one weight per observation), "
                 f"not {size}.", WEIGHTS_RULE)


def weights_sum_error(total: float, arg: str = "weights"):
    """The error for a weights' sum that is not positive and finite, or None."""
    if not total > 0:
        return _fail(f"Argument `{arg}` must have a positive sum (not all zero).",
                     "Every weight is 0, so no observation is left. " + WEIGHTS_RULE)
    if not np.isfinite(total):
        return _fail(f"Argument `{arg}` must have a finite sum.", WEIGHTS_RULE)
    return None


def refuse_weights(fname: str, kwargs: dict, why: str) -> None:
    """Refuse ``weights=`` / ``sample_weight=`` where weights have no accepted meaning.

    ``kwargs`` are the extra keyword arguments a function received; any other
    unknown name is left to the caller (Python's own TypeError).
    """
    for arg in ("weights", "sample_weight"):
        if arg in kwargs:
            err = ProbcalError(f"`{fname}()` does not take `{arg}`: {why}")
            add_note(err, "Weights have no accepted meaning here; drop the argument (the "
                          "weighted metrics are ece, mce, ace, calibration_error, brier_score, "
                          "smece, reliability_table and hoslem_test).")
            raise err

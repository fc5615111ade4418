# SPDX-License-Identifier: GPL-3.0-or-later
"""The one check of observation weights (``weights=``), shared by every function that takes them.

Python-only: probcal's functions take no weights. The meaning is R's
``glm(weights = )`` prior weights: a row with weight ``k`` counts as ``k``
copies of itself, a row with weight 0 as absent.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ..rbase._errors import ProbcalError
from ._checks import _abort, add_note, as_numeric_vector

__all__ = ["check_weights"]


def check_weights(weights, n: int) -> Optional[np.ndarray]:
    """Observation weights checked: ``None``, or a new float64 vector of length ``n``.

    Python-only (probcal has no weights; the meaning is R's ``glm`` prior
    weights).

    Parameters
    ----------
    weights : array_like or None
        One finite, non-negative weight per observation, with a positive sum.
        ``None`` means unweighted, and callers then take their unweighted
        code path unchanged.
    n : int
        The number of observations.

    Returns
    -------
    numpy.ndarray or None
        A float64 copy (the caller's array is never modified), or ``None``.

    Raises
    ------
    ProbcalError
        Naming ``weights``: not numeric, missing or non-finite values, a
        length other than ``n``, a negative weight, or a sum that is not
        positive.
    """
    if weights is None:
        return None
    w = as_numeric_vector(weights, arg="weights")
    if w.ndim != 1:
        if w.ndim == 2 and 1 in w.shape:
            w = w.reshape(-1)
        else:
            _abort("Argument `weights` must be a numeric vector.")
    if w.size != n:
        err = ProbcalError(f"Argument `weights` must have one value per observation ({n}), not {w.size}.")
        add_note(err, "Pass one weight per row of the data, in the same order.")
        raise err
    if bool((w < 0).any()):
        err = ProbcalError("Argument `weights` must not contain negative values.")
        add_note(err, "Weights count observations (R's glm prior weights): use 0 to leave a row out.")
        raise err
    total = float(np.sum(w))
    if not total > 0:
        err = ProbcalError("Argument `weights` must have a positive sum (not all zero).")
        add_note(err, "At least one observation needs a positive weight.")
        raise err
    if not np.isfinite(total):
        _abort("Argument `weights` must have a finite sum.")
    return np.ascontiguousarray(w, dtype=np.float64)

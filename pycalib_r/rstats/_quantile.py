# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/quantile.R (GPL-2.0-or-later), (c) The R Core Team
"""R's ``quantile(x, probs, type = 7 | 8, names = FALSE)``, and type 8 as
order statistics (its positions and last step), which the distributed and
weighted quantiles share."""

from __future__ import annotations

import numpy as np

__all__ = ["quantile_r", "type8_positions", "type8_combine", "type8_nppm", "TYPE8_FUZZ"]

_DBL_EPS = np.finfo(np.float64).eps


def quantile_r(x, probs, type: int = 7) -> np.ndarray:
    """R ``quantile(x, probs, type = type, names = FALSE)`` for types 7 and 8.

    Ported from R 4.2.2's ``quantile.default`` including its fuzz for
    type 8 and the ``x[hi] != qs`` guard that keeps equal neighbours exact.
    """
    xs = np.sort(np.asarray(x, dtype=np.float64))
    probs = np.clip(np.asarray(probs, dtype=np.float64), 0.0, 1.0)
    n = xs.size
    if n == 0:
        return np.full(probs.shape, np.nan)
    if type == 7:
        index = 1 + max(n - 1, 0) * probs
        lo = np.floor(index).astype(np.int64)
        hi = np.ceil(index).astype(np.int64)
        qs = xs[lo - 1].copy()
        x_hi = xs[hi - 1]
        i = (index > lo) & (x_hi != qs)
        h = (index - lo)[i]
        qs[i] = (1 - h) * qs[i] + h * x_hi[i]
        return qs
    if type == 8:
        k_lo, k_hi, h = type8_positions(probs, n)
        return type8_combine(xs[k_lo - 1], xs[k_hi - 1], h)
    raise ValueError("only quantile types 7 and 8 are implemented")


def type8_positions(probs: np.ndarray, n: int):
    """R's type-8 quantile as order statistics: ``(k_lo, k_hi, h)``, 1-based.

    The quantile is ``X(k_lo)`` moved a fraction ``h`` towards ``X(k_hi)``
    (see :func:`type8_combine`); ``j`` uses R 4.2.2's fuzz of four epsilons,
    and indices beyond the sample are clamped as R's padded ``x`` does.
    """
    nppm = _type8_nppm(probs, n)
    j = np.floor(nppm + _TYPE8_FUZZ).astype(np.int64)
    h = nppm - j
    h[np.abs(h) < _TYPE8_FUZZ] = 0.0
    return np.clip(j, 1, n), np.clip(j + 1, 1, n), h


_TYPE8_FUZZ = 4 * _DBL_EPS


def _type8_nppm(probs, n: int):
    a = b = 1.0 / 3.0
    return a + probs * (n + 1 - a - b)


def type8_combine(x_lo: np.ndarray, x_hi: np.ndarray, h: np.ndarray) -> np.ndarray:
    """R's last step of ``quantile(type = 8)``: take ``x_hi`` where ``h == 1``,
    interpolate where ``0 < h < 1`` and the neighbours differ (``h`` broadcasts
    over leading axes of stacked resamples)."""
    h = np.broadcast_to(h, x_lo.shape)
    qs = x_lo.copy()
    one = h == 1
    qs[one] = x_hi[one]
    other = (0 < h) & (h < 1) & (x_lo != x_hi)
    qs[other] = ((1 - h) * x_lo + h * x_hi)[other]
    return qs


type8_nppm = _type8_nppm  # the names other rooms import (public inside the package)
TYPE8_FUZZ = _TYPE8_FUZZ

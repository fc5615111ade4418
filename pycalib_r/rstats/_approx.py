# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/approx.R, src/library/stats/src/approx.c, src/library/base/R/seq.R, src/nmath/qlogis.c (GPL-2.0-or-later), (c) The R Core Team
"""R's small numeric helpers shared by the validation statistics.

``regularize.values`` (``approx``'s tie handling), ``seq(from, to,
length.out)``, ``approx1`` (linear, rule 1) and ``qlogis``, in R's
arithmetic; used by :mod:`._validation` (``val.prob``, MASS's profile
intervals) and :mod:`._val_probg` (the grouped statistics).
"""

from __future__ import annotations

import struct

import numpy as np

from ..rbase._rarith import r_log, r_mean
from ..rbase._warn import r_warning

__all__ = ["_regularize", "_seq_len_out", "_approx1", "_bracket", "_qlogis", "R_NA"]

# R's NA_real_ (a NaN with payload 1954): printed "NA", where a plain NaN prints "NaN".
R_NA = struct.unpack("<d", struct.pack("<Q", 0x7FF00000000007A2))[0]


def _qlogis(p: np.ndarray) -> np.ndarray:
    # R's qlogis: log(p / (1 - p)), -Inf at 0 and Inf at 1.
    with np.errstate(divide="ignore"):
        return r_log(p / (1.0 - p))


def _regularize(x: np.ndarray, y: np.ndarray, warn_collapsing: bool = True):
    """R's ``regularize.values(x, y, mean)``: sorted by ``x``, ties replaced by their mean."""
    if np.any(np.diff(x) < 0):
        o = np.argsort(x, kind="stable")
        x, y = x[o], y[o]
    ux, first = np.unique(x, return_index=True)
    if ux.size < x.size:
        if warn_collapsing:
            r_warning("collapsing to unique 'x' values")
        bounds = list(first) + [x.size]
        y = np.array([r_mean(y[bounds[k]:bounds[k + 1]]) for k in range(ux.size)])
        x = ux
    return x, y


def _seq_len_out(start: float, end: float, n: int) -> np.ndarray:
    """R 4.2.2's ``seq.int(from, to, length.out = n)``: both ends, ``from + i * by`` between."""
    out = np.empty(n)
    if n == 0:  # c(from, to)[seq_len(0)]
        return out
    out[0] = start
    if n > 1:
        out[-1] = end
    if n > 2:
        by = (end - start) / (n - 1)
        for i in range(1, n - 1):
            out[i] = start + i * by
    return out


def _bracket(v: float, x: np.ndarray):
    """``approx1``'s bisection: ``(i, j)``, ``j = i + 1``, with ``x[i] <= v <= x[j]``."""
    i, j = 0, x.size - 1
    while i < j - 1:
        ij = (i + j) // 2
        if v < x[ij]:
            j = ij
        else:
            i = ij
    return i, j


def _approx1(v: float, x: np.ndarray, y: np.ndarray) -> float:
    """R's ``approx1`` (linear, rule 1: NA outside the range, R's ``NA_real_``)."""
    if v < x[0] or v > x[-1]:
        return R_NA
    i, j = _bracket(v, x)
    if v == x[j]:
        return float(y[j])
    if v == x[i]:
        return float(y[i])
    return float(y[i] + (y[j] - y[i]) * ((v - x[i]) / (x[j] - x[i])))

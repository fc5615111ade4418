# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/diagnostics.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""ggplot2's default breaks (``labeling::extended``) for the reliability diagram's
count legend; moved out of :mod:`._diagnostics` to keep that module's size."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["_r_seq_by", "_extended_breaks"]


def _r_seq_by(start, stop, step):
    """R's ``seq(from, to, by)`` for an increasing sequence."""
    count = int((stop - start) / step + 1e-10)
    return np.minimum(start + np.arange(count + 1) * step, stop)


def _extended_breaks(dmin, dmax, m=5, Q=(1, 5, 2, 2.5, 4, 3),
                     w=(0.25, 0.2, 0.5, 0.05)):
    """Talbot, Lin & Hanrahan's extended tick search (``labeling::extended``).

    This is what ggplot2's continuous scales use for default breaks; the
    legend of the count scale shows these values.
    """
    eps = np.finfo(float).eps * 100
    dmin, dmax = min(dmin, dmax), max(dmin, dmax)
    if dmax - dmin < eps or dmax - dmin > math.sqrt(np.finfo(float).max):
        return np.linspace(dmin, dmax, m)
    n_q = len(Q)

    def simplicity(i, j, lmin, lmax, lstep):
        rem = lmin % lstep
        zero_is_label = (rem < 1e-10 or lstep - rem < 1e-10) and lmin <= 0 <= lmax
        return 1 - i / (n_q - 1) - j + (1 if zero_is_label else 0)

    def coverage(lmin, lmax):
        span = dmax - dmin
        return 1 - 0.5 * ((dmax - lmax) ** 2 + (dmin - lmin) ** 2) / (0.1 * span) ** 2

    def coverage_max(span_labels):
        span = dmax - dmin
        if span_labels > span:
            half = (span_labels - span) / 2
            return 1 - 0.5 * (2 * half ** 2) / (0.1 * span) ** 2
        return 1.0

    def density(k, lmin, lmax):
        r = (k - 1) / (lmax - lmin)
        rt = (m - 1) / (max(lmax, dmax) - min(dmin, lmin))
        return 2 - max(r / rt, rt / r)

    def density_max(k):
        return 2 - (k - 1) / (m - 1) if k >= m else 1.0

    best_score, best = -2.0, None
    j = 1
    searching = True
    while searching:
        for i, q in enumerate(Q):
            sm = 1 - i / (n_q - 1) - j + 1
            if w[0] * sm + w[1] + w[2] + w[3] < best_score:
                searching = False
                break
            k = 2
            while True:
                dm = density_max(k)
                if w[0] * sm + w[1] + w[2] * dm + w[3] < best_score:
                    break
                delta = (dmax - dmin) / (k + 1) / j / q
                z = math.ceil(math.log10(delta))
                while True:
                    step = j * q * 10.0 ** z
                    cm = coverage_max(step * (k - 1))
                    if w[0] * sm + w[1] * cm + w[2] * dm + w[3] < best_score:
                        break
                    min_start = math.floor(dmax / step) * j - (k - 1) * j
                    max_start = math.ceil(dmin / step) * j
                    if min_start <= max_start:
                        for start in range(min_start, max_start + 1):
                            lmin = start * (step / j)
                            lmax = lmin + step * (k - 1)
                            score = (w[0] * simplicity(i, j, lmin, lmax, step)
                                     + w[1] * coverage(lmin, lmax)
                                     + w[2] * density(k, lmin, lmax)
                                     + w[3])
                            if score > best_score:
                                best_score, best = score, (lmin, lmax, step)
                    z += 1
                k += 1
        j += 1
    return _r_seq_by(*best)

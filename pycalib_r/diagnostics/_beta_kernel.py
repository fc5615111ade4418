# SPDX-License-Identifier: GPL-3.0-or-later
# Written from: Chen (1999), Computational Statistics & Data Analysis 31:131-145 (the published method); no code from bde (GPL-2-only)
"""Chen's (1999) beta kernel density estimator on [0, 1].

How this module was written: from the published method alone, Chen, S. X.
(1999), "Beta kernel estimators for density functions", *Computational
Statistics & Data Analysis* 31, 131-145, its first beta kernel
estimator::

    f_hat(x) = (1/n) sum_i K_{x/b + 1, (1 - x)/b + 1}(X_i),

    K_{p,q}(t) = t^(p - 1) (1 - t)^(q - 1) / B(p, q),

the beta density with shapes ``p = x/b + 1``, ``q = (1 - x)/b + 1`` placed
at each evaluation point ``x``, with bandwidth ``b = n^(-2/5)`` (the order
of the bandwidth that minimises the paper's mean integrated squared error). No code of the R package bde
(GPL-2-only), which reliabilitydiag calls for this estimate, was read or
translated. That this is the estimate reliabilitydiag uses (bde's
``"betakernel"`` estimator with its default bandwidth) is a black-box
finding: the stored fixtures of reliabilitydiag's continuous asymptotic
bands (``reference/bin_free/corp.json``) and, where bde is installed, a live
comparison of the density values (``tests/diagnostics/test_corp.py``).

R equivalent: ``bde::density(bde::bde(x, estimator = "betakernel",
lower.limit = 0, upper.limit = 1), at)``, as called by reliabilitydiag's
``continuous_asymptotics()``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["chen_beta_density"]

# Data read per block: the block's log-kernel matrix holds len(at) * _BLOCK
# doubles (101 points: about 26 MB), whatever n.
_BLOCK = 1 << 15


def _exponent_times_log(e, log_t):
    """``e * log(t)`` on an (points x data) grid, 0 where ``e == 0``: ``t^0`` is 1 for
    every ``t`` in [0, 1], including ``t = 0`` (where ``0 * log(0)`` would be NaN)."""
    out = np.multiply.outer(e, log_t)
    out[e == 0, :] = 0.0
    return out


def chen_beta_density(data, at, bandwidth=None):
    """Chen's (1999) beta kernel density estimate of ``data`` at the points ``at``.

    Parameters
    ----------
    data : ndarray of float
        The sample, in [0, 1].
    at : ndarray of float
        Evaluation points in [0, 1].
    bandwidth : float, optional
        ``b``; by default ``n^(-2/5)``.

    Returns
    -------
    ndarray
        ``f_hat(at)``.

    Notes
    -----
    With ``p - 1 = x/b`` and ``q - 1 = (1 - x)/b``, each term is
    ``exp((p - 1) log X_i + (q - 1) log(1 - X_i) - log B(p, q))``: the kernel
    in logarithms, so large shapes (small ``b``) neither overflow nor
    underflow before the end. A term whose base is 0 with a positive
    exponent is 0. The sum over the data runs in blocks (bounded memory).

    R equivalent: ``bde::density(bde::bde(data, estimator = "betakernel",
    lower.limit = 0, upper.limit = 1), at)``.
    """
    from scipy.special import betaln

    data = np.asarray(data, dtype=np.float64)
    at = np.asarray(at, dtype=np.float64)
    n = data.size
    b = n ** (-2 / 5) if bandwidth is None else float(bandwidth)
    p = at / b + 1.0
    q = (1.0 - at) / b + 1.0
    # The kernel's exponents p - 1, q - 1, from the shapes as the paper writes them.
    e_left, e_right = p - 1.0, q - 1.0
    log_beta = betaln(p, q)
    total = np.zeros(at.size)
    # log(0) = -inf, and 0 * -inf (set to 0 just after) is no event to report.
    with np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, n, _BLOCK):
            t = data[start:start + _BLOCK]
            log_k = -log_beta[:, None] + _exponent_times_log(e_left, np.log(t))
            log_k += _exponent_times_log(e_right, np.log1p(-t))
            total += np.exp(log_k).sum(axis=1)
    return total / n

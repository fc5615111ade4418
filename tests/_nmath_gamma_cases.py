"""The grid on which R's ``pchisq``/``qchisq`` are compared with the nmath port.

Shared by ``tools/make_nmath_gamma_fixture.py`` (R's values, stored in
``reference/nmath/gamma_dist.json``) and ``tests/rstats/test_nmath_gamma.py``.
Deterministic (a fixed numpy seed): for each degree of freedom and each of
``lower.tail`` x ``log.p`` (4 combinations), quantiles spanning the body and
both tails of the distribution (multiples of ``df``, ``df +- k sqrt(2 df)``,
absolute values from 1e-300 to 1e300, ``0``, ``Inf``, ``NaN``, negative) and
probabilities from 1e-300 to 1 - 1e-16 (on the log scale down to -1e5 when
``log.p``), with ``0``, ``1``, ``NaN`` and out-of-range values.
"""

from __future__ import annotations

import math

import numpy as np

DFS = tuple(float(d) for d in range(1, 31)) + (0.5, 1.5, 100.0, 1e3, 1e5)
# Reaching the other branches of stirlerr (15 < n <= 35, n > 80, n > 500) and
# of lgammafn (x > 4934720, x > 1e17).
MORE_DFS = (37.0, 55.5, 71.0, 250.0, 1e7, 1e9, 3e17)
# Parameter edges answered by R's argument checks (one group each way).
EDGE_DFS = (0.0, 1e-12, math.inf, -1.0, math.nan)
TAILS = ((True, False), (True, True), (False, False), (False, True))

_ABS_Q = (0.0, -1.0, 1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0,
          10.0, 50.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e10, 1e100, 1e300, math.inf, math.nan)
_ABS_P = (0.0, 1.0, -0.5, 1.5, math.nan, 1e-300, 1e-200, 1e-100, 1e-50, 1e-20, 1e-15, 1e-10,
          1e-8, 1e-5, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 0.75, 0.8, 0.9, 0.95, 0.975,
          0.9875, 0.99, 0.995, 0.999, 1 - 1e-5, 1 - 1e-8, 1 - 1e-10, 1 - 1e-12, 1 - 1e-14,
          1 - 1e-15, 1 - 2 ** -53)
_LOG_P = (0.0, 0.5, -1e-300, -1e-20, -1e-10, -1e-5, -1e-3, -0.05, -0.5, -1.0, -2.0, -10.0,
          -50.0, -100.0, -700.0, -1000.0, -1e4, -1e5, -math.inf, math.nan)


def q_grid(df: float, seed: int) -> np.ndarray:
    """Quantiles for ``pchisq(., df)``: 80 values."""
    g = np.random.default_rng(seed)
    d = df if math.isfinite(df) and df > 0 else 1.0
    mult = d * np.logspace(-3, 1.5, 24)
    sd = math.sqrt(2 * d)
    near = d + sd * np.array([-8, -6, -4, -3, -2, -1, -0.5, 0, 0.5, 1, 2, 3, 4, 6, 8, 12.])
    near = near[near > 0]
    rand = d * g.gamma(max(d / 2, 0.05), 2.0 / max(d, 0.1), 80)
    out = np.concatenate([_ABS_Q, mult, near, rand])
    return out[:80]


def p_grid(df: float, seed: int, log_p: bool) -> np.ndarray:
    """Probabilities for ``qchisq(., df)``: 70 values (logs when ``log_p``)."""
    g = np.random.default_rng(seed + 1)
    if log_p:
        fixed = np.array(_LOG_P)
        rand = np.concatenate([np.log(g.uniform(size=25)), -np.exp(g.uniform(-40, 5, 25))])
    else:
        fixed = np.array(_ABS_P)
        rand = np.concatenate([g.uniform(size=20), np.exp(g.uniform(-690, 0, 13))])
    return np.concatenate([fixed, rand])[:70]


def groups():
    """``(fn, df, lower_tail, log_p, x)`` per group, ``fn`` "pchisq" or "qchisq"."""
    out = []
    for k, df in enumerate(DFS + MORE_DFS + EDGE_DFS):
        for j, (lower, log_p) in enumerate(TAILS):
            seed = 37_000 + 10 * k + j
            out.append(("pchisq", df, lower, log_p, q_grid(df, seed)))
            out.append(("qchisq", df, lower, log_p, p_grid(df, seed, log_p)))
    return out


def r_values(ro, fn: str, df: float, lower: bool, log_p: bool, x: np.ndarray) -> np.ndarray:
    """R's ``fn(x, df, lower.tail, log.p)`` as a float64 array, warnings suppressed
    (a negative ``df`` gives NaN with R's "NaNs produced")."""
    call = ro.r(f"function(x, df, lt, lg) suppressWarnings({fn}(x, df, lower.tail = lt, "
                "log.p = lg))")
    return np.array(call(ro.FloatVector(x), df, lower, log_p), dtype=np.float64)

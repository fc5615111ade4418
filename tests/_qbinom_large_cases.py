"""The cases on which R's ``qbinom``/``rbinom`` for sizes >= 2^31 - 1 are compared.

Shared by ``tools/make_qbinom_large_fixture.py`` (R's values, stored in
``reference/nmath/qbinom_large.json``) and ``tests/rng/test_rng_qbinom_large.py``.
Deterministic (a fixed numpy seed). For each size in :data:`SIZES`:

- ``qbinom(p, size, prob, lower.tail = FALSE)`` on :data:`N_Q` pairs: ``prob``
  uniform on (0, 1), log-uniform on (1e-15, 0.1), or one minus that (a third
  each); ``p`` uniform on (0, 1), log-uniform on (1e-300, 0.1), or one minus a
  log-uniform on (1e-16, 0.1) (a third each); and the :data:`UNDERFLOW` cases;
- ``rbinom(K, size, prob)`` after ``set.seed(seed)`` for each ``prob`` of
  :data:`PROBS` (one seed per draw of ``size`` and ``prob``).

These are the values R takes from ``pbeta`` (``toms708.c``) and pycalib_r
from SciPy's ``betainc``, so they measure how often the last bits of the two
decide R's search differently.
"""

from __future__ import annotations

import hashlib

import numpy as np

SIZES = (2.0**31 - 1, 2.0**31, 2.0**33, 2.0**40, 1e15, 2.0**52)
N_Q = 1200
K = 200
PROBS = (0.5, 0.3, 0.97, 1e-9, 3e-6, 1 - 1e-7)
SEED = 20260047


# (p, size, prob) where betainc underflows to 0 in the search (prob near 1,
# the answer near size, R's probabilities below 1e-263): found by a larger
# random run, kept as cases (SciPy's betaincc on the swapped tail answers).
UNDERFLOW = ((3.036353428148644e-280, 2.0**31 - 1, 0.9999996480207913),
             (7.295080976798375e-282, 2.0**33, 0.9999999078534945),
             (1e-300, 2.0**31, 0.9999996), (2e-290, 2.0**33, 0.99999995))


def qbinom_cases() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(p, size, prob)``: :data:`N_Q` pairs for each size, in size order,
    then the :data:`UNDERFLOW` cases."""
    g = np.random.default_rng(SEED)
    ps, ns, prs = [], [], []
    for size in SIZES:
        which = g.integers(0, 3, N_Q)
        pr = np.select([which == 0, which == 1],
                       [g.uniform(0, 1, N_Q), 10 ** g.uniform(-15, -1, N_Q)],
                       1 - 10 ** g.uniform(-15, -1, N_Q))
        which = g.integers(0, 3, N_Q)
        p = np.select([which == 0, which == 1],
                      [g.uniform(0, 1, N_Q), 10 ** g.uniform(-300, -1, N_Q)],
                      1 - 10 ** g.uniform(-16, -1, N_Q))
        # Open intervals: R's qbinom answers 0 and 1 (and prob 0, 1) without a search.
        pr = np.clip(pr, 1e-300, 1 - 2.0**-53)
        p = np.clip(p, 1e-300, 1 - 2.0**-53)
        ps.append(p)
        prs.append(pr)
        ns.append(np.full(N_Q, size))
    extra = np.array(UNDERFLOW).T
    return (np.concatenate(ps + [extra[0]]), np.concatenate(ns + [extra[1]]),
            np.concatenate(prs + [extra[2]]))


def rbinom_cases() -> list[tuple[int, float, float]]:
    """``(seed, size, prob)`` of each ``rbinom(K, size, prob)`` draw."""
    return [(1000 + 10 * i + j, size, prob)
            for i, size in enumerate(SIZES) for j, prob in enumerate(PROBS)]


def digest(*arrays: np.ndarray) -> str:
    """SHA-256 of the arrays' little-endian float64 bytes (a changed grid is caught)."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.asarray(a, dtype="<f8").tobytes())
    return h.hexdigest()


def r_qbinom(ro, p, size, prob) -> np.ndarray:
    """R's ``qbinom(p, size, prob, lower.tail = FALSE)`` as float64."""
    call = ro.r("function(p, n, pr) as.double(qbinom(p, n, pr, lower.tail = FALSE))")
    return np.array(call(ro.FloatVector(p), ro.FloatVector(size), ro.FloatVector(prob)),
                    dtype=np.float64)


def r_rbinom(ro, seed: int, size: float, prob: float) -> np.ndarray:
    """R's ``rbinom(K, size, prob)`` after ``set.seed(seed)`` (Mersenne-Twister,
    Inversion), as float64."""
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    call = ro.r("function(s, n, pr, k) { set.seed(s); as.double(rbinom(k, n, pr)) }")
    return np.array(call(seed, size, prob, K), dtype=np.float64)

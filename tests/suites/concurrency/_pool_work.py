"""Work for the process-pool tests (tests/suites/concurrency/test_concurrency.py).

A module of its own, importable by name, so that spawn and forkserver
children import it without importing pytest's test module.
"""

from __future__ import annotations

import numpy as np


def compiled_calls(seed: int = 1) -> dict:
    """One call of every compiled path (pycalib_r._native's rooms), at
    sizes that take the compiled route; a digest of the results."""
    import pycalib_r as pc
    from pycalib_r._rng import RRandom

    rng = RRandom(seed)
    n = 100_000
    p = rng.runif(n, 0.02, 0.98)
    y = rng.rbinom(n, 1, p)
    z = np.log(p / (1 - p))
    out = {}
    # binary temperature: the objective runs on several cores (_native.run_parts)
    out["temperature"] = float(pc.cal_temperature(1.3 * z, y)["temperature"])
    # glm.fit's IRLS loops (_native/src/calibrators.c) and the libm/x87 kernels
    out["platt"] = [float(v) for v in pc.cal_platt(p, y).fit["coefficients"].values()]
    # BFGS update (_native/src/calibrators.c): multiclass temperature
    logits = np.column_stack([z[:600], -z[:600], np.zeros(600)])
    codes = 1 + (rng.runif(600) > p[:600]) + (rng.runif(600) < 0.2)
    out["temperature_mc"] = float(pc.cal_temperature(logits, codes)["temperature"])
    # the samplers and the distributions (_native/src/rng.c)
    g = rng.rgamma(1 << 15, 2.5)
    out["rgamma"] = float(np.sum(g))
    out["rgamma_first"] = float(g[0])
    out["sample_replace"] = int(np.sum(rng.sample_int(1 << 20, 1 << 15, replace=True)))
    out["sample_noreplace"] = int(np.sum(rng.sample_int(1 << 16)))
    w = rng.runif(4000)
    out["sample_prob"] = int(np.sum(rng.sample_int(4000, 1 << 15, replace=True, prob=w)))
    # resampling: Rademacher signs (cal_test) and bootstrap indices (cal_ci)
    m = 400
    out["cal_test"] = float(pc.cal_test(p[:m], y[:m], n_boot=99, rng=rng, progress=False).p_value)
    ci = pc.cal_ci(p[:m], y[:m], n_boot=49, rng=rng, progress=False)
    out["cal_ci"] = [float(ci["lower"]), float(ci["upper"])]
    out["state"] = rng.get_state()[:4].tolist()
    return out


def temperature_and_draws(seed: int = 1) -> dict:
    """The start of :func:`compiled_calls`: the binary temperature fit that runs
    on several cores, and the first compiled sampler."""
    import pycalib_r as pc
    from pycalib_r._rng import RRandom

    rng = RRandom(seed)
    n = 100_000
    p = rng.runif(n, 0.02, 0.98)
    y = rng.rbinom(n, 1, p)
    z = np.log(p / (1 - p))
    out = {"temperature": float(pc.cal_temperature(1.3 * z, y)["temperature"])}
    rng.runif(600)  # the multiclass labels' uniforms
    rng.runif(600)
    out["rgamma_first"] = float(rng.rgamma(1 << 15, 2.5)[0])
    return out


def global_draws(n: int = 3) -> list:
    """Draws from the global stream (whose lock the parent may hold at the fork)."""
    import pycalib_r as pc

    return pc.runif(n).tolist()

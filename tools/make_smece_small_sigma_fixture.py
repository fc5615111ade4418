"""Write reference/bin_free/smece_small_sigma.json: relplot at the smallest bandwidth
smece accepts (sigma = 1e-4, issue 46).

relplot convolves over its whole grid (O(grid^2)): this takes about 10-20
minutes, which is why the values are stored (tests/suites/hostile/test_corp_hostile.py).
Needs relplot. Run from the repository root:

    python tools/make_smece_small_sigma_fixture.py
"""

from __future__ import annotations

import json
import time
from importlib.metadata import version
from pathlib import Path

import numpy as np
import relplot

REPO = Path(__file__).resolve().parents[1]
SIGMA = 1e-4


def main():
    g = np.random.default_rng(1)
    f = g.beta(2, 2, 200)
    y = (g.random(200) < f ** 1.4).astype(float)
    t0 = time.time()
    value = relplot.metrics.smECE_sigma(f, y, SIGMA)
    mu, dens = relplot.kernels.ReflectedGaussianKernel(SIGMA).smooth(f, y, np.linspace(0, 1, 200))
    out = dict(reference=f"relplot {version('relplot')}",
               made_by=("relplot.metrics.smECE_sigma(f, y, 1e-4) and relplot.kernels."
                        "ReflectedGaussianKernel(1e-4).smooth(f, y, np.linspace(0, 1, 200)); "
                        "f = default_rng(1).beta(2, 2, 200), y = (random(200) < f ** 1.4); "
                        f"{time.time() - t0:.0f} s of relplot"),
               sigma=SIGMA.hex(), f=[v.hex() for v in f], y=y.tolist(), smece=float(value).hex(),
               mu=[v.hex() for v in mu], dens=[v.hex() for v in dens])
    (REPO / "reference" / "bin_free" / "smece_small_sigma.json").write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

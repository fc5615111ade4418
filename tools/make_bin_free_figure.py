"""Make docs/bin_free.png and print the numbers of docs/bin_free.md.

One model's held-out probabilities drawn three ways: probcal's binned
reliability diagram, the CORP diagram (reliabilitydiag) and the smooth
reliability diagram (relplot's smECE), side by side, plus how the binned ECE
moves with the number of bins. Data: a logistic regression fitted on 4,000
simulated rows whose true log-odds are quadratic, predicting 4,000 others
(all drawn from pycalib_r's R-compatible stream, seed 36).

Usage: ``python tools/make_bin_free_figure.py [output.png]`` (default docs/bin_free.png).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pycalib_r as pc  # noqa: E402


def held_out_model():
    from sklearn.linear_model import LogisticRegression

    pc.set_seed(36)
    n = 8000
    x = np.column_stack([pc.rnorm(n), pc.rnorm(n)])
    log_odds = 1.2 * x[:, 0] - 0.8 * x[:, 1] + 0.6 * x[:, 0] ** 2 - 0.8
    y = np.asarray(pc.rbinom(n, 1, 1 / (1 + np.exp(-log_odds))))
    model = LogisticRegression().fit(x[: n // 2], y[: n // 2])
    return model.predict_proba(x[n // 2:])[:, 1], y[n // 2:]


def main(out=REPO / "docs" / "bin_free.png"):
    p, y = held_out_model()
    print(f"n = {p.size}, event rate {y.mean():.4f}")
    for bins in (5, 10, 15, 20, 40):
        print(f"ece(bins = {bins:2d}) = {pc.ece(p, y, bins=bins):.4f}   "
              f"debiased = {pc.ece(p, y, bins=bins, debiased=True):.4f}")
    pc.set_seed(1)
    r = pc.reliabilitydiag(p, y)
    print(r.summary())
    print(r.summary("log"))
    print(f"CORP bins: {len(r['X'].bins)}; bands: {r['X'].regions['method'].iloc[0]}")
    value, sigma = pc.smece(p, y, return_sigma=True)
    print(f"smece = {value:.4f} (bandwidth {sigma:.4f})")
    d = pc.smooth_reliability_diagram(p, y, n_boot=200, rng=2)

    fig, axes = plt.subplots(1, 3, figsize=(15, 5.4))
    pc.reliability_diagram(p, y, bins=10, ax=axes[0])
    axes[0].set_title("binned (probcal's reliability_diagram, 10 bins)", fontsize=10)
    r.plot(ax=axes[1])
    axes[1].set_title("CORP (reliabilitydiag), 90% consistency band", fontsize=10)
    d.plot(ax=axes[2])
    axes[2].set_title("smooth (smECE), 95% bootstrap band", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110, metadata={"Software": None})
    print(f"wrote {out}")


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:]))

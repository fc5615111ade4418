"""Regenerate the reliability-diagram PNGs in docs/.

The data are those of probcal's ``?reliability_diagram`` examples, drawn from
pycalib_r's R-compatible stream, so the binary and classwise figures can be
set beside R's ``docs/reference/reliability_diagram-{1,2}.png``:

    set.seed(6);  p <- runif(120); y <- rbinom(120, 1, p)
    set.seed(60); prob <- matrix(runif(150 * 3), ncol = 3)
    prob <- prob / rowSums(prob); labels <- max.col(prob)

R's help page has no confidence example; that figure uses the same
probabilities with labels drawn from them (continuing the seed-60 stream),
so the top-label confidence is not trivially correct:

    u <- runif(150); labels_drawn <- 1 + (u > prob[, 1]) + (u > prob[, 1] + prob[, 2])

The overlay and interval figures use over-confident scores (events a quarter less
likely than predicted), with calibrators fitted on the first half and drawn on the
second:

    set.seed(41); s <- runif(1200); ys <- rbinom(1200, 1, pmax(s - 0.25, 0))

Usage: ``python tools/make_docs_figures.py [output_dir]`` (default: docs/).
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
from pycalib_r.diagnostics._diagnostics import reliability_diagram  # noqa: E402


def example_data():
    try:
        from pycalib_r._rng import RRandom
    except ImportError:  # the R stream is not available: fixed numpy data instead
        rng = np.random.default_rng(1)
        p = rng.uniform(size=120)
        y = rng.binomial(1, p)
        prob = rng.uniform(size=(150, 3))
        u = rng.uniform(size=150)
    else:
        stream = RRandom(6)
        p = stream.runif(120)
        y = stream.rbinom(120, 1, p)
        stream = RRandom(60)
        # R's matrix() fills column by column
        prob = stream.runif(150 * 3).reshape(3, 150).T
        u = stream.runif(150)
    prob = prob / prob.sum(axis=1, keepdims=True)
    # max.col() breaks ties at random, but these rows have no (near-)ties.
    labels = np.argmax(prob, axis=1) + 1
    labels_drawn = 1 + (u > prob[:, 0]).astype(int) + (u > prob[:, 0] + prob[:, 1]).astype(int)
    return p, y, prob, labels, labels_drawn


def overconfident_data():
    """Raw scores, and Platt / isotonic fits from the first half, on the second half."""
    stream = pc.RRandom(41)
    s = stream.runif(1200)
    ys = stream.rbinom(1200, 1, np.maximum(s - 0.25, 0))
    fit, new = slice(0, 600), slice(600, 1200)
    models = {
        "raw": s[new],
        "Platt": pc.predict(pc.cal_platt(s[fit], ys[fit]), s[new]),
        "isotonic": pc.predict(pc.cal_isotonic(s[fit], ys[fit]), s[new]),
    }
    return models, ys[new]


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    p, y, prob, labels, labels_drawn = example_data()
    models, ys = overconfident_data()
    figures = {
        "reliability_binary.png": reliability_diagram(p, y, bins=8),
        "reliability_multiclass.png": reliability_diagram(prob, labels, bins=8,
                                                          type="classwise"),
        "reliability_confidence.png": reliability_diagram(prob, labels_drawn, bins=8,
                                                          type="confidence"),
        "reliability_overlay.png": reliability_diagram(models, ys, bins=10),
        "reliability_intervals.png": reliability_diagram(models["raw"], ys, bins=10,
                                                         strategy="equal_freq", intervals=True),
        "reliability_6x4.png": reliability_diagram(models, ys, bins=10, figsize=(6, 4)),
    }
    for name, fig in figures.items():
        # Fixed metadata keeps the PNG bytes reproducible.
        fig.savefig(out_dir / name, dpi=150, metadata={"Software": None})
        plt.close(fig)
        print(out_dir / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs")

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

Usage: ``python tools/make_docs_figures.py [output_dir]`` (default: docs/).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pycalib_r._diagnostics import reliability_diagram  # noqa: E402


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


def main(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    p, y, prob, labels, labels_drawn = example_data()
    figures = {
        "reliability_binary.png": reliability_diagram(p, y, bins=8),
        "reliability_multiclass.png": reliability_diagram(prob, labels, bins=8,
                                                          type="classwise"),
        "reliability_confidence.png": reliability_diagram(prob, labels_drawn, bins=8,
                                                          type="confidence"),
    }
    for name, fig in figures.items():
        # Fixed metadata keeps the PNG bytes reproducible.
        fig.savefig(out_dir / name, dpi=150, metadata={"Software": None})
        print(out_dir / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs")

"""Draw docs/clinical_val_prob_ci.png: val_prob_ci()'s figure for docs/guide/clinical.md.

    PYTHONPATH=. python tools/make_clinical_figure.py

R's figure beside it (docs/clinical_val_prob_ci_r.png) is drawn by R with
CalibrationCurves 2.0.0 from the same data; the command is on the page.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pycalib_r as pc  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    pc.set_seed(1)
    p = pc.runif(200)
    y = pc.rbinom(200, 1, p ** 1.3)
    fig, ax = plt.subplots(figsize=(5, 5))
    pc.val_prob_ci(p, y, logistic_cal=True).plot(ax=ax)
    fig.savefig(REPO / "docs" / "clinical_val_prob_ci.png", dpi=100, bbox_inches="tight")


if __name__ == "__main__":
    main()

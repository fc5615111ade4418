"""Rewrite reference/bin_free/smece.json: relplot's smooth ECE, bandwidth and smoothed curve.

The inputs are drawn from the package's R-compatible stream (simulated
miscalibrated forecasts) and from a logistic regression's held-out
predictions (scikit-learn, fitted on the first half of a simulated data set,
predicting the second); they are stored as hex floats with relplot's
answers, so tests/diagnostics/test_smece.py compares without relplot. Needs relplot
(and scikit-learn). Run from the repository root:

    python tools/make_smece_fixtures.py
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pycalib_r as pc  # noqa: E402


def _cases():
    for seed, n, shape in ((1, 2000, 1.3), (2, 300, 0.6), (3, 5000, 1.0), (4, 60, 2.0)):
        pc.set_seed(seed)
        p = pc.runif(n)
        y = pc.rbinom(n, 1, p ** shape)
        yield f"simulated_{seed}", p, np.asarray(y)
    from sklearn.linear_model import LogisticRegression

    pc.set_seed(10)
    n = 4000
    x = np.column_stack([pc.rnorm(n), pc.rnorm(n)])
    truth = 1 / (1 + np.exp(-(1.5 * x[:, 0] - x[:, 1] + 0.4 * x[:, 0] ** 2)))
    y = np.asarray(pc.rbinom(n, 1, truth))
    model = LogisticRegression(C=1e6).fit(x[: n // 2], y[: n // 2])
    yield "held_out_logistic", model.predict_proba(x[n // 2:])[:, 1], y[n // 2:]


def main():
    import relplot

    cases = []
    for name, p, y in _cases():
        f = np.asarray(p, dtype=np.float64)
        yf = y.astype(np.float64)
        value, sigma = relplot.smECE(f, yf, return_width=True)
        diagram = relplot.prepare_rel_diagram(f, yf, plot_confidence_band=False, report_CE_std=False)
        cases.append(dict(name=name, p=[float(v).hex() for v in f], y=[int(v) for v in y],
                          smece=float(value).hex(), sigma=float(sigma).hex(),
                          smece_sigma_0_05=float(relplot.smECE_sigma(f, yf, 0.05)).hex(),
                          mu=[float(v).hex() for v in diagram["mu"]],
                          density=[float(v).hex() for v in diagram["density"]]))
    out = dict(reference=f"relplot {version('relplot')}", script="tools/make_smece_fixtures.py",
               cases=cases)
    path = REPO / "reference" / "bin_free" / "smece.json"
    path.write_text(json.dumps(out))
    print(f"wrote {len(cases)} cases to {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()

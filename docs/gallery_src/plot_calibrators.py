"""
Calibrators compared
====================

Platt, beta, isotonic and histogram calibration fitted on one half of a
distorted model's scores and scored on the other half: ECE and Brier score.
"""
import numpy as np
import matplotlib.pyplot as plt
import pycalib_r as pc

pc.set_seed(11)
n = 6000
q = pc.rbeta(n, 2, 3)
y = pc.rbinom(n, 1, q)
p = np.clip(q ** 0.5, 1e-6, 1 - 1e-6)           # a distorted (under-confident at the top) model
train, test = slice(0, n // 2), slice(n // 2, n)

fits = {
    "Platt": pc.cal_platt(p[train], y[train]),
    "beta": pc.cal_beta(p[train], y[train]),
    "isotonic": pc.cal_isotonic(p[train], y[train]),
    "histogram": pc.cal_histogram(p[train], y[train], bins=10),
}
preds = {"raw": p[test]} | {name: pc.predict(fit, p[test]) for name, fit in fits.items()}
for name, pred in preds.items():
    brier = np.mean((pred - y[test]) ** 2)
    print(f"{name:>9}: ECE {pc.ece(pred, y[test], bins=15):.4f}  Brier {brier:.4f}")

grid = np.linspace(0.01, 0.99, 200)
fig, ax = plt.subplots(figsize=(5, 5))
ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
for name, fit in fits.items():
    ax.plot(grid, pc.predict(fit, grid), label=name)
ax.set_xlabel("model's probability")
ax.set_ylabel("calibrated probability")
ax.legend()
plt.show()

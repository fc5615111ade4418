"""
``ece_ci`` coverage against the percentile bootstrap
====================================================

Sun et al.'s (2024) confidence set for the squared l2 ECE and R's
percentile bootstrap (``cal_ci``), over 100 data sets of a mildly
miscalibrated model: how often each contains the binned model's squared
ECE. The full study is ``tools/ece_ci_simulation.py``.
"""
import numpy as np
import matplotlib.pyplot as plt
import pycalib_r as pc

n, bins, s = 1000, 10, 0.8
# P(y = 1 | p) = 0.5 + s (p - 0.5): each bin's mean residual is (s - 1)(mean p - 0.5).
edges = np.arange(bins + 1) / bins
mid = (edges[:-1] + edges[1:]) / 2
target = np.mean(((s - 1) * (mid - 0.5)) ** 2)     # the binned squared ECE (p uniform)

cover_set, cover_boot = [], []
for r in range(100):
    rng = pc.RRandom(500 + r)
    p = np.asarray(rng.runif(n))
    y = (np.asarray(rng.runif(n)) < 0.5 + s * (p - 0.5)).astype(int)
    res = pc.ece_ci(p, y, bins=bins, conf_level=0.9)
    cover_set.append(res.contains(target))
    boot = pc.cal_ci(p, y, metric="ece", debiased=True, bins=bins, conf_level=0.9, n_boot=99,
                     rng=pc.RRandom(900 + r), progress=False)
    cover_boot.append(boot.lower <= target <= boot.upper)
print(f"binned squared ECE {target:.5f}")
print(f"ece_ci coverage {np.mean(cover_set):.2f}, percentile bootstrap {np.mean(cover_boot):.2f}"
      " (nominal 0.90, 100 data sets: MC s.e. about 0.03)")

fig, ax = plt.subplots(figsize=(5, 3))
ax.bar(["ece_ci", "cal_ci bootstrap"], [np.mean(cover_set), np.mean(cover_boot)])
ax.axhline(0.9, color="grey", ls="--")
ax.set_ylim(0, 1)
ax.set_ylabel("coverage")
plt.show()

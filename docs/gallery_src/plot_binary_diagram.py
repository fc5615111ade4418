"""
Binary reliability diagram
==========================

An over-confident model's reliability diagram, its ECE and a calibration
test, then the same after Platt scaling fitted on a separate half.
"""
import numpy as np
import matplotlib.pyplot as plt
import pycalib_r as pc

pc.set_seed(2024)
n = 4000
q = pc.runif(n, 0.05, 0.95)                      # the true probabilities
y = pc.rbinom(n, 1, q)
logit = np.log(q / (1 - q))
p = 1 / (1 + np.exp(-1.6 * logit))               # over-confident predictions

print(f"ECE before: {pc.ece(p, y, bins=15):.4f}")
print(pc.cal_test(p, y, method="block"))

fit = pc.cal_platt(p[: n // 2], y[: n // 2])
p_cal = pc.predict(fit, p[n // 2:])
print(f"ECE after Platt scaling (held-out half): {pc.ece(p_cal, y[n // 2:], bins=15):.4f}")

_ = pc.reliability_diagram({"raw": p[n // 2:], "Platt": p_cal}, y[n // 2:], bins=15)
plt.show()

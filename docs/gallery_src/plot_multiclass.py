"""
Multiclass: confidence and classwise diagrams, temperature scaling
==================================================================

A 4-class model whose logits are twice what they should be, calibrated by
temperature scaling (fitted on one half, checked on the other).
"""
import numpy as np
import matplotlib.pyplot as plt
import pycalib_r as pc

gen = np.random.default_rng(7)
n, k = 4000, 4
true_logits = gen.normal(size=(n, k)) * 1.2
probs = np.exp(true_logits) / np.exp(true_logits).sum(axis=1, keepdims=True)
y = (np.cumsum(probs, axis=1) < gen.uniform(size=n)[:, None]).sum(axis=1) + 1
logits = 2.0 * true_logits
P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)

print(f"confidence ECE: {pc.ece(P, y, type='confidence'):.4f}")
print(f"classwise ECE:  {pc.ece(P, y):.4f}")
fit = pc.cal_temperature(logits[: n // 2], y[: n // 2])
print(fit)
P_cal = pc.predict(fit, logits[n // 2:])
print(f"confidence ECE after temperature scaling: {pc.ece(P_cal, y[n // 2:], type='confidence'):.4f}")

_ = pc.reliability_diagram(P_cal, y[n // 2:], type="confidence", bins=10)
plt.show()

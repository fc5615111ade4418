"""port.R in Python (docs/migrating-from-r.md). Run: python docs/examples/port.py"""
import numpy as np
import pandas as pd

import pycalib_r as pc

pc.set_seed(2024)
n, k = 600, 3
scores = pc.rnorm(n * k).reshape((n, k), order="F")  # R's matrix() fills by column
truth = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
u = pc.runif(n)
codes = 1 + (u > truth[:, 0]) + (u > truth[:, 0] + truth[:, 1])
y = pd.Categorical(np.array(["cat", "dog", "fox"])[codes - 1],
                   categories=["cat", "dog", "fox"])
logits = 2 * scores  # an over-confident model
prob = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)

fit_rows = slice(0, 400)  # R's 1:400
new_rows = slice(400, 600)  # R's 401:600
print(f"{pc.ece(prob[new_rows], y[new_rows]):.7g}")
print(f"{pc.ece(prob[new_rows], y[new_rows], type='confidence'):.7g}")

fit = pc.cal_temperature(logits[fit_rows], y[fit_rows])
print(fit)
print(f"{fit.temperature:.7g}")
cal = pc.predict(fit, logits[new_rows])
print(f"{pc.ece(cal, y[new_rows], type='confidence'):.7g}")

res = pc.cal_test(cal, y[new_rows], n_boot=199, data_name="cal and y[new_rows]")
print(res)
print(res.p_value)

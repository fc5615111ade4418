"""
A test's power: asymptotic, block and bootstrap
===============================================

How often three calibration tests reject an over-confident model (its
logit 1.25 times the truth) as n grows, over 40 data sets per point. The
full study with its Monte Carlo errors is ``tools/power_study.py``.
"""
import numpy as np
import matplotlib.pyplot as plt
import pycalib_r as pc


def draw(n, gen, scale=1.25):
    q = gen.uniform(0.05, 0.95, n)
    y = (gen.uniform(size=n) < q).astype(int)
    return 1 / (1 + np.exp(-scale * np.log(q / (1 - q)))), y


gen = np.random.default_rng(3)
sizes = [500, 1000, 2000, 5000]
tests = {
    "asymptotic (SKCE_ul)": dict(method="asymptotic"),
    "block (auto)": dict(method="block"),
    "bootstrap (SKCE_uq, 99)": dict(n_boot=99, progress=False),
}
power = {name: [] for name in tests}
for n in sizes:
    data = [draw(n, gen) for _ in range(40)]
    for name, args in tests.items():
        power[name].append(np.mean([pc.cal_test(p, y, rng=i, **args).p_value < 0.05
                                    for i, (p, y) in enumerate(data)]))
    print(n, {name: round(float(v[-1]), 3) for name, v in power.items()})

fig, ax = plt.subplots(figsize=(6, 4))
for name, values in power.items():
    ax.plot(sizes, values, marker="o", label=name)
ax.axhline(0.05, color="grey", lw=0.8, ls=":")
ax.set_xscale("log")
ax.set_xlabel("n")
ax.set_ylabel("rejection rate at 5%")
ax.legend()
plt.show()

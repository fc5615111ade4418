"""
Calibration on Dask: a local cluster
====================================

The same metrics, test and calibrator on a Dask array split into chunks,
computed on a local cluster (threads, so the example stays light), and
checked against the in-memory results.
"""
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import matplotlib.pyplot as plt
import pycalib_r as pc
import pycalib_r.dask as pcd

pc.set_seed(5)
n = 200_000
p = pc.runif(n)
y = pc.rbinom(n, 1, np.clip(p + 0.05, 0, 1))

with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                  dashboard_address=None) as cluster, Client(cluster):
    dp, dy = da.from_array(p, chunks=25_000), da.from_array(y, chunks=25_000)
    print(f"ECE on Dask {pcd.ece(dp, dy):.10f}, in memory {pc.ece(p, y):.10f}")
    print(pcd.cal_test(dp, dy, method="asymptotic"))
    fit = pcd.cal_platt(dp, dy)
    print(fit)
    calibrated = pc.predict(fit, dp).compute()
print(f"ECE after Platt scaling: {pc.ece(calibrated, y):.4f}")

_ = pc.reliability_diagram({"raw": p, "Platt": calibrated}, y)
plt.show()

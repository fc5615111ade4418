"""Cases comparing pycalib_r with Kumar, Liang & Ma's package (``uncertainty-calibration``).

Shared by tests/binned/test_kumar_crosscheck.py (live when ``calibration`` is
importable, else the values stored by ``python tools/make_kumar_fixture.py``
in reference/kumar_crosscheck.json) and tools/kumar_holdout.py (fresh data
sets). The data come from pycalib_r's R-compatible stream, so a seed
rebuilds them without the package.

The authors' bins are right-closed, pycalib_r's left-closed: the data are
continuous draws, so no prediction lies on a bin edge (checked by
:func:`edge_free`), and the two binnings are the same partition.
"""

from __future__ import annotations

import numpy as np

import pycalib_r as pc
from pycalib_r.binned._binning import equal_mass_edges, seq01

N, K, N_NEW, BINS, SB_BINS = 600, 5, 300, 15, 10

# Where the definitions coincide the values agree to rounding; the
# scaling-binning pipelines differ by the Platt step's optimisers
# (scikit-learn's L-BFGS stops at tol=1e-4, R's IRLS at 1e-8 in deviance).
EXACT_RTOL = 1e-12
OPTIMISER_ATOL = 2e-3


def make_data(seed: int, n: int = N, k: int = K, n_new: int = N_NEW):
    """Binary and K-class data: an overconfident model of a known truth."""
    pc.set_seed(seed)
    s = np.asarray(pc.rnorm(n + n_new))
    p = 1 / (1 + np.exp(-1.8 * s))
    y = np.asarray(pc.rbinom(n + n_new, 1, 1 / (1 + np.exp(-s))), dtype=np.int64)
    z = np.reshape(np.asarray(pc.rnorm((n + n_new) * k)), (n + n_new, k), order="F") * 1.5
    q = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    u = np.asarray(pc.runif(n + n_new))
    codes = (np.cumsum(q, axis=1) < u[:, None]).sum(axis=1) + 1
    codes = np.minimum(codes, k)
    P = np.exp(1.7 * z) / np.exp(1.7 * z).sum(axis=1, keepdims=True)
    return {"p": p[:n], "y": y[:n], "p_new": p[n:], "P": P[:n], "codes": codes[:n],
            "P_new": P[n:]}


def binned(x):
    """Predictions rounded to twentieths: a binned model's outputs."""
    return np.round(np.asarray(x) * 20) / 20


def edge_free(d) -> bool:
    """No prediction lies on an inner edge of the bins used (so right- and
    left-closed bins coincide)."""
    cols = [d["p"]] + [d["P"][:, j] for j in range(d["P"].shape[1])] + [d["P"].max(axis=1)]
    for x in cols:
        for edges in (equal_mass_edges(x, BINS), seq01(BINS + 1)):
            if np.isin(x, edges[1:-1]).any():
                return False
    return True


def _inputs(d):
    """(name, probs, pycalib_r labels, authors' labels, type) of every problem."""
    P, codes = d["P"], d["codes"]
    return [("binary", d["p"], d["y"], d["y"], "marginal"),
            ("marginal", P, codes, codes - 1, "marginal"),
            ("top", P, codes, codes - 1, "top")]


_NORMS = [("p1_plugin", 1, False), ("p2_plugin", 2, False), ("p2_debiased", 2, True),
          ("p3_plugin", 3, False)]


def ours(d, stages=None):
    """pycalib_r's values, by case name."""
    out = {}
    for name, probs, labels, _, type in _inputs(d):
        for tag, norm, deb in _NORMS:
            out[f"scaling_ce/{name}/{tag}"] = pc.calibration_error(
                probs, labels, norm=norm, bins=BINS, strategy="equal_mass", debiased=deb, type=type)
            if norm < 3:
                out[f"binning_ce/{name}/{tag}"] = pc.calibration_error(
                    binned(probs), labels, norm=norm, bins="unique", debiased=deb, type=type)
        out[f"ece_equal_width/{name}"] = pc.calibration_error(
            probs, labels, norm=1, bins=BINS, strategy="equal_width", debiased=False, type=type)
    out["mse/top"] = pc.brier_score(d["P"], d["codes"], type="top").brier
    out["mse/marginal_half"] = pc.brier_score(d["P"], d["codes"]).brier / 2
    fit = pc.cal_scaling_binning(d["p"], d["y"], bins=SB_BINS)
    out["platt_binner/binary"] = np.asarray(pc.predict(fit, d["p_new"]))
    fit = pc.cal_scaling_binning(d["P"], d["codes"], bins=SB_BINS)
    out["platt_binner/marginal"] = np.asarray(pc.predict(fit, d["P_new"]))
    fit = pc.cal_scaling_binning(d["P"], d["codes"], bins=SB_BINS, type="top")
    out["platt_binner/top"] = np.asarray(pc.predict(fit, d["P_new"]))
    if stages is not None:
        # The binning step alone, on the authors' Platt outputs.
        fit = pc.cal_scaling_binning(stages["z"], d["y"], bins=SB_BINS, scaling="none")
        out["binner_step/binary"] = np.asarray(pc.predict(fit, stages["z_new"]))
        cols = []
        for j in range(d["P"].shape[1]):
            y_j = (d["codes"] == j + 1).astype(np.int64)
            fit = pc.cal_scaling_binning(stages["Z"][:, j], y_j, bins=SB_BINS, scaling="none")
            cols.append(np.asarray(pc.predict(fit, stages["Z_new"][:, j])))
        out["binner_step/marginal"] = np.column_stack(cols)
    return out


def authors(d, calibration):
    """The authors' values for the same cases, and their Platt outputs (stages)."""
    u = calibration.utils
    out = {}
    for name, probs, _, labels, type in _inputs(d):
        mode = "top-label" if type == "top" else "marginal"
        for tag, norm, deb in _NORMS:
            out[f"scaling_ce/{name}/{tag}"] = float(u.lower_bound_scaling_ce(
                probs, labels, p=norm, debias=deb, num_bins=BINS, mode=mode))
            if norm < 3:
                out[f"binning_ce/{name}/{tag}"] = float(u.get_binning_ce(
                    binned(probs), labels, p=norm, debias=deb, mode=mode))
        out[f"ece_equal_width/{name}"] = float(u.get_ece(probs, labels, num_bins=BINS, mode=mode))
    labels0 = d["codes"] - 1
    out["mse/top"] = float(u.eval_top_mse(u.get_top_probs(d["P"]), d["P"], labels0))
    out["mse/marginal_half"] = float(u.eval_marginal_mse(d["P"], d["P"], labels0))
    cal = calibration.PlattBinnerCalibrator(N, SB_BINS)
    cal.train_calibration(d["p"], d["y"])
    out["platt_binner/binary"] = np.asarray(cal.calibrate(d["p_new"]))
    cal = calibration.PlattBinnerMarginalCalibrator(N, SB_BINS)
    cal.train_calibration(d["P"], labels0)
    out["platt_binner/marginal"] = np.asarray(cal.calibrate(d["P_new"]))
    cal = calibration.PlattBinnerTopCalibrator(N, SB_BINS)
    cal.train_calibration(d["P"], labels0)
    out["platt_binner/top"] = np.asarray(cal.calibrate(d["P_new"]))
    # Their Platt step's outputs, and their binning step on them.
    platt = u.get_platt_scaler(d["p"], d["y"])
    z, z_new = platt(d["p"]), platt(d["p_new"])
    out["binner_step/binary"] = u.get_discrete_calibrator(z, u.get_equal_bins(z, SB_BINS))(z_new)
    Z, Z_new, cols = [], [], []
    for j in range(d["P"].shape[1]):
        platt = u.get_platt_scaler(d["P"][:, j], (labels0 == j).astype(np.int64))
        zj, zj_new = platt(d["P"][:, j]), platt(d["P_new"][:, j])
        Z.append(zj)
        Z_new.append(zj_new)
        cols.append(u.get_discrete_calibrator(zj, u.get_equal_bins(zj, SB_BINS))(zj_new))
    out["binner_step/marginal"] = np.column_stack(cols)
    stages = {"z": z, "z_new": z_new, "Z": np.column_stack(Z), "Z_new": np.column_stack(Z_new)}
    return out, stages


def tolerance(name: str):
    """``(rtol, atol)`` of a case: exact where the definitions coincide."""
    if name.startswith("platt_binner/"):
        return 0.0, OPTIMISER_ATOL
    return EXACT_RTOL, 1e-15


def differences(a, b):
    """Per case: the largest absolute difference, and the relative one."""
    out = {}
    for name in sorted(a):
        x, y = np.asarray(a[name], dtype=float), np.asarray(b[name], dtype=float)
        diff = float(np.max(np.abs(x - y)))
        scale = float(np.max(np.abs(y))) or 1.0
        out[name] = (diff, diff / scale)
    return out


def negative_classes(d) -> int:
    """Classes whose debiased squared l2 is negative (the authors clip each at 0,
    pycalib_r sums before clipping: the marginal p2_debiased cases then differ)."""
    count = 0
    for j in range(d["P"].shape[1]):
        y_j = (d["codes"] == j + 1).astype(np.int64)
        for x, bins in ((d["P"][:, j], BINS), (binned(d["P"][:, j]), "unique")):
            if pc.calibration_error(x, y_j, bins=bins, squared=True) < 0:
                count += 1
    return count

"""Cases where pycalib_r's verified-calibration functions once left the authors' package.

Shared by tests/suites/hostile/test_kumar_traps.py (live when ``calibration`` from
``uncertainty-calibration`` is importable, else the values stored by
``python tools/make_kumar_traps_fixture.py`` in reference/kumar_traps.json).
The data come from pycalib_r's R-compatible stream, so a seed rebuilds them
without the package.

- Debiased l_p for p != 2 (issue 45, item 5): the authors'
  ``normal_debiased_ce`` returns ``2 E - mean(E*)`` unclipped. Their normal
  draws (``np.random.normal(loc, scale)``, one per bin and resample, bins
  fastest) are replaced, while they run, by draws of pycalib_r's stream
  with the same seed, so the two compute the same numbers from the same
  draws and agree to rounding.
- ``bins="auto"`` (item 13): the authors' ``get_calibration_error`` (one bin
  per distinct value when every column holds fewer than n/4 of them, else 15
  uniform-mass bins) on tied predictions, continuous ones, and the
  marginal and top-label forms.
"""

from __future__ import annotations

import contextlib

import numpy as np

import pycalib_r as pc

# (name, data seed, draws seed, norm, bins, form)
DEBIASED = [
    ("binary_l1_n40_4bins", 3, 3, 1, 4, "binary"),
    ("binary_l3_n40_4bins", 3, 3, 3, 4, "binary"),
    ("binary_l1_n200_10bins", 11, 5, 1, 10, "binary"),
    ("marginal_l1_k10_n20_2bins", 1, 8, 1, 2, "marginal"),
    ("marginal_l1_k4_n60_3bins", 2, 9, 1, 3, "marginal"),
    ("top_l1_k4_n60_3bins", 2, 9, 1, 3, "top"),
]
# (name, data seed, kind, norm, debiased, form)
AUTO = [
    ("rounded_tenths_l2", 21, "rounded", 2, True, "binary"),
    ("rounded_tenths_l1_plugin", 21, "rounded", 1, False, "binary"),
    ("forest_like_l2", 22, "forest", 2, True, "binary"),
    ("forest_like_l2_plugin", 22, "forest", 2, False, "binary"),
    ("continuous_l2", 23, "continuous", 2, True, "binary"),
    ("continuous_l3_plugin", 23, "continuous", 3, False, "binary"),
    ("rounded_marginal_l2", 24, "rounded", 2, False, "marginal"),
    ("rounded_top_l2", 24, "rounded", 2, True, "top"),
    ("continuous_marginal_l2_plugin", 25, "continuous", 2, False, "marginal"),
]


def binary_data(seed, n):
    pc.set_seed(seed)
    p = np.asarray(pc.runif(n))
    return p, np.asarray(pc.rbinom(n, 1, p), dtype=np.int64)


def multiclass_data(seed, n, k):
    """Softmax of normal scores; labels drawn from a flatter softmax (codes 1..k)."""
    pc.set_seed(seed)
    z = np.reshape(np.asarray(pc.rnorm(n * k)), (n, k), order="F")
    q = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    u = np.asarray(pc.runif(n))
    codes = np.minimum((np.cumsum(q, axis=1) < u[:, None]).sum(axis=1), k - 1) + 1
    P = np.exp(1.6 * z) / np.exp(1.6 * z).sum(axis=1, keepdims=True)
    return P, codes.astype(np.int64)


def debiased_data(case):
    name, seed, _, _, _, form = case
    if form == "binary":
        return binary_data(seed, int(name.split("_n")[1].split("_")[0]))
    k = int(name.split("_k")[1].split("_")[0])
    n = int(name.split("_n")[1].split("_")[0])
    return multiclass_data(seed, n, k)


def auto_data(case):
    """Tied predictions: rounded to tenths, or a forest-like model's (the
    mean of 25 trees' leaf frequencies, each leaf 8 labels), or continuous."""
    name, seed, kind, _, _, form = case
    n = 400
    if form == "binary":
        p, y = binary_data(seed, n)
        if kind == "rounded":
            p = np.round(p * 10) / 10
        elif kind == "forest":
            # 25 trees' votes, each a leaf mean of 8 labels: values k/200.
            p = np.round(p * 200) / 200
            p = np.clip(np.round(p * 25) / 25, 0, 1)
        return p, y
    P, codes = multiclass_data(seed, n, 3)
    if kind == "rounded":
        P = np.round(P * 10) / 10
    return P, codes


@contextlib.contextmanager
def stream_normals(seed):
    """``np.random.normal(loc, scale)`` drawn from pycalib_r's stream (``seed``)
    while the authors' code runs: R's ``rnorm(b, loc, scale)``, the draws
    pycalib_r's debiased l_p takes."""
    real = np.random.normal
    pc.set_seed(seed)

    def normal(loc=0.0, scale=1.0, size=None):
        loc = np.asarray(loc, dtype=np.float64)
        scale = np.asarray(scale, dtype=np.float64)
        return np.asarray(pc.rnorm(loc.size, mean=loc.ravel(), sd=scale.ravel()),
                          dtype=np.float64).reshape(loc.shape)

    np.random.normal = normal
    try:
        yield
    finally:
        np.random.normal = real


def authors_debiased(case, calibration):
    name, _, draws, norm, bins, form = case
    p, y = debiased_data(case)
    mode = "top-label" if form == "top" else "marginal"
    labels = y if form == "binary" else y - 1
    with stream_normals(draws):
        return float(calibration.utils.lower_bound_scaling_ce(p, labels, p=norm, debias=True,
                                                              num_bins=bins, mode=mode))


def ours_debiased(case):
    name, _, draws, norm, bins, form = case
    p, y = debiased_data(case)
    pc.set_seed(draws)
    return pc.calibration_error(p, y, norm=norm, bins=bins,
                                type="top" if form == "top" else "marginal")


def authors_auto(case, calibration):
    name, _, _, norm, debiased, form = case
    p, y = auto_data(case)
    labels = y if form == "binary" else y - 1
    mode = "top-label" if form == "top" else "marginal"
    return float(calibration.utils.get_calibration_error(p, labels, p=norm, debias=debiased,
                                                         mode=mode))


def ours_auto(case):
    name, _, _, norm, debiased, form = case
    p, y = auto_data(case)
    return pc.calibration_error(p, y, norm=norm, bins="auto", debiased=debiased,
                                type="top" if form == "top" else "marginal")


def authors_values(calibration):
    out = {c[0]: authors_debiased(c, calibration) for c in DEBIASED}
    out.update({"auto/" + c[0]: authors_auto(c, calibration) for c in AUTO})
    return out

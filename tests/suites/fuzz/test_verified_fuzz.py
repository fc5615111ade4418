"""Fuzz pass over the verified-calibration functions and ece_ci (issue 46, "Deliver").

Every argument of ``calibration_error``, ``brier_score``,
``cal_scaling_binning`` and ``ece_ci`` gets non-finite, huge, negative,
wrong-type, empty and wrong-shape values, on binary and multiclass data.
Each call must either return (only where the value is a valid one: None
for a choice is R's first choice, a huge norm is a norm) or raise a
``ProbcalError`` whose message or note names the argument; nothing raw
(TypeError, IndexError, numpy's errors), and in bounded time. The huge
counts run in a child process limited to 2 GB of address space, with a
timeout, so a regression fails instead of hanging or swapping.
"""

from __future__ import annotations

import math
import textwrap
import time
import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.rbase._errors import ProbcalError
from tests.conftest import child_json

N = 200
BAD = {
    "nan": math.nan, "inf": math.inf, "-inf": -math.inf, "1e12": 10 ** 12, "1e300": 1e300,
    "-1": -1, "0": 0, "2.5": 2.5, "str": "x", "None": None, "empty": [], "pair": [1, 2],
    "matrix": np.ones((2, 2)), "true": True, "complex": complex(1, 0), "object": object(),
    "tiny_negative": -1e-300,
}
# (function, argument) -> the values of BAD that are valid there.
ACCEPTED = {
    ("calibration_error", "norm"): {"inf", "1e12", "1e300", "2.5"},
    ("calibration_error", "weights"): {"None"},
    ("calibration_error", "class_weights"): {"None"},
    ("calibration_error", "strategy"): {"None"},
    ("calibration_error", "type"): {"None"},
    ("calibration_error", "debiased"): {"true"},
    ("calibration_error", "squared"): {"true"},
    ("calibration_error", "rng"): {"None", "-1", "0"},     # int seeds
    ("brier_score", "type"): {"None"},
    ("brier_score", "weights"): {"None"},
    ("brier_score", "strategy"): {"None"},
    ("cal_scaling_binning", "type"): {"None"},
    ("cal_scaling_binning", "scaling"): {"None"},
    ("cal_scaling_binning", "split"): set(),
    ("cal_scaling_binning", "seed"): {"None", "-1", "0"},
    ("cal_scaling_binning", "rng"): {"None", "-1", "0"},
    ("cal_scaling_binning", "renormalize"): {"true"},
    ("ece_ci", "type"): {"None"},
    ("ece_ci", "edges"): {"None"},
}
ARGS = {
    "calibration_error": ["norm", "bins", "strategy", "debiased", "type", "weights", "squared",
                          "resamples", "rng", "class_weights"],
    "brier_score": ["type", "bins", "strategy", "weights"],
    "cal_scaling_binning": ["bins", "type", "scaling", "split", "renormalize", "seed", "rng"],
    "ece_ci": ["bins", "conf_level", "type", "top_k", "edges"],
}


def _data():
    g = pc.RRandom(3)
    p = np.asarray(g.runif(N))
    y = (np.asarray(g.runif(N)) < p).astype(np.int64)
    z = np.reshape(np.asarray(g.rnorm(N * 3)), (N, 3))
    P = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    return {"binary": (p, y), "matrix": (P, np.arange(N) % 3 + 1)}


DATA = _data()


def _names(err: BaseException, arg: str) -> bool:
    text = " ".join([str(err)] + list(getattr(err, "__notes__", [])))
    return f"`{arg}`" in text


def _call(fn, args, kw):
    tested = set(kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # split's permutation and the debiased draws: a fixed stream
        if "rng" not in kw and fn in (pc.calibration_error, pc.cal_scaling_binning):
            kw = dict(kw, rng=pc.RRandom(1))
        if fn is pc.calibration_error and tested & {"resamples", "rng"}:
            kw = dict(kw, norm=1)  # the debiased l1 draws: its resamples and rng are used
        return fn(*args, **kw)


CASES = [(f, a, b, form) for f, args in ARGS.items() for a in args for b in BAD
         for form in ("binary", "matrix")]


@pytest.mark.parametrize("function, arg, bad, form", CASES,
                         ids=[f"{f}-{a}-{b}-{form}" for f, a, b, form in CASES])
def test_every_argument_is_answered_by_name(function, arg, bad, form):
    fn = getattr(pc, function)
    start = time.perf_counter()
    try:
        out = _call(fn, DATA[form], {arg: BAD[bad]})
    except ProbcalError as err:
        assert _names(err, arg), (str(err), getattr(err, "__notes__", []))
    else:
        assert bad in ACCEPTED.get((function, arg), set()), f"accepted {bad!r}: {out!r}"[:300]
        if isinstance(out, float):
            assert math.isfinite(out)
    assert time.perf_counter() - start < 30


P_BAD = {
    "empty": np.array([]), "nan": "nan", "inf": "inf", "negative": "neg", "huge": "huge",
    "strings": np.array(["a"] * N), "3d": np.ones((2, 2, 2)), "short": "short", "None": None,
    "scalar": 0.5, "object": object(), "one_column": "one_column", "complex": "complex",
}


def _bad_p(kind, form):
    p, _ = DATA[form]
    v = P_BAD[kind]
    if not isinstance(v, str):
        return v
    q = np.array(p, dtype=np.float64)
    if kind == "short":
        return q[:10]
    if kind == "one_column":
        return q[:, :1] if q.ndim == 2 else q[:, None][:, :0]
    if kind == "complex":
        return q.astype(np.complex128)
    q.flat[0] = {"nan": math.nan, "inf": math.inf, "neg": -1.0, "huge": 1e300}[v]
    return q


Y_BAD = {"empty": np.array([]), "nan": "nan", "negative": "neg", "huge": "huge",
         "strings": np.array(["a"] * N), "matrix": np.ones((N, 2)), "short": "short", "None": None,
         "scalar": 1, "fraction": "fraction", "one_class": "one_class"}


def _bad_y(kind, form):
    _, y = DATA[form]
    v = Y_BAD[kind]
    if not isinstance(v, str):
        return v
    q = np.array(y, dtype=np.float64)
    if kind == "short":
        return q[:10]
    if kind == "one_class":
        return np.zeros(N) if form == "binary" else np.ones(N)
    q[0] = {"nan": math.nan, "neg": -1.0, "huge": 1e12, "fraction": 0.5}[v]
    return q


DATA_CASES = ([(f, "p", b, form) for f in ARGS for b in P_BAD for form in ("binary", "matrix")]
              + [(f, "y", b, form) for f in ARGS for b in Y_BAD for form in ("binary", "matrix")])


@pytest.mark.parametrize("function, arg, bad, form", DATA_CASES,
                         ids=[f"{f}-{a}-{b}-{form}" for f, a, b, form in DATA_CASES])
def test_bad_data_is_refused_by_name(function, arg, bad, form):
    fn = getattr(pc, function)
    p, y = DATA[form]
    args = (_bad_p(bad, form), y) if arg == "p" else (p, _bad_y(bad, form))
    try:
        out = _call(fn, args, {})
    except ProbcalError as err:
        assert _names(err, "p") or _names(err, "y"), (str(err), getattr(err, "__notes__", []))
    else:
        # one class only is a valid input of the metrics (not of the calibrator)
        assert bad == "one_class" and function != "cal_scaling_binning", f"{out!r}"[:300]


_CHILD = textwrap.dedent("""
    import json, resource, sys, time, warnings
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    warnings.simplefilter("ignore")
    import numpy as np
    import pycalib_r as pc

    g = pc.RRandom(3)
    n = 200
    p = np.asarray(g.runif(n))
    y = (np.asarray(g.runif(n)) < p).astype(np.int64)
    z = np.reshape(np.asarray(g.rnorm(n * 3)), (n, 3))
    P = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    codes = np.arange(n) % 3 + 1
    M = 2 ** 31 - 1
    cases = {
        "ce_bins_max": ("bins", lambda: pc.calibration_error(p, y, bins=M)),
        "ce_bins_max_width": ("bins", lambda: pc.calibration_error(p, y, bins=M, strategy="equal_width")),
        "ce_bins_max_freq": ("bins", lambda: pc.calibration_error(P, codes, bins=M, strategy="equal_freq")),
        "ce_bins_1e8_width": ("bins", lambda: pc.calibration_error(p, y, bins=10 ** 8,
                                                                  strategy="equal_width")),
        "ce_bins_2_31": ("bins", lambda: pc.calibration_error(p, y, bins=2 ** 31)),
        "ce_resamples_max": ("resamples", lambda: pc.calibration_error(p, y, norm=1, resamples=M)),
        "ce_resamples_max_matrix": ("resamples", lambda: pc.calibration_error(P, codes, norm=3, resamples=M)),
        "ce_resamples_1e12": ("resamples", lambda: pc.calibration_error(p, y, norm=1, resamples=10 ** 12)),
        "ce_norm_1e300_debiased": ("norm", lambda: pc.calibration_error(P, codes, norm=1e300, resamples=200)),
        "brier_bins_max": ("bins", lambda: pc.brier_score(p, y, bins=M)),
        "brier_bins_max_width": ("bins", lambda: pc.brier_score(P, codes, bins=M, strategy="equal_width")),
        "brier_bins_1e12": ("bins", lambda: pc.brier_score(p, y, bins=10 ** 12)),
        "sb_bins_max": ("bins", lambda: pc.cal_scaling_binning(P, codes, bins=M)),
        "sb_bins_1e12": ("bins", lambda: pc.cal_scaling_binning(p, y, bins=10 ** 12)),
        "sb_split_tiny": ("split", lambda: pc.cal_scaling_binning(p, y, split=[1e-300, 1, 1])),
        "eci_bins_max": ("bins", lambda: pc.ece_ci(p, y, bins=M)),
        "eci_bins_max_topk": ("bins", lambda: pc.ece_ci(P, codes, bins=M, type="topk", top_k=3)),
        "eci_bins_max_classwise": ("bins", lambda: pc.ece_ci(P, codes, bins=M, type="classwise")),
        "eci_bins_1e12": ("bins", lambda: pc.ece_ci(p, y, bins=10 ** 12)),
        "eci_top_k_max": ("top_k", lambda: pc.ece_ci(P, codes, type="topk", top_k=M)),
    }
    out = {}
    for name, (arg, fn) in cases.items():
        t = time.perf_counter()
        try:
            v = fn()
            res = ["value", float(v) if isinstance(v, float) else type(v).__name__]
        except BaseException as exc:
            text = " ".join([str(exc)] + list(getattr(exc, "__notes__", [])))
            res = [type(exc).__name__, text, arg]
        out[name] = res + [time.perf_counter() - t]
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def heavy():
    return child_json(_CHILD, timeout=600)


def test_huge_counts_are_bounded_and_named(heavy):
    for name, res in heavy.items():
        kind, seconds = res[0], res[-1]
        assert seconds < 60, (name, res)
        if kind == "value":
            continue
        text, arg = res[1], res[2]
        # ProbcalError naming the argument; or R's allocation error for R's
        # own edges (seq(0, 1, length.out = bins + 1)), whose note says "use fewer bins"
        assert kind in ("ProbcalError", "RAllocationError"), (name, res)
        assert f"`{arg}`" in text or (kind == "RAllocationError" and "fewer bins" in text), \
            (name, res)


def test_the_heavy_cases_answer_as_documented(heavy):
    assert heavy["ce_bins_max"][0] == "value"        # uniform-mass bins stop at n
    assert heavy["ce_resamples_max"][0] == "ProbcalError"
    assert "normal draws" in heavy["ce_resamples_max"][1]
    assert heavy["ce_bins_2_31"][1].startswith("Argument `bins` must be a single positive integer "
                                               "of at most 2147483647")
    assert heavy["eci_bins_max"][0] == "value"

"""Comparing a Python result with R's answer, number by number or byte by byte.

R's side arrives as the JSON that ``harness_json()`` (``pycalib_r/r/harness.R``)
writes: numbers at full precision, ``"NA"``/``"NaN"``/``"Inf"``/``"-Inf"``
for non-finite entries, ``{"matrix": rows}`` and ``{"data_frame": columns}``.
Used by :mod:`pycalib_r.rcheck` and by the package's own parity tests
(``tests/_rcall.py``); numpy and pandas only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["SPECIAL_NUMBERS", "Outcome", "as_array", "expected_array", "compare_numbers",
           "compare_frames", "first_difference"]

SPECIAL_NUMBERS = {"NA": math.nan, "NaN": math.nan, "Inf": math.inf, "-Inf": -math.inf}


def number_or_special(v):
    if isinstance(v, str):
        return SPECIAL_NUMBERS[v]
    return v


@dataclass
class Outcome:
    status: str                 # "pass", "fail", "missing", "harness"
    exact: bool = False
    max_abs: float = 0.0
    max_rel: float = 0.0
    detail: str = ""
    numeric: bool = False       # compared numbers (as opposed to text)


def as_array(x):
    """A Python result as a float/int/str numpy array for comparison."""
    import pandas as pd

    if isinstance(x, dict):
        x = list(x.values())
    if isinstance(x, (pd.Series, pd.Index)):
        x = x.to_numpy()
    if isinstance(x, pd.DataFrame):
        x = x.to_numpy()
    if isinstance(x, pd.Categorical):
        return np.asarray(x.astype(str))
    if isinstance(x, np.ma.MaskedArray):
        # R's integer vector with NA (the random functions' storage rule): NaN.
        return np.ma.filled(x.astype(np.float64), np.nan)
    arr = np.asarray(x)
    if arr.dtype == object and any(isinstance(v, str) for v in arr.ravel()):
        return arr.astype(str)
    if arr.dtype == object:
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError):
            arr = arr.astype(str)
    return arr


def expected_array(expected):
    if isinstance(expected, dict) and "matrix" in expected:
        return np.array([[number_or_special(v) for v in row] for row in expected["matrix"]], dtype=float)
    if isinstance(expected, list):
        if expected and all(isinstance(v, str) and v not in SPECIAL_NUMBERS for v in expected):
            return np.array(expected)
        return np.array([number_or_special(v) for v in expected], dtype=float)
    if isinstance(expected, str):
        if expected in SPECIAL_NUMBERS:
            return np.array(SPECIAL_NUMBERS[expected])
        return np.array(expected)
    if isinstance(expected, bool):
        return np.array(expected)
    return np.array(float(expected))


def compare_numbers(expected, actual, rtol: float, atol: float) -> Outcome:
    want = expected_array(expected)
    try:
        got = as_array(actual)
    except Exception as exc:  # noqa: BLE001
        return Outcome("fail", detail=f"result {type(actual).__name__} is not array-like: {exc}")
    if want.dtype.kind in "US" or got.dtype.kind in "US":
        ok = want.shape == got.shape and bool(np.all(want.astype(str) == got.astype(str)))
        return Outcome("pass" if ok else "fail", exact=ok,
                       detail="" if ok else f"expected {want.tolist()!r}, got {got.tolist()!r}")
    if got.dtype == bool:
        got = got.astype(float)
    if want.dtype == bool:
        want = want.astype(float)
    if want.ndim == 0 and got.ndim == 1 and got.size == 1:
        got = got.reshape(())
    if want.ndim == 1 and want.size == 1 and got.ndim == 0:
        got = got.reshape(1)
    if want.shape != got.shape:
        return Outcome("fail", numeric=True,
                       detail=f"shape: expected {want.shape}, got {got.shape} ({got.ravel()[:6]!r})")
    got = got.astype(float)
    want_nan = np.isnan(want)
    if not np.array_equal(want_nan, np.isnan(got)):
        return Outcome("fail", numeric=True, detail="missing values (NA) differ in position")
    w, g = want[~want_nan], got[~want_nan]
    same_inf = np.isinf(w) | np.isinf(g)
    if np.any(same_inf & (w != g)):
        return Outcome("fail", numeric=True, detail="infinite values differ")
    w, g = w[~same_inf], g[~same_inf]
    diff = np.abs(g - w)
    max_abs = float(diff.max()) if diff.size else 0.0
    nonzero = w != 0
    rel = diff[nonzero] / np.abs(w[nonzero])
    max_rel = float(rel.max()) if rel.size else (0.0 if max_abs == 0 else math.inf)
    ok = bool(np.all(diff <= atol + rtol * np.abs(w)))
    detail = ""
    if not ok:
        worst = int(np.argmax(diff - (atol + rtol * np.abs(w))))
        detail = (f"max abs diff {max_abs:.3g}, max rel diff {max_rel:.3g} > rtol {rtol:g}/atol {atol:g}"
                  f" (expected {w[worst]!r}, got {g[worst]!r})")
    return Outcome("pass" if ok else "fail", exact=max_abs == 0, max_abs=max_abs,
                   max_rel=max_rel, detail=detail, numeric=True)


def compare_frames(expected: dict, actual, rtol: float, atol: float) -> Outcome:
    import pandas as pd

    if not isinstance(actual, pd.DataFrame):
        return Outcome("fail", detail=f"expected a DataFrame, got {type(actual).__name__}")
    want_cols = list(expected["data_frame"])
    got_cols = [str(c) for c in actual.columns]
    if want_cols != got_cols:
        return Outcome("fail", detail=f"columns: expected {want_cols}, got {got_cols}")
    total = Outcome("pass", exact=True, numeric=True)
    for col in want_cols:
        column = actual[col]
        if isinstance(column.dtype, pd.CategoricalDtype):
            column = column.astype(str)
        out = compare_numbers(expected["data_frame"][col], column.to_numpy(), rtol, atol)
        if out.status != "pass":
            out.detail = f"column {col!r}: {out.detail}"
            return out
        total.exact = total.exact and out.exact
        total.max_abs = max(total.max_abs, out.max_abs)
        total.max_rel = max(total.max_rel, out.max_rel)
    return total


def first_difference(want: str, got: str) -> str:
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            line = want.count("\n", 0, i) + 1
            return (f"text differs at line {line}: expected {want.splitlines()[line - 1]!r}, "
                    f"got {got.splitlines()[line - 1] if line <= len(got.splitlines()) else ''!r}")
    return f"text lengths differ: expected {len(want)} chars, got {len(got)} (trailing {got[len(want):]!r}{want[len(got):]!r})"

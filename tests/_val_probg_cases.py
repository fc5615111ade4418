"""Cases for ``val_prob(group=, weights=)`` and R's ``loess``: data, pycalib_r's side, comparison.

``case(cid)`` draws a reproducible data set from its id: ``p`` (uniform,
tied, skewed, with exact 0s and 1s, narrow), ``y``, a group (``True``,
character, logical, numeric continuous or tied - cut by ``cut2`` -, or a
factor with its own level order), weights (ones or unequal), ``normwt``,
``g_group``, ``evaluate`` and ``nmin``. ``loess_case(cid)`` draws a loess
problem (n from 1, ties, duplicated x, unequal weights, span below and
above 1, degree 0/1/2, both surfaces). R's side is reference/r/validation.R
(``validation_val_probg_json``, ``validation_loess_json``); ``compare_*``
list the differences: every statistic, quantile and curve point bit for bit
(tolerance 0), printed text and warnings byte for byte.

``Diffs.singular`` counts the cases where R stops with ``solve()``'s "system
is computationally singular: reciprocal condition number = ..." (LAPACK's
``dgecon`` estimate, which the package takes as the exact 1-norm of the 2 x 2
inverse): compared like the others.
"""

from __future__ import annotations

import hashlib
import json
import math
import random

import numpy as np

from pycalib_r.rstats._loess import loess_fitted
from pycalib_r.diagnostics._validation import val_prob as _exported

# The function beneath the Python face: R's warnings one by one, as R gives them.
val_prob = _exported._plain

from ._validation_cases import _num, _try as _caught

# Relative tolerance of every number (measured: 0, the port is bit-equal).
TOLERANCE = 0.0


def case(cid: int) -> dict:
    g = random.Random(15485863 * cid + 11)
    n = g.choice([4, 6, 10, 20, 37, 60, 101, 150, 250, 400, 800])
    style = g.choice(["uniform", "ties1", "ties2", "skew", "edges", "narrow"])
    u = np.array([g.random() for _ in range(n)])
    if style == "ties1":
        p = np.clip(np.round(u, 1), 0.05, 0.95)
    elif style == "ties2":
        p = np.round(u, 2)
    elif style == "skew":
        p = u ** g.choice([0.3, 2.0, 4.0])
    elif style == "edges":
        p = u.copy()
        p[: max(1, n // 10)] = [g.choice([0.0, 1.0]) for _ in range(max(1, n // 10))]
    else:
        p = 0.3 + 0.4 * u
    power = g.choice([1.0, 0.6, 1.5, 3.0])
    y = np.array([1.0 if g.random() < min(max(t, 0.0), 1.0) ** power else 0.0 for t in p])
    kind = g.choice(["true", "character", "logical", "numeric", "numeric_ties", "factor"])
    levels = []
    if kind == "true":
        values = []
    elif kind == "character":
        k = g.choice([1, 2, 3, 4])
        values = [g.choice("abcd"[:k]) for _ in range(n)]
    elif kind == "logical":
        values = [g.random() < 0.5 for _ in range(n)]
    elif kind == "numeric":
        values = [g.gauss(0, 1) * 10 ** g.choice([-3, 0, 2]) for _ in range(n)]
    elif kind == "numeric_ties":
        values = [float(g.randint(1, g.choice([2, 3, 6, 12]))) for _ in range(n)]
    else:
        k = g.choice([2, 3])
        levels = g.sample(["x", "b", "m"][:k], k)
        values = [g.choice(levels) for _ in range(n)]
    weights = (np.ones(n) if g.random() < 0.4
               else np.array([g.choice([0.5, 1.0, 2.0, 3.7]) * g.random() + 0.1 for _ in range(n)]))
    return {"id": cid, "p": p, "y": y, "kind": kind, "values": values, "levels": levels,
            "weights": weights, "normwt": g.random() < 0.3, "g_group": g.choice([2, 3, 4, 4, 5]),
            "evaluate": g.choice([100, 100, 20, 7]), "nmin": g.choice([0, 0, 0, 2, 5])}


def group_arg(c: dict):
    """The case's group as a Python caller passes it."""
    import pandas as pd
    kind, values = c["kind"], c["values"]
    if kind == "true":
        return True
    if kind == "character":
        return np.array(values, dtype=object)
    if kind == "logical":
        return np.array(values, dtype=bool)
    if kind in ("numeric", "numeric_ties"):
        return np.array(values, dtype=np.float64)
    return pd.Categorical(values, categories=c["levels"])


def inputs_sha256(c: dict) -> str:
    h = hashlib.sha256()
    for key in ("p", "y", "weights"):
        h.update(np.ascontiguousarray(c[key], dtype=np.float64).tobytes())
    h.update(repr((c["kind"], [str(v) for v in c["values"]], c["levels"], c["normwt"],
                   c["g_group"], c["evaluate"], c["nmin"])).encode())
    return h.hexdigest()


def python_side(c: dict) -> dict:
    def run():
        r = val_prob(c["p"], c["y"], group=group_arg(c), weights=c["weights"],
                     normwt=c["normwt"], g_group=c["g_group"], evaluate=c["evaluate"],
                     nmin=c["nmin"])
        return {"rows": r.row_names, "stats": r.stats_array().tolist(),
                "quantiles": r.quantiles_array().tolist(),
                "curves": [{"x": list(cx), "y": list(cy)} for cx, cy in r.cal_curves.values()],
                "printed": str(r)}
    return _caught(run)


def r_json(ro, c: dict) -> dict:
    from rpy2.robjects import BoolVector, FloatVector, StrVector
    kind = "numeric" if c["kind"] == "numeric_ties" else c["kind"]
    if kind == "logical":
        values = BoolVector(c["values"])
    elif kind == "numeric":
        values = FloatVector(c["values"])
    else:
        values = StrVector([str(v) for v in c["values"]])
    out = ro.r["validation_val_probg_json"](
        FloatVector(c["p"]), FloatVector(c["y"]), kind, values, StrVector(c["levels"]),
        FloatVector(c["weights"]), bool(c["normwt"]), c["g_group"], c["evaluate"], c["nmin"])
    return json.loads(out[0])


def _rows(v):
    """R's matrix (``{"matrix": rows}``) or list of rows as floats."""
    if isinstance(v, dict):
        v = v["matrix"]
    return [[_num(x) for x in (row if isinstance(row, list) else [row])] for row in v]


_SINGULAR = "system is computationally singular: reciprocal condition number = "


class Diffs:
    def __init__(self):
        self.items = []
        self.largest = 0.0
        self.numbers = 0
        self.singular = 0

    def num(self, where, a, b):
        a, b = _num(a), _num(b)
        self.numbers += 1
        if math.isnan(a) or math.isnan(b):
            if not (math.isnan(a) and math.isnan(b)):
                self.items.append(f"{where}: python {a!r} R {b!r}")
            return
        if a == b:
            return
        rel = abs(a - b) / abs(b) if b else abs(a - b)
        self.largest = max(self.largest, rel)
        if rel > TOLERANCE:
            self.items.append(f"{where}: python {a!r} R {b!r}")

    def text(self, where, a, b):
        if a != b:
            self.items.append(f"{where}: python {a!r} R {b!r}")


def compare(py: dict, r: dict, diffs: Diffs, label: str) -> None:
    if str(r.get("error", "")).startswith(_SINGULAR):
        diffs.singular += 1
    diffs.text(label + " warnings", py["warnings"], r["warnings"])
    if "error" in py or "error" in r:
        diffs.text(label + " error", py.get("error"), r.get("error"))
        return
    rows = r["rows"] if isinstance(r["rows"], list) else [r["rows"]]
    diffs.text(label + " rows", py["rows"], rows)
    for part in ("stats", "quantiles"):
        a, b = _rows(py[part]), _rows(r[part])
        if len(a) != len(b):
            diffs.text(f"{label} {part} shape", len(a), len(b))
            continue
        for i, (ra, rb) in enumerate(zip(a, b)):
            for j, (x, y) in enumerate(zip(ra, rb)):
                diffs.num(f"{label} {part}[{i},{j}]", x, y)
    rc = r["curves"] if isinstance(r["curves"], list) else [r["curves"]]
    for k, (ca, cb) in enumerate(zip(py["curves"], rc)):
        for axis in ("x", "y"):
            xa = ca[axis]
            xb = cb[axis] if isinstance(cb[axis], list) else [cb[axis]]
            if len(xa) != len(xb):
                diffs.text(f"{label} curve {k} {axis} length", len(xa), len(xb))
                continue
            for i, (x, y) in enumerate(zip(xa, xb)):
                diffs.num(f"{label} curve {k} {axis}[{i}]", x, y)
    diffs.text(label + " printed", py["printed"], r["printed"])


# ---------------------------------------------------------------------------
# loess

def loess_case(cid: int) -> dict:
    g = random.Random(32452843 * cid + 5)
    n = g.choice([1, 2, 3, 4, 5, 7, 12, 30, 80, 200, 500])
    style = g.choice(["uniform", "ties", "dup", "normal"])
    x = np.array([g.random() for _ in range(n)])
    if style == "ties":
        x = np.round(x * 10) / 10
    elif style == "dup":
        x[: n // 2] = x[0]
    elif style == "normal":
        x = np.array([g.gauss(0, 3) for _ in range(n)])
    y = np.array([g.gauss(0, 1) if g.random() < 0.5 else float(g.random() < 0.5) for _ in range(n)])
    w = np.ones(n) if g.random() < 0.5 else np.array([g.random() * 3 + 0.05 for _ in range(n)])
    return {"id": cid, "x": x, "y": y, "w": w,
            "span": g.choice([2 / 3, 0.3, 0.75, 0.9, 1.0, 1.6]),
            "degree": g.choice([0, 1, 1, 2]),
            "surface": g.choice(["interpolate", "interpolate", "direct"]),
            "cell": g.choice([0.13333, 0.2])}


def loess_python(c: dict) -> dict:
    return _caught(lambda: {"fitted": list(loess_fitted(c["x"], c["y"], c["w"], c["span"],
                                                         c["degree"], c["surface"], c["cell"]))})


def loess_r(ro, c: dict) -> dict:
    from rpy2.robjects import FloatVector
    return json.loads(ro.r["validation_loess_json"](FloatVector(c["x"]), FloatVector(c["y"]),
                                                    FloatVector(c["w"]), c["span"], c["degree"],
                                                    c["surface"], c["cell"])[0])


def loess_sha256(c: dict) -> str:
    h = hashlib.sha256()
    for key in ("x", "y", "w"):
        h.update(np.ascontiguousarray(c[key], dtype=np.float64).tobytes())
    h.update(repr((c["span"], c["degree"], c["surface"], c["cell"])).encode())
    return h.hexdigest()


def compare_loess(py: dict, r: dict, diffs: Diffs, label: str) -> None:
    diffs.text(label + " warnings", py["warnings"], r["warnings"])
    if "error" in py or "error" in r:
        diffs.text(label + " error", py.get("error"), r.get("error"))
        return
    fb = r["fitted"] if isinstance(r["fitted"], list) else [r["fitted"]]
    if len(py["fitted"]) != len(fb):
        diffs.text(label + " length", len(py["fitted"]), len(fb))
        return
    for i, (a, b) in enumerate(zip(py["fitted"], fb)):
        diffs.num(f"{label} fitted[{i}]", a, b)

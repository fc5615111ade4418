"""Cases for the validation parity checks: data sets, pycalib_r's side, comparison.

A case is reproducible from its id: ``case(cid)`` draws ``p`` (uniform, ties,
skewed, exact 0s and 1s, all equal, or near-duplicates a few ulps apart),
``y`` (from ``p`` or a miscalibrated ``p``), the number of groups ``g`` of
the Hosmer-Lemeshow test, a confidence level and lowess's ``f`` and ``iter``.
``python_side`` evaluates them with pycalib_r in the layout R's
``validation_case`` (reference/r/validation.R) returns; ``compare`` lists the
differences beyond ``TOLERANCE``.
"""

from __future__ import annotations

import math
import random
import warnings

import numpy as np

import pycalib_r as pc
from pycalib_r.rstats._lowess import lowess

# What is compared how:
#  - exact: bit for bit (every val.prob statistic but the p-values, hoslem's
#    statistic and counts, lowess, glm estimates when IRLS takes R's steps);
#  - pchisq: 1 - pchisq(q, df), R's nmath pgamma ported bit for bit
#    (pycalib_r/rstats/_gamma_dist.py, tests/rstats/test_nmath_gamma.py): exact;
#  - wald/profile: standard errors from chol2inv (LAPACK on R) and the
#    profile's spline: relative 1e-12 (measured: see the tests' printout).
TOLERANCE = {"exact": (0.0, 0.0), "pchisq": (0.0, 0.0),
             "close": (1e-12, 1e-15)}
PVALUE_NAMES = {"U:p"}


def _ulps(x, k):
    out = np.asarray(x, dtype=float).copy()
    for _ in range(k):
        out = np.nextafter(out, 2.0)
    return np.minimum(out, 1.0)


def case(cid: int) -> dict:
    g = random.Random(7919 * cid + 17)
    n = g.choice([3, 5, 8, 12, 20, 37, 50, 100, 150, 200, 333, 500, 1000, 2500])
    style = g.choice(["uniform", "ties1", "ties2", "skew", "edges", "near", "constant", "narrow"])
    u = np.array([g.random() for _ in range(n)])
    if style == "ties1":
        p = np.round(u, 1)
        p = np.clip(p, 0.05, 0.95) if g.random() < 0.7 else p
    elif style == "ties2":
        p = np.round(u, 2)
    elif style == "skew":
        p = u ** g.choice([0.3, 2.0, 4.0])
    elif style == "edges":
        p = u.copy()
        k = max(1, n // 10)
        p[:k] = [g.choice([0.0, 1.0]) for _ in range(k)]
    elif style == "near":
        p = u.copy()
        idx = list(range(0, n, 3))
        p[idx] = _ulps(p[idx], g.randint(1, 4))
    elif style == "constant":
        p = np.full(n, round(g.random(), 3))
    else:
        p = 0.4 + 0.2 * u
    power = g.choice([1.0, 1.0, 0.6, 1.5, 3.0])
    truth = np.clip(p, 0, 1) ** power
    y = np.array([1.0 if g.random() < t else 0.0 for t in truth])
    if g.random() < 0.05:
        y[:] = y[0]  # one outcome only: R's error
    return {"id": cid, "p": p, "y": y, "g": g.choice([2, 3, 4, 5, 8, 10, 10, 10, 12, 20]),
            "conf_level": g.choice([0.95, 0.95, 0.9, 0.99, 0.8]),
            "f": g.choice([2 / 3, 2 / 3, 0.3, 0.9]), "iter": g.choice([0, 0, 1, 3])}


def _try(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn()
        except Exception as exc:  # noqa: BLE001 - the message is compared
            out = {"error": str(exc)}
    out["warnings"] = [str(w.message) for w in caught
                       if issubclass(w.category, (UserWarning, RuntimeWarning))]
    return out


def python_side(c: dict) -> dict:
    p, y = c["p"], c["y"]

    def vp():
        v = pc.val_prob(p, y)
        return {"names": ["NA" if k is None else k for k in v.keys()],
                "values": list(v.values()), "printed": str(v)}

    def hl():
        h = pc.hoslem_test(y, p, g=c["g"], data_name="y, p")
        return {"statistic": float(h.statistic), "parameter": float(h.parameter),
                "p.value": h.p_value, "printed": str(h),
                "observed": list(h.observed["y0"]) + list(h.observed["y1"]),
                "expected": list(h.expected["yhat0"]) + list(h.expected["yhat1"]),
                "groups": h.groups}

    def gl():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = pc.cal_intercept_slope(p, y, conf_level=c["conf_level"])
        # The fits' warnings alone (R reports the profiles' apart).
        fits = _try(lambda: (pc.cal_intercept_slope(p, y, conf_level=c["conf_level"],
                                                    profile=False), {})[1])["warnings"]
        out = {"intercept": r.intercept, "slope": r.slope, "se_intercept": r.se_intercept,
               "se_slope": r.se_slope, "wald_intercept": list(r.wald["intercept"]),
               "wald_slope": list(r.wald["slope"]), "printed": str(r)}
        if r.profile is not None:
            out["profile"] = {k: list(v) for k, v in r.profile.items()}
        else:
            out["profile"] = {"error": r.profile_error}
        out["all_warnings"] = [str(w.message) for w in caught]
        out["fit_warnings"] = fits
        return out

    def lw():
        return {"y": list(lowess(p, y, f=c["f"], iter=c["iter"]).y)}

    return {"val_prob": _try(vp), "hoslem": _try(hl), "glm": _try(gl), "lowess": _try(lw)}


def _num(x):
    if x is None or x == "NA" or x == "NaN":
        return math.nan
    if x == "Inf":
        return math.inf
    if x == "-Inf":
        return -math.inf
    return float(x)


def _close(a, b, kind):
    a, b = _num(a), _num(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b), 0.0
    if a == b:
        return True, 0.0
    rel, ab = TOLERANCE[kind]
    d = abs(a - b)
    scale = abs(b)
    return d <= ab or d <= rel * scale, (d / scale if scale else d)


class Diffs:
    """Differences found, and the largest relative difference per kind."""

    def __init__(self):
        self.items = []
        self.largest = {k: 0.0 for k in TOLERANCE}
        self.separation_profiles = 0

    def num(self, where, a, b, kind="exact"):
        ok, rel = _close(a, b, kind)
        self.largest[kind] = max(self.largest[kind], rel)
        if not ok:
            self.items.append(f"{where}: python {a!r} R {b!r}")

    def text(self, where, a, b):
        if a != b:
            self.items.append(f"{where}: python {a!r} R {b!r}")


def inputs_sha256(c: dict) -> str:
    """Digest of a case's inputs: stored answers belong to these inputs only."""
    import hashlib
    h = hashlib.sha256()
    for key in ("p", "y"):
        h.update(np.ascontiguousarray(c[key], dtype=np.float64).tobytes())
    h.update(repr((c["g"], c["conf_level"], c["f"], c["iter"])).encode())
    return h.hexdigest()


SEPARATION = "glm.fit: fitted probabilities numerically 0 or 1 occurred"
COLLAPSING = "collapsing to unique 'x' values"


def r_json(ro, c: dict) -> dict:
    """R's answers for case ``c`` (reference/r/validation.R sourced in ``ro``)."""
    import json
    from rpy2.robjects import FloatVector
    fn = ro.r["validation_case_json"]
    return json.loads(fn(FloatVector(c["p"]), FloatVector(c["y"]), c["g"], c["conf_level"],
                         c["f"], c["iter"])[0])


def compare(py: dict, r: dict, diffs: Diffs, label: str, hoslem: bool = True) -> None:
    for part in ("val_prob", "hoslem", "glm", "lowess"):
        a, b = py[part], r[part]
        where = f"{label} {part}"
        if part == "hoslem" and (not hoslem or b.get("absent")):
            continue
        if "error" in b or "error" in a:
            diffs.text(where + " error", a.get("error"), b.get("error"))
            continue
        # R lists every warning; the Python face gives each distinct text once
        # (and names their count on a last line when there were more than 10).
        def distinct(ws):
            return list(dict.fromkeys(w.split("\nThere were")[0] for w in ws))

        if part == "glm":
            # The fits' warnings, then with the profiles' (also under separation,
            # where the flat profile's "collapsing to unique 'x' values" depends on
            # the last bits of zmax = sqrt(qchisq(1 - alpha, 1)): R's qchisq is ported).
            diffs.text(where + " warnings", distinct(a["fit_warnings"]), distinct(b["warnings"]))
            # The same texts; their order when both fits' profiles warn is not
            # compared (the face reports each text once, at its first appearance).
            diffs.text(where + " warnings with profiles", sorted(distinct(a["all_warnings"])),
                       sorted(distinct(b["warnings"] + (b.get("profile") or {}).get("warnings", []))))
        else:
            diffs.text(where + " warnings", distinct(a["warnings"]), distinct(b["warnings"]))
        if part == "val_prob":
            diffs.text(where + " names", a["names"], b["names"])
            for name, x, y in zip(b["names"], a["values"], b["values"]):
                diffs.num(f"{where} {name}", x, y, "pchisq" if name in PVALUE_NAMES else "exact")
            diffs.text(where + " printed", a["printed"], b["printed"])
        elif part == "hoslem":
            diffs.num(where + " statistic", a["statistic"], b["statistic"])
            diffs.num(where + " parameter", a["parameter"], b["parameter"])
            diffs.num(where + " p.value", a["p.value"], b["p.value"], "pchisq")
            for k, (x, y) in enumerate(zip(a["observed"], b["observed"])):
                diffs.num(f"{where} observed[{k}]", x, y)
            for k, (x, y) in enumerate(zip(a["expected"], b["expected"])):
                diffs.num(f"{where} expected[{k}]", x, y)
            diffs.text(where + " groups", a["groups"], b["groups"])
            diffs.text(where + " printed", a["printed"], b["printed"])
        elif part == "glm":
            for key in ("intercept", "slope", "se_intercept", "se_slope"):
                diffs.num(f"{where} {key}", a[key], b[key], "close")
            for key in ("wald_intercept", "wald_slope"):
                for x, y in zip(a[key], b[key]):
                    diffs.num(f"{where} {key}", x, y, "close")
            diffs.text(where + " printed", a["printed"], b["printed"])
            prof = b.get("profile") or {}
            if SEPARATION in b["warnings"]:
                # (Quasi-)separation: the profile deviance is flat to rounding, so
                # R's bounds hang on its last bits; compared all the same (counted).
                diffs.separation_profiles += 1
            if "error" in prof or "error" in a["profile"]:
                diffs.text(where + " profile error", a["profile"].get("error"), prof.get("error"))
            else:
                for key in ("intercept", "slope"):
                    for x, y in zip(a["profile"][key], prof[key]):
                        diffs.num(f"{where} profile {key}", x, y, "close")
        else:
            if len(a["y"]) != len(b["y"]):
                diffs.text(where + " length", len(a["y"]), len(b["y"]))
            for k, (x, y) in enumerate(zip(a["y"], b["y"])):
                diffs.num(f"{where} y[{k}]", x, y)

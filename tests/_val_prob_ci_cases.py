"""Cases of val_prob_ci against CalibrationCurves 2.0.0's val.prob.ci.2, and their comparison.

``case(i)`` draws case ``i`` (its own numpy Generator, seed ``1000 + i``): n
from 10 to 5,000 (R's c-statistic interval forms all event x non-event pairs,
and its loess limits an n x n matrix: at 20,000 R takes 8 GB, at 10^5 it
cannot allocate them),
predictions plain, tied (rounded to one decimal), near 0 and 1 (logits with
sd 8) or separating the outcomes, the smooth ``loess``/``rcs``/``none``,
``method.ci``, ``cl.level``, ``CL.smooth``. ``r_side`` (rpy2) and
``python_side`` give the same dict; ``compare`` holds them to the stated
tolerances: closed forms 1e-12 relative, the loess limits 1e-10, the spline
curve 1e-12 (largest seen 3e-16), prints byte-equal.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

KINDS = ("plain", "ties", "extreme", "separation")
# Relative tolerances (absolute below 1e-12 for the curves).
TOL = {"closed": 1e-12, "loess_limits": 1e-10, "rcs": 1e-12,
       # method.ci = "newcombe": the roots of Newcombe's quartic, numpy's companion
       # eigenvalues here and R's polyroot (cpoly) there; largest seen 7.7e-13.
       "newcombe": 1e-11}
CURVE_ROWS = 60  # rows of a curve kept (evenly spaced) for the comparison


def case(i: int) -> dict:
    rng = np.random.default_rng(1000 + i)
    kind = KINDS[i % 4]
    n = int(rng.choice([10, 25, 60, 200, 1000, 3000] + ([5000] if i % 7 == 3 else [])))
    p = rng.uniform(size=n)
    if kind == "ties":
        p = np.clip(np.round(p, 1), 0.05, 0.95)
    elif kind == "extreme":
        p = 1 / (1 + np.exp(-rng.normal(0, 8, size=n)))
        p = np.clip(p, 1e-12, 1 - 1e-12)
    y = (rng.uniform(size=n) < p ** rng.uniform(0.7, 1.4)).astype(float)
    if kind == "separation":
        y = (p > 0.5).astype(float)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    smooth = ("loess", "rcs", "none")[(i // 4) % 3]
    if n > 3000 and smooth == "loess":
        smooth = "rcs"
    kw = {"smooth": smooth, "method_ci": ("pepe", "delong", "pepe", "newcombe")[(i // 3) % 4],
          "cl_level": (0.95, 0.9, 0.95, 0.99)[(i // 5) % 4],
          "cl_smooth": ("fill", True, False)[(i // 2) % 3]}
    return {"id": i, "p": p, "y": y, "kw": kw}


def inputs_sha256(c: dict) -> str:
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(c["p"]).tobytes())
    h.update(np.ascontiguousarray(c["y"]).tobytes())
    h.update(repr(sorted(c["kw"].items())).encode())
    return h.hexdigest()


R_NAMES = {"smooth": "smooth", "method_ci": "method.ci", "cl_level": "cl.level",
           "cl_smooth": "CL.smooth"}
DEFAULTS = {"smooth": "loess", "method_ci": "pepe", "cl_level": 0.95, "cl_smooth": "fill"}


def r_args(kw: dict) -> str:
    out = []
    for k, v in kw.items():
        if v == DEFAULTS[k] and type(v) is type(DEFAULTS[k]):
            continue
        val = ("TRUE" if v else "FALSE") if isinstance(v, bool) else (f'"{v}"' if isinstance(v, str) else repr(v))
        out.append(f", {R_NAMES[k]} = {val}")
    return "".join(out)


def _rows(m: int) -> np.ndarray:
    return np.unique(np.linspace(0, m - 1, min(m, CURVE_ROWS)).round().astype(int))


def _curve(d: dict) -> dict:
    m = len(d["x"])
    rows = _rows(m)
    return {"nrow": m, **{k: [float(v) for v in np.asarray(d[k], dtype=float)[rows]] for k in d}}


def python_side(c: dict) -> dict:
    import warnings

    from pycalib_r.clinical import val_prob_ci
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = val_prob_ci(c["p"], c["y"], **c["kw"])
        except Exception as e:  # R's error: its message
            return {"error": str(e)}
    out = {"stats": [[k, v] for k, v in res.stats.items()],
           "intercept": list(res.Calibration["Intercept"].values()),
           "slope": list(res.Calibration["Slope"].values()),
           "cindex": list(res.Cindex.values()), "print": str(res)}
    for name in ("FlexibleCalibration", "RCS"):
        if name in res.CalibrationCurves:
            out[name] = _curve(res.CalibrationCurves[name])
    return out


def r_side(ro, c: dict) -> dict:
    """R's answer (``ro``: rpy2.robjects with CalibrationCurves attached, a null device open)."""
    import json

    ro.globalenv["p"] = ro.FloatVector(c["p"])
    ro.globalenv["y"] = ro.FloatVector(c["y"])
    code = f"""local({{
      r <- tryCatch(suppressWarnings(val.prob.ci.2(p = p, y = y{r_args(c["kw"])})),
                    error = function(e) e)
      if (inherits(r, "error")) return(jsonlite_like(list(error = conditionMessage(r))))
      cur <- function(d) {{ m <- nrow(d); rows <- unique(round(seq(0, m - 1, length.out = min(m, {CURVE_ROWS})))) + 1
        c(list(nrow = m), lapply(as.list(d), function(v) sprintf("%a", as.numeric(v)[rows]))) }}
      out <- list(stats = lapply(seq_along(r$stats), function(i) list(names(r$stats)[i], sprintf("%a", r$stats[[i]]))),
                  intercept = sprintf("%a", unname(r$Calibration$Intercept)),
                  slope = sprintf("%a", unname(r$Calibration$Slope)),
                  cindex = sprintf("%a", unname(r$Cindex)),
                  print = as.list(capture.output(print(r))))
      for (nm in c("FlexibleCalibration", "RCS")) if (!is.null(r$CalibrationCurves[[nm]])) out[[nm]] <- cur(r$CalibrationCurves[[nm]])
      jsonlite_like(out)
    }})"""
    return _decode(json.loads(ro.r(code)[0]))


R_JSON = r"""
jsonlite_like <- function(x) {
  enc <- function(v) {
    if (is.list(v)) {
      if (!is.null(names(v)) && all(names(v) != ""))
        return(paste0("{", paste0('"', names(v), '":', vapply(v, enc, ""), collapse = ","), "}"))
      return(paste0("[", paste(vapply(v, enc, ""), collapse = ","), "]"))
    }
    if (is.character(v)) {
      s <- vapply(v, function(e) { e <- gsub("\\\\", "\\\\\\\\", e); e <- gsub('"', '\\\\"', e);
                                   e <- gsub("\n", "\\\\n", e, fixed = TRUE); paste0('"', e, '"') }, "")
      return(if (length(s) == 1) s else paste0("[", paste(s, collapse = ","), "]"))
    }
    if (length(v) == 1) return(as.character(v))
    paste0("[", paste(v, collapse = ","), "]")
  }
  enc(x)
}
"""


def _num(s):
    if isinstance(s, list):
        return [_num(v) for v in s]
    if s in ("NA", "NaN"):
        return math.nan
    if s in ("Inf", "-Inf"):
        return float(s.replace("Inf", "inf"))
    return float.fromhex(s)


def _decode(d: dict) -> dict:
    if "error" in d:
        return d
    out = {"stats": [[k, _num(v)] for k, v in d["stats"]], "print": "\n".join(d["print"])}
    for k in ("intercept", "slope", "cindex"):
        out[k] = _num(d[k])
    for name in ("FlexibleCalibration", "RCS"):
        if name in d:
            cur = d[name]
            out[name] = {"nrow": int(cur["nrow"]),
                         **{k: _num(v if isinstance(v, list) else [v]) for k, v in cur.items() if k != "nrow"}}
    return out


def _rel(a, b, floor: float = 0.0) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return math.inf
    both_nan = np.isnan(a) & np.isnan(b)
    if (np.isnan(a) != np.isnan(b)).any():
        return math.inf
    a, b = a[~both_nan], b[~both_nan]
    if a.size == 0:
        return 0.0
    same = a == b
    d = np.abs(a - b) / np.maximum(np.abs(a), floor if floor else 1e-300)
    d[same] = 0.0
    return float(np.max(d))


def compare(py: dict, r: dict, largest: dict, where: str, method_ci: str = "pepe") -> list:
    """Problems (strings); ``largest`` collects the largest difference per quantity."""
    bad = []

    def note(q, v, tol):
        largest[q] = max(largest.get(q, 0.0), v)
        if not v <= tol:
            bad.append(f"{where}: {q} differs by {v:.3g} (tolerance {tol})")

    if "error" in r or "error" in py:
        if r.get("error") != py.get("error"):
            bad.append(f"{where}: R error {r.get('error')!r}, Python {py.get('error')!r}")
        return bad
    if [k for k, _ in r["stats"]] != [k for k, _ in py["stats"]]:
        return bad + [f"{where}: stats names differ"]
    note("stats", _rel([v for _, v in r["stats"]], [v for _, v in py["stats"]]), TOL["closed"])
    for k in ("intercept", "slope", "cindex"):
        note(k, _rel(r[k], py[k]), TOL["newcombe" if k == "cindex" and method_ci == "newcombe"
                                       else "closed"])
    if r["print"] != py["print"]:
        bad.append(f"{where}: print differs:\nR:\n{r['print']}\nPython:\n{py['print']}")
    for name in ("FlexibleCalibration", "RCS"):
        if (name in r) != (name in py):
            bad.append(f"{where}: {name} present in one side only")
            continue
        if name not in r:
            continue
        if r[name]["nrow"] != py[name]["nrow"]:
            bad.append(f"{where}: {name} has {r[name]['nrow']} rows in R, {py[name]['nrow']} here")
            continue
        for col, rv in r[name].items():
            if col == "nrow":
                continue
            if name == "RCS":
                note(f"RCS {col}", _rel(rv, py[name][col], 1e-12), TOL["rcs"])
            elif col in ("ymin", "ymax"):
                note("loess limits", _rel(rv, py[name][col], 1e-12), TOL["loess_limits"])
            else:
                note(f"loess {col}", _rel(rv, py[name][col]), TOL["closed"])
    return bad

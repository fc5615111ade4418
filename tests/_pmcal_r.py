"""R side of the pmcalibration parity tests: one case run by R's pmcalibration 0.2.0.

R's ``run_boots`` runs ``pbapply::pblapply(seq(R), boot, cl = cl)`` on a
one-node cluster, which pbapply runs in the calling session: after
``set.seed`` the resamples are drawn on the session's stream, one
``sample(1:length(y), replace = TRUE)`` per resample.
"""

from __future__ import annotations

import numpy as np

R_CASE = r"""
function(y, p, smooth, ci, n, transf, eval, df, nk, seed) {
  suppressPackageStartupMessages(library(pmcalibration))
  args <- list(y = y, p = p, smooth = smooth, ci = ci, n = n, transf = transf,
               eval = eval, plot = FALSE)
  if (!is.na(df)) args$df <- df
  if (!is.na(nk)) args$nk <- nk
  pbapply::pboptions(type = "none")
  set.seed(seed)
  cal <- suppressMessages(suppressWarnings(do.call(pmcalibration, args)))
  f <- tempfile(); sink(f); print(cal); sink(); txt <- readChar(f, file.size(f), useBytes = TRUE)
  unlink(f)
  s <- summary(cal)
  nul <- function(v) if (is.null(v)) numeric(0) else as.numeric(v)
  list(metrics = as.numeric(cal$metrics), p_c = as.numeric(cal$p_c$p_c),
       p_c_plot = nul(cal$plot$p_c_plot), se = nul(cal$plot$p_c_plot_se),
       ms = nul(cal$metrics.samples), ps = nul(cal$plot$plot.samples),
       mtab = as.matrix(s$metrics), curve = as.matrix(s$plot), print = txt)
}
"""


def versions(r) -> dict:
    return {"pmcalibration": str(r.r('as.character(packageVersion("pmcalibration"))')[0]),
            "R": str(r.r('paste(R.version$major, R.version$minor, sep = ".")')[0]),
            "mgcv": str(r.r('as.character(packageVersion("mgcv"))')[0])}


def available(r) -> bool:
    r.r('.libPaths(c("/work/rlib", Sys.getenv("R_LIBS_USER"), .libPaths()))')
    return r.r('as.integer(suppressWarnings(requireNamespace("pmcalibration", quietly = TRUE)))')[0] == 1


def run(r, case: dict) -> dict:
    fn = r.r(R_CASE)
    ro = r
    res = fn(ro.FloatVector(case["y"]), ro.FloatVector(case["p"]), case["smooth"], case["ci"],
             case["n"], case["transf"],
             ro.FloatVector(case["eval"]) if isinstance(case["eval"], list) else case["eval"],
             case.get("df") if case.get("df") is not None else ro.NA_Real,
             case.get("nk") if case.get("nk") is not None else ro.NA_Real, case["seed"])
    out = {}
    for name in ("metrics", "p_c", "p_c_plot", "se", "ms", "ps"):
        out[name] = np.asarray(res.rx2(name), dtype=np.float64)
    out["mtab"] = np.asarray(res.rx2("mtab"), dtype=np.float64)
    out["curve"] = np.asarray(res.rx2("curve"), dtype=np.float64)
    out["print"] = str(res.rx2("print")[0])
    return out


def make_case(seed: int, n: int, smooth: str, ci: str, kind: str = "plain", nb: int = 20,
              df=None, transf: str = "logit", eval_=100) -> dict:
    """A random case on pycalib_r's R stream (R draws the same): ``kind`` is
    ``plain`` (p uniform in (0.02, 0.98)), ``ties`` (p rounded to 2 digits)
    or ``extreme`` (p = plogis(4 z), reaching 1e-6 of 0 and 1)."""
    import pycalib_r as pc

    pc.set_seed(seed)
    if kind == "extreme":
        p = 1 / (1 + np.exp(-4 * pc.rnorm(n)))
        p = np.clip(p, 1e-9, 1 - 1e-9)
    else:
        p = pc.runif(n, 0.02, 0.98)
        if kind == "ties":
            p = np.round(p, 2)
    y = pc.rbinom(n, 1, p)
    return {"y": [float(v) for v in y], "p": [float(v) for v in p], "smooth": smooth, "ci": ci,
            "n": nb, "transf": transf, "eval": eval_, "df": df, "nk": None, "seed": seed + 1000,
            "kind": kind}


# The stored cases (small: the fixture file stays under a few hundred kB).
FIXTURE_CASES = [
    (1, 10, "none", "none", "plain"), (2, 40, "ns", "pw", "ties"), (3, 120, "bs", "pw", "plain"),
    (4, 150, "lowess", "boot", "ties"), (5, 150, "loess", "boot", "plain"),
    (6, 200, "ns", "boot", "extreme"), (7, 200, "bs", "boot", "plain"),
    (8, 200, "none", "sim", "plain"), (9, 150, "ns", "sim", "ties"), (10, 60, "none", "boot", "plain"),
]


def write_fixtures(r, path) -> None:
    """Run FIXTURE_CASES in R and store inputs, outputs and versions (json)."""
    import json

    cases = []
    for seed, n, smooth, ci, kind in FIXTURE_CASES:
        case = make_case(seed, n, smooth, ci, kind)
        out = run(r, case)
        case["expected"] = {k: (v if isinstance(v, str) else np.asarray(v).ravel().tolist())
                            for k, v in out.items() if k in ("metrics", "p_c", "p_c_plot", "se",
                                                              "ms", "ps", "print")}
        cases.append(case)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"producer": {"reference": "pmcalibration::pmcalibration", **versions(r),
                                "rng_kind": "Mersenne-Twister, Inversion, Rejection",
                                "made_by": "tests/_pmcal_r.py write_fixtures"},
                   "cases": cases}, fh, indent=None)

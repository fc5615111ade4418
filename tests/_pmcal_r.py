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
             case["n"], case["transf"], case["eval"],
             case.get("df") if case.get("df") is not None else ro.NA_Real,
             case.get("nk") if case.get("nk") is not None else ro.NA_Real, case["seed"])
    out = {}
    for name in ("metrics", "p_c", "p_c_plot", "se", "ms", "ps"):
        out[name] = np.asarray(res.rx2(name), dtype=np.float64)
    out["mtab"] = np.asarray(res.rx2("mtab"), dtype=np.float64)
    out["curve"] = np.asarray(res.rx2("curve"), dtype=np.float64)
    out["print"] = str(res.rx2("print")[0])
    return out

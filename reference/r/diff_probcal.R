# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls probcal through its API
# R side of the probcal differential generator (tests/suites/differential/test_differential_probcal.py).
#
#   Rscript reference/r/diff_probcal.R ROOT PROGRAMS.R OUT.jsonl
#
# PROGRAMS.R (written by the test) defines `cases`, a list of
# list(id, source, r_call, kind, inputs): the calls of many random programs,
# their data written as R literals (doubles in C99 hex, so every bit
# arrives). One R process evaluates them all, each with the fixture harness
# (pycalib_r/r/harness.R) in probcal 0.1.0 ("probcal") or in
# pycalib_r/r/contract.R ("contract", the 0.2.0 layer), and writes one JSON
# object per line: first the versions, then {"id", "expected"} per case,
# where `expected` is the value, list(print = text) or
# list(error = conditionMessage()), and the seconds R took. Base R only.

args <- commandArgs(trailingOnly = TRUE)
root <- args[[1L]]
source(file.path(root, "pycalib_r", "r", "harness.R"))
harness_setup()
if (!isTRUE(l10n_info()[["UTF-8"]])) invisible(Sys.setlocale("LC_CTYPE", "C.UTF-8"))
envs <- harness_envs(root, need_probcal = TRUE)
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
source(args[[2L]])

con <- file(args[[3L]], open = "w", encoding = "UTF-8")
versions <- list(
  r_version = paste(R.version$major, R.version$minor, sep = "."),
  probcal_version = as.character(utils::packageVersion("probcal")),
  contract_r_md5 = unname(tools::md5sum(file.path(root, "pycalib_r", "r", "contract.R")))
)
writeLines(harness_json(versions), con)
for (case in cases) {
  started <- proc.time()[["elapsed"]]
  expected <- tryCatch(
    harness_eval(case$r_call, case$inputs, case$kind, envs[[case$source]]),
    error = function(e) list(error = conditionMessage(e))
  )
  seconds <- proc.time()[["elapsed"]] - started
  writeLines(paste0('{"id": ', harness_json_string(case$id), ', "seconds": ', sprintf("%.3f", seconds),
                    ', "expected": ', harness_json(expected), "}"), con)
}
close(con)

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/formals.json: every argument of every exported function and
# its default, as R itself has them (formals()), so the tests can hold
# pycalib_r's signatures to R's without R. probcal 0.1.0 supplies its
# exports; pycalib_r/r/contract.R the 0.2.0 functions (skce, cal_test,
# cal_ci, and ece with its two new arguments).
#
# Usage (from the repository root): Rscript tools/make_formals.R [OUT]
# (OUT defaults to reference/formals.json)

root <- normalizePath(".")
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[[1L]] else file.path(root, "reference", "formals.json")
source(file.path(root, "pycalib_r", "r", "harness.R"))
envs <- harness_envs(root)

describe <- function(fun) {
  f <- formals(fun)
  items <- vapply(names(f), function(arg) {
    if (identical(arg, "...")) return(harness_json_object("kind", '"dots"'))
    if (identical(f[[arg]], quote(expr = ))) return(harness_json_object("kind", '"required"'))
    d <- f[[arg]]
    value <- tryCatch(eval(d, envir = baseenv()), error = function(e) NULL)
    if (is.null(value) && !is.null(d)) {
      return(harness_json_object(c("kind", "code"), c('"expression"', harness_json_string(deparse(d)))))
    }
    harness_json_object(c("kind", "value"), c('"value"', harness_json(value, unbox = FALSE)))
  }, character(1))
  harness_json_object(names(f), items)
}

contract_names <- c("skce", "cal_test", "cal_ci", "ece")
exports <- sort(getNamespaceExports("probcal"))
entries <- character()
for (name in sort(union(exports, contract_names))) {
  source_name <- if (name %in% contract_names) "contract" else "probcal"
  fun <- if (source_name == "contract") get(name, envir = envs$contract) else getExportedValue("probcal", name)
  entries[[name]] <- harness_json_object(c("source", "formals"),
                                         c(harness_json_string(source_name), describe(fun)))
}
header <- harness_json_object(
  c("r_version", "probcal_version", "date", "functions"),
  c(harness_json_string(paste(R.version$major, R.version$minor, sep = ".")),
    harness_json_string(as.character(utils::packageVersion("probcal"))),
    harness_json_string(format(Sys.Date())),
    harness_json_object(names(entries), unname(entries))))
writeLines(header, out, useBytes = TRUE)
cat(sprintf("wrote %s: %d functions\n", out, length(entries)))

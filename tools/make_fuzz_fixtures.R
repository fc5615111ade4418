# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/fixtures/fuzz.json: bad and odd inputs for every export,
# drawn by reference/r/fuzz.R and answered by R (probcal 0.1.0, and
# pycalib_r/r/contract.R for the 0.2.0 functions).
#
#   Rscript tools/make_fuzz_fixtures.R [per_function] [seed]
#
# Run from the repository root. Base R, probcal, cli and ggplot2 only.

args <- commandArgs(trailingOnly = TRUE)
per_function <- if (length(args) >= 1L) as.integer(args[[1L]]) else 15L
seed <- if (length(args) >= 2L) as.integer(args[[2L]]) else 20261201L
root <- normalizePath(".")
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
source(file.path(root, "pycalib_r", "r", "harness.R"))
source(file.path(root, "reference", "r", "fuzz.R"))
harness_setup()
invisible(Sys.setlocale("LC_CTYPE", "C.UTF-8"))
envs <- harness_envs(root, need_probcal = TRUE)
cases <- fuzz_cases(envs, seed, per_function)

header <- c(
  format_version = "1",
  file = harness_json_string("fuzz.json"),
  generator = harness_json_string("tools/make_fuzz_fixtures.R"),
  r_version = harness_json_string(paste(R.version$major, R.version$minor, sep = ".")),
  probcal_version = harness_json_string(as.character(utils::packageVersion("probcal"))),
  contract_r_md5 = harness_json_string(harness_contract_md5(file.path(root, "pycalib_r", "r", "contract.R"))),
  date = harness_json_string(format(Sys.Date())),
  rng_kind = harness_json(RNGkind(), unbox = FALSE),
  seed = sprintf("%d", seed),
  per_function = sprintf("%d", per_function),
  n_cases = sprintf("%d", length(cases))
)
text <- paste0(
  "{\n",
  paste0("  ", harness_json_string(names(header)), ": ", header, ",\n", collapse = ""),
  '  "cases": [\n', paste(cases, collapse = ",\n"), "\n  ]\n}\n"
)
con <- file(file.path(root, "reference", "fixtures", "fuzz.json"), open = "w", encoding = "UTF-8")
writeLines(text, con, sep = "", useBytes = TRUE)
close(con)
cat(sprintf("fuzz.json %d cases\n", length(cases)))

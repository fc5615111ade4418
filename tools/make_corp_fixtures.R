# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Rewrite reference/bin_free/corp.json: reliabilitydiag's CORP curves, bands and
# decompositions for the cases of reference/r/corp.R (needs reliabilitydiag and
# jsonlite). Run from the repository root: Rscript tools/make_corp_fixtures.R
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
source("reference/r/corp.R")
cases <- lapply(corp_specs(), corp_case)
out <- list(reference = "reliabilitydiag 0.2.1.9000 (aijordan/reliabilitydiag a3d3572)",
            script = "tools/make_corp_fixtures.R", versions = corp_versions(), cases = cases)
writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, na = "string", digits = NA, pretty = FALSE),
           "reference/bin_free/corp.json")
cat("wrote", length(cases), "cases to reference/bin_free/corp.json\n")

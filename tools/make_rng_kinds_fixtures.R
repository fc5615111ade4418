#!/usr/bin/env Rscript
# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/fixtures/rng_kinds.json: R's streams under every RNGkind.
#
#     Rscript tools/make_rng_kinds_fixtures.R
#
# Needs only base R and the parallel package (R 4.2.2 is the reference).
# Doubles are stored as sprintf("%a") strings (exact; read them with
# float.fromhex), integers as JSON integers. tests/rng/test_rng_kinds.py replays
# every record with pycalib_r._rng.bitgen, so the kinds are checked without R.
# The file's header has the fields tests/suites/project/test_fixtures.py requires of every
# fixture file; its "cases" list is empty (these records are not r_call cases)
# and "rng_kind" is RNGkind() as the script leaves it.

kinds <- c("Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper", "Mersenne-Twister",
           "Knuth-TAOCP", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG")
normal_kinds <- c("Inversion", "Box-Muller", "Ahrens-Dieter", "Kinderman-Ramage",
                  "Buggy Kinderman-Ramage")
seeds <- c(-2147483647L, 0L, 1L, 2147483647L, 20240607L)

jstr <- function(x) paste0("\"", gsub("\"", "\\\\\"", x), "\"")
jint <- function(x) paste0("[", paste(as.integer(x), collapse = ", "), "]")
jhex <- function(x) paste0("[", paste(jstr(sprintf("%a", x)), collapse = ", "), "]")
jobj <- function(...) {
  f <- list(...)
  paste0("{", paste(jstr(names(f)), unlist(f), sep = ": ", collapse = ", "), "}")
}
jarr <- function(items) paste0("[\n  ", paste(items, collapse = ",\n  "), "\n]")

set_kinds <- function(kind, normal = "Inversion", sample = "Rejection") {
  suppressWarnings(RNGkind(kind, normal, sample))
}

uniform <- character()
for (k in kinds) for (s in seeds) {
  set_kinds(k)
  set.seed(s)
  s0 <- .Random.seed
  u <- runif(300)
  uniform <- c(uniform, jobj(kind = jstr(k), seed = s, after_seed = jint(s0),
                             runif_300 = jhex(u), after = jint(.Random.seed)))
}

normal <- character()
for (k in c("Mersenne-Twister", "Wichmann-Hill", "L'Ecuyer-CMRG", "Knuth-TAOCP-2002"))
  for (nk in normal_kinds) for (s in seeds[c(1, 3, 4)]) {
    set_kinds(k, nk)
    set.seed(s)
    x1 <- rnorm(101)  # odd: Box-Muller keeps its second value for the next call
    x2 <- rnorm(50, mean = 2, sd = 3)
    normal <- c(normal, jobj(kind = jstr(k), normal_kind = jstr(nk), seed = s,
                             rnorm_101 = jhex(x1), rnorm_50_2_3 = jhex(x2),
                             after = jint(.Random.seed)))
  }

index <- character()
for (sk in c("Rounding", "Rejection")) for (k in kinds) for (s in seeds[c(1, 3)])
  for (dn in c(10, 1000, 2^31, 3e9)) {
    set_kinds(k, "Inversion", sk)
    set.seed(s)
    v <- sample.int(dn, 50, replace = TRUE)
    index <- c(index, jobj(kind = jstr(k), sample_kind = jstr(sk), seed = s, n = dn,
                           sample_int_50 = jhex(as.double(v)), after = jint(.Random.seed)))
  }

streams <- character()
set_kinds("L'Ecuyer-CMRG")
for (s in seeds) {
  set.seed(s)
  seed <- .Random.seed
  streams <- c(streams, jobj(seed = jint(seed),
                             next_stream = jint(parallel::nextRNGStream(seed)),
                             next_substream = jint(parallel::nextRNGSubStream(seed))))
}

RNGkind("Mersenne-Twister", "Inversion", "Rejection")
rv <- R.version
# Not used here; recorded because every fixture file names it.
probcal_version <- tryCatch(as.character(utils::packageVersion("probcal")),
                            error = function(e) "not installed")
out <- paste0(
  "{\n",
  "\"r_version\": ", jstr(paste(rv$major, rv$minor, sep = ".")), ",\n",
  "\"probcal_version\": ", jstr(probcal_version), ",\n",
  "\"date\": ", jstr(format(Sys.Date())), ",\n",
  "\"producer\": \"tools/make_rng_kinds_fixtures.R\",\n",
  "\"rng_kind\": [", paste(jstr(RNGkind()), collapse = ", "), "],\n",
  "\"cases\": [],\n",
  "\"uniform\": ", jarr(uniform), ",\n",
  "\"normal\": ", jarr(normal), ",\n",
  "\"unif_index\": ", jarr(index), ",\n",
  "\"lecuyer_streams\": ", jarr(streams), "\n",
  "}\n")

root <- local({
  file_arg <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  if (length(file_arg) == 0L) stop("run this script with Rscript")
  normalizePath(file.path(dirname(sub("^--file=", "", file_arg[[1L]])), ".."))
})
path <- file.path(root, "reference", "fixtures", "rng_kinds.json")
writeLines(out, path, useBytes = TRUE, sep = "")
cat("wrote", path, "with", length(uniform), "uniform,", length(normal), "normal,",
    length(index), "index and", length(streams), "stream records under",
    R.version.string, "\n")

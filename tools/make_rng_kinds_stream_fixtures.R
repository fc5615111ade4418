#!/usr/bin/env Rscript
# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/fixtures/rng_kinds_stream.json: R's draws under every
# RNGkind through the package's public functions.
#
#     Rscript tools/make_rng_kinds_stream_fixtures.R
#
# Needs base R and stats (R 4.2.2 is the reference); cal_test and cal_ci come
# from pycalib_r/r/contract.R, sourced into its own environment. For every
# kind with every normal kind (sample.kind Rejection) and every kind with
# sample.kind Rounding (normal.kind Inversion), at three seeds, a fixed script
# of calls is run after set.seed; each call's values are stored (doubles as
# sprintf("%a") strings, exact; read them with float.fromhex) with the
# .Random.seed after it (for Mersenne-Twister, whose state has 626 words, only
# after the last call). tests/rng/test_rng_kinds_stream.py replays every record
# through pycalib_r.set_seed / rng_kind and the stream's methods.
# The header has the fields tests/suites/project/test_fixtures.py requires of every fixture
# file; "cases" is empty (these records are not r_call cases).

kinds <- c("Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper", "Mersenne-Twister",
           "Knuth-TAOCP", "Knuth-TAOCP-2002", "L'Ecuyer-CMRG")
normal_kinds <- c("Inversion", "Box-Muller", "Ahrens-Dieter", "Kinderman-Ramage",
                  "Buggy Kinderman-Ramage")
seeds <- c(-2147483647L, 0L, 2147483647L)

# The script: a label (the Python side maps it to a call) and R's call.
script <- list(
  "runif(5)" = function() runif(5),
  "rnorm(7)" = function() rnorm(7),
  "rnorm(3, 2, 3)" = function() rnorm(3, 2, 3),
  "rbinom(5, 10, 0.3)" = function() rbinom(5, 10, 0.3),
  "rbinom(5, 100, 0.4)" = function() rbinom(5, 100, 0.4),
  "sample(10)" = function() sample(10),
  "sample.int(100, 5, TRUE)" = function() sample.int(100, 5, TRUE),
  "sample.int(1000, 5)" = function() sample.int(1000, 5),
  "rexp(5)" = function() rexp(5),
  "rgamma(5, 0.5)" = function() rgamma(5, 0.5),
  "rgamma(5, 3)" = function() rgamma(5, 3),
  "rbeta(5, 2, 3)" = function() rbeta(5, 2, 3),
  "rbeta(5, 0.5, 0.5)" = function() rbeta(5, 0.5, 0.5),
  "rpois(5, 4)" = function() rpois(5, 4),
  "rpois(5, 40)" = function() rpois(5, 40),
  "rt(3, 5)" = function() rt(3, 5),
  "rchisq(3, 4)" = function() rchisq(3, 4)
)

jstr <- function(x) paste0("\"", gsub("\"", "\\\\\"", x), "\"")
jint <- function(x) paste0("[", paste(as.integer(x), collapse = ", "), "]")
jhex <- function(x) paste0("[", paste(jstr(sprintf("%a", as.double(x))), collapse = ", "), "]")
jobj <- function(...) {
  f <- list(...)
  paste0("{", paste(jstr(names(f)), unlist(f), sep = ": ", collapse = ", "), "}")
}
jarr <- function(items, sep = ",\n  ") paste0("[\n  ", paste(items, collapse = sep), "\n]")

combos <- c(lapply(kinds, function(k) lapply(normal_kinds, function(nk) c(k, nk, "Rejection"))),
            list(lapply(kinds, function(k) c(k, "Inversion", "Rounding"))))
combos <- unlist(combos, recursive = FALSE)

records <- character()
for (cmb in combos) for (s in seeds) {
  suppressWarnings(RNGkind(cmb[1], cmb[2], cmb[3]))
  set.seed(s)
  calls <- character()
  for (label in names(script)) {
    v <- script[[label]]()
    after <- if (cmb[1] == "Mersenne-Twister" && label != names(script)[length(script)])
      "null" else jint(.Random.seed)
    calls <- c(calls, jobj(call = jstr(label), value = jhex(v), after = after))
  }
  records <- c(records, jobj(kind = jstr(cmb[1]), normal_kind = jstr(cmb[2]),
                             sample_kind = jstr(cmb[3]), seed = s,
                             calls = paste0("[", paste(calls, collapse = ", "), "]")))
}

# cal_test / cal_ci (the contract) under other kinds: the bootstrap draws.
contract <- new.env()
root <- local({
  file_arg <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  if (length(file_arg) == 0L) stop("run this script with Rscript")
  normalizePath(file.path(dirname(sub("^--file=", "", file_arg[[1L]])), ".."))
})
contract_path <- file.path(root, "pycalib_r", "r", "contract.R")
harness <- new.env()
sys.source(file.path(root, "pycalib_r", "r", "harness.R"), envir = harness)
sys.source(contract_path, envir = contract)
p <- round(seq(0.05, 0.95, length.out = 40)^1.3, 6)
y <- as.integer((seq_along(p) * 7919L) %% 100L < 100 * p)
cal <- character()
for (cmb in list(c("Wichmann-Hill", "Inversion", "Rejection"),
                 c("L'Ecuyer-CMRG", "Inversion", "Rounding"),
                 c("Knuth-TAOCP-2002", "Box-Muller", "Rejection"),
                 c("Mersenne-Twister", "Inversion", "Rounding"))) {
  suppressWarnings(RNGkind(cmb[1], cmb[2], cmb[3]))
  set.seed(20240607L)
  t <- contract$cal_test(p, y, method = "bootstrap", n_boot = 49)
  s1 <- .Random.seed
  ci <- contract$cal_ci(p, y, metric = "ece", n_boot = 29)
  cal <- c(cal, jobj(kind = jstr(cmb[1]), normal_kind = jstr(cmb[2]), sample_kind = jstr(cmb[3]),
                     seed = 20240607L, p = jhex(p), y = jint(y),
                     test_statistic = jhex(t$statistic), test_p_value = jhex(t$p.value),
                     after_test = jint(s1), ci = jhex(c(ci$estimate, ci$lower, ci$upper)),
                     after_ci = jint(.Random.seed)))
}

RNGkind("Mersenne-Twister", "Inversion", "Rejection")
rv <- R.version
probcal_version <- tryCatch(as.character(utils::packageVersion("probcal")),
                            error = function(e) "not installed")
out <- paste0(
  "{\n",
  "\"r_version\": ", jstr(paste(rv$major, rv$minor, sep = ".")), ",\n",
  "\"probcal_version\": ", jstr(probcal_version), ",\n",
  "\"date\": ", jstr(format(Sys.Date())), ",\n",
  "\"producer\": \"tools/make_rng_kinds_stream_fixtures.R\",\n",
  "\"contract_r_md5\": ", jstr(harness$harness_contract_md5(contract_path)), ",\n",
  "\"rng_kind\": [", paste(jstr(RNGkind()), collapse = ", "), "],\n",
  "\"cases\": [],\n",
  "\"streams\": ", jarr(records), ",\n",
  "\"cal\": ", jarr(cal), "\n",
  "}\n")
path <- file.path(root, "reference", "fixtures", "rng_kinds_stream.json")
writeLines(out, path, useBytes = TRUE, sep = "")
cat("wrote", path, "with", length(records), "stream records of", length(script), "calls and",
    length(cal), "cal_test/cal_ci records under", R.version.string, "\n")

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/fixtures/rng_ncp.json: R 4.2.2's non-central forms of
# rchisq, rbeta, rt and rf (an `ncp` given, 0 included), and rbinom / rhyper
# with parameters >= 2^31 - 1 (nmath's qbinom / qhyper branches), under
# RNGkind("Mersenne-Twister", "Inversion", "Rejection"), for the stored
# fixture harness (tests/suites/project/test_fixtures.py). Each case seeds, draws, and
# appends two runif() values, so the stored numbers pin the values *and* the
# stream position after the call. Bad input cases store R's value (NaN/NA)
# or R's error message.
#
# Run from the repository root:  Rscript tools/make_rng_ncp_fixtures.R
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
source(file.path("pycalib_r", "r", "harness.R"))
seeds <- c(-7, 0, 1, 42, 2147483647)
json_vec <- function(x) harness_json(as.double(x), unbox = FALSE)

# (function, call with `seed` and `n` bound, parameters, n)
cases <- list(
  list("rchisq", "rchisq(n, df, ncp = ncp)", list(df = 3, ncp = 2), 60),
  list("rchisq", "rchisq(n, df, ncp = ncp)", list(df = 0.5, ncp = 0), 60),
  list("rchisq", "rchisq(n, df, ncp = ncp)", list(df = 0, ncp = 1.5), 60),
  list("rchisq", "rchisq(n, df, ncp = ncp)", list(df = 2.5, ncp = 50), 60),
  list("rchisq", "rchisq(n, df, ncp = ncp)", list(df = c(0, 1, 3.5), ncp = c(0, 0.5, 4, 20)), 60),
  list("rbeta", "rbeta(n, shape1, shape2, ncp = ncp)", list(shape1 = 2, shape2 = 3, ncp = 1), 60),
  list("rbeta", "rbeta(n, shape1, shape2, ncp = ncp)", list(shape1 = 0.5, shape2 = 0.7, ncp = 0), 60),
  list("rbeta", "rbeta(n, shape1, shape2, ncp = ncp)", list(shape1 = c(0.5, 2), shape2 = 3, ncp = c(0, 2, 5)), 60),
  list("rt", "rt(n, df, ncp = ncp)", list(df = 3, ncp = 1), 60),
  list("rt", "rt(n, df, ncp = ncp)", list(df = 5, ncp = 0), 60),
  list("rt", "rt(n, df, ncp = ncp)", list(df = c(1, 4, 30), ncp = c(-1, 2)), 60),
  list("rf", "rf(n, df1, df2, ncp = ncp)", list(df1 = 3, df2 = 7, ncp = 2), 60),
  list("rf", "rf(n, df1, df2, ncp = ncp)", list(df1 = 3, df2 = 7, ncp = 0), 60),
  list("rf", "rf(n, df1, df2, ncp = ncp)", list(df1 = c(1, 5), df2 = c(2, 9, 4), ncp = c(0.5, 3)), 60),
  list("rbinom", "rbinom(n, size, prob)", list(size = 2^31, prob = 0.5), 40),
  list("rbinom", "rbinom(n, size, prob)", list(size = 2^31 - 1, prob = 0.3), 40),
  list("rbinom", "rbinom(n, size, prob)", list(size = 2^31, prob = 1e-9), 40),
  list("rbinom", "rbinom(n, size, prob)", list(size = 2^40, prob = 0.5), 40),
  list("rbinom", "rbinom(n, size, prob)", list(size = 2^32, prob = 0.999), 40),
  list("rbinom", "rbinom(n, size, prob)", list(size = c(2^31, 50, 2^34), prob = c(0.4, 0.5, 0.6, 1e-6)), 40),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 2^31, k = 2^31, kk = 10), 40),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 2^31, k = 5, kk = 2^31), 40),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = c(2^31, 10), k = c(7, 2^31), kk = c(1, 5, 3)), 40),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 1e20, k = 3e20, kk = 1e4), 40),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 2^31, k = 2^31, kk = 1), 40)
)
# Bad input: R's value (NaN / NA with "NAs produced") or R's error.
bad <- list(
  list("rchisq", "rchisq(6, df, ncp = ncp)", list(df = c(-1, NaN, Inf, 2, 2, 0), ncp = c(1, 1, 1, -1, NaN, 0))),
  list("rchisq", "rchisq(3, df, ncp = ncp)", list(df = 2, ncp = c(Inf, 1, -Inf))),
  list("rchisq", "rchisq(3, df, ncp = ncp)", list(df = 2, ncp = "a")),
  list("rbeta", "rbeta(4, shape1, shape2, ncp = ncp)", list(shape1 = c(-1, NaN, 2, 0), shape2 = 2, ncp = 1)),
  list("rbeta", "rbeta(3, shape1, shape2, ncp = ncp)", list(shape1 = 0, shape2 = 0, ncp = 0)),
  list("rbeta", "rbeta(3, shape1, shape2, ncp = ncp)", list(shape1 = "a", shape2 = 2, ncp = 1)),
  list("rt", "rt(4, df, ncp = ncp)", list(df = c(0, -1, Inf, 2), ncp = 1)),
  list("rt", "rt(2, df, ncp = ncp)", list(df = c(1, 2, 3), ncp = 0)),
  list("rt", "rt(3, df, ncp = ncp)", list(df = 2, ncp = c(NaN, 0.5))),
  list("rf", "rf(4, df1, df2, ncp = ncp)", list(df1 = c(0, -1, Inf, 2), df2 = 3, ncp = 1)),
  list("rf", "rf(2, df1, df2, ncp = ncp)", list(df1 = c(1, 2, 3), df2 = 4, ncp = 1)),
  list("rf", "rf(3, df1, df2, ncp = ncp)", list(df1 = 2, df2 = 3, ncp = -1)),
  list("rbinom", "rbinom(4, size, prob)", list(size = c(2^31, 2^31 + 0.5, 2^31, -1), prob = c(0.5, 0.5, NaN, 0.5))),
  list("rhyper", "rhyper(3, m, k, kk)", list(m = 2^31, k = 2^31, kk = 2^33))
)

out <- character(0)
id <- 0
emit <- function(fn, call, inputs, expected) {
  id <<- id + 1
  ins <- vapply(names(inputs), function(k) {
    v <- inputs[[k]]
    paste0(harness_json_string(k), ": ", if (is.character(v)) harness_json(v, unbox = FALSE) else json_vec(v))
  }, "")
  out <<- c(out, paste0('{"id": ', harness_json_string(sprintf("rng-ncp-%s-%03d", fn, id)),
    ', "function": ', harness_json_string(fn), ', "source": "probcal", "r_call": ', harness_json_string(call),
    ', "inputs": {', paste(ins, collapse = ", "), '}, "expected": ', expected, ', "rtol": 0.0, "atol": 0.0}'))
}
run <- function(call, env) {
  tryCatch(suppressWarnings(eval(parse(text = call), env)), error = function(e) e)
}
for (cs in cases) {
  fn <- cs[[1]]
  for (seed in seeds) {
    inputs <- c(list(seed = seed, n = cs[[4]]), cs[[3]])
    call <- sprintf("{set.seed(seed); c(%s, runif(2))}", cs[[2]])
    emit(fn, call, inputs, json_vec(run(call, list2env(inputs))))
  }
}
for (cs in bad) {
  fn <- cs[[1]]
  inputs <- c(list(seed = 3), cs[[3]])
  call <- sprintf("{set.seed(seed); c(%s, runif(2))}", cs[[2]])
  v <- run(call, list2env(inputs))
  expected <- if (inherits(v, "error")) paste0('{"error": ', harness_json_string(conditionMessage(v)), "}") else json_vec(v)
  emit(fn, call, inputs, expected)
}
header <- paste0('{"format_version": 1, "file": "rng_ncp.json", "generator": "tools/make_rng_ncp_fixtures.R", ',
  '"r_version": ', harness_json_string(paste(R.version$major, R.version$minor, sep = ".")),
  ', "probcal_version": ', harness_json_string(as.character(packageVersion("probcal"))),
  ', "date": ', harness_json_string(format(Sys.Date())),
  ', "rng_kind": ', harness_json(RNGkind(), unbox = FALSE), ', "n_cases": ', length(out),
  ', "cases": [\n')
writeLines(paste0(header, paste(out, collapse = ",\n"), "\n]}"), file.path("reference", "fixtures", "rng_ncp.json"))

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes reference/fixtures/rng.json: R 4.2.2's stats distributions under
# RNGkind("Mersenne-Twister", "Inversion", "Rejection"), for the stored
# fixture harness (tests/suites/project/test_fixtures.py). Each case seeds, draws, and
# appends two runif() values, so the stored numbers pin the values *and* the
# stream position after the call. Bad input cases store R's value (NaN/NA)
# or R's error message.
#
# Run from the repository root:  Rscript tools/make_rng_fixtures.R
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
seeds <- c(-7, 0, 1, 42, 2147483647)

num <- function(x) {
  if (is.na(x) && !is.nan(x)) return('"NA"')
  if (is.nan(x)) return('"NaN"')
  if (is.infinite(x)) return(if (x > 0) '"Inf"' else '"-Inf"')
  sprintf("%.17g", x)
}
vec <- function(x) paste0("[", paste(vapply(as.numeric(x), num, ""), collapse = ", "), "]")
str_json <- function(s) paste0('"', gsub('"', '\\\\"', s), '"')

# (function, call with `seed` and `n` bound, parameters) ; the call's last
# element is always runif(2), the stream position after the draw.
cases <- list(
  list("rexp", "rexp(n)", list()), list("rexp", "rexp(n, rate)", list(rate = c(2, 0.5, 1))),
  list("rgamma", "rgamma(n, shape)", list(shape = 0.3)),
  list("rgamma", "rgamma(n, shape)", list(shape = 1)),
  list("rgamma", "rgamma(n, shape, rate = rate)", list(shape = 1.7, rate = 3)),
  list("rgamma", "rgamma(n, shape, scale = scale)", list(shape = 4, scale = 2)),
  list("rgamma", "rgamma(n, shape)", list(shape = 20)),
  list("rgamma", "rgamma(n, shape)", list(shape = c(0.5, 2, 8, 1))),
  list("rbeta", "rbeta(n, shape1, shape2)", list(shape1 = 2, shape2 = 3)),
  list("rbeta", "rbeta(n, shape1, shape2)", list(shape1 = 0.5, shape2 = 0.7)),
  list("rbeta", "rbeta(n, shape1, shape2)", list(shape1 = 3, shape2 = 0.4)),
  list("rbeta", "rbeta(n, shape1, shape2)", list(shape1 = c(0.5, 2, 0), shape2 = c(3, 2, 0))),
  list("rchisq", "rchisq(n, df)", list(df = 3)), list("rchisq", "rchisq(n, df)", list(df = 1)),
  list("rt", "rt(n, df)", list(df = 4)), list("rt", "rt(n, df)", list(df = 1.5)),
  list("rf", "rf(n, df1, df2)", list(df1 = 3, df2 = 7)),
  list("rpois", "rpois(n, lambda)", list(lambda = 4)), list("rpois", "rpois(n, lambda)", list(lambda = 0.2)),
  list("rpois", "rpois(n, lambda)", list(lambda = 10)), list("rpois", "rpois(n, lambda)", list(lambda = 55.5)),
  list("rpois", "rpois(n, lambda)", list(lambda = c(3, 30, 9.99))),
  list("rgeom", "rgeom(n, prob)", list(prob = 0.2)),
  list("rnbinom", "rnbinom(n, size, prob)", list(size = 3, prob = 0.4)),
  list("rnbinom", "rnbinom(n, size, mu = mu)", list(size = 2.5, mu = 7)),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 10, k = 7, kk = 8)),
  list("rhyper", "rhyper(n, m, k, kk)", list(m = 300, k = 200, kk = 250)),
  list("rmultinom", "rmultinom(n, size, prob)", list(size = 12, prob = c(0.2, 0.3, 0.5))),
  list("rlogis", "rlogis(n, location, scale)", list(location = 1, scale = 2)),
  list("rweibull", "rweibull(n, shape, scale)", list(shape = 1.5, scale = 2)),
  list("rcauchy", "rcauchy(n)", list()),
  list("rlnorm", "rlnorm(n, meanlog, sdlog)", list(meanlog = 1, sdlog = 0.5))
)
# Bad input: R's value (NaN / NA with "NAs produced") or R's error.
bad <- list(
  list("rexp", "rexp(5, rate)", list(rate = c(1, NaN, 0, Inf, -1))),
  list("rgamma", "rgamma(5, shape)", list(shape = c(-1, 0, 2, NaN, Inf))),
  list("rgamma", "rgamma(3, shape, rate = 2, scale = 2)", list(shape = 2)),
  list("rbeta", "rbeta(6, shape1, shape2)", list(shape1 = c(0, Inf, Inf, 2, -1, 0), shape2 = c(0, Inf, 2, 0, 1, 3))),
  list("rchisq", "rchisq(4, df)", list(df = c(0, -1, Inf, 2))),
  list("rt", "rt(4, df)", list(df = c(0, Inf, 2, NaN))),
  list("rf", "rf(4, df1, df2)", list(df1 = c(Inf, 2, Inf, -1), df2 = c(Inf, Inf, 3, 2))),
  list("rpois", "rpois(5, lambda)", list(lambda = c(-1, 0, NaN, Inf, 3))),
  list("rgeom", "rgeom(5, prob)", list(prob = c(0, 1, 1.5, NaN, 0.5))),
  list("rnbinom", "rnbinom(5, size, prob)", list(size = c(0, Inf, 2, -1, 3), prob = 0.5)),
  list("rnbinom", "rnbinom(3, size, prob, mu)", list(size = 2, prob = 0.5, mu = 3)),
  list("rhyper", "rhyper(5, m, k, kk)", list(m = c(3, -1, 5, NaN, 2.6), k = 4, kk = c(8, 2, 2, 1, 1))),
  list("rmultinom", "rmultinom(2, size, prob)", list(size = 5, prob = c(1, -1))),
  list("rmultinom", "rmultinom(2, size, prob)", list(size = 5, prob = c(0, 0))),
  list("rmultinom", "rmultinom(2, size, prob)", list(size = -5, prob = 1)),
  list("rlogis", "rlogis(4, location, scale)", list(location = c(0, NaN, Inf, 1), scale = c(1, 1, 1, -2))),
  list("rweibull", "rweibull(4, shape, scale)", list(shape = c(1, 0, 2, Inf), scale = c(1, 1, 0, 1))),
  list("rcauchy", "rcauchy(4, location, scale)", list(location = c(0, Inf, NaN, 1), scale = c(1, 1, 1, -1))),
  list("rlnorm", "rlnorm(4, meanlog, sdlog)", list(meanlog = c(0, Inf, NaN, 1), sdlog = c(1, 1, 1, 0))),
  list("rexp", "rexp(n)", list(n = -1))
)

out <- character(0)
id <- 0
emit <- function(fn, call, inputs, expected) {
  id <<- id + 1
  ins <- vapply(names(inputs), function(k) paste0(str_json(k), ": ", vec(inputs[[k]])), "")
  out <<- c(out, paste0('{"id": ', str_json(sprintf("rng-%s-%03d", fn, id)), ', "function": ', str_json(fn),
    ', "source": "probcal", "r_call": ', str_json(call), ', "inputs": {', paste(ins, collapse = ", "),
    '}, "expected": ', expected, ', "rtol": 0.0, "atol": 0.0}'))
}
run <- function(call, env) {
  tryCatch(suppressWarnings(eval(parse(text = call), env)), error = function(e) e)
}
for (cs in cases) {
  fn <- cs[[1]]
  for (seed in seeds) {
    n <- if (fn %in% c("rmultinom")) 20 else 60
    inputs <- c(list(seed = seed, n = n), cs[[3]])
    call <- sprintf("{set.seed(seed); c(%s, runif(2))}", cs[[2]])
    v <- run(call, list2env(inputs))
    emit(fn, call, inputs, vec(v))
  }
}
for (cs in bad) {
  fn <- cs[[1]]
  inputs <- c(list(seed = 3), cs[[3]])
  call <- sprintf("{set.seed(seed); c(%s, runif(2))}", cs[[2]])
  v <- run(call, list2env(inputs))
  expected <- if (inherits(v, "error")) paste0('{"error": ', str_json(conditionMessage(v)), "}") else vec(v)
  emit(fn, call, inputs, expected)
}
header <- paste0('{"format_version": 1, "file": "rng.json", "generator": "tools/make_rng_fixtures.R", ',
  '"r_version": ', str_json(paste(R.version$major, R.version$minor, sep = ".")),
  ', "probcal_version": ', str_json(as.character(packageVersion("probcal"))),
  ', "date": ', str_json(format(Sys.Date())),
  ', "rng_kind": [', paste(vapply(RNGkind(), str_json, ""), collapse = ", "), '], "n_cases": ', length(out),
  ', "cases": [\n')
writeLines(paste0(header, paste(out, collapse = ",\n"), "\n]}"), "reference/fixtures/rng.json")

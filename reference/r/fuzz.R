# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls probcal through its API
# Fuzz cases: bad and odd inputs for every export, drawn and evaluated in R.
# Base R only; needs pycalib_r/r/harness.R sourced first.
#
#   fuzz_cases(envs, seed, per_function)
#       draws `per_function` cases (times the entry's `share`, if any) for
#       each entry of fuzz_specs() from R's
#       stream after set.seed(seed), evaluates each one in R (probcal 0.1.0
#       or pycalib_r/r/contract.R, as the entry says) and returns the cases
#       as JSON object strings in the fixture format of reference/README.md
#       (id, function, source, r_call, inputs, expected, rtol, atol), where
#       `expected` is the value or list(error = conditionMessage()).
#
# Each argument of a case is its valid value with probability 0.6 and an odd
# or bad one otherwise, so single and joint faults both occur. Sizes stay
# small (R's own loops are slow); huge valid sizes are left to the resource
# test, which R could not survive.
#
# Used by tools/make_fuzz_fixtures.R (the stored reference/fixtures/fuzz.json)
# and tests/suites/fuzz/test_fuzz.py (fresh cases through rpy2).

fuzz_tolerance <- list(
  exact = c(0, 0), closed = c(1e-12, 1e-15), kernel = c(1e-12, 1e-14),
  asym_p = c(1e-10, 1e-300), brent_glm = c(1e-7, 1e-9), bfgs = c(1e-5, 1e-7)
)

fuzz_pick <- function(pool) pool[[sample.int(length(pool), 1L)]]

# With probability 0.6 the valid value, else one of the odd ones.
fuzz_arg <- function(valid, odd) {
  if (runif(1) < 0.6) valid else fuzz_pick(odd)
}

fuzz_data <- function(n, k = 3L) {
  p <- runif(n)
  y <- rbinom(n, 1L, p)
  if (length(unique(y)) < 2L) y[1:2] <- c(0L, 1L)
  raw <- matrix(runif(n * k), n, k)
  pm <- raw / rowSums(raw)
  ym <- c(seq_len(k), sample.int(k, n - k, replace = TRUE))
  logits <- matrix(rnorm(n * k), n, k)
  list(n = n, p = p, y = y, pm = pm, ym = ym, logits = logits)
}

fuzz_p_vector <- function(d) {
  p <- d$p
  n <- d$n
  list(p[-1L], replace(p, 1L, NA), replace(p, 2L, NaN), replace(p, 1L, Inf),
       replace(p, 1L, -0.1), replace(p, 1L, 1.1), numeric(0), as.character(p),
       p > 0.5, 0.5, rep(0.3, n), replace(p, 1:2, c(0, 1)), matrix(p, ncol = 1L),
       as.integer(p > 0.5), round(p, 1), c(p, p))
}

fuzz_y_binary <- function(d) {
  y <- d$y
  list(replace(y, 1L, 2L), replace(y, 1L, -1L), replace(as.double(y), 1L, 0.5),
       replace(y, 1L, NA), y == 1L, as.character(y), y[-1L], rep(0L, d$n),
       factor(y), as.double(y), c(y, y))
}

fuzz_p_matrix <- function(d) {
  pm <- d$pm
  list(pm * 1.01, replace(pm, 1L, NA), replace(pm, 1L, -0.2), pm[, 1L, drop = FALSE],
       pm[-1L, , drop = FALSE], cbind(pm, 0), round(pm, 1), pm[, c(3L, 2L, 1L)],
       matrix(1 / 3, d$n, 3L))
}

# Codes beyond R's integer range only for probcal's own functions: there R's
# as.integer() makes them NA and its if () fails; pycalib_r/r/contract.R then
# takes max() of the NA and reports "at least two classes", an accident of
# the transcription that pycalib_r does not copy.
fuzz_y_multiclass <- function(d, source = "probcal") {
  ym <- d$ym
  huge <- if (identical(source, "probcal")) {
    list(replace(as.double(ym), 1L, 1e10), replace(as.double(ym), 1L, 2^31))
  }
  c(list(replace(ym, 1L, 0L), replace(ym, 1L, 4L), replace(as.double(ym), 1L, 1e8),
         replace(as.double(ym), 1L, 2.5), replace(ym, 1L, NA), factor(ym),
         factor(ym, levels = 1:4), as.character(ym), ym > 1L, ym[-1L],
         replace(ym, 1L, -1L), pmin(ym, 2L), rep(1L, d$n)), huge)
}

fuzz_scalar_pools <- list(
  bins = list(list(10L, 1L, 2L, 3L, 7L), list(0, -1, 1.5, "a", TRUE, c(2, 3), 2^31, Inf, 25, 100, 2^31 - 0.5)),
  type = list(list("classwise", "confidence"), list("canonical", "c", "conf", "", "bad", c("a", "b"), 1)),
  skce_type = list(list("canonical", "confidence", "classwise"), list("c", "conf", "cl", "", "bad", 1)),
  # FALSE only with equal_freq would be 0.2.0-only; plain ece() is probcal 0.1.0's.
  debiased = list(list(TRUE), list("yes", 1, c(TRUE, FALSE))),
  strategy = list(list("equal_width", "equal_freq"), list("equal", "e", "x", 2)),
  estimator = list(list("uq", "ul", "biased"), list("u", "b", "x", "", 1)),
  bandwidth = list(list(0.2, 0.05, 1, "median"), list("med", 0, -1, Inf, "x", c(0.1, 0.2), TRUE, NaN)),
  bandwidth01 = list(list(0.2, 0.05, 1), list("median", 0, -1, Inf, "x", c(0.1, 0.2), TRUE)),
  conf_level = list(list(0.95, 0.8), list(0, 1, 1.5, -0.1, "a", c(0.9, 0.95))),
  n_boot = list(list(19L, 9L), list(1, 0, 2.5, 2^31, -3, "a", c(5, 6))),
  metric = list(list("ece", "skce", "mmce", "mce", "ace"), list("e", "m", "x", "", 1)),
  test_method = list(list("bootstrap", "asymptotic"), list("a", "b", "x", "")),
  eps = list(list(1e-3, .Machine$double.eps), list(0, 0.5, -1, "a", c(1e-3, 1e-4), 0.6)),
  ovr_method = list(list("platt", "beta", "isotonic", "histogram", "temperature"), list("x", "p", "vector", "")),
  cv_method = list(list("platt", "isotonic", "histogram", "temperature", "vector", "ovr"), list("x", "beta2", "", "dirichlet")),
  folds = list(list(2L, 3L), list(1, 0, 2.5, 2^31, 100, "a")),
  seed = list(list(1L, 42L), list(1L))
)

fuzz_scalar <- function(role) {
  pools <- fuzz_scalar_pools[[role]]
  value <- fuzz_arg(fuzz_pick(pools[[1L]]), pools[[2L]])
  if (length(value) == 1L) harness_scalar(value) else value
}

# Probability input and labels: binary or multiclass form, each possibly odd,
# and now and then the wrong form for the labels.
fuzz_py <- function(d, multiclass, source) {
  if (multiclass) {
    p <- fuzz_arg(d$pm, fuzz_p_matrix(d))
    y <- fuzz_arg(d$ym, c(fuzz_y_multiclass(d, source), list(d$y)))
  } else {
    p <- fuzz_arg(d$p, fuzz_p_vector(d))
    y <- fuzz_arg(d$y, c(fuzz_y_binary(d), list(d$ym)))
  }
  list(p = p, y = y)
}

fuzz_specs <- function() {
  list(
    list(fun = "ece", source = "probcal", tol = "closed", call = "ece(p, y, bins = bins, type = type)",
         args = c("bins", "type")),
    list(fun = "ece", source = "contract", tol = "kernel",
         call = "ece(p, y, bins = bins, type = type, debiased = debiased, strategy = strategy)",
         args = c("bins", "type", "debiased", "strategy")),
    list(fun = "mce", source = "probcal", tol = "closed", call = "mce(p, y, bins = bins, type = type)",
         args = c("bins", "type")),
    list(fun = "ace", source = "probcal", tol = "closed", call = "ace(p, y, bins = bins, type = type)",
         args = c("bins", "type")),
    list(fun = "mmce", source = "probcal", tol = "kernel", call = "mmce(p, y, bandwidth = bandwidth)",
         args = c("bandwidth" = "bandwidth01")),
    list(fun = "skce", source = "contract", tol = "kernel",
         call = "skce(p, y, estimator = estimator, bandwidth = bandwidth, type = type)",
         args = c("estimator", "bandwidth", "type" = "skce_type")),
    list(fun = "logit", source = "probcal", tol = "closed", call = "logit(p, eps = eps)",
         args = c("eps"), labels = FALSE),
    list(fun = "inv_logit", source = "probcal", tol = "closed", call = "inv_logit(p)",
         args = character(0), labels = FALSE),
    list(fun = "cal_test", source = "contract", tol = "asym_p",
         call = "{set.seed(seed); cal_test(p, y, method = method, bandwidth = bandwidth, n_boot = n_boot, type = type)$p.value}",
         args = c("seed", "method" = "test_method", "bandwidth", "n_boot", "type" = "skce_type")),
    list(fun = "cal_ci", source = "contract", tol = "kernel",
         call = "{set.seed(seed); cal_ci(p, y, metric = metric, conf_level = conf_level, n_boot = n_boot, bins = bins)$upper}",
         args = c("seed", "metric", "conf_level", "n_boot", "bins")),
    list(fun = "cal_platt", source = "probcal", tol = "brent_glm", call = "predict(cal_platt(p, y), p)",
         args = character(0), binary = TRUE),
    list(fun = "cal_beta", source = "probcal", tol = "brent_glm", call = "predict(cal_beta(p, y), p)",
         args = character(0), binary = TRUE),
    list(fun = "cal_isotonic", source = "probcal", tol = "closed", call = "predict(cal_isotonic(p, y), p)",
         args = character(0), binary = TRUE),
    list(fun = "cal_histogram", source = "probcal", tol = "closed",
         call = "predict(cal_histogram(p, y, bins = bins), p)", args = c("bins"), binary = TRUE),
    list(fun = "cal_temperature", source = "probcal", tol = "brent_glm",
         call = "predict(cal_temperature(logits, y), logits)", args = character(0), logits = TRUE),
    list(fun = "cal_vector_scaling", source = "probcal", tol = "bfgs",
         call = "predict(cal_vector_scaling(logits, y), logits)", args = character(0), logits = TRUE),
    # Dirichlet fits are slow in R (an optim() per fit): a fifth of the cases.
    list(fun = "cal_dirichlet", source = "probcal", tol = "bfgs",
         call = "predict(cal_dirichlet(p, y), p)", args = character(0), multiclass = TRUE,
         share = 0.2),
    list(fun = "cal_ovr", source = "probcal", tol = "bfgs",
         call = "predict(cal_ovr(p, y, method = method), p)", args = c("method" = "ovr_method"),
         multiclass = TRUE),
    list(fun = "cal_cv", source = "probcal", tol = "bfgs",
         call = "cal_cv(p, y, method = method, folds = folds, seed = seed)$oof_predictions",
         args = c("method" = "cv_method", "folds", "seed")),
    list(fun = "reliability_diagram", source = "probcal", tol = "closed",
         call = "reliability_diagram(p, y, bins = bins, type = type)$data", args = c("bins", "type"))
  )
}

fuzz_one <- function(spec, d) {
  form <- if (isTRUE(spec$binary)) FALSE else if (isTRUE(spec$multiclass) || isTRUE(spec$logits)) TRUE
          else runif(1) < 0.4
  inputs <- fuzz_py(d, form, spec$source)
  if (isTRUE(spec$logits)) {
    inputs$logits <- fuzz_arg(d$logits, c(fuzz_p_matrix(d)[c(2L, 4L, 5L)], list(d$p)))
    inputs$p <- NULL
    inputs$y <- fuzz_arg(d$ym, fuzz_y_multiclass(d, spec$source))
  }
  if (identical(spec$labels, FALSE)) inputs$y <- NULL
  roles <- spec$args
  names_ <- if (is.null(names(roles))) roles else ifelse(names(roles) == "", roles, names(roles))
  for (i in seq_along(roles)) inputs[[names_[i]]] <- fuzz_scalar(roles[[i]])
  inputs
}

fuzz_cases <- function(envs, seed, per_function) {
  set.seed(seed)
  specs <- fuzz_specs()
  out <- character(0)
  for (spec in specs) {
    share <- if (is.null(spec$share)) 1 else spec$share
    for (i in seq_len(max(1L, round(per_function * share)))) {
      d <- fuzz_data(sample(c(4:12, 30L), 1L))
      inputs <- fuzz_one(spec, d)
      # The case's own draws must not move the generator's stream.
      state <- .Random.seed
      expected <- tryCatch(
        harness_eval(spec$call, inputs, "value", envs[[spec$source]]),
        error = function(e) list(error = conditionMessage(e))
      )
      assign(".Random.seed", state, envir = globalenv())
      is_error <- is.list(expected) && identical(names(expected), "error")
      tol <- if (is_error) fuzz_tolerance$exact else fuzz_tolerance[[spec$tol]]
      fields <- c(
        id = harness_json_string(sprintf("fuzz-%s-%s-%d-%04d", spec$fun, spec$source, seed, i)),
        `function` = harness_json_string(spec$fun),
        source = harness_json_string(spec$source),
        r_call = harness_json_string(spec$call),
        inputs = harness_json(inputs, unbox = FALSE),
        expected = harness_json(expected, unbox = TRUE),
        rtol = harness_json_double(tol[[1L]]),
        atol = harness_json_double(tol[[2L]])
      )
      out <- c(out, paste0(
        "    {\n",
        paste0("      ", harness_json_string(names(fields)), ": ", fields, collapse = ",\n"),
        "\n    }"
      ))
    }
  }
  out
}

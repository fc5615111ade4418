# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls rms, ResourceSelection and MASS through their APIs
# R's side of the validation parity checks (tests/diagnostics/test_validation.py,
# tests/suites/differential/test_differential_validation.py, tools/make_validation_fixtures.py):
# rms::val.prob, ResourceSelection::hoslem.test, glm's calibration intercept
# and slope with confint.default and MASS's profile confint, stats::lowess,
# for one data set. Every call's value, printed text, warnings and error
# message are returned as a list (NA names and values kept as NA).

validation_try <- function(expr) {
  warns <- character()
  value <- withCallingHandlers(
    tryCatch(expr, error = function(e) list(error = conditionMessage(e))),
    warning = function(w) {
      warns <<- c(warns, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  value$warnings <- as.list(warns)
  value
}

validation_versions <- function() {
  v <- function(pkg) if (requireNamespace(pkg, quietly = TRUE)) format(packageVersion(pkg)) else NA_character_
  list(R = format(getRversion()), rms = v("rms"), MASS = v("MASS"),
       ResourceSelection = v("ResourceSelection"))
}

validation_val_prob <- function(p, y) validation_try({
  v <- rms::val.prob(p, y, pl = FALSE)
  list(names = as.list(ifelse(is.na(names(v)), "NA", names(v))), values = as.list(unname(v)),
       printed = paste(capture.output(print(v)), collapse = "\n"))
})

validation_hoslem <- function(p, y, g) {
  if (!requireNamespace("ResourceSelection", quietly = TRUE)) return(list(absent = TRUE))
  validation_try({
    h <- ResourceSelection::hoslem.test(y, p, g = g)
    list(statistic = unname(h$statistic), parameter = unname(h$parameter),
         p.value = h$p.value, printed = paste(capture.output(print(h)), collapse = "\n"),
         observed = as.list(c(h$observed)), expected = as.list(c(h$expected)),
         groups = as.list(rownames(h$observed)))
  })
}

validation_glm <- function(p, y, conf_level) validation_try({
  L <- qlogis(p)
  f1 <- glm(y ~ offset(L), family = binomial)
  f2 <- glm(y ~ L, family = binomial)
  w1 <- confint.default(f1, level = conf_level)
  w2 <- confint.default(f2, level = conf_level)
  m <- rbind(Intercept = c(Estimate = unname(coef(f1)), w1[1, ]),
             Slope = c(Estimate = unname(coef(f2)[2]), w2[2, ]))
  prof <- validation_try(suppressMessages(list(
    intercept = as.list(unname(c(MASS:::confint.glm(f1, level = conf_level)))),
    slope = as.list(unname(MASS:::confint.glm(f2, parm = "L", level = conf_level))))))
  list(intercept = unname(coef(f1)), slope = unname(coef(f2)[2]),
       se_intercept = unname(sqrt(diag(vcov(f1)))), se_slope = unname(sqrt(diag(vcov(f2)))[2]),
       wald_intercept = as.list(unname(w1[1, ])), wald_slope = as.list(unname(w2[2, ])),
       printed = paste(capture.output(print(m)), collapse = "\n"), profile = prof)
})

validation_lowess <- function(p, y, f, iter) validation_try(list(y = as.list(lowess(p, y, f = f, iter = iter)$y)))

validation_case <- function(p, y, g = 10, conf_level = 0.95, f = 2/3, iter = 0L) {
  glm <- validation_glm(p, y, conf_level)
  list(val_prob = validation_val_prob(p, y), hoslem = validation_hoslem(p, y, g),
       glm = glm, lowess = validation_lowess(p, y, f, iter))
}

# The same as JSON (pycalib_r/r/harness.R's writer, 17 significant digits).
validation_case_json <- function(p, y, g, conf_level, f, iter) {
  harness_json(validation_case(p, y, g, conf_level, f, iter))
}

# The differential programs' extra calls (tests/suites/differential/test_differential_validation.py).
validation_logit_json <- function(lg, y) {
  harness_json(validation_try({
    v <- rms::val.prob(logit = lg, y = y, pl = FALSE)
    list(names = as.list(ifelse(is.na(names(v)), "NA", names(v))), values = as.list(unname(v)),
         printed = paste(capture.output(print(v)), collapse = "\n"))
  }))
}

validation_error <- function(code, p, y) {
  tryCatch({ suppressWarnings(eval(parse(text = code))); "no error" },
           error = function(e) conditionMessage(e))
}

# --- val.prob's grouped statistics (tests/_val_probg_cases.py, tests/diagnostics/test_val_probg.py) ---

validation_versions_grouped <- function() {
  v <- function(pkg) if (requireNamespace(pkg, quietly = TRUE)) format(packageVersion(pkg)) else NA_character_
  list(R = format(getRversion()), rms = v("rms"), Hmisc = v("Hmisc"))
}

# The group as the case describes it: "true" (group = TRUE), "character",
# "logical", "numeric" or "factor" (levels in the given order).
validation_group <- function(kind, values, levels) {
  switch(kind,
         true = TRUE,
         character = as.character(values),
         logical = as.logical(values),
         numeric = as.numeric(values),
         factor = factor(as.character(values), levels = as.character(levels)))
}

validation_val_probg <- function(p, y, kind, values, levels, weights, normwt, g.group,
                                 evaluate, nmin) validation_try({
  group <- validation_group(kind, values, levels)
  r <- rms::val.prob(p, y, group = group, weights = weights, normwt = normwt, pl = FALSE,
                     g.group = g.group, evaluate = evaluate, nmin = nmin)
  list(rows = as.list(rownames(r$stats)), stats = r$stats, quantiles = r$quantiles,
       curves = lapply(unname(r$cal.curves), function(cv) list(x = as.list(cv$x), y = as.list(cv$y))),
       printed = paste(capture.output(print(r)), collapse = "\n"))
})

validation_val_probg_json <- function(p, y, kind, values, levels, weights, normwt, g.group,
                                      evaluate, nmin) {
  harness_json(validation_val_probg(p, y, kind, values, levels, weights, normwt, g.group,
                                    evaluate, nmin))
}

validation_loess_json <- function(x, y, w, span, degree, surface, cell) {
  harness_json(validation_try(list(fitted = as.list(unname(fitted(loess(
    y ~ x, weights = w, span = span, degree = degree,
    control = loess.control(surface = surface, cell = cell, iterations = 1L))))))))
}

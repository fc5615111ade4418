# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls reliabilitydiag through its API
# CORP reference cases: reliabilitydiag() on seeded data, encoded as JSON.
#
# Used live by tests/diagnostics/test_corp.py (through rpy2) and by
# tools/make_corp_fixtures.R, which stores the cases in
# reference/bin_free/corp.json for runs without reliabilitydiag. Doubles are
# written as C99 hex floats ("%a"), so the stored values are R's bits.

corp_specs <- function() {
  list(
    list(name = "continuous_resampling", seed = 1L, n = 300L, shape = 1.3, digits = NA,
         band_seed = 7L, method = NA, position = "diagonal", n_boot = 100L, level = 0.9),
    list(name = "continuous_resampling_estimate", seed = 2L, n = 300L, shape = 0.7, digits = NA,
         band_seed = 11L, method = NA, position = "estimate", n_boot = 50L, level = 0.9),
    list(name = "small_ties_resampling", seed = 3L, n = 15L, shape = 1, digits = 1L,
         band_seed = 5L, method = "resampling", position = "diagonal", n_boot = 200L, level = 0.8),
    list(name = "discrete_asymptotics", seed = 4L, n = 2000L, shape = 1.5, digits = 2L,
         band_seed = 1L, method = "discrete_asymptotics", position = "diagonal", n_boot = 100L,
         level = 0.9),
    list(name = "discrete_default_estimate", seed = 5L, n = 5000L, shape = 0.8, digits = 1L,
         band_seed = 1L, method = NA, position = "estimate", n_boot = 20L, level = 0.9),
    list(name = "default_discrete_asymptotics", seed = 6L, n = 5000L, shape = 1.2, digits = 1L,
         band_seed = 1L, method = NA, position = "diagonal", n_boot = 100L, level = 0.95),
    list(name = "continuous_asymptotics", seed = 7L, n = 3000L, shape = 1.4, digits = NA,
         band_seed = 1L, method = "continuous_asymptotics", position = "diagonal", n_boot = 100L,
         level = 0.9),
    list(name = "continuous_asymptotics_estimate", seed = 8L, n = 3000L, shape = 0.9, digits = NA,
         band_seed = 1L, method = "continuous_asymptotics", position = "estimate", n_boot = 100L,
         level = 0.9),
    list(name = "no_regions", seed = 9L, n = 500L, shape = 2, digits = NA,
         band_seed = 1L, method = NA, position = NA, n_boot = 100L, level = NA),
    list(name = "discrete_resampling_level_half", seed = 10L, n = 400L, shape = 1, digits = 2L,
         band_seed = 3L, method = "resampling", position = "estimate", n_boot = 100L, level = 0.5),
    list(name = "xvalues_snapped", seed = 11L, n = 500L, shape = 1.2, digits = NA,
         band_seed = 4L, method = NA, position = "diagonal", n_boot = 100L, level = 0.9,
         xvalues = seq(0, 1, by = 0.1))
  )
}

corp_hex <- function(x) ifelse(is.na(x), "NA", sprintf("%a", x))

corp_case <- function(spec) {
  set.seed(spec$seed)
  p <- stats::runif(spec$n)
  y <- stats::rbinom(spec$n, 1L, p^spec$shape)
  if (!is.na(spec$digits)) p <- round(p, spec$digits)
  method <- if (is.na(spec$method)) NULL else spec$method
  level <- if (is.na(spec$level)) NA else spec$level
  position <- if (is.na(spec$position)) NA else spec$position
  set.seed(spec$band_seed)
  r <- reliabilitydiag::reliabilitydiag(X = p, y = y, region.level = level, region.method = method,
                                        region.position = position, n.boot = spec$n_boot,
                                        xvalues = spec$xvalues)
  if (!is.null(spec$xvalues)) spec$xvalues <- corp_hex(spec$xvalues)
  l <- r$X
  sb <- summary(r)
  sl <- summary(r, score = function(y, x) -log(ifelse(y == 1, x, 1 - x)))
  regions <- l$regions
  list(
    spec = spec,
    p = corp_hex(p), y = as.integer(y),
    case_id = as.integer(l$cases$case_id),
    bins = list(n = as.integer(l$bins$n), x_min = corp_hex(l$bins$x_min),
                x_max = corp_hex(l$bins$x_max), CEP_pav = corp_hex(l$bins$CEP_pav)),
    xtype = l$xinfo$type,
    regions = list(x = corp_hex(regions$x), lower = corp_hex(regions$lower),
                   upper = corp_hex(regions$upper), n = corp_hex(as.double(regions$n)),
                   method = as.character(regions$method), level = corp_hex(regions$level),
                   position = as.character(regions$position)),
    brier = corp_hex(unlist(sb[1L, -1L])), log = corp_hex(unlist(sl[1L, -1L])),
    brier_print = paste(utils::capture.output(print(sb)), collapse = "\n")
  )
}

corp_versions <- function() {
  list(reliabilitydiag = as.character(utils::packageVersion("reliabilitydiag")),
       R = paste(R.version$major, R.version$minor, sep = "."),
       pillar = as.character(utils::packageVersion("pillar")),
       rng_kind = RNGkind())
}

corp_case_json <- function(i) {
  jsonlite::toJSON(corp_case(corp_specs()[[i]]), auto_unbox = TRUE, na = "string", digits = NA)
}

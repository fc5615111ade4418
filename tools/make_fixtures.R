#!/usr/bin/env Rscript
# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; runs R and its packages through their APIs to store reference values
# Writes the parity fixtures reference/fixtures/*.json.
#
# Run from anywhere, with R (4.2.2 is the reference) and the probcal R package
# installed:
#     Rscript tools/make_fixtures.R
#
# Each case is evaluated here, in R: probcal 0.1.0 exports come from
# library(probcal) ("source": "probcal"); the 0.2.0 functions (skce, cal_test,
# cal_ci, and ece's debiased/strategy arguments) come from
# pycalib_r/r/contract.R ("source": "contract"), an implementation of the
# contract written from its formulas. Inputs are generated from fixed seeds and
# the data themselves are stored. Numbers are written at full precision by the
# small JSON writer in pycalib_r/r/harness.R (never through write.csv).
#
# After writing, copy the R and probcal versions it prints into
# reference/manifest.toml if they changed.

main <- function() {
  root <- local({
    file_arg <- grep("^--file=", commandArgs(FALSE), value = TRUE)
    if (length(file_arg) == 0L) stop("run this script with Rscript")
    normalizePath(file.path(dirname(sub("^--file=", "", file_arg[[1L]])), ".."))
  })
  source(file.path(root, "pycalib_r", "r", "harness.R"), local = FALSE)
  harness_setup()
  envs <- harness_envs(root, need_probcal = TRUE)
  out_dir <- file.path(root, "reference", "fixtures")
  dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)

  files <- new.env()
  ids <- new.env()
  crosscheck <- new.env()
  crosscheck$max_rel <- 0
  crosscheck$n <- 0L
  crosscheck$message_mismatch <- character()

  # -------------------------------------------------------------------------
  # Tolerances (see reference/manifest.toml).
  # -------------------------------------------------------------------------
  tol <- list(
    exact = c(0, 0),
    closed = c(1e-12, 1e-15),     # closed-form arithmetic
    kernel = c(1e-12, 1e-14),     # sums of n^2 kernel terms with cancellation
    asym_p = c(1e-10, 1e-300),    # normal upper tail of z (relative error grows with z)
    brent_glm = c(1e-7, 1e-9),    # IRLS (glm) or Brent (optim "Brent") fits
    bfgs = c(1e-5, 1e-7)          # optim "BFGS" fits (vector scaling, Dirichlet)
  )

  add <- function(file, stem, fun, r_call, inputs = list(), kind = "value",
                  source = "probcal", tolerance = "closed", note = NULL) {
    parent <- envs[[source]]
    expected <- harness_eval(r_call, inputs, kind, parent)
    if (identical(kind, "value") && is.null(expected)) stop("NULL result: ", r_call)

    # The contract's formula-level metrics must agree with probcal wherever
    # both exist.
    if (identical(source, "probcal") && fun %in% c("ece", "mce", "ace", "mmce")) {
      other <- harness_eval(r_call, inputs, kind, envs$contract)
      if (identical(kind, "error")) {
        if (!identical(other$error, expected$error)) {
          crosscheck$message_mismatch <- c(crosscheck$message_mismatch,
            sprintf("%s: probcal %s / contract %s", r_call, expected$error, other$error))
        }
      } else {
        scale <- max(abs(expected), 1e-300)
        rel <- max(abs(other - expected)) / scale
        if (max(abs(other - expected)) > 1e-15 && rel > 1e-12) {
          stop("contract.R disagrees with probcal on ", r_call, ": ", other, " vs ", expected)
        }
        crosscheck$max_rel <- max(crosscheck$max_rel, if (max(abs(expected)) > 0) rel else 0)
        crosscheck$n <- crosscheck$n + 1L
      }
    }

    count <- if (exists(stem, envir = ids, inherits = FALSE)) get(stem, envir = ids) + 1L else 1L
    assign(stem, count, envir = ids)
    id <- sprintf("%s-%03d", stem, count)

    tolerance_pair <- if (kind %in% c("print", "error")) tol$exact else tol[[tolerance]]
    fields <- c(
      id = harness_json_string(id),
      `function` = harness_json_string(fun),
      source = harness_json_string(source),
      r_call = harness_json_string(r_call),
      inputs = if (length(inputs) == 0L) "{}" else harness_json(inputs, unbox = FALSE),
      expected = harness_json(expected, unbox = TRUE),
      rtol = harness_json_double(tolerance_pair[[1L]]),
      atol = harness_json_double(tolerance_pair[[2L]])
    )
    if (!is.null(note)) fields <- c(fields, note = harness_json_string(note))
    text <- paste0(
      "    {\n",
      paste0("      ", harness_json_string(names(fields)), ": ", fields, collapse = ",\n"),
      "\n    }"
    )
    assign(file, c(if (exists(file, envir = files, inherits = FALSE)) get(file, envir = files), text),
           envir = files)
    invisible(id)
  }

  S <- harness_scalar

  # -------------------------------------------------------------------------
  # Data sets. Each is generated from a fixed seed; the data are stored in the
  # fixtures, so the generators only need to run here.
  # -------------------------------------------------------------------------
  bin_data <- function(seed, n, shift = 0) {
    set.seed(seed)
    p <- stats::runif(n)
    y <- stats::rbinom(n, 1, pmin(pmax(p + shift, 0), 1))
    list(p = p, y = y)
  }
  multi_data <- function(seed, n, k, sharpen = 1, factor_levels = NULL) {
    set.seed(seed)
    repeat {
      m <- matrix(stats::runif(n * k)^sharpen, ncol = k)
      m <- m / rowSums(m)
      y <- vapply(seq_len(n), function(i) sample.int(k, 1L, prob = m[i, ]), integer(1))
      if (length(unique(y)) == k) break
    }
    if (!is.null(factor_levels)) y <- factor(factor_levels[y], levels = factor_levels)
    list(p = m, y = y)
  }

  bin_sets <- list(
    calibrated = bin_data(101, 120),
    overconfident = bin_data(102, 100, shift = -0.2),
    underconfident = bin_data(103, 80, shift = 0.15),
    ties = list(p = c(0.2, 0.2, 0.2, 0.5, 0.5, 0.8, 0.8, 0.8, 0.8, 0.35),
                y = c(0L, 1L, 0L, 1L, 1L, 1L, 0L, 1L, 1L, 0L)),
    edges_0_1 = list(p = c(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 0),
                     y = c(0L, 0L, 0L, 1L, 0L, 1L, 1L, 0L, 1L, 1L, 1L, 1L, 0L)),
    empty_bins = list(p = c(0.02, 0.05, 0.11, 0.15, 0.85, 0.91, 0.97, 0.99),
                      y = c(0L, 0L, 1L, 0L, 1L, 1L, 0L, 1L)),
    single_bin = list(p = c(0.31, 0.33, 0.35, 0.37, 0.39), y = c(0L, 1L, 0L, 0L, 1L)),
    n2 = list(p = c(0.25, 0.75), y = c(0L, 1L)),
    all_equal = list(p = rep(0.6, 10), y = c(1L, 1L, 0L, 1L, 0L, 1L, 1L, 0L, 1L, 1L)),
    n1 = list(p = 0.3, y = 1L),
    zeros_ones = list(p = c(0, 0, 1, 1, 0, 1), y = c(0L, 0L, 1L, 1L, 1L, 0L)),
    all_negative = list(p = c(0.05, 0.4, 0.12, 0.7, 0.33, 0.9), y = rep(0L, 6)),
    double_labels = list(p = c(0.1, 0.45, 0.55, 0.72, 0.95, 0.3), y = c(0, 1, 1, 0, 1, 0))
  )
  logical_set <- list(p = bin_sets$calibrated$p[1:20], y = bin_sets$calibrated$y[1:20] == 1L)

  multi_sets <- list(
    k3 = multi_data(201, 90, 3),
    k4 = multi_data(202, 60, 4, sharpen = 2),
    factor3 = multi_data(203, 45, 3, factor_levels = c("bird", "cat", "dog")),
    ties = list(
      p = rbind(c(0.4, 0.4, 0.2), c(1, 1, 1) / 3, c(1, 0, 0), c(0, 0, 1), c(0.2, 0.4, 0.4),
                c(0.5, 0.25, 0.25), c(0.1, 0.1, 0.8), c(0.3, 0.3, 0.4), c(0, 1, 0), c(0.45, 0.1, 0.45)),
      y = c(1L, 2L, 1L, 3L, 3L, 1L, 3L, 2L, 2L, 3L)
    ),
    k2 = multi_data(204, 50, 2)
  )

  # =========================================================================
  # metrics.json: ece, mce, ace (0.1.0 and the 0.2.0 ece arguments), logit,
  # inv_logit.
  # =========================================================================
  F <- "metrics.json"
  bins_generic <- list(NULL, 1, 5, 7, 15, 100)
  bins_edge <- list(NULL, 3, 5)
  bins_arg <- function(b) if (is.null(b)) "" else sprintf(", bins = %d", as.integer(b))

  for (set_name in names(bin_sets)) {
    d <- bin_sets[[set_name]]
    bins_list <- if (set_name %in% c("calibrated", "overconfident", "underconfident")) bins_generic else bins_edge
    for (fun in c("ece", "mce", "ace")) {
      for (b in bins_list) {
        add(F, paste0(fun, "-binary-", set_name), fun,
            sprintf("%s(p, y%s)", fun, bins_arg(b)), list(p = d$p, y = d$y))
      }
    }
  }
  for (fun in c("ece", "mce", "ace")) {
    add(F, paste0(fun, "-binary-logical-y"), fun, sprintf("%s(p, y, bins = 4)", fun), logical_set)
  }
  add(F, "ece-binary-type-ignored", "ece", 'ece(p, y, bins = 5, type = "confidence")',
      bin_sets$overconfident)

  for (set_name in names(multi_sets)) {
    d <- multi_sets[[set_name]]
    for (fun in c("ece", "mce", "ace")) {
      for (type in c(NA, "classwise", "confidence")) {
        for (b in list(NULL, 4)) {
          type_arg <- if (is.na(type)) "" else sprintf(', type = "%s"', type)
          add(F, paste0(fun, "-multiclass-", set_name), fun,
              sprintf("%s(p, y%s%s)", fun, bins_arg(b), type_arg), list(p = d$p, y = d$y))
        }
      }
    }
  }
  for (fun in c("ece", "mce", "ace")) {
    add(F, paste0(fun, "-multiclass-prefix"), fun, sprintf('%s(p, y, bins = 6, type = "conf")', fun),
        multi_sets$k3, note = "unique prefix of a choice, as match.arg accepts")
    add(F, paste0(fun, "-multiclass-prefix"), fun, sprintf('%s(p, y, type = "class")', fun),
        multi_sets$k4, note = "unique prefix of a choice, as match.arg accepts")
  }

  # 0.2.0: debiased and strategy (contract section 6).
  ece_new_args <- c(
    'debiased = TRUE', 'strategy = "equal_freq"', 'debiased = TRUE, strategy = "equal_freq"',
    'debiased = FALSE, strategy = "equal_width"'
  )
  for (set_name in c("calibrated", "overconfident", "underconfident", "ties", "edges_0_1",
                     "empty_bins", "single_bin", "n2", "all_equal", "n1", "zeros_ones")) {
    d <- bin_sets[[set_name]]
    for (args in ece_new_args) {
      for (b in list(NULL, 5)) {
        add(F, paste0("ece-contract-binary-", set_name), "ece",
            sprintf("ece(p, y%s, %s)", bins_arg(b), args), list(p = d$p, y = d$y),
            source = "contract", tolerance = if (grepl("debiased = TRUE", args)) "kernel" else "closed")
      }
    }
  }
  add(F, "ece-contract-binary-prefix", "ece", 'ece(p, y, bins = 8, strategy = "equal_f")',
      bin_sets$calibrated, source = "contract")
  # R's type-8 quantile adds a fuzz of 4 * .Machine$double.eps before floor():
  # these data put a quantile position within that fuzz of an integer, with
  # ties at the break, so equal-frequency breaks (and the bins they merge)
  # differ when the fuzz is dropped.
  type8_fuzz_sets <- list(
    list(bins = 5L, p = c(0.2, 0.8, 0.2, 1.0, 1.0, 0.8, 0.4, 0.0), y = c(0L, 1L, 1L, 1L, 1L, 0L, 0L, 0L)),
    list(bins = 6L, p = c(0.5, 0.9, 0.7, 0.7, 0.2, 0.7, 0.0, 0.4, 0.9), y = c(1L, 1L, 1L, 1L, 0L, 1L, 0L, 0L, 1L)),
    list(bins = 7L, p = c(0.2, 0.0, 0.6, 0.6, 0.1, 0.9, 0.0, 0.1, 0.1), y = c(0L, 0L, 1L, 0L, 0L, 1L, 0L, 0L, 1L)),
    list(bins = 8L, p = c(0.9, 0.7, 0.9, 0.7, 0.7, 0.6, 0.6, 0.9, 0.0, 0.3, 0.3), y = c(1L, 1L, 1L, 1L, 1L, 1L, 0L, 1L, 0L, 0L, 1L)),
    list(bins = 8L, p = c(0.3, 0.3, 0.6, 0.5, 0.6, 0.8, 0.9, 0.8, 0.3, 0.3, 0.4, 0.8, 0.9, 1.0, 0.5, 1.0, 0.4, 0.2, 0.7, 1.0, 0.6, 0.3, 0.4, 0.0, 0.7, 1.0, 0.3, 0.7, 0.8, 0.8, 0.1, 1.0, 0.1, 0.8, 0.5, 0.9, 0.9), y = c(0L, 0L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 0L, 1L, 1L, 1L, 1L, 0L, 1L, 1L, 0L, 1L, 1L, 1L, 0L, 0L, 0L, 0L, 1L, 0L, 1L, 1L, 1L, 0L, 1L, 0L, 1L, 0L, 1L, 1L)),
    list(bins = 8L, p = c(0.3, 0.2, 0.8, 0.6, 0.8, 1.0, 0.6, 0.6, 0.7, 0.4, 0.5, 0.9, 0.4, 0.1, 0.8, 0.1, 0.7, 0.1, 0.2, 0.7, 0.3, 0.8, 0.7, 1.0, 0.3, 0.6, 0.2, 0.3, 0.4, 0.2, 0.2, 0.4, 0.1, 0.6, 0.9, 0.4, 0.6, 1.0, 0.2, 1.0, 0.5, 0.0, 0.2, 0.2, 0.7), y = c(0L, 0L, 1L, 1L, 1L, 1L, 0L, 1L, 1L, 1L, 0L, 1L, 0L, 1L, 1L, 0L, 0L, 0L, 0L, 1L, 0L, 1L, 0L, 1L, 0L, 1L, 0L, 1L, 1L, 0L, 0L, 1L, 0L, 1L, 1L, 1L, 1L, 1L, 0L, 1L, 0L, 0L, 0L, 0L, 1L))
  )
  for (d in type8_fuzz_sets) {
    add(F, "ece-contract-type8-fuzz", "ece",
        sprintf('ece(p, y, bins = %d, strategy = "equal_freq")', d$bins), d[c("p", "y")],
        source = "contract")
    add(F, "ece-contract-type8-fuzz", "ece",
        sprintf('ece(p, y, bins = %d, debiased = TRUE, strategy = "equal_freq")', d$bins),
        d[c("p", "y")], source = "contract", tolerance = "kernel")
  }

  for (set_name in c("k3", "k4", "factor3", "ties")) {
    d <- multi_sets[[set_name]]
    for (type in c("classwise", "confidence")) {
      for (args in ece_new_args[1:3]) {
        add(F, paste0("ece-contract-multiclass-", set_name), "ece",
            sprintf('ece(p, y, bins = 6, type = "%s", %s)', type, args), d,
            source = "contract", tolerance = if (grepl("debiased = TRUE", args)) "kernel" else "closed")
      }
    }
  }

  logit_p <- c(0, 1e-20, 1e-300, 0.001, 0.25, 0.5, 0.75, 0.999, 1 - 1e-12, 1)
  add(F, "logit", "logit", "logit(p)", list(p = logit_p))
  add(F, "logit", "logit", "logit(p, eps = 1e-06)", list(p = logit_p))
  add(F, "logit", "logit", "logit(p, eps = 0.1)", list(p = logit_p))
  add(F, "logit", "logit", "logit(p, eps = 0.49)", list(p = logit_p))
  add(F, "logit", "logit", "logit(p)", list(p = bin_sets$calibrated$p[1:30]))
  add(F, "logit", "logit", "logit(p)", list(p = 0.5))
  set.seed(301)
  add(F, "inv_logit", "inv_logit", "inv_logit(x)",
      list(x = c(-800, -745, -40, -1, -1e-10, 0, 1e-10, 1, 36.5, 40, 800)))
  add(F, "inv_logit", "inv_logit", "inv_logit(x)", list(x = stats::rnorm(30, sd = 4)))
  add(F, "inv_logit", "inv_logit", "inv_logit(x)", list(x = 0))
  add(F, "inv_logit", "inv_logit", "inv_logit(logit(p))", list(p = bin_sets$overconfident$p[1:20]))

  # =========================================================================
  # kernel.json: skce (contract section 3) and mmce (0.1.0).
  # =========================================================================
  F <- "kernel.json"
  for (set_name in c("calibrated", "overconfident", "ties", "edges_0_1", "n2", "all_equal",
                     "zeros_ones")) {
    d <- bin_sets[[set_name]]
    for (estimator in c(NA, "uq", "ul", "biased")) {
      for (bw in c(NA, "0.5", "0.05", "\"median\"")) {
        if (set_name == "all_equal" && identical(bw, "\"median\"")) next
        if (!is.na(estimator) && is.na(bw) && set_name %in% c("ties", "n2", "all_equal", "zeros_ones")) next
        args <- c(if (!is.na(estimator)) sprintf('estimator = "%s"', estimator),
                  if (!is.na(bw)) sprintf("bandwidth = %s", bw))
        add(F, paste0("skce-binary-", set_name), "skce",
            paste0("skce(p, y", if (length(args)) paste0(", ", args, collapse = "") else "", ")"),
            list(p = d$p, y = d$y), source = "contract", tolerance = "kernel")
      }
    }
  }
  add(F, "skce-binary-type-ignored", "skce", 'skce(p, y, type = "classwise")',
      bin_sets$calibrated, source = "contract", tolerance = "kernel")
  add(F, "skce-binary-logical-y", "skce", 'skce(p, y, estimator = "biased")',
      logical_set, source = "contract", tolerance = "kernel")
  for (set_name in c("k3", "k4", "factor3")) {
    d <- multi_sets[[set_name]]
    for (estimator in c("uq", "ul", "biased")) {
      for (type in c("canonical", "confidence", "classwise")) {
        for (bw in c(NA, "0.05", "\"median\"")) {
          bw_arg <- if (is.na(bw)) "" else sprintf(", bandwidth = %s", bw)
          add(F, paste0("skce-multiclass-", set_name), "skce",
              sprintf('skce(p, y, estimator = "%s"%s, type = "%s")', estimator, bw_arg, type),
              d, source = "contract", tolerance = "kernel")
        }
      }
    }
  }
  for (set_name in c("ties", "k2")) {
    d <- multi_sets[[set_name]]
    for (type in c("canonical", "confidence", "classwise")) {
      add(F, paste0("skce-multiclass-", set_name), "skce", sprintf('skce(p, y, type = "%s")', type),
          d, source = "contract", tolerance = "kernel")
      add(F, paste0("skce-multiclass-", set_name), "skce",
          sprintf('skce(p, y, estimator = "biased", bandwidth = "median", type = "%s")', type),
          d, source = "contract", tolerance = "kernel")
    }
  }
  add(F, "skce-multiclass-default", "skce", "skce(p, y)", multi_sets$k3,
      source = "contract", tolerance = "kernel")
  add(F, "skce-multiclass-prefix", "skce", 'skce(p, y, estimator = "b", type = "conf")',
      multi_sets$k4, source = "contract", tolerance = "kernel")

  for (set_name in c("calibrated", "overconfident", "underconfident", "ties", "edges_0_1", "n2",
                     "all_equal", "n1", "zeros_ones")) {
    d <- bin_sets[[set_name]]
    for (bw in c(NA, "0.05", "1", "10")) {
      bw_arg <- if (is.na(bw)) "" else sprintf(", bandwidth = %s", bw)
      add(F, paste0("mmce-binary-", set_name), "mmce", sprintf("mmce(p, y%s)", bw_arg),
          list(p = d$p, y = d$y), tolerance = "kernel")
    }
  }
  add(F, "mmce-binary-logical-y", "mmce", "mmce(p, y)", logical_set, tolerance = "kernel")
  for (set_name in names(multi_sets)) {
    for (bw in c(NA, "0.5")) {
      bw_arg <- if (is.na(bw)) "" else sprintf(", bandwidth = %s", bw)
      add(F, paste0("mmce-multiclass-", set_name), "mmce", sprintf("mmce(p, y%s)", bw_arg),
          multi_sets[[set_name]], tolerance = "kernel")
    }
  }

  # =========================================================================
  # inference.json: cal_test and cal_ci (contract sections 4 and 5).
  # =========================================================================
  F <- "inference.json"
  seed40 <- local({
    set.seed(40)
    p <- stats::runif(300)
    y <- stats::rbinom(300, 1, p)
    list(p = p, y = y)
  })
  seed41 <- local({
    set.seed(41)
    p <- stats::runif(300)
    y <- stats::rbinom(300, 1, pmin(pmax(p - 0.25, 0), 1))
    list(p = p, y = y)
  })
  seed42 <- local({
    set.seed(42)
    p <- stats::runif(300)
    y <- stats::rbinom(300, 1, p)
    list(p = p, y = y)
  })
  far_off <- local({
    set.seed(7)
    p <- stats::runif(300)
    list(p = p, y = rep(0L, 300))
  })

  test_case <- function(stem, d, args, seed, note = NULL) {
    call <- paste0("cal_test(p, y", paste0(", ", args, collapse = ""), ")")
    if (length(args) == 0L) call <- "cal_test(p, y)"
    inputs <- c(d[c("p", "y")], list(seed = S(seed)))
    asym <- any(grepl("asym", args))
    add(F, stem, "cal_test", sprintf("{set.seed(seed); print(%s)}", call), inputs,
        kind = "print", source = "contract", note = note)
    add(F, stem, "cal_test", sprintf("{set.seed(seed); %s$p.value}", call), inputs,
        source = "contract", tolerance = if (asym) "asym_p" else "closed")
    add(F, stem, "cal_test", sprintf("{set.seed(seed); %s$statistic}", call), inputs,
        source = "contract", tolerance = "kernel")
    add(F, stem, "cal_test", sprintf("{set.seed(seed); %s$estimate}", call), inputs,
        source = "contract", tolerance = "kernel")
  }
  # Tiny samples: a quarter to an eighth of the replicates draw all-equal
  # signs and so reproduce the statistic up to rounding; the p-value counts
  # them through the tie tolerance (contract section 4).
  tiny_sets <- list(
    n3 = list(p = c(0.2, 0.7, 0.4), y = c(1L, 0L, 1L)),
    n4 = list(p = c(0.9, 0.15, 0.6, 0.35), y = c(0L, 1L, 1L, 0L)),
    n5 = list(p = c(0.05, 0.5, 0.95, 0.3, 0.8), y = c(1L, 1L, 0L, 0L, 1L)),
    k3n4 = list(p = matrix(c(0.6, 0.2, 0.2, 0.1, 0.7, 0.2, 0.3, 0.3, 0.4, 0.5, 0.1, 0.4),
                           ncol = 3, byrow = TRUE), y = c(2L, 2L, 3L, 1L))
  )
  for (nm in names(tiny_sets)) {
    for (seed in c(3L, 17L)) {
      test_case(paste0("cal_test-tiny-ties-", nm), tiny_sets[[nm]], c("n_boot = 199"), seed)
      test_case(paste0("cal_test-tiny-ties-", nm), tiny_sets[[nm]],
                c("n_boot = 99", "bandwidth = 0.05"), seed)
    }
  }
  test_case("cal_test-seed-example", seed40, character(), 40,
            note = "seed 000: set.seed(40) then data, so the stream here differs from the help page; see cal_test-seed-stream")
  # The help-page stream: the data consumed 600 uniforms after set.seed(40).
  add(F, "cal_test-seed-stream", "cal_test", "{set.seed(seed); runif(600); print(cal_test(p, y))}",
      c(seed40, list(seed = S(40))), kind = "print", source = "contract",
      note = "reproduces the first example of seed 000 byte for byte")
  add(F, "cal_test-seed-stream", "cal_test", "{set.seed(seed); runif(600); print(cal_test(p, y))}",
      c(seed41, list(seed = S(41))), kind = "print", source = "contract",
      note = "the second example of seed 000 (there the data are named p2 and y2)")
  add(F, "cal_test-seed-stream", "cal_test", "{set.seed(seed); runif(600); cal_test(p, y)$p.value}",
      c(seed41, list(seed = S(41))), source = "contract")
  test_case("cal_test-binary", bin_sets$calibrated, "n_boot = 199", 1)
  test_case("cal_test-binary", bin_sets$overconfident, "n_boot = 99", 2)
  test_case("cal_test-binary", bin_sets$underconfident, c("bandwidth = \"median\"", "n_boot = 149"), 3)
  test_case("cal_test-binary", bin_sets$ties, "n_boot = 49", 4)
  test_case("cal_test-binary", bin_sets$n2, "n_boot = 19", 5)
  test_case("cal_test-binary", seed41, character(), 6)
  test_case("cal_test-binary-asymptotic", bin_sets$calibrated, 'method = "asymptotic"', 7)
  test_case("cal_test-binary-asymptotic", seed40, 'method = "asymptotic"', 8)
  test_case("cal_test-binary-asymptotic", seed41, c('method = "asymptotic"', 'bandwidth = "median"'), 9)
  test_case("cal_test-binary-asymptotic", far_off, 'method = "asymptotic"', 10,
            note = "p-value below machine epsilon prints as < 2.2e-16")
  test_case("cal_test-binary-asymptotic", bin_sets$edges_0_1, 'method = "asym"', 11,
            note = "odd n: the last observation is not paired")
  test_case("cal_test-binary-asymptotic", list(p = c(0.1, 0.8, 0.3, 0.6), y = c(0L, 1L, 1L, 0L)),
            'method = "asymptotic"', 12, note = "n = 4, the smallest allowed")
  test_case("cal_test-multiclass", multi_sets$k3, "n_boot = 199", 13)
  test_case("cal_test-multiclass", multi_sets$k3, c('type = "confidence"', "n_boot = 199"), 14)
  test_case("cal_test-multiclass", multi_sets$factor3, c('bandwidth = "median"', "n_boot = 99"), 15)
  test_case("cal_test-multiclass", multi_sets$k4, c('type = "conf"', "n_boot = 99", "bandwidth = 0.1"), 16)
  test_case("cal_test-multiclass-asymptotic", multi_sets$k3, 'method = "asymptotic"', 17)
  test_case("cal_test-multiclass-asymptotic", multi_sets$k4,
            c('method = "asymptotic"', 'type = "confidence"'), 18)
  test_case("cal_test-multiclass-asymptotic", multi_sets$factor3,
            c('method = "asymptotic"', 'bandwidth = "median"'), 19)

  ci_case <- function(stem, d, args, seed, parts = c("print", "estimate", "lower", "upper"),
                      note = NULL, tolerance = "kernel") {
    call <- paste0("cal_ci(p, y", paste0(", ", args, collapse = ""), ")")
    inputs <- c(d[c("p", "y")], list(seed = S(seed)))
    for (part in parts) {
      if (part == "print") {
        add(F, stem, "cal_ci", sprintf("{set.seed(seed); print(%s)}", call), inputs,
            kind = "print", source = "contract", note = note)
      } else {
        add(F, stem, "cal_ci", sprintf("{set.seed(seed); %s$%s}", call, part), inputs,
            source = "contract", tolerance = tolerance)
      }
    }
  }
  # The two help-page examples (seed 003) share one stream after set.seed(42).
  add(F, "cal_ci-seed-stream", "cal_ci",
      '{set.seed(seed); runif(600); print(cal_ci(p, y, metric = "ece", bins = 10, n_boot = 199))}',
      c(seed42, list(seed = S(42))), kind = "print", source = "contract",
      note = "reproduces the first example of seed 003 byte for byte")
  add(F, "cal_ci-seed-stream", "cal_ci",
      paste0('{set.seed(seed); runif(600); cal_ci(p, y, metric = "ece", bins = 10, n_boot = 199); ',
             'print(cal_ci(p, y, metric = "skce", n_boot = 199))}'),
      c(seed42, list(seed = S(42))), kind = "print", source = "contract",
      note = "reproduces the second example of seed 003 byte for byte")
  for (part in c("estimate", "lower", "upper")) {
    add(F, "cal_ci-seed-stream", "cal_ci",
        sprintf('{set.seed(seed); runif(600); cal_ci(p, y, metric = "ece", bins = 10, n_boot = 199)$%s}', part),
        c(seed42, list(seed = S(42))), source = "contract", tolerance = "kernel")
  }
  for (metric in c("ece", "skce", "mmce", "mce", "ace")) {
    ci_case(paste0("cal_ci-binary-", metric), bin_sets$calibrated,
            c(sprintf('metric = "%s"', metric), "n_boot = 99"), 21)
  }
  ci_case("cal_ci-binary-default", bin_sets$overconfident, "n_boot = 49", 22)
  ci_case("cal_ci-binary-ece", bin_sets$overconfident,
          c('metric = "ece"', "conf_level = 0.9", "n_boot = 99", "bins = 5"), 23)
  ci_case("cal_ci-binary-ece", bin_sets$calibrated,
          c('metric = "ece"', "n_boot = 99", "debiased = TRUE"), 24,
          note = "debiased ECE: the interval is not clamped at 0")
  ci_case("cal_ci-binary-ece", bin_sets$calibrated,
          c('metric = "ece"', "n_boot = 99", 'strategy = "equal_freq"', "bins = 8"), 25)
  ci_case("cal_ci-binary-skce", bin_sets$underconfident,
          c('metric = "skce"', "n_boot = 99", 'estimator = "ul"', "conf_level = 0.5"), 26)
  ci_case("cal_ci-binary-skce", bin_sets$underconfident,
          c('metric = "skce"', "n_boot = 99", 'estimator = "biased"', 'bandwidth = "median"'), 27)
  ci_case("cal_ci-binary-mmce", bin_sets$underconfident,
          c('metric = "mmce"', "n_boot = 99", "bandwidth = 0.5", "conf_level = 0.99"), 28)
  ci_case("cal_ci-binary-mce", bin_sets$ties, c('metric = "mce"', "n_boot = 39", "bins = 4"), 29)
  ci_case("cal_ci-binary-ace", bin_sets$edges_0_1, c('metric = "ace"', "n_boot = 39"), 30)
  ci_case("cal_ci-binary-prefix", bin_sets$calibrated, c('metric = "sk"', "n_boot = 29"), 31)
  for (metric in c("ece", "skce", "mmce", "mce", "ace")) {
    ci_case(paste0("cal_ci-multiclass-", metric), multi_sets$k3,
            c(sprintf('metric = "%s"', metric), "n_boot = 49"), 41)
  }
  ci_case("cal_ci-multiclass-ece", multi_sets$k4,
          c('metric = "ece"', 'type = "confidence"', "n_boot = 49", "bins = 5"), 42)
  ci_case("cal_ci-multiclass-mce", multi_sets$factor3,
          c('metric = "mce"', 'type = "confidence"', "n_boot = 49"), 43)
  ci_case("cal_ci-multiclass-skce", multi_sets$factor3,
          c('metric = "skce"', 'type = "classwise"', "n_boot = 49"), 44)
  ci_case("cal_ci-multiclass-skce", multi_sets$k4,
          c('metric = "skce"', 'type = "confidence"', 'estimator = "biased"', "n_boot = 49"), 45)
  ci_case("cal_ci-multiclass-ece", multi_sets$k3,
          c('metric = "ece"', "debiased = TRUE", 'strategy = "equal_freq"', "n_boot = 49"), 46)
  rare <- local({
    d <- multi_data(205, 30, 3)
    d$y <- c(rep(1L, 14), rep(2L, 14), 3L, 3L)
    d
  })
  ci_case("cal_ci-multiclass-rare-class", rare, c('metric = "ece"', "n_boot = 49"), 47,
          note = "class 3 appears twice: most resamples miss it, yet keep K = 3 classes")
  ci_case("cal_ci-multiclass-rare-class", rare, c('metric = "skce"', "n_boot = 49"), 48)

  # =========================================================================
  # calibrators.json: the nine calibrators (fit, predict, print, summary).
  # =========================================================================
  F <- "calibrators.json"
  platt <- local({
    set.seed(401)
    x <- stats::rnorm(100, sd = 2)
    list(x = x, y = stats::rbinom(100, 1, stats::plogis(1.5 * x - 0.3)),
         newdata = c(-3, -1, 0, 0.5, 2, 4))
  })
  probs <- local({
    set.seed(402)
    p <- stats::runif(100)
    list(p = p, y = stats::rbinom(100, 1, p^2),
         newdata = c(0, 1e-20, 0.05, 0.2, 0.2, 0.5, 0.77, 0.99, 1))
  })
  probs_ties <- local({
    set.seed(403)
    p <- round(stats::runif(60), 1)
    list(p = p, y = stats::rbinom(60, 1, p), newdata = c(0, 0.05, 0.1, 0.15, 0.5, 0.55, 0.95, 1))
  })
  bin_logits <- local({
    set.seed(404)
    z <- stats::rnorm(100, sd = 3)
    list(logits = z, y = stats::rbinom(100, 1, stats::plogis(z / 2)), newdata = c(-6, -1, 0, 2, 9))
  })
  softmax_rows <- function(z) {
    e <- exp(z - apply(z, 1L, max))
    e / rowSums(e)
  }
  mc_logits <- local({
    set.seed(405)
    z <- matrix(stats::rnorm(90 * 3, sd = 2), ncol = 3)
    pr <- softmax_rows(z / 1.7)
    y <- vapply(seq_len(90), function(i) sample.int(3, 1L, prob = pr[i, ]), integer(1))
    list(logits = z, y = y, newdata = matrix(stats::rnorm(15, sd = 2), ncol = 3))
  })
  mc_logits_factor <- local({
    d <- mc_logits
    d$y <- factor(c("low", "mid", "high")[d$y], levels = c("low", "mid", "high"))
    d
  })
  mc_probs <- local({
    d <- multi_data(406, 120, 3, sharpen = 2)
    set.seed(407)
    nd <- matrix(stats::runif(15), ncol = 3)
    d$newdata <- nd / rowSums(nd)
    d
  })

  calibrator_cases <- function(stem, fun, fit_call, d, tolerance, params = character()) {
    inputs <- d
    add(F, stem, fun, sprintf("predict(%s, newdata)", fit_call), inputs, tolerance = tolerance)
    train_name <- setdiff(names(d), c("y", "newdata"))[[1L]]
    add(F, stem, fun, sprintf("predict(%s, %s)", fit_call, train_name), inputs, tolerance = tolerance)
    add(F, stem, fun, sprintf("print(%s)", fit_call), inputs, kind = "print")
    add(F, stem, fun, sprintf("{options(probcal.emoji = FALSE); print(%s)}", fit_call), inputs,
        kind = "print")
    add(F, stem, fun, sprintf("summary(%s)", fit_call), inputs, kind = "print")
    add(F, stem, fun, sprintf("{options(probcal.emoji = FALSE); summary(%s)}", fit_call), inputs,
        kind = "print")
    for (param in params) {
      add(F, stem, fun, sprintf("%s$%s", fit_call, param), inputs, tolerance = tolerance)
    }
  }
  calibrator_cases("cal_platt", "cal_platt", "cal_platt(x, y)", platt, "brent_glm", "coefficients")
  calibrator_cases("cal_platt", "cal_platt", "cal_platt(x, y)",
                   list(x = probs$p, y = probs$y, newdata = probs$newdata), "brent_glm",
                   c("coefficients", "target_pos", "target_neg"))
  calibrator_cases("cal_temperature", "cal_temperature", "cal_temperature(logits, y)",
                   bin_logits, "brent_glm", "temperature")
  calibrator_cases("cal_temperature-multiclass", "cal_temperature", "cal_temperature(logits, y)",
                   mc_logits, "brent_glm", "temperature")
  calibrator_cases("cal_temperature-multiclass", "cal_temperature", "cal_temperature(logits, y)",
                   mc_logits_factor, "brent_glm", "temperature")
  calibrator_cases("cal_beta", "cal_beta", "cal_beta(p, y)", probs, "brent_glm", c("a", "b", "c"))
  calibrator_cases("cal_beta", "cal_beta", "cal_beta(p, y, eps = 1e-06)", probs_ties, "brent_glm",
                   c("a", "b", "c", "eps"))
  calibrator_cases("cal_isotonic", "cal_isotonic", "cal_isotonic(p, y)", probs, "closed",
                   c("x_thresholds", "y_calibrated"))
  calibrator_cases("cal_isotonic", "cal_isotonic", "cal_isotonic(p, y)", probs_ties, "closed",
                   c("x_thresholds", "y_calibrated"))
  calibrator_cases("cal_isotonic-one-value", "cal_isotonic", "cal_isotonic(p, y)",
                   list(p = rep(0.4, 6), y = c(0L, 1L, 1L, 0L, 1L, 1L), newdata = c(0, 0.4, 1)),
                   "closed", c("x_thresholds", "y_calibrated"))
  calibrator_cases("cal_histogram", "cal_histogram", "cal_histogram(p, y)", probs, "closed",
                   c("breaks", "bin_values", "counts"))
  calibrator_cases("cal_histogram", "cal_histogram", "cal_histogram(p, y, bins = 5)", probs_ties,
                   "closed", c("breaks", "bin_values", "counts"))
  calibrator_cases("cal_histogram-equal-freq", "cal_histogram",
                   'cal_histogram(p, y, bins = 5, strategy = "equal_freq")', probs, "closed",
                   c("breaks", "bin_values", "counts", "actual_bins"))
  calibrator_cases("cal_histogram-equal-freq", "cal_histogram",
                   'cal_histogram(p, y, bins = 8, strategy = "equal_freq")', probs_ties, "closed",
                   c("breaks", "bin_values", "counts", "actual_bins"))
  for (d in type8_fuzz_sets) {
    calibrator_cases("cal_histogram-type8-fuzz", "cal_histogram",
                     sprintf('cal_histogram(p, y, bins = %d, strategy = "equal_freq")', d$bins),
                     list(p = d$p, y = d$y, newdata = seq(0, 1, by = 0.05)), "closed",
                     c("breaks", "bin_values", "counts", "actual_bins"))
  }
  calibrator_cases("cal_histogram-empty-bins", "cal_histogram", "cal_histogram(p, y, bins = 10)",
                   list(p = c(0.02, 0.05, 0.11, 0.15, 0.85, 0.91, 0.97, 0.99),
                        y = c(0L, 0L, 1L, 0L, 1L, 1L, 0L, 1L), newdata = seq(0, 1, by = 0.05)),
                   "closed", c("bin_values", "counts"))
  calibrator_cases("cal_vector_scaling", "cal_vector_scaling", "cal_vector_scaling(logits, y)",
                   mc_logits, "bfgs", c("scale", "bias"))
  calibrator_cases("cal_vector_scaling", "cal_vector_scaling", "cal_vector_scaling(logits, y)",
                   mc_logits_factor, "bfgs", c("scale", "bias"))
  calibrator_cases("cal_dirichlet", "cal_dirichlet", "cal_dirichlet(p, y)", mc_probs, "bfgs",
                   c("lambda"))
  calibrator_cases("cal_dirichlet", "cal_dirichlet", "cal_dirichlet(p, y, lambda = 0)", mc_probs,
                   "bfgs", c("weight", "bias"))
  calibrator_cases("cal_dirichlet", "cal_dirichlet", "cal_dirichlet(p, y, lambda = 0.01, eps = 1e-08)",
                   mc_probs, "bfgs", c("weight", "bias"))
  ovr_inputs <- list(x = mc_probs$p, y = mc_probs$y, newdata = mc_probs$newdata)
  for (method in c("platt", "beta", "isotonic", "histogram")) {
    calibrator_cases(paste0("cal_ovr-", method), "cal_ovr",
                     sprintf('cal_ovr(x, y, method = "%s")', method), ovr_inputs,
                     if (method %in% c("platt", "beta")) "brent_glm" else "closed")
  }
  calibrator_cases("cal_ovr-histogram", "cal_ovr", 'cal_ovr(x, y, method = "histogram", bins = 5)',
                   ovr_inputs, "closed")
  calibrator_cases("cal_ovr-temperature", "cal_ovr", 'cal_ovr(x, y, method = "temperature")',
                   list(x = mc_logits$logits, y = mc_logits$y, newdata = mc_logits$newdata),
                   "brent_glm")
  calibrator_cases("cal_ovr-default", "cal_ovr", "cal_ovr(x, y)",
                   list(x = mc_logits$logits, y = mc_logits_factor$y, newdata = mc_logits$newdata),
                   "brent_glm")

  cv_binary <- list(
    platt = list(d = list(x = platt$x, y = platt$y, newdata = platt$newdata), tol = "brent_glm"),
    temperature = list(d = list(x = bin_logits$logits, y = bin_logits$y, newdata = bin_logits$newdata),
                       tol = "brent_glm"),
    beta = list(d = list(x = probs$p, y = probs$y, newdata = probs$newdata), tol = "brent_glm"),
    isotonic = list(d = list(x = probs$p, y = probs$y, newdata = probs$newdata), tol = "closed"),
    histogram = list(d = list(x = probs$p, y = probs$y, newdata = probs$newdata), tol = "closed")
  )
  for (method in names(cv_binary)) {
    d <- cv_binary[[method]]$d
    extra <- if (method == "histogram") ", bins = 5" else ""
    fit <- sprintf('cal_cv(x, y, method = "%s", folds = 3, seed = 1%s)', method, extra)
    add(F, paste0("cal_cv-", method), "cal_cv", sprintf("predict(%s, newdata)", fit), d,
        tolerance = cv_binary[[method]]$tol)
    add(F, paste0("cal_cv-", method), "cal_cv", sprintf("%s$oof_predictions", fit), d,
        tolerance = cv_binary[[method]]$tol)
    add(F, paste0("cal_cv-", method), "cal_cv", sprintf("%s$fold_id", fit), d, tolerance = "exact")
    add(F, paste0("cal_cv-", method), "cal_cv", sprintf("print(%s)", fit), d, kind = "print")
    add(F, paste0("cal_cv-", method), "cal_cv", sprintf("summary(%s)", fit), d, kind = "print")
  }
  add(F, "cal_cv-global-stream", "cal_cv", '{set.seed(seed); cal_cv(x, y, method = "isotonic", folds = 4)$fold_id}',
      c(cv_binary$isotonic$d, list(seed = S(11))), tolerance = "exact",
      note = "seed = NULL: folds come from the global stream")
  add(F, "cal_cv-global-stream", "cal_cv",
      '{set.seed(seed); cal_cv(x, y, method = "histogram", folds = 4)$oof_predictions}',
      c(cv_binary$histogram$d, list(seed = S(12))))
  add(F, "cal_cv-default", "cal_cv", "cal_cv(x, y, seed = 3)$oof_predictions", cv_binary$platt$d,
      tolerance = "brent_glm")
  cv_multi <- list(
    temperature = list(d = list(x = mc_logits$logits, y = mc_logits$y, newdata = mc_logits$newdata),
                       extra = "", tol = "brent_glm"),
    vector = list(d = list(x = mc_logits$logits, y = mc_logits$y, newdata = mc_logits$newdata),
                  extra = "", tol = "bfgs"),
    dirichlet = list(d = list(x = mc_probs$p, y = mc_probs$y, newdata = mc_probs$newdata),
                     extra = ", lambda = 0.001", tol = "bfgs"),
    ovr = list(d = list(x = mc_probs$p, y = mc_probs$y, newdata = mc_probs$newdata),
               extra = ', base_method = "isotonic"', tol = "closed")
  )
  for (method in names(cv_multi)) {
    d <- cv_multi[[method]]$d
    fit <- sprintf('cal_cv(x, y, method = "%s", folds = 3, seed = 2%s)', method, cv_multi[[method]]$extra)
    add(F, paste0("cal_cv-multiclass-", method), "cal_cv", sprintf("predict(%s, newdata)", fit), d,
        tolerance = cv_multi[[method]]$tol)
    add(F, paste0("cal_cv-multiclass-", method), "cal_cv", sprintf("%s$oof_predictions", fit), d,
        tolerance = cv_multi[[method]]$tol)
    add(F, paste0("cal_cv-multiclass-", method), "cal_cv", sprintf("%s$fold_id", fit), d,
        tolerance = "exact")
    add(F, paste0("cal_cv-multiclass-", method), "cal_cv", sprintf("print(%s)", fit), d, kind = "print")
    add(F, paste0("cal_cv-multiclass-", method), "cal_cv", sprintf("summary(%s)", fit), d, kind = "print")
  }
  add(F, "cal_cv-multiclass-ovr", "cal_cv", 'predict(cal_cv(x, y, method = "ovr", folds = 3, seed = 4), newdata)',
      cv_multi$ovr$d, tolerance = "brent_glm", note = "base_method defaults to platt")

  # =========================================================================
  # diagnostics.json: reliability_diagram()'s binned data (the plot's $data).
  # =========================================================================
  F <- "diagnostics.json"
  for (set_name in c("calibrated", "overconfident", "ties", "edges_0_1", "empty_bins", "single_bin",
                     "n2", "all_equal", "n1", "zeros_ones")) {
    d <- bin_sets[[set_name]]
    for (b in list(NULL, 4, 8)) {
      add(F, paste0("reliability_diagram-binary-", set_name), "reliability_diagram",
          sprintf("reliability_diagram(p, y%s)$data", bins_arg(b)), list(p = d$p, y = d$y))
    }
  }
  add(F, "reliability_diagram-binary-flags", "reliability_diagram",
      "reliability_diagram(p, y, bins = 6, show_ece = FALSE, show_counts = FALSE)$data",
      bin_sets$calibrated)
  add(F, "reliability_diagram-binary-logical-y", "reliability_diagram",
      "reliability_diagram(p, y, bins = 5)$data", logical_set)
  for (set_name in names(multi_sets)) {
    for (type in c(NA, "classwise", "confidence")) {
      type_arg <- if (is.na(type)) "" else sprintf(', type = "%s"', type)
      add(F, paste0("reliability_diagram-multiclass-", set_name), "reliability_diagram",
          sprintf("reliability_diagram(p, y, bins = 5%s)$data", type_arg), multi_sets[[set_name]])
    }
  }

  # =========================================================================
  # errors.json: bad input and R's condition messages.
  # =========================================================================
  F <- "errors.json"
  b <- bin_sets$ties
  m <- multi_sets$ties
  err <- function(fun, r_call, inputs, source = "probcal", note = NULL) {
    add(F, paste0("error-", fun), fun, r_call, inputs, kind = "error", source = source, note = note)
  }
  err("ece", "ece(p, y)", list(p = c(0.2, 1.2), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = c(-0.1, 0.5), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = c(0.2, NA), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = c(0.2, NaN), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = c(0.2, Inf), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = c("0.2", "0.4"), y = c(0L, 1L)))
  err("ece", "ece(p, y)", list(p = numeric(0), y = integer(0)))
  err("ece", "ece(p, y)", list(p = c(0.2, 0.4), y = c(0L, 2L)))
  err("ece", "ece(p, y)", list(p = c(0.2, 0.4), y = c(0, NA)))
  err("ece", "ece(p, y)", list(p = c(0.2, 0.4), y = c("a", "b")))
  err("ece", "ece(p, y)", list(p = c(0.2, 0.4, 0.6), y = c(0L, 1L)))
  err("ece", "ece(p, y, bins = 0)", b)
  err("ece", "ece(p, y, bins = 2.5)", b)
  err("ece", 'ece(p, y, bins = "10")', b)
  err("ece", "ece(p, y, bins = c(5, 10))", b)
  err("ece", "ece(p, y, bins = NA)", b)
  err("mce", "mce(p, y, bins = -1)", b)
  err("ace", "ace(p, y)", list(p = c(0.2, 0.4), y = c(0L, 1L, 1L)))
  err("ece", 'ece(p, y, type = "top")', m, note = "match.arg message")
  err("mce", 'mce(p, y, type = "c")', m, note = "ambiguous prefix")
  err("ece", "ece(p, y)", list(p = matrix(c(0.5, 0.2, 0.5, 0.7), 2), y = c(1L, 2L)),
      note = "rows do not sum to 1")
  err("ece", "ece(p, y)", list(p = matrix(c(1, 1), ncol = 1), y = c(1L, 1L)))
  err("ece", "ece(p, y)", list(p = matrix(c(0.5, NA, 0.5, 0.5), 2), y = c(1L, 2L)))
  err("ece", "ece(p, y)", list(p = matrix(c(1.5, 0.5, -0.5, 0.5), 2), y = c(1L, 2L)))
  err("ece", "ece(p, y)", list(p = m$p, y = m$y - 1L))
  err("ece", "ece(p, y)", list(p = m$p, y = m$y + 0.5))
  err("ece", "ece(p, y)", list(p = m$p, y = c(1L, 2L, 1L, 2L, 2L, 1L, 2L, 2L, 2L, 1L)))
  err("ece", "ece(p, y)", list(p = m$p, y = c(1L, 2L, 3L, 4L, 4L, 1L, 3L, 2L, 2L, 3L)))
  err("ece", "ece(p, y)", list(p = m$p, y = factor(rep("a", 10))))
  err("ece", "ece(p, y)", list(p = m$p, y = m$y[1:9]))
  err("ece", "ece(p, y)", list(p = m$p, y = c(m$y[1:9], NA)))
  err("ece", "ece(p, y)", list(p = m$p, y = as.character(m$y)))
  err("mmce", "mmce(p, y, bandwidth = 0)", b)
  err("mmce", "mmce(p, y, bandwidth = -1)", b)
  err("mmce", 'mmce(p, y, bandwidth = "median")', b, note = "mmce keeps the 0.1.0 bandwidth check")
  err("mmce", "mmce(p, y, bandwidth = Inf)", b)
  err("logit", "logit(p)", list(p = c(0.5, 1.5)))
  err("logit", "logit(p, eps = 0.5)", list(p = c(0.2, 0.5)))
  err("logit", "logit(p, eps = 0)", list(p = c(0.2, 0.5)))
  err("logit", "logit(p)", list(p = c("a")))
  err("inv_logit", "inv_logit(x)", list(x = c(0, Inf)))
  err("inv_logit", "inv_logit(x)", list(x = c(0, NA)))
  err("inv_logit", "inv_logit(x)", list(x = numeric(0)))
  err("cal_platt", "cal_platt(x, y)", list(x = c(0.1, 0.2, 0.3), y = c(1L, 1L, 1L)))
  err("cal_platt", "cal_platt(x, y)", list(x = c(0.1, 0.2, 0.3), y = c(1L, 0L)))
  err("cal_platt", "predict(cal_platt(x, y), newdata)",
      list(x = c(0.1, 0.2, 0.3), y = c(1L, 0L, 1L), newdata = c(0.1, NA)))
  err("cal_temperature", "cal_temperature(logits, y)", list(logits = c(0.1, Inf), y = c(1L, 0L)))
  err("cal_temperature", "cal_temperature(logits, y)",
      list(logits = mc_logits$logits[1:10, ], y = mc_logits$y[1:9]))
  err("cal_temperature", "predict(cal_temperature(logits, y), newdata)",
      list(logits = mc_logits$logits, y = mc_logits$y, newdata = matrix(0, 2, 2)))
  err("cal_beta", "cal_beta(p, y)", list(p = c(0.1, 1.2), y = c(0L, 1L)))
  err("cal_beta", "cal_beta(p, y, eps = 0.7)", list(p = c(0.1, 0.2), y = c(0L, 1L)))
  err("cal_beta", "predict(cal_beta(p, y), newdata)",
      list(p = probs$p, y = probs$y, newdata = c(0.5, 2)))
  err("cal_isotonic", "cal_isotonic(p, y)", list(p = c(0.1, 0.2), y = c(0L, 0L)))
  err("cal_histogram", "cal_histogram(p, y, bins = 0)", probs[c("p", "y")])
  err("cal_histogram", 'cal_histogram(p, y, strategy = "quantile")', probs[c("p", "y")])
  err("cal_vector_scaling", "cal_vector_scaling(logits, y)", list(logits = c(1, 2), y = c(1L, 2L)))
  err("cal_vector_scaling", "cal_vector_scaling(logits, y)",
      list(logits = mc_logits$logits, y = mc_logits$y[-1]))
  err("cal_vector_scaling", "predict(cal_vector_scaling(logits, y), newdata)",
      list(logits = mc_logits$logits, y = mc_logits$y, newdata = matrix(0, 2, 4)))
  err("cal_dirichlet", "cal_dirichlet(p, y, lambda = -1)", mc_probs[c("p", "y")])
  err("cal_dirichlet", "cal_dirichlet(p, y, lambda = c(1, 2))", mc_probs[c("p", "y")])
  err("cal_dirichlet", "cal_dirichlet(p, y)", list(p = mc_logits$logits, y = mc_logits$y))
  err("cal_ovr", "cal_ovr(x, y)", list(x = c(0.1, 0.2), y = c(1L, 2L)))
  err("cal_ovr", 'cal_ovr(x, y, method = "beta")', list(x = mc_logits$logits, y = mc_logits$y))
  err("cal_ovr", "cal_ovr(x, y)", list(x = m$p, y = c(1L, 1L, 1L, 3L, 3L, 1L, 3L, 1L, 1L, 3L)))
  err("cal_ovr", 'cal_ovr(x, y, method = "vector")', list(x = m$p, y = m$y))
  err("cal_ovr", "predict(cal_ovr(x, y), newdata)",
      list(x = mc_probs$p, y = mc_probs$y, newdata = c(0.2, 0.3, 0.5)))
  err("cal_cv", "cal_cv(x, y, folds = 1)", platt[c("x", "y")])
  err("cal_cv", "cal_cv(x, y, folds = 60)", platt[c("x", "y")])
  err("cal_cv", 'cal_cv(x, y, method = "vector")', platt[c("x", "y")])
  err("cal_cv", 'cal_cv(x, y, method = "platt")', list(x = mc_probs$p, y = mc_probs$y))
  err("cal_cv", 'cal_cv(x, y, method = "isotonic")', list(x = c(0.1, 1.5, 0.3, 0.4), y = c(0L, 1L, 0L, 1L)))
  err("reliability_diagram", "reliability_diagram(p, y)", list(p = c(0.2, 1.2), y = c(0L, 1L)))
  err("reliability_diagram", 'reliability_diagram(p, y, type = "joint")', m)

  # 0.2.0 functions: messages chosen by contract.R where the contract gives
  # only the meaning (see the report in reference/README.md).
  err("ece", "ece(p, y, debiased = NA)", b, source = "contract")
  err("ece", 'ece(p, y, debiased = "yes")', b, source = "contract")
  err("ece", 'ece(p, y, strategy = "quantile")', b, source = "contract")
  err("ece", 'ece(p, y, debiased = TRUE, bins = 0)', b, source = "contract")
  err("skce", 'skce(p, y, estimator = "u")', b, source = "contract", note = "ambiguous prefix")
  err("skce", 'skce(p, y, estimator = "linear")', b, source = "contract")
  err("skce", "skce(p, y, bandwidth = 0)", b, source = "contract")
  err("skce", 'skce(p, y, bandwidth = "mean")', b, source = "contract")
  err("skce", "skce(p, y, bandwidth = c(0.1, 0.2))", b, source = "contract")
  err("skce", 'skce(p, y, bandwidth = "median")', bin_sets$all_equal, source = "contract")
  err("skce", 'skce(p, y, bandwidth = "median", type = "canonical")',
      list(p = rbind(c(0.5, 0.5), c(0.5, 0.5), c(0.5, 0.5)), y = c(1L, 2L, 2L)), source = "contract")
  err("skce", "skce(p, y)", bin_sets$n1, source = "contract")
  err("skce", 'skce(p, y, estimator = "ul")', bin_sets$n1, source = "contract")
  err("skce", 'skce(p, y, type = "joint")', m, source = "contract")
  err("skce", "skce(p, y)", list(p = c(0.2, 1.2), y = c(0L, 1L)), source = "contract")
  err("skce", "skce(p, y)", list(p = m$p, y = m$y - 1L), source = "contract")
  err("cal_test", 'cal_test(p, y, type = "classwise")', m, source = "contract")
  err("cal_test", 'cal_test(p, y, type = "class")', m, source = "contract")
  err("cal_test", 'cal_test(p, y, method = "permutation")', b, source = "contract")
  err("cal_test", "cal_test(p, y, n_boot = 0)", b, source = "contract")
  err("cal_test", "cal_test(p, y, n_boot = 10.5)", b, source = "contract")
  err("cal_test", 'cal_test(p, y, bandwidth = -0.2)', b, source = "contract")
  err("cal_test", 'cal_test(p, y, method = "asymptotic")', list(p = c(0.2, 0.4, 0.6), y = c(0L, 1L, 1L)),
      source = "contract")
  err("cal_test", 'cal_test(p, y, method = "asymptotic")',
      list(p = c(0.5, 0.5, 0.5, 0.5), y = c(1L, 1L, 1L, 1L)), source = "contract",
      note = "all disjoint-pair terms equal: sigma = 0")
  err("cal_test", "cal_test(p, y)", bin_sets$n1, source = "contract")
  err("cal_test", "cal_test(p, y)", list(p = c(0.2, 0.4), y = c(0L, 3L)), source = "contract")
  err("cal_ci", 'cal_ci(p, y, metric = "brier")', b, source = "contract")
  err("cal_ci", "cal_ci(p, y, conf_level = 1)", b, source = "contract")
  err("cal_ci", "cal_ci(p, y, conf_level = 0)", b, source = "contract")
  err("cal_ci", "cal_ci(p, y, conf_level = c(0.9, 0.95))", b, source = "contract")
  err("cal_ci", "cal_ci(p, y, n_boot = 0)", b, source = "contract")
  err("cal_ci", "cal_ci(p, y, n_boot = 2.5)", b, source = "contract")
  err("cal_ci", "cal_ci(p, y)", list(p = c(0.2, 1.2), y = c(0L, 1L)), source = "contract")
  err("cal_ci", 'cal_ci(p, y, metric = "mmce", bandwidth = 0)', b, source = "contract")

  # -------------------------------------------------------------------------
  # Write the files.
  # -------------------------------------------------------------------------
  r_version <- paste(R.version$major, R.version$minor, sep = ".")
  probcal_version <- as.character(utils::packageVersion("probcal"))
  contract_md5 <- harness_contract_md5(file.path(root, "pycalib_r", "r", "contract.R"))
  total <- 0L
  for (file in sort(ls(files))) {
    cases <- get(file, envir = files)
    header <- c(
      format_version = "1",
      file = harness_json_string(file),
      generator = harness_json_string("tools/make_fixtures.R"),
      r_version = harness_json_string(r_version),
      probcal_version = harness_json_string(probcal_version),
      contract_r_md5 = harness_json_string(contract_md5),
      date = harness_json_string(format(Sys.Date())),
      rng_kind = harness_json(RNGkind(), unbox = FALSE),
      n_cases = sprintf("%d", length(cases))
    )
    text <- paste0(
      "{\n",
      paste0("  ", harness_json_string(names(header)), ": ", header, ",\n", collapse = ""),
      '  "cases": [\n', paste(cases, collapse = ",\n"), "\n  ]\n}\n"
    )
    con <- file(file.path(out_dir, file), open = "w", encoding = "UTF-8")
    writeLines(text, con, sep = "", useBytes = TRUE)
    close(con)
    cat(sprintf("%-18s %4d cases\n", file, length(cases)))
    total <- total + length(cases)
  }
  cat(sprintf("%-18s %4d cases\n", "total", total))
  cat(sprintf("R %s, probcal %s, contract.R md5 %s\n", r_version, probcal_version, contract_md5))
  cat(sprintf("contract.R vs probcal on %d metric values: largest relative difference %.3g\n",
              crosscheck$n, crosscheck$max_rel))
  if (length(crosscheck$message_mismatch)) {
    cat("contract.R error messages that differ from probcal's:\n")
    cat(paste0("  ", crosscheck$message_mismatch, "\n"), sep = "")
  }
  invisible(NULL)
}

main()

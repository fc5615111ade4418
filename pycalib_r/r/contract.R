# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 help pages of skce, cal_test, cal_ci, ece (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Reference implementation of the probcal 0.2.0 calibration-inference layer,
# written directly from the definition of probcal 0.2.0 in docs/probcal-0.2.0.md (sections 3-6).
#
# The probcal 0.2.0 source is not public, so this file is the R side of the
# parity harness for `skce()`, `cal_test()`, `cal_ci()` and the two new `ece()`
# arguments (`debiased`, `strategy`). It is deliberately plain: full n x n
# kernel matrices, explicit loops, base R only (plus cli for the printed
# headers), so that each line can be read against the contract's formulas.
# It is not tuned for speed and must not be used for large n.
#
# It also contains formula-level versions of the 0.1.0 metrics `mce()`, `ace()`
# and `mmce()` (and the 0.1.0 branch of `ece()`), because `cal_ci()` needs to
# call them and this file must run without the probcal package. They follow the
# documented definitions, not probcal's code; tools/make_fixtures.R checks that
# they agree with probcal wherever probcal is installed.
#
# Usage:  source("pycalib_r/r/contract.R")   # defines the exported names below
#
# Exported names: ece, mce, ace, mmce, skce, cal_test, cal_ci, and the S3
# methods print.cal_test, print.cal_ci. Helpers start with `contract_`.

# ---------------------------------------------------------------------------
# Input checks. Each check is a sequence of requirements tried in order; the
# first one that fails raises its message (probcal's condition message for the
# shared arguments, so a bad `p` or `y` fails the same way in every function).
# `%s` in a message stands for the argument name in backticks.
# ---------------------------------------------------------------------------

contract_fail <- function(message, arg = NULL) {
  if (!is.null(arg)) message <- sprintf(message, paste0("`", arg, "`"))
  stop(message, call. = FALSE)
}

contract_require <- function(ok, message, arg = NULL) {
  if (!isTRUE(ok)) contract_fail(message, arg)
  invisible(TRUE)
}

contract_check_numeric_vector <- function(x, arg) {
  contract_require(is.numeric(x) && is.atomic(x), "Argument %s must be a numeric vector.", arg)
  contract_require(length(x) > 0L, "Argument %s must not be empty.", arg)
  contract_require(!anyNA(x), "Argument %s must not contain missing values.", arg)
  contract_require(all(is.finite(x)), "Argument %s must contain only finite values.", arg)
  invisible(x)
}

contract_check_probability <- function(p, arg = "p") {
  contract_check_numeric_vector(p, arg)
  contract_require(all(p >= 0 & p <= 1), "Argument %s must contain probabilities in `[0, 1]`.", arg)
  invisible(p)
}

# Returns the labels as an integer 0/1 vector; logical labels count as 0/1.
contract_binary_labels <- function(y, arg = "y") {
  contract_require(is.logical(y) || (is.numeric(y) && is.atomic(y)),
                   "Argument %s must contain binary labels `0` and `1`.", arg)
  if (!is.logical(y)) {
    contract_require(all(is.finite(y)), "Argument %s must not contain missing or infinite values.", arg)
    contract_require(all(y == 0 | y == 1), "Argument %s must contain only binary labels `0` and `1`.", arg)
  }
  contract_require(length(y) > 0L, "Argument %s must not be empty.", arg)
  as.integer(y)
}

contract_check_prob_matrix <- function(p, arg = "p") {
  contract_require(is.matrix(p) && is.numeric(p),
                   "Argument %s must be a numeric matrix with one column per class.", arg)
  contract_require(ncol(p) >= 2L, "Argument %s must have at least two columns, one per class.", arg)
  contract_require(nrow(p) > 0L, "Argument %s must not be empty.", arg)
  contract_require(all(is.finite(p)), "Argument %s must not contain missing or infinite values.", arg)
  contract_require(all(p >= 0 & p <= 1), "Argument %s must contain probabilities in `[0, 1]`.", arg)
  contract_require(all(abs(rowSums(p) - 1) <= 1e-6), "Each row of %s must sum to `1`.", arg)
  invisible(p)
}

# Returns the integer class codes 1..K of a multiclass label vector
# (a factor's codes, or whole numbers starting at 1).
contract_class_codes <- function(y, k, arg = "y") {
  contract_require(!anyNA(y), "Argument %s must not contain missing values.", arg)
  contract_require(is.factor(y) || (is.numeric(y) && is.atomic(y)),
                   "Argument %s must be a factor or a vector of integer class codes.", arg)
  if (is.factor(y)) {
    n_levels <- nlevels(y)
  } else {
    contract_require(all(is.finite(y)) && all(y == round(y)),
                     "Argument %s must contain integer class codes or a factor.", arg)
    contract_require(min(y) >= 1, "Integer class codes in %s must start at `1`.", arg)
    n_levels <- max(as.integer(y))
  }
  contract_require(n_levels >= 2L, "Argument %s must have at least two classes.", arg)
  if (n_levels != k) {
    contract_fail(sprintf("Argument `%s` has %d %s but the input has %d %s.", arg, n_levels,
                          if (n_levels == 1L) "class" else "classes", k,
                          if (k == 1L) "column" else "columns"))
  }
  as.integer(y)
}

contract_check_same_n <- function(p, codes) {
  contract_require(nrow(p) == length(codes),
                   "Arguments `p` and `y` must have the same number of observations.")
}

contract_check_same_length <- function(p, y) {
  contract_require(length(p) == length(y), "Arguments `p` and `y` must have the same length.")
}

contract_is_count <- function(x) {
  is.numeric(x) && length(x) == 1L && is.finite(x) && x >= 1 && x == round(x)
}

contract_check_count <- function(x, arg) {
  contract_require(contract_is_count(x), "Argument %s must be a single positive integer.", arg)
  as.integer(x)
}

contract_check_bins <- function(bins) contract_check_count(bins, "bins")

contract_check_flag <- function(x, arg) {
  contract_require(is.logical(x) && length(x) == 1L && !is.na(x),
                   "Argument %s must be `TRUE` or `FALSE`.", arg)
  x
}

# A fixed bandwidth (positive finite number) or the string "median".
contract_check_bandwidth <- function(bandwidth) {
  if (identical(bandwidth, "median")) return(bandwidth)
  contract_require(is.numeric(bandwidth) && length(bandwidth) == 1L && is.finite(bandwidth) &&
                     bandwidth > 0,
                   'Argument %s must be a single positive number or "median".', "bandwidth")
  bandwidth
}

# ---------------------------------------------------------------------------
# Binary reduction of the inputs.
# ---------------------------------------------------------------------------

# Validated binary input: list(r = probabilities, c = 0/1 outcomes).
contract_binary_input <- function(p, y) {
  contract_check_probability(p, "p")
  y <- contract_binary_labels(y, "y")
  contract_check_same_length(p, y)
  list(r = as.numeric(p), c = y)
}

# Top-label pair: r_i = max_k p_ik, c_i = 1{first argmax == y_i}.
contract_top_label <- function(p, codes) {
  predicted <- max.col(p, ties.method = "first")
  list(
    r = p[cbind(seq_len(nrow(p)), predicted)],
    c = as.integer(predicted == codes)
  )
}

# ---------------------------------------------------------------------------
# Binned metrics (section 6).
# ---------------------------------------------------------------------------

# Bin edges. equal_width: seq(0, 1, length.out = bins + 1). equal_freq: the
# type-8 quantiles of r, with the ends forced to 0 and 1, duplicates dropped.
contract_breaks <- function(r, bins, strategy) {
  edges <- seq(0, 1, length.out = bins + 1L)
  if (identical(strategy, "equal_freq")) {
    edges <- stats::quantile(r, probs = edges, type = 8, names = FALSE)
    edges[1L] <- 0
    edges[length(edges)] <- 1
    edges <- sort(unique(edges))
  }
  edges
}

# Per-bin n, mean confidence and accuracy; left-closed bins, last bin closed.
contract_bin_table <- function(r, c, bins, strategy = "equal_width") {
  edges <- contract_breaks(r, bins, strategy)
  n_bins <- length(edges) - 1L
  bin <- findInterval(r, edges, rightmost.closed = TRUE, all.inside = TRUE)
  out <- data.frame(n = integer(n_bins), conf = NA_real_, acc = NA_real_)
  for (b in seq_len(n_bins)) {
    in_bin <- bin == b
    out$n[b] <- sum(in_bin)
    if (out$n[b] > 0L) {
      out$conf[b] <- mean(r[in_bin])
      out$acc[b] <- mean(c[in_bin])
    }
  }
  out
}

contract_ece_scalar <- function(r, c, bins, debiased, strategy) {
  tab <- contract_bin_table(r, c, bins, strategy)
  tab <- tab[tab$n > 0L, , drop = FALSE]
  n <- sum(tab$n)
  if (!debiased) {
    return(sum((tab$n / n) * abs(tab$acc - tab$conf)))
  }
  # Kumar, Liang & Ma's debiased squared l2 error; a singleton bin adds 0.
  term <- numeric(nrow(tab))
  for (b in seq_len(nrow(tab))) {
    if (tab$n[b] > 1L) {
      term[b] <- (tab$acc[b] - tab$conf[b])^2 -
        tab$acc[b] * (1 - tab$acc[b]) / (tab$n[b] - 1)
    }
  }
  sum((tab$n / n) * term)
}

contract_mce_scalar <- function(r, c, bins) {
  tab <- contract_bin_table(r, c, bins)
  tab <- tab[tab$n > 0L, , drop = FALSE]
  max(abs(tab$acc - tab$conf))
}

contract_ace_scalar <- function(r, c, bins) {
  tab <- contract_bin_table(r, c, bins)
  tab <- tab[tab$n > 0L, , drop = FALSE]
  mean(abs(tab$acc - tab$conf))
}

# Applies a scalar binned metric to binary or matrix input; classwise combines
# the one-vs-rest values with `combine` (mean for ece/ace, max for mce).
contract_binned <- function(scalar_metric, p, y, type, combine) {
  if (is.matrix(p)) {
    contract_check_prob_matrix(p, "p")
    codes <- contract_class_codes(y, ncol(p), "y")
    if (identical(type, "confidence")) {
      contract_check_same_n(p, codes)
      top <- contract_top_label(p, codes)
      return(scalar_metric(top$r, top$c))
    }
    # The classwise form checks lengths as the binary metric does.
    contract_check_same_length(p[, 1L], codes)
    per_class <- vapply(
      seq_len(ncol(p)),
      function(k) scalar_metric(p[, k], as.integer(codes == k)),
      numeric(1)
    )
    return(combine(per_class))
  }
  input <- contract_binary_input(p, y)
  scalar_metric(input$r, input$c)
}

ece <- function(p, y, bins = 10, type = c("classwise", "confidence"),
                debiased = FALSE, strategy = c("equal_width", "equal_freq")) {
  if (is.matrix(p)) type <- match.arg(type)
  debiased <- contract_check_flag(debiased, "debiased")
  strategy <- match.arg(strategy)
  metric <- function(r, c) {
    contract_ece_scalar(r, c, contract_check_bins(bins), debiased, strategy)
  }
  contract_binned(metric, p, y, type, mean)
}

mce <- function(p, y, bins = 10, type = c("classwise", "confidence")) {
  if (is.matrix(p)) type <- match.arg(type)
  metric <- function(r, c) contract_mce_scalar(r, c, contract_check_bins(bins))
  contract_binned(metric, p, y, type, max)
}

ace <- function(p, y, bins = 10, type = c("classwise", "confidence")) {
  if (is.matrix(p)) type <- match.arg(type)
  metric <- function(r, c) contract_ace_scalar(r, c, contract_check_bins(bins))
  contract_binned(metric, p, y, type, mean)
}

# ---------------------------------------------------------------------------
# Kernel calibration error (section 3).
# ---------------------------------------------------------------------------

contract_median_bandwidth <- function(distances) {
  positive <- distances[distances > 0]
  if (length(positive) == 0L) {
    cli::cli_abort("The median bandwidth is undefined: all predictions are equal.")
  }
  stats::median(positive)
}

# Scalar form: h_ij = e_i e_j exp(-|r_i - r_j| / bandwidth), e = c - r.
contract_h_scalar <- function(r, c, bandwidth) {
  distance <- abs(outer(r, r, "-"))
  if (identical(bandwidth, "median")) {
    bandwidth <- contract_median_bandwidth(distance[lower.tri(distance)])
  }
  e <- c - r
  outer(e, e) * exp(-distance / bandwidth)
}

# Canonical form: h_ij = exp(-||p_i - p_j|| / bandwidth) <u_i, u_j> with
# u_i = onehot(y_i) - p_i.
contract_h_canonical <- function(p, codes, bandwidth) {
  n <- nrow(p)
  distance <- matrix(0, n, n)
  for (i in seq_len(n)) {
    for (j in seq_len(n)) {
      distance[i, j] <- sqrt(sum((p[i, ] - p[j, ])^2))
    }
  }
  if (identical(bandwidth, "median")) {
    bandwidth <- contract_median_bandwidth(distance[lower.tri(distance)])
  }
  onehot <- matrix(0, n, ncol(p))
  onehot[cbind(seq_len(n), codes)] <- 1
  u <- onehot - p
  exp(-distance / bandwidth) * (u %*% t(u))
}

contract_skce_from_h <- function(h, estimator) {
  n <- nrow(h)
  if (estimator %in% c("uq", "ul") && n < 2L) {
    cli::cli_abort("Estimator {.val {estimator}} needs at least two observations.")
  }
  switch(
    estimator,
    uq = (sum(h) - sum(diag(h))) / (n * (n - 1)),
    biased = sum(h) / n^2,
    ul = {
      m <- n %/% 2L
      mean(h[cbind(2L * seq_len(m) - 1L, 2L * seq_len(m))])
    }
  )
}

# Validates the input and returns the kernel matrix of the requested form
# (scalar for binary and "confidence", canonical for "canonical"), or for
# "classwise" a list of K scalar kernel matrices.
contract_kernel_input <- function(p, y, bandwidth, type) {
  if (!is.matrix(p)) {
    input <- contract_binary_input(p, y)
    return(list(form = "binary", h = contract_h_scalar(input$r, input$c, bandwidth)))
  }
  contract_check_prob_matrix(p, "p")
  codes <- contract_class_codes(y, ncol(p), "y")
  contract_check_same_n(p, codes)
  if (identical(type, "confidence")) {
    top <- contract_top_label(p, codes)
    return(list(form = "confidence", h = contract_h_scalar(top$r, top$c, bandwidth)))
  }
  if (identical(type, "classwise")) {
    hs <- lapply(seq_len(ncol(p)), function(k) {
      contract_h_scalar(p[, k], as.integer(codes == k), bandwidth)
    })
    return(list(form = "classwise", h = hs))
  }
  list(form = "canonical", h = contract_h_canonical(p, codes, bandwidth))
}

skce <- function(p, y, estimator = c("uq", "ul", "biased"), bandwidth = 0.2,
                 type = c("canonical", "confidence", "classwise")) {
  estimator <- match.arg(estimator)
  bandwidth <- contract_check_bandwidth(bandwidth)
  if (is.matrix(p)) type <- match.arg(type)
  kernel <- contract_kernel_input(p, y, bandwidth, type)
  if (identical(kernel$form, "classwise")) {
    return(mean(vapply(kernel$h, contract_skce_from_h, numeric(1), estimator = estimator)))
  }
  contract_skce_from_h(kernel$h, estimator)
}

# 0.1.0 behaviour: sqrt of the truncated biased top-label (or binary) SKCE.
mmce <- function(p, y, bandwidth = 0.2) {
  contract_require(is.numeric(bandwidth) && length(bandwidth) == 1L && is.finite(bandwidth) &&
                     bandwidth > 0,
                   "Argument %s must be a single positive number.", "bandwidth")
  sqrt(max(skce(p, y, "biased", bandwidth, type = "confidence"), 0))
}

# ---------------------------------------------------------------------------
# cal_test() (section 4).
# ---------------------------------------------------------------------------

cal_test <- function(p, y, method = c("bootstrap", "asymptotic"), bandwidth = 0.2,
                     n_boot = 999, type = c("canonical", "confidence"), ...) {
  data_name <- paste(deparse1(substitute(p)), "and", deparse1(substitute(y)))
  method <- match.arg(method)
  # The classwise average has no valid null distribution: refuse it by name
  # before match.arg would give a generic message.
  if (is.character(type) && length(type) == 1L &&
      identical(pmatch(type, c("canonical", "confidence", "classwise")), 3L)) {
    # stop() rather than cli_abort(): cli would wrap this 74-character message
    # at width 80, putting a newline into conditionMessage().
    stop('Type "classwise" cannot be tested; use `skce()` with `type = "classwise"`.',
         call. = FALSE)
  }
  type <- match.arg(type)
  bandwidth <- contract_check_bandwidth(bandwidth)
  if (identical(method, "bootstrap")) n_boot <- contract_check_count(n_boot, "n_boot")

  kernel <- contract_kernel_input(p, y, bandwidth, type)
  h <- kernel$h
  n <- nrow(h)
  target <- switch(
    kernel$form,
    binary = "binary calibration",
    canonical = "strong (canonical) calibration",
    confidence = "top-label confidence calibration"
  )

  if (identical(method, "asymptotic")) {
    if (n < 4L) {
      cli::cli_abort("The asymptotic test needs at least four observations.")
    }
    m <- n %/% 2L
    terms <- h[cbind(2L * seq_len(m) - 1L, 2L * seq_len(m))]
    sigma <- stats::sd(terms)
    if (!(sigma > 0)) {
      cli::cli_abort("The asymptotic test is degenerate: all pair terms are equal.")
    }
    estimate <- mean(terms)
    z <- sqrt(m) * estimate / sigma
    result <- list(
      statistic = c(z = z),
      p.value = stats::pnorm(z, lower.tail = FALSE),
      method = "Asymptotic kernel calibration test (SKCE_ul, normal approximation)",
      data.name = data_name,
      estimate = c(SKCE_ul = estimate),
      target = target
    )
  } else {
    if (n < 2L) {
      cli::cli_abort("Estimator {.val uq} needs at least two observations.")
    }
    off_diagonal <- h
    diag(off_diagonal) <- 0
    denominator <- n * (n - 1)
    observed <- sum(off_diagonal) / denominator
    # Replicates equal to `observed` up to rounding must count as >= observed.
    tol <- 1e-12 * mean(abs(diag(h)))
    exceed <- 0L
    for (b in seq_len(n_boot)) {
      w <- sample(c(-1, 1), n, replace = TRUE)
      replicate_b <- sum(off_diagonal * outer(w, w)) / denominator
      if (replicate_b >= observed - tol) exceed <- exceed + 1L
    }
    result <- list(
      statistic = c(SKCE_uq = observed),
      p.value = (1 + exceed) / (n_boot + 1),
      method = sprintf("Bootstrap kernel calibration test (SKCE_uq, %d resamples)", n_boot),
      data.name = data_name,
      estimate = c(SKCE_uq = observed),
      target = target
    )
  }
  class(result) <- c("cal_test", "htest")
  result
}

print.cal_test <- function(x, ...) {
  cli::cli_h1("Kernel calibration test")
  cli::cli_verbatim(c(
    paste0("Method: ", x$method),
    paste0("Target: ", x$target),
    paste0("Data: ", x$data.name),
    paste0("Statistic: ", names(x$statistic), " = ", format(unname(x$statistic), digits = 7)),
    paste0("Estimate: ", names(x$estimate), " = ", format(unname(x$estimate), digits = 7)),
    paste0("p-value: ", format.pval(x$p.value, digits = 4)),
    "Alternative hypothesis: the model is not calibrated."
  ))
  invisible(x)
}

# ---------------------------------------------------------------------------
# cal_ci() (section 5).
# ---------------------------------------------------------------------------

cal_ci <- function(p, y, metric = c("ece", "skce", "mmce", "mce", "ace"),
                   conf_level = 0.95, n_boot = 999, bins = 10, ...) {
  metric <- match.arg(metric)
  if (!is.numeric(conf_level) || length(conf_level) != 1L || is.na(conf_level) ||
      !(conf_level > 0 && conf_level < 1)) {
    cli::cli_abort("Argument {.arg conf_level} must be a single number in `(0, 1)`.")
  }
  n_boot <- contract_check_count(n_boot, "n_boot")
  dots <- list(...)

  compute <- function(p, y) {
    switch(
      metric,
      ece = do.call(ece, c(list(p, y, bins = bins), dots)),
      mce = do.call(mce, c(list(p, y, bins = bins), dots)),
      ace = do.call(ace, c(list(p, y, bins = bins), dots)),
      skce = do.call(skce, c(list(p, y), dots)),
      mmce = do.call(mmce, c(list(p, y), dots))
    )
  }

  estimate <- compute(p, y)

  # Resamples must keep all K classes, so integer codes become a factor with
  # levels 1..K (a factor already keeps its levels when subset).
  if (is.matrix(p) && !is.factor(y)) {
    y <- factor(y, levels = seq_len(ncol(p)))
  }
  n <- if (is.matrix(p)) nrow(p) else length(p)
  replicates <- numeric(n_boot)
  for (b in seq_len(n_boot)) {
    idx <- sample.int(n, n, replace = TRUE)
    if (is.matrix(p)) {
      replicates[b] <- compute(p[idx, , drop = FALSE], y[idx])
    } else {
      replicates[b] <- compute(p[idx], y[idx])
    }
  }

  alpha <- 1 - conf_level
  bounds <- stats::quantile(replicates, c(alpha / 2, 1 - alpha / 2), type = 7, names = FALSE)
  lower <- min(bounds[1L], estimate)
  upper <- max(bounds[2L], estimate)
  signed <- identical(metric, "skce") || (identical(metric, "ece") && isTRUE(dots$debiased))
  if (!signed) lower <- max(lower, 0)

  result <- list(
    estimate = estimate,
    lower = lower,
    upper = upper,
    conf_level = conf_level,
    metric = metric,
    method = "percentile bootstrap",
    n_boot = n_boot
  )
  class(result) <- "cal_ci"
  result
}

print.cal_ci <- function(x, ...) {
  cli::cli_h1("Calibration metric confidence interval")
  cli::cli_verbatim(c(
    paste0("Metric: ", toupper(x$metric)),
    paste0("Estimate: ", format(x$estimate, digits = 4)),
    paste0("Confidence level: ", sprintf("%.1f%%", 100 * x$conf_level)),
    paste0("Interval: [", format(x$lower, digits = 4), ", ", format(x$upper, digits = 4), "]"),
    sprintf("Method: %s (%d resamples)", x$method, x$n_boot)
  ))
  invisible(x)
}

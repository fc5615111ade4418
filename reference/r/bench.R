# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 help pages of skce, cal_test, cal_ci (through pycalib_r/r/contract.R) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# The R side of tools/bench.py's lines for skce(), cal_test() and cal_ci():
# the same definitions as pycalib_r/r/contract.R, written the way a careful R
# user would write them for speed. contract.R is written to be read against
# docs/probcal-0.2.0.md (full n x n temporaries, loops over bins); timing it
# would overstate pycalib_r's lead over R (issue 26). tests/suites/project/test_bench_r.py
# checks that every function here gives contract.R's values.
#
# What changes against contract.R, and why each is still the same definition:
#   * cal_test(), bootstrap: the kernel matrix H is built once and each
#     replicate is w' H w - trace(H) (w_i^2 = 1, so this is contract.R's
#     sum(off_diagonal * outer(w, w))), one matrix-vector product per
#     resample instead of an n x n temporary. The signs are drawn exactly as
#     contract.R draws them (sample(c(-1, 1), n, replace = TRUE) per replicate),
#     so the same seed gives the same replicates up to summation order.
#   * the canonical kernel: pairwise Euclidean distances by stats::dist()
#     (compiled C) instead of an R double loop; u u' by tcrossprod().
#   * binary skce(): the Laplacian kernel on sorted predictions factorises,
#     exp(-|r_i - r_j| / h) = exp(-r_j / h) exp(r_i / h) for r_i <= r_j, so
#     sum_{i != j} e_i e_j k_ij = 2 sum_j e_j exp(-r_j / h) cumsum_{i < j}
#     (e_i exp(r_i / h)): O(n log n), vectorised. Used when exp(1 / h) is
#     finite and far from overflow (h >= 0.01); the n x n form otherwise.
#   * cal_ci()'s binned metrics: bins by findInterval(), per-bin sums by
#     tabulate()/rowsum(), no loop over bins.
#
# Usage:  source("reference/r/bench.R")   # after source("pycalib_r/r/contract.R")
# Exported names: bench_skce, bench_cal_test, bench_cal_ci, bench_cal_test_batched.

# Kernel matrix of contract_kernel_input()'s form, without the R loops.
bench_kernel <- function(p, y, bandwidth = 0.2, type = "canonical") {
  if (!is.matrix(p)) {
    input <- contract_binary_input(p, y)
    return(contract_h_scalar(input$r, input$c, bandwidth))
  }
  contract_check_prob_matrix(p, "p")
  codes <- contract_class_codes(y, ncol(p), "y")
  contract_check_same_n(p, codes)
  if (identical(type, "confidence")) {
    top <- contract_top_label(p, codes)
    return(contract_h_scalar(top$r, top$c, bandwidth))
  }
  distance <- as.matrix(stats::dist(p))
  onehot <- matrix(0, nrow(p), ncol(p))
  onehot[cbind(seq_len(nrow(p)), codes)] <- 1
  u <- onehot - p
  exp(-distance / bandwidth) * tcrossprod(u)
}

# SKCE_uq of binary input with a numeric bandwidth.
bench_skce <- function(p, y, bandwidth = 0.2) {
  input <- contract_binary_input(p, y)
  n <- length(input$r)
  if (bandwidth < 0.01) {
    h <- contract_h_scalar(input$r, input$c, bandwidth)
    return((sum(h) - sum(diag(h))) / (n * (n - 1)))
  }
  o <- order(input$r)
  r <- input$r[o]
  e <- input$c[o] - r
  a <- e * exp(r / bandwidth)
  before <- c(0, cumsum(a)[-n])
  2 * sum(e * exp(-r / bandwidth) * before) / (n * (n - 1))
}

# The bootstrap test's statistic and p-value, one matrix-vector product per replicate.
bench_cal_test <- function(p, y, bandwidth = 0.2, n_boot = 999, type = "canonical") {
  h <- bench_kernel(p, y, bandwidth, type)
  n <- nrow(h)
  trace <- sum(diag(h))
  denominator <- n * (n - 1)
  observed <- (sum(h) - trace) / denominator
  tol <- 1e-12 * mean(abs(diag(h)))
  exceed <- 0L
  for (b in seq_len(n_boot)) {
    w <- sample(c(-1, 1), n, replace = TRUE)
    if ((sum(w * (h %*% w)) - trace) / denominator >= observed - tol) exceed <- exceed + 1L
  }
  list(statistic = observed, p.value = (1 + exceed) / (n_boot + 1))
}

# The same test with all replicates' signs in one n x B matrix: one
# matrix-matrix product. The sign stream is the same (sample() draws its
# n * B values in the order of B calls of n). Reported beside the
# matrix-vector form; its memory grows with n * B.
bench_cal_test_batched <- function(p, y, bandwidth = 0.2, n_boot = 999, type = "canonical") {
  h <- bench_kernel(p, y, bandwidth, type)
  n <- nrow(h)
  trace <- sum(diag(h))
  denominator <- n * (n - 1)
  observed <- (sum(h) - trace) / denominator
  tol <- 1e-12 * mean(abs(diag(h)))
  w <- matrix(sample(c(-1, 1), n * n_boot, replace = TRUE), n, n_boot)
  replicates <- (colSums(w * (h %*% w)) - trace) / denominator
  list(statistic = observed, p.value = (1 + sum(replicates >= observed - tol)) / (n_boot + 1))
}

# Binary ECE (equal-width bins, not debiased) by per-bin sums.
bench_ece_binary <- function(r, c, bins) {
  bin <- findInterval(r, seq(0, 1, length.out = bins + 1L), rightmost.closed = TRUE,
                      all.inside = TRUE)
  count <- tabulate(bin, bins)
  used <- count > 0L
  conf <- rowsum(r, bin, reorder = TRUE)[, 1] / count[used]
  acc <- rowsum(c, bin, reorder = TRUE)[, 1] / count[used]
  sum((count[used] / length(r)) * abs(acc - conf))
}

# cal_ci(metric = "ece") on binary input: estimate and percentile interval.
bench_cal_ci <- function(p, y, conf_level = 0.95, n_boot = 999, bins = 10) {
  input <- contract_binary_input(p, y)
  r <- input$r
  c <- input$c
  n <- length(r)
  estimate <- bench_ece_binary(r, c, bins)
  replicates <- numeric(n_boot)
  for (b in seq_len(n_boot)) {
    idx <- sample.int(n, n, replace = TRUE)
    replicates[b] <- bench_ece_binary(r[idx], c[idx], bins)
  }
  alpha <- 1 - conf_level
  bounds <- stats::quantile(replicates, c(alpha / 2, 1 - alpha / 2), type = 7, names = FALSE)
  list(estimate = estimate, lower = max(min(bounds[1L], estimate), 0),
       upper = max(bounds[2L], estimate))
}

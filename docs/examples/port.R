# An R calibration analysis, ported line by line in port.py (docs/migrating-from-r.md).
# Run from the repository root: Rscript docs/examples/port.R
library(probcal)
# probcal < 0.2.0 lacks skce() and cal_test(): use the repository's R definition of 0.2.0
if (!exists("cal_test", mode = "function")) source("pycalib_r/r/contract.R")

set.seed(2024)
n <- 600; k <- 3
scores <- matrix(rnorm(n * k), ncol = k)        # filled column by column
truth <- exp(scores) / rowSums(exp(scores))
u <- runif(n)
codes <- 1 + (u > truth[, 1]) + (u > truth[, 1] + truth[, 2])
y <- factor(c("cat", "dog", "fox")[codes], levels = c("cat", "dog", "fox"))
logits <- 2 * scores                            # an over-confident model
prob <- exp(logits) / rowSums(exp(logits))

fit_rows <- 1:400
new_rows <- 401:600
ece(prob[new_rows, ], y[new_rows])
ece(prob[new_rows, ], y[new_rows], type = "confidence")

fit <- cal_temperature(logits[fit_rows, ], y[fit_rows])
fit
fit$temperature
cal <- predict(fit, logits[new_rows, ])
ece(cal, y[new_rows], type = "confidence")

res <- cal_test(cal, y[new_rows], n_boot = 199)
res
res$p.value

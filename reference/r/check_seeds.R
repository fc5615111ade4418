# Checks that reference/r/contract.R reproduces, byte for byte, every example
# printed in the 0.2.0 help pages (the seeds). Exits with status 1 on mismatch.
#
# Usage (from the repository root):
#   Rscript reference/r/check_seeds.R [path/to/seeds]
# The seeds directory defaults to ../shared/seeds next to the repository.

args <- commandArgs(trailingOnly = TRUE)
seeds_dir <- if (length(args) >= 1L) args[[1L]] else file.path("..", "shared", "seeds")
options(width = 80, cli.width = 80, cli.num_colors = 1, cli.unicode = TRUE)

script_dir <- local({
  file_arg <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  if (length(file_arg)) dirname(normalizePath(sub("^--file=", "", file_arg[[1L]]))) else "reference/r"
})
source(file.path(script_dir, "contract.R"))

# Lines printed by a seed example: the "#> " lines that follow the call, up to
# the next blank/non-"#>" line. The leading "#> " (or "#>" on empty lines) is
# dropped.
seed_output <- function(file, call) {
  lines <- readLines(file, encoding = "UTF-8", warn = FALSE)
  start <- which(lines == call)
  if (length(start) != 1L) stop("call not found exactly once in ", file, ": ", call)
  out <- character()
  i <- start + 1L
  while (i <= length(lines) && startsWith(lines[[i]], "#>")) {
    out <- c(out, sub("^#> ?", "", lines[[i]]))
    i <- i + 1L
  }
  out
}

printed <- function(x) {
  # cli writes to the message stream when not interactive.
  out <- capture.output(print(x), type = "message")
  out
}

failures <- 0L
compare <- function(label, got, want) {
  if (identical(enc2utf8(got), enc2utf8(want))) {
    cat(sprintf("ok   %s\n", label))
  } else {
    failures <<- failures + 1L
    cat(sprintf("FAIL %s\n--- got\n%s\n--- want\n%s\n", label,
                paste(got, collapse = "\n"), paste(want, collapse = "\n")))
  }
}

f_test <- file.path(seeds_dir, "000_e0b3b046e08e8c56.txt")
f_ci <- file.path(seeds_dir, "003_c2f3f560acb397cc.txt")

# cal_test(): both examples, each after its own set.seed().
set.seed(40)
p <- stats::runif(300)
y <- rbinom(300, 1, p)
compare("cal_test(p, y)", printed(cal_test(p, y)), seed_output(f_test, "cal_test(p, y)"))

set.seed(41)
p2 <- stats::runif(300)
y2 <- rbinom(300, 1, pmin(pmax(p2 - 0.25, 0), 1))
compare("cal_test(p2, y2)", printed(cal_test(p2, y2)), seed_output(f_test, "cal_test(p2, y2)"))

# cal_ci(): the two examples share one stream after set.seed(42).
set.seed(42)
p <- stats::runif(300)
y <- rbinom(300, 1, p)
call1 <- 'cal_ci(p, y, metric = "ece", bins = 10, n_boot = 199)'
call2 <- 'cal_ci(p, y, metric = "skce", n_boot = 199)'
compare(call1, printed(eval(parse(text = call1))), seed_output(f_ci, call1))
compare(call2, printed(eval(parse(text = call2))), seed_output(f_ci, call2))

if (failures > 0L) {
  cat(sprintf("%d seed example(s) differ\n", failures))
  quit(status = 1L)
}
cat("all seed examples reproduced\n")

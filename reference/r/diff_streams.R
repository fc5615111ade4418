# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls R's random streams through their API
# The R side of the random-stream differential test (tests/suites/differential/test_differential_streams.py).
# Base R only.
#
#   diff_streams_run(calls, starts)
#       `calls` is a character vector of R expressions (one call each),
#       `starts` a logical vector of the same length that is TRUE where a new
#       program begins (R's kinds are reset to the defaults and set.seed(0)
#       run there first, so a program does not depend on the one before).
#       Each call is evaluated in the global environment; the result is one
#       line per call, fields separated by a tab:
#         typeof(value) | dim | values | warnings | error | .Random.seed
#       values: doubles as C's "%a" (exact bits, sign of zero kept), integers
#       in decimal, NA as "NA", separated by spaces; warnings in R's order,
#       separated by "\036" (ASCII RS); the error is conditionMessage() (empty
#       when none); .Random.seed after the call, as integers.
#
# From the command line (to rewrite the stored sample without rpy2):
#   Rscript reference/r/diff_streams.R calls.txt out.txt
# where calls.txt holds one call per line, a line "#program" before each
# program; out.txt receives one result line per call.

diff_streams_encode <- function(v) {
  if (is.null(v)) return("")
  if (is.list(v)) v <- unlist(v)
  if (is.double(v)) {
    s <- sprintf("%a", as.vector(v))
    s[is.na(v) & !is.nan(v)] <- "NA"
    return(paste(s, collapse = " "))
  }
  if (is.integer(v) || is.logical(v)) {
    s <- as.character(as.vector(v))
    s[is.na(v)] <- "NA"
    return(paste(s, collapse = " "))
  }
  paste(as.character(v), collapse = " ")
}

diff_streams_one <- function(call) {
  warns <- character(0)
  err <- ""
  value <- NULL
  value <- tryCatch(
    withCallingHandlers(
      eval(parse(text = call)[[1L]], globalenv()),
      warning = function(w) {
        warns <<- c(warns, conditionMessage(w))
        invokeRestart("muffleWarning")
      }),
    error = function(e) {
      err <<- conditionMessage(e)
      NULL
    })
  seed <- if (exists(".Random.seed", globalenv(), inherits = FALSE)) {
    s <- get(".Random.seed", globalenv())
    if (is.integer(s)) paste(s, collapse = " ") else "not-integer"
  } else "none"
  dims <- if (is.null(dim(value))) "" else paste(dim(value), collapse = " ")
  fields <- c(if (nzchar(err)) "error" else typeof(value), dims,
              if (nzchar(err)) "" else diff_streams_encode(value),
              paste(gsub("[\t\n]", " ", warns), collapse = "\036"),
              gsub("[\t\n]", " ", err), seed)
  paste(fields, collapse = "\t")
}

diff_streams_run <- function(calls, starts) {
  out <- character(length(calls))
  for (i in seq_along(calls)) {
    if (starts[[i]]) {
      # Every program starts from the same state, whatever ran before it.
      suppressWarnings(RNGkind("default", "default", "default"))
      set.seed(0L)
    }
    out[[i]] <- diff_streams_one(calls[[i]])
  }
  suppressWarnings(RNGkind("default", "default", "default"))
  out
}

if (!interactive() && length(commandArgs(trailingOnly = TRUE)) == 2L) {
  args <- commandArgs(trailingOnly = TRUE)
  lines <- readLines(args[[1L]], encoding = "UTF-8")
  starts <- c(FALSE, lines[-length(lines)] == "#program")
  keep <- lines != "#program"
  writeLines(diff_streams_run(lines[keep], starts[keep]), args[[2L]], useBytes = TRUE)
}

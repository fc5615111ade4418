# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls probcal and R through their APIs
# R side of pycalib_r.rcheck.same_as_r(): evaluates one call in the user's R
# and returns, as JSON written by harness_json() (harness.R, shipped beside
# this file), everything the Python side compares. Base R only.
#
#   rcheck_envs(contract_path)   evaluation environments: probcal's exports
#                                (when installed) and contract.R's definitions
#   rcheck_has(fname, args)      1L when the installed probcal exports `fname`
#                                and accepts every argument named in `args`
#   rcheck_call(...)             one call; see below

rcheck_envs <- function(contract_path) {
  has_probcal <- requireNamespace("probcal", quietly = TRUE)
  probcal_env <- NULL
  version <- ""
  if (has_probcal) {
    suppressPackageStartupMessages(library(probcal))
    probcal_env <- new.env(parent = as.environment("package:probcal"))
    version <- as.character(utils::packageVersion("probcal"))
  }
  contract_env <- new.env(parent = globalenv())
  sys.source(contract_path, envir = contract_env)
  # Base R and the parallel package's stream jumps (next_rng_stream()).
  base_env <- new.env(parent = globalenv())
  base_env$nextRNGStream <- parallel::nextRNGStream
  base_env$nextRNGSubStream <- parallel::nextRNGSubStream
  list(probcal = probcal_env, contract = contract_env, base = base_env, version = version)
}

rcheck_has <- function(fname, args) {
  if (!requireNamespace("probcal", quietly = TRUE)) return(0L)
  if (!fname %in% getNamespaceExports("probcal")) return(0L)
  formals_names <- names(formals(get(fname, envir = asNamespace("probcal"))))
  as.integer("..." %in% formals_names || all(args %in% formals_names))
}

# What cli and print() write, stdout and messages in one stream (cli writes
# to stderr when not interactive and to stdout otherwise).
rcheck_capture <- function(fun) {
  captured <- character()
  con <- textConnection("captured", "w", local = TRUE)
  sink(con)
  sink(con, type = "message")
  tryCatch(fun(), finally = {
    sink(type = "message")
    sink()
    close(con)
  })
  paste(captured, collapse = "\n")
}

# The components Python can compare: the value itself when atomic or a data
# frame, otherwise the list's atomic and data-frame components.
rcheck_comparable <- function(v) is.null(v) || is.atomic(v) || is.data.frame(v)

rcheck_leaves <- function(x) {
  if (rcheck_comparable(x)) return(list(value = x))
  if (is.list(x) && !is.null(names(x))) {
    kept <- x[vapply(x, rcheck_comparable, logical(1))]
    if (length(kept)) return(kept)
  }
  NULL
}

rcheck_skipped <- function(x) {
  if (rcheck_comparable(x) || !is.list(x) || is.null(names(x))) return(NULL)
  skipped <- x[!vapply(x, rcheck_comparable, logical(1))]
  if (!length(skipped)) return(NULL)
  lapply(skipped, function(v) class(v)[1L])
}

rcheck_try <- function(fun) tryCatch(fun(), error = function(e) list(error = conditionMessage(e)))

# Evaluates fname(<args by name>, <kwargs by value>) in a child of `parent`.
# `args` are bound to their names, so deparse(substitute(p)) sees the names;
# `kwargs` are placed in the call as values, as literals would be. `seed`
# (an integer vector or NULL) becomes .Random.seed first; `opts` are set with
# options(). `extras`: "data" compares value$data (reliability_diagram),
# "print"/"summary" capture print(value)/summary(value), "predict" adds
# predict(value, <first argument>), "state" returns .Random.seed as the value.
rcheck_call <- function(fname, args, kwargs, parent, seed, opts, extras) {
  harness_setup()
  if (length(opts)) options(opts)
  env <- new.env(parent = parent)
  for (nm in names(args)) assign(nm, args[[nm]], envir = env)
  cl <- as.call(c(list(as.name(fname)), lapply(names(args), as.name), kwargs))
  call_text <- paste(deparse(cl, width.cutoff = 500L), collapse = " ")
  if (!is.null(seed)) assign(".Random.seed", seed, envir = globalenv())
  warnings <- character()
  error <- NULL
  value <- NULL
  output <- rcheck_capture(function() {
    value <<- withCallingHandlers(
      tryCatch(eval(cl, env), error = function(e) {
        error <<- conditionMessage(e)
        NULL
      }),
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      }
    )
  })
  state <- if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
    get(".Random.seed", envir = globalenv())
  }
  out <- list(call = call_text, error = error, output = output, warnings = warnings,
              seed = state, classes = class(value))
  if (is.null(error)) {
    shown <- if ("data" %in% extras) value$data else if ("state" %in% extras) state else value
    out$value <- rcheck_leaves(shown)
    out$skipped <- rcheck_skipped(shown)
    # Evaluated in the call's environment, so that S3 methods defined there
    # (contract.R's print.cal_test) are found as they are for the call.
    assign(".rcheck_value", value, envir = env)
    run <- function(code) eval(parse(text = code, keep.source = FALSE)[[1L]], env)
    if ("print" %in% extras) {
      out$print <- rcheck_try(function() list(text = rcheck_capture(function() run("print(.rcheck_value)"))))
    }
    if ("summary" %in% extras) {
      out$summary <- rcheck_try(function() list(text = rcheck_capture(function() run("summary(.rcheck_value)"))))
    }
    if ("predict" %in% extras && inherits(value, "calibrator")) {
      assign(".rcheck_newdata", args[[1L]], envir = env)
      out$predict <- rcheck_try(function() list(value = run("predict(.rcheck_value, .rcheck_newdata)")))
    }
  }
  list(json = harness_json(out), value = value)
}

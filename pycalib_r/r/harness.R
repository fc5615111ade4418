# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: written for pycalib_r; calls probcal and R through their APIs
# Fixture harness shared by tools/make_fixtures.R (which writes the fixtures)
# and tests/suites/project/test_fixtures_live.py (which re-evaluates stored cases in R through
# rpy2). Base R only.
#
# It provides
#   harness_setup()                      fixed printing options (width 80, no colour)
#   harness_envs(root, need_probcal)     evaluation environments for the two sources
#   harness_eval(r_call, inputs, kind, parent)
#                                        evaluates one case; returns the `expected`
#                                        value: a value, list(print = text),
#                                        list(error = conditionMessage) or
#                                        list(warnings = messages, value = value)
#   harness_json(x)                      JSON text of a value, numbers at full
#                                        precision (sprintf("%.17g"))
#
# Encoding rules (mirrored by tests/_rcall.py):
#   double       -> JSON number that always shows a "." or exponent ("1.0")
#   integer      -> JSON integer ("1")
#   logical      -> true / false
#   NA / NaN / Inf / -Inf inside vectors -> the strings "NA", "NaN", "Inf", "-Inf"
#   vector       -> JSON list; a length-1 value is a bare scalar only when it
#                   is marked with harness_scalar() (inputs) or is a result
#   matrix       -> {"matrix": [[row 1], [row 2], ...]}
#   factor       -> {"factor": [labels], "levels": [levels]}
#   data frame   -> {"data_frame": {"column": [...], ...}} (factors as labels)
#   NULL         -> null

harness_setup <- function() {
  options(
    width = 80, cli.width = 80, cli.num_colors = 1, cli.unicode = TRUE,
    cli.dynamic = FALSE, useFancyQuotes = TRUE
  )
  invisible(NULL)
}

# Marks a length-1 input to be written as a bare JSON scalar (seeds, sizes).
harness_scalar <- function(x) structure(x, harness_scalar = TRUE)

# Environments in which r_call strings are evaluated. "probcal" cases see the
# probcal exports; "contract" cases see pycalib_r/r/contract.R (which defines
# its own ece/mce/ace/mmce/skce/cal_test/cal_ci and masks probcal's).
harness_envs <- function(root, need_probcal = TRUE) {
  has_probcal <- requireNamespace("probcal", quietly = TRUE)
  if (need_probcal && !has_probcal) stop("the probcal R package is not installed")
  base_parent <- globalenv()
  probcal_env <- NULL
  if (has_probcal) {
    suppressPackageStartupMessages(library(probcal))
    probcal_env <- new.env(parent = as.environment("package:probcal"))
  }
  contract_env <- new.env(parent = base_parent)
  sys.source(file.path(root, "pycalib_r", "r", "contract.R"), envir = contract_env)
  list(probcal = probcal_env, contract = contract_env)
}

# Evaluates one case. `kind` is "value", "print", "error" or "warnings"
# (list(warnings = R's warning messages in order, one list per statement of
# a { } block, value = the value)).
harness_eval <- function(r_call, inputs, kind, parent) {
  env <- new.env(parent = parent)
  for (name in names(inputs)) {
    value <- inputs[[name]]
    attr(value, "harness_scalar") <- NULL
    assign(name, value, envir = env)
  }
  old_options <- options(probcal.emoji = NULL)
  on.exit(options(old_options), add = TRUE)
  expr <- parse(text = r_call, keep.source = FALSE)
  run <- function() {
    value <- NULL
    for (e in expr) value <- eval(e, env)
    value
  }

  if (identical(kind, "error")) {
    message_text <- tryCatch(
      {
        suppressWarnings(run())
        NULL
      },
      error = function(e) conditionMessage(e)
    )
    if (is.null(message_text)) stop("expected an error from: ", r_call)
    return(list(error = message_text))
  }

  if (identical(kind, "print")) {
    # cli writes to stderr when not interactive and to stdout otherwise: sink
    # both into one connection so the lines keep their order.
    captured <- character()
    con <- textConnection("captured", "w", local = TRUE)
    sink(con)
    sink(con, type = "message")
    ok <- FALSE
    tryCatch(
      {
        suppressWarnings(run())
        ok <- TRUE
      },
      finally = {
        sink(type = "message")
        sink()
        close(con)
      }
    )
    return(list(print = paste(captured, collapse = "\n")))
  }

  if (identical(kind, "warnings")) {
    # The value and R's warnings, every occurrence in order, per top-level
    # statement (what R's top level lists after each): a block { a; b }
    # gives one list per statement. RNGkind() is restored (a case may
    # change the kinds).
    kinds <- RNGkind()
    on.exit(if (!identical(RNGkind(), kinds)) {
      suppressWarnings(RNGkind(kinds[[1L]], kinds[[2L]], kinds[[3L]]))
    }, add = TRUE)
    statements <- as.list(expr)
    if (length(expr) == 1L && is.call(expr[[1L]]) && identical(expr[[1L]][[1L]], as.name("{"))) {
      statements <- as.list(expr[[1L]])[-1L]
    }
    groups <- list()
    value <- NULL
    for (e in statements) {
      caught <- character()
      value <- withCallingHandlers(eval(e, env), warning = function(w) {
        caught <<- c(caught, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
      groups[[length(groups) + 1L]] <- as.list(caught)
    }
    return(list(warnings = groups, value = value))
  }

  suppressWarnings(run())
}

# ---------------------------------------------------------------------------
# JSON writer.
# ---------------------------------------------------------------------------

# The md5 the fixtures record of pycalib_r/r/contract.R: of its code, without
# the provenance lines at its top (SPDX, "Derived from", ...), so that a
# licence header does not mark the stored values stale. Python's twin is in
# tests/suites/project/test_fixtures.py (contract_md5).
harness_contract_md5 <- function(path) {
  lines <- readLines(path, warn = FALSE)
  k <- 0L
  while (k < length(lines) &&
         grepl("^# (SPDX-License-Identifier|Derived from|Not derived|Written from):", lines[[k + 1L]])) {
    k <- k + 1L
  }
  raw <- readBin(path, "raw", file.info(path)$size)
  if (k > 0L) {
    cut <- sum(nchar(lines[seq_len(k)], type = "bytes") + 1L)
    raw <- raw[-seq_len(cut)]
  }
  tmp <- tempfile()
  on.exit(unlink(tmp))
  writeBin(raw, tmp)
  unname(tools::md5sum(tmp))
}

harness_json_string <- function(s) {
  if (length(s) != 1L) return(vapply(s, harness_json_string, character(1), USE.NAMES = FALSE))
  if (is.na(s)) return('"NA"')
  s <- enc2utf8(as.character(s))
  s <- gsub("\\", "\\\\", s, fixed = TRUE)
  s <- gsub('"', '\\"', s, fixed = TRUE)
  s <- gsub("\n", "\\n", s, fixed = TRUE)
  s <- gsub("\r", "\\r", s, fixed = TRUE)
  s <- gsub("\t", "\\t", s, fixed = TRUE)
  chars <- strsplit(s, "", fixed = TRUE)[[1L]]
  control <- vapply(chars, function(ch) utf8ToInt(ch)[1L] < 32L, logical(1))
  if (any(control)) {
    chars[control] <- sprintf("\\u%04x", vapply(chars[control], utf8ToInt, integer(1)))
    s <- paste(chars, collapse = "")
  }
  paste0('"', s, '"')
}

harness_json_double <- function(x) {
  if (is.nan(x)) return('"NaN"')
  if (is.na(x)) return('"NA"')
  if (is.infinite(x)) return(if (x > 0) '"Inf"' else '"-Inf"')
  # Always 17 significant digits: any correctly rounding reader (Python's
  # float(), C's strtod) gets x back exactly. A shorter form chosen by reading
  # it back with R's own parser is not safe, because R_strtod is not always
  # correctly rounded.
  text <- sprintf("%.17g", x)
  if (!grepl("[.eE]", text)) text <- paste0(text, ".0")
  text
}

harness_json_atom <- function(x) {
  if (is.factor(x)) x <- as.character(x)
  if (is.double(x)) return(vapply(x, harness_json_double, character(1)))
  if (is.integer(x)) return(ifelse(is.na(x), '"NA"', sprintf("%d", x)))
  if (is.logical(x)) return(ifelse(is.na(x), '"NA"', ifelse(x, "true", "false")))
  if (is.character(x)) return(vapply(x, harness_json_string, character(1)))
  stop("cannot encode an object of type ", typeof(x))
}

harness_json_list <- function(items) paste0("[", paste(items, collapse = ", "), "]")

harness_json_object <- function(names, items) {
  paste0("{", paste(paste0(vapply(names, harness_json_string, character(1)), ": ", items),
                    collapse = ", "), "}")
}

# `unbox`: write length-1 atomic vectors as bare scalars (results do; inputs
# only when marked with harness_scalar()).
harness_json <- function(x, unbox = TRUE) {
  if (is.null(x)) return("null")
  if (isTRUE(attr(x, "harness_scalar"))) {
    attr(x, "harness_scalar") <- NULL
    return(harness_json_atom(x))
  }
  if (is.factor(x)) {
    return(harness_json_object(
      c("factor", "levels"),
      c(harness_json_list(harness_json_atom(as.character(x))),
        harness_json_list(harness_json_atom(levels(x))))
    ))
  }
  if (is.data.frame(x)) {
    columns <- vapply(x, function(col) harness_json_list(harness_json_atom(col)), character(1))
    return(harness_json_object("data_frame", harness_json_object(names(x), columns)))
  }
  if (is.matrix(x)) {
    rows <- vapply(seq_len(nrow(x)), function(i) {
      harness_json_list(harness_json_atom(unname(x[i, ])))
    }, character(1))
    return(harness_json_object("matrix", harness_json_list(rows)))
  }
  if (is.list(x)) {
    items <- vapply(x, harness_json, character(1), unbox = unbox)
    if (!is.null(names(x))) return(harness_json_object(names(x), items))
    return(harness_json_list(items))
  }
  atoms <- harness_json_atom(unname(x))
  if (unbox && length(atoms) == 1L) return(atoms)
  harness_json_list(atoms)
}

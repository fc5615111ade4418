"""The command line's faults: output files, resources, hints and warnings.

Every problem the ``pycalib-r`` command meets is reported as one line,
``pycalib-r: error: ...``, with exit status 2 (argparse's convention for a
usage error): an input that cannot be read (:class:`~pycalib_r.cli._source.CsvError`),
an output file that cannot be written (:class:`OutputError`), R's error for
the data (:class:`~pycalib_r.ProbcalError`, with hints that name the
command's options rather than Python code), or a request beyond the
machine's memory. A message names files, never their content.

Library warnings reach the user as ``pycalib-r: warning: ...`` lines.

R equivalent: none (R's messages are kept as they are).
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import List, Optional, Sequence

PROG = "pycalib-r"


class OutputError(Exception):
    """An output file that cannot be written, printed as one line (exit status 2)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")


def _reason(exc: OSError) -> str:
    # strerror ("No space left on device") names no path and no content.
    return exc.strerror or type(exc).__name__


@contextmanager
def writing(path: str):
    """Turn an ``OSError`` while writing ``path`` into an :class:`OutputError`."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(path, f"could not write the file: {_reason(exc)}") from None


def printable(text: str) -> str:
    """``text`` with every control character escaped (``\\x1b``), so that no
    terminal escape sequence from a file or a name reaches the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def say(line: str) -> None:
    """Write ``line`` to standard error, if it can be written: a closed or
    full standard error loses the message, never the exit status (and
    ``print(file=None)`` would write to standard output)."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(line + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass


def one_line(message: str) -> str:
    """``message`` on one line: the library wraps R's messages at 80 columns
    as ``cli::cli_abort()`` does (normalising blanks), so its lines joined
    by a space are the message."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


def error(message: str, hints: Sequence[str] = ()) -> int:
    """Print ``message`` as the command's error line (and its hints); return 2."""
    say(f"{PROG}: error: {printable(one_line(message))}")
    for hint in hints:
        say(f"{PROG}: hint: {printable(one_line(hint))}")
    return 2


def warn(message: str) -> None:
    """Print ``message`` as a warning line of the command."""
    say(f"{PROG}: warning: {printable(message)}")


_said = {"probabilities": False}


# The library's advice names arguments as Python code (method="block"); the
# command's user gives options (--method block).
_PY_ARGUMENT = re.compile(r'\b([a-z][a-z_]*)="([A-Za-z_]+)"')


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """``warnings.showwarning`` for the command: the warning's text, without
    the package's file and source line, its ``name="value"`` advice as options."""
    text = _PY_ARGUMENT.sub(lambda m: f"--{m.group(1).replace('_', '-')} {m.group(2)}",
                            str(message))
    if _said["probabilities"] and "logit" in text and "[0, 1]" in text:
        return  # the library's Python-worded twin of probability_warning()
    warn(text)


def reset() -> None:
    """Forget what an earlier run of ``main()`` in this process said."""
    _said["probabilities"] = False


def probability_warning(p_cols: Sequence[str], method: str) -> None:
    """``calibrate --method temperature`` (or vector_scaling) on columns that
    are all in [0, 1]: they are fitted as logits, as in R, which is rarely
    what was meant. The fix in the command's terms."""
    _said["probabilities"] = True
    cols = ",".join(p_cols)
    fix = ("give the logit, log(p / (1 - p)), in --p" if len(p_cols) == 1
           else "give log(p) of each class's column in --p")
    warn(f"every value of --p {cols} lies in [0, 1], but --method {method} takes logits (the "
         f"probabilities are fitted as logits, as in R): {fix}, or use --method "
         f"{'platt' if len(p_cols) == 1 else 'dirichlet'}, which takes probabilities")


def memory_message(args, exc: MemoryError) -> str:
    """One line for a request beyond this machine's memory."""
    notes = [note for note in getattr(exc, "__notes__", ()) if note]
    what = f"not enough memory for this {args.command}"
    n_boot = getattr(args, "n_boot", None)
    if args.command in ("test", "ci") and n_boot is not None:
        what += f" (--n-boot {n_boot}); ask for fewer resamples"
    elif args.command == "diagram":
        what += " (--bins, --figsize or --dpi); ask for fewer bins or a smaller image"
    if notes:
        what += f" ({notes[0].rstrip('.')})"
    return what


# R's messages whose library hints show Python code; the command line gives
# its own (options, not Python).
_CODES_FROM_ONE = "Integer class codes in `y` must start at `1`."
_FACTOR_OR_CODES = "Argument `y` must be a factor or a vector of integer class codes."


def cli_hints(exc, args) -> List[str]:
    """The hints for R's error ``exc`` met by the command ``args``: the
    library's notes, except those that show Python code, which are replaced
    by the command's options."""
    p_cols: List[str] = list(getattr(args, "p", None) or [])
    if getattr(args, "command", None) == "validate" and len(p_cols) > 1:
        # val.prob, hoslem.test and the intercept and slope are binary: the
        # library's error says why; the fix in the command's terms
        notes = [note for note in getattr(exc, "__notes__", ()) if not _shows_python(note)]
        return notes + [f"validate takes one --p column, the positive class's probability, "
                        f"with 0/1 labels (or --pos-label LABEL): e.g. --p {p_cols[-1]}"]
    return _hints(exc, args)


def _hints(exc, args) -> List[str]:
    message = str(exc)
    notes = list(getattr(exc, "__notes__", ()))
    p_cols: List[str] = list(getattr(args, "p", None) or [])
    y_col: Optional[str] = getattr(args, "y", None)
    columns = ",".join(p_cols)
    if message == _CODES_FROM_ONE:
        hints = []
        if len(p_cols) == 2:
            hints.append(f"for a binary problem with 0/1 labels give the positive class's "
                         f"column alone: --p {p_cols[1]}")
        hints.append(f"--y {y_col} is read as class codes 1..K in the order of --p {columns}, "
                     f"or as labels that name the --p columns (--p 0,1,2 for the labels 0, 1 "
                     f"and 2): rename the columns after the labels, or recode --y")
        return hints
    if message == _FACTOR_OR_CODES:
        return [f"--y {y_col} must hold class codes 1..K in the order of --p {columns}, or "
                f"labels equal to the --p column names"]
    if message.startswith("Argument `y` must contain binary labels"):
        return [f"with one --p column, --y {y_col} holds 0/1 (or True/False) labels; for "
                f"several classes give one --p column per class (--p a,b,c)"]
    if message.startswith("Each row of `") and message.endswith("` must sum to `1`."):
        return [f"the --p columns ({columns}) must be every class's probability, summing to "
                f"1 on each row"]
    return [note for note in notes if not _shows_python(note)]


def _shows_python(note: str) -> bool:
    return any(mark in note for mark in ("[:, ", ".iloc", "pd.", "np.", "astype(", "y + 1"))

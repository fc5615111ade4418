"""The ``pycalib-r`` parser and ``main()``: one error style, exit status 2.

Every problem is one line, ``pycalib-r: error: ...``, with exit status 2:
an input that cannot be read, an output that cannot be written (the old
file stays), R's error for the data or an option (naming the option:
``argument --conf-level: ...``), memory, standard output on a full disk.
Ctrl-C exits 130 and SIGTERM 143, removing any unfinished output. Closed
and non-UTF-8 standard streams are :mod:`._streams`'s.

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import signal
import sys
import warnings
from typing import List, Optional

from . import _faults
from ._args import EXAMPLES, Parser, file_after_columns
from ._faults import PROG, OutputError, cli_hints, error, memory_message, show_warning
from ._output import check_output, refuse_same_file
from ._registry import COMMANDS
from ._source import CsvError
from ._streams import needs_stdout, reads_stdin, standard_streams


def _module(name: str):
    return importlib.import_module(f"{__package__}.{COMMANDS[name]}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="probcal's calibration metrics, tests, intervals, calibrators and "
                    "diagrams for CSV files, printing what R prints.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from .. import __version__

    parser.add_argument("--version", action="version",
                        version=f"{PROG} {__version__} (probcal {__version__})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        _module(name).add(sub)
    parser.epilog = "examples (more with COMMAND --help):\n" + "\n".join(
        f"  {EXAMPLES[name]}" for name in COMMANDS)
    return parser


_ARGUMENT = re.compile(r"^(?:Argument )?`([A-Za-z_][A-Za-z0-9_.]*)` (.*)$", re.S)


def flag_message(exc, args) -> str:
    """R's message for an argument the command sets by an option, naming
    the option: ``Argument `conf_level` must be ...`` -> ``argument
    --conf-level: must be ...``. Other messages (the data's) stay R's."""
    message = str(exc)
    match = _ARGUMENT.match(message)
    parser = getattr(args, "_parser", None)
    if match is None or parser is None:
        return message
    name = match.group(1).rstrip("_")
    flag = "--" + name.replace("_", "-").replace(".", "-")
    if name in ("p", "y") or flag not in parser._option_string_actions:
        return message
    rest = match.group(2)
    return f"argument {flag}: {rest}"


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so unfinished outputs are removed."""


def _on_sigterm(signum, frame):
    raise _Terminated


def _quiet_stdout() -> None:
    """After a failed write to standard output, send the rest to /dev/null
    (Python would otherwise fail again, with a traceback, when it flushes at exit)."""
    if sys.stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Optional[List[str]] = None) -> int:
    """Run ``pycalib-r`` with ``argv`` (default: the process's); return the exit status."""
    args = build_parser().parse_args(argv)
    file_after_columns(args)
    with standard_streams() as closed:
        if "stdout" in closed and needs_stdout(args):
            # cron, or `>&-`: the result would be lost; say so before any work
            return error("<stdout>: standard output is closed, and the result of "
                         f"{args.command} is printed there; redirect it (> FILE, or "
                         "> /dev/null to discard it)")
        if "stdin" in closed and reads_stdin(args):
            return error("<stdin>: standard input is closed; give a file name, or "
                         "redirect it (< FILE)")
        if "stdout" in closed and args.command == "calibrate":
            _faults.warn("standard output is closed: the calibrator is not printed "
                         "(the output file is written)")
        return _run(args)


def _run(args) -> int:
    from ..rbase._errors import ProbcalError

    # The library's warnings (R's, and the Python-side ones such as
    # temperature scaling on probabilities) as one readable line each, not
    # Python's "file:line: UserWarning" with a source line of the package.
    _faults.reset()
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread
        pass
    with warnings.catch_warnings():
        warnings.showwarning = show_warning
        try:
            output = getattr(args, "output", None)
            if output is not None:
                check_output(output, force=getattr(args, "force", False))
                refuse_same_file(output, [getattr(args, n, None) for n in ("csv", "fit", "apply")])
            status = _module(args.command).run(args)
            try:
                if sys.stdout is not None:
                    sys.stdout.flush()
            except BrokenPipeError:
                raise
            except OSError as exc:
                _quiet_stdout()
                return error(f"<stdout>: could not write: {exc.strerror or type(exc).__name__}")
            return status
        except (CsvError, OutputError) as exc:
            return error(str(exc), getattr(exc, "hints", ()))
        except ProbcalError as exc:
            return error(flag_message(exc, args), cli_hints(exc, args))
        except MemoryError as exc:
            return error(memory_message(args, exc))
        except KeyboardInterrupt:
            return 130
        except _Terminated:
            return 143
        except BrokenPipeError:
            # the reader left (`pycalib-r demo | head`): stop quietly, as Unix tools do
            _quiet_stdout()
            return 141
        except OSError as exc:
            if exc.errno is not None and getattr(exc, "filename", None) is None:
                # standard output (or another stream) failed while printing
                _quiet_stdout()
                return error(f"<stdout>: could not write: {exc.strerror or type(exc).__name__}")
            raise
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

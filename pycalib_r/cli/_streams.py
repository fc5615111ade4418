"""The standard streams of the command line: closed, or not UTF-8.

A command started with a closed standard stream (``>&-``, ``2>&-``,
``<&-``, as cron or a daemon may start it) gets, for the duration of
:func:`main`, ``/dev/null`` in the stream's place: its file descriptor is
taken, so that no file the command opens gets number 0, 1 or 2 (where a
stray write to "standard output" would land in the user's file), and the
Python stream is a null one. A command whose result *is* its standard
output (every one but ``calibrate -o FILE`` and ``diagram -o FILE``)
refuses at once, before any work, with one error line and exit status 2;
one that reads standard input (``-``) while it is closed does the same.

A standard output whose encoding is not UTF-8 (``LC_ALL=C`` with
``PYTHONUTF8=0``, ``PYTHONIOENCODING=ascii``) prints what R prints in such
a locale: cli's ASCII rules (``--`` for ``──``, as ``cli::rule()`` draws
when ``cli::is_utf8_output()`` is FALSE) and ``<U+2696>`` for any other
character the encoding lacks, as R's output conversion writes it; the
widths are computed on the original characters, as R's cli computes them.

R equivalent: none (the command line is Python-only; in an ASCII locale it
prints what R prints there).
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from contextlib import contextmanager
from typing import Iterator, List, Optional

# cli's ASCII fallbacks for the box-drawing lines it draws (symbol$line,
# symbol$double_line); any other character is written as R writes it.
_ASCII = {"\u2500": "-", "\u2550": "="}
ERRORS = "pycalib_r.r_ascii"


def _r_ascii(exc: UnicodeError):
    """A codecs error handler: cli's ASCII rule characters, else R's ``<U+XXXX>``."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for char in exc.object[exc.start:exc.end]:
        code = ord(char)
        out.append(_ASCII.get(char) or (f"<U+{code:04X}>" if code <= 0xFFFF else f"<U+{code:08X}>"))
    return "".join(out), exc.end


codecs.register_error(ERRORS, _r_ascii)


def _utf8(stream) -> bool:
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "\u2500".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _take_descriptor(fd: int) -> None:
    """Put ``/dev/null`` on a closed descriptor ``fd`` (left in place: a closed
    standard stream stays closed for anyone else, as ``/dev/null``)."""
    try:
        os.fstat(fd)
        return  # open (possibly by a file opened since start-up: leave it)
    except OSError:
        pass
    try:
        new = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if new != fd:
            os.dup2(new, fd)
            os.close(new)
    except OSError:
        pass


def needs_stdout(args) -> bool:
    """Whether the command's result is written to standard output."""
    if args.command in ("calibrate", "diagram"):
        return getattr(args, "output", None) == "-"
    return True


def reads_stdin(args) -> bool:
    return "-" in [getattr(args, name, None) for name in ("csv", "fit", "apply")]


@contextmanager
def standard_streams() -> Iterator[List[str]]:
    """Null streams in place of closed ones, and R's ASCII output where
    standard output is not UTF-8, for the duration of the block.

    Yields the names of the streams that were closed (``"stdin"``,
    ``"stdout"``, ``"stderr"``).
    """
    closed: List[str] = []
    saved = {}
    reconfigured: Optional[str] = None
    try:
        for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
            if getattr(sys, name) is None:
                _take_descriptor(fd)
                closed.append(name)
                saved[name] = None
                setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115 (closed below)
        out = sys.stdout
        if "stdout" not in closed and isinstance(out, io.TextIOWrapper) and not _utf8(out):
            reconfigured = out.errors
            try:
                out.reconfigure(errors=ERRORS)
            except (ValueError, OSError):  # a stream that cannot change its errors now
                reconfigured = None
        yield closed
    finally:
        if reconfigured is not None:
            try:
                sys.stdout.reconfigure(errors=reconfigured)
            except (ValueError, OSError):
                pass
        for name, value in saved.items():
            stream = getattr(sys, name)
            setattr(sys, name, value)
            try:
                stream.close()
            except OSError:
                pass

"""Opening an input of the command line: a path or ``-``, read once.

An input is a file, a FIFO, ``/dev/stdin`` or standard input (``-``). It is
opened once and read once, front to back, in blocks: nothing is read twice,
so a pipe works as a file does. Compressed CSV (gzip, bzip2, xz, a zip
archive of one file) is recognised by its first bytes, not its name, and
decompressed as it is read; a Parquet file (``PAR1``) is read by pyarrow.

The blocks are cut at record ends (a newline outside double quotes), and a
record may hold at most :data:`MAX_RECORD` bytes: a file without line ends
(``/dev/zero``, one 600 MB line) is refused once that much is buffered, so
memory stays bounded whatever the input.

Every problem is a :class:`CsvError`: one line naming the file (never its
content), the line and the column.

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from typing import Iterator, Optional, Sequence, Tuple

import numpy as np

# Bytes read at once, and the most a single record (line) may hold.
BLOCK = 1 << 22
MAX_RECORD = 1 << 24


class CsvError(Exception):
    """An input problem, printed as one line (exit status 2).

    The column is shown as ``repr`` shows it, so a name taken from the file
    cannot carry terminal escape sequences to the user's terminal.
    """

    def __init__(self, path: str, message: str, line: Optional[int] = None,
                 column: Optional[str] = None, row: Optional[int] = None,
                 hints: Sequence[str] = ()):
        self.hints = list(hints)  # printed as "pycalib-r: hint: ..." lines
        where = [display(path)]
        if line is not None:
            where.append(f"line {line}")
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {shown(column, cut=False)}")
        super().__init__(f"{', '.join(where)}: {message}")


def display(path: str) -> str:
    """``path`` as messages show it (``<stdin>`` for ``-``)."""
    return "<stdin>" if path == "-" else shown_path(str(path))


def shown_path(path: str) -> str:
    """A path as typed, with control characters escaped (a file name can hold
    them), a very long one shortened."""
    if not path.isprintable():
        path = repr(path)[1:-1]
    if len(path) > 200:
        path = f"{path[:120]}...{path[-60:]} ({len(path)} characters)"
    return path


def shown(text: str, cut: bool = True) -> str:
    """Text from a file quoted in a message: ``repr``-escaped (no control
    character reaches the terminal), cut to 20 characters."""
    text = text.strip()
    if cut and len(text) > 20:
        return repr(text[:20] + "...")
    return repr(text)


_OS_REASONS = {
    errno.ENOENT: "no such file",
    errno.EISDIR: "is a directory, not a CSV file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder (a file name ending in '/'?)",
    errno.ELOOP: "too many levels of symbolic links (a symlink loop?)",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.ENXIO: "not a file that can be read (a socket, or a device with nothing behind it)",
    errno.EOPNOTSUPP: "not a file that can be read (a socket?)",
}


def os_reason(exc: OSError) -> str:
    """An OS error as a short reason, naming no path and no content."""
    reason = _OS_REASONS.get(exc.errno)
    if reason is None:
        reason = (exc.strerror or type(exc).__name__).rstrip(".")
        reason = f"could not be read ({reason})"
    return reason


class Source:
    """One opened input: ``kind`` is ``"csv"`` (``blocks()`` gives its
    bytes) or ``"parquet"`` (``path`` is read by pyarrow)."""

    def __init__(self, path: str, kind: str, stream=None, first: bytes = b"",
                 closer=None):
        self.path = path
        self.kind = kind
        self._stream = stream
        self._first = first
        self._closer = closer

    def close(self) -> None:
        for f in (self._stream, self._closer):
            if f is not None and f is not sys.stdin.buffer:
                try:
                    f.close()
                except OSError:
                    pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def blocks(self) -> Iterator[bytes]:
        """The (decompressed) bytes, in blocks of at most :data:`BLOCK`."""
        if self._first:
            first, self._first = self._first, b""
            yield first
        while True:
            try:
                block = self._stream.read(BLOCK)
            except (OSError, EOFError, ValueError) as exc:
                raise CsvError(self.path, _decode_reason(exc)) from None
            except Exception as exc:  # zlib.error, lzma.LZMAError, ...
                raise CsvError(self.path, _decode_reason(exc)) from None
            if not block:
                return
            yield block


def _decode_reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno is not None:
        return os_reason(exc)
    return f"the compressed data is damaged or cut short ({type(exc).__name__})"


class _Prefixed(io.RawIOBase):
    """A stream that gives ``prefix`` first, then the rest of ``stream``."""

    def __init__(self, prefix: bytes, stream):
        self._prefix = prefix
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._stream.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"),
          (b"PK\x03\x04", "zip"), (b"PAR1", "parquet"))


def _read_first(path: str, raw) -> bytes:
    first = b""
    while len(first) < 8:  # a pipe may give a few bytes at a time
        try:
            data = raw.read(BLOCK)
        except OSError as exc:
            raise CsvError(path, os_reason(exc)) from None
        if not data:
            break
        first += data
    return first


def open_source(path: str) -> Source:
    """Open ``path`` (``-``: standard input) for one reading.

    Raises :class:`CsvError` for every OS error (missing, a folder, a
    symlink loop, a socket, a name too long, ...) and for a compressed
    file that cannot be read on a pipe.
    """
    if path == "-":
        raw = sys.stdin.buffer
    else:
        try:
            raw = open(path, "rb", buffering=0)  # noqa: SIM115 (closed by Source)
            mode = os.fstat(raw.fileno()).st_mode
        except OSError as exc:
            raise CsvError(path, os_reason(exc)) from None
        if stat.S_ISDIR(mode):
            raw.close()
            raise CsvError(path, _OS_REASONS[errno.EISDIR])
    first = _read_first(path, raw)
    kind = next((name for magic, name in _MAGIC if first.startswith(magic)), "csv")
    if kind == "csv":
        return Source(path, "csv", raw, first)
    regular = path != "-" and stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
    if kind in ("zip", "parquet"):
        if not regular:
            if raw is not sys.stdin.buffer:
                raw.close()
            what = "a zip archive" if kind == "zip" else "a Parquet file"
            raise CsvError(path, f"{what} can be read from a file only, not from a pipe or "
                                 "standard input: give its file name")
        raw.close()
        if kind == "parquet":
            return Source(path, "parquet")
        return _zip_member(path)
    import bz2
    import gzip
    import lzma

    opener = {"gzip": lambda f: gzip.GzipFile(fileobj=f, mode="rb"),
              "bzip2": lambda f: bz2.BZ2File(f, mode="rb"),
              "xz": lambda f: lzma.LZMAFile(f, mode="rb")}[kind]
    return Source(path, "csv", opener(_Prefixed(first, raw)), closer=raw)


def _zip_member(path: str) -> Source:
    import zipfile

    try:
        archive = zipfile.ZipFile(path)
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (OSError, zipfile.BadZipFile) as exc:
        raise CsvError(path, f"not a readable zip archive ({type(exc).__name__})") from None
    if len(members) != 1:
        archive.close()
        raise CsvError(path, f"a zip archive of {len(members)} files; it must hold exactly one "
                             "CSV file (unzip it and give the file)")
    try:
        member = archive.open(members[0])
    except (OSError, RuntimeError, NotImplementedError, zipfile.BadZipFile) as exc:
        archive.close()
        raise CsvError(path, f"its file cannot be read ({type(exc).__name__}: encrypted or an "
                             "unsupported compression?)") from None
    return Source(path, "csv", member, closer=archive)


# ---------------------------------------------------------------------------
# Record-aligned chunks


def _last_record_end(buf: bytes) -> int:
    """Index just after the last newline of ``buf`` outside double quotes (0: none)."""
    if b'"' not in buf:
        return buf.rfind(b"\n") + 1
    raw = np.frombuffer(buf, dtype=np.uint8)
    newlines = np.flatnonzero(raw == 10)
    if newlines.size == 0:
        return 0
    quotes = np.cumsum(raw == 34)
    ends = newlines[quotes[newlines] % 2 == 0]
    return int(ends[-1]) + 1 if ends.size else 0


def count_newlines(raw: bytes) -> int:
    return int(np.count_nonzero(np.frombuffer(raw, dtype=np.uint8) == 10))


def record_chunks(source: Source) -> Iterator[Tuple[bytes, int, int]]:
    """``(bytes, number of its first line, number of newlines)``: the input
    cut at record ends into pieces of about :data:`BLOCK` bytes, each record
    whole.

    A record longer than :data:`MAX_RECORD` bytes is refused.
    """
    line = 1
    pending = []  # the pieces of the unfinished record(s), joined when a newline comes
    size = 0
    newline = False
    for block in source.blocks():
        pending.append(block)
        size += len(block)
        newline = newline or b"\n" in block
        if newline and size >= BLOCK:
            newline = False
            buf = b"".join(pending)
            cut = _last_record_end(buf)
            if cut:
                chunk, rest = buf[:cut], buf[cut:]
                count = count_newlines(chunk)
                yield chunk, line, count
                line += count
                buf = rest
            pending = [buf] if buf else []
            size = len(buf)
        if size > MAX_RECORD:
            raise CsvError(source.path, f"more than {MAX_RECORD >> 20} MiB without the end of "
                                        "the record (no line end, or an unclosed quote); this "
                                        "is not a CSV file of one observation per line",
                           line=line)
    if pending:
        chunk = b"".join(pending)
        yield chunk, line, count_newlines(chunk)

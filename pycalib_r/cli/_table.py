"""The columns of an input: a CSV (any common separator) or a Parquet file.

A CSV is read in record-aligned chunks (:func:`._source.record_chunks`).
Each chunk is parsed by pyarrow's C++ CSV parser when pyarrow is
installed; a chunk it cannot parse exactly as the csv module would
(a short or long row, a cell that is not a number, text that is not
UTF-8, a lone carriage return) is parsed again by the csv module, row by
row, which finds the line and the column of the problem. Both give the
same records and the same numbers (Python's ``float()``; pyarrow's reader
rounds correctly and accepts a subset of what ``float()`` accepts), so the
fast path changes only the speed. Only the columns asked for are kept, so
memory follows them, not the file.

The separator is ``--sep``, or sniffed from the header line: the one of
``,`` ``;`` tab ``|`` that the header and the next lines split into the
same number of fields (``,`` when none does).

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

import csv
import io
import re
from typing import Dict, List, Optional, Sequence

import numpy as np

from ._columns import (  # noqa: F401 - re-exported
    Column, LineMap, Table, check_missing, header_listing, not_a_number)
from ._source import CsvError, count_newlines, open_source, record_chunks

SEPARATORS = (",", ";", "\t", "|")
_SURROGATE = re.compile("[\udc80-\udcff]")  # bytes that are not UTF-8, as surrogateescape keeps them


def _decode(path: str, raw: bytes, first_line: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CsvError(path, "not UTF-8 text", line=first_line + raw[:exc.start].count(b"\n")) \
            from None


def _records(path: str, text: str, first_line: int, sep: str):
    """``(line, fields)`` of each non-blank record of ``text``, as the csv module reads them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    start = first_line
    offset = first_line - 1
    try:
        for fields in reader:
            line, start = start, reader.line_num + offset + 1
            if fields:
                yield line, fields
    except csv.Error as exc:
        raise CsvError(path, f"not a readable CSV ({exc})", line=reader.line_num + offset) from None


def sniff(header: str, sample: List[str]) -> str:
    """The separator of ``header`` and the lines after it (``sample``)."""
    best, best_width = ",", 1
    for sep in SEPARATORS:
        try:
            rows = list(csv.reader([header] + sample, delimiter=sep))
        except csv.Error:
            continue
        rows = [r for r in rows if r]
        if not rows:
            continue
        width = len(rows[0])
        if width > 1 and all(len(r) == width for r in rows) and width > best_width:
            best, best_width = sep, width
    return best


def _split_header(path: str, chunks, sep: Optional[str]):
    """The first non-blank record: ``(names, line, sep, rest of that chunk, its first line)``."""
    for raw, first_line, _ in chunks:
        if first_line == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        ends = _record_bounds(raw)
        for start, end in zip(ends[0], ends[1]):
            record = raw[start:end].rstrip(b"\r")
            if not record:
                continue
            line = first_line + raw[:start].count(b"\n")
            text = _decode(path, record, line)
            rest = raw[end + 1:]
            rest_line = first_line + raw[:end + 1].count(b"\n")
            if sep is None:
                sample = rest[:1 << 16].decode("utf-8", "replace").splitlines()[:20]
                sep = sniff(text, [s for s in sample[:-1] if s] if len(sample) > 1 else sample)
            fields = next(_records(path, text + "\n", line, sep))[1]
            return [name.strip() for name in fields], line, sep, rest, rest_line, record
    raise CsvError(path, "the file is empty; expected a header line, then one row per "
                         "observation", line=1)


def _record_bounds(raw: bytes):
    """Start and end (the newline's index, or len) of each record of ``raw``,
    a newline inside double quotes belonging to its record."""
    a = np.frombuffer(raw, dtype=np.uint8)
    newlines = np.flatnonzero(a == 10)
    if b'"' in raw and newlines.size:
        quotes = np.cumsum(a == 34)
        newlines = newlines[quotes[newlines] % 2 == 0]
    ends = np.append(newlines, len(raw))
    starts = np.concatenate(([0], newlines + 1))
    if starts[-1] == len(raw):  # ends with a newline: no record after it
        starts, ends = starts[:-1], ends[:-1]
    return starts, ends


def _record_lines(raw: bytes, first_line: int) -> np.ndarray:
    """The line of each non-blank record of ``raw``."""
    a = np.frombuffer(raw, dtype=np.uint8)
    starts, ends = _record_bounds(raw)
    length = ends - starts
    cr_only = np.zeros(starts.size, dtype=bool)
    one = length == 1
    cr_only[one] = a[starts[one]] == 13
    keep = (length > 0) & ~cr_only
    newline_pos = np.flatnonzero(a == 10)
    return first_line + np.searchsorted(newline_pos, starts[keep])


# ---------------------------------------------------------------------------
# Chunks


class _Fallback(Exception):
    """pyarrow could not parse a chunk as the csv module would: use the csv module."""


def _arrow():
    try:
        import pyarrow  # noqa: F401
        import pyarrow.compute
        import pyarrow.csv
    except ImportError:
        return None
    return pyarrow


def _arrow_read(pa, raw: bytes, names, types, sep: str, block: int):
    return pa.csv.read_csv(
        pa.py_buffer(raw),
        read_options=pa.csv.ReadOptions(column_names=names, use_threads=True, block_size=block),
        parse_options=pa.csv.ParseOptions(delimiter=sep, newlines_in_values=b'"' in raw,
                                          ignore_empty_lines=True),
        convert_options=pa.csv.ConvertOptions(
            include_columns=list(types), column_types=types, null_values=[],
            strings_can_be_null=False, quoted_strings_can_be_null=False, check_utf8=True))


def _arrow_chunk(pa, raw: bytes, width: int, wanted: Dict[int, str], sep: str):
    """The wanted columns of ``raw`` parsed by pyarrow, as ``{index: (values, texts)}``.

    Every column is first read as numbers; a text column that is not is
    read again as text.
    """
    if b"\r" in raw and raw.count(b"\r") != raw.count(b"\r\n"):
        raise _Fallback  # a lone carriage return: the csv module's lines, not ours
    names = [f"c{i}" for i in range(width)]
    block = 1 << 20
    table = None
    for as_text in ((), tuple(i for i, kind in wanted.items() if kind == "text")):
        types = {names[i]: (pa.string() if i in as_text else pa.float64()) for i in wanted}
        try:
            try:
                table = _arrow_read(pa, raw, names, types, sep, block)
            except pa.ArrowInvalid as exc:
                if "straddl" not in str(exc):
                    raise
                block = len(raw) + 1  # a record longer than a block: one block
                table = _arrow_read(pa, raw, names, types, sep, block)
            break
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            if not as_text and any(kind == "text" for kind in wanted.values()):
                continue
            raise _Fallback from None
    if table is None:
        raise _Fallback
    out = {}
    for i, kind in wanted.items():
        col = table.column(names[i]).combine_chunks()
        if pa.types.is_floating(col.type):
            values = col.to_numpy(zero_copy_only=False)
            out[i] = (values, None)
            continue
        try:
            values = pa.compute.cast(col, pa.float64()).to_numpy(zero_copy_only=False)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            values = None
        out[i] = (values, col)
    return table.num_rows, out


def _python_chunk(path: str, raw: bytes, first_line: int, width: int,
                  wanted: Dict[int, str], sep: str):
    """The csv module's reading of ``raw``: the exact line and column of any problem."""
    text = raw.decode("utf-8", "surrogateescape")
    cells: Dict[int, List[str]] = {i: [] for i in wanted}
    lines: List[int] = []
    for line, fields in _records(path, text, first_line, sep):
        if len(fields) != width:
            count = len(fields)
            raise CsvError(path, f"{count} field{'s' if count != 1 else ''}, but the header "
                                 f"has {width}; every row needs one value per column", line=line)
        lines.append(line)
        for i in wanted:
            cells[i].append(fields[i])
    out = {}
    undecodable = not text.isascii() and _SURROGATE.search(text) is not None
    for i, kind in wanted.items():
        texts = cells[i]
        if undecodable:
            for t, line in zip(texts, lines):
                if _SURROGATE.search(t):
                    raise CsvError(path, "not UTF-8 text", line=line)
        try:
            values = np.array(texts, dtype=np.float64)
        except ValueError:
            values = None
        out[i] = (values, None if kind == "num" and values is not None else texts)
    return np.asarray(lines, dtype=np.int64), out


class Chunk:
    """One parsed piece of a CSV: its bytes, its first line, its records'
    count and lines (``lines``: None when one record per line), and the
    wanted columns as ``{name: (values, texts)}``."""

    __slots__ = ("raw", "first_line", "count", "lines", "parts")

    def __init__(self, raw, first_line, count, lines, parts):
        self.raw, self.first_line, self.count, self.lines, self.parts = (
            raw, first_line, count, lines, parts)


class CsvChunks:
    """A CSV input opened for one reading: its header (``header``,
    ``header_line``, ``sep``, ``header_raw``) and :meth:`chunks`."""

    def __init__(self, source, columns: Sequence[str], sep: Optional[str],
                 numeric: Sequence[str]):
        path = self.path = source.path
        self._chunks = record_chunks(source)
        (self.header, self.header_line, self.sep, self._rest, self._rest_line,
         self.header_raw) = _split_header(path, self._chunks, sep)
        seen = set()
        for name in self.header:
            if name in seen:
                raise CsvError(path, "this name appears twice in the header; rename one",
                               line=self.header_line, column=name)
            seen.add(name)
        for name in columns:
            if name not in seen:
                raise CsvError(path, "not in the header" + header_listing(name, self.header),
                               line=self.header_line, column=name)
        index = {name: self.header.index(name) for name in columns}
        self._wanted = {i: ("num" if name in numeric else "text") for name, i in index.items()}
        self._pa = _arrow()

    def _parse(self, raw: bytes, first_line: int, newlines: int) -> Chunk:
        path, width, wanted, sep, pa = (self.path, len(self.header), self._wanted, self.sep,
                                        self._pa)
        parts = explicit = None
        count = 0
        if pa is not None:
            try:
                count, parts = _arrow_chunk(pa, raw, width, wanted, sep)
            except _Fallback:
                parts = None
            # one record per line unless blank lines or quoted line ends
            if parts is not None and count != newlines + (not raw.endswith(b"\n")):
                explicit = _record_lines(raw, first_line)
                if explicit.size != count:
                    parts = explicit = None
        if parts is None:
            explicit, parts = _python_chunk(path, raw, first_line, width, wanted, sep)
            count = explicit.size
        named = {}
        for i, (values, texts) in parts.items():
            name = self.header[i]
            if wanted[i] == "num" and values is None:
                _first_non_number(path, name, texts, explicit, first_line)
            named[name] = (values, texts)
        return Chunk(raw, first_line, count, explicit, named)

    def chunks(self):
        """The parsed chunks after the header, in order."""
        if self._rest:
            yield self._parse(self._rest, self._rest_line, count_newlines(self._rest))
        for raw, first_line, newlines in self._chunks:
            if raw:
                yield self._parse(raw, first_line, newlines)


def read_table(path: str, columns: Sequence[str], sep: Optional[str] = None,
               numeric: Sequence[str] = ()) -> Table:
    """Read the ``columns`` of the input ``path`` once (see the module's docstring).

    ``numeric`` columns must hold numbers (the first that does not is an
    error naming its line and column); the others are kept as text where
    a cell is not a number. Checks the file's shape: a header, data rows,
    every row the header's number of fields, every column in the header.
    """
    with open_source(path) as source:
        if source.kind == "parquet":
            from ._parquet import read_parquet

            return read_parquet(path, columns, numeric)
        reader = CsvChunks(source, columns, sep, numeric)
        lines = LineMap()
        cols = {name: Column(name, lines) for name in columns}
        for chunk in reader.chunks():
            for name, (values, texts) in chunk.parts.items():
                cols[name].add(values, texts)
            lines.add(chunk.first_line, chunk.count, chunk.lines)
    if not len(lines):
        raise CsvError(path, "no data rows after the header", line=reader.header_line + 1)
    table = Table(path, reader.header, cols, reader.header_line, lines)
    for name in numeric:
        check_missing(table, name)
    return table


def chunk_records(chunk: Chunk, sep: str) -> List[bytes]:
    """The bytes of each record of ``chunk`` (no line end), as parsed."""
    raw = chunk.raw
    if chunk.lines is None:
        records = raw.split(b"\n")
        if raw.endswith(b"\n"):
            records.pop()
    else:
        starts, ends = _record_bounds(raw)
        records = [raw[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
    if b"\r" in raw:
        records = [r[:-1] if r.endswith(b"\r") else r for r in records]
    records = [r for r in records if r]
    if len(records) == chunk.count:
        return records
    # lone carriage returns: the csv module's records, written back with the separator
    out = io.StringIO()
    writer = csv.writer(out, delimiter=sep, lineterminator="\n")
    for _, fields in _records("", raw.decode("utf-8", "surrogateescape"), 1, sep):
        writer.writerow(fields)
    return [r.encode("utf-8", "surrogateescape") for r in out.getvalue().split("\n")[:-1]]


def _first_non_number(path, column, texts, lines, first_line):
    for k, text in enumerate(texts):
        try:
            float(text)
        except ValueError:
            line = int(lines[k]) if lines is not None else first_line + k
            raise CsvError(path, not_a_number(text), line=line, column=column) from None

"""The columns the command line reads, whatever the format: a column's
cells with their lines, the line map, the table, and the messages about a
cell (shared by the CSV reader, :mod:`._table`, and the Parquet one,
:mod:`._parquet`).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._source import CsvError, shown

_MISSING = {"", "na", "nan", "null", "none"}
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+")


class Column:
    """One column's cells: numbers (``values``, float64) when every cell is
    one, else text (``texts()``), with each row's line (:meth:`line`)."""

    def __init__(self, name: str, lines: "LineMap"):
        self.name = name
        self._lines = lines
        # (float64 array or None, the cells' text: an arrow array, a list, or None)
        self._parts: List[Tuple[Optional[np.ndarray], object]] = []
        self._values: Optional[np.ndarray] = None

    def add(self, values: Optional[np.ndarray], texts) -> None:
        self._parts.append((values, texts))
        self._values = None

    @property
    def numeric(self) -> bool:
        return all(v is not None for v, _ in self._parts)

    @property
    def values(self) -> Optional[np.ndarray]:
        """The cells as float64, or None when one is not a number."""
        if not self.numeric:
            return None
        if self._values is None:
            parts = [np.asarray(v, dtype=np.float64) for v, _ in self._parts]
            self._values = (parts[0] if len(parts) == 1 else
                            np.concatenate(parts) if parts else np.empty(0))
        return self._values

    def texts(self) -> List[str]:
        """The cells as text (only columns read as text keep it)."""
        out: List[str] = []
        for values, texts in self._parts:
            if texts is None:  # read as numbers (a chunk of numbers in a text column)
                out.extend(np.format_float_positional(v, trim="-") for v in values)
            elif isinstance(texts, list):
                out.extend(texts)
            else:
                out.extend(texts.to_pylist())
        return out

    def line(self, row: int) -> int:
        return self._lines.line(row)


class LineMap:
    """The line of each data row: runs of consecutive lines, or explicit arrays."""

    def __init__(self, row_label: str = "line"):
        self._starts: List[int] = []  # first row of each part
        self._parts: List[Tuple[int, Optional[np.ndarray]]] = []
        self._n = 0
        self.row_label = row_label

    def add(self, first_line: int, count: int, lines: Optional[np.ndarray] = None) -> None:
        if count:
            self._starts.append(self._n)
            self._parts.append((first_line, lines))
            self._n += count

    def line(self, row: int) -> int:
        i = int(np.searchsorted(self._starts, row, side="right")) - 1
        first, lines = self._parts[i]
        offset = row - self._starts[i]
        return int(lines[offset]) if lines is not None else first + offset

    def __len__(self) -> int:
        return self._n


class Table:
    """The header and the columns asked for."""

    def __init__(self, path: str, header: List[str], columns: Dict[str, Column],
                 header_line: Optional[int], lines: LineMap):
        self.path = path
        self.header = header
        self.columns = columns
        self.header_line = header_line
        self.lines = lines

    def error(self, message: str, row: Optional[int] = None, column: Optional[str] = None,
              hints: Sequence[str] = ()):
        """A :class:`CsvError` at data row ``row`` (0-based) of ``column``."""
        if row is None:
            return CsvError(self.path, message, column=column, hints=hints)
        where = self.lines.line(row)
        if self.lines.row_label == "row":
            return CsvError(self.path, message, row=where, column=column, hints=hints)
        return CsvError(self.path, message, line=where, column=column, hints=hints)


# ---------------------------------------------------------------------------
# The header and the separator


def header_listing(name: str, header: Sequence[str]) -> str:
    """What an error line says of the header: its size, and the names close
    to the one asked for (a typo's fix), ``repr``-escaped. The header itself
    is not echoed: the file may not be a CSV at all."""
    import difflib

    close = difflib.get_close_matches(name, list(header), n=3, cutoff=0.6)
    text = f" ({len(header)} column{'s' if len(header) != 1 else ''})"
    if close:
        text += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    return text


def not_a_number(text: str) -> str:
    """Why a cell is not a number, in the user's terms."""
    if text.strip().lower() in _MISSING:
        return "a missing value; fill it in or drop the row"
    if _DECIMAL_COMMA.fullmatch(text.strip()):
        return f"{shown(text)} is not a number (a decimal comma? numbers need a decimal point)"
    return f"{shown(text)} is not a number"


def check_missing(table: Table, name: str) -> None:
    """A NaN cell ('nan') is a missing value, named by its line."""
    values = table.columns[name].values
    if values is None:
        return
    bad = np.flatnonzero(np.isnan(values))
    if bad.size:
        raise table.error("a missing value; fill it in or drop the row", row=int(bad[0]),
                          column=name)

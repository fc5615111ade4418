"""The columns of a Parquet file (pyarrow), as :class:`._table.Table` gives a CSV's.

Only the columns asked for are read, one row group at a time. Numbers,
booleans (1/0) and integers are numbers; text and categorical (dictionary)
columns are text; a missing value (null) is an error naming its row (the
data rows counted from 1) and column.

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ._source import CsvError
from ._columns import Column, LineMap, Table, header_listing, not_a_number


def _open(path: str, columns: Sequence[str]):
    """``(pyarrow, the ParquetFile, its column names)``, every one of ``columns`` among them."""
    try:
        import pyarrow as pa
        import pyarrow.compute  # noqa: F401
        import pyarrow.csv  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise CsvError(path, "a Parquet file; reading it needs pyarrow: pip install pyarrow") \
            from None
    try:
        handle = pq.ParquetFile(path)
        header = list(handle.schema_arrow.names)
    except (OSError, pa.ArrowException) as exc:
        raise CsvError(path, f"not a readable Parquet file ({type(exc).__name__})") from None
    for name in columns:
        if name not in header:
            raise CsvError(path, "not in the file's columns" + header_listing(name, header),
                           column=name)
    return pa, handle, header


def read_parquet(path: str, columns: Sequence[str], numeric: Sequence[str]) -> Table:
    pa, handle, header = _open(path, columns)
    lines = LineMap(row_label="row")
    cols = {name: Column(name, lines) for name in columns}
    start = 1
    try:
        batches = handle.iter_batches(columns=list(dict.fromkeys(columns)))
        for batch in batches:
            for name in columns:
                arr = batch.column(batch.schema.get_field_index(name))
                if arr.null_count:
                    k = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
                    raise CsvError(path, "a missing value; fill it in or drop the row",
                                   row=start + k, column=name)
                _add(cols[name], arr, pa, path, start, name in numeric)
            lines.add(start, batch.num_rows)
            start += batch.num_rows
    except (OSError, pa.ArrowException) as exc:
        raise CsvError(path, f"not a readable Parquet file ({type(exc).__name__})") from None
    if not len(lines):
        raise CsvError(path, "no data rows")
    table = Table(path, header, cols, None, lines)
    for name in numeric:
        values = cols[name].values
        bad = np.flatnonzero(np.isnan(values))
        if bad.size:
            raise table.error("a missing value; fill it in or drop the row", row=int(bad[0]),
                              column=name)
    return table


def _add(column: Column, arr, pa, path: str, start: int, numeric: bool) -> None:
    kind = arr.type
    if pa.types.is_dictionary(kind):
        arr = arr.cast(kind.value_type) if hasattr(arr, "cast") else arr.dictionary_decode()
        kind = arr.type
    if pa.types.is_boolean(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind) \
            or pa.types.is_decimal(kind):
        column.add(arr.cast(pa.float64()).to_numpy(zero_copy_only=False), None)
        return
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        try:
            values = pa.compute.cast(arr, pa.float64()).to_numpy(zero_copy_only=False)
        except pa.ArrowInvalid:
            values = None
        if values is None and numeric:
            texts = arr.to_pylist()
            for k, text in enumerate(texts):
                try:
                    float(text)
                except ValueError:
                    raise CsvError(path, not_a_number(text), row=start + k,
                                   column=column.name) from None
        column.add(values, arr)
        return
    raise CsvError(path, f"its type {kind} is neither numbers nor text", column=column.name)


def calibrate_parquet(path: str, p_cols, added, calibrate, out, parquet_output: bool) -> None:
    """``calibrate --apply FILE.parquet``: every column of each row group, plus
    the calibrated ones, written to ``out`` as Parquet (``-o`` ending in
    ``.parquet``) or as CSV."""
    pa, handle, header = _open(path, p_cols)
    pq = pa.parquet
    clash = [name for name in added if name in header]
    if clash:
        raise CsvError(path, f"already has a column {clash[0]!r}; choose another --prefix")
    writer = None
    start = 1
    for batch in handle.iter_batches():
        lines = LineMap(row_label="row")
        lines.add(start, batch.num_rows)
        columns = []
        for name in p_cols:
            column = Column(name, lines)
            arr = batch.column(batch.schema.get_field_index(name))
            if arr.null_count:
                k = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
                raise CsvError(path, "a missing value; fill it in or drop the row",
                               row=start + k, column=name)
            _add(column, arr, pa, path, start, True)
            columns.append(column.values)
        new = columns[0] if len(columns) == 1 else np.column_stack(columns)
        result = np.asarray(calibrate(new), dtype=np.float64).reshape(batch.num_rows, -1)
        table = pa.Table.from_batches([batch])
        for k, name in enumerate(added):
            table = table.append_column(name, pa.array(result[:, k]))
        if parquet_output:
            if writer is None:
                writer = pq.ParquetWriter(out, table.schema)
            writer.write_table(table)
        else:
            pa.csv.write_csv(table, out, write_options=pa.csv.WriteOptions(
                include_header=start == 1))
        start += batch.num_rows
    if writer is not None:
        writer.close()
    if start == 1:
        raise CsvError(path, "no data rows")

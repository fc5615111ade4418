"""The ``pycalib-r`` command line (also ``python -m pycalib_r``).

Subcommands: ``demo``, ``metrics``, ``test``, ``ci``, ``calibrate``,
``diagram`` and ``parity`` (the same calls in R, through ``pycalib_r.rcheck``). Each reads a CSV of predictions and labels, calls the library
function of the same job, and prints what R prints for it (or JSON with
``--json``). A bad CSV gives one line naming the file, the line and the
column, and exit status 2.

(This module is the command line; ``pycalib_r._format``'s ``cli_*`` helpers
are R's cli package, which prints probcal's results.)

Adding a subcommand takes two functions and one line: ``_add_NAME(sub)``
registers its parser with :func:`_subparser` (help text and an example for
``--help``), ``_run_NAME(args)`` does the work and returns the exit status,
and ``COMMANDS`` maps the name to both. :func:`read_csv` /
:func:`read_columns` read the CSV with the one-line errors.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import math
import os
import sys
import warnings
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _command_faults
from ._command_faults import (PROG, OutputError, check_output, cli_hints, error,
                              memory_message, open_output, probability_warning, show_warning,
                              writing)
from .calibrators._methods import CV_METHODS, OVR_METHODS


class CsvError(Exception):
    """A CSV input problem, printed as one line (exit status 2)."""

    def __init__(self, path: str, message: str, line: Optional[int] = None,
                 column: Optional[str] = None):
        where = [_display_path(path)]
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column '{column}'")
        super().__init__(f"{', '.join(where)}: {message}")


def _display_path(path: str) -> str:
    return "<stdin>" if path == "-" else str(path)


# ---------------------------------------------------------------------------
# Reading CSV files


def _open_text(path: str):
    if path == "-":
        return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", newline="")
    try:
        return open(path, encoding="utf-8-sig", newline="")
    except FileNotFoundError:
        raise CsvError(path, "no such file") from None
    except IsADirectoryError:
        raise CsvError(path, "is a directory, not a CSV file") from None
    except PermissionError:
        raise CsvError(path, "permission denied") from None


def _records(path: str, handle, first_line: int = 1):
    """``(first line number, fields)`` of each non-blank record, as pandas skips blank lines."""
    reader = csv.reader(handle)
    start = first_line
    offset = first_line - 1
    try:
        for fields in reader:
            line, start = start, reader.line_num + offset + 1
            if fields:
                yield line, fields
    except csv.Error as exc:
        raise CsvError(path, f"not a readable CSV ({exc})", line=reader.line_num + offset) from None
    except UnicodeDecodeError:
        raise CsvError(path, "not UTF-8 text", line=reader.line_num + offset + 1) from None


# Characters of lines read at once by the block reader.
_BLOCK_CHARS = 1 << 22


class _FlatRows:
    """A block of plain lines, none blank, as one list of all their fields
    (``flat``) and each line's field count (``counts``): splitting the whole
    block at once avoids a Python step per line."""

    __slots__ = ("flat", "counts")

    def __init__(self, flat, counts):
        self.flat = flat
        self.counts = counts

    def row(self, i: int) -> List[str]:
        start = int(self.counts[:i].sum())
        return self.flat[start:start + int(self.counts[i])]

    def tail(self) -> "_FlatRows":
        """The block without its first line."""
        return _FlatRows(self.flat[int(self.counts[0]):], self.counts[1:])


def _flat_rows(text: str) -> Optional[_FlatRows]:
    """``text`` (plain lines) as :class:`_FlatRows`, or None if a line is blank."""
    body = text[:-1] if text.endswith("\n") else text
    raw = np.frombuffer(body.encode("utf-8"), dtype=np.uint8)  # "," and "\n" are single bytes in UTF-8
    ends = np.append(np.flatnonzero(raw == 10), raw.size)
    starts = np.concatenate(([0], ends[:-1] + 1))
    if np.any(ends == starts):
        return None
    commas = np.concatenate(([0], np.cumsum(raw == 44)))
    counts = commas[ends] - commas[starts] + 1
    return _FlatRows(body.replace("\n", ",").split(","), counts)


def _record_blocks(path: str, handle):
    """Lists of ``(line numbers, field lists)`` for the non-blank records,
    the same records as :func:`_records` gives one by one.

    A block of lines with no quote, carriage return or NUL is one record per
    line, its fields split at the commas (what the csv module does with such
    lines), which is several times faster than the csv module row by row;
    from the first block that has one, the csv module reads the rest.
    """
    line = 1
    while True:
        try:
            chunk = handle.readlines(_BLOCK_CHARS)
        except UnicodeDecodeError:
            raise CsvError(path, "not UTF-8 text", line=line) from None
        if not chunk:
            return
        text = "".join(chunk)
        if '"' in text or "\r" in text or "\0" in text:
            import itertools  # noqa: PLC0415

            records = list(_records(path, itertools.chain(chunk, handle), line))
            if records:
                yield [r[0] for r in records], [r[1] for r in records]
            return
        flat = _flat_rows(text)
        if flat is not None:
            yield list(range(line, line + flat.counts.size)), flat
            line += flat.counts.size
            continue
        rows = text.split("\n")
        if text.endswith("\n"):
            rows.pop()
        numbers = range(line, line + len(rows))
        line += len(rows)
        if "" in rows:  # blank lines: no record, as the csv module and pandas
            kept = [(n, r) for n, r in zip(numbers, rows) if r]
            numbers = [n for n, _ in kept]
            rows = [r for _, r in kept]
        if rows:
            yield list(numbers), [r.split(",") for r in rows]


def read_columns(path: str, columns: Sequence[str]) -> Tuple[Dict[str, List[str]], List[int], List[str]]:
    """The cells of ``columns`` as text, their line numbers, and the header.

    Checks the file's shape: it exists, has a header, has data rows, every
    row has the header's number of fields, and every column asked for is in
    the header. Only the columns asked for are kept, so memory follows them,
    not the file.
    """
    with _open_text(path) as handle:
        blocks = _record_blocks(path, handle)
        block = next(blocks, None)
        if block is None:
            raise CsvError(path, "the file is empty; expected a header line, then one row per "
                                 "observation", line=1)
        first_rows = block[1]
        header_line = block[0][0]
        header = first_rows.row(0) if isinstance(first_rows, _FlatRows) else first_rows[0]
        header = [name.strip() for name in header]
        seen = set()
        for name in header:
            if name in seen:
                raise CsvError(path, "this name appears twice in the header; rename one",
                               line=header_line, column=name)
            seen.add(name)
        for name in columns:
            if name not in seen:
                raise CsvError(path, "not in the header" + _header_listing(name, header),
                               line=header_line, column=name)
        index = {name: header.index(name) for name in columns}
        cells: Dict[str, List[str]] = {name: [] for name in columns}
        lines: List[int] = []
        width = len(header)
        numbers = block[0][1:]
        rows = first_rows.tail() if isinstance(first_rows, _FlatRows) else first_rows[1:]
        while True:
            if isinstance(rows, _FlatRows):
                wrong = np.flatnonzero(rows.counts != width)
                bad = (numbers[wrong[0]], int(rows.counts[wrong[0]])) if wrong.size else None
            elif any(len(fields) != width for fields in rows):
                bad = next((n, len(f)) for n, f in zip(numbers, rows) if len(f) != width)
            else:
                bad = None
            if bad is not None:
                line, count = bad
                raise CsvError(path, f"{count} field{'s' if count != 1 else ''}, but the "
                                     f"header has {width}; every row needs one value per column",
                               line=line)
            lines.extend(numbers)
            for name, i in index.items():
                if isinstance(rows, _FlatRows):
                    cells[name].extend(rows.flat[i::width])
                else:
                    cells[name].extend([fields[i] for fields in rows])
            block = next(blocks, None)
            if block is None:
                break
            numbers, rows = block
    if not lines:
        raise CsvError(path, "no data rows after the header", line=header_line + 1)
    return cells, lines, header


def _header_listing(name: str, header: List[str]) -> str:
    """What an error line says of the header: its size, and the names close
    to the one asked for (a typo's fix).

    The header itself is not echoed: the file may not be a CSV at all, and
    its first line may be anything (a key, a password file).
    """
    import difflib

    close = difflib.get_close_matches(name, header, n=3, cutoff=0.6)
    text = f" ({len(header)} column{'s' if len(header) != 1 else ''})"
    if close:
        text += "; did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    return text


def _shown_cell(text: str) -> str:
    """A cell quoted in an error line, cut to 20 characters."""
    text = text.strip()
    return repr(text[:20] + "...") if len(text) > 20 else f"'{text}'"


_MISSING = {"", "na", "nan", "null", "none"}


def _numbers(path: str, column: str, texts: List[str], lines: List[int]) -> np.ndarray:
    try:
        return np.array(texts, dtype=np.float64)
    except ValueError:
        pass
    for text, line in zip(texts, lines):
        try:
            float(text)
        except ValueError:
            what = ("a missing value; fill it in or drop the row" if text.strip().lower() in _MISSING
                    else f"{_shown_cell(text)} is not a number")
            raise CsvError(path, what, line=line, column=column) from None
    raise CsvError(path, "could not be read as numbers", column=column)  # pragma: no cover


def _check_missing(path: str, column: str, values: np.ndarray, lines: List[int]) -> None:
    bad = np.flatnonzero(np.isnan(values))
    if bad.size:
        raise CsvError(path, "a missing value; fill it in or drop the row",
                       line=lines[bad[0]], column=column)


def _integral(values: np.ndarray):
    if np.all(np.isfinite(values)) and np.all(values == np.round(values)):
        return values.astype(np.int64)
    return values


def read_csv(path: str, p_cols: Sequence[str], y_col: Optional[str]):
    """Predictions and labels from a CSV: ``(p, y)``.

    ``p`` is a vector for one column, an n x K array for several; ``y`` is
    0/1 or class codes 1..K as integers, or, for several probability columns
    and non-numeric labels, a pandas Categorical whose categories are the
    ``p`` columns in order (the labels name the columns). ``y`` is None when
    ``y_col`` is. Every problem raises :class:`CsvError`.
    """
    (p, *_), y = read_models(path, [p_cols], y_col)
    return p, y


def read_models(path: str, groups: Sequence[Sequence[str]], y_col: Optional[str]):
    """Several sets of probability columns and the labels, from one reading of the file.

    Returns ``([p for each group], y)``, each ``p`` as :func:`read_csv`
    makes it; class names in ``y`` are matched to the first group's columns.
    """
    wanted = list(dict.fromkeys([c for group in groups for c in group]
                                + ([y_col] if y_col is not None else [])))
    cells, lines, _ = read_columns(path, wanted)
    values = {}
    for name in wanted:
        if name == y_col and all(name not in group for group in groups):
            continue
        values[name] = _numbers(path, name, cells[name], lines)
        _check_missing(path, name, values[name], lines)
    models = [values[group[0]] if len(group) == 1
              else np.column_stack([values[c] for c in group]) for group in groups]
    if y_col is None:
        return models, None
    return models, _labels(path, y_col, cells[y_col], lines, groups[0])


# What pandas (and R's write.csv) write for booleans; R's as.logical() reads these.
_TRUE = {"true", "t"}
_FALSE = {"false", "f"}


def _as_number(text: str) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        return None


def _labels(path, y_col, texts, lines, p_cols):
    try:
        values = np.array(texts, dtype=np.float64)
    except ValueError:
        values = None
    if values is not None:
        _check_missing(path, y_col, values, lines)
        named = _numeric_names(values, p_cols)
        if named is not None:
            import pandas as pd  # noqa: PLC0415 (pandas costs 0.5 s: only class labels need it)

            return pd.Categorical.from_codes(named, categories=list(p_cols))
        return _integral(values)
    names = [text.strip() for text in texts]
    folded = {name.lower() for name in names}
    if folded <= _TRUE | _FALSE and not set(names) <= set(p_cols):
        # True/False labels, as pandas writes a bool column: 1/0.
        return np.fromiter((name.lower() in _TRUE for name in names), dtype=np.int64,
                           count=len(names))
    if len(p_cols) == 1:
        _numbers(path, y_col, texts, lines)  # raises on the first non-number
    classes = set(p_cols)
    for name, line in zip(names, lines):
        if name not in classes:
            raise CsvError(path, f"label {_shown_cell(name)} is not one of the probability columns "
                                 f"({', '.join(p_cols)}); labels are 1..K or those names",
                           line=line, column=y_col)
    import pandas as pd  # noqa: PLC0415

    return pd.Categorical(names, categories=list(p_cols))


def _numeric_names(values: np.ndarray, p_cols: Sequence[str]) -> Optional[np.ndarray]:
    """0-based codes (or any numbers) whose values name the ``--p`` columns
    (``--p 0,1,2 --y digit``): each label's column position, else None.

    Several columns named by numbers, and every label one of those numbers:
    the labels name the columns (whatever their order), as text labels do.
    """
    if len(p_cols) < 2:
        return None
    numbers = [_as_number(name) for name in p_cols]
    if any(x is None for x in numbers) or len(set(numbers)) != len(numbers):
        return None
    order = np.argsort(numbers, kind="stable")
    sorted_numbers = np.asarray(numbers, dtype=np.float64)[order]
    at = np.searchsorted(sorted_numbers, values)
    at = np.minimum(at, len(numbers) - 1)
    if not np.all(sorted_numbers[at] == values):
        return None
    return order[at]


# ---------------------------------------------------------------------------
# Argument types


def _bandwidth(text: str):
    if text == "median":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid value: '{text}' (a positive number, or median)") from None


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"invalid value: '{text}' (a positive number)")
    return value


def _choice(*choices: str) -> Callable[[str], str]:
    """An argparse type accepting a choice or a unique prefix of one, as R's match.arg()."""

    def parse(text: str) -> str:
        if text in choices:
            return text
        hits = [c for c in choices if text and c.startswith(text)]
        if len(hits) == 1:
            return hits[0]
        raise argparse.ArgumentTypeError(
            f"invalid choice: '{text}' (choose from {', '.join(choices)})")

    parse.__name__ = "choice"
    parse.metavar = "{" + ",".join(choices) + "}"
    return parse


class _Columns(argparse.Action):
    """``--p a b c`` or ``--p a,b,c`` (or both)."""

    def __call__(self, parser, namespace, values, option_string=None):
        names = [part.strip() for value in values for part in value.split(",") if part.strip()]
        setattr(namespace, self.dest, names)


def _json_number(x):
    x = float(x)
    return x if math.isfinite(x) else None


# ---------------------------------------------------------------------------
# Parser helpers


_EXAMPLES: Dict[str, str] = {}


class _Parser(argparse.ArgumentParser):
    """Options typed by :func:`_choice` show their choices in the usage line;
    a usage error is one line in the command's error style."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {message}; see {self.prog} --help\n")

    def add_argument(self, *args, **kwargs):
        metavar = getattr(kwargs.get("type"), "metavar", None)
        if metavar is not None:
            kwargs.setdefault("metavar", metavar)
        return super().add_argument(*args, **kwargs)


def _subparser(sub, name: str, help: str, example: str, description: str = ""):
    """One subcommand's parser, with its example shown by ``--help``."""
    _EXAMPLES[name] = example
    parser = sub.add_parser(
        name, help=help, description=description or help,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(_parser=parser)
    return parser


def _add_data(parser, labels: bool = True, file_arg: bool = True) -> None:
    if file_arg:
        parser.add_argument("csv", nargs="?", metavar="FILE",
                            help="CSV file with a header line ('-' for standard input)")
    parser.add_argument("--p", nargs="+", required=True, metavar="COL", action=_Columns,
                        help="probability column (binary), or one column per class "
                             "(multiclass): --p a b c or --p a,b,c")
    if labels:
        parser.add_argument("--y", required=True, metavar="COL",
                            help="label column: 0/1, class codes 1..K, or class names equal "
                                 "to the --p columns")


def _file_after_columns(args) -> None:
    """``--p a b c FILE``: nargs='+' took the file too; the last value is the file."""
    if getattr(args, "csv", "") is None:
        if len(args.p) < 2:
            args._parser.error("the following arguments are required: FILE")
        args.csv = args.p.pop()


def _add_bins(parser, strategy_help: str) -> None:
    parser.add_argument("--bins", type=int, default=10, help="number of bins (default 10)")
    parser.add_argument("--strategy", type=_choice("equal_width", "equal_freq"),
                        default="equal_width", help=strategy_help)


def _data_name(args) -> str:
    return f"{'+'.join(args.p)} and {args.y}"


# ---------------------------------------------------------------------------
# demo


def _add_demo(sub) -> None:
    _subparser(sub, "demo", "print the examples of probcal's help pages", f"{PROG} demo")


def _run_demo(_args) -> int:
    import pycalib_r as pc

    # The calls are printed as a Python session (``>>>``), so the output is a
    # doctest that runs as shown (tests/test_first_hour.py runs it).
    env = {"np": np, "pc": pc}

    def show(code: str) -> None:
        for line in code.strip().splitlines():
            print((">>> " if not line.startswith(" ") else "... ") + line)
            try:
                value = eval(compile(line, "<demo>", "eval"), env)
            except SyntaxError:
                exec(compile(line, "<demo>", "exec"), env)
                continue
            if value is not None:
                print(repr(value) if not hasattr(value, "r_class") else value)

    print("# The examples of probcal 0.2.0's help pages, with R's random streams,")
    print("# as Python calls (each prints what R prints).\n")
    show("import numpy as np\nimport pycalib_r as pc")
    show("pc.set_seed(40); p = pc.runif(300); y = pc.rbinom(300, 1, p)\n"
         "print(pc.cal_test(p, y))")
    show("pc.set_seed(41); p2 = pc.runif(300); y2 = pc.rbinom(300, 1, np.clip(p2 - 0.25, 0, 1))\n"
         "print(pc.cal_test(p2, y2, data_name=\"p2 and y2\"))")
    show("pc.set_seed(42); p = pc.runif(300); y = pc.rbinom(300, 1, p)\n"
         "print(pc.cal_ci(p, y, metric=\"ece\", bins=10, n_boot=199))\n"
         "print(pc.cal_ci(p, y, metric=\"skce\", n_boot=199))")
    # As R prints a number: 7 significant digits.
    show("print(f\"{pc.ece(p, y):.7g}\")\nprint(f\"{pc.mmce(p, y):.7g}\")")
    return 0


# ---------------------------------------------------------------------------
# metrics


def _add_metrics(sub) -> None:
    m = _subparser(sub, "metrics", "ece, mce, ace, mmce and skce of a CSV",
                   f"{PROG} metrics preds.csv --p prob --y label --bins 15 --json",
                   "The five calibration metrics, printed as a table (R's 7 significant "
                   "digits) or as JSON.")
    _add_data(m)
    _add_bins(m, "ece's bins: equal_width (default) or equal_freq (R's mce and ace are "
                 "equal-width only)")
    m.add_argument("--type", type=_choice("classwise", "confidence"), default="classwise",
                   help="multiclass: classwise (default; skce canonical) or confidence "
                        "(top-label, every metric)")
    m.add_argument("--debiased", action="store_true", help="ece(debiased = TRUE)")
    m.add_argument("--bandwidth", type=_bandwidth, default=0.2,
                   help="kernel bandwidth of skce, and of mmce unless --mmce-bandwidth "
                        "(default 0.2)")
    m.add_argument("--mmce-bandwidth", type=float, default=None,
                   help="mmce's bandwidth when it differs (R's mmce takes no median)")
    m.add_argument("--estimator", type=_choice("uq", "ul", "biased"), default="uq",
                   help="skce estimator (default uq)")
    m.add_argument("--json", action="store_true", help="print JSON")


def _metric_calls(args):
    """(name, R-style arguments, thunk) for each metric of ``metrics``."""
    import pycalib_r as pc

    t = args.type
    skce_type = "confidence" if t == "confidence" else "canonical"
    bw = args.bandwidth
    bw_text = f'"{bw}"' if isinstance(bw, str) else repr(bw)
    mmce_bw = args.mmce_bandwidth if args.mmce_bandwidth is not None else bw
    if isinstance(mmce_bw, str):
        args._parser.error("argument --bandwidth: median is skce's; R's mmce takes a number: "
                           "add --mmce-bandwidth, e.g. --mmce-bandwidth 0.2")
    return [
        ("ece", f'bins = {args.bins}, type = "{t}", debiased = {str(args.debiased).upper()}, '
                f'strategy = "{args.strategy}"',
         lambda p, y: pc.ece(p, y, bins=args.bins, type=t, debiased=args.debiased,
                             strategy=args.strategy)),
        ("mce", f'bins = {args.bins}, type = "{t}"',
         lambda p, y: pc.mce(p, y, bins=args.bins, type=t)),
        ("ace", f'bins = {args.bins}, type = "{t}"',
         lambda p, y: pc.ace(p, y, bins=args.bins, type=t)),
        ("mmce", f"bandwidth = {mmce_bw!r}",
         lambda p, y: pc.mmce(p, y, bandwidth=mmce_bw)),
        ("skce", f'estimator = "{args.estimator}", bandwidth = {bw_text}, type = "{skce_type}"',
         lambda p, y: pc.skce(p, y, estimator=args.estimator, bandwidth=bw, type=skce_type)),
    ]


def _run_metrics(args) -> int:
    from ._format import format_r

    from ._errors import ProbcalError

    p, y = read_csv(args.csv, args.p, args.y)
    calls = _metric_calls(args)
    values, failed = [], {}
    for name, arguments, fn in calls:
        try:
            values.append((name, arguments, fn(p, y)))
        except ProbcalError as exc:
            # a metric not defined for this data (skce on one row): R's message
            # for it, the others still printed
            failed[name] = exc
            values.append((name, arguments, None))
    if len(failed) == len(calls):
        raise next(iter(failed.values()))
    if args.json:
        out = {
            "data": _data_name(args), "n": int(len(y)),
            "metrics": {name: None if v is None else _json_number(v) for name, _, v in values},
            "arguments": {name: arguments for name, arguments, _ in values},
        }
        if failed:
            out["errors"] = {name: str(exc) for name, exc in failed.items()}
        print(json.dumps(out))
    else:
        texts = ["NA" if v is None else format_r(v) for _, _, v in values]
        width = max(len("value"), *map(len, texts))
        print(f"Calibration metrics of {_data_name(args)} (n = {len(y)})")
        print(f"{'metric':<7} {'value':>{width}}  arguments")
        for (name, arguments, _), text in zip(values, texts):
            print(f"{name:<7} {text:>{width}}  {arguments}")
    for name, exc in failed.items():
        print(f"{PROG}: {name}: Error: {exc}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------
# test and ci


def _add_resampling(parser) -> None:
    parser.add_argument("--n-boot", type=int, default=999, help="bootstrap resamples (default 999)")
    parser.add_argument("--seed", type=int, default=None, help="R's set.seed() before resampling")
    parser.add_argument("--json", action="store_true", help="print JSON instead of R's text")


def _add_test(sub) -> None:
    t = _subparser(sub, "test", "cal_test(): is the model calibrated?",
                   f"{PROG} test preds.csv --p prob --y label --seed 1")
    _add_data(t)
    _add_resampling(t)
    t.add_argument("--method", type=_choice("bootstrap", "asymptotic"), default="bootstrap",
                   help="bootstrap (default) or asymptotic")
    t.add_argument("--bandwidth", type=_bandwidth, default=0.2)
    t.add_argument("--type", type=_choice("canonical", "confidence"), default="canonical",
                   help="multiclass: canonical (default) or confidence")
    t.add_argument("--data-name", default=None)


def _run_test(args) -> int:
    import pycalib_r as pc

    p, y = read_csv(args.csv, args.p, args.y)
    if args.seed is not None:
        pc.set_seed(args.seed)
    res = pc.cal_test(p, y, method=args.method, bandwidth=args.bandwidth, n_boot=args.n_boot,
                      type=args.type, data_name=args.data_name or _data_name(args),
                      progress=not args.json)
    if args.json:
        # R's component names (p.value, data.name), as res.to_dict() gives them
        print(json.dumps(res.to_dict()))
    else:
        print(res)
    return 0


_CI_TYPES = {"ece": ("classwise", "confidence"), "mce": ("classwise", "confidence"),
             "ace": ("classwise", "confidence"), "skce": ("canonical", "confidence")}


def _add_ci(sub) -> None:
    c = _subparser(sub, "ci", "cal_ci(): bootstrap interval for a calibration metric",
                   f"{PROG} ci preds.csv --p prob --y label --metric ece --seed 1 --json")
    _add_data(c)
    _add_resampling(c)
    c.add_argument("--metric", type=_choice("ece", "skce", "mmce", "mce", "ace"), default="ece",
                   help="ece (default), skce, mmce, mce or ace")
    c.add_argument("--conf-level", type=float, default=0.95)
    c.add_argument("--bins", type=int, default=10)
    c.add_argument("--type", type=_choice("classwise", "canonical", "confidence"), default=None,
                   help="classwise or confidence (ece, mce, ace); canonical or confidence (skce)")
    c.add_argument("--estimator", type=_choice("uq", "ul", "biased"), default=None)
    c.add_argument("--bandwidth", type=_bandwidth, default=None)
    c.add_argument("--debiased", action="store_true")
    c.add_argument("--strategy", type=_choice("equal_width", "equal_freq"), default=None)


def _run_ci(args) -> int:
    import pycalib_r as pc

    if args.type is not None and args.type not in _CI_TYPES.get(args.metric, ()):
        allowed = _CI_TYPES.get(args.metric)
        args._parser.error(
            f"argument --type: invalid choice for --metric {args.metric}: '{args.type}'"
            + (f" (choose from {', '.join(allowed)})" if allowed else " (mmce takes no --type)"))
    p, y = read_csv(args.csv, args.p, args.y)
    if args.seed is not None:
        pc.set_seed(args.seed)
    extra = {}
    for name in ("type", "estimator", "bandwidth", "strategy"):
        if getattr(args, name) is not None:
            extra[name] = getattr(args, name)
    if args.debiased:
        extra["debiased"] = True
    res = pc.cal_ci(p, y, metric=args.metric, conf_level=args.conf_level, n_boot=args.n_boot,
                    bins=args.bins, progress=not args.json, **extra)
    if args.json:
        # the components under R's names, n_boot included: res.to_dict()
        print(json.dumps(res.to_dict()))
    else:
        print(res)
    return 0


# ---------------------------------------------------------------------------
# calibrate

CALIBRATORS = ("platt", "temperature", "beta", "isotonic", "histogram", "vector_scaling",
               "dirichlet", "ovr", "cv")


def _add_calibrate(sub) -> None:
    c = _subparser(
        sub, "calibrate", "fit a calibrator on one CSV and apply it to another",
        f"{PROG} calibrate --method platt --fit valid.csv --apply test.csv -o calibrated.csv "
        "--p prob --y label",
        "Fits cal_METHOD(fit[--p], fit[--y]), prints it as R prints it, and writes the "
        "--apply file with the calibrated probabilities added beside its columns "
        "(PREFIX + each --p column). Temperature and vector scaling take logits in --p.")
    c.add_argument("--method", type=_choice(*CALIBRATORS), required=True,
                   help=", ".join(CALIBRATORS))
    c.add_argument("--fit", required=True, metavar="FIT.csv",
                   help="CSV with the --p and --y columns to fit on ('-' for standard input)")
    c.add_argument("--apply", required=True, metavar="NEW.csv",
                   help="CSV with the --p columns to calibrate (labels not needed)")
    c.add_argument("-o", "--output", required=True, metavar="OUT.csv",
                   help="where to write NEW.csv's columns plus the calibrated ones ('-' for "
                        "standard output)")
    _add_data(c, file_arg=False)
    c.add_argument("--prefix", default="cal_", help="prefix of the added columns (default cal_)")
    c.add_argument("--bins", type=int, default=None, help="histogram: number of bins")
    c.add_argument("--strategy", type=_choice("equal_width", "equal_freq"), default=None,
                   help="histogram: equal_width or equal_freq")
    c.add_argument("--eps", type=float, default=None, help="beta, dirichlet: clipping constant")
    c.add_argument("--lambda", dest="lambda_", type=float, default=None,
                   help="dirichlet: ODIR penalty (default: chosen by cross-validation)")
    c.add_argument("--base-method", type=_choice(*OVR_METHODS), default=None,
                   help="ovr (or cv with --cv-method ovr): the binary calibrator")
    c.add_argument("--cv-method", type=_choice(*CV_METHODS), default=None,
                   help="cv: the calibrator to cross-validate (default platt)")
    c.add_argument("--folds", type=int, default=None, help="cv: number of folds (default 5)")
    c.add_argument("--seed", type=int, default=None, help="cv: seed of the fold assignment")


def _fit_calibrator(args, x, y):
    import pycalib_r as pc

    m = args.method
    kwargs = {}
    for name, key in (("bins", "bins"), ("strategy", "strategy"), ("eps", "eps"),
                      ("lambda_", "lambda_")):
        if getattr(args, name) is not None:
            kwargs[key] = getattr(args, name)
    if m == "ovr":
        return pc.cal_ovr(x, y, method=args.base_method or "platt", **kwargs)
    if m == "cv":
        if args.base_method is not None:
            kwargs["base_method"] = args.base_method
        extra = {} if args.folds is None else {"folds": args.folds}
        return pc.cal_cv(x, y, method=args.cv_method or "platt", seed=args.seed, **extra, **kwargs)
    accepted = {"histogram": ("bins", "strategy"), "beta": ("eps",),
                "dirichlet": ("eps", "lambda_")}.get(m, ())
    unused = [k for k in kwargs if k not in accepted]
    if unused:
        args._parser.error(f"argument --{unused[0].rstrip('_')}: not used by --method {m}")
    return getattr(pc, f"cal_{m}")(x, y, **kwargs)


def _write_calibrated(args, header_names: List[str], calibrated: np.ndarray) -> None:
    added = [args.prefix + name for name in args.p]
    clash = [name for name in added if name in header_names]
    if clash:
        raise CsvError(args.apply, f"already has a column '{clash[0]}'; choose another --prefix",
                       line=1)
    calibrated = calibrated.reshape(len(calibrated), -1)
    shown = "<stdout>" if args.output == "-" else args.output
    out = sys.stdout if args.output == "-" else open_output(args.output)
    with writing(shown), _removed_if_unfinished(args.output):
        try:
            writer = csv.writer(out, lineterminator="\n")
            with _open_text(args.apply) as handle:
                records = _records(args.apply, handle)
                _, header = next(records)
                writer.writerow(header + added)
                for row, (_, fields) in enumerate(records):
                    writer.writerow(fields + [repr(float(v)) for v in calibrated[row]])
            out.flush()
        finally:
            if out is not sys.stdout:
                out.close()


@contextlib.contextmanager
def _removed_if_unfinished(path: str):
    """A half-written output file is removed (a device such as /dev/full is not)."""
    try:
        yield
    except BaseException:
        if path != "-" and os.path.isfile(path):
            with contextlib.suppress(OSError):
                os.remove(path)
        raise


# The methods whose --p are logits; R fits probabilities as logits silently.
_LOGIT_METHODS = ("temperature", "vector_scaling")


def _run_calibrate(args) -> int:
    from .calibrators import predict

    if args.apply == "-":
        args._parser.error("argument --apply: give a file (it is read twice: the columns, "
                           "then the copy)")
    if args.fit == args.output or args.apply == args.output:
        args._parser.error("argument -o/--output: would overwrite an input file")
    x, y = read_csv(args.fit, args.p, args.y)
    new, _ = read_csv(args.apply, args.p, None)
    if args.method in _LOGIT_METHODS and np.all((x >= 0) & (x <= 1)):
        probability_warning(args.p, args.method)
    fit = _fit_calibrator(args, x, y)
    calibrated = np.asarray(predict(fit, new), dtype=np.float64)
    _, _, header = read_columns(args.apply, [])
    _write_calibrated(args, header, calibrated)
    # the calibrator as R prints it; stdout stays the CSV when -o is '-'
    print(fit, file=sys.stderr if args.output == "-" else sys.stdout)
    return 0


# ---------------------------------------------------------------------------
# diagram


def _add_diagram(sub) -> None:
    d = _subparser(sub, "diagram", "draw the reliability diagram of a CSV to an image file",
                   f"{PROG} diagram calibrated.csv --p prob --y label --compare "
                   "platt=cal_prob -o reliability.png")
    _add_data(d)
    d.add_argument("-o", "--output", required=True, metavar="FIG",
                   help="image file; the format follows the extension (png, pdf, svg, ...)")
    _add_bins(d, "equal_width (default, R's diagram) or equal_freq (as ece)")
    d.add_argument("--type", type=_choice("classwise", "confidence"), default="classwise",
                   help="multiclass: classwise panels (default) or one top-label panel")
    d.add_argument("--no-ece", action="store_true", help="no ECE subtitle")
    d.add_argument("--no-counts", action="store_true", help="points of one size")
    d.add_argument("--intervals", action="store_true",
                   help="Wilson intervals for each bin's observed frequency")
    d.add_argument("--conf-level", type=float, default=0.95, help="of --intervals (default 0.95)")
    d.add_argument("--compare", action="append", default=[], metavar="NAME=COL[,COL...]",
                   help="overlay another model's probability columns (repeatable), e.g. "
                        "--compare calibrated=cal_prob")
    d.add_argument("--figsize", type=_positive, nargs=2, metavar=("W", "H"), default=None,
                   help="figure size in inches")
    d.add_argument("--dpi", type=_positive, default=150,
                   help="resolution of raster formats (default 150)")
    d.add_argument("--format", default=None, metavar="EXT",
                   help="image format (png, pdf, svg, ...) when -o has no extension to say it")


def _compared(args):
    """``--compare NAME=COLS`` as ``[(name, [columns])]``, after the --p model."""
    models = [("+".join(args.p), list(args.p))]
    for spec in args.compare:
        name, sep, cols = spec.partition("=")
        columns = [c.strip() for c in cols.split(",") if c.strip()]
        if not sep or not name.strip() or not columns:
            args._parser.error(f"argument --compare: '{spec}' is not NAME=COL[,COL...]")
        if len(columns) != len(args.p):
            args._parser.error(f"argument --compare: '{spec}' has {len(columns)} column(s), "
                               f"--p has {len(args.p)}")
        if name.strip() in dict(models):
            args._parser.error(f"argument --compare: the name '{name.strip()}' is used twice")
        models.append((name.strip(), columns))
    return models


# Raster images: matplotlib's Agg renderer refuses 2^23 pixels or more a side.
_RASTER = {"png", "jpg", "jpeg", "tif", "tiff", "webp", "raw", "rgba", "gif"}
_AGG_LIMIT = 1 << 23


def _image_format(args, matplotlib) -> str:
    """The format of ``-o``, from its extension (matplotlib would add ``.png``
    to a name without one and write another file than the one asked for)."""
    from matplotlib.backend_bases import FigureCanvasBase

    supported = sorted(FigureCanvasBase.get_supported_filetypes())
    ext = (args.format or os.path.splitext(args.output)[1][1:]).lower().lstrip(".")
    if args.format is not None and ext not in supported:
        args._parser.error(f"argument --format: invalid choice: '{args.format}' (choose from "
                           f"{', '.join(supported)})")
    if not ext:
        raise OutputError(args.output, f"no extension to name the image format; add one of "
                                       f"{', '.join(supported)}, or give --format")
    if ext not in supported:
        raise OutputError(args.output, f"'.{ext}' is not an image format matplotlib writes; "
                                       f"use one of {', '.join(supported)}")
    return ext


def _check_image_size(args, fmt: str, matplotlib) -> None:
    """Refuse, before drawing, a figure larger than matplotlib's renderer draws:
    the layout measures text at the figure's dpi, and a raster file is drawn
    at --dpi."""
    if args.figsize is None:
        return
    dpis = [float(matplotlib.rcParams["figure.dpi"])]
    if fmt in _RASTER:
        dpis.append(args.dpi)
    width, height = (max(dpis) * v for v in args.figsize)
    if max(width, height) >= _AGG_LIMIT:
        raise OutputError(args.output, f"the image would be {width:.0f} x {height:.0f} pixels, "
                                       f"more than matplotlib draws (2^23 a side); lower "
                                       f"--figsize or --dpi")


def _run_diagram(args) -> int:
    models = _compared(args)
    try:
        import matplotlib
    except ImportError:
        return error("the diagram needs matplotlib: pip install 'pycalib_r[plot]'")
    matplotlib.use("Agg")  # files only: no display needed
    fmt = _image_format(args, matplotlib)
    probs, y = read_models(args.csv, [cols for _, cols in models], args.y)
    p = probs[0] if len(models) == 1 else {name: q for (name, _), q in zip(models, probs)}
    import matplotlib.pyplot as plt

    from ._diagnostics import reliability_diagram

    _check_image_size(args, fmt, matplotlib)
    fig = reliability_diagram(p, y, bins=args.bins, show_ece=not args.no_ece,
                              show_counts=not args.no_counts, type=args.type,
                              strategy=args.strategy, intervals=args.intervals,
                              conf_level=args.conf_level, figsize=args.figsize)
    try:
        with writing(args.output), _removed_if_unfinished(args.output):
            try:
                fig.savefig(args.output, dpi=args.dpi, format=fmt)
            except MemoryError:
                width, height = (float(v) * args.dpi for v in fig.get_size_inches())
                raise OutputError(args.output, f"not enough memory to draw {width:.0f} x "
                                               f"{height:.0f} pixels; lower --figsize or "
                                               f"--dpi") from None
            except ValueError as exc:
                raise OutputError(args.output, f"matplotlib could not draw the figure: "
                                               f"{str(exc).splitlines()[0]}") from None
    finally:
        plt.close(fig)
    return 0


# ---------------------------------------------------------------------------
# parity: the same calls in R (pycalib_r.rcheck; rpy2 is imported only when a check runs)

def _add_parity(sub):
    from .rcheck import add_parity_arguments

    p = _subparser(sub, "parity", "every metric, test, interval and calibrator on the CSV, in "
                   "pycalib_r and in R (needs R, rpy2 and probcal); non-zero exit on any difference",
                   f"{PROG} parity preds.csv --p prob --y label --n-boot 199")
    _add_data(p)
    add_parity_arguments(p)


def _run_parity(args) -> int:
    from .rcheck import run_parity

    p, y = read_csv(args.csv, args.p, args.y)
    return run_parity(args, p, y)


# ---------------------------------------------------------------------------
# main

# name -> (register the parser, run it); the order is that of --help.
COMMANDS: Dict[str, Tuple[Callable, Callable]] = {
    "demo": (_add_demo, _run_demo),
    "metrics": (_add_metrics, _run_metrics),
    "test": (_add_test, _run_test),
    "ci": (_add_ci, _run_ci),
    "calibrate": (_add_calibrate, _run_calibrate),
    "diagram": (_add_diagram, _run_diagram),
    "parity": (_add_parity, _run_parity),
}


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="probcal's calibration metrics, tests, intervals, calibrators and "
                    "diagrams for CSV files, printing what R prints.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    from . import __version__

    parser.add_argument("--version", action="version",
                        version=f"{PROG} {__version__} (probcal {__version__})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add, _ in COMMANDS.values():
        add(sub)
    parser.epilog = "examples (more with COMMAND --help):\n" + "\n".join(
        f"  {_EXAMPLES[name]}" for name in COMMANDS)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    _file_after_columns(args)
    from ._errors import ProbcalError

    # The library's warnings (R's, and the Python-side ones such as
    # temperature scaling on probabilities) as one readable line each, not
    # Python's "file:line: UserWarning" with a source line of the package.
    _command_faults.reset()
    with warnings.catch_warnings():
        warnings.showwarning = show_warning
        try:
            output = getattr(args, "output", None)
            if output is not None:
                check_output(output)
            return COMMANDS[args.command][1](args)
        except (CsvError, OutputError) as exc:
            return error(str(exc))
        except ProbcalError as exc:
            return error(str(exc), cli_hints(exc, args))
        except MemoryError as exc:
            return error(memory_message(args, exc))
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            # the reader left (`pycalib-r demo | head`): stop quietly, as Unix tools do
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Arguments of the command line: types, the parser, and the options every
subcommand shares (the input, ``--p``, ``--y``, ``--sep``, the bins).

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

import argparse
import math
from typing import Callable, Dict

from ._faults import PROG


def bandwidth(text: str):
    if text == "median":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid value: '{text}' (a positive number, or median)") from None


def positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"invalid value: '{text}' (a positive number)")
    return value


# R's integers: NA_integer_ is -2^31, so |x| <= 2^31 - 1.
R_INT_MAX = 2147483647


def r_int(text: str) -> int:
    """An integer option, within R's integer range (the library hands it to
    R's code, where a larger count is NA: "missing value where TRUE/FALSE
    needed", naming no option)."""
    value = int(text)  # ValueError: argparse's "invalid int value: 'x'"
    if abs(value) > R_INT_MAX:
        raise argparse.ArgumentTypeError(
            f"invalid value: '{text}' (beyond R's integer range: at most {R_INT_MAX} in size)")
    return value


r_int.__name__ = "int"


def choice(*choices: str) -> Callable[[str], str]:
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


class Columns(argparse.Action):
    """``--p a b c`` or ``--p a,b,c`` (or both)."""

    def __call__(self, parser, namespace, values, option_string=None):
        names = [part.strip() for value in values for part in value.split(",") if part.strip()]
        if not names:
            parser.error(f"argument {option_string}: no column name in "
                         f"{' '.join(repr(v) for v in values)}; give one column per class, "
                         f"e.g. {option_string} a,b,c")
        setattr(namespace, self.dest, names)


def json_number(x):
    x = float(x)
    return x if math.isfinite(x) else None


# ---------------------------------------------------------------------------
# Parser helpers


EXAMPLES: Dict[str, str] = {}


class Parser(argparse.ArgumentParser):
    """Options typed by :func:`_choice` show their choices in the usage line;
    a usage error is one line in the command's error style."""

    def error(self, message):
        from ._faults import printable

        self.exit(2, f"{PROG}: error: {printable(message)}; see {self.prog} --help\n")

    def format_usage(self):
        # FILE is required; nargs="?" is only there to let it follow --p a b c
        return super().format_usage().replace(" [FILE]", " FILE")

    def format_help(self):
        return super().format_help().replace(" [FILE]", " FILE")

    def add_argument(self, *args, **kwargs):
        metavar = getattr(kwargs.get("type"), "metavar", None)
        if metavar is not None:
            kwargs.setdefault("metavar", metavar)
        return super().add_argument(*args, **kwargs)


def subparser(sub, name: str, help: str, example: str, description: str = ""):
    """One subcommand's parser, with its example shown by ``--help``."""
    EXAMPLES[name] = example
    parser = sub.add_parser(
        name, help=help, description=description or help,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(_parser=parser)
    return parser


def add_data(parser, labels: bool = True, file_arg: bool = True) -> None:
    if file_arg:
        # nargs="?" only so that FILE may follow --p a b c (see file_after_columns);
        # the usage line shows it as required, which it is
        parser.add_argument("csv", nargs="?", metavar="FILE",
                            help="CSV file with a header line (any of , ; tab |; gzip, bzip2, "
                                 "xz or zip compressed), or a Parquet file; '-' for standard "
                                 "input")
    parser.add_argument("--p", nargs="+", required=True, metavar="COL", action=Columns,
                        help="probability column (binary), or one column per class "
                             "(multiclass): --p a b c or --p a,b,c")
    if labels:
        parser.add_argument("--y", required=True, metavar="COL",
                            help="label column: 0/1, class codes 1..K, or class names equal "
                                 "to the --p columns")
        parser.add_argument("--pos-label", default=None, metavar="LABEL",
                            help="binary (one --p column): the label of the positive class, "
                                 "whose probability --p is; the --y column then holds two "
                                 "labels of any kind (no/yes, 1/2), read as 0 and 1 "
                                 "(scikit-learn's pos_label)")
    add_sep(parser)


def add_sep(parser) -> None:
    if not any("--sep" in a.option_strings for a in parser._actions):
        parser.add_argument("--sep", type=_separator, default=None, metavar="SEP",
                            help="the CSV separator (default: sniffed from the header among "
                                 ", ; tab |); 'tab' or '\\t' for a tab")


def _separator(text: str) -> str:
    sep = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}.get(text, text)
    if len(sep) != 1 or sep in "\"\r\n":
        raise argparse.ArgumentTypeError(
            f"invalid value: {text!r} (one character, e.g. ';', or tab)")
    return sep


def file_after_columns(args) -> None:
    """``--p a b c FILE``: nargs='+' took the file too; the last value is the file.

    A column named twice in ``--p`` is refused: the same numbers as two
    classes' probabilities are a slip, never a model.
    """
    if getattr(args, "csv", "") is None:
        if len(args.p) < 2:
            args._parser.error("the following arguments are required: FILE")
        args.csv = args.p.pop()
    names = getattr(args, "p", None) or []
    if getattr(args, "pos_label", None) is not None and len(names) != 1:
        args._parser.error(f"argument --pos-label: for a binary model (one --p column), and "
                           f"--p names {len(names)}; with several classes the --y labels name "
                           f"the --p columns")
    twice = [name for k, name in enumerate(names) if name in names[:k]]
    if twice:
        args._parser.error(f"argument --p: the column '{twice[0]}' is named twice; name each "
                           f"class's column once (--p a,b,c), or one column for a binary model")


def add_bins(parser, strategy_help: str) -> None:
    parser.add_argument("--bins", type=r_int, default=10, help="number of bins (default 10)")
    parser.add_argument("--strategy", type=choice("equal_width", "equal_freq"),
                        default="equal_width", help=strategy_help)


def data_name(args) -> str:
    return f"{'+'.join(args.p)} and {args.y}"

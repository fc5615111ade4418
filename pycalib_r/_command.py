"""Former home of the command line, now :mod:`pycalib_r.cli`; kept so that
``pycalib_r._command:main`` (an entry point installed before the move) and
older imports keep working."""

from .cli._app import build_parser as _parser  # noqa: F401
from .cli._app import main  # noqa: F401
from .cli._data import read_csv, read_models  # noqa: F401

__all__ = ["main"]

"""The ``pycalib-r`` command line (also ``python -m pycalib_r``).

Subcommands: ``demo``, ``metrics``, ``test``, ``ci``, ``ece-ci``, ``validate``,
``calibrate``, ``diagram`` and ``parity`` (the same calls in R, through
``pycalib_r.rcheck``). Each reads a CSV (any common separator, compressed
or not) or Parquet file of predictions and labels, calls the library
function of the same job, and prints what R prints for it (or JSON with
``--json``). Every error is one line, ``pycalib-r: error: ...``, exit status 2.

The package, by concern: :mod:`._source` opens an input once (files,
pipes, decompression, bounded records), :mod:`._table` and
:mod:`._parquet` read its columns (pyarrow's parser, the csv module for
exact error lines), :mod:`._data` makes ``p`` and ``y``, :mod:`._output`
writes outputs atomically, :mod:`._args` holds the shared options,
:mod:`._faults` the messages, :mod:`._app` the parser and ``main()``, and
each ``_cmd_NAME`` module one subcommand, listed in :mod:`._registry`.
The command line imports the library; the library never imports it.

R equivalent: none (the command line is Python-only; it prints R's results).
"""

from ._app import main

__all__ = ["main"]

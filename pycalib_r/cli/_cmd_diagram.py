"""``pycalib-r diagram``: the reliability diagram of a CSV, to an image file.

The figure is drawn into a temporary file beside the target and renamed
over it when complete (:mod:`._output`): a failed or interrupted drawing
(no LaTeX for ``.pgf``, Ctrl-C) leaves an existing file as it was.
``-o -`` writes the image to standard output (``--format`` names it).

R equivalent: ``reliability_diagram()`` (probcal's ``plot()`` of a reliability table).
"""

from __future__ import annotations

import os
import sys

from ._args import add_bins, add_data, choice, positive, subparser
from ._data import read_models
from ._faults import PROG, OutputError, error, writing
from ._output import AtomicOutput


def add(sub) -> None:
    d = subparser(sub, "diagram", "draw the reliability diagram of a CSV to an image file",
                  f"{PROG} diagram calibrated.csv --p prob --y label --compare "
                  "platt=cal_prob -o reliability.png")
    add_data(d)
    d.add_argument("-o", "--output", required=True, metavar="FIG",
                   help="image file; the format follows the extension (png, pdf, svg, ...); "
                        "'-' for standard output (with --format)")
    d.add_argument("--force", action="store_true",
                   help="replace -o even when it is read-only (its write bits clear); the "
                        "new file keeps its mode")
    add_bins(d, "equal_width (default, R's diagram) or equal_freq (as ece)")
    d.add_argument("--type", type=choice("classwise", "confidence"), default="classwise",
                   help="multiclass: classwise panels (default) or one top-label panel")
    d.add_argument("--no-ece", action="store_true", help="no ECE subtitle")
    d.add_argument("--no-counts", action="store_true", help="points of one size")
    d.add_argument("--intervals", action="store_true",
                   help="Wilson intervals for each bin's observed frequency")
    d.add_argument("--conf-level", type=float, default=0.95, help="of --intervals (default 0.95)")
    d.add_argument("--compare", action="append", default=[], metavar="NAME=COL[,COL...]",
                   help="overlay another model's probability columns (repeatable), e.g. "
                        "--compare calibrated=cal_prob")
    d.add_argument("--figsize", type=positive, nargs=2, metavar=("W", "H"), default=None,
                   help="figure size in inches")
    d.add_argument("--dpi", type=positive, default=150,
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


def _image_format(args) -> str:
    """The format of ``-o``, from its extension (matplotlib would add ``.png``
    to a name without one and write another file than the one asked for)."""
    from matplotlib.backend_bases import FigureCanvasBase

    supported = sorted(FigureCanvasBase.get_supported_filetypes())
    from_name = "" if args.output == "-" else os.path.splitext(args.output)[1][1:]
    ext = (args.format or from_name).lower().lstrip(".")
    if args.format is not None and ext not in supported:
        args._parser.error(f"argument --format: invalid choice: '{args.format}' (choose from "
                           f"{', '.join(supported)})")
    if args.output == "-" and sys.stdout.isatty():
        args._parser.error("argument -o/--output: standard output is a terminal; redirect it "
                           "(> figure.png) or give a file name")
    if not ext:
        if args.output == "-":
            args._parser.error("argument --format: required with -o - (standard output has "
                               f"no extension); choose from {', '.join(supported)}")
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


def _draw_failure(args, exc: BaseException) -> str:
    """Why matplotlib could not write the figure, in one line (no traceback)."""
    text = str(exc).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    if "latex" in first.lower() or "tex" in type(exc).__name__.lower():
        return ("matplotlib needs LaTeX (and its packages) for this format, and could not run "
                f"it ({first[:200]}); install LaTeX, or write .pdf, .svg or .png")
    return f"matplotlib could not draw the figure: {first[:300]}"


def run(args) -> int:
    models = _compared(args)
    try:
        import matplotlib
    except ImportError:
        return error("the diagram needs matplotlib: pip install 'pycalib_r[plot]'")
    matplotlib.use("Agg")  # files only: no display needed
    fmt = _image_format(args)
    probs, y = read_models(args.csv, [cols for _, cols in models], args.y, args.sep,
                           args.pos_label)
    p = probs[0] if len(models) == 1 else {name: q for (name, _), q in zip(models, probs)}
    import matplotlib.pyplot as plt

    from ..diagnostics._diagnostics import reliability_diagram

    _check_image_size(args, fmt, matplotlib)
    fig = reliability_diagram._plain(p, y, bins=args.bins, show_ece=not args.no_ece,
                                     show_counts=not args.no_counts, type=args.type,
                                     strategy=args.strategy, intervals=args.intervals,
                                     conf_level=args.conf_level, figsize=args.figsize)
    shown = "<stdout>" if args.output == "-" else args.output
    try:
        with writing(shown), AtomicOutput(args.output) as out:
            try:
                fig.savefig(out.file, dpi=args.dpi, format=fmt)
            except MemoryError:
                width, height = (float(v) * args.dpi for v in fig.get_size_inches())
                raise OutputError(shown, f"not enough memory to draw {width:.0f} x "
                                         f"{height:.0f} pixels; lower --figsize or "
                                         f"--dpi") from None
            except (OSError, KeyboardInterrupt, SystemExit):
                raise
            except Exception as exc:  # noqa: BLE001 - LaTeX missing, a renderer's limit, ...
                raise OutputError(shown, _draw_failure(args, exc)) from None
            out.commit()
    finally:
        plt.close(fig)
    return 0

"""``pycalib-r calibrate``: fit a calibrator on one CSV, apply it to another.

The fit file is read, the calibrator fitted and printed as R prints it;
the apply file is then read once, chunk by chunk: each chunk's records are
copied to the output as they are, with the calibrated probabilities added
(PREFIX + each ``--p`` column), so memory follows a chunk, not the file.
The output replaces its path only when complete (:mod:`._output`).

R equivalent: ``cal_platt()``, ``cal_temperature()``, ... and ``predict()``.
"""

from __future__ import annotations

import csv
import io

import numpy as np

from ..calibrators._methods import CV_METHODS, OVR_METHODS, method as _entry, methods, resolve
from ._args import add_data, choice, r_int, subparser
from ._data import read_csv
from ._faults import PROG, probability_warning, say, writing
from ._output import AtomicOutput
from ._source import CsvError, open_source
from ._table import CsvChunks, chunk_records


def _calibrators() -> tuple:
    """The --method choices: the calibrator registry's entries offered here."""
    return tuple(e.name for e in methods() if e.cli)


def add(sub) -> None:
    calibrators = _calibrators()
    c = subparser(
        sub, "calibrate", "fit a calibrator on one CSV and apply it to another",
        f"{PROG} calibrate --method platt --fit valid.csv --apply test.csv -o calibrated.csv "
        "--p prob --y label",
        "Fits cal_METHOD(fit[--p], fit[--y]), prints it as R prints it, and writes the "
        "--apply file with the calibrated probabilities added beside its columns "
        "(PREFIX + each --p column). Temperature and vector scaling take logits in --p.")
    c.add_argument("--method", type=choice(*calibrators), required=True,
                   help=", ".join(calibrators))
    c.add_argument("--fit", required=True, metavar="FIT.csv",
                   help="CSV with the --p and --y columns to fit on ('-' for standard input)")
    c.add_argument("--apply", required=True, metavar="NEW.csv",
                   help="CSV with the --p columns to calibrate (labels not needed; '-' for "
                        "standard input)")
    c.add_argument("-o", "--output", required=True, metavar="OUT.csv",
                   help="where to write NEW.csv's columns plus the calibrated ones ('-' for "
                        "standard output); an existing file is replaced only when the new one "
                        "is complete")
    c.add_argument("--force", action="store_true",
                   help="replace -o even when it is read-only (its write bits clear); the "
                        "new file keeps its mode")
    add_data(c, file_arg=False)
    c.add_argument("--prefix", default="cal_", help="prefix of the added columns (default cal_)")
    c.add_argument("--bins", type=r_int, default=None, help="histogram: number of bins")
    c.add_argument("--strategy", type=choice("equal_width", "equal_freq"), default=None,
                   help="histogram: equal_width or equal_freq")
    c.add_argument("--eps", type=float, default=None, help="beta, dirichlet: clipping constant")
    c.add_argument("--lambda", dest="lambda_", type=float, default=None,
                   help="dirichlet: ODIR penalty (default: chosen by cross-validation)")
    c.add_argument("--base-method", type=choice(*OVR_METHODS), default=None,
                   help="ovr (or cv with --cv-method ovr): the binary calibrator")
    c.add_argument("--cv-method", type=choice(*CV_METHODS), default=None,
                   help="cv: the calibrator to cross-validate (default platt)")
    c.add_argument("--folds", type=r_int, default=None, help="cv: number of folds (default 5)")
    c.add_argument("--seed", type=r_int, default=None, help="cv: seed of the fold assignment")
    c.add_argument("--weights", default=None, metavar="COL",
                   help="column of FIT.csv with observation weights (R's glm prior weights: "
                        "finite, non-negative, positive sum), given to the calibrator as "
                        "weights= (Python-only)")


def _fit_calibrator(args, x, y, w=None):
    import pycalib_r as pc

    m = args.method
    kwargs = {}
    if w is not None:
        # The core checks the weights (check_weights), as for a Python call.
        kwargs["weights"] = w
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
    accepted = _entry(m).args + ("weights",)
    unused = [k for k in kwargs if k not in accepted]
    if unused:
        args._parser.error(f"argument --{unused[0].rstrip('_')}: not used by --method {m}")
    return resolve(_entry(m).function)(x, y, **kwargs)


def _header_bytes(reader: CsvChunks, added) -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=reader.sep, lineterminator="").writerow(added)
    return reader.header_raw + reader.sep.encode() + out.getvalue().encode("utf-8")


def _write_calibrated(args, fit, out) -> None:
    """Stream --apply: each chunk's records, calibrated, to ``out``."""
    from ..calibrators import predict

    added = [args.prefix + name for name in args.p]
    with open_source(args.apply) as source:
        if source.kind == "parquet":
            from ._parquet import calibrate_parquet

            return calibrate_parquet(args.apply, args.p, added, lambda new: predict(fit, new),
                                     out, parquet_output=args.output.endswith(".parquet"))
        reader = CsvChunks(source, args.p, args.sep, args.p)
        clash = [name for name in added if name in reader.header]
        if clash:
            raise CsvError(args.apply, f"already has a column {clash[0]!r}; choose another "
                                       "--prefix", line=reader.header_line)
        sep = reader.sep.encode()
        out.write(_header_bytes(reader, added) + b"\n")
        rows = 0
        for chunk in reader.chunks():
            columns = [np.asarray(chunk.parts[name][0], dtype=np.float64) for name in args.p]
            new = columns[0] if len(columns) == 1 else np.column_stack(columns)
            for k, name in enumerate(args.p):
                bad = np.flatnonzero(np.isnan(columns[k]))
                if bad.size:
                    line = (int(chunk.lines[bad[0]]) if chunk.lines is not None
                            else chunk.first_line + int(bad[0]))
                    raise CsvError(args.apply, "a missing value; fill it in or drop the row",
                                   line=line, column=name)
            calibrated = np.asarray(predict(fit, new), dtype=np.float64)
            calibrated = calibrated.reshape(len(calibrated), -1)
            cells = [sep.join(repr(float(v)).encode() for v in row) for row in calibrated]
            records = chunk_records(chunk, reader.sep)
            out.write(b"".join(r + sep + c + b"\n" for r, c in zip(records, cells)))
            rows += chunk.count
        if rows == 0:
            raise CsvError(args.apply, "no data rows after the header",
                           line=reader.header_line + 1)


def run(args) -> int:
    if args.fit == "-" and args.apply == "-":
        args._parser.error("argument --apply: standard input is already --fit; give a file "
                           "for one of them")
    w = None
    if args.weights is None:
        x, y = read_csv(args.fit, args.p, args.y, args.sep, args.pos_label)
    else:
        from ._data import read_models

        # One reading of FIT.csv; class names in --y still match the --p columns.
        (x, w), y = read_models(args.fit, [args.p, [args.weights]], args.y, args.sep,
                                args.pos_label)
    # R fits probabilities as logits silently: a warning names the columns.
    if _entry(args.method).input == "logits" and np.all((x >= 0) & (x <= 1)):
        probability_warning(args.p, args.method)
    fit = _fit_calibrator(args, x, y, w)
    shown = "<stdout>" if args.output == "-" else args.output
    with writing(shown), AtomicOutput(args.output) as out:
        _write_calibrated(args, fit, out.file)
        out.commit()
    # the calibrator as R prints it; stdout stays the CSV when -o is '-'
    if args.output == "-":
        say(str(fit))
    else:
        print(fit)
    return 0

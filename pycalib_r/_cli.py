"""Command line: ``pycalib-r demo | test | ci | parity`` (also ``python -m pycalib_r``).

``test`` and ``ci`` read a CSV of predictions and labels and print what R
prints for ``cal_test()`` / ``cal_ci()``, or JSON with ``--json`` for
pipelines.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import List, Optional

import numpy as np


def _demo(_args) -> int:
    import pycalib_r as pc

    def show(code: str, value) -> None:
        print("\n".join("> " + line for line in code.strip().splitlines()))
        print(value)

    print("# The examples of probcal 0.2.0's help pages, with R's random streams.\n")
    pc.set_seed(40)
    p = pc.runif(300)
    y = pc.rbinom(300, 1, p)
    show("set_seed(40); p = runif(300); y = rbinom(300, 1, p)\ncal_test(p, y)", pc.cal_test(p, y))
    pc.set_seed(41)
    p2 = pc.runif(300)
    y2 = pc.rbinom(300, 1, np.clip(p2 - 0.25, 0, 1))
    show("set_seed(41); p2 = runif(300); y2 = rbinom(300, 1, clip(p2 - 0.25, 0, 1))\n"
         "cal_test(p2, y2, data_name=\"p2 and y2\")",
         pc.cal_test(p2, y2, data_name="p2 and y2"))
    pc.set_seed(42)
    p = pc.runif(300)
    y = pc.rbinom(300, 1, p)
    show("set_seed(42); p = runif(300); y = rbinom(300, 1, p)\n"
         "cal_ci(p, y, metric=\"ece\", bins=10, n_boot=199)",
         pc.cal_ci(p, y, metric="ece", bins=10, n_boot=199))
    show("cal_ci(p, y, metric=\"skce\", n_boot=199)", pc.cal_ci(p, y, metric="skce", n_boot=199))
    print()
    print(f"> ece(p, y) = {pc.ece(p, y)!r}; mmce(p, y) = {pc.mmce(p, y)!r}")
    return 0


def _read_csv(path: str, p_cols: List[str], y_col: str):
    import pandas as pd

    frame = pd.read_csv(sys.stdin if path == "-" else path)
    missing = [c for c in list(p_cols) + [y_col] if c not in frame.columns]
    if missing:
        raise SystemExit(f"pycalib-r: column(s) not in the CSV: {', '.join(missing)}; "
                         f"it has: {', '.join(map(str, frame.columns))}")
    p = frame[p_cols[0]] if len(p_cols) == 1 else frame[list(p_cols)]
    y = frame[y_col]
    if len(p_cols) > 1 and not pd.api.types.is_numeric_dtype(y.dtype):
        # class names: the probability columns, in order, are the levels
        y = pd.Categorical(y, categories=list(p_cols))
    return p, y


def _bandwidth(text: str):
    if text == "median":
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError('bandwidth must be a number or "median"') from None


def _json_number(x):
    x = float(x)
    return x if math.isfinite(x) else None


def _run_test(args) -> int:
    import pycalib_r as pc

    p, y = _read_csv(args.csv, args.p, args.y)
    if args.seed is not None:
        pc.set_seed(args.seed)
    res = pc.cal_test(p, y, method=args.method, bandwidth=args.bandwidth, n_boot=args.n_boot,
                      type=args.type, data_name=args.data_name or f"{'+'.join(args.p)} and {args.y}",
                      progress=not args.json)
    if args.json:
        print(json.dumps({
            "statistic": {k: _json_number(v) for k, v in res.statistic.items()},
            "estimate": {k: _json_number(v) for k, v in res.estimate.items()},
            "p_value": _json_number(res.p_value),
            "method": res.method,
            "data_name": res.data_name,
        }))
    else:
        print(res)
    return 0


def _run_ci(args) -> int:
    import pycalib_r as pc

    p, y = _read_csv(args.csv, args.p, args.y)
    if args.seed is not None:
        pc.set_seed(args.seed)
    extra = {}
    if args.type is not None:
        extra["type"] = args.type
    if args.estimator is not None:
        extra["estimator"] = args.estimator
    if args.bandwidth is not None:
        extra["bandwidth"] = args.bandwidth
    if args.debiased:
        extra["debiased"] = True
    if args.strategy is not None:
        extra["strategy"] = args.strategy
    res = pc.cal_ci(p, y, metric=args.metric, conf_level=args.conf_level, n_boot=args.n_boot,
                    bins=args.bins, progress=not args.json, **extra)
    if args.json:
        print(json.dumps({
            "estimate": _json_number(res.estimate), "lower": _json_number(res.lower),
            "upper": _json_number(res.upper), "conf_level": res.conf_level,
            "metric": res.metric, "method": res.method,
        }))
    else:
        print(res)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pycalib-r",
        description="probcal's calibration inference from the command line, printing what R prints.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("demo", help="print the examples of probcal's help pages")

    def common(sp):
        sp.add_argument("csv", help="CSV file with a header ('-' for standard input)")
        sp.add_argument("--p", nargs="+", required=True, metavar="COL",
                        help="probability column (binary) or one column per class (multiclass)")
        sp.add_argument("--y", required=True, metavar="COL",
                        help="label column: 0/1, class codes 1..K, or class names equal to the --p columns")
        sp.add_argument("--n-boot", type=int, default=999)
        sp.add_argument("--seed", type=int, default=None, help="R's set.seed() before resampling")
        sp.add_argument("--json", action="store_true", help="print JSON instead of R's text")

    t = sub.add_parser("test", help="cal_test(): is the model calibrated?")
    common(t)
    t.add_argument("--method", default="bootstrap", choices=["bootstrap", "asymptotic"])
    t.add_argument("--bandwidth", type=_bandwidth, default=0.2)
    t.add_argument("--type", default="canonical", choices=["canonical", "confidence"])
    t.add_argument("--data-name", default=None)

    c = sub.add_parser("ci", help="cal_ci(): bootstrap interval for a calibration metric")
    common(c)
    c.add_argument("--metric", default="ece", choices=["ece", "skce", "mmce", "mce", "ace"])
    c.add_argument("--conf-level", type=float, default=0.95)
    c.add_argument("--bins", type=int, default=10)
    c.add_argument("--type", default=None)
    c.add_argument("--estimator", default=None, choices=["uq", "ul", "biased"])
    c.add_argument("--bandwidth", type=_bandwidth, default=None)
    c.add_argument("--debiased", action="store_true")
    c.add_argument("--strategy", default=None, choices=["equal_width", "equal_freq"])

    from .rcheck import add_parity_arguments  # rpy2 is imported only when a check runs

    add_parity_arguments(sub.add_parser(
        "parity", help="every metric, test, interval and calibrator on the CSV, in pycalib_r "
                       "and in R (needs R, rpy2 and probcal); non-zero exit on any difference"))
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    from ._errors import ProbcalError

    try:
        if args.command == "parity":
            from .rcheck import run_parity

            return run_parity(args)
        return {"demo": _demo, "test": _run_test, "ci": _run_ci}[args.command](args)
    except ProbcalError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

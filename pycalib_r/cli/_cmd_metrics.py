"""``pycalib-r metrics``: ece, mce, ace, mmce and skce of a CSV.

Every metric is computed; one that R refuses for the data or the options
(``--bins 0``, ``--bandwidth -1``, skce on one row) prints ``NA`` in the
table and its error, and the exit status is 2.

R equivalent: ``ece()``, ``mce()``, ``ace()``, ``mmce()``, ``skce()``.
"""

from __future__ import annotations

import json
import sys

from ._args import add_bins, add_data, bandwidth, choice, data_name, json_number, subparser
from ._data import read_csv, read_weighted
from ._faults import PROG, one_line, printable, say


def add(sub) -> None:
    m = subparser(sub, "metrics", "ece, mce, ace, mmce and skce of a CSV",
                  f"{PROG} metrics preds.csv --p prob --y label --bins 15 --json",
                  "The five calibration metrics, printed as a table (R's 7 significant "
                  "digits) or as JSON.")
    add_data(m)
    add_bins(m, "ece's bins: equal_width (default) or equal_freq (R's mce and ace are "
                "equal-width only)")
    m.add_argument("--type", type=choice("classwise", "confidence"), default="classwise",
                   help="multiclass: classwise (default; skce canonical) or confidence "
                        "(top-label, every metric)")
    m.add_argument("--debiased", action="store_true", help="ece(debiased = TRUE)")
    m.add_argument("--bandwidth", type=bandwidth, default=0.2,
                   help="kernel bandwidth of skce, and of mmce unless --mmce-bandwidth "
                        "(default 0.2)")
    m.add_argument("--mmce-bandwidth", type=float, default=None,
                   help="mmce's bandwidth when it differs (R's mmce takes no median)")
    m.add_argument("--estimator", type=choice("uq", "ul", "biased"), default="uq",
                   help="skce estimator (default uq)")
    m.add_argument("--weights", default=None, metavar="COL",
                   help="column of observation weights (Python-only; R's glm prior weights: "
                        "finite, non-negative, positive sum): ece, mce and ace are weighted; "
                        "mmce and skce, which have no weighted estimator, are left out")
    m.add_argument("--json", action="store_true", help="print JSON")


def _metric_calls(args, w=None):
    """(name, R-style arguments, thunk) for each metric of ``metrics``; with
    observation weights ``w``, the three binned ones, weighted."""
    import pycalib_r as pc

    if w is not None:
        return _weighted_calls(args, w)

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


def _weighted_calls(args, w):
    import pycalib_r as pc

    t = args.type
    extra = f", weights = {args.weights}"
    return [
        ("ece", f'bins = {args.bins}, type = "{t}", debiased = {str(args.debiased).upper()}, '
                f'strategy = "{args.strategy}"' + extra,
         lambda p, y: pc.ece(p, y, bins=args.bins, type=t, debiased=args.debiased,
                             strategy=args.strategy, weights=w)),
        ("mce", f'bins = {args.bins}, type = "{t}"' + extra,
         lambda p, y: pc.mce(p, y, bins=args.bins, type=t, weights=w)),
        ("ace", f'bins = {args.bins}, type = "{t}"' + extra,
         lambda p, y: pc.ace(p, y, bins=args.bins, type=t, weights=w)),
    ]


def run(args) -> int:
    from ..rbase._errors import ProbcalError
    from ..rbase._format import format_r
    from ._app import flag_message

    w = None
    if args.weights is None:
        p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
    else:
        p, y, w = read_weighted(args.csv, args.p, args.y, args.weights, args.sep, args.pos_label)
    calls = _metric_calls(args, w)
    values, failed = [], {}
    for name, arguments, fn in calls:
        try:
            values.append((name, arguments, fn(p, y)))
        except ProbcalError as exc:
            # a metric R refuses for this data or these options: NA in the
            # table, R's message as an error line, exit status 2
            failed[name] = exc
            values.append((name, arguments, None))
    if len(failed) == len(calls):
        raise next(iter(failed.values()))
    if args.json:
        out = {
            "data": data_name(args), "n": int(len(y)),
            **({} if w is None else {"weights": args.weights}),
            "metrics": {name: None if v is None else json_number(v) for name, _, v in values},
            "arguments": {name: arguments for name, arguments, _ in values},
        }
        if failed:
            out["errors"] = {name: str(exc) for name, exc in failed.items()}
        print(json.dumps(out))
    else:
        texts = ["NA" if v is None else format_r(v) for _, _, v in values]
        width = max(len("value"), *map(len, texts))
        print(f"Calibration metrics of {printable(data_name(args))} (n = {len(y)})")
        print(f"{'metric':<7} {'value':>{width}}  arguments")
        for (name, arguments, _), text in zip(values, texts):
            print(f"{name:<7} {text:>{width}}  {arguments}")
    sys.stdout.flush()
    for name, exc in failed.items():
        say(f"{PROG}: error: {name}: {printable(one_line(flag_message(exc, args)))}")
    return 2 if failed else 0

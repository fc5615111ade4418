"""``pycalib-r test``: ``cal_test()``, is the model calibrated?

R equivalent: ``cal_test()``.
"""

from __future__ import annotations

import json

from ._args import add_data, bandwidth, choice, data_name, subparser
from ._data import read_csv
from ._faults import PROG


def add_resampling(parser) -> None:
    parser.add_argument("--n-boot", type=int, default=999, help="bootstrap resamples (default 999)")
    parser.add_argument("--seed", type=int, default=None, help="R's set.seed() before resampling")
    parser.add_argument("--json", action="store_true", help="print JSON instead of R's text")


def add(sub) -> None:
    t = subparser(sub, "test", "cal_test(): is the model calibrated?",
                  f"{PROG} test preds.csv --p prob --y label --seed 1")
    add_data(t)
    add_resampling(t)
    t.add_argument("--method", type=choice("bootstrap", "asymptotic"), default="bootstrap",
                   help="bootstrap (default) or asymptotic")
    t.add_argument("--bandwidth", type=bandwidth, default=0.2)
    t.add_argument("--type", type=choice("canonical", "confidence"), default="canonical",
                   help="multiclass: canonical (default) or confidence")
    t.add_argument("--data-name", default=None)


def run(args) -> int:
    import pycalib_r as pc

    p, y = read_csv(args.csv, args.p, args.y, args.sep)
    if args.seed is not None:
        pc.set_seed(args.seed)
    res = pc.cal_test(p, y, method=args.method, bandwidth=args.bandwidth, n_boot=args.n_boot,
                      type=args.type, data_name=args.data_name or data_name(args),
                      progress=not args.json)
    if args.json:
        # R's component names (p.value, data.name), as res.to_dict() gives them
        print(json.dumps(res.to_dict()))
    else:
        print(res)
    return 0

"""``pycalib-r test``: ``cal_test()``, is the model calibrated?

R equivalent: ``cal_test()``.
"""

from __future__ import annotations

import argparse
import json

from ._args import add_data, bandwidth, choice, data_name, r_int, subparser
from ._data import read_csv
from ._faults import PROG


def add_resampling(parser) -> None:
    parser.add_argument("--n-boot", type=r_int, default=999, help="bootstrap resamples (default 999)")
    parser.add_argument("--seed", type=r_int, default=None, help="R's set.seed() before resampling")
    parser.add_argument("--json", action="store_true", help="print JSON instead of R's text")


def add(sub) -> None:
    t = subparser(sub, "test", "cal_test(): is the model calibrated?",
                  f"{PROG} test preds.csv --p prob --y label --seed 1")
    add_data(t)
    add_resampling(t)
    t.add_argument("--method", type=choice("bootstrap", "asymptotic", "block"),
                   default="bootstrap",
                   help="bootstrap (default), asymptotic, or block (the block estimator, O(n B): "
                        "for large files; Python-only)")
    t.add_argument("--blocksize", type=_blocksize, default=None, metavar="B",
                   help="--method block: rows per block, a whole number >= 2, or auto "
                        "(default: n // 50 kept in [2, 250])")
    t.add_argument("--shuffle", action="store_true",
                   help="--method block: permute the rows (R's sample.int, after --seed) before "
                        "forming the blocks")
    t.add_argument("--bandwidth", type=bandwidth, default=0.2)
    t.add_argument("--type", type=choice("canonical", "confidence"), default="canonical",
                   help="multiclass: canonical (default) or confidence")
    t.add_argument("--data-name", default=None)


def _blocksize(text: str):
    if text == "auto":
        return text
    try:
        return r_int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid value: '{text}' (a whole number >= 2, or auto)") from None


def run(args) -> int:
    import pycalib_r as pc

    block = {}
    if args.method == "block":
        block = {"blocksize": "auto" if args.blocksize is None else args.blocksize,
                 "shuffle": args.shuffle}
    elif args.blocksize is not None or args.shuffle:
        option = "--blocksize" if args.blocksize is not None else "--shuffle"
        args._parser.error(f"argument {option}: only with --method block")
    p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
    if args.seed is not None:
        pc.set_seed(args.seed)
    res = pc.cal_test(p, y, method=args.method, bandwidth=args.bandwidth, n_boot=args.n_boot,
                      type=args.type, data_name=args.data_name or data_name(args),
                      progress=not args.json, **block)
    if args.json:
        # R's component names (p.value, data.name), as res.to_dict() gives them
        print(json.dumps(res.to_dict()))
    else:
        print(res)
    return 0

"""``pycalib-r ci``: ``cal_ci()``, a bootstrap interval for a calibration metric.

R equivalent: ``cal_ci()``.
"""

from __future__ import annotations

import json

from ._args import add_data, bandwidth, choice, r_int, subparser
from ._cmd_test import add_resampling
from ._data import read_csv
from ._faults import PROG

_CI_TYPES = {"ece": ("classwise", "confidence"), "mce": ("classwise", "confidence"),
             "ace": ("classwise", "confidence"), "skce": ("canonical", "confidence")}


def add(sub) -> None:
    c = subparser(sub, "ci", "cal_ci(): bootstrap interval for a calibration metric",
                  f"{PROG} ci preds.csv --p prob --y label --metric ece --seed 1 --json")
    add_data(c)
    add_resampling(c)
    c.add_argument("--metric", type=choice("ece", "skce", "mmce", "mce", "ace"), default="ece",
                   help="ece (default), skce, mmce, mce or ace")
    c.add_argument("--conf-level", type=float, default=0.95)
    c.add_argument("--bins", type=r_int, default=10)
    c.add_argument("--type", type=choice("classwise", "canonical", "confidence"), default=None,
                   help="classwise or confidence (ece, mce, ace); canonical or confidence (skce)")
    c.add_argument("--estimator", type=choice("uq", "ul", "biased"), default=None)
    c.add_argument("--bandwidth", type=bandwidth, default=None)
    c.add_argument("--debiased", action="store_true")
    c.add_argument("--strategy", type=choice("equal_width", "equal_freq"), default=None)


def run(args) -> int:
    import pycalib_r as pc

    if args.type is not None and args.type not in _CI_TYPES.get(args.metric, ()):
        allowed = _CI_TYPES.get(args.metric)
        args._parser.error(
            f"argument --type: invalid choice for --metric {args.metric}: '{args.type}'"
            + (f" (choose from {', '.join(allowed)})" if allowed else " (mmce takes no --type)"))
    p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
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

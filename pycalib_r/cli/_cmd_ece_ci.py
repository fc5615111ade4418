"""``pycalib-r ece-ci``: :func:`pycalib_r.ece_ci`, Sun et al.'s (2024)
interval for the squared l2 ECE.

The command reads the CSV, calls ``pycalib_r.ece_ci`` with the options,
and prints the result as the library prints it (``--json``: the result's
``to_dict()``); nothing is computed here.

R equivalent: none (``ece_ci`` is Python-only).
"""

from __future__ import annotations

import json

from ._args import add_data, choice, r_int, subparser
from ._data import read_csv
from ._faults import PROG


def add(sub) -> None:
    import inspect

    from ..inference._ece_interval import EDGES, TYPES, ece_ci

    defaults = {name: p.default for name, p in inspect.signature(ece_ci).parameters.items()}
    e = subparser(sub, "ece-ci", "ece_ci(): interval for the squared l2 ECE (Sun et al. 2024; "
                  "Python-only)",
                  f"{PROG} ece-ci preds.csv --p prob --y label --bins 15 --json")
    add_data(e)
    e.add_argument("--bins", type=r_int, default=defaults["bins"],
                   help=f"equal-width bins per coordinate (default {defaults['bins']})")
    e.add_argument("--conf-level", type=float, default=defaults["conf_level"],
                   help=f"level of the interval (default {defaults['conf_level']})")
    e.add_argument("--type", type=choice(*TYPES), default=defaults["type"],
                   help=f"multiclass: {', '.join(TYPES)} (default {defaults['type']})")
    e.add_argument("--top-k", type=r_int, default=defaults["top_k"],
                   help=f"coordinates of --type topk (default {defaults['top_k']})")
    e.add_argument("--edges", type=choice(*EDGES), default=defaults["edges"],
                   help=f"bin edges: paper (k/m) or ece (R's seq()) (default {defaults['edges']})")
    e.add_argument("--json", action="store_true", help="print JSON (the result's to_dict())")


def run(args) -> int:
    import pycalib_r as pc

    p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
    res = pc.ece_ci(p, y, bins=args.bins, conf_level=args.conf_level, type=args.type,
                    top_k=args.top_k, edges=args.edges)
    print(json.dumps(res.to_dict()) if args.json else res)
    return 0

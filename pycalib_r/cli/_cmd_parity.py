"""``pycalib-r parity``: the same calls in R (:mod:`pycalib_r.rcheck`;
rpy2 is imported only when a check runs).

R equivalent: none (it runs R's probcal beside pycalib_r).
"""

from __future__ import annotations

from ._args import add_data, subparser
from ._data import read_csv
from ._faults import PROG


def add(sub) -> None:
    from ..rcheck import add_parity_arguments

    p = subparser(sub, "parity", "every metric, test, interval and calibrator on the CSV, in "
                  "pycalib_r and in R (needs R, rpy2 and probcal); non-zero exit on any difference",
                  f"{PROG} parity preds.csv --p prob --y label --n-boot 199")
    add_data(p)
    add_parity_arguments(p)


def run(args) -> int:
    from ..rcheck import run_parity

    p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
    return run_parity(args, p, y)

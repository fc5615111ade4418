"""``pycalib-r validate``: the validation statistics R users report after
probcal, as JSON: ``rms::val.prob``, ``ResourceSelection::hoslem.test`` and
the calibration intercept and slope with their intervals.

The command reads the CSV and prints
:func:`pycalib_r.diagnostics._validation.validate_report` as JSON; nothing is computed
here.

R equivalent: ``val.prob(p, y)``, ``hoslem.test(y, p, g)`` and
``glm(y ~ offset(qlogis(p)), binomial)`` / ``glm(y ~ qlogis(p), binomial)``
with ``confint.default`` and MASS's ``confint``.
"""

from __future__ import annotations

import json

from ._args import add_data, subparser
from ._data import read_csv
from ._faults import PROG


def add(sub) -> None:
    e = subparser(sub, "validate", "val_prob(), hoslem_test() and cal_intercept_slope() as JSON",
                  f"{PROG} validate preds.csv --p prob --y label --g 10")
    add_data(e)
    e.add_argument("--g", type=int, default=10,
                   help="Hosmer-Lemeshow groups (hoslem.test's g; default 10)")
    e.add_argument("--conf-level", type=float, default=0.95,
                   help="level of the intercept and slope intervals (default 0.95)")
    e.add_argument("--no-profile", action="store_true",
                   help="Wald intervals only (skip MASS's profile intervals, which refit the glm)")


def run(args) -> int:
    from ..diagnostics._validation import validate_report

    p, y = read_csv(args.csv, args.p, args.y, args.sep)
    report = validate_report(p, y, g=args.g, conf_level=args.conf_level, profile=not args.no_profile)
    print(json.dumps(report))
    return 0

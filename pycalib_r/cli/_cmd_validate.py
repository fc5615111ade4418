# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the command line around pycalib_r.diagnostics, whose modules carry their own headers
"""``pycalib-r validate``: the validation statistics R users report after
probcal, as JSON: ``rms::val.prob``, ``ResourceSelection::hoslem.test`` and
the calibration intercept and slope with their intervals.

The command reads the CSV and prints
:func:`pycalib_r.diagnostics._validation.validate_report` as JSON; nothing is computed
here. ``--curve loess|rcs|none`` adds ``"val_prob_ci"``: CalibrationCurves'
``val.prob.ci.2`` indices (:func:`pycalib_r.val_prob_ci`). With ``--group COL`` (and ``--weights COL``) the report gains
``"val_prob_grouped"``: ``val_prob(p, y, group=, weights=)``'s ``stats`` and
``quantiles`` (R's ``val.prob(p, y, group, weights)``); a numeric group
column is cut into ``--g-group`` quantile groups as R's ``cut2`` does.

R equivalent: ``val.prob(p, y)``, ``hoslem.test(y, p, g)`` and
``glm(y ~ offset(qlogis(p)), binomial)`` / ``glm(y ~ qlogis(p), binomial)``
with ``confint.default`` and MASS's ``confint``.
"""

from __future__ import annotations

import json

from ._args import add_data, r_int, subparser
from ._data import read_csv
from ._faults import PROG


def add(sub) -> None:
    e = subparser(sub, "validate", "val_prob(), hoslem_test() and cal_intercept_slope() as JSON",
                  f"{PROG} validate preds.csv --p prob --y label --g 10")
    add_data(e)
    e.add_argument("--g", type=r_int, default=10,
                   help="Hosmer-Lemeshow groups (hoslem.test's g; default 10)")
    e.add_argument("--conf-level", type=float, default=0.95,
                   help="level of the intercept and slope intervals (default 0.95)")
    e.add_argument("--no-profile", action="store_true",
                   help="Wald intervals only (skip MASS's profile intervals, which refit the glm)")
    e.add_argument("--group", default=None,
                   help="column of groups: adds val.prob's grouped statistics (val.probg)")
    e.add_argument("--weights", default=None,
                   help="column of observation weights for the grouped statistics")
    e.add_argument("--curve", choices=("loess", "rcs", "none"), default=None,
                   help="add CalibrationCurves' val.prob.ci.2 indices (val_prob_ci) with this "
                        "flexible curve: stats (Eavg, ECI with loess), intercept, slope and "
                        "c-statistic with their intervals")
    e.add_argument("--g-group", type=r_int, default=4,
                   help="quantile groups for a numeric --group column "
                        "(val.prob's g.group; default 4)")


def run(args) -> int:
    from ..diagnostics._validation import validate_report

    if args.group is None and args.weights is None:
        p, y = read_csv(args.csv, args.p, args.y, args.sep, args.pos_label)
        extra = {}
    else:
        from .. import val_prob
        from ._data import models_and_labels
        from ._table import read_table

        if args.group is None:
            from ..rbase._errors import ProbcalError
            raise ProbcalError("--weights needs --group (R's val.prob uses weights only for "
                               "the grouped statistics)")
        wcol = [args.weights] if args.weights else []
        table = read_table(args.csv, list(dict.fromkeys(args.p + [args.y, args.group] + wcol)),
                           sep=args.sep, numeric=args.p + wcol)
        (p, *_), y = models_and_labels(table, [args.p], args.y, args.pos_label)
        col = table.columns[args.group]
        group = col.values if col.values is not None else col.texts()
        weights = table.columns[args.weights].values if args.weights else None
        extra = {"val_prob_grouped": val_prob(p, y, group=group, weights=weights,
                                              g_group=args.g_group).to_dict()}
    report = validate_report(p, y, g=args.g, conf_level=args.conf_level, profile=not args.no_profile)
    report.update(extra)
    if args.curve is not None:
        report["val_prob_ci"] = _val_prob_ci(p, y, args.curve, args.conf_level)
    print(json.dumps(report))
    return 0


def _val_prob_ci(p, y, curve: str, conf_level: float) -> dict:
    """val_prob_ci()'s indices as JSON values (NaN as null); the curve itself is left out."""
    import math

    from .. import val_prob_ci

    res = val_prob_ci(p, y, smooth=curve, cl_level=conf_level)

    def clean(d):
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in d.items()}

    return {"smooth": curve, "cl_level": conf_level, "stats": clean(res.stats),
            "Calibration": {k: clean(v) for k, v in res.Calibration.items()},
            "Cindex": clean(res.Cindex)}

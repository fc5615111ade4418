#!/usr/bin/env python3
"""Parity report: pycalib_r against the stored R fixtures, per function.

For every R function with fixture cases it prints the number of cases, how
many pass, how many are exact (bit-identical numbers, identical text), and the
largest absolute and relative difference over the numeric cases.

Usage:
    python tools/parity_report.py            # print the report
    python tools/parity_report.py --write    # also write reference/parity_report.txt
    python tools/parity_report.py --failures # list each failing case and why

Exit status is 0 even when cases fail (it is a report; the tests are
tests/suites/project/test_fixtures.py).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import platform
import sys
from collections import OrderedDict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests import _rcall  # noqa: E402


def _fmt(x: float) -> str:
    if x == 0:
        return "0"
    return f"{x:.2e}"


def build_report(show_failures: bool = False) -> str:
    import numpy as np
    import pycalib_r

    manifest, files, problems = _rcall.load_fixtures()
    rows: "OrderedDict[str, dict]" = OrderedDict()
    failures = []
    for name, case in _rcall.iter_cases(files):
        out = _rcall.run_case(case, pycalib_r)
        row = rows.setdefault(case["function"], {
            "cases": 0, "pass": 0, "exact": 0, "numeric": 0, "max_abs": 0.0, "max_rel": 0.0,
            "missing": 0, "sources": set(), "kinds": set(),
        })
        row["cases"] += 1
        row["sources"].add(case["source"])
        exp = case["expected"]
        kind = ("print" if isinstance(exp, dict) and "print" in exp
                else "error" if isinstance(exp, dict) and "error" in exp else "value")
        row["kinds"].add(kind)
        if out.status == "pass":
            row["pass"] += 1
            row["exact"] += int(out.exact)
            if out.numeric:
                row["numeric"] += 1
                row["max_abs"] = max(row["max_abs"], out.max_abs)
                row["max_rel"] = max(row["max_rel"], out.max_rel)
        else:
            if out.status == "missing":
                row["missing"] += 1
            failures.append((name, case, out))

    lines = []
    lines.append("pycalib_r parity report against the stored R fixtures")
    lines.append(f"generated {_dt.date.today().isoformat()} with Python {platform.python_version()}, "
                 f"numpy {np.__version__}, pycalib_r {getattr(pycalib_r, '__version__', '?')}")
    prod = manifest.get("producer", {})
    lines.append(f"fixtures: R {prod.get('r_version')}, probcal {prod.get('probcal_version')} "
                 f"({', '.join(files)})")
    lines.append("max abs/rel: largest difference over the passing numeric cases; exact: "
                 "bit-identical numbers or identical text")
    lines.append("")
    header = f"{'function':<20} {'source':<16} {'cases':>5} {'pass':>5} {'exact':>5} " \
             f"{'max abs':>9} {'max rel':>9}  kinds"
    lines.append(header)
    lines.append("-" * len(header))
    total = {"cases": 0, "pass": 0, "exact": 0}
    for fun, row in rows.items():
        total["cases"] += row["cases"]
        total["pass"] += row["pass"]
        total["exact"] += row["exact"]
        exact_note = "all" if row["exact"] == row["cases"] else str(row["exact"])
        lines.append(f"{fun:<20} {'+'.join(sorted(row['sources'])):<16} {row['cases']:>5} "
                     f"{row['pass']:>5} {exact_note:>5} "
                     f"{_fmt(row['max_abs']) if row['numeric'] else '-':>9} "
                     f"{_fmt(row['max_rel']) if row['numeric'] else '-':>9}  "
                     f"{','.join(sorted(row['kinds']))}"
                     + (f"  ({row['missing']} not exported)" if row["missing"] else ""))
    lines.append("-" * len(header))
    lines.append(f"{'total':<20} {'':<16} {total['cases']:>5} {total['pass']:>5} {total['exact']:>5}")
    if problems:
        lines.append("")
        lines.append("fixture problems:")
        lines.extend(f"  {p}" for p in problems)
    if failures:
        lines.append("")
        lines.append(f"{len(failures)} failing case(s)" + ("" if show_failures else
                                                         " (list them with --failures)"))
        if show_failures:
            for name, case, out in failures:
                lines.append(f"  {name} {case['id']} [{out.status}] {case['r_call'][:90]}")
                lines.append(f"      {out.detail[:300]}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="also write the report to reference/parity_report.txt")
    parser.add_argument("--failures", action="store_true", help="list every failing case")
    parser.add_argument("--private", action="store_true",
                        help="also find functions pycalib_r does not export yet in its submodules "
                             "(a progress view; never used by --write)")
    args = parser.parse_args(argv)
    if args.private and args.write:
        parser.error("--private reports are not written to reference/parity_report.txt")
    _rcall.SEARCH_PRIVATE = args.private
    text = build_report(show_failures=args.failures)
    sys.stdout.write(text)
    if args.write:
        (REPO / "reference" / "parity_report.txt").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: pillar 1.8.1 R/sigfig.R (MIT), (c) pillar authors
"""tibble's print (pillar 1.8.1) for the columns of ``summary(reliabilitydiag)``.

R equivalent: ``print()`` of a tibble of character and double columns, with
pillar's defaults (three significant digits, ``split_decimal``'s alignment).
Moved out of ``_corp`` (the CORP diagram's module) to keep modules small.
"""

from __future__ import annotations

import math

__all__ = ["format_tibble"]




def _within_tolerance(x, y):
    if x == y:
        return True
    if not (x > 0 and y > 0):
        return False
    l2x, l2y = round(math.log2(x)), round(math.log2(y))
    return l2x == l2y and abs((x - y) * 2.0 ** -l2x) <= 4.440892098500626e-16


def _pillar_dbl(values, sigfig=3):
    """pillar's decimal column: the cells of a double column (``split_decimal``)."""
    vals = [float(v) for v in values]
    offset = math.log1p(-5 * 10.0 ** (-sigfig - 1)) / math.log(10)
    integer_like = all(v == math.trunc(v) for v in vals if math.isfinite(v))
    cells = []
    for v in vals:
        if not math.isfinite(v):
            cells.append(("NA" if math.isnan(v) else ("Inf" if v > 0 else "-Inf"), None, 0, False))
            continue
        neg, mnt = v < 0, abs(v)
        if mnt != 0:
            min_sig = math.floor(math.log10(mnt)) + 1
            digits = max(sigfig, min_sig)
            round_mnt = float(f"{mnt:.{digits - 1}e}")
            exp = math.floor(math.log10(mnt) - offset)
        else:
            round_mnt, exp = 0.0, math.inf
        rhs_digits = 0
        if not integer_like and exp <= sigfig:
            rhs_digits = int(sigfig - 1 - exp)
            while rhs_digits > 0:
                val = mnt * 10.0 ** (rhs_digits - 1)
                if _within_tolerance(val, float(round(val))):
                    rhs_digits -= 1
                else:
                    break
        lhs = math.trunc(round_mnt)
        rhs = round_mnt - lhs
        dec = not (mnt == 0 or (rhs == 0 and _within_tolerance(lhs * 1.0, mnt)))
        cells.append((("-" if neg else "") + f"{lhs:d}", rhs, rhs_digits, dec))
    lhs_w = max(len(c[0]) for c in cells)
    rhs_w = max(c[2] for c in cells)
    any_dec = any(c[3] for c in cells)
    out = []
    for lhs, rhs, nd, dec in cells:
        if rhs is None:
            out.append(lhs)
            continue
        if dec:
            num = "%.0f" % abs(round(rhs * 10.0 ** nd))
            num = "" if num == "0" else num
            frac = "0" * max(0, nd - len(num)) + num
            right = "." + frac.ljust(rhs_w)
        else:
            right = " " * (rhs_w + (1 if any_dec else 0))
        out.append(lhs.rjust(lhs_w) + right)
    return out


def format_tibble(table) -> str:
    """The text of ``print(tibble)`` for character and double columns (pillar's defaults)."""
    import pandas as pd

    n = len(table)
    header = f"# A tibble: {n} \u00d7 {table.shape[1]}"
    cols = []
    for name in table.columns:
        values = table[name].tolist()
        if not pd.api.types.is_numeric_dtype(table[name].dtype):
            cells, kind, left = [str(v) for v in values], "<chr>", True
        else:
            cells, kind, left = _pillar_dbl(values), "<dbl>", False
        width = max([len(name), len(kind)] + [len(c) for c in cells])
        if left:
            col = [name.ljust(width), kind.ljust(width)] + [c.ljust(width) for c in cells]
        else:
            col = [name.rjust(width), kind.rjust(width)] + [c.ljust(max(len(x) for x in cells)).rjust(width)
                                                          for c in cells]
        cols.append(col)
    rn = len(str(n))
    rows = [" " * rn] + [" " * rn] + [str(i + 1).ljust(rn) for i in range(n)]
    lines = [header]
    for i in range(n + 2):
        lines.append(rows[i] + " " + " ".join(col[i] for col in cols))
    return "\n".join(lines)

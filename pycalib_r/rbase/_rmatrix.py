# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/printmatrix.c (GPL-2.0-or-later), (c) The R Core Team
"""R's ``print()`` of a numeric matrix with dimnames (``printRealMatrix``).

Each column is formatted on its own (``formatReal`` with ``digits``, NA as
``NA``), right-justified to the wider of its entries and its label; row
labels are left-justified; columns go into blocks that fit ``width`` (R's
``getOption("width")`` = 80), each block led by its column labels, as
R's ``src/main/printmatrix.c`` lays them out.
"""

from __future__ import annotations

from ._format import format_r_vec

__all__ = ["print_matrix"]


def print_matrix(values, row_names, col_names, digits: int = 7, width: int = 80) -> str:
    """R's ``print(m)`` for a double matrix ``m`` (a list of rows), without the final newline.

    Examples
    --------
    >>> print(print_matrix([[1.5, 2.0], [None, float("nan")]], ["a", "bb"], ["x", "y"]))
         x   y
    a  1.5   2
    bb  NA NaN
    """
    nr = len(row_names)
    nc = len(col_names)
    cols = []
    for j in range(nc):
        col = [values[i][j] for i in range(nr)]  # None and R's NA_real_ print NA, NaN NaN
        cells = format_r_vec(col, digits=digits) if nr else []
        cols.append([c.strip() for c in cells])
    rlabw = max((len(r) for r in row_names), default=0)
    w = [max([len(c) for c in cols[j]] + [len(col_names[j])]) + 1 for j in range(nc)]
    lines = []
    jmin = 0
    while jmin < nc:
        total = rlabw
        jmax = jmin
        while True:
            total += w[jmax]
            jmax += 1
            if not (jmax < nc and total + w[jmax] < width):
                break
        lines.append(" " * rlabw + "".join(f"{col_names[j]:>{w[j]}}" for j in range(jmin, jmax)))
        for i in range(nr):
            lines.append(f"{row_names[i]:<{rlabw}}"
                         + "".join(f"{cols[j][i]:>{w[j]}}" for j in range(jmin, jmax)))
        jmin = jmax
    return "\n".join(lines)

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/base/R/summary.R (GPL-2.0-or-later), (c) The R Core Team
"""R's ``summary()`` of a list that has no summary method: the Length / Class / Mode table.

``summary(cal_test(p, y))`` in R dispatches to ``summary.default``, which
for a list prints one row per component: its ``length()``, the first of its
``oldClass()`` (``-none-`` when it has none) and its ``mode()``. probcal
has no ``summary`` method for ``cal_test``, ``cal_ci`` or ``ece_ci``
results, so this is what R prints for them.

R equivalent: ``summary.default(object)`` on a list, printed by
``print.summaryDefault`` (a character table, left-justified).
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

__all__ = ["ListSummary", "component_row"]


def _vector_mode(kind: str) -> str:
    return {"b": "logical", "c": "complex"}.get(kind, "numeric" if kind in "iuf" else "character")


def component_row(value: Any) -> Tuple[int, str, str]:
    """``(length(x), oldClass(x)[1] or "-none-", mode(x))`` of a component as R sees it."""
    from ._modules import imported
    from ._rlist import RList

    pd = imported("pandas")
    if value is None:
        return 0, "-none-", "NULL"
    if isinstance(value, RList):
        classes = tuple(getattr(value, "r_class", ()) or ())
        return len(value), (classes[0] if classes else "-none-"), "list"
    if isinstance(value, (bool, np.bool_)):
        return 1, "-none-", "logical"
    if isinstance(value, (int, float, np.integer, np.floating)):  # NamedNumber is a float
        return 1, "-none-", "numeric"
    if isinstance(value, str):
        return 1, "-none-", "character"
    if pd is not None:
        if isinstance(value, pd.DataFrame):
            return value.shape[1], "data.frame", "list"
        if isinstance(value, (pd.Categorical, pd.Series)) and isinstance(value.dtype, pd.CategoricalDtype):
            return len(value), "factor", "numeric"
    if isinstance(value, dict):
        return len(value), "-none-", "list"
    if isinstance(value, (list, tuple)):
        return len(value), "-none-", "list"
    arr = np.asarray(value)
    return int(arr.size), "-none-", _vector_mode(arr.dtype.kind)


class ListSummary:
    """What R's ``summary()`` prints for a list without a summary method; ``str()`` is that text.

    R equivalent: ``summary(x)`` of a list (``summary.default``); the list
    is kept in ``.object``.
    """

    def __init__(self, obj):
        self.object = obj

    def rows(self) -> List[Tuple[str, str, str, str]]:
        names = list(self.object.keys())
        rows = [component_row(self.object[name]) for name in names]
        width = max(len(str(n)) for n, _, _ in rows) if rows else 0
        # format(as.integer(ll)): right-justified to a common width
        return [(name, str(n).rjust(width), cls, mode) for name, (n, cls, mode) in zip(names, rows)]

    def __str__(self) -> str:
        rows = self.rows()
        header = ("", "Length", "Class", "Mode")
        widths = [max(len(r[j]) for r in rows + [header]) for j in range(4)]
        return "\n".join(" ".join(cell.ljust(w) for cell, w in zip(row, widths))
                         for row in [header] + rows)

    __repr__ = __str__

"""Columns named after the classes, given in another order: refused, never matched silently.

R matches the columns of a probability (or logit) matrix to the classes by
position: column k is ``levels(y)[k]``. So does pycalib_r. In pandas, though,
columns are reordered all the time (``df[sorted(df)]``, a merge, a pivot),
and a DataFrame whose columns *name* the classes in another order than the
labels' categories would give wrong answers without a word. This module
refuses exactly that case:

* the matrix is a DataFrame (its columns are names), and
* the labels carry names: a pandas Categorical's categories, or a fitted
  calibrator's ``levels``, and
* the column names and the class names are the same set, in another order.

Named in the same order, unnamed (a numpy array, a list of rows), or named
with other names (``0..K-1``, ``"prob_a"``): R's positional rule, as before.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..rbase._errors import ProbcalError
from ..rbase._modules import imported

__all__ = ["column_names", "category_names", "check_column_order"]


def _pandas():
    # Only asked whether an object is a pandas one: that needs pandas to be
    # imported already, so a call on arrays never pays pandas' import.
    return imported("pandas")


def column_names(x) -> Optional[list]:
    """The column labels of a DataFrame, else None (arrays carry no names)."""
    pd = _pandas()
    if pd is not None and isinstance(x, pd.DataFrame):
        return list(x.columns)
    return None


def category_names(y) -> Optional[list]:
    """The categories of a pandas Categorical (or categorical Series/Index), else None."""
    pd = _pandas()
    if pd is None:
        return None
    if isinstance(y, pd.Categorical):
        return list(y.categories)
    if isinstance(y, (pd.Series, pd.CategoricalIndex)) and isinstance(y.dtype, pd.CategoricalDtype):
        return list(y.dtype.categories)
    return None


def _quoted(names: Sequence) -> str:
    return ", ".join(f'"{n}"' for n in names)


def check_column_order(x, levels: Optional[Sequence], x_arg: str, levels_text: str,
                       levels_expr: str) -> None:
    """Raise when the columns of ``x`` name the classes ``levels`` in another order.

    Parameters
    ----------
    x : object
        The probability or logit matrix as the caller gave it.
    levels : sequence or None
        The class names in class order (categories, or a fit's ``levels``).
    x_arg : str
        The argument's name, for the message (``"p"``, ``"newdata"``).
    levels_text : str
        What the levels are, for the message (``"the categories of `y`"``).
    levels_expr : str
        A Python expression for the levels in class order, for the fix.

    R equivalent: none (R matches columns by position and has no column
    names to compare); this is an addition for pandas users.
    """
    cols = column_names(x)
    if cols is None or levels is None:
        return
    col_text = [str(c) for c in cols]
    lev_text = [str(v) for v in levels]
    if (col_text == lev_text or len(col_text) != len(lev_text)
            or len(set(col_text)) != len(col_text) or set(col_text) != set(lev_text)):
        return
    by_text = dict(zip(col_text, cols))
    wanted = [by_text[v] for v in lev_text]
    fix = f"{x_arg}[{levels_expr}]"
    if len(wanted) <= 10:
        fix += f" (here {x_arg}[{wanted!r}])"
    raise ProbcalError(
        f"The columns of `{x_arg}` name the classes in another order than {levels_text}: "
        f"columns {_quoted(col_text)}, classes {_quoted(lev_text)}. Columns are matched to "
        f"classes by position (as in R), so reorder the columns: {fix}."
    )

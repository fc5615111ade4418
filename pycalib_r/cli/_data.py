"""Predictions and labels from an input, as the library takes them.

``--p`` columns are numbers; ``--y`` holds 0/1, ``True``/``False``, class
codes 1..K, or labels that name the ``--p`` columns (text, or numbers when
the ``--p`` columns are named by numbers: ``--p 0,1,2 --y digit``). With one
``--p`` column, ``--pos-label LABEL`` reads any two labels (``no``/``yes``,
``1``/``2``) as 1 for LABEL and 0 for the other (scikit-learn's ``pos_label``).

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np

from ._source import shown
from ._columns import _MISSING
from ._table import Table, check_missing, not_a_number, read_table

# What pandas (and R's write.csv) write for booleans; R's as.logical() reads these.
_TRUE = {"true", "t"}
_FALSE = {"false", "f"}


def read_csv(path: str, p_cols: Sequence[str], y_col: Optional[str], sep: Optional[str] = None,
             pos_label: Optional[str] = None):
    """Predictions and labels from a CSV (or Parquet) file: ``(p, y)``.

    ``p`` is a vector for one column, an n x K array for several; ``y`` is
    0/1 or class codes 1..K as integers, or, for several probability columns
    and non-numeric labels, a pandas Categorical whose categories are the
    ``p`` columns in order (the labels name the columns). ``y`` is None when
    ``y_col`` is. ``pos_label`` (one ``p`` column): ``y`` is 1 where the
    label is ``pos_label`` and 0 where it is the other label. Every problem
    raises :class:`CsvError`.
    """
    (p, *_), y = read_models(path, [p_cols], y_col, sep, pos_label)
    return p, y


def read_weighted(path: str, p_cols: Sequence[str], y_col: str, w_col: str,
                  sep: Optional[str] = None, pos_label: Optional[str] = None):
    """:func:`read_csv` plus a numeric column of observation weights: ``(p, y, w)``
    (the weights' rule is the core's ``check_weights``, applied by the metric)."""
    p_names = list(dict.fromkeys(p_cols))
    wanted = list(dict.fromkeys(p_names + [y_col, w_col]))
    table = read_table(path, wanted, sep=sep, numeric=list(dict.fromkeys(p_names + [w_col])))
    (p, *_), y = models_and_labels(table, [p_cols], y_col, pos_label)
    return p, y, np.asarray(table.columns[w_col].values, dtype=np.float64)


def read_models(path: str, groups: Sequence[Sequence[str]], y_col: Optional[str],
                sep: Optional[str] = None, pos_label: Optional[str] = None):
    """Several sets of probability columns and the labels, from one reading of the file.

    Returns ``([p for each group], y)``, each ``p`` as :func:`read_csv`
    makes it; class names in ``y`` are matched to the first group's columns.
    """
    p_names = list(dict.fromkeys(c for group in groups for c in group))
    wanted = list(dict.fromkeys(p_names + ([y_col] if y_col is not None else [])))
    table = read_table(path, wanted, sep=sep, numeric=p_names)
    return models_and_labels(table, groups, y_col, pos_label)


def models_and_labels(table: Table, groups, y_col, pos_label: Optional[str] = None):
    """``([p for each group], y)`` from the columns of ``table``."""
    values = {}
    for name in dict.fromkeys(c for group in groups for c in group):
        values[name] = table.columns[name].values  # numbers: read_table checked them
    models = [values[group[0]] if len(group) == 1
              else np.column_stack([values[c] for c in group]) for group in groups]
    if y_col is None:
        return models, None
    if pos_label is not None:
        return models, _positive(table, y_col, pos_label)
    return models, _labels(table, y_col, groups[0])


def _integral(values: np.ndarray):
    if np.all(np.isfinite(values)) and np.all(values == np.round(values)):
        return values.astype(np.int64)
    return values


def _labels(table: Table, y_col: str, p_cols: Sequence[str]):
    column = table.columns[y_col]
    values = column.values
    if values is not None:
        check_missing(table, y_col)
        named = _numeric_names(values, p_cols)
        if named is not None:
            import pandas as pd  # noqa: PLC0415 (pandas costs 0.5 s: only class labels need it)

            return pd.Categorical.from_codes(named, categories=list(p_cols))
        return _integral(values)
    names = [text.strip() for text in column.texts()]
    folded = {name.lower() for name in names}
    if folded <= _TRUE | _FALSE and not set(names) <= set(p_cols):
        # True/False labels, as pandas writes a bool column: 1/0.
        return np.fromiter((name.lower() in _TRUE for name in names), dtype=np.int64,
                           count=len(names))
    if len(p_cols) == 1:
        _first_text(table, y_col, names)
    classes = set(p_cols)
    for k, name in enumerate(names):
        if name not in classes:
            raise table.error(f"label {shown(name)} is not one of the probability columns "
                              f"({', '.join(p_cols)}); labels are 1..K or those names",
                              row=k, column=y_col)
    import pandas as pd  # noqa: PLC0415

    return pd.Categorical(names, categories=list(p_cols))


def _first_text(table: Table, y_col: str, names: List[str]) -> None:
    for k, name in enumerate(names):
        try:
            float(name)
        except ValueError:
            raise table.error(not_a_number(name), row=k, column=y_col,
                              hints=_text_label_hints(y_col, names)) from None


def _text_label_hints(y_col: str, names: List[str]) -> List[str]:
    """Two text labels (``no``/``yes``) under one ``--p`` column: name the positive one."""
    distinct = sorted({name for name in names if name.lower() not in _MISSING})
    if len(distinct) != 2:
        return []
    shown_labels = " and ".join(shown(name) for name in distinct)
    return [f"--y {y_col} holds the text labels {shown_labels}: say which is the positive "
            f"class, the one --p gives the probability of, e.g. --pos-label {distinct[1]}"]


def _positive(table: Table, y_col: str, pos_label: str) -> np.ndarray:
    """``--pos-label``: 1 where the label is ``pos_label``, 0 where it is the
    other label; a column of more than two labels, or none equal to
    ``pos_label``, is refused (scikit-learn's ``pos_label`` for binary labels)."""
    column = table.columns[y_col]
    values = column.values
    if values is not None:
        check_missing(table, y_col)
        target = _as_number(pos_label)
        labels = np.unique(values)
        shown_labels = [np.format_float_positional(v, trim="-") for v in labels[:3]]
        hit = values == target if target is not None else np.zeros(len(values), dtype=bool)
    else:
        names = [text.strip() for text in column.texts()]
        for k, name in enumerate(names):
            if name.lower() in _MISSING:
                raise table.error(not_a_number(name), row=k, column=y_col)
        labels = sorted(set(names))
        shown_labels = [shown(name) for name in labels[:3]]
        hit = np.fromiter((name == pos_label for name in names), dtype=bool, count=len(names))
    if len(labels) > 2:
        raise table.error(f"--pos-label is for two labels, and the column holds "
                          f"{len(labels)} ({', '.join(shown_labels)}, ...)", column=y_col,
                          hints=["for several classes, give one --p column per class (--p "
                                 "a,b,c) and labels that name them, without --pos-label"])
    if not hit.any():
        raise table.error(f"--pos-label {shown(pos_label)} is not one of its labels "
                          f"({', '.join(shown_labels)})", column=y_col)
    return hit.astype(np.int64)


def _as_number(text: str) -> Optional[float]:
    try:
        return float(text)
    except ValueError:
        return None


def _numeric_names(values: np.ndarray, p_cols: Sequence[str]) -> Optional[np.ndarray]:
    """0-based codes (or any numbers) whose values name the ``--p`` columns
    (``--p 0,1,2 --y digit``): each label's column position, else None.

    Several columns named by numbers, and every label one of those numbers:
    the labels name the columns (whatever their order), as text labels do.
    """
    if len(p_cols) < 2:
        return None
    numbers = [_as_number(name) for name in p_cols]
    if any(x is None for x in numbers) or len(set(numbers)) != len(numbers):
        return None
    order = np.argsort(numbers, kind="stable")
    sorted_numbers = np.asarray(numbers, dtype=np.float64)[order]
    at = np.searchsorted(sorted_numbers, values)
    at = np.minimum(at, len(numbers) - 1)
    if not np.all(sorted_numbers[at] == values):
        return None
    return order[at]

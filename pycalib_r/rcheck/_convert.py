"""Python values as R objects through rpy2, faithfully.

numpy and pandas values become the R objects an R user would pass: doubles
stay doubles, integers R integers (doubles beyond R's integer range), bools
logicals, strings characters; 2-D arrays become R matrices (column-major);
pandas Categoricals become factors with the same levels; missing values
(``NaN``, ``None``, ``pd.NA``) become ``NA``; a numeric DataFrame (what
pycalib_r reads as a probability matrix) becomes a double matrix with its
column names, any other DataFrame a data.frame; a dict a named list. Anything else has
no R counterpart and raises :class:`~pycalib_r.rcheck.NotExpressibleInR`.

``ro`` is always the ``rpy2.robjects`` module, passed in so that importing
this file never imports rpy2.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._errors import NotExpressibleInR

__all__ = ["as_r", "to_r", "r_assign"]

_INT_MAX = 2**31 - 1


def _missing_mask(values) -> np.ndarray:
    import pandas as pd

    return np.asarray(pd.isna(values), dtype=bool).reshape(np.shape(values))


def _vector(ro, arr: np.ndarray, what: str):
    """A 1-D numpy array as an R atomic vector (NA where missing)."""
    import pandas as pd

    kind = arr.dtype.kind
    if kind == "O":
        missing = _missing_mask(arr)
        present = [v for v, m in zip(arr.tolist(), missing) if not m]
        if present and all(isinstance(v, str) for v in present):
            return ro.StrVector([ro.NA_Character if m else v for v, m in zip(arr.tolist(), missing)])
        if all(isinstance(v, (bool, np.bool_)) for v in present):
            return ro.BoolVector([ro.NA_Logical if m else bool(v) for v, m in zip(arr.tolist(), missing)])
        try:
            arr = pd.array(arr.tolist()).to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            types = sorted({type(v).__name__ for v in present})
            raise NotExpressibleInR(
                f"{what} mixes {', '.join(types)} values; R vectors hold one type. "
                f"Pass a numeric, logical or character array.") from None
        kind = "f"
    if kind == "b":
        return ro.BoolVector(arr.tolist())
    if kind in "iu":
        if arr.size and (arr.min() < -_INT_MAX or arr.max() > _INT_MAX):
            return ro.FloatVector(arr.astype(float).tolist())
        return ro.IntVector(arr.astype(np.int64).tolist())
    if kind == "f":
        return ro.FloatVector([ro.NA_Real if np.isnan(v) else float(v) for v in arr.astype(float)])
    if kind in "US":
        return ro.StrVector(arr.astype(str).tolist())
    if kind == "c":
        raise NotExpressibleInR(f"{what} is complex; probcal takes real numbers only.")
    raise NotExpressibleInR(f"{what} has numpy dtype {arr.dtype}, which has no R counterpart.")


def _factor(ro, cat, what: str):
    categories = [str(c) for c in cat.categories]
    if len(set(categories)) != len(categories):
        raise NotExpressibleInR(f"{what}: two categories print the same; R factor levels must be distinct.")
    labels = [ro.NA_Character if code < 0 else categories[code] for code in np.asarray(cat.codes)]
    return ro.r["factor"](ro.StrVector(labels), levels=ro.StrVector(categories))


def as_r(ro, value, what: str = "the argument"):
    """``value`` as the R object an R user would pass.

    Parameters
    ----------
    ro : module
        ``rpy2.robjects``.
    value : object
        None, a number, bool or string, a list/tuple/numpy array (1-D or
        2-D), a pandas Series/Categorical/DataFrame, or a dict of these.
    what : str
        How messages name the value (``"argument `p`"``).

    Returns
    -------
    rpy2 R object

    Raises
    ------
    NotExpressibleInR
        The value has no R counterpart (3-D arrays, complex numbers, other
        Python objects).

    R equivalent: the R value itself (``c(...)``, ``matrix(..., ncol)``,
    ``factor(labels, levels)``, ``data.frame(...)``, ``list(...)``).
    """
    import pandas as pd

    if value is None:
        return ro.NULL
    if value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return ro.FloatVector([ro.NA_Real])
    if isinstance(value, (bool, np.bool_)):
        return ro.BoolVector([bool(value)])
    if isinstance(value, numbers.Integral):
        return _vector(ro, np.array([int(value)]), what)
    if isinstance(value, numbers.Real):
        return _vector(ro, np.array([float(value)]), what)
    if isinstance(value, str):
        return ro.StrVector([value])
    if isinstance(value, pd.Categorical):
        return _factor(ro, value, what)
    if isinstance(value, pd.Series):
        if isinstance(value.dtype, pd.CategoricalDtype):
            return _factor(ro, value.array, what)
        if value.hasnans and value.dtype.kind != "f":
            return _vector(ro, value.to_numpy(dtype=object, na_value=None), what)
        return _vector(ro, np.asarray(value.to_numpy()), what)
    if isinstance(value, pd.DataFrame):
        numeric = value.shape[1] > 0 and all(
            pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_bool_dtype(t) for t in value.dtypes)
        if numeric:
            # pycalib_r reads a numeric DataFrame as its probability matrix,
            # so R gets the matrix an R user would pass (with the column names).
            matrix = as_r(ro, value.to_numpy(dtype=float, na_value=np.nan), what)
            with_names = ro.r("function(m, names) { colnames(m) <- names; m }")
            return with_names(matrix, ro.StrVector([str(c) for c in value.columns]))
        columns = {str(c): as_r(ro, value[c], f"column {c!r} of {what}") for c in value.columns}
        as_frame = ro.r("function(l, n) structure(l, class = 'data.frame', "
                        "row.names = .set_row_names(n))")
        return as_frame(ro.ListVector(columns), len(value))
    if isinstance(value, dict):
        return ro.ListVector({str(k): as_r(ro, v, f"item {k!r} of {what}") for k, v in value.items()})
    if isinstance(value, (list, tuple, np.ndarray)):
        arr = np.asarray(value, dtype=object if isinstance(value, (list, tuple)) else None)
        if isinstance(value, (list, tuple)) and arr.ndim == 1:
            # let numpy find the common type of a plain list, as R's c() would
            try:
                arr = np.asarray(value)
            except (TypeError, ValueError):
                pass
        if arr.ndim == 0:
            return as_r(ro, arr.item(), what)
        if arr.ndim == 1:
            return _vector(ro, arr, what)
        if arr.ndim == 2:
            flat = _vector(ro, arr.ravel(order="F"), what)
            return ro.r["matrix"](flat, nrow=arr.shape[0], ncol=arr.shape[1])
        raise NotExpressibleInR(f"{what} is a {arr.ndim}-D array; probcal takes vectors and matrices.")
    raise NotExpressibleInR(f"{what} is a {type(value).__module__}.{type(value).__name__}, "
                            f"which has no R counterpart.")


def to_r(ro, x):
    """A numpy vector or matrix as an R double vector or matrix (column-major).

    R equivalent: ``as.double(x)`` / ``matrix(as.double(x), nrow)``.
    """
    arr = np.asarray(x, dtype=float)
    if arr.ndim == 1:
        return ro.FloatVector(arr.tolist())
    return ro.r.matrix(ro.FloatVector(arr.ravel(order="F").tolist()), nrow=arr.shape[0])


def r_assign(ro, **values):
    """Bind Python values to names in R's global environment.

    Integer arrays become R integers, everything else doubles (:func:`to_r`).
    """
    for name, value in values.items():
        if isinstance(value, np.ndarray) and value.dtype.kind in "iu":
            ro.globalenv[name] = ro.IntVector(value.astype(int).tolist())
        else:
            ro.globalenv[name] = to_r(ro, value)

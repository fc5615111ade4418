"""pycalib_r on Dask: calibration metrics and calibrators of data larger than memory.

The same names and arguments as the in-memory functions, for Dask arrays and
Dask DataFrame/Series columns (``pip install 'pycalib_r[dask]'``). Every
function is a few passes of per-chunk sums merged in a tree: workers hold one
chunk at a time, the client O(bins) numbers, and nothing collects the data.
Results are the in-memory result types (floats, data frames, ``CalTest``,
fitted calibrators whose ``predict()`` maps a Dask array lazily).

Functions that need every pair or every row at once (the quadratic
``skce`` and the bootstrap ``cal_test``, ``cal_ci``, ``cal_isotonic``, the
multiclass calibrators) raise an error naming the alternatives.

This module is imported only when asked for (``import pycalib_r.dask``);
``import pycalib_r`` does not import dask.
"""

from __future__ import annotations

try:
    import dask as _dask  # noqa: F401
    import dask.array as _da  # noqa: F401
except ImportError as _err:  # pragma: no cover - exercised without dask
    raise ImportError("pycalib_r.dask needs dask: pip install 'pycalib_r[dask]' "
                      "(dask[array,dataframe], distributed, pyarrow)") from _err

from ._calibrators import (
    cal_beta,
    cal_ci,
    cal_cv,
    cal_dirichlet,
    cal_histogram,
    cal_isotonic,
    cal_ovr,
    cal_platt,
    cal_temperature,
    cal_vector_scaling,
    mmce,
)
from ._ece_ci import ece_ci
from ._kernel import cal_test, skce
from ._metrics import ace, ece, mce, reliability_table
from ._validation import brier, cal_intercept_slope, hoslem_test, spiegelhalter_z, val_prob

__all__ = [
    "ece",
    "mce",
    "ace",
    "reliability_table",
    "ece_ci",
    "skce",
    "cal_test",
    "cal_platt",
    "cal_temperature",
    "cal_beta",
    "cal_histogram",
    "brier",
    "spiegelhalter_z",
    "hoslem_test",
    # refused with alternatives
    "val_prob",
    "cal_intercept_slope",
    "mmce",
    "cal_ci",
    "cal_cv",
    "cal_isotonic",
    "cal_ovr",
    "cal_dirichlet",
    "cal_vector_scaling",
]

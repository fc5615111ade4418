"""pycalib_r on Dask: calibration metrics and calibrators of data larger than memory.

The same names and arguments as the in-memory functions, for Dask arrays and
Dask DataFrame/Series columns (``pip install 'pycalib_r[dask]'``). Every
function is a few passes of per-chunk sums merged in a tree: workers hold one
chunk at a time, the client O(bins) numbers, and nothing collects the data.
Results are the in-memory result types (floats, data frames, ``CalTest``,
fitted calibrators whose ``predict()`` maps a Dask array lazily).

Functions that need every pair or every row at once (the quadratic
``skce`` and the bootstrap ``cal_test``, ``cal_ci``, ``cal_isotonic``,
``reliability_diagram``, the bin-free diagnostics, the multiclass calibrators) raise
:class:`DaskRefusal` (a ``ProbcalError`` and a ``NotImplementedError``)
naming the alternative, before reading any data. Every other public name of
``pycalib_r`` is here too: the classes, ``predict`` (lazy on Dask
collections), ``summary``, the streams and options are pycalib_r's own.

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

import pycalib_r as _pc

from ..calibrators._lazy_faces import register_lazy_predictor as _register
from ..calibrators._methods import methods as _methods, resolve as _resolve
from ._calibrators import predict_lazy as _predict_lazy
from ._face import dask_face as _dask_face
from ._ece_ci import ece_ci
from ._kernel import cal_test, skce
from ._metrics import ace, ece, mce, reliability_table
from ._validation import brier, hoslem_test, spiegelhalter_z
from ._refusals import REFUSED as _REFUSED
from ._refusals import DaskRefusal, refused as _refused

# The in-memory hints (0-based class codes, string labels, ...) on R's
# messages, as pycalib_r's own functions give them (the column-order check
# is made where the inputs are paired, _collect.pair_inputs).
ece, mce, ace, reliability_table, skce, cal_test, ece_ci = (
    _dask_face(f) for f in (ece, mce, ace, reliability_table, skce, cal_test, ece_ci))
brier, spiegelhalter_z, hoslem_test = (_dask_face(f) for f in (brier, spiegelhalter_z, hoslem_test))
# The calibrators with a Dask implementation: those the calibrator registry
# names one for (cal_platt, cal_temperature, cal_beta, cal_histogram).
_CALIBRATORS = {_e.function.rpartition(".")[2]: _dask_face(_resolve(_e.dask))
                for _e in _methods() if _e.dask}
globals().update(_CALIBRATORS)

# Every public name of pycalib_r either has a Dask version above, is shared
# as is (classes, predict() which maps Dask collections lazily, summary(),
# the R streams, options and show_config), or is refused with the alternative (the table
# in pycalib_r/dask/_refusals.py).
_SHARED = ("CalTest", "CalCI", "EceCI", "Calibrator", "predict", "summary", "RRandom", "set_seed",
           "runif", "rnorm", "rbinom", "sample", "sample_int", "rexp", "rgamma", "rbeta", "rchisq",
           "rt", "rf", "rpois", "rgeom", "rnbinom", "rhyper", "rmultinom", "rlogis", "rweibull",
           "rcauchy", "rlnorm", "rng_kind", "get_random_seed", "set_random_seed", "next_rng_stream",
           "next_rng_substream", "options", "get_option", "show_config", "ProbcalError", "BrierScore",
           "ReliabilityDiag", "CorpSummary", "SmoothReliability", "ValProb", "ValProbG", "HoslemTest",
           "CalInterceptSlope")
for _name in _SHARED:
    globals()[_name] = getattr(_pc, _name)
for _name in _REFUSED:
    globals()[_name] = _refused(_name)

__all__ = ["ece", "mce", "ace", "reliability_table", "ece_ci", "skce", "cal_test",
           *_CALIBRATORS, "brier", "spiegelhalter_z", "hoslem_test", "DaskRefusal"]
__all__ += list(_REFUSED) + list(_SHARED)

for _package in ("dask", "dask_expr"):
    _register(_package, _predict_lazy)
del _name, _package

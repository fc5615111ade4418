"""pycalib_r: probcal's calibration of binary and multiclass probabilities, with R's numbers.

A Python port of the R package probcal: the same function names, argument
names, defaults, values, error messages and printed output as R, and R's
random streams (``set_seed``, ``runif``, ``rbinom``, ...) bit for bit.
"""

from ._diagnostics import reliability_diagram, reliability_table
from ._errors import ProbcalError
from ._inference import CalCI, CalTest, cal_ci, cal_test
from ._kernel import skce
from ._metrics import ace, ece, inv_logit, logit, mce, mmce
from ._options import get_option, options
from ._rng import (
    RRandom,
    get_random_seed,
    next_rng_stream,
    next_rng_substream,
    rbinom,
    rng_kind,
    rnorm,
    runif,
    sample,
    sample_int,
    set_random_seed,
    set_seed,
)
from .calibrators import (
    Calibrator,
    cal_beta,
    cal_cv,
    cal_dirichlet,
    cal_histogram,
    cal_isotonic,
    cal_ovr,
    cal_platt,
    cal_temperature,
    cal_vector_scaling,
    predict,
    summary,
)

__version__ = "0.2.0"

__all__ = [
    # metrics
    "ace",
    "ece",
    "mce",
    "mmce",
    "skce",
    "logit",
    "inv_logit",
    # inference
    "cal_test",
    "cal_ci",
    "CalTest",
    "CalCI",
    # calibrators
    "Calibrator",
    "cal_beta",
    "cal_cv",
    "cal_dirichlet",
    "cal_histogram",
    "cal_isotonic",
    "cal_ovr",
    "cal_platt",
    "cal_temperature",
    "cal_vector_scaling",
    "predict",
    "summary",
    # diagnostics
    "reliability_diagram",
    "reliability_table",
    # R-compatible random streams
    "RRandom",
    "set_seed",
    "runif",
    "rnorm",
    "rbinom",
    "sample",
    "sample_int",
    "rng_kind",
    "get_random_seed",
    "set_random_seed",
    "next_rng_stream",
    "next_rng_substream",
    # options and errors
    "options",
    "get_option",
    "ProbcalError",
]

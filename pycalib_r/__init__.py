"""pycalib_r: probcal's calibration of binary and multiclass probabilities, with R's numbers."""

from ._errors import ProbcalError
from .calibrators import (
    Calibrator,
    cal_beta,
    cal_histogram,
    cal_isotonic,
    cal_platt,
    cal_temperature,
    predict,
    summary,
)
from ._diagnostics import reliability_diagram, reliability_table
from ._metrics import ace, ece, inv_logit, logit, mce, mmce
from ._options import get_option, options
from ._rng import RRandom, rbinom, rnorm, runif, sample, sample_int, set_seed

__version__ = "0.2.0"

__all__ = [
    "ProbcalError",
    "ace",
    "ece",
    "inv_logit",
    "logit",
    "mce",
    "mmce",
    "get_option",
    "options",
    "reliability_diagram",
    "reliability_table",
    "RRandom",
    "rbinom",
    "rnorm",
    "runif",
    "sample",
    "sample_int",
    "set_seed",
    "Calibrator",
    "cal_beta",
    "cal_histogram",
    "cal_isotonic",
    "cal_platt",
    "cal_temperature",
    "predict",
    "summary",
]

"""pycalib_r: probcal's calibration of binary and multiclass probabilities, with R's numbers."""

from ._errors import ProbcalError
from ._metrics import ace, ece, inv_logit, logit, mce, mmce

__version__ = "0.2.0"

__all__ = [
    "ProbcalError",
    "ace",
    "ece",
    "inv_logit",
    "logit",
    "mce",
    "mmce",
]

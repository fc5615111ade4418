"""pycalib_r: probcal's calibration of binary and multiclass probabilities, with R's numbers."""

from ._errors import ProbcalError
from ._diagnostics import reliability_diagram, reliability_table
from ._metrics import ace, ece, inv_logit, logit, mce, mmce
from ._options import get_option, options

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
]

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 NAMESPACE, R/*.R, man/*.Rd (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""pycalib_r: probcal's calibration of binary and multiclass probabilities, with R's numbers.

A Python port of the R package probcal: the same function names, argument
names, defaults, values, error messages and printed output as R, and R's
random streams (``set_seed``, ``runif``, ``rbinom``, ...) bit for bit.
"""

from .binned._brier import BrierScore, brier_score
from .binned._calibration_error import calibration_error
from .diagnostics._corp import CorpSummary, ReliabilityDiag, reliabilitydiag
from .diagnostics._diagnostics import reliability_diagram, reliability_table
from .inference._ece_interval import EceCI, ece_ci
from .rbase._errors import ProbcalError
from .inference._inference import CalCI, CalTest, cal_ci, cal_test
from .diagnostics._hoslem import HoslemTest, hoslem_test
from .kernel._skce import skce
from .binned._metrics import ace, ece, inv_logit, logit, mce, mmce
from .rbase._options import get_option, options
from ._native import show_config
from .diagnostics._smece import SmoothReliability, smece, smooth_reliability_diagram
from .diagnostics._validation import CalInterceptSlope, ValProb, cal_intercept_slope, val_prob
from .diagnostics._val_probg import ValProbG
from .clinical import CalibrationCurve, val_prob_ci
from .clinical import PmCalibration, cal_metrics, pmcalibration
from ._rng import (
    RRandom,
    get_random_seed,
    next_rng_stream,
    next_rng_substream,
    rbeta,
    rbinom,
    rcauchy,
    rchisq,
    rexp,
    rf,
    rgamma,
    rgeom,
    rhyper,
    rlnorm,
    rlogis,
    rmultinom,
    rnbinom,
    rng_kind,
    rnorm,
    rpois,
    rt,
    runif,
    rweibull,
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
    cal_scaling_binning,
    cal_temperature,
    cal_vector_scaling,
    cal_venn_abers,
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
    # inference beyond R (Python-only: no probcal counterpart)
    "ece_ci",
    "EceCI",
    "calibration_error",
    "brier_score",
    "BrierScore",
    "cal_scaling_binning",
    "cal_venn_abers",
    # validation statistics (rms::val.prob, ResourceSelection::hoslem.test, glm)
    "val_prob",
    "ValProb",
    "ValProbG",
    "hoslem_test",
    "HoslemTest",
    "cal_intercept_slope",
    "CalInterceptSlope",
    # clinical calibration curves (CalibrationCurves::val.prob.ci.2)
    "val_prob_ci",
    "CalibrationCurve",
    # clinical calibration curves (pmcalibration)
    "pmcalibration",
    "cal_metrics",
    "PmCalibration",
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
    # bin-free diagnostics: CORP (R's reliabilitydiag) and the smooth ECE (Python-only)
    "reliabilitydiag",
    "ReliabilityDiag",
    "CorpSummary",
    "smece",
    "smooth_reliability_diagram",
    "SmoothReliability",
    # R-compatible random streams
    "RRandom",
    "set_seed",
    "runif",
    "rnorm",
    "rbinom",
    "sample",
    "sample_int",
    "rexp",
    "rgamma",
    "rbeta",
    "rchisq",
    "rt",
    "rf",
    "rpois",
    "rgeom",
    "rnbinom",
    "rhyper",
    "rmultinom",
    "rlogis",
    "rweibull",
    "rcauchy",
    "rlnorm",
    "rng_kind",
    "get_random_seed",
    "set_random_seed",
    "next_rng_stream",
    "next_rng_substream",
    # options and errors
    "options",
    "get_option",
    "ProbcalError",
    # the computing path (Python-only)
    "show_config",
]

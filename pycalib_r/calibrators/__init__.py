"""probcal's calibrators: one module per family, all built on :class:`Calibrator`.

Every ``cal_*`` function returns a :class:`Calibrator` subclass whose
components follow R's list (attributes, and items under R's names);
:func:`predict` and :func:`summary` are the R generics. The fits they rest on
(``glm.fit``, ``optim``, ``isoreg``) are in :mod:`pycalib_r.rstats`.
"""

from ._base import Calibrator, CalibratorSummary, new_calibrator, predict, summary
from ._beta import CalBeta, cal_beta
from ._cv import cal_cv
from ._dirichlet import cal_dirichlet
from ._histogram import CalHistogram, cal_histogram
from ._isotonic import CalIsotonic, IsoregFit, cal_isotonic
from ._ovr import cal_ovr
from ._platt import CalPlatt, GlmFit, cal_platt
from ._scaling_binning import CalScalingBinning, cal_scaling_binning
from ._temperature import CalTemperature, cal_temperature
from ._vector_scaling import cal_vector_scaling
from ._venn_abers import CalVennAbers, cal_venn_abers

__all__ = [
    "Calibrator",
    "CalibratorSummary",
    "new_calibrator",
    "predict",
    "summary",
    "cal_platt",
    "cal_temperature",
    "cal_beta",
    "cal_isotonic",
    "cal_histogram",
    "cal_vector_scaling",
    "cal_dirichlet",
    "cal_ovr",
    "cal_cv",
    "cal_scaling_binning",
    "CalScalingBinning",
    "cal_venn_abers",
    "CalVennAbers",
    "CalPlatt",
    "CalTemperature",
    "CalBeta",
    "CalIsotonic",
    "CalHistogram",
    "GlmFit",
    "IsoregFit",
]

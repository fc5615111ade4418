"""Clinical calibration curves: CalibrationCurves' ``val.prob.ci.2`` and pmcalibration's curve and indices.

R equivalent: ``CalibrationCurves::val.prob.ci.2()`` and the R package
pmcalibration (``pmcalibration()``, ``cal_metrics()``).
"""

from ._pmcalibration import PmCalibration, cal_metrics, pmcalibration
from ._val_prob_ci import CalibrationCurve, val_prob_ci

__all__ = ["val_prob_ci", "CalibrationCurve", "pmcalibration", "cal_metrics", "PmCalibration"]

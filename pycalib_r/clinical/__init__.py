"""Clinical calibration curves: pmcalibration's curve and indices.

R equivalent: the R package pmcalibration (``pmcalibration()``,
``cal_metrics()``).
"""

from ._pmcalibration import PmCalibration, cal_metrics, pmcalibration

__all__ = ["pmcalibration", "cal_metrics", "PmCalibration"]

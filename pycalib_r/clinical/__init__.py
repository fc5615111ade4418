"""Clinical calibration curves: CalibrationCurves' ``val.prob.ci.2`` (and pmcalibration)."""

from ._val_prob_ci import CalibrationCurve, val_prob_ci

__all__ = ["val_prob_ci", "CalibrationCurve"]

"""probcal's calibrators: one module per family, all built on :class:`Calibrator`."""

from ._base import Calibrator, CalibratorSummary, predict, summary

__all__ = ["Calibrator", "CalibratorSummary", "predict", "summary"]

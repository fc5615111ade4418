"""What pycalib_r.dask does not compute, in one table, and the one exception it raises.

Every refusal of :mod:`pycalib_r.dask` (a function, an argument value or an
input form that would need every row or every pair at once) raises
:class:`DaskRefusal`, naming the alternative, before any data is read.
``DaskRefusal`` is a :class:`~pycalib_r.ProbcalError` (so a ``ValueError``,
as the package's other errors) and also a ``NotImplementedError``: code that
caught either before keeps working.

To refuse another in-memory function, or to drop one from the table once
it has a Dask version, edit :data:`REFUSED` only:
``pycalib_r.dask`` builds its refusing functions from it.

R equivalent: none (R's probcal holds its data in memory).
"""

from __future__ import annotations

from typing import Callable, Dict, Tuple

from ..rbase._errors import ProbcalError

__all__ = ["DaskRefusal", "REFUSED", "refused", "refuse"]


class DaskRefusal(ProbcalError, NotImplementedError):
    """A call pycalib_r.dask does not make on Dask collections; the message names the alternative.

    A :class:`~pycalib_r.ProbcalError` (a ``ValueError``) and a
    ``NotImplementedError``. Python-only.
    """


_SAMPLE = ("compute it with pycalib_r.{name} on a sample that fits in memory "
           "(e.g. ddf.sample(frac=...).compute()).")
_PREDICT = " Its predict() maps Dask collections lazily."

# name -> (why it is not computed on Dask collections, what to do instead).
REFUSED: Dict[str, Tuple[str, str]] = {
    "cal_ci": ("its bootstrap resamples every row with replacement n_boot times",
               "Use the in-memory pycalib_r.cal_ci on a sample; for large n the binned metrics "
               "of pycalib_r.dask have sampling error of order 1/sqrt(n)."),
    "cal_cv": ("cross-validation needs random folds over all rows", "C" + _SAMPLE[1:].format(name="cal_cv")),
    "cal_isotonic": ("isotonic regression sorts all rows and pools adjacent violators across the "
                     "whole sample",
                     "Use pycalib_r.dask.cal_histogram (equal_freq bins) or cal_beta, or "
                     + _SAMPLE.format(name="cal_isotonic")),
    "cal_ovr": ("multiclass calibrators are fitted in memory",
                "C" + _SAMPLE[1:].format(name="cal_ovr") + _PREDICT),
    "cal_dirichlet": ("its BFGS needs the gradient over every row of every class at each step",
                      "C" + _SAMPLE[1:].format(name="cal_dirichlet") + _PREDICT),
    "cal_vector_scaling": ("its BFGS needs the gradient over every row of every class at each step",
                           "C" + _SAMPLE[1:].format(name="cal_vector_scaling") + _PREDICT),
    "mmce": ("it sums the kernel over all n^2 pairs",
             "Use pycalib_r.dask.skce(p, y, estimator='ul') (linear time, unbiased), or "
             + _SAMPLE.format(name="mmce")),
    "calibration_error": ("its equal-mass bins and debiasing draws are not yet computed from "
                          "chunk sums",
                          "Use pycalib_r.dask.ece (equal widths or equal_freq), or "
                          + _SAMPLE.format(name="calibration_error")),
    "brier_score": ("its decomposition bins the predictions by their distinct values",
                    "Use pycalib_r.dask.brier for the score itself, or "
                    + _SAMPLE.format(name="brier_score")),
    "cal_scaling_binning": ("its uniform-mass bins are cut at the sorted scaled outputs of the fit "
                            "rows", "C" + _SAMPLE[1:].format(name="cal_scaling_binning") + _PREDICT),
    "cal_venn_abers": ("its isotonic fits run over the whole sorted calibration set",
                       "C" + _SAMPLE[1:].format(name="cal_venn_abers") + _PREDICT),
    "reliabilitydiag": ("the CORP curve is a pool-adjacent-violators fit over the whole sorted "
                        "sample, which no merge of chunk sums gives",
                        "C" + _SAMPLE[1:].format(name="reliabilitydiag")),
    "smece": ("its bandwidth search and kernel smoothing need every prediction at once",
              "Use pycalib_r.dask.ece for a binned error, or " + _SAMPLE.format(name="smece")),
    "smooth_reliability_diagram": ("its kernel smoothing needs every prediction at once",
                                   "C" + _SAMPLE[1:].format(name="smooth_reliability_diagram")),
    "val_prob": ("lowess (Emax, E90, Eavg) fits each point on the nearest two thirds of the sorted "
                 "data and lrm.fit iterates, and the grouped statistics (group=, weights=) fit "
                 "R's loess on each group and take weighted quantiles and ranks of the whole "
                 "group, so none is a merge of chunk sums",
                 "Use pycalib_r.dask.brier, spiegelhalter_z and hoslem_test, or "
                 + _SAMPLE.format(name="val_prob")),
    "cal_intercept_slope": ("its profile intervals refit the glm at each profile step",
                            "C" + _SAMPLE[1:].format(name="cal_intercept_slope")
                            + " The slope's fit alone is pycalib_r.dask.cal_platt on logits."),
    "pmcalibration": ("its calibration curve (a glm on a spline basis whose knots are quantiles "
                      "of all rows, lowess or loess) and its bootstrap need every row at once, "
                      "and its E50/E90 are exact quantiles of all rows",
                      "C" + _SAMPLE[1:].format(name="pmcalibration")
                      + " (the curve and indices of a random sample estimate the population's, "
                      "with the sample's own bootstrap interval)."),
    "val_prob_ci": ("its loess or spline calibration curve fits each point on its neighbours "
                    "among all rows, lrm.fit iterates, and the c-statistic's interval ranks "
                    "every event against every non-event",
                    "C" + _SAMPLE[1:].format(name="val_prob_ci")
                    + " (the curve and indices of a random sample estimate the population's)."),
    "cal_metrics": ("its E50 and E90 are exact quantiles of the absolute differences between p and p_c over all rows",
                    "C" + _SAMPLE[1:].format(name="cal_metrics")),
    "reliability_diagram": ("it draws every row's bin from in-memory data",
                            "Draw pycalib_r.reliability_diagram on a sample, or plot the "
                            "columns of pycalib_r.dask.reliability_table(p, y) (one pass, "
                            "O(bins) numbers)."),
    "logit": ("it maps in-memory arrays",
              "Map it over the chunks lazily: x.map_blocks(pycalib_r.logit) (Dask array) or "
              "s.map_partitions(pycalib_r.logit) (Dask Series)."),
    "inv_logit": ("it maps in-memory arrays",
                  "Map it over the chunks lazily: x.map_blocks(pycalib_r.inv_logit) (Dask array) "
                  "or s.map_partitions(pycalib_r.inv_logit) (Dask Series)."),
}


def refuse(message: str) -> DaskRefusal:
    """The refusal to raise, with ``message`` (what is not computed and the alternative)."""
    return DaskRefusal(message)


def refused(name: str) -> Callable:
    """A function ``name`` that raises its :data:`REFUSED` refusal, reading no data."""
    why, instead = REFUSED[name]

    def refuse_call(*args, **kwargs):
        raise DaskRefusal(f"pycalib_r.dask.{name}() is not available: {why}. {instead} "
                          "No data was read.")

    refuse_call.__name__ = refuse_call.__qualname__ = name
    refuse_call.__doc__ = (f"Refused on Dask collections: {why}.\n\n{instead}\n\n"
                           f"Raises :class:`pycalib_r.dask.DaskRefusal`.\n\n"
                           f"R equivalent: ``probcal::{name}()`` (in memory: ``pycalib_r.{name}``).\n")
    return refuse_call

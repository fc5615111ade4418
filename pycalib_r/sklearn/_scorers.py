# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: scikit-learn scorers around val_prob, whose module carries its own header
"""scikit-learn scorers for the ``val.prob`` statistics that are scores.

A statistic is a score when a model is better the larger (or the smaller) it
is: Brier, the c index, Somers' Dxy, R2, the discrimination D, the
unreliability U, the quality Q = D - U, and the lowess errors Emax, E90 and
Eavg, and the calibration curve's indices ICI (Eavg) and ECI of
:func:`pycalib_r.pmcalibration` (``ici``, ``eci``). The calibration intercept and slope have targets (0 and 1), and
Spiegelhalter's z and the Hosmer-Lemeshow statistic are tests: they are not
scores, and :func:`make_validation_scorer` refuses them saying so.

Each function takes scikit-learn's arguments (``y_true`` first, labels as
given, ``pos_label``, ``labels``; the label handling is
:mod:`pycalib_r.sklearn`'s) and returns ``val_prob(p, y)[name]`` exactly.
Part of :mod:`pycalib_r.sklearn` (which imports scikit-learn).
"""

from __future__ import annotations

__all__ = ["VALIDATION_SCORES", "make_validation_scorer"]

# name -> (R's name in val.prob's vector, greater is better)
VALIDATION_SCORES = {
    "brier": ("Brier", False),
    "c_index": ("C (ROC)", True),
    "somers_dxy": ("Dxy", True),
    "r2": ("R2", True),
    "discrimination_d": ("D", True),
    "unreliability_u": ("U", False),
    "quality_q": ("Q", True),
    "emax": ("Emax", False),
    "e90": ("E90", False),
    "eavg": ("Eavg", False),
}

# name -> (pmcalibration's metric, greater is better): the indices of the
# calibration curve (pmcalibration(y, p, smooth = "loess", ci = "none")).
CURVE_SCORES = {
    "ici": ("Eavg", False),
    "eci": ("ECI", False),
}

_NOT_SCORES = {
    "Intercept": "the calibration intercept has a target (0), not a direction: a score would "
                 "reward miscalibration on one side; compare it with 0 (cal_intercept_slope)",
    "Slope": "the calibration slope has a target (1), not a direction; use |slope - 1| "
             "yourself or cal_intercept_slope's intervals",
    "S:z": "Spiegelhalter's z is a test statistic (target 0, either sign); use its p-value",
    "S:p": "a p-value is not a measure of model quality",
    "hoslem": "the Hosmer-Lemeshow statistic is a test statistic depending on g and n",
}


def _binary_inputs(y_true, y_prob, pos_label, labels):
    from ._metrics import _metric_inputs

    p, y = _metric_inputs(y_true, y_prob, pos_label, labels)
    if getattr(p, "ndim", 1) != 1:
        raise ValueError("val.prob's statistics are for binary problems: pass the positive "
                         "class's probabilities (or a 2-column predict_proba).")
    return p, y


def _statistic(name: str, r_name: str, better: str):
    def score(y_true, y_prob, *, pos_label=None, labels=None, sample_weight=None):
        from .. import val_prob

        if sample_weight is not None:
            # rms::val.prob uses its weights only for grouped statistics: these
            # scores have none, and ignoring sample_weight would misreport.
            from ..inputs._weights import refuse_weights

            refuse_weights(f"{name}_score", {"sample_weight": sample_weight},
                           f"rms::val.prob's {r_name} takes no observation weights (val.prob "
                           "uses its weights only with `group`).")
        p, y = _binary_inputs(y_true, y_prob, pos_label, labels)
        return float(val_prob(p, y)[r_name])

    score.__name__ = score.__qualname__ = f"{name}_score"
    score.__doc__ = f"""``val.prob``'s ``{r_name}`` in scikit-learn's argument order ({better} is better).

    R equivalent: ``rms::val.prob(p, y)["{r_name}"]`` with ``p``/``y`` recoded
    from scikit-learn's labels (:func:`pycalib_r.val_prob`'s value exactly).
    ``sample_weight`` is refused with a ``ProbcalError`` saying why (val.prob
    weighs only its grouped statistics), rather than ignored.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> from pycalib_r.sklearn._scorers import {name}_score
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> {name}_score(["yes" if v else "no" for v in y], p, pos_label="yes") == pc.val_prob(p, y)["{r_name}"]
    True
    """
    return score


for _name, (_r_name, _greater) in VALIDATION_SCORES.items():
    globals()[f"{_name}_score"] = _statistic(_name, _r_name, "larger" if _greater else "smaller")
    __all__.append(f"{_name}_score")
del _name, _r_name, _greater


def _curve_statistic(name: str, r_name: str):
    def score(y_true, y_prob, *, pos_label=None, labels=None, smooth="loess"):
        from .. import pmcalibration

        p, y = _binary_inputs(y_true, y_prob, pos_label, labels)
        return float(pmcalibration(y, p, smooth=smooth, ci="none", eval=0).metrics[r_name])

    score.__name__ = score.__qualname__ = f"{name}_score"
    score.__doc__ = f"""pmcalibration's ``{r_name}`` in scikit-learn's argument order (smaller is better).

    R equivalent: ``pmcalibration::pmcalibration(y, p, smooth = "loess", ci =
    "none")$metrics["{r_name}"]`` with ``p``/``y`` recoded from scikit-learn's
    labels (:func:`pycalib_r.pmcalibration`'s value exactly; ``smooth=``
    takes its other R-exact smooths).
    """
    return score


for _name, (_r_name, _greater) in CURVE_SCORES.items():
    globals()[f"{_name}_score"] = _curve_statistic(_name, _r_name)
    __all__.append(f"{_name}_score")
del _name, _r_name, _greater


def make_validation_scorer(name: str):
    """A scikit-learn scorer for one ``val.prob`` statistic that is a score,
    or for the calibration curve's ``ici``/``eci`` (:func:`pycalib_r.pmcalibration`).

    Python-only (scikit-learn face): ``make_scorer(<name>_score,
    greater_is_better=..., response_method="predict_proba")``; the direction
    is the statistic's (scikit-learn negates the lower-is-better ones).
    Statistics that are not scores (``Intercept``, ``Slope``, ``S:z``,
    ``S:p``, ``hoslem``) are refused with the reason.

    Examples
    --------
    >>> from pycalib_r.sklearn import make_validation_scorer
    >>> scorer = make_validation_scorer("brier")
    >>> make_validation_scorer("Slope")
    Traceback (most recent call last):
    ...
    ValueError: 'Slope' is not a score: the calibration slope has a target (1), not a direction; use |slope - 1| yourself or cal_intercept_slope's intervals
    """
    if name in _NOT_SCORES:
        raise ValueError(f"{name!r} is not a score: {_NOT_SCORES[name]}")
    if name not in VALIDATION_SCORES and name not in CURVE_SCORES:
        raise ValueError(f"unknown statistic {name!r}; the scores are "
                         f"{sorted(VALIDATION_SCORES) + sorted(CURVE_SCORES)}")
    from sklearn.metrics import make_scorer

    _, greater = VALIDATION_SCORES.get(name) or CURVE_SCORES[name]
    return make_scorer(globals()[f"{name}_score"], greater_is_better=greater,
                       response_method="predict_proba")

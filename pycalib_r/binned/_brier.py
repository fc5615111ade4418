# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: uncertainty-calibration 0.1.4 calibration/utils.py, calibration/calibrators.py (MIT), (c) 2019 Ananya Kumar
"""The Brier score (mean-squared error) and its calibration/sharpness decomposition.

Python-only (probcal has no counterpart): the trade-off Kumar, Liang & Ma
(2019) discuss between the calibration error and the mean-squared error.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._calibration_error import check_ce_bins, input_problems, problem_bins
from ._weighted import positive_rows, weighted_problem_bins
from ..inputs._checks import match_arg
from ..inputs._hints import python_face

__all__ = ["brier_score", "BrierScore", "BRIER_TYPES"]

BRIER_TYPES = ("marginal", "top")


class BrierScore(NamedTuple):
    """:func:`brier_score`'s result: ``brier = calibration + sharpness + within``.

    Attributes
    ----------
    brier : float
        The mean-squared error.
    calibration : float
        The plug-in squared l2 calibration error of the bins (reliability).
    sharpness : float
        ``sum_b (n_b / n) acc_b (1 - acc_b)``, the binned estimate of
        ``E[Var(Y | f(X))]``, equal to ``uncertainty - resolution``.
    within : float
        What the bins leave out (the spread and label covariance of the
        predictions inside each bin); 0 for a binned model with ``bins="unique"``.
    resolution, uncertainty : float
        Murphy's (1973) terms: ``sum_b (n_b / n) (acc_b - ybar)^2`` and
        ``ybar (1 - ybar)`` (summed over classes for the marginal form).
    """

    brier: float
    calibration: float
    sharpness: float
    within: float
    resolution: float
    uncertainty: float

    def __str__(self) -> str:
        return (f"Brier score {self.brier:.7g} = calibration {self.calibration:.7g}"
                f" + sharpness {self.sharpness:.7g} + within-bin {self.within:.7g}\n"
                f"(resolution {self.resolution:.7g}, uncertainty {self.uncertainty:.7g})")


@python_face
def brier_score(p, y, type="marginal", bins="auto", strategy="equal_mass",
                weights=None) -> BrierScore:
    r"""Brier score (mean-squared error) with the decomposition Kumar et al. use.

    Python-only: probcal has no counterpart.

    Binary: :math:`\mathrm{MSE} = \frac1n \sum_i (p_i - y_i)^2`. Multiclass
    (``type="marginal"``): Brier's (1950) score :math:`\frac1n \sum_i
    \sum_k (p_{ik} - [y_i = k])^2`, the sum of the one-vs-rest scores (the
    authors' ``eval_marginal_mse`` is half of it); ``type="top"``: the
    binary score of the top-label probability against correctness (their
    ``eval_top_mse``). Rows need not sum to one.

    With bins of each binary problem holding :math:`n_b` predictions of
    mean :math:`\bar r_b` and label mean :math:`\bar c_b`,

    .. math:: \mathrm{MSE} = \underbrace{\sum_b \tfrac{n_b}{n} (\bar r_b - \bar c_b)^2}_{\text{calibration}}
              + \underbrace{\sum_b \tfrac{n_b}{n} \bar c_b (1 - \bar c_b)}_{\text{sharpness}}
              + \text{within},

    the sample form of :math:`\mathrm{MSE} = \mathrm{CE}^2 + E[\mathrm{Var}(Y
    \mid f(X))]` (the paper's Section 2); ``within`` collects what the bins
    average away and is 0 for a binned model with ``bins="unique"``.

    Parameters
    ----------
    p : array_like
        A probability vector, or a matrix with one column per class.
    y : array_like
        0/1 labels, or class codes ``1..K`` or a pandas Categorical.
    type : {"marginal", "top"}
        Multiclass form; ignored for a vector ``p``.
    bins, strategy
        The bins of the decomposition, as in :func:`calibration_error`. The
        default ``"auto"`` (the authors' ``get_calibration_error`` rule) is
        ``"unique"`` for a binned model's outputs (fewer than n/4 distinct
        values in every column: scaling-binning, histogram binning), where
        the decomposition is exact, and 15 uniform-mass bins otherwise.
        ``"unique"`` on continuous predictions makes every prediction its
        own bin, whose label mean is its 0/1 label: the calibration term is
        then the whole score and sharpness 0, whatever the model (a
        calibrated model of uniform predictions shows calibration 0.169,
        against 0.001 with 15 bins). The terms are the paper's
        :math:`\mathrm{CE}^2` and :math:`E[\mathrm{Var}(Y \mid f(X))]` only
        when each bin averages several labels. Releases up to 0.2.x
        defaulted to ``"unique"``.

    Returns
    -------
    BrierScore

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of
    probability. *Monthly Weather Review*, 78(1), 1-3.

    Murphy, A. H. (1973). A new vector partition of the probability score.
    *Journal of Applied Meteorology*, 12(4), 595-600.

    Kumar, A., Liang, P., & Ma, T. (2019). Verified uncertainty calibration.
    In *Advances in Neural Information Processing Systems 32* (NeurIPS 2019).

    Examples
    --------
    >>> import pycalib_r as pc
    >>> b = pc.brier_score([0.2, 0.2, 0.8, 0.8], [0, 1, 1, 1], bins="unique")
    >>> print(f"{b.brier:.7g} = {b.calibration:.7g} + {b.sharpness:.7g} + {b.within:.1g}")
    0.19 = 0.065 + 0.125 + 6e-17

    A calibrated model with continuous predictions: most of the score is
    sharpness (the default bins), none of it with one bin per prediction.

    >>> pc.set_seed(8)
    >>> p = pc.runif(2000)
    >>> y = pc.rbinom(2000, 1, p)
    >>> b = pc.brier_score(p, y)
    >>> print(f"calibration {b.calibration:.3f} + sharpness {b.sharpness:.3f}")
    calibration 0.001 + sharpness 0.168
    >>> b = pc.brier_score(p, y, bins="unique")
    >>> print(f"calibration {b.calibration:.3f} + sharpness {b.sharpness:.3f}")
    calibration 0.169 + sharpness 0.000
    """
    type = match_arg(type, BRIER_TYPES, arg="type")
    bins, strategy = check_ce_bins(bins, strategy)
    total = np.zeros(6)
    if weights is not None:
        _, problems, _, bins, w = input_problems(p, y, type, bins=bins, weights=weights)
        for r, c in problems:
            total += _one_weighted(r, c, w, bins, strategy)
    else:
        _, problems, _, bins = input_problems(p, y, type, bins=bins)
        for r, c in problems:
            total += _one(r, c, bins, strategy)
    brier, cal, sharp, res, unc = total[0], total[1], total[2], total[3], total[4]
    return BrierScore(float(brier), float(cal), float(sharp), float(brier - cal - sharp),
                      float(res), float(unc))


def _one(r, c, bins, strategy):
    counts, conf, acc = problem_bins(r, c, bins, strategy)
    w = counts / counts.sum()
    ybar = float(np.mean(c))
    return np.array([
        float(np.mean((r - c) ** 2)),
        float(np.sum(w * (conf - acc) ** 2)),
        float(np.sum(w * acc * (1 - acc))),
        float(np.sum(w * (acc - ybar) ** 2)),
        ybar * (1 - ybar),
        0.0,
    ])


def _one_weighted(r, c, w, bins, strategy):
    """:func:`_one` with observation weights (rows of weight 0 dropped first)."""
    counts, conf, acc = weighted_problem_bins(r, c, w, bins, strategy)
    w, r, c = positive_rows(w, r, c)
    total = float(np.sum(w))
    share = counts / counts.sum()
    ybar = float(np.sum(w * c) / total)
    return np.array([
        float(np.sum(w * (r - c) ** 2) / total),
        float(np.sum(share * (conf - acc) ** 2)),
        float(np.sum(share * acc * (1 - acc))),
        float(np.sum(share * (acc - ybar) ** 2)),
        ybar * (1 - ybar),
        0.0,
    ])

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/*.R (cal_isotonic) (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: R 4.2.2 src/library/stats/R/isoreg.R, src/library/stats/src/isoreg.c, src/library/stats/R/approx.R (GPL-2.0-or-later), (c) The R Core Team
"""Isotonic calibration: R's ``isoreg()`` fit, tie collapsing and ``approx()`` prediction."""

from __future__ import annotations

import numpy as np

from ..binned._binning import stable_order
from ..inputs._checks import check_binary_y, check_probability, check_same_length
from ..rstats import IsoregFit, isoreg
from ..rstats import approx_linear as _approx_linear
from ..rstats import isoreg_kernels as _fill_kernels
from ..rstats import order_keys as _order_keys
from ..rstats import sorted_pairs as _sorted_pairs
from ..rbase._rlist import RList
from ..inputs._weights import check_weights
from ._base import Calibrator, as_character, format_call, new_calibrator, r_mean
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_isotonic", "CalIsotonic", "IsoregFit", "isoreg"]


def _ordered(p: np.ndarray, y: np.ndarray):
    """``p[o]`` and ``y[o]`` for ``o = order(p, -y)`` (R's stable order).

    Observations with equal keys (:func:`_order_keys`) have the same ``p``
    and the same label, so any order among them gives the same two arrays:
    the keys themselves are sorted (numpy's unstable sort of uint64, much
    cheaper than a stable argsort) and decoded, ``p`` from the upper 63 bits
    (a non-negative double's bits) and the label from the lowest. A -0 in
    ``p`` (its sign not in the key; R keeps it) takes the stable argsort.
    """
    if p.dtype != np.float64 or np.signbit(p).any():
        order = stable_order(_order_keys(p, y))
        return p[order], y[order]
    return _sorted_pairs(p, y)


def _trimmed(a: np.ndarray, size: int) -> np.ndarray:
    """``a[:size]``, copied when that frees most of ``a``."""
    return a[:size] if size > a.size // 2 else a[:size].copy()


def _r_mean_runs(values: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """R ``mean()`` of each run, computed only where a run varies (a constant run's mean is its value)."""
    out = values[starts].copy()
    ends = starts + lengths
    for i in np.flatnonzero(lengths > 1):
        seg = values[starts[i]:ends[i]]
        if np.all(seg == seg[0]):
            continue
        out[i] = r_mean(seg)
    return out


class CalIsotonic(Calibrator):
    """A fitted isotonic calibrator (R class ``c("cal_isotonic", "calibrator")``).

    Components (R order): ``method``, ``n``, ``input``, ``x_thresholds``
    (unique training probabilities), ``y_calibrated`` (fitted value per
    threshold), ``fit`` (:class:`IsoregFit`), ``call``.
    """

    r_class = "cal_isotonic"

    def _predict(self, newdata):
        # R's approx() returns a plain vector whatever the shape of newdata,
        # taking a matrix column by column.
        v = check_probability(newdata, arg="newdata").ravel(order="F")
        if self.x_thresholds.size == 1:
            out = np.repeat(self.y_calibrated, v.size)
        else:
            out = _approx_linear(self.x_thresholds, self.y_calibrated, v)
            out = np.minimum(np.maximum(out, 0.0), 1.0)
        return out

    def summary_params(self):
        return {"Thresholds": as_character(int(self.x_thresholds.size))}


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_isotonic(p, y, weights=None) -> CalIsotonic:
    """Isotonic-regression calibration with linear interpolation between thresholds.

    R equivalent: ``probcal::cal_isotonic(p, y)``.

    Parameters
    ----------
    p : array_like
        Uncalibrated probabilities in ``[0, 1]``.
    y : array_like
        Binary labels coded 0/1 (or bools); both classes must occur.
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive sum;
        else a ``ProbcalError`` naming ``weights``): the fit minimises
        ``sum_i w_i (y_i - m_i)^2`` by weighted pool-adjacent-violators, tied
        probabilities pooled first (weighted mean of their labels). A row of
        weight 0 changes nothing (its probability is no threshold), a row of
        integer weight ``k`` counts as ``k`` copies of it (the same fitted
        values, bit for bit); ``None`` (the default) is R's fit, bit for bit.
        It equals scikit-learn's ``IsotonicRegression(sample_weight=)``
        (tests/calibrators/test_weights_calibrators.py). Base R has no weighted PAV
        (``isoreg`` takes none); ``fit`` is then an ``IsoregFit`` of the
        pooled data (``x`` the thresholds, ``y`` their weighted label means,
        ``yf`` the fitted values, ``yc`` the cumulative weighted label sums,
        ``iKnots`` the block ends) with ``call`` saying so.

    Returns
    -------
    CalIsotonic
        Components ``method``, ``n``, ``input``, ``x_thresholds`` (the unique
        training probabilities, increasing), ``y_calibrated`` (the fitted value
        at each), ``fit`` (R's ``isoreg`` object, an :class:`IsoregFit`),
        ``call``. ``predict(fit, newdata)`` gives calibrated probabilities.

    Notes
    -----
    Observations are ordered by ``p`` with positive labels first among ties
    (R's ``order(p, -y)``, a stable sort), and the nondecreasing fit
    ``m_1 <= ... <= m_n`` minimising ``sum_i (y_(i) - m_i)^2`` is computed
    (R's ``stats::isoreg``, whose greatest-convex-minorant algorithm gives
    the pool-adjacent-violators solution; with 0/1 labels every fitted value
    is a ratio of integers, computed here exactly as R's doubles). The fitted
    values are clipped to ``[0, 1]`` and collapsed to one value per unique
    probability by R's ``mean`` over each tie run. Because a tie run is
    ordered 1s before 0s, PAVA already gives it a single value, so this is
    the same fit as pooling tied ``p`` first (the "secondary" treatment of
    ties).

    Prediction is R's ``approx(x_thresholds, y_calibrated, xout = newdata,
    method = "linear", yleft = first, yright = last, ties = "ordered")``:
    linear interpolation between thresholds (not the PAVA step function),
    constant beyond the training range, clipped to ``[0, 1]``; with a single
    unique training probability the prediction is that one value everywhere.

    Other implementations: scikit-learn's ``IsotonicRegression(
    out_of_bounds="clip")``, which ``CalibratedClassifierCV(method=
    "isotonic")`` uses, pools tied ``x`` and interpolates linearly too, so
    its binary map equals this one (largest difference 1.1e-16 over 20
    samples of 200 rounded probabilities with ties, 501 query points each).

    References
    ----------
    Zadrozny, B., & Elkan, C. (2002). Transforming classifier scores into
    accurate multiclass probability estimates. In *Proceedings of the Eighth
    ACM SIGKDD International Conference on Knowledge Discovery and Data
    Mining* (pp. 694-699). doi:10.1145/775047.775151.

    Barlow, R. E., Bartholomew, D. J., Bremner, J. M., & Brunk, H. D.
    (1972). *Statistical Inference under Order Restrictions*. Wiley.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(4)
    >>> p = pc.runif(120)
    >>> y = pc.rbinom(120, 1, p)
    >>> fit = pc.cal_isotonic(p, y)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: isotonic regression
    Observations: 120
    Input: probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Thresholds: 120
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [0.1, 0.5, 0.9])))
    0 0.5294118 1

    R: ``set.seed(4); p <- runif(120); y <- rbinom(120, 1, p); fit <-
    cal_isotonic(p, y); summary(fit)`` prints the same text and
    ``predict(fit, c(0.1, 0.5, 0.9))`` the same values.
    """
    p_arr = check_probability(p, arg="p").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(p_arr, y_arr, x_arg="p", y_arg="y")
    w = check_weights(weights, y_arr.size)
    if w is not None:
        return _cal_isotonic_weighted(p_arr, y_arr, w)
    p_ord, y_ord = _ordered(p_arr, y_arr)
    fit = isoreg(p_ord, y_ord)
    # R's pmin(pmax(yf, 0), 1): each yf is sums / counts with 0 <= sums <= counts,
    # already in [0, 1] (never -0), so the clip leaves every bit as it is.
    fitted = fit.yf
    x_thresholds = y_fitted = None
    kern = _fill_kernels(p_ord.size)
    if kern is not None:
        thresholds, values = np.empty(p_ord.size), np.empty(p_ord.size)
        runs, n_varying = kern.tie_runs(p_ord, fitted, thresholds, values, np.empty(p_ord.size, dtype=np.int64))
        if not n_varying:  # (a tie run is 1s then 0s, which PAVA pools: always)
            x_thresholds, y_fitted = _trimmed(thresholds, runs), _trimmed(values, runs)
    if x_thresholds is None:
        # rle(): a run ends where the next value differs; R keeps each run's last value.
        breaks = np.flatnonzero(p_ord[1:] != p_ord[:-1])
        run_ends = np.concatenate((breaks, [p_ord.size - 1]))
        run_starts = np.concatenate(([0], breaks + 1))
        lengths = run_ends - run_starts + 1
        y_fitted = _r_mean_runs(fitted, run_starts, lengths)
        x_thresholds = p_ord[run_ends].copy()
    return new_calibrator(
        CalIsotonic,
        method="isotonic regression",
        n=y_arr.size,
        input="probabilities",
        x_thresholds=x_thresholds,
        y_calibrated=y_fitted,
        fit=fit,
        call=format_call("cal_isotonic", ("p", "y")),
    )


def _cal_isotonic_weighted(p_arr: np.ndarray, y_arr: np.ndarray, w: np.ndarray) -> CalIsotonic:
    """``cal_isotonic(p, y, weights = w)``: weighted PAV on the tie-pooled probabilities."""
    from ._weighted import require_weighted_classes, weighted_binary_isotonic  # noqa: PLC0415

    require_weighted_classes(y_arr, w, (0, 1))
    x, wy, wsum, fitted, ends = weighted_binary_isotonic(p_arr, y_arr.astype(np.float64), w)
    # As R's pmin(pmax(yf, 0), 1): a weighted mean of 0/1 labels may round a hair outside.
    fitted = np.minimum(np.maximum(fitted, 0.0), 1.0)
    fit = IsoregFit(x=x, y=wy / wsum, yf=fitted, yc=np.concatenate(([0.0], np.cumsum(wy))),
                    iKnots=ends, isOrd=True, ord=None, call="weighted PAV of the tie-pooled data (Python-only)")
    return new_calibrator(
        CalIsotonic,
        method="isotonic regression",
        n=y_arr.size,
        input="probabilities",
        x_thresholds=x,
        y_calibrated=fitted.copy(),
        fit=fit,
        call=format_call("cal_isotonic", ("p", "y", "weights")),
    )

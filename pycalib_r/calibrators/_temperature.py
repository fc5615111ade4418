# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/scaling.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: R 4.2.2 src/library/stats/src/optimize.c (Brent_fmin) (GPL-2.0-or-later), (c) The R Core Team
"""Temperature scaling (binary and multiclass), optimised as R's ``optim(method = "Brent")``."""

from __future__ import annotations

import math
import numbers

import numpy as np

from .. import _native
from ..rbase._rarith import X87 as _X87, NATIVE_MIN_SIZE, expect_elementwise, r_mean
from ..inputs._checks import (
    as_numeric_vector,
    check_binary_y,
    check_logit_matrix,
    check_newdata_columns,
    check_same_length,
    is_matrix,
    multiclass_labels,
)
from ..rbase._errors import ProbcalError
from ..inputs._logit_input import warn_if_probabilities
from ._base import (
    MULTICLASS,
    Calibrator,
    clip_eps,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    plogis,
    r_log,
    r_log1p,
    r_sum,
    rounded,
    softmax,
)
from ..inputs._weights import check_weights
from ..rstats import optim_brent
from ..inputs._hints import python_face
from ..rbase._rcalls import r_arguments

__all__ = ["cal_temperature", "CalTemperature"]

_LOSS_EPS = 1e-15  # binary_log_loss()'s default clipping
LOSS_EPS = _LOSS_EPS  # the name other rooms import (public inside the package)
# Rows from which the compiled objective's terms are computed on several
# cores (a piece must outweigh the ~20 us of handing it to a thread).
_SPLIT_MIN = 50_000
# probcal's search interval for the temperature.
_LOWER = 1e-3
_UPPER = 1e3


class CalTemperature(Calibrator):
    """A fitted temperature-scaling calibrator.

    R class ``c("cal_temperature", "calibrator")`` for binary fits and
    ``c("cal_temperature", "cal_multiclass", "calibrator")`` for multiclass
    fits. Components (R order): ``method``, ``n``, ``input``,
    ``temperature``, ``value``, ``convergence``, then for multiclass ``k``
    and ``levels``, and ``call``.
    """

    r_class = "cal_temperature"

    def _predict(self, newdata):
        if self.inherits("cal_multiclass") or is_matrix(newdata):
            mat = check_logit_matrix(newdata, arg="newdata")
            k = self.get("k")
            if k is None:
                # R compares ncol(newdata) with a NULL `k` and `if ()` fails.
                raise ProbcalError("argument is of length zero")
            check_newdata_columns(mat, k)
            # The fit's own warning for probabilities given as logits.
            warn_if_probabilities(mat, "predict", arg="newdata", matrix=True, step="taken")
            temperature = self._temperature_operand()
            with np.errstate(all="ignore"):  # R's x / 0 is Inf without a word
                return softmax(mat / temperature)
        z = as_numeric_vector(newdata, arg="newdata")
        warn_if_probabilities(z, "predict", arg="newdata", step="taken")
        temperature = self._temperature_operand()
        with np.errstate(all="ignore"):  # x / 0: R's +-Inf (or NaN), refused below
            scaled = z / temperature
        # R's inv_logit() checks its argument: huge logits over a small
        # temperature overflow to +-Inf and are refused, as in R.
        return plogis(as_numeric_vector(scaled, arg="x"))

    def _temperature_operand(self):
        """``fit$temperature`` as R's ``/`` takes it: a number (or logical)."""
        t = self.temperature
        if isinstance(t, (str, bytes)) or not (
                isinstance(t, (numbers.Real, np.ndarray)) and np.asarray(t).dtype.kind in "biuf"):
            raise ProbcalError("non-numeric argument to binary operator")
        return t

    def summary_params(self):
        return {"Temperature": rounded(self.temperature, 4)}


def _fit_temperature(objective):
    """R's ``optim(par = 1, objective, method = "Brent", lower = 1e-3, upper = 1e3)``
    and the check on its result, as both ``cal_temperature()`` branches make them.

    Returns ``(temperature, value, convergence)``.
    """
    temperature, value, convergence = optim_brent(objective, _LOWER, _UPPER)
    if not math.isfinite(temperature) or temperature <= 0:
        raise ProbcalError("The fitted temperature must be positive and finite.")
    return temperature, value, convergence


fit_temperature = _fit_temperature  # the name other rooms import (public inside the package)


@python_face
@r_arguments  # a keyword it does not take: R's "unused argument (foo = 1)"
def cal_temperature(logits, y, weights=None) -> CalTemperature:
    """Temperature scaling: one positive temperature fitted by maximum likelihood.

    R equivalent: ``probcal::cal_temperature(logits, y)``.

    A vector of logits gives binary temperature scaling
    (``inv_logit(logits / T)``); a matrix (2-D array or DataFrame, one column
    per class) gives multiclass temperature scaling (``softmax(logits / T)``).

    Parameters
    ----------
    logits : array_like
        Binary: a vector of finite logits (``logit(p)`` of probabilities).
        Multiclass: an n x K matrix of logits (``log(p)`` of strictly positive
        probability rows is one; probabilities themselves are not accepted).
    y : array_like
        Binary: labels 0/1. Multiclass: integer codes 1..K or a pandas
        Categorical (column k is category k).
    weights : array_like, optional
        Python-only. Observation weights (finite, non-negative, positive sum,
        and for binary ``y`` both classes keeping a positive total; else a
        ``ProbcalError`` naming ``weights``): the binary objective becomes the weighted sum
        ``-sum_i w_i [...]``, the multiclass one the weighted mean
        ``-sum_i w_i log q_(i, y_i)(T) / sum_i w_i``. A row of weight 0
        changes nothing, a row of integer weight ``k`` counts as ``k`` copies
        (the same objective up to the rounding of its sum, so ``T`` agrees
        to Brent's tolerance, about 1.5e-8 relative, not bit for bit);
        ``None`` (the default) is R's fit, bit for bit.

    Returns
    -------
    CalTemperature
        Components ``method``, ``n``, ``input``, ``temperature``, ``value``
        (the minimised objective), ``convergence`` (0), then for multiclass
        ``k`` and ``levels``, and ``call``. ``predict(fit, newdata)``: a vector
        of probabilities (binary) or an n x K matrix of class probabilities
        (multiclass; a DataFrame with the class levels as columns when
        ``newdata`` is a DataFrame).

    Notes
    -----
    Binary, with logits ``z_i`` and labels ``y_i``::

        q_i(T) = inv_logit(z_i / T)
        T = argmin over 1e-3 <= T <= 1e3 of
            -sum_i [y_i * log(q_i(T)) + (1 - y_i) * log(1 - q_i(T))]

    (the summed log loss). Multiclass, with logits ``z_ik``::

        q_ik(T) = exp(z_ik / T) / sum_l exp(z_il / T)
        T = argmin over 1e-3 <= T <= 1e3 of  -(1/n) sum_i log(q_{i, y_i}(T))

    (the mean log loss). Probabilities entering a logarithm are clipped to
    ``[1e-15, 1 - 1e-15]``. The search is R's
    ``optim(par = 1, method = "Brent", lower = 1e-3, upper = 1e3)``: Brent's
    golden-section and parabolic minimiser (R's ``optimize``, ``Brent_fmin``)
    on ``T`` itself (not on ``log T``; the start value 1 is unused), with
    ``tol = sqrt(.Machine$double.eps)``, about 1.5e-8. The port repeats
    Brent's steps on R's arithmetic, so ``T`` is R's. A fit at an end of the
    interval is returned without a warning, as in R: ``T`` near 1e3 says the
    logits carry no information about ``y``, ``T`` near 1e-3 that the logits
    (nearly) separate the classes. Dividing every logit
    by the same ``T > 0`` keeps their order, so the predicted class does not
    change; ``T > 1`` softens the probabilities and ``T < 1`` sharpens them.

    Other implementations: Guo et al. (2017) fit the multiclass form, as
    here, with no bias. scikit-learn's
    ``CalibratedClassifierCV(method="temperature")`` (1.8 and later)
    optimises ``log(1 / T)`` and turns a 1-D decision function ``x`` into the
    two logits ``(-x, x)``, so on the same binary scores its temperature is
    twice probcal's (checked on the example below: ratio 2 within 3e-8).

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y., & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. In *Proceedings of the 34th International
    Conference on Machine Learning* (PMLR 70, pp. 1321-1330).

    Examples
    --------
    Binary: the logits below are twice as sharp as the truth, so ``T`` is
    about 2.

    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(2)
    >>> logits = pc.rnorm(120, sd=3)
    >>> y = pc.rbinom(120, 1, pc.inv_logit(logits / 2))
    >>> fit = pc.cal_temperature(logits, y)
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: temperature scaling
    Observations: 120
    Input: logits
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    Temperature: 2.2047
    >>> print(f"{fit.temperature:.7g}")
    2.204673
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [-3, 0, 3])))
    0.2041191 0.5 0.7958809

    Multiclass (R fills ``matrix(v, ncol = 3)`` column by column, hence
    ``order="F"``; ``max.col(m, ties.method = "first")`` is
    ``argmax + 1``):

    >>> pc.set_seed(20)
    >>> z = np.reshape(pc.rnorm(150 * 3, sd=2), (150, 3), order="F")
    >>> noise = np.reshape(pc.rnorm(150 * 3), (150, 3), order="F")
    >>> labels = np.argmax(z + noise, axis=1) + 1
    >>> mc = pc.cal_temperature(z, labels)
    >>> print(mc)
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: multiclass temperature scaling
    Observations: 150
    Input: logits (matrix)
    Classes: 3
    >>> print(f"{mc.temperature:.7g}")
    0.9227503
    >>> for row in pc.predict(mc, z[:2]):
    ...     print(" ".join(f"{v:.7g}" for v in row))
    0.507696 0.4195575 0.07274647
    0.1471678 0.08173775 0.7710945

    R: ``set.seed(2); logits <- rnorm(120, sd = 3); y <- rbinom(120, 1,
    inv_logit(logits / 2)); fit <- cal_temperature(logits, y); summary(fit)``
    prints the same text; then ``set.seed(20); z <- matrix(rnorm(450, sd =
    2), ncol = 3); labels <- max.col(z + matrix(rnorm(450), ncol = 3),
    ties.method = "first"); mc <- cal_temperature(z, labels)`` gives
    ``mc$temperature`` 0.9227503 and the same ``predict(mc, z[1:2, ])``.
    """
    if is_matrix(logits):
        return _cal_temperature_multiclass(logits, y, weights)
    z = as_numeric_vector(logits, arg="logits").ravel()
    y_arr = check_binary_y(y, arg="y", require_both=True)
    check_same_length(z, y_arr, x_arg="logits", y_arg="y")
    w = check_weights(weights, y_arr.size)
    if w is not None:
        from ._weighted import require_weighted_classes  # noqa: PLC0415
        require_weighted_classes(y_arr, w, (0, 1))
    warn_if_probabilities(z, "cal_temperature")

    objective = _binary_objective(z, y_arr) if w is None else _binary_objective_weighted(z, y_arr, w)
    temperature, value, convergence = _fit_temperature(objective)
    return new_calibrator(
        CalTemperature,
        method="temperature scaling",
        n=y_arr.size,
        input="logits",
        temperature=temperature,
        value=value,
        convergence=convergence,
        call=format_call("cal_temperature", ("logits", "y", "weights") if w is not None else ("logits", "y")),
    )


def _binary_objective_weighted(z: np.ndarray, y_arr: np.ndarray, w: np.ndarray):
    """``T -> -sum(w * log-likelihood terms)``: :func:`_binary_objective`'s
    numpy terms, each multiplied by its row's weight before R's sum."""
    ones = np.flatnonzero(y_arr == 1)
    zeros = np.flatnonzero(y_arr != 1)
    z_ones, z_zeros = z[ones], z[zeros]
    terms = np.empty(z.size)

    def objective(temperature: float) -> float:
        terms[ones] = r_log(clip_eps(plogis(z_ones / temperature), _LOSS_EPS))
        terms[zeros] = r_log1p(-clip_eps(plogis(z_zeros / temperature), _LOSS_EPS))
        return -r_sum(w * terms)

    return objective


def _binary_objective(z: np.ndarray, y_arr: np.ndarray, jit=None):
    """``T -> binary_log_loss(plogis(z / T), y)`` as R evaluates it, for Brent.

    The split by label is done once instead of at every one of Brent's
    evaluations: each term is the one logarithm its 0/1 label keeps (R adds
    it to an exact 0), and the terms are summed in R's order, in long double
    as R's ``sum()``. ``jit`` (default: from ``n`` rows up) uses the compiled
    loop, which gives the same bits as the numpy expression.
    """
    ones = np.flatnonzero(y_arr == 1)
    zeros = np.flatnonzero(y_arr != 1)
    z_ones, z_zeros = z[ones], z[zeros]
    terms = np.empty(z.size)
    kern = None
    if jit is None:
        jit = z.size >= NATIVE_MIN_SIZE
    if jit:
        kern = _native.kernels("temperature")
    if kern is None:
        # Brent's 20-30 evaluations, two elementwise passes each.
        expect_elementwise(z.size * 2 * 26)
    if kern is not None:
        fill = kern.binary_temperature_terms
        # Each term is computed alone, so cutting the rows into pieces that
        # run on different cores gives the same terms; the sum stays one
        # sequential pass in R's order.
        k = _native.parts() if z.size >= _SPLIT_MIN else 1
        cut1 = np.linspace(0, ones.size, k + 1).astype(np.int64)
        cut0 = np.linspace(0, zeros.size, k + 1).astype(np.int64)
        pieces = []
        for a1, b1, a0, b0 in zip(cut1[:-1], cut1[1:], cut0[:-1], cut0[1:]):
            pieces.append((z_ones[a1:b1], ones[a1:b1], z_zeros[a0:b0], zeros[a0:b0],
                           np.empty(max(b1 - a1, b0 - a0, 1))))

        def objective(temperature: float) -> float:
            t = float(temperature)
            _native.run_parts([lambda q=q: fill(q[0], q[1], q[2], q[3], t, _LOSS_EPS, terms, q[4])
                               for q in pieces])
            return -r_sum(terms)

        return objective

    def objective(temperature: float) -> float:
        terms[ones] = r_log(clip_eps(plogis(z_ones / temperature), _LOSS_EPS))
        terms[zeros] = r_log1p(-clip_eps(plogis(z_zeros / temperature), _LOSS_EPS))
        return -r_sum(terms)

    return objective


def _multiclass_objective(mat: np.ndarray, codes: np.ndarray, jit=None):
    """``T -> multiclass_log_loss(softmax(mat / T), codes)`` as R evaluates it.

    From ``NATIVE_MIN_SIZE`` elements (or ``jit=True``) one compiled pass per
    evaluation (``_native.temperature``: row by row, no n x K temporaries,
    the same bits) where the kernels are built and the x87 unit is there.
    """
    kern = None
    if jit is None:
        jit = mat.size >= NATIVE_MIN_SIZE
    if jit and _X87:
        kern = _native.kernels("temperature")
    if kern is None:
        def objective(temperature: float) -> float:
            return multiclass_log_loss(softmax(mat / temperature), codes)

        return objective
    mat_c = np.ascontiguousarray(mat, dtype=np.float64)
    codes_c = np.ascontiguousarray(codes, dtype=np.int64)
    n = mat_c.shape[0]
    terms = np.empty(n)
    fill = kern.multiclass_temperature_terms
    # Rows in pieces on the process's cores (each term is computed alone;
    # the mean stays one sequential pass afterwards, in R's order).
    k = _native.parts() if n >= _SPLIT_MIN else 1
    cuts = np.linspace(0, n, k + 1).astype(np.int64)
    pieces = [(int(a), int(b), np.empty(2 * mat_c.shape[1] * kern.BLOCK)) for a, b in zip(cuts[:-1], cuts[1:])]
    fast = kern.fast_exp_ok()

    def objective(temperature: float) -> float:
        t = float(temperature)
        _native.run_parts([lambda q=q: fill(mat_c, codes_c, t, _LOSS_EPS, terms, q[2], q[0], q[1], fast)
                           for q in pieces])
        return -r_mean(terms)

    return objective


def _cal_temperature_multiclass(logits, y, weights=None) -> CalTemperature:
    mat = check_logit_matrix(logits, arg="logits")
    labels = multiclass_labels(mat, y, x_arg="logits")
    codes = labels.codes
    w = check_weights(weights, mat.shape[0])
    warn_if_probabilities(mat, "cal_temperature", matrix=True)

    if w is None:
        objective = _multiclass_objective(mat, codes)
    else:
        from ._weighted import weighted_multiclass_log_loss  # noqa: PLC0415

        def objective(temperature: float) -> float:
            return weighted_multiclass_log_loss(softmax(mat / temperature), codes, w)
    temperature, value, convergence = _fit_temperature(objective)
    return new_calibrator(
        CalTemperature,
        method="multiclass temperature scaling",
        n=mat.shape[0],
        input="logits (matrix)",
        temperature=temperature,
        value=value,
        convergence=convergence,
        k=labels.k,
        levels=list(labels.levels),
        call=format_call("cal_temperature", ("logits", "y", "weights") if w is not None else ("logits", "y")),
        _r_classes=("cal_temperature",) + MULTICLASS,
    )

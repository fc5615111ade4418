# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/multiclass.R, R/cv.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""One-vs-rest multiclass calibration built from the binary calibrators.

R equivalent: ``probcal::cal_ovr()`` (``R/multiclass.R``), its
``predict()`` method and the internal ``fit_calibrator()`` (``R/cv.R``).
"""

from __future__ import annotations

import numpy as np

from ..inputs._checks import (
    ProbcalError,
    check_logit_matrix,
    check_newdata_columns,
    match_arg,
    multiclass_labels,
)
from ..inputs import as_matrix as _as_matrix
from ..inputs._hints import check_unused_arguments, warn_unused_dots
from ..inputs._weights import check_weights
from ..inputs._logit_input import once_per_call
from ._base import (  # noqa: F401 - renormalize_rows re-exported
    MULTICLASS,
    Calibrator,
    format_call,
    new_calibrator,
    renormalize_rows,
)

__all__ = ["cal_ovr", "CalOvr", "fit_calibrator", "renormalize_rows"]

from ._methods import OVR_METHODS, PY_OVR_METHODS
from ..inputs._hints import python_face

_INPUT = {
    "platt": "scores or probabilities (matrix)",
    "temperature": "logits (matrix)",
}


def fit_calibrator(method: str, x, y, weights=None, **kwargs) -> Calibrator:
    """Fit one binary calibrator by method name.

    R equivalent: probcal's internal ``fit_calibrator(method, x, y, ...)``.
    As in R, the extra arguments reach only ``cal_beta()`` (``eps``) and
    ``cal_histogram()`` (``bins``, ``strategy``); the other methods take none
    and ignore them. ``weights`` (Python-only) reaches every method.
    """
    # Imported here: the binary calibrators live in sibling modules that do
    # not depend on this one, and importing lazily keeps start-up cheap.
    # `._plain`: each without its export layers (the caller has them).
    if method == "platt":
        from ._platt import cal_platt
        return cal_platt._plain(x=x, y=y, weights=weights)
    if method == "temperature":
        from ._temperature import cal_temperature
        return cal_temperature._plain(logits=x, y=y, weights=weights)
    if method == "beta":
        from ._beta import cal_beta
        check_unused_arguments(kwargs, ("eps",))
        return cal_beta._plain(p=x, y=y, weights=weights, **kwargs)
    if method == "isotonic":
        from ._isotonic import cal_isotonic
        return cal_isotonic._plain(p=x, y=y, weights=weights)
    if method == "histogram":
        from ._histogram import cal_histogram
        check_unused_arguments(kwargs, ("bins", "strategy"))
        return cal_histogram._plain(p=x, y=y, weights=weights, **kwargs)
    if method == "scaling_binning":  # Python-only (cal_cv)
        from ._methods import SCALING_BINNING_ARGS
        from ._scaling_binning import cal_scaling_binning
        check_unused_arguments(kwargs, SCALING_BINNING_ARGS)
        return cal_scaling_binning._plain(p=x, y=y, weights=weights, **kwargs)
    if method == "venn_abers":  # Python-only (cal_cv, cal_ovr)
        from ._venn_abers import cal_venn_abers
        check_unused_arguments(kwargs, ("type",))
        if weights is not None:
            raise ProbcalError("Venn-ABERS takes no `weights`: its validity guarantee is for "
                               "exchangeable, unweighted observations.")
        return cal_venn_abers._plain(p=x, y=y, **kwargs)
    raise ValueError(f"unknown binary calibration method {method!r}")  # pragma: no cover


class CalOvr(Calibrator):
    """A fitted one-vs-rest calibrator.

    R class ``c("cal_ovr", "cal_multiclass", "calibrator")``. Components
    (R order): ``method`` (``"one-vs-rest "`` + the binary method's name),
    ``n``, ``input``, ``base_method``, ``calibrators`` (list of K binary
    calibrators, class k against the rest), ``k``, ``levels``, ``call``.
    """

    r_class = "cal_ovr"

    def _predict(self, newdata):
        mat = _as_matrix(newdata, "newdata",
                         "Argument `newdata` must be a numeric matrix with one column per class.")
        check_newdata_columns(mat, self.k)
        columns = [np.asarray(cal.predict(mat[:, j]), dtype=np.float64)
                   for j, cal in enumerate(self.calibrators)]
        if not self.get("renormalize", True):
            return np.column_stack(columns)  # Python-only: cal_ovr(renormalize=False)
        return renormalize_rows(np.column_stack(columns))

    def summary_params(self):
        return {"BaseMethod": self.base_method}


@python_face
@once_per_call
def cal_ovr(x, y, method=OVR_METHODS, *, renormalize=True, weights=None, **kwargs) -> CalOvr:
    """One-vs-rest calibration: a binary calibrator per class, rows renormalised to sum to one.

    R equivalent: ``probcal::cal_ovr(x, y, method = c("platt", "beta",
    "isotonic", "histogram", "temperature"), ...)``.

    Parameters
    ----------
    x : array_like or pandas.DataFrame
        n x K matrix of per-class values: scores or probabilities for
        ``"platt"``, probabilities in ``[0, 1]`` for ``"beta"``,
        ``"isotonic"`` and ``"histogram"``, binary one-vs-rest logits for
        ``"temperature"``. Rows need not sum to one.
    y : array_like or pandas.Categorical
        Integer class codes ``1..K`` or a pandas Categorical; every class must
        occur.
    method : str, default "platt"
        The binary calibrator; a unique prefix is accepted (R's
        ``match.arg``). Python-only: ``"venn_abers"`` (exact name),
        :func:`cal_venn_abers` per column (``type`` through ``**kwargs``);
        the renormalised rows are then ``cal_venn_abers(multiclass=
        "one_vs_rest")``'s up to rounding (R's long-double row sums).
    renormalize : bool, default True
        Python-only, a deviation from R when False: ``predict()`` returns
        the K binary calibrators' outputs as they are, rows not divided by
        their sums. R always renormalises; the renormalised rows are no
        longer the per-class maps (Kumar, Liang & Ma 2019 calibrate
        marginally and do not renormalise), and binned maps stop being
        binned, so their calibration error can no longer be measured from
        a sample, only bounded below; it may be higher or lower
        (docs/verified_calibration.md measures both). Keyword only; stored
        as the component ``renormalize`` only when False, so R's components
        are unchanged.
    weights : array_like, optional
        Python-only, keyword only. Observation weights (finite,
        non-negative, positive sum, every class and its rest keeping a
        positive total; else a ``ProbcalError`` naming ``weights``), given
        to each of the K binary fits (see their ``weights``): a row of
        weight 0 changes nothing, a row of integer weight ``k`` counts as
        ``k`` copies (to each binary method's tolerance); ``None`` (the
        default) is R's fit, bit for bit.
    **kwargs
        Passed to the binary calibrator as R passes ``...``: ``eps`` to
        ``cal_beta``, ``bins``/``strategy`` to ``cal_histogram``; ignored by
        the other methods, as in R, but with a ``UserWarning`` naming them.

    Returns
    -------
    CalOvr
        Components ``method`` (``"one-vs-rest "`` + the binary method's
        name), ``n``, ``input``, ``base_method``, ``calibrators`` (K binary
        calibrators), ``k``, ``levels``, ``call``. ``predict(fit, newdata)``
        gives an n x K numpy array whose rows sum to one (a DataFrame with the
        class levels as columns when ``newdata`` is a DataFrame).

    Raises
    ------
    ProbcalError
        R's messages: ``x`` not a numeric matrix, fewer than two columns,
        missing or infinite values, bad labels, a row-count mismatch, values
        outside ``[0, 1]`` for a probability method, or a class absent from
        ``y``.

    Notes
    -----
    For each class ``k`` the binary calibrator ``f_k`` is fitted to column
    ``k`` of ``x`` against the labels ``y_i^(k) = [y_i == k]``. On new data
    each calibrator is applied to its own column, ``r_ik = f_k(x_ik)``, and
    every row is divided by its sum (R's internal ``renormalize_rows``)::

        S_i = sum_l r_il
        q_ik = r_ik / S_i      if S_i is finite and non-zero
        q_ik = 1 / K           otherwise (the uniform fallback)

    so the output is always on the simplex. The renormalised columns are no
    longer the binary calibrators' outputs, and the reduction does not by
    itself make the probabilities jointly (or classwise) calibrated.

    Other implementations: scikit-learn's ``CalibratedClassifierCV`` with
    ``method="sigmoid"`` or ``"isotonic"`` does the same for K >= 3 (divide
    by the row sum, uniform ``1 / K`` where the sum is 0); with two classes
    it fits one calibrator and sets ``p_0 = 1 - p_1``, whereas ``cal_ovr()``
    always fits K calibrators and renormalises.

    References
    ----------
    Zadrozny, B., & Elkan, C. (2002). Transforming classifier scores into
    accurate multiclass probability estimates. In *Proceedings of the Eighth
    ACM SIGKDD International Conference on Knowledge Discovery and Data
    Mining* (pp. 694-699). doi:10.1145/775047.775151.

    Examples
    --------
    >>> import numpy as np
    >>> import pycalib_r as pc
    >>> pc.set_seed(21)
    >>> raw = np.reshape(pc.runif(150 * 3), (150, 3), order="F")
    >>> raw = raw / raw.sum(axis=1, keepdims=True)
    >>> jitter = np.reshape(pc.runif(150 * 3, max=0.5), (150, 3), order="F")
    >>> labels = np.argmax(raw + jitter, axis=1) + 1
    >>> fit = pc.cal_ovr(raw, labels, method="isotonic")
    >>> print(pc.summary(fit))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: one-vs-rest isotonic regression
    Observations: 150
    Input: probabilities (matrix)
    Classes: 3
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    BaseMethod: isotonic
    >>> for row in pc.predict(fit, raw[:2]):
    ...     print(" ".join(f"{v:.7g}" for v in row))
    0.5611052 0.08182784 0.357067
    0.7437092 0.2562908 0

    R: ``set.seed(21); raw <- matrix(runif(450), ncol = 3); raw <- raw /
    rowSums(raw); labels <- max.col(raw + matrix(runif(450, max = 0.5), ncol
    = 3), ties.method = "first"); fit <- cal_ovr(raw, labels, method =
    "isotonic"); summary(fit)`` prints the same text and
    ``predict(fit, raw[1:2, ])`` the same values.
    """
    if not isinstance(renormalize, (bool, np.bool_)):
        raise ProbcalError("Argument `renormalize` must be `TRUE` or `FALSE`.")
    return _cal_ovr(x, y, method, kwargs, check_dots=True, renormalize=bool(renormalize),
                    weights=weights)


def _cal_ovr(x, y, method, kwargs, check_dots: bool, renormalize: bool = True, weights=None) -> CalOvr:
    """``cal_ovr()``'s body; ``cal_cv()`` calls it with its own check of ``...`` done."""
    method_given = method if isinstance(method, str) else None
    if not (isinstance(method, str) and method in PY_OVR_METHODS):
        method = match_arg(method, OVR_METHODS, arg="method")
    if check_dots:
        warn_unused_dots("cal_ovr", method, kwargs)
    mat = check_logit_matrix(x, arg="x", allow_empty=True)
    labels = multiclass_labels(mat, y, x_arg="x")
    if method in ("beta", "isotonic", "histogram", "venn_abers") and ((mat < 0) | (mat > 1)).any():
        raise ProbcalError(f'Argument `x` must contain probabilities in `[0, 1]` for "{method}".')
    if np.unique(labels.codes).size != labels.k:
        raise ProbcalError("Every class must appear in `y` for one-vs-rest calibration.")
    w = check_weights(weights, mat.shape[0])
    calibrators = []
    if method == "platt" and w is None:
        from ._platt import cal_platt_columns
        calibrators = cal_platt_columns(mat, labels.codes, labels.k)
    for j in range(len(calibrators) + 1, labels.k + 1):
        target = (labels.codes == j).astype(np.int64)
        calibrators.append(fit_calibrator(method, mat[:, j - 1].copy(), target, weights=w, **kwargs))
    return new_calibrator(
        CalOvr,
        method="one-vs-rest " + calibrators[0].method,
        n=mat.shape[0],
        input=_INPUT.get(method, "probabilities (matrix)"),
        base_method=method,
        calibrators=calibrators,
        k=labels.k,
        levels=list(labels.levels),
        **({} if renormalize else {"renormalize": False}),
        call=format_call("cal_ovr", ("x", "y", "weights") if w is not None else ("x", "y"),
                         method=method_given, **kwargs,
                         **({} if renormalize else {"renormalize": False})),
        _r_classes=("cal_ovr",) + MULTICLASS,
    )

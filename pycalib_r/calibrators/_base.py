# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/utils.R, R/print.R, R/predict.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
# Derived from: R 4.2.2 src/main/summary.c, src/main/array.c (GPL-2.0-or-later), (c) The R Core Team
"""The calibrator base class, R's ``print``/``summary`` text, and R-exact numerics.

probcal represents every fitted calibrator as an R list with class
``c(<subclass>, "calibrator")`` built by ``new_calibrator()``; the list always
starts with ``method``, ``n`` and ``input`` and ends with ``call``.
:class:`Calibrator` mirrors that: the components are kept in R's order,
are attributes (dots in R names become underscores) and are also items under
their R names (``fit["x_thresholds"]``).

The module also holds what several calibrator families share: the checks
every multiclass calibrator makes (R repeats them in each function; here
they are written once), and the small numerical building blocks that must
reproduce R's floating-point results: R's ``sum``/``mean``/``rowSums``/
``colSums`` accumulate in x87 long double, and R calls the C library's
``exp``, ``log`` and ``log1p`` (numpy's SIMD versions differ from glibc in
the last bit for a few percent of inputs, which is enough to move an
optimiser's path).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np

from ..rbase import _warn as _warnings
from ..rbase import _format
from ..rbase._modules import imported
from ..inputs._align import check_column_order
from ..inputs._hints import python_face
from ._lazy_faces import lazy_predictor
from ..rbase._options import get_option
from ..rbase._rcalls import no_method
from ..rbase._rlist import RList
from ..rbase._rsummary import ListSummary
from ..rbase._format import as_character  # noqa: F401 - re-exported
from ..rbase._rarith import (  # noqa: F401 - re-exported
    col_sums,
    r_exp,
    r_int_mean,
    r_log,
    r_log1p,
    r_mean,
    r_round,
    r_rowsums,
    r_sum,
    seq_sum,
)

__all__ = [
    "Calibrator",
    "CalibratorSummary",
    "predict",
    "summary",
    "new_calibrator",
    "EMOJI_BALANCE",
    "MULTICLASS",
    "r_sum",
    "r_mean",
    "r_int_mean",
    "r_round",
    "r_exp",
    "r_log",
    "r_log1p",
    "r_rowsums",
    "renormalize_rows",
    "col_sums",
    "clip_eps",
    "plogis",
    "softmax",
    "SoftmaxCache",
    "one_hot",
    "binary_log_loss",
    "multiclass_log_loss",
    "as_character",
    "rounded",
    "format_call",
]

EMOJI_BALANCE = "\u2696"

# ---------------------------------------------------------------------------
# Printing (cli's rendering lives in pycalib_r.rbase._format)
# ---------------------------------------------------------------------------


def rounded(x, digits: int = 4) -> str:
    """``round(x, digits)`` as cli shows it: the values of ``summary()``'s parameter block."""
    return as_character(r_round(x, digits))


def _header_items(obj: "Calibrator") -> Dict[str, str]:
    items = {
        "Method": as_character(obj.get("method")),
        "Observations": as_character(obj.get("n")),
        "Input": as_character(obj.get("input")),
    }
    if obj.get("k") is not None:
        items["Classes"] = as_character(obj.get("k"))
    return items


def _print_blocks(obj: "Calibrator") -> list:
    # R: isTRUE(getOption("probcal.emoji", TRUE)) decides the glyph.
    emoji = get_option("probcal.emoji", True)
    prefix = EMOJI_BALANCE + " " if isinstance(emoji, (bool, np.bool_)) and emoji else ""
    return [("h1", prefix + "probcal calibrator"), ("dl", _header_items(obj))]


def _print_text(obj: "Calibrator") -> str:
    return _format.render_blocks(_print_blocks(obj))


def _summary_text(obj: "Calibrator") -> str:
    blocks = _print_blocks(obj) + [("h2", "Parameters")]
    params = obj.summary_params()
    if params:
        blocks.append(("dl", params))
    return _format.render_blocks(blocks)


# ---------------------------------------------------------------------------
# The base class
# ---------------------------------------------------------------------------


class Calibrator(RList):
    """A fitted probcal calibrator.

    R equivalent: the list returned by probcal's internal
    ``new_calibrator(subclass, method, n, input, ..., call)``, with class
    ``c(subclass, "calibrator")`` (multiclass calibrators also carry
    ``"cal_multiclass"``).

    Components are stored in R's order. Each is an attribute (R's dots become
    underscores) and an item under its R name: ``fit.coefficients`` and
    ``fit["coefficients"]`` are the same object. ``str(fit)`` is the text R's
    ``print(fit)`` writes; :func:`summary` gives R's ``summary(fit)`` text.

    Subclasses name themselves with ``r_class = "cal_<name>"`` (expanded to
    R's class tuple; an instance's ``r_class`` is its full ``class()``),
    implement ``_predict(newdata)`` (returning a numpy array) and
    ``summary_params()``. The list accessors, item assignment and
    ``to_dict()`` are :class:`~pycalib_r.rbase._rlist.RList`'s.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> fit = pc.cal_platt(p, y)
    >>> print(fit)
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: Platt scaling
    Observations: 200
    Input: scores or probabilities
    >>> fit.r_classes
    ('cal_platt', 'calibrator')
    >>> fit.keys()
    ['method', 'n', 'input', 'coefficients', 'fit', 'target_pos', 'target_neg', 'call']
    >>> fit["n"], fit.n
    (200, 200)

    R: ``print(fit)`` writes the same text; ``class(fit)`` is
    ``[1] "cal_platt"  "calibrator"`` and ``names(fit)`` lists the same
    components in the same order.
    """

    r_class: Tuple[str, ...] = ("calibrator",)
    # R's first class, the subclass name new_calibrator() is given.
    _subclass: str = "calibrator"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Subclasses name themselves with one string (r_class = "cal_platt");
        # every RList's r_class is a tuple, R's class(), so it is expanded here.
        own = cls.__dict__.get("r_class")
        if isinstance(own, str):
            cls._subclass = own
            cls.r_class = (own, "calibrator")

    def __init__(self, _r_classes: Optional[Tuple[str, ...]] = None, **components: Any):
        if _r_classes is None:
            _r_classes = (self._subclass, "calibrator")
        self.r_class = tuple(_r_classes)
        self._set_components(components.items())

    # -- R list behaviour (keys, items, get, [], in: see RList) ---------------
    @property
    def r_classes(self) -> Tuple[str, ...]:
        """R's ``class(fit)`` (the same tuple as :attr:`r_class`)."""
        return self.r_class

    def inherits(self, what: str) -> bool:
        """R ``inherits(fit, what)``."""
        return what in self.r_class

    # -- behaviour ------------------------------------------------------------
    def _predict(self, newdata):  # pragma: no cover - abstract
        raise NotImplementedError

    @python_face
    def predict(self, newdata):
        """Calibrated probabilities for ``newdata``.

        R equivalent: ``predict(fit, newdata)``.

        A numpy array comes back (1-D for binary calibrators, rows x classes
        for multiclass ones). If ``newdata`` is a pandas Series the result is
        a Series with the same index; if it is a DataFrame the result is a
        DataFrame with the same index and the class levels as columns; a Dask
        collection gives a lazy Dask collection of the same rows (pycalib_r.dask).
        """
        lazy = lazy_predictor(newdata)
        if lazy is not None:
            # A Dask collection maps chunk by chunk, lazily (pycalib_r.dask,
            # reached through the registry: the core imports no face).
            return lazy(self, newdata)
        # Not in R: a DataFrame naming the fitted classes in another order is
        # refused rather than matched by position (pycalib_r.inputs._align).
        check_column_order(newdata, self.get("levels"), "newdata",
                           "the levels the calibrator was fitted with", "list(fit.levels)")
        return _wrap_output(self._predict(newdata), newdata, self.get("levels"))

    def summary_params(self) -> Dict[str, str]:
        """The ``Parameters`` block of ``summary(fit)``, values as R prints them.

        R equivalent: probcal's internal ``cal_summary_params(object)``.
        """
        return {}

    def summary(self) -> "CalibratorSummary":
        return CalibratorSummary(self)

    def to_dict(self, data: bool = False) -> dict:
        """The calibrator's parameters under R's names as plain data (``json.dumps`` accepts it).

        Python-only (R has no such method; ``unclass(fit)`` is the list).

        Parameters
        ----------
        data : bool, default False
            Also give the per-row components: the ``glm`` fit's residuals,
            fitted values, working weights, QR decomposition and training
            labels (``cal_platt``, ``cal_beta``, the scaling step of
            ``cal_scaling_binning``), ``isoreg``'s data (``cal_isotonic``),
            and ``cal_cv``'s ``fold_id`` and ``oof_predictions``, in every
            nested calibrator. They can be as large as the training set (856
            KB of JSON for ``cal_platt`` at n = 5,000), and the training
            labels can be read or recovered from them: share them only on
            purpose. Releases up to 0.2.x always gave them.

        Returns
        -------
        dict
            Without ``data``, what ``predict`` needs and the fit's summary
            (coefficients, deviance, iterations, bins, thresholds, ...).
            ``cal_isotonic``'s map is itself one threshold per distinct
            training prediction (``x_thresholds``, ``y_calibrated``: R's
            components), so it stays as long as those.
        """
        return super().to_dict(data=data)

    def __str__(self) -> str:
        return _print_text(self)

    __repr__ = __str__


class CalibratorSummary:
    """What R's ``summary(fit)`` prints; ``str()`` of it is that text.

    R equivalent: ``summary(fit)`` (``summary.calibrator``), which prints and
    returns the calibrator invisibly; the calibrator is kept in ``.object``.
    """

    def __init__(self, obj: Calibrator):
        self.object = obj

    def __str__(self) -> str:
        return _summary_text(self.object)

    __repr__ = __str__


@python_face
def predict(fit: Calibrator, newdata, **kwargs):
    """Calibrated probabilities from a fitted calibrator.

    Parameters
    ----------
    fit : Calibrator
        A fitted calibrator (``cal_platt()``, ``cal_histogram()``, ...).
    newdata : array_like
        Uncalibrated probabilities or scores: a vector for binary
        calibrators, a matrix or DataFrame with one column per class for
        multiclass ones.
    **kwargs
        Passed to the calibrator's ``predict`` method: ``interval=True``
        for :func:`cal_venn_abers` (Python-only; the other calibrators take
        none and refuse them).

    Returns
    -------
    numpy.ndarray, pandas.Series or pandas.DataFrame
        1-D for binary calibrators, rows x classes for multiclass ones; a
        pandas Series (``newdata``'s index) or DataFrame (the class levels
        as columns) when ``newdata`` is one. See :meth:`Calibrator.predict`.

    R equivalent: ``predict(object, newdata)`` (the probcal methods).

    Notes
    -----
    This is the function form of ``fit.predict(newdata)``, R's generic
    ``predict()``; unlike scikit-learn's ``predict_proba`` it returns only
    the calibrated probabilities R returns (one column per class for
    multiclass fits, one probability per row for binary ones, not two
    columns). R names the matrix columns by the fitted ``levels``; a
    numpy result carries no names, a DataFrame result does.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> fit = pc.cal_platt(p, y)
    >>> print(" ".join(f"{v:.7g}" for v in pc.predict(fit, [0.1, 0.5, 0.9])))
    0.1471689 0.5105067 0.8630724

    R: ``predict(fit, c(0.1, 0.5, 0.9))`` prints
    ``[1] 0.1471689 0.5105067 0.8630724``.
    """
    if not isinstance(fit, Calibrator):
        # R's dispatch error, not "'str' object has no attribute 'predict'"
        raise no_method("predict", fit)
    if kwargs:
        return fit.predict(newdata, **kwargs)
    return fit.predict(newdata)


def summary(fit: Calibrator) -> CalibratorSummary:
    """R ``summary(fit)`` for a calibrator: ``str()``/``print()`` it to see R's text.

    Parameters
    ----------
    fit : Calibrator
        A fitted calibrator.

    Returns
    -------
    CalibratorSummary
        Its ``str()`` is R's printed summary; the calibrator is in ``.object``.

    R equivalent: ``summary(object)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(42)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p)
    >>> print(pc.summary(pc.cal_platt(p, y)))
    <BLANKLINE>
    ── ⚖ probcal calibrator ────────────────────────────────────────────────────────
    Method: Platt scaling
    Observations: 200
    Input: scores or probabilities
    <BLANKLINE>
    ── Parameters ──
    <BLANKLINE>
    (Intercept): -2.2067
    x: 4.4975

    R: ``summary(cal_platt(p, y))`` writes the same text.

    Any other R list (a ``cal_test``, ``cal_ci`` or ``ece_ci`` result, which
    have no summary method in probcal) gives R's ``summary.default`` table:

    >>> print(pc.summary(pc.cal_test(p, y, method="asymptotic")))
              Length Class  Mode     
    statistic 1      -none- numeric  
    p.value   1      -none- numeric  
    method    1      -none- character
    data.name 1      -none- character
    estimate  1      -none- numeric  
    target    1      -none- character

    R: ``summary(cal_test(p, y, method = "asymptotic"))`` prints the same.
    """
    if isinstance(fit, Calibrator):
        return fit.summary()
    if isinstance(fit, RList):
        return ListSummary(fit)
    raise no_method("summary", fit)


def new_calibrator(cls, method: str, n: int, input: str, *, call: Optional[str] = None,
                   _r_classes: Optional[Tuple[str, ...]] = None, **components: Any) -> Calibrator:
    """Build a calibrator with R's component order ``method, n, input, ..., call``.

    R equivalent: probcal's internal ``new_calibrator(subclass, method, n, input, ..., call)``.
    """
    return cls(_r_classes=_r_classes, method=method, n=int(n), input=input,
               **components, call=call)


def format_call(name: str, arrays: Sequence[str] = (), **scalars: Any) -> str:
    """A deparsed-call string for the ``call`` component.

    R stores the unevaluated ``match.call()``; Python has no such object, so
    the component is a string in R's ``deparse`` layout in which each data
    argument appears under its own name (``arrays``) and scalar arguments
    with their values, e.g. ``cal_histogram(p = p, y = y, bins = 5)``.
    Scalars given as ``None`` (left at their default) are omitted. Data
    arguments come first, as in every probcal signature.
    """
    parts = [f"{a} = {a}" for a in arrays]
    for key, value in scalars.items():
        if value is None:
            continue
        if isinstance(value, str):
            text = '"' + value + '"'
        elif isinstance(value, (bool, np.bool_)):
            text = "TRUE" if value else "FALSE"
        else:
            text = as_character(value)
        parts.append(f"{key} = {text}")
    return f"{name}(" + ", ".join(parts) + ")"


def _wrap_output(out, newdata, levels=None):
    pd = imported("pandas")  # newdata is a pandas object only if pandas is imported
    if pd is None:
        return out
    if isinstance(out, np.ndarray) and out.ndim == 1 and isinstance(newdata, pd.Series):
        return pd.Series(out, index=newdata.index, name=newdata.name)
    if isinstance(out, np.ndarray) and out.ndim == 2 and isinstance(newdata, pd.DataFrame):
        columns = list(levels) if levels is not None and len(levels) == out.shape[1] else None
        return pd.DataFrame(out, index=newdata.index, columns=columns)
    return out


def _warn(message: str) -> None:
    """An R warning (``warning(message, call. = FALSE)``) as a Python RuntimeWarning."""
    _warnings.warn(message, RuntimeWarning)


# ---------------------------------------------------------------------------
# Checks shared by the multiclass calibrators
# ---------------------------------------------------------------------------

# The class vector's tail for every multiclass fit: c(<subclass>, "cal_multiclass", "calibrator").
MULTICLASS = ("cal_multiclass", "calibrator")


# ---------------------------------------------------------------------------
# R-exact numerics
# ---------------------------------------------------------------------------

def clip_eps(p, eps: float) -> np.ndarray:
    """``pmin(pmax(p, eps), 1 - eps)``: the clipping of R's ``clip_prob()``, without its checks."""
    return np.minimum(np.maximum(p, eps), 1 - eps)


def plogis(x) -> np.ndarray:
    """R ``plogis(x)``: ``1 / (1 + exp(-x))`` with the C library's ``exp``.

    An overflowing ``exp`` gives 0, as in R, without numpy's warning.
    """
    with np.errstate(over="ignore"):
        return 1 / (1 + r_exp(-x))


def softmax(x) -> np.ndarray:
    """Row-wise softmax exactly as probcal's internal ``softmax()`` computes it in R.

    R: ``m <- apply(x, 1, max); z <- exp(x - m); z / rowSums(z)``.
    """
    mat = np.asarray(x, dtype=np.float64)
    # The row maxima down the transposed copy: exact in any order, and one
    # vectorised pass instead of a short reduction per row.
    z = r_exp(mat - np.maximum.reduce(np.ascontiguousarray(mat.T), axis=0)[:, None])
    return z / r_rowsums(z)[:, None]


class SoftmaxCache:
    """Remembers the last softmax so the gradient at an accepted point reuses the objective's.

    ``vmmin`` always asks for the gradient at the point whose objective it
    has just computed; the cached matrix is the one R would recompute.
    """

    def __init__(self, logits_of):
        self._logits_of = logits_of
        self._key = None
        self._prob = None

    def __call__(self, par: np.ndarray) -> np.ndarray:
        key = par.tobytes()
        if key != self._key:
            self._prob = softmax(self._logits_of(par))
            self._key = key
        return self._prob


def one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    """probcal's internal ``one_hot()`` for 1-based class codes."""
    out = np.zeros((codes.size, k))
    out[np.arange(codes.size), codes - 1] = 1.0
    return out


def binary_log_loss(p, y, eps: float = 1e-15) -> float:
    """probcal's internal ``binary_log_loss()``: summed (not averaged) cross-entropy."""
    p = clip_eps(np.asarray(p, dtype=np.float64), eps)
    y = np.asarray(y, dtype=np.float64)
    ones = y == 1
    if np.all(ones | (y == 0)):
        # 0/1 labels: each term y log(p) + (1 - y) log1p(-p) is exactly the
        # one logarithm its label keeps (the other is a signed zero added to
        # a nonzero number, as both logarithms are nonzero after clipping),
        # so only that one is computed.
        terms = np.empty_like(p)
        terms[ones] = r_log(p[ones])
        terms[~ones] = r_log1p(-p[~ones])
        return -r_sum(terms)
    return -r_sum(y * r_log(p) + (1 - y) * r_log1p(-p))


def multiclass_log_loss(prob, codes, eps: float = 1e-15) -> float:
    """probcal's internal ``multiclass_log_loss()``; ``codes`` are R's 1-based class codes."""
    prob = np.asarray(prob, dtype=np.float64)
    codes = np.asarray(codes, dtype=np.int64)
    picked = prob[np.arange(codes.size), codes - 1]
    picked = clip_eps(picked, eps)
    return -r_mean(r_log(picked))


def renormalize_rows(m: np.ndarray) -> np.ndarray:
    """Rows divided by their sums; a row summing to 0 or to a non-finite value becomes uniform.

    R equivalent: probcal's internal ``renormalize_rows(m)``. Returns a new array.
    """
    out = np.array(m, dtype=np.float64, copy=True)
    with np.errstate(invalid="ignore", over="ignore"):
        row_sums = r_rowsums(out)
    bad = ~np.isfinite(row_sums) | (row_sums == 0)
    if bad.any():
        out[bad, :] = 1 / out.shape[1]
        row_sums[bad] = 1.0
    return out / row_sums[:, np.newaxis]

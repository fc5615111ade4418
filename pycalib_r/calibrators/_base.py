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

import math
import warnings
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
from scipy import special as _sp

from .. import _format
from .._align import check_column_order
from .._hints import python_face
from .._options import get_option
from .._rlist import RList
from .._rng import _pow_di  # R's R_pow_di, shared with rbinom

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
    "col_sums",
    "clip_eps",
    "plogis",
    "softmax",
    "one_hot",
    "binary_log_loss",
    "multiclass_log_loss",
    "as_character",
    "rounded",
    "format_call",
]

EMOJI_BALANCE = "\u2696"

# ---------------------------------------------------------------------------
# Printing (cli's rendering lives in pycalib_r._format)
# ---------------------------------------------------------------------------


def as_character(x) -> str:
    """R ``as.character()`` of one value, as cli shows it inside ``cli_dl()``.

    A float NaN stands for R's ``NA_real_`` here (an aliased ``glm``
    coefficient), which R shows as ``NA``.
    """
    if isinstance(x, (float, np.floating)) and math.isnan(x):
        return "NA"
    return _format.cli_value(x)


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
    ``to_dict()`` are :class:`~pycalib_r._rlist.RList`'s.

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
        DataFrame with the same index and the class levels as columns.
        """
        # Not in R: a DataFrame naming the fitted classes in another order is
        # refused rather than matched by position (pycalib_r._align).
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


def predict(fit: Calibrator, newdata):
    """Calibrated probabilities from a fitted calibrator.

    Parameters
    ----------
    fit : Calibrator
        A fitted calibrator (``cal_platt()``, ``cal_histogram()``, ...).
    newdata : array_like
        Uncalibrated probabilities or scores: a vector for binary
        calibrators, a matrix or DataFrame with one column per class for
        multiclass ones.

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
    """
    return fit.summary()


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
    Scalars given as ``None`` (left at their default) are omitted. (A string
    starting with ``"\\x00"`` is written verbatim without it, the older way of
    naming a data argument: ``format_call("f", y="\\x00y")`` is ``f(y = y)``.)
    """
    parts = [f"{a} = {a}" for a in arrays]
    for key, value in scalars.items():
        if value is None:
            continue
        if isinstance(value, str) and value.startswith("\x00"):
            text = value[1:]
        elif isinstance(value, str):
            text = '"' + value + '"'
        elif isinstance(value, (bool, np.bool_)):
            text = "TRUE" if value else "FALSE"
        else:
            text = as_character(value)
        parts.append(f"{key} = {text}")
    return f"{name}(" + ", ".join(parts) + ")"


def _wrap_output(out, newdata, levels=None):
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        return out
    if isinstance(out, np.ndarray) and out.ndim == 1 and isinstance(newdata, pd.Series):
        return pd.Series(out, index=newdata.index, name=newdata.name)
    if isinstance(out, np.ndarray) and out.ndim == 2 and isinstance(newdata, pd.DataFrame):
        columns = list(levels) if levels is not None and len(levels) == out.shape[1] else None
        return pd.DataFrame(out, index=newdata.index, columns=columns)
    return out


def _warn(message: str) -> None:
    """An R warning (``warning(message, call. = FALSE)``) as a Python RuntimeWarning."""
    warnings.warn(message, RuntimeWarning, stacklevel=3)


# ---------------------------------------------------------------------------
# Checks shared by the multiclass calibrators
# ---------------------------------------------------------------------------

# The class vector's tail for every multiclass fit: c(<subclass>, "cal_multiclass", "calibrator").
MULTICLASS = ("cal_multiclass", "calibrator")


# ---------------------------------------------------------------------------
# R-exact numerics
# ---------------------------------------------------------------------------

_LD = np.longdouble


_SUM_CHUNK = 8192
_LD_ONES = np.ones(_SUM_CHUNK + 1, dtype=_LD)
_LD_ONES.flags.writeable = False


def _ld_seq_sum(arr: np.ndarray):
    """Left-to-right long-double sum of a 1-d array (R's ``LDOUBLE s += x[i]``).

    numpy's long-double ``dot`` has no BLAS: it is one sequential
    ``tmp += a[i] * b[i]`` loop, so against ones (exact products) it is the
    sequential sum, several times faster than ``cumsum(...)[-1]`` and equal
    to it bit for bit (``add.reduce`` would sum pairwise). Long inputs go in
    chunks, each led by the running sum (``0 + s`` is exact), so the order is
    unchanged and the long-double copy stays small.
    """
    n = arr.size
    if n <= _SUM_CHUNK:
        return np.dot(arr.astype(_LD), _LD_ONES[:n])
    buf = np.empty(_SUM_CHUNK + 1, dtype=_LD)
    total = _LD(0)
    for start in range(0, n, _SUM_CHUNK):
        part = arr[start:start + _SUM_CHUNK]
        m = part.size + 1
        buf[0] = total
        buf[1:m] = part
        total = np.dot(buf[:m], _LD_ONES[:m])
    return total


def _seq_sum_matmul(v: np.ndarray) -> float:
    # A stride-0 operand is not BLAS-able, so numpy's matmul takes its own
    # ``sum += a[i] * b[i]`` loop: against ones, the left-to-right sum.
    return float(np.matmul(v, np.broadcast_to(1.0, v.shape)))


def _seq_sum_cumsum(v: np.ndarray) -> float:
    return float(np.cumsum(v)[-1])


def _matmul_is_sequential() -> bool:
    # 1 followed by 999 halves of its last bit: only the left-to-right sum
    # stays 1 (pairwise, blocked or multi-accumulator sums do not).
    probe = np.concatenate(([1.0], np.full(999, 2.0 ** -53)))
    return _seq_sum_matmul(probe) == 1.0 and _seq_sum_matmul(probe[:5]) == 1.0


_seq_sum_impl = _seq_sum_matmul if _matmul_is_sequential() else _seq_sum_cumsum


def seq_sum(v: np.ndarray) -> float:
    """Left-to-right double sum from 0.0 of a 1-d float64 array (a Fortran ``DO`` loop's order).

    Several times faster than ``cumsum(v)[-1]`` and equal to it bit for bit;
    if this numpy's matmul ever stops summing in order (checked at import),
    ``cumsum`` is used.
    """
    if v.size == 0:
        return 0.0
    return _seq_sum_impl(v)


def r_sum(x) -> float:
    """R ``sum()`` of doubles: sequential accumulation in long double, then rounded."""
    arr = np.asarray(x, dtype=np.float64).ravel()
    if arr.size == 0:
        return 0.0
    return float(_ld_seq_sum(arr))


def r_mean(x) -> float:
    """R ``mean()`` of doubles: long-double mean plus R's second refinement pass."""
    arr = np.asarray(x, dtype=np.float64).ravel()
    n = arr.size
    if n == 0:
        return float("nan")
    arr_ld = arr.astype(_LD)
    s = _ld_seq_sum(arr_ld) / _LD(n)
    if math.isfinite(float(s)):
        t = _ld_seq_sum(arr_ld - s)
        s = s + t / _LD(n)
    return float(s)


def r_int_mean(x) -> float:
    """R ``mean()`` of an integer vector: long-double sum divided by n, then rounded."""
    arr = np.asarray(x).ravel()
    if arr.size == 0:
        return float("nan")
    total = int(arr.astype(np.int64).sum())
    return float(_LD(total) / _LD(arr.size))


def r_rowsums(m) -> np.ndarray:
    """R ``rowSums()`` of a double matrix: per-row long-double accumulation over columns."""
    mat = np.asarray(m, dtype=np.float64)
    if mat.shape[0] < 2:
        return np.cumsum(mat, axis=1, dtype=_LD)[:, -1].astype(np.float64) if mat.shape[1] else \
            np.zeros(mat.shape[0])
    # Columns as the rows of a C-contiguous array: numpy reduces that
    # leading axis one vectorised add per column, in column order, which is
    # R's accumulation (pairwise summation applies only along the fastest axis).
    return np.add.reduce(np.ascontiguousarray(mat.T, dtype=_LD), axis=0).astype(np.float64)


def col_sums(m: np.ndarray) -> np.ndarray:
    """R ``colSums()``: each column summed top to bottom in long double, then rounded."""
    return np.cumsum(np.asarray(m).astype(_LD), axis=0)[-1].astype(np.float64)


def r_round(x, digits: int = 0):
    """R (>= 4.0.0) ``round(x, digits)``: the closer of the two decimal candidates.

    Port of ``fround()`` in R's ``src/nmath/fround.c``; Python's ``round`` rounds
    the exact binary value and can disagree with R on half-way-looking inputs.
    """
    scalar = np.ndim(x) == 0
    vals = np.atleast_1d(np.asarray(x, dtype=np.float64))
    out = np.array([_fround(float(v), digits) for v in vals.ravel()]).reshape(vals.shape)
    return float(out[0]) if scalar else out


def _fround(x: float, digits: float) -> float:
    max_digits = 308 + 15
    if math.isnan(x) or math.isnan(digits):
        return x + digits
    if not math.isfinite(x):
        return x
    if digits > max_digits or x == 0.0:
        return x
    if digits < -308:
        return 0.0
    if digits == 0.0:
        return float(np.rint(x))
    dig = int(math.floor(digits + 0.5))
    sgn = 1.0
    if x < 0.0:
        sgn = -1.0
        x = -x
    # logb(x) is the binary exponent; frexp's is one larger.
    l10x = 0.301029995663981195213738894724 * (0.5 + (math.frexp(x)[1] - 1))
    if l10x + dig > 15:
        return sgn * x
    if dig <= 308:
        pow10 = _pow_di(10.0, dig)
        x10 = x * pow10
        i10 = math.floor(x10)
        xd = i10 / pow10
        xu = math.ceil(x10) / pow10
    else:
        e10 = dig - 308
        p10 = _pow_di(10.0, e10)
        pow10 = _pow_di(10.0, 308)
        x10 = (x * pow10) * p10
        i10 = math.floor(x10)
        xd = i10 / pow10 / p10
        xu = math.ceil(x10) / pow10 / p10
    du = xu - x
    dd = x - xd
    return sgn * (xu if (du < dd or (math.fmod(i10, 2.0) == 1 and du == dd)) else xd)


def r_exp(x) -> np.ndarray:
    """The C library's ``exp`` elementwise (scipy's ``inv_boxcox(x, 0)`` calls it directly)."""
    return _sp.inv_boxcox(np.asarray(x, dtype=np.float64), 0.0)


def r_log(x) -> np.ndarray:
    """The C library's ``log`` elementwise (``xlogy(1, x)`` is ``1 * log(x)``)."""
    return _sp.xlogy(1.0, np.asarray(x, dtype=np.float64))


def r_log1p(x) -> np.ndarray:
    """The C library's ``log1p`` elementwise (``boxcox1p(x, 0)`` returns ``log1p(x)``)."""
    return _sp.boxcox1p(np.asarray(x, dtype=np.float64), 0.0)


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

"""The Python face of the exported functions: hints on R's errors, warnings at the caller.

Every exported function that takes data is wrapped once by :func:`python_face`
(``functools.wraps``: name, docstring and signature are the function's own).
The wrapper changes nothing R-visible, it only adds what Python users need:

* **Misaligned columns.** Before the call, a DataFrame whose columns name the
  classes of a pandas Categorical ``y`` in another order is refused
  (:mod:`pycalib_r.inputs._align`); nothing is computed on it.
* **Hints.** A :class:`~pycalib_r.ProbcalError` keeps R's message as
  ``str(err)``, byte for byte; a hint on how to fix the Python-side mistake
  is added as a PEP 678 exception note (``err.add_note``; ``__notes__`` on
  Python < 3.11), which the traceback shows under the message. Cases:
  0-based class codes, a two-column matrix with 0/1 labels, string labels,
  R's ``match.arg`` errors (which name no argument), rows that miss summing
  to 1 (by how much the worst row misses).
* **Warnings.** The package's warnings a call raises (R's ``glm.fit``
  warnings, ...) are collected in this thread's collector and issued when
  it returns, at the caller's line, each distinct one once, with R's count
  line where R prints one (more than 10); see :mod:`pycalib_r.rbase._warn`.
  Nothing process-wide (filters, ``showwarning``) is touched, so threads
  calling at once see their own warnings and nobody else's.

R equivalent: none; R's ``conditionMessage()`` and warning texts are kept.
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..rbase import _warn
from ._align import category_names, check_column_order
from ._checks import polars_factor
from ..rbase._errors import ProbcalError
from ..rbase._rarith import r_rowsums
from ..rbase._rcalls import unused_arguments_text

__all__ = ["python_face", "add_note", "hints_for", "two_column_note"]

_MATRIX_ARGS = ("p", "x", "logits")
# R's message when y's class count and the matrix's columns differ.
_CLASS_COUNT = re.compile(r"^Argument `y` has (\d+) class(?:es)? but the input has (\d+) columns?\.$")
# The functions whose matrix form is the O(n^2) canonical kernel.
_QUADRATIC = ("skce", "cal_test", "cal_ci")


def add_note(err: BaseException, note: str) -> None:
    """PEP 678 ``err.add_note(note)``, also on Python < 3.11."""
    if hasattr(err, "add_note"):
        err.add_note(note)
    else:  # pragma: no cover - Python < 3.11
        err.__notes__ = list(getattr(err, "__notes__", [])) + [note]


# ---------------------------------------------------------------------------
# Hints
# ---------------------------------------------------------------------------

def _values(y) -> Optional[np.ndarray]:
    """``y`` as a 1-D numpy array (object for strings), or None if it will not convert."""
    try:
        to_numpy = getattr(y, "to_numpy", None)
        arr = np.asarray(to_numpy() if callable(to_numpy) else y)
    except Exception:  # noqa: BLE001 - a hint must never raise
        return None
    return arr.ravel()


def _ncol(x) -> Optional[int]:
    shape = getattr(x, "shape", None)
    if shape is None:
        try:
            shape = np.asarray(x, dtype=object).shape
        except Exception:  # noqa: BLE001
            return None
    return int(shape[1]) if len(shape) == 2 else None


def _is_01(values: np.ndarray) -> bool:
    try:
        return values.size > 0 and bool(np.isin(values.astype(np.float64), (0.0, 1.0)).all())
    except (TypeError, ValueError):
        return False


def _has_strings(values: Optional[np.ndarray]) -> bool:
    return values is not None and any(isinstance(v, (str, bytes)) for v in values[:1000])


def _matrix_arg(bound: Dict[str, Any]) -> Tuple[Optional[str], Any]:
    for name in _MATRIX_ARGS:
        if name in bound:
            return name, bound[name]
    return None, None


def _is_default(value, default) -> bool:
    """``value == default`` for any value (an array compares elementwise)."""
    try:
        return bool(value == default)
    except Exception:  # noqa: BLE001 - an ambiguous or failing comparison: not the default
        return False


def _match_arg_hint(message: str, bound: Dict[str, Any], fn: Callable) -> Optional[str]:
    """Name the argument behind R's ``match.arg`` message (R's text names none)."""
    choices = None
    if message.startswith("'arg' should be one of "):
        choices = [c.strip().strip("\u201c\u201d\"") for c in
                   message[len("'arg' should be one of "):].split(",")]
    candidates = []
    params = inspect.signature(fn).parameters
    flat = dict(bound)
    for name, param in params.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD and isinstance(bound.get(name), dict):
            flat.pop(name, None)
            flat.update(bound[name])
    others = []  # non-strings where a choice was due (an empty list, an array)
    for name, value in flat.items():
        default = params[name].default if name in params else inspect.Parameter.empty
        choice_like = (isinstance(default, (str, tuple)) or name in ("type", "method", "strategy",
                                                                      "estimator", "metric"))
        if choices is not None:
            if isinstance(value, str) and not any(c == value or (value and c.startswith(value))
                                                  for c in choices):
                candidates.append((name, value))
            elif isinstance(value, str) and sum(c.startswith(value) for c in choices) > 1:
                candidates.append((name, value))
            elif choice_like and not isinstance(value, str) and value is not None \
                    and not _is_default(value, default):
                others.append((name, value))
        elif choice_like and not isinstance(value, str) and value is not None \
                and not _is_default(value, default):
            candidates.append((name, value))
    candidates += others
    if not candidates:
        return None
    name, value = candidates[0]
    text = f"The argument R calls 'arg' here is `{name}` (given {value!r})"
    if choices is not None:
        text += "; give one of " + ", ".join(repr(c) for c in choices) + " or a unique prefix"
    return text + "."


def _row_sum_hint(message: str, bound: Dict[str, Any]) -> Optional[str]:
    arg = message[len("Each row of `"):].split("`", 1)[0]
    if arg not in bound:
        return None
    x = bound[arg]
    try:
        to_numpy = getattr(x, "to_numpy", None)
        mat = np.asarray(to_numpy() if callable(to_numpy) else x, dtype=np.float64)
        sums = r_rowsums(mat)  # R's rowSums(), as the check
        miss = np.abs(sums - 1.0)
    except Exception:  # noqa: BLE001
        return None
    worst = int(np.argmax(miss))
    return (f"The worst row of `{arg}` (index {worst}, 0-based) sums to "
            f"{sums[worst]:.10g}, missing 1 by {miss[worst]:.3g}; "
            f"{int((miss > 1e-6).sum())} of {mat.shape[0]} rows miss by more than 1e-06. "
            f"If they are scores rather than probabilities, renormalise: "
            f"{arg} / {arg}.sum(axis=1, keepdims=True).")


def two_column_note(arg: str, x, n: int) -> Optional[str]:
    """The note for an n x 2 ``predict_proba`` matrix passed where a vector of
    ``n`` probabilities belongs (None when ``x`` is not one). The functions
    that take a probability vector call it from their own checks."""
    try:
        if _ncol(x) != 2 or len(x) != n:
            return None
    except TypeError:
        return None
    return (f"`{arg}` has two columns, as predict_proba gives for a binary "
            f"problem: pass the positive class's column, {arg}[:, 1] (or "
            f"{arg}.iloc[:, 1] for a DataFrame).")


def hints_for(err: ProbcalError, bound: Dict[str, Any], fn: Callable) -> List[str]:
    """The notes for ``err`` raised by ``fn`` called with the arguments ``bound``."""
    message = str(err)
    notes: List[str] = []
    y = bound.get("y")
    x_arg, x = _matrix_arg(bound)
    if message == "Integer class codes in `y` must start at `1`.":
        values = _values(y)
        two_column_binary = (x is not None and _ncol(x) == 2 and values is not None
                             and _is_01(values))
        kernel = getattr(fn, "__name__", "") in _QUADRATIC
        if two_column_binary:
            notes.append(f"For a binary problem pass the positive class's column as a vector, "
                         f"e.g. {x_arg}[:, 1] (a numpy array) or {x_arg}.iloc[:, 1] "
                         f"(a DataFrame), with the 0/1 labels"
                         + (": the binary form, O(n log n)." if kernel else "."))
        # Not y + 1 for a binary problem in the kernel functions: an n x 2
        # matrix with codes 1..2 takes the canonical kernel, O(n^2) (hours at
        # 1e5 rows in cal_test), and another statistic than the binary form.
        if not (two_column_binary and kernel):
            notes.append("Class codes here are R's 1..K; scikit-learn's 0-based codes (the "
                         "column order of predict_proba) need y + 1, or pass a pandas "
                         "Categorical (pd.Categorical.from_codes(y, categories=clf.classes_)).")
    elif message.startswith("Argument `y`") and polars_factor(y) is not None:
        pass  # the check's own note names the conversion
    elif message == "Argument `y` must be a factor or a vector of integer class codes." \
            and (_has_strings(_values(y)) or category_names(y) is None):
        notes.append("R's factor is a pandas Categorical: pass "
                     "pd.Categorical(y, categories=[...]) with the categories in the column "
                     "order of the matrix (for scikit-learn, categories=clf.classes_).")
    elif message.startswith("Argument `y` must contain binary labels") and _has_strings(_values(y)):
        notes.append("Binary labels are 0/1 numbers or booleans; string labels need mapping, "
                     "e.g. (y == \"positive\").astype(int). (R's word \"factor\" means a "
                     "pandas Categorical, which the multiclass functions accept.)")
    elif message.startswith("Arguments `") and message.endswith("` and `y` must have the same length."):
        arg = message[len("Arguments `"):].split("`", 1)[0]
        values = _values(y)
        note = None if values is None else two_column_note(arg, bound.get(arg), values.size)
        if note:
            notes.append(note)
    elif _CLASS_COUNT.match(message):
        shown, columns = (int(v) for v in _CLASS_COUNT.match(message).groups())
        if shown < columns:
            notes.append(f"`y` shows only {shown} of the {columns} classes (a test split can lack "
                         "one): pass a pandas Categorical with every class, "
                         "pd.Categorical(y, categories=clf.classes_), with the categories in the "
                         "column order of the matrix.")
    elif message.startswith("'arg' "):
        hint = _match_arg_hint(message, bound, fn)
        if hint:
            notes.append(hint)
    elif message.startswith("Each row of `") and message.endswith("` must sum to `1`."):
        hint = _row_sum_hint(message, bound)
        if hint:
            notes.append(hint)
    return notes


# ---------------------------------------------------------------------------
# The wrapper
# ---------------------------------------------------------------------------

def python_face(fn: Callable) -> Callable:
    """Wrap an exported function (see the module docstring). Idempotent.

    Used as a decorator on the exported function's definition, so the
    package's ``pycalib_r.X`` is its module's ``X``. Internal callers that
    want the function without its export layers (this one, ``seed_note``,
    ``quadratic_warning``, ``r_arguments``: no hints, no second collection of
    warnings, the same stack depth) call ``X._plain``, which every export
    layer sets to the function beneath them all.
    """
    if getattr(fn, "_python_face", False):
        return fn
    sig = inspect.signature(fn)
    names = list(sig.parameters)
    x_name = next((n for n in _MATRIX_ARGS if n in names), None)
    positions = {n: i for i, n in enumerate(names)}

    def _arg(args, kwargs, name):
        if name in kwargs:
            return kwargs[name]
        i = positions.get(name)
        return args[i] if i is not None and i < len(args) else None

    def _bound(args, kwargs) -> Dict[str, Any]:
        try:
            return dict(sig.bind_partial(*args, **kwargs).arguments)
        except TypeError:
            return dict(kwargs)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _warn.collecting():  # a nested call: the outer one reports
            return fn(*args, **kwargs)
        with _warn.collect() as collected:
            try:
                if x_name is not None and "y" in positions:
                    y = _arg(args, kwargs, "y")
                    check_column_order(_arg(args, kwargs, x_name), category_names(y), x_name,
                                       "the categories of `y`",
                                       "list(y.cat.categories)" if hasattr(y, "cat")
                                       else "list(y.categories)")
                result = fn(*args, **kwargs)
            except ProbcalError as err:
                try:
                    notes = hints_for(err, _bound(args, kwargs), fn)
                except Exception:  # noqa: BLE001 - a hint must never hide R's error
                    notes = []
                for note in notes:
                    add_note(err, note)
                error = err
            else:
                error = None
        _warn.flush(collected)
        if error is not None:
            raise error
        return result

    wrapper._python_face = True
    wrapper._plain = getattr(fn, "_plain", fn)
    return wrapper


# ---------------------------------------------------------------------------
# R's `...` swallowing arguments
# ---------------------------------------------------------------------------

# The methods whose calibrator takes no `...` argument (no `args` in the
# calibrator registry): R's fit_calibrator() and fit_calibrator_mc() drop
# every extra argument for them. (beta and histogram receive the extras, and
# an unknown one is an error there, as in R.) By R's choice names.
def _swallowing(multiclass: bool) -> tuple:
    from ..calibrators._methods import methods

    return tuple(e.r_choice for e in methods() if not e.args and (
        e.multiclass == "matrix" if multiclass else e.binary != "matrix"))


def unused_dots(method: str, kwargs: Dict[str, Any], multiclass: bool = False) -> List[str]:
    """The names in ``kwargs`` that R's dispatch for ``method`` drops without a word.

    R equivalent: probcal's internal ``fit_calibrator()`` and
    ``fit_calibrator_mc()``, which pass ``...`` only to ``cal_beta``,
    ``cal_histogram``, ``cal_dirichlet`` and ``cal_ovr``.
    """
    if not multiclass:
        return list(kwargs) if method in _swallowing(multiclass=False) else []
    if method in _swallowing(multiclass=True):
        return list(kwargs)
    if method == "ovr":
        from ._checks import match_arg
        from ..calibrators._methods import OVR_METHODS
        base = kwargs.get("base_method")
        try:
            base = match_arg(base, OVR_METHODS, arg="base_method")
        except ProbcalError:
            return []  # cal_ovr() reports the bad base method
        rest = {k: v for k, v in kwargs.items() if k != "base_method"}
        return unused_dots(base, rest)
    return []


def warn_unused_dots(function: str, method: str, kwargs: Dict[str, Any],
                     multiclass: bool = False) -> None:
    """A UserWarning naming the arguments ``function``'s ``...`` ignores (R says nothing)."""
    unused = unused_dots(method, kwargs, multiclass)
    if not unused:
        return
    listed = ", ".join(f"`{k}`" for k in unused)
    plural = len(unused) > 1
    what = f'method "{method}"'
    if multiclass and method == "ovr":
        what += f' (base_method "{kwargs.get("base_method") or "platt"}")'
    _warn.warn(
        f"{function}() ignored the argument{'s' if plural else ''} {listed}: {what} "
        f"does not use {'them' if plural else 'it'} (R's `...` drops "
        f"{'them' if plural else 'it'} silently). Check the spelling against "
        f"help({function}).", UserWarning)


def check_unused_arguments(kwargs: Dict[str, Any], allowed, caller: str = "") -> None:
    """R's "unused argument" error for names in ``kwargs`` that the R function
    reached through ``...`` does not take (R's text: ``unused arguments
    (a = 1, b = "x")``, in the order given)."""
    unused = [k for k in kwargs if k not in allowed]
    if unused:
        err = ProbcalError(unused_arguments_text(kwargs, unused))
        if "weights" in unused and caller == "cal_ci":
            # The metrics take Python-only observation weights; cal_ci's
            # bootstrap does not (R's message stays; the reason is a note).
            add_note(err, "cal_ci() takes no `weights`: its percentile bootstrap resamples rows "
                          "with equal probability, and a weighted bootstrap interval has no "
                          "accepted definition here. The metrics themselves (ece, mce, ace) "
                          "take weights=.")
        raise err

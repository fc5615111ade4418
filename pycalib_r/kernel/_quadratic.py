"""A warning before an O(n^2) canonical kernel computation that will take long.

``skce``, ``cal_test`` and ``cal_ci(metric = "skce")`` on a probability
matrix use the canonical kernel, whose cost grows with the square of the
rows (and, for the bootstrap, with ``n_boot`` as well). A binary problem
passed as an n x 2 matrix takes that route too: ``cal_test`` at 100,000 rows
would run for hours, where the binary form (``p[:, 1]`` with 0/1 labels) is
O(n log n). R says nothing; here a :class:`UserWarning` gives the estimated
time and the faster routes before the work starts. Nothing R computes
changes.

The cost model counts ordered pairs n^2 and uses per-pair rates timed on
the development machine (2 cores shared with other jobs, load about 7, so
the rates below are the timings divided by that load; see the constants).
The estimate is an order of magnitude, not a promise: on a busy machine the
work takes longer, on a fast one less.

R equivalent: none.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from ..rbase import _warn

__all__ = ["quadratic_warning", "estimated_seconds", "block_seconds", "WARN_SECONDS"]

# Seconds per ordered pair (i, j) and class for one canonical kernel sum
# (skce's uq/biased estimate; also the median bandwidth's pair distances):
# skce at n = 6,000, K = 3 and n = 4,000, K = 10 gave 2.1e-7 and 1.8e-6 s per
# pair on a machine loaded about 7-fold, 2.5e-8 * K unloaded.
PAIR_SECONDS_PER_CLASS = 2.5e-8
# Seconds per ordered pair and bootstrap replicate (the wild bootstrap's
# weighted sums): cal_test and cal_ci(metric = "skce") with n_boot = 199 at
# n = 6,000 (K = 3) and 4,000 (K = 10) gave 9.4e-9 to 1.6e-8 under the same
# load, 1.5e-9 unloaded.
REPLICATE_PAIR_SECONDS = 1.5e-9
# Seconds per pair term of the block test (cal_test(method = "block")), which
# computes each term of each block once, unsorted: timed with blocks of 1,000
# and 4,000 rows at n = 20,000 on the same 2 cores at load about 7 (1.6e-8 to
# 2.4e-8 s for the scalar kernel of binary and confidence input; 1.4e-7 to
# 1.7e-7 canonical K = 3, 2.5e-7 to 2.7e-7 K = 10), times 2/7 (one core of
# the two that seven jobs share).
BLOCK_TERM_SECONDS_SCALAR = 6e-9
BLOCK_TERM_SECONDS_CANONICAL = 2.9e-8  # + the per-class part:
BLOCK_TERM_SECONDS_PER_CLASS = 4.6e-9
# "More than a few seconds".
WARN_SECONDS = 5.0


def _shape(p):
    shape = getattr(p, "shape", None)
    if shape is None:
        try:
            shape = np.shape(p)
        except Exception:  # noqa: BLE001 - a ragged input is refused by the call itself
            return None
    return tuple(shape) if len(shape) == 2 else None


def _length(p):
    """The rows of a 1-D input, or None (the call itself refuses what has none)."""
    try:
        return len(p)
    except TypeError:
        return None


def _count(value, default):
    try:
        return max(0, int(value))
    except (TypeError, ValueError, OverflowError):
        return default


def estimated_seconds(function: str, n: int, k: int, args: dict) -> float:
    """Estimated seconds of the canonical-kernel work of ``function`` on an n x k matrix."""
    pairs = float(n) * float(n)
    one_sum = PAIR_SECONDS_PER_CLASS * k * pairs
    median = isinstance(args.get("bandwidth"), str)  # "median": the pair distances too
    if function == "skce":
        cost = 0.0 if str(args.get("estimator", "uq")).startswith("ul") else one_sum
        return cost + (one_sum if median else 0.0)
    n_boot = _count(args.get("n_boot", 999), 999)
    if function == "cal_test":
        # The asymptotic test is O(n); the block test's O(n B) work is counted
        # by block_seconds() (the wrapper's block_terms).
        if str(args.get("method", "bootstrap")).startswith("a") or args.get("method") == "block":
            return one_sum if median else 0.0
        return one_sum * (2 if median else 1) + REPLICATE_PAIR_SECONDS * pairs * n_boot
    # cal_ci(metric = "skce"): the estimate, then each replicate's weighted sum
    # (or, with the median bandwidth, each replicate's own median and sum).
    if str(args.get("estimator", "uq")).startswith("ul"):
        return 0.0
    if median:
        return 2 * one_sum * (n_boot + 1)
    return one_sum + REPLICATE_PAIR_SECONDS * pairs * n_boot


def block_seconds(terms: float, k: int, canonical: bool) -> float:
    """Estimated seconds of the block test's ``terms`` pair terms (k classes)."""
    if canonical:
        return terms * (BLOCK_TERM_SECONDS_CANONICAL + BLOCK_TERM_SECONDS_PER_CLASS * k)
    return terms * BLOCK_TERM_SECONDS_SCALAR


def _block_warning(n: int, k: int, given: dict, block_terms) -> None:
    """Warn before a block test whose blocks make it long (any form: the block
    test computes its pair terms directly, binary input too)."""
    blocksize = given.get("blocksize", "auto")
    counted = block_terms(n, blocksize)
    if counted is None:
        return  # the call refuses the block size
    b, terms = counted
    canonical = k >= 2 and _is_canonical("cal_test", given)
    seconds = block_seconds(terms, k, canonical)
    if canonical and isinstance(given.get("bandwidth"), str):
        seconds += PAIR_SECONDS_PER_CLASS * k * float(n) * n  # the median's pair distances
    if seconds <= WARN_SECONDS:
        return
    auto = block_terms(n, "auto")
    where = f"this {n} x {k} matrix" if k >= 2 else f"these {n} rows"
    faster = ""
    if auto is not None and auto[0] < b:
        faster = (f' Faster: a smaller blocksize; blocksize="auto" (n // 50 rows, at most 250) '
                  f"takes {auto[0]} here, {auto[1]:.3g} pair terms")
        if canonical and k > 2:
            faster += '; or type="confidence" (the top-label form, a scalar kernel)'
        faster += "."
    _warn.warn(  # at once, at the user's line: before the work starts
        f'cal_test(method="block") on {where} with blocks of {b} rows computes '
        f"{terms:.3g} kernel pair terms (B (B - 1) / 2 per block of B rows: the work grows "
        f"as n B, and as n^2 when B is of the order of n): estimated {_duration(seconds)}."
        + faster, UserWarning)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 7200:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.0f} days"


duration = _duration  # the name other rooms import (public inside the package)


def _routes(function: str, k: int, args: dict) -> list:
    routes = []
    if k == 2:
        routes.append("p[:, 1] (or p.iloc[:, 1]) with 0/1 labels, e.g. (y == 2).astype(int) for "
                      "codes 1..2: the binary form, O(n log n) (its statistic is the binary "
                      "SKCE, not the 2-class canonical one)")
    if function == "cal_test":
        routes.append('method="block" (the block estimator, O(n B); less power than the '
                      'bootstrap, far more than the asymptotic test; Python-only)')
        routes.append('method="asymptotic" (the linear estimator SKCE_ul, O(n))')
        if k > 2:
            routes.append('type="confidence" (the top-label form, O(n log n) per replicate)')
    else:
        routes.append('estimator="ul" (the linear unbiased estimator, O(n))')
        if k > 2:
            routes.append('type="confidence" or type="classwise" (scalar forms, O(n log n))')
    if isinstance(args.get("bandwidth"), str):
        routes.append("a numeric bandwidth (the median bandwidth computes every pair distance"
                      + (" again in each replicate)" if function == "cal_ci" else ")"))
    return routes


def _is_canonical(function: str, args: dict) -> bool:
    if function == "cal_ci" and args.get("metric", "ece") != "skce":
        return False
    kind = args.get("type", "canonical")
    return isinstance(kind, str) and "canonical".startswith(kind) and kind != ""


def quadratic_warning(fn=None, block_terms=None):
    """Wrap ``skce``/``cal_test``/``cal_ci``: warn when the canonical kernel will take long.

    ``block_terms(n, blocksize)`` (for ``cal_test``; the inference room's
    count, ``(B, pair terms)`` or None) makes ``method="block"`` warn by its
    real work, in every form. A decorator: ``@quadratic_warning``, or
    ``@quadratic_warning(block_terms=...)``."""
    if fn is None:
        return functools.partial(quadratic_warning, block_terms=block_terms)
    sig = inspect.signature(fn)
    name = fn.__name__

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # Python's own error for the call
        given = dict(bound.arguments)
        given.update(given.pop("kwargs", {}) or {})
        if block_terms is not None and given.get("method") == "block":
            shape = _shape(given.get("p"))
            n = shape[0] if shape is not None else _length(given.get("p"))
            if n is not None:
                _block_warning(n, shape[1] if shape is not None else 1, given, block_terms)
            return fn(*args, **kwargs)
        shape = _shape(given.get("p"))
        if shape is not None and shape[1] >= 2 and _is_canonical(name, given):
            n, k = shape
            seconds = estimated_seconds(name, n, k, given)
            if seconds > WARN_SECONDS:
                _warn.warn(  # at once, at the user's line: before the work starts
                    f"{name}() on this {n} x {k} matrix uses the canonical kernel, whose work "
                    f"grows as n^2 ({float(n) * n:.3g} pairs"
                    + ("" if name == "skce" else " per resample")
                    + f"): estimated {_duration(seconds)}. Faster: "
                    + "; ".join(_routes(name, k, given)) + ".", UserWarning)
        return fn(*args, **kwargs)

    wrapper._plain = getattr(fn, "_plain", fn)  # see pycalib_r.inputs._hints.python_face
    return wrapper

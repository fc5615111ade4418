"""The block kernel calibration test: ``cal_test(method = "block")`` (Python-only).

Widmann, Lindsten & Zachariah's block estimator of the SKCE splits the rows
into disjoint blocks of B consecutive rows, takes the unbiased U-statistic
of the kernel terms within each block, and averages the blocks. B = 2 is the
linear estimator SKCE_ul of ``method = "asymptotic"``; B = n is SKCE_uq. For
fixed B the block statistics are independent and identically distributed,
so their mean is asymptotically normal, and the test costs O(n B) kernel
evaluations. Under a fixed alternative its z grows like sqrt(n (B - 1) / 2)
times the signal-to-noise ratio of one pair term, so power grows with B while
the number of blocks n / B must stay large enough for the normal
approximation (see :func:`auto_blocksize`).
"""

from __future__ import annotations

import math
from typing import Callable, NamedTuple

import numpy as np

from ..kernel._canonical import canonical_pair_terms
from ..kernel._scalar import scalar_pair_terms
from ..inputs._checks import add_note, match_arg
from ..rbase._errors import ProbcalError
from ..rbase._rarith import pnorm_upper, r_mean, r_sd

__all__ = ["PairTerms", "auto_blocksize", "block_pair_terms", "block_statistics", "block_z",
           "check_blocksize", "check_order", "match_method", "sorted_rows"]

# At least this many blocks under "auto": with the skewness correction the
# level then stays within Monte Carlo error of 0.05 (tools/power_study.py).
MIN_BLOCKS = 50
# ... and blocks of at most this many rows (cost O(n B)).
MAX_AUTO_BLOCKSIZE = 250
# Rows of pair terms computed at once (bounds the temporaries: a canonical
# pair term gathers two K-vectors per row).
_CHUNK_ELEMENTS = 1 << 20


def auto_blocksize(n: int) -> int:
    """The block size of ``blocksize = "auto"``: ``n // 50`` rows, kept in [2, 250].

    Power grows like sqrt(B - 1) and cost like B, while the normal
    approximation needs many blocks. With at least 50 blocks the
    skewness-corrected test keeps its level within Monte Carlo error of 0.05
    (``tools/power_study.py``); 250 rows per block bound the cost at 125
    kernel terms per row (10^6 rows: 1.25e8 terms).
    """
    return int(min(MAX_AUTO_BLOCKSIZE, max(2, n // MIN_BLOCKS)))


BLOCK_METHOD_NOTE = ('`method` can also be "block" (Python-only, spelled out in full): the '
                     "block kernel calibration test, O(n B) for blocks of B rows.")


def match_method(method, methods) -> str:
    """``cal_test()``'s ``method``: "block" spelled out in full (so R's partial
    matching of ``methods``, "b" for "bootstrap", is unchanged), else R's
    ``match.arg``. R's message for an unknown method names probcal's two
    methods and stays the message; a note names the Python-only third."""
    if isinstance(method, str) and method == "block":
        return "block"
    try:
        return match_arg(method, methods)
    except ProbcalError as err:
        if str(err).startswith("'arg' should be one of"):
            add_note(err, BLOCK_METHOD_NOTE)
        raise


ORDERS = ("rows", "p")


def check_order(order) -> str:
    """``order`` of the block test: "rows" (as given) or "p" (sorted by the prediction)."""
    if not isinstance(order, str) or order not in ORDERS:
        raise ProbcalError(f'`order` must be "rows" or "p", not {order!r}.')
    return order


def check_shuffle(shuffle) -> bool:
    """``shuffle`` of the block test: True or False, nothing coerced."""
    if not isinstance(shuffle, (bool, np.bool_)):
        raise ProbcalError(f"`shuffle` must be TRUE or FALSE (True or False), not {shuffle!r}.")
    return bool(shuffle)


def sorted_rows(data):
    """The rows of ``order = "p"``: sorted by the prediction (binary ``p``; the
    top-label probability of a matrix), ties kept in their order. The split
    into blocks then depends on the predictions only, so each block's
    U-statistic stays unbiased given them (E[h_ij | p] = 0 under
    calibration), and neighbouring predictions share a block, where the
    Laplacian kernel is largest."""
    key = data.r if data.form in ("binary", "confidence") else data.p.max(axis=1)
    return np.argsort(key, kind="stable")


def check_blocksize(blocksize, n: int) -> int:
    """A checked block size for ``n`` rows: an integer >= 2 and <= n, or "auto"."""
    if isinstance(blocksize, str):
        if blocksize != "auto":
            raise ProbcalError(f'`blocksize` must be a whole number >= 2 or "auto", not "{blocksize}".')
        blocksize = auto_blocksize(n)
    elif isinstance(blocksize, (bool, np.bool_)) or not isinstance(blocksize, (int, np.integer, float, np.floating)):
        raise ProbcalError(f'`blocksize` must be a whole number >= 2 or "auto", not {blocksize!r}.')
    elif not (math.isfinite(blocksize) and float(blocksize).is_integer() and blocksize >= 2):
        raise ProbcalError(f'`blocksize` must be a whole number >= 2 or "auto", not {blocksize!r}.')
    blocksize = int(blocksize)
    if n < 2 * blocksize:
        raise ProbcalError(
            f"The block test needs at least two blocks: {n} observations in blocks of {blocksize}; "
            f"use a blocksize of at most {max(n // 2, 1)}.")
    return blocksize


def block_pair_terms(n: int, blocksize):
    """``(B, terms)``: the block size the call will use on ``n`` rows and the
    kernel pair terms it computes, m B (B - 1) / 2 for m = n // B blocks (about
    n (B - 1) / 2: O(n B), as quadratic as SKCE_uq's n (n - 1) / 2 when B is
    of the order of n). None for a block size the call refuses."""
    try:
        b = check_blocksize(blocksize, int(n))
    except (ProbcalError, TypeError, ValueError, OverflowError):
        return None
    return b, float(n // b) * b * (b - 1) / 2.0


class PairTerms(NamedTuple):
    """A kernel's pair terms ``terms(a, b, h, i, j)`` on its arrays: ``(r, e)``
    of the scalar kernel or ``(p, u)`` of the canonical one, in row order (the
    block test needs no sorted kernel)."""

    terms: Callable
    a: np.ndarray
    b: np.ndarray
    h: float

    @classmethod
    def of_form(cls, form: str, a, b, h) -> "PairTerms":
        terms = canonical_pair_terms if form == "canonical" else scalar_pair_terms
        return cls(terms, a, b, float(h))


def block_statistics(kern: PairTerms, n: int, blocksize: int) -> np.ndarray:
    """Per block b (rows bB .. bB + B - 1, the last n mod B rows dropped), the
    U-statistic sum_{i < j in b} h_ij / choose(B, 2).

    Each block's pair terms are added at offsets d = 1, ..., B - 1 in turn,
    over all blocks at once (O(n B) work in B - 1 passes): the kernel's
    arrays are viewed as (blocks x B) and its pair terms computed on the
    slices [:, :B - d] and [:, d:], the same arithmetic as ``pair_terms``
    on gathered rows, without the gathers.
    """
    terms, a, b, h = kern
    nb = n // blocksize
    out = np.empty(nb)
    step = max(1, _CHUNK_ELEMENTS // blocksize)
    every = slice(None)
    for lo in range(0, nb, step):
        hi = min(nb, lo + step)
        rows = slice(lo * blocksize, hi * blocksize)
        av = a[rows].reshape((hi - lo, blocksize) + a.shape[1:])
        bv = b[rows].reshape((hi - lo, blocksize) + b.shape[1:])
        sums = np.zeros(hi - lo)
        for d in range(1, blocksize):
            sums += terms(av, bv, h, (every, slice(0, blocksize - d)),
                          (every, slice(d, blocksize))).sum(axis=1)
        out[lo:hi] = sums
    return out / (blocksize * (blocksize - 1) / 2.0)


def block_z(stats: np.ndarray, skew_correction: bool = True):
    r"""The estimate (R's mean of the block statistics), its standard error
    s / sqrt(m) with R's ``sd()`` s over m blocks, the statistic and its
    upper-tail normal p-value.

    Without the correction the statistic is t = sqrt(m) mean / s. With it,
    Hall's (1992) monotone transformation removes the skewness of t (the
    block statistics of a degenerate U-statistic are right-skewed, which
    makes the plain test conservative, and more so the larger the blocks):

    .. math:: t_H = t + \frac{a}{6} + \frac{a t^2}{3} + \frac{a^2 t^3}{27},
              \qquad a = \hat\gamma / \sqrt{m},\quad
              \hat\gamma = \frac{m^{-1} \sum_b (x_b - \bar x)^3}{s^3}.
    """
    nb = stats.size
    estimate = r_mean(stats)
    sigma = r_sd(stats)
    if not sigma > 0:
        raise ProbcalError("The block test is degenerate: all block statistics are equal.")
    t = math.sqrt(nb) * estimate / sigma
    if skew_correction:
        d = stats - estimate
        a = float(np.mean(d * d * d)) / sigma ** 3 / math.sqrt(nb)
        t = t + a / 6.0 + a * t * t / 3.0 + a * a * t ** 3 / 27.0
    return estimate, sigma / math.sqrt(nb), t, pnorm_upper(t)

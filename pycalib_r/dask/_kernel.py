"""``skce(estimator = "ul")`` and ``cal_test(method = "asymptotic")`` on Dask collections.

The linear estimator sums over the disjoint pairs (1, 2), (3, 4), ... of
the rows in order. A chunk cannot know where it starts when its partition
lengths are unknown (Parquet), so it sums the pairs of both alignments
(starting at its first row, or at its second) and returns its first and
last rows; the client, once the lengths are known, keeps each chunk's
alignment and computes the pairs that straddle two chunks from those rows
(O(chunks) numbers). The mean and standard deviation of the pair terms are
merged from per-chunk counts, long-double sums and centred sums of squares
(Chan, Golub & LeVeque's pairwise update), in one pass.
"""

from __future__ import annotations

import math

import numpy as np

from ..inputs._checks import check_bandwidth, match_arg
from ..rbase._errors import ProbcalError
from ..inference._block_test import PairTerms, block_statistics, check_blocksize
from ..inference._inference import BLOCK_METHOD, CalTest, block_result, cal_test_arguments
from ..inference import TARGETS as _TARGETS
from ..kernel._skce import ESTIMATORS, SKCE_TYPES, canonical_pair_terms, canonical_residuals, scalar_pair_terms
from ..rbase._rarith import pnorm_upper
from ._collect import is_array, is_matrix_input, map_reduce, pair_inputs
from ._pass import checked_chunk, problems, spec_for, unpaired, verdict
from ._refusals import refuse

__all__ = ["skce", "cal_test"]

_LD = np.longdouble


def _kernel_problems(p, y, form, k):
    """Per kernel: the arrays its pair terms need (``(r, e)`` or ``(p, u)``)."""
    if form == "canonical":
        return [(p, canonical_residuals(p, y))]
    return [(r, c.astype(np.float64) - r) for r, c in problems(p, y, form, k)]


def _terms(form, a, b, h, i, j):
    if form == "canonical":
        return canonical_pair_terms(a, b, h, i, j)
    return scalar_pair_terms(a, b, h, i, j)


def _moments(t: np.ndarray):
    m = t.size
    if m == 0:
        return (0, _LD(0), _LD(0))
    s = np.sum(t, dtype=_LD)
    d = t.astype(_LD) - s / m
    return (m, s, np.sum(d * d))


def _merge_moments(a, b):
    (na, sa, qa), (nb, sb, qb) = a, b
    if na == 0:
        return b
    if nb == 0:
        return a
    delta = sb / nb - sa / na
    return (na + nb, sa + sb, qa + qb + delta * delta * (_LD(na) * nb / (na + nb)))


def _ul_chunk(pc, yc, spec, hs):
    p, y, ans = checked_chunk(pc, yc, spec)
    if hs is None or p is None:
        return ans
    length = p.shape[0]
    ends = []
    for j, (a, b) in enumerate(_kernel_problems(p, y, spec.form, spec.k)):
        for q in (0, 1):
            i = np.arange(q, length - 1, 2)
            ans[f"m{j}_{q}"] = ("cat", [_moments(_terms(spec.form, a, b, hs[j], i, i + 1))])
        ends.append((a[:1].copy(), b[:1].copy(), a[-1:].copy(), b[-1:].copy()) if length else None)
    ans["ends"] = ("cat", [(length, ends)])
    return ans


def _pair_moments(ans, spec, hs, n_prob):
    """Per problem, the merged ``(m, sum, centred sum of squares)`` of the pair terms."""
    ends = ans["ends"]
    out = []
    for j in range(n_prob):
        total = (0, _LD(0), _LD(0))
        offset = 0
        last = None
        for c, (length, per) in enumerate(ends):
            if length == 0:
                continue
            a0, b0, a1, b1 = per[j]
            q = offset % 2
            if q == 1:
                la, lb = last
                t = _terms(spec.form, np.concatenate([la, a0]), np.concatenate([lb, b0]), hs[j],
                           np.array([0]), np.array([1]))
                total = _merge_moments(total, _moments(t))
            total = _merge_moments(total, ans[f"m{j}_{q}"][c])
            offset += length
            last = (a1, b1)
        out.append(total)
    return out


def _kernel_inputs(p, y, type, bandwidth):
    """``(pairs, form, spec)`` of a kernel call's inputs; the median bandwidth refused."""
    pairs = pair_inputs(p, y)
    if bandwidth == "median":
        raise refuse(
            'bandwidth = "median" needs every pairwise distance (O(n^2)); pycalib_r.dask does '
            "not compute it. Pass a number (the default 0.2), or the median of a sample: "
            "pycalib_r.skce on a sample gives its bandwidth with the in-memory functions.")
    form = "binary" if not pairs.matrix else type
    spec = spec_for(pairs, form)
    if not pairs.chunks and len(pairs.names) == 4:
        unpaired(pairs, spec)
    return pairs, form, spec


def _ul(p, y, type, bandwidth, *, test):
    pairs, form, spec = _kernel_inputs(p, y, type, bandwidth)
    n_prob = spec.k if form == "classwise" else 1
    hs = [float(bandwidth)] * n_prob
    ans = map_reduce(_ul_chunk, pairs, spec, hs)
    n = verdict(ans, spec, pairs)
    return n, _pair_moments(ans, spec, hs, n_prob)


def _block_chunk(pc, yc, spec, hs, blocksize, offset=0):
    """A chunk's checks (and its length), then, given its first row number
    ``offset``, the statistics of the blocks of global rows ``[kB, (k+1)B)``
    that lie within it, and its rows of the blocks that do not: those
    before its first block boundary (``head``) and after its last (``tail``)."""
    p, y, ans = checked_chunk(pc, yc, spec)
    ans["lengths"] = ("cat", [ans["n_p"][1]])
    if hs is None or p is None:
        return ans
    (a, b), = _kernel_problems(p, y, spec.form, spec.k)
    m = p.shape[0]
    head = min((-offset) % blocksize, m)
    full = ((m - head) // blocksize) * blocksize
    stats = block_statistics(PairTerms.of_form(spec.form, a[head:], b[head:], hs[0]), full, blocksize)
    first = (offset + head) // blocksize
    ans["blocks"] = ("cat", [(first, stats, a[:head].copy(), b[:head].copy(),
                              a[head + full:].copy(), b[head + full:].copy())])
    return ans


def _block(p, y, type, bandwidth, blocksize):
    """The block statistics of the in-memory test: blocks of global rows
    ``[kB, (k+1)B)``, whatever the chunks.

    Each chunk, given its first row number, computes the blocks that lie
    within it and returns the rows of the blocks that straddle its edges
    (at most 2 (B - 1) rows). In row order those rows are whole straddling
    blocks (a block either lies in one chunk or has all of its rows
    there), then the last n mod B rows, dropped; the client computes them.
    The statistics are put in block order, so the test is the in-memory one
    on the same rows (the same numbers in the same order). Chunk lengths come
    from the Dask array's chunks, or (DataFrames) from a first pass of the checks.
    """
    pairs, form, spec = _kernel_inputs(p, y, type, bandwidth)
    h = float(bandwidth)
    check_blocksize(blocksize, 1 << 62)  # refuse a bad value before any pass
    lengths = pairs.lengths
    if lengths is None or isinstance(blocksize, str):
        first = map_reduce(_block_chunk, pairs, spec, None, 2)
        verdict(first, spec, pairs)
        lengths = first["lengths"]
    n = int(sum(lengths))
    blocksize = check_blocksize(blocksize, n)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int).tolist()
    ans = map_reduce(_block_chunk, pairs, spec, [h], blocksize, per_chunk=offsets)
    if verdict(ans, spec, pairs) != n:  # pragma: no cover - the data changed between passes
        raise ProbcalError("The Dask collection's row count changed between two passes over it.")
    parts = ans["blocks"]
    nb = n // blocksize
    stats = np.empty(nb)
    inside = np.zeros(nb, dtype=bool)
    for first, s, *_ in parts:
        stats[first:first + s.size] = s
        inside[first:first + s.size] = True
    rest_a = np.concatenate([x for part in parts for x in (part[2], part[4])])
    rest_b = np.concatenate([x for part in parts for x in (part[3], part[5])])
    rest = (rest_a.shape[0] // blocksize) * blocksize
    if rest // blocksize != nb - int(inside.sum()):  # pragma: no cover - a broken invariant
        raise ProbcalError("internal error: the Dask block test's straddling blocks do not add up.")
    stats[~inside] = block_statistics(PairTerms.of_form(form, rest_a, rest_b, h), rest, blocksize)
    return form, blocksize, stats


def _mean(mom) -> float:
    m, s, _ = mom
    return float(s / m)


def skce(p, y, estimator="uq", bandwidth=0.2, type="canonical"):
    """Linear-time squared kernel calibration error of Dask collections.

    R equivalent: ``probcal::skce(p, y, estimator = "ul", bandwidth, type)``
    (only ``estimator = "ul"``; the quadratic estimators need every pair).

    .. math:: \\widehat{\\mathrm{SKCE}}_{ul} = \\frac{1}{\\lfloor n/2 \\rfloor}
              \\sum_{i=1}^{\\lfloor n/2 \\rfloor} h_{2i-1, 2i}

    over the rows in their order (see :func:`pycalib_r.skce` for the
    kernels). One pass; pairs straddling two chunks are formed from the
    chunks' end rows.

    Parameters
    ----------
    p, y : Dask collections
        As in :func:`pycalib_r.ece`.
    estimator : {"ul"}
        ``"uq"`` and ``"biased"`` are refused (O(n^2) pairs).
    bandwidth : float
        Laplacian bandwidth (``"median"`` is refused: it needs all pairs).
    type : {"canonical", "confidence", "classwise"}
        Multiclass form.

    Returns
    -------
    float

    References
    ----------
    Widmann, D., Lindsten, F., & Zachariah, D. (2019). Calibration tests in
    multi-class classification: A unifying framework. In *NeurIPS 32*.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.2, 0.8, 0.6, 0.3], chunks=3)
    >>> y = da.from_array([0, 1, 1, 1], chunks=3)
    >>> print(f"{pcd.skce(p, y, estimator='ul'):.7g}")
    0.03024248

    As ``pycalib_r.skce(p, y, estimator="ul")`` (probcal 0.2.0's ``skce()``,
    defined in ``pycalib_r/r/contract.R``).
    """
    estimator = match_arg(estimator, ESTIMATORS)
    if estimator != "ul":
        raise refuse(
            f'skce(estimator = "{estimator}") sums over all n^2 pairs and is not computed on '
            'Dask collections. Use estimator="ul" (linear, unbiased), or pycalib_r.skce on a '
            "sample that fits in memory.")
    bandwidth = check_bandwidth(bandwidth, allow_median=True)
    if is_matrix_input(p):
        type = match_arg(type, SKCE_TYPES)
    n, moments = _ul(p, y, type, bandwidth, test=False)
    if n < 2:
        raise ProbcalError('Estimator "ul" needs at least two observations.')
    per = [_mean(m) for m in moments]
    if len(per) == 1:
        return per[0]
    from ..rbase._rarith import r_mean

    return float(r_mean(per))


def cal_test(p, y, method="bootstrap", bandwidth=0.2, n_boot=999, type="canonical", *,
             data_name=None, rng=None, progress=True, blocksize="auto", skew_correction=True):
    """The asymptotic and the block kernel calibration tests on Dask collections.

    R equivalent: ``probcal::cal_test(p, y, method = "asymptotic", bandwidth, type)``.

    With pair terms ``t_i = h_{2i-1, 2i}``, ``m = floor(n / 2)``,
    ``z = sqrt(m) mean(t) / sd(t)`` and the p-value is ``1 - Phi(z)``; one
    pass. ``method="block"`` (Python-only; see :func:`pycalib_r.cal_test`)
    forms the in-memory test's blocks (rows ``[kB, (k+1)B)`` of the whole
    collection, whatever its chunks; the last n mod B rows dropped) and
    equals the in-memory test on the rows in that order: one pass on a Dask
    array, two on a DataFrame (the first finds the partition lengths), as
    with ``blocksize="auto"`` (``shuffle`` and ``order`` are not offered: the
    rows stay where they are).
    ``method="bootstrap"`` (the default in R) needs all pairs and is
    refused here: pass ``method="block"`` or ``method="asymptotic"``.

    Returns
    -------
    CalTest
        The in-memory result class (``statistic``, ``p_value``, ...).

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(40); p = pc.runif(300); y = pc.rbinom(300, 1, p)
    >>> res = pcd.cal_test(da.from_array(p, chunks=70), da.from_array(y, chunks=70),
    ...                    method="asymptotic")
    >>> print(f"{res.p_value:.7g}")
    0.8426357

    As ``pycalib_r.cal_test(p, y, method="asymptotic")`` (probcal 0.2.0's
    ``cal_test()``, defined in ``pycalib_r/r/contract.R``).
    """
    if data_name is None:
        p_name, y_name = getattr(p, "name", None), getattr(y, "name", None)
        named = not is_array(p) and not is_array(y)
        data_name = f"{p_name} and {y_name}" if named and isinstance(p_name, str) and \
            isinstance(y_name, str) and p_name and y_name else "p and y"
    method, type, bandwidth = cal_test_arguments(method, type, bandwidth)
    if method == BLOCK_METHOD:
        form, blocksize, stats = _block(p, y, type, bandwidth, blocksize)
        return block_result(stats, blocksize, skew_correction, data_name, _TARGETS[form])
    if method == "bootstrap":
        raise refuse(
            'cal_test(method = "bootstrap") resamples all n^2 pairs (SKCE_uq) and is not computed '
            'on Dask collections. Use method="asymptotic" (one pass), or pycalib_r.cal_test on a '
            "sample that fits in memory.")
    n, (mom,) = _ul(p, y, type, bandwidth, test=True)
    if n < 4:
        raise ProbcalError("The asymptotic test needs at least four observations.")
    m, s, q = mom
    sigma = math.sqrt(float(q / (m - 1)))
    if not sigma > 0:
        raise ProbcalError("The asymptotic test is degenerate: all pair terms are equal.")
    estimate = float(s / m)
    z = math.sqrt(m) * estimate / sigma
    form = type if is_matrix_input(p) else "binary"
    return CalTest(
        statistic={"z": z},
        p_value=pnorm_upper(z),
        method="Asymptotic kernel calibration test (SKCE_ul, normal approximation)",
        data_name=data_name,
        estimate={"SKCE_ul": estimate},
        target=_TARGETS[form],
        null_distribution=None,
    )

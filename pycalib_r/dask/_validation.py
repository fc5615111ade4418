"""The mergeable validation statistics on Dask collections: Brier, Spiegelhalter's z, Hosmer-Lemeshow.

Each is a sum over rows, so each chunk returns a few sums and the client
applies the in-memory formula: ``brier`` (``val.prob``'s ``Brier``),
``spiegelhalter_z`` (``S:z``, ``S:p``) and ``hoslem_test``, whose type-7
quantile groups are cut at exact order statistics found by counting passes
(:mod:`._select`, as ``ece(strategy = "equal_freq")`` does), then summed per
group in one more pass. The sums are merged in a tree, so the last bits can
differ from R's sequential long-double ``sum`` (relative 1e-15 measured in
tests/dask/test_dask_validation.py); the groups, counts and degrees of freedom are R's.

``val_prob`` as a whole and ``cal_intercept_slope`` are refused: see
:func:`val_prob`.
"""

from __future__ import annotations

import math

import numpy as np

from ..diagnostics._hoslem import check_groups, group_codes, hoslem_breaks, hoslem_ranks, hoslem_result
from ..rbase._rarith import pnorm_upper
from ._collect import map_reduce, pair_inputs
from ._metrics import _bin_chunk, _select_chunk, _wselect_chunk, weight_blocks, weights_verdict
from ._collect import to_array
from ._wselect import weighted_order_statistics
from ._pass import checked_chunk, spec_for, unpaired, verdict
from ._select import order_statistics

__all__ = ["brier", "spiegelhalter_z", "hoslem_test"]


def _sums_chunk(pc, yc, spec):
    p, y, ans = checked_chunk(pc, yc, spec)
    if p is None or y is None:
        return ans
    y = y.astype(np.float64)
    d = p - y
    q = 1 - 2 * p
    ans["sq"] = ("sum", float(np.sum(d * d)))
    ans["num"] = ("sum", float(np.sum((y - p) * q)))
    ans["den"] = ("sum", float(np.sum(q * q * p * (1 - p))))
    return ans


def _checked(p, y, job_fn, *args):
    pairs = pair_inputs(p, y, matrix_ok=False)
    spec = spec_for(pairs, "binary")
    if not pairs.chunks:
        unpaired(pairs, spec)
    ans = map_reduce(job_fn, pairs, spec, *args)
    n = verdict(ans, spec, pairs)
    return pairs, spec, ans, n


def brier(p, y) -> float:
    """Brier score of Dask collections: ``mean((p - y)^2)``.

    R equivalent: ``rms::val.prob(p, y)["Brier"]``. Python-only as a Dask
    function (merged chunk sums; R's bits to rounding).

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 1, 1, 1], chunks=3)
    >>> print(f"{pcd.brier(p, y):.7g}")
    0.175
    """
    _, _, ans, n = _checked(p, y, _sums_chunk)
    return float(ans["sq"]) / n


def spiegelhalter_z(p, y):
    """Spiegelhalter's z and its two-sided p-value of Dask collections: ``(z, p_value)``.

    R equivalent: ``rms::val.prob(p, y)[c("S:z", "S:p")]``, with
    ``z = sum((y - p)(1 - 2p)) / sqrt(sum((1 - 2p)^2 p (1 - p)))`` and
    ``2 * pnorm(-|z|)``. Python-only as a Dask function.

    Examples
    --------
    >>> import dask.array as da, pycalib_r.dask as pcd
    >>> p = da.from_array([0.1, 0.2, 0.8, 0.9], chunks=3)
    >>> y = da.from_array([0, 1, 1, 1], chunks=3)
    >>> print(" ".join(f"{v:.7g}" for v in pcd.spiegelhalter_z(p, y)))
    0.4166667 0.6769222

    R: ``val.prob(c(.1, .2, .8, .9), c(0, 1, 1, 1))[c("S:z", "S:p")]`` is
    ``0.4166667 0.6769222``.
    """
    _, _, ans, _ = _checked(p, y, _sums_chunk)
    z = float(ans["num"]) / math.sqrt(float(ans["den"]))
    return z, 2 * pnorm_upper(abs(z))


def _groups_chunk(pc, yc, spec, qq):
    p, y, ans = checked_chunk(pc, yc, spec)
    if p is None or y is None:
        return ans
    y = y.astype(np.float64)
    code = group_codes(qq, p) - 1
    m = qq.size - 1
    ans["count"] = ("sum", np.bincount(code, minlength=m))
    ans["o1"] = ("sum", np.bincount(code, weights=y, minlength=m))
    ans["o0"] = ("sum", np.bincount(code, weights=1 - y, minlength=m))
    ans["e1"] = ("sum", np.bincount(code, weights=p, minlength=m))
    ans["e0"] = ("sum", np.bincount(code, weights=1 - p, minlength=m))
    return ans


def hoslem_test(x, y, g=10, *, data_name="x, y", weights=None):
    """Hosmer-Lemeshow test of Dask collections (:func:`pycalib_r.hoslem_test`'s value).

    R equivalent: ``ResourceSelection::hoslem.test(x, y, g = 10)``, ``x`` the
    0/1 outcomes and ``y`` the fitted probabilities (the Dask face takes
    these; other numbers go to the in-memory test).

    The group breaks are R's type-7 quantiles of ``y`` computed from exact
    order statistics (counting passes, no sort or gather of the data); one
    more pass sums the observed and expected counts per group.

    ``weights`` (Python-only): a Dask column of observation weights, as in
    :func:`pycalib_r.hoslem_test` (the replicated sample's percentiles, found
    by weighted counting passes, and weighted counts per group).

    Examples
    --------
    >>> import dask.array as da, numpy as np, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(1)
    >>> p = pc.runif(200)
    >>> y = pc.rbinom(200, 1, p ** 1.3)
    >>> res = pcd.hoslem_test(da.from_array(y, chunks=64), da.from_array(p, chunks=64),
    ...                       data_name="y, p")
    >>> print(str(res).splitlines()[4])
    X-squared = 10.139, df = 8, p-value = 0.2554

    R: ``hoslem.test(y, p, g = 10)`` on the same data prints the same line.
    """
    g = check_groups(g)
    if weights is not None:
        return _weighted_hoslem(x, y, g, data_name, weights)
    pairs, spec, _, n = _checked(y, x, _sums_chunk)
    ranks = hoslem_ranks(n, g)
    stats = order_statistics(pairs, _select_chunk, spec, 1, [n], [ranks])[0]
    qq = hoslem_breaks(lambda k: stats[k], n, g)
    ans = map_reduce(_groups_chunk, pairs, spec, qq)
    counts = np.asarray(ans["count"])
    return hoslem_result(qq, *(np.asarray(ans[k], dtype=np.float64) for k in ("o0", "o1", "e0", "e1")),
                         int(np.count_nonzero(counts)), g, data_name)


def _wgroups_chunk(pc, yc, spec, qq, wc):
    p, y, ans = checked_chunk(pc, yc, spec)
    if p is None or y is None:
        return ans
    w = to_array(wc).reshape(-1).astype(np.float64)
    keep = w > 0
    p, y, w = p[keep], y[keep].astype(np.float64), w[keep]
    code = group_codes(qq, p) - 1
    m = qq.size
    ans["count"] = ("sum", np.bincount(code, minlength=m))
    for key, v in (("o1", w * y), ("o0", w * (1 - y)), ("e1", w * p), ("e0", w * (1 - p))):
        ans[key] = ("sum", np.bincount(code, weights=v, minlength=m))
    return ans


def _weighted_hoslem(x, y, g, data_name, weights):
    """:func:`hoslem_test` with a weights column: the in-memory weighted test's
    groups (:func:`pycalib_r.diagnostics._hoslem._weighted_hoslem`) from
    weighted order statistics, its weighted counts from one more pass."""
    pairs = pair_inputs(y, x, matrix_ok=False)
    spec = spec_for(pairs, "binary")
    if not pairs.chunks:
        unpaired(pairs, spec)
    blocks = weight_blocks(weights, pairs)
    ans = map_reduce(_bin_chunk, pairs, spec, None, per_chunk=blocks)
    n = verdict(ans, spec, pairs)
    weights_verdict(ans, n)
    total = float(ans["wsum"])
    ranks = hoslem_ranks(total, g).astype(np.float64)
    stats = weighted_order_statistics(pairs, _wselect_chunk, spec, blocks, 1,
                                      [int(ans["npos"])], [ranks])[0]
    qq = hoslem_breaks(lambda k: stats[float(k)], total, g)
    ans = map_reduce(_wgroups_chunk, pairs, spec, qq, per_chunk=blocks)
    k = qq.size - 1
    counts = np.asarray(ans["count"])  # group k + 1: above the last cut (R's NA group)
    sums = [np.asarray(ans[key], dtype=np.float64)[:k] for key in ("o0", "o1", "e0", "e1")]
    return hoslem_result(qq, *sums, int(np.count_nonzero(counts)), g, data_name)

"""``ece_ci()`` on Dask collections (Python-only, as in memory).

Sun et al.'s estimate, its influence-value variance and its null variance
are sums over the occupied bins (cells, for top-k) of a few per-cell sums:
counts, mean residuals, centred residual scatters and the sums of the null
variance's terms. Each chunk returns its cells' sums; the client pools them
(within plus between chunks, :meth:`CellStats.merge`) and applies the
in-memory formula, so the result equals the in-memory one to rounding.
"""

from __future__ import annotations

import numpy as np

from ..inputs._checks import check_bins, check_conf_level, match_arg
from ..inference._ece_interval import check_top_k as _check_top_k
from ..inference._ece_interval import (EDGES, TYPES, CellStats, ece_ci_result, top_k_arrays,
                             warn_sparse)
from ._collect import map_reduce, pair_inputs
from ._pass import checked_chunk, problems, spec_for, unpaired, verdict
from ._refusals import refuse

__all__ = ["ece_ci"]


def _chunk(pc, yc, spec, bins, top_k, edges):
    p, y, ans = checked_chunk(pc, yc, spec)
    if bins is None or p is None or y is None or not p.shape[0]:
        return ans
    if spec.form == "binary":
        z, e = p[:, None], y.astype(np.float64)[:, None]
    elif top_k == 1:
        (r, c), = problems(p, y, "confidence", spec.k)
        z, e = r[:, None], c.astype(np.float64)[:, None]
    else:
        z, e = top_k_arrays(p, y, top_k)
    ans["cells"] = ("cat", [CellStats.of(z, e, bins, edges)])
    return ans


def ece_ci(p, y, bins=15, conf_level=0.9, type="confidence", top_k=2, edges="paper"):
    """:func:`pycalib_r.ece_ci` of Dask collections: the same arguments and result.

    Python-only (no R equivalent). One pass: each chunk returns per-cell
    sums (O(occupied cells) numbers), which the client pools. The binary,
    ``"confidence"`` and ``"topk"`` forms (the paper's) are computed;
    ``type = "classwise"`` (this package's extension, whose null variance
    pairs the bins of every two classes) is refused: use the in-memory
    ``pycalib_r.ece_ci`` on a sample, or ``type = "confidence"``.

    Examples
    --------
    >>> import dask.array as da, pycalib_r as pc, pycalib_r.dask as pcd
    >>> pc.set_seed(41); p = pc.runif(2000); y = pc.rbinom(2000, 1, 0.5 + 0.7 * (p - 0.5))
    >>> res = pcd.ece_ci(da.from_array(p, chunks=500), da.from_array(y, chunks=500))
    >>> print(f"{res.estimate:.4g} [{res.lower:.4g}, {res.upper:.4g}]")
    0.008154 [0.00493, 0.01138]
    """
    pairs = pair_inputs(p, y)
    if pairs.matrix:
        type = match_arg(type, TYPES)
        if type == "classwise":
            raise refuse(
                'ece_ci(type = "classwise") pairs the bins of every two classes and is not '
                'computed on Dask collections. Use type="confidence" or type="topk", or '
                "pycalib_r.ece_ci on a sample that fits in memory.")
        form = "canonical"
    else:
        form = "binary"
    bins = check_bins(bins, python_only=True)
    conf_level = check_conf_level(conf_level)
    edges = match_arg(edges, EDGES, "edges")
    spec = spec_for(pairs, form)
    if not pairs.chunks and len(pairs.names) == 4:
        unpaired(pairs, spec)
    if form == "binary":
        top_k, kind = 1, "binary"
    elif type == "topk":
        top_k, kind = _check_top_k(top_k, spec.k), "topk"
    else:
        top_k, kind = 1, "confidence"
    ans = map_reduce(_chunk, pairs, spec, bins, top_k, edges)
    n = verdict(ans, spec, pairs)
    warn_sparse(n, bins, top_k if kind == "topk" else 1)
    cells = CellStats.merge(ans.get("cells", []))
    t, sigma1_sq, null_var = cells.estimate(n)
    return ece_ci_result(kind, n, spec.k, t, sigma1_sq, null_var, conf_level, bins, top_k, edges)

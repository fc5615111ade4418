# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/R/glm.R, src/library/stats/src/family.c (GPL-2.0-or-later), (c) The R Core Team
"""Observation weights on the Dask calibrators (Python-only, as ``weights=`` in memory).

The weights are a Dask collection of one weight per row: a column of the
same Dask DataFrame as ``x`` and ``y``, or a Dask array. The unweighted first
pass checks ``x`` and ``y`` as before; the weights then ride with ``x`` as a
second column (``x`` and ``w`` in one chunk), one pass checks them (the core's
``check_weights`` rules and messages), and the fits are the in-memory ones'
weighted sums over the chunks: R's weighted IRLS for Platt and beta (prior
weights in ``mustart``, the deviance and the working weights; ``y`` set to 0
where ``w == 0``), the weighted log loss for temperature scaling, weighted
bin sums for histogram binning.
"""

from __future__ import annotations

import numpy as np

from ..inputs._weights import check_weights
from ..calibrators._base import r_log
from ..rstats import GLM_MERGE_RULES, glm_chunk_sums
from ..rbase._rarith import ld_seq_sum as _ld_seq_sum
from ..calibrators._base import clip_eps, plogis, r_log1p
from ._collect import is_array, is_dask, map_reduce, pair_inputs, to_array
from ._refusals import refuse

_LD = np.longdouble
_W = "__pycalib_r_weights__"


def weighted_pairs(x, y, weights, n: int, x_arg: str):
    """``x`` and ``weights`` side by side (one two-column chunk) paired with ``y``,
    after the checks of ``weights`` (the core's messages). Returns the pairs."""
    import pandas as pd

    if not is_dask(weights):
        raise TypeError(f"`weights` must be a Dask collection when `{x_arg}` is one (got "
                        f"{type(weights).__name__}); wrap it with dask.array.from_array() or pass "
                        "a column of the same Dask DataFrame.")
    dtype = weights.dtype
    if not (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)):
        check_weights(np.array([True]), 1)  # the core's "must be a numeric vector"
    if is_array(x) != is_array(weights):
        raise refuse("`weights` must be the same kind of Dask collection as `x` (a Dask array "
                     "beside a Dask array, a column of the same Dask DataFrame beside a column).")
    if is_array(x):
        import dask.array as da

        w = weights.reshape(-1) if weights.ndim != 1 else weights
        m = w.shape[0]
        if m == m and m != n:  # known length (nan when unknown)
            _length_error(n, m)
        both = da.stack([x.astype(np.float64), w.astype(np.float64).rechunk(x.chunks)], axis=1)
    else:
        try:
            both = x.astype(np.float64).to_frame(name=x_arg).assign(**{_W: weights.astype(np.float64)})
        except (ValueError, TypeError, NotImplementedError):
            raise refuse("`weights` must be a column of the same Dask DataFrame as `x` and `y` "
                         "(Dask cannot pair the rows of columns of two frames).") from None
    pairs = pair_inputs(both, y, x_arg, matrix_ok=True)
    flags = map_reduce(_check_chunk, pairs)
    if int(flags["rows"]) != n:
        _length_error(n, int(flags["rows"]))
    for key, bad in (("nan", np.nan), ("inf", np.inf), ("neg", -1.0)):
        if flags[key]:
            check_weights(np.array([bad]), 1)  # the core's message for it
    if not float(flags["total"]) > 0:
        check_weights(np.array([0.0]), 1)
    if not (float(flags["w_pos"]) > 0 and float(flags["w_neg"]) > 0):
        from ..calibrators._weighted import require_weighted_classes

        require_weighted_classes(np.array([0, 1]), np.array([float(flags["w_neg"]), float(flags["w_pos"])]),
                                 (0, 1))
    return pairs, flags


def _length_error(n: int, m: int):
    """The core's length refusal for ``m`` weights and ``n`` rows, without
    holding ``m`` values."""
    from ..inputs._weights import weights_length_error

    raise weights_length_error(n, m)


def _split(pc, yc):
    both = to_array(pc)
    both = np.asarray(both, dtype=np.float64).reshape(-1, 2)
    y = np.asarray(to_array(yc)).reshape(-1)
    y = (y == 1).astype(np.int64) if y.dtype.kind != "b" else y.astype(np.int64)
    return both[:, 0], both[:, 1], y


def _check_chunk(pc, yc):
    x, w, y = _split(pc, yc)
    return {"rows": ("sum", int(w.size)), "nan": ("any", bool(np.isnan(w).any())),
            "inf": ("any", bool(np.isinf(w).any())), "neg": ("any", bool((w < 0).any())),
            "total": ("sum", _ld_seq_sum(w) if w.size else _LD(0)),
            "w_pos": ("sum", _ld_seq_sum(w[y == 1]) if w.size else _LD(0)),
            "w_neg": ("sum", _ld_seq_sum(w[y != 1]) if w.size else _LD(0)),
            "zero": ("sum", int(np.count_nonzero(w == 0)))}


def _design(kind, x, eps, cols):
    # The model matrix of a Platt or beta fit (both Dask fits, weighted or not, use it).
    if kind == "platt":
        full = [np.ones(x.size), x]
    else:
        pc = clip_eps(x, eps)
        full = [np.ones(x.size), r_log(pc), r_log1p(-pc)]
    return np.column_stack([full[c] for c in cols]) if x.size else np.zeros((0, len(cols)))


def _response(kind, y, targets):
    return np.where(y == 1, targets[0], targets[1]) if kind == "platt" else y.astype(np.float64)


def irls_chunk(pc, yc, spec, job):
    """:func:`pycalib_r.dask._calibrators._irls_chunk` with prior weights
    (:func:`pycalib_r.rstats.glm_chunk_sums` sets ``y`` to 0 where ``w == 0``,
    as ``binomial()$initialize`` does, and leaves those rows out of the step)."""
    kind, cols, beta, targets, eps, wtdmu = job
    x, w, y = _split(pc, yc)
    sums = glm_chunk_sums(_design(kind, x, eps, cols), _response(kind, y, targets), beta, w, wtdmu)
    return {key: (GLM_MERGE_RULES[key], value) for key, value in sums.items()}


def loss_chunk(pc, yc, spec, temperature):
    """The weighted binary log loss of one chunk at ``temperature``."""
    from ..calibrators._temperature import LOSS_EPS as _LOSS_EPS

    z, w, y = _split(pc, yc)
    yb = y == 1
    terms = np.empty(z.size)
    terms[yb] = r_log(clip_eps(plogis(z[yb] / temperature), _LOSS_EPS))
    terms[~yb] = r_log1p(-clip_eps(plogis(z[~yb] / temperature), _LOSS_EPS))
    return {"sum": ("sum", _ld_seq_sum(w * terms) if z.size else _LD(0))}


def hist_chunk(pc, yc, spec, breaks):
    """Weighted bin totals and weighted positives of one chunk."""
    from ..binned._binning import find_bins

    p, w, y = _split(pc, yc)
    ids = find_bins(p, breaks)
    n_bins = breaks.size - 1
    return {"totals": ("sum", np.bincount(ids, weights=w, minlength=n_bins)),
            "pos": ("sum", np.bincount(ids, weights=w * y, minlength=n_bins))}

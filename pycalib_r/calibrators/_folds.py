# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/cv.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""R's stratified fold assignment (probcal's internal ``stratified_folds()``).

A module of its own so that the calibrators dealing folds (``cal_cv()``,
``cal_venn_abers(type = "cross")``) import it without importing each other.
"""

from __future__ import annotations

import numpy as np

from .. import _rng
from .._rng.stream._locking import holding
from ._seeding import seeded_stream as _seeded_stream

__all__ = ["stratified_folds"]


def stratified_folds(y, folds: int, seed=None, rng=None) -> np.ndarray:
    """Stratified fold labels ``1..folds``, drawn from R's random stream as R draws them.

    R equivalent: probcal's internal ``stratified_folds(y, folds, seed)``:
    for each class in increasing order, ``sample(which(y == class))``
    permutes its rows and they receive folds ``1, 2, ..., folds, 1, ...``.

    With ``seed`` the permutations come from ``set.seed(seed)`` and the
    caller's stream is left as it was: R saves ``.Random.seed``, seeds,
    draws and restores it (or removes it if it did not exist), which is the
    same as drawing from a separate stream seeded with ``seed``, so that is
    what happens here; neither the global stream nor ``rng`` is touched.
    Without ``seed`` the draws advance ``rng`` (default: the package's global
    R stream, as R advances ``.Random.seed``).

    Parameters
    ----------
    y : array_like
        Labels (binary 0/1 or 1-based class codes).
    folds : int
    seed : int, optional
    rng : None, RRandom or numpy.random.Generator, optional
        The stream used when ``seed`` is None.

    Returns
    -------
    numpy.ndarray of int64
    """
    stream = _seeded_stream(seed, rng) if seed is not None else _rng.resolve_rng(rng)
    labels = np.asarray(y)
    fold_id = np.zeros(labels.size, dtype=np.int64)
    with holding(stream):  # the folds' draws as one serial step on a shared stream
        _assign(stream, labels, folds, fold_id)
    return fold_id


def _assign(stream, labels, folds, fold_id):
    for cls in _classes(labels):
        idx = np.flatnonzero(labels == cls)
        # sample(idx) is idx[sample.int(length(idx))]; every class has at
        # least `folds` >= 2 rows here, so R's length-one rule never applies.
        perm = np.asarray(stream.sample_int(idx.size, idx.size), dtype=np.int64) - 1
        fold_id[idx[perm]] = np.arange(idx.size) % folds + 1


def _classes(labels: np.ndarray) -> np.ndarray:
    """``np.unique(labels)``; for small non-negative integer codes (0/1 labels,
    1..K classes) from a count per value instead of a sort."""
    if labels.dtype.kind in "iu" and labels.size:
        lo, hi = labels.min(), labels.max()
        if lo >= 0 and hi < 1 << 16:
            return np.flatnonzero(np.bincount(labels)).astype(labels.dtype)
    return np.unique(labels)

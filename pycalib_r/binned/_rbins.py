# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/summary.c (GPL-2.0-or-later), (c) The R Core Team
# Derived from: probcal 0.1.0 R/metrics.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""R's per-bin means, bit for bit: ``mean(p[bin == b])`` and ``mean(y[bin == b])``.

probcal's binned metrics (``bin_stats`` in 0.1.0, the contract's bin table
in 0.2.0) take, for every bin, R's ``mean()`` of the predictions in the bin
and of the 0/1 labels in it. R's ``mean()`` of doubles sums in long double
in the order of the observations, divides by the count, and adds the
long-double mean of the deviations (a second pass); of integers it divides
the long-double sum by the count and rounds once (``summary.c``). A sum of
the bin's values in another order, or a double division ``sum / n``, is
off by an ulp often enough to move a printed interval (a bin of ten 0.1's
has mean 0.1 in R, 0.09999999999999999 from a double sum).

The compiled path (``pycalib_r._native.binned``, C's ``long double``,
``src/binned.c``) puts the observations in bin order and sums each bin's
run in the order of the observations; the twin below (numpy
``longdouble``, the same type) sorts the observations by bin, keeping
their order within a bin, and sums each bin sequentially. Both give the
same bits (tests/binned/test_rbins.py, tests/native/test_native_binned.py).

R equivalent: ``vapply(seq_len(B), function(b) mean(p[bin == b]), 0)``.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from .. import _native
from ..rbase._rarith import X87 as _X87

__all__ = ["bin_means", "bin_means_rows", "width_means", "width_means_cols", "edge_means", "WIDTH_KERNEL_MAX"]

_LD = np.longdouble
# Bins up to this size are summed together in one padded block (one column
# per bin, reduced along the leading axis: sequential per column).
_PAD = 32
_NO_IDX = np.empty(0, dtype=np.int64)


def _kernels(work: int):
    """The compiled kernels (``pycalib_r._native.binned``), or None where the
    twin runs: not x86's 80-bit ``long double`` (R's ``LDOUBLE`` here; the
    twin's numpy ``longdouble`` is the platform's, as R's is), the library
    not built or switched off, or an input so small that the twin is as
    quick as a call into C."""
    if not _X87 or work < _KERNEL_MIN:
        return None
    return _native.kernels("binned")


# Below this many observations the twin's few numpy calls cost about what a
# C call does (a few microseconds).
_KERNEL_MIN = 16


def bin_means(ids, x, c, n_ids: int, idx=None):
    """Per bin: ``(counts, conf, acc)`` as R computes them.

    Parameters
    ----------
    ids : int array
        0-based bin of each observation, in ``[0, n_ids)``.
    x : float64 array
        The predictions.
    c : array of 0/1
        The labels (R's integer vector).
    n_ids : int
    idx : int array, optional
        0-based rows of a resample, in its order (R's ``p[idx]``); all rows
        in order when omitted.

    Returns
    -------
    counts : int64 array
    conf : float64 array
        R's ``mean()`` of the bin's ``x`` (NaN for an empty bin).
    acc : float64 array
        R's ``mean()`` of the bin's integer labels (NaN for an empty bin).
    """
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    x = np.ascontiguousarray(x, dtype=np.float64)
    c = np.ascontiguousarray(c, dtype=np.int64)
    idx = _NO_IDX if idx is None else np.ascontiguousarray(idx, dtype=np.int64)
    m = idx.size if idx.size else x.size
    kern = _kernels(m)
    counts = np.empty(n_ids, dtype=np.int64)
    conf = np.empty(n_ids)
    acc = np.empty(n_ids)
    if kern is not None:
        kern.bin_means(ids, x, c, idx, n_ids, counts, conf, acc)
        return counts, conf, acc
    if idx.size:
        ids, x, c = ids[idx], x[idx], c[idx]
    return _bin_means_numpy(ids, x, c, n_ids)


# Equal-width bins up to this many are found inside the compiled kernel
# (its bin ids are 16-bit; beyond, every bin is no longer a possible id).
WIDTH_KERNEL_MAX = 1 << 16


# Calls up to this many observations borrow one kept pair of whole-input
# buffers (2.5 MB) instead of fresh memory: a new buffer's first touch costs
# a page fault per 4 KB page (0.3 ms at 10^5 rows, a third of the call),
# whenever the allocator hands back memory it returned to the system. One
# call at a time borrows it; a concurrent call allocates its own.
_POOL_ROWS = 1 << 18
_pool_lock = threading.Lock()
_pool = []


def _borrow(m: int):
    """``(buf, bid)`` for ``m`` observations from the kept pair (the caller
    then calls :func:`_give_back`), or ``None`` when it is taken or too small."""
    if m > _POOL_ROWS or not _pool_lock.acquire(blocking=False):
        return None
    if not _pool:
        _pool.append((np.empty(_POOL_ROWS), np.empty(_POOL_ROWS, dtype=np.uint16)))
    return _pool[0]


def _give_back():
    _pool_lock.release()


def _compiled_means(x, c, bins: int, run):
    """``(counts, conf, acc)`` of ``bins`` bins filled by ``run(kernels,
    counts, conf, acc, keep_max, *scratch)``, or None where the compiled kernels do not run
    (small input, the library not in use, too many bins, not vectors)."""
    if bins > WIDTH_KERNEL_MAX or not x.ndim == c.ndim == 1:
        return None
    kern = _kernels(x.size)
    if kern is None:
        return None
    out = (np.empty(bins, dtype=np.int64), np.empty(bins), np.empty(bins))
    pooled = _borrow(x.size)
    if pooled:
        scratch = pooled
    elif x.size <= kern._WHOLE:
        # The whole-input buffers from numpy (huge pages where the system
        # has them): the kernel's own allocation takes a 4 KB page fault per
        # page whenever the allocator hands back fresh memory (after another
        # library's large arrays, say): 2,400 faults, 2x the call at 10^6.
        scratch = (np.empty(x.size), np.empty(x.size, dtype=np.uint16))
    else:
        scratch = ()  # by chunks: the kernel's own cache-sized buffers
    try:
        run(kern, *out, kern._KEEP_COUNTS, *scratch)
    finally:
        if pooled:
            _give_back()
    return out


def width_means(x, c, bins: int, label: int = 1):
    """:func:`bin_means` over R's equal-width bins of ``x`` in [0, 1], with
    the 0/1 labels ``c == label``: ``bin_means(equal_width_bins(x, bins), x,
    c == label, bins)``, the same bits (``c`` 0/1 with the default label, or
    class codes with a class's label: a one-vs-rest problem, without an
    indicator array; ``x`` may be a matrix column).

    Where the compiled kernels run (and ``bins <= WIDTH_KERNEL_MAX``) one
    kernel finds the bins and the means in a few passes at memory speed
    (``_native.binned.width_means``), with no id array.
    """
    # A matrix column is copied (about 1 ms per million rows): the kernel's
    # passes over a strided column run four times slower than over a copy.
    x = np.ascontiguousarray(x, dtype=np.float64)
    c = np.asarray(c, dtype=np.int64)
    out = _compiled_means(x, c, bins, lambda kern, *arrays: kern.width_means(x, c, label, bins, *arrays))
    if out is not None:
        return out
    from ._binning import equal_width_bins, occupied_bins  # noqa: PLC0415

    ids, n_ids = occupied_bins(equal_width_bins(x, bins), bins)
    return bin_means(ids, x, c == label, n_ids)


def edge_means(x, c, edges, label: int = 1):
    """:func:`bin_means` over the bins of the sorted ``edges`` (R's
    ``findInterval(x, edges, rightmost.closed = TRUE, all.inside = TRUE)``:
    equal-frequency breaks, or a caller's edges), with the labels ``c ==
    label``: ``bin_means(find_bins(x, edges), x, c == label, edges.size -
    1)``, the same bits. Where the compiled kernels run (and there are at most
    ``WIDTH_KERNEL_MAX`` bins) one kernel finds the bins by binary search and
    the means as :func:`width_means` does, with no id array.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    c = np.asarray(c, dtype=np.int64)
    edges = np.ascontiguousarray(edges, dtype=np.float64)
    bins = edges.size - 1
    out = _compiled_means(x, c, bins, lambda kern, *arrays: kern.edge_means(x, c, label, edges, *arrays))
    if out is not None:
        return out
    from ._binning import find_bins  # noqa: PLC0415

    return bin_means(find_bins(x, edges), x, c == label, bins)


def width_means_cols(p, codes, bins: int, bands=None):
    """:func:`width_means` of every column of the matrix ``p`` against its
    class's labels (``codes == j + 1``): arrays of shape (K, bins), row ``j``
    equal bit for bit to ``width_means(p[:, j], codes, bins, j + 1)``.

    Where the compiled kernels run, a C-ordered matrix goes to one kernel
    that reads its rows a chunk at a time, all classes together
    (``_native.binned.width_means_cols``), with no column copies; up to
    ``_COLS_SAVE`` entries (64 MB) a buffer the size of the matrix holds its
    chunks in bin order between the two sweeps (one kept buffer, see
    :func:`_borrow_store`); beyond it the second sweep re-reads the matrix.
    A column-ordered (Fortran) matrix's columns are contiguous: each is one
    binary call of the kernel, the calls sharing their buffers. Another
    layout is copied to C order. Otherwise (the twin) one column at a time.

    ``bands`` (``_checks.prob_matrix_bands``, for a matrix whose values are
    not checked yet): the C-ordered kernel also scans the matrix as it bins
    it, and the result is ``(counts, conf, acc, found)``, ``found`` what
    ``_native.inputs.unit_rows`` finds; where that kernel does not run, the
    result is None (nothing is computed: the caller checks the values first).
    """
    k = p.shape[1]
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    kern = _kernels(p.size) if bins <= WIDTH_KERNEL_MAX else None
    if bands is not None and (kern is None or (p.flags.f_contiguous and not p.flags.c_contiguous)):
        return None
    if kern is None:
        stats = [width_means(p[:, j], codes, bins, j + 1) for j in range(k)]
        return tuple(np.stack([s[q] for s in stats]) for q in range(3))
    counts = np.empty((k, bins), dtype=np.int64)
    conf = np.empty((k, bins))
    acc = np.empty((k, bins))
    if p.flags.f_contiguous and not p.flags.c_contiguous:
        m = p.shape[0]
        scratch = (np.empty(m), np.empty(m, dtype=np.uint16)) if m <= kern._WHOLE else ()
        for j in range(k):
            kern.width_means(p[:, j], codes, j + 1, bins, counts[j], conf[j], acc[j], kern._KEEP_COUNTS, *scratch)
        return counts, conf, acc
    mat = p if p.flags.c_contiguous else np.ascontiguousarray(p)
    store = _borrow_store(mat.size) if mat.size <= kern._COLS_SAVE else None
    found = np.empty(3, dtype=np.int64)  # filled by the kernel when it scans
    try:
        kern.width_means_cols(mat, codes, bins, counts, conf, acc, kern._KEEP_COUNTS, store,
                              None if bands is None else np.array(bands, dtype=np.float64), found)
    finally:
        if store is not None:
            _give_back_store(store)
    return (counts, conf, acc) if bands is None else (counts, conf, acc, found)


# The classwise kernel's store (a buffer the size of the matrix, up to 64 MB)
# is kept between calls for _STORE_IDLE seconds after the last one: memory
# new to the process costs a page fault and the zeroing of each page at its
# first touch, 2 ms for a matrix of 10^6 x 5 here (the C library keeps and
# reuses blocks below 32 MB itself, so K binary calls' buffers do not pay
# it). One call at a time borrows it; a concurrent call allocates its own.
# After _STORE_IDLE seconds without a call it is released (a timer thread).
# Smaller stores (under 8 MB) come from numpy each time: the C library
# reuses such blocks, and a call that small would pay for the timer.
_STORE_IDLE = 2.0
_STORE_KEPT_MIN = 1 << 20
_store_lock = threading.Lock()
_store = {"buf": None, "timer": None}


def _borrow_store(size: int):
    """A float64 buffer of ``size`` entries: the kept one when it is free
    (grown when smaller), else a new one (always below _STORE_KEPT_MIN)."""
    if size < _STORE_KEPT_MIN or not _store_lock.acquire(blocking=False):
        return np.empty(size)
    try:
        timer, _store["timer"] = _store["timer"], None
        if timer is not None:
            timer.cancel()
        buf, _store["buf"] = _store["buf"], None  # borrowed: a concurrent call does not take it
        if buf is None or buf.size < size:
            buf = None  # the old one's memory goes before the new one comes
            buf = np.empty(size)
        return buf[:size]
    finally:
        _store_lock.release()


def _give_back_store(view) -> None:
    """Keeps a buffer from :func:`_borrow_store` (those below
    _STORE_KEPT_MIN are left to the allocator) and restarts the idle timer."""
    buf = view.base if view.base is not None else view
    if buf.size < _STORE_KEPT_MIN:
        return
    with _store_lock:
        held = _store["buf"]
        if held is None or held.size < buf.size:
            _store["buf"] = buf
        timer = threading.Timer(_STORE_IDLE, _release_store)
        timer.daemon = True
        if _store["timer"] is not None:
            _store["timer"].cancel()
        _store["timer"] = timer
        timer.start()


def _release_store() -> None:
    with _store_lock:
        _store["buf"] = None
        _store["timer"] = None


def _store_after_fork_in_child() -> None:
    # The child has only the forking thread: a lock another thread held at
    # the fork would never be released, and the parent's timer does not run.
    global _store_lock
    _store_lock = threading.Lock()
    _store["buf"] = None
    _store["timer"] = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_store_after_fork_in_child)


def bin_means_rows(ids, x, c, n_ids: int, idx, base: int = 0):
    """:func:`bin_means` of each resample (row of ``idx``, ``base``-based: 1
    for R's ``sample.int`` draws as drawn, without a shifted copy): arrays
    of shape (rows, n_ids). ``ids`` is one bin per observation, shared by
    the resamples (equal-width bins), or one row of them per resample."""
    ids = np.ascontiguousarray(np.atleast_2d(ids), dtype=np.int64)
    x = np.ascontiguousarray(x, dtype=np.float64)
    c = np.ascontiguousarray(c, dtype=np.int64)
    idx = np.asarray(idx)
    idx = np.ascontiguousarray(idx, dtype=idx.dtype if idx.dtype in (np.int32, np.int64) else np.int64)
    rows = idx.shape[0]
    counts = np.empty((rows, n_ids), dtype=np.int64)
    conf = np.empty((rows, n_ids))
    acc = np.empty((rows, n_ids))
    if idx.shape[1] == 0:
        conf[:] = acc[:] = np.nan
        counts[:] = 0
        return counts, conf, acc
    kern = _kernels(idx.size)
    if kern is not None:
        kern.bin_means_rows(ids, x, c, idx, n_ids, counts, conf, acc, base)
        return counts, conf, acc
    for r in range(rows):
        row_ids = ids[r] if ids.shape[0] > 1 else ids[0]
        row = idx[r] - base if base else idx[r]
        counts[r], conf[r], acc[r] = _bin_means_numpy(row_ids[row], x[row], c[row], n_ids)
    return counts, conf, acc


def _bin_means_numpy(ids, x, c, n_ids):
    counts = np.bincount(ids, minlength=n_ids).astype(np.int64)
    csum = np.bincount(ids, weights=c, minlength=n_ids)  # integers: exact in any order
    conf = np.full(n_ids, np.nan)
    acc = np.full(n_ids, np.nan)
    full = counts > 0
    acc[full] = (csum[full].astype(_LD) / counts[full].astype(_LD)).astype(np.float64)
    # A stable sort of 16-bit keys is numpy's radix sort (several times
    # faster than the merge sort of int64 keys); the order is the same.
    keys = ids.astype(np.uint16) if n_ids <= 1 << 16 else ids
    order = np.argsort(keys, kind="stable")
    xs = x[order]
    starts = np.concatenate(([0], np.cumsum(counts)))
    small = np.flatnonzero(full & (counts <= _PAD))
    if small.size:
        conf[small] = _padded_means(xs, starts[small], counts[small])
    for b in np.flatnonzero(counts > _PAD):
        conf[b] = _seq_mean(xs[starts[b]:starts[b + 1]])
    return counts, conf, acc


def _padded_means(xs, starts, counts):
    """R's mean of every short run ``xs[starts[k] : starts[k] + counts[k]]``."""
    width = int(counts.max())
    rank = np.arange(width)[:, None]
    inside = rank < counts[None, :]
    pos = np.where(inside, starts[None, :] + rank, 0)
    block = np.where(inside, xs[pos], 0.0).astype(_LD)
    n = counts.astype(_LD)
    # Reduced along the leading axis: one add per rank, in order (zeros
    # after a run's end leave its sum as it is).
    s = np.add.reduce(block, axis=0) / n
    dev = np.where(inside, block - s[None, :], _LD(0))
    t = np.add.reduce(dev, axis=0)
    return (s + t / n).astype(np.float64)


def _seq_mean(v):
    """R ``mean()`` of a double vector (sequential long double, second pass)."""
    from ..rbase._rarith import ld_seq_sum as _ld_seq_sum  # noqa: PLC0415

    n = _LD(v.size)
    s = _ld_seq_sum(v) / n
    t = _ld_seq_sum(v.astype(_LD) - s)
    return float(s + t / n)

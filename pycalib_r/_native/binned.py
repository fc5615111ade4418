# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/binned.c, whose header names its sources
"""R's per-bin ``mean()`` (``src/binned.c``): the compiled side of
:mod:`pycalib_r.binned._rbins`.

Twins: ``_rbins._bin_means_numpy`` (the numpy ``longdouble`` sums of each
bin's run, the same type as C's ``long double``) with ``_binning``'s bins.
The functions take the arrays the callers already hold (checked dtypes,
contiguous where said) and fill the output arrays given; a C allocation that
fails raises :class:`MemoryError`.
"""

from __future__ import annotations

import numpy as np

from . import c_i64, c_int, c_void_p, fn, ptr

# Up to this many observations the kernel puts the whole input in bin order
# once (buffers of the input's size, the caller's when it passes them);
# beyond, a chunk at a time in cache-sized buffers of its own (src/binned.c's
# WHOLE).
_WHOLE = 1 << 21
# Per-chunk bin counts kept from the first sweep for the second (which then
# needs no histogram), up to this many; beyond, recounted.
_KEEP_COUNTS = 1 << 20
# Matrix entries up to which the classwise kernel keeps the bin-ordered
# matrix between its sweeps (a store the caller lends: 64 MB).
_COLS_SAVE = 1 << 23

_rows = fn("pcr_bin_means_rows", c_int, c_void_p, c_i64, c_void_p, c_void_p, c_i64, c_void_p, c_int, c_i64, c_i64,
           c_i64, c_i64, c_void_p, c_void_p, c_void_p)
_width = fn("pcr_width_means", c_int, c_void_p, c_void_p, c_i64, c_i64, c_i64, c_void_p, c_void_p, c_void_p, c_i64,
            c_void_p, c_void_p)
_edge = fn("pcr_edge_means", c_int, c_void_p, c_void_p, c_i64, c_i64, c_void_p, c_i64, c_void_p, c_void_p, c_void_p,
           c_i64, c_void_p, c_void_p)
_cols = fn("pcr_width_means_cols", c_int, c_void_p, c_i64, c_i64, c_void_p, c_i64, c_void_p, c_void_p, c_void_p,
           c_i64, c_void_p, c_void_p, c_void_p)

_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)


def _ok(rc: int) -> None:
    if rc == -2:
        raise ValueError("pycalib_r: a bin id, label or resample index out of range in the binned kernel")
    if rc != 0:
        raise MemoryError("pycalib_r: the binned kernel could not allocate its buffers")


def _c(a, dtype):
    """``a`` as a C-contiguous array of ``dtype`` (no copy when it is one)."""
    return a if (a.dtype == dtype and a.flags.c_contiguous) else np.ascontiguousarray(a, dtype=dtype)


def _sizes(*pairs) -> None:
    # The C loops trust these lengths: a mismatch is refused here.
    for a, b in pairs:
        if a != b:
            raise ValueError(f"pycalib_r._native.binned: arrays of {a} and {b} entries where one length is needed")


def _out(a, dtype, size=None):
    if a.dtype != dtype or not a.flags.c_contiguous or not a.flags.writeable:
        raise TypeError("pycalib_r._native.binned: an output array must be C-contiguous, writable, " + str(dtype))
    if size is not None and a.size != size:
        raise ValueError(f"pycalib_r._native.binned: an output array of {a.size} entries where {size} are filled")
    return ptr(a)


def bin_means(ids, x, c, idx, n_ids, counts, conf, acc):
    """R's per-bin means of the observations ``idx`` (0-based, in that order;
    ``idx`` of size 0: all of them, in order) of the 0-based bins ``ids``,
    values ``x`` and 0/1 labels ``c``: ``counts`` (int64), ``conf`` (R's
    double ``mean`` of ``x``) and ``acc`` (R's integer ``mean`` of ``c``)
    filled for the ``n_ids`` bins; empty bins get NaN."""
    ids, x, c = _c(ids, _I64), _c(x, _F64), _c(c, _I64)
    idx = _c(idx, _I64)
    m = idx.size if idx.size else x.size
    _sizes((ids.size, x.size), (c.size, x.size))
    _ok(_rows(ptr(ids), 1, ptr(x), ptr(c), x.size, ptr(idx) if idx.size else None, 0, 1, m, 0, n_ids,
              _out(counts, _I64, n_ids), _out(conf, _F64, n_ids), _out(acc, _F64, n_ids)))


def bin_means_rows(ids, x, c, idx, n_ids, counts, conf, acc, base=0):
    """:func:`bin_means` of every row of ``idx`` (rows x m, int32 or int64,
    ``base``-based: R's 1-based ``sample.int`` draws as they are) into the
    rows of ``counts``, ``conf`` and ``acc`` (rows x n_ids); ``ids`` is one
    row for all resamples or one row per resample (2-d)."""
    ids = _c(np.atleast_2d(ids), _I64)
    x, c = _c(x, _F64), _c(c, _I64)
    if idx.dtype != np.int32:
        idx = _c(idx, _I64)
    elif not idx.flags.c_contiguous:
        idx = np.ascontiguousarray(idx)
    rows, m = idx.shape
    if m == 0:
        counts[...] = 0
        conf[...] = acc[...] = np.nan
        return
    _sizes((ids.shape[1], x.size), (c.size, x.size), (ids.shape[0] if ids.shape[0] > 1 else rows, rows))
    k = rows * n_ids
    _ok(_rows(ptr(ids), ids.shape[0], ptr(x), ptr(c), x.size, ptr(idx), int(idx.dtype == np.int32), rows, m, base,
              n_ids, _out(counts, _I64, k), _out(conf, _F64, k), _out(acc, _F64, k)))


def _scratch(buf, bid, m):
    # The caller's whole-input buffers (at least m entries), or None.
    if buf is None or bid is None or buf.size < m or bid.size < m:
        return None, None
    return _out(buf, _F64), _out(bid, np.dtype(np.uint16))


def width_means(x, c, label, bins, counts, conf, acc, keep_max=_KEEP_COUNTS, buf=None, bid=None):
    """R's per-bin means over the equal-width bins of ``x`` (C-contiguous
    float64 in [0, 1]; ``bins`` at most 65,536), with the labels ``c ==
    label`` (``c`` int64: 0/1, or class codes); ``buf`` (float64) and
    ``bid`` (uint16): the caller's buffers of at least ``x.size`` entries,
    or None."""
    x, c = _c(x, _F64), _c(c, _I64)
    _sizes((c.size, x.size))
    b, d = _scratch(buf, bid, x.size)
    _ok(_width(ptr(x), ptr(c), x.size, label, bins, _out(counts, _I64, bins), _out(conf, _F64, bins),
               _out(acc, _F64, bins), keep_max, b, d))


def edge_means(x, c, label, edges, counts, conf, acc, keep_max=_KEEP_COUNTS, buf=None, bid=None):
    """:func:`width_means` with the bins of the sorted ``edges`` (at most
    65,537): R's ``findInterval(x, edges, rightmost.closed = TRUE,
    all.inside = TRUE)``."""
    x, c, edges = _c(x, _F64), _c(c, _I64), _c(edges, _F64)
    _sizes((c.size, x.size))
    nb = edges.size - 1
    b, d = _scratch(buf, bid, x.size)
    _ok(_edge(ptr(x), ptr(c), x.size, label, ptr(edges), edges.size, _out(counts, _I64, nb), _out(conf, _F64, nb),
              _out(acc, _F64, nb), keep_max, b, d))


def width_means_cols(p, codes, bins, counts, conf, acc, keep_max=_KEEP_COUNTS, store=None, bands=None, found=None):
    """:func:`width_means` of every column ``j`` of the C-contiguous matrix
    ``p`` against ``codes == j + 1``, into row ``j`` of ``counts``,
    ``conf`` and ``acc`` (K x bins). ``store`` (float64, room for the whole
    matrix, or None) keeps the bin-ordered matrix between the two sweeps;
    ``bands`` ((hi, lo), or None): the first sweep also scans the matrix as
    ``check_prob_matrix`` does, into ``found`` (3 int64: what
    ``inputs.unit_rows`` finds)."""
    if not (p.dtype == _F64 and p.flags.c_contiguous):
        raise TypeError("pycalib_r._native.binned.width_means_cols: p must be C-contiguous float64")
    codes = _c(codes, _I64)
    m, k = p.shape
    _sizes((codes.size, m))
    st = _out(store, _F64) if store is not None and store.size >= p.size else None
    if bands is not None and len(bands):
        bands = _c(np.asarray(bands), _F64)
        bp, fp = ptr(bands), _out(found, _I64, 3)
    else:
        bp = fp = None
    _ok(_cols(ptr(p), m, k, ptr(codes), bins, _out(counts, _I64, k * bins), _out(conf, _F64, k * bins),
              _out(acc, _F64, k * bins), keep_max, st, bp, fp))


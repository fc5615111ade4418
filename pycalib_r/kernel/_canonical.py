"""The canonical kernel: h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j>, u_i = onehot(y_i) - p_i.

Matrix input for ``skce()``, ``cal_test()`` and ``cal_ci()``
(:mod:`pycalib_r.kernel._skce`). The form is O(n^2) and is computed in square
tiles, so at most a bounded block of the n x n matrix exists at a time. Each entry's squared
distance is the sum of squared coordinate differences and its inner product
the sum of coordinate products, in column order, and the bootstrap's
weighted sums run in a fixed order too: loops of this module's own (numpy
passes, or their compiled twins in ``pycalib_r._native.kernel``), never BLAS, so
the bits do not depend on the CPU kernel OpenBLAS picks.
"""

from __future__ import annotations

import os

import numpy as np

from .. import _native
from ._scalar import _mv
from ..rbase._rarith import r_exp, seq_sum

# Canonical tiles: _TILE x _TILE doubles (32 MB) per temporary; distances in
# strips of _STRIP_ELEMENTS doubles (512 KB, within a core's cache).
_TILE = 2048
_STRIP_ELEMENTS = 1 << 16
# The whole canonical matrix is kept while it takes at most this (n <= 5,792).
_FULL_BYTES = 256 << 20
_FLOPS_PER_BLOCK = 1 << 30
# Threads computing canonical tiles (the machine's cores, at most 4).
_WORKERS = max(1, min(4, os.cpu_count() or 1))
# A whole (replicates x n) weight block for the canonical form, if it fits.
_CANONICAL_WEIGHTS_BYTES = 256 << 20
# Pair-class terms of a canonical sum above which it shows a progress bar
# (tens of ns each: a second or more; tqdm's own delay hides quick ones).
_PROGRESS_WORK = 1 << 28


# ---------------------------------------------------------------------------
# Canonical form.
# ---------------------------------------------------------------------------

def _sq_dist_tile(pi: np.ndarray, pj: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances between the rows of two blocks, from differences.

    Each entry is sum_k (pi_k - pj_k)^2 added in column order. The work
    goes in strips of rows small enough to stay in cache through all K
    columns (an entry's arithmetic does not depend on the strip).
    """
    a, b = pi.shape[0], pj.shape[0]
    out = np.empty((a, b))
    pjt = np.ascontiguousarray(pj.T)
    strip = _strip_rows(a, b)
    tmp = np.empty((strip, b))
    for r0 in range(0, a, strip):
        r1 = min(r0 + strip, a)
        o = out[r0:r1]
        t = tmp[:r1 - r0]
        np.subtract(pi[r0:r1, 0:1], pjt[0], out=o)
        np.multiply(o, o, out=o)
        for k in range(1, pi.shape[1]):
            np.subtract(pi[r0:r1, k:k + 1], pjt[k], out=t)
            np.multiply(t, t, out=t)
            o += t
    return out


def _strip_rows(a: int, b: int) -> int:
    return max(1, min(a, _STRIP_ELEMENTS // max(b, 1)))


# The canonical kernel's matrix work runs in loops of this module's own (or
# their compiled twins in _native.kernel, src/kernel.c), never through BLAS:
# a BLAS product's reduction order depends on the CPU kernel OpenBLAS picks
# (OPENBLAS_CORETYPE), so its last bits would differ from machine to machine,
# and some pinned kernels are several times slower.


def _canonical_kernels():
    """The compiled loops (``pycalib_r._native.kernel``), or None where the
    twins run (the library not built or switched off). The kernel calls the
    C library's ``exp``, the function the twin's ``r_exp`` calls too."""
    return _native.kernels("kernel")


def _kernel_tile_twin(pa, pb, ua, ub, h: float) -> np.ndarray:
    """``_native.kernel.kernel_tile`` in numpy passes (the whole block):
    the squared distances of :func:`_sq_dist_tile`, then, strip by strip,
    the kernel factor times the inner products summed in column order."""
    out = _sq_dist_tile(pa, pb)
    a, b = out.shape
    ubt = np.ascontiguousarray(ub.T)
    strip = _strip_rows(a, b)
    tmp = np.empty((strip, b))
    for r0 in range(0, a, strip):
        r1 = min(r0 + strip, a)
        o = out[r0:r1]
        t = tmp[:r1 - r0]
        np.sqrt(o, out=o)
        o /= -h  # -(d / h): negation is exact, as R's -distance / bandwidth
        o[...] = r_exp(o)
        np.multiply(ua[r0:r1, 0:1], ubt[0], out=t)
        for k in range(1, ua.shape[1]):
            t += ua[r0:r1, k:k + 1] * ubt[k]
        o *= t
    return out


def _row_sums(out: np.ndarray) -> np.ndarray:
    """Each row's entries summed in ascending column order from +0.0: numpy's
    reduction over the rows of the transposed tile (one add per row of it,
    starting from add's identity). A single row is a contiguous vector,
    which numpy would sum pairwise: that one is summed in order."""
    if out.shape[0] == 1:
        return np.array([seq_sum(out[0]) if out.shape[1] else 0.0])
    return np.add.reduce(np.ascontiguousarray(out.T), axis=0)


def _row_cuts(a: int, k: int, triangular: bool) -> np.ndarray:
    """Row boundaries cutting ``a`` rows into ``k`` pieces of equal work
    (rows i of a triangle hold a - i entries)."""
    share = np.arange(k + 1) / k
    return np.round(a * (1 - np.sqrt(1 - share)) if triangular else a * share).astype(np.int64)


def _kernel_tile(pa, pb, ua, ub, h: float, diagonal: bool = False):
    """exp(-||pa_i - pb_j|| / h) <ua_i, ub_j> for the rows of two blocks, and
    each row's sum.

    Each squared distance is the sum of the squared coordinate differences
    and each inner product the sum of the coordinate products, both in
    column order; an entry depends only on its two rows. ``diagonal``: the
    two blocks are the same rows, and only the strict upper triangle is
    kept (zeros on and below the diagonal: every user of a diagonal tile
    takes the pairs i < j). The row sums add a row's kept entries in
    ascending j (numpy's reduction over the rows of the transposed tile).
    Returns (tile, row sums).
    """
    a, b = pa.shape[0], pb.shape[0]
    kern = _canonical_kernels() if a * b >= _NATIVE_MIN_ENTRIES else None
    if kern is None:
        out = _kernel_tile_twin(pa, pb, ua, ub, h)
        if diagonal:
            out = np.triu(out, 1)
        return out, _row_sums(out)
    out = np.empty((a, b))
    rowsum = np.empty(a)
    args = (np.ascontiguousarray(pa), np.ascontiguousarray(pb.T), np.ascontiguousarray(ua),
            np.ascontiguousarray(ub.T), float(h), bool(diagonal))
    k = _native.parts() if a * b >= _SPLIT_MIN_WORK // 16 else 1
    # Each entry and each row sum is computed alone, so the cut changes no bit.
    cuts = _row_cuts(a, k, diagonal)
    _native.run_parts([lambda i0=int(i0), i1=int(i1): kern.kernel_tile(*args, i0, i1, out, rowsum)
                       for i0, i1 in zip(cuts[:-1], cuts[1:]) if i1 > i0])
    return out, rowsum


# Entries of a block from which the compiled loops run (below, the numpy
# passes cost about what the calls into C do), and entries x replicates from
# which the weighted sums use several cores.
_NATIVE_MIN_ENTRIES = 1 << 8
_SPLIT_MIN_WORK = 1 << 22


def _block_quadratic_twin(hm, wat, wbt, diag: bool) -> np.ndarray:
    """``_native.kernel.block_quadratic`` in numpy passes: one per column j."""
    a, b = hm.shape
    acc = np.zeros((a, wat.shape[1]))
    hmt = np.ascontiguousarray(hm.T)
    for j in range(b):
        stop = min(j, a) if diag else a
        if stop:
            acc[:stop] += hmt[j, :stop, None] * wbt[j]
    q = np.zeros(wat.shape[1])
    for i in range(a):
        q += wat[i] * acc[i]
    return q


def _packed_weights(w: np.ndarray, rb: int) -> np.ndarray:
    """(replicates x columns) weights as blocks of ``rb`` replicates, each
    (columns x rb) and contiguous, the last padded with zero weights (their
    sums are computed and dropped): one transposing copy."""
    n_rep, b = w.shape
    nblk = -(-n_rep // rb)
    out = np.zeros((nblk, b, rb))
    for k in range(nblk):
        part = w[k * rb:(k + 1) * rb]
        out[k, :, :part.shape[0]] = part.T
    return out


def block_quadratic(hm, wa, wb, diag: bool) -> np.ndarray:
    """For each row r of the weights: sum_i wa_ri sum_j wb_rj H_ij, i and j
    ascending (j > i on a diagonal block), in a fixed order, without BLAS."""
    hm = np.ascontiguousarray(hm)
    n_rep = np.shape(wa)[0]
    entries = hm.shape[0] * hm.shape[1] // (2 if diag else 1)
    kern = _canonical_kernels() if entries * n_rep >= _NATIVE_MIN_ENTRIES else None
    if kern is None:
        wat = np.ascontiguousarray(np.asarray(wa, dtype=np.float64).T)
        wbt = wat if diag else np.ascontiguousarray(np.asarray(wb, dtype=np.float64).T)
        return _block_quadratic_twin(hm, wat, wbt, diag)
    rb = kern._RB
    # The weights' values (int8 signs or float64) are exact in float64.
    wpa = _packed_weights(np.asarray(wa), rb)
    wpk = wpa if diag else _packed_weights(np.asarray(wb), rb)
    nblk = wpa.shape[0]
    a = hm.shape[0]
    contrib = np.empty((a, nblk * rb))
    k = _native.parts() if entries * n_rep >= _SPLIT_MIN_WORK else 1
    cuts = _row_cuts(a, k, diag)
    # Rows cut into pieces of equal work: each (row, replicate) sum is one
    # thread's, and the rows are added in order afterwards, so the cut
    # changes no bit; each piece has its own scratch.
    _native.run_parts([lambda i0=int(i0), i1=int(i1): kern.block_quadratic(hm, wpa, wpk, diag, i0, i1, contrib)
                       for i0, i1 in zip(cuts[:-1], cuts[1:]) if i1 > i0])
    q = np.empty(nblk * rb)
    kern.ordered_row_sum(contrib, q)
    return q[:n_rep]


def canonical_residuals(p_mat: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """u = onehot(y) - p (codes are 1-based)."""
    u = -p_mat
    u[np.arange(p_mat.shape[0]), codes - 1] += 1.0
    return u


def canonical_pair_terms(p_mat, u, h: float, i, j) -> np.ndarray:
    d = np.sqrt(np.sum((p_mat[i] - p_mat[j]) ** 2, axis=-1))
    return np.exp(-d / h) * np.sum(u[i] * u[j], axis=-1)


class CanonicalKernel:
    """The canonical kernel h_ij = exp(-||p_i - p_j|| / h) <u_i, u_j>, u = onehot(y) - p.

    The same methods as :class:`ScalarKernel` (see there). The n x n matrix
    is computed in square tiles; while it fits ``_FULL_BYTES`` it is built
    once, kept, and every block of replicates is one pass of
    :func:`block_quadratic` over it; beyond that the tiles are recomputed per block of replicates, so at most
    one tile exists at a time. The off-diagonal sum is always twice the
    exact sum (rounded once) of the rows' sums over j > i, each added in
    ascending j tile by tile, so it does not depend on which.
    """

    def __init__(self, p_mat, u, h: float, tile: int = _TILE):
        self.p = np.ascontiguousarray(p_mat, dtype=np.float64)
        self.u = np.ascontiguousarray(u, dtype=np.float64)
        self.h = float(h)
        self.n = self.p.shape[0]
        self.tile = int(tile)
        # h_ii = exp(0) <u_i, u_i>.
        self.hdiag = np.einsum("ik,ik->i", self.u, self.u)
        self._full = None
        self._offdiag = None

    # -- the protocol --------------------------------------------------------
    def offdiag(self, progress: bool = False) -> float:
        """sum_{i != j} h_ij; with ``progress``, a bar of the pairs done when
        the sum is long (:func:`long_work`)."""
        if self._offdiag is None:
            if 8 * self.n * self.n <= _FULL_BYTES:
                self._build_full()
            else:
                from ..rbase._progress import Progress  # noqa: PLC0415

                rows = np.zeros(self.n)
                with Progress(self.pair_count(), "skce", enabled=progress and self.long_work(),
                              unit="pair") as bar:
                    for sa, sb, _hab, rs in self._tiles():
                        rows[sa] += rs
                        bar.advance(_tile_pairs(sa, sb))
                self._offdiag = _pair_total(rows)
        return self._offdiag

    def pair_count(self) -> int:
        """Pairs i <= j the tile loop covers."""
        return self.n * (self.n + 1) // 2

    def long_work(self) -> bool:
        """True when the tile loop is long enough for a progress bar to help
        (about a second or more: _PROGRESS_WORK pair-class terms)."""
        return self.pair_count() * self.p.shape[1] >= _PROGRESS_WORK

    def diag(self) -> float:
        return float(np.sum(self.hdiag))

    def diag_terms(self) -> np.ndarray:
        return self.hdiag

    def weighted_offdiag(self, ws, progress=None) -> np.ndarray:
        """For each row w: sum_{i != j} w_i w_j h_ij = 2 sum_{i < j}, tile by tile
        in a fixed order (:func:`block_quadratic`)."""
        # In their own dtype (the bootstrap's int8 signs): block_quadratic
        # widens them to float64 as it packs them, exactly.
        ws = np.asarray(ws)
        if 8 * self.n * self.n <= _FULL_BYTES:
            full = self._build_full()
            return 2.0 * block_quadratic(full, ws, ws, True)
        total = np.zeros(ws.shape[0])
        for sa, sb, hab, _rs in self._tiles():
            total += 2.0 * block_quadratic(hab, ws[:, sa], ws[:, sb], sa.start == sb.start)
            if progress is not None:
                progress.advance((sb.stop - sb.start) * (sa.stop - sa.start))
        return total

    def weighted_diag(self, ws) -> np.ndarray:
        ws = np.asarray(ws, dtype=np.float64)
        return _mv(ws * ws, self.hdiag)

    def count_sums(self, counts, distinct: bool) -> np.ndarray:
        counts = np.asarray(counts, dtype=np.float64)
        off = self.weighted_offdiag(counts)
        hd = self.hdiag
        c2 = _mv(counts * counts, hd)
        if distinct:
            return off + (c2 - _mv(counts, hd))
        return off + c2

    def pair_terms(self, i, j) -> np.ndarray:
        return canonical_pair_terms(self.p, self.u, self.h, i, j)

    def batch_rows(self, n_total: int, itemsize: int = 8) -> int:
        # itemsize is ignored: the tiles' products take float64 weights.
        # Bounded memory, and matrix products short enough (about 2^30
        # multiply-adds, a fraction of a second) for Ctrl-C between them.
        n = max(self.n, 1)
        return max(1, min(n_total, _CANONICAL_WEIGHTS_BYTES // (8 * n), _FLOPS_PER_BLOCK // (n * n)))

    # -- tiles -----------------------------------------------------------------
    def _build_full(self) -> np.ndarray:
        """The strict upper triangle of the matrix (zeros on and below the
        diagonal: every use takes the pairs i < j), assembled from the tiles;
        also sets the sum."""
        if self._full is None:
            one = self.n <= self.tile  # one tile covers the matrix: it is the matrix (no copy)
            full = None if one else np.zeros((self.n, self.n))
            rows = np.zeros(self.n)
            for sa, sb, hab, rs in self._tiles():
                rows[sa] += rs
                if one:
                    full = hab
                else:
                    full[sa, sb] = hab
            self._full = full
            self._offdiag = _pair_total(rows)
        return self._full

    def _tile(self, sa: slice, sb: slice):
        hab, rs = _kernel_tile(self.p[sa], self.p[sb], self.u[sa], self.u[sb], self.h, sa.start == sb.start)
        return sa, sb, hab, rs

    def _tiles(self):
        """Yield (slice I, slice J, H_IJ, row sums of H_IJ) for I <= J, in
        order; H_II keeps only its strict upper triangle (:func:`_kernel_tile`).

        Tiles are computed by up to ``_WORKERS`` threads (numpy releases the
        GIL in its loops), at most that many ahead of the consumer, so the
        memory stays a few tiles; each tile is one thread's, and the consumer
        sees them in the same order, so every sum is the same as computed
        serially.
        """
        n, t = self.n, self.tile
        pairs = [(slice(a, min(a + t, n)), slice(b, min(b + t, n)))
                 for a in range(0, n, t) for b in range(a, n, t)]
        if len(pairs) == 1 or _WORKERS < 2:
            for sa, sb in pairs:
                yield self._tile(sa, sb)
            return
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            pending = []
            nxt = 0
            try:
                for _ in pairs:
                    while nxt < len(pairs) and len(pending) < _WORKERS:
                        pending.append(pool.submit(self._tile, *pairs[nxt]))
                        nxt += 1
                    yield pending.pop(0).result()
            finally:
                for fut in pending:
                    fut.cancel()

    def pair_distances(self):
        """Yield the distance tiles of the pairs i < j (flattened)."""
        n, t = self.n, self.tile
        for a in range(0, n, t):
            sa = slice(a, min(a + t, n))
            for b in range(a, n, t):
                sb = slice(b, min(b + t, n))
                d = np.sqrt(_sq_dist_tile(self.p[sa], self.p[sb]))
                if a == b:
                    iu = np.triu_indices(d.shape[0], k=1)
                    yield d[iu]
                else:
                    yield d.ravel()


def _tile_pairs(sa: slice, sb: slice) -> int:
    a, b = sa.stop - sa.start, sb.stop - sb.start
    return a * (a + 1) // 2 if sa.start == sb.start else a * b


def _pair_total(rows: np.ndarray) -> float:
    """sum_{i != j} h_ij = 2 sum_i sum_{j > i} h_ij from the rows' sums: their
    exact sum, rounded once (math.fsum), so no order of the rows matters."""
    import math  # noqa: PLC0415

    return 2.0 * math.fsum(rows.tolist())

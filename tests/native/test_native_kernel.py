"""The canonical kernel's compiled loops (pycalib_r/_native/src/kernel.c)
against their numpy twins, bit for bit, on adversarial blocks.

Twins: ``_canonical._kernel_tile_twin`` (with ``np.triu`` and numpy's row
reduction) and ``_canonical._block_quadratic_twin``. Cases: 1-row and
1-column blocks, diagonal tiles whose rows run past the columns, duplicate
rows (distance 0: exp(0) = 1), bandwidths whose exp underflows to
subnormals and 0, rows cut into pieces at every offset, more replicates than
one block of 40 and a remainder of fewer than eight rows. Skipped under
``PYCALIB_R_NATIVE=0`` (tests/kernel/test_canonical_kernels.py runs the twins then).
"""

from __future__ import annotations

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r.kernel import _canonical as KC


@pytest.fixture(scope="module")
def kern():
    k = _native.kernels("kernel")
    if k is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    return k


def _pu(g, n, k, dup=True):
    p = g.dirichlet(np.ones(k), n)
    if dup and n > 3:
        p[: n // 3] = p[n // 3]
    codes = g.integers(1, k + 1, n)
    return p, KC.canonical_residuals(p, codes)


def _tile(kern, pa, pb, ua, ub, h, diag, cuts):
    a, b = pa.shape[0], pb.shape[0]
    out = np.full((a, b), np.nan)
    rows = np.full(a, np.nan)
    args = (np.ascontiguousarray(pa), np.ascontiguousarray(pb.T), np.ascontiguousarray(ua),
            np.ascontiguousarray(ub.T), float(h), diag)
    for i0, i1 in zip(cuts[:-1], cuts[1:]):
        kern.kernel_tile(*args, i0, i1, out, rows)
    return out, rows


def test_kernel_tile_is_the_twin(kern):
    g = np.random.default_rng(31)
    for a, b, k in ((1, 1, 2), (1, 9, 3), (9, 1, 3), (13, 13, 2), (40, 17, 5), (17, 40, 10)):
        p, u = _pu(g, a + b, k)
        for h in (1e-300, 1e-3, 0.2, 1e300):
            for diag in ((False, True) if a == b else (False,)):
                pa, ua = p[:a], u[:a]
                pb, ub = (p[:a], u[:a]) if diag else (p[a:], u[a:])
                want = KC._kernel_tile_twin(pa, pb, ua, ub, h)
                if diag:
                    want = np.triu(want, 1)
                want_rows = KC._row_sums(want)
                for cuts in ([0, a], [0, a // 2, a], list(range(a + 1))):
                    out, rows = _tile(kern, pa, pb, ua, ub, h, diag, cuts)
                    assert np.array_equal(out.view(np.int64), want.view(np.int64)), (a, b, k, h, diag)
                    assert np.array_equal(rows.view(np.int64), want_rows.view(np.int64))


def test_block_quadratic_is_the_twin(kern):
    g = np.random.default_rng(32)
    for a, n_rep in ((1, 1), (5, 3), (8, 40), (9, 41), (23, 83), (64, 7)):
        p, u = _pu(g, a, 3)
        hm = np.triu(KC._kernel_tile_twin(p, p, u, u, 0.3), 1)
        hm[0, -1] = 5e-324
        for w in (g.choice([-1.0, 1.0], size=(n_rep, a)), g.normal(size=(n_rep, a)),
                  g.multinomial(a, np.full(a, 1 / a), size=n_rep).astype(float)):
            for diag in (True, False):
                wat = np.ascontiguousarray(w.T)
                want = KC._block_quadratic_twin(np.ascontiguousarray(hm), wat, wat, diag)
                rb = kern._RB
                wp = KC._packed_weights(w, rb)
                contrib = np.full((a, wp.shape[0] * rb), np.nan)
                for i0, i1 in zip([0, a // 3, a // 2], [a // 3, a // 2, a]):
                    if i1 > i0:
                        kern.block_quadratic(np.ascontiguousarray(hm), wp, wp, diag, i0, i1, contrib)
                q = np.empty(contrib.shape[1])
                kern.ordered_row_sum(contrib, q)
                assert np.array_equal(q[:n_rep].view(np.int64), want.view(np.int64)), (a, n_rep, diag)


def test_wrong_shapes_are_refused(kern):
    # The C loops trust the shapes: the wrappers refuse a mismatch (no read
    # or write outside the arrays).
    g = np.random.default_rng(33)
    p, u = _pu(g, 6, 3)
    pt = np.ascontiguousarray(p.T)
    out, rows = np.empty((6, 6)), np.empty(6)
    with pytest.raises(ValueError):
        kern.kernel_tile(p, pt, u, pt, 0.2, False, 0, 7, out, rows)
    with pytest.raises(ValueError):
        kern.kernel_tile(p, pt, u, pt, 0.2, False, 0, 6, np.empty((6, 5)), rows)
    with pytest.raises(ValueError):
        kern.kernel_tile(np.asfortranarray(p), pt, u, pt, 0.2, False, 0, 6, out, rows)
    wp = KC._packed_weights(g.normal(size=(3, 6)), kern._RB)
    with pytest.raises(ValueError):
        kern.block_quadratic(out, wp, wp, True, 0, 6, np.empty((6, 1)))
    with pytest.raises(ValueError):
        kern.ordered_row_sum(np.empty((6, 40)), np.empty(39))

"""The compiled input passes (pycalib_r/_native/src/inputs.c) against their
numpy twins on adversarial matrices.

Twins: ``_checks._scan`` with the double row sums of ``rows_off_one`` (the
check's scan), ``_forms._top_label_numpy`` (the top-label form). Every
layout (C, Fortran, strided, read-only), one row, two columns, odd row
counts (the kernels go four and two rows at a time), NaN, infinities of
both signs, -0.0, subnormals, 0 and 1. Skipped under ``PYCALIB_R_NATIVE=0``
(the public paths then run the twins: tests/inputs/test_checks.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r import _native
from pycalib_r.inputs import _checks, _forms


@pytest.fixture(scope="module")
def kern():
    k = _native.kernels("inputs")
    if k is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    return k


def _layouts(m):
    ro = m.copy()
    ro.flags.writeable = False
    return (m, np.asfortranarray(m), np.repeat(m, 2, axis=1)[:, ::2], m[::-1], ro)


_SPOILS = {"ok": None, "nan": np.nan, "inf": np.inf, "-inf": -np.inf, "neg": -0.25, "-0": -0.0, "big": 1.5,
           "sub": 5e-324, "one": 1.0, "zero": 0.0, "off": 0.9}


def _matrices(g):
    for m_rows in (1, 2, 3, 4, 5, 7, 33):
        for k in (2, 3, 5):
            base = g.dirichlet(np.ones(k), m_rows)
            for name, v in _SPOILS.items():
                m = base.copy()
                if v is not None:
                    i, j = int(g.integers(0, m_rows)), int(g.integers(0, k))
                    m[i, j] = v
                    if name == "inf":
                        m[i, (j + 1) % k] = -np.inf  # a NaN row sum from two infinities
                yield name, m


def test_prob_matrix_scan_is_the_twin(kern):
    g = np.random.default_rng(21)
    tol, margin_k = 1e-6, _checks._row_margin
    for name, m in _matrices(g):
        margin = margin_k(m.shape[1])
        for arr in _layouts(m):
            nan, lo, hi, far, near = kern.prob_matrix_scan(arr, tol, margin)
            scan = _checks._scan(arr)
            sums = np.einsum("ij->i", arr)
            assert nan == bool(np.isnan(sums).any())
            unit = bool((np.ascontiguousarray(arr).view(np.uint64) <= 0x3FF0000000000000).all())
            if unit:
                assert (lo, hi) == (0.0, 1.0)
            elif scan.finite:
                assert (lo, hi) == (scan.lo, scan.hi)
            # The decisions _checks takes from it: finite, range, row sums.
            finite = not nan and np.isfinite(lo) and np.isfinite(hi)
            assert finite == scan.finite, name
            if finite:
                assert (lo < 0 or hi > 1) == (scan.lo < 0 or scan.hi > 1)
                dist = np.abs(sums - 1)
                assert far == (dist > tol + margin).sum() and near == (dist >= tol - margin).sum()


def test_unit_rows_adds_to_found(kern):
    g = np.random.default_rng(22)
    for name, m in _matrices(g):
        hi_t, lo_t = _checks.prob_matrix_bands(m)
        for arr in _layouts(m):
            found = np.array([0, 5, 7], dtype=np.int64)
            kern.unit_rows(arr, hi_t, lo_t, found)
            dist = np.abs(np.einsum("ij->i", arr) - 1)
            outside = bool((np.ascontiguousarray(arr).view(np.uint64) > 0x3FF0000000000000).any())
            assert found[0] == int(outside), name
            # NaN distances count in neither band, as the twin's comparisons.
            assert found[1] == 5 + (dist > hi_t).sum() and found[2] == 7 + (dist >= lo_t).sum()


def test_top_label_is_the_twin(kern):
    g = np.random.default_rng(23)
    for n in (1, 2, 5, 1001):
        for k in (2, 3, 6):
            p = np.round(g.dirichlet(np.ones(k), n), 1)  # ties
            p[::3] = 1.0 / k
            if n > 4:
                p[1, :] = 0.0
                p[1, 1] = -0.0
                p[2, :] = -0.0  # (NaN: never here, the matrix is checked first)
            codes = g.integers(1, k + 1, n)
            for arr in _layouts(p):
                got = (np.empty(n), np.empty(n, np.int64))
                kern.top_label(arr, codes, *got)
                want = _forms._top_label_numpy(arr, codes, np.empty(n), np.empty(n, np.int64))
                assert np.array_equal(got[0].view(np.int64), want[0].view(np.int64))
                assert np.array_equal(got[1], want[1])


def test_check_prob_matrix_decides_alike_both_paths(monkeypatch):
    # The public check on matrices just above and below the size where the
    # kernel takes over: the same errors, in R's order.
    g = np.random.default_rng(24)
    for rows in (_checks.INPUT_KERNEL_MIN // 4 - 1, _checks.INPUT_KERNEL_MIN // 4 + 1):
        base = g.dirichlet(np.ones(4), rows)
        for v in (np.nan, np.inf, -0.5, 1.5, -0.0, 0.9):
            m = base.copy()
            m[rows // 2, 1] = v
            outcomes = []
            for limit in (1, 10 ** 12):
                monkeypatch.setattr(_checks, "INPUT_KERNEL_MIN", limit)
                try:
                    _checks.check_prob_matrix(m)
                    outcomes.append("ok")
                except pc.ProbcalError as exc:
                    outcomes.append(str(exc))
            assert outcomes[0] == outcomes[1], v

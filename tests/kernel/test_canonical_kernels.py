"""The canonical kernel's compiled loops against their numpy twins, and its
bits under every OpenBLAS core type this CPU runs (issue 23).

The tile entries and the bootstrap's weighted sums run in loops of the
package's own (numpy passes, or ``pycalib_r._native.kernel``, src/kernel.c), never
through BLAS: both paths give the same bits, and so does every BLAS kernel.
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r.kernel import _skce as K
from pycalib_r.kernel import _canonical as KC

from tests.conftest import ORIGINAL_ENV, REPO


def _kernels():
    kern = _native.kernels("kernel")
    if kern is None:
        pytest.skip("compiled kernels unavailable (PYCALIB_R_NATIVE=0, or not built)")
    return kern


def _data(n, k, seed, duplicates=False):
    g = np.random.default_rng(seed)
    p = g.dirichlet(np.ones(k), size=n)
    if duplicates:
        p[: n // 4] = p[n // 4]
    codes = g.integers(1, k + 1, size=n)
    return p, K.canonical_residuals(p, codes), g


@pytest.mark.parametrize("k", [2, 3, 10])
@pytest.mark.parametrize("h", [0.01, 0.2, 7.0])
def test_tile_kernel_same_bits_as_twin(k, h):
    kern = _kernels()
    p, u, _ = _data(301, k, 11 + k, duplicates=True)
    for a, b, diag in ((slice(0, 301), slice(0, 301), True), (slice(0, 150), slice(150, 301), False)):
        want = KC._kernel_tile_twin(p[a], p[b], u[a], u[b], h)
        if diag:
            want = np.triu(want, 1)
        want_rows = np.add.reduce(np.ascontiguousarray(want.T), axis=0)
        out = np.full((a.stop - a.start, b.stop - b.start), np.nan)
        rows = np.full(out.shape[0], np.nan)
        kern.kernel_tile(np.ascontiguousarray(p[a]), np.ascontiguousarray(p[b].T), np.ascontiguousarray(u[a]),
                         np.ascontiguousarray(u[b].T), h, diag, 0, out.shape[0], out, rows)
        assert np.array_equal(out.view(np.int64), want.view(np.int64))
        assert np.array_equal(rows.view(np.int64), want_rows.view(np.int64))
        # The row sums are sums in ascending j.
        for i in (0, 7, out.shape[0] - 1):
            s = 0.0
            for v in want[i, i + 1 if diag else 0:]:
                s += v
            assert rows[i] == s


@pytest.mark.parametrize("weights", ["rademacher", "counts", "gaussian"])
def test_quadratic_kernel_same_bits_as_twin(weights, monkeypatch):
    _kernels()
    p, u, g = _data(257, 4, 3)
    hm = np.triu(KC._kernel_tile_twin(p, p, u, u, 0.3), 1)
    w = {"rademacher": g.choice([-1.0, 1.0], size=(37, 257)),
         "counts": g.multinomial(257, np.full(257, 1 / 257), size=37).astype(float),
         "gaussian": g.normal(size=(37, 257))}[weights]
    for diag, hb, wa, wb in ((True, hm, w, w), (False, hm[:100, 100:], w[:, :100], w[:, 100:])):
        compiled = K.block_quadratic(hb, wa, wb, diag)
        wat = np.ascontiguousarray(wa.T)
        twin = KC._block_quadratic_twin(np.ascontiguousarray(hb), wat, wat if diag else np.ascontiguousarray(wb.T),
                                       diag)
        assert np.array_equal(compiled, twin)
        want = np.einsum("bi,ij,bj->b", wa, np.triu(hb, 1) if diag else hb, wb)
        assert np.allclose(compiled, want, rtol=1e-12, atol=1e-12)
    # The replicates cut into pieces on several cores: the same bits.
    monkeypatch.setattr(_native, "parts", lambda: 3)
    monkeypatch.setattr(KC, "_SPLIT_MIN_WORK", 1)
    wat = np.ascontiguousarray(w.T)
    assert np.array_equal(K.block_quadratic(hm, w, w, True),
                          KC._block_quadratic_twin(np.ascontiguousarray(hm), wat, wat, True))


def test_canonical_kernel_paths_give_the_same_statistics(monkeypatch):
    """offdiag, weighted_offdiag (full matrix and tiles) and count_sums: the
    compiled path and PYCALIB_R_NATIVE=0's twins agree bit for bit."""
    _kernels()
    p, u, g = _data(300, 5, 21)
    w = g.choice([-1.0, 1.0], size=(9, 300))
    c = g.multinomial(300, np.full(300, 1 / 300), size=4).astype(float)

    def stats():
        out = []
        for full in (True, False):
            if not full:
                monkeypatch.setattr(KC, "_FULL_BYTES", 0)
            kern = K.CanonicalKernel(p, u, 0.25, tile=128)
            out += [kern.offdiag(), *kern.weighted_offdiag(w), *kern.count_sums(c, True)]
        monkeypatch.setattr(KC, "_FULL_BYTES", 256 << 20)
        return out

    compiled = stats()
    monkeypatch.setattr(KC, "_canonical_kernels", lambda: None)
    twin = stats()
    assert [x.hex() for x in map(float, compiled)] == [x.hex() for x in map(float, twin)]


_CHILD = r"""
import json, sys
import numpy as np, threadpoolctl
import pycalib_r as pc
from pycalib_r import _kernel as K
g = np.random.default_rng(5)
n, k = 600, 10
p = g.dirichlet(np.ones(k), size=n)
y = g.integers(1, k + 1, size=n)
kern = K.CanonicalKernel(p, K.canonical_residuals(p, y), 0.2)
w = g.choice([-1.0, 1.0], size=(7, n))
c = g.multinomial(n, np.full(n, 1 / n), size=3).astype(float)
sk = K.kernels(K.kernel_data(p, y, "confidence"), 0.2)[0]
test = pc.cal_test(p, y, n_boot=19, rng=pc.RRandom(1), progress=False)
vals = [pc.skce(p, y), pc.skce(p, y, type="confidence"), pc.skce(p, y, type="classwise"), pc.mmce(p, y),
        kern.offdiag(), *kern.weighted_offdiag(w), *kern.count_sums(c, True), *kern.weighted_diag(c),
        *sk.weighted_offdiag(w), *sk.count_sums(c, False), *sk.weighted_diag(c), sk.diag(),
        test.statistic["SKCE_uq"], test.p_value]
arch = [i.get("architecture") for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
print(json.dumps({"arch": arch, "bits": [float(v).hex() for v in vals]}))
"""

# OpenBLAS core types numpy's OpenBLAS knows; a type this CPU cannot run
# (SkylakeX without AVX-512) kills the child, and is left out.
_CORETYPES = ("Prescott", "Nehalem", "Sandybridge", "Haswell", "SkylakeX")


def test_matrix_kernels_same_bits_under_every_openblas_coretype():
    results = {}
    for mode in ("0", "1"):
        for core in _CORETYPES:
            # The core type is set in the child's environment only.
            # (ORIGINAL_ENV: the environment before R was loaded into this process.)
            env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), PYCALIB_R_NATIVE=mode, OPENBLAS_CORETYPE=core)
            run = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True,
                                 timeout=600)
            if run.returncode < 0:  # SIGILL: instructions this CPU lacks
                continue
            assert run.returncode == 0, run.stderr
            out = json.loads(run.stdout.strip().splitlines()[-1])
            results[(mode, core)] = out
    archs = {tuple(v["arch"]) for v in results.values()}
    assert len(archs) >= 2, f"fewer than two BLAS kernels ran: {archs}"
    bits = {json.dumps(v["bits"]) for v in results.values()}
    assert len(bits) == 1, {k: v["bits"][:4] for k, v in results.items()}

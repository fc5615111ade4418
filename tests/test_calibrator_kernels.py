"""The calibrators' compiled loops against their numpy twins, bit for bit.

Each compiled path (numba) must give exactly the numbers of the numpy path
that ``PYCALIB_R_JIT=0`` runs; the numpy paths are held to R by the stored
fixtures and the live parity tests.
"""

import numpy as np
import pytest

from pycalib_r import _jit

pytestmark = pytest.mark.skipif(not _jit.libm_exact(), reason="compiled float kernels unavailable")


def _bits(x):
    return np.asarray(x, dtype=np.float64).view(np.int64)


def _binary(n, seed, scale=2.0):
    g = np.random.default_rng(seed)
    z = g.normal(0, scale, n)
    y = (g.random(n) < 1 / (1 + np.exp(-z / 2))).astype(np.int64)
    return z, y


@pytest.mark.parametrize("seed,scale", [(1, 2.0), (2, 40.0), (3, 0.01)])
def test_binary_temperature_objective_same_bits(seed, scale):
    from pycalib_r.calibrators._temperature import _binary_objective

    z, y = _binary(3000, seed, scale)
    fast = _binary_objective(z, y, jit=True)
    slow = _binary_objective(z, y, jit=False)
    for t in (1e-3, 0.0137, 0.5, 1.0, 1.9999999, 37.25, 999.0, 1e3):
        assert _bits(fast(t)) == _bits(slow(t))


def test_binary_temperature_fit_same_bits(monkeypatch):
    import pycalib_r as pc
    from pycalib_r.calibrators import _temperature

    z, y = _binary(4000, 4)
    monkeypatch.setattr(_temperature, "_JIT_MIN_ROWS", 1)
    fast = pc.cal_temperature(z, y)
    monkeypatch.setattr(_temperature, "_JIT_MIN_ROWS", 10 ** 12)
    slow = pc.cal_temperature(z, y)
    assert _bits(fast.temperature) == _bits(slow.temperature)
    assert _bits(fast.value) == _bits(slow.value)


@pytest.mark.r_parity
def test_binary_temperature_compiled_path_matches_r(probcal_r):
    """Above the kernel threshold the fit is R's to the last bit (Brent on R's arithmetic)."""
    import pycalib_r as pc
    from pycalib_r.calibrators import _temperature
    from tests.conftest import r_assign

    z, y = _binary(_temperature._JIT_MIN_ROWS + 5000, 5)
    r_assign(probcal_r, z=z, y=y)
    probcal_r.r("f <- cal_temperature(z, y)")
    fit = pc.cal_temperature(z, y)
    assert _bits(fit.temperature) == _bits(probcal_r.r("f$temperature")[0])
    assert _bits(fit.value) == _bits(probcal_r.r("f$value")[0])


def _special_values(n, seed):
    g = np.random.default_rng(seed)
    x = np.concatenate([g.random(n), np.exp(g.normal(0, 30, n)),
                        [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, 1.0, -1e-300, 1e-17]])
    return np.concatenate([x, -x[:2]])  # 2 n + 12 values


@pytest.mark.parametrize("name", ["r_log", "r_log1p"])
def test_compiled_log_same_bits_as_scipy(name):
    from scipy import special as sp

    from pycalib_r import _rarith

    ref = {"r_log": lambda a: sp.xlogy(1.0, a), "r_log1p": lambda a: sp.boxcox1p(a, 0.0)}[name]
    x = _special_values(_rarith._LIBM_JIT_MIN, 6)
    for a in (x, -0.999 * x, x.reshape(-1, 4)[:, ::2], np.asfortranarray(x.reshape(-1, 4))):
        with np.errstate(all="ignore"):
            got, want = getattr(_rarith, name)(a), ref(a)
        assert a.size >= _rarith._LIBM_JIT_MIN
        assert got.shape == want.shape and got.flags.f_contiguous == want.flags.f_contiguous
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(np.signbit(got), np.signbit(want))
        ok = ~np.isnan(want)
        assert np.array_equal(_bits(got[ok]), _bits(want[ok]))

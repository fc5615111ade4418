"""The temperature objectives' and libm's compiled kernels against their
numpy twins, bit for bit (``src/temperature.c``, ``src/libm.c``).

Each kernel must give exactly the numbers of the numpy path that
``PYCALIB_R_NATIVE=0`` runs; the numpy paths are held to R by the stored
fixtures and the live parity tests (the R comparison here runs the compiled
path above its threshold).
"""

import numpy as np
import pytest

from pycalib_r import _native
from tests.native.test_calibrator_kernels import _binary, _bits

pytestmark = pytest.mark.skipif(not _native.available(), reason="the compiled kernels are not built (or PYCALIB_R_NATIVE=0)")


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
    monkeypatch.setattr(_temperature, "NATIVE_MIN_SIZE", 1)
    fast = pc.cal_temperature(z, y)
    monkeypatch.setattr(_temperature, "NATIVE_MIN_SIZE", 10 ** 12)
    slow = pc.cal_temperature(z, y)
    assert _bits(fast.temperature) == _bits(slow.temperature)
    assert _bits(fast.value) == _bits(slow.value)


@pytest.mark.r_parity
def test_binary_temperature_compiled_path_matches_r(probcal_r):
    """Above the kernel threshold the fit is R's to the last bit (Brent on R's arithmetic)."""
    import pycalib_r as pc
    from pycalib_r.calibrators import _temperature
    from tests.conftest import r_assign

    z, y = _binary(_temperature.NATIVE_MIN_SIZE + 5000, 5)
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

    from pycalib_r.rbase import _rarith

    ref = {"r_log": lambda a: sp.xlogy(1.0, a), "r_log1p": lambda a: sp.boxcox1p(a, 0.0)}[name]
    x = _special_values(_rarith.NATIVE_MIN_SIZE, 6)
    for a in (x, -0.999 * x, x.reshape(-1, 4)[:, ::2], np.asfortranarray(x.reshape(-1, 4))):
        with np.errstate(all="ignore"):
            got, want = getattr(_rarith, name)(a), ref(a)
        assert a.size >= _rarith.NATIVE_MIN_SIZE
        assert got.shape == want.shape and got.flags.f_contiguous == want.flags.f_contiguous
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(np.signbit(got), np.signbit(want))
        ok = ~np.isnan(want)
        assert np.array_equal(_bits(got[ok]), _bits(want[ok]))



@pytest.mark.parametrize("kind,pieces", [("binary", 2), ("binary", 3), ("binary", 4),
                                         ("multiclass", 2), ("multiclass", 3)])
def test_temperature_terms_on_several_cores_same_bits(monkeypatch, kind, pieces):
    # The rows are cut into pieces run on different threads (the package's
    # thread setting, _native.parts); the objective (and so Brent's iterates)
    # must not depend on how many.
    from pycalib_r.calibrators import _temperature
    from pycalib_r.rbase._rarith import _X87

    if kind == "binary":
        (x, y), make = _binary(60_001, 11, 3.0), _temperature._binary_objective
    else:
        if not _X87:
            pytest.skip("the compiled objective uses the x87 unit")
        (x, y), make = _multiclass(20_011, 6, 12), _temperature._multiclass_objective
    monkeypatch.setattr(_temperature, "_SPLIT_MIN", 1)
    monkeypatch.setattr(_native, "parts", lambda: 1)
    one = make(x, y, jit=True)
    monkeypatch.setattr(_native, "parts", lambda: pieces)
    many = make(x, y, jit=True)
    for t in (1e-3, 0.5, 1.0, 2.0000001, 37.25, 1e3):
        a, b = one(t), many(t)
        assert _bits(a) == _bits(b) or (np.isnan(a) and np.isnan(b))


def _multiclass(n, k, seed, scale=3.0):
    g = np.random.default_rng(seed)
    z = g.normal(0, scale, (n, k))
    if n > 3:
        z[0, 0] = 700.0  # overflows over a small temperature: NaN terms, as numpy's
        z[1, :] = -745.0
        z[2, :] = 1e-300
    return z, g.integers(1, k + 1, n)


@pytest.mark.parametrize("n,k,seed,scale", [(3000, 3, 1, 3.0), (2000, 10, 2, 40.0), (1500, 5, 3, 0.01),
                                            (120_001, 4, 4, 3.0)])
def test_multiclass_temperature_objective_same_bits(n, k, seed, scale):
    # One compiled pass per evaluation (rows in blocks, on several cores from
    # 50,000 rows) against numpy's softmax and multiclass_log_loss.
    from pycalib_r.rbase._rarith import _X87
    from pycalib_r.calibrators._temperature import _multiclass_objective

    if not _X87:
        pytest.skip("the compiled objective uses the x87 unit")
    z, codes = _multiclass(n, k, seed, scale)
    fast = _multiclass_objective(z, codes, jit=True)
    slow = _multiclass_objective(z, codes, jit=False)
    for t in (1e-3, 0.0137, 0.5, 1.0, 1.9999999, 37.25, 999.0, 1e3):
        a, b = fast(t), slow(t)
        assert _bits(a) == _bits(b) or (np.isnan(a) and np.isnan(b))


def _adversarial_logits(k, seed):
    # Rows the kernel treats specially: ties at the maximum (several exact
    # zeros after the subtraction, each given exp's fast path and set to 1),
    # constant rows, a row whose other entries underflow exp, integer logits
    # (many ties), subnormal and signed-zero entries, one huge entry.
    g = np.random.default_rng(seed)
    rows = [np.zeros(k), np.full(k, -0.0), np.full(k, 5.0), np.full(k, 5e-324),
            np.r_[[3.0] * (k - 1), 1.0], np.r_[1.0, [3.0] * (k - 1)], np.r_[0.0, [-800.0] * (k - 1)],
            np.r_[-0.0, 0.0, [-1e-300] * (k - 2)], np.r_[700.0, [-700.0] * (k - 1)]]
    ints = g.integers(-3, 4, (997, k)).astype(np.float64)
    z = np.vstack([np.array(rows), ints, g.normal(0, 30, (1000, k))])
    return z, g.integers(1, k + 1, z.shape[0])


@pytest.mark.parametrize("fast_exp", [False, True])
@pytest.mark.parametrize("k", [2, 3, 5, 10, 17])
def test_multiclass_temperature_terms_adversarial_rows_same_bits(k, fast_exp):
    # Term by term (not only the mean): the compiled kernel against numpy's
    # softmax, clip and log, on rows built to hit its exact-zero handling.
    from pycalib_r.calibrators._base import clip_eps, r_log, softmax
    from pycalib_r.rbase._rarith import _X87

    if not _X87:
        pytest.skip("the compiled objective uses the x87 unit")
    kern = _native.kernels("temperature")
    if fast_exp and not kern.fast_exp_ok():
        pytest.skip("glibc's exp here is not the FMA build the vectorised exp follows")
    z, codes = _adversarial_logits(k, k)
    n = z.shape[0]
    for t in (1e-3, 0.37, 1.0, 3.0, 1e3):
        fast = np.empty(n)
        kern.multiclass_temperature_terms(z, codes.astype(np.int64), t, 1e-15, fast, np.empty(2 * k * kern.BLOCK), 0, n,
                                          fast_exp)
        with np.errstate(all="ignore"):
            slow = r_log(clip_eps(softmax(z / t)[np.arange(n), codes - 1], 1e-15))
        assert np.array_equal(_bits(fast), _bits(slow))


def test_vectorised_exp_is_glibcs_exp_bit_for_bit():
    # exp_block (glibc's FMA build's main path, vectorised) against a call of
    # glibc's exp per element, on 3 million arguments: every path (|x| below
    # 2^-54, the main path, 512 <= |x| < 1024, overflow, underflow to
    # subnormals and zero, inf, NaN) and each of the 128 table entries many
    # times. Where the process's check refuses it, the kernels never use it.
    import math

    from pycalib_r.rbase._rarith import _X87

    if not _X87:
        pytest.skip("the compiled float kernels run only where the x87 checks pass")
    mod = _native.kernels("libm")
    if not mod.fast_exp_ok():
        pytest.skip("glibc's exp here is not the FMA build the vectorised exp follows")
    g = np.random.default_rng(4242)
    x = np.concatenate([g.normal(0, 5, 1_000_000), -g.exponential(3, 1_000_000), g.uniform(-1100, 1100, 500_000),
                        np.ldexp(g.uniform(-1, 1, 400_000), g.integers(-1074, 11, 400_000)),
                        np.arange(-70_000, 70_000) * (math.log(2) / 128),
                        [0.0, -0.0, 5e-324, -5e-324, 2.0 ** -54, -(2.0 ** -54), 2.0 ** -55, 512.0, -512.0, 1024.0,
                         709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412,
                         -708.3964185322641, math.inf, -math.inf, math.nan]])
    fast, slow = np.empty_like(x), np.empty_like(x)
    mod.exp_block(x, fast)
    mod.exp_calls(x, slow)
    assert np.array_equal(_bits(fast), _bits(slow))


def test_direct_libm_entries_are_the_wrappers_bits():
    # Kernels (the multiclass temperature one) call glibc's __exp_finite/__log_finite (exp and
    # log without the errno wrapper) only when they give the wrapper's bits;
    # a different function is refused (the wrapper is used instead).
    import ctypes
    import ctypes.util
    import math

    from pycalib_r._native import libm as tk

    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    args = tk._check_args()
    wrapper = ctypes.cast(libm.exp, ctypes.c_void_p).value
    assert tk._libm_entry(libm, "exp", "__exp2_finite", args) == wrapper
    assert tk._libm_entry(libm, "exp", "__no_such_symbol", args) == wrapper
    addr = tk._libm_entry(libm, "exp", "__exp_finite", args)
    if addr == wrapper:
        pytest.skip("no direct exp entry in this C library")
    proto = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double)
    direct = proto(addr)
    g = np.random.default_rng(38)
    for x in np.concatenate([g.normal(0, 20, 20_000), -g.exponential(30, 20_000)]).tolist():
        assert direct(x) == math.exp(x)


def test_multiclass_temperature_fit_same_bits(monkeypatch):
    import pycalib_r as pc
    from pycalib_r.calibrators import _temperature

    z, codes = _multiclass(6000, 5, 5)
    z[:3] = 0.0
    monkeypatch.setattr(_temperature, "NATIVE_MIN_SIZE", 1)
    fast = pc.cal_temperature(z, codes)
    monkeypatch.setattr(_temperature, "NATIVE_MIN_SIZE", 10 ** 12)
    slow = pc.cal_temperature(z, codes)
    assert _bits(fast.temperature) == _bits(slow.temperature)
    assert _bits(fast.value) == _bits(slow.value)

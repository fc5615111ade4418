"""The calibrators' compiled loops against their numpy twins, bit for bit.

Each compiled path (numba, or C in ``pycalib_r/_native``) must give exactly
the numbers of the numpy path that ``PYCALIB_R_JIT=0`` / ``PYCALIB_R_NATIVE=0``
runs; the numpy paths are held to R by the stored fixtures and the live
parity tests.
"""

import numpy as np
import pytest

from pycalib_r import _jit, _native

pytestmark = pytest.mark.skipif(not _jit.libm_exact(), reason="compiled float kernels unavailable")
needs_native = pytest.mark.skipif(not _native.available(), reason="the C kernels are off: only the twins run")


def _twins_only(monkeypatch):
    """The C kernels off, as under ``PYCALIB_R_NATIVE=0``."""
    monkeypatch.setitem(_native._state, "lib", None)


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
    monkeypatch.setattr(_temperature, "JIT_MIN_SIZE", 1)
    fast = pc.cal_temperature(z, y)
    monkeypatch.setattr(_temperature, "JIT_MIN_SIZE", 10 ** 12)
    slow = pc.cal_temperature(z, y)
    assert _bits(fast.temperature) == _bits(slow.temperature)
    assert _bits(fast.value) == _bits(slow.value)


@pytest.mark.r_parity
def test_binary_temperature_compiled_path_matches_r(probcal_r):
    """Above the kernel threshold the fit is R's to the last bit (Brent on R's arithmetic)."""
    import pycalib_r as pc
    from pycalib_r.calibrators import _temperature
    from tests.conftest import r_assign

    z, y = _binary(_temperature.JIT_MIN_SIZE + 5000, 5)
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
    x = _special_values(_rarith.JIT_MIN_SIZE, 6)
    for a in (x, -0.999 * x, x.reshape(-1, 4)[:, ::2], np.asfortranarray(x.reshape(-1, 4))):
        with np.errstate(all="ignore"):
            got, want = getattr(_rarith, name)(a), ref(a)
        assert a.size >= _rarith.JIT_MIN_SIZE
        assert got.shape == want.shape and got.flags.f_contiguous == want.flags.f_contiguous
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(np.signbit(got), np.signbit(want))
        ok = ~np.isnan(want)
        assert np.array_equal(_bits(got[ok]), _bits(want[ok]))


def _fit_arrays(fit):
    g = fit.fit
    return [np.array(list(fit.coefficients.values())), g.deviance, g.aic, g.null_deviance, g.fitted_values,
            g.residuals, g.weights, g.linear_predictors, g.qr["qr"], g.qr["qraux"], g.effects, g.R]


@needs_native
@pytest.mark.parametrize("method", ["platt", "beta"])
@pytest.mark.parametrize("seed", [1, 2])
def test_glm_fits_same_bits_both_paths(monkeypatch, method, seed):
    """cal_platt / cal_beta with the IRLS loops compiled and in numpy: every component equal."""
    import pycalib_r as pc

    g = np.random.default_rng(seed)
    n = 3000
    z = g.normal(0, 2 + seed, n)
    y = (g.random(n) < 1 / (1 + np.exp(-z / 2))).astype(np.int64)
    p = 1 / (1 + np.exp(-z))
    p[:3] = [0.0, 1.0, 0.5]  # clipped by cal_beta's eps
    fit = (lambda: pc.cal_platt(z, y)) if method == "platt" else (lambda: pc.cal_beta(p, y))
    from pycalib_r.calibrators import _linpack

    monkeypatch.setattr(_linpack, "_NATIVE_MIN", 1)
    fast = fit()
    _twins_only(monkeypatch)
    slow = fit()
    assert fast.fit.iter == slow.fit.iter
    for a, b in zip(_fit_arrays(fast), _fit_arrays(slow)):
        assert np.array_equal(_bits(a), _bits(b))


@needs_native
@pytest.mark.parametrize("seed,extreme", [(3, True), (4, True), (5, False)])
def test_glm_family_kernels_same_bits(monkeypatch, seed, extreme):
    """The family's pieces on extreme linear predictors (both thresholds, exp's clip,
    NaN) and on predictors inside the thresholds (numpy's branch-free path)."""
    from pycalib_r.calibrators import _glm as _platt, _linpack

    g = np.random.default_rng(seed)
    if extreme:
        eta = np.concatenate([g.normal(0, 20, 500), [-800.0, -700.0, -30.0, -29.999, 30.0, 30.5, 701.0, np.nan]])
    else:
        eta = np.concatenate([np.clip(g.normal(0, 8, 500), -30, 30), [-30.0, 30.0]])
    y = np.where(g.random(eta.size) < 0.5, 0.0, 1.0)
    y[:40] = g.random(40)
    wt = g.random(eta.size) + 0.5
    monkeypatch.setattr(_linpack, "_NATIVE_MIN", 1)
    with np.errstate(all="ignore"):
        got = [_platt._exp_eta(eta), _platt._linkinv(eta), _platt._mu_eta(eta)]
        mu = got[1]
        got += [_platt._dev_resids(y, mu, wt), _platt._dev_resids(y, 0.37, wt)]
        _twins_only(monkeypatch)
        want = [_platt._exp_eta(eta), _platt._linkinv(eta), _platt._mu_eta(eta),
                _platt._dev_resids(y, mu, wt), _platt._dev_resids(y, 0.37, wt)]
    for a, b in zip(got, want):
        assert np.array_equal(np.isnan(a), np.isnan(b))
        assert np.array_equal(_bits(a[~np.isnan(a)]), _bits(b[~np.isnan(b)]))


@pytest.mark.r_parity
def test_glm_compiled_path_matches_r(probcal_r):
    """cal_platt and cal_beta above the kernel threshold against probcal in R."""
    import pycalib_r as pc
    from pycalib_r.rbase._rarith import JIT_MIN_SIZE
    from tests.conftest import r_assign

    z, y = _binary(JIT_MIN_SIZE + 5000, 7)
    p = 1 / (1 + np.exp(-z))
    r_assign(probcal_r, z=z, y=y, p=p)
    probcal_r.r("fp <- cal_platt(z, y); fb <- cal_beta(p, y)")
    for fit, name in ((pc.cal_platt(z, y), "fp"), (pc.cal_beta(p, y), "fb")):
        want = np.array(probcal_r.r(f"unname(coef({name}$fit))"), dtype=float)
        got = np.array(list(fit.coefficients.values()))
        assert fit.fit.iter == probcal_r.r(f"{name}$fit$iter")[0]
        # The manifest's glm tolerance is 1e-7; the port repeats R's steps.
        assert np.abs(got - want).max() <= 1e-12 * np.abs(want).max()
        assert abs(fit.fit.deviance - probcal_r.r(f"{name}$fit$deviance")[0]) <= 1e-12 * fit.fit.deviance
        fitted = np.array(probcal_r.r(f"unname({name}$fit$fitted.values)"), dtype=float)
        assert np.abs(fit.fit.fitted_values - fitted).max() <= 1e-12


def test_x87_sum_same_bits_as_numpy_long_double():
    """R's sum() in C's long double against numpy's long-double twin, on sums
    whose rounding at 64 bits matters (ties, cancellation, huge partial sums)."""
    from pycalib_r.rbase import _rarith

    kern = _rarith._x87_kernels()
    if kern is None:
        pytest.skip("not an x86 long double, or the compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built")
    g = np.random.default_rng(8)
    n = 30_000
    cases = [
        np.concatenate(([1.0], np.full(n, 2.0 ** -53))),  # each step a tie below 1's 64-bit ulp
        np.concatenate(([1.0], np.full(n, 2.0 ** -64))),
        np.concatenate(([1.0], np.full(n, 3 * 2.0 ** -65))),
        g.normal(size=n),
        -g.random(n) * 30,
        g.normal(size=n) * np.exp(g.normal(0, 40, n)),
        np.concatenate((g.normal(size=n) * 1e300, [np.inf, -np.inf])),
        np.concatenate(([1e308, 1e308, -1e308], g.random(n))),  # above DBL_MAX in between
        np.concatenate(([np.nan], g.random(n))),
        np.round(g.normal(size=n) * 2 ** 20) * 2.0 ** -30,  # dyadic values: many exact ties
        np.array([0.0, -0.0, 5e-324, -5e-324] * (n // 4)),
    ]
    for x in cases:
        want = float(_rarith._ld_seq_sum(x))
        got = float(kern.ld_seq_sum(np.ascontiguousarray(x)))
        assert (np.isnan(got) and np.isnan(want)) or _bits(got) == _bits(want)
        assert _bits(_rarith.r_sum(x)) == _bits(want) or (np.isnan(want) and np.isnan(_rarith.r_sum(x)))
    assert kern.ld_seq_sum(np.zeros(0)) == 0.0
    # R's mean() (real_mean): the x87 block against the numpy twin, on the
    # same cases, a mean above DBL_MAX as a double (no second pass), and
    # short vectors.
    def twin_mean(x):
        with np.errstate(invalid="ignore", over="ignore"):
            x_ld = x.astype(np.longdouble)
            s = _rarith._ld_seq_sum(x_ld) / np.longdouble(x.size)
            if np.isfinite(float(s)):
                s = s + _rarith._ld_seq_sum(x_ld - s) / np.longdouble(x.size)
        return float(s)

    extra = [np.full(10, 0.1), np.array([np.finfo(float).max] * 2 + [np.finfo(float).max / 2]),
             np.array([-np.inf, np.inf]), np.array([-0.0]), np.array([5e-324] * 7), g.random(3)]
    for x in cases + extra + [g.normal(g.normal(), 10 ** g.uniform(-5, 5), int(g.integers(1, 300)))
                              for _ in range(500)]:
        want = twin_mean(x)
        got = kern.ld_mean(np.ascontiguousarray(x))
        assert (np.isnan(got) and np.isnan(want)) or _bits(got) == _bits(want), (x[:3], got, want)
        if x.size >= _rarith.JIT_MIN_SIZE:
            r = _rarith.r_mean(x)
            assert (np.isnan(r) and np.isnan(want)) or _bits(r) == _bits(want)


def _vmmin_both(monkeypatch, par, fn, gr):
    from pycalib_r.calibrators import _optim

    fast = _optim.vmmin(par, fn, gr)
    _twins_only(monkeypatch)
    slow = _optim.vmmin(par, fn, gr)
    monkeypatch.undo()
    return fast, slow


@needs_native
@pytest.mark.parametrize("n,seed", [(2, 1), (5, 2), (39, 3), (40, 4), (110, 5), (150, 6)])
def test_vmmin_direction_and_update_same_bits(monkeypatch, n, seed):
    # A convex quartic with coupled parameters: many BFGS updates, restarts
    # included, so every entry of the inverse Hessian is exercised.
    g = np.random.default_rng(seed)
    a = g.normal(size=(n, n)) / np.sqrt(n)
    h = a @ a.T + 0.1 * np.eye(n)
    w = g.normal(size=n)

    def fn(x):
        return float(x @ h @ x / 2 - w @ x + 0.01 * np.sum(x ** 4))

    def gr(x):
        return h @ x - w + 0.04 * x ** 3

    fast, slow = _vmmin_both(monkeypatch, g.normal(size=n), fn, gr)
    assert np.array_equal(_bits(fast[0]), _bits(slow[0]))
    assert fast[1:] == slow[1:]


@needs_native
def test_dirichlet_fit_same_bits_with_compiled_bfgs(monkeypatch):
    import pycalib_r as pc

    g = np.random.default_rng(7)
    p = g.dirichlet(np.ones(7), size=300)
    y = g.integers(1, 8, size=300)
    fast = pc.cal_dirichlet(p, y)
    _twins_only(monkeypatch)
    slow = pc.cal_dirichlet(p, y)
    for key in ("weight", "bias"):
        assert np.array_equal(_bits(fast[key]), _bits(slow[key]))
    assert (fast["value"], fast["lambda"], fast["convergence"]) == (slow["value"], slow["lambda"], slow["convergence"])


@pytest.mark.parametrize("kind,pieces", [("binary", 2), ("binary", 3), ("binary", 4),
                                         ("multiclass", 2), ("multiclass", 3)])
def test_temperature_terms_on_several_cores_same_bits(monkeypatch, kind, pieces):
    # The rows are cut into pieces run on different threads (the package's
    # thread setting, _jit.parts); the objective (and so Brent's iterates)
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
    monkeypatch.setattr(_jit, "parts", lambda: 1)
    one = make(x, y, jit=True)
    monkeypatch.setattr(_jit, "parts", lambda: pieces)
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
    kern = _jit.kernels("pycalib_r.calibrators._temperature_kernels", float_math=True)
    if fast_exp and not kern.fast_exp_ok():
        pytest.skip("glibc's exp here is not the FMA build the vectorised exp follows")
    z, codes = _adversarial_logits(k, k)
    n = z.shape[0]
    for t in (1e-3, 0.37, 1.0, 3.0, 1e3):
        fast = np.empty(n)
        kern.multiclass_temperature_terms(z, codes, t, 1e-15, fast, np.empty(k * 512), 0, n, fast_exp)
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
    mod = _jit.kernels("pycalib_r.rbase._libm_kernels", float_math=True)
    if mod is None:
        pytest.skip("numba does not call glibc's libm here")
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

    from pycalib_r.rbase import _libm_kernels as tk

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
    monkeypatch.setattr(_temperature, "JIT_MIN_SIZE", 1)
    fast = pc.cal_temperature(z, codes)
    monkeypatch.setattr(_temperature, "JIT_MIN_SIZE", 10 ** 12)
    slow = pc.cal_temperature(z, codes)
    assert _bits(fast.temperature) == _bits(slow.temperature)
    assert _bits(fast.value) == _bits(slow.value)


@pytest.mark.parametrize("n,seed", [(5000, 1), (60_000, 2), (20_000, 3), (45_000, 4), (30_000, 5)])
def test_isotonic_pooling_same_blocks_both_paths(monkeypatch, n, seed):
    # The compiled pooling of isoreg's runs (from the run arrays, or from the
    # labels directly), the compiled isoreg outputs and tie runs, and the
    # key sort give the Python/numpy paths' blocks and every component of
    # cal_isotonic's fit, bit for bit.
    import pycalib_r as pc
    from pycalib_r.binned._binning import stable_order
    from pycalib_r.calibrators import _isotonic

    g = np.random.default_rng(seed)
    p = np.round(g.random(n), {3: 3, 4: 2, 5: 12}.get(seed, 12))
    if seed == 4:
        p[:1000] = 0.0  # long tie runs at the ends, of both labels
        p[-1000:] = 1.0
    y = (g.random(n) < p ** 2).astype(np.int64)
    if seed == 5:
        y[:7] = 1  # the first runs pool into the second block
    order = np.lexsort((-y, p))
    fast = _isotonic._pava_binary(y[order])
    fit_fast = pc.cal_isotonic(p, y)
    monkeypatch.setattr(_isotonic, "_PAVA_MIN_RUNS", 10 ** 12)
    monkeypatch.setattr(_isotonic, "_FILL_MIN", 10 ** 12)
    slow = _isotonic._pava_binary(y[order])
    fit_slow = pc.cal_isotonic(p, y)
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b)
    for key in ("x_thresholds", "y_calibrated"):
        assert np.array_equal(_bits(fit_fast[key]), _bits(fit_slow[key]))
    for key in ("x", "y", "yf", "yc", "iKnots"):
        assert fit_fast["fit"][key].dtype == fit_slow["fit"][key].dtype
        assert np.array_equal(_bits(fit_fast["fit"][key]) if key != "iKnots" else fit_fast["fit"][key],
                              _bits(fit_slow["fit"][key]) if key != "iKnots" else fit_slow["fit"][key])
    assert fit_fast["fit"]["isOrd"] == fit_slow["fit"]["isOrd"]
    # The key sort against R's stable order(p, -y).
    o = stable_order(_isotonic._order_keys(p, y))
    p_ord, y_ord = _isotonic._ordered(p, y)
    assert np.array_equal(_bits(p_ord), _bits(p[o])) and np.array_equal(y_ord, y[o])


def test_isotonic_negative_zero_keeps_its_sign():
    # -0 is not in the sort key: those inputs take the stable argsort, so the
    # thresholds keep R's -0.
    import pycalib_r as pc

    g = np.random.default_rng(9)
    p = np.round(g.random(30_000), 2)
    p[p == 0] = -0.0
    p[:5] = -0.0
    y = (g.random(p.size) < p).astype(np.int64)
    fit = pc.cal_isotonic(p, y)
    assert np.signbit(fit.x_thresholds[0]) and fit.x_thresholds[0] == 0

"""The calibrators' compiled loops against their numpy twins, bit for bit.

Each compiled path (C in ``pycalib_r/_native``) must give exactly the
numbers of the numpy path that ``PYCALIB_R_NATIVE=0`` runs; the numpy paths
are held to R by the stored fixtures and the live parity tests. The
temperature objectives' and libm's kernels are in tests/native/test_native_temperature.py.
"""

import numpy as np
import pytest

from pycalib_r import _native

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
    from pycalib_r.rstats import _linpack

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
    from pycalib_r.rstats import _glm as _platt, _linpack

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
    from pycalib_r.rbase._rarith import NATIVE_MIN_SIZE
    from tests.conftest import r_assign

    z, y = _binary(NATIVE_MIN_SIZE + 5000, 7)
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
        if x.size >= _rarith.NATIVE_MIN_SIZE:
            r = _rarith.r_mean(x)
            assert (np.isnan(r) and np.isnan(want)) or _bits(r) == _bits(want)


def _vmmin_both(monkeypatch, par, fn, gr):
    from pycalib_r.rstats import _optim

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


@pytest.mark.parametrize("n,seed", [(5000, 1), (60_000, 2), (20_000, 3), (45_000, 4), (30_000, 5)])
def test_isotonic_pooling_same_blocks_both_paths(monkeypatch, n, seed):
    # The compiled pooling of isoreg's runs (from the run arrays, or from the
    # labels directly), the compiled isoreg outputs and tie runs, and the
    # key sort give the Python/numpy paths' blocks and every component of
    # cal_isotonic's fit, bit for bit.
    import pycalib_r as pc
    from pycalib_r.binned._binning import stable_order
    from pycalib_r.calibrators import _isotonic
    from pycalib_r.rstats import _isoreg

    g = np.random.default_rng(seed)
    p = np.round(g.random(n), {3: 3, 4: 2, 5: 12}.get(seed, 12))
    if seed == 4:
        p[:1000] = 0.0  # long tie runs at the ends, of both labels
        p[-1000:] = 1.0
    y = (g.random(n) < p ** 2).astype(np.int64)
    if seed == 5:
        y[:7] = 1  # the first runs pool into the second block
    order = np.lexsort((-y, p))
    fast = _isoreg._pava_binary(y[order])
    fit_fast = pc.cal_isotonic(p, y)
    monkeypatch.setattr(_isoreg, "_PAVA_MIN_RUNS", 10 ** 12)
    monkeypatch.setattr(_isoreg, "_FILL_MIN", 10 ** 12)
    slow = _isoreg._pava_binary(y[order])
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
    o = stable_order(_isoreg._order_keys(p, y))
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

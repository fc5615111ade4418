"""Every C kernel of the calibrators room (``pycalib_r/_native/src/calibrators.c``)
against its numpy twin, bit for bit, on adversarial inputs.

The twins (the numpy expressions of ``calibrators/_glm.py``, ``_linpack.py``,
``_isotonic.py``, ``_optim.py``) are the oracle; they are held to R by the
stored fixtures and the live parity tests. Cases: extreme linear predictors
(both +-30 thresholds, exp's +-700 clip, NaN, +-Inf), mu at 0 and 1, zero
and huge weights, responses off {0, 1}, vectors of one element, Blue's
dnrm2 thresholds, strided BLAS vectors, labels with one run or all
alternating, ties in isotonic inputs, and BFGS on 2 to 150 parameters.
"""

from __future__ import annotations


import numpy as np
import pytest

from pycalib_r import _native
from pycalib_r._native import _manifest
from pycalib_r.rstats import _glm, _isoreg, _linpack

from tests.conftest import both_ways_of_the_native_switch

pytestmark = pytest.mark.skipif(not _native.available(),
                                reason="the C kernels are off (PYCALIB_R_NATIVE=0 or not built)")


def _bits(x):
    return np.asarray(x, dtype=np.float64).view(np.int64)


def _same(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape
    # NaN payloads aside (numpy and C may propagate different ones), every bit.
    na, nb = np.isnan(a), np.isnan(b)
    assert np.array_equal(na, nb)
    assert np.array_equal(_bits(a[~na]), _bits(b[~nb]))


@pytest.fixture
def twins(monkeypatch):
    """A callable that turns the C kernels off for the rest of the test."""
    return lambda: monkeypatch.setitem(_native._state, "lib", None)


def test_every_calibrators_kernel_is_in_the_manifest():
    k = _native.kernels("calibrators")
    listed = {f for room, f, *_ in _manifest.KERNELS if room == "calibrators"}
    assert listed == {n for n in vars(k) if not n.startswith("_") and callable(getattr(k, n))
                      and getattr(k, n).__module__ == k.__name__}


# --- glm's binomial family -----------------------------------------------------------

def _etas(seed):
    g = np.random.default_rng(seed)
    special = [-np.inf, -1e308, -800.0, -700.0, np.nextafter(-700.0, 0), -30.0, np.nextafter(-30.0, -31),
               np.nextafter(-30.0, 0), -0.0, 0.0, 5e-324, 30.0, np.nextafter(30.0, 31), 700.0,
               np.nextafter(700.0, 701), 745.2, 1e308, np.inf, np.nan]
    return np.concatenate([g.normal(0, 25, 3000), special])


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("size", [1, 17, None])
def test_family_kernels_equal_the_twin(monkeypatch, twins, seed, size):
    monkeypatch.setattr(_linpack, "_NATIVE_MIN", 1)
    eta = _etas(seed)
    if size is not None:
        eta = eta[-size:] if size == 1 else eta[::200][:size]
    g = np.random.default_rng(seed + 10)
    y = np.where(g.random(eta.size) < 0.5, 0.0, 1.0)
    y[::7] = g.random(y[::7].size)  # responses off {0, 1} (proportions)
    wt = g.random(eta.size) * 3
    wt[::5] = 0.0
    wt[1::11] = 1e300

    def run():
        with np.errstate(all="ignore"):
            e = _glm._exp_eta(eta)
            mu = _glm._linkinv(eta, e)
            out = [e, mu, _glm._linkinv(eta), _glm._mu_eta(eta, e), _glm._mu_eta(eta)]
            mu_edge = mu.copy()
            mu_edge[:2] = [0.0, 1.0][:mu_edge.size]
            out += [_glm._dev_resids(y, mu, wt), _glm._dev_resids(y, mu_edge, wt),
                    _glm._dev_resids(y, 0.37, wt), _glm._dev_resids(y, mu, 1.0)]
        return out

    fast = run()
    twins()
    for a, b in zip(fast, run()):
        _same(a, b)


@pytest.mark.parametrize("n", [1, 16, 5000])
def test_working_response_and_deviance_equal_the_twin(twins, monkeypatch, n):
    # IRLS's z and w (the glm loop's own lines) and the 0/1 deviance.
    monkeypatch.setattr(_linpack, "_NATIVE_MIN", 1)
    g = np.random.default_rng(n)
    eta = g.normal(0, 10, n)
    eta[: min(n, 3)] = [-30.0, 30.0, 0.0][: min(n, 3)]
    y = (g.random(n) < 0.4).astype(np.float64)
    with np.errstate(all="ignore"):
        mu = _glm._linkinv(eta)
        d = _glm._mu_eta(eta)
    weights = np.ones(n)
    k = _native.kernels("calibrators")
    z, w = np.empty(n), np.empty(n)
    k.working(eta, y, mu, d, weights, z, w)
    with np.errstate(all="ignore"):
        _same(z, eta + (y - mu) / d)
        _same(w, np.sqrt((weights * d ** 2) / (mu * (1 - mu))))
    mu_edge = mu.copy()
    mu_edge[0] = 1.0 if y[0] == 0 else 0.0  # an infinite term
    fast = [_glm._deviance_fn(y, weights)(m) for m in (mu, mu_edge)]
    twins()
    with np.errstate(all="ignore"):
        slow = [_glm._deviance_fn(y, weights)(m) for m in (mu, mu_edge)]
    _same(fast, slow)


# --- reference BLAS ------------------------------------------------------------------------

def _vectors(seed):
    g = np.random.default_rng(seed)
    yield g.normal(size=1)
    yield g.normal(size=5001) * np.exp(g.normal(0, 20, 5001))
    yield np.array([2.0 ** -520, 1.0, 3.0])  # below Blue's small threshold
    yield np.array([2.0 ** 490, -1.0, 0.0])  # above the big one
    yield np.array([0.0, -0.0, 5e-324])
    yield np.array([np.inf, 1.0])
    yield np.array([np.nan, 1.0])
    yield np.array([1e200, 1e200])  # the unscaled sum overflows


@pytest.mark.parametrize("seed", [3, 4])
def test_blas_equals_the_twin(monkeypatch, twins, seed):
    monkeypatch.setattr(_linpack, "_NATIVE_MIN", 1)

    def run():
        out = []
        g = np.random.default_rng(seed)
        with np.errstate(all="ignore"):
            for v in _vectors(seed):
                u = g.normal(size=v.size)
                out.append([_linpack._ddot(v, u), _linpack._dnrm2(v)])
                # strided views, as the QR's rows and columns
                m = np.asfortranarray(np.vstack([v, u, v * 2]))
                out.append([_linpack._ddot(m[0], m[1]), _linpack._dnrm2(m[2])])
                y = u.copy()
                _linpack._axpy(-0.3, v, y)
                m2 = m.copy(order="F")
                _linpack._axpy(1.7, m2[0], m2[1])
                _linpack._scal(1 / 3, m2[2])
                x = v.copy()
                _linpack._scal(-1e-300, x)
                out += [y, m2.ravel(order="F"), x]
        return out

    fast = run()
    twins()
    for a, b in zip(fast, run()):
        _same(a, b)


def test_glm_fits_equal_the_twin_on_tiny_and_separable_data(twins):
    import pycalib_r as pc

    cases = []
    g = np.random.default_rng(5)
    z = g.normal(0, 3, 40)
    cases.append((z, (z > 0).astype(np.int64)))  # separable: eta runs to the thresholds
    z = g.normal(0, 1, 25)
    cases.append((z, (g.random(25) < 0.5).astype(np.int64)))
    fits = []
    for off in (False, True):
        if off:
            twins()
        with np.errstate(all="ignore"):
            fits.append([pc.cal_platt(z, y) for z, y in cases])
    for a, b in zip(*fits):
        for key in ("coefficients", "deviance", "fitted_values", "weights", "effects"):
            va, vb = getattr(a.fit, key), getattr(b.fit, key)
            va = list(va.values()) if isinstance(va, dict) else va
            vb = list(vb.values()) if isinstance(vb, dict) else vb
            _same(va, vb)
        assert a.fit.iter == b.fit.iter


# --- isoreg and tie runs -----------------------------------------------------------------------

def _labels(kind, n, seed):
    g = np.random.default_rng(seed)
    if kind == "one_run":
        return np.ones(n, dtype=np.int64)
    if kind == "alternating":
        return np.arange(n, dtype=np.int64) % 2
    if kind == "decreasing":
        return (np.arange(n) < n // 2).astype(np.int64)
    return (g.random(n) < np.linspace(0, 1, n) ** 3).astype(np.int64)


@pytest.mark.parametrize("kind", ["one_run", "alternating", "decreasing", "random"])
@pytest.mark.parametrize("n", [1, 2, 9, 64, 65, 3001])
def test_isoreg_equals_the_twin(monkeypatch, twins, kind, n):
    y = _labels(kind, n, n)
    g = np.random.default_rng(n)
    x = np.sort(np.round(g.random(n), 1))  # many ties
    monkeypatch.setattr(_isoreg, "_PAVA_MIN_RUNS", 1)
    monkeypatch.setattr(_isoreg, "_FILL_MIN", 1)
    fast_blocks = _isoreg._pava_binary(y)
    fast = _isoreg.isoreg(x, y)
    # the run-array entry (pava_runs) too, not only the labels' one
    k = _native.kernels("calibrators")
    change = np.flatnonzero(np.diff(y)) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [n])))
    sums, counts = np.empty(starts.size, dtype=np.int64), np.empty(starts.size, dtype=np.int64)
    top = k.pava_runs(y[starts], lengths, sums, counts)
    twins()
    slow_blocks = _isoreg._pava_binary(y)
    slow = _isoreg.isoreg(x, y)
    for a, b in zip(fast_blocks, slow_blocks):
        assert np.array_equal(a, b)
    assert np.array_equal(sums[:top], slow_blocks[1]) and np.array_equal(counts[:top], slow_blocks[2])
    for key in ("yf", "yc"):
        _same(fast[key], slow[key])
    assert fast["iKnots"].dtype == slow["iKnots"].dtype and np.array_equal(fast["iKnots"], slow["iKnots"])


@pytest.mark.parametrize("seed,digits", [(1, 1), (2, 3), (3, 12)])
def test_cal_isotonic_equals_the_twin(monkeypatch, twins, seed, digits):
    import pycalib_r as pc

    g = np.random.default_rng(seed)
    p = np.round(g.random(5000), digits)
    p[:50] = 0.0
    p[-50:] = 1.0
    y = (g.random(p.size) < p).astype(np.int64)
    monkeypatch.setattr(_isoreg, "_PAVA_MIN_RUNS", 1)
    monkeypatch.setattr(_isoreg, "_FILL_MIN", 1)
    fast = pc.cal_isotonic(p, y)
    twins()
    slow = pc.cal_isotonic(p, y)
    for key in ("x_thresholds", "y_calibrated"):
        _same(fast[key], slow[key])


def test_tie_runs_reports_runs_whose_fitted_values_vary():
    k = _native.kernels("calibrators")
    x = np.array([0.1, 0.1, 0.2, 0.3, 0.3, 0.3, 0.4])
    fitted = np.array([0.0, 0.0, 0.5, 0.2, 0.2, 0.7, 1.0])
    n = x.size
    th, val, var = np.empty(n), np.empty(n), np.empty(n, dtype=np.int64)
    assert k.tie_runs(x, fitted, th, val, var) == (4, 1)
    assert th[:4].tolist() == [0.1, 0.2, 0.3, 0.4] and val[:4].tolist() == [0.0, 0.5, 0.2, 1.0]
    assert var[0] == 2


# --- vmmin (BFGS) -------------------------------------------------------------------------------

@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (17, 3), (150, 4)])
def test_bfgs_kernels_equal_the_twin(twins, n, seed):
    from pycalib_r.rstats import _optim

    g = np.random.default_rng(seed)
    a = g.normal(size=(n, n)) / np.sqrt(n)
    h = a @ a.T + 1e-3 * np.eye(n)  # badly conditioned: many updates and restarts
    w = g.normal(size=n) * 1e3

    def fn(x):
        return float(x @ h @ x / 2 - w @ x + 1e-4 * np.sum(x ** 4))

    def gr(x):
        return h @ x - w + 4e-4 * x ** 3

    par = g.normal(size=n)
    fast = _optim.vmmin(par, fn, gr)
    twins()
    slow = _optim.vmmin(par, fn, gr)
    _same(fast[0], slow[0])
    assert fast[1:] == slow[1:]


def test_kernels_refuse_outputs_they_would_not_write():
    k = _native.kernels("calibrators")
    with pytest.raises(TypeError):
        k.exp_eta(np.zeros(4), np.empty(8)[::2])
    with pytest.raises(ValueError):
        k.linkinv(np.zeros(4), np.zeros(3), np.empty(4), -30.0, 30.0, 2e-16, 4e15)
    with pytest.raises(TypeError):
        k.axpy(1.0, np.zeros(4), np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError):
        k.direction(np.eye(3), np.zeros(2), np.empty(2))


# --- both ways of the switch ---------------------------------------------------------------------

_CALLS = ("import hashlib, numpy as np, pycalib_r as pc; from pycalib_r import _native;"
          "g = np.random.default_rng(1); z = g.normal(0, 2, 30000);"
          "y = (g.random(30000) < 1 / (1 + np.exp(-z))).astype(np.int64); p = 1 / (1 + np.exp(-z));"
          "q = g.dirichlet(np.ones(5), size=400); c = g.integers(1, 6, size=400);"
          "f = [pc.cal_platt(z, y), pc.cal_beta(p, y), pc.cal_isotonic(np.round(p, 3), y)];"
          "d = pc.cal_dirichlet(q, c); h = hashlib.sha256();"
          "[h.update(np.asarray(v, dtype=np.float64).tobytes()) for v in"
          " [list(f[0].coefficients.values()), f[0].fit.fitted_values, list(f[1].coefficients.values()),"
          "  f[2]['x_thresholds'], f[2]['y_calibrated'], d['weight'], d['bias']]];"
          "print(_native.available(), h.hexdigest())")


def test_switch_off_gives_the_same_fits_in_a_fresh_process():
    out = both_ways_of_the_native_switch(_CALLS)
    assert out["0"][0] == "False" and out[None][0] == "True"
    assert out["0"][1] == out[None][1]

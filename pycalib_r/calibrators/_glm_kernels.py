"""Compiled loops for ``glm.fit``'s binomial IRLS (loaded through ``pycalib_r._jit.kernels``).

Each kernel performs, element by element and in the same order, the IEEE
operations of the numpy expression it stands for in ``_platt``: R's C code
for the binomial family (``stats/src/family.c``) and the reference BLAS
loops of LINPACK's QR (``ddot``, ``daxpy``, ``dscal``, the unscaled sum of
``dnrm2``) are sequential loops, which is what these are. Only ``exp`` and
``log`` come from libm, the C library's (the gate loads float kernels only
when numba calls glibc's). No sum here is R's long-double ``sum()``: those
stay in numpy long double.
"""

from __future__ import annotations

import math

from pycalib_r._jit import njit

# Blue's thresholds of reference BLAS 3.10+ dnrm2 (as in _platt).
_TSML = 2.0 ** -511
_TBIG = 2.0 ** 486


@njit
def ddot(a, b):
    s = 0.0
    for i in range(a.size):
        s += a[i] * b[i]
    return s


@njit
def axpy(t, x, y):
    """``y <- y + t * x`` in place."""
    for i in range(x.size):
        y[i] = y[i] + t * x[i]


@njit
def scal(c, x):
    """``x <- c * x`` in place."""
    for i in range(x.size):
        x[i] = c * x[i]


@njit
def nrm2_unscaled(v):
    """``(sqrt(sum(|v|^2)), odd)``: dnrm2 when no element is above Blue's big
    threshold or below the small one; ``odd`` says the scaled pass is needed."""
    s = 0.0
    odd = False
    for i in range(v.size):
        a = abs(v[i])
        if a > _TBIG or a < _TSML:
            odd = True
        s += a * a
    return math.sqrt(s), odd


@njit
def exp_eta(eta, out):
    """``exp(pmin(pmax(eta, -700), 700))`` (NaN stays NaN, as with np.clip)."""
    for i in range(eta.size):
        v = eta[i]
        if v < -700.0:
            v = -700.0
        elif v > 700.0:
            v = 700.0
        out[i] = math.exp(v)


@njit
def linkinv(eta, e, out, mthresh, thresh, dbl_eps, inveps):
    for i in range(eta.size):
        v = eta[i]
        if v < mthresh:
            tmp = dbl_eps
        elif v > thresh:
            tmp = inveps
        else:
            tmp = e[i]
        out[i] = tmp / (1.0 + tmp)


@njit
def mu_eta(eta, e, out, mthresh, thresh, dbl_eps):
    for i in range(eta.size):
        v = eta[i]
        if v > thresh or v < mthresh:
            out[i] = dbl_eps
        else:
            opexp = 1.0 + e[i]
            out[i] = e[i] / (opexp * opexp)


@njit
def dev_resids(y, mu, wt, out, buf):
    """``2 * wt * (y_log_y(y, mu) + y_log_y(1 - y, 1 - mu))``, ``y_log_y(a, m) =
    a * log(a / m)`` where ``a != 0``, else 0. One pass per logarithm."""
    n = y.size
    for i in range(n):
        out[i] = math.log(y[i] / mu[i])
    for i in range(n):
        buf[i] = math.log((1.0 - y[i]) / (1.0 - mu[i]))
    for i in range(n):
        yi = y[i]
        a = yi * out[i] if yi != 0.0 else 0.0
        yc = 1.0 - yi
        b = yc * buf[i] if yc != 0.0 else 0.0
        out[i] = (2.0 * wt[i]) * (a + b)


@njit
def working(eta, y, mu, mu_eta_val, weights, z, w):
    """IRLS's working response and weights: ``z = eta + (y - mu) / mu.eta``,
    ``w = sqrt(weights * mu.eta^2 / (mu * (1 - mu)))``."""
    for i in range(eta.size):
        m = mu[i]
        d = mu_eta_val[i]
        z[i] = eta[i] + (y[i] - m) / d
        w[i] = math.sqrt((weights[i] * (d * d)) / (m * (1.0 - m)))


@njit
def dev_resids01(mu, i1, i0, out):
    """``dev.resids`` for 0/1 responses and unit weights: ``2 * log(1 / mu)``
    on the rows ``i1`` (y = 1) and ``2 * log(1 / (1 - mu))`` on ``i0`` (the
    term R adds to an exact 0 is left out). One pass per set of rows."""
    for j in range(i1.size):
        k = i1[j]
        out[k] = math.log(1.0 / mu[k])
    for j in range(i0.size):
        k = i0[j]
        out[k] = math.log(1.0 / (1.0 - mu[k]))
    for k in range(out.size):
        out[k] = 2.0 * out[k]

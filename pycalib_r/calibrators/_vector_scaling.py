"""Vector scaling, and the softmax machinery and BFGS optimiser it shares with Dirichlet calibration.

R equivalent: ``probcal::cal_vector_scaling()`` (``R/scaling.R``), with the
helpers of ``R/multiclass.R`` and ``stats::optim(method = "BFGS")``.

Why R's arithmetic is copied operation by operation
---------------------------------------------------
``optim(method = "BFGS")`` stops when one step changes the objective by less
than ``reltol = 1.490116e-08`` relative to its value, so R returns a point
near the optimum, not the optimum itself: how near depends on the path the
optimiser took. Any other optimiser, or a tighter tolerance, lands elsewhere,
typically 1e-5 to 1e-4 away in the parameters. To give R's numbers we run R's
optimiser (a port of ``vmmin`` in R's ``src/appl/optim.c``) on objective and
gradient values computed in R's order of operations: ``rowSums``,
``colSums`` and ``mean`` accumulate in x87 long double sequentially, matrix
products follow the reference BLAS loop order (R on Debian calls the
reference ``dgemm``), and ``exp``/``log`` come from the C library (numpy's
vectorised ``exp`` and ``log`` differ from glibc's in the last bit for a few
per cent of arguments). Then the path, and the point where BFGS stops, are
R's up to the rare ulp-level difference in a transcendental function.
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import ProbcalError, check_logit_matrix, check_multiclass_y

__all__ = ["cal_vector_scaling"]

_LD = np.longdouble
# optim()'s defaults for method "BFGS": reltol = sqrt(.Machine$double.eps),
# abstol = -Inf; probcal passes maxit = 500.
_RELTOL = math.sqrt(2.220446049250313e-16)
_ABSTOL = -math.inf
_MAXIT = 500
# vmmin's constants (Nash's step reduction, Armijo fraction, relative test).
_STEPREDN = 0.2
_ACCTOL = 0.0001
_RELTEST = 10.0

_c_exp = np.frompyfunc(math.exp, 1, 1)
_c_log = np.frompyfunc(math.log, 1, 1)


def _exp(x: np.ndarray) -> np.ndarray:
    """Elementwise exp through the C library, as R computes it."""
    return _c_exp(x).astype(np.float64)


def _log(x: np.ndarray) -> np.ndarray:
    """Elementwise log through the C library, as R computes it (inputs are positive)."""
    return _c_log(x).astype(np.float64)


def _row_sums(m: np.ndarray) -> np.ndarray:
    """R ``rowSums()``: columns added in order into long double accumulators."""
    acc = np.zeros(m.shape[0], dtype=_LD)
    for j in range(m.shape[1]):
        acc += m[:, j]
    return acc.astype(np.float64)


def _col_sums(m: np.ndarray) -> np.ndarray:
    """R ``colSums()``: each column summed top to bottom in long double."""
    return np.cumsum(m.astype(_LD), axis=0)[-1].astype(np.float64)


def _r_mean(x: np.ndarray) -> float:
    """R ``mean()`` of a finite double vector: long double sum, then R's refinement pass."""
    v = x.astype(_LD)
    s = np.cumsum(v)[-1] / _LD(v.size)
    t = np.cumsum(v - s)[-1]
    return float(s + t / _LD(v.size))


def _r_sum(x: np.ndarray) -> float:
    """R ``sum()`` of doubles: sequential long double accumulation."""
    return float(np.cumsum(x.astype(_LD))[-1])


def _matprod_t(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """R ``x %*% t(w)`` with the reference BLAS loop order (sums over the inner index in order)."""
    out = x[:, 0:1] * w[:, 0][np.newaxis, :]
    for col in range(1, x.shape[1]):
        out = out + x[:, col:col + 1] * w[:, col][np.newaxis, :]
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    """R ``softmax()`` of probcal: subtract the row maximum, exponentiate, divide by ``rowSums``."""
    z = _exp(x - x.max(axis=1)[:, np.newaxis])
    return z / _row_sums(z)[:, np.newaxis]


def _one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros((codes.size, k))
    out[np.arange(codes.size), codes - 1] = 1.0
    return out


def _multiclass_log_loss(prob: np.ndarray, codes: np.ndarray, eps: float = 1e-15) -> float:
    """Mean negative log-likelihood of the true class, probabilities clipped to ``[eps, 1 - eps]``."""
    picked = prob[np.arange(codes.size), codes - 1]
    picked = np.minimum(np.maximum(picked, eps), 1 - eps)
    return -_r_mean(_log(picked))


def _vmmin(par, fn, gr, maxit: int = _MAXIT, reltol: float = _RELTOL, abstol: float = _ABSTOL):
    """R's ``vmmin`` (``optim(method = "BFGS")``), step for step.

    Returns ``(par, value, convergence, fncount, grcount)`` as ``optim()``
    reports them (``convergence`` 0, or 1 when ``maxit`` was reached).
    Plain Python floats keep each operation in double precision in C's order.
    """
    b = [float(v) for v in par]
    n = len(b)

    def f_of(point):
        if not all(math.isfinite(v) for v in point):
            raise ProbcalError("non-finite value supplied by optim")
        return float(fn(np.array(point)))

    def g_of(point):
        if not all(math.isfinite(v) for v in point):
            raise ProbcalError("non-finite value supplied by optim")
        return [float(v) for v in gr(np.array(point))]

    if maxit <= 0:
        return np.array(b), f_of(b), 0, 0, 0
    f = f_of(b)
    if not math.isfinite(f):
        raise ProbcalError("initial value in 'vmmin' is not finite")
    fmin = f
    funcount = gradcount = 1
    g = g_of(b)
    iteration = 1
    ilast = gradcount
    B = [[0.0] * n for _ in range(n)]  # lower triangle used, as in R
    t = [0.0] * n
    X = [0.0] * n
    c = [0.0] * n
    while True:
        if ilast == gradcount:
            for i in range(n):
                row = B[i]
                for j in range(i):
                    row[j] = 0.0
                row[i] = 1.0
        for i in range(n):
            X[i] = b[i]
            c[i] = g[i]
        gradproj = 0.0
        for i in range(n):
            s = 0.0
            for j in range(i + 1):
                s -= B[i][j] * g[j]
            for j in range(i + 1, n):
                s -= B[j][i] * g[j]
            t[i] = s
            gradproj += s * g[i]

        if gradproj < 0.0:
            steplength = 1.0
            accpoint = False
            while True:
                count = 0
                for i in range(n):
                    b[i] = X[i] + steplength * t[i]
                    if _RELTEST + X[i] == _RELTEST + b[i]:
                        count += 1
                if count < n:
                    f = f_of(b)
                    funcount += 1
                    accpoint = math.isfinite(f) and (f <= fmin + gradproj * steplength * _ACCTOL)
                    if not accpoint:
                        steplength *= _STEPREDN
                if count == n or accpoint:
                    break
            enough = (f > abstol) and abs(f - fmin) > reltol * (abs(fmin) + reltol)
            if not enough:
                count = n
                fmin = f
            if count < n:
                fmin = f
                g = g_of(b)
                gradcount += 1
                iteration += 1
                D1 = 0.0
                for i in range(n):
                    t[i] = steplength * t[i]
                    c[i] = g[i] - c[i]
                    D1 += t[i] * c[i]
                if D1 > 0:
                    D2 = 0.0
                    for i in range(n):
                        s = 0.0
                        for j in range(i + 1):
                            s += B[i][j] * c[j]
                        for j in range(i + 1, n):
                            s += B[j][i] * c[j]
                        X[i] = s
                        D2 += s * c[i]
                    D2 = 1.0 + D2 / D1
                    for i in range(n):
                        for j in range(i + 1):
                            B[i][j] += (D2 * t[i] * t[j] - X[i] * t[j] - t[i] * X[j]) / D1
                else:
                    ilast = gradcount
            else:
                if ilast < gradcount:
                    count = 0
                    ilast = gradcount
        else:
            count = 0
            if ilast == gradcount:
                count = n
            else:
                ilast = gradcount
        if iteration >= maxit:
            break
        if gradcount - ilast > 2 * n:
            ilast = gradcount
        if not (count != n or ilast != gradcount):
            break
    convergence = 0 if iteration < maxit else 1
    return np.array(b), fmin, convergence, funcount, gradcount


def _fit_vector_scaling(logits: np.ndarray, codes: np.ndarray, k: int):
    n = logits.shape[0]
    targets = _one_hot(codes, k)

    def calibrated_logits(par):
        return logits * par[:k][np.newaxis, :] + par[k:][np.newaxis, :]

    def objective(par):
        return _multiclass_log_loss(_softmax(calibrated_logits(par)), codes)

    def gradient(par):
        prob = _softmax(calibrated_logits(par))
        resid = (prob - targets) / n
        return np.concatenate([_col_sums(resid * logits), _col_sums(resid)])

    start = np.concatenate([np.ones(k), np.zeros(k)])
    return _vmmin(start, objective, gradient)

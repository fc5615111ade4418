"""R's ``optim()`` methods used by probcal, step for step: BFGS (``vmmin``) and Brent.

R equivalent: ``stats::optim(method = "BFGS")`` (the C routine ``vmmin`` in
R's ``src/appl/optim.c``), used by vector scaling and Dirichlet calibration,
and ``stats::optim(method = "Brent")`` (``Brent_fmin`` in
``src/library/stats/src/optimize.c``), used by temperature scaling.

Why R's arithmetic is copied operation by operation
---------------------------------------------------
``optim(method = "BFGS")`` stops when one step changes the objective by less
than ``reltol = 1.490116e-08`` relative to its value, so R returns a point
near the optimum, not the optimum itself: how near depends on the path the
optimiser took. Minimising the same objective to a tight tolerance (scipy's
BFGS with ``gtol = 1e-13``) lands up to 2e-3 away from R's parameters and
3e-4 from R's probabilities on ordinary data (n = 150 to 500, K = 3, 4), so
matching the optimum would not match R. Instead we run R's optimiser (a port
of ``vmmin``) on objective and gradient values computed in R's order of
operations: ``rowSums``, ``colSums``, ``sum`` and ``mean`` accumulate
sequentially in x87 long double, matrix products follow the reference BLAS
loop order (R on Debian calls the reference ``dgemm``), and ``exp``/``log``
are the C library's (numpy's vectorised ones differ from glibc's in the last
bit for a few per cent of arguments). Then the path, and the point where
BFGS stops, are R's: our parity tests see no difference at all (0.0) in
parameters, values and probabilities. A last-bit difference in a
transcendental function (another libm) would perturb the path only
slightly; predictions would still agree to well within 1e-5. (An R linked
to another BLAS, such as OpenBLAS, sums matrix products in another order and
so moves its own Dirichlet results by a similar small amount.)
"""

from __future__ import annotations

import math
import warnings
from typing import Callable, Tuple

import numpy as np

from .._errors import ProbcalError
from ._base import softmax

__all__ = ["vmmin", "SoftmaxCache", "brent_fmin", "optim_brent"]

_DBL_EPS = 2.220446049250313e-16
_DBL_MAX = 1.7976931348623157e308
# optim()'s default control$reltol, sqrt(.Machine$double.eps), for both
# methods; BFGS's abstol defaults to -Inf and probcal passes maxit = 500.
_RELTOL = math.sqrt(_DBL_EPS)
_ABSTOL = -math.inf
_MAXIT = 500
# vmmin's constants (Nash's step reduction, Armijo fraction, relative test).
_STEPREDN = 0.2
_ACCTOL = 0.0001
_RELTEST = 10.0


# ---------------------------------------------------------------------------
# optim(method = "BFGS")
# ---------------------------------------------------------------------------


def vmmin(par, fn, gr, maxit: int = _MAXIT, reltol: float = _RELTOL, abstol: float = _ABSTOL):
    """Minimise ``fn`` by R's BFGS variable-metric method, step for step.

    R equivalent: ``optim(par, fn, gr, method = "BFGS", control = list(maxit
    = maxit))`` with ``parscale = 1`` and ``fnscale = 1`` (the C routine
    ``vmmin`` in R's ``src/appl/optim.c``). The line search, the inverse
    Hessian update, the restarts and the stopping rule are R's, and plain
    Python floats keep each operation in double precision in C's order, so
    the same ``fn`` and ``gr`` give the same iterates as R.

    Parameters
    ----------
    par : array_like
        Starting point.
    fn, gr : callable
        Objective (returns a float) and its gradient (returns an array), both
        called with a numpy array.
    maxit : int, default 500
    reltol, abstol : float
        ``optim``'s defaults: ``sqrt(.Machine$double.eps)`` and ``-Inf``.

    Returns
    -------
    tuple
        ``(par, value, convergence, fncount, grcount)`` as ``optim()``
        reports them; ``convergence`` is 0, or 1 when ``maxit`` was reached.

    Raises
    ------
    ProbcalError
        R's ``optim`` errors for a non-finite point or initial value.
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


class SoftmaxCache:
    """Remembers the last softmax so the gradient at an accepted point reuses the objective's.

    ``vmmin`` always asks for the gradient at the point whose objective it
    has just computed; the cached matrix is the one R would recompute.
    """

    def __init__(self, logits_of):
        self._logits_of = logits_of
        self._key = None
        self._prob = None

    def __call__(self, par: np.ndarray) -> np.ndarray:
        key = par.tobytes()
        if key != self._key:
            self._prob = softmax(self._logits_of(par))
            self._key = key
        return self._prob


# ---------------------------------------------------------------------------
# optim(method = "Brent")
# ---------------------------------------------------------------------------


def brent_fmin(ax: float, bx: float, f: Callable[[float], float], tol: float) -> float:
    """Brent's one-dimensional minimiser, step for step as R's ``Brent_fmin()``.

    R equivalent: the C routine behind ``optimize(f, c(ax, bx), tol = tol)``
    (``src/library/stats/src/optimize.c``); golden-section and parabolic steps
    and the stopping rule are R's, so the same objective gives the same ``x``.
    """
    c = (3.0 - math.sqrt(5.0)) * 0.5
    eps = math.sqrt(_DBL_EPS)
    a = ax
    b = bx
    v = a + c * (b - a)
    w = v
    x = v
    d = 0.0
    e = 0.0
    fx = f(x)
    fv = fx
    fw = fx
    tol3 = tol / 3.0
    while True:
        xm = (a + b) * 0.5
        tol1 = eps * abs(x) + tol3
        t2 = tol1 * 2.0
        if abs(x - xm) <= t2 - (b - a) * 0.5:
            break
        p = 0.0
        q = 0.0
        r = 0.0
        if abs(e) > tol1:
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = (q - r) * 2.0
            if q > 0.0:
                p = -p
            else:
                q = -q
            r = e
            e = d
        if abs(p) >= abs(q * 0.5 * r) or p <= q * (a - x) or p >= q * (b - x):
            e = (b - x) if x < xm else (a - x)
            d = c * e
        else:
            d = p / q
            u = x + d
            if u - a < t2 or b - u < t2:
                d = tol1
                if x >= xm:
                    d = -d
        if abs(d) >= tol1:
            u = x + d
        elif d > 0.0:
            u = x + tol1
        else:
            u = x - tol1
        fu = f(u)
        if fu <= fx:
            if u < x:
                b = x
            else:
                a = x
            v, w, x = w, x, u
            fv, fw, fx = fw, fx, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv = w, fw
                w, fw = u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return x


def optim_brent(fn: Callable[[float], float], lower: float, upper: float) -> Tuple[float, float, int]:
    """R ``optim(par, fn, method = "Brent", lower, upper)`` with default control.

    Returns ``(par, value, convergence)``; like R's ``do_fmin``, a non-finite
    objective is replaced by the largest double (with R's warning).
    """

    def guarded(x: float) -> float:
        val = float(fn(x))
        if not math.isfinite(val):
            warnings.warn("NA/Inf replaced by maximum positive value", RuntimeWarning, stacklevel=3)
            return _DBL_MAX
        return val

    par = brent_fmin(lower, upper, guarded, _RELTOL)
    return par, float(fn(par)), 0

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/appl/optim.c (vmmin), src/library/stats/src/optimize.c (Brent_fmin) (GPL-2.0-or-later), (c) The R Core Team
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
from typing import Callable, Tuple

import numpy as np

from ..rbase import _warn
from .. import _native
from ..rbase._errors import ProbcalError
from ..rbase._rarith import quiet_fp

__all__ = ["vmmin", "brent_fmin", "optim_brent", "seq_colsums"]

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
# Parameters from which vmmin's direction and update run in C: one C call
# (a few us) is cheaper than the array form's temporaries from two.
_BFGS_KERNEL_MIN = 2


# ---------------------------------------------------------------------------
# optim(method = "BFGS")
# ---------------------------------------------------------------------------


def seq_colsums(terms: np.ndarray) -> np.ndarray:
    """Sums over axis 0 accumulated first to last, as C's ``s = 0; s += ...`` loop.

    Bit for bit the loop's double-precision sum. numpy reduces an axis that
    is not the fastest-varying one with one vectorised add per slice, in
    order (pairwise summation is used only along the fastest axis in
    memory), so a C-contiguous array whose trailing axes hold more than one
    element is summed in order; anything else goes through ``cumsum``,
    which is sequential by definition. Adding 0.0 gives a zero result the
    loop's sign (+0), the only thing that starting from 0.0 changes.
    """
    terms = np.ascontiguousarray(terms)
    if terms.ndim >= 2 and terms[0].size > 1:
        return np.add.reduce(terms, axis=0) + 0.0
    return np.cumsum(terms, axis=0)[-1] + 0.0


def _seq_sum(terms: np.ndarray) -> float:
    """One sequential sum from 0.0 (see :func:`_seq_colsums`)."""
    return float(seq_colsums(terms))


@quiet_fp  # R's C loop meets Inf/NaN on huge logits without a warning
def vmmin(par, fn, gr, maxit: int = _MAXIT, reltol: float = _RELTOL, abstol: float = _ABSTOL):
    """Minimise ``fn`` by R's BFGS variable-metric method, step for step.

    R equivalent: ``optim(par, fn, gr, method = "BFGS", control = list(maxit
    = maxit))`` with ``parscale = 1`` and ``fnscale = 1`` (the C routine
    ``vmmin`` in R's ``src/appl/optim.c``). The line search, the inverse
    Hessian update, the restarts and the stopping rule are R's. The loops
    over parameters are C loops from ``_BFGS_KERNEL_MIN`` parameters
    (R's own loops over the lower triangle, ``pycalib_r/_native/src/calibrators.c``), otherwise
    numpy array operations that round as C does:
    elementwise updates are the same double operations, and every inner
    product is a left-to-right ``cumsum`` from 0.0 (never a pairwise or BLAS
    sum), so the same ``fn`` and ``gr`` give the same iterates as R.

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
    b = np.array(par, dtype=np.float64)
    n = b.size

    def f_of(point):
        if not np.isfinite(point).all():
            raise ProbcalError("non-finite value supplied by optim")
        return float(fn(point.copy()))

    def g_of(point):
        if not np.isfinite(point).all():
            raise ProbcalError("non-finite value supplied by optim")
        return np.array(gr(point.copy()), dtype=np.float64)

    if maxit <= 0:
        return b, f_of(b), 0, 0, 0
    f = f_of(b)
    if not math.isfinite(f):
        raise ProbcalError("initial value in 'vmmin' is not finite")
    fmin = f
    funcount = gradcount = 1
    g = g_of(b)
    iteration = 1
    ilast = gradcount
    # R stores the lower triangle B[i][j], j <= i, and reads B[j][i] above
    # the diagonal: ``sym`` is that symmetric matrix, each entry of the lower
    # triangle mirrored (the same double, so row i's terms are column i's).
    kern = None
    if n >= _BFGS_KERNEL_MIN:
        kern = _native.kernels("calibrators")
    if kern is not None:
        B = np.eye(n)  # R's lower triangle; the upper part is never read
        Xbuf = np.empty(n)
    else:
        lower = np.tri(n, dtype=bool)
        sym = np.eye(n)
    count = 0
    while True:
        if ilast == gradcount:
            if kern is not None:
                kern.reset(B)
            else:
                sym = np.eye(n)
        X = b.copy()
        c = g.copy()
        if kern is not None:
            t = np.empty(n)
            gradproj = kern.direction(B, g, t)
        else:
            t = seq_colsums(-(sym * g[:, None]))
            gradproj = _seq_sum(t * g)

        if gradproj < 0.0:
            steplength = 1.0
            accpoint = False
            while True:
                b = X + steplength * t
                count = int(np.count_nonzero(_RELTEST + X == _RELTEST + b))
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
                t = steplength * t
                c = g - c
                D1 = _seq_sum(t * c)
                if D1 > 0 and kern is not None:
                    kern.update(B, t, c, Xbuf, D1)
                elif D1 > 0:
                    X = seq_colsums(sym * c[:, None])
                    D2 = 1.0 + _seq_sum(X * c) / D1
                    # (D2 t_i) t_j - X_i t_j - t_i X_j, as R's left-to-right C expression.
                    upd = ((D2 * t)[:, None] * t[None, :] - X[:, None] * t[None, :]
                           - t[:, None] * X[None, :]) / D1
                    sym = sym + np.where(lower, upd, upd.T)
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
    return b, fmin, convergence, funcount, gradcount


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
            _warn.warn("NA/Inf replaced by maximum positive value", RuntimeWarning)
            return _DBL_MAX
        return val

    par = brent_fmin(lower, upper, guarded, _RELTOL)
    return par, float(fn(par)), 0

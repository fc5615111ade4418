"""Vector scaling, and the softmax machinery and BFGS optimiser it shares with Dirichlet calibration.

R equivalent: ``probcal::cal_vector_scaling()`` (``R/scaling.R``), with the
helpers of ``R/multiclass.R`` and ``stats::optim(method = "BFGS")``.

Why R's arithmetic is copied operation by operation
---------------------------------------------------
``optim(method = "BFGS")`` stops when one step changes the objective by less
than ``reltol = 1.490116e-08`` relative to its value, so R returns a point
near the optimum, not the optimum itself: how near depends on the path the
optimiser took. Minimising the same objective to a tight tolerance (scipy's
BFGS with ``gtol = 1e-13``) lands up to 2e-3 away from R's parameters and
3e-4 from R's probabilities on ordinary data (n = 150 to 500, K = 3, 4), so
matching the optimum would not match R. Instead we run R's optimiser (a port
of ``vmmin`` in R's ``src/appl/optim.c``) on objective and gradient values
computed in R's order of operations: ``rowSums``, ``colSums``, ``sum`` and
``mean`` accumulate sequentially in x87 long double, matrix products follow
the reference BLAS loop order (R on Debian calls the reference ``dgemm``),
and ``exp``/``log`` are the C library's (numpy's vectorised ones differ from
glibc's in the last bit for a few per cent of arguments). Then the path, and
the point where BFGS stops, are R's: our parity tests see no difference at
all (0.0) in parameters, values and probabilities. A last-bit difference in
a transcendental function (another libm) would perturb the path only
slightly; predictions would still agree to well within 1e-5. (An R linked
to another BLAS, such as OpenBLAS, sums matrix products in another order and
so moves its own Dirichlet results by a similar small amount.)
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import ProbcalError, check_logit_matrix, check_multiclass_y
from ._base import (
    Calibrator,
    as_character,
    format_call,
    multiclass_log_loss,
    new_calibrator,
    r_round,
    softmax,
)

__all__ = ["cal_vector_scaling", "CalVectorScaling", "vmmin"]

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
_MULTICLASS = ("cal_multiclass", "calibrator")


def col_sums(m: np.ndarray) -> np.ndarray:
    """R ``colSums()``: each column summed top to bottom in long double, then rounded."""
    return np.cumsum(m, axis=0, dtype=_LD)[-1].astype(np.float64)


def matprod_t(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """R ``x %*% t(w)`` in the reference BLAS order (``dgemm``/``dgemv``).

    Each entry is a double-precision sum over the inner index taken in
    order, which is what the reference BLAS that R uses on Debian computes.
    """
    out = x[:, 0:1] * w[:, 0][np.newaxis, :]
    for col in range(1, x.shape[1]):
        out = out + x[:, col:col + 1] * w[:, col][np.newaxis, :]
    return out


def one_hot(codes: np.ndarray, k: int) -> np.ndarray:
    """probcal's internal ``one_hot()`` for 1-based class codes."""
    out = np.zeros((codes.size, k))
    out[np.arange(codes.size), codes - 1] = 1.0
    return out


class _SoftmaxCache:
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


def _fit_vector_scaling(logits: np.ndarray, codes: np.ndarray, k: int):
    """The ``optim()`` call of R's ``cal_vector_scaling()``: BFGS from scales 1, biases 0."""
    n = logits.shape[0]
    targets = one_hot(codes, k)
    prob_of = _SoftmaxCache(lambda par: logits * par[:k][np.newaxis, :] + par[k:][np.newaxis, :])

    def objective(par):
        return multiclass_log_loss(prob_of(par), codes)

    def gradient(par):
        resid = (prob_of(par) - targets) / n
        return np.concatenate([col_sums(resid * logits), col_sums(resid)])

    start = np.concatenate([np.ones(k), np.zeros(k)])
    return vmmin(start, objective, gradient)


def _wrong_columns(k: int) -> ProbcalError:
    return ProbcalError(f"Argument `newdata` must have {k} column{'' if k == 1 else 's'}, one per class.")


class CalVectorScaling(Calibrator):
    """A fitted vector-scaling calibrator.

    R class ``c("cal_vector_scaling", "cal_multiclass", "calibrator")``.
    Components (R order): ``method``, ``n``, ``input``, ``scale`` and
    ``bias`` (length-K arrays), ``value`` (the minimised mean negative
    log-likelihood), ``convergence`` (0, or 1 if BFGS hit ``maxit = 500``),
    ``k``, ``levels``, ``call``.
    """

    r_class = "cal_vector_scaling"

    def _predict(self, newdata):
        mat = check_logit_matrix(newdata, arg="newdata")
        if mat.shape[1] != self.k:
            raise _wrong_columns(self.k)
        return softmax(mat * self.scale[np.newaxis, :] + self.bias[np.newaxis, :])

    def summary_params(self):
        return {
            "Scales": ", ".join(as_character(r_round(v, 3)) for v in self.scale),
            "Biases": ", ".join(as_character(r_round(v, 3)) for v in self.bias),
        }


def cal_vector_scaling(logits, y) -> CalVectorScaling:
    """Vector scaling: a scale and a bias per class on the logits, then the softmax.

    R equivalent: ``probcal::cal_vector_scaling(logits, y)``.

    Calibrated probabilities are ``softmax(logits * s + b)`` with one scale
    ``s_k`` and one bias ``b_k`` per class (column), fitted by minimising the
    mean multiclass negative log-likelihood (true-class probabilities clipped
    to ``[1e-15, 1 - 1e-15]``) with R's BFGS (``optim(method = "BFGS")``,
    analytic gradient, start ``s = 1``, ``b = 0``, ``maxit = 500``, default
    ``reltol``). The optimiser is a step-for-step port of R's ``vmmin`` run on
    R's floating-point arithmetic, so the returned parameters are R's (equal
    to the last bit in our parity tests), not merely another point near the
    optimum: BFGS stops once a step improves the objective by less than
    ``1.5e-8`` relative, where parameters are only determined to about
    ``1e-4``, so a different optimiser would not reproduce R.

    Parameters
    ----------
    logits : array_like or pandas.DataFrame
        n x K matrix of finite logits, one column per class.
    y : array_like or pandas.Categorical
        Integer class codes ``1..K`` (R's coding) or a pandas Categorical /
        categorical Series; column ``k`` of ``logits`` is code ``k`` or the
        ``k``-th category.

    Returns
    -------
    CalVectorScaling
        ``scale``, ``bias``, ``value``, ``convergence``, ``k``, ``levels``.
        ``predict(fit, newdata)`` returns an n x K numpy array of
        probabilities, or a DataFrame with the class levels as columns (and
        ``newdata``'s index) when ``newdata`` is a DataFrame.

    Raises
    ------
    ProbcalError
        With R's message for a non-matrix, fewer than two columns, missing
        or infinite logits, bad labels, or a row-count mismatch.

    Examples
    --------
    >>> import numpy as np
    >>> logits = np.array([[2.0, 0.1, -1.0], [0.2, 1.5, 0.3], [-0.5, 0.0, 1.2],
    ...                    [1.0, 0.9, -0.2], [0.1, -0.3, 0.8], [0.4, 1.1, 0.0]])
    >>> fit = cal_vector_scaling(logits, [1, 2, 3, 2, 3, 1])
    >>> fit.predict(logits).shape
    (6, 3)
    """
    mat = check_logit_matrix(logits, arg="logits")
    labels = check_multiclass_y(y, n_classes=mat.shape[1], arg="y")
    if mat.shape[0] != labels.codes.size:
        raise ProbcalError("Arguments `logits` and `y` must have the same number of observations.")
    n, k = mat.shape
    par, value, convergence, _, _ = _fit_vector_scaling(mat, labels.codes, k)
    return new_calibrator(
        CalVectorScaling,
        method="vector scaling",
        n=n,
        input="logits (matrix)",
        scale=par[:k].copy(),
        bias=par[k:].copy(),
        value=value,
        convergence=convergence,
        k=k,
        levels=list(labels.levels),
        call=format_call("cal_vector_scaling", logits="\x00logits", y="\x00y"),
        _r_classes=("cal_vector_scaling",) + _MULTICLASS,
    )

"""Compiled inner loops of R's ``vmmin`` (BFGS): the search direction and the
inverse-Hessian update (loaded through ``pycalib_r._jit.kernels``).

They are R's C loops of ``src/appl/optim.c`` over the lower triangle
``B[i][j], j <= i``, in R's order, with only double additions and
multiplications (no libm), so they give R's bits on every CPU; the numpy
form in ``_optim.vmmin`` is the twin, and tests compare the two.
"""

from __future__ import annotations

from pycalib_r._jit import njit


@njit
def direction(B, g, t):
    """``t = -B g`` and returns ``gradproj = sum(t * g)``, as R's loop."""
    n = g.size
    gradproj = 0.0
    for i in range(n):
        s = 0.0
        for j in range(i + 1):
            s -= B[i, j] * g[j]
        for j in range(i + 1, n):
            s -= B[j, i] * g[j]
        t[i] = s
        gradproj += s * g[i]
    return gradproj


@njit
def update(B, t, c, X, D1):
    """R's rank-two update of the lower triangle of ``B`` (``D1 > 0``)."""
    n = t.size
    D2 = 0.0
    for i in range(n):
        s = 0.0
        for j in range(i + 1):
            s += B[i, j] * c[j]
        for j in range(i + 1, n):
            s += B[j, i] * c[j]
        X[i] = s
        D2 += s * c[i]
    D2 = 1.0 + D2 / D1
    for i in range(n):
        for j in range(i + 1):
            B[i, j] += (D2 * t[i] * t[j] - X[i] * t[j] - t[i] * X[j]) / D1


@njit
def reset(B):
    """``B`` to the identity (R's restart)."""
    n = B.shape[0]
    for i in range(n):
        for j in range(n):
            B[i, j] = 0.0
        B[i, i] = 1.0

"""The numpy-Generator adapter: R's argument checks, numpy's draws.

R equivalent: none (numpy streams).
"""

from __future__ import annotations

import numpy as np

from .._errors import ProbcalError
from ._args import _check_nonneg_int
from ._front import StreamFront
from ._mt import _FIX_LOW, _INT_MAX


class GeneratorStream(StreamFront):
    """The stream interface on a ``numpy.random.Generator``.

    Same method names as :class:`RRandom` so the package's functions accept
    either, but values come from numpy's algorithms, **not** R's: use it when
    R reproducibility is not needed. Argument checks follow R's.

    R equivalent: none (numpy streams).
    """

    def __init__(self, generator):
        if not isinstance(generator, np.random.Generator):
            raise TypeError("`generator` must be a numpy.random.Generator")
        self.generator = generator

    def unif_rand(self, n):
        """``n`` uniforms in (0, 1) from numpy. R equivalent: none (numpy)."""
        n = _check_nonneg_int(n, "n")
        u = self.generator.random(n)
        # Keep R's open interval: numpy's random() can return 0.
        u[u == 0.0] = _FIX_LOW
        return u


    def _norm_rand(self, n):
        return self.generator.standard_normal(n)

    def _binom_draw(self, nn, pp, count):
        return self.generator.binomial(nn, pp, size=count).astype(np.int64)

    def _rbinom_active(self, nv, pv):
        return self.generator.binomial(nv, pv).astype(np.int64)

    def _draw_index(self, dn, k):
        return self.generator.integers(1, int(dn) + 1, size=k, dtype=np.int64) if k else np.empty(0, np.int64)

    def _draw_noreplace(self, dn, k):
        return self.generator.choice(int(dn), size=k, replace=False).astype(np.int64) + 1

    _draw_hash = _draw_noreplace

    def _draw_prob(self, n, p, k, repl):
        return self.generator.choice(n, size=k, replace=repl, p=p).astype(np.int64) + 1

    def rademacher(self, n_boot, n, dtype=np.int8):
        """(n_boot, n) random signs from numpy. R equivalent: none (numpy)."""
        n_boot = _check_nonneg_int(n_boot, "n_boot")
        n = _check_nonneg_int(n, "n")
        bits = self.generator.integers(0, 2, size=(n_boot, n), dtype=np.int8)
        return (bits * 2 - 1).astype(dtype, copy=False)

    def sample_int_replace(self, n, size, n_rep):
        """(n_rep, size) 1-based indices drawn with replacement by numpy.
        R equivalent: none (numpy)."""
        n = _check_nonneg_int(n, "n")
        size = _check_nonneg_int(size, "size")
        n_rep = _check_nonneg_int(n_rep, "n_rep")
        if n == 0 and size > 0:
            raise ProbcalError("invalid first argument")
        dtype = np.int32 if n <= _INT_MAX else np.int64
        if size * n_rep == 0:
            return np.empty((n_rep, size), dtype=dtype)
        return self.generator.integers(1, n + 1, size=(n_rep, size), dtype=dtype)

    def __repr__(self):
        return f"<GeneratorStream on {self.generator!r} (not R-identical)>"


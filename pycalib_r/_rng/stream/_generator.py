"""The numpy-Generator adapter: R's argument checks, numpy's draws.

R equivalent: none (numpy streams).
"""

from __future__ import annotations

import numpy as np

from ...rbase._errors import ProbcalError
from .._args import _check_nonneg_int
from ._front import StreamFront
from ._front_dists import DistributionsFront
from ._locking import Locked, generator_lock, serialise
from ..bitgen._mt import _FIX_LOW, _INT_MAX
from ...rstats import qhyper_upper


class GeneratorStream(Locked, DistributionsFront, StreamFront):
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
        # The generator's lock, shared by every wrapper of it (module ._locking).
        self._lock = generator_lock(generator)

    def _new_lock(self):
        return generator_lock(self.generator)

    def _snapshot(self):
        """The generator's state, put back if Ctrl-C ends a call (module ._locking)."""
        return self.generator.bit_generator.state

    def _restore(self, snap):
        self.generator.bit_generator.state = snap

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

    def _binom_large(self, nv, pv):
        return self.generator.binomial(nv.astype(np.int64), pv).astype(np.float64)

    def _draw_index(self, dn, k):
        return self.generator.integers(1, int(dn) + 1, size=k, dtype=np.int64) if k else np.empty(0, np.int64)

    def _draw_noreplace(self, dn, k):
        return self.generator.choice(int(dn), size=k, replace=False).astype(np.int64) + 1

    _draw_hash = _draw_noreplace

    def _draw_prob(self, n, p, k, repl):
        return self.generator.choice(n, size=k, replace=repl, p=p).astype(np.int64) + 1

    # -- distributions: numpy's algorithms for the elements R would draw -----------

    def _exp_draw(self, count):
        return self.generator.standard_exponential(count)

    def _gamma_draw(self, count, a, scale):
        return self.generator.gamma(a, scale, size=count)

    def _beta_draw(self, count, aa, bb):
        aa = np.broadcast_to(aa, (count,))
        bb = np.broadcast_to(bb, (count,))
        coin = (aa == 0) & (bb == 0)
        out = np.where(self.generator.random(count) < 0.5, 0.0, 1.0)
        ok = ~coin
        if ok.any():
            out[ok] = self.generator.beta(aa[ok], bb[ok])
        return out

    def _t_draw(self, count, df):
        df = np.broadcast_to(df, (count,))
        out = self.generator.standard_normal(count)
        fin = np.isfinite(df)
        if fin.any():
            out[fin] = self.generator.standard_t(df[fin])
        return out

    def _f_draw(self, count, n1, n2):
        n1 = np.broadcast_to(n1, (count,))
        n2 = np.broadcast_to(n2, (count,))
        with np.errstate(invalid="ignore", divide="ignore"):
            v1 = np.where(np.isfinite(n1), self.generator.chisquare(np.where(np.isfinite(n1), n1, 1.0)) / n1, 1.0)
            v2 = np.where(np.isfinite(n2), self.generator.chisquare(np.where(np.isfinite(n2), n2, 1.0)) / n2, 1.0)
        return v1 / v2

    def _nchisq_draw(self, count, df, lam):
        # R's composition (numpy's noncentral_chisquare refuses df = 0).
        df = np.broadcast_to(df, (count,))
        r = self.generator.poisson(np.broadcast_to(lam, (count,)) / 2.0).astype(np.float64)
        out = np.zeros(count)
        pos = r > 0
        out[pos] = self.generator.gamma(r[pos], 2.0)
        dpos = df > 0
        out[dpos] += self.generator.gamma(df[dpos] / 2.0, 2.0)
        return out

    def _pois_draw(self, count, mu):
        return self.generator.poisson(mu, size=count).astype(np.float64)

    def _geom_draw(self, count, p):
        return (self.generator.geometric(p, size=count) - 1).astype(np.float64)

    def _nbinom_draw(self, count, size, scale):
        return self.generator.poisson(self.generator.gamma(size, scale, size=count)).astype(np.float64)

    def _hyper_draw(self, count, nn1, nn2, kk):
        nn1, nn2, kk = (np.broadcast_to(np.asarray(x, dtype=np.float64), (count,)) for x in (nn1, nn2, kk))
        big = (nn1 >= 1e9) | (nn2 >= 1e9)  # beyond numpy's sampler: R's inversion on numpy's uniforms
        out = np.empty(count)
        small = ~big
        if small.any():
            out[small] = self.generator.hypergeometric(nn1[small].astype(np.int64), nn2[small].astype(np.int64),
                                                       kk[small].astype(np.int64))
        for i in np.flatnonzero(big):
            out[i] = qhyper_upper(self.unif_rand(1)[0], nn1[i], nn2[i], kk[i])
        return out

    def _multinom_draw(self, n, size, prob):
        return self.generator.multinomial(size, prob, size=n).T.astype(np.int64)

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


serialise(GeneratorStream)

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the stream's hooks into pycalib_r._rng.nmath, whose modules carry their own headers
"""The distribution hooks of :class:`~pycalib_r._rng.RRandom`: nmath on R's uniforms.

Each hook receives the drawing elements' parameters in order, as floats
when they are all equal (then the vectorised block evaluators of
:mod:`pycalib_r._rng.nmath._dists` run through
:func:`pycalib_r._rng.nmath._chain.run_blocks`) or as arrays (then R's loop
runs element by element through a
:class:`pycalib_r._rng.nmath._cursor.UnifCursor`).
Only ``unif_rand``, ``_snapshot``, ``_restore`` and ``_skip`` of the stream
are used, so the hooks serve any uniform source. Large ``rexp``, ``rgamma``,
``rbeta`` and ``rpois`` calls on R's default stream go to the compiled
kernels instead (:mod:`._dist_fast`), which give the same values.
"""

from __future__ import annotations

import math

import numpy as np

from . import _dist_fast
from ..nmath import _dists as D
from ..nmath._chain import run_blocks
from ..nmath._cursor import UnifCursor
from ..bitgen._mt import _INT_MAX
from ..nmath._rbinom import _BinomSetup
from ...rstats import qbinom_upper, qhyper_upper


def _loop(stream, count, one):
    out = np.empty(count)
    with UnifCursor(stream) as cur:
        for i in range(count):
            out[i] = one(cur, i)
    return out


def _at(x, i):
    return x if isinstance(x, float) else float(x[i])


class RDistributions:
    """nmath's samplers on the stream's uniforms (see module doc)."""

    # Whether the class's uniforms are numpy MT19937 words read directly
    # (RRandom); only then may _dist_fast hand a call to the kernels.
    _reads_mt_words = False

    def _exp_draw(self, count):
        k = _dist_fast.kernels_for(self, count)
        if k is not None:
            return _dist_fast.exp_draw(k, self, count)
        out = np.empty(count)
        return run_blocks(self, count, _exp_eval3, 1.65, D.exp_rand1, out)

    def _gamma_draw(self, count, a, scale):
        k = _dist_fast.kernels_for(self, count)
        if k is not None:
            return _dist_fast.gamma_draw(k, self, count, a, scale)
        if isinstance(a, float) and isinstance(scale, float):
            out = np.empty(count)
            if a < 1.0:
                return run_blocks(self, count, D.gamma_gs_eval(a, scale), 2.0 / (1.0 - 0.2 * a) + 1.0,
                                  D.gamma_attempt1(a, scale), out)
            g = D.GammaSetup(a)
            return run_blocks(self, count, D.gamma_gd_eval(g, scale), 2.6,
                              lambda cur: D.rgamma1(cur, a, scale, g), out)
        cache = {}

        def one(cur, i):
            ai, si = _at(a, i), _at(scale, i)
            g = None
            if ai >= 1.0:
                g = cache.get(ai)
                if g is None:
                    g = cache[ai] = D.GammaSetup(ai)
            return D.rgamma1(cur, ai, si, g)
        return _loop(self, count, one)

    def _beta_draw(self, count, aa, bb):
        k = _dist_fast.kernels_for(self, count)
        if k is not None:
            return _dist_fast.beta_draw(k, self, count, aa, bb)
        if isinstance(aa, float) and isinstance(bb, float):
            if aa == 0.0 and bb == 0.0:
                return np.where(self.unif_rand(count) < 0.5, 0.0, 1.0)
            s = D.BetaSetup(aa, bb)
            return run_blocks(self, count, D.beta_eval(s), 2.6, D.beta_attempt1(s), np.empty(count))
        cache = {}

        def one(cur, i):
            ai, bi = _at(aa, i), _at(bb, i)
            if ai == 0.0 and bi == 0.0:
                return 0.0 if cur.unif() < 0.5 else 1.0
            att = cache.get((ai, bi))
            if att is None:
                att = cache[(ai, bi)] = D.beta_attempt1(D.BetaSetup(ai, bi))
            while True:
                v = att(cur)
                if v is not None:
                    return v
        return _loop(self, count, one)

    def _rgamma_one(self, cur, a, scale, cache):
        """nmath's ``rgamma(a, scale)`` with its checks: nbinom's ``mu / size``
        can underflow to 0 or overflow to Inf, and ``df / 2`` of a tiny ``df``
        underflows; rgamma then returns 0 or Inf without drawing."""
        if math.isnan(a) or math.isnan(scale):
            return math.nan
        if a <= 0.0 or scale <= 0.0:
            return 0.0 if (scale == 0.0 or a == 0.0) else math.nan
        if math.isinf(a) or math.isinf(scale):
            return math.inf
        if a >= 1.0:
            g = cache.get(a)
            if g is None:
                g = cache[a] = D.GammaSetup(a)
            return D.rgamma1(cur, a, scale, g)
        return D.rgamma1(cur, a, scale)

    def _t_draw(self, count, df):
        cache = {}

        def one(cur, i):
            d = _at(df, i)
            num = D.norm_rand1(cur)
            if not np.isfinite(d):
                return num
            # A chi-square that underflows to 0 gives +-Inf, as C's division.
            return D.cdiv(num, math.sqrt(self._rgamma_one(cur, d / 2.0, 2.0, cache) / d))
        return _loop(self, count, one)

    def _f_draw(self, count, n1, n2):
        cache = {}

        def one(cur, i):
            a, b = _at(n1, i), _at(n2, i)
            v1 = self._rgamma_one(cur, a / 2.0, 2.0, cache) / a if np.isfinite(a) else 1
            v2 = self._rgamma_one(cur, b / 2.0, 2.0, cache) / b if np.isfinite(b) else 1
            return D.cdiv(v1, v2)  # an underflowing chi-square: Inf or NaN, as C
        return _loop(self, count, one)

    def _pois_draw(self, count, mu):
        k = _dist_fast.kernels_for(self, count)
        if k is not None:
            return _dist_fast.pois_draw(k, self, count, mu)
        if isinstance(mu, float):
            out = np.empty(count)
            if mu < 10.0:
                pp = D.pois_table(mu)

                def attempt(cur):
                    u = cur.unif()
                    k = int(np.searchsorted(pp, u, side="left"))
                    return float(k) if k <= 35 else None
                return run_blocks(self, count, D.pois_small_eval(pp), 1.0, attempt, out)
            g = D.PoisSetup(mu)
            return run_blocks(self, count, D.pois_big_eval(g), 2.6,
                              lambda cur: D.rpois1(cur, mu, {mu: g}), out)
        cache = {}
        return _loop(self, count, lambda cur, i: _rpois_or_zero(cur, _at(mu, i), cache))

    def _geom_draw(self, count, p):
        # The Poisson means are continuous draws: keeping their setups would
        # only grow memory with the count.
        def one(cur, i):
            pi = _at(p, i)
            return _rpois_or_zero(cur, D.exp_rand1(cur) * ((1 - pi) / pi), None)
        return _loop(self, count, one)

    def _nbinom_draw(self, count, size, scale):
        gc = {}

        def one(cur, i):
            lam = self._rgamma_one(cur, _at(size, i), _at(scale, i), gc)
            return _rpois_or_zero(cur, lam, None)  # a continuous mean: no setup kept
        return _loop(self, count, one)

    def _hyper_draw(self, count, nn1, nn2, kk):
        cache = {}

        def one(cur, i):
            if nn1[i] >= _INT_MAX or nn2[i] >= _INT_MAX or kk[i] >= _INT_MAX:
                return self._hyper_large(cur, float(nn1[i]), float(nn2[i]), float(kk[i]))
            key = (int(nn1[i]), int(nn2[i]), int(kk[i]))
            h = cache.get(key)
            if h is None:
                h = cache[key] = D.HyperSetup(*key)
            return D.rhyper1(cur, h)
        return _loop(self, count, one)

    def _hyper_large(self, cur, nn1, nn2, kk):
        """rhyper.c's branch for a parameter >= INT_MAX."""
        if kk == 1.0:  # rbinom(1, nn1 / (nn1 + nn2))
            pp = nn1 / (nn1 + nn2)
            if pp == 0.0:
                return 0.0
            if pp == 1.0:
                return 1.0
            return float(self._binom_one(_BinomSetup(1, pp), cur))
        return qhyper_upper(cur.unif(), nn1, nn2, kk)

    def _binom_large(self, nv, pv):
        """rbinom for valid, drawing (size, prob) pairs of which some have a
        size >= INT_MAX (rbinom.c's qbinom branch), element by element."""
        out = np.empty(nv.size)
        cache = {}
        with UnifCursor(self) as cur:
            for i in range(nv.size):
                nn, pp = float(nv[i]), float(pv[i])
                if nn >= _INT_MAX:
                    out[i] = qbinom_upper(cur.unif(), nn, pp)
                    continue
                key = (int(nn), pp)
                s = cache.get(key)
                if s is None:
                    s = cache[key] = _BinomSetup(*key)
                out[i] = self._binom_one(s, cur)
        return out

    def _multinom_draw(self, n, size, prob):
        k_ = prob.size
        out = np.zeros((k_, n), dtype=np.int64)
        ld = np.longdouble
        cache = {}
        with UnifCursor(self) as cur:
            for j in range(n):
                left = size
                p_tot = ld(0.0)
                for v in prob:
                    p_tot += ld(v)
                if left == 0:
                    continue
                for k in range(k_ - 1):
                    if prob[k] != 0.0:
                        pp = float(ld(prob[k]) / p_tot)
                        if pp < 1.0:
                            key = (left, pp)
                            s = cache.get(key)
                            if s is None:
                                s = cache[key] = _BinomSetup(left, pp)
                            x = self._binom_one(s, cur)
                        else:
                            x = left
                        out[k, j] = x
                        left -= x
                    if left <= 0:
                        break
                    p_tot -= ld(prob[k])
                else:
                    out[k_ - 1, j] = left
        return out

    def _nchisq_draw(self, count, df, lam):
        """nmath's ``rnchisq(df, lambda)`` for ``df >= 0`` and a finite ``lambda >= 0``
        (not both 0, and not ``lambda = 0`` with ``df = Inf``)."""
        if isinstance(lam, float) and lam == 0.0:
            return self._gamma_draw(count, df / 2.0, 2.0)
        gc, pc = {}, {}

        def one(cur, i):
            d, lm = _at(df, i), _at(lam, i)
            if len(pc) + len(gc) > 4096:  # setups of varying parameters: bounded memory
                pc.clear()
                gc.clear()
            if lm == 0.0:
                return _rgamma_or_zero(cur, d / 2.0, gc)
            r = _rpois_or_zero(cur, lm / 2.0, pc)
            if r > 0.0:  # rchisq(2 r); r varies per draw, so its setup is not kept
                r = _rgamma_or_zero(cur, (2.0 * r) / 2.0, None)
            if d > 0.0:
                r += _rgamma_or_zero(cur, d / 2.0, gc)
            return r
        return _loop(self, count, one)


def _exp_eval3(u, m):
    lens, vals = D.exp_eval(u, m)
    return lens, vals, np.ones(m, dtype=bool)


def _rpois_or_zero(cur, mu, cache):
    """nmath's ``rpois(mu)`` as a composite calls it (NaN for a bad mu)."""
    if not np.isfinite(mu) or mu < 0:
        return np.nan
    if mu <= 0.0:
        return 0.0
    return D.rpois1(cur, mu, cache)


def _rgamma_or_zero(cur, a, cache):
    """nmath's ``rgamma(a, 2)`` for ``a >= 0``: 0 or Inf without a draw when ``a`` is 0 or Inf
    (``cache``: GD setups by shape, or None)."""
    if a == 0.0 or a == np.inf:
        return a
    g = None
    if a >= 1.0 and cache is not None:
        g = cache.get(a)
        if g is None:
            g = cache[a] = D.GammaSetup(a)
    return D.rgamma1(cur, a, 2.0, g)

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/src/random.c, src/library/stats/R/distn.R (GPL-2.0-or-later), (c) The R Core Team
"""R's front end for the nmath distributions: arguments, recycling, NaN rules.

Each method is the R function of the same name (R 4.2.2, ``stats``): R's
argument names and defaults, R's R-level checks, then ``random1``/
``random2``/``random3`` of ``src/library/stats/src/random.c``: parameters
recycled along the result, the C function's NaN cases (with one "NAs
produced" warning), the cases that return a constant without drawing, and
the draws in element order. The draws come from the stream's hooks
(``_exp_draw``, ``_gamma_draw``, ``_beta_draw``, ``_t_draw``, ``_f_draw``,
``_nchisq_draw``, ``_pois_draw``, ``_geom_draw``, ``_nbinom_draw``, ``_hyper_draw``,
``_multinom_draw``, plus ``unif_rand`` and ``_norm_rand``), each called with
the drawing elements' parameters in order.

R equivalent: ``rexp``, ``rgamma``, ``rbeta``, ``rchisq``, ``rt``, ``rf``,
``rpois``, ``rgeom``, ``rnbinom``, ``rhyper``, ``rmultinom``, ``rlogis``,
``rweibull``, ``rcauchy``, ``rlnorm``.
"""

from __future__ import annotations

import math

import numpy as np

from ...rbase import _warn
from ...rbase._rnames import r_keyword_args
from ...rbase._errors import ProbcalError
from ...rbase._rarith import r_exp, r_log
from .._args import _as_double, _na_warning, _result_length, quiet_numpy, r_integer_result
from ..bitgen._mt import _CHUNK, _INT_MAX

_DBL_MAX = 1.7976931348623157e308


class _Missing:
    """R's missing argument (an argument without a default R names in its error)."""

    def __repr__(self):
        return "<missing>"


_MISSING = _Missing()


def _finite(x):
    return np.isfinite(x)


def _r_binary(op, a, b):
    """R's arithmetic on two double vectors: the longer length (0 when either
    is empty), the shorter recycled, R's warning when it does not divide."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.size == 0 or b.size == 0:
        return np.empty(0)
    size = max(a.size, b.size)
    if size % a.size or size % b.size:
        _warn.warn("longer object length is not a multiple of shorter object length", RuntimeWarning)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return op(np.resize(a, size), np.resize(b, size))


def _r_sqrt(x):
    """R's ``sqrt``: NaN for a negative argument, with R's "NaNs produced"."""
    with np.errstate(invalid="ignore"):
        out = np.sqrt(x)
    if np.any(np.isnan(out) & ~np.isnan(x)):
        _warn.warn("NaNs produced", RuntimeWarning)
    return out


@quiet_numpy
class DistributionsFront:
    """The R-level distribution functions (see module doc)."""

    # -- the random1/2/3 wrapper ---------------------------------------------------

    def _family(self, n, params, rule, integer=False):
        """R's ``random<k>``: ``rule(*recycled)`` returns (values prefilled
        with NaN and constants, mask of elements to draw, draw function)."""
        count = _result_length(n)
        arrays = [_as_double(p) for p in params]
        if count == 0:
            return np.empty(0, dtype=np.int64 if integer else np.float64)
        if any(a.size < 1 for a in arrays):
            _na_warning()
            out = np.full(count, np.nan)
            return r_integer_result(out) if integer else out
        out = np.empty(count)
        scalar = all(a.size == 1 for a in arrays)
        step = count if scalar else _CHUNK
        for start in range(0, count, step):
            stop = min(count, start + step)
            if scalar:
                ps = [np.full(1, a[0]) for a in arrays]
            else:
                idx = np.arange(start, stop)
                ps = [a if a.size == stop - start and start == 0 else a[idx % a.size]
                      for a in arrays]
            vals, draw, fn = rule(*ps)
            if scalar:
                if draw[0]:
                    out[start:stop] = fn(stop - start, *[float(p[0]) for p in ps])
                else:
                    out[start:stop] = vals[0]
                continue
            seg = out[start:stop]
            seg[...] = vals
            di = np.flatnonzero(draw)
            if di.size:
                seg[di] = fn(di.size, *[_same_or(p[di]) for p in ps])
        if np.isnan(out).any():
            _na_warning()
        return r_integer_result(out) if integer else out

    # -- continuous -------------------------------------------------------------------

    def rexp(self, n, rate=1):
        """Exponential deviates, as R's ``rexp`` (``exp_rand``, Ahrens & Dieter 1972).

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        rate : float or array_like
            Recycled. ``rate = Inf`` gives 0; ``rate <= 0`` or NaN gives NaN
            with "NAs produced".

        R equivalent: ``rexp(n, rate = 1)``.
        """
        scale = _reciprocal(rate)

        def rule(s):
            vals = np.where(s == 0.0, 0.0, np.nan)
            draw = _finite(s) & (s > 0.0)
            return vals, draw, lambda k, s_: s_ * self._exp_draw(k)
        return self._family(n, [scale], rule)

    def rgamma(self, n, shape=_MISSING, rate=None, scale=None):
        """Gamma deviates, as R's ``rgamma`` (GD for shape >= 1, GS below).

        Parameters
        ----------
        n : int or sequence
        shape : float or array_like
        rate : float or array_like, default 1
        scale : float or array_like, default ``1 / rate``
            Give ``rate`` or ``scale``, not both (R warns when both are given
            and agree to 1e-15, and stops otherwise).

        Returns NaN with "NAs produced" for NaN or negative parameters, 0 when
        shape or scale is 0, Inf when either is infinite.

        R equivalent: ``rgamma(n, shape, rate = 1, scale = 1/rate)``.
        """
        if shape is _MISSING:
            raise ProbcalError('argument "shape" is missing, with no default')
        if rate is not None and scale is not None:
            rr = _arith(rate)
            ss = _arith(scale)
            if np.all(np.abs(rr * ss - 1) < 1e-15):
                _warn.warn("specify 'rate' or 'scale' but not both", UserWarning)
            else:
                raise ProbcalError("specify 'rate' or 'scale' but not both")
        if scale is None:
            scale = _reciprocal(1 if rate is None else rate)
        return self._family(n, [shape, scale], self._gamma_rule)

    def _gamma_rule(self, a, s):
        with np.errstate(invalid="ignore"):
            nan = np.isnan(a) | np.isnan(s)
            nonpos = ~nan & ((a <= 0.0) | (s <= 0.0))
            zero = nonpos & ((s == 0.0) | (a == 0.0))
            inf = ~nan & ~nonpos & (~_finite(a) | ~_finite(s))
        vals = np.full(a.shape, np.nan)
        vals[zero] = 0.0
        vals[inf] = np.inf
        draw = ~nan & ~nonpos & ~inf
        return vals, draw, self._gamma_draw

    def rchisq(self, n, df, ncp=None):
        """Chi-squared deviates, as R's ``rchisq``: ``rgamma(df / 2, 2)``, or
        with ``ncp`` nmath's ``rnchisq``.

        Parameters
        ----------
        n : int or sequence
        df : float or array_like
            Degrees of freedom (>= 0), recycled.
        ncp : float or array_like, optional
            Non-centrality (>= 0), recycled. Omitted (None) is R's missing
            ``ncp`` (the central generator); any value, 0 included, is R's
            ``rnchisq``: ``rgamma(df / 2, 2)`` when ``ncp = 0``, else
            ``r = rpois(ncp / 2)``, then ``rchisq(2 r)`` when ``r > 0``, plus
            ``rgamma(df / 2, 2)`` when ``df > 0``.

        Returns NaN with "NAs produced" for NaN or negative parameters, an
        infinite ``ncp``, or (central form) an infinite ``df``; 0 when ``df``
        (and ``ncp``) are 0; with ``ncp``, Inf for ``df = Inf`` (after the
        Poisson part's draws when ``ncp > 0``, as nmath).

        R equivalent: ``rchisq(n, df, ncp = 0)``.

        References
        ----------
        R Core Team, ``src/nmath/rchisq.c`` and ``rnchisq.c`` (R 4.2.2).
        """
        if ncp is not None:
            def nrule(df_, lam):
                with np.errstate(invalid="ignore"):
                    bad = np.isnan(df_) | ~_finite(lam) | (df_ < 0.0) | (lam < 0.0)
                # ncp = 0 draws nothing for df = 0 (0), a df whose half underflows
                # (rgamma(0, 2) is 0) or Inf (rgamma's Inf).
                zero = (df_ / 2.0 == 0.0)
                const = ~bad & (lam == 0.0) & (zero | (df_ == np.inf))
                # rnchisq returns the literal 0 for df = 0 (so +0 for df = -0).
                vals = np.where(bad, np.nan, np.where(const & ~zero, df_, 0.0))
                draw = ~bad & ~const
                return vals, draw, self._nchisq_draw
            return self._family(n, [df, ncp], nrule)

        def rule(df_):
            bad = ~_finite(df_) | (df_ < 0.0)
            vals = np.where(bad, np.nan, 0.0)  # df = 0: rgamma(0, 2) is 0
            # rgamma(df / 2, 2): a df whose half underflows to 0 draws nothing either.
            draw = ~bad & (df_ / 2.0 > 0.0)
            return vals, draw, lambda k, d: self._gamma_draw(k, d / 2.0, _same_full(d, 2.0))
        return self._family(n, [df], rule)

    def rbeta(self, n, shape1, shape2, ncp=None):
        """Beta deviates, as R's ``rbeta`` (Cheng 1978: BB when both shapes
        exceed 1, BC otherwise).

        ``shape1 = shape2 = 0`` draws 0 or 1 with one uniform; an infinite
        shape gives its limit; NaN or negative shapes give NaN.

        With ``ncp`` (any value, 0 included: R branches on a missing
        ``ncp``), R's R-level ``X <- rchisq(n, 2 * shape1, ncp = ncp);
        X / (X + rchisq(n, 2 * shape2))``, so ``ncp = 0`` gives other
        values than an omitted ``ncp``.

        R equivalent: ``rbeta(n, shape1, shape2, ncp = 0)``.
        """
        if ncp is not None:
            x = self.rchisq(n, 2 * _arith(shape1), ncp=ncp)
            y = self.rchisq(n, 2 * _arith(shape2))
            with np.errstate(invalid="ignore", divide="ignore"):
                return x / (x + y)

        def rule(aa, bb):
            with np.errstate(invalid="ignore"):
                bad = np.isnan(aa) | np.isnan(bb) | (aa < 0.0) | (bb < 0.0)
                fa, fb = _finite(aa), _finite(bb)
                half = ~bad & ~fa & ~fb
                coin = ~bad & (aa == 0.0) & (bb == 0.0)
                one = ~bad & ~half & ~coin & (~fa | (bb == 0.0))
                zero = ~bad & ~half & ~coin & ~one & (~fb | (aa == 0.0))
            vals = np.full(aa.shape, np.nan)
            vals[half] = 0.5
            vals[one] = 1.0
            vals[zero] = 0.0
            draw = ~bad & ~half & ~one & ~zero
            return vals, draw, self._beta_draw
        return self._family(n, [shape1, shape2], rule)

    def rt(self, n, df, ncp=None):
        """Student t deviates, as R's ``rt`` (``norm_rand() / sqrt(rchisq(df) / df)``).

        With ``ncp`` (any value, 0 included: R branches on a missing
        ``ncp``), R's R-level ``rnorm(n, ncp) / sqrt(rchisq(n, df) / df)``,
        with R's arithmetic recycling (a ``df`` longer than ``n`` lengthens
        the result, with R's warning).

        R equivalent: ``rt(n, df, ncp)``.
        """
        if ncp is not None:
            z = self.rnorm(n, ncp)
            chi = self.rchisq(n, df)
            return _r_binary(np.divide, z, _r_sqrt(_r_binary(np.divide, chi, _as_double(df))))

        def rule(df_):
            bad = np.isnan(df_) | (df_ <= 0.0)
            return np.full(df_.shape, np.nan), ~bad, self._t_draw
        return self._family(n, [df], rule)

    def rf(self, n, df1, df2, ncp=None):
        """F deviates, as R's ``rf`` (``(rchisq(df1) / df1) / (rchisq(df2) / df2)``).

        With ``ncp`` (any value, 0 included), R's R-level
        ``(rchisq(n, df1, ncp = ncp) / df1) / (rchisq(n, df2) / df2)``, with
        R's arithmetic recycling.

        R equivalent: ``rf(n, df1, df2, ncp)``.
        """
        if ncp is not None:
            num = _r_binary(np.divide, self.rchisq(n, df1, ncp=ncp), _as_double(df1))
            den = _r_binary(np.divide, self.rchisq(n, df2), _as_double(df2))
            return _r_binary(np.divide, num, den)

        def rule(a, b):
            bad = np.isnan(a) | np.isnan(b) | (a <= 0.0) | (b <= 0.0)
            return np.full(a.shape, np.nan), ~bad, self._f_draw
        return self._family(n, [df1, df2], rule)

    def rlogis(self, n, location=0, scale=1):
        """Logistic deviates, as R's ``rlogis`` (``location + scale * log(u / (1 - u))``).

        R equivalent: ``rlogis(n, location = 0, scale = 1)``.
        """
        def rule(loc, sc):
            bad = np.isnan(loc) | ~_finite(sc)
            keep = ~bad & ((sc == 0.0) | ~_finite(loc))
            vals = np.where(keep, loc, np.nan)

            def fn(k, lo, s):
                u = self.unif_rand(k)
                return lo + s * r_log(u / (1. - u))
            return vals, ~bad & ~keep, fn
        return self._family(n, [location, scale], rule)

    def rweibull(self, n, shape, scale=1):
        """Weibull deviates, as R's ``rweibull`` (``scale * (-log(u))^(1 / shape)``).

        R equivalent: ``rweibull(n, shape, scale = 1)``.
        """
        def rule(sh, sc):
            with np.errstate(invalid="ignore"):
                bad = ~_finite(sh) | ~_finite(sc) | (sh <= 0.0) | (sc <= 0.0)
            vals = np.where(bad & (sc == 0.0), 0.0, np.nan)

            def fn(k, sh_, sc_):
                u = self.unif_rand(k)
                base = -r_log(u)
                ex = 1.0 / np.broadcast_to(sh_, base.shape)
                # C's pow (numpy's SIMD power differs in the last bit).
                pw = np.fromiter(map(_c_pow, base.tolist(), ex.tolist()), float, base.size)
                return sc_ * pw
            return vals, ~bad, fn
        return self._family(n, [shape, scale], rule)

    def rcauchy(self, n, location=0, scale=1):
        """Cauchy deviates, as R's ``rcauchy`` (``location + scale * tan(pi * u)``).

        R equivalent: ``rcauchy(n, location = 0, scale = 1)``.
        """
        def rule(loc, sc):
            with np.errstate(invalid="ignore"):
                bad = np.isnan(loc) | ~_finite(sc) | (sc < 0)
            keep = ~bad & ((sc == 0.0) | ~_finite(loc))
            vals = np.where(keep, loc, np.nan)

            def fn(k, lo, s):
                u = self.unif_rand(k)
                tn = np.fromiter(map(math.tan, (math.pi * u).tolist()), float, u.size)
                return lo + s * tn
            return vals, ~bad & ~keep, fn
        return self._family(n, [location, scale], rule)

    def rlnorm(self, n, meanlog=0, sdlog=1):
        """Log-normal deviates, as R's ``rlnorm`` (``exp(rnorm(meanlog, sdlog))``).

        R equivalent: ``rlnorm(n, meanlog = 0, sdlog = 1)``.
        """
        def rule(mu, sg):
            with np.errstate(invalid="ignore"):
                bad = np.isnan(mu) | ~_finite(sg) | (sg < 0.0)
            keep = ~bad & ((sg == 0.0) | ~_finite(mu))
            vals = np.full(mu.shape, np.nan)
            vals[keep] = r_exp(mu[keep])
            return vals, ~bad & ~keep, lambda k, m, s: r_exp(m + s * self._norm_rand(k))
        return self._family(n, [meanlog, sdlog], rule)

    # -- discrete -----------------------------------------------------------------------

    @r_keyword_args
    def rpois(self, n, lambda_):
        """Poisson deviates, as R's ``rpois`` (inversion for lambda < 10,
        Ahrens & Dieter 1982 above).

        ``lambda_`` is R's ``lambda`` (a Python keyword). Integer values;
        float64 with NaN for R's NA when NAs are produced or a value exceeds
        R's integer range.

        R equivalent: ``rpois(n, lambda)``.
        """
        def rule(mu):
            with np.errstate(invalid="ignore"):
                bad = ~_finite(mu) | (mu < 0)
            vals = np.where(bad, np.nan, 0.0)
            return vals, ~bad & (mu > 0.0), self._pois_draw
        return self._family(n, [lambda_], rule, integer=True)

    def rgeom(self, n, prob):
        """Geometric deviates, as R's ``rgeom`` (``rpois(exp_rand() * (1 - p) / p)``).

        R equivalent: ``rgeom(n, prob)``.
        """
        def rule(p):
            with np.errstate(invalid="ignore"):
                bad = ~_finite(p) | (p <= 0) | (p > 1)
            return np.full(p.shape, np.nan), ~bad, self._geom_draw
        return self._family(n, [prob], rule, integer=True)

    def rnbinom(self, n, size, prob=None, mu=None):
        """Negative binomial deviates, as R's ``rnbinom`` (``rpois(rgamma(...))``).

        Give ``prob`` or ``mu`` (R: "'prob' and 'mu' both specified").

        R equivalent: ``rnbinom(n, size, prob, mu)``.
        """
        if mu is not None:
            if prob is not None:
                raise ProbcalError("'prob' and 'mu' both specified")

            def rule(sz, m):
                with np.errstate(invalid="ignore"):
                    bad = ~_finite(m) | np.isnan(sz) | (sz <= 0) | (m < 0)
                vals = np.where(bad, np.nan, 0.0)
                draw = ~bad & (m != 0)

                def fn(k, s_, m_):
                    s_ = np.where(np.isfinite(s_), s_, _DBL_MAX / 2.)
                    return self._nbinom_draw(k, _same_or(s_), _same_or(m_ / s_))
                return vals, draw, fn
            return self._family(n, [size, mu], rule)  # R's rnbinom_mu is double
        if prob is None:
            raise ProbcalError('argument "prob" is missing, with no default')

        def rule(sz, p):
            with np.errstate(invalid="ignore"):
                bad = ~_finite(p) | np.isnan(sz) | (sz <= 0) | (p <= 0) | (p > 1)
            vals = np.where(bad, np.nan, 0.0)
            draw = ~bad & (p != 1)

            def fn(k, s_, p_):
                s_ = np.where(np.isfinite(s_), s_, _DBL_MAX / 2.)
                return self._nbinom_draw(k, _same_or(s_), _same_or((1 - p_) / p_))
            return vals, draw, fn
        return self._family(n, [size, prob], rule, integer=True)

    def rhyper(self, nn, m, n, k):
        """Hypergeometric deviates, as R's ``rhyper`` (HIN inversion or H2PE).

        Parameters
        ----------
        nn : int or sequence
            Number of values (R's ``nn``).
        m, n, k : float or array_like
            White balls, black balls, balls drawn (rounded to integers as
            R's ``R_forceint``).

        Notes
        -----
        A parameter of 2^31 - 1 or more takes R's branch for large
        parameters: ``rbinom(1, m / (m + n))`` when ``k`` is 1, else
        ``qhyper(unif_rand(), m, n, k, lower.tail = FALSE)``, one uniform per
        value (slow for large ``k``, as in R). Values beyond R's integer
        range come back as float64, as R returns doubles.

        R equivalent: ``rhyper(nn, m, n, k)``.
        """
        def rule(a, b, c):
            fin = _finite(a) & _finite(b) & _finite(c)
            a, b, c = np.rint(np.where(fin, a, 0)), np.rint(np.where(fin, b, 0)), np.rint(np.where(fin, c, 0))
            bad = ~fin | (a < 0) | (b < 0) | (c < 0) | (c > a + b)
            vals = np.full(a.shape, np.nan)

            def fn(kk, a_, b_, c_):
                # Whole numbers as floats: a parameter can exceed int64 (R's qhyper branch).
                return self._hyper_draw(kk, *(np.rint(np.broadcast_to(x, (kk,))) for x in (a_, b_, c_)))
            return vals, ~bad, fn
        return self._family(nn, [m, n, k], rule, integer=True)

    def rmultinom(self, n, size, prob):
        """Multinomial vectors, as R's ``rmultinom`` (successive binomials).

        Returns
        -------
        numpy.ndarray of int64, shape (len(prob), n)
            One column per draw, as R's matrix.

        R equivalent: ``rmultinom(n, size, prob)``.
        """
        nn = _as_integer1(n)
        if nn is None or nn < 0:
            raise ProbcalError("invalid first argument 'n'")
        sz = _as_integer1(size)
        if sz is None or sz < 0:
            raise ProbcalError("invalid second argument 'size'")
        # R's C code coerces prob (coerceVector): NULL is numeric(0).
        p = np.array(np.empty(0) if prob is None else _as_double(prob), dtype=np.float64)
        for v in p:
            if not math.isfinite(v):
                raise ProbcalError("NA in probability vector")
            if v < 0.0:
                raise ProbcalError("negative probability")
        pos = p > 0
        if not pos.any():
            raise ProbcalError("no positive probabilities")
        total = 0.0
        for v in p[pos].tolist():  # a plain double sum, as FixupProb
            total += v
        p = p / total
        if p.size < 1:
            return np.zeros((0, nn), dtype=np.int64)
        return self._multinom_draw(nn, sz, p)


def _c_pow(x, y):
    """C's ``pow`` for a base >= 0: +Inf where Python's ``math.pow`` raises on overflow."""
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf
    except ValueError:  # pow(0, negative): a pole, +Inf in C
        return math.inf


def _same_or(a):
    """A drawing subset's parameter: one float when all equal (the fast
    paths), else the array."""
    a = np.asarray(a)
    if a.ndim == 0:
        return float(a)
    if a.size and np.all(a == a[0]):
        return float(a[0])
    return a


def _same_full(like, value):
    return value if np.ndim(like) == 0 else np.full(np.shape(like), value)


def _as_integer1(x):
    """R's ``asInteger`` of a length >= 1 argument (None for NA)."""
    arr = np.asarray(x).ravel()
    if arr.size < 1 or arr.dtype.kind not in "biuf":
        return None
    v = float(arr[0])
    if math.isnan(v) or v >= _INT_MAX + 1.0 or v <= -(_INT_MAX + 1.0):
        return None
    return int(v)


def _arith(x):
    """An operand of R arithmetic (``1/rate``): R's message for a non-number.
    ``None`` (R's ``NULL``) is a zero-length operand, as ``1/NULL`` is
    ``numeric(0)`` in R."""
    if x is None:
        return np.empty(0)
    if isinstance(x, (str, bytes)) or (np.asarray(x).dtype.kind not in "biuf" and x is not None):
        try:
            return _as_double(x)
        except ProbcalError:
            raise ProbcalError("non-numeric argument to binary operator") from None
    return _as_double(x)


def _reciprocal(rate):
    """R's ``1/rate``."""
    with np.errstate(divide="ignore"):
        return 1.0 / _arith(rate)

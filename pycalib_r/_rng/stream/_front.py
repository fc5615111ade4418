# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/library/stats/src/random.c, src/main/random.c, src/library/base/R/sample.R (GPL-2.0-or-later), (c) The R Core Team
"""One front end for R's argument checks, shared by every stream.

:class:`StreamFront` implements the R-level functions (``runif``,
``rnorm``, ``rbinom``, ``sample.int``, ``sample``, and the distributions of
:mod:`pycalib_r._rng.nmath._dists`): R's coercions, recycling, the elements that draw nothing,
NaN with "NAs produced", and R's errors, all before a single number is
drawn. The draws themselves come from hooks a stream implements:

``unif_rand(n)``
    ``n`` successive uniforms in (0, 1) (R's C ``unif_rand()``).
``_norm_rand(n)``
    ``n`` successive standard normals (R's ``norm_rand()``).
``_binom_draw(size, prob, count)`` / ``_rbinom_active(sizes, probs)``
    binomials for valid parameters that draw.
``_binom_large(sizes, probs)``
    the same when some size is >= 2^31 - 1 (R's ``qbinom`` branch), as floats.
``_draw_index(dn, k)`` / ``_draw_noreplace(dn, k)`` / ``_draw_hash(dn, k)``
/ ``_draw_prob(n, p, k, replace)``
    the samplers of ``do_sample``.

:class:`~pycalib_r._rng.RRandom` implements them as R does;
:class:`~pycalib_r._rng.GeneratorStream` with numpy's algorithms.

R equivalent: the R-level functions of ``stats`` and ``base`` named above.
"""

from __future__ import annotations

import math

import numpy as np

from ...rbase._errors import ProbcalError
from .._args import (
    _as_double,
    _coerce_string,
    _r_strtod,
    _as_logical_flag,
    _as_int_r,
    _length_one_number,
    _na_warning,
    _population,
    _r_and,
    _recycle,
    _result_length,
    _scalar_value,
    _vec_size,
    _within_int_range,
    is_r_null,
    quiet_numpy,
    r_integer_result,
)
from ..bitgen._mt import _CHUNK, _INT_MAX
from ..do_sample._sample import _fixup_prob


@quiet_numpy
class StreamFront:
    """R's argument handling of the random-number functions (see module doc)."""

    def runif(self, n, min=0, max=1):  # noqa: A002 - R's argument names
        """Uniform deviates, as R's ``runif``.

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        min, max : float or array_like
            Bounds, recycled along the result. An element with ``min == max``
            is that value and draws nothing; non-finite bounds or
            ``max < min`` give NaN with a "NAs produced" warning, as R.

        Returns
        -------
        numpy.ndarray of float64

        R equivalent: ``runif(n, min = 0, max = 1)``.
        """
        count = _result_length(n)
        a = _as_double(min)
        b = _as_double(max)
        if count == 0:
            return np.empty(0)
        if a.size < 1 or b.size < 1:
            _na_warning()
            return np.full(count, np.nan)
        if a.size == 1 and b.size == 1:
            av, bv = float(a[0]), float(b[0])
            if not (math.isfinite(av) and math.isfinite(bv)) or bv < av:
                _na_warning()
                return np.full(count, np.nan)
            if av == bv:
                return np.full(count, av)
            out = self.unif_rand(count)
            # In place, but the same two roundings as R's a + (b - a) * u;
            # in bounded pieces so that Ctrl-C is seen between them.
            d = bv - av
            for start in range(0, count, _CHUNK):
                seg = out[start:start + _CHUNK]
                seg *= d
                seg += av
            return out
        ai = _recycle(a, count)
        bi = _recycle(b, count)
        bad = ~(np.isfinite(ai) & np.isfinite(bi)) | (bi < ai)
        eq = ~bad & (ai == bi)
        draw = ~bad & ~eq
        out = np.empty(count)
        out[bad] = np.nan
        out[eq] = ai[eq]
        u = self.unif_rand(int(draw.sum()))
        out[draw] = ai[draw] + (bi[draw] - ai[draw]) * u
        if bad.any():
            _na_warning()
        return out

    # -- normals -----------------------------------------------------------------


    def rnorm(self, n, mean=0, sd=1):
        """Normal deviates, as R's ``rnorm`` (Inversion).

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        mean, sd : float or array_like
            Recycled along the result. ``sd == 0`` or an infinite ``mean``
            returns ``mean`` without drawing; NaN ``mean``, non-finite or
            negative ``sd`` give NaN with a "NAs produced" warning.

        Returns
        -------
        numpy.ndarray of float64

        R equivalent: ``rnorm(n, mean = 0, sd = 1)``.
        """
        count = _result_length(n)
        mu = _as_double(mean)
        sg = _as_double(sd)
        if count == 0:
            return np.empty(0)
        if mu.size < 1 or sg.size < 1:
            _na_warning()
            return np.full(count, np.nan)
        if mu.size == 1 and sg.size == 1:
            m0, s0 = float(mu[0]), float(sg[0])
            if math.isnan(m0) or not math.isfinite(s0) or s0 < 0.0:
                _na_warning()
                return np.full(count, np.nan)
            if s0 == 0.0 or not math.isfinite(m0):
                return np.full(count, m0)
            out = self._norm_rand(count)
            for start in range(0, count, _CHUNK):  # bounded pieces: Ctrl-C between them
                seg = out[start:start + _CHUNK]
                seg *= s0
                seg += m0
            return out
        out = np.empty(count)
        nabad = False
        for start in range(0, count, _CHUNK):
            stop = min(count, start + _CHUNK)
            mi = _recycle_slice(mu, start, stop)
            si = _recycle_slice(sg, start, stop)
            bad = np.isnan(mi) | ~np.isfinite(si) | (si < 0.0)
            keep = ~bad & ((si == 0.0) | ~np.isfinite(mi))
            draw = ~bad & ~keep
            seg = out[start:stop]
            seg[bad] = np.nan
            seg[keep] = mi[keep]
            nd = int(draw.sum())
            if nd:
                seg[draw] = mi[draw] + si[draw] * self._norm_rand(nd)
            nabad |= bool(bad.any())
        if nabad:
            _na_warning()
        return out

    # -- binomial --------------------------------------------------------------------


    def rbinom(self, n, size, prob):
        """Binomial deviates, as R 4.2.2's ``rbinom`` (nmath: inversion when
        ``size * min(prob, 1 - prob) < 30``, BTPE otherwise).

        Parameters
        ----------
        n : int or sequence
            Number of values; a sequence of length != 1 means its length.
        size, prob : float or array_like
            Recycled along the result. ``size == 0`` or ``prob`` in {0, 1}
            draws nothing. A non-integer, negative or non-finite ``size``, or
            ``prob`` outside [0, 1] gives NaN with a "NAs produced" warning,
            as R gives NA.

        Returns
        -------
        numpy.ndarray
            int64 values; float64 (with NaN for R's NA) when NAs were produced.

        A ``size`` of 2^31 - 1 or more takes R's branch for large sizes,
        ``qbinom(unif_rand(), size, prob, lower.tail = FALSE)``: one uniform
        per value (R's quantile search; its binomial probabilities are SciPy's
        ``betainc``, not R's ``pbeta``: docs/migrating-from-r.md),
        float64 values when one exceeds R's integer range (R returns doubles
        then).

        Notes
        -----
        R keeps the last (size, prob) setup in C statics, but it is only a
        cache of values recomputed identically, so draws do not depend on
        earlier calls. One parameter set (the common case) and inversion-only
        parameter vectors are vectorised; varying parameters that need BTPE
        run R's algorithm element by element.

        R equivalent: ``rbinom(n, size, prob)``.
        """
        count = _result_length(n)
        sz = _as_double(size)
        pr = _as_double(prob)
        if count == 0:
            return np.empty(0, dtype=np.int64)
        if sz.size < 1 or pr.size < 1:
            _na_warning()
            return r_integer_result(np.full(count, np.nan))
        if sz.size == 1 and pr.size == 1:
            nn, pp = float(sz[0]), float(pr[0])
            valid = (math.isfinite(nn) and round(nn) == nn and math.isfinite(pp)
                     and nn >= 0 and 0.0 <= pp <= 1.0)
            if not valid:
                _na_warning()
                return r_integer_result(np.full(count, np.nan))
            if nn == 0 or pp == 0.0:
                return np.zeros(count, dtype=np.int64)
            if pp == 1.0:
                return _int_or_double(np.full(count, nn))
            if nn >= _INT_MAX:
                return _int_or_double(self._binom_large(np.full(count, nn), np.full(count, pp)))
            return self._binom_draw(int(nn), pp, count)
        si = _recycle(sz, count)
        pi = _recycle(pr, count)
        with np.errstate(invalid="ignore"):
            bad = (~np.isfinite(si) | (np.rint(si) != si) | ~np.isfinite(pi)
                   | (si < 0) | (pi < 0.0) | (pi > 1.0))
        bad |= np.isnan(si)
        zero = ~bad & ((si == 0) | (pi == 0.0))
        one = ~bad & ~zero & (pi == 1.0)
        active = ~bad & ~zero & ~one
        ai = np.flatnonzero(active)
        if np.any(si[ai] >= _INT_MAX) or np.any(si[one] > _INT_MAX):
            # R's qbinom branch among the elements: R's loop, element by element.
            res = np.zeros(count)
            res[one] = si[one]
            res[ai] = self._binom_large(si[ai], pi[ai])
            res = _int_or_double(res)
        else:
            res = np.zeros(count, dtype=np.int64)
            res[one] = si[one].astype(np.int64)
            if ai.size:
                res[ai] = self._rbinom_active(si[ai].astype(np.int64), pi[ai])
        if bad.any():
            out = res.astype(np.float64)
            out[bad] = np.nan
            _na_warning()
            return r_integer_result(out)
        return res


    def sample_int(self, n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
        """Random integers in 1..n, as R's ``sample.int``.

        Parameters
        ----------
        n : int or float
            Population size (length 1). Fractional values truncate, as R.
        size : int, optional
            Number of items; defaults to ``n``.
        replace : bool
            Sample with replacement.
        prob : array_like of float, optional
            Weights of length ``n``; normalised as R does. With replacement
            R uses Walker's alias method when more than 200 of the ``n * p``
            exceed 0.1, else inversion on the probabilities sorted by R's
            heapsort; without replacement R's sequential scheme.
        useHash : bool, optional
            R's ``useHash``; None applies R's default
            (``n > 1e7 && !replace && is.null(prob) && size <= n/2``).

        Returns
        -------
        numpy.ndarray of int64
            1-based values, as R's; float64 when ``n`` exceeds R's integer
            range (R returns doubles then).

        Raises
        ------
        ProbcalError
            With R's messages ("invalid first argument", "invalid 'size'
            argument", "cannot take a sample larger than the population when
            'replace = FALSE'", "incorrect number of probabilities",
            "NA in probability vector", "negative probability",
            "too few positive probabilities", ...).

        R equivalent: ``sample.int(n, size = n, replace = FALSE, prob = NULL, useHash)``.
        """
        out = self._sample_int(n, size, replace, prob, useHash)
        # The number n stands for (its coercion warning was given by _sample_int).
        dn = _r_strtod(n)[0] if isinstance(n, str) else _length_one_number(n, "first")
        # R returns doubles when n exceeds its integer range (do_sample, do_sample2).
        return out.astype(np.float64) if dn > _INT_MAX else out

    def _sample_int(self, n, size=None, replace=False, prob=None, useHash=None):  # noqa: N803
        """R's ``sample.int`` before the storage rule (see :meth:`sample_int`)."""
        if n is None or (not isinstance(n, (str, bytes)) and np.size(n) != 1):
            raise ProbcalError("length(n) == 1L is not TRUE")
        # R's asReal / asVecSize read a string as a number ("3" is 3).
        dn = _coerce_string(n) if isinstance(n, str) else _length_one_number(n, "first")
        if size is None:
            size = n
        if size is None or (not isinstance(size, (str, bytes)) and np.size(size) != 1):
            raise ProbcalError("invalid 'size' argument")
        dk = _coerce_string(size) if isinstance(size, str) else _length_one_number(size, "size")
        repl = _as_logical_flag(replace, "replace")
        if useHash is None:
            use_hash = _r_and([None if math.isnan(dn) else dn > 1e7, not repl,
                               prob is None,
                               None if math.isnan(dk) or math.isnan(dn) else dk <= dn / 2])
            if use_hash is None:
                raise ProbcalError("missing value where TRUE/FALSE needed")
        else:
            use_hash = _as_logical_flag(useHash, "useHash")
        if use_hash:
            if prob is not None:
                raise ProbcalError("is.null(prob) is not TRUE")
            if repl:
                raise ProbcalError("!replace is not TRUE")
            return self._draw_hash(dn, self._hash_size(dn, dk))
        if prob is not None:
            n_, k_ = self._prob_sizes(dn, dk, repl)
            pv = _as_double(prob)
            if pv.size != n_:
                raise ProbcalError("incorrect number of probabilities")
            return self._draw_prob(n_, _fixup_prob(pv, n_, k_, repl), k_, repl)
        k = _vec_size(dk)
        if not math.isfinite(dn) or dn < 0 or dn > 4.5e15 or (k > 0 and dn == 0):
            raise ProbcalError("invalid first argument")
        if k < 0:
            raise ProbcalError("invalid 'size' argument")
        if not repl and k > dn:
            raise ProbcalError(
                "cannot take a sample larger than the population when 'replace = FALSE'")
        _within_int_range(k, "size")
        # R passes (int) n below INT_MAX and the double itself above it.
        dni = float(int(dn)) if (dn <= _INT_MAX and k <= _INT_MAX) else dn
        if repl or k < 2:
            return self._draw_index(dni, k)
        return self._draw_noreplace(dni, k)


    def sample(self, x, size=None, replace=False, prob=None):
        """Random sample of ``x``, as R's ``sample``.

        Parameters
        ----------
        x : array_like or number
            A single finite number ``>= 1`` means ``1..x`` (R's rule, also
            for a length-1 list or array); anything else is the population,
            returned as elements of ``x`` (list -> list, pandas -> pandas,
            otherwise ndarray; a 2-D array is taken as R's column-major vector).
        size, replace, prob
            As :meth:`sample_int`; ``size`` defaults to the population size.

        R equivalent: ``sample(x, size, replace = FALSE, prob = NULL)``.
        """
        if is_r_null(x):
            # R: NULL[sample.int(0, size)] is NULL; nothing is drawn. A size
            # other than 0 still fails as in R.
            self._sample_int(0, 0 if size is None else size, replace, prob)
            return None
        v = _scalar_value(x)
        if v is not None and math.isfinite(v) and v >= 1:
            return self.sample_int(v, v if size is None else size, replace, prob)
        pop = _population(x)
        n = len(pop) if not isinstance(pop, np.ndarray) else pop.size
        idx = self.sample_int(n, n if size is None else size, replace, prob) - 1
        if hasattr(pop, "iloc"):
            return pop.iloc[idx]
        if isinstance(pop, np.ndarray):
            flat = pop.ravel(order="F") if pop.ndim > 1 else pop
            return flat[idx]
        if isinstance(pop, (list, tuple, range)):
            seq = list(pop)
            return [seq[i] for i in idx.tolist()]
        return np.asarray(pop)[idx]


    @staticmethod
    def _hash_size(dn, dk):
        """``sample2``'s checks (R's ``do_sample2``): the size as an int."""
        k = _as_int_r(dk)
        if not math.isfinite(dn) or dn < 0 or dn > 4.5e15 or (k is not None and k > 0 and dn == 0):
            raise ProbcalError("invalid first argument")
        if k is None or k < 0:
            raise ProbcalError("invalid 'size' argument")
        if k > dn / 2:
            raise ProbcalError("This algorithm is for size <= n/2")
        return k

    @staticmethod
    def _prob_sizes(dn, dk, repl):
        """``do_sample``'s checks with ``prob``: (n, size) as ints."""
        n = _as_int_r(dn)
        k = _as_int_r(dk)
        if n is None or n < 0 or (k is not None and k > 0 and n == 0):
            raise ProbcalError("invalid first argument")
        if k is None or k < 0:
            raise ProbcalError("invalid 'size' argument")
        if not repl and k > n:
            raise ProbcalError(
                "cannot take a sample larger than the population when 'replace = FALSE'")
        return n, k


def _recycle_slice(a, start, stop):
    """Elements ``start:stop`` of ``a`` recycled (R's ``a[i % length(a)]``)."""
    if a.size == 1:
        return np.full(stop - start, a[0])
    return a[np.arange(start, stop) % a.size]


def _int_or_double(x):
    """R's integer result, or double when a value leaves R's integer range."""
    return r_integer_result(x)

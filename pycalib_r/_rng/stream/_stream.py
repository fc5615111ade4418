# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: assembles the ports of _rng.bitgen, _rng.nmath and _rng.do_sample, which carry their own headers
"""The R stream: :class:`RRandom`, R 4.2.2's global generator as an object.

Mersenne-Twister words (:mod:`pycalib_r._rng.bitgen._mt`), nmath's
algorithms on them (:mod:`pycalib_r._rng.nmath._rbinom`,
:mod:`pycalib_r.rstats._qnorm`, :mod:`pycalib_r._rng.nmath._dists`), R's
samplers (:mod:`pycalib_r._rng.do_sample._sample`) and R's argument checks
(:mod:`._front`) assembled into one stream whose values and state after each
call equal R's ``.Random.seed``.

R equivalent: the global stream behind ``set.seed()`` / ``.Random.seed``.
"""

from __future__ import annotations

import secrets

import numpy as np

from ...rbase._errors import ProbcalError
from .._args import _check_nonneg_int, as_seed, is_r_null
from ._front import StreamFront
from ._front_dists import DistributionsFront
from ..bitgen._mt import (
    _BIG,
    _CHUNK,
    _INT_MAX,
    _KIND_CODE,
    _N_KEY,
    _STATE_LEN,
    _scramble,
    _sgenrand_4357,
    _unif_from_words,
)
from ...rstats import qnorm_open
from ..nmath import _rbinom
from ...rbase._rarith import pow_di_vec as _pow_di_vec
from ..nmath._rbinom import _BinomSetup, _btpe_try, _inversion_try
from ..do_sample._sample import SamplingMixin
from ..nmath._cursor import UnifCursor
from ._locking import Locked, StreamLock, serialise
from ._stream_dists import RDistributions

_min = min


class RRandom(Locked, RDistributions, SamplingMixin, DistributionsFront, StreamFront):
    """An R random-number stream: Mersenne-Twister, Inversion, Rejection.

    Every method returns R 4.2.2's values bit for bit and leaves the stream
    where R leaves ``.Random.seed``.

    Parameters
    ----------
    seed : int or None
        As R's ``set.seed(seed)``. None seeds from OS entropy, as R seeds
        from the clock when no ``.Random.seed`` exists; the state is still
        exportable with :meth:`get_state` for reproduction.
    kind, normal_kind, sample_kind : str, optional
        R's ``RNGkind`` names, as ``set.seed(seed, kind, normal.kind,
        sample.kind)``; default R's defaults (Mersenne-Twister, Inversion,
        Rejection), which run on numpy's ``MT19937`` words. See
        :meth:`rng_kind`.

    R equivalent: the global stream behind ``set.seed()`` / ``.Random.seed``
    with ``RNGkind("Mersenne-Twister", "Inversion", "Rejection")``.

    Notes
    -----
    Thread-safe: calls on one stream serialise on its lock, so threads
    sharing it get the draws of some serial order; a stream per thread runs
    in parallel and gives each thread its serial results. A forked child
    renews the lock (and numpy's bit generator lock) and rewinds a call
    another thread was inside at the fork.

    Examples
    --------
    An independent stream, as after ``set.seed(1)`` in R; pass it as
    ``rng=`` to any function that draws random numbers.

    >>> import pycalib_r as pc
    >>> rng = pc.RRandom(1)
    >>> print(" ".join(f"{v:.7g}" for v in rng.runif(3)))
    0.2655087 0.3721239 0.5728534

    R: ``set.seed(1); runif(3)`` prints ``[1] 0.2655087 0.3721239 0.5728534``.
    The state is R's ``.Random.seed`` (kind code, position, key):

    >>> rng.get_state()[:3]
    array([     10403,          3, 1654269195], dtype=int32)

    R: ``.Random.seed[1:3]`` prints ``[1]      10403          3 1654269195``.
    """

    # The uniforms are R's from the MT19937 words of self._bg, so the
    # compiled distributions (_dist_fast) may read the words directly.
    _reads_mt_words = True

    # The dispatch for kinds other than R's defaults (module ._kinds), set by
    # that module when it loads (the package's __init__ imports it), so this
    # module and the default path import nothing of it.
    _kind_dispatch = None

    def __init__(self, seed=None, kind=None, normal_kind=None, sample_kind=None):
        self._bg = np.random.MT19937(0)
        # Calls on one stream serialise on this lock (module ._locking).
        self._lock = self._new_lock()
        self.set_seed(seed, kind, normal_kind, sample_kind)

    def _new_lock(self):
        # The stream's lock knows the bit generator's own, renewed with it in a forked child.
        return StreamLock(self._bg.lock)

    # -- state ----------------------------------------------------------------------

    def set_seed(self, seed, kind=None, normal_kind=None, sample_kind=None):
        """Seed the stream as R's ``set.seed(seed, kind, normal.kind, sample.kind)``.

        Parameters
        ----------
        seed : int, float, str, bool, sequence or None
            Coerced as R's ``as.integer`` (see :func:`~pycalib_r._rng.as_seed`):
            ``1.7`` is 1, ``"3"`` is 3, ``True`` is 1, a vector's first
            element counts. None (R's ``NULL``; ``[]`` is R's ``numeric(0)``) reseeds
            from OS entropy, as ``set.seed(NULL)`` does.
        kind, normal_kind, sample_kind : str, optional
            Switch kinds first, as :meth:`rng_kind` (R's names, unique
            abbreviations, ``"default"``); ``"Rounding"`` warns
            "non-uniform 'Rounding' sampler used", and
            ``"Buggy Kinderman-Ramage"`` is refused, as in R.

        Raises
        ------
        ProbcalError
            NA, a non-numeric string or a value outside R's integer range;
            the message is R's ("supplied seed is not a valid integer"),
            after R's coercion warning where R gives one.

        R equivalent: ``set.seed(seed, kind, normal.kind, sample.kind)``.
        """
        if kind is not None or normal_kind is not None or sample_kind is not None:
            return self._kind_dispatch.set_seed(self, seed, kind, normal_kind, sample_kind)
        # None (R's NULL: set.seed(NULL)) re-seeds; [] is numeric(0) (see _args.is_r_null).
        value = secrets.randbits(32) if is_r_null(seed) else as_seed(seed)
        words = _scramble(value)
        # i_seed[0] would be mti; R overwrites it with 624 (FixupSeeds(initial)).
        self._set_key(words[1:], _N_KEY)

    def _set_key(self, key, pos):
        self._bg.state = {"bit_generator": "MT19937",
                          "state": {"key": np.asarray(key, dtype=np.uint32), "pos": int(pos)}}

    def get_state(self):
        """The stream state as R's ``.Random.seed``.

        Returns
        -------
        numpy.ndarray of int32, length 626
            ``[10403, mti, mt[0], ..., mt[623]]``, equal to R's
            ``.Random.seed`` for the same stream.

        R equivalent: ``.Random.seed``.
        """
        st = self._bg.state["state"]
        out = np.empty(_STATE_LEN, dtype=np.int32)
        out[0] = _KIND_CODE
        out[1] = st["pos"]
        out[2:] = np.asarray(st["key"], dtype=np.uint32).view(np.int32)
        return out

    def set_state(self, state):
        """Import an R ``.Random.seed`` vector (the input is not modified).

        Parameters
        ----------
        state : array_like of int, length 626
            R's ``.Random.seed`` (first element 10403 under
            Mersenne-Twister/Inversion/Rejection; any other kind code selects
            that kind, as :meth:`set_random_seed`). Words may be given signed
            (R) or unsigned. As R's ``FixupSeeds``: a position of 0 becomes
            624, an all-zero key reseeds from entropy; position 625 triggers
            R's default ``MT_sgenrand(4357)`` key, larger positions mean
            "regenerate". Read as R reads it: a non-integer vector, or a first
            element that names no kind, warns and re-seeds (see
            :meth:`set_random_seed`).

        Raises
        ------
        ProbcalError
            Wrong length, or a negative position (R reads outside its
            state there).

        R equivalent: ``assign(".Random.seed", state, globalenv())``.
        """
        self.set_random_seed(state)

    def _set_mt_state(self, arr):
        """``set_state`` for an integer vector with kind code 10403."""
        if arr.size < _STATE_LEN:
            raise ProbcalError("'.Random.seed' has wrong length")
        vals = arr[:_STATE_LEN].astype(np.int64)
        if np.any(vals[1:] < -(2**31)) or np.any(vals[1:] >= 2**32):
            raise ProbcalError("'.Random.seed' must be an integer vector")
        pos = int(vals[1])
        if pos >= 2**31:  # an unsigned view of a negative int
            pos -= 2**32
        key = (vals[2:] % 2**32).astype(np.uint32)
        if pos <= 0:
            pos = _N_KEY
        if not key.any():
            self.set_seed(None)
            return
        if pos == _N_KEY + 1:
            key = _sgenrand_4357()
            pos = _N_KEY
        elif pos > _N_KEY:
            pos = _N_KEY
        self._set_key(key, pos)

    def get_random_seed(self):
        """R's ``.Random.seed`` for the stream's current kinds (int32).

        Length 626 under Mersenne-Twister, 4 under Wichmann-Hill, 3 under
        Marsaglia-Multicarry and Super-Duper, 101 under the Knuth kinds, 7
        under L'Ecuyer-CMRG; the first element is R's kind code.

        R equivalent: ``.Random.seed``.
        """
        return self.get_state()

    def set_random_seed(self, vec):
        """``.Random.seed <- vec`` for any kind: kinds and words from an R state.

        The words are loaded as R's ``FixupSeeds`` does; Box-Muller's saved
        value is kept, as in R.

        Raises
        ------
        ProbcalError
            Where R stops or warns and ignores the vector (a wrong length,
            an invalid kind code), with R's text.

        R equivalent: ``assign(".Random.seed", vec, globalenv())``.
        """
        self._kind_dispatch.set_random_seed(self, vec)

    def rng_kind(self, kind=None, normal_kind=None, sample_kind=None):
        """R's ``RNGkind()`` on this stream: the kinds before, and set new ones.

        Parameters
        ----------
        kind : str, optional
            "Wichmann-Hill", "Marsaglia-Multicarry", "Super-Duper",
            "Mersenne-Twister", "Knuth-TAOCP", "Knuth-TAOCP-2002",
            "L'Ecuyer-CMRG" or "default" (unique abbreviations accepted).
            Changing it draws one uniform from the current generator to seed
            the new one, as R does.
        normal_kind : str, optional
            "Buggy Kinderman-Ramage", "Ahrens-Dieter", "Box-Muller",
            "Inversion", "Kinderman-Ramage" or "default".
        sample_kind : str, optional
            "Rounding" (R < 3.6.0, with R's warning) or "Rejection".

        Returns
        -------
        tuple of str
            ``(kind, normal_kind, sample_kind)`` before the call.

        Raises
        ------
        ProbcalError
            R's message for a name that matches no kind.

        R equivalent: ``RNGkind(kind, normal.kind, sample.kind)``.
        """
        return self._kind_dispatch.rng_kind(self, kind, normal_kind, sample_kind)

    # -- the uniform source: what another RNG kind replaces -------------------

    def _snapshot(self):
        """An opaque copy of the generator state (for exact rewinds)."""
        return self._bg.state

    def _restore(self, snap):
        self._bg.state = snap

    # numpy's mt19937_state: uint32_t key[624]; int pos (2,500 bytes).
    _MT_STATE_BYTES = 624 * 4 + 4

    def _call_snapshot(self):
        """A copy of the words and position taken at the start of each call
        (module ._locking puts it back if Ctrl-C ends the call): a raw copy of
        numpy's state struct, about 2 us, where ``_snapshot`` takes 20-50 us."""
        import ctypes  # noqa: PLC0415 (numpy's .ctypes interface imports it too)

        bg = self._bg
        return bg, ctypes.string_at(bg.ctypes.state_address, self._MT_STATE_BYTES)

    def _call_restore(self, snap):
        import ctypes  # noqa: PLC0415

        bg, raw = snap
        if bg is self._bg:
            ctypes.memmove(bg.ctypes.state_address, raw, self._MT_STATE_BYTES)

    def _skip(self, n):
        """Advance by ``n`` uniforms (one 32-bit word each for Mersenne-Twister)."""
        self._advance(n)

    def _advance(self, n):
        if n > 0:
            self._bg.random_raw(int(n), output=False)

    def _raw(self, n):
        return self._bg.random_raw(int(n))

    # -- uniforms -------------------------------------------------------------

    def unif_rand(self, n):
        """``n`` successive values of R's C-level ``unif_rand()``.

        Parameters
        ----------
        n : int
            Number of values (>= 0).

        Returns
        -------
        numpy.ndarray of float64
            Values in (0, 1): ``word * 2^-32``, with R's fixup of 0.

        R equivalent: ``unif_rand()`` (C); equals ``runif(n)``.
        """
        n = _check_nonneg_int(n, "n")
        out = np.empty(n)
        # Bounded pieces: temporaries stay small and Ctrl-C is seen between them.
        for start in range(0, n, _CHUNK):
            m = _min(_CHUNK, n - start)
            out[start:start + m] = _unif_from_words(self._raw(m))
        return out


    def _norm_rand(self, count):
        """``count`` values of R's ``norm_rand()`` (INVERSION, 2 words each)."""
        out = np.empty(count)
        per = _CHUNK // 2
        for start in range(0, count, per):
            m = _min(per, count - start)
            w = self.unif_rand(2 * m)
            u1 = w[0::2]
            u2 = w[1::2]
            u = np.floor(_BIG * u1)
            u += u2
            u /= _BIG
            z = qnorm_open(u)
            z += 0.0  # qnorm5 returns mu + sigma * val: -0 becomes +0
            out[start:start + m] = z
        return out


    # -- binomial hooks (nmath/rbinom.c) --------------------------------------

    def _binom_draw(self, nn, pp, count):
        """``count`` draws for one valid (size, prob) pair that draws."""
        if nn >= _INT_MAX:
            raise NotImplementedError(
                "rbinom() with size >= 2^31 - 1 (R's qbinom branch) is not supported")
        s = _BinomSetup(nn, pp)
        ix = self._binom_same(s, count)
        if s.pp > 0.5:
            np.subtract(s.n, ix, out=ix)
        return ix

    def _rbinom_active(self, nv, pv):
        """rbinom for valid parameters that draw (0 < prob < 1, size >= 1)."""
        total = nv.size
        if np.all(nv == nv[0]) and np.all(pv == pv[0]):
            s = _BinomSetup(int(nv[0]), float(pv[0]))
            ix = self._binom_same(s, total)
            return s.n - ix if s.pp > 0.5 else ix
        p = np.minimum(pv, 1.0 - pv)
        q = 1.0 - p
        npv = nv * p
        if np.all(npv < 30.0):
            r = p / q
            g = r * (nv + 1)
            qn = _pow_di_vec(q, nv)
            ix = self._binom_inversion_varying(nv, pv, qn, g, r)
            return np.where(pv > 0.5, nv - ix, ix)
        # Varying parameters with BTPE: R's loop, element by element.
        out = np.empty(total, dtype=np.int64)
        cache = {}
        with UnifCursor(self) as cur:
            for i in range(total):
                key = (int(nv[i]), float(pv[i]))
                s = cache.get(key)
                if s is None:
                    s = cache[key] = _BinomSetup(*key)
                out[i] = self._binom_one(s, cur)
        return out

    @staticmethod
    def _binom_one(s, cur):
        if s.small:
            while True:
                ix = _inversion_try(s, cur.unif())
                if ix is not None:
                    break
        else:
            while True:
                u1 = cur.unif()
                u2 = cur.unif()
                ix = _btpe_try(s, u1, u2)
                if ix is not None:
                    break
        return s.n - ix if s.pp > 0.5 else ix

    def _binom_same(self, s, total):
        """``total`` draws with one parameter set: each attempt takes a fixed
        number of uniforms and is accepted or not on its own, so the draws
        are the accepted attempts in order."""
        cost = 1 if s.small else 2
        out = np.empty(total, dtype=np.int64)
        done = 0
        while done < total:
            need = total - done
            # Inversion restarts essentially never, so ask for exactly what
            # is needed (no rewind); BTPE rejects a few attempts in ten.
            ntry = _min(need if s.small else int(need * 1.3) + 64, _CHUNK)
            snap = self._snapshot()
            u = self.unif_rand(ntry * cost)
            if s.small and s.n == 1:
                ix, ok = _rbinom._bernoulli_vec(s, u)
            elif s.small:
                ix, ok = _rbinom._inversion_vec(u, s.qn, s.g, s.r)
            else:
                ix, ok = _rbinom._btpe_vec(s, u[0::2], u[1::2])
            acc = np.flatnonzero(ok)[:need]
            out[done:done + acc.size] = ix[acc]
            done += acc.size
            used = (int(acc[-1]) + 1) if (acc.size == need) else ntry
            if used != ntry:
                self._restore(snap)
                self._skip(used * cost)
        return out

    def _binom_inversion_varying(self, nv, pv, qn, g, r):
        """Inversion with per-element parameters: one uniform per element
        unless R's loop restarts (essentially never), handled in order."""
        total = nv.size
        out = np.empty(total, dtype=np.int64)
        start = 0
        while start < total:
            m_ = _min(total - start, _CHUNK)
            sl = slice(start, start + m_)
            snap = self._snapshot()
            u = self.unif_rand(m_)
            ix, ok = _rbinom._inversion_vec(u, qn[sl], g[sl], r[sl])
            if ok.all():
                out[sl] = ix
                start += m_
                continue
            first = int(np.argmin(ok))
            out[start:start + first] = ix[:first]
            self._restore(snap)
            self._skip(first + 1)
            j = start + first
            s = _BinomSetup(int(nv[j]), float(pv[j]))
            with UnifCursor(self) as cur:
                while True:
                    t = _inversion_try(s, cur.unif())
                    if t is not None:
                        break
            out[j] = t
            start = j + 1
        return out

    # -- sampling --------------------------------------------------------------------

    def __repr__(self):
        pos = self._bg.state["state"]["pos"]
        return f"<RRandom Mersenne-Twister/Inversion/Rejection, position {pos}>"


# Every public method (those of the mixins included) runs under the stream's
# lock, so threads sharing a stream get the draws of some serial order.
serialise(StreamFront, DistributionsFront, SamplingMixin, RDistributions, RRandom)

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: dispatch between the ports of _rng.bitgen and _rng.nmath, which carry their own headers
"""Every ``RNGkind`` on :class:`~pycalib_r._rng.RRandom`: the dispatch.

An :class:`RRandom` under R's defaults (Mersenne-Twister, Inversion,
Rejection) draws from numpy's ``MT19937`` words and never passes through
this module. When ``set_seed(..., kind=)``, ``rng_kind()`` or
``set_random_seed()`` selects anything else, the stream's class becomes
:class:`KindStream`, whose uniform source, normal kind and sample kind are
those of a :class:`pycalib_r._rng.bitgen.KindState` (R's global RNG state
machine); returning to the defaults switches it back. The state crosses
over as R's ``.Random.seed``, so the values and the stream position after
each call equal R's whatever the sequence of kind changes.

Every distribution reaches the kinds through the stream's hooks:
uniforms through ``unif_rand``/``_snapshot``/``_restore``/``_skip``,
normals through ``_norm_rand`` (and, in the scalar nmath loops,
``cursor.norm``, which :func:`pycalib_r._rng.nmath._dists.norm_rand1` calls when
the normal kind is not Inversion), indices through ``_unif_index_fill`` and
``_index_cursor`` (``R_unif_index`` under Rejection or Rounding).

R equivalent: ``RNGkind()``, ``set.seed(seed, kind, normal.kind,
sample.kind)``, ``.Random.seed``, ``parallel::nextRNGStream()``,
``parallel::nextRNGSubStream()`` (R 4.2.2, ``src/main/RNG.c``).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from ...rbase import _warn
from ...rbase._errors import ProbcalError
from .. import bitgen as K
from ..nmath._snorm import _ahrens_dieter, _kinderman_ramage
from .._args import _check_nonneg_int, as_seed, is_r_null
from ..nmath._cursor import UnifCursor
from ._locking import serialise
from ..bitgen._mt import _CHUNK, _Cursor
from ._stream import RRandom

DEFAULT = ("Mersenne-Twister", "Inversion", "Rejection")
_TWO_PI = 2 * math.pi
_TEN_DBL_MIN = 10 * 2.2250738585072014e-308


def _r_error(err):
    """The kinds layer's ValueError as the package's error (R's text kept)."""
    out = ProbcalError(str(err))
    out.__cause__ = None
    return out


# -- state crossings ------------------------------------------------------------------

def _enter(stream):
    """The stream's :class:`KindState`, holding its current state."""
    if type(stream) is KindStream:
        return stream._ks
    ks = stream.__dict__.get("_ks")
    if ks is None:
        ks = K.KindState(0)
    ks.set_random_seed(RRandom.get_state(stream))
    stream._ks = ks
    return ks


def _settle(stream, ks):
    """Make the stream run ``ks``: the numpy fast path under R's defaults."""
    if ks.kinds() == DEFAULT:
        stream.__class__ = RRandom
        RRandom._set_mt_state(stream, np.asarray(ks.get_random_seed()))
        if ks.normal.bm_keep == 0.0:
            # Nothing left to carry (Box-Muller's saved value is R's only
            # state outside .Random.seed): the stream is a plain RRandom again.
            del stream._ks
    else:
        stream._ks = ks
        stream.__class__ = KindStream


def _match(ks, kind, normal_kind, sample_kind):
    try:
        return ks._match(kind, normal_kind, sample_kind)
    except ValueError as err:
        raise _r_error(err) from None


def rng_kind(stream, kind=None, normal_kind=None, sample_kind=None):
    """``RNGkind(kind, normal.kind, sample.kind)`` on ``stream``; the kinds before."""
    if kind is None and normal_kind is None and sample_kind is None:
        return stream._ks.kinds() if type(stream) is KindStream else DEFAULT
    ks = _enter(stream)
    _match(ks, kind, normal_kind, sample_kind)  # R checks every name before changing any
    with _warn.collect() as caught:  # R's warnings come after the switch
        before = ks.rng_kind(kind, normal_kind, sample_kind)
    _settle(stream, ks)
    _warn.flush(caught)
    return before


def set_seed(stream, seed, kind=None, normal_kind=None, sample_kind=None):
    """``set.seed(seed, kind, normal.kind, sample.kind)`` on ``stream``."""
    ks = _enter(stream)
    _, nk, sk = _match(ks, kind, normal_kind, sample_kind)
    if nk == "Buggy Kinderman-Ramage":
        raise ProbcalError(K.MESSAGES["buggy_kr_seed"])
    rounding = K.MESSAGES["rounding"]
    if sk == "Rounding":
        # R's set.seed warns at R level, before .Internal(set.seed()) reads the seed
        # (so before its coercion warning and "supplied seed is not a valid integer").
        _warn.warn(rounding, RuntimeWarning)
    value = None if is_r_null(seed) else as_seed(seed)
    with _warn.collect() as caught:
        ks.set_seed(value, kind, normal_kind, sample_kind)
    caught.discard(RuntimeWarning, rounding)  # given above
    _settle(stream, ks)
    _warn.flush(caught)  # at the caller's line (module .._warn)


_MT_NEGATIVE = ("'.Random.seed[2]' (the Mersenne-Twister position) is negative: R 4.2.2 "
                "would read outside its generator's state (undefined behaviour), so it is "
                "refused")


def _r_typeof(vec):
    """R's ``typeof`` of ``vec`` as a ``.Random.seed`` value: "integer" for an
    integer vector, else the type R would name in its warning."""
    if is_r_null(vec):
        return "NULL"
    arr = np.asarray(vec) if not isinstance(vec, (str, bytes)) else np.asarray([vec])
    kind = arr.dtype.kind
    if kind in "iu":
        return "integer"
    if kind == "f":
        return "double"
    if kind == "b":
        return "logical"
    if kind == "c":
        return "complex"
    if kind in "US":
        return "character"
    if kind == "O" and all(isinstance(v, str) for v in arr.ravel()):
        return "character"
    return "list"


def _ignore_and_reseed(stream, message):
    """R's ``GetRNGkind`` on a ``.Random.seed`` it cannot read: the warning,
    then R's default kinds seeded from the clock (here OS entropy)."""
    _warn.warn(message, RuntimeWarning)
    stream.__dict__.pop("_ks", None)
    stream.__class__ = RRandom
    RRandom.set_seed(stream, None)


def _reseed_kind(stream, kind, nk, sk):
    """A length-1 ``.Random.seed``: R's ``Randomize(kind)`` under its kinds, silently."""
    ks = stream.__dict__.get("_ks")
    if ks is None:
        ks = K.KindState(0)
    ks.gen = K.GENERATORS[kind](None)
    ks.normal.kind = nk
    ks.normal.reset()  # RNG_Init zaps BM_norm_keep
    ks.sample_kind = sk
    stream._ks = ks
    _settle(stream, ks)


def set_random_seed(stream, vec):
    """``.Random.seed <- vec`` on ``stream`` (any kind), read as R's
    ``GetRNGstate`` reads it at the next draw.

    Where R warns and ignores the vector (not an integer vector; a first
    element that is missing, out of range or names no kind), the warning is
    R's and the stream is re-seeded from entropy under R's default kinds, as
    R re-seeds from the clock. A vector of length 1 re-seeds its kinds
    silently. A negative Mersenne-Twister position is refused (R reads out
    of bounds there).
    """
    typ = _r_typeof(vec)
    if typ != "integer":
        _ignore_and_reseed(stream, f"'.Random.seed' is not an integer vector but of type "
                                   f"'{typ}', so ignored")
        return
    arr = np.asarray(vec)
    if arr.ndim != 1:
        arr = arr.ravel()
    if arr.size == 0:
        _ignore_and_reseed(stream, "'.Random.seed[1]' is not a valid integer, so ignored")
        return
    try:
        kinds = K.decode_kind_code(int(arr[0]))
    except ValueError as err:
        if str(err).endswith("so ignored"):
            _ignore_and_reseed(stream, str(err))
            return
        raise _r_error(err) from None
    if arr.size == 1:
        _reseed_kind(stream, *kinds)
        return
    if kinds[0] == "Mersenne-Twister" and arr.size >= 2 and _signed32(int(arr[1])) < 0:
        e = ProbcalError(_MT_NEGATIVE)
        e.add_note("Assign a .Random.seed saved from R (or from get_random_seed()), "
                   "or call set_seed().")
        raise e
    try:
        gen, nk, sk = K.from_random_seed(arr)
    except ValueError as err:
        raise _r_error(err) from None
    ks = stream.__dict__.get("_ks")
    if (gen.kind, nk, sk) == DEFAULT and ks is None:
        stream.__class__ = RRandom
        RRandom._set_mt_state(stream, arr)
        return
    if ks is None:
        ks = K.KindState(0)
    ks.gen = gen  # the saved Box-Muller value stays, as in R
    ks.normal.kind = nk
    ks.sample_kind = sk
    _settle(stream, ks)


def _signed32(v):
    return v - (1 << 32) if v >= 1 << 31 else v


def _lecuyer(fun, seed):
    try:
        return fun(seed)
    except ValueError as err:
        raise _r_error(err) from None


def next_rng_stream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG stream (2^127 steps on).

    Parameters
    ----------
    seed : array_like of int, length 7
        A ``.Random.seed`` under ``kind = "L'Ecuyer-CMRG"``.

    Returns
    -------
    numpy.ndarray of int32, length 7

    Raises
    ------
    ProbcalError
        R's "invalid value of 'seed'" for anything but an L'Ecuyer state.

    R equivalent: ``parallel::nextRNGStream(seed)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(123, kind="L'Ecuyer-CMRG")
    >>> pc.next_rng_stream(pc.get_random_seed()).tolist()
    [10407, 1801422725, -2057975723, 1156894209, 1595475487, 210384600, -1655729657]

    >>> pc.set_seed(123, kind="default")

    R: ``set.seed(123, kind = "L'Ecuyer-CMRG"); parallel::nextRNGStream(.Random.seed)``
    prints ``[1]       10407  1801422725 -2057975723  1156894209  1595475487   210384600``
    and ``[7] -1655729657``.
    """
    return _lecuyer(K.next_rng_stream, seed)


def next_rng_substream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG substream (2^76 steps on).

    R equivalent: ``parallel::nextRNGSubStream(seed)``; see :func:`next_rng_stream`.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(123, kind="L'Ecuyer-CMRG")
    >>> pc.next_rng_substream(pc.get_random_seed()).tolist()
    [10407, 701401935, -355687987, 1513178397, 1735140456, -1584327974, -452417912]

    >>> pc.set_seed(123, kind="default")

    R: ``set.seed(123, kind = "L'Ecuyer-CMRG"); parallel::nextRNGSubStream(.Random.seed)``
    prints ``[1]       10407   701401935  -355687987  1513178397  1735140456 -1584327974``
    and ``[7]  -452417912``.
    """
    return _lecuyer(K.next_rng_substream, seed)


# -- scalar normals and indices for the cursors ----------------------------------------

def _scalar_norm(normal):
    """One ``norm_rand()`` of ``normal``'s kind read from a cursor (None: Inversion,
    which the nmath ports do themselves)."""
    kind = normal.kind
    if kind == "Inversion":
        return None
    if kind == "Box-Muller":
        def box_muller(cur):
            if normal.bm_keep != 0.0:
                s = normal.bm_keep
                normal.bm_keep = 0.0
                return s
            theta = _TWO_PI * cur.unif()
            r = math.sqrt(-2 * math.log(cur.unif())) + _TEN_DBL_MIN
            normal.bm_keep = r * math.sin(theta)
            return r * math.cos(theta)
        return box_muller
    if kind == "Ahrens-Dieter":
        return lambda cur: _ahrens_dieter(cur.unif)
    buggy = kind == "Buggy Kinderman-Ramage"
    return lambda cur: _kinderman_ramage(cur.unif, buggy)


class _KindCursor(UnifCursor):
    """A :class:`UnifCursor` that also draws ``R_unif_index`` of the stream's sample kind."""

    def __init__(self, stream, chunk=64):
        super().__init__(stream, chunk)
        self._rounding = stream._ks.sample_kind == "Rounding"
        self._cut = stream._ks.gen.index_cut

    def unif_index(self, dn):
        """R's ``R_unif_index(dn)`` (0-based int)."""
        if self._rounding:
            if dn > self._cut:
                u = (math.floor(33554432.0 * self.unif()) + self.unif()) / 33554432.0
                return math.floor(dn * u)
            return math.floor(dn * self.unif())
        return _Cursor.unif_index(self, dn)

    def word(self):
        """A 32-bit word whose top 16 bits are rbits' chunk ``floor(65536 u)``:
        ``floor(2^32 u) >> 16`` equals it exactly (scalings by powers of 2), so
        Mersenne-Twister's Rejection loop serves every kind."""
        return int(self.unif() * 4294967296.0)


# -- the stream under another kind ----------------------------------------------------

class KindStream(RRandom):
    """An :class:`RRandom` running a kind other than R's defaults.

    Not created directly: an :class:`RRandom` becomes one when its kinds
    change (see module doc) and reverts under the defaults.

    R equivalent: R's global stream after ``RNGkind(kind, normal.kind,
    sample.kind)``.
    """

    # Another kind's uniforms: no Mersenne-Twister words to hand the kernels.
    _reads_mt_words = False

    # -- state ------------------------------------------------------------------

    def set_seed(self, seed, kind=None, normal_kind=None, sample_kind=None):
        set_seed(self, seed, kind, normal_kind, sample_kind)

    def get_state(self):
        return self._ks.get_random_seed()

    def set_state(self, state):
        set_random_seed(self, state)

    # -- uniforms -----------------------------------------------------------------

    def unif_rand(self, n):
        return self._ks.gen.unif_rand(_check_nonneg_int(n, "n"))

    def _snapshot(self):
        return self._ks.gen.snapshot()

    def _restore(self, snap):
        self._ks.gen.restore(snap)

    # No Mersenne-Twister struct to copy: calls snapshot with ``_snapshot``.
    _call_snapshot = None

    def _skip(self, n):
        self._ks.gen.advance(int(n))

    _advance = _skip

    def _raw(self, n):  # pragma: no cover - Mersenne-Twister words only
        raise RuntimeError("raw Mersenne-Twister words are not available under another kind")

    # -- normals ------------------------------------------------------------------

    @property
    def _cursor_norm(self):
        return _scalar_norm(self._ks.normal)

    def _norm_rand(self, count):
        if self._ks.normal.kind == "Inversion":
            return RRandom._norm_rand(self, count)
        return self._ks.normal(self._ks.gen, count)

    def _gamma_draw(self, count, a, scale):
        # GD (shape >= 1) calls norm_rand(): with another normal kind the
        # scalar port runs, reading normals through the cursor.
        if isinstance(a, float) and a >= 1.0 and self._cursor_norm is not None:
            a = np.full(count, a)
        return RRandom._gamma_draw(self, count, a, scale)

    def _pois_draw(self, count, mu):
        if isinstance(mu, float) and mu >= 10.0 and self._cursor_norm is not None:
            mu = np.full(count, mu)
        return RRandom._pois_draw(self, count, mu)

    # -- indices ------------------------------------------------------------------

    def _index_cursor(self):
        return _KindCursor(self)

    def _mt_kernels_ok(self):
        # The compiled samplers read Mersenne-Twister words from _bg.
        return False

    def _unif_index_fill(self, dn, out, offset=0):
        gen, kind = self._ks.gen, self._ks.sample_kind
        for start in range(0, out.size, _CHUNK):
            m = min(_CHUNK, out.size - start)
            v = K.unif_index(gen, dn, m, kind)
            if offset:
                v += offset
            out[start:start + m] = v
        return out

    def _walker_draws(self, n, k):
        if self._ks.sample_kind == "Rounding":
            # R < 3.6.0's alias draw: rU = unif_rand() * n, slot (int) rU.
            ru = self.unif_rand(k) * n
            return ru.astype(np.int64), ru
        return RRandom._walker_draws(self, n, k)

    def _draw_hash(self, dn, k):
        # R's sample2: draw, and draw again while the value was seen.
        out = np.empty(k, dtype=np.int64)
        seen = set()
        with self._index_cursor() as cur:
            i = 0
            while i < k:
                v = cur.unif_index(dn)
                if v not in seen:
                    seen.add(v)
                    out[i] = v + 1
                    i += 1
        return out

    def rademacher(self, n_boot, n, dtype=np.int8):
        n_boot = _check_nonneg_int(n_boot, "n_boot")
        n = _check_nonneg_int(n, "n")
        idx = self._unif_index_fill(2.0, np.empty(n_boot * n, dtype=np.int8))
        out = (2 * idx - 1).astype(dtype)
        return out.reshape(n_boot, n)

    rademacher.__doc__ = RRandom.rademacher.__doc__

    def __repr__(self):
        return f"<RRandom {'/'.join(self._ks.kinds())}>"


serialise(KindStream)

# RRandom reaches this dispatch through its class attribute (no import of
# this module from ._stream, so the two do not import each other).
RRandom._kind_dispatch = sys.modules[__name__]

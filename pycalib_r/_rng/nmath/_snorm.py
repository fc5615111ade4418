# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/snorm.c (GPL-2.0-or-later), (c) The R Core Team
"""R 4.2.2's ``norm_rand`` for every normal kind, on any uniform source.

``norm_rand`` for every ``RNGkind(normal.kind = ...)``, written against
the :class:`BitGenerator` interface (``unif_rand(n)``, ``snapshot()``/``restore()``, ``advance(n)``).

Inversion and Box-Muller use a fixed number of uniforms per value and are
vectorised. Ahrens-Dieter and the two Kinderman-Ramage kinds are rejection
algorithms whose uniform count varies per value; they run as scalar loops
over a buffered cursor that hands back exactly the uniforms used. (``R_unif_index``
for both ``sample.kind`` values is in :mod:`pycalib_r._rng.bitgen._unif_index`.)

Every logarithm, exponential, sine and cosine that decides a draw goes through
:mod:`math` (the C library's, as in R) rather than numpy's SIMD versions,
which differ in the last bit for some arguments.

R equivalent: ``norm_rand()`` (``src/nmath/snorm.c``) of R 4.2.2.

References
----------
Ahrens, J. H. and Dieter, U. (1973). Extensions of Forsythe's method for
random sampling from the normal distribution. Math. Comput. 27, 927-937.
Kinderman, A. J. and Ramage, J. G. (1976). Computer generation of normal
random variables. JASA 71, 893-896. Box, G. E. P. and Muller, M. E. (1958).
A note on the generation of random normal deviates. Ann. Math. Statist. 29,
610-611.
"""

from __future__ import annotations

import itertools
import math
import operator

import numpy as np

from ..bitgen._bitgens import NORMAL_KINDS

__all__ = ["NormRand", "UniformCursor"]


_BIG = 134217728.0  # 2^27, INVERSION's resolution
_TWO_PI = 2 * math.pi
_TEN_DBL_MIN = 10 * 2.2250738585072014e-308
_PASS = 1 << 16


class UniformCursor:
    """Scalar ``unif_rand()`` calls on a generator, fetched in chunks.

    ``cursor.next()`` is the next uniform (a C-level iterator step, so the
    scalar loops of the rejection algorithms pay little per value).
    ``close()`` restores the generator to where the cursor started and
    advances it by exactly the values handed out, so a loop that stops at an
    unpredictable point leaves the stream where R leaves it.
    """

    def __init__(self, gen, chunk=64):
        self._gen = gen
        self._snap = gen.snapshot()
        self._drawn = 0
        self._current = iter(())
        self._size = 0
        self._first = chunk
        self.next = itertools.chain.from_iterable(self._chunks()).__next__

    def _chunks(self):
        size = self._first
        while True:
            values = self._gen.unif_rand(size).tolist()
            self._drawn += size
            self._size = size
            self._current = iter(values)
            yield self._current
            size = min(size * 2, _PASS)

    @property
    def used(self):
        return self._drawn - operator.length_hint(self._current)

    def close(self):
        used = self.used
        self._gen.restore(self._snap)
        self._gen.advance(used)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# --- Ahrens-Dieter ------------------------------------------------------------------

_AD_A = (0.0000000, 0.03917609, 0.07841241, 0.1177699,
         0.1573107, 0.19709910, 0.23720210, 0.2776904,
         0.3186394, 0.36012990, 0.40225010, 0.4450965,
         0.4887764, 0.53340970, 0.57913220, 0.6260990,
         0.6744898, 0.72451440, 0.77642180, 0.8305109,
         0.8871466, 0.94678180, 1.00999000, 1.0775160,
         1.1503490, 1.22985900, 1.31801100, 1.4177970,
         1.5341210, 1.67594000, 1.86273200, 2.1538750)
_AD_D = (0.0000000, 0.0000000, 0.0000000, 0.0000000,
         0.0000000, 0.2636843, 0.2425085, 0.2255674,
         0.2116342, 0.1999243, 0.1899108, 0.1812252,
         0.1736014, 0.1668419, 0.1607967, 0.1553497,
         0.1504094, 0.1459026, 0.1417700, 0.1379632,
         0.1344418, 0.1311722, 0.1281260, 0.1252791,
         0.1226109, 0.1201036, 0.1177417, 0.1155119,
         0.1134023, 0.1114027, 0.1095039)
_AD_T = (7.673828e-4, 0.002306870, 0.003860618, 0.005438454,
         0.007050699, 0.008708396, 0.010423570, 0.012209530,
         0.014081250, 0.016055790, 0.018152900, 0.020395730,
         0.022811770, 0.025434070, 0.028302960, 0.031468220,
         0.034992330, 0.038954830, 0.043458780, 0.048640350,
         0.054683340, 0.061842220, 0.070479830, 0.081131950,
         0.094624440, 0.112300100, 0.136498000, 0.171688600,
         0.227624100, 0.330498000, 0.584703100)
_AD_H = (0.03920617, 0.03932705, 0.03950999, 0.03975703,
         0.04007093, 0.04045533, 0.04091481, 0.04145507,
         0.04208311, 0.04280748, 0.04363863, 0.04458932,
         0.04567523, 0.04691571, 0.04833487, 0.04996298,
         0.05183859, 0.05401138, 0.05654656, 0.05953130,
         0.06308489, 0.06737503, 0.07264544, 0.07926471,
         0.08781922, 0.09930398, 0.11555990, 0.14043440,
         0.18361420, 0.27900160, 0.70104740)


def _ahrens_dieter(unif):
    """One ``norm_rand()`` under AHRENS_DIETER (snorm.c, statement for statement)."""
    a, d, t, h = _AD_A, _AD_D, _AD_T, _AD_H
    u1 = unif()
    s = 0.0
    if u1 > 0.5:
        s = 1.0
    u1 = u1 + u1 - s
    u1 *= 32.0
    i = int(u1)
    if i == 32:
        i = 31
    if i != 0:
        u2 = u1 - i
        aa = a[i - 1]
        while u2 <= t[i - 1]:
            u1 = unif()
            w = u1 * (a[i] - aa)
            tt = (w * 0.5 + aa) * w
            while True:
                if u2 > tt:
                    return -(aa + w) if s == 1.0 else aa + w
                u1 = unif()
                if u2 < u1:
                    break
                tt = u1
                u2 = unif()
            u2 = unif()
        w = (u2 - t[i - 1]) * h[i - 1]
    else:
        i = 6
        aa = a[31]
        while True:
            u1 = u1 + u1
            if u1 >= 1.0:
                break
            aa = aa + d[i - 1]
            i = i + 1
        u1 = u1 - 1.0
        while True:
            w = u1 * d[i - 1]
            tt = (w * 0.5 + aa) * w
            jump = False
            while True:
                u2 = unif()
                if u2 > tt:
                    jump = True
                    break
                u1 = unif()
                if u2 < u1:
                    break
                tt = u1
            if jump:
                break
            u1 = unif()
    y = aa + w
    return -y if s == 1.0 else y


# --- Kinderman-Ramage ---------------------------------------------------------------

_KR_A = 2.216035867166471
_C1 = 0.398942280401433
_C2 = 0.180025191068563


def _g(x):
    return _C1 * math.exp(-x * x / 2.0) - _C2 * (_KR_A - x)


def _kinderman_ramage(unif, buggy):
    """One ``norm_rand()`` under (BUGGY_)KINDERMAN_RAMAGE (snorm.c).

    The buggy kind differs in one constant of the first branch
    (1.13113163544180 for 1.131131635444180) and in region 1, which lacks
    the ``tt < 0`` retry and the squeeze test against ``g``.
    """
    A = _KR_A
    u1 = unif()
    if u1 < 0.884070402298758:
        u2 = unif()
        return A * ((1.13113163544180 if buggy else 1.131131635444180) * u1 + u2 - 1)
    if u1 >= 0.973310954173898:  # tail
        while True:
            u2 = unif()
            u3 = unif()
            tt = A * A - 2 * math.log(u3)
            if u2 * u2 < (A * A) / tt:
                return math.sqrt(tt) if u1 < 0.986655477086949 else -math.sqrt(tt)
    if u1 >= 0.958720824790463:  # region 3
        while True:
            u2 = unif()
            u3 = unif()
            tt = A - 0.630834801921960 * min(u2, u3)
            if max(u2, u3) <= 0.755591531667601:
                return tt if u2 < u3 else -tt
            if 0.034240503750111 * abs(u2 - u3) <= _g(tt):
                return tt if u2 < u3 else -tt
    if u1 >= 0.911312780288703:  # region 2
        while True:
            u2 = unif()
            u3 = unif()
            tt = 0.479727404222441 + 1.105473661022070 * min(u2, u3)
            if max(u2, u3) <= 0.872834976671790:
                return tt if u2 < u3 else -tt
            if 0.049264496373128 * abs(u2 - u3) <= _g(tt):
                return tt if u2 < u3 else -tt
    while True:  # region 1
        u2 = unif()
        u3 = unif()
        tt = 0.479727404222441 - 0.595507138015940 * min(u2, u3)
        if buggy:
            if max(u2, u3) <= 0.805577924423817:
                return tt if u2 < u3 else -tt
            continue
        if tt < 0.0:
            continue
        if max(u2, u3) <= 0.805577924423817:
            return tt if u2 < u3 else -tt
        if 0.053377549506886 * abs(u2 - u3) <= _g(tt):
            return tt if u2 < u3 else -tt


def _libm(fun, x):
    return np.fromiter(map(fun, x.tolist()), dtype=np.float64, count=x.size)


def _default_qnorm():
    # The package's AS 241 qnorm (bit-identical to R's); imported late so this
    # module has no import-time dependency on the stream module.
    from ...rstats import qnorm_std

    return qnorm_std


class NormRand:
    """R's ``norm_rand()`` for one ``normal.kind``, on any uniform generator.

    Parameters
    ----------
    kind : str
        ``"Inversion"`` (R's default), ``"Box-Muller"``, ``"Ahrens-Dieter"``,
        ``"Kinderman-Ramage"`` or ``"Buggy Kinderman-Ramage"``.
    qnorm : callable, optional
        R's ``qnorm(p, 0, 1)`` vectorised (used by Inversion); defaults to the
        package's port of AS 241.

    Attributes
    ----------
    bm_keep : float
        Box-Muller's saved second value (``BM_norm_keep``); 0 means none.
        It is not part of ``.Random.seed``: R zeroes it on ``set.seed()`` and
        on ``RNGkind(normal.kind = "Box-Muller")`` (call :meth:`reset`), and
        keeps it when ``.Random.seed`` is assigned.

    R equivalent: ``norm_rand()``; ``rnorm(n, mean, sd)`` is
    ``mean + sd * norm_rand()`` per value.

    Examples
    --------
    >>> from pycalib_r._rng.bitgen import NormRand, new_generator
    >>> g = new_generator("Mersenne-Twister", 1)
    >>> NormRand("Box-Muller")(g, 3)
    array([-0.13679691,  1.39940825, -0.39364406])

    R: ``set.seed(1, normal.kind = "Box-Muller"); rnorm(3)`` prints
    ``[1] -0.1367969  1.3994082 -0.3936441``.
    """

    KINDS = ("Buggy Kinderman-Ramage", "Ahrens-Dieter", "Box-Muller", "Inversion",
             "Kinderman-Ramage")

    def __init__(self, kind="Inversion", qnorm=None):
        self.kind = kind
        self.bm_keep = 0.0
        self._qnorm = qnorm

    @property
    def kind(self):
        """The normal kind; assigning another keeps ``bm_keep``, as R keeps
        ``BM_norm_keep`` across kind changes (only ``RNGkind(normal.kind =
        "Box-Muller")`` and ``set.seed()`` zero it: call :meth:`reset`)."""
        return self._kind

    @kind.setter
    def kind(self, value):
        if value not in self.KINDS:
            raise ValueError(f"unknown normal kind {value!r}; one of {', '.join(self.KINDS)}")
        self._kind = value

    @property
    def code(self):
        """R's code of the kind: ``.Random.seed[1] %/% 100 %% 100``."""
        return NORMAL_KINDS.index(self._kind)

    def reset(self):
        """Forget Box-Muller's saved value, as ``set.seed()`` does."""
        self.bm_keep = 0.0

    def __call__(self, gen, n):
        """``n`` successive ``norm_rand()`` values drawn from ``gen`` (float64)."""
        n = int(n)
        if n < 0:
            raise ValueError("n must be >= 0")
        if self.kind == "Inversion":
            return self._inversion(gen, n)
        if self.kind == "Box-Muller":
            return self._box_muller(gen, n)
        out = np.empty(n)
        for start in range(0, n, _PASS):
            m = min(_PASS, n - start)
            with UniformCursor(gen, chunk=min(3 * m, _PASS)) as cur:
                unif = cur.next
                if self.kind == "Ahrens-Dieter":
                    vals = [_ahrens_dieter(unif) for _ in range(m)]
                else:
                    buggy = self.kind == "Buggy Kinderman-Ramage"
                    vals = [_kinderman_ramage(unif, buggy) for _ in range(m)]
            out[start:start + m] = vals
        return out

    def _inversion(self, gen, n):
        qnorm = self._qnorm or _default_qnorm()
        out = np.empty(n)
        for start in range(0, n, _PASS):
            m = min(_PASS, n - start)
            u = gen.unif_rand(2 * m)
            v = np.trunc(_BIG * u[0::2])
            v += u[1::2]
            v /= _BIG
            out[start:start + m] = qnorm(v)
        return out

    def _box_muller(self, gen, n):
        out = np.empty(n)
        k = 0
        if n and self.bm_keep != 0.0:
            out[0] = self.bm_keep
            self.bm_keep = 0.0
            k = 1
        while k < n:
            pairs = min(_PASS, -(-(n - k) // 2))
            u = gen.unif_rand(2 * pairs)
            theta = _TWO_PI * u[0::2]
            r = np.sqrt(-2 * _libm(math.log, u[1::2]))
            r += _TEN_DBL_MIN
            cos = r * _libm(math.cos, theta)
            sin = r * _libm(math.sin, theta)
            take = min(2 * pairs, n - k)
            both = np.empty(2 * pairs)
            both[0::2] = cos
            both[1::2] = sin
            out[k:k + take] = both[:take]
            if take < 2 * pairs:
                self.bm_keep = float(sin[-1])
            k += take
        return out

    def __repr__(self):
        return f"NormRand({self.kind!r})"

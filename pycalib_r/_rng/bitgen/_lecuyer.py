# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c, src/library/parallel/src/rngstream.c (GPL-2.0-or-later), (c) The R Core Team
"""L'Ecuyer-CMRG of R 4.2.2 and package parallel's stream jumps.

R equivalent: ``unif_rand``'s ``LECUYER_CMRG`` case of ``src/main/RNG.c``;
``nextRNGStream``/``nextRNGSubStream`` of
``src/library/parallel/src/rngstream.c`` (R 4.2.2).

References
----------
L'Ecuyer, P., Simard, R., Chen, E. J. and Kelton, W. D. (2002). An
object-oriented random-number package with many long streams and
substreams. Operations Research 50, 1073-1075.
"""

from __future__ import annotations

import numpy as np

from ._bitgens import _CHUNK, _M32, BitGenerator, _mulmod, _signed

__all__ = ["LEcuyerCMRG", "next_rng_stream", "next_rng_substream"]

# --- L'Ecuyer-CMRG ------------------------------------------------------------------

_M1 = 4294967087
_M2 = 4294944443
_NORMC = 2.328306549295727688e-10
_A12, _A13N = 1403580, 810728
_A21, _A23N = 527612, 1370589
_LE_COEF = None


def _le_coefficients(count):
    """Coefficients ``c[k]`` with ``x[n+k] = c[k] . (x[n-3], x[n-2], x[n-1]) mod m``.

    Returns two (3, count) uint64 arrays, one per component. The first three
    columns come from the recurrence; the table then doubles: ``x[n+L+j]``
    is ``c[j]`` applied to ``x[n+L-3..n+L-1]``, which are ``c[L-3..L-1]``
    applied to the state.
    """
    def run(rec, m):
        hist = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for _ in range(3):
            hist.append(tuple(rec(hist[-3][i], hist[-2][i], hist[-1][i]) % m for i in range(3)))
        c = np.array(hist[3:], dtype=np.uint64).T.copy()
        mm = np.uint64(m)
        while c.shape[1] < count:
            length = c.shape[1]
            new = np.zeros_like(c)
            for lane in range(3):
                for i in range(3):
                    new[lane] += _mulmod(int(c[lane, length - 3 + i]), c[i], m)
                    new[lane] %= mm
            c = np.concatenate([c, new], axis=1)
        return c[:, :count].copy()

    c1 = run(lambda x3, x2, x1: _A12 * x2 - _A13N * x3, _M1)
    c2 = run(lambda x3, x2, x1: _A21 * x1 - _A23N * x3, _M2)
    return c1, c2


def _le_component(state, coef, m, count):
    acc = np.zeros(count, dtype=np.uint64)
    mm = np.uint64(m)
    for i in range(3):
        acc += _mulmod(state[i], coef[i, :count], m)
        acc %= mm
    return acc


class LEcuyerCMRG(BitGenerator):
    """``RNGkind("L'Ecuyer-CMRG")``: L'Ecuyer's MRG32k3a.

    ``x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod 4294967087``,
    ``x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod 4294944443``,
    ``u = ((x1 - x2) mod 4294967087) / 4294967088`` (a zero difference gives
    ``4294967087 / 4294967088``, not 0; R applies no fixup to this kind).
    ``.Random.seed`` holds ``x1[n-3..n-1], x2[n-3..n-1]``.
    """

    kind = "L'Ecuyer-CMRG"
    code = 7
    n_seed = 6

    def _init(self, s):
        words = []
        for _ in range(6):
            s = (69069 * s + 1) & _M32
            while s >= _M2:
                s = (69069 * s + 1) & _M32
            words.append(s)
        self._load(words)

    def _fixup_seeds(self):
        s = self._i
        bad1 = not any(s[:3]) or any(v >= _M1 for v in s[:3])
        if bad1:
            self.seed(None)
            s = self._i
        # R's second check reuses the first's flags (notallzero stays set once
        # any first-half word was non-zero): only values >= m2 trigger it then.
        notallzero = any(s[:3]) or any(s[3:])
        if not notallzero or any(v >= _M2 for v in s[3:]):
            self.seed(None)

    def _chunk(self, m):
        global _LE_COEF
        if _LE_COEF is None:
            _LE_COEF = _le_coefficients(_CHUNK)
        s = self._i
        p1 = _le_component(s[:3], _LE_COEF[0], _M1, m)
        p2 = _le_component(s[3:], _LE_COEF[1], _M2, m)
        if m:
            t1 = p1[-3:].tolist() if m >= 3 else s[m:3] + p1.tolist()
            t2 = p2[-3:].tolist() if m >= 3 else s[3 + m:6] + p2.tolist()
            self._i = [int(v) for v in t1] + [int(v) for v in t2]
        d = p1.astype(np.int64) - p2.astype(np.int64)
        d[d <= 0] += _M1
        return d * _NORMC


# --- parallel::nextRNGStream / nextRNGSubStream -------------------------------------

_A1P76 = ((82758667, 1871391091, 4127413238),
          (3672831523, 69195019, 1871391091),
          (3672091415, 3528743235, 69195019))
_A2P76 = ((1511326704, 3759209742, 1610795712),
          (4292754251, 1511326704, 3889917532),
          (3859662829, 4292754251, 3708466080))
_A1P127 = ((2427906178, 3580155704, 949770784),
           (226153695, 1230515664, 3580155704),
           (1988835001, 986791581, 1230515664))
_A2P127 = ((1464411153, 277697599, 1610723613),
           (32183930, 1464411153, 1022607788),
           (2824425944, 32183930, 2093834863))


def _jump(seed, a1, a2, what):
    vec = np.asarray(seed)
    if (vec.ndim != 1 or vec.dtype.kind not in "iu" or vec.size < 7
            or int(vec[0]) % 100 != 7):
        raise ValueError("invalid value of 'seed'")
    s = [int(v) & _M32 for v in vec[1:7]]
    out = [int(vec[0])]
    for mat, part, m in ((a1, s[:3], _M1), (a2, s[3:], _M2)):
        for row in mat:
            out.append(sum(a * x for a, x in zip(row, part)) % m)
    return _signed(np.asarray(out, dtype=np.int64) & _M32)


def next_rng_stream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG stream (2^127 draws on).

    Parameters
    ----------
    seed : array_like of int
        An L'Ecuyer-CMRG ``.Random.seed`` (7 integers, first ``%% 100 == 7``).

    Returns
    -------
    numpy.ndarray of int32, length 7

    Raises
    ------
    ValueError
        ``seed`` is not such a vector; the message is R's
        ("invalid value of 'seed'").

    R equivalent: ``parallel::nextRNGStream(seed)``.

    Examples
    --------
    >>> g = LEcuyerCMRG(123)
    >>> next_rng_stream(g.get_state()).tolist()
    [10407, 1801422725, -2057975723, 1156894209, 1595475487, 210384600, -1655729657]

    R: ``RNGkind("L'Ecuyer-CMRG"); set.seed(123); nextRNGStream(.Random.seed)``.
    """
    return _jump(seed, _A1P127, _A2P127, "stream")


def next_rng_substream(seed):
    """The ``.Random.seed`` of the next L'Ecuyer-CMRG substream (2^76 draws on).

    Parameters and errors as :func:`next_rng_stream`.

    R equivalent: ``parallel::nextRNGSubStream(seed)``.
    """
    return _jump(seed, _A1P76, _A2P76, "substream")

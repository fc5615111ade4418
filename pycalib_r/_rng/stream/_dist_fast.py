# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: hands large draws to the compiled kernels; the algorithms are in modules with their own headers
"""The compiled path of ``rexp``, ``rgamma``, ``rbeta`` and ``rpois`` on R's stream.

The hooks of :class:`._stream_dists.RDistributions` hand a call here when it
is large enough for the C kernels of :mod:`pycalib_r._native.rng` to beat
the twin's blocks, and the stream is R's default Mersenne-Twister/Inversion
one, whose words the kernels read directly. Everything else (small calls,
another RNG kind, the library not built or ``PYCALIB_R_NATIVE=0``) keeps the
numpy twin of
:mod:`._stream_dists`, which gives the same values and leaves the stream in
the same place.

Kernels run in slices of :data:`_SLICE` draws so that Ctrl-C is seen between
them; the stream state is written back in ``finally``, so an interrupted
call leaves the stream after the draws it made.
"""

from __future__ import annotations

import numpy as np

from ... import _native
from ..bitgen._mt import on_words

# Below this many draws the twin runs (it is then as fast as the kernels;
# tests lower this to compare the two).
_KERNEL_MIN = 1 << 14
# Draws per kernel call: a few tens of ms, so Ctrl-C is seen promptly.
_SLICE = 1 << 20


def kernels_for(stream, count):
    """The kernel module when it may serve ``count`` draws of ``stream``, else None."""
    if count < _KERNEL_MIN:
        return None
    # Only a stream that declares it reads the Mersenne-Twister words
    # directly (RRandom; KindStream, another kind, does not) may take the kernels.
    if not type(stream)._reads_mt_words:
        return None
    return _native.kernels("rng")


def _param(x):
    return np.ascontiguousarray(np.atleast_1d(np.asarray(x, dtype=np.float64)))


def _run(stream, fill, count, *params, work=()):
    """``fill`` over ``count`` draws, sliced, with the stream state written back
    (``work``: scratch arrays passed after ``out``). The kernels keep the
    position in a one-element array they advance."""
    out = np.empty(count)
    params = [_param(p) for p in params]
    st = np.empty(1, dtype=np.int64)

    def call(kern, mt, w, pos, a, b):
        st[0] = pos
        fill(mt, w, st, *[p if p.size == 1 else p[a:b] for p in params], out[a:b], *work)
        return int(st[0])

    on_words(stream._bg, count, _SLICE, call)
    return out


def exp_draw(k, stream, count):
    """``count`` values of ``exp_rand()``."""
    return _run(stream, k.exp_fill, count)


def gamma_draw(k, stream, count, a, scale):
    """``rgamma(a, scale)`` draws; ``a``, ``scale`` floats or arrays of ``count``."""
    return _run(stream, k.gamma_fill, count, a, scale)


def beta_draw(k, stream, count, aa, bb):
    """``rbeta(aa, bb)`` draws (finite shapes, ``aa = bb = 0`` the coin)."""
    return _run(stream, k.beta_fill, count, aa, bb)


def pois_draw(k, stream, count, mu):
    """``rpois(mu)`` draws as doubles, for finite ``mu > 0``."""
    return _run(stream, k.pois_fill, count, mu, work=(np.empty(36),))

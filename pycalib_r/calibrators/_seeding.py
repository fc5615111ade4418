"""R's ``set.seed(seed)`` in the session's RNG kinds, for the calibrators
that draw (``cal_cv``'s folds, ``cal_scaling_binning``'s split).

Nothing here is public.
"""

from __future__ import annotations

import warnings

from .. import _rng
from ..rbase import _warn

__all__ = ["seeded_stream"]


def seeded_stream(seed, rng):
    """A stream as after R's ``set.seed(seed)`` in the session's kinds.

    R's ``set.seed(seed)`` keeps the current ``RNGkind()``: the kinds are
    those of ``rng`` (an ``RRandom``), else of the global stream. Switching
    to them here is not R's ``RNGkind()`` call, so its warnings (the
    Rounding sampler's) were given when the kinds were chosen, not again.
    """
    # No global stream yet means R's default kinds (none is created here:
    # R leaves no .Random.seed behind either).
    base = rng if isinstance(rng, _rng.RRandom) else _rng._GLOBAL
    kinds = _DEFAULT_KINDS if base is None else tuple(base.rng_kind())
    if kinds == _DEFAULT_KINDS:
        return _rng.RRandom(seed)
    # The package's warnings are collected per call (pycalib_r.rbase._warn); this
    # collection is dropped, not flushed.
    with _warn.collect(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kinds[1] == "Buggy Kinderman-Ramage":
            # R's set.seed(seed) keeps the session's normal kind, the buggy one
            # too (only set.seed(normal.kind = "Buggy Kinderman-Ramage") is
            # refused): seed under the other kinds, then switch the normal
            # kind, which leaves the uniforms (all the folds draw) as they are.
            stream = _rng.RRandom(seed, kinds[0], None, kinds[2])
            stream.rng_kind(normal_kind=kinds[1])
            return stream
        return _rng.RRandom(seed, *kinds)


_DEFAULT_KINDS = ("Mersenne-Twister", "Inversion", "Rejection")

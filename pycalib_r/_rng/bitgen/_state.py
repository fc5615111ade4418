# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/RNG.c, src/library/base/R/RNG.R (GPL-2.0-or-later), (c) The R Core Team
"""R's RNG state machine: ``RNGkind()``, ``set.seed()``, ``.Random.seed``.

:class:`KindState` holds what R keeps in ``RNG.c``'s globals (the generator
of the current kind, the normal kind with Box-Muller's saved value, the
sample kind) and changes it the way ``do_RNGkind`` and ``do_setseed`` do,
in R's order:

- ``RNGkind(kind = k)`` draws one uniform from the current generator and
  seeds the new kind with ``(Int32)(u * UINT_MAX)`` (even when ``k`` is the
  current kind), zeroing Box-Muller's saved value;
- ``RNGkind(normal.kind = "Box-Muller")`` zeroes the saved value, other
  normal kinds keep it;
- ``set.seed(seed, kind, normal.kind, sample.kind)`` first switches kinds as
  ``RNGkind`` does, then seeds;
- assigning ``.Random.seed`` changes kinds and words but keeps the saved
  Box-Muller value.

Warnings are R's, in R's order, as :class:`RuntimeWarning`.

R equivalent: ``RNGkind()``, ``set.seed()``, ``.Random.seed`` (R 4.2.2,
``src/main/RNG.c``, ``src/library/base/R/RNG.R``).
"""

from __future__ import annotations


from ...rbase import _warn as _warnings
from ._bitgens import KINDS, NORMAL_KINDS, SAMPLE_KINDS, _check_seed
from ..nmath._snorm import NormRand
from ._unif_index import unif_index

__all__ = ["KindState"]

_DEFAULT = ("Mersenne-Twister", "Inversion", "Rejection")


def _warn(text):
    _warnings.warn(text, RuntimeWarning)


class KindState:
    """R's global RNG state for every kind: generator, normal kind, sample kind.

    Parameters
    ----------
    seed : int or None
        As ``set.seed(seed)`` under R's default kinds (None: OS entropy).

    Examples
    --------
    >>> st = KindState(1)
    >>> st.rng_kind("Wichmann-Hill", "Box-Muller", "Rejection")
    ('Mersenne-Twister', 'Inversion', 'Rejection')
    >>> st.set_seed(42)
    >>> st.get_random_seed().tolist()
    [10200, 5781, 10437, 18793]
    >>> st.norm_rand(2)
    array([-0.00375253,  0.73764462])

    R: ``RNGkind("Wichmann-Hill", "Box-Muller"); set.seed(42);
    .Random.seed; rnorm(2)`` prints ``[1] 10200  5781 10437 18793`` and
    ``[1] -0.003752534  0.737644622``.
    """

    def __init__(self, seed=None):
        from . import GENERATORS

        self.gen = GENERATORS[_DEFAULT[0]](seed)
        self.normal = NormRand(_DEFAULT[1])
        self.sample_kind = _DEFAULT[2]

    # -- R's functions ---------------------------------------------------------------

    def kinds(self):
        """``RNGkind()``: the current (kind, normal kind, sample kind) names."""
        return (self.gen.kind, self.normal.kind, self.sample_kind)

    def rng_kind(self, kind=None, normal_kind=None, sample_kind=None):
        """``RNGkind(kind, normal.kind, sample.kind)``; returns the kinds before.

        Names are matched as R's ``pmatch`` does (unique abbreviations,
        ``"default"``). Raises ValueError with R's message for a bad name;
        warns as R for "Buggy Kinderman-Ramage", "Rounding", and the
        Marsaglia-Multicarry combinations.
        """
        k, nk, sk = self._match(kind, normal_kind, sample_kind)
        if nk == "Buggy Kinderman-Ramage":
            _warn("buggy version of Kinderman-Ramage generator used")
        if sk == "Rounding":
            _warn("non-uniform 'Rounding' sampler used")
        before = self.kinds()
        self._apply(k, nk, sk)
        return before

    def set_seed(self, seed, kind=None, normal_kind=None, sample_kind=None):
        """``set.seed(seed, kind, normal.kind, sample.kind)``.

        Raises ValueError with R's message for "Buggy Kinderman-Ramage"
        ("buggy version of Kinderman-Ramage generator is not allowed"), a
        bad name or a seed outside R's integers; warns for "Rounding".
        """
        k, nk, sk = self._match(kind, normal_kind, sample_kind)
        if nk == "Buggy Kinderman-Ramage":
            raise ValueError("buggy version of Kinderman-Ramage generator is not allowed")
        if sk == "Rounding":
            _warn("non-uniform 'Rounding' sampler used")
        if seed is not None:
            _check_seed(seed)
        self._apply(k, nk, sk)
        self.gen.seed(seed)
        self.normal.reset()

    def get_random_seed(self):
        """``.Random.seed``: the kind code then the generator's words (int32)."""
        return self.gen.get_state(self.normal.code, SAMPLE_KINDS.index(self.sample_kind))

    def set_random_seed(self, vec):
        """``.Random.seed <- vec``: kinds and words from an R state vector.

        The words are loaded with R's ``FixupSeeds``; Box-Muller's saved
        value is kept, as in R. Raises ValueError where R would warn and
        ignore the vector (R then reseeds at random), or stop.
        """
        from . import from_random_seed

        gen, nk, sk = from_random_seed(vec)
        self.gen = gen
        self.normal.kind = nk
        self.sample_kind = sk

    # -- draws -------------------------------------------------------------------------

    def unif_rand(self, n):
        """``n`` values of ``unif_rand()`` (``runif(n)``)."""
        return self.gen.unif_rand(n)

    def norm_rand(self, n):
        """``n`` values of ``norm_rand()`` (``rnorm(n)``)."""
        return self.normal(self.gen, n)

    def unif_index(self, dn, n):
        """``n`` values of ``R_unif_index(dn)`` under the current sample kind."""
        return unif_index(self.gen, dn, n, self.sample_kind)

    # -- internals ---------------------------------------------------------------------

    @staticmethod
    def _match(kind, normal_kind, sample_kind):
        from . import match_kind

        out = []
        for value, table, what, default in ((kind, KINDS, "kind", _DEFAULT[0]),
                                            (normal_kind, NORMAL_KINDS, "normal.kind", _DEFAULT[1]),
                                            (sample_kind, SAMPLE_KINDS, "sample.kind", _DEFAULT[2])):
            if value is None:
                out.append(None)
                continue
            code = match_kind(value, table, what)
            name = default if code < 0 else table[code]
            if name == "user-supplied":
                raise ValueError(f"user-supplied {what} generators are not supported")
            out.append(name)
        return out

    def _apply(self, kind, normal_kind, sample_kind):
        if kind is not None:
            if kind == "Marsaglia-Multicarry":
                _warn("RNGkind: Marsaglia-Multicarry has poor statistical properties")
            from . import switch_kind

            self.gen = switch_kind(self.gen, kind)
            self.normal.reset()  # RNG_Init zaps BM_norm_keep
        if normal_kind is not None:
            if self.gen.kind == "Marsaglia-Multicarry":
                if normal_kind == "Kinderman-Ramage":
                    _warn("RNGkind: severe deviations from normality for Kinderman-Ramage + "
                          "Marsaglia-Multicarry")
                elif normal_kind == "Ahrens-Dieter":
                    _warn("RNGkind: deviations from normality for Ahrens-Dieter + "
                          "Marsaglia-Multicarry")
            if normal_kind == "Box-Muller":
                self.normal.reset()
            self.normal.kind = normal_kind
        if sample_kind is not None:
            self.sample_kind = sample_kind

    def __repr__(self):
        return f"KindState({', '.join(map(repr, self.kinds()))})"

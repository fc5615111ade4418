"""Old module paths of the stream classes, for pickles written before the move.

The streams once lived in flat modules (``pycalib_r._rng._stream``,
``pycalib_r._rng_kinds._bitgens``, ...). A pickle names each class by its
module, so a stream pickled then names modules that no longer exist. This
finder answers those names, and only those, with the module that holds the
class now, so ``pickle.load`` of an old stream gives the same stream. Code
importing the old paths is not served: only the modules whose classes a
stream's pickle can hold are listed.

R equivalent: none (R's ``.Random.seed`` is a plain integer vector).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

__all__ = ["MOVED", "install"]

# old module -> new module, for every class a pickled stream can reference.
MOVED = {
    "pycalib_r._rng._stream": "pycalib_r._rng.stream._stream",
    "pycalib_r._rng._kinds": "pycalib_r._rng.stream._kinds",
    "pycalib_r._rng._generator": "pycalib_r._rng.stream._generator",
    "pycalib_r._rng._locking": "pycalib_r._rng.stream._locking",
    "pycalib_r._rng_kinds": "pycalib_r._rng.bitgen",
    "pycalib_r._rng_kinds._bitgens": "pycalib_r._rng.bitgen._bitgens",
    "pycalib_r._rng_kinds._knuth": "pycalib_r._rng.bitgen._knuth",
    "pycalib_r._rng_kinds._lecuyer": "pycalib_r._rng.bitgen._lecuyer",
    "pycalib_r._rng_kinds._state": "pycalib_r._rng.bitgen._state",
    "pycalib_r._rng_kinds._draws": "pycalib_r._rng.nmath._snorm",
}


class _Alias:
    # A meta path finder and loader (the protocol only: importlib.abc would
    # cost the package's import a few ms).
    def __init__(self):
        self._specs = {}

    def find_spec(self, name, path=None, target=None):
        if name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(name, self)

    def create_module(self, spec):
        module = importlib.import_module(MOVED[spec.name])
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module):
        # The module is the new one, already executed. The import system set
        # its __spec__ to the alias's; its own goes back, so its relative
        # imports still resolve from its real package (no ImportWarning).
        module.__spec__ = self._specs.pop(module.__spec__.name)


_FINDER = _Alias()


def install():
    """Put the finder on ``sys.meta_path`` once (idempotent)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        # First, so that a stale folder of an old install cannot shadow the alias.
        sys.meta_path.insert(0, _FINDER)

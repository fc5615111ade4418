"""Old module paths of the stream classes, for pickles written before the move.

The streams once lived in flat modules (``pycalib_r._rng._stream``,
``pycalib_r._rng_kinds._bitgens``, ...). A pickle names each class by its
module, so a stream pickled then names modules that no longer exist. This
finder answers those names, and only those, with the module that holds the
class now, so ``pickle.load`` of an old stream gives the same stream. The
flat modules of release 0.2.0 (``pycalib_r._inference``, ``pycalib_r._rlist``,
...) moved into subpackages by concern (``LAYOUT``, issue 33): calibrators,
results and streams pickled by 0.2.0 load too (tests/suites/project/test_layout.py); R's
numerics then moved into ``pycalib_r.rstats`` (``RSTATS``, issue 49). The
package's own code names the new paths only (tests/suites/project/test_layout.py checks it).

R equivalent: none (R's ``.Random.seed`` is a plain integer vector).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

__all__ = ["LAYOUT", "MOVED", "RSTATS", "install"]

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

# --- BEGIN layout moves (issue 33; written by the relayout script) ---
# The flat modules of release 0.2.0 moved into subpackages by concern;
# a calibrator, result or stream pickled then names the old paths.
LAYOUT = {
    "pycalib_r._align": "pycalib_r.inputs._align",
    "pycalib_r._binning": "pycalib_r.binned._binning",
    "pycalib_r._block_test": "pycalib_r.inference._block_test",
    "pycalib_r._brier": "pycalib_r.binned._brier",
    "pycalib_r._calibration_error": "pycalib_r.binned._calibration_error",
    "pycalib_r._checks": "pycalib_r.inputs._checks",
    "pycalib_r._command_faults": "pycalib_r.cli._faults",
    "pycalib_r._corp": "pycalib_r.diagnostics._corp",
    "pycalib_r._diagnostics": "pycalib_r.diagnostics._diagnostics",
    "pycalib_r._ece_interval": "pycalib_r.inference._ece_interval",
    "pycalib_r._errors": "pycalib_r.rbase._errors",
    "pycalib_r._fork": "pycalib_r.rbase._fork",
    "pycalib_r._format": "pycalib_r.rbase._format",
    "pycalib_r._forms": "pycalib_r.inputs._forms",
    "pycalib_r._hints": "pycalib_r.inputs._hints",
    "pycalib_r._hoslem": "pycalib_r.diagnostics._hoslem",
    "pycalib_r._inference": "pycalib_r.inference._inference",
    "pycalib_r._kernel": "pycalib_r.kernel._skce",
    "pycalib_r._kernel_canonical": "pycalib_r.kernel._canonical",
    "pycalib_r._kernel_median": "pycalib_r.kernel._median",
    "pycalib_r._kernel_scalar": "pycalib_r.kernel._scalar",
    "pycalib_r._logit_input": "pycalib_r.inputs._logit_input",
    "pycalib_r._lowess": "pycalib_r.rstats._lowess",  # then diagnostics._lowess; rstats since issue 49
    "pycalib_r._metrics": "pycalib_r.binned._metrics",
    "pycalib_r._options": "pycalib_r.rbase._options",
    "pycalib_r._progress": "pycalib_r.rbase._progress",
    "pycalib_r._quadratic": "pycalib_r.kernel._quadratic",
    "pycalib_r._rarith": "pycalib_r.rbase._rarith",
    "pycalib_r._rbins": "pycalib_r.binned._rbins",
    "pycalib_r._rcalls": "pycalib_r.rbase._rcalls",
    "pycalib_r._rlist": "pycalib_r.rbase._rlist",
    "pycalib_r._rnames": "pycalib_r.rbase._rnames",
    "pycalib_r._rsummary": "pycalib_r.rbase._rsummary",
    "pycalib_r._seed_note": "pycalib_r.inputs._seed_note",
    "pycalib_r._sklearn_checks": "pycalib_r.sklearn._checks",
    "pycalib_r._smece": "pycalib_r.diagnostics._smece",
    "pycalib_r._validation": "pycalib_r.diagnostics._validation",
    "pycalib_r._warn": "pycalib_r.rbase._warn",
}
MOVED.update(LAYOUT)
# --- END layout moves ---

# R's deterministic numerics moved into one room, pycalib_r.rstats (issue 49):
# a calibrator pickled by 0.2.0 names pycalib_r.calibrators._glm (GlmFit).
RSTATS = {
    "pycalib_r.calibrators._linpack": "pycalib_r.rstats._linpack",
    "pycalib_r.calibrators._glm": "pycalib_r.rstats._glm",
    "pycalib_r.calibrators._glm_lockstep": "pycalib_r.rstats._glm_lockstep",
    "pycalib_r.calibrators._optim": "pycalib_r.rstats._optim",
    "pycalib_r.diagnostics._lowess": "pycalib_r.rstats._lowess",
    "pycalib_r.diagnostics._loess": "pycalib_r.rstats._loess",
    "pycalib_r.diagnostics._rstats": "pycalib_r.rstats._approx",
    "pycalib_r._rng.nmath._qnorm": "pycalib_r.rstats._qnorm",
    "pycalib_r._rng.nmath._gamma_base": "pycalib_r.rstats._gamma_base",
    "pycalib_r._rng.nmath._gamma_dist": "pycalib_r.rstats._gamma_dist",
    "pycalib_r._rng.nmath._qdiscrete": "pycalib_r.rstats._qdiscrete",
}
LAYOUT.update(RSTATS)
MOVED.update(RSTATS)


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

"""Another library's module, taken from ``sys.modules`` only once imported.

The package asks whether an object is a pandas (polars, numpy masked array,
...) one without importing that library: such an object can exist only once
its library is imported, so ``sys.modules`` answers for free. But a module
enters ``sys.modules`` when its import *starts*. While another thread is
still running ``import pandas``, ``sys.modules["pandas"]`` is a half-built
module, and ``pd.DataFrame`` or ``pd.Categorical`` raises "partially
initialized module 'pandas' has no attribute ...". Every such look-up goes
through :func:`imported`, which returns a module only once its import has
finished (Python's own test for that message: ``__spec__._initializing``).
While the import is under way no object of that library has been handed to
a caller, so "not imported" is the right answer then.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Optional

__all__ = ["imported"]


def imported(name: str) -> Optional[ModuleType]:
    """The module ``name`` if its import has finished, else None.

    None also when the module was never imported, or when ``sys.modules``
    holds None for it (how an import is blocked). Never imports anything.
    """
    mod = sys.modules.get(name)
    if mod is None:
        return None
    # importlib sets _initializing on the spec for the whole of the module's
    # execution (and module_getattro reads it for its "partially initialized"
    # message); a module without a spec (made by hand) counts as imported.
    if getattr(getattr(mod, "__spec__", None), "_initializing", False):
        return None
    return mod

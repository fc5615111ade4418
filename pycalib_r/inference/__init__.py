"""Tests and intervals: ``cal_test``, ``cal_ci``, ``ece_ci``, the block test.

``_inference`` (``cal_test``, ``cal_ci`` and their result classes),
``_ece_interval`` (``ece_ci``, Sun et al. 2024's interval; Python-only) and
``_block_test``, and ``_resample`` (``cal_ci``'s stream after a failing
resample). A new test or interval goes here.

It may import ``rbase``, ``inputs``, ``rstats``, ``binned``, ``kernel`` and ``_rng``.
See docs/architecture.md ("Who imports whom").
"""

# Exported without the underscore their module calls them by, for the rooms
# that use them (public inside the package; docs/architecture.md).
from ._inference import _TARGETS as TARGETS
from . import _inference


def physical_memory() -> int:
    """The machine's RAM in bytes (the memory checks before large allocations),
    looked up through ``_inference`` at each call, so that one patch of
    ``_inference._physical_memory`` reaches every room's check."""
    return _inference._physical_memory()

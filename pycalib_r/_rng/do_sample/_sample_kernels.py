"""Compiled loops of R's weighted samplers that read no random words.

R's ``walker_ProbSampleReplace`` builds its alias table, ``revsort`` orders
the probabilities, and ``ProbSampleNoReplace`` scans running sums and closes
the gap left by each chosen item: sequential loops over doubles using only
``+``, ``-``, ``*`` and comparisons in R's order (no libm, no fastmath), so
the compiled loops give the bits of R's C and of the Python twins in
``_sample.py``. The alias table and ``revsort`` are the twins' own source
compiled; ``ProbSampleNoReplace``'s scan is written out here (its twin works
on numpy running sums instead).

Loaded only through :func:`pycalib_r._jit.kernels`.

R equivalent: ``walker_ProbSampleReplace``, ``ProbSampleNoReplace``
(``src/main/random.c``), ``revsort`` (``src/main/sort.c``).
"""

from __future__ import annotations

from pycalib_r._jit import njit
from pycalib_r._rng.do_sample._sample import _revsort_heap, _walker_alias

# The twins' own loops, compiled: one source for both paths.
revsort = njit(_revsort_heap)
walker_alias = njit(_walker_alias)


@njit
def prob_noreplace(ps, perm, u, out, start, stop, n1, total):
    """R's ``ProbSampleNoReplace`` after ``revsort``, draws ``start .. stop - 1``:
    ``rT = total * u[i]``, the first running sum ``>= rT`` among the first
    ``n1`` items (else item ``n1``), then the chosen item is removed by
    shifting the rest down. ``ps`` and ``perm`` are overwritten; returns
    ``n1`` and ``total`` for the next slice (``n - 1`` and 1 at the start)."""
    for i in range(start, stop):
        rt = total * u[i]
        mass = 0.0
        j = 0
        while j < n1:
            mass += ps[j]
            if rt <= mass:
                break
            j += 1
        out[i] = perm[j]
        total -= ps[j]
        for m in range(j, n1):
            ps[m] = ps[m + 1]
            perm[m] = perm[m + 1]
        n1 -= 1
    return n1, total

"""Compiled loops of R's weighted samplers that read no random words.

R's ``walker_ProbSampleReplace`` builds its alias table, ``revsort`` orders
the probabilities, and ``ProbSampleNoReplace`` scans running sums and closes
the gap left by each chosen item: sequential loops over doubles using only
``+``, ``-``, ``*`` and comparisons in R's order (no libm, no fastmath), so
the compiled loops give the bits of R's C and of the Python twins in
``_sample.py``.

Loaded only through :func:`pycalib_r._jit.kernels`.

R equivalent: ``walker_ProbSampleReplace``, ``ProbSampleNoReplace``
(``src/main/random.c``), ``revsort`` (``src/main/sort.c``).
"""

from __future__ import annotations

import numpy as np

from pycalib_r._jit import njit


@njit
def walker_table(p, n):
    """R's alias table: ``qa[i] = q[i] + i`` and the aliases (slots R leaves
    unset keep their own index; they are never read)."""
    q = np.empty(n)
    hl = np.zeros(n, dtype=np.int64)
    a = np.arange(n)
    h = -1
    lo = n
    for i in range(n):
        q[i] = p[i] * n
        if q[i] < 1.0:
            h += 1
            hl[h] = i
        else:
            lo -= 1
            hl[lo] = i
    if h >= 0 and lo < n:
        for kk in range(n - 1):
            i = hl[kk]
            j = hl[lo]
            a[i] = j
            q[j] += q[i] - 1
            if q[j] < 1.0:
                lo += 1
            if lo >= n:
                break
    for i in range(n):
        q[i] += i
    return q, a


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


@njit
def revsort(av, ib):
    """R's ``revsort`` on 1-based arrays ``av[1..n]``, ``ib[1..n]`` (slot 0
    unused): heapsort into descending order, ties as R leaves them."""
    n = av.size - 1
    if n <= 1:
        return
    l = (n >> 1) + 1
    ir = n
    while True:
        if l > 1:
            l -= 1
            ra = av[l]
            ii = ib[l]
        else:
            ra = av[ir]
            ii = ib[ir]
            av[ir] = av[1]
            ib[ir] = ib[1]
            ir -= 1
            if ir == 1:
                av[1] = ra
                ib[1] = ii
                break
        i = l
        j = l << 1
        while j <= ir:
            if j < ir and av[j] > av[j + 1]:
                j += 1
            if ra > av[j]:
                av[i] = av[j]
                ib[i] = ib[j]
                i = j
                j += j
            else:
                j = ir + 1
        av[i] = ra
        ib[i] = ii

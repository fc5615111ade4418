"""Probability rows within a few ulps of R's row-sum tolerance (issue 32, item 6).

Shared by ``tools/make_rowsum_fixture.py`` (R's verdicts, stored in
``reference/fixtures/rowsum.json``) and ``tests/suites/hostile/test_library_edges.py``.
Each case is one row (a 1 x k matrix): k - 1 Dirichlet values and a last
value that puts the row's sum at 1 +- 1e-6, moved by up to 3 ulps. The
cases kept are those where a plain double sum (numpy's) and R's rule
(``abs(rowSums(p) - 1) > 1e-6``, ``rowSums`` in long double) disagree, in
both directions, plus rows where they agree.
"""

from __future__ import annotations

import numpy as np

TOLERANCE = 1e-6


def _long_double_verdict(row: np.ndarray) -> bool:
    total = np.longdouble(0)
    for v in row:
        total += np.longdouble(v)
    return abs(float(total) - 1) > TOLERANCE


def cases(per_kind: int = 40, seed: int = 32):
    """Rows as lists of floats: ``per_kind`` where only the double sum is out,
    ``per_kind`` where only R's sum is out, and ``per_kind // 2`` each way agreeing."""
    g = np.random.default_rng(seed)
    want = {(True, False): per_kind, (False, True): per_kind,
            (True, True): per_kind // 2, (False, False): per_kind // 2}
    got = {key: [] for key in want}
    while any(len(got[k]) < n for k, n in want.items()):
        k = int(g.integers(3, 7))
        row = g.dirichlet(np.ones(k))
        row[-1] = 1 + g.choice([-1.0, 1.0]) * TOLERANCE - row[:-1].sum()
        row[-1] += int(g.integers(-3, 4)) * np.spacing(row[-1])
        if not 0 <= row[-1] <= 1:
            continue
        key = (bool(abs(row.sum() - 1) > TOLERANCE), _long_double_verdict(row))
        if len(got[key]) < want[key]:
            got[key].append([float(v) for v in row])
    return [row for key in want for row in got[key]]

"""``pycalib_r.dask.cal_test(method="block")`` forms the in-memory test's blocks (issue 45, item 2).

The blocks are rows ``[kB, (k+1)B)`` of the whole collection, whatever its
chunks or partitions: a chunk whose length is not a multiple of B used to
start its own blocks (on 120,000 rows, z = 0.601 in memory, 1.734 on 7
partitions). The statistics come back in block order, so the result is the
in-memory one to the bit. Runs on the two-process ``distributed.LocalCluster``
of tests/dask/test_dask.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")
pcd = pytest.importorskip("pycalib_r.dask")

from tests.dask.test_dask import client  # noqa: E402,F401 (the module's LocalCluster)

N = 4001


def _data(kind):
    g = np.random.default_rng(45)
    if kind == "binary":
        p = g.random(N)
        return p, (g.random(N) < p ** 1.4).astype(np.int64)
    P = g.dirichlet([2, 1, 1], N)
    y = np.array([g.choice(3, p=r ** 1.5 / (r ** 1.5).sum()) for r in P]) + 1
    return P, y


def _cuts(g, n, empty_ok):
    """Random chunk lengths summing to n: 1 to 12 cuts, anywhere (empty chunks allowed
    for arrays)."""
    k = int(g.integers(1, 13))
    cuts = np.sort(g.choice(np.arange(1, n), size=k, replace=empty_ok))
    return np.diff(np.concatenate([[0], cuts, [n]])).tolist()


def _same(got, want):
    # Exact: the same block statistics in the same order give the same bits.
    assert float(got.statistic) == float(want.statistic)
    assert got.p_value == want.p_value
    assert got.estimate == want.estimate
    assert got.method == want.method


@pytest.mark.parametrize("case", range(20))
def test_block_test_equals_the_in_memory_test_for_random_partitionings(client, case):  # noqa: F811
    g = np.random.default_rng(1000 + case)
    kind = ("binary", "canonical", "confidence")[case % 3]
    p, y = _data(kind)
    blocksize = ["auto", 7, 37, 100, 2][case % 5]
    args = {} if kind == "binary" else {"type": kind}
    want = pc.cal_test(p, y, method="block", blocksize=blocksize, **args)
    if case % 2 == 0:  # a Dask array with random chunks (lengths known)
        chunks = (tuple(_cuts(g, N, True)),)
        P = da.from_array(p, chunks=chunks + ((p.shape[1],) if p.ndim == 2 else ()))
        got = pcd.cal_test(P, da.from_array(y, chunks=chunks), method="block",
                           blocksize=blocksize, **args)
    else:  # DataFrame partitions at random rows (lengths unknown to the client)
        frame = pd.DataFrame(p if p.ndim == 2 else {"p": p}).add_prefix("c")
        cols = list(frame.columns)
        frame["y"] = y
        lengths = _cuts(g, N, False)
        divisions = tuple(np.concatenate([[0], np.cumsum(lengths)[:-1], [N - 1]]).tolist())
        ddf = dd.from_pandas(frame, npartitions=1).repartition(divisions=divisions)
        assert ddf.npartitions == len(lengths)
        got = pcd.cal_test(ddf[cols] if len(cols) > 1 else ddf[cols[0]], ddf["y"],
                           method="block", blocksize=blocksize, **args)
    _same(got, want)


def test_seven_and_three_partitions_of_120000_rows(client):  # noqa: F811
    g = np.random.default_rng(7)
    n = 120_000
    p = g.random(n)
    y = (g.random(n) < p).astype(np.int64)
    want = pc.cal_test(p, y, method="block")
    for parts in (3, 7):
        step = -(-n // parts)  # 17,143 rows: not a multiple of the 250-row blocks
        got = pcd.cal_test(da.from_array(p, chunks=step), da.from_array(y, chunks=step),
                           method="block")
        _same(got, want)

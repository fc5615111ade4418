"""pycalib_r.dask on a real distributed cluster: equality with the in-memory functions.

A ``distributed.LocalCluster`` of two worker processes is started once for
the module. Every function is compared with its in-memory twin on the same
data across chunkings (one chunk, uneven chunks, a chunk of one row, empty
partitions after filtering, Parquet): closed-form values to 1e-12 relative,
counts and bins exactly, fitted calibrators to 1e-9 in predictions. Bad
input in a late chunk gives the in-memory (R's) message.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pcd = pytest.importorskip("pycalib_r.dask")

REL = 1e-12
N = 3001


@contextlib.contextmanager
def _environment_before_r():
    """os.environ as it was before R was loaded, while worker processes start.

    rpy2 prepends R's library folders to LD_LIBRARY_PATH in this process (other
    test files load R first); a worker started with it can load another
    libpython's extension modules and fail ("Nanny failed to start").
    """
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(ORIGINAL_ENV)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="module")
def client():
    with _environment_before_r():
        cluster = distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1,
                                           host="127.0.0.1", dashboard_address=None)
    cl = distributed.Client(cluster)
    try:
        yield cl
    finally:
        cl.close()
        cluster.close()


def _rel(a, b):
    a, b = float(a), float(b)
    return 0.0 if a == b else abs(a - b) / max(abs(b), 1e-300)


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(25)
    p = rng.random(N)
    y = (rng.random(N) < p ** 1.3).astype(np.int64)
    return p, y


CHUNKINGS = {
    "one": (N,),
    "uneven": (1, 999, 1, 1700, 300),
    "one_row": (1500, 1, 1500),
}


def _arrays(p, y, chunks):
    # y chunked otherwise than p: the face aligns it.
    # inline_array: each chunk task holds its rows (as chunks read from files
    # do), so no task waits for a shared array on the other worker.
    return da.from_array(p, chunks=(chunks,) + ((p.shape[1],) if p.ndim == 2 else ()), inline_array=True), \
        da.from_array(y, chunks=1000, inline_array=True)


def _filtered_frame(p, y):
    """A Dask DataFrame of five partitions, two of them (padding rows) empty
    after the filter ``keep == 1``, which keeps exactly the original rows."""
    n = p.shape[0]
    cols = {"p": p} if p.ndim == 1 else {f"c{j}": p[:, j] for j in range(p.shape[1])}
    frame = pd.DataFrame({**cols, "y": y, "keep": 1})
    pad = pd.DataFrame({**{k: np.full(50, 0.5) for k in cols}, "y": 0, "keep": 0})
    parts = [frame.iloc[: n // 3], pad, frame.iloc[n // 3: n // 2], pad, frame.iloc[n // 2:]]
    ddf = dd.concat([dd.from_pandas(part, npartitions=1, sort=False) for part in parts])
    ddf = ddf[ddf["keep"] == 1]
    return ddf, list(cols)


def _binary_inputs(p, y, how):
    if how == "frame":
        ddf, _ = _filtered_frame(p, y)
        return ddf["p"], ddf["y"]
    return _arrays(p, y, CHUNKINGS[how])


def _same_table(got, want):
    assert list(got.columns) == list(want.columns)
    for col in ("bin", "n", "lower", "upper"):
        assert np.array_equal(got[col], want[col]), col
    rest = [c for c in want.columns if c not in ("bin", "n", "lower", "upper", "class_label", "gap")]
    np.testing.assert_allclose(got[rest], want[rest], rtol=REL, atol=0)
    # gap = |accuracy - confidence| cancels: its error is relative to confidence.
    assert np.all(np.abs(got["gap"] - want["gap"]) <= REL * want["confidence"])


def _same_fit(got, want, grid):
    assert type(got) is type(want) and got.n == want.n
    np.testing.assert_allclose(pc.predict(got, grid), pc.predict(want, grid), rtol=1e-9, atol=0)
    assert str(pc.summary(got)) == str(pc.summary(want))


GRID = np.linspace(0.001, 0.999, 41)


def test_binary_uneven_chunks(client, binary):
    """Chunks of 1, 999, 1, 1700 and 300 rows; y chunked otherwise (1000s)."""
    p, y = binary
    P, Y = _binary_inputs(p, y, "uneven")
    cases = [("ece", {}), ("ece", {"strategy": "equal_freq", "bins": 7, "debiased": True}),
             ("ece", {"bins": 200_000}), ("mce", {}), ("ace", {"bins": 13})]
    for name, kw in cases:
        got, want = getattr(pcd, name)(P, Y, **kw), getattr(pc, name)(p, y, **kw)
        assert _rel(got, want) <= REL, (name, kw, got, want)
    _same_table(pcd.reliability_table(P, Y, bins=9, strategy="equal_freq", conf_level=0.9),
                pc.reliability_table(p, y, bins=9, strategy="equal_freq", conf_level=0.9))
    assert _rel(pcd.skce(P, Y, estimator="ul"), pc.skce(p, y, estimator="ul")) <= REL
    got = pcd.cal_test(P, Y, method="asymptotic", bandwidth=0.3)
    want = pc.cal_test(p, y, method="asymptotic", bandwidth=0.3)
    assert isinstance(got, type(want)) and got.method == want.method and got.target == want.target
    assert _rel(got.statistic["z"], want.statistic["z"]) <= 1e-11
    assert _rel(got.p_value, want.p_value) <= 1e-11
    assert _rel(got.estimate["SKCE_ul"], want.estimate["SKCE_ul"]) <= REL
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        platt, beta = pcd.cal_platt(P, Y), pcd.cal_beta(P, Y)
        platt_mem, beta_mem = pc.cal_platt(p, y), pc.cal_beta(p, y)
    _same_fit(platt, platt_mem, GRID)
    _same_fit(beta, beta_mem, GRID)
    assert platt.fit.iter == platt_mem.fit.iter and beta.fit.iter == beta_mem.fit.iter
    assert _rel(platt.fit.deviance, platt_mem.fit.deviance) <= REL
    assert _rel(beta.fit.aic, beta_mem.fit.aic) <= REL
    got = pcd.cal_histogram(P, Y, bins=11, strategy="equal_freq")
    want = pc.cal_histogram(p, y, bins=11, strategy="equal_freq")
    assert np.array_equal(got.breaks, want.breaks) and np.array_equal(got.counts, want.counts)
    assert np.array_equal(got.bin_values, want.bin_values) and got.global_rate == want.global_rate
    assert str(got) == str(want) and got.call == want.call


def test_binary_empty_partitions(client, binary):
    """A filtered Dask DataFrame: two of its six partitions are empty."""
    p, y = binary
    ddf, _ = _filtered_frame(p, y)
    assert ddf.map_partitions(len).compute().tolist().count(0) == 2
    P, Y = ddf["p"], ddf["y"]
    assert _rel(pcd.ece(P, Y, strategy="equal_freq"), pc.ece(p, y, strategy="equal_freq")) <= REL
    _same_table(pcd.reliability_table(P, Y), pc.reliability_table(p, y))
    got, want = pcd.cal_test(P, Y, method="asymptotic"), pc.cal_test(p, y, method="asymptotic")
    assert _rel(got.statistic["z"], want.statistic["z"]) <= 1e-11
    _same_fit(pcd.cal_platt(P, Y), pc.cal_platt(p, y), GRID)
    got, want = pcd.cal_histogram(P, Y, bins=4), pc.cal_histogram(p, y, bins=4)
    assert np.array_equal(got.counts, want.counts) and np.array_equal(got.bin_values, want.bin_values)


def test_one_chunk(client, binary):
    p, y = binary
    P, Y = _binary_inputs(p, y, "one")
    assert _rel(pcd.ece(P, Y, strategy="equal_freq"), pc.ece(p, y, strategy="equal_freq")) <= REL
    z = np.log(p / (1 - p)) * 1.7
    Z = da.from_array(z, chunks=N)
    got, want = pcd.cal_temperature(Z, Y), pc.cal_temperature(z, y)
    # One chunk: the summed loss is R's sequential long-double sum, so Brent's path is R's.
    assert got.temperature == want.temperature and got.value == want.value
    _same_fit(got, want, np.linspace(-5, 5, 41))


def test_a_chunk_of_one_row(client, binary):
    """A middle chunk of one row: its row pairs with the next chunk's first (linear SKCE)."""
    p, y = binary
    P, Y = _binary_inputs(p, y, "one_row")
    assert _rel(pcd.skce(P, Y, estimator="ul"), pc.skce(p, y, estimator="ul")) <= REL
    assert _rel(pcd.ece(P, Y, bins=5), pc.ece(p, y, bins=5)) <= REL


def test_predict_is_lazy(client, binary):
    p, y = binary
    fit = pc.cal_platt(p, y)
    P = da.from_array(p, chunks=700)
    out = pc.predict(fit, P)
    assert isinstance(out, da.Array)
    np.testing.assert_array_equal(out.compute(), pc.predict(fit, p))
    ddf, _ = _filtered_frame(p, y)
    series = fit.predict(ddf["p"])
    assert isinstance(series, dd.Series)
    np.testing.assert_array_equal(series.compute().to_numpy(), pc.predict(fit, p))


@pytest.fixture(scope="module")
def multiclass():
    rng = np.random.default_rng(52)
    m = rng.random((N, 3)) ** 2
    m /= m.sum(axis=1, keepdims=True)
    u = rng.random(N)
    labels = 1 + (u > m[:, 0]).astype(np.int64) + (u > m[:, 0] + m[:, 1]).astype(np.int64)
    return m, labels


def test_multiclass_arrays(client, multiclass):
    m, labels = multiclass
    M, L = _arrays(m, labels, CHUNKINGS["uneven"])
    for t in ("classwise", "confidence"):
        assert _rel(pcd.ece(M, L, type=t, strategy="equal_freq"),
                    pc.ece(m, labels, type=t, strategy="equal_freq")) <= REL
    _same_table(pcd.reliability_table(M, L, bins=6, type="confidence"),
                pc.reliability_table(m, labels, bins=6, type="confidence"))
    assert _rel(pcd.skce(M, L, estimator="ul"), pc.skce(m, labels, estimator="ul")) <= REL
    got, want = pcd.cal_test(M, L, method="asymptotic"), pc.cal_test(m, labels, method="asymptotic")
    assert _rel(got.statistic["z"], want.statistic["z"]) <= 1e-11 and got.target == want.target


def test_multiclass_frame_with_categorical_labels(client, multiclass):
    m, labels = multiclass
    ddf, cols = _filtered_frame(m, labels)
    M, L = ddf[cols], ddf["y"].astype(pd.CategoricalDtype([1, 2, 3]))
    lab_mem = pd.Categorical(labels, categories=[1, 2, 3])
    frame = pd.DataFrame(m, columns=cols)
    assert _rel(pcd.ece(M, L), pc.ece(frame, lab_mem)) <= REL
    got, want = pcd.reliability_table(M, L, bins=6), pc.reliability_table(frame, lab_mem, bins=6)
    _same_table(got, want)
    assert list(got["class_label"].astype(str)) == list(want["class_label"].astype(str))
    assert _rel(pcd.skce(M, L, estimator="ul", type="classwise"),
                pc.skce(frame, lab_mem, estimator="ul", type="classwise")) <= REL


def _message(fn, *args, **kw):
    """R's message, or "OK"."""
    try:
        fn(*args, **kw)
    except pc.ProbcalError as err:
        return str(err)
    return "OK"


def test_bad_input_in_a_late_chunk(client, binary):
    p, y = binary
    chunks = CHUNKINGS["uneven"]
    cases = []
    p_nan = p.copy(); p_nan[-2] = np.nan
    p_inf = p.copy(); p_inf[-1] = np.inf
    p_big = p.copy(); p_big[-3] = 1.5
    y_two = y.copy(); y_two[-1] = 2
    y_nan = y.astype(np.float64); y_nan[-1] = np.nan
    cases = [(p_nan, y), (p_inf, y), (p_big, y), (p, y_two), (p, y_nan), (p_nan, y_two),
             (p, np.zeros(N, dtype=np.int64))]
    for i, (pp, yy) in enumerate(cases):
        P, Y = _arrays(pp, yy, chunks)
        want = _message(pc.ece, pp, yy)
        assert want != "OK" or i == 6
        assert _message(pcd.ece, P, Y) == want
        if i in (0, 3):
            assert _message(pcd.cal_test, P, Y, method="asymptotic") == \
                _message(pc.cal_test, pp, yy, method="asymptotic")
        if i in (0, 2, 6):  # `x` named, scores outside [0, 1] accepted, both labels needed
            assert _message(pcd.cal_platt, P, Y) == _message(pc.cal_platt, pp, yy)
    # lengths, and the bins check after the data (R's order)
    P, Y = da.from_array(p, chunks=1000), da.from_array(y[:-1], chunks=1000)
    assert _message(pcd.ece, P, Y) == _message(pc.ece, p, y[:-1])
    P, Y = _arrays(p, y, chunks)
    assert _message(pcd.ece, P, Y, bins=0) == _message(pc.ece, p, y, bins=0)
    P, Y = _arrays(p_nan, y, chunks)
    assert _message(pcd.ece, P, Y, bins=0) == _message(pc.ece, p_nan, y, bins=0)


def test_bad_multiclass_input(client, multiclass):
    m, labels = multiclass
    bad_rows = m.copy(); bad_rows[-1, 0] += 0.01
    four = labels.copy(); four[-1] = 4
    for mm, ll, t in [(bad_rows, labels, "classwise"), (m, four, "classwise"),
                      (m, labels[:-1], "classwise"), (m, labels[:-1], "confidence")]:
        M = da.from_array(mm, chunks=(1000, 3))
        L = da.from_array(ll, chunks=1000)
        want = _message(pc.ece, mm, ll, type=t)
        assert want != "OK"
        assert _message(pcd.ece, M, L, type=t) == want


def test_refusals_name_alternatives(client, binary):
    p, y = binary
    P, Y = _arrays(p, y, CHUNKINGS["uneven"])
    with pytest.raises(ValueError, match='estimator="ul"'):
        pcd.skce(P, Y)
    with pytest.raises(ValueError, match='method="asymptotic"'):
        pcd.cal_test(P, Y)
    with pytest.raises(ValueError, match="median"):
        pcd.skce(P, Y, estimator="ul", bandwidth="median")
    for name in ("cal_isotonic", "cal_ci", "mmce", "cal_dirichlet", "cal_ovr", "cal_cv",
                 "cal_vector_scaling"):
        with pytest.raises(NotImplementedError, match="sample|skce|cal_histogram"):
            getattr(pcd, name)(P, Y)
    M = da.from_array(np.column_stack([p, 1 - p]), chunks=(1000, 2))
    with pytest.raises(ValueError, match="multiclass calibrator"):
        pcd.cal_temperature(M, Y + 1)
    with pytest.raises(TypeError, match="Dask collections"):
        pcd.ece(p, y)


def test_parquet_round_trip(client, binary, tmp_path):
    p, y = binary
    frame = pd.DataFrame({"p": p, "y": y})
    dd.from_pandas(frame, npartitions=4).to_parquet(tmp_path / "scores")
    ddf = dd.read_parquet(tmp_path / "scores")
    assert _rel(pcd.ece(ddf["p"], ddf["y"], strategy="equal_freq"), pc.ece(p, y, strategy="equal_freq")) <= REL
    res = pcd.cal_test(ddf["p"], ddf["y"], method="asymptotic")
    assert res.data_name == "p and y"
    assert _rel(res.statistic["z"], pc.cal_test(frame["p"], frame["y"], method="asymptotic").statistic["z"]) <= 1e-11


def test_import_pycalib_r_does_not_import_dask():
    code = "import sys, pycalib_r; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)})
    assert out.stdout.strip() == "False"


def _merged_fit(X, y, w, names, chunks):
    """rstats.glm_irls_merged on ``chunks`` row blocks, merged by GLM_MERGE_RULES."""
    from pycalib_r import rstats

    blocks = np.array_split(np.arange(y.size), chunks)

    def sums_at(beta):
        wtdmu = None
        if beta is None:
            ww = np.ones(y.size) if w is None else w
            wtdmu = float(np.sum(ww * np.where(ww == 0, 0.0, y)) / np.sum(ww))
        parts = [rstats.glm_chunk_sums(X[b], y[b], beta, None if w is None else w[b], wtdmu) for b in blocks]
        merged = {}
        for key, rule in rstats.GLM_MERGE_RULES.items():
            vals = [part[key] for part in parts if key in part]
            if vals:
                merged[key] = sum(vals[1:], vals[0]) if rule == "sum" else any(vals)
        return merged

    n_ok = y.size if w is None else int(np.count_nonzero(w))
    return rstats.glm_irls_merged(sums_at, names, range(len(names)), n_ok, warn=False)


@pytest.mark.parametrize("case", ["plain", "weighted", "fractional", "separated"])
def test_merged_irls_is_the_in_memory_glm_fit(case):
    # The Dask face's fits are rstats.glm_irls_merged on per-chunk sums: the
    # in-memory glm.fit's loop (iterations, convergence, R's messages) with
    # the step solved from X'WX; coefficients and deviance agree to rounding.
    from pycalib_r import rstats

    rng = np.random.default_rng(["plain", "weighted", "fractional", "separated"].index(case))
    n = 700
    s = rng.normal(size=n) * 2
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-s))).astype(float)
    w = None
    if case == "weighted":
        w = rng.uniform(0, 3, size=n)
        w[:40] = 0
    elif case == "fractional":
        y = rng.uniform(size=n)
    elif case == "separated":
        y = (s > 0).astype(float)
    X = rstats.design_matrix([s, np.log1p(np.abs(s))])
    names = ["(Intercept)", "a", "b"]
    want = rstats.glm_binomial(X, y, names, warn=False, weights=w)
    got = _merged_fit(X, y, w, names, chunks=7)
    assert (got.iter, got.converged, got.boundary, got.rank) == (want.iter, want.converged, want.boundary, want.rank)
    assert list(got.warnings) == list(want.warnings)
    assert (got.df_residual, got.df_null) == (want.df_residual, want.df_null)
    np.testing.assert_allclose(list(got.coefficients.values()), list(want.coefficients.values()), rtol=1e-10)
    for key in ("deviance", "null_deviance", "aic"):
        assert getattr(got, key) == pytest.approx(getattr(want, key), rel=1e-9, abs=1e-9)

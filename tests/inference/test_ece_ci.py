"""``ece_ci()``: Sun, Chaudhari, Barnett & Dobriban's (2024) interval for the squared l2 ECE.

The estimator and its plug-in variance are held to a loop-by-loop
transcription of the paper's formulas (written here from the paper, not from
the module); the null variance to a brute-force sum over pairs; the
interval's coverage to a small simulation whose binned truth is closed-form.
Python-only (probcal has no such function), so there is no R parity case.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.inference._ece_interval import _estimate
from pycalib_r.inputs._forms import input_form

# ---------------------------------------------------------------------------
# The paper's formulas, transcribed loop by loop.
# ---------------------------------------------------------------------------


def _paper_bins(z, m):
    """Equal-width bin of each coordinate: floor(m z), with z = 1 in the last bin."""
    return np.minimum(np.floor(z * m).astype(int), m - 1)


def _paper_t_sigma(z, e, m):
    """T_{m,n} and sigma_1^2 of the paper, one bin at a time."""
    z = np.atleast_2d(z.T).T
    e = np.atleast_2d(e.T).T
    n = z.shape[0]
    cells = {}
    for i, key in enumerate(map(tuple, _paper_bins(z, m))):
        cells.setdefault(key, []).append(i)
    t = 0.0
    first = 0.0
    second = 0.0
    for rows in cells.values():
        nb = len(rows)
        u = e[rows] - z[rows]
        ubar = u.mean(axis=0)
        term = nb * float(ubar @ ubar) - float(np.mean(np.sum(u * u, axis=1)))
        if nb > 1:
            term *= nb / (nb - 1)
        t += term
        s = u.T @ u / nb
        first += nb / n * (4 * float(ubar @ s @ ubar) - 3 * float(ubar @ ubar) ** 2)
        second += nb / n * float(ubar @ ubar)
    return t / n, first - second ** 2


def _brute_null_var(z, m):
    """2/n^2 sum_b 1/(n_b - 1)^2 sum_{i != j in b} <Sigma_i, Sigma_j>, over all pairs."""
    z = np.atleast_2d(z.T).T
    n = z.shape[0]
    keys = [tuple(k) for k in _paper_bins(z, m)]
    counts = {k: keys.count(k) for k in set(keys)}
    sig = [np.diag(r) - np.outer(r, r) for r in z]
    total = 0.0
    for i in range(n):
        for j in range(n):
            if i != j and keys[i] == keys[j]:
                total += float(np.sum(sig[i] * sig[j])) / (counts[keys[i]] - 1) ** 2
    return 2 * total / n ** 2


def _rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def _multiclass(seed, n=400, k=4):
    gen = np.random.default_rng(seed)
    p = gen.dirichlet(np.ones(k) * 0.7, size=n)
    # Miscalibrated: labels from a sharpened version of p.
    q = p ** 1.6
    q /= q.sum(axis=1, keepdims=True)
    y = np.array([gen.choice(k, p=row) for row in q]) + 1
    return p, y


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_binary_estimator_is_the_papers(seed):
    gen = np.random.default_rng(seed)
    p = gen.uniform(size=700)
    y = (gen.uniform(size=700) < 0.5 + 0.6 * (p - 0.5)).astype(int)
    want_t, want_s = _paper_t_sigma(p, y.astype(float), 20)
    t, s, _ = _estimate(input_form(p, y), 20, 1)
    assert _rel(t, want_t) < 1e-12 and _rel(s, want_s) < 1e-12
    res = pc.ece_ci(p, y, bins=20)
    assert res.estimate == t and res.std_error == math.sqrt(s / 700)


@pytest.mark.parametrize("seed", [4, 5])
def test_confidence_and_top_k_estimators_are_the_papers(seed):
    p, y = _multiclass(seed)
    order = np.argsort(-p, axis=1, kind="stable")
    z = np.take_along_axis(p, order, axis=1)
    e = (order + 1 == y[:, None]).astype(float)
    for k, kind in ((1, "confidence"), (1, "topk"), (2, "topk"), (4, "topk")):
        want_t, want_s = _paper_t_sigma(z[:, :k], e[:, :k], 6)
        res = pc.ece_ci(p, y, bins=6, type=kind, top_k=k)
        assert _rel(res.estimate, want_t) < 1e-12, (kind, k)
        assert _rel(res.std_error ** 2 * p.shape[0], want_s) < 1e-12, (kind, k)


def test_null_variance_is_the_pairwise_sum():
    p, y = _multiclass(6, n=150, k=3)
    order = np.argsort(-p, axis=1, kind="stable")
    z = np.take_along_axis(p, order, axis=1)
    for k, kind in ((1, "confidence"), (2, "topk")):
        res = pc.ece_ci(p, y, bins=4, type=kind, top_k=k)
        assert _rel(res.null_sd ** 2, _brute_null_var(z[:, :k], 4)) < 1e-12, kind
    gen = np.random.default_rng(7)
    pb = gen.uniform(size=120)
    yb = (gen.uniform(size=120) < pb).astype(int)
    assert _rel(pc.ece_ci(pb, yb, bins=5).null_sd ** 2, _brute_null_var(pb, 5)) < 1e-12


def test_classwise_is_the_mean_of_the_columns_and_its_null_variance_the_pairwise_sum():
    p, y = _multiclass(8, n=150, k=3)
    res = pc.ece_ci(p, y, bins=4, type="classwise")
    cols = [pc.ece_ci(p[:, j], (y == j + 1).astype(int), bins=4).estimate for j in range(3)]
    assert _rel(res.estimate, np.mean(cols)) < 1e-12
    # Pairs (i, j) sharing the bin of class c and of class d add
    # A_ijc A_ijd Sigma_i[c, d] Sigma_j[c, d], A = 2 / (K n (n_bin - 1)).
    n, k = p.shape
    b = _paper_bins(p, 4)
    cnt = [{v: int(np.sum(b[:, c] == v)) for v in set(b[:, c])} for c in range(k)]
    sig = [np.diag(r) - np.outer(r, r) for r in p]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            for c in range(k):
                if b[i, c] != b[j, c]:
                    continue
                a_c = 2 / (k * n * (cnt[c][b[i, c]] - 1))
                for d in range(k):
                    if b[i, d] == b[j, d]:
                        a_d = 2 / (k * n * (cnt[d][b[i, d]] - 1))
                        total += a_c * a_d * sig[i][c, d] * sig[j][c, d]
    assert _rel(res.null_sd ** 2, total) < 1e-12


def test_singleton_bins_add_nothing_to_the_estimate():
    # One prediction per bin: no pairs, so the estimate is 0 and the test has no spread.
    res = pc.ece_ci([0.05, 0.35, 0.65, 0.95], [1, 0, 1, 0], bins=4)
    assert res.estimate == 0.0 and res.null_sd == 0.0
    assert res.lower == 0.0 and not res.reject and res.p_value == 1.0
    assert res.std_error > 0  # the plug-in variance keeps singleton bins, as the paper's


# ---------------------------------------------------------------------------
# Coverage: p ~ U(0, 1), P(y = 1 | p) = 1/2 + s (p - 1/2). The binned
# error is then the gap at each bin's midpoint: (1 - s)^2 (1 - 1/m^2) / 12.
# ---------------------------------------------------------------------------

N, BINS, SETS = 500, 15, 200


def _linear_sets(s, base):
    for r in range(SETS):
        rng = pc.RRandom(base + r)
        p = np.asarray(rng.runif(N))
        y = (np.asarray(rng.runif(N)) < 0.5 + s * (p - 0.5)).astype(int)
        yield pc.ece_ci(p, y, bins=BINS, conf_level=0.9)


@pytest.mark.parametrize("s", [0.85, 0.7, 0.4])
def test_coverage_at_three_miscalibration_levels(s):
    truth = (1 - s) ** 2 * (1 - 1 / BINS ** 2) / 12
    results = list(_linear_sets(s, base=int(1000 * s) * 1000))
    cover = np.mean([r.lower <= truth <= r.upper for r in results])
    assert cover >= 0.85, cover
    assert all(0 <= r.lower <= r.upper for r in results)


def test_calibrated_model_gets_lower_bound_zero():
    results = list(_linear_sets(1.0, base=77_000))
    zero = np.mean([r.lower == 0.0 for r in results])
    assert zero >= 0.85, zero
    # The test's level is 1 - conf_level: it rejects a calibrated model about 10% of the time.
    assert np.mean([r.reject for r in results]) <= 0.15


@pytest.mark.parametrize("kind", ["confidence", "topk", "classwise"])
def test_calibrated_multiclass_model_gets_lower_bound_zero(kind):
    gen = np.random.default_rng(123)
    lower_zero, rejected = [], []
    for _ in range(120):
        p = gen.dirichlet([1, 1, 1], size=300)
        y = (np.cumsum(p, axis=1) < gen.uniform(size=300)[:, None]).sum(axis=1) + 1
        res = pc.ece_ci(p, y, bins=8, type=kind)
        lower_zero.append(res.lower == 0.0)
        rejected.append(res.reject)
    assert np.mean(lower_zero) >= 0.85
    # The null variance is right: the test's size is near 1 - conf_level.
    assert 0.03 <= np.mean(rejected) <= 0.17, np.mean(rejected)


# ---------------------------------------------------------------------------
# The object.
# ---------------------------------------------------------------------------

PRINTED = """
── Confidence interval for the squared l2 ECE ──────────────────────────────────
Method: Sun et al. (2024) debiased estimate, normal interval (15 equal-width bins, edges k/m)
Target: binary calibration
Estimate: 0.008154 (l2 ECE 0.0903)
Confidence level: 90.0%
Confidence set: [0.00493, 0.01138]
Confidence set for the l2 ECE: [0.07021, 0.1067]
Calibration test: z = 16.3, p-value < 2.2e-16 (rejected at level 0.1)"""


def _example():
    pc.set_seed(41)
    p = pc.runif(2000)
    y = pc.rbinom(2000, 1, 0.5 + 0.7 * (p - 0.5))
    return p, y


def test_printed_text_is_pinned():
    p, y = _example()
    res = pc.ece_ci(p, y)
    assert str(res) == PRINTED
    assert repr(res) == PRINTED


def test_multiclass_print_names_the_form():
    p, y = _multiclass(9, n=300, k=3)
    text = str(pc.ece_ci(p, y, bins=5, type="topk", top_k=2))
    assert "Target: top-2 calibration" in text and "(5^2 equal-width cells, edges k/m)" in text
    assert "Target: top-3 (full) calibration" in str(pc.ece_ci(p, y, bins=3, type="topk",
                                                               top_k=3))
    assert "classwise calibration (mean over 3 classes)" in str(
        pc.ece_ci(p, y, type="classwise"))
    assert "top-label confidence calibration" in str(pc.ece_ci(p, y))


def test_components_and_to_dict():
    p, y = _example()
    res = pc.ece_ci(p, y)
    assert res.keys() == ["estimate", "lower", "upper", "conf_level", "std_error", "null_sd",
                          "statistic", "p.value", "reject", "type", "target", "method",
                          "bins", "top_k", "n", "interval_lower", "zero_in_set", "edges"]
    d = res.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["lower"] == res.lower and res["p.value"] == res.p_value == res.pvalue
    assert res.r_class == ("ece_ci",)
    assert res.lower <= res.estimate <= res.upper and res.reject


def test_confidence_form_equals_binary_form_of_the_top_label():
    p, y = _multiclass(10, n=300, k=3)
    conf = p.max(axis=1)
    correct = (p.argmax(axis=1) + 1 == y).astype(int)
    a = pc.ece_ci(p, y).to_dict()
    b = pc.ece_ci(conf, correct).to_dict()
    for key in ("estimate", "lower", "upper", "std_error", "null_sd", "p.value"):
        assert a[key] == b[key], key


def test_input_is_not_mutated():
    p, y = _multiclass(11, n=100, k=3)
    p0, y0 = p.copy(), y.copy()
    pc.ece_ci(p, y, type="classwise")
    pc.ece_ci(p, y, type="topk")
    assert np.array_equal(p, p0) and np.array_equal(y, y0)


# ---------------------------------------------------------------------------
# Bad input: ece()'s messages.
# ---------------------------------------------------------------------------

BAD = {
    "p above 1": ([0.2, 1.2, 0.5], [0, 1, 1], {}),
    "p missing": ([0.2, float("nan"), 0.5], [0, 1, 1], {}),
    "y not 0/1": ([0.2, 0.4, 0.5], [0, 2, 1], {}),
    "lengths": ([0.2, 0.4, 0.5], [0, 1], {}),
    "bins 0": ([0.2, 0.4], [0, 1], {"bins": 0}),
    "bins 2.5": ([0.2, 0.4], [0, 1], {"bins": 2.5}),
    "rows off 1": (np.array([[0.5, 0.6], [0.3, 0.7]]), [1, 2], {}),
    "class code": (np.array([[0.4, 0.6], [0.3, 0.7]]), [1, 3], {}),
    "type": (np.array([[0.4, 0.6], [0.3, 0.7]]), [1, 2], {"type": "nonsense"}),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_gets_eces_message(case):
    p, y, kw = BAD[case]
    with pytest.raises(pc.ProbcalError) as theirs:
        pc.ece(p, y, **kw)
    with pytest.raises(pc.ProbcalError) as ours:
        pc.ece_ci(p, y, **kw)
    if case == "type":  # the same match.arg error, over ece_ci's choices
        assert str(ours.value) == "'arg' should be one of “confidence”, “classwise”, “topk”"
    else:
        assert str(ours.value) == str(theirs.value)


def test_bad_conf_level_and_top_k():
    with pytest.raises(pc.ProbcalError, match="conf_level"):
        pc.ece_ci([0.2, 0.4], [0, 1], conf_level=1.5)
    p, y = _multiclass(12, n=50, k=3)
    for bad in (0, 4, 1.5, "2"):
        with pytest.raises(pc.ProbcalError, match="`top_k` must be a single whole number from "
                                                  "1 to 3"):
            pc.ece_ci(p, y, type="topk", top_k=bad)


def test_pandas_input_and_misaligned_columns():
    pd = pytest.importorskip("pandas")
    p, y = _multiclass(13, n=120, k=3)
    cat = pd.Categorical.from_codes(y - 1, categories=["a", "b", "c"])
    df = pd.DataFrame(p, columns=["a", "b", "c"])
    assert pc.ece_ci(df, cat).to_dict() == pc.ece_ci(p, y).to_dict()
    with pytest.raises(pc.ProbcalError, match="another order"):
        pc.ece_ci(df[["c", "a", "b"]], cat)


# ---------------------------------------------------------------------------
# The paper's set, edges and warnings (issue 35).
# ---------------------------------------------------------------------------


def _authors_t(z, y, m):
    """T_{m,n} with the authors' bins: z >= k/m and z < (k + 1)/m, one bin at a time."""
    n = z.size
    t = 0.0
    for k in range(m):
        inside = (z >= k / m) & (z < (k + 1) / m)
        nb = int(inside.sum())
        if nb == 0:
            continue
        u = y[inside] - z[inside]
        term = nb * float(np.mean(u)) ** 2 - float(np.mean(u * u))
        if nb > 1:
            term *= nb / (nb - 1)
        t += term
    return t / n


def test_paper_edges_are_the_quotients_k_over_m():
    gen = np.random.default_rng(35)
    p = np.round(gen.uniform(0, 0.95, size=600), 1)   # many predictions on the edges
    y = (gen.uniform(size=600) < np.clip(p + 0.1, 0, 1)).astype(int)
    want = _authors_t(p, y.astype(float), 10)
    res = pc.ece_ci(p, y, bins=10)
    assert res.edges == "paper" and _rel(res.estimate, want) < 1e-12
    # R's seq() edges put 0.3, 0.6 and 0.7 in the bin below: another estimate.
    other = pc.ece_ci(p, y, bins=10, edges="ece")
    assert _rel(other.estimate, want) > 1e-3
    t_ece, _, _ = _estimate(input_form(p, y), 10, 1, "ece")
    assert other.estimate == t_ece
    with pytest.raises(pc.ProbcalError):
        pc.ece_ci(p, y, edges="quantile")


def test_prediction_one_goes_in_the_last_bin():
    p = np.array([0.91, 0.95, 1.0, 0.2, 0.25, 0.22] * 20)
    y = np.array([1, 0, 1, 0, 1, 0] * 20)
    t, _, _ = _estimate(input_form(p, y), 10, 1)
    manual = _paper_t_sigma(p, y.astype(float), 10)[0]   # floor(10 z), 1 -> bin 9
    assert _rel(t, manual) < 1e-12


def test_rejection_never_keeps_zero_and_non_rejection_always_does():
    seen_rejected_low = 0
    for r in range(300):
        rng = pc.RRandom(350_000 + r)
        p = np.asarray(rng.runif(300))
        y = (np.asarray(rng.runif(300)) < 0.5 + 0.9 * (p - 0.5)).astype(int)
        res = pc.ece_ci(p, y, bins=10)
        assert res.contains(0) == (not res.reject) == res.zero_in_set
        text = str(res)
        if res.reject:
            assert "Confidence set: [0," not in text
            if res.interval_lower == 0:
                seen_rejected_low += 1
                assert "Confidence set: (0, " in text
        else:
            assert res.lower == 0.0
    # Near calibration the third branch's L = 0 meets rejections: the case the paper excludes 0 from.
    assert seen_rejected_low > 0


def test_union_is_printed_and_the_hull_kept():
    from pycalib_r.inference._ece_interval import EceCI

    res = EceCI(0.004, 0.0, 0.009, 0.9, 0.002, 0.003, 1.2, 0.11, False, "binary",
                "binary calibration", 15, 1, 2000, interval_lower=0.002)
    assert (res.lower, res.upper, res.interval_lower) == (0.0, 0.009, 0.002)
    assert "Confidence set: {0} \u222a [0.002, 0.009]" in str(res)
    assert res.contains(0) and res.contains(0.005) and not res.contains(0.001)
    rej = EceCI(0.004, 0.0, 0.009, 0.9, 0.002, 0.003, 2.0, 0.02, True, "binary",
                "binary calibration", 15, 1, 2000, interval_lower=0.0)
    assert "Confidence set: (0, 0.009]" in str(rej) and not rej.contains(0) and rej.contains(1e-9)


def test_sparse_bins_warn():
    gen = np.random.default_rng(3)
    p = gen.uniform(size=3)
    with pytest.warns(UserWarning, match="fewer than two per bin"):
        pc.ece_ci(p, np.array([0, 1, 1]))
    with pytest.warns(UserWarning, match="fewer than two per bin"):
        pc.ece_ci(gen.uniform(size=100), gen.integers(0, 2, 100), bins=60)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pc.ece_ci(gen.uniform(size=100), gen.integers(0, 2, 100), bins=10)


def test_sparse_bins_bias_is_the_stated_expectation():
    # E[T] = sum_b p_b (1 - (1 - p_b)^(n-1)) |mu_b|^2: n = 50, m = 100 uniform bins,
    # labels miscalibrated by a constant 0.2 shift (mu_b = 0.2 wherever p allows).
    n, m, reps = 50, 100, 4000
    z = (np.arange(m) + 0.5) / m
    mu = np.clip(z + 0.2, 0, 1) - z
    expected = float(np.sum((1 / m) * (1 - (1 - 1 / m) ** (n - 1)) * mu ** 2))
    gen = np.random.default_rng(8)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ts = []
        for _ in range(reps):
            p = (gen.integers(0, m, n) + 0.5) / m
            y = (gen.uniform(size=n) < np.clip(p + 0.2, 0, 1)).astype(int)
            ts.append(pc.ece_ci(p, y, bins=m).estimate)
    se = np.std(ts) / math.sqrt(reps)
    assert abs(np.mean(ts) - expected) < 4 * se
    binned_truth = float(np.mean(mu ** 2))
    assert expected < 0.5 * binned_truth


@pytest.mark.parametrize("kind", ["binary", "confidence", "topk2", "topk3"])
def test_dask_ece_ci_equals_the_in_memory_result(kind):
    da = pytest.importorskip("dask.array")
    import dask
    import pycalib_r.dask as pcd

    gen = np.random.default_rng(17)
    if kind == "binary":
        p = gen.uniform(size=2500)
        y = (gen.uniform(size=2500) < 0.5 + 0.8 * (p - 0.5)).astype(int)
        args, dp = {}, da.from_array(p, chunks=700)
    else:
        p, y = _multiclass(31, n=2500, k=3)
        args = {} if kind == "confidence" else {"type": "topk", "top_k": int(kind[-1]), "bins": 6}
        dp = da.from_array(p, chunks=(700, 3))
    want = pc.ece_ci(p, y, **args)
    with dask.config.set(scheduler="synchronous"):
        got = pcd.ece_ci(dp, da.from_array(y, chunks=700), **args)
    for key in ("estimate", "lower", "upper", "std_error", "null_sd", "statistic", "interval_lower"):
        assert abs(got[key] - want[key]) <= 1e-12 * max(abs(want[key]), 1e-300), key
    assert (got.reject, got.target, got.n, got.bins, got.top_k) == \
        (want.reject, want.target, want.n, want.bins, want.top_k)
    if kind == "confidence":
        with pytest.raises(ValueError, match="classwise"):
            pcd.ece_ci(dp, da.from_array(y, chunks=700), type="classwise")

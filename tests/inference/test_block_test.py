"""``cal_test(method = "block")``: the block kernel test (Python-only, issue 35).

The statistic is checked against a loop-by-loop transcription of its
definition (Widmann, Lindsten & Zachariah's block estimator, Hall's
skewness correction); B = 2 without the correction is the asymptotic
SKCE_ul test bit for bit; a small level and power study runs here, the full
one in tools/power_study.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.inference._block_test import auto_blocksize
from pycalib_r.rbase._rarith import pnorm_upper


def _h_binary(r, c, i, j, h):
    return (c[i] - r[i]) * (c[j] - r[j]) * math.exp(-abs(r[i] - r[j]) / h)


def _h_canonical(p, y, i, j, h):
    k = p.shape[1]
    ui = np.eye(k)[y[i] - 1] - p[i]
    uj = np.eye(k)[y[j] - 1] - p[j]
    return math.exp(-math.sqrt(sum((p[i] - p[j]) ** 2)) / h) * float(sum(ui * uj))


def _transcribed(kernel, n, b, skew=True):
    stats = []
    for start in range(0, (n // b) * b, b):
        pairs = [kernel(i, j) for i in range(start, start + b) for j in range(i + 1, start + b)]
        stats.append(sum(pairs) / len(pairs))
    x = np.array(stats)
    m = x.size
    mean = sum(x) / m
    sd = math.sqrt(sum((x - mean) ** 2) / (m - 1))
    t = math.sqrt(m) * mean / sd
    if skew:
        g = (sum((x - mean) ** 3) / m) / sd ** 3
        a = g / math.sqrt(m)
        t = t + a / 6 + a * t * t / 3 + a * a * t ** 3 / 27
    return mean, t


def _rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def _overconfident(n, gen, scale=1.25):
    q = gen.uniform(0.05, 0.95, n)
    y = (gen.uniform(size=n) < q).astype(int)
    z = np.log(q / (1 - q)) * scale
    return 1 / (1 + np.exp(-z)), y


@pytest.mark.parametrize("b,skew", [(2, True), (5, False), (7, True), (30, True)])
def test_binary_statistic_is_the_definition(b, skew):
    gen = np.random.default_rng(b)
    p, y = _overconfident(307, gen)
    res = pc.cal_test(p, y, method="block", blocksize=b, bandwidth=0.3, skew_correction=skew)
    est, t = _transcribed(lambda i, j: _h_binary(p, y, i, j, 0.3), 307, b, skew)
    assert _rel(float(res.estimate), est) < 1e-12
    assert _rel(float(res.statistic), t) < 1e-12
    assert res.p_value == pnorm_upper(float(res.statistic))
    assert list(res.statistic.keys()) == (["z_H"] if skew else ["z"])


@pytest.mark.parametrize("kind", ["canonical", "confidence"])
def test_multiclass_statistic_is_the_definition(kind):
    gen = np.random.default_rng(11)
    p = gen.dirichlet([1, 1, 1], size=120)
    y = (np.cumsum(p ** 1.5 / (p ** 1.5).sum(1, keepdims=True), axis=1)
         < gen.uniform(size=120)[:, None]).sum(axis=1) + 1
    res = pc.cal_test(p, y, method="block", blocksize=6, type=kind)
    if kind == "canonical":
        kern = lambda i, j: _h_canonical(p, y, i, j, 0.2)  # noqa: E731
    else:
        r = p.max(axis=1)
        c = (p.argmax(axis=1) + 1 == y).astype(float)
        kern = lambda i, j: _h_binary(r, c, i, j, 0.2)  # noqa: E731
    est, t = _transcribed(kern, 120, 6)
    assert _rel(float(res.estimate), est) < 1e-12 and _rel(float(res.statistic), t) < 1e-12


@pytest.mark.parametrize("kind", ["binary", "canonical", "confidence"])
def test_blocks_of_two_without_correction_are_the_asymptotic_test(kind):
    gen = np.random.default_rng(5)
    if kind == "binary":
        p, y = _overconfident(501, gen)
        args = {}
    else:
        p = gen.dirichlet([1, 1, 1, 1], size=501)
        y = gen.integers(1, 5, 501)
        args = {"type": kind}
    a = pc.cal_test(p, y, method="asymptotic", **args)
    b = pc.cal_test(p, y, method="block", blocksize=2, skew_correction=False, **args)
    assert float(a.statistic) == float(b.statistic) and a.p_value == b.p_value
    assert float(a.estimate) == float(b.estimate)


def test_auto_blocksize_rule():
    assert [auto_blocksize(n) for n in (4, 99, 100, 1000, 5000, 12_500, 10 ** 6)] == \
        [2, 2, 2, 20, 100, 250, 250]
    gen = np.random.default_rng(1)
    p, y = _overconfident(5000, gen)
    assert "blocks of 100" in pc.cal_test(p, y, method="block").method


def test_shuffle_permutes_with_rs_sample_int():
    gen = np.random.default_rng(2)
    p, y = _overconfident(400, gen)
    pc.set_seed(9)
    shuffled = pc.cal_test(p, y, method="block", shuffle=True)
    pc.set_seed(9)
    perm = np.asarray(pc.sample_int(400)) - 1
    direct = pc.cal_test(p[perm], y[perm], method="block")
    assert float(shuffled.statistic) == float(direct.statistic)
    # rng= takes a seed or a Generator; without shuffle no number is drawn.
    assert float(pc.cal_test(p, y, method="block", shuffle=True, rng=9).statistic) == \
        float(shuffled.statistic)
    pc.set_seed(4)
    before = pc.runif(1)
    pc.set_seed(4)
    pc.cal_test(p, y, method="block")
    assert pc.runif(1) == before


def test_bad_arguments():
    p = np.linspace(0.1, 0.9, 9)
    y = np.array([0, 1] * 4 + [1])
    for bad in (1, 2.5, "big", True, None, float("nan")):
        with pytest.raises(pc.ProbcalError, match="blocksize"):
            pc.cal_test(p, y, method="block", blocksize=bad)
    with pytest.raises(pc.ProbcalError, match="at least two blocks"):
        pc.cal_test(p, y, method="block", blocksize=5)
    with pytest.raises(pc.ProbcalError, match="shuffle"):
        pc.cal_test(p, y, method="block", blocksize=2, shuffle="yes")
    with pytest.raises(pc.ProbcalError, match="skew_correction"):
        pc.cal_test(p, y, method="block", blocksize=2, skew_correction="no")
    # "block" is matched only when spelled out: R's partial matching is unchanged.
    assert pc.cal_test(p, y, method="b", n_boot=9, progress=False).method.startswith("Bootstrap")


@pytest.mark.parametrize("method", ["x", "bl", "blocks", ""])
def test_an_unknown_method_keeps_rs_message_and_names_block_in_a_note(method):
    # Issue 46, item 16. R's match.arg() message (probcal's two methods; the
    # live comparison is tests/inference/test_inference.py's "method-unknown") stays str(e);
    # the Python-only "block" is named in a note, in the core and the Dask face.
    from pycalib_r.inference._inference import TEST_METHODS, cal_test_arguments
    from pycalib_r.inputs._checks import match_arg

    with pytest.raises(pc.ProbcalError) as want:
        match_arg(method, TEST_METHODS)
    for call in (lambda: pc.cal_test([0.1, 0.4, 0.6, 0.9], [0, 1, 0, 1], method=method),
                 lambda: cal_test_arguments(method, "canonical", 0.2)):
        with pytest.raises(pc.ProbcalError) as got:
            call()
        assert str(got.value) == str(want.value)
        notes = getattr(got.value, "__notes__", [])
        assert any('"block"' in n and "Python-only" in n for n in notes), notes


def test_input_is_not_mutated():
    gen = np.random.default_rng(3)
    p, y = _overconfident(300, gen)
    p0, y0 = p.copy(), y.copy()
    pc.cal_test(p, y, method="block", shuffle=True, rng=1)
    assert np.array_equal(p, p0) and np.array_equal(y, y0)


def test_small_level_and_power_study():
    """200 calibrated data sets (n = 1,000) and 60 over-confident ones (n = 5,000):
    the full study with its Monte Carlo errors is tools/power_study.py."""
    gen = np.random.default_rng(2024)
    level = np.mean([pc.cal_test(*_overconfident(1000, gen, 1.0), method="block").p_value < 0.05
                     for _ in range(200)])
    # 0.05 +- 3.5 standard errors of 200 draws.
    assert 0.05 - 0.055 <= level <= 0.05 + 0.055, level
    power = np.mean([pc.cal_test(*_overconfident(5000, gen), method="block").p_value < 0.05
                     for _ in range(60)])
    ul = np.mean([pc.cal_test(*_overconfident(5000, gen), method="asymptotic").p_value < 0.05
                  for _ in range(60)])
    assert power >= 0.4 and power > ul + 0.25, (power, ul)


def test_dask_block_test_equals_the_in_memory_test_on_the_same_row_order():
    da = pytest.importorskip("dask.array")
    import dask
    import pycalib_r.dask as pcd

    gen = np.random.default_rng(21)
    p, y = _overconfident(300, gen)
    chunks = (70, 70, 70, 90)
    b = 20
    # The in-memory blocks, rows [kB, (k+1)B), whatever the chunks (issue 45,
    # item 2; tests/dask/test_dask_block.py tries random partitionings on a cluster).
    with dask.config.set(scheduler="synchronous"):
        for skew in (True, False):
            got = pcd.cal_test(da.from_array(p, chunks=chunks), da.from_array(y, chunks=chunks),
                               method="block", blocksize=b, skew_correction=skew)
            want = pc.cal_test(p, y, method="block", blocksize=b, skew_correction=skew)
            assert float(got.statistic) == float(want.statistic)
            assert float(got.estimate) == float(want.estimate)
            assert got.method == want.method
        # Canonical matrix input, "auto" blocks (two passes).
        pm = gen.dirichlet([1, 1, 1], size=600)
        ym = gen.integers(1, 4, 600)
        got = pcd.cal_test(da.from_array(pm, chunks=(600, 3)), da.from_array(ym, chunks=600),
                           method="block")
        want = pc.cal_test(pm, ym, method="block")
        assert float(got.statistic) == float(want.statistic)
        with pytest.raises(pc.ProbcalError, match="blocksize"):
            pcd.cal_test(da.from_array(p, chunks=chunks), da.from_array(y, chunks=chunks),
                         method="block", blocksize=1)


def _first_user_warning(call):
    """The UserWarning ``call`` raises first (as an error: the work never starts), or None."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        try:
            call()
        except UserWarning as w:
            return str(w)
    return None


def test_the_long_run_warning_counts_the_block_tests_pair_terms(monkeypatch):
    # Issue 46, item 4: blocksize = n / 2 is as quadratic as SKCE_uq. At n = 200,000
    # and B = 100,000 the test computes 2 * B (B - 1) / 2 = 1.0e10 pair terms; the
    # warning comes before the work (raised as an error here, nothing runs; were
    # the work to start without it, the test fails at once instead of running it).
    from pycalib_r.inference import _inference

    def no_work(*args):
        raise AssertionError("the block work started without a warning")

    monkeypatch.setattr(_inference, "block_statistics", no_work)
    g = np.random.default_rng(46)
    n = 200_000
    p = g.random(n)
    y = (g.random(n) < p).astype(np.int64)
    message = _first_user_warning(lambda: pc.cal_test(p, y, method="block", blocksize=100_000))
    assert message is not None and "1e+10 kernel pair terms" in message, message
    assert "estimated" in message and 'blocksize="auto"' in message and "takes 250" in message
    # canonical form: the matrix's classes make each term dearer
    P = np.column_stack([1 - p, p])[:60_000]
    message = _first_user_warning(
        lambda: pc.cal_test(P, y[:60_000] + 1, method="block", blocksize=30_000))
    assert message is not None and "60000 x 2 matrix" in message and "9e+08" in message
    # the default block size does not warn (250-row blocks: 2.5e7 terms)
    monkeypatch.undo()
    assert _first_user_warning(lambda: pc.cal_test(p[:20_000], y[:20_000], method="block")) is None


def test_the_block_work_count_is_the_blocks_pair_terms():
    from pycalib_r.inference._block_test import block_pair_terms

    assert block_pair_terms(10, 3) == (3, 3 * 3.0)  # 3 blocks of 3 rows, 3 pairs each
    assert block_pair_terms(200_000, 100_000) == (100_000, 2 * 100_000 * 99_999 / 2)
    assert block_pair_terms(1000, "auto") == (20, 50 * 20 * 19 / 2)
    assert block_pair_terms(10, 6) is None and block_pair_terms(10, "x") is None


def test_the_cost_advice_is_one_by_form_in_the_docstring_guide_and_study():
    # Issue 45, item 14: the docstring called the bootstrap O(n^2) per resample for
    # every input and sent users to the block test above a few thousand rows;
    # docs/power_study.md said O(n log n). One account, by form, in all three.
    from tests.conftest import REPO

    texts = {"docstring": " ".join(pc.cal_test.__doc__.split()),
             "guide": " ".join((REPO / "docs/guide/tests-and-intervals.md").read_text().split()),
             "study": " ".join((REPO / "docs/power_study.md").read_text().split())}
    for name, text in texts.items():
        assert "O(n log n) once" in text and "O(n) per resample" in text, name
        assert "O(n^2) per resample" in text, name  # the canonical matrices
        assert "up to about 10^5 rows" not in text, name
    assert "O(n^2) per replicate; use it up to a few thousand rows" not in texts["docstring"]
    assert "Binary input" in texts["docstring"] and "Canonical matrices" in texts["docstring"]
    assert "| binary, or multiclass with `type=\"confidence\"` |" in \
        (REPO / "docs/guide/tests-and-intervals.md").read_text()


def test_the_binary_bootstrap_is_not_quadratic():
    # 199 resamples at n = 200,000 take 2.1 s on the shared test machine;
    # an O(n^2) resample would take hours. A generous bound (a loaded machine).
    import time

    g = np.random.default_rng(14)
    p = g.random(200_000)
    y = (g.random(p.size) < p).astype(np.int64)
    start = time.perf_counter()
    pc.cal_test(p, y, n_boot=199, rng=pc.RRandom(1), progress=False)
    assert time.perf_counter() - start < 60


def test_order_p_forms_the_blocks_on_rows_sorted_by_p():
    # Python-only (issue 45's study): the blocks of rows sorted by the prediction.
    gen = np.random.default_rng(45)
    p, y = _overconfident(2000, gen)
    o = np.argsort(p, kind="stable")
    got = pc.cal_test(p, y, method="block", order="p")
    want = pc.cal_test(p[o], y[o], method="block")
    assert float(got.statistic) == float(want.statistic) and got.p_value == want.p_value
    assert float(pc.cal_test(p, y, method="block", order="rows").statistic) == \
        float(pc.cal_test(p, y, method="block").statistic)
    # a matrix: by its top-label probability (canonical and confidence)
    P = gen.dirichlet([2, 1, 1], 600)
    Y = np.array([gen.choice(3, p=r) for r in P]) + 1
    o = np.argsort(P.max(axis=1), kind="stable")
    for kind in ("canonical", "confidence"):
        got = pc.cal_test(P, Y, method="block", order="p", type=kind)
        assert float(got.statistic) == float(pc.cal_test(P[o], Y[o], method="block", type=kind).statistic)
    # with shuffle, the permutation only orders the ties
    t = np.round(p, 1)
    a = pc.cal_test(t, y, method="block", order="p", shuffle=True, rng=3)
    perm = pc.RRandom(3).sample_int(t.size, t.size) - 1
    o = perm[np.argsort(t[perm], kind="stable")]
    assert float(a.statistic) == float(pc.cal_test(t[o], y[o], method="block").statistic)


def test_order_is_checked():
    p = np.linspace(0.1, 0.9, 9)
    y = np.array([0, 1] * 4 + [1])
    for bad in ("P", "sorted", None, 1, ["p"]):
        with pytest.raises(pc.ProbcalError, match='`order` must be "rows" or "p"'):
            pc.cal_test(p, y, method="block", blocksize=2, order=bad)
    p0 = p.copy()
    pc.cal_test(p, y, method="block", blocksize=2, order="p")
    assert np.array_equal(p, p0)

"""Issue 32, the library's items: masked and foreign containers, forks,
interrupts, overlay colours, the row-sum rule, R_HOME probes, memory,
leaked warnings, R's unused-argument text, bad ``rng=`` values.

Expected values are R's: the row-sum verdicts are stored by
``tools/make_rowsum_fixture.py`` (R 4.2.2, probcal 0.1.0) and re-run live.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r.inputs._checks import check_prob_matrix

from tests import _rowsum_cases
from tests.conftest import ORIGINAL_ENV, REPO

ROWSUM = REPO / "reference" / "fixtures" / "rowsum.json"


def _run_child(code: str, timeout: float = 240, env: dict | None = None):
    """Run ``code`` in a new Python (the checkout's pycalib_r), bounded in time."""
    child_env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), **(env or {}))
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=child_env, cwd=str(REPO))


def _run_child_file(path: str, args, timeout: float = 240, env: dict | None = None):
    """Run the script ``path`` (relative to the checkout) with ``args`` in a new Python."""
    child_env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), **(env or {}))
    return subprocess.run([sys.executable, str(REPO / path), *args], capture_output=True,
                          text=True, timeout=timeout, env=child_env, cwd=str(REPO))


def _refused(row) -> bool:
    try:
        check_prob_matrix(np.array([row]))
    except pc.ProbcalError as err:
        assert str(err) == "Each row of `p` must sum to `1`."
        return True
    return False


# --- item 5: the row-sum rule -------------------------------------------------------

def test_row_sum_check_equals_r_on_rows_an_ulp_from_the_tolerance():
    doc = json.loads(ROWSUM.read_text(encoding="utf-8"))
    assert (doc["r_version"], doc["probcal_version"]) == ("4.2.2", "0.1.0")
    rows = [[float.fromhex(v) for v in case["row"]] for case in doc["rows"]]
    assert rows == _rowsum_cases.cases()  # the stored cases are the generator's
    wrong = [row for row, case in zip(rows, doc["rows"]) if _refused(row) != case["refused"]]
    assert not wrong, f"{len(wrong)} of {len(rows)} rows judged otherwise than R"
    # Both directions are covered: rows a plain double sum would refuse and R
    # accepts, and the reverse.
    plain = [bool(abs(np.sum(r) - 1) > 1e-6) for r in rows]
    refused = [c["refused"] for c in doc["rows"]]
    assert sum(p and not r for p, r in zip(plain, refused)) >= 30
    assert sum(r and not p for p, r in zip(plain, refused)) >= 30


def test_row_sum_check_of_a_matrix_and_through_ece():
    doc = json.loads(ROWSUM.read_text(encoding="utf-8"))
    ok = [[float.fromhex(v) for v in c["row"]] for c in doc["rows"] if not c["refused"]]
    bad = [[float.fromhex(v) for v in c["row"]] for c in doc["rows"] if c["refused"]]
    for row in ok:  # accepted rows pass inside a many-row matrix too
        k = len(row)
        mat = np.vstack([row, np.full(k, 1 / k)] * k)
        pc.ece(mat, np.repeat(np.arange(1, k + 1), 2))
    for row in bad[:10]:
        k = len(row)
        with pytest.raises(pc.ProbcalError, match="must sum to"):
            pc.ece(np.vstack([np.full(k, 1 / k), row] * k), np.repeat(np.arange(1, k + 1), 2))


@pytest.mark.r_parity
def test_row_sum_rule_live_against_r(r):
    # probcal's expression, evaluated by R itself (R is always present).
    verdict = r.r("function(v, k) as.integer(any(abs(rowSums(matrix(v, nrow = 1, ncol = k)) - 1)"
                  " > 1e-6))")
    rows = _rowsum_cases.cases()
    wrong = [row for row in rows if bool(verdict(r.FloatVector(row), len(row))[0]) != _refused(row)]
    assert not wrong, f"{len(wrong)} of {len(rows)} rows judged otherwise than R"


@pytest.mark.r_parity
def test_row_sum_rule_live_against_probcal(probcal_r):
    check = probcal_r.r('function(v, k) tryCatch({probcal:::check_prob_matrix(matrix(v, nrow = 1, '
                        'ncol = k)); ""}, error = function(e) conditionMessage(e))')
    for row in _rowsum_cases.cases()[::4]:
        message = str(check(probcal_r.FloatVector(row), len(row))[0])
        assert _refused(row) == (message != ""), row


# --- item 1: masked arrays, xarray and polars containers ---------------------------

def _binary(n=30, seed=1):
    rng = pc.RRandom(seed)
    p = np.array(rng.runif(n))
    return p, np.array(rng.rbinom(n, 1, p))


def _error(fn):
    with pytest.raises(pc.ProbcalError) as info:
        fn()
    return str(info.value), getattr(info.value, "__notes__", [])


def test_masked_entries_are_r_na():
    p, y = _binary()
    mask = np.arange(p.size) == 3
    # R: ece(replace(p, 4, NA), y) and ece(p, replace(y, 4, NA))
    message, notes = _error(lambda: pc.ece(np.ma.masked_array(p, mask=mask), y))
    assert message == "Argument `p` must not contain missing values."
    assert any("masked array" in n and "getmaskarray" in n for n in notes)
    bad = y.copy()
    bad[3] = 7  # a masked invalid label is a missing label, not an invalid one
    message, notes = _error(lambda: pc.ece(p, np.ma.masked_array(bad, mask=mask)))
    assert message == "Argument `y` must not contain missing or infinite values."
    assert any("masked array" in n for n in notes)
    # the caller's masked arrays are untouched, and nothing masked is plain data
    assert pc.ece(np.ma.masked_array(p), np.ma.masked_array(y)) == pc.ece(p, y)


def test_masked_matrix_and_labels_are_r_na():
    p, _ = _binary()
    mat = np.column_stack([p, 1 - p])
    codes = np.tile([1, 2], 15)
    masked = np.ma.masked_array(mat, mask=np.zeros(mat.shape, bool))
    masked[2, 1] = np.ma.masked
    message, notes = _error(lambda: pc.ece(masked, codes))
    assert message == "Argument `p` must not contain missing or infinite values."
    assert notes and "masked array" in notes[0]
    message, _ = _error(lambda: pc.ece(mat, np.ma.masked_array(codes, mask=codes == 2)))
    assert message == "Argument `y` must not contain missing values."
    message, notes = _error(lambda: pc.cal_temperature(
        np.ma.masked_array(np.log(mat), mask=masked.mask), codes))
    assert message == "Argument `logits` must not contain missing or infinite values."
    assert "`logits` is a numpy masked array" in notes[0]
    assert masked.mask[2, 1] and not masked.mask[2, 0]


class _DataArray:
    """The parts of an xarray.DataArray numpy sees: ``__array__``, ``ndim``, ``shape``, dims."""

    def __init__(self, values):
        self.values = values
        self.dims = ("row", "class")
        self.shape, self.ndim = values.shape, values.ndim

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.values, dtype=dtype)


def test_a_2d_foreign_array_is_a_matrix():
    p, _ = _binary()
    mat = np.column_stack([p, 1 - p])
    codes = np.tile([1, 2], 15)
    assert pc.ece(_DataArray(mat), codes) == pc.ece(mat, codes)
    assert pc.mmce(_DataArray(mat), codes) == pc.mmce(mat, codes)


def test_a_real_xarray_data_array_is_a_matrix():
    xr = pytest.importorskip("xarray")
    p, _ = _binary()
    mat = np.column_stack([p, 1 - p])
    codes = np.tile([1, 2], 15)
    assert pc.ece(xr.DataArray(mat, dims=("row", "class")), codes) == pc.ece(mat, codes)


@pytest.mark.parametrize("kind", ["Categorical", "Enum"])
def test_a_polars_factor_names_the_conversion(kind):
    pl = pytest.importorskip("polars")
    p, _ = _binary()
    mat = np.column_stack([p, 1 - p])
    dtype = pl.Categorical if kind == "Categorical" else pl.Enum(["a", "b"])
    y = pl.Series(["a", "b"] * 15, dtype=dtype)
    message, notes = _error(lambda: pc.ece(mat, y))
    assert message == "Argument `y` must be a factor or a vector of integer class codes."
    assert len(notes) == 1 and f"polars {kind}" in notes[0] and "pd.Categorical(y.to_list()" in notes[0]
    message, notes = _error(lambda: pc.ece(p, y))
    assert message == "Argument `y` must contain binary labels `0` and `1`."
    assert len(notes) == 1 and "cast(pl.Int8)" in notes[0]
    # the conversion the note names gives the pandas Categorical's result
    import pandas as pd
    assert pc.ece(mat, pd.Categorical(y.to_list(), categories=["a", "b"])) == pc.ece(
        mat, np.tile([1, 2], 15))


# --- item 2: forks during a first call ----------------------------------------------

@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
@pytest.mark.parametrize("kind, delays", [
    # the compiled library's opening and its room modules' imports (a few ms)
    # and cal_platt's first fit on 200,000 rows (about 0.1 s)
    ("native", [0.001 * i for i in range(10)] + [0.01 + 0.01 * i for i in range(15)]),
    # pandas' import takes about 0.3-0.6 s
    ("pandas", [0.015 * i for i in range(25)]),
])
def test_fork_during_a_first_call_in_another_thread(kind, delays):
    out = _run_child_file("tests/suites/hostile/_fork_race.py", [kind, ",".join(f"{d:.3f}" for d in delays)], timeout=400)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["forks", "25", "bad", "0"], out.stderr[-2000:]


# --- item 3: Ctrl-C leaves the stream where R would --------------------------------

@pytest.mark.skipif(not hasattr(os, "kill") or sys.platform == "win32", reason="needs SIGINT")
@pytest.mark.parametrize("kind, delays", [
    ("rgamma", "0.05,0.15,0.3,0.6"),
    ("cal_test", "0.01,0.03,0.05,0.1,0.2,0.3"),
    ("cal_ci", "0.01,0.03,0.05,0.1,0.2,0.3"),
])
def test_ctrl_c_leaves_the_global_stream_at_a_call_boundary(kind, delays):
    out = _run_child_file("tests/suites/hostile/_interrupt_stream.py", [kind, delays], timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    words = out.stdout.split()
    counts = dict(zip(words[::2], map(int, words[1::2])))
    assert counts["elsewhere"] == 0, out.stdout
    assert counts["interrupted"] >= 1, out.stdout  # the test interrupted something


# --- item 4 (issue's 5): overlays of more than five models --------------------------

def test_overlay_of_six_models_gives_a_four_bin_model_its_legend_colour():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_hex

    p, y = _binary(200, seed=3)
    models = {f"m{i}": np.clip(p + 0.01 * i, 0, 1) for i in range(6)}
    # four non-empty bins: the RGBA tuple of 4 numbers used to be read as 4 values
    models["m2"] = np.repeat([0.05, 0.35, 0.65, 0.95], 50)
    models["m4"] = np.repeat([0.15, 0.45, 0.85], [70, 70, 60])  # three bins, RGB-like
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = pc.reliability_diagram(models, y)
    ax = fig.axes[0]
    legends = [lg for lg in [ax.get_legend(), *fig.legends] if lg is not None]
    legend_colour = {t.get_text(): to_hex(h.get_color()) for lg in legends
                     if lg.get_title().get_text() == "Model"
                     for t, h in zip(lg.get_texts(), lg.legend_handles)}
    points = {c.get_label(): {to_hex(f) for f in c.get_facecolors()}
              for c in ax.collections if c.get_label() in models}
    assert set(points) == set(models)
    for name in models:
        assert points[name] == {legend_colour[name]}, name
    import matplotlib.pyplot as plt
    plt.close(fig)


# --- item 8: leaked numpy / matplotlib warnings -------------------------------------

@pytest.mark.parametrize("native", ["0", "1"])
def test_linpack_qr_of_a_denormal_column_warns_nothing(native):
    # cal_ovr's glm fits reach LINPACK's dqrdc2 with a column whose norm is
    # denormal (1 / norm overflows): Fortran computes it silently. 40 rows:
    # with the C kernels on, the BLAS loops run in C (from _NATIVE_MIN rows).
    code = """
        import warnings
        import numpy as np
        from pycalib_r.rstats import _linpack
        warnings.simplefilter("error")
        assert _linpack._NATIVE_MIN <= 40
        for cols in ([np.ones(40), np.full(40, 1e-310) * np.arange(1, 41)],
                     [np.full(40, 1e-310) * np.arange(1, 41), np.ones(40)]):
            x = np.asfortranarray(np.column_stack(cols))
            _linpack._dqrdc2(x, 1e-11)
            _linpack._cdqrls(x, np.arange(40.0), 1e-11)
        print("quiet")
    """
    out = _run_child(code, env={"PYCALIB_R_NATIVE": native})
    assert out.returncode == 0 and out.stdout.strip() == "quiet", out.stderr[-2000:]


@pytest.mark.parametrize("figsize", [(0, 0), (4, 0), (-1, 3), (float("nan"), 4), (4,), "big"])
def test_a_figsize_of_nothing_is_a_clear_error(figsize):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    p, y = _binary(50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(pc.ProbcalError, match="`figsize` must be two finite positive numbers"):
            pc.reliability_diagram(p, y, figsize=figsize)


def test_a_figure_resized_to_nothing_draws_without_our_warnings():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    p, y = _binary(50)
    fig = pc.reliability_diagram(p, y, figsize=(5, 4))
    fig.set_size_inches(0, 0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fig.canvas.draw()
    ours = [w for w in seen if "pycalib_r" in (w.filename or "")]
    assert not ours, [str(w.message) for w in ours]


# --- item 9: R's unused-argument text for non-syntactic names ----------------------

# name -> R 4.2.2's conditionMessage() of f(1, <name> = 1) for f <- function(x) x
# (written by R itself: do.call(f, c(list(1), setNames(list(1), name))), C.UTF-8)
UNUSED_R_SAYS = {
    "a b": "unused argument (`a b` = 1)", "1a": "unused argument (`1a` = 1)",
    "if": "unused argument (`if` = 1)", "_a": "unused argument (`_a` = 1)",
    "a.b": "unused argument (a.b = 1)", ".a": "unused argument (.a = 1)",
    "..1": "unused argument (..1 = 1)", "...": "unused argument (... = 1)",
    "TRUE": "unused argument (`TRUE` = 1)", "a`b": "unused argument (`a\\`b` = 1)",
    "a\\b": "unused argument (`a\\\\b` = 1)", "é": "unused argument (é = 1)",
    ".2a": "unused argument (`.2a` = 1)", "NA_real_": "unused argument (`NA_real_` = 1)",
    'a"b': 'unused argument (`a"b` = 1)', "a\nb": "unused argument (`a\\nb` = 1)",
    "x1_": "unused argument (x1_ = 1)", "in": "unused argument (`in` = 1)",
}


def _unused_message(**kwargs):
    p, y = _binary(20)
    with pytest.raises(TypeError) as info:
        pc.cal_platt(p, y, **kwargs)
    assert isinstance(info.value, TypeError)
    return str(info.value)


def test_unused_argument_names_are_deparsed_as_r_does():
    for name, message in UNUSED_R_SAYS.items():
        assert _unused_message(**{name: 1}) == message, name
    assert _unused_message(**{"a b": 1, "ok": "x"}) == 'unused arguments (`a b` = 1, ok = "x")'


@pytest.mark.r_parity
def test_unused_argument_names_live_against_r(r):
    say = r.r("function(nm) { f <- function(x) x; tryCatch(do.call(f, c(list(1), "
              "setNames(list(1), nm))), error = function(e) conditionMessage(e)) }")
    for name in [*UNUSED_R_SAYS, "a\tb", "a\x01b", "repeat", "NULL", "a-b", "été"]:
        assert _unused_message(**{name: 1}) == str(say(name)[0]), repr(name)


# --- item 10: a bad rng= is a ProbcalError ------------------------------------------

@pytest.mark.parametrize("bad, hint", [
    (True, "A bool is not a seed"), (1.5, "rng=1"), ("x", "pycalib_r.RRandom(seed)"),
    (np.random.MT19937(1), "numpy.random.Generator(bit_generator)"),
    (np.random.RandomState(1), "default_rng"),
])
def test_a_bad_rng_is_a_probcal_error_with_the_fix(bad, hint):
    p, y = _binary(30)
    for call in (lambda: pc.cal_test(p, y, n_boot=9, rng=bad),
                 lambda: pc.cal_ci(p, y, n_boot=9, rng=bad),
                 lambda: pc.cal_cv(p, y, method="platt", rng=bad)):
        with pytest.raises(pc.ProbcalError) as info:
            call()
        assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
        assert str(info.value).startswith("`rng` must be None (the global R stream)")
        assert any(hint in n for n in info.value.__notes__)


# --- item 6: rcheck with a half-present R_HOME --------------------------------------

def _half_r_home(tmp_path: Path) -> Path:
    """R's tree with an empty library/base (bin/ and library/base/ are there)."""
    real = Path(subprocess.run(["R", "RHOME"], capture_output=True, text=True,
                               check=True).stdout.strip())
    half = tmp_path / "R"
    (half / "library" / "base").mkdir(parents=True)
    for entry in real.iterdir():
        if entry.name != "library":
            (half / entry.name).symlink_to(entry)
    for entry in (real / "library").iterdir():
        if entry.name != "base":
            (half / "library" / entry.name).symlink_to(entry)
    return half


def test_rcheck_with_a_half_present_r_home_raises_r_unavailable(tmp_path):
    pytest.importorskip("rpy2")
    half = _half_r_home(tmp_path)
    code = """
        import pycalib_r as pc
        from pycalib_r.rcheck import same_as_r, RUnavailable
        try:
            same_as_r(pc.ece, [0.2, 0.7], [0, 1])
        except RUnavailable as err:
            print("RUnavailable:", err)
        print("alive")
    """
    out = _run_child(code, env={"R_HOME": str(half)})
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[-1] == "alive"
    assert lines[0].startswith(f"RUnavailable: R could not start (R_HOME={half};")
    assert "unable to open the base package" in lines[0] and "R RHOME" in lines[0]


# --- item 7: R's allocation message for bins = 1e9 and n_boot = 1e9 -----------------

@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS limits the address space on Linux")
def test_huge_bins_and_n_boot_give_r_allocation_error_under_a_4gb_limit():
    code = """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
        import numpy as np
        import pycalib_r as pc
        p = np.linspace(0.01, 0.99, 200)
        y = np.arange(200) % 2
        calls = {"cal_histogram": lambda: pc.cal_histogram(p, y, bins=1e9),
                 "reliability_table": lambda: pc.reliability_table(p, y, bins=1e9),
                 "cal_test": lambda: pc.cal_test(p, y, n_boot=1e9, progress=False),
                 "cal_ci": lambda: pc.cal_ci(p, y, n_boot=1e9, progress=False),
                 "runif": lambda: pc.runif(1e10)}
        for name, call in calls.items():
            try:
                call()
                print(name, "no error")
            except pc.ProbcalError as err:
                assert isinstance(err, MemoryError)
                print(name, "|", err, "|", " ".join(getattr(err, "__notes__", [])))
            except BaseException as err:
                print(name, "|", type(err).__name__, err)
    """
    out = _run_child(code)
    assert out.returncode == 0, out.stderr[-2000:]
    got = {line.split(" |")[0]: line for line in out.stdout.splitlines()}
    for name in ("cal_histogram", "reliability_table", "cal_test", "cal_ci"):
        assert got[name].startswith(f"{name} | cannot allocate vector of size 7.5 Gb | "), got[name]
    assert "use fewer bins" in got["cal_histogram"]
    assert "use a smaller n_boot" in got["cal_ci"] and "res.bootstrap_distribution" in got["cal_ci"]
    assert got["runif"] == "runif | cannot allocate vector of size 74.5 Gb | "

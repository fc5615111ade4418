"""A Python user's first hour (issue 22, items 1 and 5-9; issue 21, item 4).

Each test is one of the first moves a new user made, and fails on the code
before the fix: probabilities given to the logit calibrators, ``seed=`` where
the stream is ``rng=``, an n x 2 matrix sent down the O(n^2) canonical route,
reliability diagrams in the user's own figure, the demo's calls, the claims
of the README, and DataFrame columns reordered after fit.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO


def _binary(n=400, seed=3):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.02, 0.98, size=n)
    return p, rng.binomial(1, p)


def _user_warnings(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if issubclass(w.category, UserWarning)]


# ---------------------------------------------------------------------------
# 1. temperature / vector scaling on probabilities


def test_temperature_on_binary_probabilities_warns_once_naming_logit():
    p, y = _binary()
    fit, caught = _user_warnings(lambda: pc.cal_temperature(p, y))
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "lies in [0, 1]" in message and "pc.logit(p)" in message
    assert caught[0].filename == __file__  # at the user's line
    # the numbers and R's print stay: the same fit as on the same values silently
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = pc.cal_temperature(p, y)
    assert fit.temperature == again.temperature and str(fit) == str(again)
    assert "logit" not in str(fit).split("Input:")[0]


@pytest.mark.parametrize("function", [pc.cal_temperature, pc.cal_vector_scaling])
def test_logit_matrix_calibrators_on_probabilities_name_log_and_logits_from_proba(function):
    p, y = _binary()
    P = np.column_stack([1 - p, p])
    _, caught = _user_warnings(lambda: function(P, y + 1))
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "np.log(P)" in message and "logits_from_proba" in message


def test_real_logits_and_cross_fitting_warn_at_most_once():
    p, y = _binary()
    _, caught = _user_warnings(lambda: pc.cal_temperature(pc.logit(p), y))
    assert caught == []
    # cal_cv fits the same probabilities in every fold: one warning for the call
    _, caught = _user_warnings(lambda: pc.cal_cv(p, y, method="temperature"))
    assert len(caught) == 1 and "There were" not in str(caught[0].message)


def test_logits_from_proba_is_the_named_helper():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import logits_from_proba

    P = np.array([[0.25, 0.75], [0.5, 0.5]])
    np.testing.assert_array_equal(logits_from_proba(P), np.log(P))


# ---------------------------------------------------------------------------
# 5. seed= where the stream is rng=


def test_seed_keyword_keeps_the_error_and_names_rng_and_set_seed():
    p, y = _binary(60)
    with pytest.raises(TypeError) as info:
        pc.cal_test(p, y, seed=0)
    assert str(info.value) == "cal_test() got an unexpected keyword argument 'seed'"
    [note] = info.value.__notes__
    assert "rng=0" in note and "set_seed(0)" in note


def test_random_state_in_cal_ci_keeps_rs_unused_argument_and_adds_the_note():
    p, y = _binary(60)
    with pytest.raises(pc.ProbcalError) as info:
        pc.cal_ci(p, y, random_state=0)
    assert str(info.value) == "unused argument (random_state = 0)"  # R's text
    assert any("rng=0" in n and "set_seed(0)" in n for n in info.value.__notes__)
    with pytest.raises(pc.ProbcalError) as other:
        pc.cal_ci(p, y, foo=1)
    assert not getattr(other.value, "__notes__", [])  # only seed-like names get the note


# ---------------------------------------------------------------------------
# 6. the quadratic route says so


def _first_user_warning(call):
    """The UserWarning ``call`` raises first; the work after it never starts."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        with pytest.raises(UserWarning) as info:
            call()
    return str(info.value)


def test_binary_as_n_by_2_matrix_warns_before_the_quadratic_work():
    p, y = _binary(100_000)
    P = np.column_stack([1 - p, p])
    message = _first_user_warning(lambda: pc.cal_test(P, y + 1))
    assert "100000 x 2" in message and "estimated" in message and "hours" in message
    assert "p[:, 1]" in message and 'method="asymptotic"' in message
    message = _first_user_warning(lambda: pc.skce(P, y + 1))
    assert "p[:, 1]" in message and 'estimator="ul"' in message
    message = _first_user_warning(lambda: pc.cal_ci(P, y + 1, metric="skce"))
    assert 'estimator="ul"' in message


def test_fast_routes_and_small_inputs_do_not_warn():
    p, y = _binary(3000)
    P = np.column_stack([1 - p, p])
    for call in (lambda: pc.cal_test(P, y + 1, method="asymptotic"),
                 lambda: pc.skce(P, y + 1, estimator="ul"),
                 lambda: pc.skce(p, y),
                 lambda: pc.skce(P[:300], y[:300] + 1),
                 lambda: pc.cal_ci(P, y + 1, metric="ece", n_boot=19)):
        _, caught = _user_warnings(call)
        assert not [w for w in caught if "canonical" in str(w.message)]


def test_estimated_time_grows_as_n_squared():
    from pycalib_r.kernel._quadratic import estimated_seconds

    one = estimated_seconds("cal_test", 10_000, 3, {})
    assert estimated_seconds("cal_test", 20_000, 3, {}) == pytest.approx(4 * one)
    assert estimated_seconds("cal_test", 10_000, 3, {"method": "asymptotic"}) == 0.0


def test_no_hint_offers_the_slow_route_for_a_binary_problem():
    p, y = _binary(50)
    P = np.column_stack([1 - p, p])
    for function in (pc.skce, pc.cal_test, pc.cal_ci):
        with pytest.raises(pc.ProbcalError) as info:
            function(P, y)
        notes = " ".join(info.value.__notes__)
        assert "p[:, 1]" in notes and "y + 1" not in notes, function.__name__


# ---------------------------------------------------------------------------
# 7. reliability diagrams in the user's figure


@pytest.fixture
def mpl():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    return matplotlib


def _boxes(fig, texts):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [(t, t.get_window_extent(renderer)) for t in texts if t.get_visible() and t.get_text()]


def test_header_does_not_collide_with_the_users_title(mpl):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    p, y = _binary(2000)
    fig = Figure(figsize=(4, 4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    pc.reliability_diagram(p, y, ax=ax)
    ax.set_title("GaussianNB raw")
    assert ax.get_title(loc="left") == "" and ax.get_title() == "GaussianNB raw"
    [header] = [a for a in ax.artists if a.get_gid() == "header"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    assert not header.get_window_extent(renderer).overlaps(ax.title.get_window_extent(renderer))
    assert "ECE = " in header.txt.get_text()


def test_equal_freq_legend_shows_whole_counts_and_alike_sizes(mpl):
    rng = np.random.default_rng(0)
    p = rng.uniform(size=10_000)
    y = rng.binomial(1, p)
    counts = pc.reliability_table(p, y, bins=3, strategy="equal_freq")["n"].tolist()
    assert sorted(counts) == [3333, 3333, 3334]
    fig = pc.reliability_diagram(p, y, bins=3, strategy="equal_freq")
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels and all(re.fullmatch(r"\d+", t) for t in labels), labels
    sizes = fig.axes[0].collections[0].get_sizes()
    assert sizes.max() / sizes.min() < 1.01  # 3,333 and 3,334 drawn alike


def test_small_figure_has_no_overlapping_labels(mpl):
    p, y = _binary(5000)
    fig = pc.reliability_diagram(p, y, figsize=(3, 3))
    ax = fig.axes[0]
    texts = ([ax.xaxis.label, ax.yaxis.label, fig._suptitle]
             + list(ax.get_xticklabels()) + list(ax.get_yticklabels())
             + [t for t in fig.texts if t.get_gid() == "subtitle"])
    boxes = _boxes(fig, texts)
    legend = fig.legends[0].get_window_extent(fig.canvas.get_renderer())
    for (a, box_a), (b, box_b) in combinations(boxes, 2):
        assert not box_a.overlaps(box_b), (a.get_text(), b.get_text())
    for text, box in boxes:
        assert not box.overlaps(legend), text.get_text()
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= fig.bbox.x1 and box.y1 <= fig.bbox.y1


def test_many_diagrams_without_pyplot_give_no_figure_warning(mpl):
    code = (
        "import sys, warnings\n"
        "import numpy as np\n"
        "import pycalib_r as pc\n"
        "warnings.simplefilter('error')\n"
        "rng = np.random.default_rng(0)\n"
        "p = rng.uniform(size=200); y = rng.binomial(1, p)\n"
        "for _ in range(25):\n"
        "    fig = pc.reliability_diagram(p, y)\n"
        "fig.savefig(__import__('io').BytesIO(), format='png')\n"
        "print('matplotlib.pyplot' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"},
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"


def test_multiclass_panels_are_titled_by_the_categories(mpl):
    # (This held before issue 22; kept so it keeps holding.)
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(3), 600)
    names = np.array(["setosa", "versicolor", "virginica"])
    y = pd.Categorical(names[rng.integers(0, 3, 600)], categories=list(names))
    fig = pc.reliability_diagram(P, y)
    assert [a.get_title() for a in fig.axes if a.get_gid() == "panel"] == list(names)


# ---------------------------------------------------------------------------
# 8. R's keyword-named arguments, and the demo


def test_r_names_that_are_python_keywords_work_through_double_star():
    pc.set_seed(42)
    a = pc.rpois(5, **{"lambda": 4})
    pc.set_seed(42)
    assert a.tolist() == pc.rpois(5, 4).tolist()
    rng = np.random.default_rng(2)
    P = rng.dirichlet(np.ones(3), 90)
    y = rng.integers(1, 4, 90)
    assert pc.cal_dirichlet(P, y, **{"lambda": 0.1}).lambda_ == 0.1
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import ProbcalCalibrator

    cal = ProbcalCalibrator(method="dirichlet", **{"lambda": 0.1}).fit(P, y)
    assert cal.get_params()["lambda_"] == 0.1 and cal.calibrator_.lambda_ == 0.1


def test_every_r_keyword_argument_has_its_python_name():
    import json
    import keyword

    from pycalib_r.rbase._rnames import PY_NAMES

    formals = json.loads((REPO / "reference" / "formals.json").read_text())["functions"]
    r_keywords = {a for f in formals.values() for a in f["formals"] if keyword.iskeyword(a)}
    # stats' exports ported here: rpois(n, lambda) is the only keyword among them
    assert r_keywords | {"lambda"} <= set(PY_NAMES)


def test_demo_prints_python_calls_that_run_as_shown():
    run = subprocess.run([sys.executable, "-m", "pycalib_r", "demo"], capture_output=True,
                         text=True, cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)},
                         check=True)
    out = run.stdout
    assert not re.search(r"(?m)^> ", out), "R's prompt in the demo"
    assert "clip(" not in out.replace("np.clip(", "")
    # the demo's text is a doctest: each call runs and prints what it shows
    text = "\n".join(line if line.strip() else "<BLANKLINE>" for line in out.splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, "demo", None, 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda s: None)
    assert runner.failures == 0


# ---------------------------------------------------------------------------
# 9. claims that hold


def test_readme_check_estimator_claim_names_the_excluded_checks():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import CalibratedClassifier, ProbcalCalibrator, expected_failed_checks

    readme = (REPO / "docs" / "guide" / "sklearn.md").read_text(encoding="utf-8")
    assert "Both classes pass\n`check_estimator`;" not in readme
    for est in (ProbcalCalibrator(), CalibratedClassifier()):
        for name in expected_failed_checks(est):
            assert f"`{name}`" in readme, name
    assert "expected_failed_checks" in readme


def test_rcheck_cites_what_the_package_ships():
    import pycalib_r.rcheck as rcheck

    source = (REPO / "pycalib_r" / "rcheck" / "_parity.py").read_text(encoding="utf-8")
    assert "reference/manifest.toml" not in source
    assert "pycalib_r.rcheck.TOLERANCE" in source and rcheck.TOLERANCE


# ---------------------------------------------------------------------------
# issue 21, item 4: DataFrame columns and labels in ProbcalCalibrator


def test_calibrator_refuses_reordered_or_renamed_columns():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import ProbcalCalibrator

    rng = np.random.default_rng(5)
    Z = rng.normal(size=(300, 3))
    y = np.argmax(Z + rng.normal(size=(300, 3)), axis=1)
    frame = pd.DataFrame(Z, columns=["a", "b", "c"])
    cal = ProbcalCalibrator(method="temperature").fit(frame, y)
    assert cal.feature_names_in_.tolist() == ["a", "b", "c"] and cal.n_features_in_ == 3
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        np.testing.assert_array_equal(cal.predict_proba(frame), cal.predict_proba(Z))
    with pytest.raises(ValueError, match="same order"):
        cal.predict_proba(frame[["c", "b", "a"]])
    with pytest.raises(ValueError, match="unseen at fit time"):
        cal.predict_proba(frame.rename(columns={"a": "x"}))


def test_mixed_int_and_str_labels_get_a_clear_error():
    pytest.importorskip("sklearn")
    from pycalib_r.sklearn import CalibratedClassifier, ProbcalCalibrator

    p, _ = _binary(100)
    labels = pd.Series([1, "a"] * 50)
    with pytest.raises(ValueError, match="mixes string labels with labels of type int"):
        ProbcalCalibrator().fit(p, labels)
    with pytest.raises(ValueError, match="mixes string labels"):
        CalibratedClassifier().fit(np.column_stack([p, p]), labels)

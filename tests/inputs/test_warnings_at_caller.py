"""Warnings as Python users expect (issue 22, item 4).

* Under Python's ``"default"`` filter a warning raised from the same user
  line shows once, as numpy's own warnings do.
* It points at the user's line whatever the route: an exported function,
  ``pycalib_r.sklearn``, ``set_seed(..., sample_kind="Rounding")``, a stream
  method.
* A call's warnings are R's list (every occurrence, in R's order) up to 10;
  R's count line appears where R prints one (more than 10 warnings in a
  call; tests/inputs/test_python_face.py checks R's count), issue 31.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pycalib_r as pc
from pycalib_r._rng import RRandom

XS = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.7, 0.2, 0.1],
               [0.3, 0.6, 0.1], [0.1, 0.1, 0.8], [0.05, 0.05, 0.9]])
YS = np.array([1, 2, 3, 1, 2, 3, 3])
GLM_WARNING = "glm.fit: fitted probabilities numerically 0 or 1 occurred"
ROUNDING = "non-uniform 'Rounding' sampler used"


def _shown(fn, action="default"):
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter(action)
        fn()
    return rec


def test_a_warning_from_one_line_in_a_loop_shows_once_under_the_default_filter():
    def loop():
        for _ in range(5):
            pc.cal_beta(XS[:, 0], (YS == 1).astype(int))

    def numpy_loop():
        for _ in range(5):
            np.log(np.zeros(1))

    glm = [w for w in _shown(loop) if str(w.message) == GLM_WARNING]
    assert len(glm) == len([w for w in _shown(numpy_loop)]) == 1
    assert glm[0].filename == __file__
    assert len([w for w in _shown(loop, "always") if str(w.message) == GLM_WARNING]) == 5


def test_through_the_sklearn_face_it_points_at_the_users_line():
    from pycalib_r.sklearn import ProbcalCalibrator

    rec = _shown(lambda: ProbcalCalibrator(method="beta").fit(XS[:, 0], (YS == 1).astype(int)), "always")
    glm = [w for w in rec if str(w.message) == GLM_WARNING]
    assert glm and all(w.filename == __file__ for w in glm)


@pytest.mark.parametrize("call", [
    lambda: pc.set_seed(1, sample_kind="Rounding"),
    lambda: RRandom(1, sample_kind="Rounding"),
    lambda: RRandom(1).set_seed(2, sample_kind="Rounding"),
    lambda: pc.rng_kind(sample_kind="Rounding"),
], ids=["set_seed", "RRandom", "RRandom.set_seed", "rng_kind"])
def test_rounding_warns_at_the_users_line(call):
    try:
        rec = _shown(call, "always")
    finally:
        pc.set_seed(1, kind="default", normal_kind="default", sample_kind="default")
    (w,) = [w for w in rec if str(w.message) == ROUNDING]
    assert w.filename == __file__ and w.category is RuntimeWarning


@pytest.mark.parametrize("call", [
    lambda: pc.runif(2, 1, 0),
    lambda: RRandom(1).runif(2, 1, 0),
    lambda: RRandom(1).rgamma(2, -1.0),
], ids=["runif", "RRandom.runif", "RRandom.rgamma"])
def test_stream_warnings_point_at_the_users_line(call):
    (w,) = _shown(call, "always")
    assert str(w.message) == "NAs produced" and w.filename == __file__


def test_a_warning_filter_by_module_sees_the_users_module():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", module=__name__.replace(".", r"\."))
        pc.cal_beta(XS[:, 0], (YS == 1).astype(int))
    assert not [w for w in rec if str(w.message) == GLM_WARNING]


def test_error_filter_raises_the_warning_at_the_call():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(RuntimeWarning, match="NAs produced"):
            pc.runif(2, 1, 0)


def test_a_warning_from_python_dash_c_code_is_shown():
    # `python -c` code has no source file and a loader that has none either.
    import os
    import subprocess
    import sys

    from tests.conftest import ORIGINAL_ENV, REPO

    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", "import pycalib_r as pc; pc.runif(2, 1, 0)"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr.strip() == "<string>:1: RuntimeWarning: NAs produced"


# -- issue 31: R's list up to 10 warnings, in R's order; R's count line beyond ----------

def _report(texts, nested=False):
    """What a call reports for warnings raised in the order ``texts``."""
    from pycalib_r.rbase import _warn

    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        with _warn.collect() as outer:
            if nested:  # an inner call's warnings join the outer call's, in order
                with _warn.collect() as inner:
                    for t in texts[: len(texts) // 2]:
                        _warn.warn(t, RuntimeWarning)
                _warn.flush(inner)
                texts = texts[len(texts) // 2:]
            for t in texts:
                _warn.warn(t, RuntimeWarning)
        _warn.flush(outer)
    return [str(w.message) for w in rec]


@pytest.mark.parametrize("nested", [False, True])
def test_up_to_10_warnings_are_rs_list_in_rs_order(nested):
    texts = [ROUNDING, GLM_WARNING, "b", GLM_WARNING, "b", GLM_WARNING]
    assert _report(texts, nested) == texts
    ten = [GLM_WARNING, "b"] * 5
    assert _report(ten, nested) == ten


@pytest.mark.parametrize("nested", [False, True])
def test_beyond_10_each_distinct_text_once_with_rs_count_line(nested):
    texts = [ROUNDING] + [GLM_WARNING, "b"] * 5
    line = "There were 11 warnings (each distinct one reported once)"
    assert _report(texts, nested) == [f"{t}\n{line}" for t in (ROUNDING, GLM_WARNING, "b")]
    many = [GLM_WARNING] * 60
    assert _report(many, nested) == [
        f"{GLM_WARNING}\nThere were 50 or more warnings (each distinct one reported once)"]


def test_the_kept_list_is_bounded_and_discard_keeps_rs_order():
    from pycalib_r.rbase import _warn

    c = _warn.Collector()
    for i in range(10_000):
        c.add(RuntimeWarning, GLM_WARNING if i % 2 else "b")
    assert len(c.seq) == 11 and c.total == 10_000  # memory bounded
    c = _warn.Collector()
    for t in ["a", ROUNDING, "b", "a"]:
        c.add(RuntimeWarning, t)
    c.discard(RuntimeWarning, ROUNDING)
    assert [t for _, t in c.reported()] == ["a", "b", "a"] and c.total == 3
    c = _warn.Collector()
    for t in [ROUNDING] * 9 + ["a", "b", "a"]:
        c.add(RuntimeWarning, t)
    c.discard(RuntimeWarning, ROUNDING)  # 12 -> 3: rebuilt from the counts
    assert sorted(t for _, t in c.reported()) == ["a", "a", "b"] and c.total == 3

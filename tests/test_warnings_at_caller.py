"""Warnings as Python users expect (issue 22, item 4).

* Under Python's ``"default"`` filter a warning raised from the same user
  line shows once, as numpy's own warnings do.
* It points at the user's line whatever the route: an exported function,
  ``pycalib_r.sklearn``, ``set_seed(..., sample_kind="Rounding")``, a stream
  method.
* R's count line appears where R prints one (more than 10 warnings in a
  call; tests/test_python_face.py checks R's count).
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

    from .conftest import ORIGINAL_ENV, REPO

    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", "import pycalib_r as pc; pc.runif(2, 1, 0)"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr.strip() == "<string>:1: RuntimeWarning: NAs produced"

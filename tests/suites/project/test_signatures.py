"""Every export's arguments and defaults are R's (``reference/formals.json``).

``tools/make_formals.R`` records ``formals()`` of each probcal 0.1.0 export
and of the 0.2.0 functions in ``pycalib_r/r/contract.R``. Here the Python
signatures are held to it: the same arguments in R's order, R's defaults (a
choice vector may be the vector itself or its first element, the default
that ``match.arg()`` picks), Python-only arguments (``rng``, ``progress``,
``data_name``) only after R's. The ``r_parity`` test re-reads ``formals()``
from R so the stored file cannot drift from R.

Exported functions with no R counterpart are listed in ``PYTHON_ONLY`` with
the R functions whose argument names they follow: they must not appear in
R's formals (if probcal gains one, its formals rule), and their leading
arguments are those relatives' names and order.
"""

from __future__ import annotations

import inspect
import json
import math
import subprocess

import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO

STORED = REPO / "reference" / "formals.json"
FORMALS = json.loads(STORED.read_text(encoding="utf-8"))["functions"]
# Python-only exports (no probcal function): name -> (why, the R arguments it
# leads with, from which R functions).
PYTHON_ONLY = {
    "ece_ci": ("Sun et al.'s (2024) interval for the squared l2 ECE; probcal has none",
               ("p", "y", "bins", "conf_level"), ("ece", "cal_ci")),
    "calibration_error": ("Kumar, Liang & Ma's (2019) l_p calibration error; probcal has ece only",
                          ("p", "y"), ("ece",)),
    "brier_score": ("the Brier score and its decomposition; probcal has none", ("p", "y"), ("ece",)),
    "cal_scaling_binning": ("Kumar, Liang & Ma's (2019) scaling-binning calibrator",
                            ("p", "y", "bins"), ("cal_histogram",)),
    "cal_venn_abers": ("Vovk, Petej & Fedorova's (2015) inductive and cross Venn-ABERS calibrator",
                       ("p", "y"), ("cal_isotonic",)),
}
# R argument names that are Python keywords.
PY_NAME = {"lambda": "lambda_"}


def _same_default(py, r_value) -> bool:
    if r_value is None:
        return py is None
    if len(r_value) > 1:  # a choice vector
        return py == r_value[0] or (isinstance(py, (tuple, list)) and list(py) == r_value)
    (value,) = r_value
    if isinstance(value, bool) or isinstance(py, bool):
        return type(py) is bool and py is value
    if isinstance(value, str):
        return py == value
    return isinstance(py, (int, float)) and math.isclose(py, value, rel_tol=0, abs_tol=0)


@pytest.mark.parametrize("name", sorted(FORMALS))
def test_signature_is_rs(name):
    formals = FORMALS[name]["formals"]
    params = list(inspect.signature(getattr(pc, name)).parameters.values())
    r_args = [a for a in formals if a != "..."]
    py_args = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    assert [p.name for p in py_args[:len(r_args)]] == [PY_NAME.get(a, a) for a in r_args], name
    for arg, p in zip(r_args, py_args, strict=False):
        spec = formals[arg]
        if spec["kind"] == "required":
            assert p.default is inspect.Parameter.empty, (name, arg)
        else:
            assert spec["kind"] == "value", (name, arg, spec)
            assert _same_default(p.default, spec["value"]), (name, arg, p.default, spec["value"])
    # R's `...` is either passed on (**kwargs) or, where R ignores it, refused;
    # **kwargs without `...` only to take an argument by its R name (`lambda`).
    has_dots = "..." in formals or any(a in PY_NAME for a in r_args)
    has_kwargs = any(p.kind is p.VAR_KEYWORD for p in params)
    assert has_kwargs <= has_dots, f"{name} takes **kwargs that R's formals have no `...` for"


@pytest.mark.parametrize("name", sorted(PYTHON_ONLY))
def test_python_only_exports_follow_their_r_relatives(name):
    _, leading, relatives = PYTHON_ONLY[name]
    assert name in pc.__all__ and name not in FORMALS, name
    params = list(inspect.signature(getattr(pc, name)).parameters)
    assert params[:len(leading)] == list(leading), (name, params)
    for arg in leading:
        assert any(arg in FORMALS[r]["formals"] for r in relatives), (name, arg)


def test_every_export_with_r_formals_is_checked():
    assert set(FORMALS) <= set(pc.__all__)
    assert {"ece", "cal_test", "cal_ci", "skce", "cal_cv"} <= set(FORMALS)


@pytest.mark.r_parity
def test_stored_formals_are_rs(probcal_r, tmp_path):
    out = tmp_path / "formals.json"
    run = subprocess.run(["Rscript", str(REPO / "tools" / "make_formals.R"), str(out)],
                         cwd=REPO, capture_output=True, text=True, env=ORIGINAL_ENV, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["functions"] == FORMALS

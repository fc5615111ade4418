"""The command line: ``pycalib-r demo | test | ci`` (run as ``python -m pycalib_r``)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV


def _run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *args], capture_output=True,
                          text=True, input=stdin, check=False, env=ORIGINAL_ENV)


def test_demo_prints_the_help_examples(help_examples):
    out = _run("demo")
    assert out.returncode == 0, out.stderr
    for example in help_examples:
        assert example["output"] in out.stdout


@pytest.fixture()
def binary_csv(tmp_path):
    pc.set_seed(5)
    p = pc.runif(120)
    y = pc.rbinom(120, 1, p)
    path = tmp_path / "preds.csv"
    pd.DataFrame({"prob": p, "label": y}).to_csv(path, index=False, float_format="%.17g")
    return path, p, y


def test_cli_test_prints_what_the_function_prints(binary_csv):
    path, p, y = binary_csv
    out = _run("test", str(path), "--p", "prob", "--y", "label", "--seed", "9", "--n-boot", "99")
    assert out.returncode == 0, out.stderr
    pc.set_seed(9)
    expected = pc.cal_test(p, y, n_boot=99, data_name="prob and label")
    assert out.stdout == str(expected) + "\n"
    assert out.stderr == ""  # no progress bar when stderr is not a terminal


def test_cli_ci_json(binary_csv):
    path, p, y = binary_csv
    out = _run("ci", str(path), "--p", "prob", "--y", "label", "--seed", "3", "--n-boot", "49",
               "--metric", "mce", "--bins", "5", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    pc.set_seed(3)
    expected = pc.cal_ci(p, y, metric="mce", n_boot=49, bins=5)
    assert got["estimate"] == expected.estimate
    assert got["lower"] == expected.lower and got["upper"] == expected.upper
    assert got["metric"] == expected.metric


def test_cli_multiclass_with_class_names(tmp_path):
    rng = np.random.default_rng(2)
    raw = rng.gamma(1.0, size=(60, 3))
    p = raw / raw.sum(axis=1, keepdims=True)
    labels = np.array(["a", "b", "c"])[rng.integers(0, 3, size=60)]
    path = tmp_path / "mc.csv"
    pd.DataFrame({"a": p[:, 0], "b": p[:, 1], "c": p[:, 2], "cls": labels}).to_csv(
        path, index=False, float_format="%.17g")
    out = _run("test", str(path), "--p", "a", "b", "c", "--y", "cls", "--method", "asymptotic",
               "--bandwidth", "median", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    frame = pd.read_csv(path)
    expected = pc.cal_test(frame[["a", "b", "c"]].to_numpy(),
                           pd.Categorical(frame["cls"], categories=["a", "b", "c"]),
                           method="asymptotic", bandwidth="median")
    assert got["p_value"] == expected.p_value


def test_cli_reports_bad_input_with_r_message(tmp_path):
    path = tmp_path / "bad.csv"
    pd.DataFrame({"prob": [0.2, 1.5], "label": [0, 1]}).to_csv(path, index=False)
    out = _run("ci", str(path), "--p", "prob", "--y", "label")
    assert out.returncode == 2
    assert "Argument `p` must contain probabilities in `[0, 1]`." in out.stderr


def test_cli_missing_column(binary_csv):
    path, _, _ = binary_csv
    out = _run("test", str(path), "--p", "nope", "--y", "label")
    assert out.returncode != 0
    assert "nope" in out.stderr

"""The command line's inputs and options (issue 45 items 6, 10, 16; issue 46
items 14, 20, 21, 22).

``validate`` on malformed inputs is one error line, never a traceback; a
column named twice in ``--p`` is refused; integer options beyond R's integer
range name the option; ``--pos-label`` reads two labels of any kind as 0/1
(scikit-learn's ``pos_label``) in every subcommand that reads labels;
``test --method block`` is the library's block test; a read-only output is
kept unless ``--force``; R's wrapped messages are one line.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO
from tests.cli.test_cli_faults import _one_error_line

# This tree's pycalib_r in the children, whatever their working folder.
ENV = dict(ORIGINAL_ENV, PYTHONPATH=os.pathsep.join(
    [str(REPO)] + [p for p in [ORIGINAL_ENV.get("PYTHONPATH")] if p]))

TIMEOUT = 180


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, text=True, check=False, env=ENV,
                          cwd=cwd, timeout=TIMEOUT)


def _ok(out):
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return out


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inputs")
    g = np.random.default_rng(45)
    n = 150
    p = g.uniform(size=n)
    y = (g.uniform(size=n) < p).astype(int)
    P = g.dirichlet([1, 1, 1], n)
    frame = pd.DataFrame({"prob": p, "label": y, "site": np.where(np.arange(n) % 2, "a", "b"),
                          "a": P[:, 0], "b": P[:, 1], "c": P[:, 2],
                          "cls": g.integers(1, 4, n), "three": g.integers(0, 3, n)})
    frame.to_csv(folder / "d.csv", index=False, float_format="%.17g")
    # the same data with the labels as text, under the same column name
    words = frame.assign(label=np.where(y == 1, "yes", "no"))
    words.to_csv(folder / "words.csv", index=False, float_format="%.17g")
    # and as 1/2 codes, 2 the positive class
    codes = frame.assign(label=y + 1)
    codes.to_csv(folder / "codes.csv", index=False, float_format="%.17g")
    return folder, frame


# --- validate: malformed inputs (issue 45 item 6, issue 46 item 21) ------------------


def test_validate_several_p_columns_is_the_cores_error(data):
    """``--p a,b,c``: the core's own check answers (its message, one line),
    with the command's hint; the command has no copy of that check."""
    from pycalib_r.diagnostics._validation import validate_report

    folder, frame = data
    P = frame[["a", "b", "c"]].to_numpy()
    with pytest.raises(pc.ProbcalError) as info:
        validate_report(P, frame["cls"].to_numpy(), profile=False)
    core = info.value
    out = _run("validate", folder / "d.csv", "--p", "a,b,c", "--y", "cls", "--no-profile")
    line = _one_error_line(out)
    assert line == "pycalib-r: error: " + " ".join(str(core).split())
    assert "pycalib-r: hint: validate takes one --p column" in out.stderr
    assert "[:, " not in out.stderr  # the library's Python hint is the command's here


def test_validate_several_p_columns_hint_names_options():
    """Whatever the core's message for a matrix, validate's hint is in the
    command's terms (no Python code), after the core's other notes."""
    import argparse

    from pycalib_r.cli._faults import cli_hints

    exc = pc.ProbcalError("Argument `y` must contain binary labels `0` and `1`.")
    exc.add_note("give the positive class's column, P[:, 1]")
    exc.add_note("the statistics are binary")
    args = argparse.Namespace(command="validate", p=["a", "b", "c"], y="cls")
    assert cli_hints(exc, args) == [
        "the statistics are binary",
        "validate takes one --p column, the positive class's probability, with 0/1 labels (or "
        "--pos-label LABEL): e.g. --p c"]


@pytest.mark.parametrize("command", ["validate", "metrics", "test", "ece-ci"])
def test_a_column_named_twice_is_refused(data, command):
    folder, _ = data
    out = _run(command, folder / "d.csv", "--p", "prob,prob", "--y", "label")
    _one_error_line(out, "argument --p: the column 'prob' is named twice")
    out = _run(command, "--p", "a", "b", "a", folder / "d.csv", "--y", "cls")
    _one_error_line(out, "argument --p: the column 'a' is named twice")


def _write(folder, name, text):
    path = folder / name
    path.write_text(text)
    return path


# Malformed validate inputs, each one error line (exit 2), never a traceback.
_VALIDATE_CASES = {
    "empty file": ("", []),
    "header only": ("prob,label\n", []),
    "one row": ("prob,label\n0.3,1\n", []),
    "NaN p": ("prob,label\n0.3,1\nnan,0\n0.5,1\n", []),
    "text labels": ("prob,label\n0.3,x\n0.6,y\n0.5,x\n", []),
    "labels 0/1/2": ("prob,label\n0.3,0\n0.6,2\n0.5,1\n0.2,0\n", []),
    "constant p": ("prob,label\n" + "0.5,1\n0.5,0\n" * 10, []),
    "p outside [0, 1]": ("prob,label\n" + "1.5,1\n-0.5,0\n" * 10, []),
    "missing column": ("prob,lab\n0.3,1\n0.6,0\n", []),
    "g = 1": (None, ["--g", "1"]),
    "g beyond R's integers": (None, ["--g", str(2**31)]),
    "g-group 2^63": (None, ["--group", "prob", "--g-group", str(2**63)]),
    "g-group 0": (None, ["--group", "prob", "--g-group", "0"]),
    "weights without group": (None, ["--weights", "prob"]),
    "conf-level 2": (None, ["--conf-level", "2"]),
}


@pytest.mark.parametrize("case", list(_VALIDATE_CASES))
def test_validate_malformed_inputs_are_one_error_line(tmp_path, data, case):
    text, extra = _VALIDATE_CASES[case]
    path = data[0] / "d.csv" if text is None else _write(tmp_path, "v.csv", text)
    out = _run("validate", path, "--p", "prob", "--y", "label", "--no-profile", *extra)
    _one_error_line(out)


# --- integer options beyond R's integer range (issue 46 item 14) ---------------------


_INTEGER_OPTIONS = [
    ("metrics", "--bins", []), ("ci", "--bins", []), ("ci", "--n-boot", []),
    ("test", "--n-boot", []), ("test", "--seed", []), ("ece-ci", "--bins", []),
    ("ece-ci", "--top-k", []), ("validate", "--g", []), ("validate", "--g-group", []),
    ("diagram", "--bins", ["-o", "fig.png"]), ("test", "--blocksize", ["--method", "block"]),
]


@pytest.mark.parametrize("command,option,extra", _INTEGER_OPTIONS)
@pytest.mark.parametrize("value", [10**12, -(10**12), 2**31])
def test_integer_options_beyond_rs_range_name_the_option(data, tmp_path, command, option,
                                                         extra, value):
    folder, _ = data
    out = _run(command, folder / "d.csv", "--p", "prob", "--y", "label", option, value, *extra,
               cwd=tmp_path)
    _one_error_line(out, f"argument {option}: ", "R's integer range")


@pytest.mark.parametrize("option", ["--bins", "--folds", "--seed"])
def test_calibrate_integer_options_name_the_option(data, tmp_path, option):
    folder, _ = data
    method = {"--bins": "histogram", "--folds": "cv", "--seed": "cv"}[option]
    out = _run("calibrate", "--method", method, "--fit", folder / "d.csv", "--apply",
               folder / "d.csv", "-o", tmp_path / "o.csv", "--p", "prob", "--y", "label",
               option, 10**12)
    _one_error_line(out, f"argument {option}: ", "R's integer range")


def test_largest_r_integer_is_accepted(data):
    folder, _ = data
    out = _run("test", folder / "d.csv", "--p", "prob", "--y", "label", "--method", "asym",
               "--seed", 2**31 - 1)
    _ok(out)


# --- --pos-label (issue 45 item 10) --------------------------------------------------


def test_text_labels_get_a_hint(data):
    folder, _ = data
    out = _run("metrics", folder / "words.csv", "--p", "prob", "--y", "label")
    _one_error_line(out, "'no' is not a number")
    assert "pycalib-r: hint: --y label holds the text labels 'no' and 'yes'" in out.stderr
    assert "--pos-label yes" in out.stderr


def _label_commands(folder, tmp_path):
    data = ["--p", "prob", "--y", "label"]
    return {
        "metrics": ["metrics", "{f}", *data, "--json"],
        "test": ["test", "{f}", *data, "--n-boot", "19", "--seed", "3"],
        "ci": ["ci", "{f}", *data, "--n-boot", "19", "--seed", "3"],
        "ece-ci": ["ece-ci", "{f}", *data],
        "validate": ["validate", "{f}", *data, "--no-profile", "--group", "site"],
        "calibrate": ["calibrate", "--method", "platt", "--fit", "{f}", "--apply",
                      str(folder / "d.csv"), "-o", str(tmp_path / "out.csv"), *data],
        "diagram": ["diagram", "{f}", *data, "-o", str(tmp_path / "fig.svg")],
    }


@pytest.mark.parametrize("command", ["metrics", "test", "ci", "ece-ci", "validate", "calibrate",
                                     "diagram"])
@pytest.mark.parametrize("labels,positive", [("words.csv", "yes"), ("codes.csv", "2")])
def test_pos_label_reads_two_labels_as_0_and_1(data, tmp_path, command, labels, positive):
    """The same output as the 0/1 labels, for no/yes (positive yes) and 1/2
    (positive 2), in every subcommand that reads labels."""
    folder, _ = data
    args = _label_commands(folder, tmp_path)[command]
    want = _ok(_run(*[str(folder / "d.csv") if a == "{f}" else a for a in args]))
    want_file = (tmp_path / "out.csv").read_bytes() if command == "calibrate" else None
    got = _ok(_run(*[str(folder / labels) if a == "{f}" else a for a in args],
                   "--pos-label", positive))
    assert got.stdout == want.stdout
    if want_file is not None:
        assert (tmp_path / "out.csv").read_bytes() == want_file


def test_pos_label_the_other_way_round(data):
    """--pos-label no: the probabilities are those of 'no'; 1 - y of the 0/1 labels."""
    folder, frame = data
    out = _ok(_run("metrics", folder / "words.csv", "--p", "prob", "--y", "label", "--pos-label",
                   "no", "--json"))
    p, y = frame["prob"].to_numpy(), frame["label"].to_numpy()
    assert json.loads(out.stdout)["metrics"]["ece"] == pc.ece(p, 1 - y)


def test_pos_label_refusals(data):
    folder, _ = data
    base = ["metrics", folder / "words.csv", "--p", "prob"]
    _one_error_line(_run(*base, "--y", "label", "--pos-label", "maybe"),
                    "--pos-label 'maybe' is not one of its labels ('no', 'yes')")
    _one_error_line(_run(*base, "--y", "three", "--pos-label", "1"),
                    "--pos-label is for two labels, and the column holds 3")
    _one_error_line(_run("metrics", folder / "d.csv", "--p", "a,b,c", "--y", "cls",
                         "--pos-label", "1"), "argument --pos-label: for a binary model")


# --- test --method block (issue 45 item 16) ------------------------------------------


def test_method_block_is_the_librarys_block_test(data):
    folder, frame = data
    p, y = frame["prob"].to_numpy(), frame["label"].to_numpy()
    args = ["test", folder / "d.csv", "--p", "prob", "--y", "label", "--method", "block"]
    out = _ok(_run(*args))
    want = pc.cal_test(p, y, method="block", data_name="prob and label", progress=False)
    assert out.stdout == str(want) + "\n"
    out = _ok(_run(*args, "--blocksize", "5", "--shuffle", "--seed", "7", "--json"))
    pc.set_seed(7)
    want = pc.cal_test(p, y, method="block", blocksize=5, shuffle=True,
                       data_name="prob and label", progress=False)
    assert json.loads(out.stdout) == json.loads(json.dumps(want.to_dict()))
    # the core's check of the block size, naming the option
    _one_error_line(_run(*args, "--blocksize", "100"), "needs at least two blocks")
    _one_error_line(_run(*args, "--blocksize", "1"), "argument --blocksize: ")
    _one_error_line(_run(*args[:-2], "--blocksize", "5"),
                    "argument --blocksize: only with --method block")


def test_library_advice_is_given_as_options(data):
    """The library's long-run warning recommends method="block": the command says --method block."""
    from pycalib_r.cli._faults import _PY_ARGUMENT

    text = 'Faster: method="block" (...); type="confidence"; p[:, 1]'
    assert _PY_ARGUMENT.sub(lambda m: f"--{m.group(1)} {m.group(2)}", text) == \
        'Faster: --method block (...); --type confidence; p[:, 1]'


# --- a read-only output is kept (issue 46 item 20) -----------------------------------


@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_read_only_output_is_kept_unless_force(data, tmp_path, command):
    folder, _ = data
    target = tmp_path / ("out.csv" if command == "calibrate" else "fig.svg")
    target.write_text("the owner's file\n")
    target.chmod(0o444)
    if command == "calibrate":
        args = ["calibrate", "--method", "platt", "--fit", folder / "d.csv", "--apply",
                folder / "d.csv", "-o", target, "--p", "prob", "--y", "label"]
    else:
        args = ["diagram", folder / "d.csv", "--p", "prob", "--y", "label", "-o", target]
    _one_error_line(_run(*args), "is read-only (mode 0444)", "--force")
    assert target.read_text() == "the owner's file\n"
    assert sorted(os.listdir(tmp_path)) == [target.name]  # no temporary file left
    _ok(_run(*args, "--force"))
    assert target.read_text() != "the owner's file\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444  # the owner's mode stays


# --- R's wrapped messages are one line (issue 46 item 22) ----------------------------


def test_a_wrapped_message_is_one_line(data):
    folder, frame = data
    out = _run("ece-ci", folder / "d.csv", "--p", "a,b,c", "--y", "cls", "--type", "topk",
               "--top-k", "0")
    line = _one_error_line(out)
    with pytest.raises(pc.ProbcalError) as exc:
        pc.ece_ci(frame[["a", "b", "c"]].to_numpy(), frame["cls"].to_numpy(), type="topk", top_k=0)
    assert "\n" in str(exc.value)  # the library keeps R's wrapped message
    assert line == "pycalib-r: error: argument --top-k: " + " ".join(
        str(exc.value).split("`top_k` ", 1)[1].split())
    assert out.stderr.count("\n") == 1

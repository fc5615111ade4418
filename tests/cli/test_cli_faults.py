"""The command line's faults (issue 21 item 5, issue 22 items 2-3).

Every output and resource error is one line, ``pycalib-r: error: ...``, with
exit status 2 and no traceback; no message shows a file's content. Labels
are read as they come (True/False, numbers naming the --p columns), and the
JSON of ``test``/``ci`` has the result's ``to_dict()`` keys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r import cli as _command
from tests.conftest import ORIGINAL_ENV

SECRET = "TOPSECRET-7f3a"


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, text=True, check=False, env=ORIGINAL_ENV, cwd=cwd)


def _one_error_line(out, *expected):
    """Exit 2, no traceback, and exactly one ``pycalib-r: error:`` line (any
    other line is a ``pycalib-r:`` warning or hint), containing ``expected``."""
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    errors = [line for line in lines if line.startswith("pycalib-r: error: ")]
    assert len(errors) == 1, out.stderr
    assert all(line.startswith("pycalib-r: ") for line in lines), out.stderr
    for text in expected:
        assert text in errors[0], (text, errors[0])
    return errors[0]


@pytest.fixture()
def csv_path(tmp_path):
    pc.set_seed(5)
    p = pc.runif(80)
    y = pc.rbinom(80, 1, p)
    path = tmp_path / "preds.csv"
    pd.DataFrame({"prob": p, "label": y}).to_csv(path, index=False, float_format="%.17g")
    return path


def _calibrate(csv, out):
    return ["calibrate", "--method", "platt", "--fit", csv, "--apply", csv, "-o", out,
            "--p", "prob", "--y", "label"]


def _diagram(csv, out, *extra):
    return ["diagram", csv, "--p", "prob", "--y", "label", "-o", out, *extra]


# ---------------------------------------------------------------------------
# output errors, on both commands that write a file


@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_output_in_a_missing_folder(csv_path, tmp_path, command):
    out = tmp_path / "missing" / "dir" / ("x.csv" if command == "calibrate" else "x.png")
    args = _calibrate(csv_path, out) if command == "calibrate" else _diagram(csv_path, out)
    _one_error_line(_run(*args), str(out), "does not exist")
    assert not out.parent.exists()


@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_output_on_a_folder(csv_path, tmp_path, command):
    args = (_calibrate(csv_path, tmp_path) if command == "calibrate"
            else _diagram(csv_path, tmp_path, "--format", "png"))
    _one_error_line(_run(*args), "is a folder")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_output_on_a_full_disk(csv_path, command):
    args = (_calibrate(csv_path, "/dev/full") if command == "calibrate"
            else _diagram(csv_path, "/dev/full", "--format", "png"))
    _one_error_line(_run(*args), "/dev/full", "No space left on device")


@pytest.mark.skipif(not os.path.isdir("/sys"), reason="needs /sys (Linux)")
@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_output_in_an_unwritable_folder(csv_path, command):
    # sysfs refuses new files even to root (the tests may run as root, for
    # whom a chmod'ed folder stays writable)
    out = "/sys/pycalib_r_out." + ("csv" if command == "calibrate" else "png")
    args = _calibrate(csv_path, out) if command == "calibrate" else _diagram(csv_path, out)
    _one_error_line(_run(*args), out, "ermission denied")


@pytest.mark.parametrize("command", ["calibrate", "diagram"])
def test_unwritable_folder_is_refused_before_any_work(csv_path, tmp_path, monkeypatch, capsys,
                                                      command):
    out = tmp_path / ("x.csv" if command == "calibrate" else "x.png")
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False)
    args = _calibrate(csv_path, out) if command == "calibrate" else _diagram(csv_path, out)
    assert _command.main([str(a) for a in args]) == 2
    err = capsys.readouterr().err
    assert err == f"pycalib-r: error: {out}: permission denied; write elsewhere\n"
    assert not out.exists()


def test_a_failed_write_keeps_the_old_file(csv_path, tmp_path, monkeypatch, capsys):
    out = tmp_path / "x.csv"
    out.write_text("the user's file\n")

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)  # the last step before the rename
    assert _command.main([str(a) for a in _calibrate(csv_path, out)]) == 2
    assert capsys.readouterr().err == (f"pycalib-r: error: {out}: could not write the file: "
                                       "No space left on device\n")
    assert out.read_text() == "the user's file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["preds.csv", "x.csv"]  # no temp file


def test_diagram_without_an_extension_names_the_fix(csv_path, tmp_path):
    out = tmp_path / "figure"
    _one_error_line(_run(*_diagram(csv_path, out)), "no extension", "--format")
    assert not out.exists() and not (tmp_path / "figure.png").exists()


# ---------------------------------------------------------------------------
# resource errors


@pytest.mark.parametrize("extra,message", [
    (["--figsize", "1e6", "1e6"], "more than matplotlib draws"),
    (["--dpi", "100000"], "not enough memory to draw"),
    (["--dpi", "1e7"], "matplotlib could not draw the figure"),
    (["--figsize", "0", "3"], "invalid value: '0'"),
])
def test_diagram_beyond_the_renderer(csv_path, tmp_path, extra, message):
    out = tmp_path / "fig.png"
    _one_error_line(_run(*_diagram(csv_path, out, *extra)), message)
    assert not out.exists()


def test_diagram_bins_at_r_integer_max(csv_path, tmp_path):
    out = _run(*_diagram(csv_path, tmp_path / "fig.png", "--bins", "2147483647"))
    _one_error_line(out, "'length.out' must be a non-negative number")
    # R's warning comes first, as R prints it
    assert out.stderr.startswith("pycalib-r: warning: NAs produced by integer overflow\n")


@pytest.mark.parametrize("command", ["ci", "test"])
def test_out_of_memory_is_one_line(csv_path, monkeypatch, capsys, command):
    def exhausted(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(pc, "cal_ci" if command == "ci" else "cal_test", exhausted)
    code = _command.main([command, str(csv_path), "--p", "prob", "--y", "label",
                          "--n-boot", "2147483647"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"pycalib-r: error: not enough memory for this {command} "
                          "(--n-boot 2147483647)")


# ---------------------------------------------------------------------------
# no file content in any message


@pytest.mark.parametrize("content", [
    f"{SECRET}\n1\n",                      # not a CSV: one field
    f"{SECRET},other\n0.1,0\n",            # a CSV whose header is private
    f"-----BEGIN KEY-----\n{SECRET}\n",
])
@pytest.mark.parametrize("command", ["metrics", "test", "ci", "diagram"])
def test_errors_name_the_file_not_its_content(tmp_path, content, command):
    path = tmp_path / "secret.txt"
    path.write_text(content)
    args = [command, path.name, "--p", "prob", "--y", "label"]
    if command == "diagram":
        args += ["-o", "fig.png"]
    out = _run(*args, cwd=tmp_path)
    line = _one_error_line(out, "secret.txt")
    assert SECRET not in out.stderr and "BEGIN" not in line


def test_an_unknown_column_suggests_a_close_name(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("proba,label\n0.1,0\n")
    out = _run("metrics", path.name, "--p", "prob", "--y", "label", cwd=tmp_path)
    assert out.stderr == ("pycalib-r: error: p.csv, line 1, column 'prob': not in the header "
                          "(2 columns); did you mean 'proba'?\n")


# ---------------------------------------------------------------------------
# one style, --version, JSON keys


def test_version():
    out = _run("--version")
    assert out.returncode == 0 and out.stdout == f"pycalib-r {pc.__version__} (probcal 0.2.0)\n"


@pytest.mark.parametrize("args", [[], ["bogus"], ["metrics", "x.csv", "--p", "prob"],
                                  ["test", "x.csv", "--p", "p", "--y", "y", "--n-boot", "many"]])
def test_usage_errors_are_one_line_in_the_one_style(args):
    out = _run(*args)
    _one_error_line(out, "--help")
    assert out.stderr.count("\n") == 1


def test_r_errors_in_the_one_style(tmp_path):
    path = tmp_path / "bad.csv"
    pd.DataFrame({"prob": [0.2, 1.5], "label": [0, 1]}).to_csv(path, index=False)
    out = _run("metrics", path, "--p", "prob", "--y", "label")
    assert out.stderr == "pycalib-r: error: Argument `p` must contain probabilities in `[0, 1]`.\n"


def test_json_keys_are_the_result_keys(csv_path):
    p = pd.read_csv(csv_path)
    t = json.loads(_run("test", csv_path, "--p", "prob", "--y", "label", "--seed", "1",
                        "--n-boot", "19", "--json").stdout)
    pc.set_seed(1)
    want = pc.cal_test(p["prob"].to_numpy(), p["label"].to_numpy(), n_boot=19,
                       data_name="prob and label")
    assert t == want.to_dict() and "p.value" in t and "data.name" in t
    c = json.loads(_run("ci", csv_path, "--p", "prob", "--y", "label", "--seed", "1",
                        "--n-boot", "19", "--json").stdout)
    pc.set_seed(1)
    want = pc.cal_ci(p["prob"].to_numpy(), p["label"].to_numpy(), n_boot=19)
    assert c == want.to_dict() and c["n_boot"] == 19


# ---------------------------------------------------------------------------
# labels as they come


def _digits(tmp_path, order=("0", "1", "2")):
    g = np.random.default_rng(4)
    P = g.dirichlet([1, 1, 1], 60)
    digit = g.integers(0, 3, 60)
    frame = pd.DataFrame({"0": P[:, 0], "1": P[:, 1], "2": P[:, 2], "digit": digit})
    path = tmp_path / "digits.csv"
    frame.to_csv(path, index=False, float_format="%.17g")
    return path, pd.read_csv(path)


@pytest.mark.parametrize("order", [("0", "1", "2"), ("2", "0", "1")])
def test_zero_based_codes_naming_the_columns(tmp_path, order):
    path, frame = _digits(tmp_path)
    out = _run("metrics", path, "--p", ",".join(order), "--y", "digit", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["metrics"]
    P = frame[list(order)].to_numpy()
    y = pd.Categorical(frame["digit"].astype(str), categories=list(order))
    assert got["ece"] == pc.ece(P, y) and got["skce"] == pc.skce(P, y)


def test_true_false_labels(tmp_path):
    g = np.random.default_rng(6)
    p = g.uniform(size=70)
    y = g.uniform(size=70) < p
    path = tmp_path / "tf.csv"
    pd.DataFrame({"prob": p, "label": y}).to_csv(path, index=False, float_format="%.17g")
    assert "True" in path.read_text()
    out = _run("metrics", path, "--p", "prob", "--y", "label", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["metrics"]["ece"] == pc.ece(pd.read_csv(path)["prob"].to_numpy(),
                                                               y.astype(int))


def test_hints_name_command_options(tmp_path):
    g = np.random.default_rng(7)
    p1 = g.uniform(size=50)
    path = tmp_path / "two.csv"
    pd.DataFrame({"p0": 1 - p1, "p1": p1, "label": (g.uniform(size=50) < p1).astype(int)}).to_csv(
        path, index=False)
    out = _run("metrics", path, "--p", "p0,p1", "--y", "label")
    assert out.returncode == 2
    assert "pycalib-r: error: Integer class codes in `y` must start at `1`." in out.stderr
    assert "--p p1" in out.stderr
    for python in ("[:, 1]", "pd.Categorical", "y + 1", ".iloc"):
        assert python not in out.stderr


def test_metrics_on_one_row(tmp_path):
    """skce is not defined on one row: NA in the table, R's message as an
    error line, exit status 2 (issue 30: every error exits 2)."""
    path = tmp_path / "one.csv"
    path.write_text("prob,label\n0.3,1\n")
    out = _run("metrics", path, "--p", "prob", "--y", "label")
    assert out.returncode == 2, out.stderr
    rows = {line.split()[0]: line.split()[1] for line in out.stdout.splitlines()[2:]}
    for name in ("ece", "mce", "ace", "mmce"):
        assert float(rows[name]) == pytest.approx(getattr(pc, name)([0.3], [1]), rel=1e-6)
    assert rows["skce"] == "NA"
    with pytest.raises(pc.ProbcalError) as info:
        pc.skce([0.3], [1])
    assert out.stderr == f"pycalib-r: error: skce: {info.value}\n"
    js = _run("metrics", path, "--p", "prob", "--y", "label", "--json")
    assert js.returncode == 2
    js = json.loads(js.stdout)
    assert js["metrics"]["skce"] is None and js["errors"]["skce"] == str(info.value)


def test_library_warnings_are_readable_lines(tmp_path, monkeypatch, capsys):
    import warnings

    path = tmp_path / "w.csv"
    path.write_text("prob,label\n0.2,0\n0.7,1\n0.4,1\n")
    real = pc.ece

    def warning_ece(*args, **kwargs):
        warnings.warn("a library warning", UserWarning)
        return real(*args, **kwargs)

    monkeypatch.setattr(pc, "ece", warning_ece)
    assert _command.main(["metrics", str(path), "--p", "prob", "--y", "label"]) == 0
    err = capsys.readouterr().err
    assert err == "pycalib-r: warning: a library warning\n"


def test_a_real_library_warning_is_one_readable_line(csv_path, tmp_path):
    out = _run("calibrate", "--method", "cv", "--eps", "0.1", "--fit", csv_path, "--apply",
               csv_path, "-o", tmp_path / "out.csv", "--p", "prob", "--y", "label")
    assert out.returncode == 0, out.stderr
    assert out.stderr.startswith("pycalib-r: warning: cal_cv() ignored the argument `eps`")
    assert out.stderr.count("\n") == 1 and ".py:" not in out.stderr


@pytest.mark.parametrize("method,cols,fix", [("temperature", "prob", "--method platt"),
                                             ("vector_scaling", "0,1,2", "--method dirichlet")])
def test_temperature_on_probabilities_warns_with_the_cli_fix(csv_path, tmp_path, method, cols,
                                                              fix):
    path = csv_path if cols == "prob" else _digits(tmp_path)[0]
    y = "label" if cols == "prob" else "digit"
    out = _run("calibrate", "--method", method, "--fit", path, "--apply", path, "-o",
               tmp_path / "out.csv", "--p", cols, "--y", y)
    assert out.returncode == 0, out.stderr
    warned = [line for line in out.stderr.splitlines() if line.startswith("pycalib-r: warning:")]
    assert len(warned) == 1 and "lies in [0, 1]" in warned[0] and fix in warned[0]
    assert "np.log" not in out.stderr and "logits_from_proba" not in out.stderr

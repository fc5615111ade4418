"""The command line never loses a user's file, and never shows a traceback
(issue 32, deliver 1 and the command line items of deliver 5).

Outputs are written to a temporary file and renamed into place; inputs and
outputs are compared by identity; each input is read once, in one pass,
with bounded records; OS errors, a full disk on standard output and
terminal escapes in a CSV are one ``pycalib-r: error: ...`` line, exit 2.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV


def _cmd(*args):
    return [sys.executable, "-m", "pycalib_r", *map(str, args)]


def _run(*args, cwd=None, stdin=None, timeout=300):
    return subprocess.run(_cmd(*args), capture_output=True, text=True, check=False,
                          env=ORIGINAL_ENV, cwd=cwd, input=stdin, timeout=timeout)


def _one_error(out, *expected):
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("pycalib-r: error: ")]
    assert len(errors) == 1 and errors[0] == out.stderr.splitlines()[-1], out.stderr
    for text in expected:
        assert text in errors[0], (text, errors[0])
    return errors[0]


@pytest.fixture()
def files(tmp_path):
    g = np.random.default_rng(1)
    p = g.uniform(size=120)
    y = (g.uniform(size=120) < p).astype(int)
    fit = tmp_path / "fit.csv"
    pd.DataFrame({"prob": p[:80], "label": y[:80]}).to_csv(fit, index=False)
    apply = tmp_path / "apply.csv"
    pd.DataFrame({"id": np.arange(40), "prob": p[80:]}).to_csv(apply, index=False)
    return tmp_path, fit, apply


def _calibrate(fit, apply, out):
    return ["calibrate", "--method", "platt", "--fit", fit, "--apply", apply, "-o", out,
            "--p", "prob", "--y", "label"]


# ---------------------------------------------------------------------------
# inputs and outputs compared by identity


@pytest.mark.parametrize("spelling", ["./apply.csv", "absolute", "symlink", "hard link",
                                      "./fit.csv"])
def test_output_that_is_an_input_by_another_name(files, spelling):
    folder, fit, apply = files
    before = {p.name: p.read_bytes() for p in (fit, apply)}
    if spelling == "absolute":
        out = str(apply.resolve())
    elif spelling == "symlink":
        os.symlink(apply, folder / "link.csv")
        out = "link.csv"
    elif spelling == "hard link":
        os.link(apply, folder / "hard.csv")
        out = "hard.csv"
    else:
        out = spelling
    result = _run(*_calibrate("fit.csv", "apply.csv", out), cwd=folder)
    _one_error(result, "would overwrite an input file")
    assert {p.name: p.read_bytes() for p in (fit, apply)} == before
    if spelling == "symlink":
        assert os.path.islink(folder / "link.csv")


def test_an_existing_output_is_replaced_whole(files):
    folder, fit, apply = files
    out = folder / "out.csv"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    os.symlink(out, folder / "out_link.csv")
    result = _run(*_calibrate(fit, apply, folder / "out_link.csv"))
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("id,prob,cal_prob\n")
    assert os.path.islink(folder / "out_link.csv")  # the link still names the file
    assert oct(os.stat(out).st_mode & 0o777) == oct(0o640)
    assert sorted(p.name for p in folder.iterdir()) == ["apply.csv", "fit.csv", "out.csv",
                                                        "out_link.csv"]


# ---------------------------------------------------------------------------
# interrupted runs leave the old file


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_calibrate_keeps_the_old_output(tmp_path, sig, status):
    g = np.random.default_rng(2)
    n = 1_500_000
    p = g.uniform(size=n)
    fit = tmp_path / "fit.csv"
    pd.DataFrame({"prob": p[:500], "label": (g.uniform(size=500) < p[:500]).astype(int)}).to_csv(
        fit, index=False)
    apply = tmp_path / "apply.csv"
    pd.DataFrame({"prob": p}).to_csv(apply, index=False)
    out = tmp_path / "out.csv"
    out.write_text("the user's earlier file\n")
    proc = subprocess.Popen(_cmd(*_calibrate(fit, apply, out)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ORIGINAL_ENV)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        temps = [q for q in tmp_path.iterdir() if q.name.startswith(".out.csv.")]
        if temps and temps[0].stat().st_size > 0:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "finished before it could be interrupted"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == status, err
    assert "Traceback" not in err
    assert out.read_text() == "the user's earlier file\n"
    assert sorted(q.name for q in tmp_path.iterdir()) == ["apply.csv", "fit.csv", "out.csv"]


def _diagram_args(csv, out, *extra):
    return ["diagram", str(csv), "--p", "prob", "--y", "label", "-o", str(out), *extra]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError])
def test_diagram_keeps_the_old_file_when_drawing_stops(files, monkeypatch, capsys, failure):
    pytest.importorskip("matplotlib")
    import matplotlib.figure

    from pycalib_r import cli

    folder, fit, _ = files
    out = folder / "fig.png"
    out.write_bytes(b"the user's figure")

    def stop(self, *args, **kwargs):
        args[0].write(b"half a figure")
        raise failure("stopped while drawing")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", stop)
    status = cli.main(_diagram_args(fit, out))
    assert status == (130 if failure is KeyboardInterrupt else 2)
    assert out.read_bytes() == b"the user's figure"
    assert sorted(p.name for p in folder.iterdir()) == ["apply.csv", "fig.png", "fit.csv"]
    err = capsys.readouterr().err
    if failure is RuntimeError:
        assert err == f"pycalib-r: error: {out}: matplotlib could not draw the figure: " \
                      "stopped while drawing\n"


@pytest.mark.skipif(shutil.which("xelatex") is not None, reason="LaTeX is installed")
def test_diagram_pgf_without_latex(files):
    pytest.importorskip("matplotlib")
    folder, fit, _ = files
    out = folder / "x.pgf"
    out.write_text("the user's figure")
    _one_error(_run(*_diagram_args(fit, out)), "needs LaTeX", "install LaTeX")
    assert out.read_text() == "the user's figure"
    assert sorted(p.name for p in folder.iterdir()) == ["apply.csv", "fit.csv", "x.pgf"]


def test_diagram_to_standard_output(files):
    pytest.importorskip("matplotlib")
    folder, fit, _ = files
    out = subprocess.run(_cmd(*_diagram_args(fit, "-", "--format", "png")), capture_output=True,
                         check=False, env=ORIGINAL_ENV, cwd=folder)
    assert out.returncode == 0, out.stderr
    assert out.stdout[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (folder / "-").exists()
    refused = _run(*_diagram_args(fit, "-"), cwd=folder)
    _one_error(refused, "argument --format: required with -o -")
    assert not (folder / "-").exists()


# ---------------------------------------------------------------------------
# each input read once: FIFO, standard input, /dev/stdin on a pipe


def _json_ece(out):
    import json

    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["metrics"]["ece"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_input(files):
    folder, fit, apply = files
    fifo = folder / "fifo.csv"
    os.mkfifo(fifo)
    text = fit.read_text()

    def feed():
        with open(fifo, "w") as f:
            f.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    out = _run("metrics", fifo, "--p", "prob", "--y", "label", "--json", timeout=120)
    writer.join(timeout=60)
    frame = pd.read_csv(fit)
    assert _json_ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())
    # calibrate --apply from a FIFO: read once, written whole
    writer = threading.Thread(target=lambda: open(fifo, "w").write(apply.read_text()))
    writer.start()
    result = _run(*_calibrate(fit, fifo, folder / "out.csv"), timeout=120)
    writer.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert len((folder / "out.csv").read_text().splitlines()) == 41


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_standard_input_read_once(files, name):
    if name == "/dev/stdin" and not os.path.exists("/dev/stdin"):
        pytest.skip("no /dev/stdin")
    folder, fit, apply = files
    out = _run("metrics", name, "--p", "prob", "--y", "label", "--json", stdin=fit.read_text())
    frame = pd.read_csv(fit)
    assert _json_ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())
    result = _run(*_calibrate(fit, name, folder / "out.csv"), stdin=apply.read_text())
    assert result.returncode == 0, result.stderr
    written = pd.read_csv(folder / "out.csv")
    fitted = pc.cal_platt(frame["prob"].to_numpy(), frame["label"].to_numpy())
    np.testing.assert_array_equal(written["cal_prob"].to_numpy(),
                                  pc.predict(fitted, pd.read_csv(apply)["prob"].to_numpy()))


# The command runs under a small launcher that reports its child's peak:
# Linux carries a process's peak RSS across fork and exec, so a child forked
# straight from a large pytest process would report pytest's size.
_LAUNCH = ("import resource, subprocess, sys\n"
           "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,"
           " text=True)\n"
           "sys.stderr.write(p.stderr)\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
           "sys.exit(p.returncode)\n")


def _peak_child(args, stdin=None):
    """Exit status, stderr and peak memory (MB) of one run of the command."""
    proc = subprocess.run([sys.executable, "-c", _LAUNCH, *_cmd(*args)], stdin=stdin,
                          capture_output=True, text=True, env=ORIGINAL_ENV, check=False)
    return proc.returncode, proc.stderr, int(proc.stdout.split()[-1]) / 1024


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_without_line_ends_is_refused_in_bounded_memory(tmp_path):
    code, err, _ = _peak_child(["metrics", "/dev/zero", "--p", "prob", "--y", "label"])
    assert code == 2 and "Traceback" not in err
    assert err == ("pycalib-r: error: /dev/zero, line 1: more than 16 MiB without the end of "
                   "the record (no line end, or an unclosed quote); this is not a CSV file of "
                   "one observation per line\n")
    # a 600 MB line on a pipe: refused after 16 MiB, memory far below the line
    feeder = subprocess.Popen([sys.executable, "-c",
                               "import sys\nfor _ in range(600): sys.stdout.write('1' * 2**20)"],
                              stdout=subprocess.PIPE, env=ORIGINAL_ENV)
    code, err, peak = _peak_child(["metrics", "-", "--p", "prob", "--y", "label"],
                                  stdin=feeder.stdout)
    feeder.stdout.close()
    feeder.kill()
    feeder.wait()
    assert code == 2 and "<stdin>, line 1: more than 16 MiB" in err
    assert peak < 400, peak


# ---------------------------------------------------------------------------
# OS errors, full disks, --p ',': one line, no traceback


def test_input_os_errors_are_one_line(tmp_path, files):
    folder, fit, _ = files
    os.symlink(tmp_path / "loop_b", tmp_path / "loop_a")
    os.symlink(tmp_path / "loop_a", tmp_path / "loop_b")
    cases = [(tmp_path / "loop_a", "symbolic links"),
             (f"{fit}/", "not a folder"),
             (tmp_path / ("x" * 5000), "file name is too long"),
             (tmp_path, "is a directory")]
    sock_path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    cases.append((sock_path, "not a file that can be read"))
    try:
        for path, message in cases:
            _one_error(_run("metrics", path, "--p", "prob", "--y", "label"), message)
        assert "(5" in _one_error(_run("metrics", tmp_path / ("x" * 5000), "--p", "prob",
                                       "--y", "label"), "characters)")
    finally:
        server.close()


@pytest.mark.skipif(not os.path.exists("/dev/tty"), reason="no /dev/tty")
def test_dev_tty_without_a_terminal(files):
    _, fit, _ = files
    out = subprocess.run(_cmd("metrics", "/dev/tty", "--p", "prob", "--y", "label"),
                         capture_output=True, text=True, check=False, env=ORIGINAL_ENV,
                         start_new_session=True, stdin=subprocess.DEVNULL, timeout=120)
    _one_error(out, "/dev/tty")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("command", ["metrics", "test", "ci", "demo", "ece-ci"])
def test_standard_output_on_a_full_disk(files, command):
    _, fit, _ = files
    args = [command] if command == "demo" else [command, fit, "--p", "prob", "--y", "label"]
    if command in ("test", "ci"):
        args += ["--n-boot", "19"]
    with open("/dev/full", "w") as full:
        out = subprocess.run(_cmd(*args), stdout=full, stderr=subprocess.PIPE, text=True,
                             check=False, env=ORIGINAL_ENV, timeout=300)
    _one_error(out, "<stdout>: could not write: No space left on device")


@pytest.mark.parametrize("value", [",", " , ,"])
def test_p_without_a_column(files, value):
    _, fit, _ = files
    _one_error(_run("metrics", fit, "--p", value, "--y", "label"), "argument --p: no column name")


# ---------------------------------------------------------------------------
# terminal escapes in a CSV never reach the terminal


@pytest.mark.parametrize("cell", ["\033]0;x\007", "\033[2J"])
def test_cell_text_is_escaped(tmp_path, cell):
    path = tmp_path / "esc.csv"
    path.write_text(f"a,b,cls\n0.2,0.8,a\n0.6,0.4,{cell}\n")
    err = _one_error(_run("metrics", path, "--p", "a,b", "--y", "cls"), "line 3, column 'cls'")
    assert "\033" not in err and "\007" not in err
    assert repr(cell) in err
    path.write_text(f"prob,label\n0.2,0\n{cell},1\n")
    err = _one_error(_run("metrics", path, "--p", "prob", "--y", "label"), "is not a number")
    assert "\033" not in err and repr(cell) in err
    path.write_text(f"prob{cell},label\n0.2,0\n")
    err = _one_error(_run("metrics", path, "--p", "prob", "--y", "label"), "not in the header")
    assert "\033" not in err and "\007" not in err
    if cell == "\033[2J":  # close enough to 'prob' to be suggested: escaped
        assert f"did you mean {repr('prob' + cell)}?" in err

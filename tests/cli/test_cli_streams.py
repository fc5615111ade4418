"""The command line with odd standard streams (issue 46, items 18-19 and "Deliver").

Every subcommand is run in a child process (with a timeout) with standard
output closed (``>&-``, as cron may start it), standard error or input
closed, standard output or error on a full device (``/dev/full``), and a
standard output that is not UTF-8 (``PYTHONIOENCODING=ascii``; ``LC_ALL=C``
with ``PYTHONUTF8=0``). None ends in a traceback; a command whose result
is its standard output refuses a closed one with one error line and exit
status 2; in an ASCII locale the output is what R prints there: cli's ASCII
rules, and ``<U+XXXX>`` for other characters (checked against Rscript run
with ``LC_ALL=C``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from pycalib_r.cli._registry import COMMANDS
from tests.conftest import ORIGINAL_ENV, REPO

# This tree's pycalib_r in the children, whatever their working folder.
ENV = dict(ORIGINAL_ENV, PYTHONPATH=os.pathsep.join(
    [str(REPO)] + [p for p in [ORIGINAL_ENV.get("PYTHONPATH")] if p]))

TIMEOUT = 180


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("streams")
    g = np.random.default_rng(46)
    p = g.uniform(size=120)
    pd.DataFrame({"prob": p, "label": (g.uniform(size=120) < p).astype(int)}).to_csv(
        path / "b.csv", index=False, float_format="%.17g")
    return path


# One call of each subcommand (two for those that write a file), and whether
# its result is standard output (else a file, and standard output only shows
# the calibrator).
def _cases(d):
    data = [str(d / "b.csv"), "--p", "prob", "--y", "label"]
    fit = ["--fit", str(d / "b.csv"), "--apply", str(d / "b.csv"), "--p", "prob", "--y", "label"]
    return {
        "demo": (["demo"], True),
        "metrics": (["metrics", *data], True),
        "test": (["test", *data, "--n-boot", "19", "--seed", "1"], True),
        "ci": (["ci", *data, "--n-boot", "19", "--seed", "1"], True),
        "ece-ci": (["ece-ci", *data], True),
        "validate": (["validate", *data, "--no-profile"], True),
        "calibrate": (["calibrate", "--method", "platt", *fit, "-o", str(d / "out.csv")], False),
        "calibrate -o -": (["calibrate", "--method", "platt", *fit, "-o", "-"], True),
        "diagram": (["diagram", *data, "-o", str(d / "fig.png")], False),
        "diagram -o -": (["diagram", *data, "-o", "-", "--format", "png"], True),
        "parity": (["parity", *data], True),
    }


CASES = list(_cases(__import__("pathlib").Path("/x")))


def test_every_subcommand_is_covered():
    assert {case.split()[0] for case in CASES} == set(COMMANDS)


def _run(args, *, shell_redirect="", env=None, stdout=subprocess.PIPE, stderr=subprocess.PIPE):
    command = [sys.executable, "-m", "pycalib_r", *args]
    if shell_redirect:
        command = ["sh", "-c", f'exec "$0" "$@" {shell_redirect}', *command]
    return subprocess.run(command, stdout=stdout, stderr=stderr, env=env or ENV,
                          timeout=TIMEOUT, check=False)


_normal = {}


def _reference(case, folder):
    """The run with ordinary streams: (status, stdout bytes)."""
    if case not in _normal:
        out = _run(_cases(folder)[case][0])
        assert b"Traceback" not in out.stderr, out.stderr.decode()
        _normal[case] = (out.returncode, out.stdout)
    return _normal[case]


def _no_traceback(err: bytes):
    text = err.decode("utf-8", "replace")
    assert "Traceback" not in text and "Exception ignored" not in text, text


def _one_error_line(err: bytes, *expected: str):
    _no_traceback(err)
    lines = err.decode().splitlines()
    errors = [line for line in lines if line.startswith("pycalib-r: error: ")]
    assert len(errors) == 1 and all(line.startswith("pycalib-r: ") for line in lines), lines
    for text in expected:
        assert text in errors[0], (text, errors[0])


@pytest.mark.parametrize("case", CASES)
def test_closed_stdout(case, folder):
    args, result_on_stdout = _cases(folder)[case]
    status, _ = _reference(case, folder)
    out = _run(args, shell_redirect=">&-")
    if result_on_stdout:
        assert out.returncode == 2
        _one_error_line(out.stderr, "standard output is closed")
    else:
        _no_traceback(out.stderr)
        assert out.returncode == status == 0
        assert os.path.getsize(args[args.index("-o") + 1]) > 0


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("stream", ["stdin", "stderr"])
def test_closed_stdin_or_stderr(case, stream, folder):
    args, _ = _cases(folder)[case]
    status, stdout = _reference(case, folder)
    out = _run(args, shell_redirect="<&-" if stream == "stdin" else "2>&-")
    assert out.returncode == status
    if stream == "stdin":
        _no_traceback(out.stderr)
    if case != "diagram -o -":  # (the PNG's bytes hold a timestamp-free but
        # renderer-dependent stream: compared by its signature below)
        assert out.stdout == stdout
    else:
        assert out.stdout[:8] == stdout[:8] == b"\x89PNG\r\n\x1a\n"


def test_closed_stdin_when_reading_it(folder):
    out = _run(["metrics", "-", "--p", "prob", "--y", "label"], shell_redirect="<&-")
    assert out.returncode == 2
    _one_error_line(out.stderr, "<stdin>: standard input is closed")


@pytest.mark.parametrize("case", CASES)
def test_full_stdout(case, folder):
    args, result_on_stdout = _cases(folder)[case]
    status, stdout = _reference(case, folder)
    with open("/dev/full", "wb") as full:
        out = _run(args, stdout=full)
    if stdout:  # something was to be printed: the one error line
        assert out.returncode == 2
        _one_error_line(out.stderr, "No space left on device")
    else:
        _no_traceback(out.stderr)
        assert out.returncode == status


@pytest.mark.parametrize("case", CASES)
def test_full_stderr(case, folder):
    args, _ = _cases(folder)[case]
    status, stdout = _reference(case, folder)
    with open("/dev/full", "wb") as full:
        out = _run(args, stderr=full)
    assert out.returncode == status
    if case != "diagram -o -":
        assert out.stdout == stdout


def _ascii_of(text: str) -> str:
    """What R writes in an ASCII locale for cli output rendered in UTF-8:
    cli's ASCII line for its rules, R's <U+XXXX> for any other character."""
    return "".join("-" if c == "\u2500" else c if ord(c) < 128 else f"<U+{ord(c):04X}>"
                   for c in text)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("locale", ["PYTHONIOENCODING=ascii", "LC_ALL=C PYTHONUTF8=0"])
def test_non_utf8_stdout(case, locale, folder):
    args, _ = _cases(folder)[case]
    status, stdout = _reference(case, folder)
    env = dict(ENV)
    env.pop("PYTHONIOENCODING", None)
    env.update(item.split("=", 1) for item in locale.split())
    out = _run(args, env=env)
    _no_traceback(out.stderr)
    assert out.returncode == status
    if case == "diagram -o -":
        assert out.stdout[:8] == b"\x89PNG\r\n\x1a\n"
        return
    out.stdout.decode("ascii")  # every byte ASCII
    assert out.stdout.decode() == _ascii_of(stdout.decode("utf-8"))


def _r_escaped(text: str) -> str:
    return "".join(c if ord(c) < 128 else "\\u%04x" % ord(c) for c in text)


@pytest.mark.r_parity
@pytest.mark.parametrize("case", ["test", "ci", "ece-ci", "calibrate"])
def test_ascii_rules_are_rs(case, folder):
    """Each heading rule printed in an ASCII locale is byte-equal to what
    ``cli::cli_h1()`` of the same title prints in R under ``LC_ALL=C``."""
    rscript = shutil.which("Rscript")
    assert rscript is not None, "R parity tests need R (Rscript)"
    args, _ = _cases(folder)[case]
    _, stdout = _reference(case, folder)
    env = dict(ENV, LC_ALL="C", PYTHONUTF8="0")
    env.pop("PYTHONIOENCODING", None)
    got = _run(args, env=env).stdout.decode("ascii").splitlines()
    titles = [line[3:].rstrip("\u2500").rstrip() for line in stdout.decode().splitlines()
              if line.startswith("\u2500\u2500 ")]
    assert titles
    code = "; ".join(f'cli::cli_h1("{_r_escaped(t)}")' for t in titles)
    r = subprocess.run([rscript, "-e", "options(cli.num_colors = 1L, width = 80)", "-e", code],
                       capture_output=True, env=env, timeout=TIMEOUT, check=True)
    want = [line for line in r.stderr.decode("ascii").splitlines() if line.startswith("-- ")]
    assert len(want) == len(titles)
    assert [line for line in got if line.startswith("-- ")] == want

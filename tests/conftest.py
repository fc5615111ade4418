"""Shared fixtures.

R parity tests need R and rpy2. Missing R is a failure, not a skip: the
README's test command installs R, and a parity suite that silently skips
proves nothing. Only the cases that need the probcal R package itself skip
when it is not installed (it comes from CRAN, which a machine may not reach);
the stored fixtures cover those cases.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Python -> R conversion is the package's (pycalib_r.rcheck, which users run
# against their own R); re-exported for the tests that bind values by hand.
from pycalib_r.rcheck._convert import r_assign, to_r  # noqa: F401

# Loading R through rpy2 prepends R's library folders to LD_LIBRARY_PATH in
# this process, which can make a child Python load another libpython; child
# processes get the environment as it was before R was loaded.
ORIGINAL_ENV = dict(os.environ)

REPO = Path(__file__).resolve().parents[1]


def child_json(code: str, timeout: float):
    """The JSON that ``code`` prints last, run in a fresh interpreter: the
    environment from before rpy2 loaded R (R's changes to it can leave a
    child Python without its packages), this checkout first on the path,
    one BLAS thread. The code sets its own limits (``resource.setrlimit``);
    a hang fails at ``timeout``."""
    import json
    import subprocess
    import sys

    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def both_ways_of_the_native_switch(code: str) -> dict:
    """The words ``code`` prints in a fresh process, run with the compiled
    kernels (key None) and with ``PYCALIB_R_NATIVE=0`` (key "0")."""
    import subprocess
    import sys

    out = {}
    for value in ("0", None):
        env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO))
        env.pop("PYCALIB_R_NATIVE", None)
        if value is not None:
            env["PYCALIB_R_NATIVE"] = value
        out[value] = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                    text=True, check=True, timeout=300).stdout.split()
    return out


# The printed examples of probcal 0.2.0's help pages (tools/store_help_examples.py).
HELP_EXAMPLES = REPO / "reference" / "help_examples.json"


# Why a live probcal comparison skips, and how to run it.
PROBCAL_MISSING = ("the probcal R package is not installed: to run this comparison, install it "
                   "into R from CRAN (R -e 'install.packages(\"probcal\")'; tools/run_tests.sh "
                   "does so by itself when CRAN can be reached)")


def _load_r():
    try:
        import rpy2.robjects as ro  # noqa: WPS433
    except Exception as exc:  # ImportError, or R itself failing to load
        pytest.fail(f"R parity tests need R and rpy2 (install them with the README's "
                    f"test command): {type(exc).__name__}: {exc}")
    return ro


@pytest.fixture(scope="session")
def r():
    """The rpy2 ``robjects`` module, with R's defaults for the RNG."""
    ro = _load_r()
    ro.r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
    return ro


@pytest.fixture(scope="session")
def probcal_r(r):
    """``r`` with ``library(probcal)`` attached; skips where probcal is not installed."""
    # rpy2 3.5 with numpy 2 reads R logicals as None, so ask for an integer.
    ok = r.r('as.integer(suppressWarnings(requireNamespace("probcal", quietly = TRUE)))')[0]
    if ok != 1:
        pytest.skip(PROBCAL_MISSING + "; the stored fixtures in reference/fixtures cover these cases")
    r.r("suppressPackageStartupMessages(library(probcal))")
    return r


# What cli prints to the console (stderr under Rscript) for one R expression,
# captured as a single string, colours off, width 80.
_R_CLI_CAPTURE = """
function(code) {
  app <- cli::start_app(.auto_close = FALSE)
  out <- capture.output(eval(parse(text = code)), type = "message")
  cli::stop_app(app)
  paste(out, collapse = "\\n")
}
"""


@pytest.fixture(scope="session")
def r_cli_capture(r):
    """The R function ``function(code)`` that returns cli's printed text of ``code``."""
    r.r("options(cli.num_colors = 1L, width = 80)")
    return r.r(_R_CLI_CAPTURE)


def _load_tolerances() -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib
    with open(REPO / "reference" / "manifest.toml", "rb") as fh:
        table = tomllib.load(fh)["tolerance"]
    return {name: {"rel": t["rtol"], "abs": t["atol"]} for name, t in table.items()}


# The manifest's tolerance policy as pytest.approx / np.isclose keywords: both
# the relative and the absolute part, so a small value is never compared with
# pytest's default absolute tolerance of 1e-12 by accident.
TOL = _load_tolerances()


def within(got, want, policy: str) -> bool:
    """``|got - want| <= atol + rtol * |want|`` elementwise under the manifest's ``policy``."""
    import numpy as np

    t = TOL[policy]
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if got.shape != want.shape:
        return False
    return bool(np.all(np.abs(got - want) <= t["abs"] + t["rel"] * np.abs(want)))


def load_help_examples() -> list:
    """The help pages' examples, in order: dicts with ``topic``, ``code``, ``call``, ``output``."""
    import json

    data = json.loads(HELP_EXAMPLES.read_text(encoding="utf-8"))
    return [dict(example, topic=page["topic"]) for page in data["pages"]
            for example in page["examples"]]


@pytest.fixture(scope="session")
def help_examples():
    """The four printed examples of the cal_test and cal_ci help pages (R's own output)."""
    return load_help_examples()


def help_output(call: str) -> str:
    """What R printed for ``call`` in the help pages."""
    found = [e["output"] for e in load_help_examples() if e["call"] == call]
    if len(found) != 1:
        raise LookupError(f"{len(found)} help-page examples print {call!r}")
    return found[0]

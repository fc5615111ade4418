"""docs/migrating-from-r.md: its worked example's outputs are the scripts' real outputs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ORIGINAL_ENV

REPO = Path(__file__).resolve().parents[3]
GUIDE = REPO / "docs" / "migrating-from-r.md"


def _block_after(marker: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(marker)
    match = re.compile(r"```\n(.*?)\n```", re.S).search(text, start)
    return match.group(1) + "\n"


def _script_block(language: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    match = re.compile(rf"```{language}\n(.*?)\n```", re.S).search(text)
    return match.group(1) + "\n"


def test_guide_shows_the_scripts_as_they_are():
    assert _script_block("r") == (REPO / "docs/examples/port.R").read_text(encoding="utf-8")
    assert _script_block("python") == (REPO / "docs/examples/port.py").read_text(encoding="utf-8")


def test_python_side_prints_what_the_guide_shows():
    out = subprocess.run([sys.executable, "docs/examples/port.py"], capture_output=True,
                         text=True, cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)},
                         check=True)
    assert out.stdout == _block_after("Output of `python docs/examples/port.py`")


def test_the_two_sides_agree():
    r_side = _block_after("Output of `Rscript docs/examples/port.R`")
    py_side = _block_after("Output of `python docs/examples/port.py`")
    assert re.sub(r"(?m)^\[1\] ", "", r_side) == py_side


@pytest.mark.r_parity
def test_r_side_prints_what_the_guide_shows(probcal_r):
    # cli writes the printed headers to stderr under Rscript: read both, as a terminal shows
    out = subprocess.run(["Rscript", "docs/examples/port.R"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, cwd=REPO, check=True)
    assert out.stdout == _block_after("Output of `Rscript docs/examples/port.R`")

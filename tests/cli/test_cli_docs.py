"""The pages that describe the command line and its neighbours say what the
code does (issue 45 item 19).

docs/cli.md lists every subcommand of the registry and every option of
``validate`` and of the options added since (``--pos-label``, ``--method
block``, ``--blocksize``, ``--force``); docs/guide/sklearn.md counts and
names the methods of ``pycalib_r.sklearn.METHODS``; the examples of
docs/guide/tests-and-intervals.md run as pasted, with no set-up added.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pycalib_r.cli._app import build_parser
from pycalib_r.cli._registry import COMMANDS
from tests.conftest import ORIGINAL_ENV, REPO

CLI_MD = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


def _subparser(name):
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return action.choices[name]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_cli_md_lists_every_subcommand(name):
    assert f"\n| `{name}` |" in CLI_MD


def test_cli_md_documents_validate_and_the_new_options():
    options = [o for a in _subparser("validate")._actions for o in a.option_strings
               if o.startswith("--") and o != "--help"]
    assert "--pos-label" in options and "--g-group" in options
    missing = [o for o in options if f"`{o}" not in CLI_MD]
    assert not missing, missing
    for text in ("`--pos-label", "`block`", "`--blocksize", "`--force`", "`--shuffle`"):
        assert text in CLI_MD, text


_NUMBERS = {"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def test_sklearn_guide_counts_and_names_the_methods():
    from pycalib_r.sklearn import METHODS

    text = (REPO / "docs" / "guide" / "sklearn.md").read_text(encoding="utf-8")
    said = re.search(r"one of the (\w+) methods\s+of `pycalib_r\.sklearn\.METHODS`", text)
    assert said is not None
    assert _NUMBERS[said.group(1)] == len(METHODS)
    for method in METHODS:
        assert f'`"{method}"`' in text, method


def _python_blocks(path):
    text = path.read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```\n", text, re.S | re.M)


@pytest.mark.parametrize("k", range(len(_python_blocks(REPO / "docs" / "guide"
                                                       / "tests-and-intervals.md"))))
def test_tests_and_intervals_examples_run_as_pasted(k):
    code = _python_blocks(REPO / "docs" / "guide" / "tests-and-intervals.md")[k]
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)}, check=False,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]

"""Every Python snippet of README.md and of the Markdown pages under docs/ runs, and prints what it shows.

Each ```` ```python ```` block is found by parsing the Markdown (so a new
block is tested without editing this file) and run in a fresh interpreter
from the repository root. A block followed directly by a bare ```` ``` ````
block (the README's convention for "this prints") must print exactly that
text. Every block starts with ``import numpy as np`` and ``import
pycalib_r as pc`` (the docs' convention); a block that uses other names it
does not define (the rcheck example's ``p``, ``y``, ``scores``) gets the
set-up listed in ``_SETUP``; a block that
needs R's probcal is marked as such in ``_NEEDS_PROBCAL`` and skips only
where probcal is not installed. The migration guide's worked example is the
file ``docs/examples/port.py``, which ``tests/test_migration_guide.py``
runs and compares with its shown output and with R's; here it runs as
well, as every block does.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import List, NamedTuple, Optional

import pytest

from tests.conftest import ORIGINAL_ENV

REPO = Path(__file__).resolve().parents[1]
DOCS = ("README.md",) + tuple(sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.md")
                                     if "_build" not in p.parts))

_FENCE = re.compile(r"^```([\w+-]*)\n(.*?)^```\n", re.S | re.M)


class Snippet(NamedTuple):
    doc: str
    line: int
    code: str
    output: Optional[str]

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def snippets() -> List[Snippet]:
    """The Python blocks of DOCS, each with the bare block right after it (its output), if any."""
    out = []
    for doc in DOCS:
        text = (REPO / doc).read_text(encoding="utf-8")
        blocks = list(_FENCE.finditer(text))
        for i, block in enumerate(blocks):
            if block.group(1) != "python":
                continue
            output = None
            if i + 1 < len(blocks) and blocks[i + 1].group(1) == "" \
                    and not text[block.end():blocks[i + 1].start()].strip():
                output = blocks[i + 1].group(2)
            out.append(Snippet(doc, text.count("\n", 0, block.start()) + 1, block.group(2), output))
    return out


# Set-up for blocks that use their reader's own data: (a line of the block, code run first).
_SETUP = {
    "from pycalib_r.rcheck import same_as_r": (
        "import pycalib_r as pc\n"
        "pc.set_seed(7)\n"
        "p = pc.runif(120); y = pc.rbinom(120, 1, p)\n"
        "scores = pc.rnorm(120); labels = pc.rbinom(120, 1, pc.inv_logit(scores))\n"
        "new_scores = pc.rnorm(10)\n"),
}
# ... and code run after it (the block defines a test function its reader's pytest runs).
_AFTER = {
    "from pycalib_r.rcheck import same_as_r": (
        "\nassert report.passed, report\ntest_our_calibration_matches_r()\n"),
}
# Blocks that another test runs already, as they are (a line of the block,
# the test file, a line that file must hold): check_estimator on both
# classes takes minutes, and tests/test_sklearn.py runs it with the same list.
_ELSEWHERE = {
    "check_estimator(est, expected_failed_checks=expected_failed_checks(est))": (
        "tests/test_sklearn.py", "expected_failed_checks(ProbcalCalibrator())"),
}
# Blocks that call R's probcal (pycalib_r.rcheck).
_NEEDS_PROBCAL = ("from pycalib_r.rcheck import",)


# The docs' convention (the README's first example, the guide's table):
# `pc` is pycalib_r and `np` numpy in every block.
_PRELUDE = "import numpy as np\nimport pycalib_r as pc\n"


def _program(snippet: Snippet) -> str:
    setup = _PRELUDE + next((v for k, v in _SETUP.items() if k in snippet.code), "")
    after = next((v for k, v in _AFTER.items() if k in snippet.code), "")
    return setup + snippet.code + "\n" + after


def test_the_docs_have_python_snippets():
    found = snippets()
    assert {"README.md", "docs/migrating-from-r.md"} <= {s.doc for s in found}
    # the README's first example and its shown output are among them
    assert any(s.doc == "README.md" and s.output and "cal_test" in s.code for s in found)


@pytest.mark.parametrize("snippet", snippets(), ids=lambda s: s.id)
def test_snippet_runs_and_prints_what_the_doc_shows(snippet, request):
    for line, (test_file, needed) in _ELSEWHERE.items():
        if line in snippet.code:
            assert needed in (REPO / test_file).read_text(encoding="utf-8")
            return
    if any(marker in snippet.code for marker in _NEEDS_PROBCAL):
        request.getfixturevalue("probcal_r")  # skips where probcal is not installed
    run = subprocess.run([sys.executable, "-c", _program(snippet)], capture_output=True,
                         text=True, cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)},
                         check=False, timeout=600)
    assert run.returncode == 0, f"{snippet.id} failed:\n{run.stderr[-3000:]}"
    if snippet.output is not None:
        assert run.stdout == snippet.output, f"{snippet.id} prints other text than the doc shows"


def test_inline_claims_of_the_migration_guide_hold():
    """The spellings the guide's prose promises (not in a fenced block) work."""
    import pycalib_r as pc

    pc.set_seed(42)
    by_r_name = pc.rpois(5, **{"lambda": 4})
    pc.set_seed(42)
    assert by_r_name.tolist() == pc.rpois(5, lambda_=4).tolist() == [7, 7, 3, 6, 5]
    assert pc.RRandom(42).rpois(5, **{"lambda": 4}).tolist() == [7, 7, 3, 6, 5]
    with pytest.raises(TypeError, match="multiple values"):
        pc.rpois(5, 4, **{"lambda": 4})

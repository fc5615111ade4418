"""Every Python block of README.md and of the Markdown pages under docs/ runs as pasted, and shows what it says.

Each ```` ```python ```` block is found by parsing the Markdown (so a new
block is tested without editing this file). The blocks of one page run **as
pasted**, in order, in one fresh interpreter per page started from the
repository root (a later block sees what an earlier one defined, as in a
reader's session; nothing is imported for them). Then:

* a block followed directly by a bare ```` ``` ```` block (the docs'
  convention for "this prints") must print exactly that text;
* an expression statement whose line ends in a comment that is a number
  (``pc.ece(p, y)  # 0.06218639``, ``# 0.0621...``, ``# 1.2e-05, as R``)
  must evaluate to that number: to the digits written (rounded), or, with
  ``...``, to those digits rounded or truncated. A number in a comment comes
  from a run, never from memory.

Markers. A block right after the HTML comment ``<!-- snippet: needs probcal -->``
calls R's probcal package (``pycalib_r.rcheck``): it runs where probcal is
installed and is skipped, saying so, elsewhere. That is the only marker. Two
more exceptions are stated here: the rcheck example works on its reader's own
data (``p``, ``y``, ``scores``), which :data:`_SETUP` provides, and the
``check_estimator`` block runs in ``tests/sklearn/test_sklearn.py`` with the same list
(:data:`_ELSEWHERE`), because it takes minutes. The migration guide's worked
example is also the file ``docs/examples/port.py``, which
``tests/suites/docs/test_migration_guide.py`` compares with R's output; here it runs as
every block does.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional

import pytest

from tests.conftest import ORIGINAL_ENV

REPO = Path(__file__).resolve().parents[3]
DOCS = ("README.md",) + tuple(sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*.md")
                                     if "_build" not in p.parts))

_FENCE = re.compile(r"^```([\w+-]*)\n(.*?)^```\n", re.S | re.M)
_MARKER = re.compile(r"<!--\s*snippet:\s*([\w -]+?)\s*-->\s*\Z")
MARKERS = ("needs probcal",)


class Snippet(NamedTuple):
    doc: str
    line: int               # the line of the opening fence, 1-based
    code: str
    output: Optional[str]
    marker: Optional[str]

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def snippets(docs=DOCS) -> List[Snippet]:
    """The Python blocks of ``docs``, each with the bare block right after it (its output), if any."""
    out = []
    for doc in docs:
        text = (REPO / doc).read_text(encoding="utf-8")
        blocks = list(_FENCE.finditer(text))
        for i, block in enumerate(blocks):
            if block.group(1) != "python":
                continue
            output = None
            if i + 1 < len(blocks) and blocks[i + 1].group(1) == "" \
                    and not text[block.end():blocks[i + 1].start()].strip():
                output = blocks[i + 1].group(2)
            before = text[blocks[i - 1].end() if i else 0:block.start()]
            marker = _MARKER.search(before)
            marker = marker.group(1) if marker else None
            assert marker in (None,) + MARKERS, f"{doc}: unknown snippet marker {marker!r} (known: {MARKERS})"
            out.append(Snippet(doc, text.count("\n", 0, block.start()) + 1, block.group(2), output, marker))
    return out


def pages() -> Dict[str, List[Snippet]]:
    found: Dict[str, List[Snippet]] = {}
    for s in snippets():
        found.setdefault(s.doc, []).append(s)
    return found


# The rcheck example works on its reader's data: (a line of the block, code run first, code run after).
_SETUP = {
    "from pycalib_r.rcheck import same_as_r": (
        "import pycalib_r as pc\n"
        "pc.set_seed(7)\n"
        "p = pc.runif(120); y = pc.rbinom(120, 1, p)\n"
        "scores = pc.rnorm(120); labels = pc.rbinom(120, 1, pc.inv_logit(scores))\n"
        "new_scores = pc.rnorm(10)\n",
        # the block defines a test function its reader's pytest runs
        "assert report.passed, report\ntest_our_calibration_matches_r()\n"),
}
# Blocks that another test runs already, as they are (a line of the block,
# the test file, a line that file must hold): check_estimator on both
# classes takes minutes, and tests/sklearn/test_sklearn.py runs it with the same list.
_ELSEWHERE = {
    "check_estimator(est, expected_failed_checks=expected_failed_checks(est))": (
        "tests/sklearn/test_sklearn.py", "expected_failed_checks(ProbcalCalibrator())"),
}

# What one page's interpreter runs: the blocks (JSON on stdin), each parsed,
# its numeric comments turned into checks, compiled with the page's line
# numbers and run in __main__; a separator after each block's output.
_SEPARATOR = "\x1e-- end of block --\x1e\n"
_DRIVER = r'''
import ast, builtins, io, json, math, re, sys, tokenize

_NUMBER = re.compile(r"#\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\.\.\.)?(?=\s*$|\s*[,;(])")


def _doc_number(value, text, ellipsis, where):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise AssertionError(f"{where}: the comment says {text}, but the expression's value is {value!r}")
    mantissa, _, exponent = text.lower().partition("e")
    k = len(mantissa.partition(".")[2])
    if exponent:
        ok = float(f"{v:.{k}e}") == float(text)
    else:
        ok = f"{v:.{k}f}" == text
    if not ok and ellipsis:
        # the digits written, truncated: the value lies between them and the next digit
        lo = float(text)
        step = 10.0 ** (int(exponent) - k) if exponent else 10.0 ** -k
        ok = (lo <= v < lo + step) if lo >= 0 else (lo - step < v <= lo)
    if not ok:
        raise AssertionError(f"{where}: the comment says {text}{'...' if ellipsis else ''}, "
                             f"but the expression gives {v!r}")
    return value


builtins.__pycalib_doc_number__ = _doc_number


class _Checks(ast.NodeTransformer):
    def __init__(self, comments, doc, offset):
        self.comments, self.doc, self.offset = comments, doc, offset

    def visit_Expr(self, node):
        self.generic_visit(node)
        m = _NUMBER.match(self.comments.get(node.end_lineno, ""))
        if m:
            where = f"{self.doc}:{node.end_lineno + self.offset}"
            node.value = ast.Call(ast.Name("__pycalib_doc_number__", ast.Load()),
                                  [node.value, ast.Constant(m.group(1)), ast.Constant(bool(m.group(2))),
                                   ast.Constant(where)], [])
        return node


def _comments(src):
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string
    return found


for _block in json.loads(sys.stdin.read()):
    if _block["setup"]:
        exec(compile(_block["setup"], "<set-up of " + _block["doc"] + ">", "exec"), globals())
    if _block["run"]:
        _tree = ast.parse(_block["code"])
        _tree = _Checks(_comments(_block["code"]), _block["doc"], _block["line"]).visit(_tree)
        ast.fix_missing_locations(_tree)
        ast.increment_lineno(_tree, _block["line"])
        exec(compile(_tree, _block["doc"], "exec"), globals())
    if _block["after"]:
        exec(compile(_block["after"], "<after " + _block["doc"] + ">", "exec"), globals())
    sys.stdout.flush()
    sys.stdout.write(SEPARATOR)
    sys.stdout.flush()
'''


def run_page(blocks: List[dict], timeout: float = 1200) -> subprocess.CompletedProcess:
    """Run a page's blocks (dicts: doc, line, code, run, setup, after) in one fresh interpreter."""
    program = f"SEPARATOR = {_SEPARATOR!r}\n" + _DRIVER
    return subprocess.run([sys.executable, "-c", program], input=json.dumps(blocks), capture_output=True,
                          text=True, cwd=REPO, env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO)},
                          check=False, timeout=timeout)


def _probcal_missing(request) -> Optional[str]:
    try:
        request.getfixturevalue("probcal_r")
    except pytest.skip.Exception as why:
        return str(why)
    return None


def test_the_docs_have_python_snippets():
    found = snippets()
    assert {"README.md", "docs/migrating-from-r.md", "docs/index.md"} <= {s.doc for s in found}
    # the README's first example and its shown output are among them
    assert any(s.doc == "README.md" and s.output and "cal_test" in s.code for s in found)
    # the markers in use are the stated ones
    assert {s.marker for s in found} <= {None, *MARKERS}


@pytest.mark.parametrize("doc", sorted(pages()))
def test_page_runs_as_pasted_and_shows_what_it_says(doc, request):
    blocks, skipped = [], []
    for s in pages()[doc]:
        elsewhere = next((v for k, v in _ELSEWHERE.items() if k in s.code), None)
        if elsewhere:
            test_file, needed = elsewhere
            assert needed in (REPO / test_file).read_text(encoding="utf-8"), f"{s.id}: not run in {test_file}"
        run = elsewhere is None
        if run and s.marker == "needs probcal":
            why = _probcal_missing(request)
            if why:
                skipped.append(f"{s.id} ({why})")
                run = False
        setup, after = next((v for k, v in _SETUP.items() if k in s.code), ("", ""))
        blocks.append({"doc": s.doc, "line": s.line, "code": s.code, "run": run,
                       "setup": setup if run else "", "after": after if run else ""})
    if not any(b["run"] for b in blocks):
        pytest.skip("; ".join(skipped) or f"{doc}: every block runs elsewhere")
    res = run_page(blocks)
    assert res.returncode == 0, f"{doc} fails when its blocks are pasted in order:\n{res.stderr[-4000:]}"
    outputs = res.stdout.split(_SEPARATOR)
    assert len(outputs) == len(blocks) + 1 and outputs[-1] == "", res.stdout[-2000:]
    for s, b, printed in zip(pages()[doc], blocks, outputs):
        if b["run"] and s.output is not None:
            assert printed == s.output, f"{s.id} prints other text than the doc shows:\n{printed}"


@pytest.mark.parametrize("comment,ok", [
    ("0.06218639", True), ("0.0621864", True), ("0.062", True), ("0.0621...", True), ("0.06...", True),
    ("0.039...", False), ("0.0622...", True), ("0.06218", False), ("6.218639e-02", True), ("6.2e-02", True),
    ("0.07", False),
])
def test_the_number_check_catches_a_wrong_comment(comment, ok):
    """The page runner on a synthetic page: the value is R's and Python's 0.06218639295315368."""
    code = f"x = 0.06218639295315368\nx  # {comment}, as R's probcal::ece(p, y)\nprint('done')\n"
    res = run_page([{"doc": "synthetic.md", "line": 10, "code": code, "run": True, "setup": "", "after": ""}],
                   timeout=120)
    assert (res.returncode == 0) == ok, res.stderr[-2000:]
    if not ok:
        assert f"synthetic.md:12: the comment says {comment}" in res.stderr, res.stderr[-2000:]


def test_blocks_run_as_pasted_without_imports_added():
    """A block that uses ``pc`` without importing it fails (nothing is imported for it)."""
    res = run_page([{"doc": "synthetic.md", "line": 1, "code": "pc.ece([0.2], [0])\n", "run": True,
                     "setup": "", "after": ""}], timeout=120)
    assert res.returncode != 0 and "NameError" in res.stderr


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


def test_dask_guide_lists_what_pycalib_r_dask_refuses():
    """docs/guide/dask.md's "What does not scale" names every function
    ``pycalib_r.dask`` refuses, and refuses none that its table computes
    (it listed ``ece_ci()`` as refused while the table and the code compute it)."""
    pytest.importorskip("dask")
    from pycalib_r.dask._refusals import REFUSED

    text = (REPO / "docs" / "guide" / "dask.md").read_text(encoding="utf-8")
    paragraph = text.split("**What does not scale, and why.**", 1)[1].split("\n\n", 1)[0]
    # "`name()` (reason)" is the page's form of a refusal
    said_refused = set(re.findall(r"`(\w+)\(\)`\s+\(", " ".join(paragraph.split())))
    table = text.split("| function | passes | per chunk |", 1)[1].split("\n\n", 1)[0]
    computed = {n for row in table.splitlines()[2:] for n in re.findall(r"`(\w+)", row.split("|")[1])}
    assert "ece_ci" in computed
    assert not said_refused & computed, f"computed in the table, refused in the text: {sorted(said_refused & computed)}"
    assert said_refused <= set(REFUSED), f"said refused, but computed: {sorted(said_refused - set(REFUSED))}"
    mentioned = set(re.findall(r"`(\w+)[(`]", paragraph))
    assert set(REFUSED) <= mentioned, f"refused but not named there: {sorted(set(REFUSED) - mentioned)}"

"""Provenance and licence: every ported module says what it is derived from.

pycalib_r is GPL-3.0-or-later (``LICENSE``) because many of its modules
translate third-party code (R, rms, Hmisc, MASS, reliabilitydiag, ...; see
``docs/provenance.md``). A module whose docstring says it ports something
(:data:`TRIGGERS`: "port of", "transcribed", "R's C code", "step by step",
"bit for bit", "nmath", "loess", ``rms::``, a package named with its
version, ...) must start with

    # SPDX-License-Identifier: GPL-3.0-or-later
    # Derived from: PROJECT VERSION FILES (LICENCE), (c) HOLDERS

(one "Derived from" line per source), or, where it follows a published method
and no code, a ``# Written from: ...`` line, or, where the phrase does not mean
a translation, a ``# Not derived: REASON`` line. Every R script under
``pycalib_r/r/``, ``reference/r/`` and ``tools/`` carries the SPDX line and
one of those lines whatever its text, and so does every C source under
``pycalib_r/_native/`` (as ``/* ... */`` or ``// ...`` comments). Every
project named in a "Derived from" line has an entry (``Name: PROJECT``) in
``LICENSES_bundled.txt``, and every licence text that file points to is in
``LICENSES/``.

A new ported module without its header fails :func:`test_every_ported_module_has_its_header`;
:func:`test_the_checker_catches_a_ported_module_without_its_header` shows it on
a synthetic module written to a temporary folder.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import List, Optional

import pytest

REPO = Path(__file__).resolve().parents[3]
SPDX = "SPDX-License-Identifier: GPL-3.0-or-later"

# Phrases of a docstring that say the module translates someone's code: the
# sources by name, and (for Python and R, not for the C kernels, which all
# repeat their Python twins' bits) the words of a translation.
SOURCES = (
    r"\bport of|\bported from|\bported operation|\ba port\b|transcri(?:bed|ption)|R's C\b|"
    r"loessf\.f|lowess\.c|toms708|AS 241|AS 91|LINPACK|src/nmath|src/main/|src/library/|src/appl/|"
    r"\bnmath\b|\bHmisc\b|\bMASS\b|AT&T|optimized-routines|\bd?loess\b|\blowess\b|R's code|"
    r"from its source|\b(?:rms|Hmisc|MASS|ResourceSelection|reliabilitydiag|bde)::|"
    r"\b(?:R|probcal|rms|Hmisc|MASS|reliabilitydiag|relplot|ResourceSelection|bde|cli|"
    r"scikit-learn|uncertainty-calibration)\b(?:[\w:.()`]*)\s+\(?\d+\.\d+")
PHRASES = r"step by step|step for step|operation for operation|bit for bit|line by line"
TRIGGERS = re.compile(SOURCES + "|" + PHRASES, re.I)
C_TRIGGERS = re.compile(SOURCES, re.I)
# The header lines (Python/R "#", C "/* */" or "//"), among the file's first lines.
_LINE = re.compile(r"^\s*(?:#|//|/\*|\*)\s*(SPDX-License-Identifier|Derived from|Written from|Not derived):\s*(.*?)\s*(?:\*/)?\s*$")
# "Derived from: PROJECT VERSION FILES (LICENCE), (c) HOLDERS"; PROJECT may
# be several words ("reference BLAS"), VERSION is the first word with a digit.
_DERIVED = re.compile(r"^(?P<project>[^\s\d]\S*(?: [^\s\d]\S*)*?) (?P<version>\d\S*) (?P<files>.+?) "
                      r"\((?P<licence>[^()]+)\), \(c\) (?P<holders>.+)$")
_HEAD_LINES = 60


# A header value may go on over the next comment lines, indented further
# (" *   (c) The R Core Team" in a C comment, "#   ..." in Python or R).
_CONTINUED = re.compile(r"^\s*(?:#|//|\*)\s{2,}(\S.*?)\s*(?:\*/)?\s*$")


def header(path: Path) -> dict:
    """The provenance lines at the top of ``path``: {kind: [values]}."""
    found: dict = {}
    last = None
    with open(path, encoding="utf-8") as fh:
        for _, line in zip(range(_HEAD_LINES), fh):
            m = _LINE.match(line)
            if m:
                last = m.group(1)
                found.setdefault(last, []).append(m.group(2))
                continue
            more = _CONTINUED.match(line)
            if last and more and found[last][-1]:
                found[last][-1] += " " + more.group(1)
            else:
                last = None
    return found


def gpl_only(licence: str) -> Optional[int]:
    """2 or 3 when every GPL option of ``licence`` is that version only, else None.

    "GPL-3", "GPL-3.0-only", "GPL-2.0-only OR GPL-3.0-only" (MASS: used under
    3) give 3; "GPL-2.0-only", "GPL-2" give 2; anything "or later" None.
    """
    options = [o for o in re.split(r"\s+OR\s+|\s*\|\s*", licence) if re.search(r"(?<!L)GPL", o)]
    if not options or any(re.search(r"or-later|\+|>=", o) for o in options):
        return None
    versions = {int(v) for o in options for v in re.findall(r"GPL-(\d)", o)}
    return 3 if 3 in versions else (2 if versions == {2} else None)


def docstring(path: Path) -> str:
    if path.suffix in (".c", ".h"):
        # a C source's first comment says what the file is
        text = path.read_text(encoding="utf-8")
        return text[:text.find("*/") + 2] if "*/" in text else ""
    if path.suffix != ".py":
        return path.read_text(encoding="utf-8")
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""


def check_file(path: Path, always: bool = False) -> List[str]:
    """What is wrong with ``path``'s provenance header (empty: nothing).

    ``always``: the header is required whatever the text says (R scripts).
    """
    text = docstring(path)
    trigger = (C_TRIGGERS if path.suffix in (".c", ".h") else TRIGGERS).search(text)
    if not (always or trigger):
        return []
    why = f"its text says {trigger.group(0)!r}" if trigger else "every such file needs one"
    head = header(path)
    problems: List[str] = []
    # A module derived from GPL-3-only code (reliabilitydiag, "GPL-3"; MASS,
    # "GPL-2 | GPL-3") cannot be offered under later versions: it says
    # GPL-3.0-only. GPL-2-only code cannot be in a GPL-3 package at all.
    licences = [m.group("licence") for v in head.get("Derived from", []) if (m := _DERIVED.match(v))]
    spdx = "GPL-3.0-only" if any(gpl_only(lic) == 3 for lic in licences) else "GPL-3.0-or-later"
    problems += [f"{path}: derived from GPL-2-only code ({lic}), which GPL-3 cannot include"
                 for lic in licences if gpl_only(lic) == 2]
    if head.get("SPDX-License-Identifier") != [spdx]:
        problems.append(f"{path}: no '# SPDX-License-Identifier: {spdx}' line at the top ({why})")
    kinds = [k for k in ("Derived from", "Written from", "Not derived") if k in head]
    if not kinds:
        problems.append(f"{path}: no '# Derived from: PROJECT VERSION FILES (LICENCE), (c) HOLDERS' "
                        f"line (nor 'Written from:' / 'Not derived:') at the top ({why})")
    for value in head.get("Derived from", []):
        if not _DERIVED.match(value):
            problems.append(f"{path}: 'Derived from: {value}' is not 'PROJECT VERSION FILES (LICENCE), (c) HOLDERS'")
    return problems


def derived_projects(path: Path) -> List[str]:
    return [m.group("project") for v in header(path).get("Derived from", [])
            if (m := _DERIVED.match(v))]


def python_modules() -> List[Path]:
    # The C sources under pycalib_r/_native/src are checked below.
    return sorted((REPO / "pycalib_r").rglob("*.py"))


def always_files() -> List[Path]:
    return sorted(p for d in ("pycalib_r/r", "reference/r", "tools") for p in (REPO / d).glob("*.R"))


def c_sources() -> List[Path]:
    """The compiled kernels' C sources (pycalib_r/_native/), checked as modules are."""
    native = REPO / "pycalib_r" / "_native"
    return sorted(p for p in native.rglob("*") if p.suffix in (".c", ".h")) if native.is_dir() else []


def bundled_names() -> List[str]:
    text = (REPO / "LICENSES_bundled.txt").read_text(encoding="utf-8")
    return re.findall(r"^Name: (.+)$", text, re.M)


def has_entry(project: str, names: List[str]) -> bool:
    """``Name: PROJECT`` or ``Name: PROJECT (...)`` is in LICENSES_bundled.txt."""
    return any(re.match(rf"{re.escape(project)}(?:\s|$)", name) for name in names)


# The two modules that translated GPL-2-only code (ResourceSelection's
# hoslem.test, bde's beta kernel) are being rewritten from the published
# methods (issue 47); each gets its header with its rewrite, checked below.
REWRITTEN = {
    "pycalib_r/diagnostics/_hoslem.py": "Hosmer & Lemeshow's test, written from the published method",
    "pycalib_r/diagnostics/_corp.py": "reliabilitydiag's R code, and Chen's beta kernel written from the paper",
}


def test_every_ported_module_has_its_header():
    problems = [p for f in python_modules() if str(f.relative_to(REPO)) not in REWRITTEN
                for p in check_file(f)]
    problems += [p for f in c_sources() for p in check_file(f)]
    problems += [p for f in always_files() for p in check_file(f, always=True)]
    # scikit-learn's calibration tests, ported (a test module, named here).
    problems += check_file(REPO / "tests" / "sklearn" / "test_sklearn_calibration_port.py", always=True)
    assert not problems, "\n".join(str(p).replace(str(REPO) + "/", "") for p in problems)



def test_no_module_derives_from_toms708():
    """ACM's licence of TOMS 708 forbids commercial use, which GPL-3 allows
    (docs/provenance.md, "TOMS 708"): no file of the package translates R's
    toms708.c (qbinom's pbeta is SciPy's betainc)."""
    files = sorted(p for p in (REPO / "pycalib_r").rglob("*") if p.suffix in (".py", ".c", ".h"))
    hits = [str(f.relative_to(REPO)) for f in files
            if any("toms708" in v.lower() for v in header(f).get("Derived from", []))]
    assert not hits
    assert not (REPO / "pycalib_r" / "_rng" / "nmath" / "_toms708.py").exists()

@pytest.mark.parametrize("module", sorted(REWRITTEN))
def test_the_rewritten_modules_have_their_headers(module):
    problems = check_file(REPO / module)
    if problems and not header(REPO / module):
        pytest.xfail(f"{module}: {REWRITTEN[module]}: its header comes with its rewrite (issue 47)")
    assert not problems, problems


def test_every_project_named_in_a_header_is_in_licenses_bundled():
    names = bundled_names()
    files = python_modules() + c_sources() + always_files() + [REPO / "tests" / "sklearn" / "test_sklearn_calibration_port.py"]
    missing = sorted({f"{proj} (in {f.relative_to(REPO)})" for f in files for proj in derived_projects(f)
                      if not has_entry(proj, names)})
    assert not missing, f"projects named in a 'Derived from' line without a 'Name:' entry in LICENSES_bundled.txt: {missing}"


def test_licence_files_exist_and_are_referenced():
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("                    GNU GENERAL PUBLIC LICENSE\n                       Version 3")
    bundled = (REPO / "LICENSES_bundled.txt").read_text(encoding="utf-8")
    referenced = set(re.findall(r"LICENSES/([\w+-]+(?:\.\d+)?)", bundled))
    assert {"GPL-2.0", "GPL-3.0", "LGPL-2.1", "MIT", "BSD-3-Clause", "LicenseRef-Apple-relplot"} <= referenced
    for name in referenced:
        assert (REPO / "LICENSES" / name).is_file(), f"LICENSES_bundled.txt points to LICENSES/{name}, which is missing"
    # every entry has its four fields
    for entry in re.split(r"\n(?=Name: )", bundled)[1:]:
        for field in ("Name:", "Files:", "License:"):
            assert field in entry, f"an entry of LICENSES_bundled.txt has no {field!r}: {entry[:200]!r}"


def test_pyproject_declares_the_licence():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    meta = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["license"] == "GPL-3.0-or-later"
    assert {"LICENSE", "LICENSES_bundled.txt", "LICENSES/*"} <= set(meta["project"]["license-files"])


def test_ece_interval_says_it_is_written_from_the_paper_alone():
    import pycalib_r.inference._ece_interval as mod

    doc = " ".join(mod.__doc__.split())
    assert "written from the paper alone" in doc and "no code" in doc


# --- the checker itself ------------------------------------------------------

_PORTED = '''"""R's ``foo()``, a port of R 4.2.2's ``src/library/stats/src/foo.c``, bit for bit."""

def foo(x):
    return x
'''


@pytest.mark.parametrize("head,problems", [
    ("", 2),                                                      # no header at all
    (f"# {SPDX}\n", 1),                                           # the licence, no source
    ("# Derived from: R 4.2.2 src/library/stats/src/foo.c (GPL-2.0-or-later), (c) The R Core Team\n", 1),
    (f"# {SPDX}\n# Derived from: R, somewhere\n", 1),             # a source line without its fields
    (f"# {SPDX}\n# Derived from: R 4.2.2 src/library/stats/src/foo.c (GPL-2.0-or-later), (c) The R Core Team\n", 0),
])
def test_the_checker_catches_a_ported_module_without_its_header(tmp_path, head, problems):
    module = tmp_path / "_foo.py"
    module.write_text(head + _PORTED, encoding="utf-8")
    found = check_file(module)
    assert len(found) == problems, found
    # the same module, saying nothing about a port, needs no header
    plain = tmp_path / "_bar.py"
    plain.write_text('"""A helper of our own."""\n', encoding="utf-8")
    assert check_file(plain) == []


def test_the_checker_reads_c_comments(tmp_path):
    src = tmp_path / "foo.c"
    src.write_text(f"/* {SPDX}\n * Derived from: R 4.2.2 src/nmath/qnorm.c (GPL-2-or-later),\n"
                   " *   (c) The R Core Team; AS 241 (c) Royal Statistical Society\n *\n"
                   " * R's qnorm, bit for bit.\n */\n#include <math.h>\n", encoding="utf-8")
    assert check_file(src) == []
    assert derived_projects(src) == ["R"]
    bare = tmp_path / "bar.c"
    bare.write_text("/* R's qnorm (src/nmath/qnorm.c), bit for bit. */\n#include <math.h>\n", encoding="utf-8")
    assert len(check_file(bare)) == 2
    own = tmp_path / "own.c"
    own.write_text(f"/* {SPDX}\n *\n * Loops of our own kernel.\n */\n", encoding="utf-8")
    assert check_file(own) == []


@pytest.mark.parametrize("licence,spdx,problems", [
    ("GPL-3", "GPL-3.0-or-later", 1), ("GPL-3", "GPL-3.0-only", 0),
    ("GPL-2.0-only OR GPL-3.0-only", "GPL-3.0-only", 0), ("GPL-2-or-later", "GPL-3.0-or-later", 0),
    ("GPL-2.0-only", "GPL-3.0-or-later", 1), ("MIT", "GPL-3.0-or-later", 0),
])
def test_the_checker_knows_which_gpl_versions_combine(tmp_path, licence, spdx, problems):
    module = tmp_path / "_foo.py"
    module.write_text(f"# SPDX-License-Identifier: {spdx}\n# Derived from: foo 1.0 R/foo.R ({licence}), "
                      f"(c) Foo\n" + _PORTED, encoding="utf-8")
    assert len(check_file(module)) == problems, check_file(module)




# --- the built distributions carry the licence files -------------------------

_LICENCE_FILES = ("LICENSE", "LICENSES_bundled.txt", "LICENSES/GPL-2.0", "LICENSES/GPL-3.0",
                  "LICENSES/LGPL-2.1", "LICENSES/MIT", "LICENSES/BSD-3-Clause",
                  "LICENSES/LicenseRef-Apple-relplot")


def _build_backend_ready() -> Optional[str]:
    """None when ``python -m build --no-isolation`` can run here, else why not."""
    import importlib.util

    if importlib.util.find_spec("build") is None:
        return "the 'build' package is missing (it is in the test extra: pip install '.[test]')"
    try:
        from importlib.metadata import version

        major = int(version("setuptools").split(".")[0])
    except Exception:  # noqa: BLE001 - no setuptools at all
        return "setuptools is missing"
    if major < 77:
        return f"setuptools {version('setuptools')} is older than 77 (PEP 639 licence metadata; test extra)"
    return None


def test_sdist_and_wheel_carry_the_licence_files(tmp_path):
    """``python -m build`` (sdist, then the wheel from it) on a copy of the checkout."""
    import shutil
    import subprocess
    import sys
    import tarfile
    import zipfile

    why = _build_backend_ready()
    if why:
        pytest.skip(why)
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".git", "_build", "__pycache__", "*.egg-info", "build", "dist", "api", "gallery", "reference"))
    # From tmp_path and without PYTHONPATH: a checkout's own build/ folder
    # (setuptools' work tree) on the path would shadow the build package.
    from tests.conftest import ORIGINAL_ENV

    env = {k: v for k, v in ORIGINAL_ENV.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(src)],
                         capture_output=True, text=True, timeout=600, check=False, cwd=str(tmp_path), env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    sdist = next((tmp_path / "dist").glob("*.tar.gz"))
    wheel = next((tmp_path / "dist").glob("*.whl"))
    with tarfile.open(sdist) as tar:
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    in_wheel = {n.split("/licenses/", 1)[1] for n in names if n.startswith(f"{dist_info}/licenses/")}
    for name in _LICENCE_FILES:
        assert name in in_sdist, f"{name} is not in the sdist"
        assert name in in_wheel, f"{name} is not in the wheel's {dist_info}/licenses/"
    with zipfile.ZipFile(wheel) as whl:
        metadata = whl.read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: GPL-3.0-or-later" in metadata
    assert "MIT" not in [line.split(": ", 1)[1] for line in metadata.splitlines() if line.startswith("License:")]

"""The package's layout by concern (issue 33; docs/architecture.md).

What the layout must keep: no import cycle inside pycalib_r (at any depth of
the code, lazy imports included), no module over 1,000 lines, the core never
importing a face (``pycalib_r.sklearn``, ``.dask``, ``.cli``, ``.rcheck``),
a small top level, no code naming a module's old flat path, the public API
of release 0.2.0, and pickles made by release 0.2.0 (before the move, so
naming the old paths) loading through the alias map
(``pycalib_r._rng._pickle_compat``) and behaving as the objects made now.
"""

from __future__ import annotations

import ast
import json
import pathlib
import pickle
import re
import subprocess
import sys

import pytest

import pycalib_r
from pycalib_r._rng import _pickle_compat

from tests import _layout_pickles
from tests.conftest import ORIGINAL_ENV

PKG = pathlib.Path(pycalib_r.__file__).parent
REPO = PKG.parent
PICKLES = REPO / "reference" / "fixtures" / "layout_pickles"
MANIFEST = json.loads((PICKLES / "manifest.json").read_text(encoding="utf-8"))

FACES = ("pycalib_r.sklearn", "pycalib_r.dask", "pycalib_r.cli", "pycalib_r.rcheck")
# Modules that are part of a face without living in its folder.
FACE_MODULES = {"pycalib_r.__main__"}
# Core -> face imports that exist for a reason, each named here (a new one
# fails). None: predict(fit, newdata) reaches the Dask face through the
# registry in calibrators/_lazy_faces.py, which pycalib_r.dask fills.
ALLOWED_FACE_IMPORTS: set = set()
# The top level: the package's own files and its subpackages (docs/architecture.md).
TOP_LEVEL_MODULES = {"__init__.py", "__main__.py"}
MAX_TOP_LEVEL = 18  # 16, then rstats (issue 49) and clinical/ (val_prob_ci, pmcalibration; issue 51)
MAX_LINES = 1000

def _module_name(path):
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PKG.rglob("*.py")) if "__pycache__" not in p.parts}


def _imports(name, path, top_only=False):
    """The modules ``name`` imports (resolved; at any depth, or at import time only)."""
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = []
    if top_only:
        def walk(body):
            for n in body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    continue
                nodes.append(n)
                for field in ("body", "orelse", "finalbody", "handlers"):
                    if isinstance(getattr(n, field, None), list):
                        walk(getattr(n, field))
        walk(tree.body)
    else:
        nodes = list(ast.walk(tree))
    out = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _graph():
    g = {}
    for m, p in MODULES.items():
        # a submodule may reach back into its own package's __init__, which Python resolves
        g[m] = {d for d in _imports(m, p) if d in MODULES and d != m and not m.startswith(d + ".")}
    return g


def _is_face(m):
    return m in FACE_MODULES or any(m == f or m.startswith(f + ".") for f in FACES)


def test_no_import_cycle_inside_the_package():
    edges = {m: {d for d in ds if (m, d) not in ALLOWED_FACE_IMPORTS} for m, ds in _graph().items()}
    seen, stack, cycles = set(), [], []

    def visit(m):
        if m in stack:
            cycles.append(" -> ".join(stack[stack.index(m):] + [m]))
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for d in sorted(edges[m]):
            visit(d)
        stack.pop()

    for m in sorted(edges):
        visit(m)
    assert cycles == [], "import cycles (break them; see docs/architecture.md):\n" + "\n".join(cycles)


def test_no_module_over_1000_lines():
    long = {m: n for m, p in MODULES.items()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"modules over {MAX_LINES} lines (split them by concern): {long}"


def test_the_core_imports_no_face():
    bad = sorted((m, d) for m, ds in _graph().items() if not _is_face(m)
                 for d in ds if _is_face(d) and (m, d) not in ALLOWED_FACE_IMPORTS)
    assert bad == [], f"the core imports a face (faces import the core, never the reverse): {bad}"


def test_the_core_imports_optional_dependencies_lazily():
    optional = ("sklearn", "dask", "distributed", "matplotlib", "rpy2", "polars", "pyarrow")
    bad = sorted((m, d) for m, p in MODULES.items() if not _is_face(m)
                 for d in _imports(m, p, top_only=True) if d.split(".")[0] in optional)
    assert bad == [], f"the core imports an optional dependency at import time: {bad}"


def test_the_top_level_stays_small():
    entries = sorted(x.name for x in PKG.iterdir() if x.name != "__pycache__" and not x.name.startswith("."))
    flat = [e for e in entries if e.endswith(".py") and e not in TOP_LEVEL_MODULES]
    assert flat == [], (f"new flat modules {flat}: put each in the subpackage of its concern "
                        "(docs/architecture.md)")
    assert len(entries) <= MAX_TOP_LEVEL, entries


def test_every_moved_module_has_its_alias_and_no_old_file():
    assert _pickle_compat.LAYOUT
    for old, new in _pickle_compat.LAYOUT.items():
        assert new in MODULES, (old, new)
        assert old not in MODULES, f"{old} exists again beside its new home {new}"


_OLD = re.compile(r"(?<![\w.])(" + "|".join(re.escape(o) for o in sorted(
    _pickle_compat.LAYOUT, key=len, reverse=True)) + r")(?![\w])")
_MAY_NAME_OLD = {"pycalib_r/_rng/_pickle_compat.py", "tests/suites/project/test_layout.py", "tests/_layout_pickles.py",
                 "tools/make_layout_pickles.py"}


def test_no_code_names_an_old_module_path():
    # The alias map would serve an old path silently; the package, its tests
    # and tools must name the new ones.
    found = []
    for root in ("pycalib_r", "tests", "tools"):
        for p in sorted((REPO / root).rglob("*.py")):
            rel = p.relative_to(REPO).as_posix()
            if rel in _MAY_NAME_OLD or "__pycache__" in p.parts:
                continue
            tree = ast.parse(p.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    names = _OLD.findall(node.value)
                found += [f"{rel}:{node.lineno}: {n}" for n in names if n in _pickle_compat.LAYOUT]
    assert found == [], "old module paths:\n" + "\n".join(found)


@pytest.mark.parametrize("face", sorted(MANIFEST["public"]))
def test_the_public_api_of_0_2_0_is_kept(face):
    # release 0.2.0's __all__ (stored with the pickles, before the move) is still there
    if face == "pycalib_r.sklearn":
        pytest.importorskip("sklearn")
    import importlib

    module = importlib.import_module(face)
    missing = [n for n in MANIFEST["public"][face] if n not in module.__all__ or not hasattr(module, n)]
    assert missing == []
    if face == "pycalib_r":
        for sub in ("rbase", "inputs", "binned", "kernel", "inference", "diagnostics", "clinical", "cli"):
            assert sub not in module.__all__  # a subpackage never shadows a public name


def test_the_stored_pickles_name_the_old_paths():
    # They were made before the move: at least the results name flat modules.
    named = {m for o in MANIFEST["objects"].values() for m in o["modules"]}
    assert {"pycalib_r._inference", "pycalib_r._rlist", "pycalib_r._ece_interval"} <= named
    assert MANIFEST["pycalib_r"] == "0.2.0"
    assert set(MANIFEST["objects"]) == set(_layout_pickles.RECIPES)


def _load(name):
    what, build, kind = _layout_pickles.RECIPES[name]
    if kind.startswith("sklearn"):
        pytest.importorskip("sklearn")
    entry = MANIFEST["objects"][name]
    return pickle.loads((PICKLES / entry["file"]).read_bytes()), build, kind, entry


# Python-only results whose print may change between releases (R's prints may not).
PRINT_CHANGED_SINCE_0_2_0 = {"ece_ci"}


def _now(qualname):
    module, _, cls = qualname.rpartition(".")
    return f"{_pickle_compat.MOVED.get(module, module)}.{cls}"


@pytest.mark.parametrize("name", sorted(_layout_pickles.RECIPES))
def test_a_pickle_of_release_0_2_0_loads_and_shows_what_it_showed(name):
    # Its print, predictions or next draws are the text stored when it was pickled.
    old, _, kind, entry = _load(name)
    seen = _layout_pickles.observe(kind, old)
    stored = dict(entry["observed"])
    assert seen.pop("class") == _now(stored.pop("class"))
    if name in PRINT_CHANGED_SINCE_0_2_0:
        # its 0.2.0 components keep their values (later ones may be added);
        # its print is today's, and it must still print
        for key in ("str", "repr"):
            assert seen.pop(key) and stored.pop(key)
        now, then = ast.literal_eval(seen.pop("value")), ast.literal_eval(stored.pop("value"))
        assert {k: now.get(k) for k in then} == then
    assert seen == stored


# Fitted models and streams: the pickle predicts and draws what the same fit
# or stream made now does.
_MODELS = sorted(n for n, (_, _, kind) in _layout_pickles.RECIPES.items()
                 if kind in ("binary", "logits", "probs", "stream", "sklearn", "sklearn_cal", "print"))


@pytest.mark.parametrize("name", _MODELS)
def test_a_pickle_of_release_0_2_0_behaves_as_the_object_made_now(name):
    old, build, kind, _ = _load(name)
    seen = _layout_pickles.observe(kind, old)
    if kind == "sklearn" and seen != _layout_pickles.observe(kind, build()):
        # The base model (scikit-learn's LogisticRegression) is fitted
        # through OpenBLAS, whose kernel, chosen by the CPU, moves its last
        # bits (pycalib_r's own layer does not depend on it:
        # test_canonical_kernels): the same fit now, under the OpenBLAS core
        # type the pickle was made with, one of those this CPU can run.
        assert seen in _sklearn_fits_under_each_openblas_core(name), seen
        return
    assert seen == _layout_pickles.observe(kind, build())


_CHILD_FIT = """
import json, sys
from tests import _layout_pickles as L
_, build, kind = L.RECIPES[sys.argv[1]]
print(json.dumps(L.observe(kind, build())))
"""


def _sklearn_fits_under_each_openblas_core(name):
    seen = []
    for core in ("Prescott", "Nehalem", "Sandybridge", "Haswell", "SkylakeX"):
        env = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), OPENBLAS_CORETYPE=core)
        run = subprocess.run([sys.executable, "-c", _CHILD_FIT, name], env=env, cwd=REPO, capture_output=True,
                             text=True, timeout=600)
        if run.returncode < 0:  # SIGILL: instructions this CPU lacks
            continue
        assert run.returncode == 0, run.stderr
        seen.append(json.loads(run.stdout.strip().splitlines()[-1]))
    return seen


def test_an_old_pickle_loads_in_a_fresh_interpreter():
    # Unpickling alone (no `import pycalib_r` first) finds the old paths.
    code = ("import pickle, sys\n"
            f"obj = pickle.loads(open({str(PICKLES / 'cal_test.pkl')!r}, 'rb').read())\n"
            "print(type(obj).__module__, type(obj).__name__)\n")
    # the environment before R was loaded (rpy2 changes it in this process), as tests/rcheck/test_rcheck.py
    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=REPO, env=env, timeout=600)
    assert out.stdout.split() == ["pycalib_r.inference._inference", "CalTest"]


# --- Rooms and the imports each may make (issue 49) ----------------------------
#
# docs/architecture.md's table "Who imports whom" is the rule: one row per
# room, the rooms it may import in backticks (a note in parentheses is not read). The code's imports (at any
# depth, lazy ones included) must be exactly those arrows: a new arrow fails
# until the page names it, and an arrow the page names but no code makes
# fails until the page drops it.

ARCHITECTURE = REPO / "docs" / "architecture.md"
TOP = "pycalib_r"  # the package's own __init__: the public API


def _room(module):
    if module == TOP:
        return TOP
    if module in FACE_MODULES:  # pycalib_r.__main__ is the command line's
        return "cli"
    return module.split(".")[1]


def _documented_rooms():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Who imports whom", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`"):
            continue
        room = re.findall(r"`([\w.]+)`", cells[0])[0]
        # a note in parentheses says why; only the names outside are rooms
        table[room] = set(re.findall(r"`([\w.]+)`", re.sub(r"\([^)]*\)", "", cells[1])))
    return table


def _targets(name, path):
    """The modules ``name`` imports, at any depth: ``from X import y`` names
    ``X.y`` where that is a module, else ``X`` (so ``from .. import val_prob``
    is an import of the top level, and ``from .. import _native`` is not)."""
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                mod = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.update(f"{mod}.{a.name}" if f"{mod}.{a.name}" in MODULES else mod for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {d for d in out if d in MODULES}


def _room_imports():
    arrows = {}
    for m, p in MODULES.items():
        for d in _targets(m, p):
            a, b = _room(m), _room(d)
            if a != b:
                arrows.setdefault((a, b), []).append(f"{m} -> {d}")
    return arrows


def test_each_room_imports_exactly_what_the_architecture_page_allows():
    table = _documented_rooms()
    rooms = {_room(m) for m in MODULES}
    assert set(table) == rooms, f"rooms in the code and in docs/architecture.md differ: {set(table) ^ rooms}"
    for room, allowed in table.items():
        assert allowed <= rooms, f"{room}: the page names rooms that do not exist: {allowed - rooms}"
    arrows = _room_imports()
    undocumented = sorted(f"{a} -> {b} ({v[0]})" for (a, b), v in arrows.items() if b not in table[a])
    assert undocumented == [], ("imports the architecture page does not allow (move the code to the "
                                "right room, or name the arrow in docs/architecture.md):\n" + "\n".join(undocumented))
    stale = sorted(f"{a} -> {b}" for a, allowed in table.items() for b in allowed if (a, b) not in arrows)
    assert stale == [], "docs/architecture.md allows imports no code makes (drop them):\n" + "\n".join(stale)


def test_rstats_sits_below_the_rooms_that_use_it():
    # R's numerics import no metric, calibrator, stream or face (docs/architecture.md).
    assert _documented_rooms()["rstats"] <= {"_native", "rbase", "inputs"}
    assert "rstats" in _documented_rooms()["_rng"]


# --- Underscore names across rooms (issue 49) ----------------------------------
#
# What one room takes from another is a name without a leading underscore
# (public inside the package; rstats/__init__.py exports R's numerics so).
# The few exceptions are named here with their reason; a new one fails.
# Modules (``from ..rbase import _warn``) and dunders (``__version__``) are
# not names in this sense.

MAX_PRIVATE_ACROSS_ROOMS = 5
PRIVATE_ACROSS_ROOMS: dict = {
    # ("importing module", "defining.module._name"): "reason",
}


def _private_across_rooms(name, source, pkg_is_name=False):
    """(module, imported name) for each underscore name ``name`` takes from another room."""
    pkg = name if pkg_is_name else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = pkg.split(".")
            base = base[:len(base) - node.level + 1]
            mod = ".".join(base + ([node.module] if node.module else []))
        else:
            mod = node.module or ""
        if mod != TOP and not mod.startswith(TOP + "."):
            continue
        for a in node.names:
            full = f"{mod}.{a.name}"
            dunder = a.name.startswith("__") and a.name.endswith("__")
            if a.name.startswith("_") and not dunder and full not in MODULES and _room(mod) != _room(name):
                found.append((name, full))
    return found


def _all_private_across_rooms():
    found = []
    for m, p in MODULES.items():
        found += _private_across_rooms(m, p.read_text(encoding="utf-8"), p.name == "__init__.py")
    return found


def _unexplained(found):
    return sorted(f"{m} imports {n}" for m, n in found if (m, n) not in PRIVATE_ACROSS_ROOMS)


def test_no_room_takes_an_underscore_name_from_another():
    found = _all_private_across_rooms()
    assert len(PRIVATE_ACROSS_ROOMS) <= MAX_PRIVATE_ACROSS_ROOMS
    assert all(reason.strip() for reason in PRIVATE_ACROSS_ROOMS.values())
    assert _unexplained(found) == [], (
        "a room imports another room's underscore name: export it without the underscore (a public "
        "alias where it is defined or in the room's __init__.py, as rstats/__init__.py does), or name it with its "
        "reason in PRIVATE_ACROSS_ROOMS:\n" + "\n".join(_unexplained(found)))
    # every named exception still exists (a stale entry is dropped)
    assert set(PRIVATE_ACROSS_ROOMS) <= set(found)


def test_a_new_underscore_import_across_rooms_fails():
    # A synthetic module of the Dask face reaching into a calibrator's and
    # R's numerics' private names; the same room's private names stay allowed.
    source = ("from ..calibrators._platt import _platt_calibrator, cal_platt\n"
              "from ..rstats._glm import _linkinv\n"
              "from ._collect import _private_helper\n"
              "from .. import __version__\n"
              "from ..rbase import _warn\n"
              "def f():\n"
              "    from ..inputs._checks import _abort\n")
    found = _private_across_rooms("pycalib_r.dask._synthetic", source)
    assert _unexplained(found) == ["pycalib_r.dask._synthetic imports pycalib_r.calibrators._platt._platt_calibrator",
                                   "pycalib_r.dask._synthetic imports pycalib_r.inputs._checks._abort",
                                   "pycalib_r.dask._synthetic imports pycalib_r.rstats._glm._linkinv"]
    assert _unexplained(_all_private_across_rooms() + found) != []


def test_r_numerics_have_one_copy():
    # AS 241's first coefficient appears in one Python module (its compiled
    # twin, _native/src/rng.c, is held to it by tests/native/test_native_rng.py), and
    # the rooms that use R's numerics call rstats' functions, not copies.
    as241 = "2509.0809287301226727"
    holders = sorted(m for m, p in MODULES.items() if as241 in p.read_text(encoding="utf-8"))
    assert holders == ["pycalib_r.rstats._qnorm"]
    from pycalib_r import rstats
    from pycalib_r._rng.nmath import _dists
    from pycalib_r._rng.stream import _stream_dists
    from pycalib_r.calibrators import _isotonic, _platt
    from pycalib_r.diagnostics import _corp, _hoslem, _validation
    assert _dists.qnorm_open1 is rstats.qnorm_open1 and _dists._qnorm_open is rstats.qnorm_open
    assert _stream_dists.qbinom_upper is rstats.qbinom_upper
    assert _corp._pava_binary is rstats.pava_binary and _corp._approx_linear is rstats.approx_linear
    assert _isotonic.isoreg is rstats.isoreg and _platt.glm_binomial is rstats.glm_binomial
    assert _hoslem.pchisq is rstats.pchisq and _validation.lowess is rstats.lowess
    pytest.importorskip("dask")
    from pycalib_r.dask import _calibrators as dask_calibrators

    from pycalib_r.dask import _weighted as dask_weighted

    # The Dask fits run rstats' one IRLS on rstats' per-chunk sums.
    assert dask_calibrators.glm_irls_merged is rstats.glm_irls_merged
    assert dask_calibrators.glm_chunk_sums is rstats.glm_chunk_sums is dask_weighted.glm_chunk_sums


# glm.fit's loop control: what a second IRLS outside rstats would name.
_IRLS_NAMES = {"halve_step", "irls_loop", "converged", "GLM_EPSILON", "GLM_MAXIT", "_EPSILON", "_MAXIT"}


def _is_convergence_rule(node) -> bool:
    """``<...> / (abs(<...>) + 0.1)``: the left side of glm.fit's convergence rule."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
        return False
    den = node.right
    return (isinstance(den, ast.BinOp) and isinstance(den.op, ast.Add)
            and isinstance(den.right, ast.Constant) and den.right.value == 0.1
            and isinstance(den.left, ast.Call)
            and getattr(den.left.func, "id", getattr(den.left.func, "attr", None)) == "abs")


def _second_irls(source: str):
    """Where a module keeps an IRLS loop of its own: glm.fit's convergence rule,
    its loop control's names from rstats, or the family's ``mu.eta`` called in a loop."""
    tree = ast.parse(source)
    mu_eta = {"mu_eta", "_mu_eta"} | {a.asname or a.name for n in ast.walk(tree)
                                      if isinstance(n, ast.ImportFrom) for a in n.names
                                      if a.name in ("mu_eta", "_mu_eta")}
    found = set()
    for node in ast.walk(tree):
        if _is_convergence_rule(node):
            found.add(f"convergence rule, line {node.lineno}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in ("rstats", "_glm", "_linpack"):
            found.update(f"imports {a.name}" for a in node.names if a.name in _IRLS_NAMES)
        elif isinstance(node, (ast.For, ast.While)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and getattr(sub.func, "id", getattr(sub.func, "attr", None)) in mu_eta:
                    found.add(f"mu.eta in a loop, line {sub.lineno}")
    return sorted(found)


def test_glm_irls_has_one_copy():
    # glm.fit's IRLS loop lives in rstats alone (_glm.irls_loop; the lockstep
    # fits of _glm_lockstep run it vectorised beside it); the in-memory fit
    # and the Dask face's mergeable passes (rstats.glm_irls_merged) both run it.
    # A face or a calibrator that loops over its own IRLS steps fails here.
    holders = {m: where for m, p in MODULES.items()
               if m.split(".")[:2] not in (["pycalib_r", "rstats"], ["pycalib_r", "_native"])
               for where in [_second_irls(p.read_text(encoding="utf-8"))] if where}
    assert holders == {}
    # The scan finds the loop it is meant to find.
    src = (PKG / "rstats" / "_glm.py").read_text(encoding="utf-8")
    assert _second_irls(src) and _second_irls(
        "from ..rstats import mu_eta as f\nfor i in range(3):\n    d = f(eta)\n")

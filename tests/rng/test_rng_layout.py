"""The layout of pycalib_r._rng: one package, imports in one direction, old pickles load.

The random streams live in one package with rooms named after R's sources
(``bitgen``: src/main/RNG.c, ``nmath``: src/nmath, ``do_sample``:
src/main/random.c, ``stream``: the R-facing objects). These tests pin what
the move must keep: the import graph of the package has no circle (the
stream classes used to import each other through function-level imports),
and a stream pickled under the old module paths still loads.
"""

from __future__ import annotations

import ast
import pathlib
import pickle
import sys
import warnings

import numpy as np
import pytest

import pycalib_r
from pycalib_r import _rng
from pycalib_r._rng import _pickle_compat

PKG = pathlib.Path(pycalib_r.__file__).parent / "_rng"


def _module_name(path):
    rel = path.relative_to(PKG.parent.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path):
    """Every module of pycalib_r._rng that ``path`` imports, at any depth of its code."""
    name = _module_name(path)
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = pkg.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def _graph():
    files = sorted(PKG.rglob("*.py"))
    mods = {_module_name(p): p for p in files}
    return {m: {d for d in _imports(p) if d in mods and d != m} for m, p in mods.items()}


def test_the_stream_classes_import_in_one_direction():
    g = _graph()
    st = "pycalib_r._rng.stream."
    assert st + "_stream_dists" in g[st + "_stream"]
    assert st + "_dist_fast" in g[st + "_stream_dists"]
    assert st + "_stream" not in g[st + "_dist_fast"]


def test_no_import_circle_in_the_package():
    # A submodule may reach back into its own package's __init__ (the kind
    # tables of bitgen), which Python resolves; any other circle is a defect.
    g = _graph()

    def is_own_package(a, b):
        return a.startswith(b + ".")

    edges = {m: {d for d in ds if not is_own_package(m, d)} for m, ds in g.items()}
    seen, stack, cycles = set(), [], []

    def visit(m):
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
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
    assert cycles == []


def test_only_rrandom_reads_the_mersenne_twister_words():
    from pycalib_r._rng.stream._kinds import KindStream

    assert _rng.RRandom._reads_mt_words is True
    assert KindStream._reads_mt_words is False


def _as_old_pickle(obj):
    # Protocol 2 names classes as text ("c<module>\n<name>\n"), so the old
    # module paths can be written back in.
    data = pickle.dumps(obj, protocol=2)
    for old, new in sorted(_pickle_compat.MOVED.items(), key=lambda kv: -len(kv[1])):
        data = data.replace(b"c" + new.encode() + b"\n", b"c" + old.encode() + b"\n")
    return data


@pytest.mark.parametrize("kind", ["Mersenne-Twister", "Wichmann-Hill", "L'Ecuyer-CMRG",
                                  "Knuth-TAOCP-2002"])
def test_a_stream_pickled_under_the_old_paths_loads(kind):
    r = _rng.RRandom(1)
    r.set_seed(7, kind=kind, normal_kind="Box-Muller")
    r.runif(3)
    data = _as_old_pickle(r)
    assert b"pycalib_r._rng.stream." not in data and b"pycalib_r._rng.bitgen" not in data
    back = pickle.loads(data)
    assert type(back) is type(r)
    with warnings.catch_warnings():
        # the aliased modules keep their own spec: no ImportWarning later
        warnings.simplefilter("error")
        np.testing.assert_array_equal(back.rnorm(5), r.rnorm(5))
        back.set_seed(3, kind="Super-Duper")
        r.set_seed(3, kind="Super-Duper")
        np.testing.assert_array_equal(back.sample_int(10, 4), r.sample_int(10, 4))
    assert back.get_state().tolist() == r.get_state().tolist()
    for new in _pickle_compat.MOVED.values():
        if new in sys.modules:
            assert sys.modules[new].__spec__.name == new


def test_a_generator_stream_pickled_under_the_old_path_loads():
    g = _rng.GeneratorStream(np.random.default_rng(3))
    back = pickle.loads(_as_old_pickle(g))
    np.testing.assert_array_equal(back.runif(4), g.runif(4))

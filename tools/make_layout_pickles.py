"""Pickle the objects of tests/_layout_pickles.py into reference/fixtures/layout_pickles/.

These pickles were made at release 0.2.0 (commit cb2ed28), BEFORE the package
moved into subpackages by concern (issue 33), so that they name the old flat
module paths (``pycalib_r._inference.CalTest``, ``pycalib_r._rlist.NamedNumber``,
...). tests/suites/project/test_layout.py loads them through the alias map
(``pycalib_r._rng._pickle_compat.MOVED``). Running this script again after the
move would write pickles naming the NEW paths: keep the stored ones.

Usage: ``python tools/make_layout_pickles.py`` at the root of a checkout.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import pickle
import pickletools
import platform
import sys

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import pycalib_r  # noqa: E402
import _layout_pickles  # noqa: E402

OUT = REPO / "reference" / "fixtures" / "layout_pickles"


def _modules(data):
    """The pycalib_r modules a pickle names (the classes it needs)."""
    mods, strings = set(), []
    for op, arg, _ in pickletools.genops(data):
        if op.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            strings.append(arg)
        elif op.name == "STACK_GLOBAL" and len(strings) >= 2:
            mods.add(strings[-2])
        elif op.name == "GLOBAL":
            mods.add(arg.split(" ")[0])
    return sorted(m for m in mods if m.startswith("pycalib_r"))


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = {
        "generator": "tools/make_layout_pickles.py",
        "recipes": "tests/_layout_pickles.py",
        "pycalib_r": pycalib_r.__version__,
        "made_before": "the layout move of issue 33 (flat modules)",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pickle_protocol": pickle.DEFAULT_PROTOCOL,
        "objects": {},
        "public": {},
    }
    import importlib

    for face in ("pycalib_r", "pycalib_r.dask", "pycalib_r.rcheck", "pycalib_r.sklearn"):
        manifest["public"][face] = list(importlib.import_module(face).__all__)
    for name, (what, build, kind) in _layout_pickles.RECIPES.items():
        obj = build()
        data = pickle.dumps(obj)
        (OUT / f"{name}.pkl").write_bytes(data)
        manifest["objects"][name] = {
            "file": f"{name}.pkl", "what": what, "class": f"{type(obj).__module__}.{type(obj).__qualname__}",
            "check": kind, "modules": _modules(data), "sha256": hashlib.sha256(data).hexdigest(),
            # what the object showed when pickled (print, predictions, next draws)
            "observed": _layout_pickles.observe(kind, obj),
        }
    (OUT / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(manifest['objects'])} pickles to {OUT}")


if __name__ == "__main__":
    main()

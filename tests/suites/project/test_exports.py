"""The public functions are the functions in the modules (issue 49, item 3).

Each exported function carries its export layers (``python_face``,
``seed_note``, ``quadratic_warning``, ``r_arguments``) as decorators on its
definition, so ``pycalib_r.X`` is the object its room defines, pickles by
reference and is what ``help()`` and ``inspect`` show; internal callers call
``X._plain``, the function beneath the layers. Nothing in the core imports
the top-level package (an arrow back up). The order of the layers is the
order ``pycalib_r/__init__.py`` composed them in before.
"""

from __future__ import annotations

import ast
import inspect
import pathlib
import pickle
import sys

import pytest

import pycalib_r
from pycalib_r.inputs._hints import python_face
from pycalib_r.inputs._seed_note import seed_note
from pycalib_r.kernel._quadratic import quadratic_warning
from pycalib_r.rbase._rcalls import r_arguments

PKG = pathlib.Path(pycalib_r.__file__).parent
FACES = ("sklearn", "dask", "cli", "rcheck", "__main__")

# The export layers of each public function, outermost first (the wrapper
# each layer's decorator returns is its `wrapper` closure).
LAYERS = {f"{f.__name__}.<locals>.wrapper": f.__name__
          for f in (python_face, seed_note, quadratic_warning, r_arguments)}
FACE_ONLY = ("ace", "ece", "mce", "mmce", "logit", "inv_logit", "ece_ci", "calibration_error",
             "brier_score", "val_prob", "hoslem_test", "cal_intercept_slope",
             "reliability_diagram", "reliability_table", "reliabilitydiag", "smece",
             "smooth_reliability_diagram", "cal_ovr", "cal_cv", "predict",
             "cal_scaling_binning", "cal_venn_abers", "val_prob_ci",
             "pmcalibration", "cal_metrics",
             # it takes `...` (**kwargs): r_arguments leaves it as it is
             "cal_dirichlet")
EXPECTED_LAYERS = {
    **{name: ["python_face"] for name in FACE_ONLY},
    # the O(n^2) warning outside the Python face, which collects warnings until it returns
    "skce": ["quadratic_warning", "python_face"],
    "cal_test": ["quadratic_warning", "python_face", "seed_note"],
    "cal_ci": ["quadratic_warning", "python_face", "seed_note"],
    **{name: ["python_face", "r_arguments"] for name in (
        "cal_platt", "cal_temperature", "cal_beta", "cal_isotonic", "cal_histogram",
        "cal_vector_scaling")},
}
FUNCTIONS = sorted(n for n in pycalib_r.__all__ if inspect.isfunction(getattr(pycalib_r, n)))


def _layers(fn):
    """The export layers of ``fn``, outermost first, and the function beneath them."""
    names = []
    while LAYERS.get(getattr(getattr(fn, "__code__", None), "co_qualname", "")):
        names.append(LAYERS[fn.__code__.co_qualname])
        fn = fn.__wrapped__
    return names, fn


@pytest.mark.parametrize("name", sorted(pycalib_r.__all__))
def test_each_export_is_the_object_its_module_defines(name):
    obj = getattr(pycalib_r, name)
    module = sys.modules[obj.__module__]
    assert module is not pycalib_r and module.__name__.startswith("pycalib_r.")
    assert getattr(module, name) is obj, f"pycalib_r.{name} is not {module.__name__}.{name}"


@pytest.mark.parametrize("name", FUNCTIONS)
def test_each_exported_function_pickles_by_reference(name):
    # as a spawn or forkserver pool sends it: by its module and name
    fn = getattr(pycalib_r, name)
    assert pickle.loads(pickle.dumps(fn)) is fn


def test_the_calibrators_package_exports_the_same_objects():
    from pycalib_r import calibrators

    for name in calibrators.__all__:
        if name in pycalib_r.__all__:
            assert getattr(calibrators, name) is getattr(pycalib_r, name), name


@pytest.mark.parametrize("name", FUNCTIONS)
def test_export_layers_in_their_order_and_plain_beneath(name):
    fn = getattr(pycalib_r, name)
    layers, beneath = _layers(fn)
    assert layers == EXPECTED_LAYERS.get(name, []), name
    if layers:
        # what internal callers call: no layer left, the definition itself
        assert fn._plain is beneath and not hasattr(beneath, "_python_face")
        assert beneath.__name__ == name and beneath.__module__ == fn.__module__
        # help() and inspect show the definition's own signature and docstring
        assert inspect.signature(fn) == inspect.signature(beneath)
        assert fn.__doc__ == beneath.__doc__ and fn.__doc__


def _core_modules():
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG)
        if "__pycache__" in rel.parts or rel.parts[0].removesuffix(".py") in FACES:
            continue
        if rel == pathlib.Path("__init__.py"):
            continue  # the top level itself
        yield path, rel


def _is_module(dotted):
    parts = dotted.split(".")
    base = PKG.parent.joinpath(*parts)
    return base.is_dir() or base.with_suffix(".py").exists()


def test_nothing_in_the_core_imports_the_top_level_package():
    found = []
    for path, rel in _core_modules():
        package = ["pycalib_r", *rel.parent.parts]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    target = ".".join(package[:len(package) - node.level + 1]
                                      + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target != "pycalib_r":
                    continue
                # `from .. import _native` takes a subpackage: that is no arrow back up
                names = [a.name for a in node.names if not _is_module(f"pycalib_r.{a.name}")]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name == "pycalib_r"]
            else:
                continue
            found += [f"pycalib_r/{rel.as_posix()}:{node.lineno}: {n}" for n in names]
    assert found == [], ("the core imports the top-level package (import the name from the "
                         "module that defines it):\n" + "\n".join(found))

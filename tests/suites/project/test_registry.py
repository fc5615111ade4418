"""The calibrator registry (``pycalib_r.calibrators._methods``) is the faces' only method list.

* R's choice vectors built from it are the stored ``formals()`` of probcal,
  in R's order (``match.arg()``'s default and messages depend on it);
* no face module holds a literal list of method names of its own (an AST
  scan; it is shown to catch a synthetic face module);
* a toy calibrator added to the registry (and nowhere else) reaches the
  scikit-learn face, the command line, the ``...`` hints and ``rcheck``.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pathlib
import sys
import types

import numpy as np
import pytest

import pycalib_r
from pycalib_r.calibrators import _methods as registry

PKG = pathlib.Path(pycalib_r.__file__).parent
REPO = PKG.parent
FORMALS = json.loads((REPO / "reference" / "formals.json").read_text(encoding="utf-8"))["functions"]

# The modules that read the registry: the faces, and the hints on R's `...`.
FACE_DIRS = ("sklearn", "cli", "dask", "rcheck")
FACE_FILES = ("inputs/_hints.py", "__main__.py")


def _face_modules():
    paths = [p for d in FACE_DIRS for p in sorted((PKG / d).rglob("*.py"))]
    return paths + [PKG / f for f in FACE_FILES]


def _registered_names():
    return {e.name for e in registry.REGISTRY} | {e.r_choice for e in registry.REGISTRY}


def method_lists(source: str, names=None):
    """(line, names) of every literal collection or call holding >= 2 registered method names."""
    names = _registered_names() if names is None else names
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Call):
            items = node.args
        else:
            continue
        held = [i.value for i in items if isinstance(i, ast.Constant) and i.value in names]
        if len(held) >= 2:
            found.append((node.lineno, held))
    return found


# -- R's choice vectors ------------------------------------------------------

@pytest.mark.parametrize("function,choices", [("cal_ovr", "OVR_METHODS"), ("cal_cv", "CV_METHODS")])
def test_r_choice_vectors_are_probcal_s_in_r_s_order(function, choices):
    # reference/formals.json: R's formals() of probcal, stored with its version.
    assert getattr(registry, choices) == tuple(FORMALS[function]["formals"]["method"]["value"])


def test_entries_are_consistent():
    entries = registry.REGISTRY
    names = [e.name for e in entries]
    assert len(set(names)) == len(names)
    for position in ("ovr", "cv"):
        taken = [getattr(e, position) for e in entries if getattr(e, position)]
        assert len(set(taken)) == len(taken), f"two entries share a {position} position"
    for e in entries:
        assert e.binary in ("vector", "matrix", "either"), e
        assert e.multiclass in ("matrix", "ovr", ""), e
        assert e.input in ("probabilities", "logits", "scores", ""), e
        assert e.tolerance in ("",) + tuple(pycalib_r.rcheck.TOLERANCE), e
        # a method fitted one-vs-rest must be one of cal_ovr()'s choices
        assert e.multiclass != "ovr" or e.ovr, e
        fn = registry.resolve(e.function)
        assert callable(fn) and fn is getattr(pycalib_r, e.function.rpartition(".")[2])
        assert e.python_only == (e.r_name not in FORMALS), e
    assert registry.PY_CV_METHODS == ("scaling_binning", "venn_abers")
    assert registry.PY_OVR_METHODS == ("venn_abers",)


def test_the_registry_module_imports_nothing_heavy():
    tree = ast.parse((PKG / "calibrators" / "_methods.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module and n.level == 0}
    assert imported <= {"__future__", "importlib", "dataclasses", "typing"}
    assert not any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))


# -- no face keeps a list of its own -------------------------------------------

def test_no_face_holds_a_method_list_of_its_own():
    offenders = {}
    for path in _face_modules():
        found = method_lists(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(path.relative_to(REPO))] = found
    assert not offenders, ("method lists outside the calibrator registry "
                           f"(read pycalib_r.calibrators._methods instead): {offenders}")


def test_the_scan_catches_a_face_local_method_list():
    synthetic = '''
CALIBRATORS = ("platt", "temperature", "beta")
_ARGS = {"histogram": ("bins",), "dirichlet": ("eps",)}
_SET = {"vector", "ovr"}
parser.add_argument("--method", type=choice("isotonic", "cv"))
ONE = "platt"                      # a default is not a list
OTHER = ("equal_width", "equal_freq")
'''
    found = method_lists(synthetic)
    assert [line for line, _ in found] == [2, 3, 4, 5]
    assert found[0][1] == ["platt", "temperature", "beta"]


# -- a new entry reaches the faces ---------------------------------------------

def _toy_module():
    from pycalib_r.calibrators._base import Calibrator, new_calibrator

    class CalToy(Calibrator):
        r_class = "cal_toy"

        def _predict(self, newdata):
            return 0.25 + 0.5 * np.asarray(newdata, dtype=np.float64)

    def cal_toy(p, y):
        """A toy calibrator: 0.25 + p / 2 (Python-only)."""
        return new_calibrator(CalToy, method="toy scaling", n=len(y), input="probabilities")

    mod = types.ModuleType("_toy_calibrator")
    mod.cal_toy, mod.CalToy = cal_toy, CalToy
    return mod


TOY = registry.Method("toy", "_toy_calibrator.cal_toy", binary="vector", multiclass="matrix",
                      input="probabilities")


@pytest.fixture
def toy(monkeypatch):
    """The registry with one more entry, whose function lives in a module of its own."""
    monkeypatch.setitem(sys.modules, "_toy_calibrator", _toy_module())
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + (TOY,))
    return TOY


@pytest.fixture
def binary_data():
    rng = np.random.default_rng(3)
    p = rng.uniform(size=40)
    return p, (rng.uniform(size=40) < p).astype(int)


def test_a_new_entry_reaches_the_sklearn_face(toy, binary_data):
    from pycalib_r.sklearn import CalibratedClassifier, ProbcalCalibrator

    p, y = binary_data
    cal = ProbcalCalibrator(method="toy").fit(p, y)
    np.testing.assert_array_equal(cal.predict_proba(p)[:, 1], 0.25 + 0.5 * p)
    # its n x 2 predict_proba form gives the second column, as for any "vector" method
    P = np.column_stack([1 - p, p])
    np.testing.assert_array_equal(ProbcalCalibrator(method="toy").fit(P, y).predict_proba(P)[:, 1],
                                  0.25 + 0.5 * p)
    with pytest.raises(ValueError, match=r"for method 'toy'; it takes: none\."):
        ProbcalCalibrator(method="toy", bins=3).fit(p, y)
    with pytest.raises(ValueError, match=r"'venn_abers', 'toy'; got 'nope'"):
        ProbcalCalibrator(method="nope").fit(p, y)
    from pycalib_r.sklearn._methods import _needs_probabilities
    assert _needs_probabilities("toy", {})
    assert CalibratedClassifier(method="toy").method == "toy"


def test_without_the_entry_the_sklearn_face_refuses_it(binary_data):
    from pycalib_r.sklearn import ProbcalCalibrator

    with pytest.raises(ValueError, match="got 'toy'"):
        ProbcalCalibrator(method="toy").fit(*binary_data)


def test_a_new_entry_reaches_the_command_line(toy, binary_data, tmp_path, capsys):
    from pycalib_r.cli._app import build_parser, main

    p, y = binary_data
    fit = tmp_path / "fit.csv"
    fit.write_text("p,y\n" + "".join(f"{float(a)!r},{b}\n" for a, b in zip(p, y)))
    new = tmp_path / "new.csv"
    new.write_text("p\n0.5\n0.1\n")
    out = tmp_path / "out.csv"
    assert main(["calibrate", "--method", "toy", "--fit", str(fit), "--apply", str(new),
                 "-o", str(out), "--p", "p", "--y", "y"]) == 0
    assert out.read_text().splitlines() == ["p,cal_p", "0.5,0.5", "0.1,0.3"]
    assert "toy scaling" in capsys.readouterr().out
    sub = next(a for a in build_parser()._subparsers._group_actions if a.choices)
    assert "toy" in sub.choices["calibrate"].format_help()
    # its arguments are the entry's: --bins is not one of them
    with pytest.raises(SystemExit):
        main(["calibrate", "--method", "toy", "--fit", str(fit), "--apply", str(new),
              "-o", str(out), "--p", "p", "--y", "y", "--bins", "3"])
    assert "argument --bins: not used by --method toy" in capsys.readouterr().err


def test_a_new_entry_reaches_the_dots_hints(toy):
    from pycalib_r.inputs._hints import unused_dots

    # no `args`: R's dispatch would drop every extra argument, and the hint says so
    assert unused_dots("toy", {"bins": 3}) == ["bins"]
    assert unused_dots("toy", {"bins": 3}, multiclass=True) == ["bins"]
    assert unused_dots("histogram", {"bins": 3}) == []


def test_a_new_r_entry_reaches_rcheck(monkeypatch):
    from pycalib_r.rcheck._check import _specs

    monkeypatch.setitem(sys.modules, "_toy_calibrator", _toy_module())
    entry = dataclasses.replace(TOY, r_name="cal_toy", tolerance="closed")
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + (entry,))
    spec = _specs()[0][sys.modules["_toy_calibrator"].cal_toy]
    assert (spec.r_name, spec.tolerance, spec.kind, spec.data_args) == (
        "cal_toy", "closed", "calibrator", ("p", "y"))


def test_the_dask_face_has_the_registry_s_implementations():
    pytest.importorskip("dask")
    import pycalib_r.dask as pcd

    with_dask = {e.function.rpartition(".")[2] for e in registry.REGISTRY if e.dask}
    assert with_dask == {"cal_platt", "cal_temperature", "cal_beta", "cal_histogram"}
    for name in with_dask:
        assert getattr(pcd, name).__module__ == "pycalib_r.dask._calibrators" and name in pcd.__all__
    # every other calibrator is refused by name (before reading any data)
    for e in registry.REGISTRY:
        name = e.function.rpartition(".")[2]
        if name not in with_dask:
            with pytest.raises(pcd.DaskRefusal):
                getattr(pcd, name)(None, None)


# -- the worked example of docs/architecture.md --------------------------------

def _architecture_example():
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("## Adding a calibrator"):]
    return [b.split("```")[0] for b in section.split("```text\n")[1:3]]


def test_the_architecture_page_s_example_is_one_module_and_one_entry(monkeypatch, binary_data):
    from pycalib_r.sklearn import ProbcalCalibrator

    source, entry = _architecture_example()
    name = "pycalib_r.calibrators._affine"
    assert source.splitlines()[0] == "# " + name.replace(".", "/") + ".py"
    mod = types.ModuleType(name)
    mod.__package__ = "pycalib_r.calibrators"
    exec(compile(source, name, "exec"), mod.__dict__)  # noqa: S102 - the page's own listing
    monkeypatch.setitem(sys.modules, name, mod)
    (method,) = eval(entry.strip(), {"Method": registry.Method})  # noqa: S307 - "Method(...),"
    monkeypatch.setattr(registry, "REGISTRY", registry.REGISTRY + (method,))

    p, y = binary_data
    b, a = np.polyfit(p, y, 1)
    got = ProbcalCalibrator(method="affine").fit(p, y).predict_proba(p)[:, 1]
    np.testing.assert_allclose(got, np.clip(a + b * p, 0, 1), rtol=1e-12)
    from pycalib_r.cli._cmd_calibrate import _calibrators
    assert "affine" in _calibrators()
    # multiclass="" : binary only, said before anything is fitted
    with pytest.raises(ValueError, match="Method 'affine' is binary only; y has 3 classes."):
        ProbcalCalibrator(method="affine").fit(np.full((6, 3), 1 / 3), [0, 1, 2, 0, 1, 2])

"""Run the parity fixtures' ``r_call`` strings against pycalib_r.

The fixtures in ``reference/fixtures/*.json`` store, for each case, an R
expression (``r_call``) that gives the expected answer in R when the case's
``inputs`` are bound to their names. This module reads the small subset of R
that the fixtures use and evaluates it with pycalib_r:

- calls ``f(a, b, name = value)`` whose positional arguments name inputs or
  are nested calls, and whose named arguments are literals (numbers, strings,
  ``TRUE``/``FALSE``, ``NULL``, ``c(...)`` of literals) or input names;
- blocks ``{stmt; stmt; ...}`` whose value is the last statement's;
- component access ``x$name``;
- the R functions ``set.seed``, ``RNGkind``, ``runif``/``stats::runif``,
  ``options``, ``print``, ``summary``, ``predict``, and every probcal export.

An ``expected`` of the form ``{"warnings": [[...], ...], "value": v}`` (the
harness's "warnings" kind: R's warnings per statement of a ``{ }`` block)
also compares the warnings pycalib_r issues at each statement with R's, as
pycalib_r reports them (:func:`expected_warnings`).

Mapping to Python: R argument names with dots use underscores
(``probcal.emoji`` -> ``probcal_emoji``), ``lambda`` becomes ``lambda_``;
``print(x)`` is ``str(x)``; ``summary(fit)`` is ``str(pycalib_r.summary(fit))``;
``reliability_diagram(...)$data`` is ``pycalib_r.reliability_table(...)``
(the plot's binned data); ``x$name`` is the attribute ``name`` with dots as
underscores (or the item ``x["name"]``).

Input encoding (written by pycalib_r/r/harness.R): lists of numbers are
vectors (integers stay integers, so R's integer/double distinction survives);
the strings ``"NA"``, ``"NaN"``, ``"Inf"``, ``"-Inf"`` inside a numeric list
are missing/non-finite values; ``{"matrix": rows}`` is a 2-D array;
``{"factor": labels, "levels": levels}`` is a pandas Categorical;
``{"data_frame": columns}`` is a DataFrame; ``null`` is ``None``.

This file is shared by tests/suites/project/test_fixtures.py, tests/suites/project/test_fixtures_live.py
and tools/parity_report.py; besides numpy and pandas it uses only the
comparison functions of pycalib_r.rcheck (the package itself is passed in).
"""

from __future__ import annotations

import json
import math
import re
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "reference"
FIXTURES = REFERENCE / "fixtures"
MANIFEST = REFERENCE / "manifest.toml"

# The comparison itself is the package's (pycalib_r.rcheck, which users run
# against their own R); the old private names stay for the tests and tools.
from pycalib_r.rcheck._compare import (  # noqa: E402
    SPECIAL_NUMBERS,
    Outcome,
    as_array as _as_array,
    compare_frames,
    compare_numbers,
    expected_array as _expected_array,
    first_difference as _first_difference,
    number_or_special as _number_or_special,
)

# R functions with a fixed Python meaning; everything else is looked up on
# the pycalib_r module under its R name.
_R_ONLY = {"set.seed", "RNGkind", "runif", "options", "print", "summary", "predict", "c", "invisible"}


class RCallError(Exception):
    """An ``r_call`` outside the supported subset (a harness bug, not a parity failure)."""


class MissingExport(Exception):
    """The R function has no counterpart exported by pycalib_r yet."""


# ---------------------------------------------------------------------------
# Manifest and fixture files


def load_toml(path: Path) -> dict:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python < 3.11
        import tomli as tomllib
    with open(path, "rb") as fh:
        return tomllib.load(fh)


_CASE_KEYS = {"id", "function", "source", "r_call", "inputs", "expected", "rtol", "atol"}
_HEADER_KEYS = {"r_version", "probcal_version", "date", "rng_kind", "cases"}


def validate_fixture(name: str, data: Any, manifest: dict) -> List[str]:
    """Problems with one fixture file's structure and versions ([] if none).

    Each problem names the file and says why, so a failing test reads as
    "reference/fixtures/x.json: ...".
    """
    where = f"reference/fixtures/{name}"
    problems: List[str] = []
    if not isinstance(data, dict):
        return [f"{where}: the top level must be a JSON object, not {type(data).__name__}"]
    missing = sorted(_HEADER_KEYS - set(data))
    if missing:
        problems.append(f"{where}: missing header field(s) {', '.join(missing)}")
    producer = manifest.get("producer", {})
    for key in ("r_version", "probcal_version"):
        want = producer.get(key)
        got = data.get(key)
        if key in data and got != want:
            problems.append(f"{where}: records {key} = {got!r} but reference/manifest.toml "
                            f"names {want!r}; regenerate it with tools/make_fixtures.R "
                            f"under the manifest's versions (or update the manifest)")
    rng = producer.get("rng_kind")
    if rng is not None and "rng_kind" in data and list(data["rng_kind"]) != list(rng):
        problems.append(f"{where}: records RNGkind() {data['rng_kind']!r}, the manifest names {rng!r}")
    cases = data.get("cases")
    if "cases" in data and not isinstance(cases, list):
        problems.append(f"{where}: 'cases' must be a list")
        return problems
    if isinstance(cases, list):
        if "n_cases" in data and data["n_cases"] != len(cases):
            problems.append(f"{where}: header says {data['n_cases']} cases, the file holds {len(cases)}")
        seen = set()
        for i, case in enumerate(cases):
            label = f"{where}: case #{i + 1}"
            if not isinstance(case, dict):
                problems.append(f"{label} is not an object")
                continue
            label = f"{where}: case {case.get('id', '#' + str(i + 1))!s}"
            absent = sorted(_CASE_KEYS - set(case))
            if absent:
                problems.append(f"{label} lacks {', '.join(absent)}")
                continue
            if case["id"] in seen:
                problems.append(f"{label}: duplicate id")
            seen.add(case["id"])
            if case["source"] not in ("probcal", "contract"):
                problems.append(f"{label}: source must be 'probcal' or 'contract', not {case['source']!r}")
            if not isinstance(case["inputs"], dict):
                problems.append(f"{label}: inputs must be an object")
            for key in ("rtol", "atol"):
                if not isinstance(case[key], (int, float)) or isinstance(case[key], bool) or case[key] < 0:
                    problems.append(f"{label}: {key} must be a non-negative number")
            try:
                parse(case["r_call"])
            except RCallError as exc:
                problems.append(f"{label}: r_call {case['r_call']!r} is outside the supported subset: {exc}")
            exp = case["expected"]
            if isinstance(exp, dict) and not ({"print", "error", "matrix", "data_frame", "warnings"} & set(exp)):
                problems.append(f"{label}: expected object has none of print/error/matrix/data_frame/warnings")
    return problems


def load_fixtures(manifest: Optional[dict] = None) -> Tuple[dict, Dict[str, dict], List[str]]:
    """(manifest, {file name: parsed JSON}, problems)."""
    files: Dict[str, dict] = {}
    problems: List[str] = []
    if manifest is None:
        try:
            manifest = load_toml(MANIFEST)
        except (OSError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
            return {}, files, [f"reference/manifest.toml: cannot be read ({exc})"]
    for entry in manifest.get("fixtures", []):
        name = entry["file"]
        path = FIXTURES / name
        if not path.is_file():
            problems.append(f"reference/fixtures/{name}: listed in reference/manifest.toml but missing")
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            problems.append(f"reference/fixtures/{name}: not valid JSON ({exc})")
            continue
        file_problems = validate_fixture(name, data, manifest)
        problems.extend(file_problems)
        if not file_problems:
            files[name] = data
    listed = {e["file"] for e in manifest.get("fixtures", [])}
    for path in sorted(FIXTURES.glob("*.json")):
        if path.name not in listed:
            problems.append(f"reference/fixtures/{path.name}: not listed in reference/manifest.toml")
    return manifest, files, problems


# ---------------------------------------------------------------------------
# Parsing the r_call subset

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?L?)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<name>[A-Za-z.][A-Za-z0-9._]*(?:::[A-Za-z.][A-Za-z0-9._]*)?)
  | (?P<op>[-{}();,=$])
""", re.VERBOSE)


def _tokenize(text: str) -> List[Tuple[str, str]]:
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise RCallError(f"unexpected character {text[pos]!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":
            tokens.append((kind, m.group()))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.tokens = _tokenize(text)
        self.i = 0

    def peek(self, offset=0):
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else ("eof", "")

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise RCallError(f"expected {value!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def program(self):
        node = self.expr()
        if self.peek()[0] != "eof":
            raise RCallError(f"trailing input at {self.peek()[1]!r}")
        return node

    def expr(self):
        kind, value = self.peek()
        if value == "{":
            self.take("{")
            stmts = [self.expr()]
            while self.peek()[1] == ";":
                self.take(";")
                if self.peek()[1] == "}":
                    break
                stmts.append(self.expr())
            self.take("}")
            node = ("block", stmts)
        else:
            node = self.primary()
        while self.peek()[1] == "$":
            self.take("$")
            kind, name = self.take()
            if kind != "name":
                raise RCallError(f"expected a component name after $, found {name!r}")
            node = ("dollar", node, name)
        return node

    def primary(self):
        kind, value = self.take()
        if kind == "op" and value == "-":
            k2, v2 = self.take()
            if k2 != "num":
                raise RCallError("unary minus only before a number")
            return ("lit", -_number(v2))
        if kind == "num":
            return ("lit", _number(value))
        if kind == "str":
            return ("lit", _string(value))
        if kind == "name":
            if value in ("TRUE", "T"):
                return ("lit", True)
            if value in ("FALSE", "F"):
                return ("lit", False)
            if value == "NULL":
                return ("lit", None)
            if value == "NA":
                return ("lit", math.nan)
            if value == "Inf":
                return ("lit", math.inf)
            if self.peek()[1] == "(":
                return self.call(value.split("::")[-1])
            return ("name", value)
        raise RCallError(f"unexpected {value!r}")

    def call(self, fname):
        self.take("(")
        args, kwargs = [], {}
        if self.peek()[1] != ")":
            while True:
                if self.peek()[0] == "name" and self.peek(1)[1] == "=":
                    _, key = self.take()
                    self.take("=")
                    kwargs[key] = self.expr()
                else:
                    if kwargs:
                        raise RCallError("positional argument after a named one")
                    args.append(self.expr())
                if self.peek()[1] == ",":
                    self.take(",")
                    continue
                break
        self.take(")")
        return ("call", fname, args, kwargs)


def _number(text: str):
    if text.endswith("L"):
        return int(text[:-1])
    if re.fullmatch(r"\d+", text):
        return int(text)
    return float(text)


def _string(text: str) -> str:
    return json.loads('"' + text[1:-1].replace("\\'", "'") + '"')


_PARSE_CACHE: Dict[str, Any] = {}


def parse(r_call: str):
    """The AST of an ``r_call`` string; raises RCallError outside the subset."""
    if r_call not in _PARSE_CACHE:
        _PARSE_CACHE[r_call] = _Parser(r_call).program()
    return _PARSE_CACHE[r_call]


# ---------------------------------------------------------------------------
# Inputs


def decode_value(value):
    """A fixture JSON value as the Python object pycalib_r receives."""
    import pandas as pd

    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        if "matrix" in value:
            rows = [[_number_or_special(v) for v in row] for row in value["matrix"]]
            if not rows:
                return np.zeros((0, 0))
            return np.array(rows, dtype=float)
        if "factor" in value:
            return pd.Categorical(value["factor"], categories=value["levels"])
        if "data_frame" in value:
            return pd.DataFrame({k: decode_value(v) for k, v in value["data_frame"].items()})
        return {k: decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return _decode_vector(value)
    raise TypeError(f"cannot decode {value!r}")


def _decode_vector(values: list):
    if not values:
        return np.array([], dtype=float)
    if all(isinstance(v, bool) for v in values):
        return np.array(values, dtype=bool)
    numeric = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    strings = [v for v in values if isinstance(v, str)]
    if numeric and len(numeric) + len(strings) == len(values) and all(s in SPECIAL_NUMBERS for s in strings):
        if not strings and all(isinstance(v, int) for v in numeric):
            return np.array(values, dtype=np.int64)
        return np.array([_number_or_special(v) for v in values], dtype=float)
    if len(strings) == len(values):
        return np.array(values)
    raise TypeError(f"mixed vector {values[:5]!r}...")


def decode_inputs(inputs: dict) -> dict:
    return {name: decode_value(v) for name, v in inputs.items()}


# ---------------------------------------------------------------------------
# Evaluation


def _py_name(r_name: str) -> str:
    if r_name == "lambda":
        return "lambda_"
    return r_name.replace(".", "_")


# When True (tools/parity_report.py --private), names pycalib_r does not export
# yet are also looked up in its submodules, to see how far unexported work
# already matches R. The tests never set it.
SEARCH_PRIVATE = False


def _private_lookup(pkg, name: str):
    import importlib
    import pkgutil

    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        if info.name.endswith(".__main__") or info.name.startswith(pkg.__name__ + ".cli"):
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - a half-written module must not stop the report
            continue
        fn = getattr(module, name, None)
        if callable(fn):
            return fn
    return None


def _export(pkg, name: str):
    fn = getattr(pkg, name, None)
    if fn is None and SEARCH_PRIVATE:
        fn = _private_lookup(pkg, name)
    if fn is None:
        raise MissingExport(f"pycalib_r has no export {name!r}")
    return fn


def _component(obj, r_name: str):
    py = r_name.replace(".", "_")
    if hasattr(obj, py):
        return getattr(obj, py)
    try:
        return obj[r_name]
    except (KeyError, TypeError, IndexError):
        pass
    raise AttributeError(f"{type(obj).__name__} has no component {r_name!r}")


def evaluate(node, env: dict, pkg):
    """Evaluate a parsed r_call with pycalib_r (``pkg``) and the decoded inputs."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "name":
        if node[1] not in env:
            raise RCallError(f"unbound name {node[1]!r}")
        return env[node[1]]
    if kind == "block":
        value = None
        for stmt in node[1]:
            value = evaluate(stmt, env, pkg)
        return value
    if kind == "dollar":
        target, name = node[1], node[2]
        if name == "data" and target[0] == "call" and target[1] == "reliability_diagram":
            _, _, args, kwargs = target
            kwargs = {k: v for k, v in kwargs.items() if k not in ("show_ece", "show_counts")}
            return _call(pkg, "reliability_table", args, kwargs, env)
        return _component(evaluate(target, env, pkg), name)
    if kind == "call":
        return _call(pkg, node[1], node[2], node[3], env)
    raise RCallError(f"unknown node {kind}")


def _call(pkg, fname, arg_nodes, kwarg_nodes, env):
    args = [evaluate(a, env, pkg) for a in arg_nodes]
    kwargs = {_py_name(k): evaluate(v, env, pkg) for k, v in kwarg_nodes.items()}
    if fname == "c":
        if all(np.ndim(a) == 0 for a in args):
            return np.array(args)
        # R's c() concatenates vectors (a matrix in column-major order;
        # a masked array's mask is R's NA, NaN here).
        return np.concatenate([np.ravel(_as_array(a), order="F") for a in args])
    if fname == "invisible":
        return args[0] if args else None
    if fname == "print":
        return str(args[0])
    if fname == "summary":
        return str(_export(pkg, "summary")(*args, **kwargs))
    if fname == "set.seed":
        return _export(pkg, "set_seed")(*args, **kwargs)
    if fname == "RNGkind":
        return _export(pkg, "rng_kind")(*args, **kwargs)
    if fname == "options":
        return _export(pkg, "options")(**kwargs)
    return _export(pkg, fname)(*args, **kwargs)


def reset_state(pkg, r_call: str = "") -> None:
    """Undo per-case global state (R's harness resets options after each case,
    and the kinds a "warnings" case changed with RNGkind())."""
    options = getattr(pkg, "options", None)
    if options is not None:
        options(probcal_emoji=True)
    if "RNGkind(" in r_call and hasattr(pkg, "rng_kind"):
        if tuple(pkg.rng_kind()) != R_KINDS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pkg.rng_kind(*R_KINDS)


# The kinds every harness case starts from (reference/r/diff_probcal.R).
R_KINDS = ("Mersenne-Twister", "Inversion", "Rejection")
# R's top level lists up to 10 warnings, else prints "There were k warnings"
# (k capped at "50 or more"); pycalib_r reports them so (docs/migrating-from-r.md).
_R_LISTS, _R_KEEPS = 10, 50


def expected_warnings(r_messages: List[str]) -> List[str]:
    """The warning texts pycalib_r issues for a call where R raised
    ``r_messages`` (in order): R's list as it is when 10 or fewer; beyond
    that each distinct text once, in order of first appearance, with R's
    count line."""
    if len(r_messages) <= _R_LISTS:
        return list(r_messages)
    k = len(r_messages)
    line = (f"There were {_R_KEEPS} or more warnings" if k >= _R_KEEPS else f"There were {k} warnings")
    line += " (each distinct one reported once)"
    return [f"{m}\n{line}" for m in dict.fromkeys(r_messages)]


# ---------------------------------------------------------------------------
# Comparison



def run_case(case: dict, pkg) -> Outcome:
    """Evaluate one stored case with pycalib_r and compare it with R's answer."""
    expected = case["expected"]
    try:
        node = parse(case["r_call"])
        env = decode_inputs(case["inputs"])
    except (RCallError, TypeError, KeyError) as exc:
        return Outcome("harness", detail=f"cannot read the case: {exc}")
    error_class = getattr(pkg, "ProbcalError", ValueError)
    reset_state(pkg, case["r_call"])
    with_warnings = isinstance(expected, dict) and "warnings" in expected
    try:
        try:
            if with_warnings:
                # One list per statement of a block, as the R harness records them.
                issued = []
                for stmt in (node[1] if node[0] == "block" else [node]):
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        actual = evaluate(stmt, env, pkg)
                    issued.append([str(w.message) for w in caught])
            else:
                actual = evaluate(node, env, pkg)
        except MissingExport as exc:
            return Outcome("missing", detail=str(exc))
        except RCallError as exc:
            return Outcome("harness", detail=str(exc))
        except Exception as exc:  # noqa: BLE001 - any failure is reported per case
            if isinstance(expected, dict) and "error" in expected:
                if not isinstance(exc, error_class):
                    return Outcome("fail", detail=f"expected {error_class.__name__}, got "
                                                  f"{type(exc).__name__}: {exc}")
                got = str(exc)
                if got == expected["error"]:
                    return Outcome("pass", exact=True)
                return Outcome("fail", detail=f"message: expected {expected['error']!r}, got {got!r}")
            return Outcome("fail", detail=f"raised {type(exc).__name__}: {exc}")
    finally:
        reset_state(pkg, case["r_call"])

    if with_warnings:
        want = [expected_warnings(list(group)) for group in expected["warnings"]]
        if issued != want:
            return Outcome("fail", detail=f"warnings: R (as reported) {want!r}, pycalib_r {issued!r}")
        expected = expected["value"]
    if isinstance(expected, dict) and "error" in expected:
        return Outcome("fail", detail=f"expected the error {expected['error']!r}, got a result")
    if isinstance(expected, dict) and "print" in expected:
        if not isinstance(actual, str):
            actual = str(actual)
        if actual == expected["print"]:
            return Outcome("pass", exact=True)
        return Outcome("fail", detail=_first_difference(expected["print"], actual))
    if isinstance(expected, dict) and "data_frame" in expected:
        return compare_frames(expected, actual, case["rtol"], case["atol"])
    return compare_numbers(expected, actual, case["rtol"], case["atol"])


def iter_cases(files: Dict[str, dict]):
    for name, data in files.items():
        for case in data["cases"]:
            yield name, case

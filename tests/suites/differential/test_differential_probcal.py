"""Differential generator, probcal half: random programs through R and through pycalib_r.

Each program (``program(pid)``, reproducible from its id alone) draws one
data set - binary, or multiclass with K = 2..6 classes; n = 20..5,000; with
ties, exact 0s and 1s and near-duplicates (values a few ulps apart) - and
4-8 calls with random arguments over the exports: ece (0.1.0 and the 0.2.0
``debiased``/``strategy``), mce, ace, mmce, skce, logit, inv_logit,
cal_test and cal_ci (printed), every calibrator (predict, print, summary),
cal_cv, and reliability_diagram's data; now and then a bad argument, whose
R error message must come back byte for byte. Each program also holds
nearly separable data (``pw``/``yw``, ``pmw``/``ymw``) for ``cal_cv`` and
``cal_ovr`` fits whose folds or classes warn ("glm.fit: ..."), under random
``RNGkind()`` kinds (every sample kind; issue 31): their warnings must be
R's, in number and order, per statement (the "warnings" kind of
pycalib_r/r/harness.R and ``_rcall.expected_warnings``).

R evaluates every call of every program in one process
(reference/r/diff_probcal.R: probcal 0.1.0, or pycalib_r/r/contract.R for
the 0.2.0 layer); pycalib_r evaluates the same calls (tests/_rcall.py). Values
must be equal bit for bit and printed text byte for byte, except where
exactness cannot hold by design, named in ``TOLERANCE``: the O(n log n)
kernel sums of skce (and of cal_ci's skce/mmce replicates) against R's
n x n matrix sums, and mmce beyond its R-order size (see mmce()).

``PYCALIB_R_DIFF_PROBCAL=N`` runs programs 0..N-1 (default 20, about a minute); ``PYCALIB_R_DIFF_PROBCAL_FIRST=K`` starts at id K (a held-out run:
new ids). A failure prints the program id and its first differing call.
Without the probcal R package, the stored sample
reference/diff_probcal_sample.json (``python -m tests.suites.differential.test_differential_probcal
--store``) is checked instead; R itself is still required.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

from tests import _rcall
from tests.conftest import ORIGINAL_ENV

pytestmark = pytest.mark.r_parity

REPO = _rcall.REPO
SAMPLE = REPO / "reference" / "diff_probcal_sample.json"
COUNT = int(os.environ.get("PYCALIB_R_DIFF_PROBCAL", "20"))
FIRST = int(os.environ.get("PYCALIB_R_DIFF_PROBCAL_FIRST", "0"))
SAMPLE_PROGRAMS = 40
# Programs per R process (its program file stays a few MB).
_BATCH = 50

# Where bit-exactness cannot hold by design: the kernel statistics are sums
# of n^2 terms, which R adds as full matrices in its order and pycalib_r in
# O(n log n) (sorted recursions). Measured over 600 programs: relative
# differences up to a few 1e-15 of the sum's magnitude (tests print the
# largest seen).
TOLERANCE = {"exact": (0.0, 0.0), "kernel_sum": (1e-12, 1e-15)}


# ---------------------------------------------------------------------------
# Programs.

def _ulps(x, k):
    out = np.asarray(x, dtype=float).copy()
    for _ in range(k):
        out = np.nextafter(out, 2.0)
    return np.minimum(out, 1.0)


def _probabilities(g: random.Random, n: int) -> np.ndarray:
    style = g.choice(["uniform", "ties1", "ties2", "skew", "near", "edges"])
    u = np.array([g.random() for _ in range(n)])
    if style == "ties1":
        u = np.round(u, 1)
    elif style == "ties2":
        u = np.round(u, 2)
    elif style == "skew":
        u = u ** 3
    elif style == "near":
        base = np.round(u, 1)
        u = np.array([_ulps(b, g.randrange(4)) for b in base], dtype=float).reshape(-1)
    if style == "edges" or g.random() < 0.3:
        for i in g.sample(range(n), min(n, g.randrange(1, 6))):
            u[i] = g.choice([0.0, 1.0])
    return u


def _labels(g: random.Random, p: np.ndarray) -> np.ndarray:
    y = np.array([1 if g.random() < v else 0 for v in p], dtype=np.int64)
    y[0], y[1] = 0, 1  # both classes: every calibrator can be fitted
    return y


def _prob_matrix(g: random.Random, n: int, k: int) -> np.ndarray:
    if g.random() < 0.35:
        counts = np.array([[g.randrange(4) for _ in range(k)] for _ in range(n)], dtype=float)
        counts[counts.sum(axis=1) == 0, 0] = 1.0
        raw = counts
    else:
        power = g.choice([1.0, 2.0, 4.0])
        raw = np.array([[g.random() ** power + 1e-3 for _ in range(k)] for _ in range(n)])
    return raw / raw.sum(axis=1, keepdims=True)


def _codes(g: random.Random, pm: np.ndarray) -> np.ndarray:
    n, k = pm.shape
    y = np.array([1 + min(k - 1, int(np.searchsorted(np.cumsum(row), g.random()))) for row in pm],
                 dtype=np.int64)
    y[:k] = np.arange(1, k + 1)
    return y


def _vec(x) -> list:
    return [int(v) for v in x] if np.asarray(x).dtype.kind in "iu" else [float(v) for v in x]


def _mat(x) -> dict:
    return {"matrix": [[float(v) for v in row] for row in np.asarray(x)]}


def _lit(v) -> str:
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _call(fn: str, *args, **kwargs) -> str:
    parts = list(args) + [f"{k} = {_lit(v)}" for k, v in kwargs.items()]
    return f"{fn}({', '.join(parts)})"


def _bins(g):
    return g.choice([1, 2, 3, 5, 7, 10, 10, 15, 20, 50, 100, 1000])


def _near_separable(g: random.Random, y: np.ndarray, k: int = 0) -> np.ndarray:
    """Scores a threshold (almost) separates by class, so that R's glm.fit
    warns "fitted probabilities numerically 0 or 1 occurred" (and "algorithm
    did not converge") in some folds or classes and not in others: column j
    is high for class j (``k`` = 0: binary, one column for class 1), with a
    few rows swapped."""
    swap = g.choice([0.0, 0.0, 0.03, 0.1, 0.3])
    cols = []
    for j in range(max(k, 1)):
        target = (y == 1) if k == 0 else (y == j + 1)
        u = np.array([g.random() for _ in range(y.size)])
        high = target ^ np.array([g.random() < swap for _ in range(y.size)])
        cols.append(np.round(np.where(high, 0.55 + 0.44 * u, 0.01 + 0.44 * u), g.choice([2, 6, 15])))
    if k == 0:
        return cols[0]
    raw = np.column_stack(cols)
    return raw / raw.sum(axis=1, keepdims=True)


def _kinds_call(g: random.Random) -> str:
    """``RNGkind(...)`` with random kinds (every sample kind; the Rounding
    sampler warns), or nothing (the harness's defaults)."""
    if g.random() < 0.25:
        return ""
    from tests._stream_programs import KINDS, NORMAL_KINDS, SAMPLE_KINDS

    return (f'RNGkind(kind = "{g.choice(KINDS)}", normal.kind = "{g.choice(NORMAL_KINDS)}", '
            f'sample.kind = "{g.choice(SAMPLE_KINDS)}"); ')


def _warning_calls(g: random.Random, multiclass: bool):
    """cal_cv/cal_ovr fits that warn in several folds or classes, under every
    kind (issue 31): R's warnings, in order and in number, with the value."""
    seed = g.randrange(1, 10 ** 6)
    folds = g.choice([2, 3, 5])
    if not multiclass:
        method = g.choice(["beta", "beta", "platt", "isotonic", "histogram"])
        return [
            ("probcal", "{%s%s$oof_predictions}" % (_kinds_call(g), _call(
                "cal_cv", "pw", "yw", method="beta", folds=folds, seed=seed)), "warnings", "exact"),
            ("probcal", "{%sset.seed(%d); %s$fold_id}" % (_kinds_call(g), seed, _call(
                "cal_cv", "pw", "yw", method=method, folds=folds)), "warnings", "exact"),
            ("probcal", "predict(%s, pw)" % _call("cal_beta", "pw", "yw"), "warnings", "exact"),
        ]
    return [
        ("probcal", "predict(%s, pmw)" % _call("cal_ovr", "pmw", "ymw", method="beta"), "warnings", "exact"),
        ("probcal", "{%s%s$oof_predictions}" % (_kinds_call(g), _call(
            "cal_cv", "pmw", "ymw", method="ovr", folds=folds, seed=seed, base_method="beta")),
         "warnings", "exact"),
    ]


def _binary_calls(g: random.Random):
    """(source, r_call, kind, tolerance) menu for binary data p, y (ps, ys: a kernel-sized head)."""
    bins = _bins(g)
    seed = g.randrange(1, 10 ** 6)
    boots = g.choice([9, 19, 29])
    h = g.choice([0.05, 0.1, 0.2, 0.5, 1.0])
    strat = g.choice(["equal_width", "equal_freq"])
    deb = g.random() < 0.5
    menu = [
        ("probcal", _call("ece", "p", "y", bins=bins), "value", "exact"),
        ("contract", _call("ece", "p", "y", bins=bins, debiased=deb, strategy=strat), "value", "exact"),
        ("probcal", _call("mce", "p", "y", bins=bins), "value", "exact"),
        ("probcal", _call("ace", "p", "y", bins=bins), "value", "exact"),
        ("probcal", _call("mmce", "ps", "ys", bandwidth=h), "value", "kernel_sum"),
        ("contract", _call("skce", "ps", "ys", estimator=g.choice(["uq", "ul", "biased"]),
                           bandwidth=g.choice([h, "median"])), "value", "kernel_sum"),
        ("probcal", _call("logit", "p", eps=g.choice([1e-3, 1e-8, 2.220446049250313e-16])), "value", "exact"),
        ("probcal", _call("inv_logit", "z"), "value", "exact"),
        ("contract", "{set.seed(%d); print(%s)}" % (seed, _call(
            "cal_test", "p", "y", method=g.choice(["bootstrap", "asymptotic"]), bandwidth=h, n_boot=boots)),
         "print", "exact", {"p": "ps", "y": "ys"}),
        ("contract", "{set.seed(%d); print(%s)}" % (seed, _call(
            "cal_ci", "p", "y", metric=g.choice(["ece", "mce", "ace"]), n_boot=boots, bins=bins,
            conf_level=g.choice([0.9, 0.95]))), "print", "exact"),
        ("contract", "{set.seed(%d); print(%s)}" % (seed, _call(
            "cal_ci", "p", "y", metric="ece", n_boot=boots, bins=bins, debiased=deb, strategy=strat)),
         "print", "exact"),
        ("contract", "{set.seed(%d); %s$upper}" % (seed, _call(
            "cal_ci", "ps", "ys", metric=g.choice(["skce", "mmce"]), n_boot=boots, bandwidth=h)),
         "value", "kernel_sum"),
        ("probcal", "print(%s)" % g.choice(["cal_platt(p, y)", "cal_beta(p, y)", "cal_isotonic(p, y)",
                                            _call("cal_histogram", "p", "y", bins=bins, strategy=strat),
                                            "cal_temperature(z, y)"]), "print", "exact"),
        ("probcal", "summary(%s)" % g.choice(["cal_platt(p, y)", "cal_isotonic(p, y)", "cal_beta(p, y)",
                                              "cal_temperature(z, y)",
                                              _call("cal_histogram", "p", "y", bins=bins, strategy=strat)]),
         "print", "exact"),
        ("probcal", "print(%s)" % _call("cal_cv", "p", "y", method=g.choice(["platt", "isotonic", "histogram"]),
                                        folds=g.choice([2, 3]), seed=seed), "print", "exact"),
        ("probcal", _call("mmce", "ps", "ys", bandwidth=g.choice([-1, 0])), "value", "exact"),
        ("contract", _call("skce", "ps", "ys", estimator="x"), "value", "exact"),
        ("probcal", "predict(%s, q)" % g.choice(["cal_platt(p, y)", "cal_beta(p, y)", "cal_isotonic(p, y)",
                                                 _call("cal_histogram", "p", "y", bins=bins, strategy=strat)]),
         "value", "exact"),
        ("probcal", _call("cal_cv", "p", "y", method=g.choice(["platt", "isotonic", "histogram", "beta"]),
                          folds=g.choice([2, 3, 5]), seed=seed) + "$oof_predictions", "value", "exact"),
        ("probcal", _call("reliability_diagram", "p", "y", bins=bins) + "$data", "value", "exact"),
        # Bad arguments: R's messages.
        ("probcal", _call("ece", "p", "y", bins=g.choice([0, 2.5, -1])), "value", "exact"),
        ("contract", _call("cal_ci", "p", "y", n_boot=g.choice([0, 1.5]), bins=bins), "value", "exact"),
        ("probcal", _call("cal_cv", "p", "y", method="beta", n_folds=2), "value", "exact"),
    ]
    return menu


def _multiclass_calls(g: random.Random):
    bins = _bins(g)
    seed = g.randrange(1, 10 ** 6)
    boots = g.choice([9, 19])
    h = g.choice([0.1, 0.2, 0.5])
    typ = g.choice(["classwise", "confidence"])
    strat = g.choice(["equal_width", "equal_freq"])
    menu = [
        ("probcal", _call("ece", "pm", "ym", bins=bins, type=typ), "value", "exact"),
        ("contract", _call("ece", "pm", "ym", bins=bins, type=typ, debiased=g.random() < 0.5, strategy=strat),
         "value", "exact"),
        ("probcal", _call("mce", "pm", "ym", bins=bins, type=typ), "value", "exact"),
        ("probcal", _call("ace", "pm", "ym", bins=bins, type=typ), "value", "exact"),
        ("probcal", _call("mmce", "pms", "yms", bandwidth=h), "value", "kernel_sum"),
        ("contract", _call("skce", "pms", "yms", estimator=g.choice(["uq", "ul", "biased"]), bandwidth=h,
                           type=g.choice(["canonical", "confidence", "classwise"])), "value", "kernel_sum"),
        ("contract", "{set.seed(%d); print(%s)}" % (seed, _call(
            "cal_test", "p", "y", bandwidth=h, n_boot=boots, type=g.choice(["canonical", "confidence"]))),
         "print", "exact", {"p": "pms", "y": "yms"}),
        ("contract", "{set.seed(%d); print(%s)}" % (seed, _call(
            "cal_ci", "pm", "ym", metric=g.choice(["ece", "mce", "ace"]), n_boot=boots, bins=bins, type=typ)),
         "print", "exact"),
        ("probcal", "print(%s)" % g.choice(["cal_temperature(lm, ym)", "cal_vector_scaling(lm, ym)",
                                            _call("cal_ovr", "pm", "ym", method=g.choice(
                                                ["platt", "isotonic", "histogram"]))]), "print", "exact"),
        ("probcal", "predict(%s, pm)" % g.choice([_call("cal_ovr", "pm", "ym", method=g.choice(
            ["platt", "isotonic", "histogram", "beta"]))]), "value", "exact"),
        ("probcal", "predict(cal_temperature(lm, ym), lm)", "value", "exact"),
        ("probcal", "predict(cal_vector_scaling(lm, ym), lm)", "value", "exact"),

        ("probcal", "summary(%s)" % g.choice(["cal_temperature(lm, ym)", "cal_vector_scaling(lm, ym)",
                                              _call("cal_ovr", "pm", "ym", method=g.choice(
                                                  ["platt", "beta", "histogram"]))]), "print", "exact"),
        ("probcal", _call("cal_cv", "pm", "ym", method="ovr", folds=2, seed=seed, base_method=g.choice(
            ["platt", "isotonic", "histogram"])) + "$oof_predictions", "value", "exact"),
        ("probcal", _call("cal_cv", "lm", "ym", method="temperature", folds=2, seed=seed) + "$oof_predictions",
         "value", "exact"),
        ("probcal", _call("reliability_diagram", "pm", "ym", bins=bins, type=typ) + "$data", "value", "exact"),
        ("probcal", _call("ece", "pm", "ym", type="bad"), "value", "exact"),
    ]
    if g.random() < 0.3:
        # R's optim() fit is slow: a 60-row head, in a third of the programs.
        menu.append(("probcal", "predict(cal_dirichlet(p, y), p)", "value", "exact", {"p": "pmd", "y": "ymd"}))
    return menu


def program(pid: int) -> list:
    """The calls of program ``pid`` as fixture cases (without ``expected``)."""
    g = random.Random(f"pycalib_r probcal differential program {pid}")
    multiclass = g.random() < 0.4
    n = int(round(math.exp(g.uniform(math.log(20), math.log(5000)))))
    m = min(n, 300)  # R's kernel statistics build n x n matrices (the contract in loops)
    if multiclass:
        k = g.randrange(2, 7)
        pm = _prob_matrix(g, n, k)
        ym = _codes(g, pm)
        lm = np.log(np.maximum(pm, 1e-9)) * g.choice([0.5, 1.0, 3.0])
        inputs = {"pm": _mat(pm), "ym": _vec(ym), "pms": _mat(pm[:m]), "yms": _vec(ym[:m]), "lm": _mat(lm),
                  "pmd": _mat(pm[:max(k, 60)]), "ymd": _vec(ym[:max(k, 60)])}
        menu = _multiclass_calls(g)
        mw = g.randrange(max(3 * k, 24), 150)
        ymw = np.array([1 + i % k for i in range(mw)], dtype=np.int64)
        inputs.update({"pmw": _mat(_near_separable(g, ymw, k)), "ymw": _vec(ymw)})
    else:
        p = _probabilities(g, n)
        y = _labels(g, p)
        inputs = {"p": _vec(p), "y": _vec(y), "ps": _vec(p[:m]), "ys": _vec(y[:m]),
                  "q": _vec(_probabilities(g, 50)),
                  "z": _vec(np.round(np.array([g.gauss(0, 2) for _ in range(n)]), g.choice([1, 3, 12])))}
        menu = _binary_calls(g)
        yw = np.array([i % 2 for i in range(g.randrange(24, 200))], dtype=np.int64)
        inputs.update({"pw": _vec(_near_separable(g, yw)), "yw": _vec(yw)})
    menu += _warning_calls(g, multiclass)
    calls = g.sample(menu, g.randrange(4, 9))
    cases = []
    for j, (source, r_call, kind, tol, *alias) in enumerate(calls):
        # cal_test prints the names of its data: the kernel-sized head goes by p and y.
        alias = alias[0] if alias else {}
        scope = {**inputs, **{a: inputs[b] for a, b in alias.items()}}
        names = {t for t in scope if _mentions(r_call, t)}
        rtol, atol = TOLERANCE[tol]
        cases.append({"id": f"diff-probcal-{pid}-{j}", "function": r_call.split("(")[0].lstrip("{"),
                      "source": source, "r_call": r_call, "kind": kind, "tolerance": tol,
                      "inputs": {t: scope[t] for t in sorted(names)}, "rtol": rtol, "atol": atol})
    return cases


def _mentions(r_call: str, name: str) -> bool:
    import re

    return re.search(rf"(?<![\w.$]){name}(?![\w.])", r_call) is not None


# ---------------------------------------------------------------------------
# R.

def _r_value(v) -> str:
    if isinstance(v, dict) and "matrix" in v:
        rows = v["matrix"]
        flat = [x for row in rows for x in row]
        return f"matrix(c({', '.join(float(x).hex() for x in flat)}), nrow = {len(rows)}, byrow = TRUE)"
    if isinstance(v, list):
        if all(isinstance(x, int) for x in v):
            return f"c({', '.join(f'{x}L' for x in v)})"
        return f"c({', '.join(float(x).hex() for x in v)})"
    raise TypeError(type(v))


def _r_program_file(cases: list, path: Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("cases <- list(\n")
        for i, c in enumerate(cases):
            inputs = ", ".join(f"{k} = {_r_value(v)}" for k, v in c["inputs"].items())
            call = c["r_call"].replace("\\", "\\\\").replace('"', '\\"')
            sep = "," if i < len(cases) - 1 else ""
            fh.write(f'list(id = "{c["id"]}", source = "{c["source"]}", kind = "{c["kind"]}", '
                     f'r_call = "{call}", inputs = list({inputs})){sep}\n')
        fh.write(")\n")


def run_r(cases: list):
    """R's answers to ``cases`` (one Rscript process): ``(versions, {id: expected})``."""
    with tempfile.TemporaryDirectory() as tmp:
        prog, out = Path(tmp) / "programs.R", Path(tmp) / "out.jsonl"
        _r_program_file(cases, prog)
        env = dict(ORIGINAL_ENV)
        env.setdefault("LC_ALL", "C.UTF-8")
        proc = subprocess.run(["Rscript", str(REPO / "reference" / "r" / "diff_probcal.R"), str(REPO),
                               str(prog), str(out)], capture_output=True, text=True, env=env, timeout=3000)
        if proc.returncode != 0:
            raise RuntimeError(f"Rscript failed: {proc.stderr[-2000:]}")
        lines = out.read_text(encoding="utf-8").splitlines()
    versions = json.loads(lines[0])
    answers = {}
    for line in lines[1:]:
        rec = json.loads(line)
        answers[rec["id"]] = rec["expected"]
        SECONDS[rec["id"]] = rec["seconds"]
    return versions, answers


SECONDS = {}


def _probcal_installed() -> bool:
    proc = subprocess.run(["Rscript", "-e", 'cat(requireNamespace("probcal", quietly = TRUE))'],
                          capture_output=True, text=True, env=dict(ORIGINAL_ENV))
    if proc.returncode != 0:
        pytest.fail(f"R is required for the differential tests: {proc.stderr[-500:]}")
    return proc.stdout.strip() == "TRUE"


# ---------------------------------------------------------------------------
# Comparison.

def compare(cases: list) -> tuple:
    """Run every case (with ``expected``) in pycalib_r: (failures by program, stats)."""
    import pycalib_r

    failures = {}
    worst = (0.0, 0.0)
    for case in cases:
        pid = case["id"].rsplit("-", 1)[0]
        if pid in failures:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            outcome = _rcall.run_case(case, pycalib_r)
        if outcome.status != "pass":
            failures[pid] = f"{case['id']}: {case['r_call']}\n    {outcome.status}: {outcome.detail}"
        elif case["tolerance"] != "exact":
            worst = _worse(worst, _differences(case, pycalib_r))
    return failures, worst


# Below this magnitude R's kernel sums are rounding noise around 0 (skce's
# biased estimator of calibrated data: R's value about 1e-17): their relative
# difference means nothing (it can be 1), so the absolute one is reported.
NEAR_ZERO = 1e-10


def _worse(a: tuple, b: tuple) -> tuple:
    return max(a[0], b[0]), max(a[1], b[1])


def _differences(case, pkg) -> tuple:
    """(relative difference where |R| >= NEAR_ZERO else 0, absolute difference)."""
    exp = case["expected"]
    if not isinstance(exp, (int, float)) or isinstance(exp, bool):
        return 0.0, 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _rcall.evaluate(_rcall.parse(case["r_call"]), _rcall.decode_inputs(case["inputs"]), pkg)
    got = float(np.asarray(got).reshape(-1)[0])
    diff = abs(got - exp)
    return (diff / abs(exp) if abs(exp) >= NEAR_ZERO else 0.0), diff


def _programs(first: int, count: int) -> list:
    return [c for pid in range(first, first + count) for c in program(pid)]


def _report(cases, failures, worst, label):
    n_prog = len({c["id"].rsplit("-", 1)[0] for c in cases})
    print(f"probcal differential ({label}): {n_prog} programs, {len(cases)} calls, "
          f"{len(failures)} programs differ; largest kernel-sum difference: relative {worst[0]:.3g} "
          f"(where |R| >= {NEAR_ZERO:g}), absolute {worst[1]:.3g}")
    assert not failures, (f"{len(failures)} of {n_prog} programs differ from R "
                          "(first differing call of each):\n" + "\n".join(list(failures.values())[:20]))


def test_programs_agree_with_r():
    if not _probcal_installed():
        pytest.skip("probcal not installed: the stored sample is checked by test_stored_sample")
    failures, worst, cases = {}, (0.0, 0.0), []
    for first in range(FIRST, FIRST + COUNT, _BATCH):
        batch = _programs(first, min(_BATCH, FIRST + COUNT - first))
        versions, answers = run_r(batch)
        for c in batch:
            c["expected"] = answers[c["id"]]
        f, w = compare(batch)
        failures.update(f)
        worst = _worse(worst, w)
        cases += batch
    _report(cases, failures, worst, f"ids {FIRST}..{FIRST + COUNT - 1}, R {versions['r_version']}, "
                                    f"probcal {versions['probcal_version']}")


def test_stored_sample():
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    assert data["r_version"] == "4.2.2" and data["probcal_version"] == "0.1.0"
    # The stored answers are for the generator's programs (their inputs are
    # not stored, only their digest): a changed generator must store again.
    cases = _programs(0, data["programs"])
    stored = data["cases"]
    assert [(c["id"], c["r_call"], _digest(c["inputs"])) for c in cases] == \
        [(c["id"], c["r_call"], c["inputs_sha256"]) for c in stored], \
        "the generator changed: store the sample again (python -m tests.suites.differential.test_differential_probcal --store)"
    kept = []
    for c, s in zip(cases, stored):
        if "expected" in s:  # answers longer than _STORED_MAX are left to the live run
            c["expected"] = s["expected"]
            kept.append(c)
    cases = kept
    failures, worst = compare(cases)
    _report(cases, failures, worst, "stored sample")


def _digest(inputs) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


# Characters of JSON up to which an answer is stored (long predictions are not).
_STORED_MAX = 20_000


def _stored_case(case, expected) -> dict:
    out = {"id": case["id"], "r_call": case["r_call"], "inputs_sha256": _digest(case["inputs"])}
    if len(json.dumps(expected)) <= _STORED_MAX:
        out["expected"] = expected
    return out


def _store() -> None:
    cases = _programs(0, SAMPLE_PROGRAMS)
    versions, answers = run_r(cases)
    cases = [_stored_case(c, answers[c["id"]]) for c in cases]
    data = {"generator": "tests/suites/differential/test_differential_probcal.py --store", "programs": SAMPLE_PROGRAMS,
            **versions, "rng_kind": ["Mersenne-Twister", "Inversion", "Rejection"], "cases": cases}
    SAMPLE.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"stored {len(cases)} calls of {SAMPLE_PROGRAMS} programs in {SAMPLE}")


if __name__ == "__main__" and "--store" in sys.argv:
    sys.path.insert(0, str(REPO))
    _store()

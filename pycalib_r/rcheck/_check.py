"""same_as_r(): one call in pycalib_r and in the user's R, compared."""

from __future__ import annotations

import inspect
import re
import warnings
import weakref
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from ._compare import Outcome, compare_frames, compare_numbers, expected_array
from ._convert import as_r
from ._errors import NotExpressibleInR, RCheckError, RUnavailable
from ._report import Check, ParityReport, show, text_diff
from ._session import INSTALL_PROBCAL, session

__all__ = ["TOLERANCE", "same_as_r", "assert_same_as_r", "tolerance_for"]

# The tolerance policy of reference/manifest.toml ([tolerance.*]); a test
# checks that the two agree. A number passes when
# |python - r| <= atol + rtol * |r|, element by element.
TOLERANCE: Dict[str, Tuple[float, float]] = {
    "closed": (1e-12, 1e-15),
    "kernel": (1e-12, 1e-14),
    "asym_p": (1e-10, 1e-300),
    "brent_glm": (1e-7, 1e-9),
    "bfgs": (1e-5, 1e-7),
    "exact": (0.0, 0.0),
}


def _by_method(default: str) -> Callable[[dict, str], str]:
    """cal_ovr's and cal_cv's tolerance: their method's (the calibrator registry's)."""
    def policy(kwargs: dict, component: str) -> str:
        from ..calibrators._methods import methods

        method = kwargs.get("method", default)
        for entry in methods():
            if isinstance(method, str) and method in (entry.name, entry.r_choice):
                return entry.tolerance or "brent_glm"
        return "brent_glm"
    return policy


def _calibrator_specs() -> dict:
    """A spec per R calibrator of the calibrator registry, by its pycalib_r export."""
    from ..calibrators._methods import methods, resolve
    from ..rbase._rnames import PY_NAMES

    r_name = {py: r for r, py in PY_NAMES.items()}
    specs = {}
    for entry in methods():
        if entry.python_only:
            continue
        fn = resolve(entry.function)  # the object pycalib_r exports
        params = list(inspect.signature(fn).parameters)
        specs[fn] = _Spec(entry.r_name, entry.tolerance or _by_method("platt"),
                          kind="calibrator", data_args=tuple(params[:2]),
                          r_names=tuple((p, r_name[p]) for p in params if p in r_name))
    return specs


def _cal_test_policy(kwargs: dict, component: str) -> str:
    if component == "p.value":
        return "asym_p" if kwargs.get("method") == "asymptotic" else "closed"
    return "kernel"


def _ece_policy(kwargs: dict, component: str) -> str:
    return "kernel" if kwargs.get("debiased") is True else "closed"


@dataclass(frozen=True)
class _Spec:
    r_name: str
    tolerance: object = "closed"          # a class name, or f(r_kwargs, component)
    kind: str = "value"                   # value | test | calibrator | predict | summary | data | state
    data_args: Tuple[str, ...] = ()       # bound to names in R (deparse() sees them)
    r_names: Tuple[Tuple[str, str], ...] = ()   # Python argument -> R argument
    source: str = "probcal"               # probcal | base
    new_in_020: bool = False              # absent from probcal 0.1.0: contract.R answers
    args_020: Tuple[str, ...] = ()        # 0.2.0 arguments of an older function
    python_only: Tuple[str, ...] = ()     # Python arguments that do not change the result


# probcal's functions whose Python twins take Python-only observation weights.
_UNWEIGHTED_IN_R = ("ece", "mce", "ace", "reliability_diagram")


def _specs():
    import pycalib_r as pc

    metric = dict(data_args=("p", "y"))
    rng = dict(tolerance="exact", source="base")
    table = {
        pc.ece: _Spec("ece", _ece_policy, args_020=("debiased", "strategy"), **metric),
        pc.mce: _Spec("mce", **metric),
        pc.ace: _Spec("ace", **metric),
        pc.mmce: _Spec("mmce", "kernel", **metric),
        pc.skce: _Spec("skce", "kernel", new_in_020=True, **metric),
        pc.logit: _Spec("logit", data_args=("p",)),
        pc.inv_logit: _Spec("inv_logit", data_args=("x",)),
        pc.cal_test: _Spec("cal_test", _cal_test_policy, kind="test", new_in_020=True,
                           python_only=("progress",), **metric),
        pc.cal_ci: _Spec("cal_ci", "kernel", kind="test", new_in_020=True,
                         python_only=("progress",), **metric),
        **_calibrator_specs(),
        pc.predict: _Spec("predict", kind="predict", data_args=("fit", "newdata"),
                          r_names=(("fit", "object"),)),
        pc.summary: _Spec("summary", kind="summary", data_args=("fit",), r_names=(("fit", "object"),)),
        pc.reliability_diagram: _Spec("reliability_diagram", kind="data", **metric),
        pc.reliability_table: _Spec("reliability_diagram", kind="data", **metric),
        pc.set_seed: _Spec("set.seed", r_names=(("normal_kind", "normal.kind"),
                                                ("sample_kind", "sample.kind")), **rng),
        pc.rng_kind: _Spec("RNGkind", r_names=(("normal_kind", "normal.kind"),
                                               ("sample_kind", "sample.kind")), **rng),
        pc.next_rng_stream: _Spec("nextRNGStream", **rng),
        pc.next_rng_substream: _Spec("nextRNGSubStream", **rng),
        pc.runif: _Spec("runif", **rng),
        pc.rnorm: _Spec("rnorm", **rng),
        pc.rbinom: _Spec("rbinom", **rng),
        pc.sample: _Spec("sample", **rng),
        pc.sample_int: _Spec("sample.int", **rng),
        # R's distributions (stats), bit for bit on the same stream.
        **{getattr(pc, name): _Spec(name, **rng) for name in (
            "rexp", "rgamma", "rbeta", "rchisq", "rt", "rf", "rgeom", "rnbinom", "rhyper",
            "rmultinom", "rlogis", "rweibull", "rcauchy", "rlnorm")},
        pc.rpois: _Spec("rpois", r_names=(("lambda_", "lambda"),), **rng),
        pc.RRandom: _Spec("set.seed", kind="state", **rng),
        pc.options: _Spec("options", "exact", source="base"),
        pc.get_option: _Spec("getOption", "exact", source="base", r_names=(("name", "x"),)),
    }
    unsupported = {
        pc.CalTest: "CalTest is the result of cal_test(); check same_as_r(pc.cal_test, p, y, ...)",
        pc.CalCI: "CalCI is the result of cal_ci(); check same_as_r(pc.cal_ci, p, y, ...)",
        pc.Calibrator: ("Calibrator is the base class of fitted calibrators; check the function "
                        "that fits one, e.g. same_as_r(pc.cal_platt, x, y)"),
        pc.ProbcalError: "ProbcalError is an exception class; check the call that raises it",
        pc.ece_ci: ("ece_ci() is a Python-only addition (Sun et al. 2024): probcal has no such "
                    "interval to compare with; check pc.ece or pc.cal_ci"),
        pc.EceCI: "EceCI is the result of ece_ci(), a Python-only addition with no R counterpart",
        **{getattr(pc, name): (f"{name}() is a Python-only addition (Kumar, Liang & Ma 2019): "
                               "probcal has no such function to compare with")
           for name in ("calibration_error", "brier_score", "cal_scaling_binning")},
        pc.cal_venn_abers: ("cal_venn_abers() is a Python-only addition (Vovk, Petej & Fedorova "
                            "2015): probcal has no such function to compare with"),
        pc.BrierScore: "BrierScore is the result of brier_score(), a Python-only addition",
        pc.reliabilitydiag: ("reliabilitydiag() is the R package reliabilitydiag's function, not "
                             "probcal's: same_as_r compares with probcal (tests/diagnostics/test_corp.py "
                             "compares it with reliabilitydiag)"),
        pc.ReliabilityDiag: "ReliabilityDiag is the result of reliabilitydiag(), not a probcal object",
        pc.CorpSummary: "CorpSummary is the summary() of reliabilitydiag(), not a probcal object",
        pc.smece: ("smece() is a Python-only addition (Blasiok & Nakkiran 2023, relplot's smooth "
                   "ECE): probcal has no such metric; check pc.ece"),
        pc.smooth_reliability_diagram: ("smooth_reliability_diagram() is a Python-only addition "
                                        "(relplot's smoothed diagram) with no R counterpart"),
        pc.SmoothReliability: ("SmoothReliability is the result of smooth_reliability_diagram(), "
                               "a Python-only addition with no R counterpart"),
        pc.show_config: ("show_config() is a Python-only addition (which compiled path runs) "
                         "with no R counterpart"),
        # R counterparts outside probcal (rms, ResourceSelection, MASS): not yet
        # in same_as_r's R session; tests/diagnostics/test_validation.py compares them.
        **{fn: (f"{fn.__name__}() compares with {ref}, outside the probcal session same_as_r "
                "runs; its parity is checked by tests/diagnostics/test_validation.py against that package")
           for fn, ref in ((pc.val_prob, "rms::val.prob"),
                           (pc.hoslem_test, "ResourceSelection::hoslem.test"),
                           (pc.cal_intercept_slope, "glm() with confint.default and MASS's confint"),
                           (pc.ValProb, "rms::val.prob's value"),
                           (pc.ValProbG, "rms::val.prob's grouped value (val.probg)"),
                           (pc.HoslemTest, "ResourceSelection::hoslem.test's value"),
                           (pc.CalInterceptSlope, "glm()'s coefficients and intervals"),
                           (pc.val_prob_ci, "CalibrationCurves::val.prob.ci.2"),
                           (pc.CalibrationCurve, "CalibrationCurves::val.prob.ci.2's value"))},
        pc.get_random_seed: ("get_random_seed() is R's .Random.seed: every report already "
                             "compares it after the call on both sides"),
        pc.set_random_seed: ("set_random_seed() assigns R's .Random.seed: check the draws that "
                             "follow it (same_as_r starts R from pycalib_r's stream state)"),
    }
    return table, unsupported


_SPECS: Optional[dict] = None


def _lookup(fn):
    """(spec, Python callable, stream owner, bound fit) for ``fn``."""
    global _SPECS
    import pycalib_r as pc

    if _SPECS is None:
        _SPECS = _specs()
    table, unsupported = _SPECS
    try:
        if fn in unsupported:
            raise NotExpressibleInR(unsupported[fn] + ".")
        if fn in table:
            return table[fn], fn, None, None
    except TypeError:  # unhashable
        pass
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", None)
    if isinstance(owner, pc.RRandom) and name:
        plain = getattr(pc, name, None)
        if plain in table and table[plain].source == "base" and table[plain].kind == "value":
            return table[plain], fn, owner, None
    if isinstance(owner, pc.Calibrator) and name in ("predict", "summary"):
        return table[getattr(pc, name)], getattr(pc, name), None, owner
    label = getattr(fn, "__qualname__", None) or repr(fn)
    raise NotExpressibleInR(
        f"{label} is not a pycalib_r export with an R counterpart; same_as_r() takes the "
        f"functions of pycalib_r.__all__ (ece, cal_test, cal_platt, predict, runif, ...) and the "
        f"methods of an RRandom or a fitted calibrator.")


# R objects behind Python results of earlier same_as_r() calls, so that
# predict()/summary() of a fitted calibrator can be checked too.
_TWINS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

_R_NAME = re.compile(r"^(?:[A-Za-z]|[.][A-Za-z._])[A-Za-z0-9._]*$")
_R_RESERVED = {"if", "else", "repeat", "while", "function", "for", "next", "break", "TRUE", "FALSE",
               "NULL", "Inf", "NaN", "NA", "NA_integer_", "NA_real_", "NA_character_", "in"}


def _syntactic(name) -> bool:
    return isinstance(name, str) and bool(_R_NAME.match(name)) and name not in _R_RESERVED


def tolerance_for(spec_tolerance, r_kwargs: dict, component: str) -> str:
    """The tolerance class (a key of :data:`TOLERANCE`) for one compared item.

    R equivalent: none.
    """
    if callable(spec_tolerance):
        return spec_tolerance(r_kwargs, component)
    return spec_tolerance


def _tol_text(name: str) -> str:
    rtol, atol = TOLERANCE[name]
    return "exact" if name == "exact" else f"{name}: rtol {rtol:g}, atol {atol:g}"


def _component(obj, r_name: str):
    if isinstance(obj, dict):
        for key in (r_name, r_name.replace(".", "_")):
            if key in obj:
                return True, obj[key]
        return False, None
    try:
        if hasattr(obj, "keys") and r_name in obj.keys():
            return True, obj[r_name]
    except Exception:  # noqa: BLE001 - fall back to the attribute
        pass
    attr = r_name.replace(".", "_")
    if hasattr(obj, attr):
        return True, getattr(obj, attr)
    return False, None


def _compare_value(name: str, py, rv, tol: str) -> Check:
    if isinstance(rv, str) or (isinstance(rv, list) and rv and all(isinstance(v, str) for v in rv)
                               and not set(rv) <= {"NA", "NaN", "Inf", "-Inf"}):
        tol = "exact"
    if type(rv) is int or (isinstance(rv, list) and rv and all(type(v) is int for v in rv)):
        tol = "exact"  # R integers (counts, fold ids): the manifest's exact class
    rtol, atol = TOLERANCE[tol]
    r_show = show(rv)
    if rv is None:
        ok = py is None
        return Check(name, show(py), "NULL", "pass" if ok else "fail", tolerance=_tol_text(tol),
                     detail="" if ok else "R gives NULL")
    if isinstance(rv, dict) and "data_frame" in rv:
        out = compare_frames(rv, py, rtol, atol)
        r_show = f"data.frame({', '.join(rv['data_frame'])})"
    elif isinstance(rv, dict) and "factor" in rv:
        out = compare_numbers(rv["factor"], py, 0.0, 0.0)
        r_show = show(np.asarray(rv["factor"]))
    else:
        try:
            whole = isinstance(rv, list) and rv and all(type(v) is int for v in rv)
            r_show = show(np.asarray(rv) if whole else expected_array(rv))
        except (TypeError, ValueError, KeyError):
            pass
        out = compare_numbers(rv, py, rtol, atol)
    if isinstance(py, _pd_frame_type()):
        py_show = f"DataFrame({', '.join(map(str, py.columns))})"
    else:
        py_show = show(py)
    return _check_of(name, py_show, r_show, out, tol)


def _pd_frame_type():
    import pandas as pd

    return pd.DataFrame


def _check_of(name: str, py_show: str, r_show: str, out: Outcome, tol: str) -> Check:
    numeric = out.numeric or out.max_abs or out.max_rel
    return Check(name, py_show, r_show, "pass" if out.status == "pass" else "fail",
                 max_abs=out.max_abs if numeric else None, max_rel=out.max_rel if numeric else None,
                 tolerance=_tol_text(tol), detail=out.detail)


def _text_check(name: str, py_text: Optional[str], r_part) -> Check:
    if isinstance(r_part, dict) and "error" in r_part:
        return Check(name, show(py_text), "error", "fail", tolerance="exact",
                     detail=f"R's {name} raised: {r_part['error']}")
    r_text = r_part["text"] if isinstance(r_part, dict) else r_part
    if py_text is None or r_text is None:
        return Check(name, show(py_text), show(r_text), "fail", tolerance="exact",
                     detail="one side printed nothing")
    same = py_text == r_text
    return Check(name, "identical" if same else show(py_text), "identical" if same else show(r_text),
                 "pass" if same else "fail", tolerance="exact",
                 diff="" if same else text_diff(r_text, py_text))


def _stream_check(py_state, r_state) -> Check:
    if py_state is None or r_state is None:
        return Check("stream", "none" if py_state is None else f"position {py_state[1]}",
                     "none" if r_state is None else f"position {r_state[1]}", "fail",
                     tolerance="exact", detail=".Random.seed is missing on one side")
    a = np.asarray(py_state, dtype=np.int64)
    b = np.asarray(r_state, dtype=np.int64)
    same = a.shape == b.shape and bool(np.all(a == b))
    detail = "" if same else (f"the states differ in {int(np.sum(a != b)) if a.shape == b.shape else 'length'}"
                              f" of {b.size} words of .Random.seed")
    return Check("stream", f"position {int(a[1])}", f"position {int(b[1])}",
                 "pass" if same else "fail", tolerance="exact", detail=detail)


def _run_python(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = call(), None
        except Exception as exc:  # noqa: BLE001 - the error is part of the report
            value, error = None, exc
    return value, error, [str(w.message) for w in caught]


def same_as_r(fn, *args, **kwargs) -> ParityReport:
    """Run a call in pycalib_r and the same call in R; compare everything.

    The inputs go to R unchanged in meaning (doubles, integers, logicals,
    strings, matrices column-major, Categoricals as factors, missing values
    as ``NA``); R's ``.Random.seed`` is set to pycalib_r's stream state first
    (the global stream, or the :class:`~pycalib_r.RRandom` passed as
    ``rng=``), and R's ``probcal.emoji`` option to pycalib_r's. R evaluates
    the call after ``library(probcal)``. Where the installed probcal lacks a
    0.2.0 function or argument (``skce``, ``cal_test``, ``cal_ci``,
    ``ece(debiased, strategy)``), the shipped ``contract.R`` (probcal 0.2.0's
    definition in plain R) answers instead, and the report says so.

    Parameters
    ----------
    fn : callable
        A pycalib_r export (``pc.ece``, ``pc.cal_test``, ``pc.cal_platt``,
        ``pc.predict``, ``pc.runif``, ``pc.RRandom``, ...), a method of an
        ``RRandom`` (``rng.runif``), or ``predict``/``summary`` of a
        calibrator fitted by an earlier ``same_as_r`` call.
    *args, **kwargs
        The call's arguments, as pycalib_r takes them.

    Returns
    -------
    ParityReport
        Values side by side with the largest absolute and relative
        differences, printed text (``print``, ``summary``) equal or not with
        a diff, each side's error message, ``.Random.seed`` after the call on
        both sides, and ``passed`` under the tolerance policy
        (:data:`TOLERANCE`, which ships with the package; the source
        repository's ``reference/manifest.toml`` states the same policy).

    Raises
    ------
    RUnavailable
        R, rpy2, cli or probcal (for probcal's functions) is not installed;
        the message says how to install it.
    NotExpressibleInR
        The call has no R counterpart: a ``numpy.random.Generator`` as
        ``rng``, a ``data_name`` that is not two R names, a result class, a
        value R has no type for, or ``predict()`` of a calibrator R never saw.

    Notes
    -----
    A fitted calibrator's report compares its atomic components
    (coefficients, ``n``, breaks, fold ids, ...), ``print()``, ``summary()``
    and ``predict()`` on the training input; keep the Python fit to check
    ``same_as_r(pc.predict, fit, newdata)`` against the same R fit. Python
    arguments with no effect on the result (``progress``) are not passed to R.

    R equivalent: ``library(probcal); .Random.seed <- <state>; fn(...)``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> from pycalib_r.rcheck import same_as_r
    >>> pc.set_seed(40)
    >>> p = pc.runif(300); y = pc.rbinom(300, 1, p)
    >>> report = same_as_r(pc.ece, p, y, bins=15)      # doctest: +SKIP
    >>> report.passed, report.r_source                 # doctest: +SKIP
    (True, 'probcal 0.1.0')
    """
    import pycalib_r as pc

    spec, py_fn, stream_owner, bound_fit = _lookup(fn)
    sess = session()
    if bound_fit is not None:
        args = (bound_fit,) + args
    try:
        bound = inspect.signature(py_fn).bind(*args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"{spec.r_name}(): {exc}") from None

    if spec.r_name in _UNWEIGHTED_IN_R and bound.arguments.get("weights") is not None:
        raise NotExpressibleInR(f"weights= is Python-only: probcal's {spec.r_name}() takes no "
                                "observation weights; compare the call without them.")
    renames = dict(spec.r_names)
    data: Dict[str, object] = {}
    named: Dict[str, object] = {}
    python_rng = None
    data_name = None
    params = inspect.signature(py_fn).parameters
    for name, value in bound.arguments.items():
        if params[name].kind is inspect.Parameter.VAR_KEYWORD:
            for key, item in value.items():
                named[renames.get(key, "lambda" if key == "lambda_" else key)] = item
        elif name == "rng":
            python_rng = value
        elif name == "data_name" and spec.r_name == "cal_test":
            data_name = value
        elif name in spec.python_only:
            continue
        elif name == "weights" and spec.r_name.startswith("cal_"):
            if value is None:  # the default: R's call as it is
                continue
            raise NotExpressibleInR(
                f"{spec.r_name}(weights=) is Python-only: probcal's calibrators take no weights "
                f"(the weighted Platt and beta fits are R's glm(..., weights = w); see "
                f"docs/guide/weights-calibrators.md).")
        elif name in spec.data_args:
            data[renames.get(name, name)] = value
        else:
            named[renames.get(name, name)] = value
    if spec.r_name == "options":
        if not named:
            raise NotExpressibleInR("options() without arguments lists all of R's options; "
                                    "name the options to compare, e.g. options(probcal_emoji=False).")
        named = {k.replace("_", "."): v for k, v in named.items()}
    if spec.r_name == "getOption" and isinstance(named.get("x"), str):
        named["x"] = named["x"].replace("_", ".")

    stream = stream_owner
    if python_rng is not None:
        if not isinstance(python_rng, pc.RRandom):
            raise NotExpressibleInR(
                f"rng={type(python_rng).__name__}: R draws from its own Mersenne-Twister "
                f"stream only; pass rng=None (pycalib_r's global R stream) or a pycalib_r.RRandom.")
        stream = python_rng
    if spec.kind == "state":
        if named.get("seed") is None and not data:
            raise NotExpressibleInR("RRandom(None) seeds from OS entropy, which R cannot draw "
                                    "the same; give a seed.")
    if stream is None:
        stream = pc._rng._global_stream()
    state_before = stream.get_state().copy()

    if data_name is not None:
        parts = data_name.split(" and ") if isinstance(data_name, str) else []
        if len(parts) != 2 or not all(_syntactic(s) for s in parts) or parts[0] == parts[1]:
            raise NotExpressibleInR(
                f"data_name={data_name!r}: R's cal_test() takes the data name from its call "
                f"(deparse(substitute(p)) and deparse(substitute(y))), so only two distinct R "
                f"names joined by ' and ' can be expressed.")
        data = dict(zip(parts, data.values()))
    elif spec.r_name == "cal_test":
        names = [getattr(v, "name", None) for v in data.values()]
        if all(isinstance(n, str) and n for n in names) and len(names) == 2:
            if not all(_syntactic(n) for n in names) or names[0] == names[1]:
                raise NotExpressibleInR(
                    f"the pandas names {names[0]!r} and {names[1]!r} make pycalib_r's data name; "
                    f"R takes it from two R variable names: pass data_name='a and b' with R names.")
            data = dict(zip(names, data.values()))

    # Which R answers.
    source, fallback = spec.source, ""
    twin = None
    if spec.kind in ("predict", "summary"):
        fit = data.get("object")
        try:
            twin = _TWINS.get(fit)
        except TypeError:
            twin = None
        if twin is None:
            raise NotExpressibleInR(
                f"{spec.r_name}(): R has not seen this calibrator; fit it through same_as_r "
                f"(report = same_as_r(pc.cal_platt, x, y)) and pass the returned Python fit "
                f"(report.python_value).")
        source = "probcal"
    if source == "probcal":
        if sess.probcal_version is None:
            raise RUnavailable(f"the probcal R package is not installed in this R "
                               f"({sess.r_version}): {INSTALL_PROBCAL}")
        if spec.new_in_020 or any(a in named for a in spec.args_020):
            if not sess.probcal_has(spec.r_name, list(named)):
                lacking = (f"{spec.r_name}()" if spec.new_in_020 and not sess.probcal_has(spec.r_name, [])
                           else f"{spec.r_name}() argument(s) "
                           f"{', '.join(a for a in spec.args_020 if a in named)}")
                source = "contract"
                fallback = (f"installed probcal {sess.probcal_version} lacks {lacking} (new in "
                            f"0.2.0); the shipped contract.R (probcal 0.2.0's definition in plain R) "
                            f"answered. Install probcal >= 0.2.0 to check against probcal itself.")
    r_source = {"probcal": f"probcal {sess.probcal_version}", "base": "base R",
                "contract": "contract.R (probcal 0.2.0 definition)"}[source]

    ro = sess.ro
    r_args = {}
    for name, value in data.items():
        if spec.kind in ("predict", "summary") and name == "object":
            r_args[name] = twin[0]
        else:
            r_args[name] = as_r(ro, value, f"argument `{name}`")
    r_kwargs = {name: as_r(ro, value, f"argument `{name}`") for name, value in named.items()}
    opts = {"probcal.emoji": as_r(ro, bool(pc.get_option("probcal.emoji")))}
    extras = {"test": ("print",), "calibrator": ("print", "summary", "predict"),
              "data": ("data",), "state": ("state",)}.get(spec.kind, ())

    # pycalib_r's side first (the stream is still at state_before).
    def python_call():
        value = py_fn(*bound.args, **bound.kwargs)
        if spec.kind == "data":
            if py_fn is pc.reliability_diagram:
                try:
                    import matplotlib.pyplot as plt

                    plt.close(value)
                except ImportError:  # pragma: no cover - the figure needed matplotlib
                    pass
            table_args = {k: v for k, v in bound.arguments.items()
                          if k not in ("show_ece", "show_counts")}
            value = pc.reliability_table(**table_args)
        return value

    py_value, py_error, py_warnings = _run_python(python_call)
    if spec.kind == "state" and py_error is None:
        py_stream = py_value.get_state()
    else:
        py_stream = stream.get_state()

    try:
        r_out, r_value = sess.call(spec.r_name, r_args, r_kwargs, source, state_before, opts, extras)
    except Exception as exc:  # noqa: BLE001 - rpy2's RRuntimeError and friends
        raise RCheckError(f"R could not evaluate {spec.r_name}() for the comparison "
                          f"({type(exc).__name__}: {str(exc).strip()[:300]}); nothing was "
                          f"compared") from exc
    r_error = r_out.get("error")
    report = ParityReport(
        call=_shorten(r_out.get("call") or spec.r_name), function=spec.r_name, r_source=r_source,
        fallback=fallback, python_error=None if py_error is None else str(py_error),
        r_error=r_error, python_value=py_value, r_value=r_out.get("value"),
        python_warnings=py_warnings, r_warnings=list(r_out.get("warnings") or []),
        stream_python=[int(v) for v in py_stream], stream_r=r_out.get("seed"),
        r_version=sess.r_version, probcal_version=sess.probcal_version or "")

    kw_for_policy = {k: v for k, v in named.items()}
    if twin is not None:
        kw_for_policy = twin[2]
        spec_tol = twin[1].tolerance
    else:
        spec_tol = spec.tolerance

    checks = report.checks
    if py_error is not None or r_error is not None:
        py_msg = None if py_error is None else str(py_error)
        if py_error is not None and r_error is not None:
            same = py_msg == r_error
            checks.append(Check("error", show(py_msg), show(r_error), "pass" if same else "fail",
                                tolerance="exact", diff="" if same else text_diff(r_error, py_msg),
                                detail="" if isinstance(py_error, pc.ProbcalError) else
                                f"pycalib_r raised {type(py_error).__name__}, not ProbcalError"))
        else:
            side = "pycalib_r" if py_error is not None else "R"
            other = "R" if py_error is not None else "pycalib_r"
            checks.append(Check("error", show(py_msg) if py_msg is not None else "ran",
                                show(r_error) if r_error is not None else "ran", "fail",
                                tolerance="exact",
                                detail=f"{side} raised, {other} returned a value: nothing else compared"))
        checks.append(_stream_check(report.stream_python, report.stream_r))
        return report

    if spec.kind == "summary":
        pass  # summary() returns the calibrator invisibly: its text is the result
    elif spec.kind == "state":
        checks.append(_compare_value("value", py_value.get_state(), (r_out.get("value") or {}).get("value"),
                                     "exact"))
    else:
        leaves = r_out.get("value") or {}
        atomic_result = isinstance(leaves, dict) and list(leaves) == ["value"] and (
            spec.kind in ("value", "data") or not r_out.get("skipped"))
        for name, rv in (leaves.items() if isinstance(leaves, dict) else []):
            tol = tolerance_for(spec_tol, kw_for_policy, name)
            if atomic_result and name == "value":
                found, py_part = True, py_value
            else:
                found, py_part = _component(py_value, name)
            if not found:
                checks.append(Check(name, "absent", show(rv), "fail",
                                    detail=f"the pycalib_r result has no component {name!r}"))
                continue
            checks.append(_compare_value(name, py_part, rv, tol))
        skipped = r_out.get("skipped") or {}
        for name, cls in (skipped.items() if isinstance(skipped, dict) else []):
            found, py_part = _component(py_value, name)
            checks.append(Check(name, show(py_part) if found else "absent", f"<{cls}>", "not compared",
                                detail=f"R's {name} is a {cls} object, not a vector"))
    if "print" in r_out:
        checks.append(_text_check("print", str(py_value), r_out["print"]))
    if "summary" in r_out:
        checks.append(_text_check("summary", str(pc.summary(py_value)), r_out["summary"]))
    if spec.kind == "summary":
        checks.append(_text_check("summary", str(py_value), r_out.get("output")))
    if "predict" in r_out:
        first = next(iter(data.values()))
        pred, pred_error, _ = _run_python(lambda: pc.predict(py_value, first))
        r_pred = r_out["predict"]
        if pred_error is not None or "error" in r_pred:
            same = pred_error is not None and "error" in r_pred and str(pred_error) == r_pred["error"]
            checks.append(Check("predict", show(str(pred_error)) if pred_error else show(pred),
                                show(r_pred.get("error", r_pred.get("value"))),
                                "pass" if same else "fail", tolerance="exact",
                                detail="" if same else "predict() on the training input raised on one side"))
        else:
            tol = tolerance_for(spec_tol, kw_for_policy, "predict")
            checks.append(_compare_value("predict", pred, r_pred.get("value"), tol))
    checks.append(_stream_check(report.stream_python, report.stream_r))

    if spec.kind == "calibrator" and py_value is not None and r_value is not None:
        try:
            _TWINS[py_value] = (r_value, spec, kw_for_policy)
        except TypeError:  # pragma: no cover - every Calibrator is weak-referenceable
            pass
    return report


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 4] + " ..."


def assert_same_as_r(fn, *args, **kwargs) -> ParityReport:
    """:func:`same_as_r` for a test suite: raise on a difference, skip without R.

    Parameters
    ----------
    fn, *args, **kwargs
        As :func:`same_as_r`.

    Returns
    -------
    ParityReport
        The report, when it passed.

    Raises
    ------
    AssertionError
        The report failed; its text (values side by side, diffs) is the
        message.
    NotExpressibleInR
        The call has no R counterpart (a mistake in the test, not a skip).

    Notes
    -----
    When R, rpy2 or probcal is missing the test is skipped (``pytest.skip``,
    or ``unittest.SkipTest`` without pytest) with a reason that says what to
    install. Set ``PYCALIB_R_REQUIRE_R=1`` in CI to fail instead.

    R equivalent: none (``testthat::expect_equal`` on both sides' values).

    Examples
    --------
    >>> import pycalib_r as pc
    >>> from pycalib_r.rcheck import assert_same_as_r
    >>> def test_ece_matches_r():
    ...     pc.set_seed(1)
    ...     p = pc.runif(100); y = pc.rbinom(100, 1, p)
    ...     assert_same_as_r(pc.ece, p, y, bins=15)
    """
    import os

    try:
        report = same_as_r(fn, *args, **kwargs)
    except RUnavailable as exc:
        if os.environ.get("PYCALIB_R_REQUIRE_R", "") not in ("", "0"):
            raise
        reason = f"parity with R not checked: {exc}"
        try:
            import pytest
        except ImportError:  # pragma: no cover - unittest users
            import unittest

            raise unittest.SkipTest(reason) from None
        pytest.skip(reason)
    if not report.passed:
        raise AssertionError("pycalib_r and R differ:\n" + str(report))
    return report

"""The parity report: one call, run in pycalib_r and in R, side by side."""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

__all__ = ["Check", "ParityReport"]


@dataclass
class Check:
    """One compared item of a call: a value, a component, printed text, the stream.

    Attributes
    ----------
    name : str
        What was compared: ``"value"``, an R component name (``"p.value"``),
        ``"print"``, ``"summary"``, ``"predict"``, ``"stream"``, ``"error"``.
    python, r : str
        Short displays of the two sides.
    status : str
        ``"pass"``, ``"fail"`` or ``"not compared"`` (with the reason in
        ``detail``). Only ``"fail"`` fails the report.
    max_abs, max_rel : float or None
        Largest absolute and relative (to R) difference, for numbers.
    tolerance : str
        The policy applied (``"closed: rtol 1e-12, atol 1e-15"``, ``"exact"``).
    detail : str
        Why it failed, or why it was not compared.
    diff : str
        A unified diff (R first) when texts differ.

    R equivalent: none.
    """

    name: str
    python: str
    r: str
    status: str
    max_abs: Optional[float] = None
    max_rel: Optional[float] = None
    tolerance: str = ""
    detail: str = ""
    diff: str = ""

    def to_dict(self) -> Dict[str, Any]:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                for k, v in self.__dict__.items()}


def show(value, limit: int = 60) -> str:
    """A short one-line display of a value (7 significant digits, as R prints)."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        text = value.replace("\n", "\\n")
        return repr(text if len(text) <= limit else text[:limit - 3] + "...")
    if isinstance(value, dict):
        value = list(value.values())
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - any object still gets a display
        arr = None
    if arr is not None and arr.dtype.kind in "fiub" and arr.size:
        def one(v):
            return f"{v:.7g}" if arr.dtype.kind == "f" else str(v)
        if arr.ndim == 0:
            return one(arr.item())
        head = " ".join(one(v) for v in arr.ravel()[:4].tolist())
        more = " ..." if arr.size > 4 else ""
        return f"[{'x'.join(map(str, arr.shape))}] {head}{more}"
    if arr is not None and arr.dtype.kind in "US":
        return show(str(arr.item())) if arr.ndim == 0 else show(" ".join(map(repr, arr.ravel()[:4].tolist())))
    text = repr(value).replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def text_diff(r_text: str, py_text: str) -> str:
    lines = difflib.unified_diff(r_text.splitlines(), py_text.splitlines(), "R", "pycalib_r",
                                 lineterm="", n=1)
    return "\n".join(lines)


@dataclass
class ParityReport:
    """The result of :func:`~pycalib_r.rcheck.same_as_r`: one call in both languages.

    Attributes
    ----------
    call : str
        The call as R evaluated it (``deparse()``), or as it would read.
    function : str
        The R function's name.
    r_source : str
        What answered on the R side: ``"probcal 0.2.0"``, or
        ``"contract.R (installed probcal 0.1.0 lacks skce())"``.
    fallback : str
        Empty, or why the shipped ``contract.R`` answered instead of probcal.
    checks : list of Check
        The compared items, values first, then text, then the stream.
    python_error, r_error : str or None
        The message when that side raised (R's ``conditionMessage()``).
    python_value, r_value : object
        The two results (R's as the parsed JSON of its comparable parts).
    python_warnings, r_warnings : list of str
        Warnings raised by each side (reported, not compared).
    stream_python, stream_r : list of int or None
        ``.Random.seed`` after the call on each side (626 integers).
    r_version, probcal_version : str
        The R that answered.

    Notes
    -----
    ``passed`` is True only when both sides ran and every check passed, or
    both raised the same message. A side that did not run is never equal.

    R equivalent: none.
    """

    call: str
    function: str
    r_source: str = ""
    fallback: str = ""
    checks: List[Check] = field(default_factory=list)
    python_error: Optional[str] = None
    r_error: Optional[str] = None
    python_value: Any = None
    r_value: Any = None
    python_warnings: List[str] = field(default_factory=list)
    r_warnings: List[str] = field(default_factory=list)
    stream_python: Optional[List[int]] = None
    stream_r: Optional[List[int]] = None
    r_version: str = ""
    probcal_version: str = ""

    @property
    def passed(self) -> bool:
        """True when both sides agree under the tolerance policy."""
        if (self.python_error is None) != (self.r_error is None):
            return False
        if not any(c.status == "pass" and c.name != "stream" for c in self.checks):
            return False  # nothing but the stream was compared: no evidence of equality
        return all(c.status != "fail" for c in self.checks)

    def __bool__(self) -> bool:
        return self.passed

    @property
    def failures(self) -> List[Check]:
        """The checks that failed."""
        return [c for c in self.checks if c.status == "fail"]

    @property
    def max_abs(self) -> float:
        """Largest absolute difference over the numeric checks (0 if none)."""
        return max((c.max_abs for c in self.checks if c.max_abs is not None), default=0.0)

    @property
    def max_rel(self) -> float:
        """Largest relative difference over the numeric checks (0 if none)."""
        return max((c.max_rel for c in self.checks if c.max_rel is not None), default=0.0)

    def to_dict(self) -> Dict[str, Any]:
        """The report as JSON-ready data (values as their displays)."""
        return {
            "call": self.call, "function": self.function, "passed": self.passed,
            "r_source": self.r_source, "fallback": self.fallback,
            "r_version": self.r_version, "probcal_version": self.probcal_version,
            "python_error": self.python_error, "r_error": self.r_error,
            "max_abs": _finite(self.max_abs), "max_rel": _finite(self.max_rel),
            "checks": [c.to_dict() for c in self.checks],
            "python_warnings": self.python_warnings, "r_warnings": self.r_warnings,
            "stream_position": {"python": None if self.stream_python is None else self.stream_python[1],
                                "r": None if self.stream_r is None else self.stream_r[1]},
        }

    def __str__(self) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        lines = [f"{verdict}: {self.call}",
                 f"  R side: {self.r_source}" + (f" ({self.r_version})" if self.r_version else "")]
        if self.fallback:
            lines.append(f"  fallback: {self.fallback}")
        if self.python_error is not None or self.r_error is not None:
            lines.append(f"  pycalib_r raised: {self.python_error!r}" if self.python_error is not None
                         else "  pycalib_r ran without error")
            lines.append(f"  R raised: {self.r_error!r}" if self.r_error is not None
                         else "  R ran without error")
        width = max([len(c.name) for c in self.checks] + [5])
        lines.append(f"  {'check':<{width}}  {'status':<12}  {'max abs':>9}  {'max rel':>9}  "
                     f"pycalib_r | R")
        for c in self.checks:
            nums = (f"{_num(c.max_abs):>9}  {_num(c.max_rel):>9}")
            lines.append(f"  {c.name:<{width}}  {c.status:<12}  {nums}  {c.python} | {c.r}")
            if c.tolerance and c.status == "fail":
                lines.append(f"  {'':<{width}}  tolerance {c.tolerance}")
            if c.detail:
                lines.append(f"  {'':<{width}}  {c.detail}")
            if c.diff:
                lines.extend("      " + d for d in c.diff.splitlines())
        for side, warns in (("pycalib_r", self.python_warnings), ("R", self.r_warnings)):
            for w in warns:
                lines.append(f"  warning ({side}): {w}")
        return "\n".join(lines)

    __repr__ = __str__


def _finite(x):
    return x if x is not None and math.isfinite(x) else None


def _num(x) -> str:
    return "" if x is None else f"{x:.2g}"

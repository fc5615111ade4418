"""The calibrator registry: one entry per calibration method, read by every face.

The scikit-learn face (``ProbcalCalibrator(method=...)``), the command line
(``pycalib-r calibrate --method``), the Dask face, ``rcheck`` and the hints
on R's ``...`` (:mod:`pycalib_r.inputs._hints`) take their method names,
arguments and input forms from :data:`REGISTRY`; none of them keeps a list
of its own (``tests/suites/project/test_registry.py`` fails when one does). A new
calibrator is a new module in this package plus one :class:`Method` entry
(``docs/architecture.md``, "Adding a calibrator").

This module imports nothing heavy (the functions are dotted names, imported
when first used), so the command line and the hints can read it without
importing the calibrators, and the core names the Dask implementations
without importing the Dask face.

R's choice vectors (``cal_ovr(method = c(...))``, ``cal_cv(method = c(...))``)
come from the entries' ``ovr``/``cv`` positions, in R's order: the first
choice is the default, as ``match.arg()`` takes it, and R's messages list
them in that order.

R equivalent: none (R's dispatch is ``fit_calibrator()``'s ``switch()``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

__all__ = ["Method", "REGISTRY", "methods", "method", "resolve", "OVR_METHODS", "CV_METHODS",
           "PY_CV_METHODS", "PY_OVR_METHODS", "VENN_ABERS_ARGS", "SCALING_BINNING_ARGS"]


@dataclass(frozen=True)
class Method:
    """One calibration method as the faces see it (one entry of :data:`REGISTRY`)."""

    name: str
    """The faces' name: ``ProbcalCalibrator(method=name)``, ``calibrate --method name``."""
    function: str
    """Dotted name of the function that fits it (imported when first used)."""
    binary: str
    """A binary problem's ``x``: ``"vector"``, ``"matrix"`` (one column per
    class, n x 2) or ``"either"``."""
    multiclass: str
    """K > 2 classes: ``"matrix"`` (the function takes the n x K matrix),
    ``"ovr"`` (``cal_ovr`` fits it class by class; needs an ``ovr``
    position) or ``""`` (binary only)."""
    input: str = ""
    """``"probabilities"``, ``"logits"``, ``"scores"`` (either), or ``""``
    (as the method it wraps: ``ovr``, ``cv``)."""
    args: Tuple[str, ...] = ()
    """The keyword arguments the faces pass on (R's names, ``lambda_`` for
    ``lambda``). A method without any ignores R's ``...`` (a warning says so)."""
    r_name: Optional[str] = None
    """The R function (``"cal_platt"``); None for a Python-only method."""
    choice: str = ""
    """Its name in R's ``method = c(...)`` vectors when not ``name``."""
    ovr: int = 0
    """Position in ``cal_ovr(method = c(...))`` (1 is the default); 0: not a choice."""
    cv: int = 0
    """Position in ``cal_cv(method = c(...))``; Python-only ones (matched by
    exact name before R's choices) come after R's; 0: not a choice."""
    tolerance: str = ""
    """``rcheck``'s tolerance class for its R parity (``reference/manifest.toml``);
    ``""``: that of its ``method`` argument."""
    dask: str = ""
    """Dotted name of its ``pycalib_r.dask`` implementation; ``""``: none."""
    cli: bool = True
    """Offered by ``pycalib-r calibrate --method``."""

    @property
    def python_only(self) -> bool:
        """No R function: marked Python-only in its docstring and the migration guide."""
        return self.r_name is None

    @property
    def r_choice(self) -> str:
        """Its name in R's choice vectors (``"vector"`` for vector scaling)."""
        return self.choice or self.name


# One entry per method, in the order the faces list them (their help and
# messages). Positions in R's vectors are the ovr/cv numbers, not this order.
REGISTRY: Tuple[Method, ...] = (
    Method("platt", "pycalib_r.calibrators.cal_platt", binary="vector", multiclass="ovr",
           input="scores", r_name="cal_platt", ovr=1, cv=1, tolerance="brent_glm",
           dask="pycalib_r.dask._calibrators.cal_platt"),
    Method("temperature", "pycalib_r.calibrators.cal_temperature", binary="either",
           multiclass="matrix", input="logits", r_name="cal_temperature", ovr=5, cv=2,
           tolerance="brent_glm", dask="pycalib_r.dask._calibrators.cal_temperature"),
    Method("beta", "pycalib_r.calibrators.cal_beta", binary="vector", multiclass="ovr",
           input="probabilities", args=("eps",), r_name="cal_beta", ovr=2, cv=3,
           tolerance="brent_glm", dask="pycalib_r.dask._calibrators.cal_beta"),
    Method("isotonic", "pycalib_r.calibrators.cal_isotonic", binary="vector", multiclass="ovr",
           input="probabilities", r_name="cal_isotonic", ovr=3, cv=4, tolerance="closed"),
    Method("histogram", "pycalib_r.calibrators.cal_histogram", binary="vector", multiclass="ovr",
           input="probabilities", args=("bins", "strategy"), r_name="cal_histogram", ovr=4,
           cv=5, tolerance="closed", dask="pycalib_r.dask._calibrators.cal_histogram"),
    Method("vector_scaling", "pycalib_r.calibrators.cal_vector_scaling", binary="matrix",
           multiclass="matrix", input="logits", r_name="cal_vector_scaling", choice="vector",
           cv=6, tolerance="bfgs"),
    Method("dirichlet", "pycalib_r.calibrators.cal_dirichlet", binary="matrix",
           multiclass="matrix", input="probabilities", args=("lambda_", "eps"),
           r_name="cal_dirichlet", cv=7, tolerance="bfgs"),
    # One-vs-rest and cross-validation wrap another method: theirs decides the input.
    Method("ovr", "pycalib_r.calibrators.cal_ovr", binary="matrix", multiclass="matrix",
           args=("base_method", "eps", "bins", "strategy"), r_name="cal_ovr", cv=8),
    Method("cv", "pycalib_r.calibrators.cal_cv", binary="either", multiclass="matrix",
           args=("calibration_method", "folds", "seed", "lambda_", "eps", "bins", "strategy",
                 "base_method"), r_name="cal_cv"),
    Method("scaling_binning", "pycalib_r.calibrators.cal_scaling_binning", binary="vector",
           multiclass="matrix", input="probabilities",
           args=("bins", "scaling", "split", "renormalize", "seed"), cv=9, cli=False),
    # Venn-ABERS: binary, or one-vs-one / one-vs-rest on the n x K matrix;
    # Dask refuses it (the PAV needs every calibration row).
    Method("venn_abers", "pycalib_r.calibrators.cal_venn_abers", binary="vector",
           multiclass="matrix", input="probabilities", args=("type", "folds", "multiclass", "seed"),
           ovr=6, cv=10),
)


def methods() -> Tuple[Method, ...]:
    """The registry, read when called (so that an entry added by a test reaches the faces)."""
    return REGISTRY


def method(name: str) -> Method:
    """The entry named ``name`` (its face name or its R choice name)."""
    for entry in methods():
        if name in (entry.name, entry.r_choice):
            return entry
    raise KeyError(name)


def resolve(dotted: str):
    """The object a dotted name names, imported now (``"pkg.module.attr"``)."""
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


def _choices(position: str, python_only: bool) -> Tuple[str, ...]:
    chosen = [e for e in REGISTRY if getattr(e, position) and e.python_only == python_only]
    return tuple(e.r_choice for e in sorted(chosen, key=lambda e: getattr(e, position)))


# probcal::cal_ovr(method = c(...)): ("platt", "beta", "isotonic", "histogram", "temperature")
OVR_METHODS: Tuple[str, ...] = _choices("ovr", python_only=False)
# probcal::cal_cv(method = c(...)): ("platt", "temperature", "beta", "isotonic", "histogram",
# "vector", "dirichlet", "ovr")
CV_METHODS: Tuple[str, ...] = _choices("cv", python_only=False)
# Python-only methods of cal_cv() (exact names, matched before R's choices
# so that R's match.arg() and its messages are unchanged).
PY_CV_METHODS: Tuple[str, ...] = _choices("cv", python_only=True)
# Python-only binary methods of cal_ovr() (exact names, matched as cal_cv()'s).
PY_OVR_METHODS: Tuple[str, ...] = _choices("ovr", python_only=True)
# The arguments cal_venn_abers() takes through cal_cv()'s and cal_ovr()'s `...`
# (its `folds`, `seed` and `rng` are cal_cv()'s own there: the inner cross
# form deals 5 folds from the package's stream).
VENN_ABERS_ARGS = ("type", "multiclass")
# The arguments cal_scaling_binning() takes through cal_cv()'s `...` (the
# core's dispatch; the faces offer the shorter ``args`` of its entry).
SCALING_BINNING_ARGS = ("bins", "type", "scaling", "split", "renormalize", "seed", "rng")


def aliases() -> Dict[str, str]:
    """R's choice name -> the faces' name, where they differ (``{"vector": "vector_scaling"}``)."""
    return {e.r_choice: e.name for e in methods() if e.r_choice != e.name}

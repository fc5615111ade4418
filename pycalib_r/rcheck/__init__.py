# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: drives the user's R; the transcription it names is pycalib_r/r/contract.R, which carries its own header
"""Parity with R on your own data: run a call in pycalib_r and in your R, compare.

``pip install 'rpy2>=3.5,<3.6'`` (from a checkout: ``pip install '.[r]'``) adds rpy2; R itself (>= 4.2) and the probcal
R package come from CRAN. Nothing here imports rpy2 until a check runs.

- :func:`same_as_r` runs ``fn(*args, **kwargs)`` in pycalib_r and the same
  call in R (same inputs, same ``.Random.seed``, ``library(probcal)``) and
  returns a :class:`ParityReport`.
- :func:`assert_same_as_r` does the same inside a test suite: it raises with
  the report on a difference and skips when R or probcal is absent.
- :func:`add_parity_arguments` / :func:`run_parity` implement
  ``pycalib-r parity FILE --p COL --y COL``: every metric, both tests, the
  intervals and every applicable calibrator on a CSV, in both languages.

Where the installed probcal predates 0.2.0 (no ``skce``, ``cal_test``,
``cal_ci``, nor ``ece(debiased, strategy)``), those calls are answered by the
shipped ``contract.R``, a plain-R transcription of probcal 0.2.0's
definition, and the report says so.

R equivalent: none (it drives R).
"""

from ._check import TOLERANCE, assert_same_as_r, same_as_r, tolerance_for
from ._compare import Outcome, compare_frames, compare_numbers
from ._errors import NotExpressibleInR, RCheckError, RUnavailable
from ._parity import add_parity_arguments, parity_calls, run_parity
from ._report import Check, ParityReport

__all__ = [
    "same_as_r",
    "assert_same_as_r",
    "ParityReport",
    "Check",
    "TOLERANCE",
    "tolerance_for",
    "RCheckError",
    "RUnavailable",
    "NotExpressibleInR",
    "add_parity_arguments",
    "run_parity",
    "parity_calls",
    "Outcome",
    "compare_numbers",
    "compare_frames",
]

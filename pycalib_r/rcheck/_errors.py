"""Why a parity check could not run."""

from __future__ import annotations

__all__ = ["RCheckError", "RUnavailable", "NotExpressibleInR"]


class RCheckError(Exception):
    """A parity check could not be run; nothing was compared.

    R equivalent: none.
    """


class RUnavailable(RCheckError):
    """R, rpy2 or the probcal R package (or the needed version) is missing.

    The message names what is missing and how to install it.
    :func:`~pycalib_r.rcheck.assert_same_as_r` turns it into a pytest skip.

    R equivalent: none.
    """


class NotExpressibleInR(RCheckError, ValueError):
    """The call has no R counterpart (a Python-only argument or value).

    R equivalent: none.
    """

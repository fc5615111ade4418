"""The package's exception type: a ValueError whose message is R's conditionMessage()."""


class ProbcalError(ValueError):
    """Bad input; the message is the text R's probcal gives for the same input.

    A subclass of :class:`ValueError`, so ``except ValueError`` catches it.

    R equivalent: the error condition R's probcal signals with
    ``cli::cli_abort()`` (class ``c("rlang_error", "error", "condition")``);
    ``str(err)`` is its ``conditionMessage()``.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> try:
    ...     pc.ece([0.2, 1.5], [0, 1])
    ... except pc.ProbcalError as err:
    ...     print(err)
    Argument `p` must contain probabilities in `[0, 1]`.

    R: ``conditionMessage(tryCatch(ece(c(0.2, 1.5), c(0, 1)), error = identity))``
    prints ``[1] "Argument `p` must contain probabilities in `[0, 1]`."``.
    """


class RAllocationError(ProbcalError, MemoryError):
    """R's "cannot allocate vector of size ..." for a result too large for memory.

    A :class:`ProbcalError` (R's message is ``str(err)``) that is also a
    :class:`MemoryError`, so either ``except`` clause catches it; a note
    names the argument behind the size.

    R equivalent: R's allocation error (``src/main/memory.c``).
    """

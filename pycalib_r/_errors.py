"""The package's exception type: a ValueError whose message is R's conditionMessage()."""


class ProbcalError(ValueError):
    """Bad input; the message is the text R's probcal gives for the same input."""

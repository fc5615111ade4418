"""The input checks, with R's messages, and the Python hints around them.

``_checks`` (R's argument and data checks), ``_forms`` (binary, top-label,
classwise and canonical forms of the input; the one dispatcher),
``_align`` (DataFrame columns against the class order), ``_logit_input``
(logits for the scaling calibrators), ``_hints`` (the Python face of the
exported functions: exception notes, warnings at the caller, ignored
arguments) and ``_seed_note`` (the note when ``seed=`` goes to a function
whose stream is ``rng=``). Every face (sklearn, Dask, the CLI, rcheck) calls
these checks instead of repeating them.

It may import ``rbase`` (and, inside one function, the calibrators' method
names). See docs/architecture.md.
"""

# The checks' helpers other rooms use, exported without the underscore their
# module calls them by (public inside the package; docs/architecture.md).
from ._checks import _abort as abort
from ._checks import _as_matrix as as_matrix
from ._checks import _checked_vector as checked_vector
from ._checks import _class_codes as class_codes
from ._checks import _masked_note as masked_note
from ._checks import _plural as plural
from ._checks import _single_number as single_number

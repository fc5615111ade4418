"""The method choices of the calibrators that take one, as R's choice vectors.

The first choice is the default, as ``match.arg()`` takes it. They live in
a module of their own, importing nothing, so that the command line and the
Python face (``_hints``) can name them without importing the calibrators.
"""

# probcal::cal_ovr(method = c(...))
OVR_METHODS = ("platt", "beta", "isotonic", "histogram", "temperature")
# probcal::cal_cv(method = c(...))
CV_METHODS = ("platt", "temperature", "beta", "isotonic", "histogram", "vector", "dirichlet", "ovr")
# Python-only methods of cal_cv() (exact names, matched before R's choices
# so that R's match.arg() and its messages are unchanged).
PY_CV_METHODS = ("scaling_binning", "venn_abers")
# Python-only binary methods of cal_ovr() (exact names, matched as cal_cv()'s).
PY_OVR_METHODS = ("venn_abers",)
# The arguments cal_venn_abers() takes through cal_cv()'s and cal_ovr()'s `...`
# (its `folds`, `seed` and `rng` are cal_cv()'s own there: the inner cross
# form deals 5 folds from the package's stream).
VENN_ABERS_ARGS = ("type", "multiclass")
# The arguments cal_scaling_binning() takes through cal_cv()'s `...`.
SCALING_BINNING_ARGS = ("bins", "type", "scaling", "split", "renormalize", "seed", "rng")

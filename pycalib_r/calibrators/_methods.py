"""The method choices of the calibrators that take one, as R's choice vectors.

The first choice is the default, as ``match.arg()`` takes it. They live in
a module of their own, importing nothing, so that the command line and the
Python face (``_hints``) can name them without importing the calibrators.
"""

# probcal::cal_ovr(method = c(...))
OVR_METHODS = ("platt", "beta", "isotonic", "histogram", "temperature")
# probcal::cal_cv(method = c(...))
CV_METHODS = ("platt", "temperature", "beta", "isotonic", "histogram", "vector", "dirichlet", "ovr")

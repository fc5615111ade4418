"""Objects pickled before the layout move (issue 33), and how to make them again.

Each recipe builds one object through the public API only, from a fixed
R-compatible stream, so it runs the same before and after the move.
``tools/make_layout_pickles.py`` pickled them at release 0.2.0, before the
move (``reference/fixtures/layout_pickles/``); ``tests/suites/project/test_layout.py`` loads
those files and compares each with the object the recipe builds now.
"""

from __future__ import annotations

import numpy as np

import pycalib_r as pc


def _binary(n=120, seed=11):
    r = pc.RRandom(seed)
    p = np.asarray(r.runif(n)) * 0.9 + 0.05
    y = np.asarray(r.rbinom(n, 1, p))
    return p, y


def _multiclass(n=150, k=3, seed=12):
    r = pc.RRandom(seed)
    logits = np.asarray(r.rnorm(n * k)).reshape(n, k) * 1.5
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    y = np.asarray(r.sample_int(k, n, replace=True))
    return logits, p, y


def _newdata_binary():
    return np.linspace(0.02, 0.98, 25)


def _newdata_multiclass():
    logits, p, _ = _multiclass(n=20, seed=13)
    return logits, p


def _stream(kind, normal_kind=None):
    r = pc.RRandom(7, kind=kind, normal_kind=normal_kind)
    r.runif(5)
    r.rnorm(3)
    return r


def _generator_stream():
    from pycalib_r._rng import GeneratorStream

    g = GeneratorStream(np.random.default_rng(5))
    g.runif(4)
    return g


def _sklearn_calibrated():
    from sklearn.linear_model import LogisticRegression

    from pycalib_r.sklearn import CalibratedClassifier

    r = pc.RRandom(21)
    x = np.asarray(r.rnorm(200)).reshape(100, 2)
    y = (x[:, 0] + np.asarray(r.rnorm(100)) > 0).astype(int)
    return CalibratedClassifier(LogisticRegression(), method="platt").fit(x, y)


def _sklearn_calibrator():
    from pycalib_r.sklearn import ProbcalCalibrator

    p, y = _binary()
    return ProbcalCalibrator(method="isotonic").fit(p, y)


def _sklearn_x():
    r = pc.RRandom(22)
    return np.asarray(r.rnorm(20)).reshape(10, 2)


# name -> (what it is, builder, kind of comparison)
RECIPES = {
    "cal_platt": ("CalPlatt: cal_platt(p, y), binary", lambda: pc.cal_platt(*_binary()), "binary"),
    "cal_beta": ("CalBeta: cal_beta(p, y), binary", lambda: pc.cal_beta(*_binary()), "binary"),
    "cal_isotonic": ("CalIsotonic (with its IsoregFit): cal_isotonic(p, y)",
                     lambda: pc.cal_isotonic(*_binary()), "binary"),
    "cal_histogram": ("CalHistogram: cal_histogram(p, y, bins=5)",
                      lambda: pc.cal_histogram(*_binary(), bins=5), "binary"),
    "cal_temperature": ("CalTemperature: cal_temperature(logits, y), 3 classes",
                        lambda: pc.cal_temperature(_multiclass()[0], _multiclass()[2]), "logits"),
    "cal_vector_scaling": ("CalVectorScaling: cal_vector_scaling(logits, y), 3 classes",
                           lambda: pc.cal_vector_scaling(_multiclass()[0], _multiclass()[2]), "logits"),
    "cal_dirichlet": ("CalDirichlet: cal_dirichlet(p, y), 3 classes",
                      lambda: pc.cal_dirichlet(_multiclass()[1], _multiclass()[2]), "probs"),
    "cal_ovr": ("CalOvr: cal_ovr(p, y, method='platt'), 3 classes",
                lambda: pc.cal_ovr(_multiclass()[1], _multiclass()[2], method="platt"), "probs"),
    "cal_cv": ("CalCv: cal_cv(p, y, method='platt', folds=3, seed=1), binary",
               lambda: pc.cal_cv(*_binary(), method="platt", folds=3, seed=1), "binary"),
    "summary_platt": ("CalibratorSummary: summary(cal_platt(p, y))",
                      lambda: pc.summary(pc.cal_platt(*_binary())), "print"),
    "cal_test": ("CalTest: cal_test(p, y, n_boot=49, rng=RRandom(3))",
                 lambda: pc.cal_test(*_binary(), n_boot=49, rng=pc.RRandom(3), progress=False), "result"),
    "cal_ci": ("CalCI: cal_ci(p, y, metric='ece', n_boot=49, rng=RRandom(4))",
               lambda: pc.cal_ci(*_binary(), n_boot=49, rng=pc.RRandom(4), progress=False), "result"),
    "ece_ci": ("EceCI: ece_ci(p, y)", lambda: pc.ece_ci(*_binary()), "result"),
    "reliability_table": ("pandas DataFrame: reliability_table(p, y)",
                          lambda: pc.reliability_table(*_binary()), "frame"),
    "skce": ("float: skce(p, y)", lambda: pc.skce(*_binary(), progress=False), "result"),
    "ece": ("float: ece(p, y)", lambda: pc.ece(*_binary()), "result"),
    "cal_test_statistic": ("NamedNumber (R named numeric): cal_test(...).statistic",
                           lambda: pc.cal_test(*_binary(), n_boot=49, rng=pc.RRandom(3),
                                               progress=False).statistic, "result"),
    "glm_fit": ("GlmFit (an R list): cal_platt(p, y)['fit']",
                lambda: pc.cal_platt(*_binary())["fit"], "print"),
    "stream_mt": ("RRandom: Mersenne-Twister, Inversion, after 8 draws",
                  lambda: _stream("Mersenne-Twister"), "stream"),
    "stream_wh_bm": ("RRandom: Wichmann-Hill, Box-Muller, after 8 draws",
                     lambda: _stream("Wichmann-Hill", "Box-Muller"), "stream"),
    "stream_lecuyer": ("RRandom: L'Ecuyer-CMRG, after 8 draws", lambda: _stream("L'Ecuyer-CMRG"), "stream"),
    "stream_knuth": ("RRandom: Knuth-TAOCP-2002, after 8 draws", lambda: _stream("Knuth-TAOCP-2002"), "stream"),
    "stream_generator": ("GeneratorStream over numpy's default_rng(5), after 4 draws",
                         _generator_stream, "stream"),
    "sklearn_calibrated": ("pycalib_r.sklearn.CalibratedClassifier(LogisticRegression(), method='platt')",
                           _sklearn_calibrated, "sklearn"),
    "sklearn_calibrator": ("pycalib_r.sklearn.ProbcalCalibrator(method='isotonic')",
                           _sklearn_calibrator, "sklearn_cal"),
}


def _exact(x):
    # repr of a Python float round-trips exactly
    return repr(np.asarray(x, dtype=float).tolist())


def _plain(x):
    """``x`` as plain Python (exact floats), for an exact text."""
    import pandas as pd

    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, (pd.DataFrame, pd.Series)):
        return _plain(x.to_dict())
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, float):
        return float(x)
    return x


def _full_dict(obj):
    """Every component, per-row data included (a calibrator's to_dict()
    gives its parameters only unless data=True)."""
    from pycalib_r.rbase._rlist import RList, _takes_data

    if isinstance(obj, RList) and _takes_data(type(obj)):
        return obj.to_dict(data=True)
    return obj.to_dict()


def observe(kind, obj):
    """What an object shows: its print, and its predictions or next draws (exact text).

    A stream is advanced by this, so observe a copy you no longer need.
    """
    out = {"class": f"{type(obj).__module__}.{type(obj).__qualname__}"}
    if kind == "frame":
        out["repr"] = repr(obj)
        out["values"] = repr(obj.to_numpy().tolist())
        return out
    if kind in ("result", "print", "binary", "logits", "probs"):
        out["str"] = str(obj)
        out["repr"] = repr(obj)
        # the components (R's list) or the number, exactly
        out["value"] = repr(_plain(_full_dict(obj) if hasattr(obj, "to_dict") else obj))
    if kind == "binary":
        out["predict"] = _exact(pc.predict(obj, _newdata_binary()))
    elif kind in ("logits", "probs"):
        out["predict"] = _exact(pc.predict(obj, _newdata_multiclass()[0 if kind == "logits" else 1]))
    elif kind == "stream":
        out["runif"] = _exact(obj.runif(6))
        out["rnorm"] = _exact(obj.rnorm(6))
        out["sample_int"] = _exact(obj.sample_int(50, 5))
    elif kind == "sklearn":
        out["predict_proba"] = _exact(obj.predict_proba(_sklearn_x()))
    elif kind == "sklearn_cal":
        out["predict"] = _exact(obj.predict(_newdata_binary()))
    return out

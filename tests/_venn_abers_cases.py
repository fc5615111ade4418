"""Cases comparing ``cal_venn_abers`` with the ``venn-abers`` package (1.5.4).

Shared by tests/calibrators/test_venn_abers.py (live when ``venn_abers`` is importable,
else the values stored by ``python tools/make_venn_abers_fixture.py`` in
reference/venn_abers_crosscheck.json). The data come from pycalib_r's
R-compatible stream, so a seed rebuilds them without the package; the cross
cases' folds are the package's (scikit-learn's unshuffled
``StratifiedKFold``), stored with its answers.

The package is called through its prefitted paths: ``VennAbers`` (binary
inductive), ``VennAbersCalibrator(p_cal=, y_cal=, p_test=, va_type=)``
(multiclass inductive) and ``VennAbersCV`` with a pass-through estimator
whose ``predict_proba`` is the given score (binary cross: each fold's rows
calibrate one predictor, whose pairs the package merges by its geometric
means).
"""

from __future__ import annotations

import numpy as np

import pycalib_r as pc

N, N_NEW, K = 400, 200, 4
RTOL = 1e-12
SEED = 2015


def make_data(seed: int):
    """Binary and K-class scores of an overconfident model, some rounded (ties)."""
    pc.set_seed(seed)
    s = np.asarray(pc.rnorm(N + N_NEW))
    p = 1 / (1 + np.exp(-1.8 * s))
    y = np.asarray(pc.rbinom(N + N_NEW, 1, 1 / (1 + np.exp(-s))), dtype=np.int64)
    z = np.reshape(np.asarray(pc.rnorm((N + N_NEW) * K)), (N + N_NEW, K), order="F") * 1.5
    q = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    u = np.asarray(pc.runif(N + N_NEW))
    codes = np.minimum((np.cumsum(q, axis=1) < u[:, None]).sum(axis=1) + 1, K)
    P = np.exp(1.7 * z) / np.exp(1.7 * z).sum(axis=1, keepdims=True)
    r = np.round(p * 20) / 20
    # rounded to tenths (ties), none 0: a pair of zeros has no one-vs-one
    # score (the package divides 0 by 0; cal_venn_abers takes 1/2)
    Pr = np.maximum(np.round(P * 10) / 10, 0.05)
    # test scores: held-out draws, the calibration scores themselves, the ends
    new = np.concatenate((p[N:], p[:40], [0.0, 1.0]))
    new_r = np.concatenate((r[N:], np.linspace(0, 1, 41)))
    return {"p": p[:N], "y": y[:N], "p_new": new, "r": r[:N], "r_new": new_r,
            "P": P[:N], "codes": codes[:N], "P_new": P[N:], "Pr": Pr[:N], "Pr_new": Pr[N:]}


# name -> (kind, score key, label key, test key, folds or multiclass)
CASES = {
    "ivap": ("binary", "p", "y", "p_new", None),
    "ivap_ties": ("binary", "r", "y", "r_new", None),
    "cvap5": ("cross", "p", "y", "p_new", 5),
    "cvap3_ties": ("cross", "r", "y", "r_new", 3),
    "ovo": ("multi", "P", "codes", "P_new", "one_vs_one"),
    "ovr": ("multi", "P", "codes", "P_new", "one_vs_rest"),
    "ovo_ties": ("multi", "Pr", "codes", "Pr_new", "one_vs_one"),
    "ovr_ties": ("multi", "Pr", "codes", "Pr_new", "one_vs_rest"),
}


def package_folds(y, folds):
    """The package's folds for ``VennAbersCV(shuffle=False)``, as labels 1..folds."""
    from sklearn.model_selection import StratifiedKFold

    out = np.zeros(y.size, dtype=np.int64)
    for f, (_, test) in enumerate(StratifiedKFold(n_splits=folds).split(y.reshape(-1, 1), y)):
        out[test] = f + 1
    return out


def _passthrough():
    from sklearn.base import BaseEstimator, ClassifierMixin

    class Score(ClassifierMixin, BaseEstimator):
        """``predict_proba`` returns the one feature as P(y = 1)."""

        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def predict_proba(self, X):
            x = np.asarray(X, dtype=float)[:, 0]
            return np.column_stack((1 - x, x))

    return Score()


def theirs(d):
    """The package's answers, by case name: merged probabilities and pairs."""
    import warnings

    import numpy as np

    before = np.geterr()
    try:
        from venn_abers import VennAbers, VennAbersCalibrator, VennAbersCV
    finally:
        np.seterr(**before)  # venn_abers sets numpy's error state when imported

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, (kind, sk, yk, tk, extra) in CASES.items():
            s, y, t = d[sk], d[yk], d[tk]
            if kind == "binary":
                va = VennAbers()
                va.fit(np.column_stack((1 - s, s)), y)
                merged, pairs = va.predict_proba(np.column_stack((1 - t, t)))
                out[name] = {"merged": merged[:, 1].tolist(), "p0": pairs[:, 0].tolist(),
                             "p1": pairs[:, 1].tolist()}
            elif kind == "cross":
                fold_id = package_folds(y, extra)
                cv = VennAbersCV(_passthrough(), inductive=False, n_splits=extra, shuffle=False)
                cv.fit(s.reshape(-1, 1), y)
                merged, pairs = cv.predict_proba(t.reshape(-1, 1), p0_p1_output=True)
                out[name] = {"merged": merged[:, 1].tolist(), "fold_id": fold_id.tolist(),
                             "p0": pairs[:, :extra].tolist(), "p1": pairs[:, extra:].tolist()}
            else:
                cal = VennAbersCalibrator()
                merged, pairs = cal.predict_proba(p_cal=s, y_cal=y - 1, p_test=t, va_type=extra,
                                                  p0_p1_output=True)
                out[name] = {"merged": merged.tolist(),
                             "p0": [q[:, 0].tolist() for q in pairs],
                             "p1": [q[:, 1].tolist() for q in pairs]}
    return out


def ours(d, stored):
    """pycalib_r's answers in :func:`theirs`'s layout (the cross folds from ``stored``)."""
    out = {}
    for name, (kind, sk, yk, tk, extra) in CASES.items():
        s, y, t = d[sk], d[yk], d[tk]
        if kind == "binary":
            fit = pc.cal_venn_abers(s, y)
            pairs = fit.predict(t, interval=True)
            out[name] = {"merged": pc.predict(fit, t), "p0": pairs[:, 0], "p1": pairs[:, 1]}
        elif kind == "cross":
            fold_id = np.asarray(stored[name]["fold_id"], dtype=np.int64)
            fit = pc.cal_venn_abers(s, y, type="cross", folds=fold_id)
            per_fold = [tab.pairs(t) for tab in fit.tables[0]]
            out[name] = {"merged": pc.predict(fit, t), "fold_id": fold_id,
                         "p0": np.column_stack([q[0] for q in per_fold]),
                         "p1": np.column_stack([q[1] for q in per_fold])}
        else:
            fit = pc.cal_venn_abers(s, y, multiclass=extra)
            pairs = fit.predict(t, interval=True)
            out[name] = {"merged": pc.predict(fit, t), "p0": pairs[:, :, 0].T, "p1": pairs[:, :, 1].T}
    return out


def largest_differences(mine, ref):
    """Largest absolute difference per case and component."""
    out = {}
    for name, comps in ref.items():
        for key, value in comps.items():
            a = np.asarray(mine[name][key], dtype=float)
            b = np.asarray(value, dtype=float)
            assert a.shape == b.shape, (name, key, a.shape, b.shape)
            out[f"{name}/{key}"] = float(np.max(np.abs(a - b))) if a.size else 0.0
    return out

"""The README's scikit-learn example: python docs/sklearn_example.py prints its output."""

import warnings

from sklearn.datasets import load_breast_cancer, load_digits
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import pycalib_r as pc
from pycalib_r.sklearn import CalibratedClassifier, expected_calibration_error

# GaussianNB gives probabilities of exactly 0 and 1; beta calibration's glm
# says so ("fitted probabilities numerically 0 or 1 occurred"), as R's does.
warnings.simplefilter("ignore", RuntimeWarning)

cases = [(load_breast_cancer, ("platt", "beta", "isotonic")),
         (load_digits, ("temperature", "vector_scaling", "isotonic"))]
for load, methods in cases:
    X, y = load(return_X_y=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.4, random_state=0, stratify=y)
    raw = GaussianNB().fit(X_tr, y_tr).predict_proba(X_te)
    print(f"{load.__name__}: ECE uncalibrated {expected_calibration_error(y_te, raw):.4f}")
    calibrated = {}
    for method in methods:
        clf = CalibratedClassifier(GaussianNB(), method=method, cv=5).fit(X_tr, y_tr)
        calibrated[method] = clf.predict_proba(X_te)
        print(f"  {method:>15}: ECE {expected_calibration_error(y_te, calibrated[method]):.4f}")
    # cal_test on the best calibrated output; probcal's forms are the
    # positive-class probability with 0/1 labels, or the matrix with codes 1..K.
    best = min(methods, key=lambda m: expected_calibration_error(y_te, calibrated[m]))
    p = calibrated[best]
    print(f"cal_test on the {best} output:")
    pc.set_seed(1)
    if p.shape[1] == 2:
        print(pc.cal_test(p[:, 1], y_te))
    else:
        print(pc.cal_test(p, y_te + 1))

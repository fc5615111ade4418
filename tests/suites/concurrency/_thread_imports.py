"""Threads calling every public function while another imports pandas (issue 45, item 1).

    PYTHONPATH=. PYCALIB_R_JIT=0 python tests/suites/concurrency/_thread_imports.py

Run in a fresh interpreter, where neither numpy.ma nor pandas is imported.
Worker threads call every public function of ``pycalib_r.__all__`` on small
valid data, round after round, while one thread imports numpy.ma and then
pandas. Each of those imports is held half-done for a while (a finder on
``sys.meta_path`` sleeps when the import asks for one of its submodules), so
the workers' calls land while ``sys.modules`` holds the half-built module
without depending on luck. The functions that import pandas or matplotlib
themselves (``IMPORTING``) are called once the imports are over, then
every function a few rounds more.

Prints one JSON line: the calls made, the errors (``type: message`` of the
first few), the calls made while each module was half-imported, and which
modules were already imported when the importing thread began each import
(none should be).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time
import traceback
import warnings

MEMORY = 4 << 30  # threads and numpy's pools reserve address space; the work is small
HOLD = 1.0  # seconds each import is held half-done, at each of its slow submodules
WARM_TIMEOUT = 120.0  # at most this long for the workers' first round before pandas
# Submodules asked for while their package is half-initialised: numpy.ma's
# core, and pandas' api modules (before `pandas.DataFrame`/`Categorical` exist).
SLOW = {"numpy.ma.core": "numpy.ma", "numpy.ma.extras": "numpy.ma",
        "pandas.core.api": "pandas", "pandas.core.reshape.api": "pandas"}
WORKERS = 4
ROUNDS_AFTER = 2  # full rounds of every function after the imports


def _calls():
    import numpy as np

    import pycalib_r as pc

    g = pc.RRandom(7)
    n = 60
    p = 0.05 + 0.9 * g.runif(n)
    y = (g.runif(n) < p).astype(np.int64)
    P = g.rgamma(3 * n, 2.0).reshape(n, 3)
    P = P / P.sum(axis=1, keepdims=True)
    Y = np.array([int(v) for v in g.sample_int(3, n, replace=True)])
    Z = np.log(P)
    fit = pc.cal_platt(pc.logit(p), y)
    calls = {
        "ace": lambda: pc.ace(P, Y),
        "ece": lambda: pc.ece(p, y),
        "mce": lambda: pc.mce(P, Y),
        "mmce": lambda: pc.mmce(p, y),
        "skce": lambda: pc.skce(P, Y),
        "logit": lambda: pc.logit(p),
        "inv_logit": lambda: pc.inv_logit(Z[:, 0]),
        "cal_test": lambda: pc.cal_test(p, y, n_boot=19, rng=pc.RRandom(1), progress=False),
        "cal_ci": lambda: pc.cal_ci(p, y, n_boot=19, rng=pc.RRandom(2), progress=False),
        "ece_ci": lambda: pc.ece_ci(p, y),
        "calibration_error": lambda: pc.calibration_error(p, y, resamples=10, rng=pc.RRandom(3)),
        "brier_score": lambda: pc.brier_score(p, y),
        "cal_scaling_binning": lambda: pc.cal_scaling_binning(p, y, bins=4),
        "cal_venn_abers": lambda: pc.cal_venn_abers(p, y, type="cross", folds=3, rng=pc.RRandom(7)),
        "val_prob": lambda: pc.val_prob(p, y),
        "val_prob_ci": lambda: pc.val_prob_ci(p, y),
        "hoslem_test": lambda: pc.hoslem_test(y, p),
        "cal_intercept_slope": lambda: pc.cal_intercept_slope(p, y),
        "pmcalibration": lambda: pc.pmcalibration(y, p, smooth="ns", ci="boot", n=5,
                                                  rng=pc.RRandom(6)),
        "cal_metrics": lambda: pc.cal_metrics(p, p),
        "cal_beta": lambda: pc.cal_beta(p, y),
        "cal_cv": lambda: pc.cal_cv(p, y, method="platt", folds=3, rng=pc.RRandom(4)),
        "cal_dirichlet": lambda: pc.cal_dirichlet(P, Y),
        "cal_histogram": lambda: pc.cal_histogram(p, y),
        "cal_isotonic": lambda: pc.cal_isotonic(p, y),
        "cal_ovr": lambda: pc.cal_ovr(P, Y, method="histogram"),
        "cal_platt": lambda: pc.cal_platt(pc.logit(p), y),
        "cal_temperature": lambda: pc.cal_temperature(Z, Y),
        "cal_vector_scaling": lambda: pc.cal_vector_scaling(Z, Y),
        "predict": lambda: pc.predict(fit, pc.logit(p)),
        "summary": lambda: pc.summary(fit),
        "reliability_diagram": lambda: _close(pc.reliability_diagram(p, y)),
        "reliability_table": lambda: pc.reliability_table(p, y),
        "reliabilitydiag": lambda: pc.reliabilitydiag(p, y, n_boot=5, rng=pc.RRandom(5)),
        "smece": lambda: pc.smece(p, y),
        "smooth_reliability_diagram": lambda: pc.smooth_reliability_diagram(
            p, y, n_boot=5, rng=pc.RRandom(6)),
        "RRandom": lambda: pc.RRandom(1).runif(3),
        "set_seed": lambda: pc.set_seed(1),
        "runif": lambda: pc.runif(3),
        "rnorm": lambda: pc.rnorm(3),
        "rbinom": lambda: pc.rbinom(3, 5, 0.3),
        "sample": lambda: pc.sample(10),
        "sample_int": lambda: pc.sample_int(10, 3),
        "rexp": lambda: pc.rexp(3),
        "rgamma": lambda: pc.rgamma(3, 2.0),
        "rbeta": lambda: pc.rbeta(3, 2.0, 3.0),
        "rchisq": lambda: pc.rchisq(3, 4.0),
        "rt": lambda: pc.rt(3, 5.0),
        "rf": lambda: pc.rf(3, 3.0, 4.0),
        "rpois": lambda: pc.rpois(3, 4.0),
        "rgeom": lambda: pc.rgeom(3, 0.3),
        "rnbinom": lambda: pc.rnbinom(3, 3, 0.4),
        "rhyper": lambda: pc.rhyper(3, 5, 6, 4),
        "rmultinom": lambda: pc.rmultinom(2, 5, [0.2, 0.3, 0.5]),
        "rlogis": lambda: pc.rlogis(3),
        "rweibull": lambda: pc.rweibull(3, 2.0),
        "rcauchy": lambda: pc.rcauchy(3),
        "rlnorm": lambda: pc.rlnorm(3),
        "rng_kind": lambda: pc.rng_kind(),
        "get_random_seed": lambda: pc.get_random_seed(),
        "set_random_seed": lambda: pc.set_random_seed(pc.RRandom(8).get_random_seed()),
        "next_rng_stream": lambda: pc.next_rng_stream(pc.RRandom(9, kind="L'Ecuyer-CMRG")
                                                      .get_random_seed()),
        "next_rng_substream": lambda: pc.next_rng_substream(
            pc.RRandom(9, kind="L'Ecuyer-CMRG").get_random_seed()),
        "options": lambda: pc.options(),
        "get_option": lambda: pc.get_option("digits"),
        "show_config": lambda: pc.show_config(mode="dicts"),
    }
    return calls


def _close(fig):
    fig = getattr(fig, "figure", fig)
    fig.clear()


# The functions whose calls import pandas (they build DataFrames): called
# while pandas is half-imported they would wait for it there, and called
# before, they would import it first.
IMPORTING = {"reliability_table", "reliability_diagram", "reliabilitydiag",
             "smooth_reliability_diagram", "pmcalibration", "cal_metrics"}


class _SlowFinder:
    """Holds an import half-done: sleeps when a slow submodule is looked up
    by the importing thread, after letting the workers start (``opened``)."""

    def __init__(self, calls, opened):
        self.calls = calls
        self.opened = opened
        self.during = {}

    def find_spec(self, name, path=None, target=None):
        parent = SLOW.get(name)
        if parent is not None and threading.current_thread().name == "importer":
            self.opened.set()
            before = self.calls[0]
            time.sleep(HOLD)
            self.during[name] = self.calls[0] - before
        return None  # the usual finders go on


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    warnings.simplefilter("ignore")
    import pycalib_r as pc

    calls = _calls()
    public = {n for n in pc.__all__ if callable(getattr(pc, n))}
    classes = {n for n in public if isinstance(getattr(pc, n), type) and n != "RRandom"}
    missing = sorted(public - classes - set(calls))
    made = [0]
    errors = []
    lock = threading.Lock()
    imports_done = threading.Event()

    def one(name):
        try:
            calls[name]()
        except Exception as exc:  # noqa: BLE001 - every error counts
            with lock:
                errors.append(f"{name}: {type(exc).__name__}: {exc}"[:300]
                              + " | " + traceback.format_exc().splitlines()[-3][:200])
        with lock:
            made[0] += 1

    def worker(i):
        names = sorted(calls)
        names = names[i::WORKERS] + [n for j, n in enumerate(names) if j % WORKERS != i]
        opened.wait()
        first = True
        while not imports_done.is_set():
            for name in names:
                if name not in IMPORTING:
                    one(name)
            if first:
                first = False
                with lock:
                    warm[0] += 1
                    if warm[0] == WORKERS:
                        warmed.set()
        for _ in range(ROUNDS_AFTER):
            for name in names:
                one(name)

    opened = threading.Event()
    warmed = threading.Event()
    warm = [0]
    finder = _SlowFinder(made, opened)
    before = {}

    def importer():
        # numpy's own functions import numpy.ma at their first use (np.unique
        # asks np.ma.is_masked): the workers start only once this thread is
        # inside numpy.ma's import, so that it is the one importing it.
        sys.meta_path.insert(0, finder)
        try:
            before["numpy.ma"] = "numpy.ma" in sys.modules
            import numpy.ma  # noqa: F401
            # The finder's sleep holds Python's global import lock, so a worker
            # whose call makes its first lazy import (scipy.special, ...) waits
            # out a whole hold: pandas is imported once every worker has made
            # one round of calls (and with it those imports), so that the
            # calls counted during pandas' holds are the calls that need none.
            warmed.wait(WARM_TIMEOUT)
            before["pandas"] = "pandas" in sys.modules
            import pandas  # noqa: F401
        finally:
            sys.meta_path.remove(finder)
            opened.set()
            imports_done.set()

    threads = [threading.Thread(target=importer, name="importer", daemon=True)]
    threads += [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"calls": made[0], "errors": len(errors), "first": errors[:5],
                      "during": finder.during, "imported_before": before,
                      "not_called": missing}))


if __name__ == "__main__":
    sys.exit(main())

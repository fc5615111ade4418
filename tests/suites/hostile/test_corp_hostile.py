"""Hostile arguments for the CORP and smooth-ECE diagrams (issues 45 and 46).

``reliabilitydiag``, ``smece`` and ``smooth_reliability_diagram``:

* threads calling them on the global stream after ``set_seed()`` get the
  results of some serial order of their calls (the stream's lock is held for
  the whole call, as ``cal_test`` holds it);
* a huge ``n_boot`` is refused before any draw: R's "cannot allocate vector
  of size ..." (a ``MemoryError``) with a note, as ``cal_test``'s;
* a bandwidth below 1e-4 is refused (the kernel's grid would grow as
  1 / sigma); at 1e-4 a call on 200 observations stays within 2 GB and 60 s;
* ``xvalues``: a masked array's masked entries are R's NA, as for ``p`` and
  ``y``; an empty or non-numeric one is a ProbcalError naming it.

Heavy cases run in a child process with a timeout and an address-space limit
(``resource.setrlimit``), so a regression fails instead of hanging or
swapping.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO

LIMIT = 2 << 30  # bytes of address space of a child
TIMEOUT = 240  # seconds: a child's whole run, several calls of at most 60 s each


def _child(body, timeout=TIMEOUT):
    """Run ``body`` in a fresh interpreter limited to 2 GB of address space; its last
    line of output is JSON."""
    code = textwrap.dedent(f"""
        import json, resource, sys, time, warnings
        resource.setrlimit(resource.RLIMIT_AS, ({LIMIT}, {LIMIT}))
        warnings.simplefilter("ignore")
        import numpy as np
        import pycalib_r as pc
    """) + textwrap.dedent(body)
    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _data(n=200, seed=9):
    g = pc.RRandom(seed)
    p = g.runif(n)
    return p, g.rbinom(n, 1, p)


# ---------------------------------------------------------------------------
# Issue 46, item 9: the stream's lock for the whole call

_THREADS = """
    import threading
    import numpy.ma  # noqa: F401 - before the threads (half-imports: issue 45, item 1)
    import pandas  # noqa: F401
    sys.setswitchinterval(1e-5)  # threads switch often: an interleaving shows at once

    g = pc.RRandom(5)
    p = g.runif(300)
    y = g.rbinom(300, 1, p)

    def rd():
        r = pc.reliabilitydiag(p, y, n_boot=40)["X"].regions
        return r[["lower", "upper"]].to_numpy(dtype=float)

    def srd():
        return pc.smooth_reliability_diagram(p, y, n_boot=30).curves[["lower", "upper"]].to_numpy()

    def seed():
        pc.set_seed(3, kind="default", normal_kind="default", sample_kind="default")

    out = {}
    for name, fn in (("reliabilitydiag", rd), ("smooth_reliability_diagram", srd)):
        seed()
        results, errors = [None] * 4, []
        start = threading.Barrier(4)

        def run(i):
            try:
                start.wait()
                results[i] = fn()
            except BaseException as exc:
                errors.append(repr(exc))

        threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        end = pc.get_random_seed()
        seed()
        left, matched = list(range(4)), 0
        for _ in range(4):
            want = fn()
            hit = next((i for i in left if results[i] is not None
                        and np.array_equal(results[i], want, equal_nan=True)), None)
            if hit is not None:
                left.remove(hit)
                matched += 1
        out[name] = dict(errors=errors, matched=matched,
                         same_end=bool(np.array_equal(end, pc.get_random_seed())))
    print(json.dumps(out))
"""


def test_threads_on_the_global_stream_give_some_serial_order():
    # Before: each draw took the lock, so four threads interleaved their resamples
    # and no thread's bands were any serial call's (0 of 4 matched).
    out = _child(_THREADS)
    for name, res in out.items():
        assert res["errors"] == [], (name, res["errors"])
        assert res["matched"] == 4, (name, res)
        assert res["same_end"], name  # the stream ends where the serial order ends


# ---------------------------------------------------------------------------
# Issue 46, item 3: huge n_boot refused before any draw

_N_BOOT = """
    g = pc.RRandom(9)
    p = g.runif(200)
    y = g.rbinom(200, 1, p)
    out = {}

    def attempt(name, fn):
        rng = pc.RRandom(1)
        before = rng.get_state()
        t0 = time.perf_counter()
        try:
            fn(rng)
            res = ["value", "", ""]
        except (MemoryError, ValueError) as exc:
            res = [type(exc).__name__, str(exc), " ".join(getattr(exc, "__notes__", []))]
        res.append(time.perf_counter() - t0)
        res.append(bool(np.array_equal(before, rng.get_state())))
        out[name] = res

    attempt("rd_1e12", lambda rng: pc.reliabilitydiag(p, y, n_boot=10 ** 12, rng=rng))
    attempt("rd_1e7", lambda rng: pc.reliabilitydiag(p, y, n_boot=10 ** 7, rng=rng))
    attempt("srd_1e12", lambda rng: pc.smooth_reliability_diagram(p, y, n_boot=10 ** 12, rng=rng))
    attempt("srd_max", lambda rng: pc.smooth_reliability_diagram(p, y, n_boot=2 ** 31 - 1,
                                                                  rng=rng))
    print(json.dumps(out))
"""


def test_huge_n_boot_is_refused_before_any_draw():
    # Before: reliabilitydiag(n_boot=10**12) ran for ever, its memory growing, and
    # smooth_reliability_diagram died in numpy's raw MemoryError (1.42 PiB).
    out = _child(_N_BOOT)
    kind, text, note, secs, untouched = out["rd_1e12"]
    # R: replicate(1e12, ...) first allocates integer(1e12); reliabilitydiag 0.2.1.9000
    # in R 4.2.2 stops with this message (checked live under a 4 GB ulimit)
    assert (kind, text) == ("RAllocationError", "cannot allocate vector of size 3725.3 Gb")
    assert "reliabilitydiag(n_boot = 1000000000000)" in note and "smaller n_boot" in note
    assert secs < 30 and untouched
    # 200 regions x 10^7 resamples: 14.9 GiB, beyond the child's 2 GB (or the RAM)
    kind, text, note, secs, untouched = out["rd_1e7"]
    assert (kind, text) == ("RAllocationError", "cannot allocate vector of size 14.9 Gb"), out
    assert "n_boot" in note and secs < 30 and untouched
    kind, text, note, secs, untouched = out["srd_1e12"]
    assert kind == "ProbcalError" and text == "Argument `n_boot` must be at most 2147483647."
    assert secs < 30 and untouched
    kind, text, note, secs, untouched = out["srd_max"]
    assert kind == "RAllocationError" and text.startswith("cannot allocate vector of size ")
    assert "smooth_reliability_diagram(n_boot = 2147483647)" in note and secs < 30 and untouched


def test_n_boot_that_fits_keeps_the_bands(monkeypatch):
    # The bands' store is allocated up front; the values are those of the fixtures'
    # path (tests/diagnostics/test_corp.py compares with R bit for bit), here the same call twice.
    p, y = _data()
    a = pc.reliabilitydiag(p, y, n_boot=25, rng=4)["X"].regions
    b = pc.reliabilitydiag(p, y, n_boot=25, rng=4)["X"].regions
    assert a.equals(b)
    from pycalib_r.inference import _inference

    # a machine with 1 KiB of RAM: 200 forecast values x 25 resamples (40 kB) do not fit
    monkeypatch.setattr(_inference, "_physical_memory", lambda: 1 << 10)
    rng = pc.RRandom(4)
    before = rng.get_state()
    with pytest.raises(MemoryError) as info:
        pc.reliabilitydiag(p, y, n_boot=25, rng=rng)
    assert str(info.value).startswith("cannot allocate vector of size")
    assert "reliabilitydiag(n_boot = 25) keeps 25 resampled curves at the 200 distinct" in \
        " ".join(info.value.__notes__)
    np.testing.assert_array_equal(rng.get_state(), before)  # no draw


# ---------------------------------------------------------------------------
# Issue 46, item 2: the bandwidth's bound

_SIGMA = """
    g = pc.RRandom(9)
    p = g.runif(200)
    y = g.rbinom(200, 1, p)
    out = {}
    for sigma in (1e-5, 1e-7, 1e-300):
        t0 = time.perf_counter()
        try:
            pc.smece(p, y, sigma=sigma)
            out[repr(sigma)] = ["value", "", time.perf_counter() - t0]
        except ValueError as exc:
            out[repr(sigma)] = [str(exc), " ".join(exc.__notes__), time.perf_counter() - t0]
    t0 = time.perf_counter()
    value = pc.smece(p, y, sigma=1e-4)
    out["smece_1e-4"] = [value, time.perf_counter() - t0]
    t0 = time.perf_counter()
    d = pc.smooth_reliability_diagram(p, y, sigma=1e-4, rng=1)  # n_boot = 200
    out["diagram_1e-4"] = [d.smece[0], time.perf_counter() - t0]
    print(json.dumps(out))
"""


def test_sigma_below_the_bound_is_refused_and_the_bound_is_cheap():
    # Before: sigma=1e-4 on 200 observations ran for over 120 s; 1e-7 reached 7.8 GB.
    out = _child(_SIGMA)
    for sigma in ("1e-05", "1e-07", "1e-300"):
        text, note, secs = out[sigma]
        assert text == "Argument `sigma` must be a single number in [0.0001, 1], or None."
        assert "grid" in note and "100,001" in note and secs < 1
    value, secs = out["smece_1e-4"]
    assert 0 <= value <= 1 and secs < 60
    value2, secs = out["diagram_1e-4"]
    assert value2 == value and secs < 60


def test_sigma_argument_errors_name_it():
    p, y = _data()
    for bad in (0, -1, 1.5, np.nan, np.inf, "0.1", [0.1], True):
        with pytest.raises(pc.ProbcalError, match=r"^Argument `sigma` must be"):
            pc.smece(p, y, sigma=bad)
        with pytest.raises(pc.ProbcalError, match=r"^Argument `sigma` must be"):
            pc.smooth_reliability_diagram(p, y, sigma=bad, n_boot=0)
    assert pc.smece(p, y, sigma=np.float64(0.5)) == pc.smece(p, y, sigma=0.5)
    assert pc.smece(p, y, sigma=1) == pc.smece(p, y, sigma=1.0)


@pytest.mark.parametrize("sigma", [0.01, 3e-3])
def test_small_sigma_equals_relplot(sigma):
    """The convolution over the kernel's nonzero entries gives relplot's numbers."""
    relplot = pytest.importorskip("relplot")
    g = np.random.default_rng(1)
    f = g.beta(2, 2, 200)
    y = (g.random(200) < f ** 1.4).astype(float)
    ours = pc.smece(f, y, sigma=sigma)
    theirs = relplot.metrics.smECE_sigma(f, y, sigma)
    assert abs(ours - theirs) <= 1e-9 * abs(theirs)
    mu, _ = relplot.kernels.ReflectedGaussianKernel(sigma).smooth(f, y, np.linspace(0, 1, 200))
    curve = pc.smooth_reliability_diagram(f, y.astype(int), sigma=sigma, n_boot=0).curves["mu"]
    np.testing.assert_allclose(curve.to_numpy(), mu, rtol=1e-9, atol=0)


# ---------------------------------------------------------------------------
# Issue 46, items 8 and 12: xvalues


def test_masked_xvalues_are_r_na():
    # Before: the mask was dropped and the hidden 1e9 used as a value to snap to.
    p, y = _data()
    xv = np.ma.array([0.0, 0.5, 1e9, 1.0], mask=[0, 0, 1, 0])
    with pytest.raises(pc.ProbcalError) as info:
        pc.reliabilitydiag(p, y, xvalues=xv, region_level=None)
    # R: c(0, 0.5, NA, 1) fails snap()'s check
    assert str(info.value) == "isTRUE(all(xvalues >= 0 & xvalues <= 1)) is not TRUE"
    notes = " ".join(info.value.__notes__)
    assert "`xvalues` is a numpy masked array" in notes
    assert xv.mask.tolist() == [False, False, True, False]  # the caller's array untouched
    # an unmasked masked array is its values
    clean = np.ma.array([0.0, 0.5, 1.0], mask=False)
    a = pc.reliabilitydiag(p, y, xvalues=clean, region_level=None)["X"].bins
    b = pc.reliabilitydiag(p, y, xvalues=np.array([0.0, 0.5, 1.0]), region_level=None)["X"].bins
    assert a.equals(b)


@pytest.mark.parametrize("bad, message", [
    ([], "Argument `xvalues` must not be empty."),
    (np.zeros(0), "Argument `xvalues` must not be empty."),
    ("x", "is.numeric(xvalues) is not TRUE"),  # R's stopifnot(is.numeric(xvalues))
    (["a", "b"], "is.numeric(xvalues) is not TRUE"),
    ({"a": 1}, "is.numeric(xvalues) is not TRUE"),
    ([True, False], "is.numeric(xvalues) is not TRUE"),
    (object(), "is.numeric(xvalues) is not TRUE"),
    ([0.1, np.nan], "isTRUE(all(xvalues >= 0 & xvalues <= 1)) is not TRUE"),
    ([0.1, None], "isTRUE(all(xvalues >= 0 & xvalues <= 1)) is not TRUE"),
    ([0, np.inf], "isTRUE(all(xvalues >= 0 & xvalues <= 1)) is not TRUE"),
    ([-1e300, 0.5], "isTRUE(all(xvalues >= 0 & xvalues <= 1)) is not TRUE"),
    ([0.5, 0.1], "!is.unsorted(xvalues) is not TRUE"),
    ([0.1, 0.1], "!anyDuplicated(xvalues) is not TRUE"),
])
def test_bad_xvalues_are_probcal_errors_naming_it(bad, message):
    # Before: [] gave IndexError, "x" a ValueError of float(), a dict a TypeError.
    p, y = _data()
    with pytest.raises(pc.ProbcalError) as info:
        pc.reliabilitydiag(p, y, xvalues=bad)
    assert str(info.value) == message
    assert "xvalues" in str(info.value) + " ".join(getattr(info.value, "__notes__", []))


@pytest.mark.r_parity
def test_live_xvalues_messages(r):
    ok = r.r('as.integer(requireNamespace("reliabilitydiag", quietly = TRUE))')[0]
    if ok != 1:
        pytest.skip("reliabilitydiag is not installed in R")
    r.r("set.seed(7); p <- runif(50); y <- rbinom(50, 1, p);"
        "rdx <- function(xv) tryCatch({reliabilitydiag::reliabilitydiag(X = p, y = y,"
        " xvalues = xv); 'ok'}, error = function(e) conditionMessage(e))")
    p = np.asarray(r.r("p"))
    y = np.asarray(r.r("y"), dtype=np.int64)
    for r_value, py_value in (('"x"', "x"), ("c(0.1, NA)", [0.1, None]),
                              ("c(0.5, 0.1)", [0.5, 0.1]), ("c(0.1, 0.1)", [0.1, 0.1])):
        want = str(r.r(f"rdx({r_value})")[0]).rsplit("! ", 1)[-1]
        with pytest.raises(pc.ProbcalError) as info:
            pc.reliabilitydiag(p, y, xvalues=py_value)
        assert str(info.value) == want


def test_smallest_sigma_equals_stored_relplot():
    """At the bound (sigma = 1e-4, a grid of 100,001 points) relplot takes about 18
    minutes; its values are stored (tools/make_smece_small_sigma_fixture.py)."""
    stored = json.loads((REPO / "reference" / "bin_free" / "smece_small_sigma.json").read_text())
    assert stored["reference"] == "relplot 1.0.3"
    f = np.array([float.fromhex(v) for v in stored["f"]])
    y = np.asarray(stored["y"], dtype=float)
    sigma = float.fromhex(stored["sigma"])
    ours = pc.smece(f, y, sigma=sigma)
    theirs = float.fromhex(stored["smece"])
    assert abs(ours - theirs) <= 1e-9 * abs(theirs)
    curve = pc.smooth_reliability_diagram(f, y.astype(int), sigma=sigma, n_boot=0).curves
    mu = np.array([float.fromhex(v) for v in stored["mu"]])
    np.testing.assert_allclose(curve["mu"].to_numpy(), mu, rtol=1e-9, atol=0)
    dens = np.array([float.fromhex(v) for v in stored["dens"]])  # relplot's K * 1 + 1e-4
    np.testing.assert_allclose(curve["density"].to_numpy() * f.size, dens - 1e-4, rtol=1e-9)

"""Issue 21, item 10: unbounded work without a word.

* ``cal_test`` and ``cal_ci`` follow one rule for a huge ``n_boot``: the
  replicates they keep (``res.null_distribution``, ``res.bootstrap_distribution``;
  R's ``cal_ci`` holds them too, in ``numeric(n_boot)``) are allocated once,
  before any draw, so a request that does not fit fails at once with a
  ``MemoryError`` whose note names the size, in both.
* A long canonical kernel sum (``skce``, ``cal_test`` on matrix input) shows
  a progress bar, which ``progress=False`` turns off.
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
from pycalib_r.inference import _inference
from pycalib_r.kernel import _canonical as _kernel_canonical
from pycalib_r.rbase import _progress
from tests.conftest import ORIGINAL_ENV, REPO

_CHILD = textwrap.dedent("""
    import json, resource, sys, warnings
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    warnings.simplefilter("ignore")
    import pycalib_r as pc

    g = pc.RRandom(9)
    p = g.runif(300)
    y = (g.runif(300) < p).astype(int)
    out = {}
    for name, fn in (("cal_test", pc.cal_test), ("cal_ci", pc.cal_ci)):
        try:
            fn(p, y, n_boot=2 ** 31 - 1, rng=pc.RRandom(1))
            out[name] = ["value", ""]
        except MemoryError as exc:
            out[name] = ["MemoryError", " ".join(getattr(exc, "__notes__", []))]
    print(json.dumps(out))
""")


def test_huge_n_boot_fails_at_once_in_both_with_a_note():
    # 1 GiB of address space: 2^31 - 1 replicates (16 GiB) cannot be kept.
    # Before, cal_test started a run of hours and cal_ci failed at once.
    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = "1"
    proc = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, attr in (("cal_test", "null_distribution"), ("cal_ci", "bootstrap_distribution")):
        kind, note = out[name]
        assert kind == "MemoryError", (name, out[name])
        assert f"{name}(n_boot = 2147483647) keeps its 2147483647 replicates" in note, note
        assert f"res.{attr} (16.0 GiB" in note and "use a smaller n_boot" in note, note


@pytest.mark.parametrize("fn, attr", [(pc.cal_test, "null_distribution"),
                                      (pc.cal_ci, "bootstrap_distribution")])
def test_beyond_ram_refused_before_any_draw(monkeypatch, fn, attr):
    # A system that overcommits grants 16 GiB of address space and lets the
    # run fill it for hours: the machine's RAM is the limit, checked up front.
    monkeypatch.setattr(_inference, "_physical_memory", lambda: 1 << 20)
    g = pc.RRandom(4)
    p = g.runif(50)
    y = (g.runif(50) < p).astype(int)
    rng = pc.RRandom(7)
    before = rng.get_state()
    with pytest.raises(MemoryError) as info:
        fn(p, y, n_boot=1 << 18, rng=rng)
    assert str(info.value) == "cannot allocate vector of size 2.0 Mb"  # R's words
    (note,) = info.value.__notes__
    assert f"res.{attr} (0.0 GiB, 8 bytes each, more than this machine's 0.0 GiB)" in note
    assert np.array_equal(np.asarray(rng.get_state()), np.asarray(before))
    # Within the limit the same call runs, and keeps n_boot replicates.
    res = fn(p, y, n_boot=1000, rng=pc.RRandom(7))
    assert getattr(res, attr).shape == (1000,)


class _Recorder:
    made: list = []

    def __init__(self, total, label="", enabled=True, **kwargs):
        self.total, self.label, self.enabled, self.done = int(total), label, bool(enabled), 0
        _Recorder.made.append(self)

    def advance(self, k=1):
        self.done += int(k)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture
def recorder(monkeypatch):
    _Recorder.made = []
    monkeypatch.setattr(_progress, "Progress", _Recorder)
    # Tiles below n = 5,792 (the whole matrix would fit): the tile loop at a
    # test's size, and a bar from a few pairs on.
    monkeypatch.setattr(_kernel_canonical, "_FULL_BYTES", 0)
    monkeypatch.setattr(_kernel_canonical, "_PROGRESS_WORK", 1000)
    return _Recorder


def _multiclass(n=2500, k=4, seed=5):
    g = pc.RRandom(seed)
    p = g.runif(n * k).reshape(n, k)
    p /= p.sum(axis=1, keepdims=True)
    y = np.asarray(g.sample(k, n, replace=True))
    return p, y


def test_long_canonical_skce_shows_progress(recorder):
    p, y = _multiclass()
    shown = pc.skce(p, y)
    (bar,) = recorder.made
    assert bar.enabled and bar.label == "skce"
    assert bar.total == bar.done == 2500 * 2501 // 2  # every pair i <= j, once
    recorder.made = []
    quiet = pc.skce(p, y, progress=False)
    (bar,) = recorder.made
    assert not bar.enabled and bar.done == bar.total
    assert quiet == shown  # the bar only reads counters


def test_short_canonical_skce_shows_none(monkeypatch, recorder):
    monkeypatch.setattr(_kernel_canonical, "_PROGRESS_WORK", 1 << 28)
    p, y = _multiclass()
    pc.skce(p, y)
    (bar,) = recorder.made
    assert not bar.enabled


def test_cal_test_observed_canonical_sum_shows_progress(recorder):
    p, y = _multiclass(n=2100, k=3)
    pc.cal_test(p, y, n_boot=2, rng=pc.RRandom(1))
    labels = {b.label: b.enabled for b in recorder.made}
    assert labels.get("skce") is True
    recorder.made = []
    pc.cal_test(p, y, n_boot=2, rng=pc.RRandom(1), progress=False)
    assert not any(b.enabled for b in recorder.made)


def test_cal_test_signs_stay_int8_with_8x_rows_per_block_same_bits():
    # The resampling's per-row cost grew with n: cal_test's +-1 weights were
    # widened to float64 before the kernel's sorted-order gather (8 bytes of
    # random reads per sign), and a block held 2^22 / n replicates (4 at 1e6
    # rows, 1 at 1e7), so weighted_lower's numpy calls over 1,024-point blocks
    # covered ever fewer rows. Now the signs are gathered as int8 and a block
    # holds 8 times the replicates; the sums are the same bits.
    from pycalib_r.kernel._skce import kernel_data, kernels

    g = pc.RRandom(2)
    n = 200_000
    p = g.runif(n)
    y = (g.runif(n) < p).astype(int)
    (kern,) = kernels(kernel_data(p, y, "canonical"), 0.2)
    assert kern.batch_rows(10 ** 6) == (1 << 22) // n
    assert kern.batch_rows(10 ** 6, itemsize=1) == (8 << 22) // n
    w = g.rademacher(3, n)
    assert w.dtype == np.int8
    assert np.array_equal(kern.weighted_offdiag(w), kern.weighted_offdiag(w.astype(np.float64)))
    # cal_ci's counts likewise, gathered as int32.
    counts = np.stack([np.bincount(np.asarray(g.sample(n, n, replace=True)), minlength=n + 1)[1:]
                       for _ in range(2)]).astype(np.int32)
    assert np.array_equal(kern.count_sums(counts, True),
                          kern.count_sums(counts.astype(np.float64), True))

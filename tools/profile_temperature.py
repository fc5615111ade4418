#!/usr/bin/env python3
"""Where one evaluation of multiclass temperature scaling's objective goes (issue 38).

One evaluation of probcal's ``multiclass_log_loss(softmax(logits / T), y)``
is a division, each row's maximum subtracted, ``exp``, a long-double row
sum and the picked column divided by it, ``log``, and R's two-pass
long-double ``mean()``. Each step is timed here alone, as a compiled pass
over the same n x K logits (CPU time, minimum of ``--repeats``), beside
the whole kernel (``_temperature_kernels``) and the number of evaluations
R's Brent search and scikit-learn's bounded ``minimize_scalar`` make. The
steps' own loops are simplified stand-ins (for the time split, not for
the bits); the kernel's bits are held by tests/test_calibrator_kernels.py.

Usage: python tools/profile_temperature.py [--rows 1000000] [--classes 5] [--repeats 7]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))


def _best(fn, repeats):
    fn()
    best = math.inf
    for _ in range(repeats):
        c = time.process_time()
        fn()
        best = min(best, time.process_time() - c)
    return best * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--classes", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args(argv)

    from bench_peers import logits_data

    from pycalib_r import _jit
    from pycalib_r.calibrators import _temperature
    from pycalib_r.calibrators._optim import optim_brent

    if not _jit.available():
        print("numba is not available: nothing to profile")
        return 1
    import numba

    from pycalib_r.binned._rbin_kernels import _ld_row_sum
    from pycalib_r.rbase._libm_kernels import glibc_exp, glibc_log

    kern = _jit.kernels("pycalib_r.calibrators._temperature_kernels", float_math=True)
    jit = numba.njit(nogil=True, error_model="numpy")

    @jit
    def divide(src, dst, t):
        for q in range(src.size):
            dst[q] = src[q] / t

    @jit
    def minus_max(a, k):
        for i in range(a.size // k):
            r = a[i * k:(i + 1) * k]
            m = r[0]
            for j in range(1, k):
                m = max(m, r[j])
            for j in range(k):
                r[j] = r[j] - m

    def elementwise(f):
        @jit
        def run(src, dst):
            for q in range(src.size):
                dst[q] = f(src[q])
        return run

    exp_wrapper, exp_direct, log_direct = elementwise(math.exp), elementwise(glibc_exp), elementwise(glibc_log)
    log_wrapper = _jit.kernels("pycalib_r.rbase._libm_kernels", float_math=True).log_into

    @jit
    def row_sums_x87(e, k, codes, out):
        rs = np.empty(1)
        for i in range(out.size):
            _ld_row_sum(rs, 0, e, i * k, k)
            out[i] = e[i * k + codes[i] - 1] / rs[0]

    @jit
    def row_sums_double(e, k, codes, out):
        for i in range(out.size):
            s = 0.0
            for j in range(k):
                s += e[i * k + j]
            out[i] = e[i * k + codes[i] - 1] / s

    n, k, rep = args.rows, args.classes, args.repeats
    z, y = logits_data(n, k, 23)
    codes = y.astype(np.int64)
    flat = np.ascontiguousarray(z).ravel()
    v = np.empty_like(flat)
    divide(flat, v, 2.0)
    minus_max(v, k)
    no_zeros = np.where(v == 0.0, -1.0, v)
    e = np.empty_like(flat)
    exp_wrapper(v, e)
    p = np.empty(n)
    row_sums_x87(e, k, codes, p)
    terms = np.empty(n)
    res = np.empty(2)
    scratch = np.empty(k * 512)
    rows = [
        ("x / T", _best(lambda: divide(flat, v, 2.0), rep)),
        ("minus the row maximum", _best(lambda: minus_max(v, k), rep)),
        ("exp, errno wrapper, row maxima's exact zeros in place", _best(lambda: exp_wrapper(v, e), rep)),
        ("exp, errno wrapper, zeros replaced", _best(lambda: exp_wrapper(no_zeros, e), rep)),
        ("exp, direct entry, zeros replaced", _best(lambda: exp_direct(no_zeros, e), rep)),
        ("x87 row sum + picked / sum", _best(lambda: row_sums_x87(e, k, codes, p), rep)),
        ("(double row sum + picked / sum)", _best(lambda: row_sums_double(e, k, codes, p), rep)),
        ("log, errno wrapper", _best(lambda: log_wrapper(p, terms), rep)),
        ("log, direct entry", _best(lambda: log_direct(p, terms), rep)),
        ("x87 mean (two passes)", _best(lambda: kern.neg_r_mean(terms, res), rep)),
        ("whole kernel, one thread (+ the mean above)",
         _best(lambda: kern.multiclass_temperature_terms(z, codes, 2.0, 1e-15, terms, scratch, 0, n), rep)),
    ]
    print(f"one evaluation, {n:,} rows x K = {k} (CPU ms, minimum of {rep})")
    for name, ms in rows:
        print(f"  {name:<55} {ms:8.2f}")
    count = [0]
    objective = _temperature._multiclass_objective(z, codes, jit=True)

    def counted(t):
        count[0] += 1
        return objective(t)

    optim_brent(counted, 1e-3, 1e3)
    line = f"evaluations: R's Brent (optim, [1e-3, 1e3]) {count[0]}"
    try:
        import sklearn.calibration as skc
    except ImportError:
        print(line + "; scikit-learn not installed")
        return 0
    real = skc.minimize_scalar
    seen = {}

    def spy(*a, **kw):
        out = real(*a, **kw)
        seen["nfev"] = out.nfev
        return out

    skc.minimize_scalar = spy
    try:
        skc._TemperatureScaling().fit(z, y - 1)
    finally:
        skc.minimize_scalar = real
    print(line + f"; scikit-learn _TemperatureScaling (minimize_scalar bounded) {seen.get('nfev')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

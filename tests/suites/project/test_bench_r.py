"""reference/r/bench.R (the R side that tools/bench.py times) gives contract.R's values.

tools/bench.py times R doing the same work as pycalib_r. For skce(), cal_test()
and cal_ci() its R side is reference/r/bench.R, the fastest reasonable base-R
form of the definitions that pycalib_r/r/contract.R writes out for reading
(issue 26). A timing is only fair if both compute the same thing, so each
bench.R function is compared here with contract.R on the same data and seed:
statistics and interval bounds to the manifest's kernel/closed tolerance
(the forms differ only in summation order), p-values exactly (the same sign
stream decides the same exceedances).
"""

from __future__ import annotations

import pytest

from tests.conftest import REPO, within

pytestmark = pytest.mark.r_parity

# Each case: R code binding p and y.
DATA = {
    "binary-300": "set.seed(4); z <- rnorm(300); p <- plogis(z); y <- rbinom(300, 1, plogis(z / 2))",
    "binary-ties": "set.seed(5); p <- sample(0:10, 120, TRUE) / 10; y <- rbinom(120, 1, p)",
    "binary-extremes": ("set.seed(6); p <- c(0, 1, 0, 1, runif(60)); "
                        "y <- c(0, 1, 1, 0, rbinom(60, 1, 0.4))"),
    "canonical-4": ("set.seed(7); P <- matrix(rexp(800), 200); p <- P / rowSums(P); "
                    "y <- sample.int(4, 200, TRUE)"),
    "canonical-3-ties": ("set.seed(8); P <- matrix(sample(1:4, 150, TRUE), 50); p <- P / rowSums(P); "
                         "y <- sample.int(3, 50, TRUE)"),
}
BINARY = [k for k in DATA if k.startswith("binary")]


@pytest.fixture(scope="module")
def bench_r(r):
    r.r(f'source("{(REPO / "pycalib_r" / "r" / "contract.R").as_posix()}")')
    r.r(f'source("{(REPO / "reference" / "r" / "bench.R").as_posix()}")')
    return r


def _num(r, expr):
    return list(r.r(expr))


@pytest.mark.parametrize("case", BINARY)
@pytest.mark.parametrize("bandwidth", [0.2, 0.05, 0.005])
def test_skce_binary(bench_r, case, bandwidth):
    bench_r.r(DATA[case])
    want = _num(bench_r, f"skce(p, y, bandwidth = {bandwidth})")
    got = _num(bench_r, f"bench_skce(p, y, bandwidth = {bandwidth})")
    assert within(got, want, "kernel"), (got, want)


@pytest.mark.parametrize("case", list(DATA))
@pytest.mark.parametrize("fn", ["bench_cal_test", "bench_cal_test_batched"])
def test_cal_test_bootstrap(bench_r, case, fn):
    bench_r.r(DATA[case])
    want = _num(bench_r, "set.seed(11); x <- cal_test(p, y, n_boot = 59); c(x$statistic, x$p.value)")
    got = _num(bench_r, f"set.seed(11); x <- {fn}(p, y, n_boot = 59); c(x$statistic, x$p.value)")
    assert within(got[0], want[0], "kernel"), (got, want)
    assert got[1] == want[1]


def test_cal_test_confidence(bench_r):
    bench_r.r(DATA["canonical-4"])
    want = _num(bench_r, 'set.seed(3); x <- cal_test(p, y, n_boot = 39, type = "confidence"); '
                         "c(x$statistic, x$p.value)")
    got = _num(bench_r, 'set.seed(3); x <- bench_cal_test(p, y, n_boot = 39, type = "confidence"); '
                        "c(x$statistic, x$p.value)")
    assert within(got[0], want[0], "kernel") and got[1] == want[1], (got, want)


@pytest.mark.parametrize("case", BINARY)
@pytest.mark.parametrize("bins", [10, 3, 40])
def test_cal_ci_ece(bench_r, case, bins):
    bench_r.r(DATA[case])
    want = _num(bench_r, f"set.seed(2); x <- cal_ci(p, y, 'ece', n_boot = 49, bins = {bins}); "
                         "c(x$estimate, x$lower, x$upper)")
    got = _num(bench_r, f"set.seed(2); x <- bench_cal_ci(p, y, n_boot = 49, bins = {bins}); "
                        "c(x$estimate, x$lower, x$upper)")
    assert within(got, want, "closed"), (got, want)
    # The same resamples were drawn: R's stream is where contract.R leaves it.
    assert _num(bench_r, "runif(1)") == _num(
        bench_r, f"set.seed(2); invisible(cal_ci(p, y, 'ece', n_boot = 49, bins = {bins})); runif(1)")

"""Binned metrics, logit/inv_logit and mmce against R.

probcal 0.1.0 behaviour is compared live with the probcal R package; the
0.2.0 arguments of ece() (debiased, strategy) with a plain R transcription of
the contract's formulas (section 6) run in the same R session.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from pycalib_r.binned._binning import find_bins, quantile_r, seq01
from tests.conftest import r_assign, within

RTOL = 1e-12


def _rel(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)) if a.size else 0.0


def _binary_cases():
    rng = np.random.default_rng(20261129)
    cases = []
    for n in (2, 7, 50, 333, 2000):
        p = rng.uniform(size=n)
        y = (rng.uniform(size=n) < p).astype(np.int64)
        cases.append((f"unif-{n}", p, y))
    p = np.round(rng.uniform(size=200), 1)  # ties on the bin edges 0.1, 0.2, ...
    cases.append(("ties-on-edges", p, (rng.uniform(size=200) < 0.5).astype(np.int64)))
    p = np.concatenate([[0.0, 1.0, 1.0, 0.0], rng.uniform(size=40)])
    cases.append(("zeros-ones", p, (rng.uniform(size=44) < p).astype(np.int64)))
    cases.append(("all-equal", np.full(30, 0.37), (rng.uniform(size=30) < 0.4).astype(np.int64)))
    cases.append(("one-bin", rng.uniform(0.41, 0.49, size=25), (rng.uniform(size=25) < 0.5).astype(np.int64)))
    return cases


def _multiclass_cases():
    rng = np.random.default_rng(7)
    cases = []
    for n, k in ((40, 3), (300, 4), (1000, 5)):
        raw = rng.gamma(1.0, size=(n, k))
        p = raw / raw.sum(axis=1, keepdims=True)
        y = np.array([rng.choice(k, p=row) + 1 for row in p], dtype=np.int64)
        y[:k] = np.arange(1, k + 1)  # every class present
        cases.append((f"mc-{n}x{k}", p, y))
    p = np.tile([[0.4, 0.4, 0.2]], (20, 1))  # argmax ties: first column wins
    cases.append(("mc-argmax-ties", p, np.tile([1, 2, 3, 2], 5).astype(np.int64)))
    return cases


BINARY = _binary_cases()
MULTI = _multiclass_cases()


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BINARY, ids=[c[0] for c in BINARY])
def test_binary_metrics_match_probcal(probcal_r, case):
    _, p, y = case
    r_assign(probcal_r, p=p, y=y)
    for bins in (1, 3, 10, 15):
        for fn in ("ece", "mce", "ace"):
            want = probcal_r.r(f"{fn}(p, y, bins = {bins})")[0]
            got = getattr(pc, fn)(p, y, bins=bins)
            assert _rel(got, want) <= RTOL, (fn, bins, got, want)
    for bw in (0.2, 0.05, 1.5):
        want = probcal_r.r(f"mmce(p, y, bandwidth = {bw})")[0]
        assert within(pc.mmce(p, y, bandwidth=bw), want, "kernel")


@pytest.mark.r_parity
@pytest.mark.parametrize("case", MULTI, ids=[c[0] for c in MULTI])
def test_multiclass_metrics_match_probcal(probcal_r, case):
    _, p, y = case
    r_assign(probcal_r, p=p, y=y)
    for bins in (2, 10):
        for fn in ("ece", "mce", "ace"):
            for type_ in ("classwise", "confidence"):
                want = probcal_r.r(f'{fn}(p, y, bins = {bins}, type = "{type_}")')[0]
                got = getattr(pc, fn)(p, y, bins=bins, type=type_)
                assert _rel(got, want) <= RTOL, (fn, bins, type_, got, want)
    want = probcal_r.r("mmce(p, y)")[0]
    assert within(pc.mmce(p, y), want, "kernel")
    # a factor with labels gives the same as its codes
    levels = [f"c{i}" for i in range(1, p.shape[1] + 1)]
    cat = pd.Categorical.from_codes(y - 1, categories=levels)
    assert pc.ece(p, cat) == pc.ece(p, y)


@pytest.mark.r_parity
def test_logit_inv_logit_match_probcal(probcal_r):
    rng = np.random.default_rng(3)
    p = np.concatenate([[0.0, 1.0, 0.5, 1e-300, 1 - 1e-16], rng.uniform(size=500)])
    r_assign(probcal_r, p=p)
    for eps in (None, 1e-6, 0.25):
        arg = "" if eps is None else f", eps = {eps!r}"
        want = np.array(probcal_r.r(f"logit(p{arg})"))
        got = pc.logit(p) if eps is None else pc.logit(p, eps=eps)
        assert _rel(got, want) <= RTOL
    x = np.concatenate([[-800.0, -40.0, 0.0, 40.0, 800.0], rng.normal(scale=5, size=500)])
    r_assign(probcal_r, x=x)
    want = np.array(probcal_r.r("inv_logit(x)"))
    assert _rel(pc.inv_logit(x), want) <= RTOL


# --- 0.2.0 arguments: a plain R transcription of contract section 6 -----------------

R_CONTRACT_ECE = r"""
contract_breaks <- function(p, bins, strategy) {
  if (strategy == "equal_width") return(seq(0, 1, length.out = bins + 1L))
  b <- stats::quantile(p, seq(0, 1, length.out = bins + 1L), type = 8, names = FALSE)
  b[1L] <- 0; b[length(b)] <- 1
  sort(unique(b))
}
contract_ece_binary <- function(p, y, bins, debiased, strategy) {
  br <- contract_breaks(p, bins, strategy)
  bin <- findInterval(p, br, rightmost.closed = TRUE, all.inside = TRUE)
  total <- 0
  for (b in seq_len(length(br) - 1L)) {
    idx <- bin == b; nb <- sum(idx)
    if (nb == 0L) next
    acc <- mean(y[idx]); conf <- mean(p[idx])
    term <- if (debiased) { if (nb == 1L) 0 else (acc - conf)^2 - acc * (1 - acc) / (nb - 1) } else abs(acc - conf)
    total <- total + nb / length(p) * term
  }
  total
}
contract_ece <- function(p, y, bins, type, debiased, strategy) {
  if (!is.matrix(p)) return(contract_ece_binary(p, y, bins, debiased, strategy))
  if (type == "confidence") {
    pred <- max.col(p, ties.method = "first")
    return(contract_ece_binary(p[cbind(seq_len(nrow(p)), pred)], as.integer(pred == y), bins, debiased, strategy))
  }
  mean(vapply(seq_len(ncol(p)), function(k) contract_ece_binary(p[, k], as.integer(y == k), bins, debiased, strategy), 0))
}
"""


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BINARY + MULTI, ids=[c[0] for c in BINARY + MULTI])
def test_ece_debiased_and_strategy_match_contract(r, case):
    _, p, y = case
    r.r(R_CONTRACT_ECE)
    r_assign(r, p=p, y=y)
    for bins in (1, 4, 10):
        for debiased in (False, True):
            for strategy in ("equal_width", "equal_freq"):
                for type_ in (("classwise", "confidence") if p.ndim == 2 else ("classwise",)):
                    want = r.r(f'contract_ece(p, y, {bins}, "{type_}", {str(debiased).upper()}, "{strategy}")')[0]
                    got = pc.ece(p, y, bins=bins, type=type_, debiased=debiased, strategy=strategy)
                    assert abs(got - want) <= RTOL * max(abs(want), 1e-15), (bins, debiased, strategy, type_)


@pytest.mark.r_parity
def test_binning_primitives_match_r(r):
    rng = np.random.default_rng(11)
    for length in (2, 3, 11, 101):
        want = np.array(r.r(f"seq(0, 1, length.out = {length})"))
        assert np.array_equal(seq01(length), want)
    x = np.concatenate([rng.uniform(size=97), [0.5] * 5])
    r_assign(r, x=x)
    probs = seq01(11)
    for qtype in (7, 8):
        want = np.array(r.r(f"quantile(x, seq(0, 1, length.out = 11), type = {qtype}, names = FALSE)"))
        assert np.array_equal(quantile_r(x, probs, type=qtype), want)
    breaks = seq01(11)
    vals = np.concatenate([breaks, rng.uniform(size=50)])
    r_assign(r, v=vals)
    want = np.array(r.r("findInterval(v, seq(0, 1, length.out = 11), rightmost.closed = TRUE, all.inside = TRUE)"))
    assert np.array_equal(find_bins(vals, breaks) + 1, want)


def test_seven_tenths_falls_in_bin_seven():
    # contract section 1: edges are i * (1/B), so 0.7 lies in bin 7 (0-based 6)
    assert find_bins(np.array([0.7]), seq01(11))[0] == 6


def test_debiased_single_observation_bins_contribute_zero():
    assert pc.ece([0.05, 0.95], [1, 0], bins=10, debiased=True) == 0.0


def test_ece_input_types():
    with pytest.raises(pc.ProbcalError):
        pc.ece([0.1, 0.2], [0, 1], debiased="yes")
    with pytest.raises(pc.ProbcalError, match="should be one of"):
        pc.ece([0.1, 0.2], [0, 1], strategy="quantile")


def test_classwise_kernel_scan_decides_as_check_prob_matrix_in_r_order(monkeypatch):
    # ece/mce/ace on a large classwise matrix check its values inside the
    # binning kernel (one read of the matrix): every fault is reported as
    # check_prob_matrix() reports it, before a fault of the labels or bins,
    # and values that R's check passes (-0.0, a row sum inside the
    # tolerance band) give the same metric as the checked path.
    from pycalib_r._native import kernels
    from pycalib_r.binned import _metrics
    from pycalib_r.binned._metrics import _SCAN_IN_KERNEL_MIN, bind_metric

    if kernels("binned") is None:
        pytest.skip("compiled kernels disabled (PYCALIB_R_NATIVE=0) or not built: the values are checked first")
    g = np.random.default_rng(77)
    k = 4
    n = _SCAN_IN_KERNEL_MIN // k + 3
    base = g.dirichlet(np.ones(k), n)
    codes = g.integers(1, k + 1, n).astype(np.int64)

    def outcome(fn, p, y, bins, defer):
        try:
            return "value", bind_metric(fn, p, y, bins, defer=defer).value()
        except pc.ProbcalError as exc:
            return "error", str(exc)

    faults = {"nan": (5, 1, np.nan), "inf": (9, 0, np.inf), "neg": (n - 1, 2, -0.25), "big": (3, 3, 1.5),
              "off": (n // 2, 1, base[n // 2, 1] + 0.01), "negzero": (7, 2, -0.0),
              "band": (11, 0, base[11, 0] + 1e-6)}  # R's exact row sum decides
    for name, (i, j, v) in [("ok", (0, 0, base[0, 0]))] + list(faults.items()):
        p = base.copy()
        if name == "negzero":
            p[i, j] = 0.0
            p[i, (j + 1) % k] += base[i, j]
        p[i, j] = v
        for fn in ("ece", "mce", "ace"):
            for y, bins in ((codes, 10), (np.where(codes == 1, 7, codes), 10), (codes, 0), (codes[:-1], 10)):
                want = outcome(fn, p, y, bins, False)
                got = outcome(fn, p, y, bins, True)
                assert got == want, (name, fn, bins)
        if name != "band":
            assert outcome("ece", p, codes, 10, True)[0] == ("value" if name in ("ok", "negzero") else "error")
        # The kernel's scan took the decision: R's check ran only where it
        # found an entry outside [+0, 1] or a row sum near the tolerance.
        calls = []
        real = _metrics.check_prob_matrix_values
        monkeypatch.setattr(_metrics, "check_prob_matrix_values", lambda *a: calls.append(1) or real(*a))
        outcome("ece", p, codes, 10, True)
        monkeypatch.undo()
        assert bool(calls) == (name != "ok")

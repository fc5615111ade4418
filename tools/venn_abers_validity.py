"""Monte Carlo check of the inductive Venn-ABERS predictor's validity, and docs/venn_abers.png.

Each replication draws a fresh calibration set of ``n`` rows and one fresh
test row from the same model (exchangeable, as the guarantee assumes):
scores ``s ~ U(0, 1)``, labels ``y ~ Bernoulli(s^3)`` (an overconfident
model, so the raw scores are far from calibrated), fits
``cal_venn_abers`` on the calibration rows and keeps the test row's
``(p0, p1)`` and ``y``. Over the replications:

1. Vovk & Petej (2014), Theorem 1: the realised prediction ``p_y`` (p1 if
   y = 1, else p0) is calibrated, E(y | p_y) = p_y. The rows are cut into
   five bands by ``p_y``; each line gives the band's mean
   ``p_y``, the frequency of y = 1, their difference and its Monte Carlo
   standard error under the guarantee, ``sqrt(sum p_y (1 - p_y)) / rows``
   (bands cut at quantiles, ties kept together).
2. The frequency of y = 1 among rows whose pair falls in a band (bands of
   the pair's midpoint) against the band's mean p0 and mean p1, with the
   frequency's standard error ``sqrt(f (1 - f) / rows)``.
3. For contrast, the merged probability ``p1 / (1 - p0 + p1)`` and
   ``cal_isotonic``'s output on the same rows (point predictions, no
   guarantee) in the bands of 1.

Usage: ``python tools/venn_abers_validity.py [--reps 20000] [--n 100] [--seed 50]
[--figure docs/venn_abers.png]``. The figure: one calibration set's p0 and
p1 against the score (the band), the merged probability and the truth, and
the bands of 2 with their standard errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import pycalib_r as pc  # noqa: E402


def truth(s):
    return s ** 3


def replications(reps: int, n: int, seed: int):
    """``(p0, p1, merged, isotonic, y)`` of one fresh test row per replication."""
    g = np.random.default_rng(seed)
    out = np.empty((reps, 5))
    for r in range(reps):
        s = g.uniform(size=n + 1)
        y = (g.uniform(size=n + 1) < truth(s)).astype(np.int64)
        if y[:n].min() == y[:n].max():  # both classes in the calibration set
            y[0] = 1 - y[0]
        fit = pc.cal_venn_abers(s[:n], y[:n])
        p0, p1 = fit.predict(s[n:], interval=True)[0]
        out[r] = p0, p1, p1 / (1 - p0 + p1), pc.predict(pc.cal_isotonic(s[:n], y[:n]), s[n:])[0], y[n]
    return out


def bands(key, k=5):
    """Rows cut at the quantiles of ``key`` into at most ``k`` bands, ties
    kept together (an exact 0 or 1 is often a large share of the rows)."""
    edges = np.unique(np.quantile(key, np.linspace(0, 1, k + 1)[1:-1]))
    ids = np.searchsorted(edges, key, side="right")
    return [np.flatnonzero(ids == i) for i in range(edges.size + 1) if np.any(ids == i)]


def z_score(y, q):
    """``(mean(y - q), its standard error, z)``: the error under the hypothesis
    y ~ Bernoulli(q), ``sqrt(sum q (1 - q)) / rows``; z is 0 where both are 0."""
    d = float(np.mean(y - q))
    se = float(np.sqrt(np.sum(q * (1 - q))) / q.size)
    return d, se, (d / se if se > 0 else (0.0 if d == 0 else np.inf))


def report(res) -> list:
    p0, p1, merged, iso, y = res.T
    p_y = np.where(y == 1, p1, p0)
    lines = ["1. realised prediction p_y (Theorem 1): band mean p_y, frequency of y = 1, "
             "difference, MC standard error, z"]
    worst = 0.0
    for b in bands(p_y):
        d, se, z = z_score(y[b], p_y[b])
        worst = max(worst, abs(z))
        lines.append(f"   p_y {p_y[b].mean():.4f}  freq {y[b].mean():.4f}  diff {d:+.4f}"
                     f"  se {se:.4f}  z {z:+.2f}  ({b.size} rows)")
    lines.append(f"   largest |z| {worst:.2f}")
    lines.append("2. bands of the pair's midpoint: mean p0 <= frequency <= mean p1 (frequency's se)")
    inside = 0
    mid = (p0 + p1) / 2
    for b in bands(mid):
        f = y[b].mean()
        se = np.sqrt(f * (1 - f) / b.size)
        ok = p0[b].mean() - 2 * se <= f <= p1[b].mean() + 2 * se
        inside += ok
        lines.append(f"   p0 {p0[b].mean():.4f}  freq {f:.4f}  p1 {p1[b].mean():.4f}  se {se:.4f}"
                     f"  {'inside' if ok else 'OUTSIDE'} (2 se)")
    lines.append(f"   {inside} of 5 bands inside")
    lines.append("3. point predictions, bands of each: mean prediction, frequency, z")
    for name, q in (("merged", merged), ("isotonic", iso)):
        zs = [z_score(y[b], q[b])[2] for b in bands(q)]
        lines.append(f"   {name:8s} z by band: " + "  ".join(f"{z:+.2f}" for z in zs))
    return lines


def figure(res, n, seed, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = np.random.default_rng(seed + 1)
    s = g.uniform(size=n)
    y = (g.uniform(size=n) < truth(s)).astype(np.int64)
    fit = pc.cal_venn_abers(s, y)
    grid = np.linspace(0, 1, 801)
    pairs = fit.predict(grid, interval=True)
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.2))
    a.fill_between(grid, pairs[:, 0], pairs[:, 1], step="pre", color="tab:blue", alpha=0.3,
                   label="[p0, p1]")
    a.step(grid, pairs[:, 0], where="pre", color="tab:blue", lw=0.8)
    a.step(grid, pairs[:, 1], where="pre", color="tab:blue", lw=0.8)
    a.plot(grid, pc.predict(fit, grid), color="black", lw=1, label="merged p1 / (1 - p0 + p1)")
    a.plot(grid, truth(grid), color="tab:red", ls="--", lw=1, label="true P(y = 1 | s) = s^3")
    a.plot(s, y * 1.02 - 0.01, "|", color="grey", ms=4, alpha=0.6)
    a.set(xlabel="score s", ylabel="probability", xlim=(0, 1), ylim=(-0.03, 1.03),
          title=f"one calibration set, n = {n}")
    a.legend(loc="upper left", fontsize=8)
    p0, p1, _, _, yy = res.T
    mid = (p0 + p1) / 2
    for i, band in enumerate(bands(mid, 10)):
        f = yy[band].mean()
        se = np.sqrt(f * (1 - f) / band.size)
        lo, hi = p0[band].mean(), p1[band].mean()
        b.plot([lo, hi], [f, f], color="tab:blue", lw=3, alpha=0.5, label="mean [p0, p1]" if i == 0 else None)
        b.errorbar((lo + hi) / 2, f, yerr=2 * se, color="black", fmt="o", ms=3, capsize=2,
                   label="frequency of y = 1 (+- 2 se)" if i == 0 else None)
    b.plot([0, 1], [0, 1], color="grey", lw=0.6)
    b.set(xlabel="pair (bands of its midpoint)", ylabel="frequency of y = 1", xlim=(0, 1), ylim=(0, 1),
          title=f"{res.shape[0]:,} fresh calibration sets, one test row each")
    b.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120, metadata={"Software": None})
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=20000)
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=50)
    ap.add_argument("--figure", type=Path, default=None)
    args = ap.parse_args(argv)
    res = replications(args.reps, args.n, args.seed)
    print(f"{args.reps:,} replications, n = {args.n} calibration rows, truth s^3, seed {args.seed}")
    for line in report(res):
        print(line)
    if args.figure is not None:
        figure(res, args.n, args.seed, args.figure)
        print(f"wrote {args.figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

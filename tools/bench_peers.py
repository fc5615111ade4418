#!/usr/bin/env python3
"""pycalib_r against the Python peers on the same data, in the same run.

Each line times pycalib_r and a peer doing the same work on the same arrays,
alternating (ours, peer, ours, peer, ...) so that both see the same load,
and keeps each side's minimum. On a shared machine the wall clock of a call
longer than a scheduler slice includes other processes' turns, so every
line gives both clocks: the wall-clock minimum and the CPU-time minimum
(``time.process_time``: the work done, all threads); the target is judged
on the CPU ratio and the wall ratio is printed beside it.

Peers: relplot (``binnedECE``), scikit-learn (``_TemperatureScaling``, the
temperature fit of ``CalibratedClassifierCV(method="temperature")``, and
``IsotonicRegression``), uncertainty-calibration (``get_ece``), netcal
(``ECE``, ``TemperatureScaling``, ``IsotonicRegression``). netcal pulls in
torch (5 GB with its CUDA wheels), so it is not a test extra: its lines run
where it is installed (here a virtual environment made with
``--system-site-packages`` and ``pip install netcal``, whose python runs
this script), and elsewhere say "not installed, skipped", as any missing
peer's do.

The R-cold column (:func:`r_cold_lines`): the same work as a whole new
process on each side, on the same data file (raw float64, read by
``readBin`` in R and ``numpy.fromfile`` in Python): ``Rscript -e
'library(probcal); ...'`` against ``python -c 'import pycalib_r; ...'``.

``python tools/bench.py`` runs this section after its own (``--only-peers``:
this section alone); with ``--readme`` it rewrites the peers table of
docs/evidence/speed.md (between its ``peers:start`` and ``peers:end``
markers) and the README's speed lines (between ``speed:start`` and
``speed:end``) from the same run (:func:`write_peers`).

Usage: python tools/bench_peers.py [--quick] [--rounds N] [--no-cold]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Optional

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

import pycalib_r as pc  # noqa: E402


def _installed(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def alternate(ours, peer, rounds: int):
    """(ours, peer) minima over ``rounds`` alternating runs: ((wall, cpu), (wall, cpu))."""
    best = [[np.inf, np.inf], [np.inf, np.inf]]
    for _ in range(rounds):
        for side, fn in enumerate((ours, peer)):
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            w, c = time.perf_counter() - w0, time.process_time() - c0
            best[side][0] = min(best[side][0], w)
            best[side][1] = min(best[side][1], c)
    return tuple(tuple(b) for b in best)


class PeerRow(NamedTuple):
    """One line of the peers table (``ok`` None: no target, for information)."""

    work: str
    ours: str
    peer: str
    ratio: str
    target: str
    ok: Optional[bool]


def _ms(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


def _line(out, work, peer_name, times, need, rows=None):
    """One target: pycalib_r at most ``need`` times the peer's CPU time
    (printed, and appended to ``rows`` when given); returns whether it is
    met. ``need`` None: a line without a target (for information)."""
    (ow, oc), (pw, pcpu) = times
    ratio = oc / pcpu
    ok = None if need is None else ratio <= need
    verdict = ("(no target)" if need is None else
               f"the peer's CPU time ({ow / pw:.2f}x wall; target <= {need:g}x)  {'PASS' if ok else 'FAIL'}")
    out(f"  {work}: pycalib_r {ow * 1000:.1f} ms wall, {oc * 1000:.1f} ms CPU; {peer_name}"
        f" {pw * 1000:.1f} ms wall, {pcpu * 1000:.1f} ms CPU; {ratio:.2f}x {verdict}")
    if rows is not None:
        rows.append(PeerRow(work, f"{_ms(oc)} CPU, {_ms(ow)} wall", f"{peer_name} {_ms(pcpu)} CPU, {_ms(pw)} wall",
                            f"{ratio:.2f}x ({ow / pw:.2f}x)",
                            "none (information)" if need is None else f"<= {need:g}x", ok))
    return ok


def _skip(out, work, peer, rows=None):
    out(f"  {work}: {peer} not installed, skipped")
    if rows is not None:
        rows.append(PeerRow(work, "-", f"{peer}: not installed, skipped", "-", "-", None))


def logits_data(n: int, k: int, seed: int):
    """Overconfident multiclass logits (temperature about 2) and labels 1..K."""
    g = np.random.default_rng(seed)
    z = g.normal(0, 1, (n, k)) * 3
    z[np.arange(n), g.integers(0, k, n)] += 2
    p = np.exp(z / 2 - (z / 2).max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = (g.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1) + 1
    return z, np.minimum(y, k)


def peer_lines(out=print, quick: bool = False, rounds: int = 7, rows=None) -> int:
    """The peers section; returns the number of missed targets (each line
    printed, and appended to ``rows`` as a :class:`PeerRow` when given)."""
    from bench import binary_data, binary_scores, multiclass_data

    out(f"peers (same data, same run, alternating, {rounds} rounds; load average"
        f" {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    missed = 0
    sizes = (1_000_000,) if quick else (1_000_000, 10_000_000)
    # -- binned ECE ----------------------------------------------------------------
    for n in sizes:
        p, y = binary_data(n, 21)
        pc.ece(p, y)
        work = f"binary `ece`, {n:,} rows, 10 bins"
        if _installed("relplot"):
            import relplot

            relplot.metrics.binnedECE(p, y)
            t = alternate(lambda: pc.ece(p, y), lambda: relplot.metrics.binnedECE(p, y, nbins=10), rounds)
            missed += not _line(out, work, "relplot `binnedECE`", t, 1.5, rows)
        else:
            _skip(out, work, "relplot", rows)
        if _installed("calibration") and n > 1_000_000:
            out(f"  {work}: uncertainty-calibration `get_ece` timed at 1,000,000 rows only (about 9 s a call here)")
        elif _installed("calibration"):
            import calibration

            two = np.column_stack([1 - p, p])
            t = alternate(lambda: pc.ece(p, y), lambda: calibration.get_ece(two, y, num_bins=10),
                          max(3, rounds // 2))
            (ow, oc), (pw, pcpu) = t
            out(f"    uncertainty-calibration get_ece (top-label ECE of the two columns, its own"
                f" bins): {pw * 1000:.1f} ms wall / {pcpu * 1000:.1f} ms CPU; pycalib_r"
                f" {oc / pcpu:.2f}x its CPU time")
            if rows is not None:
                rows.append(PeerRow(work, f"{_ms(oc)} CPU, {_ms(ow)} wall",
                                    f"uncertainty-calibration `get_ece` (top-label, its own bins)"
                                    f" {_ms(pcpu)} CPU, {_ms(pw)} wall", f"{oc / pcpu:.2f}x ({ow / pw:.2f}x)",
                                    "none (other work)", None))
        else:
            _skip(out, work, "uncertainty-calibration", rows)
        if _installed("netcal"):
            from netcal.metrics import ECE

            netcal_ece = ECE(bins=10)
            netcal_ece.measure(p, y)
            t = alternate(lambda: pc.ece(p, y), lambda: netcal_ece.measure(p, y), max(3, rounds // 2))
            missed += not _line(out, work, "netcal `ECE(bins=10).measure`", t, 1.5, rows)
        else:
            _skip(out, work, "netcal", rows)
        del p, y
    # -- classwise = K binary passes ------------------------------------------------
    k = 5
    pm, ym = multiclass_data(1_000_000, k, 22)
    cols = [(np.ascontiguousarray(pm[:, j]), (ym == j + 1).astype(np.int64)) for j in range(k)]
    pc.ece(pm, ym)
    # Twice the rounds: a round is about 0.1 s, and this machine's slow
    # phases (other tenants' memory traffic) last seconds and slow the
    # matrix's 40 MB passes more than the cached columns'; the minimum over
    # more alternating rounds finds both sides' quiet figures.
    t = alternate(lambda: pc.ece(pm, ym), lambda: [pc.ece(r, c) for r, c in cols], 2 * rounds)
    missed += not _line(out, f"classwise `ece`, K = {k}, 1,000,000 rows", f"{k} binary `ece` calls", t, 1.0,
                        rows)
    # For information: the same K binary calls on columns and labels taken
    # from the matrix in the call, as a user without classwise would.
    t = alternate(lambda: pc.ece(pm, ym), lambda: [pc.ece(np.ascontiguousarray(pm[:, j]),
                                                          (ym == j + 1).astype(np.int64)) for j in range(k)],
                  2 * rounds)
    _line(out, f"classwise `ece`, K = {k}, 1,000,000 rows",
          f"{k} binary `ece` calls, each column and its labels taken from the matrix", t, None, rows)
    del pm, ym, cols
    # -- multiclass temperature -------------------------------------------------------
    if _installed("sklearn"):
        from sklearn.calibration import _TemperatureScaling

        for n in ((100_000,) if quick else (100_000, 1_000_000)):
            for k in (5, 10):
                z, y = logits_data(n, k, 23)
                work = f"multiclass `cal_temperature`, K = {k}, {n:,} rows"
                # One call of each first: warm figures (a process's first
                # calls at a size pay its page faults and thread start-up).
                pc.cal_temperature(z, y)
                _TemperatureScaling().fit(z, y - 1)
                t = alternate(lambda: pc.cal_temperature(z, y),
                              lambda: _TemperatureScaling().fit(z, y - 1), 1 if n > 100_000 else 5)
                missed += not _line(out, work, "scikit-learn `_TemperatureScaling`", t, 1.0, rows)
                if _installed("netcal"):
                    from netcal.scaling import TemperatureScaling

                    # netcal takes the probabilities (softmax of the logits) and 0-based labels.
                    e = np.exp(z - z.max(axis=1, keepdims=True))
                    probs, y0 = e / e.sum(axis=1, keepdims=True), y - 1
                    del e
                    TemperatureScaling().fit(probs, y0)
                    t = alternate(lambda: pc.cal_temperature(z, y), lambda: TemperatureScaling().fit(probs, y0), 1)
                    missed += not _line(out, work, "netcal `TemperatureScaling` (its default `mle`)", t, 1.0,
                                        rows)
                    del probs, y0
                else:
                    _skip(out, work, "netcal", rows)
    else:
        _skip(out, "multiclass `cal_temperature`", "scikit-learn", rows)
    # -- isotonic -------------------------------------------------------------------------
    if _installed("sklearn"):
        from sklearn.isotonic import IsotonicRegression

        for n in ((100_000, 1_000_000) if quick else (100_000, 1_000_000, 10_000_000)):
            pb, _, yb = binary_scores(n, 24)
            work = f"`cal_isotonic`, {n:,} rows"
            pc.cal_isotonic(pb, yb)  # warm figures, as above
            IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(pb, yb)
            t = alternate(lambda: pc.cal_isotonic(pb, yb),
                          lambda: IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(pb, yb),
                          1 if n > 1_000_000 else 3)
            missed += not _line(out, work, "scikit-learn `IsotonicRegression`", t, 1.0, rows)
            if _installed("netcal"):
                from netcal.binning import IsotonicRegression as NetcalIsotonic

                NetcalIsotonic().fit(pb, yb)
                t = alternate(lambda: pc.cal_isotonic(pb, yb), lambda: NetcalIsotonic().fit(pb, yb),
                              1 if n > 1_000_000 else 3)
                missed += not _line(out, work, "netcal `IsotonicRegression`", t, 1.0, rows)
            else:
                _skip(out, work, "netcal", rows)
    return missed


# -- R-cold: a whole new process on each side ----------------------------------------------

_R_COLD = {
    # name: (R expression after reading p/y or L/y, Python statement after reading them)
    "ece": ("probcal::ece(p, y)", "pc.ece(p, y)"),
    "cal_temperature": ("probcal::cal_temperature(L, y)", "pc.cal_temperature(L, y)"),
    "cal_isotonic": ("probcal::cal_isotonic(p, y)", "pc.cal_isotonic(p, y)"),
}


def _run(cmd, env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t0


def r_cold_lines(out=print, n: int = 100_000, k: int = 5, rounds: int = 3, rows=None) -> None:
    """Whole-process times, R (``Rscript``) against Python, on the same files;
    each line printed and appended to ``rows`` as ``(work, R, Python, ratio)``
    (a skip as one row naming why)."""
    if shutil.which("Rscript") is None:
        out("R-cold: Rscript not found, skipped")
        if rows is not None:
            rows.append(("R-cold lines", "Rscript not found, skipped", "-", "-"))
        return
    ok = subprocess.run(["Rscript", "-e", "library(probcal)"], capture_output=True).returncode == 0
    if not ok:
        out("R-cold: the probcal R package is not installed, skipped")
        if rows is not None:
            rows.append(("R-cold lines", "the probcal R package is not installed, skipped", "-", "-"))
        return
    from bench import binary_data

    p, y = binary_data(n, 25)
    z, ym = logits_data(n, k, 26)
    # The environment from before rpy2 loaded R into this process (R changes
    # it: a Python child then finds no numpy), when bench.py runs this.
    base = getattr(sys.modules.get("__main__"), "_ORIGINAL_ENV", None) or os.environ
    env = dict(base, PYTHONPATH=str(REPO))
    out(f"R-cold (a new process each side, data read from the same raw float64 files, {n:,} rows;"
        f" minimum of {rounds}, alternating)")
    with tempfile.TemporaryDirectory() as tmp:
        files = {"p": p, "y": y.astype(np.float64), "L": np.asfortranarray(z).ravel(order="F"),
                 "yL": ym.astype(np.float64)}
        for name, arr in files.items():
            np.asarray(arr, dtype="<f8").tofile(os.path.join(tmp, name + ".bin"))

        def r_read(f, size):
            return f'readBin("{os.path.join(tmp, f + ".bin")}", "double", {size})'

        def py_read(f):
            return f'np.fromfile({os.path.join(tmp, f + ".bin")!r}, dtype="<f8")'

        for name, (r_expr, py_stmt) in _R_COLD.items():
            if name == "cal_temperature":
                r_pre = f"L <- matrix({r_read('L', n * k)}, ncol = {k}); y <- {r_read('yL', n)}; "
                py_pre = (f"L = {py_read('L')}.reshape(({n}, {k}), order='F'); "
                          f"y = {py_read('yL')}.astype(np.int64); ")
            else:
                r_pre = f"p <- {r_read('p', n)}; y <- {r_read('y', n)}; "
                py_pre = f"p = {py_read('p')}; y = {py_read('y')}.astype(np.int64); "
            r_cmd = ["Rscript", "-e", f"suppressMessages(library(probcal)); {r_pre}invisible({r_expr})"]
            py_cmd = [sys.executable, "-c", f"import numpy as np, pycalib_r as pc; {py_pre}{py_stmt}"]
            _run(py_cmd, env)  # writes the bytecode cache a fresh install lacks
            t_r = t_py = np.inf
            for _ in range(rounds):
                t_r = min(t_r, _run(r_cmd))
                t_py = min(t_py, _run(py_cmd, env))
            work = f"`{name}`, {n:,} rows{f', K = {k}' if name == 'cal_temperature' else ''}"
            out(f"  {work}: R process {t_r:.2f} s, Python process {t_py:.2f} s ({t_r / t_py:.1f}x)")
            if rows is not None:
                rows.append((work, f"{t_r:.2f} s", f"{t_py:.2f} s", f"{t_r / t_py:.1f}x"))


PEERS_START, PEERS_END = "<!-- peers:start -->", "<!-- peers:end -->"
README_START, README_END = "<!-- speed:start -->", "<!-- speed:end -->"


def _replace_block(path: Path, start: str, end: str, lines) -> bool:
    text = path.read_text(encoding="utf-8")
    if start not in text or end not in text:
        print(f"{path.relative_to(REPO)} has no {start} / {end} markers; not rewritten", file=sys.stderr)
        return False
    block = "\n".join([start, *lines, end])
    path.write_text(re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S),
                    encoding="utf-8")
    print(f"{path.relative_to(REPO)}: {start[5:-4]} rewritten", flush=True)
    return True


def _verdict(row: PeerRow) -> str:
    return "-" if row.ok is None else f"{row.target}: {'met' if row.ok else 'not met'}"


def write_peers(rows, cold_rows, command: str, machine: str, rounds: int) -> None:
    """The peers table and the R-cold lines of this run into docs/evidence/speed.md
    (``peers:start`` / ``peers:end``) and the README's speed lines (``speed:start`` / ``speed:end``)."""
    when = time.strftime("%Y-%m-%d", time.gmtime())
    lines = [
        f"Generated by `{command}` on {when} ({machine}). Each line alternates pycalib_r's call with"
        f" the peer's on the same data ({rounds} rounds, fewer for the long calls) and keeps each side's"
        " minimum; the target is judged on CPU time (`process_time`), the wall-clock ratio is in"
        " brackets. A peer that is not installed is skipped, saying so.",
        "",
        "| work | pycalib_r | peer (same data) | ratio CPU (wall) | target |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {r.work} | {r.ours} | {r.peer} | {r.ratio} | {_verdict(r)} |" for r in rows if r.ours != "-"]
    skipped = {}
    for r in rows:
        if r.ours == "-":
            skipped.setdefault(r.peer.split(":")[0], []).append(r.work)
    for peer, works in skipped.items():
        lines += ["", f"{peer}: not installed, so its lines were skipped ({'; '.join(dict.fromkeys(works))})."]
    lines += ["", "As whole new processes on the same data file: `Rscript -e 'library(probcal); ...'` against"
              " `python -c 'import pycalib_r; ...'` (minimum of 3, alternating):", "",
              "| work | R process | Python process | R / Python |", "| --- | --- | --- | --- |"]
    lines += [f"| {w} | {r} | {p} | {x} |" for w, r, p, x in cold_rows]
    _replace_block(REPO / "docs" / "evidence" / "speed.md", PEERS_START, PEERS_END, lines)
    short = [
        f"From `{command}` on {when}; the R lines, every figure and the machine's load are in"
        " [the speed page](docs/evidence/speed.md).",
        "",
        "| work | pycalib_r | against | ratio |",
        "| --- | --- | --- | --- |",
    ]
    short += [f"| {r.work} | {r.ours.split(',')[0]} | {r.peer.split(',')[0]} | {r.ratio.split(' ')[0]}"
              f" (target {r.target}) |" for r in rows if r.ok is not None]
    short += [f"| {w}, a whole new process | {p} | `Rscript` with probcal {r} | R / Python {x} |"
              for w, r, p, x in cold_rows if p != "-"]
    _replace_block(REPO / "README.md", README_START, README_END, short)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the smaller sizes only")
    ap.add_argument("--rounds", type=int, default=7, help="alternating runs per line (minimum kept)")
    ap.add_argument("--no-cold", action="store_true", help="skip the R-cold column")
    ap.add_argument("--readme", action="store_true",
                    help="rewrite the peers table of docs/evidence/speed.md and the README's speed lines")
    args = ap.parse_args(argv)
    rows, cold_rows = [], []
    missed = peer_lines(quick=args.quick, rounds=args.rounds, rows=rows)
    if not args.no_cold:
        r_cold_lines(rows=cold_rows)
    print("all peer targets met" if not missed else f"{missed} peer target(s) missed")
    if args.readme:
        load = f"load average {os.getloadavg()[0]:.2f} at the end on {os.cpu_count()} cores"
        write_peers(rows, cold_rows, "python tools/bench_peers.py --readme", load, args.rounds)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of pycalib_r.dask: time and peak memory from 10^6 to 10^8 rows of Parquet.

For each size the script writes ``n`` rows (``p`` float64, ``y`` int8) as
Parquet files of ``--rows-per-file`` rows into a temporary directory
(removed at the end), starts a ``distributed.LocalCluster`` and times

* ``ece(p, y)`` and ``ece(p, y, strategy = "equal_freq")``,
* ``reliability_table(p, y)``,
* ``cal_platt(p, y)``,
* ``cal_test(p, y, method = "asymptotic")``,

each read from the Parquet files (every pass reads them again: nothing is
persisted). Peak resident memory is sampled every 20 ms in the client and
in each worker (the worker figure is the largest over the workers, above
their idle level). Up to ``--in-memory-max`` rows the same calls of the
in-memory pycalib_r run on the data read with pandas, for comparison.

Usage (one run; the machine is shared)::

    R_HOME=$(R RHOME) PYTHONPATH=$PWD python3 tools/bench_dask.py --sizes 1e6 1e7 1e8

Prints a Markdown table, row by row as measured (the README's figures come from it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time

import numpy as np


def _rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


class _Sampler:
    """Peak RSS of this process, sampled every 20 ms (a thread)."""

    def __init__(self):
        self.peak = _rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, _rss())

    def reset(self):
        self.peak = _rss()
        return self.peak

    def stop(self):
        self._stop.set()


def _worker_start(dask_worker=None):
    dask_worker._bench_sampler = _Sampler()
    return True


def _worker_reset(dask_worker=None):
    return dask_worker._bench_sampler.reset()


def _worker_peak(dask_worker=None):
    return dask_worker._bench_sampler.peak


def write_parquet(path: str, n: int, rows_per_file: int, seed: int = 25) -> None:
    """``n`` rows in files of ``rows_per_file`` rows, one chunk in memory at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    os.makedirs(path, exist_ok=True)
    for i, start in enumerate(range(0, n, rows_per_file)):
        m = min(rows_per_file, n - start)
        rng = np.random.default_rng([seed, i])
        p = rng.random(m)
        y = (rng.random(m) < p ** 1.2).astype(np.int8)
        pq.write_table(pa.table({"p": p, "y": y}), os.path.join(path, f"part-{i:05d}.parquet"))


# One-pass calls first: under load, the longest size's table fills in this order.
CALLS = [
    ("ece", lambda m, p, y: m.ece(p, y)),
    ("reliability_table", lambda m, p, y: m.reliability_table(p, y)),
    ("cal_test asymptotic", lambda m, p, y: m.cal_test(p, y, method="asymptotic")),
    ("ece equal_freq", lambda m, p, y: m.ece(p, y, strategy="equal_freq")),
    ("cal_platt", lambda m, p, y: m.cal_platt(p, y)),
]
HEADER = ("| rows | call | Dask s | client peak MB | worker peak MB | in-memory s | in-memory peak MB | rel. diff |\n"
          "|---:|---|---:|---:|---:|---:|---:|---|")


def _row(n, name, t, cmb, wmb, ts, smb, agree) -> str:
    mem_t = f"{ts:.2f}" if ts is not None else "-"
    mem_m = f"{smb:.0f}" if smb is not None else "-"
    return f"| {n:.0e} | {name} | {t:.2f} | {cmb:.0f} | {wmb:.0f} | {mem_t} | {mem_m} | {agree or '-'} |"


def run(sizes, rows_per_file, workers, in_memory_max):
    import dask.dataframe as dd
    import distributed
    import pandas as pd

    import pycalib_r as pc
    import pycalib_r.dask as pcd

    rows = []
    cluster = distributed.LocalCluster(processes=True, n_workers=workers, threads_per_worker=1,
                                       host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster)
    client.run(_worker_start)
    sampler = _Sampler()
    tmp = tempfile.mkdtemp(prefix="pycalib_r_bench_dask_")
    try:
        for n in sizes:
            path = os.path.join(tmp, f"n{n}")
            t0 = time.perf_counter()
            write_parquet(path, n, rows_per_file)
            t_write = time.perf_counter() - t0
            ddf = dd.read_parquet(path)
            p, y = ddf["p"], ddf["y"]
            if n == sizes[0]:
                # Imports and the compiled library's opening (in every worker, and here)
                # happen once per process: outside the timings.
                print(HEADER, flush=True)
                for name, call in CALLS:
                    if name in ("ece", "cal_platt"):
                        call(pcd, p, y)
                        if n <= in_memory_max:
                            frame = pd.read_parquet(path)
                            call(pc, frame["p"].to_numpy(), frame["y"].to_numpy())
            results = {}
            in_mem = {}
            if n <= in_memory_max:
                frame = pd.read_parquet(path)
                pm, ym = frame["p"].to_numpy(), frame["y"].to_numpy()
                del frame
                for name, call in CALLS:
                    base = sampler.reset()
                    t0 = time.perf_counter()
                    value = call(pc, pm, ym)
                    in_mem[name] = (value, time.perf_counter() - t0, sampler.peak - base)
                del pm, ym
            for name, call in CALLS:
                base_client = sampler.reset()
                base_workers = client.run(_worker_reset)
                t0 = time.perf_counter()
                value = call(pcd, p, y)
                elapsed = time.perf_counter() - t0
                peaks = client.run(_worker_peak)
                worker_peak = max(peaks[w] - base_workers[w] for w in peaks)
                results[name] = (value, elapsed, sampler.peak - base_client, worker_peak)
                value, elapsed, client_mb, worker_mb = results[name]
                mem = in_mem.get(name)
                agree = ""
                if mem is not None:
                    agree = _agreement(value, mem[0])
                rows.append((n, name, elapsed, client_mb / 2 ** 20, worker_mb / 2 ** 20,
                             mem[1] if mem else None, mem[2] / 2 ** 20 if mem else None, agree))
                print(_row(*rows[-1]), flush=True)
            print(f"# n = {n:.0e}: Parquet written in {t_write:.1f} s "
                  f"({sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path)) / 2 ** 20:.0f} MB, "
                  f"{ddf.npartitions} files)", flush=True)
            shutil.rmtree(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        sampler.stop()
        client.close()
        cluster.close()
    return rows


def _agreement(a, b) -> str:
    """The largest relative difference between a Dask and an in-memory result."""
    import pandas as pd

    if isinstance(a, float):
        return f"{abs(a - b) / abs(b):.1e}" if b else f"{abs(a - b):.1e}"
    if isinstance(a, pd.DataFrame):
        num = ["confidence", "accuracy"]  # gap = |accuracy - confidence| cancels
        x, z = a[num].to_numpy(), b[num].to_numpy()
        d = np.max(np.abs(x - z) / np.maximum(np.abs(z), 1e-300))
        return f"{d:.1e}"
    if hasattr(a, "coefficients"):
        grid = np.linspace(0.001, 0.999, 101)
        import pycalib_r as pc

        d = np.max(np.abs(pc.predict(a, grid) - pc.predict(b, grid)) / pc.predict(b, grid))
        return f"{d:.1e} (pred.)"
    if hasattr(a, "statistic"):
        za, zb = a.statistic["z"], b.statistic["z"]
        return f"{abs(za - zb) / abs(zb):.1e} (z)"
    return ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6, 1e7, 1e8])
    ap.add_argument("--rows-per-file", type=int, default=1 << 22)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--in-memory-max", type=float, default=1e7,
                    help="largest size also run in memory (10^8 rows need ~2 GB per copy)")
    ap.add_argument("--only", action="append", choices=[name for name, _ in CALLS],
                    help="time only this call (repeatable); default: all")
    args = ap.parse_args(argv)
    if args.only:
        CALLS[:] = [(name, call) for name, call in CALLS if name in args.only]
    sizes = [int(s) for s in args.sizes]
    rows = run(sizes, args.rows_per_file, args.workers, int(args.in_memory_max))
    print()
    print(HEADER)
    for row in rows:
        print(_row(*row))


if __name__ == "__main__":
    main()

"""The seed documents' printed examples, reproduced byte for byte.

The expected text is read from the seed files themselves (lines starting
with ``#> ``), never retyped.
"""

from __future__ import annotations

import numpy as np

import pycalib_r as pc


def seed_outputs(seeds_dir):
    """Every ``#>`` block of the cal_test and cal_ci help pages, in order."""
    blocks = []
    for name in sorted(p.name for p in seeds_dir.glob("*.txt")):
        text = (seeds_dir / name).read_text(encoding="utf-8")
        current = None
        for line in text.splitlines():
            if line.startswith("#>"):
                current = [] if current is None else current
                current.append(line[3:] if line.startswith("#> ") else line[2:])
            elif current is not None:
                blocks.append("\n".join(current))
                current = None
        if current is not None:
            blocks.append("\n".join(current))
    return blocks


def test_four_seed_examples_found(seeds_dir):
    assert len(seed_outputs(seeds_dir)) == 4


def test_seed_examples_print_identically(seeds_dir):
    expected = seed_outputs(seeds_dir)
    pc.set_seed(40)
    p = pc.runif(300)
    y = pc.rbinom(300, 1, p)
    got = [str(pc.cal_test(p, y))]
    pc.set_seed(41)
    p2 = pc.runif(300)
    y2 = pc.rbinom(300, 1, np.minimum(np.maximum(p2 - 0.25, 0), 1))
    got.append(str(pc.cal_test(p2, y2, data_name="p2 and y2")))
    pc.set_seed(42)
    p = pc.runif(300)
    y = pc.rbinom(300, 1, p)
    got.append(str(pc.cal_ci(p, y, metric="ece", bins=10, n_boot=199)))
    got.append(str(pc.cal_ci(p, y, metric="skce", n_boot=199)))
    assert got == expected


def test_series_names_give_data_name(seeds_dir):
    import pandas as pd

    pc.set_seed(41)
    p2 = pc.runif(300)
    y2 = pc.rbinom(300, 1, np.minimum(np.maximum(p2 - 0.25, 0), 1))
    res = pc.cal_test(pd.Series(p2, name="p2"), pd.Series(y2, name="y2"))
    assert str(res) == seed_outputs(seeds_dir)[1]

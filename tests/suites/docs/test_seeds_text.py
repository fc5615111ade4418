"""The help pages' printed examples, reproduced byte for byte.

The expected text is R's own output in probcal 0.2.0's ``cal_test()`` and
``cal_ci()`` help pages, stored in ``reference/help_examples.json`` by
``tools/store_help_examples.py`` (never retyped). Where the help-page
documents themselves are at hand (a ``shared/seeds`` folder beside the
checkout, or ``PYCALIB_R_SEEDS`` naming a folder), one test checks that the
stored copy still equals them; elsewhere it skips and nothing else needs them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV, REPO


def _seed_documents():
    env = os.environ.get("PYCALIB_R_SEEDS")
    if env:
        return Path(env)
    return REPO.parent / "shared" / "seeds"


def test_stored_help_examples_equal_the_help_pages():
    seeds = _seed_documents()
    if not seeds.is_dir():
        pytest.skip("the help-page documents are not beside this checkout (set PYCALIB_R_SEEDS "
                    "to their folder to compare); reference/help_examples.json stands in")
    out = subprocess.run([sys.executable, str(REPO / "tools" / "store_help_examples.py"),
                          str(seeds), "--check"], capture_output=True, text=True,
                         env=ORIGINAL_ENV, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


def test_four_examples_stored(help_examples):
    assert [e["topic"] for e in help_examples] == ["cal_test", "cal_test", "cal_ci", "cal_ci"]
    assert all(e["output"].startswith("\n── ") for e in help_examples)


def test_help_examples_print_identically(help_examples):
    expected = [e["output"] for e in help_examples]
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


def test_series_names_give_data_name(help_examples):
    import pandas as pd

    pc.set_seed(41)
    p2 = pc.runif(300)
    y2 = pc.rbinom(300, 1, np.minimum(np.maximum(p2 - 0.25, 0), 1))
    res = pc.cal_test(pd.Series(p2, name="p2"), pd.Series(y2, name="y2"))
    assert str(res) == help_examples[1]["output"]


@pytest.mark.r_parity
def test_contract_reproduces_help_examples(r, help_examples):
    """``pycalib_r/r/contract.R`` prints each stored help-page example byte for byte."""
    r.r("options(width = 80, cli.width = 80, cli.num_colors = 1, cli.unicode = TRUE)")
    # Sourced where print() finds its S3 methods, as the other contract tests do.
    r.r(f'source("{(REPO / "pycalib_r" / "r" / "contract.R").as_posix()}")')
    run = r.r("""function(code, call) {
      eval(parse(text = code), envir = globalenv())
      res <- eval(parse(text = call), envir = globalenv())
      paste(capture.output(print(res), type = "message"), collapse = "\\n")
    }""")
    got = []
    for example in help_examples:  # in order: the cal_ci examples share one stream
        setup = example["code"].splitlines()[:-1]
        got.append(run("\n".join(setup) or "NULL", example["call"])[0])
    assert got == [e["output"] for e in help_examples]

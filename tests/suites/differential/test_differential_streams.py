"""Random stream programs, run in R and in pycalib_r, compared bit for bit.

tests/_stream_programs.py generates the programs (reproducible by id: random
kind combinations, seeds, 3-8 calls over every exported distribution with
extreme parameters, ``sample()``, ``RNGkind`` changes and ``.Random.seed``
read-backs and restores); reference/r/diff_streams.R evaluates them in R.
Every call must give the same storage type, the same values bit for bit
(sign of zero included), the same warnings in order, the same error and the
same ``.Random.seed`` afterwards.

- ``PYCALIB_R_DIFF_STREAMS`` sets the number of live programs (default 200,
  about 20 s); ``PYCALIB_R_DIFF_STREAMS_START`` the first program id
  (default 1000: the stored sample holds 0-199; a held-out run uses another
  range, e.g. 1000000).
- A failure names the program id and its first differing call; rerun one
  program with ``PYCALIB_R_DIFF_STREAMS_START=<id> PYCALIB_R_DIFF_STREAMS=1``.
- reference/fixtures/diff_streams.json stores R's answers for programs
  0-199 (``python tools/make_diff_streams_fixture.py``); the stored test
  checks them without R.
"""

from __future__ import annotations

import json
import os
import warnings

import pytest

from tests import _stream_programs as sp
from tests._rcall import REPO

FIXTURE = REPO / "reference" / "fixtures" / "diff_streams.json"
COUNT = int(os.environ.get("PYCALIB_R_DIFF_STREAMS", "200"))
START = int(os.environ.get("PYCALIB_R_DIFF_STREAMS_START", "1000"))
BATCH = 250


def run_r(ro, programs):
    """R's result lines for each program (a list of lists)."""
    from rpy2.robjects import IntVector, StrVector

    calls, starts, sizes = [], [], []
    for prog in programs:
        sizes.append(len(prog))
        for i, c in enumerate(prog):
            calls.append(c.r)
            starts.append(1 if i == 0 else 0)
    lines = list(ro.r["diff_streams_run"](StrVector(calls), IntVector(starts)))
    out, pos = [], 0
    for k in sizes:
        out.append(lines[pos:pos + k])
        pos += k
    return out


@pytest.fixture(scope="module")
def streams_r(r):
    root = str(REPO).replace("\\", "/")
    r.r(f'source("{root}/reference/r/diff_streams.R")')
    yield r
    r.r('suppressWarnings(RNGkind("default", "default", "default"))')


def _check_range(ro, start, count):
    import pycalib_r as pc

    failures = []
    ids = list(range(start, start + count))
    for b in range(0, len(ids), BATCH):
        chunk = ids[b:b + BATCH]
        progs = [sp.program(pid) for pid in chunk]
        for pid, prog, lines in zip(chunk, progs, run_r(ro, progs)):
            msg = sp.check_program(pc, pid, prog, lines)
            if msg:
                failures.append(msg)
    sp.reset_python(pc)
    return failures


@pytest.mark.r_parity
def test_stream_programs_agree_with_live_r(streams_r):
    failures = _check_range(streams_r, START, COUNT)
    print(f"stream programs {START}..{START + COUNT - 1}: {COUNT - len(failures)} of {COUNT} agree")
    assert not failures, (f"{len(failures)} of {COUNT} stream programs differ from R:\n"
                          + "\n".join(failures[:15]))


def test_stored_stream_programs():
    """R's stored answers (no R needed): every call agrees."""
    import pycalib_r as pc

    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert data["salt"] == sp.SALT
    failures = []
    for entry in data["programs"]:
        prog = sp.program(entry["id"])
        assert [c.r for c in prog] == entry["calls"], f"program {entry['id']} changed"
        msg = sp.check_program(pc, entry["id"], prog, entry["r"])
        if msg:
            failures.append(msg)
    sp.reset_python(pc)
    assert len(data["programs"]) >= 200
    assert not failures, "\n".join(failures[:15])


def test_generator_is_reproducible_and_covers_the_kinds():
    seen_kinds, seen_fns = set(), set()
    for pid in range(400):
        a = [c.r for c in sp.program(pid)]
        assert a == [c.r for c in sp.program(pid)]
        for text in a:
            seen_fns.add(text.split("(")[0])
            for k in sp.KINDS + sp.NORMAL_KINDS + sp.SAMPLE_KINDS:
                if f'"{k}"' in text:
                    seen_kinds.add(k)
    assert seen_kinds == set(sp.KINDS + sp.NORMAL_KINDS + sp.SAMPLE_KINDS)
    # Issue 31: zero-length vectors and NULL reach n, the parameters, size and prob.
    texts = [c.r for pid in range(400) for c in sp.program(pid)]
    for pattern in ("(numeric(0)", "(integer(0)", "(NULL", ", numeric(0)", ", NULL",
                    "prob = numeric(0)", "prob = NULL", "rmultinom(", "sample(numeric(0)",
                    "sample.int(numeric(0)"):
        assert any(pattern in t and ("(0)" in t or "NULL" in t) for t in texts), pattern
    for fn in ("runif", "rnorm", "rbinom", "rexp", "rgamma", "rbeta", "rchisq", "rt", "rf",
               "rpois", "rgeom", "rnbinom", "rhyper", "rmultinom", "rlogis", "rweibull",
               "rcauchy", "rlnorm", "sample", "sample.int", "RNGkind", "set.seed"):
        assert fn in seen_fns, fn

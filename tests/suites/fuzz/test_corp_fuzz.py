"""Fuzz pass over the diagrams' arguments (issue 46, "Deliver").

``reliabilitydiag``, ``smece``, ``smooth_reliability_diagram``,
``reliability_table`` and ``reliability_diagram`` (and the summary's
``score``): every argument gets non-finite, huge, negative, wrong-type, empty
and wrong-shape values. Each call must either return or raise a
``ProbcalError`` (a ``ValueError``; ``MemoryError`` with R's allocation
message for a resample count that cannot fit) whose message or notes name the
argument (by its Python name or R's), within 60 s, in a child process limited
to 2 GB of address space, on 200 observations.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.conftest import child_json

_CHILD = textwrap.dedent("""
    import json, math, resource, sys, time, warnings
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    warnings.simplefilter("ignore")
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import pycalib_r as pc

    g = pc.RRandom(9)
    n = 200
    P = g.runif(n)
    Y = g.rbinom(n, 1, P)

    SCALARS = {
        "nan": math.nan, "inf": math.inf, "-inf": -math.inf, "huge": 1e300,
        "huge_int": 10 ** 12, "int64_overflow": 2 ** 63, "negative": -1, "zero": 0,
        "str": "a", "object": object(), "list2": [1, 2], "empty": [], "matrix": np.zeros((2, 2)),
        "none": None, "bool": True, "float_int": 5.0,
    }
    DATA = {
        "nan": np.r_[math.nan, P[1:]], "inf": np.r_[math.inf, P[1:]], "huge": P * 1e300,
        "negative": -P, "str": np.array(["a"] * n), "object": [object()] * n, "empty": [],
        "short": P[:-1], "matrix3d": np.zeros((n, 2, 2)), "none": None, "scalar": 0.5,
        "bool": P > 0.5,
    }
    LABELS = {
        "nan": np.r_[math.nan, Y[1:]], "inf": np.r_[math.inf, Y[1:]], "huge": Y * 1e300,
        "negative": -Y, "str": np.array(["a"] * n), "empty": [], "short": Y[:-1],
        "matrix": np.zeros((n, 3)), "none": None, "two": Y + 1,
    }

    def calls():
        rd = lambda **kw: pc.reliabilitydiag(**{"p": P, "y": Y, "n_boot": 20, "rng": 1, **kw})
        sm = lambda **kw: pc.smece(**{"p": P, "y": Y, **kw})
        srd = lambda **kw: pc.smooth_reliability_diagram(**{"p": P, "y": Y, "n_boot": 20,
                                                              "rng": 1, **kw})
        rt = lambda **kw: pc.reliability_table(**{"p": P, "y": Y, **kw})
        rdg = lambda **kw: pc.reliability_diagram(**{"p": P, "y": Y, **kw})
        summ = lambda **kw: pc.reliabilitydiag(P, Y, region_level=None).summary(**kw)
        table = {
            ("reliabilitydiag", rd, ("region.level", "region_level")): ["region_level"],
            ("reliabilitydiag", rd, ("region.method", "region_method")): ["region_method"],
            ("reliabilitydiag", rd, ("region.position", "region_position")): ["region_position"],
            ("reliabilitydiag", rd, ("n.boot", "n_boot")): ["n_boot"],
            ("reliabilitydiag", rd, ("xtype",)): ["xtype"],
            ("reliabilitydiag", rd, ("xvalues",)): ["xvalues"],
            ("reliabilitydiag", rd, ("type",)): ["type"],
            ("reliabilitydiag", rd, ("rng",)): ["rng"],
            ("smece", sm, ("type",)): ["type"],
            ("smece", sm, ("sigma",)): ["sigma"],
            ("smece", sm, ("return_sigma",)): ["return_sigma"],
            ("smooth_reliability_diagram", srd, ("type",)): ["type"],
            ("smooth_reliability_diagram", srd, ("n_boot",)): ["n_boot"],
            ("smooth_reliability_diagram", srd, ("level",)): ["level"],
            ("smooth_reliability_diagram", srd, ("sigma",)): ["sigma"],
            ("smooth_reliability_diagram", srd, ("rng",)): ["rng"],
            ("reliability_table", rt, ("bins",)): ["bins"],
            ("reliability_table", rt, ("type",)): ["type"],
            ("reliability_table", rt, ("strategy",)): ["strategy"],
            ("reliability_table", rt, ("conf_level",)): ["conf_level"],
            ("reliability_diagram", rdg, ("bins",)): ["bins"],
            ("reliability_diagram", rdg, ("strategy",)): ["strategy"],
            ("reliability_diagram", rdg, ("conf_level",)): ["conf_level"],
            ("summary", summ, ("score",)): ["score"],
        }
        for (fname, fn, names), (arg,) in table.items():
            for label, value in SCALARS.items():
                yield fname, arg, label, names, (lambda fn=fn, arg=arg, value=value:
                                                 fn(**{arg: value}))
        for fname, fn in (("reliabilitydiag", rd), ("smece", sm),
                          ("smooth_reliability_diagram", srd), ("reliability_table", rt),
                          ("reliability_diagram", rdg)):
            for label, value in DATA.items():
                yield fname, "p", label, ("p", "X"), lambda fn=fn, value=value: fn(p=value)
            for label, value in LABELS.items():
                yield fname, "y", label, ("y",), lambda fn=fn, value=value: fn(y=value)

    out = []
    for fname, arg, label, names, call in calls():
        t0 = time.perf_counter()
        try:
            call()
            kind, text = "ok", ""
        except (ValueError, MemoryError) as exc:
            kind = type(exc).__name__
            text = str(exc) + " " + " ".join(getattr(exc, "__notes__", []))
        except Exception as exc:  # a raw error: reported
            kind, text = "RAW " + type(exc).__name__, str(exc)
        named = any(f"`{a}`" in text or a in text.split("(")[0] or f"{a} " in text
                    or f"({a}" in text or f"{a})" in text or f"'{a}'" in text or f"{a}," in text
                    or f"{a} " in text for a in names)
        import matplotlib.pyplot as plt
        plt.close("all")
        out.append([fname, arg, label, kind, named, time.perf_counter() - t0, text[:300]])
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def fuzz_results():
    return child_json(_CHILD, timeout=1200)


def test_fuzz_gives_no_raw_error(fuzz_results):
    raw = [r for r in fuzz_results if r[3].startswith("RAW")]
    assert not raw, "\n".join(map(str, raw))


def test_fuzz_errors_name_the_argument(fuzz_results):
    unnamed = [r for r in fuzz_results if r[3] != "ok" and not r[4]]
    assert not unnamed, "\n".join(map(str, unnamed))


def test_fuzz_calls_are_bounded_in_time(fuzz_results):
    # the child's 2 GB limit bounds the memory (an excess would be a raw MemoryError
    # or the child's death); no call may take a minute
    slow = [r for r in fuzz_results if r[5] > 60]
    assert not slow, "\n".join(map(str, slow))
    assert len(fuzz_results) > 400

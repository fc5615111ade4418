"""Fuzz pass over hoslem_test, val_prob (plain and grouped) and cal_intercept_slope (issue 46).

Every argument gets non-finite, huge, negative, zero, wrong-type, empty and
wrong-shape values on 200 observations. Each call must end with a result or a
``ProbcalError`` whose message or notes name the argument, within 60 s and
2 GB: the calls run in a child process under ``resource.setrlimit`` (2 GB of
address space) with a 60 s alarm per call, so a regression fails instead of
hanging or swapping the machine. R's own messages for these arguments are
checked live in tests/diagnostics/test_validation_args.py.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.conftest import child_json


_CHILD = textwrap.dedent("""
    import json, resource, signal, sys, time, warnings
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    warnings.simplefilter("ignore")
    import numpy as np
    import pycalib_r as pc

    pc.set_seed(1)
    p = pc.runif(200)
    y = pc.rbinom(200, 1, p)
    grp = pc.runif(200)
    VALUES = {
        "nan": float("nan"), "inf": float("inf"), "-inf": float("-inf"), "1e300": 1e300,
        "10**12": 10 ** 12, "2**63": 2 ** 63, "-1": -1, "0": 0, "-0.5": -0.5, "str": "a",
        "digits": "10", "object": object(), "dict": {"a": 1}, "empty": [], "None": None,
        "complex": 1j, "bool": True, "matrix": np.full((200, 3), 0.3), "cube": np.zeros((2, 2, 2)),
        "short": [0.5, 0.5], "nan_vector": np.full(200, np.nan), "negative_vector": -p,
        "huge_vector": p * 1e300, "string_vector": np.array(["a"] * 200),
        "masked": np.ma.masked_array(p, mask=np.arange(200) == 7),
    }
    CALLS = {
        "hoslem_test": (pc.hoslem_test, dict(x=y, y=p), ["x", "y", "g", "data_name"]),
        "val_prob": (pc.val_prob, dict(p=p, y=y),
                     ["p", "y", "logit", "group", "weights", "smooth", "logistic_cal", "normwt",
                      "g_group", "evaluate", "nmin"]),
        "val_prob(group=)": (pc.val_prob, dict(p=p, y=y, group=grp),
                             ["weights", "normwt", "g_group", "evaluate", "nmin"]),
        "cal_intercept_slope": (pc.cal_intercept_slope, dict(p=p, y=y),
                                ["p", "y", "conf_level", "profile"]),
    }
    HEAVY = {  # the largest work the arguments allow on 200 observations
        "hoslem_test(g=2**20)": lambda: pc.hoslem_test(y, p, g=2 ** 20),
        "hoslem_test(g=2**20 + 1)": lambda: pc.hoslem_test(y, p, g=2 ** 20 + 1),
        "hoslem_test(g=2**31 - 1)": lambda: pc.hoslem_test(y, p, g=2 ** 31 - 1),
        "val_prob(g_group=2**31 // 200)": lambda: pc.val_prob(p, y, group=grp,
                                                              g_group=2 ** 31 // 200),
        "val_prob(g_group=2**31)": lambda: pc.val_prob(p, y, group=grp, g_group=2 ** 31),
        "val_prob(g_group=2**50)": lambda: pc.val_prob(p, y, group=grp, g_group=2 ** 50),
        "val_prob(evaluate=199)": lambda: pc.val_prob(p, y, group=grp, evaluate=199),
    }

    class Slow(BaseException):
        pass

    def alarm(*args):
        raise Slow()

    signal.signal(signal.SIGALRM, alarm)

    def run(fn):
        start = time.time()
        signal.alarm(60)
        try:
            fn()
            kind, text = "value", ""
        except pc.ProbcalError as exc:
            kind = "ProbcalError"
            text = " ".join([str(exc), *getattr(exc, "__notes__", [])])
        except Slow:
            kind, text = "slow", ""
        except BaseException as exc:
            kind, text = type(exc).__name__, str(exc)
        finally:
            signal.alarm(0)
        return kind, text, time.time() - start

    out = []
    for name, (fn, base, args) in CALLS.items():
        for arg in args:
            for label, value in VALUES.items():
                kw = dict(base)
                kw[arg] = value
                if arg == "logit":
                    kw.pop("p")
                kind, text, seconds = run(lambda: fn(**kw))
                out.append([name, arg, label, kind, text, seconds])
    for name, fn in HEAVY.items():
        kind, text, seconds = run(fn)
        out.append([name, "", "", kind, text, seconds])
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"calls": out, "max_rss": rss}))
""")


@pytest.fixture(scope="module")
def fuzz_results():
    return child_json(_CHILD, timeout=1800)


def _names(arg: str, text: str) -> bool:
    return any(form in text for form in (f"`{arg}`", f"'{arg}'", f" {arg} ", f'"{arg}"'))


def test_every_argument_is_answered_by_a_message_naming_it(fuzz_results):
    calls = [c for c in fuzz_results["calls"] if c[1]]
    assert len(calls) > 500
    raw = [c[:5] for c in calls if c[3] not in ("value", "ProbcalError")]
    assert not raw, raw[:10]
    unnamed = [c[:5] for c in calls if c[3] == "ProbcalError" and not _names(c[1], c[4])
               # a missing p is R's message about logit, with a note naming `p`
               and not (c[1] == "p" and "`p`" in c[4])]
    assert not unnamed, unnamed[:10]
    # the wrong-type and wrong-shape values of the data arguments are refused
    for fname, arg in [("hoslem_test", "x"), ("hoslem_test", "y"), ("val_prob", "p"),
                       ("val_prob", "y"), ("cal_intercept_slope", "p"),
                       ("cal_intercept_slope", "y")]:
        kinds = {c[2]: c[3] for c in calls if c[0] == fname and c[1] == arg}
        for label in ("str", "object", "dict", "empty", "None", "cube", "nan_vector",
                      "string_vector", "masked", "short"):
            assert kinds[label] == "ProbcalError", (fname, arg, label)


def test_no_call_exceeds_60_s_or_2_gb(fuzz_results):
    slow = [c[:4] + [c[5]] for c in fuzz_results["calls"] if c[3] == "slow" or c[5] > 60]
    assert not slow, slow
    assert fuzz_results["max_rss"] < 2 << 30
    heavy = {c[0]: c for c in fuzz_results["calls"] if not c[1]}
    assert heavy["hoslem_test(g=2**20)"][3] == "value"
    for name in ("hoslem_test(g=2**20 + 1)", "hoslem_test(g=2**31 - 1)",
                 "val_prob(g_group=2**31 // 200)", "val_prob(g_group=2**31)",
                 "val_prob(g_group=2**50)"):
        assert heavy[name][3] == "ProbcalError", heavy[name]

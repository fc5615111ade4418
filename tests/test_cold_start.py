"""A new process pays only for what it uses (issues 23 and 38): the light
import, the gate that loads numba only where it pays (in a thread, in idle
time, so a first call runs the twins and the second of its kind the
kernels), safe under forks, pools, threads and Ctrl-C, and no warning
without a cache.

Each case runs in a child process (the state under test is per process).
The times themselves are measured by tools/cold_start.py, not here.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ORIGINAL_ENV, REPO


def _child_run(code, **env):
    base = {k: v for k, v in ORIGINAL_ENV.items() if k != "PYCALIB_R_JIT"}  # the gate's default unless given
    return subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True,
                          env=dict(base, PYTHONPATH=str(REPO), **env), timeout=900)


def _child(code, **env):
    run = _child_run(code, **env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


_DATA = ("import sys, json; import numpy as np; import pycalib_r as pc\n"
         "g = np.random.default_rng(11); n = {n}\n"
         "z = g.normal(0, 2, n); y = (g.random(n) < 1 / (1 + np.exp(-z / 2))).astype(np.int64)\n")


def test_import_loads_no_heavy_module():
    out = _child("import sys, json; import pycalib_r\n"
                 "print(json.dumps([m for m in ('scipy', 'scipy.special', 'pandas', 'numba', 'sklearn',"
                 " 'matplotlib', 'rpy2') if m in sys.modules]))")
    assert out == []


def test_small_first_call_runs_the_twins_with_the_compiled_bits():
    code = _DATA.format(n=50_000) + (
        "from pycalib_r import _jit\n"
        "f = pc.cal_platt(z, y); scipy = 'scipy.special' in sys.modules; t = pc.cal_temperature(z, y)\n"
        "print(json.dumps({'gate': _jit.state(), 'scipy': scipy, 'numba': 'numba' in sys.modules,"
        " 'bits': [float(v).hex() for v in (*f.coefficients.values(), t.temperature)]}))")
    default = _child(code)
    forced = _child(code, PYCALIB_R_JIT="1")
    # (cal_platt's few passes use the math module's glibc functions; the
    # temperature fit's evaluations pay for scipy.special's import.) numba
    # may be loading in the gate's thread by now, between the calls.
    assert not default["scipy"]
    assert default["gate"]["compiled"] == 0 and default["gate"]["twins"] > 0
    assert default["gate"]["by"] in (None, "background")
    assert forced["numba"] and forced["gate"]["by"] == "caller" and forced["gate"]["twins"] == 0
    assert default["bits"] == forced["bits"]


def test_a_long_session_ends_up_compiled():
    # Each fit gives up less than numba's load would cost; together they
    # reach twice that, and the gate loads numba (the ski-rental rule).
    code = _DATA.format(n=200_000) + (
        "seen = []\n"
        "for _ in range(200):\n"
        "    pc.cal_platt(z, y); seen.append('numba' in sys.modules)\n"
        "    if seen[-1]:\n"
        "        break\n"
        "print(json.dumps(seen))")
    seen = _child(code)
    assert not seen[0] and seen[-1]


def test_no_warning_when_numba_cannot_cache():
    # No cache locator finds a writable place (as for an installed package
    # with HOME=/nonexistent): the kernel compiles in memory, silently, with
    # the twin's bits; a call whose savings are small does not compile at all.
    code = ("import json, numpy as np\n"
            "from numba.core import caching\n"
            "caching.CacheImpl._locator_classes = []\n"
            "from pycalib_r import _jit, _rarith\n"
            "x = np.random.default_rng(0).random(30_000) + 0.5\n"
            "small = _jit.kernels('pycalib_r.rbase._libm_kernels', float_math=True, saves=0.5)\n"
            "k = _jit.kernels('pycalib_r.rbase._libm_kernels', float_math=True)\n"
            "out = np.empty(x.size); k.log_into(x, out)\n"
            "_rarith._sp = None\n"
            "print(json.dumps({'small': small is None, 'same': bool("
            " np.array_equal(out, _rarith.special().xlogy(1.0, x)))}))")
    assert _child(code, HOME="/nonexistent") == {"small": True, "same": True}


# --- the loading thread (issue 38, item 5) -------------------------------------

_MULTI = ("g = np.random.default_rng(5); n, k = {n}, {k}\n"
          "pm = g.dirichlet(np.ones(k), size=n); u = g.random(n)[:, None]\n"
          "ym = np.minimum((u > np.cumsum(pm, axis=1)).sum(axis=1) + 1, k); zm = np.log(pm)\n")

# kind: (data, call, the result's bits)
_KINDS = {
    "cal_test": (_MULTI.format(n=1_500, k=10), "pc.cal_test(pm, ym, n_boot=199, rng=pc.RRandom(1), progress=False)",
                 "[r.statistic['SKCE_uq'], r.p_value]"),
    "ece": (_DATA.format(n=100_000), "pc.ece(1 / (1 + np.exp(-z)), y)", "[r]"),
    "cal_dirichlet": (_MULTI.format(n=450, k=10), "pc.cal_dirichlet(pm, ym)",
                      "[*np.ravel(r.weight), *np.ravel(r.bias)]"),
    "cal_platt": (_DATA.format(n=50_000), "pc.cal_platt(z, y)", "list(r.coefficients.values())"),
    "cal_temperature": (_MULTI.format(n=20_000, k=10), "pc.cal_temperature(zm, ym)", "[r.temperature]"),
    "cal_cv": (_DATA.format(n=50_000), 'pc.cal_cv(1 / (1 + np.exp(-z)), y, method="platt", rng=pc.RRandom(1))',
               "r.oof_predictions[:5]"),
}

_SWITCH = ("import sys, json; import numpy as np; import pycalib_r as pc\n"
           "from pycalib_r import _jit\n{data}\n"
           "r = {call}; bits1 = [float(v).hex() for v in {bits}]; gate1 = _jit.state()\n"
           "ready = _jit.wait(120)\n"
           "mods = sorted(m for m in _jit._modules if _jit._modules[m] is not None)\n"
           "def sigs():\n"
           "    return sorted(f'{{m.__name__}}.{{k}}{{s}}' for m in list(sys.modules.values())\n"
           "                  if getattr(m, '__name__', '').startswith('pycalib_r') for k, v in vars(m).items()\n"
           "                  if hasattr(v, 'py_func') and hasattr(v, 'signatures') for s in v.signatures)\n"
           "before = sigs()\n"
           "r = {call}; bits2 = [float(v).hex() for v in {bits}]; gate2 = _jit.state()\n"
           "new = sorted(set(sigs()) - set(before))\n"
           "print(json.dumps({{'gate1': gate1, 'ready': ready, 'gate2': gate2, 'mods': mods,"
           " 'bits1': bits1, 'bits2': bits2, 'new': new}}))")


def _bits_code(kind):
    data, call, bits = _KINDS[kind]
    return _SWITCH.format(data=data, call=call, bits=bits)


@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_first_call_runs_the_twins_the_second_the_kernels_with_the_same_bits(kind):
    # A process with numba forced on first writes the disk cache of every
    # kernel this kind runs (as after an install's first use; a fresh clone
    # has none), which the loading thread then loads ahead.
    _child(_bits_code(kind), PYCALIB_R_JIT="1")
    out = _child(_bits_code(kind))
    g1, g2 = out["gate1"], out["gate2"]
    # the first call: the twins only; its savings start the loading thread
    assert not g1["loaded"] and g1["compiled"] == 0 and g1["twins"] > 0 and g1["by"] is None
    assert g1["forgone"] >= 0.01  # _BG_AT of the load: the thread was started
    # the idle time after it: numba and the kernel modules the uses asked for are loaded
    assert out["ready"] and g2["by"] == "background" and g2["error"] is None, out
    assert out["mods"]
    # the second call: no twin any more, and where the uses go through the
    # gate's count, compiled ones (cal_dirichlet's BFGS asks loaded())
    assert g2["twins"] == g1["twins"]
    if kind == "cal_dirichlet":
        assert "pycalib_r.calibrators._bfgs_kernels" in out["mods"]
    else:
        assert g2["compiled"] > 0
    # the loading thread loaded ahead every kernel the second call runs (from
    # the disk cache): none is loaded, or compiled, by the call
    assert out["new"] == [], out["new"]
    # the path switched mid-session; the bits did not, nor against the twins-only process
    assert out["bits1"] == out["bits2"]
    assert _child(_bits_code(kind), PYCALIB_R_JIT="0")["bits2"] == out["bits1"]


def test_jit_0_never_loads_and_jit_1_loads_in_the_callers_thread():
    code = (_DATA.format(n=200_000) + "import threading, time; from pycalib_r import _jit\n"
            "for _ in range(3):\n    pc.ece(1 / (1 + np.exp(-z)), y); time.sleep(0.5)\n"
            "print(json.dumps({'gate': _jit.state(), 'numba': 'numba' in sys.modules,"
            " 'threads': [t.name for t in threading.enumerate()]}))")
    off = _child(code, PYCALIB_R_JIT="0")
    assert not off["numba"] and off["gate"]["by"] == "off" and off["gate"]["compiled"] == 0
    assert "pycalib_r-jit-load" not in off["threads"]
    on = _child(code, PYCALIB_R_JIT="1")
    assert on["numba"] and on["gate"]["by"] == "caller" and on["gate"]["twins"] == 0
    assert "pycalib_r-jit-load" not in on["threads"]


def test_the_loading_thread_waits_for_idle_time_and_exit_does_not_wait_for_it():
    # While a call runs (here: a thread inside pycalib_r), the loading thread
    # takes no step; the process may end while it loads, silently.
    code = (_DATA.format(n=100_000) + "import threading, time; from pycalib_r import _jit\n"
            "from pycalib_r.rbase import _rarith\n"
            "hold = threading.Event(); go = threading.Event()\n"
            "def busy():\n    _rarith.quiet_fp(lambda: (go.set(), hold.wait()))()\n"
            "t = threading.Thread(target=busy); t.start(); go.wait()\n"
            "p = 1 / (1 + np.exp(-z)); pc.ece(p, y); started = _jit.state()['loading']\n"
            "time.sleep(0.6); during = 'numba' in sys.modules or not started\n"
            "hold.set(); t.join()\n"
            "deadline = time.monotonic() + 60\n"
            "while 'numba' not in sys.modules and time.monotonic() < deadline:\n    time.sleep(0.001)\n"
            "print(json.dumps({'during': during, 'after': 'numba' in sys.modules}))\n"
            "sys.stdout.flush()\n")  # and end here, the thread probably inside numba's import
    run = _child_run(code)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == {"during": False, "after": True}


def test_threads_calling_at_once_share_one_loading_thread():
    code = (_DATA.format(n=100_000) + "import threading; from pycalib_r import _jit\n"
            "p = 1 / (1 + np.exp(-z)); want = pc.ece(p, y); out = []; names = set()\n"
            "def work():\n"
            "    for _ in range(20):\n"
            "        out.append(pc.ece(p, y) == want)\n"
            "        names.update(t.name for t in threading.enumerate())\n"
            "ts = [threading.Thread(target=work) for _ in range(4)]\n"
            "[t.start() for t in ts]; [t.join() for t in ts]\n"
            "ready = _jit.wait(120); last = pc.ece(p, y) == want\n"
            "loaders = sum(t.name == 'pycalib_r-jit-load' for t in threading.enumerate())\n"
            "print(json.dumps({'all': all(out), 'n': len(out), 'ready': ready, 'last': last,"
            " 'loaders': loaders, 'gate': _jit.state()}))")
    out = _child(code)
    assert out["all"] and out["n"] == 80 and out["ready"] and out["last"] and out["loaders"] == 0
    assert out["gate"]["compiled"] > 0 and out["gate"]["error"] is None


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGINT")
def test_ctrl_c_during_the_load_leaves_it_to_finish():
    code = (_DATA.format(n=100_000) + "import signal, time; from pycalib_r import _jit\n"
            "p = 1 / (1 + np.exp(-z)); want = pc.ece(p, y)\n"
            "deadline = time.monotonic() + 60\n"
            "while not _jit._in_step and time.monotonic() < deadline:\n    time.sleep(0.0005)\n"
            "caught = False\n"
            "try:\n    signal.raise_signal(signal.SIGINT); time.sleep(1)\n"
            "except KeyboardInterrupt:\n    caught = True\n"
            "ready = _jit.wait(120)\n"
            "print(json.dumps({'caught': caught, 'ready': ready, 'same': pc.ece(p, y) == want,"
            " 'gate': _jit.state()}))")
    out = _child(code)
    assert out["caught"] and out["ready"] and out["same"]
    assert out["gate"]["by"] == "background" and out["gate"]["compiled"] > 0


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_spawn_and_forkserver_pools_while_the_parent_loads(method):
    if method not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip(f"no {method} here")
    code = (_DATA.format(n=100_000) + "import time; from concurrent.futures import ProcessPoolExecutor\n"
            "import multiprocessing as mp; from pycalib_r import _jit\n"
            "p = 1 / (1 + np.exp(-z)); want = pc.ece(p, y)\n"
            "def one(i):\n    return pc.ece(p, y)\n"
            "if __name__ == '__main__':\n"
            "    with ProcessPoolExecutor(2, mp_context=mp.get_context('" + method + "')) as ex:\n"
            "        got = list(ex.map(one, range(4)))\n"
            "    print(json.dumps({'same': all(g == want for g in got), 'ready': _jit.wait(120)}))")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pool_child.py")
        with open(path, "w") as f:
            f.write(code)
        base = {k: v for k, v in ORIGINAL_ENV.items() if k != "PYCALIB_R_JIT"}
        run = subprocess.run([sys.executable, path], capture_output=True, text=True, timeout=600,
                             env=dict(base, PYTHONPATH=str(REPO)), cwd=tmp)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.splitlines()[-1]) == {"same": True, "ready": True}

"""A new process pays only for what it uses (issue 23): the light import, the
gate that loads numba only where it pays, and no warning without a cache.

Each case runs in a child process (the state under test is per process).
The times themselves are measured by tools/cold_start.py, not here.
"""

import json
import subprocess
import sys

from tests.conftest import ORIGINAL_ENV, REPO


def _child(code, **env):
    run = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True,
                         env=dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), **env), timeout=900)
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
        "f = pc.cal_platt(z, y); scipy = 'scipy.special' in sys.modules; t = pc.cal_temperature(z, y)\n"
        "print(json.dumps({'numba': 'numba' in sys.modules, 'scipy': scipy,"
        " 'bits': [float(v).hex() for v in (*f.coefficients.values(), t.temperature)]}))")
    default = _child(code)
    forced = _child(code, PYCALIB_R_JIT="1")
    # (cal_platt's few passes use the math module's glibc functions; the
    # temperature fit's evaluations pay for scipy.special's import.)
    assert not default["numba"] and not default["scipy"]
    assert forced["numba"]
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

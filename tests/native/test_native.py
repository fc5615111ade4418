"""The compiled layer as a whole: built at install, listed in its manifest,
switched off by ``PYCALIB_R_NATIVE=0``, never compiling while a user waits.

The kernels' bits against their numpy twins are tested room by room
(tests/native/test_native_*.py); here: every kernel is in the manifest with a twin
that exists, both ways of the switch give the same public results, no
process imports numba, and an installed wheel (and an install without a C
compiler, which runs the twins) works from a fresh virtual environment.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pycalib_r import _native
from pycalib_r._native import _manifest
from tests.conftest import ORIGINAL_ENV, REPO

NATIVE = REPO / "pycalib_r" / "_native"


def _resolve(dotted: str):
    """The object a dotted twin name points at (module attribute chain)."""
    parts = dotted.split(" ")[0].split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def test_every_exported_c_function_is_in_the_manifest():
    # A kernel is a PCR_API function of src/*.c; each (but the library's own
    # bookkeeping) is called by a room module listed in the manifest.
    exported = set()
    for src in NATIVE.glob("src/*.c"):
        text = src.read_text()
        exported |= set(re.findall(r"PCR_API\s+[\w\s\*]+?\b(pcr_\w+)\s*\(", text))
        # kernels stamped out by a macro: NAME(pcr_..., type)
        exported |= set(re.findall(r"^[A-Z_]+\((pcr_\w+),", text, re.M))
    bookkeeping = {"pcr_abi_version", "pcr_long_double_digits", "pcr_set_libm", "pcr_set_exp_table", "pcr_d2d_disagree",
                   "pcr_exp_block_usable"}
    rooms = {row[0] for row in _manifest.KERNELS}
    called = set()
    for room in rooms:
        called |= set(re.findall(r"\"(pcr_\w+)\"", (NATIVE / f"{room}.py").read_text()))
    assert exported - bookkeeping <= called, "C kernels no room module calls"
    assert called <= exported


@pytest.mark.parametrize("row", _manifest.KERNELS, ids=lambda r: f"{r[0]}.{r[1]}")
def test_manifest_rows_name_real_kernels_and_twins(row):
    room, func, source, twin, calls, needs = row
    assert (NATIVE / source).is_file()
    assert needs in ("x87", "glibc", "-") or set(needs.split(",")) <= {"x87", "glibc"}
    assert calls
    _resolve(twin)  # the twin exists
    if _native.available():
        assert callable(getattr(_native.kernels(room), func))


def test_show_config_says_which_path_runs(capsys):
    import pycalib_r as pc

    cfg = pc.show_config(mode="dicts")
    assert capsys.readouterr().out == ""
    assert cfg["native"] is _native.available()
    if cfg["native"]:
        assert cfg["status"] == "loaded" and cfg["library"].endswith(".so")
    assert pc.show_config() is None
    assert f"native: {cfg['native']}\nstatus: {cfg['status']}\n" in capsys.readouterr().out
    with pytest.raises(ValueError, match="`mode` must be"):
        pc.show_config(mode="json")


def _child(code: str, **env) -> dict:
    e = dict(ORIGINAL_ENV, PYTHONPATH=str(REPO), **env)
    out = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300,
                         cwd=str(REPO))
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


_CALLS = """
import json, sys
import numpy as np
import pycalib_r as pc
g = np.random.default_rng(7)
n = 60_000
p = g.random(n); y = (g.random(n) < p).astype(np.int64)
z = 2 * g.normal(size=(n, 4)); k = g.integers(1, 5, n)
P = np.exp(z) / np.exp(z).sum(1, keepdims=True)
out = {
  "ece": pc.ece(p, y), "ece_cw": pc.ece(P, k, type="classwise"), "mce": pc.mce(p, y),
  "platt": list(pc.cal_platt(p, y).coefficients.values()),
  "temp": pc.cal_temperature(z, k).temperature,
  "iso": pc.predict(pc.cal_isotonic(p, y), p[:50]).tolist(),
}
pc.set_seed(3); out["runif"] = pc.runif(5).tolist(); out["sample"] = pc.sample(10 ** 6, 5).tolist()
pc.set_seed(4); out["test"] = pc.cal_test(P[:800], k[:800], type="canonical", n_boot=49).p_value
out = {key: [float(v).hex() for v in np.atleast_1d(val)] for key, val in out.items()}
out["numba"] = "numba" in sys.modules
out["native"] = __import__("pycalib_r._native", fromlist=["x"]).available()
print(json.dumps(out))
"""


def test_both_ways_of_the_switch_give_the_same_bits_and_never_numba():
    # NUMBA_DISABLE_JIT=1 (numba's debugging switch) once crashed calls
    # through numba's intrinsics (issue 46 item 23): nothing here reads it.
    on = _child(_CALLS, NUMBA_DISABLE_JIT="1")
    off = _child(_CALLS, PYCALIB_R_NATIVE="0")
    assert off.pop("native") is False
    assert on.pop("native") is _native.available()
    assert on.pop("numba") is False and off.pop("numba") is False
    assert on == off


def _venv(tmp_path, name):
    venv = tmp_path / name
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    return venv / "bin" / "python"


def _wheel(source, out, env=None):
    """Build a wheel of ``source`` with this interpreter's build tools (a
    fresh venv's own setuptools may predate the metadata this project uses)."""
    e = dict(ORIGINAL_ENV, **(env or {}))
    e.pop("PYTHONPATH", None)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "-w", str(out), str(source)], check=True, timeout=900,
                   capture_output=True, env=e, cwd="/")
    (wheel,) = Path(out).glob("pycalib_r-*.whl")
    return wheel


def _install(py, wheel):
    e = dict(ORIGINAL_ENV)
    e.pop("PYTHONPATH", None)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                    str(wheel)], check=True, timeout=900, env=e, capture_output=True, cwd="/")


_DEMO_CHECK = ("import json, pycalib_r, pycalib_r._native as n; "
               "print(json.dumps({'file': pycalib_r.__file__, 'native': n.available(), 'status': n._state['status']}))")


def test_wheel_installs_into_a_fresh_venv_and_runs_the_demo(tmp_path):
    # The wheel carries the built library (stable ABI: one wheel for every
    # Python >= 3.10); installed into a fresh virtual environment, away from
    # the source tree, the demo runs on it.
    wheel = _wheel(REPO, tmp_path / "wheels")
    assert "-cp310-abi3-" in wheel.name
    py = _venv(tmp_path, "venv")
    _install(py, wheel)
    env = {k: v for k, v in ORIGINAL_ENV.items() if k != "PYTHONPATH"}
    got = json.loads(subprocess.run([str(py), "-c", _DEMO_CHECK], env=env, capture_output=True, text=True,
                                    check=True, cwd="/", timeout=120).stdout)
    assert got["native"] is True and str(tmp_path) in got["file"]
    demo = subprocess.run([str(py), "-m", "pycalib_r", "demo"], env=env, capture_output=True, text=True,
                          cwd="/", timeout=600)
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "Kernel calibration test" in demo.stdout


def test_install_without_a_compiler_runs_the_twins(tmp_path):
    # No C compiler: pip install still succeeds (the extension is optional),
    # and the package says, in one place, that the numpy twins run.
    src = tmp_path / "src"
    subprocess.run(["git", "clone", "-q", str(REPO), str(src)], check=True, timeout=300)
    # The clone has the committed sources only; this checkout's uncommitted
    # edits are not part of what is tested here.
    wheel = _wheel(src, tmp_path / "wheels", env={"CC": "/bin/false", "LDSHARED": "/bin/false"})
    py = _venv(tmp_path, "venv")
    _install(py, wheel)
    env = {k: v for k, v in ORIGINAL_ENV.items() if k != "PYTHONPATH"}
    run = subprocess.run([str(py), "-W", "error", "-c", _DEMO_CHECK + "; pycalib_r.ece([0.2, 0.7], [0, 1])"],
                         env=env, capture_output=True, text=True, cwd="/", timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout.strip().splitlines()[0])
    assert got["native"] is False and got["status"].startswith("not built")
    assert not list((Path(got["file"]).parent / "_native").glob("_lib*.so"))


def test_the_python_side_expects_the_headers_abi_version():
    header = (NATIVE / "src" / "pcr.h").read_text()
    assert f"#define PCR_ABI_VERSION {_native.ABI_VERSION}\n" in header

"""The user's R, embedded through rpy2, ready to evaluate probcal calls.

Loading is lazy (the first :func:`~pycalib_r.rcheck.same_as_r` call) and
happens once per process. Each failure says what is missing and how to
install it (:class:`~pycalib_r.rcheck.RUnavailable`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import shutil
import sys
import threading
from pathlib import Path
from typing import Optional

from ._errors import RUnavailable

__all__ = ["RSession", "session", "R_FILES"]

R_FILES = Path(__file__).resolve().parents[1] / "r"

INSTALL_RPY2 = "pip install 'rpy2>=3.5,<3.6'  (or, from a pycalib_r checkout: pip install '.[r]')"
INSTALL_R = ("install R >= 4.2 (https://cloud.r-project.org; Debian/Ubuntu: "
             "apt-get install r-base) and export R_HOME=$(R RHOME) before starting Python")
INSTALL_PROBCAL = 'in R: install.packages("probcal")'


def _r_path(path: Path) -> str:
    return str(path).replace("\\", "/")


def _check_r_home() -> None:
    """Refuse early where R is absent: embedded R exits the process when R_HOME is wrong."""
    if "rpy2.robjects" in sys.modules:
        return
    home = os.environ.get("R_HOME")
    if home:
        if not (Path(home) / "bin").is_dir() or not (Path(home) / "library" / "base").is_dir():
            raise RUnavailable(f"R_HOME={home} is not an R installation (no bin/ and "
                               f"library/base/ there); {INSTALL_R}")
    elif shutil.which("R") is None:
        raise RUnavailable(f"R was not found: R_HOME is not set and no R is on PATH; {INSTALL_R}")


_PROBED = {}  # R_HOME -> None (R starts) or the reason it does not


def _probe_in_child() -> None:
    """Start R through rpy2 in a child process first: R that cannot load its
    base package (an R_HOME with bin/ and library/base/ but missing files)
    ends the process that embeds it ("Fatal error: unable to open the base
    package"), which must not be the user's. Once per R_HOME and process."""
    import subprocess  # noqa: PLC0415

    home = os.environ.get("R_HOME", "")
    if home not in _PROBED:
        code = "import rpy2.robjects as ro; ro.r('invisible(NULL)'); print('ok')"
        try:
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 timeout=300, env=dict(os.environ), stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            _PROBED[home] = f"{type(exc).__name__}: {exc}"
        else:
            if out.returncode == 0 and out.stdout.strip().endswith("ok"):
                _PROBED[home] = None
            else:
                lines = [ln.strip() for ln in (out.stderr + out.stdout).splitlines() if ln.strip()]
                _PROBED[home] = (f"exit status {out.returncode}"
                                 + (f": {lines[-1][:300]}" if lines else ""))
    reason = _PROBED[home]
    if reason is not None:
        where = f"R_HOME={home}" if home else "the R on PATH"
        raise RUnavailable(f"R could not start ({where}; a test process ended with {reason}); "
                           f"{INSTALL_R}")


def load_robjects():
    """``rpy2.robjects``, or :class:`RUnavailable` saying what is missing.

    R equivalent: none.
    """
    try:
        import rpy2  # noqa: F401
    except ImportError:
        raise RUnavailable(f"rpy2 is not installed, so R cannot be run from Python: "
                           f"{INSTALL_RPY2}") from None
    _check_r_home()
    if "rpy2.robjects" not in sys.modules:
        _probe_in_child()
    try:
        import rpy2.robjects as ro
    except Exception as exc:  # noqa: BLE001 - rpy2 raises many kinds when R is absent
        raise RUnavailable(f"R could not be loaded through rpy2 ({type(exc).__name__}: "
                           f"{str(exc).strip()[:300]}); {INSTALL_R}") from None
    return ro


class RSession:
    """One embedded R with probcal (when installed), contract.R and the harness.

    Attributes
    ----------
    ro : module
        ``rpy2.robjects``.
    r_version : str
        ``R.version.string`` of the embedded R.
    probcal_version : str or None
        ``packageVersion("probcal")``, or None when probcal is not installed.

    R equivalent: an R session after ``library(probcal)`` and
    ``RNGkind("Mersenne-Twister", "Inversion", "Rejection")``.
    """

    def __init__(self, ro=None):
        self.ro = ro if ro is not None else load_robjects()
        r = self.ro.r
        self.env = r("new.env(parent = globalenv())")
        for name in ("harness.R", "rcheck.R"):
            r["sys.source"](_r_path(R_FILES / name), envir=self.env)
        # match.arg's messages use curly quotes only in a UTF-8 locale.
        if r('as.integer(isTRUE(l10n_info()[["UTF-8"]]))')[0] != 1:
            r('invisible(Sys.setlocale("LC_CTYPE", "C.UTF-8"))')
        r('RNGkind("Mersenne-Twister", "Inversion", "Rejection")')
        self.r_version = str(r("R.version.string")[0])
        self.has_cli = r('as.integer(requireNamespace("cli", quietly = TRUE))')[0] == 1
        if not self.has_cli:
            raise RUnavailable("the cli R package is not installed (probcal and contract.R "
                               "print with it): in R: install.packages(\"cli\")")
        envs = self.env["rcheck_envs"](_r_path(R_FILES / "contract.R"))
        self.envs = {name: envs.rx2(name) for name in ("probcal", "contract", "base")}
        version = str(envs.rx2("version")[0])
        self.probcal_version: Optional[str] = version or None
        self._has = self.env["rcheck_has"]
        self._call = self.env["rcheck_call"]

    def probcal_has(self, fname: str, args) -> bool:
        """Whether the installed probcal exports ``fname`` accepting ``args``.

        R equivalent: ``fname %in% getNamespaceExports("probcal")`` and the
        argument names in ``formals()``.
        """
        return self._has(fname, self.ro.StrVector(list(args)))[0] == 1

    def call(self, fname: str, args: dict, kwargs: dict, source: str, seed, opts: dict,
             extras=()):
        """Evaluate one call; returns (parsed JSON of what R gave, the R value).

        R equivalent: ``fname(<args>, <kwargs>)`` after ``.Random.seed <- seed``.
        """
        ro = self.ro
        r_seed = ro.NULL if seed is None else ro.IntVector([int(v) for v in seed])
        def r_list(items: dict):
            return ro.ListVector(items) if items else ro.r("list()")

        with _interruptible():
            out = self._call(fname, r_list(args), r_list(kwargs), self.envs[source], r_seed,
                             r_list(opts), ro.StrVector(list(extras)))
        return json.loads(out.rx2("json")[0]), out.rx2("value")


@contextlib.contextmanager
def _interruptible():
    """Let Ctrl-C stop R: tell R directly, then raise KeyboardInterrupt in Python.

    rpy2 3.5 turns SIGINT into an R interrupt inside its event callback, but
    Python delivers the signal on the callback's first line, before rpy2's
    handler is in place, so R never hears of it. Outside the main thread
    signals cannot be handled and R runs to the end.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from rpy2.rinterface_lib import openrlib

    hit = []

    def on_sigint(signum, frame):
        hit.append(signum)
        if os.name == "nt":  # pragma: no cover - R's Windows flag
            openrlib.rlib.UserBreak = 1
        else:
            openrlib.rlib.R_interrupts_pending = 1

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    except Exception:
        if hit:
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    if hit:
        raise KeyboardInterrupt


_SESSION: Optional[RSession] = None
_LOCK = threading.Lock()


def session() -> RSession:
    """The process's R session, started on first use.

    R equivalent: none.
    """
    global _SESSION
    with _LOCK:
        if _SESSION is None:
            _SESSION = RSession()
        return _SESSION

"""Output files of the command line: never lose the user's file.

Every output is written to a temporary file in the target's folder, flushed
and synced, and then renamed over the target (:class:`AtomicOutput`): a run
that fails, is interrupted (Ctrl-C, SIGTERM) or is killed leaves any file
already at that path as it was. A symlink keeps pointing where it did (the
file it names is replaced). Devices (``/dev/full``, ``/dev/null``), FIFOs
and standard output (``-``) are written directly: there is nothing to
replace.

Inputs and outputs are compared by identity (device and inode, through
symlinks and hard links), not by spelling (:func:`refuse_same_file`).

R equivalent: none (the command line is Python-only).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from typing import Iterable, Optional

from ._faults import OutputError, _reason
from ._source import shown_path


def check_output(path: str, force: bool = False) -> None:
    """Refuse, before any work, an output path that cannot be written.

    The folder must exist and be writable, and the path must not be a
    folder. An existing file that is read-only is refused unless ``force``:
    one whose write bits are all clear (``chmod 444``: its owner protected
    it, and renaming a new file over it would bypass that, even for root,
    whom ``cp`` lets through), or one the user may not write. (Writing can
    still fail later, e.g. on a full disk; the old file then stays.)
    """
    if path == "-":
        return
    try:
        target = os.path.realpath(path)
        if os.path.isdir(target):
            raise OutputError(path, "is a folder; give a file name, e.g. "
                                    f"{shown_path(os.path.join(path, 'out'))}")
        folder = os.path.dirname(target)
        if not os.path.isdir(folder):
            shown = os.path.dirname(path) or folder
            what = "is not a folder" if os.path.exists(folder) else "does not exist"
            raise OutputError(path, f"the folder {shown_path(shown)} {what}; create it first, "
                                    "or write elsewhere")
        try:
            mode = os.stat(target).st_mode
            regular = stat.S_ISREG(mode)
        except FileNotFoundError:
            mode, regular = None, None
        if regular and not force and (not mode & 0o222 or not os.access(target, os.W_OK)):
            raise OutputError(path, f"is read-only (mode {stat.S_IMODE(mode):04o}), and is "
                                    "kept; make it writable (chmod u+w), write elsewhere, or "
                                    "give --force to replace it")
        # a file is replaced through a new file in its folder; a device is written in place
        if not os.access(target if regular is False else folder, os.W_OK):
            raise OutputError(path, "permission denied; write elsewhere")
    except OSError as exc:  # a name too long, a symlink loop, ...
        raise OutputError(path, f"cannot be written: {_reason(exc)}") from None


def refuse_same_file(output: str, inputs: Iterable[Optional[str]]) -> None:
    """Refuse an output that is one of the inputs, by whatever path (``./x``,
    an absolute path, a symlink, a hard link)."""
    if output == "-":
        return
    for name in inputs:
        if name is None or name == "-":
            continue
        try:
            same = os.path.samefile(name, output)
        except OSError:
            continue  # one of them does not exist (yet): not the same file
        if same:
            raise OutputError(output, f"would overwrite an input file ({shown_path(name)}, the "
                                      "same file by another name); write elsewhere")


class AtomicOutput:
    """A binary file object for ``path`` that replaces it only on :meth:`commit`.

    Use as a context manager: leaving the block without ``commit()`` (an
    error, Ctrl-C, SIGTERM turned into an exception) removes the temporary
    file and leaves ``path`` untouched.
    """

    def __init__(self, path: str):
        self.path = path
        self._tmp: Optional[str] = None
        self._stdout = path == "-"
        if path == "-":
            self.file = sys.stdout.buffer
            self._target = None
            return
        target = os.path.realpath(path)
        try:
            mode = os.stat(target).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            # a device or a FIFO: nothing to replace
            self._target = None
            self.file = self._open(lambda: open(target, "wb"))  # noqa: SIM115
            return
        self._target = target
        folder = os.path.dirname(target)
        base = os.path.basename(target)

        def make():
            fd, self._tmp = tempfile.mkstemp(dir=folder, prefix=f".{base}.", suffix=".tmp")
            return os.fdopen(fd, "wb")

        self.file = self._open(make)
        self._mode = mode

    def _open(self, fn):
        try:
            return fn()
        except OSError as exc:
            raise OutputError(self.path, f"could not write the file: {_reason(exc)}") from None

    def commit(self) -> None:
        """Flush, sync and rename the temporary file into place."""
        try:
            self.file.flush()
            if self._tmp is not None:
                os.fsync(self.file.fileno())
                self.file.close()
                # the permissions a new file gets (mkstemp makes it 0600), or the old file's
                if self._mode is not None:
                    os.chmod(self._tmp, stat.S_IMODE(self._mode))
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.chmod(self._tmp, 0o666 & ~umask)
                os.replace(self._tmp, self._target)
                self._tmp = None
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self.path, f"could not write the file: {_reason(exc)}") from None

    def discard(self) -> None:
        if not self._stdout:
            try:
                self.file.close()
            except OSError:
                pass
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if self._tmp is not None or kind is not None:
            self.discard()
        elif not self._stdout:
            try:
                self.file.close()
            except OSError:
                pass
        return False

# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: a cursor over a stream's uniforms for the nmath translations, which carry their own headers
"""Sequential scalar access to any stream's uniforms, rewound exactly.

Scalar ports of nmath's loops read one ``unif_rand()`` at a time. The cursor
fetches uniforms in growing chunks through the stream's ``unif_rand`` and,
on close, rewinds the stream (``_snapshot``/``_restore``) and skips exactly
the uniforms used (``_skip``), so the stream stands where R's stands. It
needs nothing but those three methods, so it serves every RNG kind.
"""

from __future__ import annotations


class UnifCursor:
    """``unif()`` is R's ``unif_rand()``; use as a context manager."""

    def __init__(self, stream, chunk=64):
        self._stream = stream
        self._snap = stream._snapshot()
        self._buf = []
        self._i = 0
        self._base = 0
        self._chunk = chunk
        # norm_rand() of another normal kind (None: Inversion, which the
        # nmath ports compute from unif() themselves).
        self.norm = getattr(stream, "_cursor_norm", None)

    def unif(self):
        i = self._i
        if i >= len(self._buf):
            self._base += len(self._buf)
            self._buf = self._stream.unif_rand(self._chunk).tolist()
            self._chunk = min(self._chunk * 2, 1 << 16)
            i = 0
        self._i = i + 1
        return self._buf[i]

    def used(self):
        return self._base + self._i

    def close(self):
        used = self.used()
        self._stream._restore(self._snap)
        self._stream._skip(used)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

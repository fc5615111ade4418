# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.2.0 help page of cal_ci (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""``cal_ci()``'s stream around a failing resample: where R's stream stands after the error.

``cal_ci`` draws its resamples in blocks (:func:`pycalib_r.inference._inference._run`);
when a resample of a block fails, R has drawn only up to that resample. These
helpers read and set a stream's state (an :class:`~pycalib_r.RRandom` or a
numpy ``Generator`` stream) and replay the block to leave it there.

R equivalent: none (R draws one resample at a time).
"""

from __future__ import annotations

from ..rbase._errors import ProbcalError

__all__ = ["stream_state", "set_stream_state", "rewind_to_failure"]


def stream_state(stream):
    """The state of ``stream`` (R's ``.Random.seed`` or the bit generator's)."""
    if hasattr(stream, "get_state"):
        return stream.get_state()
    return stream.generator.bit_generator.state


def set_stream_state(stream, state) -> None:
    """Set ``stream`` back to ``state`` (from :func:`stream_state`)."""
    if hasattr(stream, "set_state"):
        stream.set_state(state)
    else:
        stream.generator.bit_generator.state = state


def rewind_to_failure(fn, idx, state, stream, n) -> None:
    """After ``fn`` failed on a block, leave the stream where R's stands: just
    after the first resample that fails (R stops there; the rest of the
    block was drawn ahead)."""
    for b in range(idx.shape[0]):
        try:
            fn(idx[b:b + 1])
        except ProbcalError:
            set_stream_state(stream, state)
            stream.sample_int_replace(n, n, b + 1)
            return

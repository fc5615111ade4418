# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""The R-facing stream objects (numpy's ``Generator`` in R's clothes).

==================  ==========================================================
``_stream``         :class:`RRandom` (``set.seed``, ``runif``, ``rnorm``,
                    ``rbinom``, ``sample``, ``.Random.seed``)
``_stream_dists``   its other nmath distributions; ``_dist_fast`` hands large
                    calls to the compiled kernels
``_front``,         R's argument checks in front of every draw, shared by
``_front_dists``    :class:`RRandom` and :class:`GeneratorStream`
``_kinds``          ``KindStream``: every other ``RNGkind`` on the stream
``_generator``      :class:`GeneratorStream` (numpy's draws, R's checks)
``_global``         the global stream (R's ``.Random.seed``), ``resolve_rng``
``_locking``        the per-stream lock (thread and fork safety)
==================  ==========================================================

R equivalent: ``set.seed``, ``RNGkind``, ``runif``, ``rnorm``, ``sample``
and the other ``r*`` functions of R 4.2.2's ``stats`` and ``base``.
"""

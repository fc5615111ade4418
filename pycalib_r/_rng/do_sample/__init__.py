# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the subpackage's index; each module it lists carries its own header
"""R's ``do_sample`` (``src/main/random.c``): ``sample()`` and ``sample.int()``.

``_sample`` holds the samplers (uniform with and without replacement,
``sample2``'s hash, Walker's alias method, ``ProbSampleReplace``,
``ProbSampleNoReplace``, R's ``FixupProb``) and the numpy/Python twin of
every compiled loop of ``pycalib_r/_native/src/rng.c`` beside it
(``R_unif_index``, Fisher-Yates, ``sample2``'s hash and Walker's draws on
the Mersenne-Twister words; alias table, ``revsort``,
``ProbSampleNoReplace``).

R equivalent: ``do_sample`` (``src/main/random.c``), ``R_unif_index``
(``src/main/RNG.c``), ``walker_ProbSampleReplace`` and friends.
"""

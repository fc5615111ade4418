# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/nmath/{bd0,stirlerr,dpois,gamma,lgamma,lgammacor,dnorm,pnorm,qnorm}.c, dpq.h (GPL-2.0-or-later), (c) The R Core Team; stirlerr.c and dpois.c after C. Loader (c) 1999-2000 Lucent Technologies, Bell Laboratories; qnorm.c after Algorithm AS 241 (c) Royal Statistical Society
"""nmath's building blocks of the gamma distribution: ``ebd0``, ``stirlerr``,
``dpois_raw``, ``lgammafn``, and the normal ``dnorm``, ``pnorm`` and ``qnorm``
with ``lower_tail`` and ``log_p``, as scalar functions (``pnorm`` on
:func:`pycalib_r.rbase._rarith.pnorm_both`, ``qnorm`` on
:func:`._qnorm.qnorm_open1`, ``lgammafn_small`` and ``lgammacor`` from
:mod:`._qdiscrete`).

Each is R 4.2.2's C code operation for operation (C's operand order, the
``dpq.h`` macros written out), on glibc's ``exp``/``log``/``log1p``/``expm1``/
``pow`` (Python's :mod:`math` calls them), so values are R's bit for bit:
``tests/rstats/test_nmath_gamma.py`` measures it. The :mod:`math` functions that
raise where C returns ``Inf``, ``-Inf`` or ``NaN`` go through the wrappers
below, which return what C returns. No ``long double`` is involved (R uses it
in ``pgamma.c`` only in ``logspace_sum``, which nothing here calls).

R equivalent: ``bd0.c`` (``ebd0`` and its ``bd0_scale`` table),
``stirlerr.c``, ``dpois.c`` (``dpois_raw``), ``gamma.c``, ``lgamma.c``,
``lgammacor.c``, ``dnorm.c``, ``pnorm.c``, ``qnorm.c`` of R 4.2.2's
``src/nmath``.

References
----------
Loader, C. (2000). Fast and accurate computation of binomial probabilities.
Cody, W. J. (1993). ALGORITHM 715: SPECFUN. ACM TOMS 19, 22-32.
Wichura, M. J. (1988). Algorithm AS 241. Applied Statistics 37, 477-484.
"""

from __future__ import annotations

import math

from ..rbase._rarith import pnorm_both
from ._qdiscrete import lgammacor, lgammafn_small
from ._qnorm import qnorm_open1

__all__ = []

INF = math.inf
NAN = math.nan
DBL_MIN = 2.2250738585072014e-308
DBL_MAX = 1.7976931348623157e308
DBL_EPSILON = 2.220446049250313e-16
M_LN2 = 0.693147180559945309417232121458
M_2PI = 6.283185307179586476925286766559
M_LN_SQRT_2PI = 0.918938533204672741780329736406
M_1_SQRT_2PI = 0.398942280401432677939946059934
_M_SQRT_2PI = 2.50662827463100050241576528481104525301  # dpois.c's own define
_X_LRG = 2.86111748575702815380240589208115399625e+307  # dpois.c: 2^1023 / pi


# --- C's libm where Python's math raises --------------------------------------------

def c_exp(x: float) -> float:
    """C ``exp``: ``Inf`` on overflow (``math.exp`` raises)."""
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def c_expm1(x: float) -> float:
    """C ``expm1``: ``Inf`` on overflow."""
    try:
        return math.expm1(x)
    except OverflowError:
        return INF


def c_log(x: float) -> float:
    """C ``log``: ``-Inf`` at 0, ``NaN`` below (``math.log`` raises)."""
    if x > 0 or x != x:
        return math.log(x)
    return -INF if x == 0 else NAN


def c_log1p(x: float) -> float:
    """C ``log1p``: ``-Inf`` at -1, ``NaN`` below."""
    if x > -1 or x != x:
        return math.log1p(x)
    return -INF if x == -1 else NAN


def c_sqrt(x: float) -> float:
    """C ``sqrt``: ``NaN`` below 0."""
    return math.sqrt(x) if x >= 0 else NAN


def c_pow(x: float, y: float) -> float:
    """C ``pow``: ``Inf`` on overflow and at ``0^negative``, ``NaN`` on a domain error."""
    try:
        return math.pow(x, y)
    except OverflowError:
        return INF
    except ValueError:
        if x == 0:
            return INF
        return NAN


def c_floor(x: float) -> float:
    """C ``floor`` as a double (``math.floor`` returns an int, raises at Inf/NaN)."""
    return float(math.floor(x)) if math.isfinite(x) else x


def log1_exp(x: float) -> float:
    """``R_Log1_Exp(x)``: ``log(1 - exp(x))``."""
    return c_log(-c_expm1(x)) if x > -M_LN2 else c_log1p(-c_exp(x))


# --- gamma.c, lgamma.c, stirlerr.c -----------------------------------------------------

def lgammafn(x: float) -> float:
    """nmath's ``lgammafn`` for ``x > 0`` (and ``NaN``; ``lgamma.c``)."""
    if x != x:
        return x
    if x <= 0:
        if x == math.trunc(x):
            return INF
        raise ValueError("lgammafn: the port covers x > 0")  # pragma: no cover
    y = x
    if y < 1e-306:
        return -math.log(y)
    if y <= 10:  # gamma.c for 0 < x <= 10: a positive finite gammafn(x)
        return lgammafn_small(x)
    if y > 2.5327372760800758e+305:
        return INF
    if x > 1e17:
        return x * (math.log(x) - 1.)
    if x > 4934720.:
        return M_LN_SQRT_2PI + (x - 0.5) * math.log(x) - x
    return M_LN_SQRT_2PI + (x - 0.5) * math.log(x) - x + lgammacor(x)


_SFERR_HALVES = (
    0.0, 0.1534264097200273452913848, 0.0810614667953272582196702,
    0.0548141210519176538961390, 0.0413406959554092940938221, 0.03316287351993628748511048,
    0.02767792568499833914878929, 0.02374616365629749597132920, 0.02079067210376509311152277,
    0.01848845053267318523077934, 0.01664469118982119216319487, 0.01513497322191737887351255,
    0.01387612882307074799874573, 0.01281046524292022692424986, 0.01189670994589177009505572,
    0.01110455975820691732662991, 0.010411265261972096497478567, 0.009799416126158803298389475,
    0.009255462182712732917728637, 0.008768700134139385462952823, 0.008330563433362871256469318,
    0.007934114564314020547248100, 0.007573675487951840794972024, 0.007244554301320383179543912,
    0.006942840107209529865664152, 0.006665247032707682442354394, 0.006408994188004207068439631,
    0.006171712263039457647532867, 0.005951370112758847735624416, 0.005746216513010115682023589,
    0.005554733551962801371038690)
_S0 = 0.083333333333333333333
_S1 = 0.00277777777777777777778
_S2 = 0.00079365079365079365079365
_S3 = 0.000595238095238095238095238
_S4 = 0.0008417508417508417508417508


def stirlerr(n: float) -> float:
    """nmath's ``stirlerr(n) = log(n!) - log(sqrt(2 pi n) (n/e)^n)``."""
    if n <= 15.0:
        nn = n + n
        if nn == int(nn):
            return _SFERR_HALVES[int(nn)]
        return lgammafn(n + 1.) - (n + 0.5) * c_log(n) + n - M_LN_SQRT_2PI
    nn = n * n
    if n > 500:
        return (_S0 - _S1 / nn) / n
    if n > 80:
        return (_S0 - (_S1 - _S2 / nn) / nn) / n
    if n > 35:
        return (_S0 - (_S1 - (_S2 - _S3 / nn) / nn) / nn) / n
    return (_S0 - (_S1 - (_S2 - (_S3 - _S4 / nn) / nn) / nn) / nn) / n


# --- bd0.c's ebd0 -------------------------------------------------------------------------

# bd0.c's bd0_scale[128 + 1][4] (C floats, exact as doubles): entry i holds
# log(2048 / f) for f = floor(1024 / (0.5 + i / 256) + 0.5), in four parts of
# 23 bits.
_BD0_SCALE_HEX = (
    "+0x1.62e430p-1 -0x1.05c610p-29 -0x1.950d88p-54 +0x1.d9cc02p-79",
    "+0x1.5ee02cp-1 -0x1.6dbe98p-25 -0x1.51e540p-50 +0x1.2bfa48p-74",
    "+0x1.5ad404p-1 +0x1.86b3e4p-26 +0x1.9f6534p-50 +0x1.54be04p-74",
    "+0x1.570124p-1 -0x1.9ed750p-25 -0x1.f37dd0p-51 +0x1.10b770p-77",
    "+0x1.5326e4p-1 -0x1.9b9874p-25 -0x1.378194p-49 +0x1.56feb2p-74",
    "+0x1.4f4528p-1 +0x1.aca70cp-28 +0x1.103e74p-53 +0x1.9c410ap-81",
    "+0x1.4b5bd8p-1 -0x1.6a91d8p-25 -0x1.8e43d0p-50 -0x1.afba9ep-77",
    "+0x1.47ae54p-1 -0x1.abb51cp-25 +0x1.19b798p-51 +0x1.45e09cp-76",
    "+0x1.43fa00p-1 -0x1.d06318p-25 -0x1.8858d8p-49 -0x1.1927c4p-75",
    "+0x1.3ffa40p-1 +0x1.1a427cp-25 +0x1.151640p-53 -0x1.4f5606p-77",
    "+0x1.3c7c80p-1 -0x1.19bf48p-34 +0x1.05fc94p-58 -0x1.c096fcp-82",
    "+0x1.38b320p-1 +0x1.6b5778p-25 +0x1.be38d0p-50 -0x1.075e96p-74",
    "+0x1.34e288p-1 +0x1.d9ce1cp-25 +0x1.316eb8p-49 +0x1.2d885cp-73",
    "+0x1.315124p-1 +0x1.c2fc60p-29 -0x1.4396fcp-53 +0x1.acf376p-78",
    "+0x1.2db954p-1 +0x1.720de4p-25 -0x1.d39b04p-49 -0x1.f11176p-76",
    "+0x1.2a1b08p-1 -0x1.562494p-25 +0x1.a7863cp-49 +0x1.85dd64p-73",
    "+0x1.267620p-1 +0x1.3430e0p-29 -0x1.96a958p-56 +0x1.f8e636p-82",
    "+0x1.23130cp-1 +0x1.7bebf4p-25 +0x1.416f1cp-52 -0x1.78dd36p-77",
    "+0x1.1faa34p-1 +0x1.70e128p-26 +0x1.81817cp-50 -0x1.c2179cp-76",
    "+0x1.1bf204p-1 +0x1.3a9620p-28 +0x1.2f94c0p-52 +0x1.9096c0p-76",
    "+0x1.187ce4p-1 -0x1.077870p-27 +0x1.655a80p-51 +0x1.eaafd6p-78",
    "+0x1.1501c0p-1 -0x1.406cacp-25 -0x1.e72290p-49 +0x1.5dd800p-73",
    "+0x1.11cb80p-1 +0x1.787cd0p-25 -0x1.efdc78p-51 -0x1.5380cep-77",
    "+0x1.0e4498p-1 +0x1.747324p-27 -0x1.024548p-51 +0x1.77a5a6p-75",
    "+0x1.0b036cp-1 +0x1.690c74p-25 +0x1.5d0cc4p-50 -0x1.c0e23cp-76",
    "+0x1.077070p-1 -0x1.a769bcp-27 +0x1.452234p-52 +0x1.6ba668p-76",
    "+0x1.04240cp-1 -0x1.a686acp-27 -0x1.ef46b0p-52 -0x1.5ce10cp-76",
    "+0x1.00d22cp-1 +0x1.fc0e10p-25 +0x1.6ee034p-50 -0x1.19a2ccp-74",
    "+0x1.faf588p-2 +0x1.ef1e64p-27 -0x1.26504cp-54 -0x1.b15792p-82",
    "+0x1.f4d87cp-2 +0x1.d7b980p-26 -0x1.a114d8p-50 +0x1.9758c6p-75",
    "+0x1.ee1414p-2 +0x1.2ec060p-26 +0x1.dc00fcp-52 +0x1.f8833cp-76",
    "+0x1.e7e32cp-2 -0x1.ac796cp-27 -0x1.a68818p-54 +0x1.235d02p-78",
    "+0x1.e108a0p-2 -0x1.768ba4p-28 -0x1.f050a8p-52 +0x1.00d632p-82",
    "+0x1.dac354p-2 -0x1.d3a6acp-30 +0x1.18734cp-57 -0x1.f97902p-83",
    "+0x1.d47424p-2 +0x1.7dbbacp-31 -0x1.d5ada4p-56 +0x1.56fcaap-81",
    "+0x1.ce1af0p-2 +0x1.70be7cp-27 +0x1.6f6fa4p-51 +0x1.7955a2p-75",
    "+0x1.c7b798p-2 +0x1.ec36ecp-26 -0x1.07e294p-50 -0x1.ca183cp-75",
    "+0x1.c1ef04p-2 +0x1.c1dfd4p-26 +0x1.888eecp-50 -0x1.fd6b86p-75",
    "+0x1.bb7810p-2 +0x1.478bfcp-26 +0x1.245b8cp-50 +0x1.ea9d52p-74",
    "+0x1.b59da0p-2 -0x1.882b08p-27 +0x1.31573cp-53 -0x1.8c249ap-77",
    "+0x1.af1294p-2 -0x1.b710f4p-27 +0x1.622670p-51 +0x1.128578p-76",
    "+0x1.a925d4p-2 -0x1.0ae750p-27 +0x1.574ed4p-51 +0x1.084996p-75",
    "+0x1.a33040p-2 +0x1.027d30p-29 +0x1.b9a550p-53 -0x1.b2e38ap-78",
    "+0x1.9d31c0p-2 -0x1.5ec12cp-26 -0x1.5245e0p-52 +0x1.2522d0p-79",
    "+0x1.972a34p-2 +0x1.135158p-30 +0x1.a5c09cp-56 +0x1.24b70ep-80",
    "+0x1.911984p-2 +0x1.0995d4p-26 +0x1.3bfb5cp-50 +0x1.2c9dd6p-75",
    "+0x1.8bad98p-2 -0x1.1d6144p-29 +0x1.5b9208p-53 +0x1.1ec158p-77",
    "+0x1.858b58p-2 -0x1.1b4678p-27 +0x1.56cab4p-53 -0x1.2fdc0cp-78",
    "+0x1.7f5fa0p-2 +0x1.3aaf48p-27 +0x1.461964p-51 +0x1.4ae476p-75",
    "+0x1.79db68p-2 -0x1.7e5054p-26 +0x1.673750p-51 -0x1.a11f7ap-76",
    "+0x1.744f88p-2 -0x1.cc0e18p-26 -0x1.1e9d18p-50 -0x1.6c06bcp-78",
    "+0x1.6e08ecp-2 -0x1.5d45e0p-26 -0x1.c73ec8p-50 +0x1.318d72p-74",
    "+0x1.686c80p-2 +0x1.e9b14cp-26 -0x1.13bbd4p-50 -0x1.efeb1cp-78",
    "+0x1.62c830p-2 -0x1.a8c70cp-27 -0x1.5a1214p-51 -0x1.bab3fcp-79",
    "+0x1.5d1bdcp-2 -0x1.4fec6cp-31 +0x1.423638p-56 +0x1.ee3feep-83",
    "+0x1.576770p-2 +0x1.7455a8p-26 -0x1.3ab654p-50 -0x1.26be4cp-75",
    "+0x1.5262e0p-2 -0x1.146778p-26 -0x1.b9f708p-52 -0x1.294018p-77",
    "+0x1.4c9f08p-2 +0x1.e152c4p-26 -0x1.dde710p-53 +0x1.fd2208p-77",
    "+0x1.46d2d8p-2 +0x1.c28058p-26 -0x1.936284p-50 +0x1.9fdd68p-74",
    "+0x1.41b940p-2 +0x1.cce0c0p-26 -0x1.1a4050p-50 +0x1.bc0376p-76",
    "+0x1.3bdd24p-2 +0x1.d6296cp-27 +0x1.425b48p-51 -0x1.cddb2cp-77",
    "+0x1.36b578p-2 -0x1.287ddcp-27 -0x1.2d0f4cp-51 +0x1.38447ep-75",
    "+0x1.31871cp-2 +0x1.2a8830p-27 +0x1.3eae54p-52 -0x1.898136p-77",
    "+0x1.2b9304p-2 -0x1.51d8b8p-28 +0x1.27694cp-52 -0x1.fd852ap-76",
    "+0x1.265620p-2 -0x1.d98f3cp-27 +0x1.a44338p-51 -0x1.56e85ep-78",
    "+0x1.211254p-2 +0x1.986160p-26 +0x1.73c5d0p-51 +0x1.4a861ep-75",
    "+0x1.1bc794p-2 +0x1.fa3918p-27 +0x1.879c5cp-51 +0x1.16107cp-78",
    "+0x1.1675ccp-2 -0x1.4545a0p-26 +0x1.c07398p-51 +0x1.f55c42p-76",
    "+0x1.111ce4p-2 +0x1.f72670p-37 -0x1.b84b5cp-61 +0x1.a4a4dcp-85",
    "+0x1.0c81d4p-2 +0x1.0c150cp-27 +0x1.218600p-51 -0x1.d17312p-76",
    "+0x1.071b84p-2 +0x1.fcd590p-26 +0x1.a3a2e0p-51 +0x1.fe5ef8p-76",
    "+0x1.01ade4p-2 -0x1.bb1844p-28 +0x1.db3cccp-52 +0x1.1f56fcp-77",
    "+0x1.fa01c4p-3 -0x1.12a0d0p-29 -0x1.f71fb0p-54 +0x1.e287a4p-78",
    "+0x1.ef0adcp-3 +0x1.7b8b28p-28 -0x1.35bce4p-52 -0x1.abc8f8p-79",
    "+0x1.e598ecp-3 +0x1.5a87e4p-27 -0x1.134bd0p-51 +0x1.c2cebep-76",
    "+0x1.da85d8p-3 -0x1.df31b0p-27 +0x1.94c16cp-57 +0x1.8fd7eap-82",
    "+0x1.d0fb80p-3 -0x1.bb5434p-28 -0x1.ea5640p-52 -0x1.8ceca4p-77",
    "+0x1.c765b8p-3 +0x1.e4d68cp-27 +0x1.5b59b4p-51 +0x1.76f6c4p-76",
    "+0x1.bdc46cp-3 -0x1.1cbb50p-27 +0x1.2da010p-51 +0x1.eb282cp-75",
    "+0x1.b27980p-3 -0x1.1b9ce0p-27 +0x1.7756f8p-52 +0x1.2ff572p-76",
    "+0x1.a8bed0p-3 -0x1.bbe874p-30 +0x1.85cf20p-56 +0x1.b9cf18p-80",
    "+0x1.9ef83cp-3 +0x1.2769a4p-27 -0x1.85bda0p-52 +0x1.8c8018p-79",
    "+0x1.9525a8p-3 +0x1.cf456cp-27 -0x1.7137d8p-52 -0x1.f158e8p-76",
    "+0x1.8b46f8p-3 +0x1.11b12cp-30 +0x1.9f2104p-54 -0x1.22836ep-78",
    "+0x1.83040cp-3 +0x1.2379e4p-28 +0x1.b71c70p-52 -0x1.990cdep-76",
    "+0x1.790ed4p-3 +0x1.dc4c68p-28 -0x1.910ac8p-52 +0x1.dd1bd6p-76",
    "+0x1.6f0d28p-3 +0x1.5cad68p-28 +0x1.737c94p-52 -0x1.9184bap-77",
    "+0x1.64fee8p-3 +0x1.04bf88p-28 +0x1.6fca28p-52 +0x1.8884a8p-76",
    "+0x1.5c9400p-3 +0x1.d65cb0p-29 -0x1.b2919cp-53 +0x1.b99bcep-77",
    "+0x1.526e60p-3 -0x1.c5e4bcp-27 -0x1.0ba380p-52 +0x1.d6e3ccp-79",
    "+0x1.483bccp-3 +0x1.9cdc7cp-28 -0x1.5ad8dcp-54 -0x1.392d3cp-83",
    "+0x1.3fb25cp-3 -0x1.a6ad74p-27 +0x1.5be6b4p-52 -0x1.4e0114p-77",
    "+0x1.371fc4p-3 -0x1.fe1708p-27 -0x1.78864cp-52 -0x1.27543ap-76",
    "+0x1.2cca10p-3 -0x1.4141b4p-28 -0x1.ef191cp-52 +0x1.00ee08p-76",
    "+0x1.242310p-3 +0x1.3ba510p-27 -0x1.d003c8p-51 +0x1.162640p-76",
    "+0x1.1b72acp-3 +0x1.52f67cp-27 -0x1.fd6fa0p-51 +0x1.1a3966p-77",
    "+0x1.10f8e4p-3 +0x1.129cd8p-30 +0x1.31ef30p-55 +0x1.a73e38p-79",
    "+0x1.08338cp-3 -0x1.005d7cp-27 -0x1.661a9cp-51 +0x1.1f138ap-79",
    "+0x1.fec914p-4 -0x1.c482a8p-29 -0x1.55746cp-54 +0x1.99f932p-80",
    "+0x1.ed1794p-4 +0x1.d06f00p-29 +0x1.75e45cp-53 -0x1.d0483ep-78",
    "+0x1.db5270p-4 +0x1.87d928p-32 -0x1.0f52a4p-57 +0x1.81f4a6p-84",
    "+0x1.c97978p-4 +0x1.af1d24p-29 -0x1.0977d0p-60 -0x1.8839d0p-84",
    "+0x1.b78c84p-4 -0x1.44f124p-28 -0x1.ef7bc4p-52 +0x1.9e0650p-78",
    "+0x1.a58b60p-4 +0x1.856464p-29 +0x1.c651d0p-55 +0x1.b06b0cp-79",
    "+0x1.9375e4p-4 +0x1.5595ecp-28 +0x1.dc3738p-52 +0x1.86c89ap-81",
    "+0x1.814be4p-4 -0x1.c073fcp-28 -0x1.371f88p-53 -0x1.5f4080p-77",
    "+0x1.6f0d28p-4 +0x1.5cad68p-29 +0x1.737c94p-53 -0x1.9184bap-78",
    "+0x1.60658cp-4 -0x1.6c8af4p-28 +0x1.d8ef74p-55 +0x1.c4f792p-80",
    "+0x1.4e0110p-4 +0x1.146b5cp-29 +0x1.73f7ccp-54 -0x1.d28db8p-79",
    "+0x1.3b8758p-4 +0x1.8b1b70p-28 -0x1.20aca4p-52 -0x1.651894p-76",
    "+0x1.28f834p-4 +0x1.43b6a4p-30 -0x1.452af8p-55 +0x1.976892p-80",
    "+0x1.1a0fbcp-4 -0x1.e4075cp-28 +0x1.1fe618p-52 +0x1.9d6dc2p-77",
    "+0x1.075984p-4 -0x1.4ce370p-29 -0x1.d9fc98p-53 +0x1.4ccf12p-77",
    "+0x1.f0a30cp-5 +0x1.162a68p-37 -0x1.e83368p-61 -0x1.d222a6p-86",
    "+0x1.cae730p-5 -0x1.1a8f7cp-31 -0x1.5f9014p-55 +0x1.2720c0p-79",
    "+0x1.ac9724p-5 -0x1.e8ee08p-29 +0x1.a7de04p-54 -0x1.9bba74p-78",
    "+0x1.868a84p-5 -0x1.ef8128p-30 +0x1.dc5eccp-54 -0x1.58d250p-79",
    "+0x1.67f950p-5 -0x1.ed684cp-30 -0x1.f060c0p-55 -0x1.b1294cp-80",
    "+0x1.494accp-5 +0x1.a6c890p-32 -0x1.c3ad48p-56 -0x1.6dc66cp-84",
    "+0x1.22c71cp-5 -0x1.8abe2cp-32 -0x1.7e7078p-56 -0x1.ddc3dcp-86",
    "+0x1.03d5d8p-5 +0x1.79cfbcp-31 -0x1.da7c4cp-58 +0x1.4e7582p-83",
    "+0x1.c98d18p-6 +0x1.a01904p-31 -0x1.854164p-55 +0x1.883c36p-79",
    "+0x1.8b31fcp-6 -0x1.356500p-30 +0x1.c3ab48p-55 +0x1.b69bdap-80",
    "+0x1.3cea44p-6 +0x1.a352bcp-33 -0x1.8865acp-57 -0x1.48159cp-81",
    "+0x1.fc0a8cp-7 -0x1.e07f84p-32 +0x1.e7cf6cp-58 +0x1.3a69c0p-82",
    "+0x1.7dc474p-7 +0x1.f810a8p-31 -0x1.245b5cp-56 -0x1.a1f4f8p-80",
    "+0x1.fe02a8p-8 -0x1.4ef988p-32 +0x1.1f86ecp-57 +0x1.20723cp-81",
    "+0x1.ff00acp-9 -0x1.d4ef44p-33 +0x1.2821acp-63 +0x1.5a6d32p-87",
    "0 0 0 0",
)
_BD0_SCALE = tuple(tuple(float.fromhex(h) if h != "0" else 0.0 for h in row.split())
                   for row in _BD0_SCALE_HEX)


def log1pmx(x: float) -> float:
    """``log(1 + x) - x``, accurate for small ``x`` (``pgamma.c``)."""
    if x > 1 or x < -0.79149064:
        return c_log1p(x) - x
    r = x / (2 + x)
    y = r * r
    if abs(x) < 1e-2:
        two = 2.
        return r * ((((two / 9 * y + two / 7) * y + two / 5) * y + two / 3) * y - x)
    return r * (2 * y * logcf(y, 3, 2, 1e-14) - x)


_SCALEFACTOR = 2.0 ** 256  # pgamma.c: (2^32)^8


def logcf(x: float, i: float, d: float, eps: float) -> float:
    """``sum_k x^k / (i + k d)`` by its continued fraction (``pgamma.c``)."""
    c1 = 2 * d
    c2 = i + d
    c4 = c2 + d
    a1 = c2
    b1 = i * (c2 - i * x)
    b2 = d * d * x
    a2 = c4 * c2 - b2
    b2 = c4 * b1 - i * b2
    while abs(a2 * b1 - a1 * b2) > abs(eps * b1 * b2):
        c3 = c2 * c2 * x
        c2 += d
        c4 += d
        a1 = c4 * a2 - c3 * a1
        b1 = c4 * b2 - c3 * b1
        c3 = c1 * c1 * x
        c1 += d
        c4 += d
        a2 = c4 * a1 - c3 * a2
        b2 = c4 * b1 - c3 * b2
        if abs(b2) > _SCALEFACTOR:
            a1 /= _SCALEFACTOR
            b1 /= _SCALEFACTOR
            a2 /= _SCALEFACTOR
            b2 /= _SCALEFACTOR
        elif abs(b2) < 1 / _SCALEFACTOR:
            a1 *= _SCALEFACTOR
            b1 *= _SCALEFACTOR
            a2 *= _SCALEFACTOR
            b2 *= _SCALEFACTOR
    return a2 / b2


def ebd0(x: float, m: float):
    """``x log(x / M) + M - x`` in two parts ``(yh, yl)`` (``bd0.c``'s ``ebd0``)."""
    if x == m:
        return 0.0, 0.0
    if x == 0:
        return m, 0.0
    if m == 0:
        return INF, 0.0
    if m / x == INF:
        return m, 0.0
    r, e = math.frexp(m / x)
    if M_LN2 * float(-e) > 1. + DBL_MAX / x:
        return INF, 0.0
    n = 128
    i = int(c_floor((r - 0.5) * (2 * n) + 0.5))
    f = c_floor(1024. / (0.5 + i / (2.0 * n)) + 0.5)
    try:
        fg = math.ldexp(f, -(e + 10))
    except OverflowError:
        fg = INF
    if fg == INF:
        return INF, 0.0
    yh = yl = 0.0

    def add1(d):
        nonlocal yh, yl
        d1 = c_floor(d + 0.5)
        yh += d1
        yl += d - d1

    add1(-x * log1pmx((m * fg - x) / x))
    if fg == 1:
        return yh, yl
    row, row0 = _BD0_SCALE[i], _BD0_SCALE[0]
    for j in range(4):
        add1(x * row[j])
        add1(-x * row0[j] * e)
        if not math.isfinite(yh):
            return INF, 0.0
    add1(m)
    add1(-m * fg)
    return yh, yl


# --- dpois.c's dpois_raw ------------------------------------------------------------

def dpois_raw(x: float, lam: float, give_log: bool) -> float:
    """``lam^x exp(-lam) / x!`` for real ``x >= 0`` (``dpois.c``)."""
    d0, d1 = (-INF, 0.) if give_log else (0., 1.)
    if lam == 0:
        return d1 if x == 0 else d0
    if not math.isfinite(lam):
        return d0
    if x < 0:
        return d0
    if x <= lam * DBL_MIN:
        return -lam if give_log else c_exp(-lam)
    if lam < x * DBL_MIN:
        if not math.isfinite(x):
            return d0
        v = -lam + x * c_log(lam) - lgammafn(x + 1)
        return v if give_log else c_exp(v)
    yh, yl = ebd0(x, lam)
    yl += stirlerr(x)
    lrg = x >= _X_LRG
    r = _M_SQRT_2PI * math.sqrt(x) if lrg else M_2PI * x
    if give_log:
        return -yl - yh - (c_log(r) if lrg else 0.5 * c_log(r))
    return c_exp(-yl) * c_exp(-yh) / (r if lrg else math.sqrt(r))


# --- dnorm.c, pnorm.c, qnorm.c (mu = 0, sigma = 1) -----------------------------------

_DNORM_ZERO = math.sqrt(-2 * M_LN2 * (-1021 + 1 - 53))  # DBL_MIN_EXP, DBL_MANT_DIG


def dnorm(x: float, give_log: bool) -> float:
    """``dnorm(x, 0, 1, give_log)`` (``dnorm.c``, the accurate tail)."""
    if x != x:
        return x
    if not math.isfinite(x):
        return -INF if give_log else 0.
    x = abs(x)
    if x >= 2 * math.sqrt(DBL_MAX):
        return -INF if give_log else 0.
    if give_log:
        return -(M_LN_SQRT_2PI + 0.5 * x * x + 0.0)
    if x < 5:
        return M_1_SQRT_2PI * math.exp(-0.5 * x * x) / 1.
    if x > _DNORM_ZERO:
        return 0.
    x1 = math.ldexp(float(round(math.ldexp(x, 16))), -16)
    x2 = x - x1
    return M_1_SQRT_2PI / 1. * (math.exp(-0.5 * x1 * x1) * math.exp((-0.5 * x2 - x1) * x2))


def pnorm(x: float, lower_tail: bool, log_p: bool) -> float:
    """``pnorm(x, 0, 1, lower_tail, log_p)`` (``pnorm5``)."""
    if x != x:
        return x
    if not math.isfinite(x):
        lo = x < 0
        d0, d1 = (-INF, 0.) if log_p else (0., 1.)
        return (d0 if lower_tail else d1) if lo else (d1 if lower_tail else d0)
    cum, ccum = pnorm_both(x, 0 if lower_tail else 1, log_p)
    return cum if lower_tail else ccum


def qnorm(p: float, lower_tail: bool, log_p: bool) -> float:
    """``qnorm(p, 0, 1, lower_tail, log_p)`` (``qnorm5``, AS 241)."""
    if p != p:
        return p
    if log_p:
        if p > 0:
            return NAN
        if p == 0:
            return INF if lower_tail else -INF
        if p == -INF:
            return -INF if lower_tail else INF
    else:
        if p < 0 or p > 1:
            return NAN
        if p == 0:
            return -INF if lower_tail else INF
        if p == 1:
            return INF if lower_tail else -INF
    return qnorm_open1(p, lower_tail, log_p)


def dt_qiv(p: float, lower_tail: bool, log_p: bool) -> float:
    """``R_DT_qIv(p)``: the lower-tail probability of a ``q*()`` argument."""
    if log_p:
        return c_exp(p) if lower_tail else -c_expm1(p)
    return p if lower_tail else (0.5 - p + 0.5)

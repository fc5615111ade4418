# SPDX-License-Identifier: GPL-3.0-or-later
# Not derived: the ctypes wrapper of src/rng.c, whose header names its sources
"""R's random streams on the Mersenne-Twister words (``src/rng.c``).

The stream's state comes as :func:`pycalib_r._rng.bitgen._mt.kernel_words`
hands it: ``mt`` (the 624-word key, uint32), ``w`` (the tempered words of its
block, uint32) and the position; the samplers return the new position (the
block in ``mt``/``w`` may have advanced) and the caller writes the key and
the position back. The nmath samplers keep the position in ``st`` (a
one-element int64 array), as their callers hand it.

Twins: numpy's ``MT19937`` (the words), ``_rng.do_sample._sample`` (the
index and weighted samplers), ``_rng.nmath._dists`` with
``_rng.stream._stream_dists`` (rexp, rgamma, rbeta, rpois). Arrays are the
callers' own (dtype and layout as documented per function); nothing here
allocates but :func:`index_fill`'s buffer for an output type the C loop
does not write.

R equivalent: ``MT_genrand``, ``R_unif_index``, ``do_sample``,
``walker_ProbSampleReplace``, ``ProbSampleNoReplace``, ``revsort``,
``exp_rand``, ``norm_rand``, ``rgamma``, ``rbeta``, ``rpois``.
"""

from __future__ import annotations

import numpy as np

from . import c_double, c_i64, c_int, c_void_p, fn, ptr

_V = c_void_p
_temper = fn("pcr_mt_temper_block", None, _V, _V)
_next = fn("pcr_mt_next_block", None, _V, _V)
_index64 = fn("pcr_index_fill_i64", c_i64, _V, _V, c_i64, c_double, c_int, _V, c_i64, c_i64)
_index32 = fn("pcr_index_fill_i32", c_i64, _V, _V, c_i64, c_double, c_int, _V, c_i64, c_i64)
_noreplace = fn("pcr_noreplace_fill", None, _V, _V, _V, _V, _V, c_i64, c_i64)
_hash = fn("pcr_hash_fill", c_i64, _V, _V, c_i64, c_double, c_int, _V, c_i64, c_int, _V, c_i64, c_i64)
_walker = fn("pcr_walker_fill", c_i64, _V, _V, c_i64, c_i64, c_int, _V, _V, _V, c_i64, c_i64)
_revsort = fn("pcr_revsort", None, _V, _V, c_i64)
_alias = fn("pcr_walker_alias", None, _V, _V, _V, c_i64)
_prob_nr = fn("pcr_prob_noreplace", None, _V, _V, _V, _V, c_i64, c_i64, _V, _V)
_exp = fn("pcr_exp_fill", None, _V, _V, _V, _V, c_i64)
_gamma = fn("pcr_gamma_fill", None, _V, _V, _V, _V, c_i64, _V, c_i64, _V, c_i64)
_beta = fn("pcr_beta_fill", None, _V, _V, _V, _V, c_i64, _V, c_i64, _V, c_i64)
_pois = fn("pcr_pois_fill", None, _V, _V, _V, _V, c_i64, _V, c_i64, _V)

_I64 = np.dtype(np.int64)
_I32 = np.dtype(np.int32)


def _need(a, dtype, what):
    # The C loops read raw memory: a wrong type or a strided view would be
    # read as garbage, so it is refused (callers pass their own arrays).
    if a.dtype != dtype or not a.flags.c_contiguous:
        raise TypeError(f"{what}: C-contiguous {np.dtype(dtype).name} array needed")


# --- the words -------------------------------------------------------------------

def temper_block(mt, w):
    """``w[i] = temper(mt[i])``: the words the current block gives."""
    _temper(ptr(mt), ptr(w))


def next_block(mt, w):
    """Advance ``mt`` by one block (numpy's ``mt19937_gen``) and temper it into ``w``."""
    _next(ptr(mt), ptr(w))


# --- R_unif_index samplers -----------------------------------------------------------

def index_fill(mt, w, pos, dn, bits, out, offset):
    """Fill ``out`` (1-D integer) with successive ``R_unif_index(dn) + offset``;
    returns the new position. R's ``rbits`` joins the high 16 bits of
    ``bits // 16 + 1`` words, keeps the low ``bits`` bits, rejects values
    ``>= dn``."""
    if out.size == 0:
        return pos
    if out.flags.c_contiguous and out.dtype == _I64:
        return _index64(ptr(mt), ptr(w), pos, dn, bits, ptr(out), out.size, offset)
    if out.flags.c_contiguous and out.dtype == _I32:
        return _index32(ptr(mt), ptr(w), pos, dn, bits, ptr(out), out.size, offset)
    tmp = np.empty(out.size, dtype=np.int64)
    pos = _index64(ptr(mt), ptr(w), pos, dn, bits, ptr(tmp), tmp.size, offset)
    out[...] = tmp
    return pos


def noreplace_fill(mt, w, pos, x, n, bits, out, start, stop):
    """R's partial Fisher-Yates for draws ``start .. stop - 1`` (``x``: int32
    population, ``out``: int64); returns ``(pos, n, bits)`` for the next slice."""
    _need(x, _I32, "x")
    _need(out, _I64, "out")
    io = np.array([pos, n, bits], dtype=np.int64)
    _noreplace(ptr(mt), ptr(w), ptr(io), ptr(x), ptr(out), start, stop)
    return int(io[0]), int(io[1]), int(io[2])


def hash_fill(mt, w, pos, dn, bits, table, tbits, out, start, stop):
    """R's ``sample2`` for draws ``start .. stop - 1`` (``table``: uint64 set
    of ``2^tbits`` slots, at least twice the sample); returns the new position."""
    _need(table, np.uint64, "table")
    _need(out, _I64, "out")
    return _hash(ptr(mt), ptr(w), pos, dn, bits, ptr(table), table.size, tbits, ptr(out), start, stop)


def walker_fill(mt, w, pos, n, bits, qa, alias, out, start, stop):
    """Walker's alias draws ``start .. stop - 1`` (``qa`` float64 cut-offs plus
    slots, ``alias`` int64); returns the new position."""
    _need(qa, np.float64, "qa")
    _need(alias, _I64, "alias")
    _need(out, _I64, "out")
    return _walker(ptr(mt), ptr(w), pos, n, bits, ptr(qa), ptr(alias), ptr(out), start, stop)


# --- weighted samplers that read no words -----------------------------------------------

def revsort(av, ib):
    """R's ``revsort`` in place on 1-based ``av[1..n]`` (float64), ``ib`` (int64)."""
    _need(av, np.float64, "av")
    _need(ib, _I64, "ib")
    _revsort(ptr(av), ptr(ib), av.size - 1)


def walker_alias(q, hl, a, n):
    """Walker's alias table in place (``q`` float64, ``hl`` and ``a`` int64)."""
    _need(q, np.float64, "q")
    _need(hl, _I64, "hl")
    _need(a, _I64, "a")
    _alias(ptr(q), ptr(hl), ptr(a), n)


def prob_noreplace(ps, perm, u, out, start, stop, n1, total):
    """``ProbSampleNoReplace`` draws ``start .. stop - 1`` after ``revsort``;
    returns ``(n1, total)`` for the next slice."""
    _need(ps, np.float64, "ps")
    _need(perm, _I64, "perm")
    _need(u, np.float64, "u")
    _need(out, _I64, "out")
    io = np.array([n1], dtype=np.int64)
    tot = np.array([total], dtype=np.float64)
    _prob_nr(ptr(ps), ptr(perm), ptr(u), ptr(out), start, stop, ptr(io), ptr(tot))
    return int(io[0]), float(tot[0])


# --- nmath samplers (st: the position, int64[1]) ---------------------------------------------

def _fill_args(st, out, *params):
    _need(st, _I64, "st")
    _need(out, np.float64, "out")
    for p in params:
        _need(p, np.float64, "parameter")
        if p.size not in (1, out.size):
            raise ValueError("a parameter has length 1 or the output's")


def exp_fill(mt, w, st, out):
    """``out[i] = exp_rand()``."""
    _fill_args(st, out)
    _exp(ptr(mt), ptr(w), ptr(st), ptr(out), out.size)


def gamma_fill(mt, w, st, a, scale, out):
    """``out[i] = rgamma(a[i], scale[i])`` (length 1 recycled), finite ``a, scale > 0``."""
    _fill_args(st, out, a, scale)
    _gamma(ptr(mt), ptr(w), ptr(st), ptr(a), a.size, ptr(scale), scale.size, ptr(out), out.size)


def beta_fill(mt, w, st, aa, bb, out):
    """``out[i] = rbeta(aa[i], bb[i])`` (length 1 recycled), finite shapes; ``0, 0`` the coin."""
    _fill_args(st, out, aa, bb)
    _beta(ptr(mt), ptr(w), ptr(st), ptr(aa), aa.size, ptr(bb), bb.size, ptr(out), out.size)


def pois_fill(mt, w, st, mu, out, pp):
    """``out[i] = rpois(mu[i])`` as doubles (length 1 recycled), finite ``mu > 0``;
    ``pp``: room for the 36-term table."""
    _fill_args(st, out, mu)
    _need(pp, np.float64, "pp")
    if pp.size < 36:
        raise ValueError("pp: room for 36 doubles needed")
    _pois(ptr(mt), ptr(w), ptr(st), ptr(mu), mu.size, ptr(out), out.size, ptr(pp))

# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: R 4.2.2 src/main/format.c, src/main/printutils.c, src/library/base/R/format.R, src/library/base/R/strwrap.R (GPL-2.0-or-later), (c) The R Core Team
# Derived from: cli 3.6.0 R/rule.R, R/themes.R (MIT), (c) RStudio, Gabor Csardi
"""R's number formatting and cli's console rendering, as pure functions.

Everything here returns text; nothing prints. The goal is byte equality with
what R 4.2.2 (with cli 3.6.0, UTF-8, width 80, no colour) prints, so the code
follows R's C sources step by step rather than Python's own conventions:

* ``formatReal()`` / ``scientific()`` from R's ``src/main/format.c``, which
  decide the number of significant digits in 80-bit ``long double``
  arithmetic (``numpy.longdouble`` on x86-64 Linux is the same type, and its
  ``power`` and ``rint`` call the same ``powl`` / ``rintl`` from libm);
* ``EncodeReal0()`` / ``EncodeRealDrop0()`` from ``src/main/printutils.c``
  (C ``printf``; Python's ``%`` formatting is also correctly rounded from the
  exact binary value, so the two agree digit for digit, ties included);
* ``format.pval()``, ``strwrap()`` from base R's R code;
* cli's ``rule()``, heading themes, ``cli_dl()`` items and margin
  bookkeeping;
* display width and grapheme clusters from Python's ``unicodedata`` (East
  Asian wide characters 2 columns, combining and zero-width characters 0).

Python ``int`` values (and numpy integers) are treated as R integers when
they fit R's integer range, floats as R doubles, ``bool`` as R logicals and
``None`` as ``NA``.
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
from typing import Iterable, Mapping

import numpy as np

__all__ = [
    "format_r",
    "format_r_vec",
    "format_pval",
    "format_pval_vec",
    "as_character_num",
    "sprintf_pct1",
    "strwrap",
    "cli_abort_message",
    "display_width",
    "cli_rule",
    "cli_h1",
    "cli_h2",
    "cli_dl",
    "cli_text",
    "cli_value",
    "as_character",
    "CliBuffer",
    "render_blocks",
]

# ---------------------------------------------------------------------------
# R values
# ---------------------------------------------------------------------------

_INT_MAX = 2147483647  # R integers are 32-bit; -2^31 is NA_integer_
_DBL_DIG = 15
_DBL_EPSILON = 2.220446049250313e-16
_NA_WIDTH = 2  # nchar("NA"), R_print.na_width


class _RNA:
    """Marker for an R ``NA`` element (any type)."""

    __slots__ = ()

    def __repr__(self):  # pragma: no cover - debugging aid
        return "NA"


_NA = _RNA()


def _is_na_scalar(x) -> bool:
    if x is None or x is _NA:
        return True
    # pandas.NA and numpy.ma.masked, without importing pandas
    return type(x).__name__ in ("NAType", "MaskedConstant")


def _is_r_na_double(x: float) -> bool:
    """True for R's ``NA_real_``: a NaN whose low 32-bit word is 1954 (R's ``R_IsNA``)."""
    if x == x:
        return False
    return (struct.unpack("<Q", struct.pack("<d", x))[0] & 0xFFFFFFFF) == 1954


def _classify(x):
    """Return ``(kind, value)`` with kind 'lgl', 'int' or 'dbl'; value is ``_NA`` for NA."""
    if _is_na_scalar(x):
        return "lgl", _NA
    if isinstance(x, (bool, np.bool_)):
        return "lgl", bool(x)
    if isinstance(x, (int, np.integer)):
        v = int(x)
        # R has no integer outside (-2^31, 2^31): such values are doubles there
        if -_INT_MAX <= v <= _INT_MAX:
            return "int", v
        return "dbl", float(v)
    if isinstance(x, (float, np.floating)):
        v = float(x)
        if _is_r_na_double(v):
            return "dbl", _NA
        return "dbl", v
    raise TypeError(f"expected a number, bool or None, got {type(x).__name__}")


_KIND_RANK = {"lgl": 0, "int": 1, "dbl": 2}


def _coerce_vector(xs):
    """R's ``c()`` type promotion: a list of values and the common kind."""
    if isinstance(xs, np.ndarray):
        xs = xs.ravel().tolist() if xs.dtype != object else list(xs.ravel())
    elif not isinstance(xs, (list, tuple)):
        xs = list(xs)
    pairs = [_classify(v) for v in xs]
    kind = "lgl"
    for k, _ in pairs:
        if _KIND_RANK[k] > _KIND_RANK[kind]:
            kind = k
    out = []
    for _, v in pairs:
        if v is _NA:
            out.append(_NA)
        elif kind == "dbl":
            out.append(float(v))
        elif kind == "int":
            out.append(int(v))
        else:
            out.append(v)
    return out, kind


def _check_digits(digits) -> int:
    d = digits if isinstance(digits, (int, np.integer)) else None
    if d is None:
        try:
            f = float(digits)
        except (TypeError, ValueError):
            raise ValueError("invalid value NA for 'digits' argument") from None
        if f != f:
            raise ValueError("invalid value NA for 'digits' argument")
        d = int(f)  # R's asInteger truncates
    d = int(d)
    # R_MIN_DIGITS_OPT = 1 and R_MAX_DIGITS_OPT = 22 in R 4.2
    if d < 1 or d > 22:
        raise ValueError(f"invalid value {d} for 'digits' argument")
    return d


def _check_nsmall(nsmall) -> int:
    n = int(nsmall)
    if n < 0 or n > 20:
        raise ValueError("invalid 'nsmall' argument")
    return n


# ---------------------------------------------------------------------------
# formatReal (src/main/format.c)
# ---------------------------------------------------------------------------

_LD = np.longdouble
_KP_MAX = 27
# R's table of powers of ten is declared long double but initialised with
# double literals (1e23 rather than 1e23L), so from 1e23 on the entries carry
# the double's rounding error; reproducing that matters at rounding ties.
_TBL = [_LD(float("1e%d" % _k)) for _k in range(_KP_MAX + 1)]
_TEN_LD = _LD(10)


def _format_via_sprintf(r: float, d: int):
    buff = "%#.*e" % (d - 1, r)
    kpower = int(buff[d + 2:])
    i = d
    while i >= 2:
        if buff[i] != "0":
            break
        i -= 1
    return kpower, i


def _scientific(x: float, digits: int):
    """R's ``scientific()``: (neg, kpower, nsig, roundingwidens) for finite x."""
    if x == 0.0:
        return False, 0, 1, False
    neg = x < 0.0
    r = -x if neg else x
    if digits >= _DBL_DIG + 1:
        kpower, nsig = _format_via_sprintf(r, digits)
        return neg, kpower, nsig, False
    kp = math.floor(math.log10(r)) - digits + 1
    r_prec = _LD(r)
    if abs(kp) <= _KP_MAX:
        if kp > 0:
            r_prec = r_prec / _TBL[kp]
        elif kp < 0:
            r_prec = r_prec * _TBL[-kp]
    else:
        # R is built with powl(); numpy's longdouble power calls the same libm powl
        r_prec = r_prec / np.power(_TEN_LD, _LD(kp))
    if r_prec < _TBL[digits - 1]:
        r_prec = r_prec * _TEN_LD
        kp -= 1
    # nearbyintl in the default rounding mode (half to even), then to double
    alpha = float(np.rint(r_prec))
    nsig = digits
    for _ in range(digits):
        alpha /= 10.0
        if alpha == math.floor(alpha):
            nsig -= 1
        else:
            break
    if nsig == 0:
        nsig = 1
        kp += 1
    kpower = kp + digits - 1
    # Scientific format may round more than fixed (9996 to 3 digits is 1e+04
    # but prints as 9996 in fixed), so the fixed width must not count the
    # extra digit the rounding would add.
    rgt = digits - kpower
    rgt = 0 if rgt < 0 else (_KP_MAX if rgt > _KP_MAX else rgt)
    fuzz = 0.5 / float(_TBL[rgt])
    widens = 0 < kpower <= _KP_MAX and _LD(r) < _TBL[kpower] - _LD(fuzz)
    return neg, kpower, nsig, bool(widens)


def _format_real(xs, digits: int, nsmall: int = 0, scipen: int = 0):
    """R's ``formatReal()``: (w, d, e) for a list of floats / ``_NA``."""
    naflag = nanflag = posinf = neginf = False
    neg = False
    mnl = 2**31 - 1
    int_min = -(2**31)
    mxl = rgt = mxsl = mxns = int_min
    for x in xs:
        if x is _NA:
            naflag = True
            continue
        if not math.isfinite(x):
            if x != x:
                nanflag = True
            elif x > 0:
                posinf = True
            else:
                neginf = True
            continue
        neg_i, kpower, nsig, widens = _scientific(x, digits)
        left = kpower + 1
        if widens:
            left -= 1
        sleft = neg_i + (1 if left <= 0 else left)
        right = nsig - left
        if neg_i:
            neg = True
        if right > rgt:
            rgt = right
        if left > mxl:
            mxl = left
        if left < mnl:
            mnl = left
        if sleft > mxsl:
            mxsl = sleft
        if nsig > mxns:
            mxns = nsig
    if mxl < 0:
        mxsl = 1 + neg
    if rgt < 0:
        rgt = 0
    wF = mxsl + rgt + (rgt != 0)
    e = 2 if (mxl > 100 or mnl <= -99) else 1
    if mxns != int_min:
        d = mxns - 1
        w = neg + (d > 0) + d + 4 + e
        if wF <= w + scipen:
            e = 0
            if nsmall > rgt:
                rgt = nsmall
                wF = mxsl + rgt + (rgt != 0)
            d = rgt
            w = wF
    else:
        w = d = e = 0
    if naflag and w < _NA_WIDTH:
        w = _NA_WIDTH
    if nanflag and w < 3:
        w = 3
    if posinf and w < 3:
        w = 3
    if neginf and w < 4:
        w = 4
    return w, d, e


def _encode_real0(x, w: int, d: int, e: int) -> str:
    """R's ``EncodeReal0()`` (C printf with R's width and digits)."""
    if x is _NA:
        return "%*s" % (w, "NA")
    if not math.isfinite(x):
        if x != x:
            return "%*s" % (w, "NaN")
        return "%*s" % (w, "Inf" if x > 0 else "-Inf")
    if x == 0.0:
        x = 0.0  # R prints negative zero as 0
    if e:
        if d:
            return "%#*.*e" % (w, d, x)
        return "%*.*e" % (w, d, x)
    return "%*.*f" % (w, d, x)


def _drop_trailing0(s: str) -> str:
    """The trailing-zero removal of R's ``EncodeRealDrop0()``."""
    p = s.find(".")
    if p < 0:
        return s
    replace = p
    q = p + 1
    while q < len(s) and "0" <= s[q] <= "9":
        if s[q] != "0":
            replace = q + 1
        q += 1
    if replace != q:
        s = s[:replace] + s[q:]
    return s


def _format_logical(xs):
    w = 1
    for x in xs:
        if x is _NA:
            w = max(w, _NA_WIDTH)
        elif x and w < 4:
            w = 4
        elif not x and w < 5:
            w = 5
            break
    return w


def _format_integer(xs):
    vals = [x for x in xs if x is not _NA]
    w = _NA_WIDTH if len(vals) < len(xs) else 1
    if vals:
        lo, hi = min(vals), max(vals)
        if lo < 0:
            w = max(w, len(str(-lo)) + 1)
        if hi > 0:
            w = max(w, len(str(hi)))
    return w


def format_r_vec(xs, digits: int = 7, nsmall: int = 0) -> list:
    """Format a numeric vector as R's ``format()`` does, with a common layout.

    All elements share one width, one number of decimals and one
    fixed-versus-scientific choice (R's ``formatReal()`` with
    ``scipen = 0``), and are right-justified to the common width.

    R equivalent: ``format(xs, digits = digits, nsmall = nsmall)``.

    Parameters
    ----------
    xs : sequence of numbers, bools or None
        The vector. R's type promotion applies: any float makes the vector
        double; otherwise ints are R integers; bools alone are logical.
        ``None`` (or ``pandas.NA``, or R's ``NA_real_`` bit pattern) is
        ``NA``; ``float('nan')`` is ``NaN``.
    digits : int, default 7
        Significant digits, 1 to 22 (R's ``getOption("digits")`` is 7).
    nsmall : int, default 0
        Minimum number of decimals in fixed notation, 0 to 20.

    Returns
    -------
    list of str
    """
    d = _check_digits(digits)
    ns = _check_nsmall(nsmall)
    vals, kind = _coerce_vector(xs)
    if not vals:
        return []
    if kind == "dbl":
        w, dd, e = _format_real(vals, d, ns)
        return [_encode_real0(v, w, dd, e) for v in vals]
    if kind == "int":
        w = _format_integer(vals)
        return ["%*s" % (w, "NA" if v is _NA else str(v)) for v in vals]
    w = _format_logical(vals)
    return ["%*s" % (w, "NA" if v is _NA else ("TRUE" if v else "FALSE")) for v in vals]


def format_r(x, digits: int = 7, nsmall: int = 0) -> str:
    """Format one number as R's ``format()`` does.

    R equivalent: ``format(x, digits = digits, nsmall = nsmall)``, e.g.
    ``format(9.020202e-05)`` is ``"9.020202e-05"``, ``format(0.04587, digits =
    4)`` is ``"0.04587"``, ``format(1e5)`` is ``"1e+05"``.

    Parameters
    ----------
    x : float, int, bool or None
        A Python ``int`` is an R integer (never scientific: ``format(100000L)``
        is ``"100000"``), a ``float`` an R double, ``None`` is ``NA``.
    digits : int, default 7
        Significant digits, 1 to 22.
    nsmall : int, default 0
        Minimum number of decimals in fixed notation.

    Returns
    -------
    str
    """
    if isinstance(x, (list, tuple, np.ndarray)) and not np.ndim(x) == 0:
        raise TypeError("format_r() formats one value; use format_r_vec() for vectors")
    if isinstance(x, np.ndarray):
        x = x.item()
    return format_r_vec([x], digits, nsmall)[0]


def as_character_num(x) -> str:
    """R's ``as.character()`` of one number (15 significant digits, no padding).

    R equivalent: ``as.character(x)``: ``"0.1"``, ``"1e-04"``, ``"123456.7"``,
    ``"0.333333333333333"``, ``"1e+05"``; integers as ``"100000"``; logicals as
    ``"TRUE"``; ``NA`` as ``"NA"`` (R's value is ``NA_character_``, which cli
    and ``paste()`` show as ``NA``).

    Parameters
    ----------
    x : float, int, bool or None

    Returns
    -------
    str
    """
    kind, v = _classify(x)
    if v is _NA:
        return "NA"
    if kind == "lgl":
        return "TRUE" if v else "FALSE"
    if kind == "int":
        return str(v)
    w, d, e = _format_real([v], _DBL_DIG, 0)
    return _drop_trailing0(_encode_real0(v, w, d, e))


# ---------------------------------------------------------------------------
# format.pval (base R)
# ---------------------------------------------------------------------------

def _pval_is_na(p) -> bool:
    if _is_na_scalar(p):
        return True
    v = float(p)
    return v != v  # is.na() is TRUE for NaN too


def format_pval_vec(pv, digits: int = 4, eps: float = _DBL_EPSILON,
                    na_form: str = "NA") -> list:
    """Format p-values as R's ``format.pval()`` does (vector form).

    R equivalent: ``format.pval(pv, digits = digits, eps = eps, na.form =
    na_form)``. The default ``digits = 4`` is what ``print.htest`` passes
    (``max(1, getOption("digits") - 3)``); R's own default for
    ``format.pval`` is 5.

    Parameters
    ----------
    pv : sequence of float or None
    digits : int, default 4
    eps : float, default ``.Machine$double.eps``
        Values below ``eps`` print as ``"< 2.2e-16"`` (``"<2e-16"`` when
        ``digits - 2 <= 1``).
    na_form : str, default "NA"
        Text for ``NA``/``NaN`` entries.

    Returns
    -------
    list of str
    """
    if isinstance(pv, np.ndarray):
        pv = list(pv.ravel())
    else:
        pv = list(pv)
    ina = [_pval_is_na(p) for p in pv]
    vals = [float(p) for p, na in zip(pv, ina) if not na]
    is0 = [v < eps for v in vals]
    r = [""] * len(vals)
    rr = []
    if not all(is0):
        keep = [v for v, z in zip(vals, is0) if not z]
        expo = []
        for v in keep:
            lv = math.log10(v if v > 0 else 1e-50)
            expo.append(lv if math.isinf(lv) else math.floor(lv))
        fixp = [(ex >= -3) or (ex == -4 and digits > 1) for ex in expo]
        rr = [""] * len(keep)
        for group in (True, False):
            idx = [i for i, f in enumerate(fixp) if f is group]
            if idx:
                out = format_r_vec([keep[i] for i in idx], digits)
                for i, s in zip(idx, out):
                    rr[i] = s
        it = iter(rr)
        r = [None if z else next(it) for z in is0]
    if any(is0):
        d2 = max(1, int(digits) - 2)
        if not all(is0):
            nc = max(display_width(s) for s in rr)
            if d2 > 1 and d2 + 6 > nc:
                d2 = max(1, nc - 7)
            sep = "" if (d2 == 1 and nc <= 6) else " "
        else:
            sep = "" if d2 == 1 else " "
        lt = "<" + sep + format_r(float(eps), d2)
        r = [lt if z else s for s, z in zip(r, is0)]
    it = iter(r)
    return [na_form if na else next(it) for na in ina]


def format_pval(pv, digits: int = 4, eps: float = _DBL_EPSILON, na_form: str = "NA") -> str:
    """Format one p-value as R's ``format.pval()`` does.

    R equivalent: ``format.pval(pv, digits = digits)``: ``"0.284"``,
    ``"0.001"``, ``"< 2.2e-16"``, ``"NA"``. See :func:`format_pval_vec`
    (note ``digits`` defaults to 4, the value ``print.htest`` uses).

    Returns
    -------
    str
    """
    return format_pval_vec([pv], digits, eps, na_form)[0]


def sprintf_pct1(x) -> str:
    """A proportion as a percentage with one decimal.

    R equivalent: ``sprintf("%.1f%%", 100 * x)`` (``x = 0.95`` gives
    ``"95.0%"``). The multiplication by 100 happens here, in double
    precision, as in R; C's ``%.1f`` rounding of the result is Python's.

    Parameters
    ----------
    x : float or None
        The proportion (for example a confidence level).

    Returns
    -------
    str
    """
    kind, v = _classify(x)
    if v is _NA:
        return "NA%"
    v = 100.0 * float(v)
    if v != v:
        return "NaN%"
    if math.isinf(v):
        return ("Inf" if v > 0 else "-Inf") + "%"
    return "%.1f%%" % v


# ---------------------------------------------------------------------------
# Display width and graphemes (from Python's unicodedata)
# ---------------------------------------------------------------------------

_ZWJ = "\u200d"


def _zero_width(c: str) -> bool:
    """Characters that take no column of their own and attach to the one before."""
    if unicodedata.combining(c):
        return True
    if "\u200b" <= c <= "\u200f" or "\ufe00" <= c <= "\ufe0f":
        return True
    # the line and paragraph separators U+2028/U+2029 end a line rather than
    # occupy a column, as cli also counts them
    return unicodedata.category(c) in ("Mn", "Me", "Cf", "Zl", "Zp")


def _char_width(c: str) -> int:
    if _zero_width(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def _simple(s: str) -> bool:
    # printable ASCII: one column and one grapheme per character
    return s.isascii() and s.isprintable()


def _graphemes(s: str) -> list:
    """User-perceived characters of ``s``: [(start, end, width)].

    A cluster is a base character followed by the zero-width characters that
    attach to it; a zero-width joiner also pulls in the next character (and
    its own marks), so ZWJ emoji sequences stay one cluster. The cluster is
    as wide as its base: a terminal draws a joined emoji sequence as one
    glyph, not as the sum of its parts.
    """
    if _simple(s):
        return [(i, i + 1, 1) for i in range(len(s))]
    n = len(s)
    out = []
    i = 0
    while i < n:
        j = i + 1
        while j < n:
            if s[j - 1] == _ZWJ or _zero_width(s[j]):
                j += 1
            else:
                break
        out.append((i, j, _char_width(s[i])))
        i = j
    return out


def display_width(s: str) -> int:
    """Display width of a string in terminal columns.

    Characters that Unicode classes as East Asian Wide or Fullwidth (CJK
    ideographs, kana, Hangul syllables, most emoji) count 2; combining marks,
    format characters, zero-width spaces and joiners, and variation selectors
    count 0; everything else counts 1 (so U+2696, the balance scale of
    probcal's header, and the box-drawing U+2500 are 1 column). A ZWJ
    sequence counts as wide as its first character. The Unicode data are
    those of the running Python's ``unicodedata``.

    R equivalent: ``cli::ansi_nchar(s, type = "width")`` (cli 3.6.0), with
    which this agrees on ASCII, Latin, Greek, Cyrillic, box drawing, CJK and
    combining accents; scripts whose clusters need more than "base plus
    marks" (Hangul jamo sequences, Indic spacing marks, flags) may differ.
    """
    if _simple(s):
        return len(s)
    return sum(w for _, _, w in _graphemes(s))


def _substr_graphemes(s: str, n: int) -> str:
    if _simple(s):
        return s[:n]
    g = _graphemes(s)
    if len(g) <= n:
        return s
    return s[:g[n][0]]


# ---------------------------------------------------------------------------
# strwrap (base R) and cli's text wrapping
# ---------------------------------------------------------------------------

_SENT_END = re.compile(r"[.?!][)\"']{0,1}$")
_PAR_SEP = re.compile(r"\n[ \t\n]*\n")
_WORD_SEP = re.compile(r"[ \t\n]")


def _r_strsplit(s: str, pattern) -> list:
    # R's strsplit(): no pieces for "", and a match at the very end adds no
    # empty last piece (a match at the start does give a leading "")
    if s == "":
        return []
    parts = pattern.split(s)
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    return parts


def _r_width(s: str) -> int:
    # base R uses nchar(type = "w"); identical to cli's measure for ASCII
    return len(s) if _simple(s) else display_width(s)


def strwrap(x: str, width: float = 72, indent: int = 0, exdent: int = 0,
            prefix: str = "", initial: str | None = None) -> list:
    """Wrap one string into lines as base R's ``strwrap()`` does.

    Words are separated by single blanks (space, tab, newline); a line holds
    words while its length stays below ``width``; a blank that ends a
    sentence (after ``.``, ``?`` or ``!``) keeps a second blank; paragraphs
    (separated by blank lines) are separated by an empty line.

    R equivalent: ``strwrap(x, width, indent, exdent, prefix, initial =
    prefix)`` for a single string (default ``width`` is ``0.9 * 80``).

    Returns
    -------
    list of str
    """
    if initial is None:
        initial = prefix
    indent_s = " " * indent
    exdent_s = " " * exdent
    yi = []
    for para in _r_strsplit(x, _PAR_SEP):
        words = _r_strsplit(para, _WORD_SEP)
        nc = [_r_width(w) for w in words]
        if any(c == 0 for c in nc):
            # drop empty words except those right after a sentence end,
            # which make the double blank after a full stop
            after_sentence = {i + 1 for i, w in enumerate(words) if _SENT_END.search(w)}
            keep = [i for i, c in enumerate(nc) if c != 0 or i in after_sentence]
            words = [words[i] for i in keep]
            nc = [nc[i] for i in keep]
        if not words:
            yi.extend(["", initial])
            continue
        current = 0  # 1-based index of the last word placed, as in R
        lower = [1]
        upper = []
        lens = []
        acc = 0
        for c in nc:
            acc += c + 1
            lens.append(acc)
        first = True
        max_len = width - _r_width(initial) - indent
        while lens:
            k = max(sum(1 for v in lens if v <= max_len), 1)
            if first:
                first = False
                max_len = width - _r_width(prefix) - exdent
            current += k
            if nc[current - 1] == 0:
                upper.append(current - 1)
            else:
                upper.append(current)
            if len(lens) > k:
                if nc[current] == 0:
                    current += 1
                    k += 1
                lower.append(current + 1)
            if len(lens) > k:
                base = lens[k - 1]
                lens = [v - base for v in lens[k:]]
            else:
                lens = []
        nblocks = len(upper)
        heads = [initial + indent_s] + [prefix + exdent_s] * (nblocks - 1)
        initial = prefix
        for b in range(nblocks):
            heads[b] += " ".join(words[lower[b] - 1:upper[b]])
        yi.extend(heads)
        yi.append(prefix)
    if not yi:
        return [""]
    return yi[:-1]


_WS_NOT_SENT = re.compile(r"(?<![.!?])[ \t\n][ \t\n]*")
_WS_SENT_MANY = re.compile(r"(?<=[.!?])[ \t\n][ \t\n][ \t\n]*")
_WS_SENT_ONE = re.compile(r"(?<=[.!?])[ \t\n]")


# cli_abort() wraps its message for a line that starts after "Error: ".
_ABORT_WIDTH = 80
_ABORT_INDENT = len("Error: ")


def cli_abort_message(text: str, width: int = _ABORT_WIDTH) -> str:
    """``conditionMessage()`` of ``cli::cli_abort(text)`` for plain text.

    cli wraps the message at the console width (80 where R has no terminal)
    as if its first line followed ``"Error: "`` (7 columns); the later lines
    use the full width. A message of up to 72 columns is returned unchanged.

    R equivalent: ``conditionMessage(tryCatch(cli::cli_abort(text), error = identity))``
    (cli 3.6.0, width 80).

    Examples
    --------
    >>> print(cli_abort_message('Method "histogram" expects a vector `x`. '
    ...                         'Use "ovr" for multiclass binning.'))
    Method "histogram" expects a vector `x`. Use "ovr" for multiclass
    binning.
    """
    if "\n" not in text and _r_width(text) < width - _ABORT_INDENT:
        return text
    lines = _cli_wrap(text, width, indent=_ABORT_INDENT)
    if _r_width(lines[0]) >= width:
        # A first word too long for the line: cli starts it on the next one.
        lines.insert(0, "")
    else:
        lines[0] = lines[0][_ABORT_INDENT:]
    return "\n".join(line.lstrip(" ") if i == 1 and not lines[0] else line
                     for i, line in enumerate(lines))


def _cli_wrap(text: str, width: int, indent: int = 0) -> list:
    """cli's ``ansi_strwrap()`` for plain text: normalise blanks, then ``strwrap``."""
    pars = _r_strsplit(text, _PAR_SEP)
    out = []
    for s in pars:
        s = s.strip(" \t\r\n")
        s = _WS_NOT_SENT.sub(" ", s)
        s = _WS_SENT_MANY.sub("  ", s)
        s = _WS_SENT_ONE.sub(" ", s)
        out.append(s)
    return strwrap("\n\n".join(out), width=width, indent=indent)


# ---------------------------------------------------------------------------
# cli rendering
# ---------------------------------------------------------------------------

_LINE = "\u2500"  # cli's symbol$line in a UTF-8 session


def cli_value(value) -> str:
    """The text cli shows for a value interpolated into ``cli_dl()``.

    Strings are shown as they are, numbers as R's ``as.character()`` gives
    them (``1/3`` is ``0.333333333333333``, ``1e5`` is ``1e+05``, ``200L`` is
    ``200``), ``None`` as ``NA``, bools as ``TRUE``/``FALSE``; a sequence is
    the concatenation of its elements (cli pastes vectors with no separator).

    R equivalent: the item text of ``cli::cli_dl(list(label = value))``.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (list, tuple, np.ndarray)) or type(value).__name__ == "Series":
        return "".join(cli_value(v) for v in list(value))
    if isinstance(value, (np.str_,)):
        return str(value)
    return as_character_num(value)


def as_character(x) -> str:
    """R ``as.character()`` of one value, as cli shows it inside ``cli_dl()``.

    A float NaN stands for R's ``NA_real_`` here (an aliased ``glm``
    coefficient), which R shows as ``NA``.
    """
    if isinstance(x, (float, np.floating)) and math.isnan(x):
        return "NA"
    return cli_value(x)


def cli_rule(title: str = "", width: int = 80) -> str:
    """A cli rule with a left label: ``── title ───…`` filling ``width`` columns.

    Labels wider than ``width - 4`` are cut to ``width`` characters (grapheme
    clusters), as cli does; an empty label gives a plain line.

    R equivalent: ``cli::rule(left = title, width = width)``.
    """
    if title == "":
        return _LINE * width
    ncl = display_width(title)
    fill = width - ncl - 4
    res = _LINE * 2 + " " + title + " " + (_LINE * fill if fill > 0 else "")
    return _substr_graphemes(res, width)


class CliBuffer:
    """Accumulates what a sequence of cli calls prints, margins included.

    cli keeps one vertical-margin counter per session: a heading asks for an
    empty line above it (``margin-top = 1``) but only prints the part not
    already there, ``cli_h2()`` leaves one empty line below itself, and any
    text resets the counter. A fresh buffer starts like a fresh R session
    (counter 0), so the first heading is preceded by an empty line.

    R equivalent: the messages of consecutive ``cli::cli_h1()``,
    ``cli::cli_h2()``, ``cli::cli_dl()`` and ``cli::cli_text()`` calls.

    Examples
    --------
    >>> buf = CliBuffer()
    >>> _ = buf.h1("probcal calibrator").dl({"Method": "x", "Observations": 3})
    >>> str(buf).splitlines()[2]
    'Method: x'
    """

    def __init__(self, width: int = 80):
        self.width = int(width)
        self._parts = []
        self._margin = 0

    def _vspace(self, n: int) -> None:
        if self._margin < n:
            self._parts.append("\n" * (n - self._margin))
            self._margin = n

    def _cat_ln(self, lines) -> None:
        self._parts.append("".join(line + "\n" for line in lines))
        self._margin = 0

    def h1(self, text: str) -> "CliBuffer":
        """``cli::cli_h1(text)``: empty line above, full-width rule, no margin below."""
        self._vspace(1)
        self._cat_ln([cli_rule(text, self.width)])
        return self

    def h2(self, text: str) -> "CliBuffer":
        """``cli::cli_h2(text)``: empty line above, ``── text ──``, empty line below."""
        self._vspace(1)
        self._cat_ln([_LINE * 2 + " " + text + " " + _LINE * 2])
        self._vspace(1)
        return self

    def dl(self, items: Mapping) -> "CliBuffer":
        """``cli::cli_dl(items)``: one ``label: value`` entry per item, wrapped at the width."""
        for label, value in items.items():
            self._cat_ln(_cli_wrap(str(label) + ": " + cli_value(value), self.width))
        return self

    def text(self, text: str) -> "CliBuffer":
        """``cli::cli_text(text)``: a paragraph, blanks normalised and wrapped."""
        self._cat_ln(_cli_wrap(text, self.width))
        return self

    def cat(self, text: str) -> "CliBuffer":
        """Verbatim output (R's ``cat()``); cli's margin counter does not see it."""
        self._parts.append(text)
        return self

    def getvalue(self) -> str:
        """Everything written so far, byte for byte (normally ends with a newline)."""
        return "".join(self._parts)

    def __str__(self) -> str:
        """The output without its final newline, so ``print(str(buf))`` reproduces it."""
        s = self.getvalue()
        return s[:-1] if s.endswith("\n") else s


def render_blocks(blocks: Iterable, width: int = 80) -> str:
    """Render a sequence of cli blocks from a fresh state; see :class:`CliBuffer`.

    Parameters
    ----------
    blocks : iterable of (kind, payload)
        kind is ``"h1"``, ``"h2"``, ``"text"``, ``"cat"`` (payload a string) or
        ``"dl"`` (payload a mapping of label to value).
    width : int, default 80

    Returns
    -------
    str
        The printed text without its final newline.
    """
    buf = CliBuffer(width)
    for kind, payload in blocks:
        method = getattr(buf, kind, None)
        if kind not in ("h1", "h2", "dl", "text", "cat") or method is None:
            raise ValueError(f"unknown cli block kind {kind!r}")
        method(payload)
    return str(buf)


def cli_h1(text: str, width: int = 80) -> str:
    """What ``cli::cli_h1(text)`` prints in a fresh session, without the final newline.

    An empty line, then ``── text `` padded with ``─`` to ``width`` columns.
    """
    return str(CliBuffer(width).h1(text))


def cli_h2(text: str, width: int = 80) -> str:
    """What ``cli::cli_h2(text)`` prints in a fresh session, without the final newline.

    An empty line, ``── text ──`` and the empty line cli leaves below it.
    """
    return str(CliBuffer(width).h2(text))


def cli_dl(items: Mapping, width: int = 80) -> str:
    """What ``cli::cli_dl(items)`` prints, without the final newline (``label: value`` lines)."""
    return str(CliBuffer(width).dl(items))


def cli_text(text: str, width: int = 80) -> str:
    """What ``cli::cli_text(text)`` prints, without the final newline."""
    return str(CliBuffer(width).text(text))

"""R number formatting and cli rendering (pycalib_r.rbase._format) against R itself.

Expected strings come from R (through rpy2) or from the seed help pages,
never from our own code. Each parity test sends one batch of values to R.
"""

from __future__ import annotations

import math
import unicodedata

import numpy as np
import pytest

from pycalib_r.rbase._format import (
    CliBuffer,
    as_character_num,
    cli_dl,
    cli_h1,
    cli_h2,
    cli_rule,
    cli_text,
    display_width,
    format_pval,
    format_pval_vec,
    format_r,
    format_r_vec,
    render_blocks,
    sprintf_pct1,
    strwrap,
)

# ---------------------------------------------------------------------------
# value pools
# ---------------------------------------------------------------------------

_SPECIAL = [
    0.0, -0.0, math.nan, math.inf, -math.inf, 1e-300, 1e300, -1e300, 5e-324, -5e-324,
    2.2250738585072014e-308, 1.7976931348623157e308, 0.00015, 0.99995, 9.9999995,
    123456.75, 1e5, 1e15, 1e-5, 0.0001234, 0.5, 1.5, 2.5, 0.125, 0.375, 1234.5, 9996.0,
    99999.5, 0.0999999, 0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3, 1e-4, 1e-15, 1e16, 1e22,
    1e23, 1e27, 1e28, 1e-27, 1e-28, 123456.7, 9.020202e-05, 0.02973914, 0.04587, 0.1089,
    -0.000219, -0.0001383, 0.284, 0.001, 2.220446049250313e-16, 999999.5, 9999999.5,
    0.95, 0.995, 0.9995, 100.0, 1e-8, 3.14159265358979, 2.0 ** 52, 2.0 ** 53 + 2, 1e100,
    1e-100, 6.02214076e23, 1.602176634e-19, -1.0, -1e-10, 12345678901234567890.0,
]


def _pool(n_random=900, seed=20240521):
    """Doubles across all magnitudes plus values at decimal rounding boundaries."""
    rng = np.random.default_rng(seed)
    vals = list(_SPECIAL)
    # log-uniform magnitudes, both signs
    mags = 10.0 ** rng.uniform(-310, 308.2, n_random)
    signs = rng.choice([-1.0, 1.0], n_random)
    vals += [float(v) for v in mags * signs if math.isfinite(v)]
    # short decimals m / 10^k (as parsed from decimal text)
    for _ in range(500):
        m = int(rng.integers(1, 10 ** int(rng.integers(1, 16))))
        k = int(rng.integers(-5, 20))
        vals.append(float(f"{m}e{-k}"))
    # halfway decimals 5 at position d + 1, and their neighbours
    for _ in range(350):
        d = int(rng.integers(1, 16))
        m = int(rng.integers(10 ** (d - 1), 10 ** d))
        k = int(rng.integers(-12, 12))
        v = float(f"{m}5e{k - d}")
        vals += [v, math.nextafter(v, math.inf), math.nextafter(v, -math.inf)]
    # nines that round up to a new power of ten
    for d in range(1, 16):
        for k in (-7, -3, 0, 2, 5, 9):
            v = float("9" * d + f"5e{k - d}")
            vals += [v, math.nextafter(v, 0.0), float("9" * (d + 1) + f"e{k - d - 1}")]
    # exactly representable halves and dyadic fractions
    for _ in range(250):
        vals.append(float(rng.integers(-(2 ** 20), 2 ** 20)) / 2.0 ** int(rng.integers(1, 12)))
    # integers held as doubles
    vals += [float(v) for v in rng.integers(0, 10 ** 17, 120)]
    vals += [float(v) for v in rng.integers(-1000, 100000, 80)]
    return vals


POOL = _pool()


def _r_doubles(ro, values):
    """An R double vector; ``None`` entries become NA_real_."""
    x = ro.FloatVector([0.0 if v is None else v for v in values])
    na = [i + 1 for i, v in enumerate(values) if v is None]
    if na:
        ro.globalenv[".fmt_x"] = x
        ro.globalenv[".fmt_na"] = ro.IntVector(na)
        x = ro.r(".fmt_x[.fmt_na] <- NA_real_; .fmt_x")
    return x


def _strs(v):
    return [str(s) for s in v]


def _mismatches(got, want, inputs):
    return [(inp, g, w) for inp, g, w in zip(inputs, got, want, strict=True) if g != w]


# ---------------------------------------------------------------------------
# seeds (the expected strings are printed in the R help pages)
# ---------------------------------------------------------------------------

def _seed_lines(help_examples, topic):
    """The help page's printed lines, as the page shows them (``#> `` prefixed)."""
    return ["#> " + line for e in help_examples if e["topic"] == topic for line in e["output"].split("\n")]


def test_seed_cal_test_strings(help_examples):
    lines = _seed_lines(help_examples, "cal_test")
    rules = [ln[3:] for ln in lines if ln.startswith("#> ──")]
    assert rules and all(r == cli_h1("Kernel calibration test").splitlines()[1] for r in rules)
    assert "#> p-value: " + format_pval(0.284) in lines
    assert "#> p-value: " + format_pval(0.001) in lines
    # the empty line that precedes each rule
    assert lines[lines.index("#> " + rules[0]) - 1] == "#> "


def test_seed_cal_ci_strings(help_examples):
    lines = _seed_lines(help_examples, "cal_ci")
    rule = cli_rule("Calibration metric confidence interval")
    assert "#> " + rule in lines
    assert "#> Confidence level: " + sprintf_pct1(0.95) in lines


# ---------------------------------------------------------------------------
# format()
# ---------------------------------------------------------------------------

@pytest.mark.r_parity
def test_format_r_matches_r(r):
    values = POOL + [None]
    x = _r_doubles(r, values)
    r.globalenv[".fmt_x"] = x
    res = r.r("lapply(1:22, function(d) vapply(.fmt_x, format, '', digits = d))")
    bad = []
    for d in range(1, 23):
        want = _strs(res[d - 1])
        got = [format_r(v, d) for v in values]
        bad += [(d,) + m for m in _mismatches(got, want, values)]
    assert not bad, f"{len(bad)} of {22 * len(values)} differ, e.g. {bad[:10]}"


@pytest.mark.r_parity
def test_format_r_nsmall_matches_r(r):
    values = POOL[::3]
    r.globalenv[".fmt_x"] = _r_doubles(r, values)
    res = r.r("lapply(0:6, function(ns) lapply(c(1L, 4L, 7L, 12L), function(d) "
              "vapply(.fmt_x, format, '', digits = d, nsmall = ns)))")
    bad = []
    for ns in range(7):
        for j, d in enumerate((1, 4, 7, 12)):
            want = _strs(res[ns][j])
            got = [format_r(v, d, nsmall=ns) for v in values]
            bad += [(d, ns) + m for m in _mismatches(got, want, values)]
    assert not bad, bad[:10]


@pytest.mark.r_parity
def test_format_r_integers_and_logicals_match_r(r):
    ints = [0, 1, -1, 7, 100000, -100000, 123456789, 2147483647, -2147483647, 99999, 10 ** 6]
    r.globalenv[".fmt_i"] = r.IntVector(ints)
    want = _strs(r.r("vapply(.fmt_i, format, '')"))
    assert [format_r(v) for v in ints] == want
    want = _strs(r.r("c(format(NA_integer_), format(TRUE), format(FALSE), format(NA), "
                     "format(c(1L, NA, -20L)), format(c(TRUE, NA)), format(2147483648))"))
    got = [format_r(None), format_r(True), format_r(False), format_r(None)]
    got += format_r_vec([1, None, -20]) + format_r_vec([True, None]) + [format_r(2 ** 31)]
    assert got == want


@pytest.mark.r_parity
def test_format_r_vec_matches_r(r):
    rng = np.random.default_rng(7)
    pool = POOL + [None]
    vecs, digits, nsmall = [], [], []
    for _ in range(1500):
        n = int(rng.integers(1, 7))
        vecs.append([pool[int(i)] for i in rng.integers(0, len(pool), n)])
        digits.append(int(rng.integers(1, 16)))
        nsmall.append(int(rng.choice([0, 0, 0, 1, 3])))
    flat = [v for vec in vecs for v in vec]
    r.globalenv[".fmt_x"] = _r_doubles(r, flat)
    r.globalenv[".fmt_len"] = r.IntVector([len(v) for v in vecs])
    r.globalenv[".fmt_d"] = r.IntVector(digits)
    r.globalenv[".fmt_ns"] = r.IntVector(nsmall)
    res = r.r(".fmt_g <- rep(seq_along(.fmt_len), .fmt_len); "
              "mapply(function(i, d, ns) paste(format(.fmt_x[.fmt_g == i], digits = d, "
              "nsmall = ns), collapse = '|'), seq_along(.fmt_len), .fmt_d, .fmt_ns)")
    want = _strs(res)
    got = ["|".join(format_r_vec(v, d, ns)) for v, d, ns in zip(vecs, digits, nsmall, strict=True)]
    bad = _mismatches(got, want, list(zip(vecs, digits, nsmall, strict=True)))
    assert not bad, f"{len(bad)} of {len(vecs)} differ, e.g. {bad[:5]}"


# ---------------------------------------------------------------------------
# base::format.pval()
# ---------------------------------------------------------------------------

def _pvalues(seed=99):
    rng = np.random.default_rng(seed)
    p = [0.0, 1.0, 0.284, 0.001, 0.05, 0.0001, 0.00015, 0.000999, 0.00099995, 0.9999,
         0.99995, 1e-300, 2.220446049250313e-16, 2.2e-16, 2.3e-16, 1e-16, 5e-324, None,
         math.nan, 0.1 + 0.2, 1 / 3, 0.5, 0.0005]
    p += [float(v) for v in rng.uniform(0, 1, 400)]
    p += [float(v) for v in 10.0 ** rng.uniform(-20, 0, 500)]
    p += [float(v) for v in 10.0 ** rng.uniform(-330, -15, 100)]
    p += [(1 + int(k)) / 1000 for k in rng.integers(0, 1000, 100)]
    p += [(1 + int(k)) / 10000 for k in rng.integers(0, 10000, 100)]
    return p


@pytest.mark.r_parity
def test_format_pval_matches_r(r):
    p = _pvalues()
    r.globalenv[".fmt_p"] = _r_doubles(r, p)
    res = r.r("lapply(1:8, function(d) vapply(.fmt_p, base::format.pval, '', digits = d))")
    bad = []
    for d in range(1, 9):
        got = [format_pval(v, digits=d) for v in p]
        bad += [(d,) + m for m in _mismatches(got, _strs(res[d - 1]), p)]
    assert not bad, f"{len(bad)} differ, e.g. {bad[:10]}"
    # the default is print.htest's digits = 4
    assert [format_pval(v) for v in p] == _strs(res[3])


@pytest.mark.r_parity
def test_format_pval_vec_matches_r(r):
    rng = np.random.default_rng(3)
    pool = _pvalues(5)
    vecs, digits = [], []
    for _ in range(600):
        n = int(rng.integers(1, 6))
        vecs.append([pool[int(i)] for i in rng.integers(0, len(pool), n)])
        digits.append(int(rng.integers(1, 8)))
    flat = [v for vec in vecs for v in vec]
    r.globalenv[".fmt_x"] = _r_doubles(r, flat)
    r.globalenv[".fmt_len"] = r.IntVector([len(v) for v in vecs])
    r.globalenv[".fmt_d"] = r.IntVector(digits)
    res = r.r(".fmt_g <- rep(seq_along(.fmt_len), .fmt_len); "
              "mapply(function(i, d) paste(base::format.pval(.fmt_x[.fmt_g == i], digits = d), "
              "collapse = '|'), seq_along(.fmt_len), .fmt_d)")
    got = ["|".join(format_pval_vec(v, d)) for v, d in zip(vecs, digits, strict=True)]
    bad = _mismatches(got, _strs(res), list(zip(vecs, digits, strict=True)))
    assert not bad, f"{len(bad)} of {len(vecs)} differ, e.g. {bad[:5]}"


# ---------------------------------------------------------------------------
# as.character(), sprintf()
# ---------------------------------------------------------------------------

@pytest.mark.r_parity
def test_as_character_num_matches_r(r):
    values = POOL + [None]
    r.globalenv[".fmt_x"] = _r_doubles(r, values)
    want = _strs(r.r("s <- as.character(.fmt_x); s[is.na(s)] <- 'NA'; s"))
    got = [as_character_num(v) for v in values]
    bad = _mismatches(got, want, values)
    assert not bad, f"{len(bad)} of {len(values)} differ, e.g. {bad[:10]}"
    ints = [0, -5, 200, 100000, 2147483647]
    r.globalenv[".fmt_i"] = r.IntVector(ints)
    assert [as_character_num(v) for v in ints] == _strs(r.r("as.character(.fmt_i)"))
    assert [as_character_num(True), as_character_num(False)] == _strs(
        r.r("as.character(c(TRUE, FALSE))"))


@pytest.mark.r_parity
def test_sprintf_pct1_matches_r(r):
    rng = np.random.default_rng(11)
    x = [0.95, 0.9, 0.99, 0.995, 0.9995, 0.5, 0.8, 0.001, 0.999, 0.05, 0.00049, 0.12345]
    x += [float(v) for v in rng.uniform(0, 1, 500)]
    x += [int(k) / 2000 for k in rng.integers(0, 2000, 300)]
    x += [math.nan, math.inf, -math.inf, None]
    r.globalenv[".fmt_x"] = _r_doubles(r, x)
    want = _strs(r.r("sprintf('%.1f%%', 100 * .fmt_x)"))
    got = [sprintf_pct1(v) for v in x]
    assert not _mismatches(got, want, x)


# ---------------------------------------------------------------------------
# strwrap() and display width
# ---------------------------------------------------------------------------

def _random_texts(seed=17, n=300):
    rng = np.random.default_rng(seed)
    words = ["a", "calibration", "test", "p-value", "x.", "end!", "why?", "(note)", "ok.)",
             "it's", "Data:", "median", "0.05", "supercalifragilisticexpialidocious" * 2,
             "SKCE_uq", "=", "9.020202e-05"]
    seps = [" ", " ", " ", "  ", "   ", "\t", "\n", " \n\n ", "\n\n"]
    out = []
    for _ in range(n):
        k = int(rng.integers(1, 40))
        parts = []
        for _ in range(k):
            parts.append(words[int(rng.integers(0, len(words)))])
            parts.append(seps[int(rng.integers(0, len(seps)))])
        out.append("".join(parts[:-1]) if rng.random() < 0.7 else " " + "".join(parts))
    return out


@pytest.mark.r_parity
def test_strwrap_matches_r(r):
    texts = _random_texts()
    r.globalenv[".fmt_t"] = r.StrVector(texts)
    for width in (10, 30, 72, 80):
        want = _strs(r.r(f"vapply(.fmt_t, function(s) paste(strwrap(s, width = {width}), "
                         "collapse = '\\n'), '', USE.NAMES = FALSE)"))
        got = ["\n".join(strwrap(t, width=width)) for t in texts]
        bad = _mismatches(got, want, texts)
        assert not bad, (width, bad[:3])


def _assigned(lo, hi, step=1):
    return [chr(c) for c in range(lo, hi + 1, step)
            if unicodedata.category(chr(c)) not in ("Cn", "Cc", "Cs", "Co")]


# Text the package prints or a user could plausibly pass as a label or title.
# Left out on purpose, because the width rule (unicodedata's East Asian width
# plus zero-width marks) is not cli's there: ideographs newer than cli 3.6.0's
# Unicode data (U+9FFD..U+9FFF are 0 columns in cli, 2 here), Hangul jamo and
# tone marks, Indic spacing marks, and emoji beyond unicodedata's wide class.
_WIDTH_POOLS = {
    "ascii": _assigned(0x20, 0x7E),
    "latin1": _assigned(0xA0, 0xFF),
    "latin_extended": _assigned(0x100, 0x24F) + _assigned(0x1E00, 0x1EFF),
    "greek": _assigned(0x370, 0x3FF),
    "cyrillic": _assigned(0x400, 0x4FF),
    "punctuation": _assigned(0x2010, 0x205E),
    "box_drawing": _assigned(0x2500, 0x257F),
    "cjk": _assigned(0x4E00, 0x9FEF, 7),
    "combining": _assigned(0x300, 0x36F),
}


def _width_texts(seed=23, n=1500):
    rng = np.random.default_rng(seed)
    letters = (_WIDTH_POOLS["latin1"] + _WIDTH_POOLS["latin_extended"]
               + _WIDTH_POOLS["greek"] + _WIDTH_POOLS["cyrillic"])
    marks = _WIDTH_POOLS["combining"]
    # every character alone, and after an ASCII letter
    texts = [c for pool in _WIDTH_POOLS.values() for c in pool]
    texts += ["a" + c for pool in _WIDTH_POOLS.values() for c in pool]
    # base letters carrying one to three combining accents
    for _ in range(300):
        base = letters[int(rng.integers(0, len(letters)))]
        k = int(rng.integers(1, 4))
        texts.append(base + "".join(marks[int(i)] for i in rng.integers(0, len(marks), k)))
    # mixed words of the pools, separated by blanks
    pools = list(_WIDTH_POOLS.values())
    for _ in range(n):
        words = []
        for _ in range(int(rng.integers(1, 5))):
            pool = pools[int(rng.integers(0, len(pools)))]
            words.append("".join(pool[int(i)] for i in rng.integers(0, len(pool),
                                                                     int(rng.integers(1, 6)))))
        texts.append(" ".join(words))
    # what the package prints
    texts += ["\u2696 probcal calibrator", "\u2696", "\u2696\ufe0f", "\u2500" * 80,
              cli_h1("\u2696 probcal calibrator").splitlines()[1],
              cli_h2("Parameters").splitlines()[1], "e\u0301", "K\u00e4ngsepp",
              "\u4e2d\u6587", "abc"]
    return texts


@pytest.mark.r_parity
def test_display_width_matches_cli(r):
    texts = _width_texts()
    r.globalenv[".fmt_t"] = r.StrVector(texts)
    want = list(r.r("cli::ansi_nchar(.fmt_t, type = 'width')"))
    got = [display_width(t) for t in texts]
    bad = _mismatches(got, want, [t.encode("unicode_escape") for t in texts])
    assert not bad, f"{len(bad)} of {len(texts)} differ, e.g. {bad[:10]}"
    # the two widths the package's output relies on (cli gives 1 and 2, checked above)
    assert display_width("\u2696") == 1 and display_width("\u4e2d") == 2


# ---------------------------------------------------------------------------
# cli
# ---------------------------------------------------------------------------

_TITLES = [
    "probcal calibrator", "\u2696 probcal calibrator", "Kernel calibration test",
    "Calibration metric confidence interval", "Parameters", "x" * 75, "x" * 76, "x" * 77,
    "abcde " * 14, "a   b  c", "  lead trail  ", "\u4e2d\u6587 title", "\U0001F600 emoji",
    "\u2696\ufe0f vs16", "e\u0301 combining", "", "T", "\u4e2d" * 45,
]


@pytest.fixture(scope="module")
def cli_capture(r, r_cli_capture):
    if not r.r("l10n_info()[['UTF-8']]")[0]:
        pytest.fail("the cli parity tests need R running in a UTF-8 locale")
    fun = r_cli_capture

    def run(codes):
        return _strs(r.r["vapply"](r.StrVector(codes), fun, ""))
    return run


def _r_str(s):
    return '"' + "".join((f"\\U{{{ord(c):x}}}" if ord(c) > 0xFFFF else f"\\u{{{ord(c):x}}}")
                               if ord(c) > 126 or c in '"\\{}' else c
                         for c in s) + '"'


@pytest.mark.r_parity
def test_cli_headings_match_r(cli_capture):
    codes, got = [], []
    for t in _TITLES:
        # {t} interpolation keeps braces and markup out of the template
        codes.append(f"t <- {_r_str(t)}; cli::cli_h1('{{t}}')")
        got.append(cli_h1(t))
        if t:
            codes.append(f"t <- {_r_str(t)}; cli::cli_h2('{{t}}')")
            got.append(cli_h2(t))
    assert got == cli_capture(codes)


_CLI_CASES = [
    ('cli::cli_h1("probcal calibrator"); cli::cli_dl(list(Method = "x", Observations = 3L)); '
     'cli::cli_h2("Parameters"); cli::cli_dl(list(a = 1.5))',
     [("h1", "probcal calibrator"), ("dl", {"Method": "x", "Observations": 3}),
      ("h2", "Parameters"), ("dl", {"a": 1.5})]),
    ('cli::cli_h1("\\u2696 probcal calibrator"); cli::cli_dl(list(Method = "Platt scaling", '
     'Observations = 200L, Input = "scores or probabilities")); cli::cli_h2("Parameters"); '
     'cli::cli_dl(list(`(Intercept)` = -2.9692, x = 5.661)); '
     'cli::cli_h1("\\u2696 probcal calibrator"); cli::cli_dl(list(Method = "y"))',
     [("h1", "\u2696 probcal calibrator"),
      ("dl", {"Method": "Platt scaling", "Observations": 200,
              "Input": "scores or probabilities"}),
      ("h2", "Parameters"), ("dl", {"(Intercept)": -2.9692, "x": 5.661}),
      ("h1", "\u2696 probcal calibrator"), ("dl", {"Method": "y"})]),
    ('cli::cli_h1("One"); cli::cli_h1("Two")', [("h1", "One"), ("h1", "Two")]),
    ('cli::cli_h2("One"); cli::cli_h1("Two")', [("h2", "One"), ("h1", "Two")]),
    ('cli::cli_h2("One"); cli::cli_h2("Two")', [("h2", "One"), ("h2", "Two")]),
    ('cli::cli_h1("One"); cli::cli_h2("Two")', [("h1", "One"), ("h2", "Two")]),
    ('cli::cli_dl(list(a = 1)); cli::cli_dl(list(b = 2))', [("dl", {"a": 1.0}), ("dl", {"b": 2.0})]),
    ('cli::cli_text("some text here"); cli::cli_h1("x")', [("text", "some text here"), ("h1", "x")]),
    ('cli::cli_h2("P"); cli::cli_text("after")', [("h2", "P"), ("text", "after")]),
    ('cli::cli_dl(list(a = 1/3, b = 1e-20, c = 123456.75, d = 1e5, e = 100000L, f = TRUE, '
     'g = NA, h = 0.1 + 0.2, i = 1e15, j = c(1, 2), k = -0, l = NaN, m = -Inf, n = "", '
     'o = c("a", "b"), p = 1:3, q = 2147483647L, r = 0.1234567890123456))',
     [("dl", {"a": 1 / 3, "b": 1e-20, "c": 123456.75, "d": 1e5, "e": 100000, "f": True,
              "g": None, "h": 0.1 + 0.2, "i": 1e15, "j": [1.0, 2.0], "k": -0.0,
              "l": math.nan, "m": -math.inf, "n": "", "o": ["a", "b"], "p": [1, 2, 3],
              "q": 2147483647, "r": 0.1234567890123456})]),
    ('cli::cli_dl(list(Method = paste(rep("word", 30), collapse = " "), '
     'Z = strrep("z", 100), W = "a   b.  Sentence  two.   three", '
     'LongLabelLongLabelLongLabelLongLabelLongLabel = paste(rep("word", 12), collapse = " "), '
     'X = paste(rep("w", 36), collapse = " "), Y = paste(rep("w", 37), collapse = " ")))',
     [("dl", {"Method": " ".join(["word"] * 30), "Z": "z" * 100,
              "W": "a   b.  Sentence  two.   three",
              "LongLabelLongLabelLongLabelLongLabelLongLabel": " ".join(["word"] * 12),
              "X": " ".join(["w"] * 36), "Y": " ".join(["w"] * 37)})]),
    ('cli::cli_text(paste(rep("The test rejects. Calibration holds!", 6), collapse = "  "))',
     [("text", "  ".join(["The test rejects. Calibration holds!"] * 6))]),
    ('cli::cli_text(""); cli::cli_h1("A"); cli::cli_text("p1 a\n\n  p2 b.\tc\n"); '
     'cli::cli_dl(list(T = "a\tb\nc", U = "  padded  ")); cli::cli_h2("B"); cli::cli_h1("C")',
     [("text", ""), ("h1", "A"), ("text", "p1 a\n\n  p2 b.\tc\n"),
      ("dl", {"T": "a\tb\nc", "U": "  padded  "}), ("h2", "B"), ("h1", "C")]),
    ('cli::cli_h1("Kernel calibration test"); cli::cli_text("Method: Bootstrap kernel '
     'calibration test (SKCE_uq, 999 resamples)"); cli::cli_text("Data: p and y")',
     [("h1", "Kernel calibration test"),
      ("text", "Method: Bootstrap kernel calibration test (SKCE_uq, 999 resamples)"),
      ("text", "Data: p and y")]),
]


@pytest.mark.r_parity
def test_cli_block_sequences_match_r(cli_capture):
    want = cli_capture([code for code, _ in _CLI_CASES])
    got = [render_blocks(blocks) for _, blocks in _CLI_CASES]
    for (code, _), g, w in zip(_CLI_CASES, got, want, strict=True):
        assert g == w, code


@pytest.mark.r_parity
def test_probcal_summary_print_matches_r(probcal_r):
    """A probcal 0.1.0 summary() (h1, dl, h2, dl) printed by R, rebuilt here."""
    out = probcal_r.r("""
      local({
        set.seed(1); p <- runif(200); y <- rbinom(200, 1, p)
        m <- cal_temperature(p, y)
        app <- cli::start_app(.auto_close = FALSE)
        txt <- capture.output(summary(m), type = "message")
        cli::stop_app(app)
        list(paste(txt, collapse = "\\n"), m$n, m$method, m$input, round(m$temperature, 4))
      })""")
    want, n, method, inp, temp = (out[0][0], out[1][0], out[2][0], out[3][0], out[4][0])
    got = render_blocks([("h1", "\u2696 probcal calibrator"),
                         ("dl", {"Method": method, "Observations": int(n), "Input": inp}),
                         ("h2", "Parameters"), ("dl", {"Temperature": float(temp)})])
    assert got == want


# ---------------------------------------------------------------------------
# plain tests of the API contract
# ---------------------------------------------------------------------------

def test_cli_buffer_stream_and_text():
    buf = CliBuffer().h2("P")
    assert buf.getvalue() == "\n\u2500\u2500 P \u2500\u2500\n\n"
    assert str(buf) == "\n\u2500\u2500 P \u2500\u2500\n"
    assert cli_dl({"a": "x", "b": 2}) == "a: x\nb: 2"
    assert cli_text("") == ""
    assert len(cli_rule("T")) == 80


def test_bad_arguments():
    with pytest.raises(ValueError, match="invalid value 0 for 'digits' argument"):
        format_r(1.0, 0)
    with pytest.raises(ValueError, match="invalid 'nsmall' argument"):
        format_r(1.0, 7, nsmall=21)
    with pytest.raises(TypeError):
        format_r([1.0, 2.0])
    with pytest.raises(ValueError, match="unknown cli block kind"):
        render_blocks([("h9", "x")])

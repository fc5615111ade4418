"""The command line reads what data tools write (issue 30, deliver 3).

Separators (sniffed, or ``--sep``), compressed CSV (gzip, bzip2, xz, zip),
Parquet, standard input; every error exits 2, R's errors of an option name
the option; ``ece-ci`` prints what ``pycalib_r.ece_ci`` prints; ``parity``
without rpy2 gives the one error line.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import subprocess
import sys
import zipfile

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV


def _run(*args, stdin=None, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, input=stdin, check=False,
                          env=env or ORIGINAL_ENV, cwd=cwd)


def _ok(out):
    assert out.returncode == 0, out.stderr.decode()
    return out


@pytest.fixture()
def frame():
    g = np.random.default_rng(8)
    p = g.uniform(size=90)
    return pd.DataFrame({"id": np.arange(90), "prob": p,
                         "label": (g.uniform(size=90) < p).astype(int)})


def _ece(out):
    return json.loads(out.stdout)["metrics"]["ece"]


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
def test_separators_are_sniffed(tmp_path, frame, sep):
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False, sep=sep, float_format="%.17g")
    out = _ok(_run("metrics", path, "--p", "prob", "--y", "label", "--json"))
    assert _ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())


def test_sep_option(tmp_path, frame):
    path = tmp_path / "p.txt"
    frame.to_csv(path, index=False, sep=";", float_format="%.17g")
    out = _ok(_run("metrics", path, "--p", "prob", "--y", "label", "--json", "--sep", ";"))
    assert _ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())
    # the wrong separator: the header is one column
    bad = _run("metrics", path, "--p", "prob", "--y", "label", "--sep", ",")
    assert bad.returncode == 2 and b"not in the header (1 column)" in bad.stderr
    tab = _run("metrics", path, "--p", "prob", "--y", "label", "--sep", "ab")
    assert tab.returncode == 2 and b"argument --sep: invalid value" in tab.stderr


@pytest.mark.parametrize("kind", ["gz", "bz2", "xz", "zip"])
def test_compressed_csv(tmp_path, frame, kind):
    text = frame.to_csv(index=False, float_format="%.17g").encode()
    path = tmp_path / f"p.csv.{kind}"
    if kind == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("p.csv", text)
    else:
        path.write_bytes({"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](text))
    out = _ok(_run("metrics", path, "--p", "prob", "--y", "label", "--json"))
    assert _ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())
    if kind != "zip":  # a compressed stream on standard input
        out = _ok(_run("metrics", "-", "--p", "prob", "--y", "label", "--json",
                       stdin=path.read_bytes()))
        assert _ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())


def test_damaged_gzip_is_one_line(tmp_path, frame):
    path = tmp_path / "p.csv.gz"
    path.write_bytes(gzip.compress(frame.to_csv(index=False).encode())[:-30])
    out = _run("metrics", path, "--p", "prob", "--y", "label")
    assert out.returncode == 2 and b"Traceback" not in out.stderr
    assert out.stderr.startswith(f"pycalib-r: error: {path}: ".encode())


def test_zip_of_two_files_is_refused(tmp_path, frame):
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("a.csv", "x\n")
        z.writestr("b.csv", "x\n")
    out = _run("metrics", path, "--p", "prob", "--y", "label")
    assert out.returncode == 2 and b"a zip archive of 2 files" in out.stderr


def test_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    g = np.random.default_rng(3)
    P = g.dirichlet([1, 1, 1], 70)
    cls = np.array(["a", "b", "c"])[g.integers(0, 3, 70)]
    frame = pd.DataFrame({"a": P[:, 0], "b": P[:, 1], "c": P[:, 2],
                          "cls": pd.Categorical(cls, categories=["a", "b", "c"]),
                          "extra": np.arange(70)})
    path = tmp_path / "p.parquet"
    frame.to_parquet(path)
    out = _ok(_run("metrics", path, "--p", "a,b,c", "--y", "cls", "--json"))
    y = pd.Categorical(cls, categories=["a", "b", "c"])
    assert json.loads(out.stdout)["metrics"]["ece"] == pc.ece(P, y)
    frame.loc[5, "b"] = np.nan
    frame.to_parquet(path)
    out = _run("metrics", path, "--p", "a,b,c", "--y", "cls")
    assert out.stderr == (f"pycalib-r: error: {path}, row 6, column 'b': a missing value; fill "
                          "it in or drop the row\n").encode()
    out = _run("metrics", "-", "--p", "a,b,c", "--y", "cls", stdin=path.read_bytes())
    assert out.returncode == 2 and b"a Parquet file can be read from a file only" in out.stderr


def test_standard_input_and_the_usage_line(frame):
    text = frame.to_csv(index=False, float_format="%.17g").encode()
    out = _ok(_run("metrics", "-", "--p", "prob", "--y", "label", "--json", stdin=text))
    assert _ece(out) == pc.ece(frame["prob"].to_numpy(), frame["label"].to_numpy())
    usage = _ok(_run("metrics", "--help")).stdout.decode()
    assert "[FILE]" not in usage and " FILE" in usage.split("\n\n")[0]


def test_fast_and_exact_readers_agree_on_odd_cells(tmp_path):
    """pyarrow's parser against the csv module's cells and Python's float()."""
    pytest.importorskip("pyarrow")
    from pycalib_r.cli import _table

    cells = ["0.5", " 0.25", "0.125 ", "+.5", "1.", ".5e-1", "1E-2", "1e-320", "0.1000000000000000055511151231257827",
             "0.30000000000000004", "5e-324", "1_0", "0x1", "nan", "NaN", "inf", "-0", "0,5", "", "NA"]
    path = tmp_path / "odd.csv"
    for cell in cells:
        path.write_text(f"p;q\n0.5;1\n{cell};1\n")
        results = []
        for arrow in (True, False):
            saved = _table._arrow
            if not arrow:
                _table._arrow = lambda: None
            try:
                table = _table.read_table(str(path), ["p"], numeric=["p"])
                results.append(("ok", table.columns["p"].values.tolist()))
            except _table.CsvError as exc:
                results.append(("error", str(exc)))
            finally:
                _table._arrow = saved
        assert results[0] == results[1], (cell, results)
        try:
            want = float(cell)
        except ValueError:
            want = None
        if want is not None and want == want:
            assert results[0] == ("ok", [0.5, want]), cell


@pytest.mark.parametrize("args,message", [
    (["metrics", "--bins", "0"], "pycalib-r: error: ece: argument --bins: must be a single "
                                 "positive integer."),
    (["metrics", "--bandwidth", "-1"], "pycalib-r: error: mmce: argument --bandwidth: must be a "
                                       "single positive number."),
    (["ci", "--conf-level", "2"], "pycalib-r: error: argument --conf-level: must be a single "
                                  "number in `(0, 1)`."),
    (["ci", "--n-boot", "0"], "pycalib-r: error: argument --n-boot: must be a single positive "
                              "integer."),
    (["ece-ci", "--conf-level", "1.5"], "pycalib-r: error: argument --conf-level: "),
])
def test_r_errors_of_options_exit_2_and_name_the_option(tmp_path, frame, args, message):
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    out = _run(args[0], path, "--p", "prob", "--y", "label", *args[1:])
    err = out.stderr.decode()
    assert out.returncode == 2, err
    assert message in err and "Traceback" not in err
    assert "conf_level" not in err and "n_boot" not in err
    assert all(line.startswith("pycalib-r: error: ") for line in err.splitlines())


@pytest.mark.parametrize("options,kwargs", [
    ([], {}),
    (["--bins", "5", "--conf-level", "0.8"], {"bins": 5, "conf_level": 0.8}),
    (["--edges", "ece"], {"edges": "ece"}),
])
def test_ece_ci_prints_what_the_library_prints(tmp_path, frame, options, kwargs):
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False, float_format="%.17g")
    p, y = frame["prob"].to_numpy(), frame["label"].to_numpy()
    res = pc.ece_ci(p, y, **kwargs)
    out = _ok(_run("ece-ci", path, "--p", "prob", "--y", "label", *options))
    assert out.stdout.decode() == str(res) + "\n"
    out = _ok(_run("ece-ci", path, "--p", "prob", "--y", "label", "--json", *options))
    assert json.loads(out.stdout) == json.loads(json.dumps(res.to_dict()))


def test_ece_ci_multiclass_topk(tmp_path):
    g = np.random.default_rng(5)
    P = g.dirichlet([1, 1, 1], 200)
    y = g.integers(1, 4, 200)
    path = tmp_path / "mc.csv"
    pd.DataFrame({"a": P[:, 0], "b": P[:, 1], "c": P[:, 2], "y": y}).to_csv(
        path, index=False, float_format="%.17g")
    out = _ok(_run("ece-ci", path, "--p", "a,b,c", "--y", "y", "--type", "topk", "--top-k", "2",
                   "--bins", "4"))
    assert out.stdout.decode() == str(pc.ece_ci(P, y, type="topk", top_k=2, bins=4)) + "\n"


def test_validate_prints_the_library_report_as_json(tmp_path, frame):
    from pycalib_r.diagnostics._validation import validate_report

    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False, float_format="%.17g")
    p, y = frame["prob"].to_numpy(), frame["label"].to_numpy()
    out = _ok(_run("validate", path, "--p", "prob", "--y", "label", "--g", "8", "--no-profile"))
    want = validate_report(p, y, g=8, profile=False)
    assert json.loads(out.stdout) == json.loads(json.dumps(want))
    bad = _run("validate", path, "--p", "prob", "--y", "label", "--g", "1")
    assert bad.returncode == 2 and b"at least 2" in bad.stderr and b"Traceback" not in bad.stderr


def test_validate_group_and_weights_columns(tmp_path, frame):
    import warnings

    f = frame.copy()
    f["site"] = np.where(np.arange(len(f)) % 3 == 0, "north", "south")
    f["w"] = np.linspace(0.5, 2.0, len(f))
    path = tmp_path / "g.csv"
    f.to_csv(path, index=False, float_format="%.17g")
    out = _ok(_run("validate", path, "--p", "prob", "--y", "label", "--no-profile",
                   "--group", "site", "--weights", "w"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = pc.val_prob(f["prob"].to_numpy(), f["label"].to_numpy(), group=f["site"].to_numpy(),
                           weights=f["w"].to_numpy()).to_dict()
    got = json.loads(out.stdout)
    assert got["val_prob_grouped"] == json.loads(json.dumps(want))
    assert list(got["val_prob_grouped"]["stats"]) == ["north", "south", "Overall"]
    bad = _run("validate", path, "--p", "prob", "--y", "label", "--weights", "w")
    assert bad.returncode == 2 and b"--weights needs --group" in bad.stderr


def test_parity_without_rpy2_is_the_error_line(tmp_path, frame):
    path = tmp_path / "p.csv"
    frame.to_csv(path, index=False)
    hide = tmp_path / "hide"
    (hide / "rpy2").mkdir(parents=True)
    (hide / "rpy2" / "__init__.py").write_text("raise ImportError('hidden for the test')\n")
    env = dict(ORIGINAL_ENV)
    env["PYTHONPATH"] = f"{hide}:{env.get('PYTHONPATH', '')}"
    out = _run("parity", path, "--p", "prob", "--y", "label", env=env)
    err = out.stderr.decode()
    assert out.returncode == 2
    assert err.startswith("pycalib-r: error: rpy2 is not installed") and err.count("\n") == 1


@pytest.mark.parametrize("arrow", [True, False])
def test_calibrate_copies_each_record_across_chunks(tmp_path, monkeypatch, capsys, arrow):
    """--apply with a ';' separator, CRLF line ends, blank lines and quoted
    fields holding the separator and a line end, cut into many chunks: each
    record is copied as it is, with its calibrated value, in order."""
    from pycalib_r import cli
    from pycalib_r.cli import _source, _table

    monkeypatch.setattr(_source, "BLOCK", 64)
    if not arrow:
        monkeypatch.setattr(_table, "_arrow", lambda: None)
    g = np.random.default_rng(9)
    p = g.uniform(size=60)
    fit = tmp_path / "fit.csv"
    pd.DataFrame({"prob": p[:40], "label": (g.uniform(size=40) < p[:40]).astype(int)}).to_csv(
        fit, index=False, float_format="%.17g")
    rows = []
    for k, v in enumerate(p[40:]):
        note = f'"a;b\r\nc{k}"' if k % 7 == 0 else f"n{k}"
        rows.append(f"{note};{float(v)!r}\r\n" + ("\r\n" if k % 5 == 0 else ""))
    apply = tmp_path / "apply.csv"
    apply.write_bytes(("note;prob\r\n" + "".join(rows)).encode())
    out = tmp_path / "out.csv"
    assert cli.main(["calibrate", "--method", "platt", "--fit", str(fit), "--apply", str(apply),
                     "-o", str(out), "--p", "prob", "--y", "label"]) == 0
    capsys.readouterr()
    written = pd.read_csv(out, sep=";")
    source = pd.read_csv(apply, sep=";")
    assert list(written.columns) == ["note", "prob", "cal_prob"]
    assert written["note"].tolist() == source["note"].tolist()
    np.testing.assert_array_equal(written["prob"].to_numpy(), p[40:])
    fitted = pc.cal_platt(p[:40], pd.read_csv(fit)["label"].to_numpy())
    np.testing.assert_array_equal(written["cal_prob"].to_numpy(), pc.predict(fitted, p[40:]))


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_calibrate_a_parquet_file(tmp_path, suffix):
    pytest.importorskip("pyarrow")
    g = np.random.default_rng(12)
    p = g.uniform(size=90)
    fit = tmp_path / "fit.parquet"
    pd.DataFrame({"prob": p[:60], "label": (g.uniform(size=60) < p[:60]).astype(int)}).to_parquet(fit)
    apply = tmp_path / "apply.parquet"
    pd.DataFrame({"name": [f"r{k}" for k in range(30)], "prob": p[60:]}).to_parquet(apply)
    out = tmp_path / f"out.{suffix}"
    _ok(_run("calibrate", "--method", "platt", "--fit", fit, "--apply", apply, "-o", out,
             "--p", "prob", "--y", "label"))
    written = pd.read_parquet(out) if suffix == "parquet" else pd.read_csv(out)
    assert list(written.columns) == ["name", "prob", "cal_prob"]
    fitted = pc.cal_platt(p[:60], pd.read_parquet(fit)["label"].to_numpy())
    np.testing.assert_array_equal(written["cal_prob"].to_numpy(), pc.predict(fitted, p[60:]))
    assert written["name"].tolist() == [f"r{k}" for k in range(30)]


def test_a_decimal_comma_is_named(tmp_path):
    path = tmp_path / "eu.csv"
    path.write_text("prob;label\n0,25;1\n0,5;0\n")
    out = _run("metrics", path, "--p", "prob", "--y", "label")
    assert out.returncode == 2
    assert out.stderr.decode() == (f"pycalib-r: error: {path}, line 2, column 'prob': '0,25' is "
                                   "not a number (a decimal comma? numbers need a decimal "
                                   "point)\n")

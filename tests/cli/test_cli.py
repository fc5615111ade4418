"""The command line, run as users run it: ``python -m pycalib_r`` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pycalib_r as pc
from tests.conftest import ORIGINAL_ENV


def _run(*args, stdin=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "pycalib_r", *map(str, args)],
                          capture_output=True, text=True, input=stdin, check=False,
                          env=ORIGINAL_ENV, cwd=cwd)


def _ok(out):
    assert out.returncode == 0, out.stderr
    return out


def _write(path, frame):
    frame.to_csv(path, index=False, float_format="%.17g")
    return path


def test_demo_prints_the_help_examples(help_examples):
    out = _ok(_run("demo"))
    for example in help_examples:
        assert example["output"] in out.stdout


def test_demo_stops_quietly_when_the_reader_leaves():
    proc = subprocess.Popen([sys.executable, "-m", "pycalib_r", "demo"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ORIGINAL_ENV)
    assert proc.stdout.readline().startswith("# The examples")
    proc.stdout.close()  # as `| head -1` does
    stderr = proc.stderr.read()
    proc.wait(timeout=120)
    assert "Traceback" not in stderr


@pytest.fixture()
def binary_csv(tmp_path):
    pc.set_seed(5)
    p = pc.runif(120)
    y = pc.rbinom(120, 1, p)
    path = _write(tmp_path / "preds.csv", pd.DataFrame({"prob": p, "label": y}))
    return path, p, y


def _multiclass(n=60, seed=2):
    rng = np.random.default_rng(seed)
    raw = rng.gamma(1.0, size=(n, 3))
    p = raw / raw.sum(axis=1, keepdims=True)
    labels = np.array(["a", "b", "c"])[rng.integers(0, 3, size=n)]
    return p, labels


@pytest.fixture()
def multiclass_csv(tmp_path):
    p, labels = _multiclass()
    frame = pd.DataFrame({"a": p[:, 0], "b": p[:, 1], "c": p[:, 2], "cls": labels})
    path = _write(tmp_path / "mc.csv", frame)
    frame = pd.read_csv(path)
    y = pd.Categorical(frame["cls"], categories=["a", "b", "c"])
    return path, frame[["a", "b", "c"]].to_numpy(), y


# ---------------------------------------------------------------------------
# test and ci


def test_cli_test_prints_what_the_function_prints(binary_csv):
    path, p, y = binary_csv
    out = _ok(_run("test", path, "--p", "prob", "--y", "label", "--seed", "9", "--n-boot", "99"))
    pc.set_seed(9)
    expected = pc.cal_test(p, y, n_boot=99, data_name="prob and label")
    assert out.stdout == str(expected) + "\n"
    assert out.stderr == ""  # no progress bar when stderr is not a terminal


def test_cli_ci_json(binary_csv):
    path, p, y = binary_csv
    out = _ok(_run("ci", path, "--p", "prob", "--y", "label", "--seed", "3", "--n-boot", "49",
                   "--metric", "mce", "--bins", "5", "--json"))
    got = json.loads(out.stdout)
    pc.set_seed(3)
    expected = pc.cal_ci(p, y, metric="mce", n_boot=49, bins=5)
    assert got["estimate"] == expected.estimate
    assert got["lower"] == expected.lower and got["upper"] == expected.upper
    assert got["metric"] == expected.metric


@pytest.mark.parametrize("layout", ["csv first", "commas", "csv last"])
def test_cli_multiclass_with_class_names(multiclass_csv, layout):
    path, p, y = multiclass_csv
    columns = {"csv first": [path, "--p", "a", "b", "c"],
               "commas": ["--p", "a,b,c", path],
               "csv last": ["--p", "a", "b", "c", path]}[layout]
    out = _ok(_run("test", *columns, "--y", "cls", "--method", "asym",
                   "--bandwidth", "median", "--json"))
    got = json.loads(out.stdout)
    expected = pc.cal_test(p, y, method="asymptotic", bandwidth="median")
    assert got["p.value"] == expected.p_value
    assert got["data.name"] == "a+b+c and cls"


def test_cli_reads_standard_input(binary_csv):
    path, p, y = binary_csv
    out = _ok(_run("metrics", "-", "--p", "prob", "--y", "label", "--json",
                   stdin=path.read_text()))
    assert json.loads(out.stdout)["metrics"]["ece"] == pc.ece(p, y)


# ---------------------------------------------------------------------------
# metrics


def test_cli_metrics_table(binary_csv):
    path, p, y = binary_csv
    out = _ok(_run("metrics", path, "--p", "prob", "--y", "label", "--bins", "8",
                   "--bandwidth", "0.3", "--estimator", "ul"))
    lines = out.stdout.splitlines()
    assert lines[0] == "Calibration metrics of prob and label (n = 120)"
    assert lines[1].split() == ["metric", "value", "arguments"]
    expected = {"ece": pc.ece(p, y, bins=8), "mce": pc.mce(p, y, bins=8),
                "ace": pc.ace(p, y, bins=8), "mmce": pc.mmce(p, y, bandwidth=0.3),
                "skce": pc.skce(p, y, estimator="ul", bandwidth=0.3)}
    from pycalib_r.rbase._format import format_r

    rows = {line.split()[0]: line.split(None, 2) for line in lines[2:]}
    assert list(rows) == list(expected)
    for name, value in expected.items():
        assert rows[name][1] == format_r(value)  # R's print: 7 significant digits
    assert rows["skce"][2] == 'estimator = "ul", bandwidth = 0.3, type = "canonical"'
    assert rows["ece"][2] == 'bins = 8, type = "classwise", debiased = FALSE, ' \
                             'strategy = "equal_width"'


def test_cli_metrics_json_multiclass(multiclass_csv):
    path, p, y = multiclass_csv
    out = _ok(_run("metrics", path, "--p", "a,b,c", "--y", "cls", "--type", "conf",
                   "--strategy", "equal_freq", "--debiased", "--bandwidth", "median",
                   "--mmce-bandwidth", "0.3", "--json"))
    got = json.loads(out.stdout)
    assert got["n"] == 60 and got["data"] == "a+b+c and cls"
    assert got["metrics"] == {
        "ece": pc.ece(p, y, type="confidence", debiased=True, strategy="equal_freq"),
        "mce": pc.mce(p, y, type="confidence"),
        "ace": pc.ace(p, y, type="confidence"),
        "mmce": pc.mmce(p, y, bandwidth=0.3),
        "skce": pc.skce(p, y, bandwidth="median", type="confidence"),
    }


# ---------------------------------------------------------------------------
# calibrate


def _binary_fit_apply(tmp_path):
    pc.set_seed(11)
    s = pc.runif(200)
    y = pc.rbinom(200, 1, np.maximum(s - 0.2, 0))
    fit = _write(tmp_path / "fit.csv", pd.DataFrame({"id": np.arange(150), "score": s[:150],
                                                     "label": y[:150]}))
    new = _write(tmp_path / "new.csv", pd.DataFrame({"id": np.arange(50), "score": s[150:]}))
    return fit, new, s[:150], y[:150], pd.read_csv(new)["score"].to_numpy()


def _multiclass_fit_apply(tmp_path, logits=False):
    p, labels = _multiclass(n=150, seed=4)
    x = np.log(p) if logits else p
    frame = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "cls": labels})
    fit = _write(tmp_path / "fit.csv", frame.iloc[:100])
    new = _write(tmp_path / "new.csv", frame.iloc[100:].drop(columns="cls"))
    fit_frame = pd.read_csv(fit)
    y = pd.Categorical(fit_frame["cls"], categories=["a", "b", "c"])
    return (fit, new, fit_frame[["a", "b", "c"]].to_numpy(), y,
            pd.read_csv(new)[["a", "b", "c"]].to_numpy())


BINARY_METHODS = [
    ("platt", [], lambda x, y: pc.cal_platt(x, y)),
    ("temperature", [], lambda x, y: pc.cal_temperature(x, y)),  # x: logits
    ("beta", ["--eps", "1e-10"], lambda x, y: pc.cal_beta(x, y, eps=1e-10)),
    ("isotonic", [], lambda x, y: pc.cal_isotonic(x, y)),
    ("histogram", ["--bins", "6", "--strategy", "equal_freq"],
     lambda x, y: pc.cal_histogram(x, y, bins=6, strategy="equal_freq")),
    ("cv", ["--cv-method", "beta", "--folds", "4", "--seed", "3"],
     lambda x, y: pc.cal_cv(x, y, method="beta", folds=4, seed=3)),
]
MULTICLASS_METHODS = [
    ("vector_scaling", [], True, lambda x, y: pc.cal_vector_scaling(x, y)),
    ("temperature", [], True, lambda x, y: pc.cal_temperature(x, y)),
    ("dirichlet", ["--lambda", "0.01"], False, lambda x, y: pc.cal_dirichlet(x, y, lambda_=0.01)),
    ("ovr", ["--base-method", "isotonic"], False, lambda x, y: pc.cal_ovr(x, y, method="isotonic")),
    ("cv", ["--cv-method", "ovr", "--base-method", "platt", "--seed", "1"], False,
     lambda x, y: pc.cal_cv(x, y, method="ovr", base_method="platt", seed=1)),
]


@pytest.mark.parametrize("method,options,fit_fn", BINARY_METHODS, ids=[m[0] for m in BINARY_METHODS])
def test_cli_calibrate_binary(tmp_path, method, options, fit_fn):
    fit_csv, new_csv, x, y, new = _binary_fit_apply(tmp_path)
    if method == "temperature":  # temperature scaling takes logits
        for path in (fit_csv, new_csv):
            frame = pd.read_csv(path)
            frame["score"] = pc.logit(frame["score"].to_numpy())
            _write(path, frame)
        x, new = pd.read_csv(fit_csv)["score"].to_numpy(), pd.read_csv(new_csv)["score"].to_numpy()
    out_csv = tmp_path / "out.csv"
    out = _ok(_run("calibrate", "--method", method, "--fit", fit_csv, "--apply", new_csv,
                   "-o", out_csv, "--p", "score", "--y", "label", *options))
    fit = fit_fn(x, y)
    assert out.stdout == str(fit) + "\n"  # the calibrator as R prints it
    written = pd.read_csv(out_csv)
    assert list(written.columns) == ["id", "score", "cal_score"]
    # the input columns are copied as they were
    assert out_csv.read_text().splitlines()[1].startswith(new_csv.read_text().splitlines()[1])
    np.testing.assert_array_equal(written["cal_score"].to_numpy(), pc.predict(fit, new))


@pytest.mark.parametrize("method,options,logits,fit_fn", MULTICLASS_METHODS,
                         ids=[m[0] for m in MULTICLASS_METHODS])
def test_cli_calibrate_multiclass(tmp_path, method, options, logits, fit_fn):
    fit_csv, new_csv, x, y, new = _multiclass_fit_apply(tmp_path, logits=logits)
    out_csv = tmp_path / "out.csv"
    out = _ok(_run("calibrate", "--method", method, "--fit", fit_csv, "--apply", new_csv,
                   "-o", out_csv, "--p", "a", "b", "c", "--y", "cls", "--prefix", "calibrated_",
                   *options))
    fit = fit_fn(x, y)
    assert out.stdout == str(fit) + "\n"
    written = pd.read_csv(out_csv)
    added = ["calibrated_a", "calibrated_b", "calibrated_c"]
    assert list(written.columns) == ["a", "b", "c"] + added
    np.testing.assert_array_equal(written[added].to_numpy(), np.asarray(pc.predict(fit, new)))


def test_cli_calibrate_to_standard_output(tmp_path):
    fit_csv, new_csv, x, y, new = _binary_fit_apply(tmp_path)
    out = _ok(_run("calibrate", "--method", "iso", "--fit", fit_csv, "--apply", new_csv,
                   "-o", "-", "--p", "score", "--y", "label"))
    fit = pc.cal_isotonic(x, y)
    assert out.stderr == str(fit) + "\n"  # stdout is the CSV
    assert out.stdout.splitlines()[0] == "id,score,cal_score"
    assert len(out.stdout.splitlines()) == 51


@pytest.mark.parametrize("extra,message", [
    (["--bins", "5"], "argument --bins: not used by --method platt"),
    (["--prefix", ""], "already has a column 'score'; choose another --prefix"),
])
def test_cli_calibrate_bad_options(tmp_path, extra, message):
    fit_csv, new_csv, *_ = _binary_fit_apply(tmp_path)
    out = _run("calibrate", "--method", "platt", "--fit", fit_csv, "--apply", new_csv,
               "-o", tmp_path / "out.csv", "--p", "score", "--y", "label", *extra)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_cli_calibrate_never_overwrites_its_input(tmp_path):
    fit_csv, new_csv, *_ = _binary_fit_apply(tmp_path)
    before = new_csv.read_text()
    out = _run("calibrate", "--method", "platt", "--fit", fit_csv, "--apply", new_csv,
               "-o", new_csv, "--p", "score", "--y", "label")
    assert out.returncode == 2 and "would overwrite an input file" in out.stderr
    assert new_csv.read_text() == before


# ---------------------------------------------------------------------------
# diagram


def test_cli_diagram_writes_the_figure(binary_csv, tmp_path):
    path, *_ = binary_csv
    fig = tmp_path / "fig.png"
    _ok(_run("diagram", path, "--p", "prob", "--y", "label", "-o", fig, "--bins", "6"))
    assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_diagram_options_multiclass(multiclass_csv, tmp_path):
    path, *_ = multiclass_csv
    fig = tmp_path / "fig.svg"
    _ok(_run("diagram", "--p", "a,b,c", path, "--y", "cls", "-o", fig, "--type", "confidence",
             "--strategy", "equal_freq", "--intervals", "--conf-level", "0.9", "--no-counts",
             "--figsize", "6", "4"))
    text = fig.read_text()
    assert text.lstrip().startswith("<?xml") and 'width="432pt" height="288pt"' in text


def test_cli_diagram_overlays_compared_models(tmp_path):
    fit_csv, new_csv, *_ = _binary_fit_apply(tmp_path)
    calibrated = tmp_path / "cal.csv"
    _ok(_run("calibrate", "--method", "platt", "--fit", fit_csv, "--apply", fit_csv, "-o",
             calibrated, "--p", "score", "--y", "label"))
    fig = tmp_path / "fig.png"
    _ok(_run("diagram", calibrated, "--p", "score", "--y", "label", "--compare",
             "platt=cal_score", "-o", fig))
    assert fig.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the figure is reliability_diagram({"score": ..., "platt": ...}, y)
    import matplotlib
    import matplotlib.pyplot

    from pycalib_r.cli._data import read_models
    from pycalib_r.diagnostics._diagnostics import reliability_diagram

    (raw, cal), y = read_models(str(calibrated), [["score"], ["cal_score"]], "label")
    expected = reliability_diagram({"score": raw, "platt": cal}, y)
    subtitle = [t.get_text() for t in expected.texts if t.get_gid() == "subtitle"][0]
    matplotlib.pyplot.close(expected)
    assert subtitle == "ECE: score = %.4f, platt = %.4f" % (pc.ece(raw, y), pc.ece(cal, y))


@pytest.mark.parametrize("spec,message", [
    ("platt", "argument --compare: 'platt' is not NAME=COL[,COL...]"),
    ("x=a,b", "argument --compare: 'x=a,b' has 2 column(s), --p has 1"),
    ("prob=label", "argument --compare: the name 'prob' is used twice"),
])
def test_cli_diagram_bad_compare(binary_csv, tmp_path, spec, message):
    path, *_ = binary_csv
    out = _run("diagram", path, "--p", "prob", "--y", "label", "--compare", spec,
               "-o", tmp_path / "fig.png")
    assert out.returncode == 2 and message in out.stderr


def test_cli_diagram_unknown_format(binary_csv, tmp_path):
    path, *_ = binary_csv
    out = _run("diagram", path, "--p", "prob", "--y", "label", "-o", tmp_path / "fig.nope")
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "fig.nope" in out.stderr


# ---------------------------------------------------------------------------
# bad input: one line naming the file, the line and the column; exit status 2


BAD_CSVS = [
    ("empty", "", "empty.csv, line 1: the file is empty"),
    ("blank lines only", "\n\n", "blank lines only.csv, line 1: the file is empty"),
    ("header only", "prob,label\n", "header only.csv, line 2: no data rows after the header"),
    ("short row", "prob,label\n0.1,0\n0.2\n0.3,1\n",
     "short row.csv, line 3: 1 field, but the header has 2"),
    ("long row", "prob,label\n0.1,0\n\n0.2,1,7\n",
     "long row.csv, line 4: 3 fields, but the header has 2"),
    ("not a number", "prob,label\n0.1,0\n0.2,1\nhigh,1\n",
     "not a number.csv, line 4, column 'prob': 'high' is not a number"),
    ("missing cell", "prob,label\n0.1,0\n,1\n",
     "missing cell.csv, line 3, column 'prob': a missing value"),
    ("NA cell", "prob,label\n0.1,0\n0.3,NA\n",
     "NA cell.csv, line 3, column 'label': a missing value"),
    ("text label", "prob,label\n0.1,no\n0.3,yes\n",
     "text label.csv, line 2, column 'label': 'no' is not a number"),
    ("unknown column", "p,label\n0.1,0\n",
     "unknown column.csv, line 1, column 'prob': not in the header (2 columns)"),
    ("twice", "prob,prob,label\n0.1,0.1,0\n",
     "twice.csv, line 1, column 'prob': this name appears twice in the header"),
]


@pytest.mark.parametrize("name,content,message", BAD_CSVS, ids=[c[0] for c in BAD_CSVS])
def test_cli_bad_csv_is_one_line(tmp_path, name, content, message):
    path = tmp_path / f"{name}.csv"
    path.write_text(content)
    out = _run("metrics", path.name, "--p", "prob", "--y", "label", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.startswith(f"pycalib-r: error: {message}")
    # One error line; any further line is a hint on how to fix it (issue 45 item 10).
    lines = out.stderr.splitlines()
    assert all(line.startswith("pycalib-r: hint: ") for line in lines[1:]), out.stderr
    assert out.stderr.endswith("\n") and "Traceback" not in out.stderr


def test_cli_unknown_class_name(tmp_path):
    path = tmp_path / "mc.csv"
    path.write_text("a,b,cls\n0.2,0.8,a\n0.6,0.4,B\n")
    out = _run("metrics", path.name, "--p", "a", "b", "--y", "cls", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == ("pycalib-r: error: mc.csv, line 3, column 'cls': label 'B' is not one "
                          "of the probability columns (a, b); labels are 1..K or those names\n")


@pytest.mark.parametrize("command", ["metrics", "test", "ci", "diagram", "calibrate"])
def test_cli_missing_file_every_command(tmp_path, command):
    if command == "calibrate":
        args = ["calibrate", "--method", "platt", "--fit", "nope.csv", "--apply", "new.csv",
                "-o", "out.csv", "--p", "prob", "--y", "label"]
    else:
        args = [command, "nope.csv", "--p", "prob", "--y", "label"]
        if command == "diagram":
            args += ["-o", "fig.png"]
    out = _run(*args, cwd=tmp_path)
    assert (out.returncode, out.stderr) == (2, "pycalib-r: error: nope.csv: no such file\n")


def test_cli_reports_bad_input_with_r_message(tmp_path):
    path = _write(tmp_path / "bad.csv", pd.DataFrame({"prob": [0.2, 1.5], "label": [0, 1]}))
    out = _run("ci", path, "--p", "prob", "--y", "label")
    assert out.returncode == 2
    assert out.stderr == "pycalib-r: error: Argument `p` must contain probabilities in `[0, 1]`.\n"


@pytest.mark.parametrize("args,message", [
    (["test", "{csv}", "--p", "prob", "--y", "label", "--type", "bogus"],
     "argument --type: invalid choice: 'bogus' (choose from canonical, confidence)"),
    (["ci", "{csv}", "--p", "prob", "--y", "label", "--type", "canonical"],
     "argument --type: invalid choice for --metric ece: 'canonical' (choose from classwise, "
     "confidence)"),
    (["ci", "{csv}", "--p", "prob", "--y", "label", "--metric", "brier"],
     "argument --metric: invalid choice: 'brier'"),
    (["metrics", "{csv}", "--p", "prob", "--y", "label", "--bandwidth", "wide"],
     "argument --bandwidth: invalid value: 'wide' (a positive number, or median)"),
    (["calibrate", "--method", "logistic", "--fit", "{csv}", "--apply", "{csv}", "-o", "o.csv",
      "--p", "prob", "--y", "label"], "argument --method: invalid choice: 'logistic'"),
    (["test", "--p", "prob", "--y", "label"], "the following arguments are required: FILE"),
    (["metrics", "{csv}", "--p", "prob", "--y", "label", "--bandwidth", "median"],
     "argument --bandwidth: median is skce's; R's mmce takes a number: add --mmce-bandwidth"),
])
def test_cli_invalid_choice_names_the_option(binary_csv, args, message):
    path, *_ = binary_csv
    out = _run(*[str(path) if a == "{csv}" else a for a in args])
    assert out.returncode == 2
    assert message in out.stderr
    assert "'arg'" not in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("command", ["demo", "metrics", "test", "ci", "calibrate", "diagram"])
def test_cli_help_shows_an_example(command):
    out = _ok(_run(command, "--help"))
    example = out.stdout.split("example:\n", 1)[1].strip().splitlines()[0]
    assert example.startswith(f"pycalib-r {command}")


def test_cli_top_level_help_lists_an_example_per_command():
    out = _ok(_run("--help"))
    for command in ["demo", "metrics", "test", "ci", "calibrate", "diagram"]:
        assert f"\n  pycalib-r {command}" in out.stdout


@pytest.mark.r_parity
def test_demo_prints_the_metrics_as_r_does(probcal_r):
    probcal_r.r("set.seed(42); p <- runif(300); y <- rbinom(300, 1, p)")
    # The demo prints Python calls (>>>); the value is R's print without "[1] ".
    want = [f'>>> print(f"{{pc.{call}:.7g}}")\n'
            + probcal_r.r(f"capture.output(print({call}))")[0].removeprefix("[1] ")
            for call in ("ece(p, y)", "mmce(p, y)")]
    out = _ok(_run("demo"))
    for text in want:
        assert text in out.stdout


CSV_CASES = ["a,b\n1,2\n\n3,4\n", "a,b\n1,2\n3,4", "a,b\n\n\n1,2\n", 'a,b\n1,"2"\n3,4\n',
             'a,b\n1,"2\n5"\n3,4\n', "a,b\r\n1,2\r\n", " a ,b\n 1, 2 \n", "\n\na,b\n1,2\n",
             "a,b\n1,2\n" * 300 + 'x,"y"\n' + "5,6\n" * 10, "é,b\nü,2\n", "a\n1\n2",
             "a,b\r\n1,2\r\n\r\n3,4\r\n", 'a,b\n"1\n\n1",2\n\n3,4\n', "a,b\n1,x\n3,4\n"]


@pytest.mark.parametrize("block", [20, 1 << 22])
@pytest.mark.parametrize("arrow", [True, False])
def test_reader_gives_the_csv_modules_records(tmp_path, monkeypatch, block, arrow):
    """The chunked reader (pyarrow's parser, or the csv module where it
    cannot be exact) against the csv module row by row: blank lines, no
    final newline, stripped header names, quotes (also across chunks),
    carriage returns, the line of each record."""
    import csv as _csv

    from pycalib_r.cli import _source, _table

    monkeypatch.setattr(_source, "BLOCK", block)
    if not arrow:
        monkeypatch.setattr(_table, "_arrow", lambda: None)
    for i, text in enumerate(CSV_CASES):
        path = tmp_path / f"c{i}.csv"
        path.write_text(text, newline="")
        with open(path, encoding="utf-8-sig", newline="") as handle:
            reader = _csv.reader(handle)
            want, start = [], 1
            for fields in reader:
                line, start = start, reader.line_num + 1
                if fields:
                    want.append((line, fields))
        header = [name.strip() for name in want[0][1]]
        table = _table.read_table(str(path), header)
        got = [(table.lines.line(k), [table.columns[name].texts()[k] if
                                      table.columns[name].values is None else None
                                      for name in header]) for k in range(len(table.lines))]
        assert [line for line, _ in got] == [line for line, _ in want[1:]], text
        for name in header:
            column = table.columns[name]
            cells = [fields[header.index(name)] for _, fields in want[1:]]
            if column.values is None:
                assert column.texts() == cells, text
            else:
                assert column.values.tolist() == [float(c) for c in cells], text


def test_reader_on_a_bad_row_in_a_later_chunk(tmp_path, monkeypatch):
    from pycalib_r.cli import _source
    from pycalib_r.cli._data import read_csv

    monkeypatch.setattr(_source, "BLOCK", 64)
    path = tmp_path / "x.csv"
    path.write_text("prob,label\n" + "0.5,1\n" * 100 + "0.5,1,2\n")
    with pytest.raises(_source.CsvError, match=r"line 102: 3 fields, but the header has 2"):
        read_csv(str(path), ["prob"], "label")


def test_every_registered_command_has_help_an_example_and_a_run():
    """A subcommand is a module with add() and run() and one registry line;
    --help lists each with its example."""
    import importlib

    from pycalib_r.cli._registry import COMMANDS

    out = _ok(_run("--help"))
    for name, module in COMMANDS.items():
        mod = importlib.import_module(f"pycalib_r.cli.{module}")
        assert callable(mod.add) and callable(mod.run)
        assert f"\n  pycalib-r {name}" in out.stdout
        assert "example:\n  pycalib-r " + name in _ok(_run(name, "--help")).stdout


def test_the_library_never_imports_the_command_line():
    """The command line imports the core; no module outside pycalib_r/cli
    (but the entry point __main__) imports it."""
    import ast
    from pathlib import Path

    root = Path(pc.__file__).parent
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        if rel.parts[0] == "cli" or rel.name == "__main__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                names = [a.name for a in node.names]
                assert not (module.endswith("cli") or ".cli." in module + "."
                            or "cli" in names and module.strip(".") in ("", "pycalib_r")
                            or module.endswith("_command")), (rel, module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("pycalib_r.cli") for a in node.names), rel

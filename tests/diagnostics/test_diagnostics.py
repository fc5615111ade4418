"""reliability_table() and reliability_diagram() against probcal's reliability_diagram()."""

import io
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from pycalib_r import ProbcalError
from pycalib_r.diagnostics._diagnostics import (
    _extended_breaks,
    _r_format,
    _size_breaks,
    _size_scale,
    reliability_diagram,
    reliability_table,
    wrap_dims,
)
from pycalib_r.binned._metrics import ece

COLUMNS = ["bin", "lower", "upper", "n", "confidence", "accuracy", "gap"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")  # the figures are pyplot's


# ---------------------------------------------------------------------------
# data


def binary_data(n=200, seed=11):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=n)
    # values on bin edges and at 0 and 1 exercise the left-closed bins
    p[:12] = [0.0, 1.0, 0.1, 0.2, 0.5, 0.7, 0.9, 0.125, 0.375, 0.875, 0.3, 0.6]
    y = rng.binomial(1, p)
    return p, y


def multiclass_data(n=150, k=3, seed=60, skewed=False):
    rng = np.random.default_rng(seed)
    raw = rng.uniform(size=(n, k))
    if skewed:
        raw = raw ** 4
    prob = raw / raw.sum(axis=1, keepdims=True)
    labels = rng.integers(1, k + 1, size=n)
    return prob, labels


# ---------------------------------------------------------------------------
# R helpers


# `r` (rpy2's robjects; fails when R or rpy2 is missing) and `probcal_r`
# (skips when the probcal R package is missing) come from conftest.py.


@pytest.fixture
def probcal(probcal_r):
    return probcal_r


@pytest.fixture
def ggplot2(r):
    # as.integer: rpy2 3.5 with numpy 2 may read R logicals as None
    ok = r.r('as.integer(suppressWarnings(requireNamespace("ggplot2", quietly = TRUE)))')[0]
    if ok != 1:
        pytest.skip("the ggplot2 R package (probcal's plotting dependency) is not installed: "
                    "install it into R (Debian: apt-get install r-cran-ggplot2, which "
                    "tools/run_tests.sh does on Debian; elsewhere install.packages(\"ggplot2\"))")
    return r


def r_vec(ro, x):
    x = np.asarray(x)
    if x.dtype.kind in "iu":
        return ro.IntVector(x.tolist())
    return ro.FloatVector(x.tolist())


def r_matrix(ro, x):
    x = np.asarray(x, dtype=float)
    return ro.r.matrix(ro.FloatVector(x.ravel(order="F").tolist()), nrow=x.shape[0])


def r_factor(ro, cat):
    return ro.r.factor(ro.StrVector([str(v) for v in np.asarray(cat)]),
                       levels=ro.StrVector([str(c) for c in cat.categories]))


def r_frame(ro, frame):
    """An R data frame as pandas (factors as Categoricals), row names dropped."""
    out = {}
    for name in ro.r.names(frame):
        col = frame.rx2(name)
        if ro.r("function(x) as.integer(is.factor(x))")(col)[0] == 1:
            out[name] = pd.Categorical(list(ro.r["as.character"](col)),
                                       categories=list(ro.r.levels(col)))
        else:
            out[name] = np.asarray(col)
    return pd.DataFrame(out)


def assert_frame_close(ours, theirs, rtol=1e-12):
    assert list(ours.columns) == list(theirs.columns)
    assert len(ours) == len(theirs)
    for name in ["bin", "n"]:
        np.testing.assert_array_equal(ours[name].to_numpy(), theirs[name].to_numpy())
    for name in ["lower", "upper", "confidence", "accuracy", "gap"]:
        np.testing.assert_allclose(ours[name].to_numpy(), theirs[name].to_numpy(),
                                   rtol=rtol, atol=1e-15)
    if "class_label" in ours:
        assert list(ours["class_label"].cat.categories) == list(theirs["class_label"].cat.categories)
        assert list(ours["class_label"].astype(str)) == list(theirs["class_label"].astype(str))


def r_plot(ro, p, y, **kwargs):
    ro.globalenv["p_"] = p
    ro.globalenv["y_"] = y
    args = "".join(f", {k} = {v}" for k, v in kwargs.items())
    return ro.r(f"probcal::reliability_diagram(p_, y_{args})")


# ---------------------------------------------------------------------------
# table parity with R


@pytest.mark.r_parity
@pytest.mark.parametrize("bins", [1, 3, 8, 10, 25])
def test_binary_table_matches_bin_stats(probcal, bins):
    ro = probcal
    p, y = binary_data()
    stats = ro.r("probcal:::bin_stats")(r_vec(ro, p), r_vec(ro, y), bins)
    expected = r_frame(ro, stats)
    expected = expected[expected["n"] > 0].reset_index(drop=True)
    assert_frame_close(reliability_table(p, y, bins=bins), expected)


@pytest.mark.r_parity
def test_binary_table_matches_plot_data_of_help_example(probcal):
    ro = probcal
    ro.r("set.seed(6); ex_p <- stats::runif(120); ex_y <- rbinom(120, 1, ex_p)")
    p = np.asarray(ro.r("ex_p"))
    y = np.asarray(ro.r("ex_y"))
    plot = ro.r("probcal::reliability_diagram(ex_p, ex_y, bins = 8)")
    assert_frame_close(reliability_table(p, y, bins=8), r_frame(ro, plot.rx2("data")))


@pytest.mark.r_parity
@pytest.mark.parametrize("k,bins,skewed", [(3, 8, False), (3, 10, True), (5, 6, True), (2, 4, False)])
def test_classwise_table_matches_plot_data(probcal, k, bins, skewed):
    ro = probcal
    prob, labels = multiclass_data(k=k, skewed=skewed, seed=k + bins)
    plot = r_plot(ro, r_matrix(ro, prob), r_vec(ro, labels), bins=bins, type='"classwise"')
    expected = r_frame(ro, plot.rx2("data"))
    ours = reliability_table(prob, labels, bins=bins)
    assert_frame_close(ours, expected)
    assert isinstance(ours["class_label"].dtype, pd.CategoricalDtype)


@pytest.mark.r_parity
def test_classwise_table_with_factor_levels(probcal):
    ro = probcal
    prob, codes = multiclass_data(k=3, seed=5)
    levels = ["b", "a", "c"]
    y = pd.Categorical([levels[c - 1] for c in codes], categories=levels)
    plot = r_plot(ro, r_matrix(ro, prob), r_factor(ro, y), bins=7)
    expected = r_frame(ro, plot.rx2("data"))
    assert_frame_close(reliability_table(prob, y, bins=7), expected)


@pytest.mark.r_parity
@pytest.mark.parametrize("bins", [5, 10])
def test_confidence_table_matches_plot_data(probcal, bins):
    ro = probcal
    prob, labels = multiclass_data(k=4, seed=3, skewed=True)
    prob[0] = [0.25, 0.25, 0.25, 0.25]  # a tie: the first column wins
    plot = r_plot(ro, r_matrix(ro, prob), r_vec(ro, labels), bins=bins, type='"confidence"')
    expected = r_frame(ro, plot.rx2("data"))
    assert_frame_close(reliability_table(prob, labels, bins=bins, type="confidence"), expected)


# ---------------------------------------------------------------------------
# figure text and scales against R's ggplot


def fig_text(fig, which):
    """Figure-level title/labels (``get_suptitle`` etc. exist from matplotlib 3.8)."""
    getter = getattr(fig, f"get_{which}", None)
    if getter is not None:
        return getter()
    text = getattr(fig, f"_{which}", None)
    return "" if text is None else text.get_text()


def subtitle_of(fig):
    texts = [t.get_text() for t in fig.texts if t.get_gid() == "subtitle"]
    return texts[0] if texts else None


def r_labels(ro, plot):
    labels = plot.rx2("labels")
    names = list(ro.r.names(labels))
    out = {}
    for name in ["title", "subtitle", "x", "y"]:
        value = labels.rx2(name) if name in names else ro.NULL
        out[name] = None if value is ro.NULL or len(value) == 0 else value[0]
    return out


def fig_labels(fig):
    axes = fig.axes
    if len(axes) == 1:
        x, y = axes[0].get_xlabel(), axes[0].get_ylabel()
    else:
        x, y = fig_text(fig, "supxlabel"), fig_text(fig, "supylabel")
    return {"title": fig_text(fig, "suptitle"), "subtitle": subtitle_of(fig), "x": x, "y": y}


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", ["binary", "classwise", "confidence"])
@pytest.mark.parametrize("show_ece", [True, False])
def test_titles_and_labels_match_r(probcal, kind, show_ece):
    pytest.importorskip("matplotlib")
    ro = probcal
    r_ece = "TRUE" if show_ece else "FALSE"
    if kind == "binary":
        p, y = binary_data(seed=2)
        plot = r_plot(ro, r_vec(ro, p), r_vec(ro, y), bins=9, show_ece=r_ece)
        fig = reliability_diagram(p, y, bins=9, show_ece=show_ece)
    else:
        p, y = multiclass_data(k=3, seed=9)
        plot = r_plot(ro, r_matrix(ro, p), r_vec(ro, y), bins=9, show_ece=r_ece,
                      type=f'"{kind}"')
        fig = reliability_diagram(p, y, bins=9, show_ece=show_ece, type=kind)
    assert fig_labels(fig) == r_labels(ro, plot)


@pytest.mark.r_parity
@pytest.mark.parametrize("kind", ["binary", "classwise"])
def test_size_scale_and_legend_match_ggplot(probcal, kind):
    ro = probcal
    if kind == "binary":
        p, y = binary_data(n=300, seed=4)
        plot = r_plot(ro, r_vec(ro, p), r_vec(ro, y), bins=12)
        table = reliability_table(p, y, bins=12)
    else:
        p, y = multiclass_data(k=4, seed=8, skewed=True)
        plot = r_plot(ro, r_matrix(ro, p), r_vec(ro, y), bins=6)
        table = reliability_table(p, y, bins=6)
    ro.globalenv["plot_"] = plot
    r_sizes = np.asarray(ro.r("ggplot2::layer_data(plot_, 2)$size"))
    ro.r('scale_ <- ggplot2::ggplot_build(plot_)$plot$scales$get_scales("size")')
    r_breaks = np.asarray(ro.r("b_ <- scale_$get_breaks(); b_[!is.na(b_)]"))
    r_labels_ = list(ro.r("l_ <- scale_$get_labels(); l_[!is.na(b_)]"))
    limits = (float(table["n"].min()), float(table["n"].max()))
    np.testing.assert_allclose(_size_scale(table["n"], limits), r_sizes, rtol=1e-12)
    breaks = _size_breaks(limits)
    np.testing.assert_allclose(breaks, r_breaks, rtol=1e-12)
    assert _r_format(breaks) == r_labels_

    pytest.importorskip("matplotlib")
    fig = reliability_diagram(p, y, bins=12 if kind == "binary" else 6)
    legend = fig.legends[0]
    assert legend.get_title().get_text() == "Count"
    assert [t.get_text() for t in legend.get_texts()] == r_labels_


@pytest.mark.r_parity
def test_wrap_dims_matches_ggplot2(ggplot2):
    ro = ggplot2
    for n in range(1, 41):
        assert wrap_dims(n) == tuple(int(v) for v in ro.r(f"ggplot2::wrap_dims({n})")), n


@pytest.mark.r_parity
@pytest.mark.parametrize("lo,hi", [(6, 19), (13, 21), (1, 2), (1, 3), (2, 150), (40, 41),
                                   (3, 1000), (0.5, 0.75), (17, 20000), (1, 7)])
def test_extended_breaks_match_labeling(ggplot2, lo, hi):
    ro = ggplot2
    expected = np.asarray(ro.r(f"labeling::extended({lo!r}, {hi!r}, 5)"))
    np.testing.assert_allclose(_extended_breaks(lo, hi), expected, rtol=1e-14)


@pytest.mark.r_parity
@pytest.mark.parametrize("values", [[10, 15], [15, 17.5, 20], [1, 2, 3], [0.25, 0.5],
                                    [100000, 200000], [50000, 100000, 150000],
                                    [1e6, 1.5e6], [1, 1.5, 2], [2.5, 5, 7.5, 10]])
def test_legend_number_format_matches_r(r, values):
    expected = list(r.r["format"](r.FloatVector(values), trim=True))
    assert _r_format(values) == expected


# ---------------------------------------------------------------------------
# bad input: R's messages


BAD_INPUTS = [
    # (python p, python y, kwargs, R p, R y, R extra args)
    ([0.2, 1.2], [0, 1], {}, "c(0.2, 1.2)", "c(0, 1)", ""),
    ([0.2, np.nan], [0, 1], {}, "c(0.2, NA)", "c(0, 1)", ""),
    ([0.2, 0.4], [0, 2], {}, "c(0.2, 0.4)", "c(0, 2)", ""),
    ([0.2, 0.4, 0.6], [0, 1], {}, "c(0.2, 0.4, 0.6)", "c(0, 1)", ""),
    ([0.2, 0.4], [0, 1], {"bins": 0}, "c(0.2, 0.4)", "c(0, 1)", ", bins = 0"),
    ([0.2, 0.4], [0, 1], {"bins": 2.5}, "c(0.2, 0.4)", "c(0, 1)", ", bins = 2.5"),
    ([[0.2, 0.7], [0.5, 0.5]], [1, 2], {}, "rbind(c(0.2, 0.7), c(0.5, 0.5))", "c(1, 2)", ""),
    ([[0.2, 0.8], [0.5, 0.5]], [1, 2], {"type": "bogus"},
     "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(1, 2)", ', type = "bogus"'),
    ([[0.2, 0.8], [0.5, 0.5]], [1, 3], {}, "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(1, 3)", ""),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 1], {}, "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(0, 1)", ""),
    ([[0.2, 0.8], [0.5, 0.5]], [1, 2, 1], {}, "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(1, 2, 1)", ""),
    ([[0.2, 0.8], [0.5, 0.5]], [1, 2, 1], {"type": "confidence"},
     "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(1, 2, 1)", ', type = "confidence"'),
    ([[0.2, 0.8], [0.5, 0.5]], [1, 2], {"bins": -1},
     "rbind(c(0.2, 0.8), c(0.5, 0.5))", "c(1, 2)", ", bins = -1"),
]


@pytest.mark.r_parity
@pytest.mark.parametrize("case", BAD_INPUTS, ids=range(len(BAD_INPUTS)))
def test_bad_input_messages_match_r(probcal, case):
    p, y, kwargs, rp, ry, rargs = case
    expected = probcal.r(
        f"tryCatch(probcal::reliability_diagram({rp}, {ry}{rargs}), "
        "error = function(e) conditionMessage(e))"
    )[0]
    with pytest.raises(ProbcalError) as table_err:
        reliability_table(p, y, **kwargs)
    assert str(table_err.value) == expected
    pytest.importorskip("matplotlib")
    with pytest.raises(ProbcalError) as diagram_err:
        reliability_diagram(p, y, **kwargs)
    assert str(diagram_err.value) == expected


def test_bad_input_messages_literal():
    # R's conditionMessage() text from probcal's checks.
    with pytest.raises(ProbcalError, match=r"^Argument `p` must contain probabilities in `\[0, 1\]`\.$"):
        reliability_table([0.2, 1.2], [0, 1])
    with pytest.raises(ProbcalError, match=r"^Argument `bins` must be a single positive integer\.$"):
        reliability_table([0.2, 0.4], [0, 1], bins=0)
    with pytest.raises(ProbcalError) as info:
        reliability_table(np.array([[0.2, 0.7], [0.5, 0.5]]), [1, 2])
    assert str(info.value) == "Each row of `p` must sum to `1`."  # R's; the hint is a note
    with pytest.raises(ProbcalError,
                       match=r"^Arguments `p` and `y` must have the same number of observations\.$"):
        reliability_table(np.array([[0.2, 0.8], [0.5, 0.5]]), [1, 2, 1], type="confidence")


def test_binary_input_ignores_type():
    # R never evaluates `type` for a vector.
    p, y = binary_data(n=50)
    pd.testing.assert_frame_equal(reliability_table(p, y, type="bogus"), reliability_table(p, y))


# ---------------------------------------------------------------------------
# table shape


def test_table_columns_and_rows():
    p, y = binary_data()
    table = reliability_table(p, y, bins=10)
    assert list(table.columns) == COLUMNS
    assert (table["n"] > 0).all()
    assert table["n"].sum() == len(p)
    assert list(table.index) == list(range(len(table)))

    prob, labels = multiclass_data(k=4)
    classwise = reliability_table(prob, labels, bins=10)
    assert list(classwise.columns) == COLUMNS + ["class_label"]
    assert list(classwise["class_label"].cat.categories) == ["1", "2", "3", "4"]
    assert (classwise.groupby("class_label", observed=False)["n"].sum() == len(labels)).all()

    confidence = reliability_table(prob, labels, bins=10, type="conf")
    assert list(confidence.columns) == COLUMNS
    assert confidence["n"].sum() == len(labels)


def test_dataframe_input_is_a_matrix():
    prob, labels = multiclass_data(k=3)
    frame = pd.DataFrame(prob, columns=["a", "b", "c"])
    pd.testing.assert_frame_equal(reliability_table(frame, labels),
                                  reliability_table(prob, labels))


def test_inputs_not_mutated(mpl):
    p, y = binary_data()
    p_copy, y_copy = p.copy(), y.copy()
    reliability_table(p, y)
    reliability_diagram(p, y)
    np.testing.assert_array_equal(p, p_copy)
    np.testing.assert_array_equal(y, y_copy)
    prob, labels = multiclass_data()
    prob_copy, labels_copy = prob.copy(), labels.copy()
    for kind in ["classwise", "confidence"]:
        reliability_diagram(prob, labels, type=kind)
    np.testing.assert_array_equal(prob, prob_copy)
    np.testing.assert_array_equal(labels, labels_copy)


# ---------------------------------------------------------------------------
# figure structure


def point_collection(ax):
    (points,) = ax.collections
    return points


@pytest.fixture
def mpl():
    return pytest.importorskip("matplotlib")


def test_binary_figure(mpl):
    from matplotlib.figure import Figure

    p, y = binary_data()
    fig = reliability_diagram(p, y, bins=8)
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 1
    (ax,) = fig.axes
    assert fig_text(fig, "suptitle") == "Reliability diagram"
    assert subtitle_of(fig) == "ECE = %.4f" % ece(p, y, bins=8)
    assert ax.get_xlabel() == "Mean predicted probability"
    assert ax.get_ylabel() == "Observed event frequency"
    # coord_equal(xlim = c(0, 1), ylim = c(0, 1)) with ggplot2's 5% expansion
    assert ax.get_xlim() == pytest.approx((-0.05, 1.05))
    assert ax.get_ylim() == pytest.approx((-0.05, 1.05))
    assert ax.get_aspect() == 1.0
    table = reliability_table(p, y, bins=8)
    points = point_collection(ax)
    np.testing.assert_array_equal(points.get_offsets(),
                                  table[["confidence", "accuracy"]].to_numpy())
    # sizes follow counts: the largest bin has the largest point
    sizes = points.get_sizes()
    assert np.argmax(sizes) == np.argmax(table["n"].to_numpy())
    assert len(np.unique(sizes)) > 1
    # the dotted identity line
    (line,) = ax.lines
    assert line.get_linestyle() not in ("-", "None", "none", "")
    if hasattr(line, "get_slope"):  # matplotlib >= 3.8
        assert line.get_slope() == 1.0
        assert tuple(line.get_xy1()) == (0.0, 0.0)
    assert fig.legends and fig.legends[0].get_title().get_text() == "Count"
    fig.savefig(io.BytesIO(), format="png")


def test_binary_figure_without_counts_or_ece(mpl):
    p, y = binary_data()
    fig = reliability_diagram(p, y, bins=8, show_ece=False, show_counts=False)
    (ax,) = fig.axes
    assert subtitle_of(fig) is None
    assert not fig.legends
    sizes = point_collection(ax).get_sizes()
    assert len(np.unique(sizes)) == 1
    assert len(point_collection(ax).get_offsets()) == len(reliability_table(p, y, bins=8))


def test_show_flags_follow_isTRUE(mpl):
    p, y = binary_data()
    fig = reliability_diagram(p, y, show_ece=1, show_counts="yes")
    assert subtitle_of(fig) is None
    assert not fig.legends
    fig = reliability_diagram(p, y, show_ece=np.bool_(True))
    assert subtitle_of(fig) is not None


@pytest.mark.parametrize("k,shape", [(2, (1, 2)), (3, (1, 3)), (4, (2, 2)), (5, (2, 3)), (7, (3, 3))])
def test_classwise_figure(mpl, k, shape):
    prob, labels = multiclass_data(k=k, seed=k)
    fig = reliability_diagram(prob, labels, bins=8)
    table = reliability_table(prob, labels, bins=8)
    assert len(fig.axes) == k
    assert fig_text(fig, "suptitle") == "Reliability diagram (classwise)"
    assert subtitle_of(fig) == "Classwise ECE = %.4f" % ece(prob, labels, bins=8, type="classwise")
    assert fig_text(fig, "supxlabel") == "Mean predicted probability"
    assert fig_text(fig, "supylabel") == "Observed event frequency"
    assert [ax.get_title() for ax in fig.axes] == [str(i) for i in range(1, k + 1)]
    for ax, level in zip(fig.axes, range(1, k + 1), strict=True):
        assert ax.get_xlim() == pytest.approx((-0.05, 1.05))
        assert ax.get_ylim() == pytest.approx((-0.05, 1.05))
        rows = table[table["class_label"] == str(level)]
        np.testing.assert_array_equal(point_collection(ax).get_offsets(),
                                      rows[["confidence", "accuracy"]].to_numpy())
    # facet_wrap's grid: distinct panel rows and columns
    boxes = [ax.get_position() for ax in fig.axes]
    assert len({round(b.y0, 6) for b in boxes}) == shape[0]
    assert len({round(b.x0, 6) for b in boxes}) == shape[1]
    # row-major fill, top to bottom
    assert boxes[0].y0 >= boxes[-1].y0
    assert len(fig.legends) == 1
    fig.savefig(io.BytesIO(), format="png")


def test_classwise_figure_uses_factor_levels(mpl):
    prob, codes = multiclass_data(k=3)
    levels = ["setosa", "versicolor", "virginica"]
    y = pd.Categorical([levels[c - 1] for c in codes], categories=levels)
    fig = reliability_diagram(prob, y)
    assert [ax.get_title() for ax in fig.axes] == levels


def test_confidence_figure(mpl):
    prob, labels = multiclass_data(k=4, skewed=True)
    fig = reliability_diagram(prob, labels, bins=10, type="confidence")
    (ax,) = fig.axes
    assert fig_text(fig, "suptitle") == "Reliability diagram (confidence)"
    assert subtitle_of(fig) == "ECE = %.4f" % ece(prob, labels, bins=10, type="confidence")
    assert ax.get_xlabel() == "Top-label confidence"
    assert ax.get_ylabel() == "Observed accuracy"
    table = reliability_table(prob, labels, bins=10, type="confidence")
    assert len(point_collection(ax).get_offsets()) == len(table)


def test_pyplot_figure_and_show_without_display():
    pytest.importorskip("matplotlib")
    code = textwrap.dedent(
        """
        import io
        import numpy as np
        import matplotlib.pyplot as plt
        from pycalib_r.diagnostics._diagnostics import reliability_diagram
        rng = np.random.default_rng(1)
        p = rng.uniform(size=50)
        fig = reliability_diagram(p, rng.binomial(1, p))
        print(fig.number in plt.get_fignums())
        fig.savefig(io.BytesIO(), format="png")
        plt.show()
        plt.close(fig)
        print(plt.get_fignums())
        """
    )
    env = {"MPLBACKEND": "Agg", "DISPLAY": "", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "PYTHONPATH": ":".join(sys.path)}, check=True)
    assert out.stdout.split("\n")[:2] == ["True", "[]"]


def test_missing_matplotlib_message(monkeypatch):
    p, y = binary_data(n=30)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    monkeypatch.setitem(sys.modules, "matplotlib.lines", None)
    # the hint works from a checkout: the package is on no registry
    with pytest.raises(ImportError, match=r"needs matplotlib: pip install matplotlib .*pip install '\.\[plot\]'"):
        reliability_diagram(p, y)
    # the table needs no matplotlib
    assert len(reliability_table(p, y)) > 0


# ---------------------------------------------------------------------------
# options beyond R: ax, figsize, overlays, strategy, intervals


def panels(fig):
    return [ax for ax in fig.axes if ax.get_gid() == "panel"]


def test_draws_into_a_given_axes(mpl):
    import matplotlib.pyplot as plt

    p, y = binary_data()
    fig, ax = plt.subplots(figsize=(5, 5))
    before = plt.get_fignums()
    out = reliability_diagram(p, y, bins=8, ax=ax)
    assert out is fig and plt.get_fignums() == before
    table = reliability_table(p, y, bins=8)
    np.testing.assert_array_equal(point_collection(ax).get_offsets(),
                                  table[["confidence", "accuracy"]].to_numpy())
    # the header is inside the panel: the Axes' title slots stay the caller's
    [header] = [a for a in ax.artists if a.get_gid() == "header"]
    assert header.txt.get_text() == "Reliability diagram\nECE = %.4f" % ece(p, y, bins=8)
    assert ax.get_title(loc="left") == ax.get_title() == ""
    assert ax.get_xlabel() == "Mean predicted probability"
    assert ax.get_legend().get_title().get_text() == "Count"
    assert not fig.legends and not fig.texts
    fig.savefig(io.BytesIO(), format="png")


def test_classwise_into_one_axes_per_class(mpl):
    import matplotlib.pyplot as plt

    prob, labels = multiclass_data(k=3)
    fig, axes = plt.subplots(1, 3)
    assert reliability_diagram(prob, labels, ax=axes) is fig
    assert [a.get_title() for a in axes] == ["1", "2", "3"]
    table = reliability_table(prob, labels)
    for a, level in zip(axes, ["1", "2", "3"]):
        rows = table[table["class_label"] == level]
        np.testing.assert_array_equal(point_collection(a).get_offsets(),
                                      rows[["confidence", "accuracy"]].to_numpy())
    reliability_diagram(prob, labels, ax=list(axes))  # a list works too


def test_bad_ax_messages(mpl):
    import matplotlib.pyplot as plt

    p, y = binary_data()
    with pytest.raises(TypeError, match=r"^`ax` must be a matplotlib Axes .*not str\.$"):
        reliability_diagram(p, y, ax="left")
    fig, (a, b) = plt.subplots(1, 2)
    with pytest.raises(TypeError, match=r"not Figure"):
        reliability_diagram(p, y, ax=fig)
    with pytest.raises(ValueError, match=r"^`ax` has 2 Axes but the diagram has 1 panel\.$"):
        reliability_diagram(p, y, ax=[a, b])
    prob, labels = multiclass_data(k=3)
    with pytest.raises(ValueError, match=r"has 1 Axes but the diagram has 3 panels; for 3 "
                                         r"classes make them with fig.subplots\(1, 3\)"):
        reliability_diagram(prob, labels, ax=a)
    with pytest.raises(ValueError, match=r"^give `ax` or `figsize`, not both"):
        reliability_diagram(p, y, ax=a, figsize=(4, 4))


def _extents(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return renderer, fig.bbox


@pytest.mark.parametrize("size", [(6, 4), (4, 6), (12, 5), (3.5, 3)])
@pytest.mark.parametrize("kind", ["binary", "classwise", "overlay"])
def test_layout_survives_any_size(mpl, size, kind):
    p, y = binary_data()
    if kind == "classwise":
        p, y = multiclass_data(k=4)
    elif kind == "overlay":
        p = {"raw": p, "a rather long model name": np.clip(p * 0.9 + 0.05, 0, 1)}
    for fig in (reliability_diagram(p, y, figsize=size), reliability_diagram(p, y)):
        fig.set_size_inches(*size)  # also after the figure is made
        renderer, fig_box = _extents(fig)
        axes = panels(fig)
        ticks = [t.get_window_extent(renderer) for t in axes[0].get_yticklabels() if t.get_text()]
        ylabel = (axes[0].yaxis.label if kind != "classwise" else fig._supylabel)
        ylabel_box = ylabel.get_window_extent(renderer)
        assert ylabel_box.x1 <= min(b.x0 for b in ticks)  # no label over the ticks
        assert ylabel_box.x0 >= 0
        for legend in fig.legends:  # legends whole and right of the panels
            box = legend.get_window_extent(renderer)
            assert box.x1 <= fig_box.x1 and box.y0 >= 0 and box.y1 <= fig_box.y1
            assert box.x0 >= max(a.get_window_extent(renderer).x1 for a in axes)
        if len(fig.legends) == 2:  # counts below the models, or beside them
            count, model = [legend.get_window_extent(renderer) for legend in fig.legends]
            assert count.y1 <= model.y0 or model.x1 <= count.x0
        title = fig._suptitle.get_window_extent(renderer)
        assert title.y1 <= fig_box.y1
        assert title.y0 >= max(a.get_window_extent(renderer).y1 for a in axes)


def test_figsize_and_default_panel_size(mpl):
    p, y = binary_data()
    fig = reliability_diagram(p, y, figsize=(6, 4))
    assert tuple(fig.get_size_inches()) == (6, 4)
    fig = reliability_diagram(p, y)
    (ax,) = panels(fig)
    width_in = ax.get_position().width * fig.get_size_inches()[0]
    assert width_in == pytest.approx(4.0, rel=1e-9, abs=1e-9)  # R's 4-inch panel
    prob, labels = multiclass_data(k=3)
    fig = reliability_diagram(prob, labels)
    for ax in panels(fig):
        assert ax.get_position().width * fig.get_size_inches()[0] == pytest.approx(
            8 / 3, rel=1e-9, abs=1e-9)


def test_overlay_of_models(mpl):
    p, y = binary_data()
    calibrated = np.clip(0.1 + 0.8 * p, 0, 1)
    fig = reliability_diagram({"raw": p, "calibrated": calibrated}, y, bins=8)
    (ax,) = panels(fig)
    raw_points, cal_points = ax.collections
    np.testing.assert_array_equal(raw_points.get_offsets(),
                                  reliability_table(p, y, bins=8)[["confidence", "accuracy"]])
    np.testing.assert_array_equal(cal_points.get_offsets(),
                                  reliability_table(calibrated, y, bins=8)[["confidence",
                                                                            "accuracy"]])
    assert not np.array_equal(raw_points.get_facecolor(), cal_points.get_facecolor())
    assert subtitle_of(fig) == "ECE: raw = %.4f, calibrated = %.4f" % (
        ece(p, y, bins=8), ece(calibrated, y, bins=8))
    count, model = fig.legends
    assert count.get_title().get_text() == "Count"
    assert model.get_title().get_text() == "Model"
    assert [t.get_text() for t in model.get_texts()] == ["raw", "calibrated"]
    # the count scale is shared: same limits for both models
    table = pd.concat([reliability_table(p, y, bins=8), reliability_table(calibrated, y, bins=8)])
    limits = (float(table["n"].min()), float(table["n"].max()))
    assert [t.get_text() for t in count.get_texts()] == _r_format(_size_breaks(limits))

    prob, labels = multiclass_data(k=3)
    fig = reliability_diagram({"a": prob, "b": prob ** 2 / (prob ** 2).sum(1, keepdims=True)},
                              labels)
    assert all(len(ax.collections) == 2 for ax in panels(fig))
    assert subtitle_of(fig).startswith("Classwise ECE: a = ")
    # a one-model dict is an overlay too: named in the legend
    fig = reliability_diagram({"only": p}, y, show_counts=False)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["only"]


def test_overlay_bad_input(mpl):
    p, y = binary_data()
    with pytest.raises(ProbcalError, match=r"^Model 'short' has 10 observations but `y` has "
                                           r"200; every model in `p` must predict the same "
                                           r"rows as `y`\.$"):
        reliability_diagram({"raw": p, "short": p[:10]}, y)
    with pytest.raises(ValueError, match=r"^`p` is an empty dict"):
        reliability_diagram({}, y)
    with pytest.raises(TypeError, match=r"must be strings, not 1"):
        reliability_diagram({1: p}, y)
    prob, labels = multiclass_data(k=2, n=200)
    with pytest.raises(ValueError, match=r"mix vectors and matrices"):
        reliability_diagram({"v": p, "m": prob}, y)
    bad = p.copy()
    bad[3] = 1.5
    with pytest.raises(ProbcalError) as err:
        reliability_diagram({"raw": p, "bad": bad}, y)
    assert str(err.value) == "Argument `p` must contain probabilities in `[0, 1]`."
    assert err.value.__notes__ == ["(in model 'bad' of `p`)"]


def test_equal_freq_bins_are_those_of_ece(mpl):
    p, y = binary_data(n=500)
    table = reliability_table(p, y, bins=7, strategy="equal_freq")
    assert table["n"].sum() == 500 and len(table) == 7
    assert table["n"].max() - table["n"].min() <= 2  # equal frequency
    weighted = float((table["n"] / 500 * table["gap"]).sum())
    assert weighted == pytest.approx(ece(p, y, bins=7, strategy="equal_freq"), rel=1e-12,
                                     abs=1e-15)
    fig = reliability_diagram(p, y, bins=7, strategy="equal_f")
    assert subtitle_of(fig) == "ECE = %.4f" % ece(p, y, bins=7, strategy="equal_freq")
    np.testing.assert_array_equal(point_collection(panels(fig)[0]).get_offsets(),
                                  table[["confidence", "accuracy"]].to_numpy())
    prob, labels = multiclass_data(k=3)
    classwise = reliability_table(prob, labels, bins=5, strategy="equal_freq")
    per_class = classwise.groupby("class_label", observed=True)
    mean_ece = np.mean([float((g["n"] / len(labels) * g["gap"]).sum()) for _, g in per_class])
    assert mean_ece == pytest.approx(ece(prob, labels, bins=5, strategy="equal_freq"),
                                     rel=1e-12, abs=1e-15)
    # the default is R's equal-width table, unchanged
    pd.testing.assert_frame_equal(reliability_table(p, y, strategy="equal_width"),
                                  reliability_table(p, y))
    with pytest.raises(ProbcalError, match=r'^Argument `strategy` must be "equal_width" or '
                                           r'"equal_freq", not \'quantile\'\.$'):
        reliability_table(p, y, strategy="quantile")


def test_wilson_intervals(mpl):
    p, y = binary_data()
    table = reliability_table(p, y, bins=8, conf_level=0.9)
    assert list(table.columns) == ["bin", "lower", "upper", "n", "confidence", "accuracy",
                                   "accuracy_lower", "accuracy_upper", "gap"]
    assert (table["accuracy_lower"] <= table["accuracy"]).all()
    assert (table["accuracy"] <= table["accuracy_upper"]).all()
    fig = reliability_diagram(p, y, bins=8, intervals=True, conf_level=0.9)
    (ax,) = panels(fig)
    (bars,) = [c for c in ax.collections if c.get_gid() == "intervals"]
    segments = np.array(bars.get_segments())
    np.testing.assert_array_equal(segments[:, 0, 1], table["accuracy_lower"])
    np.testing.assert_array_equal(segments[:, 1, 1], table["accuracy_upper"])
    np.testing.assert_array_equal(segments[:, 0, 0], table["confidence"])
    fig = reliability_diagram(p, y, intervals=1)  # isTRUE(), as the show_ flags
    assert [c.get_gid() for c in panels(fig)[0].collections] == [None]
    with pytest.raises(ProbcalError):
        reliability_table(p, y, conf_level=1.5)


@pytest.mark.r_parity
def test_wilson_interval_matches_prop_test(r):
    from pycalib_r.diagnostics._diagnostics import wilson_interval

    cases = [(0, 5), (5, 5), (3, 10), (17, 40), (1, 1), (250, 1000)]
    for level in (0.95, 0.8):
        lo, hi = wilson_interval([c[0] for c in cases], [c[1] for c in cases], level)
        for (x, n), got_lo, got_hi in zip(cases, lo, hi):
            expected = list(r.r(f"prop.test({x}, {n}, conf.level = {level}, "
                                "correct = FALSE)$conf.int"))
            np.testing.assert_allclose([got_lo, got_hi], expected, rtol=1e-12, atol=1e-15)

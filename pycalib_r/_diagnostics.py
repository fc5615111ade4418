"""Reliability diagrams: probcal's binned table and its ggplot2 layout in matplotlib.

probcal's ``reliability_diagram()`` returns a ggplot2 object. Python has no
grammar-of-graphics object with the same role, so the port splits it in two:
:func:`reliability_table` returns the data frame the R plot draws (R's
``plot$data``), and :func:`reliability_diagram` draws that table as a
``matplotlib.figure.Figure`` that reproduces R's layout -- the dotted
identity line, count-sized points with ggplot2's size scale and legend
breaks, equal aspect on ``[0, 1]`` with ggplot2's 5% expansion, the titles
and the ``facet_wrap()`` grid.

matplotlib is an optional dependency (``pip install 'pycalib_r[plot]'``); it
is imported only when a figure is drawn.
"""

from __future__ import annotations

import math

import numpy as np

from ._format import format_r_vec
from ._forms import input_form
from ._metrics import bin_table, ece

__all__ = ["reliability_table", "reliability_diagram"]

_MATPLOTLIB_MESSAGE = (
    "reliability_diagram() needs matplotlib: pip install 'pycalib_r[plot]'"
)

# ggplot2's unit conversions: sizes are in mm (`.pt` points per mm) and
# point strokes in 1/96 inch (`.stroke`).
_GG_PT = 72.27 / 25.4
_GG_STROKE = 96 / 25.4
_GG_POINT_STROKE = 0.5
_SIZE_RANGE = (1.0, 6.0)      # scale_size_continuous(range = c(1, 6))
_FIXED_SIZE = 2.5             # geom_point(size = 2.5) when show_counts = FALSE
_POINT_ALPHA = 0.8
_EXPAND = 0.05                # continuous scales expand limits by 5% each side

# theme_minimal() at base_size 11.
_BASE_SIZE = 11.0
_TITLE_SIZE = 1.2 * _BASE_SIZE
_SMALL_SIZE = 0.8 * _BASE_SIZE
_GRID_COLOUR = "#EBEBEB"      # grey92
_TICK_COLOUR = "#4D4D4D"      # grey30
_STRIP_COLOUR = "#1A1A1A"     # grey10
_LINE_PT = 0.5 * _GG_PT * 0.75  # linewidth 0.5 mm as R lwd, in points


# ---------------------------------------------------------------------------
# The table


def _nonempty(table):
    """R's ``stats[stats$n > 0L, , drop = FALSE]`` with a fresh 0-based index."""
    return table.loc[table["n"].to_numpy() > 0].reset_index(drop=True)


def _diagram_data(p, y, bins, type):
    """The plotted table and the diagram kind, with R's checks in R's order.

    Returns ``(kind, table)`` where ``kind`` is ``"binary"``, ``"classwise"``
    or ``"confidence"``.
    """
    import pandas as pd

    # R never evaluates `type` for a vector, and checks a matrix before
    # match.arg(type) is forced: input_form's order.
    form = input_form(p, y, type)
    if form.scalar:
        return form.kind, _nonempty(bin_table(form.r, form.c, bins))

    labels = form.labels
    panels = []
    for k, (column, one_vs_rest) in enumerate(form.problems()):
        panel = _nonempty(bin_table(column, one_vs_rest, bins))
        panel["class_label"] = pd.Categorical(
            [labels.levels[k]] * len(panel), categories=labels.levels
        )
        panels.append(panel)
    return "classwise", pd.concat(panels, ignore_index=True)


def reliability_table(p, y, bins=10, type="classwise"):
    """The binned table a reliability diagram plots.

    One row per non-empty equal-width bin: mean predicted probability
    (``confidence``), observed event frequency (``accuracy``), their absolute
    difference (``gap``) and the count ``n``. This is the data of R's
    ``reliability_diagram()`` plot (``plot$data``).

    R equivalent: ``reliability_diagram(p, y, bins, type = type)$data``
    (probcal's internal ``bin_stats()`` restricted to ``n > 0``).

    Parameters
    ----------
    p : array_like
        A probability vector (binary), or a matrix/DataFrame with one column
        per class whose rows sum to one (multiclass).
    y : array_like
        0/1 labels (binary), or class codes ``1..K`` or a pandas Categorical
        (multiclass).
    bins : int
        Number of equal-width bins on ``[0, 1]``.
    type : {"classwise", "confidence"}
        Multiclass form: one-vs-rest bins per class, or the top-label
        confidence against correctness. Ignored for binary input.

    Returns
    -------
    pandas.DataFrame
        Columns ``bin``, ``lower``, ``upper``, ``n``, ``confidence``,
        ``accuracy``, ``gap``; for the classwise form also ``class_label``,
        a Categorical whose categories are the class levels (R's factor).

    Examples
    --------
    >>> reliability_table([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2)
       bin  lower  upper  n  confidence  accuracy   gap
    0    1    0.0    0.5  2        0.15       0.0  0.15
    1    2    0.5    1.0  2        0.85       1.0  0.15
    """
    return _diagram_data(p, y, bins, type)[1]


# ---------------------------------------------------------------------------
# ggplot2 scale and layout rules used by the figure


def wrap_dims(n):
    """``ggplot2::wrap_dims(n)``: (rows, columns) that ``facet_wrap()`` uses.

    ggplot2 takes ``grDevices::n2mfrow(n)`` and swaps it, so panels are
    laid out wider than tall.
    """
    n = int(n)
    if n <= 12:
        if n <= 3:
            rows_cols = (n, 1)
        elif n <= 6:
            rows_cols = ((n + 1) // 2, 2)
        else:
            rows_cols = ((n + 2) // 3, 3)
    else:
        first = math.ceil(math.sqrt(n))
        rc = (first, math.ceil(n / first))
        shrinking = True
        while shrinking and rc[0] * rc[1] > n:
            candidate = (rc[0], rc[1] - 1)
            shrinking = candidate[0] * candidate[1] >= n
            if shrinking:
                rc = candidate
                continue
            candidate = (rc[0] - 1, rc[1])
            shrinking = candidate[0] * candidate[1] >= n
            if shrinking:
                rc = candidate
        rows_cols = rc
    return rows_cols[1], rows_cols[0]


def _r_seq_by(start, stop, step):
    """R's ``seq(from, to, by)`` for an increasing sequence."""
    count = int((stop - start) / step + 1e-10)
    return np.minimum(start + np.arange(count + 1) * step, stop)


def _extended_breaks(dmin, dmax, m=5, Q=(1, 5, 2, 2.5, 4, 3),
                     w=(0.25, 0.2, 0.5, 0.05)):
    """Talbot, Lin & Hanrahan's extended tick search (``labeling::extended``).

    This is what ggplot2's continuous scales use for default breaks; the
    legend of the count scale shows these values.
    """
    eps = np.finfo(float).eps * 100
    dmin, dmax = min(dmin, dmax), max(dmin, dmax)
    if dmax - dmin < eps or dmax - dmin > math.sqrt(np.finfo(float).max):
        return np.linspace(dmin, dmax, m)
    n_q = len(Q)

    def simplicity(i, j, lmin, lmax, lstep):
        rem = lmin % lstep
        zero_is_label = (rem < 1e-10 or lstep - rem < 1e-10) and lmin <= 0 <= lmax
        return 1 - i / (n_q - 1) - j + (1 if zero_is_label else 0)

    def coverage(lmin, lmax):
        span = dmax - dmin
        return 1 - 0.5 * ((dmax - lmax) ** 2 + (dmin - lmin) ** 2) / (0.1 * span) ** 2

    def coverage_max(span_labels):
        span = dmax - dmin
        if span_labels > span:
            half = (span_labels - span) / 2
            return 1 - 0.5 * (2 * half ** 2) / (0.1 * span) ** 2
        return 1.0

    def density(k, lmin, lmax):
        r = (k - 1) / (lmax - lmin)
        rt = (m - 1) / (max(lmax, dmax) - min(dmin, lmin))
        return 2 - max(r / rt, rt / r)

    def density_max(k):
        return 2 - (k - 1) / (m - 1) if k >= m else 1.0

    best_score, best = -2.0, None
    j = 1
    searching = True
    while searching:
        for i, q in enumerate(Q):
            sm = 1 - i / (n_q - 1) - j + 1
            if w[0] * sm + w[1] + w[2] + w[3] < best_score:
                searching = False
                break
            k = 2
            while True:
                dm = density_max(k)
                if w[0] * sm + w[1] + w[2] * dm + w[3] < best_score:
                    break
                delta = (dmax - dmin) / (k + 1) / j / q
                z = math.ceil(math.log10(delta))
                while True:
                    step = j * q * 10.0 ** z
                    cm = coverage_max(step * (k - 1))
                    if w[0] * sm + w[1] * cm + w[2] * dm + w[3] < best_score:
                        break
                    min_start = math.floor(dmax / step) * j - (k - 1) * j
                    max_start = math.ceil(dmin / step) * j
                    if min_start <= max_start:
                        for start in range(min_start, max_start + 1):
                            lmin = start * (step / j)
                            lmax = lmin + step * (k - 1)
                            score = (w[0] * simplicity(i, j, lmin, lmax, step)
                                     + w[1] * coverage(lmin, lmax)
                                     + w[2] * density(k, lmin, lmax)
                                     + w[3])
                            if score > best_score:
                                best_score, best = score, (lmin, lmax, step)
                    z += 1
                k += 1
        j += 1
    return _r_seq_by(*best)


def _size_breaks(limits):
    """The count legend's breaks: extended breaks censored to the limits."""
    lo, hi = limits
    if lo == hi:
        return np.array([lo], dtype=float)
    breaks = _extended_breaks(lo, hi)
    return breaks[(breaks >= lo) & (breaks <= hi)]


def _size_scale(n, limits):
    """ggplot2's ``scale_size_continuous()`` mapping (area palette, range 1-6)."""
    n = np.asarray(n, dtype=float)
    lo, hi = limits
    if lo == hi:
        unit = np.full(n.shape, 0.5)
    else:
        unit = (n - lo) / (hi - lo)
    return _SIZE_RANGE[0] + np.sqrt(unit) * (_SIZE_RANGE[1] - _SIZE_RANGE[0])


def _point_diameter(size):
    """Diameter in points of a ggplot2 filled circle (shape 19) of ``size``."""
    fontsize = np.asarray(size, dtype=float) * _GG_PT + _GG_POINT_STROKE * _GG_STROKE / 2
    border = _GG_POINT_STROKE * _GG_STROKE / 2 * 0.75
    return 0.75 * fontsize + border


def _r_format(values):
    """R's ``format(x, trim = TRUE)`` of a double vector (ggplot2's legend labels)."""
    return [text.strip() for text in format_r_vec([float(v) for v in values])]


# ---------------------------------------------------------------------------
# The figure


def _is_true(x):
    """R's ``isTRUE()``: only a single logical TRUE counts."""
    return isinstance(x, (bool, np.bool_)) and bool(x)


def _style_panel(ax, show_x_ticks, show_y_ticks):
    lim = (-_EXPAND, 1 + _EXPAND)
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_xticks([0.125, 0.375, 0.625, 0.875], minor=True)
    ax.set_yticks([0.125, 0.375, 0.625, 0.875], minor=True)
    labels = [f"{t:.2f}" for t in ticks]
    ax.set_xticklabels(labels if show_x_ticks else [])
    ax.set_yticklabels(labels if show_y_ticks else [])
    ax.tick_params(which="both", length=0, labelsize=_SMALL_SIZE,
                   labelcolor=_TICK_COLOUR, pad=3)
    ax.grid(True, which="major", color=_GRID_COLOUR, linewidth=_LINE_PT)
    ax.grid(True, which="minor", color=_GRID_COLOUR, linewidth=_LINE_PT / 2)
    ax.set_axisbelow(True)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.patch.set_visible(False)


def _draw_points(ax, table, sizes):
    ax.axline((0.0, 0.0), slope=1.0, color="black", linewidth=_LINE_PT,
              linestyle=(0, (1, 3)), zorder=2)
    diameter = _point_diameter(sizes)
    ax.scatter(table["confidence"].to_numpy(), table["accuracy"].to_numpy(),
               s=np.broadcast_to(diameter ** 2, (len(table),)), c="black",
               alpha=_POINT_ALPHA, linewidths=0, zorder=3)


def reliability_diagram(p, y, bins=10, show_ece=True, show_counts=True,
                        type="classwise"):
    """Reliability diagram of binned confidence against observed frequency.

    Points are the non-empty equal-width bins of :func:`reliability_table`
    (mean predicted probability against observed event frequency), drawn
    with a dotted identity line on equal axes over ``[0, 1]``. Points below
    the line are over-confident bins, points above under-confident ones.
    A probability matrix gives one panel per class (``type="classwise"``,
    arranged as ggplot2's ``facet_wrap()`` would) or a single top-label
    panel (``type="confidence"``).

    R equivalent: ``probcal::reliability_diagram(p, y, bins = 10,
    show_ece = TRUE, show_counts = TRUE, type = c("classwise",
    "confidence"))``, which returns a ggplot; this returns a matplotlib
    Figure with the same layout. The plotted data is
    :func:`reliability_table`.

    Parameters
    ----------
    p : array_like
        A probability vector (binary), or a matrix/DataFrame with one column
        per class whose rows sum to one (multiclass).
    y : array_like
        0/1 labels (binary), or class codes ``1..K`` or a pandas Categorical
        (multiclass).
    bins : int
        Number of equal-width bins on ``[0, 1]``.
    show_ece : bool
        If True, the subtitle reports the ECE with the same bins
        (``"ECE = %.4f"``, or ``"Classwise ECE = %.4f"`` for the classwise
        panels). As R's ``isTRUE()``, only ``True`` counts.
    show_counts : bool
        If True, point area follows the bin count (legend "Count");
        otherwise all points have one size.
    type : {"classwise", "confidence"}
        Multiclass layout; ignored for binary input.

    Returns
    -------
    matplotlib.figure.Figure
        One Axes per panel (class order, row by row). The title is the
        figure's suptitle, the subtitle a figure text with gid
        ``"subtitle"``. The figure is not attached to pyplot; save it with
        ``fig.savefig(...)`` or display it in a notebook.

    Raises
    ------
    ProbcalError
        For invalid input, with R's message.
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> fig = reliability_diagram([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2)
    >>> [t.get_text() for t in fig.texts]  # R: title and subtitle of the ggplot
    ['Reliability diagram', 'ECE = 0.1500']
    >>> fig.savefig("reliability.png")  # doctest: +SKIP
    """
    kind, table = _diagram_data(p, y, bins, type)
    try:
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
    except ImportError as exc:
        raise ImportError(_MATPLOTLIB_MESSAGE) from exc

    if kind == "classwise":
        title = "Reliability diagram (classwise)"
        xlabel, ylabel = "Mean predicted probability", "Observed event frequency"
    elif kind == "confidence":
        title = "Reliability diagram (confidence)"
        xlabel, ylabel = "Top-label confidence", "Observed accuracy"
    else:
        title = "Reliability diagram"
        xlabel, ylabel = "Mean predicted probability", "Observed event frequency"

    subtitle = None
    if _is_true(show_ece):
        if kind == "classwise":
            subtitle = "Classwise ECE = %.4f" % ece(p, y, bins=bins, type="classwise")
        elif kind == "confidence":
            subtitle = "ECE = %.4f" % ece(p, y, bins=bins, type="confidence")
        else:
            subtitle = "ECE = %.4f" % ece(p, y, bins=bins)

    counts = _is_true(show_counts)
    if kind == "classwise":
        levels = list(table["class_label"].cat.categories)
        panels = [(level, table.loc[table["class_label"] == level]) for level in levels]
        nrow, ncol = wrap_dims(len(panels))
        panel_in = min(3.0, max(1.5, 8.0 / ncol))
    else:
        panels = [(None, table)]
        nrow, ncol = 1, 1
        panel_in = 4.0
    faceted = kind == "classwise"

    limits = (float(table["n"].min()), float(table["n"].max()))

    # Layout in inches: fixed margins for ggplot2's title block, strips,
    # axis text and legend, so the panels keep ggplot2's proportions.
    pad = 0.12
    title_h = _TITLE_SIZE / 72 * 1.25
    subtitle_h = _BASE_SIZE / 72 * 1.25 + 0.04 if subtitle is not None else 0.0
    strip_h = 0.26 if faceted else 0.0
    left = pad + 0.62
    bottom = pad + 0.5
    hgap, vgap = 0.22, 0.08
    legend_w = 1.1 if counts else 0.15
    header = pad + title_h + subtitle_h + 0.1
    width = left + ncol * panel_in + (ncol - 1) * hgap + legend_w + pad
    height = header + nrow * (strip_h + panel_in) + (nrow - 1) * vgap + bottom

    fig = Figure(figsize=(width, height))
    lowest_row = [max(r for r in range(nrow) if r * ncol + c < len(panels))
                  for c in range(ncol)]
    for i, (level, data) in enumerate(panels):
        row, col = divmod(i, ncol)
        x0 = left + col * (panel_in + hgap)
        y0 = height - header - (row + 1) * (strip_h + panel_in) - row * vgap
        ax = fig.add_axes((x0 / width, y0 / height, panel_in / width, panel_in / height))
        _style_panel(ax, show_x_ticks=row == lowest_row[col], show_y_ticks=col == 0)
        sizes = _size_scale(data["n"].to_numpy(), limits) if counts else _FIXED_SIZE
        _draw_points(ax, data, sizes)
        if faceted:
            ax.set_title(str(level), fontsize=_SMALL_SIZE, color=_STRIP_COLOUR, pad=4)
        else:
            ax.set_xlabel(xlabel, fontsize=_BASE_SIZE)
            ax.set_ylabel(ylabel, fontsize=_BASE_SIZE)

    panels_right = left + ncol * panel_in + (ncol - 1) * hgap
    panels_bottom = bottom
    panels_top = height - header
    if faceted:
        fig.supxlabel(xlabel, x=(left + panels_right) / 2 / width,
                      y=pad / height, ha="center", va="bottom", fontsize=_BASE_SIZE)
        fig.supylabel(ylabel, x=pad / width, y=(panels_bottom + panels_top) / 2 / height,
                      ha="left", va="center", fontsize=_BASE_SIZE)
    fig.suptitle(title, x=left / width, y=1 - pad / height, ha="left", va="top",
                 fontsize=_TITLE_SIZE)
    if subtitle is not None:
        fig.text(left / width, 1 - (pad + title_h + 0.04) / height, subtitle,
                 ha="left", va="top", fontsize=_BASE_SIZE, gid="subtitle")

    if counts:
        breaks = _size_breaks(limits)
        handles = [
            Line2D([], [], linestyle="none", marker="o", color="black",
                   markersize=float(_point_diameter(size)), markeredgewidth=0,
                   alpha=_POINT_ALPHA)
            for size in _size_scale(breaks, limits)
        ]
        legend = fig.legend(
            handles, _r_format(breaks), title="Count", frameon=False,
            loc="center left", fontsize=_SMALL_SIZE, title_fontsize=_BASE_SIZE,
            labelspacing=0.9, handletextpad=0.8,
            bbox_to_anchor=((panels_right + 0.15) / width,
                            (panels_bottom + panels_top) / 2 / height))
        if hasattr(legend, "set_alignment"):  # matplotlib >= 3.6
            legend.set_alignment("left")  # ggplot2 left-aligns legend titles
    return fig

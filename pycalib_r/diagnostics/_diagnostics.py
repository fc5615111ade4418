# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: probcal 0.1.0 R/diagnostics.R (MIT), (c) 2026 Pedro Rafael Diniz Marinho
"""Reliability diagrams: probcal's binned table and its ggplot2 layout in matplotlib.

probcal's ``reliability_diagram()`` returns a ggplot2 object. Python has no
grammar-of-graphics object with the same role, so the port splits it in two:
:func:`reliability_table` returns the data frame the R plot draws (R's
``plot$data``), and :func:`reliability_diagram` draws that table as a
``matplotlib.figure.Figure`` that reproduces R's layout -- the dotted
identity line, count-sized points with ggplot2's size scale and legend
breaks, equal aspect on ``[0, 1]`` with ggplot2's 5% expansion, the titles
and the ``facet_wrap()`` grid.

matplotlib is an optional dependency (``pip install matplotlib``, or
``pip install '.[plot]'`` from a checkout); it is imported only when a figure
is drawn.
"""

from __future__ import annotations

import math

import numpy as np

from ..binned._binning import STRATEGIES
from ..inputs._checks import check_conf_level, is_matrix
from ..rbase._errors import ProbcalError
from ..rbase._format import format_r_vec
from ..inputs._forms import input_form
from ..binned._metrics import bin_table, ece
from ..inputs._weights import check_weights
from ._ticks import _extended_breaks, _r_seq_by  # noqa: F401 - their old home
from ..inputs._hints import python_face

__all__ = ["reliability_table", "reliability_diagram"]

_MATPLOTLIB_MESSAGE = (
    "reliability_diagram() needs matplotlib: pip install matplotlib "
    "(or, from a pycalib_r checkout, pip install '.[plot]')"
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


nonempty = _nonempty  # the name other rooms import (public inside the package)


def _diagram_data(p, y, bins, type, strategy="equal_width", weights=None):
    """The plotted table and the diagram kind, with R's checks in R's order.

    Returns ``(kind, table)`` where ``kind`` is ``"binary"``, ``"classwise"``
    or ``"confidence"``. ``strategy`` bins as ``ece(strategy=)`` does (per
    class for the classwise form).
    """
    # R never evaluates `type` for a vector, and checks a matrix before
    # match.arg(type) is forced: input_form's order.
    form = input_form(p, y, type)
    w = check_weights(weights, form.n)  # None stays None: the unweighted table
    if form.scalar:
        return form.kind, _nonempty(bin_table(form.r, form.c, bins, strategy, weights=w))
    tables = [bin_table(column, one_vs_rest, bins, strategy, weights=w)
              for column, one_vs_rest in form.problems()]
    return "classwise", classwise_panels(tables, form.labels.levels)


def _check_strategy(strategy):
    """The binning strategy (a unique prefix is accepted, as R's match.arg)."""
    if isinstance(strategy, str):
        hits = [s for s in STRATEGIES if strategy and s.startswith(strategy)]
        if strategy in STRATEGIES or len(hits) == 1:
            return strategy if strategy in STRATEGIES else hits[0]
    raise ProbcalError(
        f'Argument `strategy` must be "equal_width" or "equal_freq", not {strategy!r}.')


check_strategy = _check_strategy  # the name other rooms import (public inside the package)


def wilson_interval(successes, n, conf_level=0.95):
    """Wilson score interval for a binomial proportion, element-wise.

    .. math::

        \\frac{\\hat p + z^2/2n \\pm z\\sqrt{\\hat p(1-\\hat p)/n + z^2/4n^2}}{1 + z^2/n},
        \\quad z = \\Phi^{-1}\\bigl(1 - (1 - \\text{conf\\_level})/2\\bigr)

    Unlike the Wald interval it stays inside ``[0, 1]`` and is not empty
    when a bin's frequency is 0 or 1.

    R equivalent: ``prop.test(x, n, correct = FALSE)$conf.int`` (not part of
    probcal).

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and
    statistical inference. JASA 22(158), 209-212.

    Examples
    --------
    >>> lo, hi = wilson_interval([3], [10])
    >>> print(round(float(lo[0]), 7), round(float(hi[0]), 7))  # R: prop.test(3, 10, correct = FALSE)
    0.1077913 0.6032219
    """
    from scipy.stats import norm

    conf_level = check_conf_level(conf_level)
    n = np.asarray(n, dtype=np.float64)
    phat = np.asarray(successes, dtype=np.float64) / n
    z = norm.ppf(1 - (1 - conf_level) / 2)
    centre = phat + z * z / (2 * n)
    half = z * np.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n))
    denom = 1 + z * z / n
    return np.clip((centre - half) / denom, 0, 1), np.clip((centre + half) / denom, 0, 1)


@python_face
def reliability_table(p, y, bins=10, type="classwise", strategy="equal_width", conf_level=None,
                      weights=None):
    """The binned table a reliability diagram plots.

    One row per non-empty bin: mean predicted probability
    (``confidence``), observed event frequency (``accuracy``), their absolute
    difference (``gap``) and the count ``n``. With the defaults this is the
    data of R's ``reliability_diagram()`` plot (``plot$data``).

    R equivalent: ``reliability_diagram(p, y, bins, type = type)$data``
    (probcal's internal ``bin_stats()`` restricted to ``n > 0``).
    ``strategy`` and ``conf_level`` are not in R.

    Parameters
    ----------
    p : array_like
        A probability vector (binary), or a matrix/DataFrame with one column
        per class whose rows sum to one (multiclass).
    y : array_like
        0/1 labels (binary), or class codes ``1..K`` or a pandas Categorical
        (multiclass).
    bins : int, array_like or "unique"
        Number of bins. Python-only: a strictly increasing vector of edges
        covering ``p`` (``strategy`` is then ignored), or ``"unique"``, one
        row per distinct prediction (``lower`` and ``upper`` are then the
        value itself), as in :func:`ece`.
    type : {"classwise", "confidence"}
        Multiclass form: one-vs-rest bins per class, or the top-label
        confidence against correctness. Ignored for binary input.
    strategy : {"equal_width", "equal_freq"}
        Equal-width bins on ``[0, 1]`` (R's diagram), or the equal-frequency
        bins of ``ece(strategy="equal_freq")`` (per class when classwise).
    conf_level : float, optional
        If given, columns ``accuracy_lower`` and ``accuracy_upper`` hold the
        Wilson interval (:func:`wilson_interval`) of each bin's ``accuracy``.
    weights : array_like, optional
        Python-only: observation weights, one per row (R's ``glm`` prior
        weights), finite and non-negative with a positive sum (else a
        ``ProbcalError`` naming ``weights``). ``n`` is then each bin's total
        weight (a float), ``confidence`` and ``accuracy`` weighted means, and
        the Wilson interval treats ``n`` as a count. A row of weight 0
        changes nothing, a row of whole weight k counts as k copies
        (equal-frequency edges are the copies' quantiles). None: the
        unweighted table, bit for bit.

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
    strategy = _check_strategy(strategy)
    table = _diagram_data(p, y, bins, type, strategy, weights)[1]
    return with_interval(table, conf_level)


def with_interval(table, conf_level):
    """The table with the Wilson interval columns when ``conf_level`` is given."""
    if conf_level is not None:
        n = table["n"].to_numpy()
        lo, hi = wilson_interval(table["accuracy"].to_numpy() * n, n, conf_level)
        position = table.columns.get_loc("accuracy") + 1
        table.insert(position, "accuracy_upper", hi)
        table.insert(position, "accuracy_lower", lo)
    return table


def classwise_panels(tables, levels):
    """One-vs-rest tables (non-empty rows) stacked with their ``class_label``."""
    import pandas as pd

    panels = []
    for k, panel in enumerate(tables):
        panel = _nonempty(panel)
        panel["class_label"] = pd.Categorical([levels[k]] * len(panel), categories=levels)
        panels.append(panel)
    return pd.concat(panels, ignore_index=True)


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


def _size_breaks(limits):
    """The count legend's breaks: extended breaks censored to the limits."""
    lo, hi = limits
    if lo == hi:
        return np.array([lo], dtype=float)
    breaks = _extended_breaks(lo, hi)
    breaks = breaks[(breaks >= lo) & (breaks <= hi)]
    # Counts are whole: ggplot2 would label 3333.00, 3333.25, ... for bins of
    # 3,333 and 3,334 (a narrow range); keep the whole breaks, or the ends.
    whole = breaks[breaks == np.round(breaks)]
    if whole.size >= 2 or (whole.size == breaks.size):
        return whole
    return np.unique(np.round(np.linspace(lo, hi, int(min(5, hi - lo + 1)))))


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


# scales::hue_pal()(n), ggplot2's default discrete colours, for overlays
_HUE_PAL = {
    2: ["#F8766D", "#00BFC4"],
    3: ["#F8766D", "#00BA38", "#619CFF"],
    4: ["#F8766D", "#7CAE00", "#00BFC4", "#C77CFF"],
    5: ["#F8766D", "#A3A500", "#00BF7D", "#00B0F6", "#E76BF3"],
}


def _model_colours(n):
    if n == 1:
        return ["black"]
    if n in _HUE_PAL:
        return _HUE_PAL[n]
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    # Hex strings: an RGBA tuple given as scatter's `c` for a model with 4
    # (or 3) points is read as 4 values to colour-map, not as one colour.
    return [to_hex(colormaps["tab10"](i % 10)) for i in range(n)]


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


def _draw_points(ax, table, sizes, colour="black", label=None):
    diameter = _point_diameter(sizes)
    ax.scatter(table["confidence"].to_numpy(), table["accuracy"].to_numpy(),
               s=np.broadcast_to(diameter ** 2, (len(table),)), c=colour,
               alpha=_POINT_ALPHA, linewidths=0, zorder=3, label=label)


def _draw_intervals(ax, table, colour):
    ax.vlines(table["confidence"].to_numpy(), table["accuracy_lower"].to_numpy(),
              table["accuracy_upper"].to_numpy(), colors=colour, linewidth=_LINE_PT * 1.5,
              alpha=_POINT_ALPHA, zorder=2.5, gid="intervals")


def _identity_line(ax):
    ax.axline((0.0, 0.0), slope=1.0, color="black", linewidth=_LINE_PT,
              linestyle=(0, (1, 3)), zorder=2)


def _models(p):
    """``[(name, p)]``: one unnamed model, or the items of a dict of models."""
    from collections.abc import Mapping

    if not isinstance(p, Mapping):
        return [(None, p)]
    if len(p) == 0:
        raise ValueError("`p` is an empty dict; give one or more name -> probabilities items.")
    names = list(p)
    bad = [name for name in names if not isinstance(name, str)]
    if bad:
        raise TypeError(f"the names of the models in `p` must be strings, not {bad[0]!r}.")
    return list(p.items())


def _n_rows(x):
    shape = np.shape(x)
    return shape[0] if shape else 1


def _model_tables(models, y, bins, type, strategy, conf_level, weights=None):
    """The table of each model; every model must predict the rows of ``y``."""
    if len(models) > 1:
        n_y = _n_rows(y)
        for name, pm in models:
            if _n_rows(pm) != n_y:
                raise ProbcalError(
                    f"Model {name!r} has {_n_rows(pm)} observations but `y` has {n_y}; "
                    "every model in `p` must predict the same rows as `y`.")
    forms = {name: "matrix" if is_matrix(pm) else "vector" for name, pm in models}
    if len(set(forms.values())) > 1:
        raise ValueError(f"the models in `p` mix vectors and matrices: {forms}; give one kind.")
    kinds, tables = [], []
    for name, pm in models:
        try:
            kind, table = _diagram_data(pm, y, bins, type, strategy, weights)
        except ProbcalError as exc:
            if name is not None:
                _add_note(exc, f"(in model {name!r} of `p`)")
            raise
        if conf_level is not None:
            n = table["n"].to_numpy()
            table["accuracy_lower"], table["accuracy_upper"] = wilson_interval(
                table["accuracy"].to_numpy() * n, n, conf_level)
        kinds.append(kind)
        tables.append(table)
    return kinds[0], tables


def _add_note(exc, note):
    if hasattr(exc, "add_note"):
        exc.add_note(note)
    else:  # Python < 3.11
        exc.__notes__ = list(getattr(exc, "__notes__", [])) + [note]


def _target_axes(ax, kind, n_panels):
    """The caller's Axes as a list of one Axes per panel, or a clear error."""
    from matplotlib.axes import Axes

    if isinstance(ax, Axes):
        axes = [ax]
    elif isinstance(ax, (list, tuple, np.ndarray)) and all(
            isinstance(a, Axes) for a in np.ravel(np.asarray(ax, dtype=object))):
        axes = list(np.ravel(np.asarray(ax, dtype=object)))
    else:
        raise TypeError(f"`ax` must be a matplotlib Axes (or one Axes per class for the "
                        f"classwise panels), not {type(ax).__name__}.")
    if len(axes) != n_panels:
        hint = (f"; for {n_panels} classes make them with fig.subplots(1, {n_panels}) "
                "or use type=\"confidence\" for one panel" if kind == "classwise" else "")
        raise ValueError(f"`ax` has {len(axes)} Axes but the diagram has {n_panels} "
                         f"panel{'s' if n_panels != 1 else ''}{hint}.")
    return axes


class _GGLayout:
    """Places ggplot2's blocks in inches at every draw, so any figure size keeps them apart.

    Margins (title block, strips, axis text, legend column) have fixed sizes
    in inches; the panels take the rest, square and centred, as ggplot2 does
    with ``coord_equal()``. Implemented as a matplotlib layout engine, so
    ``fig.set_size_inches()``, ``savefig`` and a resized window all re-run it.
    """

    pad = 0.12
    hgap, vgap = 0.22, 0.08

    def __init__(self, nrow, ncol, faceted, subtitle, legends):
        self.nrow, self.ncol, self.faceted = nrow, ncol, faceted
        self.subtitle = subtitle
        self.legends = legends
        self.title_h = _TITLE_SIZE / 72 * 1.25
        self.subtitle_h = _BASE_SIZE / 72 * 1.25 + 0.04 if subtitle else 0.0
        self.strip_h = 0.26 if faceted else 0.0
        self.left = self.pad + 0.62
        self.bottom = self.pad + 0.5
        self.header = self.pad + self.title_h + self.subtitle_h + 0.1

    def _legend_sizes(self, fig):
        """Each legend's (width, height) in inches, as drawn."""
        try:
            renderer = fig._get_renderer()
        except (AttributeError, RuntimeError):  # pragma: no cover - a backend without a renderer
            return [(0.8, 1.6) for _ in self.legends]
        boxes = [legend.get_window_extent(renderer) for legend in self.legends]
        return [(box.width / fig.dpi, box.height / fig.dpi) for box in boxes]

    def _side_by_side(self, fig, sizes):
        """Two legends go side by side when stacking them would not fit the height."""
        height = fig.get_size_inches()[1]
        return len(sizes) == 2 and sizes[0][1] + sizes[1][1] + 0.1 > height - 2 * self.pad

    def legend_width(self, fig):
        if not self.legends:
            return 0.15
        sizes = self._legend_sizes(fig)
        if self._side_by_side(fig, sizes):
            needed = sizes[0][0] + sizes[1][0] + 0.15
        else:
            needed = max(w for w, _ in sizes)
        return max(1.1, needed + 0.3)

    def natural_size(self, fig, panel_in):
        width = (self.left + self.ncol * panel_in + (self.ncol - 1) * self.hgap
                 + self.legend_width(fig) + self.pad)
        height = (self.header + self.nrow * (self.strip_h + panel_in)
                  + (self.nrow - 1) * self.vgap + self.bottom)
        return width, height

    def execute(self, fig):
        width, height = fig.get_size_inches()
        if not (width > 0 and height > 0):
            return  # a figure resized to nothing has no layout to make
        legend_w = self.legend_width(fig)
        avail_w = width - self.left - legend_w - self.pad - (self.ncol - 1) * self.hgap
        avail_h = height - self.header - self.bottom - (self.nrow - 1) * self.vgap
        panel_in = max(0.2, min(avail_w / self.ncol, avail_h / self.nrow - self.strip_h))
        used_w = self.ncol * panel_in + (self.ncol - 1) * self.hgap
        used_h = self.nrow * (self.strip_h + panel_in) + (self.nrow - 1) * self.vgap
        # centre the panel block (with its legend column) in the free space
        x_left = self.left + max(0.0, (width - self.left - legend_w - self.pad - used_w) / 2)
        y_top = height - self.header - max(0.0, (avail_h + (self.nrow - 1) * self.vgap
                                                 - used_h) / 2)
        axes = [ax for ax in fig.axes if ax.get_gid() == "panel"]
        for i, ax in enumerate(axes):
            row, col = divmod(i, self.ncol)
            x0 = x_left + col * (panel_in + self.hgap)
            y0 = y_top - (row + 1) * (self.strip_h + panel_in) - row * self.vgap
            ax.set_position((x0 / width, y0 / height, panel_in / width, panel_in / height))
        right = x_left + used_w
        bottom = y_top - used_h
        middle = (bottom + y_top) / 2 / height
        title_y = y_top + self.header - self.pad
        fig._suptitle.set_position((x_left / width, title_y / height))
        for text in fig.texts:
            if text.get_gid() == "subtitle":
                text.set_position((x_left / width, (title_y - self.title_h - 0.04) / height))
        _fit_axis_text(fig, axes, panel_in, used_w, used_h, self.faceted)
        if self.faceted:
            fig._supxlabel.set_position(((x_left + right) / 2 / width,
                                         (bottom - self.bottom + self.pad) / height))
            fig._supylabel.set_position(((x_left - self.left + self.pad) / width, middle))
        x_legend = right + 0.15
        sizes = self._legend_sizes(fig)

        def centre(h):
            # centred on the panels, below the title block where the height allows
            return max(h / 2 + self.pad, min(middle * height, y_top - h / 2))

        if len(self.legends) == 1:
            self.legends[0].set_loc("center left")
            anchors = [(x_legend, centre(sizes[0][1]))]
        elif self._side_by_side(fig, sizes):  # models, then counts, both centred
            for legend in self.legends:
                legend.set_loc("center left")
            mid = centre(max(h for _, h in sizes))
            anchors = [(x_legend + sizes[1][0] + 0.15, mid), (x_legend, mid)]
        elif self.legends:  # models above counts, the pair centred and inside the figure
            for legend in self.legends:
                legend.set_loc("upper left")
            total = sizes[0][1] + sizes[1][1] + 0.1
            # below the title block where the height allows (at 3 x 3 inches it does not)
            top = max(total + self.pad, min(y_top, max(middle * height + total / 2,
                                                       total + self.pad)))
            top = min(top, height - self.pad)
            top = max(top, total + self.pad)
            anchors = [(x_legend, top - sizes[1][1] - 0.1), (x_legend, top)]
        else:
            anchors = []
        for legend, (x, y) in zip(self.legends, anchors):
            legend.set_bbox_to_anchor((x / width, y / height), transform=fig.transFigure)


# Tick values shown when a panel is too small for all five labels side by side.
_TICK_STEPS = ((1.9, (0.0, 0.25, 0.5, 0.75, 1.0), "{:.2f}"), (0.9, (0.0, 0.5, 1.0), "{:.2f}"),
               (0.0, (0.0, 1.0), "{:.0f}"))
_MIN_LABEL_SIZE = 6.0


def _check_figsize(figsize) -> None:
    """``figsize`` (Python-only) is two finite positive numbers of inches."""
    try:
        w, h = (float(v) for v in figsize)
    except (TypeError, ValueError):
        w = h = math.nan
    if not (math.isfinite(w) and math.isfinite(h) and w > 0 and h > 0):
        raise ProbcalError(f"`figsize` must be two finite positive numbers (width and height in "
                           f"inches), e.g. figsize=(6, 4); got {figsize!r}.")


def _new_figure(figsize):
    """A Figure, registered with pyplot only when pyplot is in use.

    Through pyplot (``plt.show()``, ``plt.savefig()``, Jupyter's inline
    display) when the caller has imported ``matplotlib.pyplot``; otherwise a
    plain :class:`matplotlib.figure.Figure`, which pyplot does not keep
    alive, so drawing many diagrams in a loop neither holds their memory nor
    triggers matplotlib's "More than 20 figures" warning. ``fig.savefig``
    works on both.
    """
    from ..rbase._modules import imported

    plt = imported("matplotlib.pyplot")
    if plt is not None:
        return plt.figure(figsize=figsize)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)  # draw(), get_renderer() and savefig() without pyplot
    return fig


def _fit_axis_text(fig, axes, panel_in, span_w, span_h, faceted):
    """Keep tick and axis labels apart however small the panels are.

    ggplot2's margins are fixed in inches, so below about 5 inches the axis
    titles grow longer than the panels they label and meet in the corner,
    and the five tick labels of a 1-inch panel overlap. Here (at every
    layout pass, so enlarging the figure restores R's look) tick labels are
    thinned to 0, 0.5, 1 (or 0, 1), and an axis title longer than its panel
    side is wrapped onto two lines and, if still too long, set in a smaller
    font (6 points at least). At R's default sizes nothing changes.
    """
    for step_min, shown, fmt in _TICK_STEPS:
        if panel_in >= step_min:
            break
    for ax in axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = [t.get_text() for t in axis.get_ticklabels()]
            if any(labels):  # the panels with tick labels (facets keep theirs blank)
                axis.set_ticklabels([fmt.format(t) if t in shown else "" for t in axis.get_ticklocs()])
    try:
        renderer = fig._get_renderer()
    except (AttributeError, RuntimeError):  # pragma: no cover - a backend without a renderer
        return
    if faceted:
        labels = [(fig._supxlabel, span_w), (fig._supylabel, span_h)]
    else:
        labels = [(axes[0].xaxis.label, panel_in), (axes[0].yaxis.label, panel_in)]
    for text, span in labels:
        if text is None:
            continue
        full = getattr(text, "_pycalib_r_full", None) or text.get_text()
        text._pycalib_r_full = full  # the one-line title, kept across layout passes
        text.set_text(full)
        text.set_fontsize(_BASE_SIZE)
        text.set_linespacing(1.2)
        span = span + 0.1
        length = text.get_window_extent(renderer).width / fig.dpi
        if text.get_rotation() == 90:
            length = text.get_window_extent(renderer).height / fig.dpi
        if length <= span:
            continue
        words = full.split(" ")
        if len(words) > 1:
            cut = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i]))
                                                             - len(" ".join(words[i:]))))
            text.set_text(" ".join(words[:cut]) + "\n" + " ".join(words[cut:]))
            text.set_linespacing(1.0)  # the second line within the one-line margin
            length *= max(len(" ".join(words[:cut])), len(" ".join(words[cut:]))) / len(full)
        if length > span:
            text.set_fontsize(max(_MIN_LABEL_SIZE, _BASE_SIZE * span / length))
    # The title block: as wide as the figure allows right of its left edge.
    width = fig.get_size_inches()[0]
    for text, size in [(fig._suptitle, _TITLE_SIZE)] + [
            (t, _BASE_SIZE) for t in fig.texts if t.get_gid() == "subtitle"]:
        if text is None:
            continue
        text.set_fontsize(size)
        room = width * (1 - text.get_position()[0]) - 0.08
        length = text.get_window_extent(renderer).width / fig.dpi
        if length > room > 0:
            text.set_fontsize(max(_MIN_LABEL_SIZE, size * room / length))


def _layout_engine(layout):
    from matplotlib.layout_engine import LayoutEngine

    class GGLayoutEngine(LayoutEngine):
        _adjust_compatible = False
        _colorbar_gridspec = False

        def set(self, **kwargs):  # pragma: no cover - nothing to set
            raise TypeError("this layout takes no parameters")

        def execute(self, fig):
            layout.execute(fig)

    return GGLayoutEngine()


@python_face
def reliability_diagram(p, y, bins=10, show_ece=True, show_counts=True,
                        type="classwise", *, strategy="equal_width", intervals=False,
                        conf_level=0.95, ax=None, figsize=None, weights=None):
    """Reliability diagram of binned confidence against observed frequency.

    Points are the non-empty bins of :func:`reliability_table` (mean
    predicted probability against observed event frequency), drawn with a
    dotted identity line on equal axes over ``[0, 1]``. Points below the
    line are over-confident bins, points above under-confident ones. A
    probability matrix gives one panel per class (``type="classwise"``,
    arranged as ggplot2's ``facet_wrap()`` would) or a single top-label
    panel (``type="confidence"``). A dict of models overlays them, one
    colour each (for example raw against calibrated probabilities).

    R equivalent: ``probcal::reliability_diagram(p, y, bins = 10,
    show_ece = TRUE, show_counts = TRUE, type = c("classwise",
    "confidence"))``, which returns a ggplot; this returns a matplotlib
    Figure with the same layout. The plotted data is
    :func:`reliability_table`. The keyword-only arguments are not in R;
    their defaults draw R's figure.

    Parameters
    ----------
    p : array_like or dict
        A probability vector (binary), or a matrix/DataFrame with one column
        per class whose rows sum to one (multiclass). A dict ``{name: p}``
        overlays several models predicting the same rows (all vectors or all
        matrices).
    y : array_like
        0/1 labels (binary), or class codes ``1..K`` or a pandas Categorical
        (multiclass).
    bins : int
        Number of bins.
    show_ece : bool
        If True, the subtitle reports the ECE with the same bins
        (``"ECE = %.4f"``, or ``"Classwise ECE = %.4f"`` for the classwise
        panels; one value per model for an overlay). As R's ``isTRUE()``,
        only ``True`` counts.
    show_counts : bool
        If True, point area follows the bin count (legend "Count");
        otherwise all points have one size.
    type : {"classwise", "confidence"}
        Multiclass layout; ignored for binary input.
    strategy : {"equal_width", "equal_freq"}
        Equal-width bins (R's diagram) or the equal-frequency bins of
        ``ece(strategy="equal_freq")``; the subtitle's ECE uses the same.
    intervals : bool
        If True, a vertical bar per bin shows the Wilson interval of its
        observed frequency (:func:`wilson_interval`).
    conf_level : float
        Level of those intervals.
    weights : array_like, optional
        Observation weights: the points are :func:`reliability_table`'s
        weighted bins (area by total weight) and the subtitle's ECE is
        ``ece(..., weights=)``.
    ax : matplotlib.axes.Axes or sequence of Axes, optional
        Draw into existing Axes (one, or one per class for the classwise
        panels) instead of a new figure. The Axes' titles stay the caller's
        (``ax.set_title`` does not meet the package's text): the title and
        subtitle are drawn inside the panel's upper-left corner (an
        ``AnchoredText`` with gid ``"header"``; for a dict of models, the
        title of their legend), the class names are the panel titles of the
        classwise panels, and the count legend sits in the lower-right
        corner of the (last) Axes.
    figsize : (float, float), optional
        Size of the new figure in inches; by default the panels are 4 inches
        (binary, confidence) or up to 3 inches each (classwise), as R's.
        Margins stay fixed in inches at any size, including after
        ``fig.set_size_inches()`` or resizing a window.

    Returns
    -------
    matplotlib.figure.Figure
        The new figure (or ``ax``'s). Its panels are the Axes with gid
        ``"panel"`` (class order, row by row). The title is the figure's
        suptitle, the subtitle a figure text with gid ``"subtitle"``. When
        ``matplotlib.pyplot`` is imported the figure is made through pyplot,
        so ``plt.show()`` displays it and ``plt.close(fig)`` releases it;
        otherwise it is a plain ``matplotlib.figure.Figure`` that pyplot
        does not track (25 diagrams in a loop give no "More than 20
        figures" warning).

    Raises
    ------
    ProbcalError
        For invalid input, with R's message (and the model's name in a note
        for a dict); a dict whose models do not predict the rows of ``y``.
    TypeError, ValueError
        For ``ax`` that is not an Axes (or not one per panel), ``ax``
        together with ``figsize``, or a dict mixing vectors and matrices.
    ImportError
        If matplotlib is not installed.

    Examples
    --------
    >>> fig = reliability_diagram([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1], bins=2)
    >>> [t.get_text() for t in fig.texts]  # R: title and subtitle of the ggplot
    ['Reliability diagram', 'ECE = 0.1500']
    >>> fig.savefig("reliability.png")  # doctest: +SKIP
    >>> import matplotlib.pyplot as plt
    >>> plt.close(fig)
    """
    strategy = _check_strategy(strategy)
    if ax is not None and figsize is not None:
        raise ValueError("give `ax` or `figsize`, not both: the Axes' figure has its own size.")
    if figsize is not None:
        _check_figsize(figsize)
    models = _models(p)
    overlay = len(models) > 1 or models[0][0] is not None
    kind, tables = _model_tables(models, y, bins, type,
                                 strategy, conf_level if _is_true(intervals) else None, weights)
    try:
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
        metric_type = "classwise" if kind == "classwise" else "confidence"
        values = [ece._plain(pm, y, bins=bins, type=metric_type, strategy=strategy, weights=weights)
                  for _, pm in models]
        prefix = "Classwise ECE" if kind == "classwise" else "ECE"
        if overlay:
            subtitle = f"{prefix}: " + ", ".join(
                "%s = %.4f" % (name, v) for (name, _), v in zip(models, values))
        else:
            subtitle = "%s = %.4f" % (prefix, values[0])

    counts = _is_true(show_counts)
    faceted = kind == "classwise"
    if faceted:
        levels = list(tables[0]["class_label"].cat.categories)
        panel_keys = levels
        nrow, ncol = wrap_dims(len(levels))
        panel_in = min(3.0, max(1.5, 8.0 / ncol))
    else:
        panel_keys = [None]
        nrow, ncol = 1, 1
        panel_in = 4.0

    all_n = np.concatenate([t["n"].to_numpy() for t in tables])
    counted = (float(all_n.min()), float(all_n.max()))
    # ggplot2 maps the counts' range onto the size range. Equal-frequency bins
    # hold (nearly) the same count by design, so there point area is
    # proportional to the count (the scale starts at 0): 3,333 and 3,334 look
    # alike instead of a dot and the largest circle. (R draws no such diagram.)
    limits = (0.0, counted[1]) if strategy == "equal_freq" else counted
    colours = _model_colours(len(models))

    if ax is None:
        fig = _new_figure(figsize)
        axes = []
        for i in range(len(panel_keys)):
            axes.append(fig.add_axes((0.1, 0.1, 0.8, 0.8), gid="panel", label=f"panel{i}"))
    else:
        axes = _target_axes(ax, kind, len(panel_keys))
        fig = axes[0].figure

    lowest_row = [max(r for r in range(nrow) if r * ncol + c < len(panel_keys))
                  for c in range(ncol)]
    for i, (key, panel_ax) in enumerate(zip(panel_keys, axes)):
        row, col = divmod(i, ncol)
        if ax is None:
            _style_panel(panel_ax, show_x_ticks=row == lowest_row[col], show_y_ticks=col == 0)
        else:
            _style_panel(panel_ax, show_x_ticks=True, show_y_ticks=True)
        _identity_line(panel_ax)
        for (name, _), table, colour in zip(models, tables, colours):
            data = table if key is None else table.loc[table["class_label"] == key]
            if "accuracy_lower" in data:
                _draw_intervals(panel_ax, data, colour)
            sizes = _size_scale(data["n"].to_numpy(), limits) if counts else _FIXED_SIZE
            _draw_points(panel_ax, data, sizes, colour, label=name)
        if faceted:
            panel_ax.set_title(str(key), fontsize=_SMALL_SIZE, color=_STRIP_COLOUR, pad=4)
        if not faceted or ax is not None:
            panel_ax.set_xlabel(xlabel, fontsize=_BASE_SIZE)
            panel_ax.set_ylabel(ylabel, fontsize=_BASE_SIZE)

    legend_specs = []
    if counts:
        breaks = _size_breaks(counted)
        handles = [
            Line2D([], [], linestyle="none", marker="o", color="black",
                   markersize=float(_point_diameter(size)), markeredgewidth=0,
                   alpha=_POINT_ALPHA)
            for size in _size_scale(breaks, limits)
        ]
        legend_specs.append(("Count", handles, _r_format(breaks)))
    if overlay:
        handles = [Line2D([], [], linestyle="none", marker="o", color=colour,
                          markersize=float(_point_diameter(_FIXED_SIZE)), markeredgewidth=0,
                          alpha=_POINT_ALPHA) for colour in colours]
        legend_specs.append(("Model", handles, [name for name, _ in models]))
    style = dict(frameon=False, fontsize=_SMALL_SIZE, title_fontsize=_BASE_SIZE,
                 labelspacing=0.9, handletextpad=0.8, alignment="left")

    if ax is not None:
        # The Axes' title slots are the caller's (ax.set_title): the header
        # goes inside the panel, in its upper-left corner (above the identity
        # line, where under-confident bins would be), and the legends in the
        # lower-right one. With several models the header heads their legend.
        header = title if subtitle is None else f"{title}\n{subtitle}"
        last = axes[-1]
        placed = []
        for legend_title, handles, labels in legend_specs:
            if legend_title == "Model" and not faceted:
                legend_title, loc = header, "upper left"
                header = None
            else:
                loc = "lower right"
            placed.append(last.legend(handles, labels, title=legend_title, loc=loc, **style))
        for legend in placed[:-1]:  # a new Axes legend replaces the last one
            last.add_artist(legend)
        if header is not None and not faceted:
            from matplotlib.offsetbox import AnchoredText

            box = AnchoredText(header, loc="upper left", frameon=False, borderpad=0.3,
                               prop=dict(fontsize=_SMALL_SIZE, color=_STRIP_COLOUR))
            box.set_gid("header")
            axes[0].add_artist(box)
        return fig

    legends = [fig.legend(handles, labels, title=legend_title, loc="center left", **style)
               for legend_title, handles, labels in legend_specs]
    if faceted:
        fig.supxlabel(xlabel, ha="center", va="bottom", fontsize=_BASE_SIZE)
        fig.supylabel(ylabel, ha="left", va="center", fontsize=_BASE_SIZE)
    fig.suptitle(title, ha="left", va="top", fontsize=_TITLE_SIZE)
    if subtitle is not None:
        fig.text(0, 1, subtitle, ha="left", va="top", fontsize=_BASE_SIZE, gid="subtitle")

    layout = _GGLayout(nrow, ncol, faceted, subtitle, legends)
    if figsize is None:
        fig.set_size_inches(*layout.natural_size(fig, panel_in))
    fig.set_layout_engine(_layout_engine(layout))
    layout.execute(fig)
    return fig

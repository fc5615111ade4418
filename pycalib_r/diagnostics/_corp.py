# SPDX-License-Identifier: GPL-3.0-only
# Derived from: reliabilitydiag 0.2.1.9000 R/coercion.R, R/region_method.R, R/summary.R, R/utils.R (GPL-3), (c) Timo Dimitriadis and Alexander I. Jordan
# Derived from: R 4.2.2 src/library/stats/R/approx.R, src/library/stats/R/quantile.R, src/main/array.c (GPL-2-or-later), (c) The R Core Team
# Written from: Chen (1999), Beta kernel estimators for density functions (the beta kernel, in _beta_kernel.py); no code from bde
"""CORP reliability diagrams: R's ``reliabilitydiag`` (Dimitriadis, Gneiting & Jordan 2021).

The CORP (Consistent, Optimally binned, Reproducible, PAV-based) reliability
curve is the isotonic fit of the labels on the forecasts, computed here by the
package's exact PAV (:func:`pycalib_r.rstats._isoreg._pava_binary`,
the fit of ``cal_isotonic``). Around it go consistency bands (resampling under
calibration, or asymptotic) or confidence bands, and any proper score splits as
``mean score = MCB - DSC + UNC``.

R equivalent: ``reliabilitydiag::reliabilitydiag()`` 0.2.1.9000 (git
a3d3572 of aijordan/reliabilitydiag), its ``summary()``, ``print()`` and
``autoplot()``; ported from its R code (``R/coercion.R``,
``R/region_method.R``, ``R/summary.R``, ``R/utils.R``; GPL-3). The
continuous asymptotic bands use Chen's (1999) beta kernel density, which
reliabilitydiag takes from the R package bde (GPL-2-only): that estimator is
written here from Chen's paper alone (:mod:`._beta_kernel`), not from bde.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import partial

import numpy as np

from ..binned._binning import stable_order
from ._beta_kernel import chen_beta_density
from ._tibble import format_tibble
from ..inputs._checks import add_note
from ..rbase._errors import ProbcalError
from .._rng.stream._locking import holding
from ..inputs._forms import input_form
from ..rbase._rarith import r_mean
from ..rstats import approx_linear as _approx_linear, order_keys as _order_keys, pava_binary as _pava_binary
from ..rstats import sorted_pairs as _sorted_pairs
from ..inputs._hints import python_face

__all__ = ["reliabilitydiag", "ReliabilityDiag", "CorpSummary", "corp_decomposition", "ForecastKeyError"]

REGION_METHODS = ("resampling", "continuous_asymptotics", "discrete_asymptotics")
REGION_POSITIONS = ("diagonal", "estimate")
REFERENCE = "reliabilitydiag 0.2.1.9000 (aijordan/reliabilitydiag a3d3572)"

# reliabilitydiag's qchern(): quantiles of Chernoff's distribution, linearly
# interpolated (R's approxfun) -- R/utils.R.
_QCHERN_P = np.array([
    0.50, 0.51, 0.52, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58, 0.59,
    0.60, 0.61, 0.62, 0.63, 0.64, 0.65, 0.66, 0.67, 0.68, 0.69,
    0.70, 0.71, 0.72, 0.73, 0.74, 0.75, 0.76, 0.77, 0.78, 0.79,
    0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87, 0.88, 0.89,
    0.90, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99,
    0.991, 0.992, 0.993, 0.994, 0.995, 0.996, 0.997, 0.998, 0.999, 0.9999])
_QCHERN_Q = np.array([
    0.000000, 0.013187, 0.026383, 0.039595, 0.052830,
    0.066096, 0.079402, 0.092757, 0.106168, 0.119645,
    0.133196, 0.146831, 0.160560, 0.174393, 0.188342,
    0.202418, 0.216633, 0.230999, 0.245530, 0.260242,
    0.275151, 0.290274, 0.305629, 0.321238, 0.337123,
    0.353308, 0.369821, 0.386694, 0.403959, 0.421656,
    0.439828, 0.458525, 0.477804, 0.497731, 0.518383,
    0.539855, 0.562252, 0.585706, 0.610378, 0.636468,
    0.664235, 0.694004, 0.726216, 0.761477, 0.800658,
    0.845081, 0.896904, 0.960057, 1.043030, 1.171530,
    1.189813, 1.209897, 1.232241, 1.257496, 1.286659,
    1.321370, 1.364637, 1.423026, 1.516664, 1.784955])


def _stopifnot(ok, expr, hint=None):
    """R's ``stopifnot(expr)``: ``"<expr> is not TRUE"``, with a Python hint as a note."""
    if not ok:
        err = ProbcalError(f"{expr} is not TRUE")
        if hint:
            add_note(err, hint)
        raise err


# ---------------------------------------------------------------------------
# R helpers


def _approx_rule1(x, y, xout, warn_ties=True):
    """R ``approx(x, y, xout)$y`` (rule 1: NA outside) for sorted ``x``: NA pairs dropped,
    tied ``x`` collapsed to R's ``mean`` of their ``y`` with R's warning
    (``regularize.values(ties = mean)``). Fewer than two pairs left: R's error."""
    keep = ~np.isnan(y)
    x, y = x[keep], y[keep]
    xout = np.asarray(xout, dtype=np.float64)
    if x.size > 1 and np.any(x[1:] == x[:-1]):
        if warn_ties:
            from ..rbase._warn import warn

            warn("collapsing to unique 'x' values", RuntimeWarning)
        starts = np.concatenate(([0], np.flatnonzero(x[1:] != x[:-1]) + 1))
        ends = np.concatenate((starts[1:], [x.size]))
        y = np.array([y[a] if b - a == 1 else r_mean(y[a:b]) for a, b in zip(starts, ends)])
        x = x[starts]
    if x.size <= 1:
        # R's approx(method = "linear") refuses, whatever xout
        raise ProbcalError("need at least two non-NA values to interpolate")
    out = _approx_linear(x, y, xout)
    out[(xout < x[0]) | (xout > x[-1])] = np.nan
    return out


def _row_quantiles(mat, probs):
    """``apply(mat, 1, quantile, probs, na.rm = TRUE)``, type 7, as R 4.2.2's ``quantile.default``."""
    srt = np.sort(mat, axis=1)  # NaN last
    nvalid = np.sum(~np.isnan(mat), axis=1)
    out = np.full((len(probs), mat.shape[0]), np.nan)
    rows = np.flatnonzero(nvalid > 0)
    nv = nvalid[rows]
    for k, prob in enumerate(probs):
        index = 1 + np.maximum(nv - 1, 0) * prob
        lo = np.floor(index).astype(np.int64)
        hi = np.ceil(index).astype(np.int64)
        qs = srt[rows, lo - 1]
        x_hi = srt[rows, hi - 1]
        i = (index > lo) & (x_hi != qs)
        h = (index - lo)[i]
        qs = qs.copy()
        qs[i] = (1 - h) * qs[i] + h * x_hi[i]
        out[k, rows] = qs
    return out


def _bound_correction(bound, x, cep, position):
    """reliabilitydiag's ``bound_correction()``: for confidence bands, bounds at interior
    points whose CEP is 0 or 1 are replaced by interpolation."""
    if x.size == 1 or position == "diagonal":
        return bound
    lo, hi = np.nanmin(x), np.nanmax(x)
    drop = ((cep == 0) | (cep == 1)) & ~((x == lo) | (x == hi))
    b = np.where(drop, np.nan, bound)
    return _approx_rule1(x, b, x)


def _detect_xtype(x_sorted):
    # np.unique of the sorted forecasts, without sorting them again.
    u = x_sorted[np.concatenate(([True], x_sorted[1:] != x_sorted[:-1]))]
    if u.size == 1:
        return "discrete"
    return "discrete" if np.min(np.diff(u)) >= 0.01 else "continuous"


def _detect_regionmethod(x, position):
    if position == "estimate":
        return "resampling"
    n = x.size
    n_unique = np.unique(x).size
    if n <= max(1000, min(5000, 50 * n_unique)):
        return "resampling"
    return "discrete_asymptotics" if n >= 8 * n_unique ** 2 else "continuous_asymptotics"


_XVALUES_HINT = ("`xvalues` is the sorted set of distinct values in [0, 1] that the "
                 "forecasts are snapped to (each to the nearest), e.g. "
                 "np.round(np.linspace(0, 1, 11), 1); None (the default) keeps the forecasts.")


def _check_xvalues(xvalues):
    """``(values, masked)``: ``xvalues`` as a float vector, R's ``stopifnot(is.numeric(
    xvalues))`` for anything else; a masked array's masked entries become NaN (R's NA),
    as for ``p`` and ``y``. Python-only: an empty ``xvalues`` is refused here (R maps
    every forecast to NA and fails later, in ``isoreg()``: "missing values not allowed")."""
    from ..inputs._checks import masked_as_na

    data, masked = masked_as_na(xvalues)
    arr = None
    if not isinstance(data, (str, bytes, Mapping, set, frozenset)):
        if hasattr(data, "to_numpy") and getattr(data, "ndim", 1) <= 2:
            try:  # pandas: a missing value (pd.NA) is R's NA
                data = data.to_numpy(dtype=np.float64, na_value=np.nan)
            except (TypeError, ValueError):
                data = None
        try:
            arr = np.asarray(data)
        except (TypeError, ValueError):
            arr = None
    if arr is not None and arr.dtype.kind == "O":
        # a list holding numbers and None (R: c(0.1, NA)) is numeric
        flat = arr.ravel()
        if all(v is None or (isinstance(v, (int, float, np.integer, np.floating))
                             and not isinstance(v, (bool, np.bool_))) for v in flat):
            arr = np.array([np.nan if v is None else float(v) for v in flat])
    if arr is None or arr.dtype.kind not in "iuf":
        _stopifnot(False, "is.numeric(xvalues)", _XVALUES_HINT)
    arr = arr.astype(np.float64).ravel()
    if arr.size == 0:
        err = ProbcalError("Argument `xvalues` must not be empty.")
        add_note(err, _XVALUES_HINT + " (R's reliabilitydiag snaps every forecast to NA "
                      "and fails later with \"missing values not allowed\".)")
        raise err
    return arr, masked


def _snap(x, xvalues, masked=False):
    xv = xvalues
    try:
        _stopifnot(bool(np.all((xv >= 0) & (xv <= 1))),
                   "isTRUE(all(xvalues >= 0 & xvalues <= 1))", _XVALUES_HINT)
    except ProbcalError as err:
        from ..inputs import masked_note as _masked_note

        raise _masked_note(err, "xvalues", masked)
    _stopifnot(bool(np.all(np.diff(xv) >= 0)), "!is.unsorted(xvalues)", _XVALUES_HINT)
    _stopifnot(np.unique(xv).size == xv.size, "!anyDuplicated(xvalues)", _XVALUES_HINT)
    # findInterval(x, mids) + 1: the number of midpoints <= x.
    mids = xv[1:] - 0.5 * np.diff(xv)
    return xv[np.searchsorted(mids, x, side="right")]


# ---------------------------------------------------------------------------
# The fit


def _pav(y_ordered):
    """CEP_pav of labels ordered by ``order(x, -y)``: R's ``isoreg(y)$yf``, exact."""
    ends, sums, counts = _pava_binary(y_ordered)
    values = sums.astype(np.float64) / counts.astype(np.float64)
    return values, counts


def _regions_groups(x_sorted, cep):
    """``group_by(x) %>% summarise(CEP_pav = unique(CEP_pav), n = n())`` on the ordered
    cases: one row per distinct (x, CEP) pair (several per x only when ``xvalues`` snapped
    forecasts after the PAV ordering), ``n`` the size of the x group."""
    xs = np.concatenate(([0], np.flatnonzero(x_sorted[1:] != x_sorted[:-1]) + 1))
    size = np.diff(np.concatenate((xs, [x_sorted.size])))
    change = (x_sorted[1:] != x_sorted[:-1]) | (cep[1:] != cep[:-1])
    starts = np.concatenate(([0], np.flatnonzero(change) + 1))
    group = np.searchsorted(xs, starts, side="right") - 1
    return x_sorted[starts], cep[starts], size[group]


def _resampling(x, cep, level, position, n_boot, stream):
    """reliabilitydiag's ``resampling()``, drawing from ``stream`` exactly as R does."""
    rx, rcep, rn = _regions_groups(x, cep)
    n = x.size
    x0 = x if position == "diagonal" else cep
    total = rx.size * n_boot
    # unlist() of the resamples, filled in place (allocated before any draw)
    flat = _band_store(rx.size, n_boot)
    filled = 0
    for _ in range(n_boot):
        s = np.asarray(stream.sample_int(n, n, replace=True), dtype=np.int64) - 1
        xb = x[s]
        yb = np.asarray(stream.rbinom(n, 1, x0[s]), dtype=np.int64)
        order = stable_order(_order_keys(xb, yb))
        xb = xb[order]
        values, counts = _pav(yb[order])
        fitted = np.repeat(values, counts)
        # distinct(x, CEP_pav): ties in x share a fitted value (1s before 0s are pooled)
        last = np.concatenate((np.flatnonzero(xb[1:] != xb[:-1]), [n - 1]))
        ux, ucep = xb[last], fitted[last]
        if ux.size == 1:
            piece = ucep
        else:
            # left_join(regions, resampled_fit, by = "x"): every regions row at a resampled x
            pos = np.minimum(np.searchsorted(ux, rx), ux.size - 1)
            joined = np.where(ux[pos] == rx, ucep[pos], np.nan)
            piece = _approx_rule1(rx, joined, rx)
        flat[filled:filled + piece.size] = piece
        filled += piece.size
    # unlist() %>% matrix(nrow = n.regions, ncol = n.boot): column-major, recycled, with
    # R's warning when a resample of a single forecast value gave one number
    if filled != total:
        _matrix_warning(filled, rx.size, n_boot)
        flat = np.resize(flat[:filled], total)
    mat = flat.reshape((n_boot, rx.size)).T
    probs = np.array([0.5 + (-0.5) * level, 0.5 + 0.5 * level])
    bounds = _row_quantiles(mat, probs)
    lower = _bound_correction(bounds[0], rx, rcep, position)
    upper = _bound_correction(bounds[1], rx, rcep, position)
    return dict(x=rx, lower=lower, upper=upper, n=rn, method=f"resampling_{n_boot}",
                level=level, position=position)


def rng_argument(rng):
    """``resolve_rng(rng)``, its errors (R's set.seed() messages among them) naming
    ``rng`` in a note."""
    from .._rng import resolve_rng

    try:
        return resolve_rng(rng)
    except ProbcalError as err:
        if not any("`rng`" in n for n in getattr(err, "__notes__", [])) and "`rng`" not in str(err):
            add_note(err, "(in `rng`: None, an int seed within R's integer range, a pycalib_r "
                          "RRandom or a numpy.random.Generator)")
        raise


def _band_store(n_regions, n_boot):
    """The ``n_regions * n_boot`` doubles of the resampled bands (R: ``unlist()`` of
    ``replicate(n.boot, ...)``), allocated before any draw. A count that cannot fit
    this machine's RAM fails at once with R's "cannot allocate vector of size ..." (a
    ``MemoryError``) and a note, as ``cal_test``'s and ``cal_ci``'s replicates do:
    first R's own ``integer(n.boot)`` (4 bytes each), then the bands."""
    from .._rng._args import r_alloc_error, r_empty
    from ..inference import physical_memory as _physical_memory

    ram = _physical_memory()
    total = n_regions * n_boot
    size = 8 * total
    has = f", more than this machine's {ram / 2 ** 30:.1f} GiB" if ram and size > ram else ""
    note = (f"reliabilitydiag(n_boot = {n_boot}) keeps {n_boot} resampled curves at the "
            f"{n_regions} distinct forecast values ({size / 2 ** 30:.1f} GiB, 8 bytes each"
            f"{has}) to take their quantiles; use a smaller n_boot (the default is 100).")
    for count, itemsize in ((n_boot, 4), (total, 8)):
        if ram and count * itemsize > ram:
            err = r_alloc_error(count, itemsize)
            add_note(err, note)
            raise err
    return r_empty(total, note)


def _matrix_warning(lendat, nr, nc):
    """R's ``matrix(data, nr, nc)`` warning for data of another length (src/main/array.c)."""
    from ..rbase._warn import warn

    if lendat <= 1 or (nr * nc) % lendat == 0:
        return
    if (lendat > nr and lendat % nr) or (lendat < nr and nr % lendat):
        text = f"data length [{lendat}] is not a sub-multiple or multiple of the number of rows [{nr}]"
    elif (lendat > nc and lendat % nc) or (lendat < nc and nc % lendat):
        text = (f"data length [{lendat}] is not a sub-multiple or multiple of the number of "
                f"columns [{nc}]")
    else:
        return
    warn(text, RuntimeWarning)


def _qnorm(prob):
    from ..rstats import qnorm_open1

    return qnorm_open1(prob)


def _discrete_asymptotics(x, cep, level, position):
    rx, rcep, rn = _regions_groups(x, cep)
    x0 = rx if position == "diagonal" else rcep
    q = _qnorm(0.5 + 0.5 * level)
    sd = np.sqrt(x0 * (1 - x0) / rn)
    tmp = 0.0 + sd * q
    lower = _bound_correction(np.maximum(0.0, x0 - tmp), rx, rcep, position)
    upper = _bound_correction(np.minimum(1.0, x0 + tmp), rx, rcep, position)
    return dict(x=rx, lower=lower, upper=upper, n=rn, method="discrete_asymptotics",
                level=level, position=position)


def _qchern(prob):
    """reliabilitydiag's ``qchern``: ``approxfun(rule = 1)`` over its table, so NaN (R's
    NA) outside ``[0.5, 0.9999]``, i.e. for a band level above 0.9998."""
    if not _QCHERN_P[0] <= prob <= _QCHERN_P[-1]:
        return math.nan
    return float(_approx_linear(_QCHERN_P, _QCHERN_Q, np.array([prob]))[0])


_QCHERN_NOTE = ("The continuous asymptotic bands need qchern(0.5 + 0.5 * region_level), "
                "the Chernoff quantile, which reliabilitydiag tabulates up to 0.9999 only "
                "(approxfun(rule = 1): NA beyond), so region_level > 0.9998 has no bands: "
                "NA bands at region_position = \"diagonal\", this error of R's approx() at "
                "\"estimate\". Use region_level <= 0.9998, or region_method = \"resampling\".")


def _continuous_asymptotics(x, bins, level, position):
    grid = np.minimum(np.arange(101) * 0.01, 1.0)  # seq(0, 1, by = 0.01)
    if position == "diagonal":
        cep = grid
    else:
        t = np.column_stack((np.asarray(bins["x_min"]), np.asarray(bins["x_max"]))).ravel()
        c = np.repeat(np.asarray(bins["CEP_pav"]), 2)
        keep = np.concatenate(([True], (t[1:] != t[:-1]) | (c[1:] != c[:-1])))  # distinct()
        try:
            cep = _approx_rule1(t[keep], c[keep], grid)
        except ProbcalError as err:
            add_note(err, "All forecasts share one value and one CEP, so reliabilitydiag "
                          "cannot interpolate the CEP for the continuous asymptotic "
                          "confidence bands; use region_method = \"resampling\" or "
                          "\"discrete_asymptotics\".")
            raise
    x0 = grid if position == "diagonal" else cep
    dens = chen_beta_density(x, grid)
    q = _qchern(0.5 + 0.5 * level)
    with np.errstate(divide="ignore", invalid="ignore"):
        tmp = ((x0 * (1 - x0) * 1 / dens) * (4 / x.size)) ** (1 / 3) * q
    try:
        lower = _bound_correction(np.maximum(0.0, x0 - tmp), grid, cep, position)
        upper = _bound_correction(np.minimum(1.0, x0 + tmp), grid, cep, position)
    except ProbcalError as err:
        if math.isnan(q):
            add_note(err, _QCHERN_NOTE)
        raise
    return dict(x=grid, lower=lower, upper=upper, n=np.full(grid.size, np.nan),
                method="continuous_asymptotics", level=0.9, position=position)


class CorpFit(Mapping):
    """One prediction method of a :class:`ReliabilityDiag` (R: ``r$X``).

    Items (R's names): ``cases`` (``case_id``, ``x``, ``y``, ``bin_id``,
    ``CEP_pav``, ordered by ``x``), ``bins`` (``bin_id``, ``n``, ``x_min``,
    ``x_max``, ``CEP_pav``), ``regions`` (``x``, ``lower``, ``upper``, ``n``,
    ``method``, ``level``, ``position``; empty without bands) as pandas
    DataFrames, and ``xinfo`` (``type``, ``values``). Also attributes.
    """

    _keys = ("cases", "bins", "regions", "xinfo")

    def __init__(self, cases, bins, regions, xinfo, ordered=None):
        # cases, bins, regions: each a DataFrame, or a function making it
        # when first asked for (the permutation behind case_id is a stable
        # sort of all the cases; pandas' import alone is 0.25 s of a first
        # call). ordered: (x, y, CEP_pav) in the cases' order, which
        # summary() and the plots read without the table.
        self._cases, self._bins, self._regions, self.xinfo = cases, bins, regions, xinfo
        self._ordered = ordered

    def _table(self, name):
        value = self.__dict__[name]
        if callable(value):
            value = self.__dict__[name] = value()
        return value

    @property
    def cases(self):
        return self._table("_cases")

    @property
    def bins(self):
        return self._table("_bins")

    @property
    def regions(self):
        return self._table("_regions")

    def ordered(self):
        """``(x, y, CEP_pav)`` of the cases, in their order (numpy arrays)."""
        if self._ordered is None:
            c = self.cases
            return c["x"].to_numpy(), c["y"].to_numpy(), c["CEP_pav"].to_numpy()
        return self._ordered

    def __getstate__(self):
        # A pickle holds the tables themselves.
        return dict(self.__dict__, _cases=self.cases, _bins=self.bins, _regions=self.regions)

    def __setstate__(self, state):
        for key in ("cases", "bins", "regions"):  # pickled before the tables were made on demand
            if key in state:
                state["_" + key] = state.pop(key)
        state.setdefault("_ordered", None)
        self.__dict__.update(state)

    def __getitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self):
        return 4

    def __repr__(self):
        n = self._ordered[0].size if self._ordered is not None else len(self.cases)
        return (f"<CorpFit: {n} cases, {len(self.bins)} PAV bins, "
                f"{self.xinfo['type']} forecasts, regions: "
                f"{self.regions['method'].iloc[0] if len(self.regions) else 'none'}>")


def _frame(columns):
    import pandas as pd

    return pd.DataFrame({k: v for k, v in columns.items()}, copy=False)


def _fit_one(x, y, xtype, xvalues, level, method, position, n_boot, stream, checked_xvalues=None):
    """reliabilitydiag's ``reldiag_numeric()`` for checked float ``x`` and int 0/1 ``y``."""
    given = (x, y)
    if np.signbit(x).any():
        # A -0.0 forecast: its key is +0.0's, and the cases keep it as given.
        order = stable_order(_order_keys(x, y))
        x = x[order]
        y = y[order]
    else:
        # The sorted keys are the sorted (x, y) pairs themselves (equal keys,
        # equal pairs), as cal_isotonic sorts them: no gather. The
        # permutation (case_id) is a stable sort of the keys, made only when
        # the cases table is asked for.
        order = None
        x, y = _sorted_pairs(x, y)
    if xtype is None and xvalues is None:
        xtype = _detect_xtype(x)
    elif xvalues is not None:
        _stopifnot(xtype is None or (isinstance(xtype, str) and xtype == "discrete"), 'identical(xtype, "discrete")',
                   "`xvalues` snaps the forecasts to a discrete set: leave `xtype` None or "
                   "give \"discrete\".")
        xtype = "discrete"
        x = _snap(x, *checked_xvalues)
    else:
        _stopifnot(isinstance(xtype, str) and xtype in ("continuous", "discrete"),
                   'isTRUE(xtype %in% c("continuous", "discrete"))')
    do_region = level is not None and position is not None
    if do_region:
        _stopifnot(isinstance(level, (int, float, np.floating)) and 0 < level < 1,
                   "isTRUE(region.level > 0 & region.level < 1)",
                   "`region_level` is the level of the bands, a number strictly between 0 "
                   "and 1 (0.9 is R's default); None skips the bands.")
        _stopifnot(isinstance(position, str) and position in REGION_POSITIONS,
                   'isTRUE(region.position %in% c("diagonal", "estimate"))',
                   '`region_position` is "diagonal" (consistency bands) or "estimate" '
                   "(confidence bands).")
        _stopifnot(isinstance(n_boot, (int, np.integer)) and not isinstance(n_boot, bool)
                   and n_boot > 0, "isTRUE(n.boot > 0)",
                   "`n_boot` is the number of resamples, a positive integer.")
        if method is None:
            method = _detect_regionmethod(x, position)
        _stopifnot(method in REGION_METHODS, 'isTRUE(region.method %in% c("continuous_asymptotics", '
                   '"discrete_asymptotics", "resampling", "restricted_resampling"))',
                   f"`region_method` is one of {', '.join(REGION_METHODS)} or None (R's "
                   "choice by the number and spread of the forecasts); R's experimental "
                   "\"restricted_resampling\" is not ported (it fails in R 0.2.1.9000).")
    values, counts = _pav(y)
    cep = np.repeat(values, counts)
    nbins = counts.size
    ends = np.cumsum(counts)
    def make_cases(order=order):
        if order is None:
            order = stable_order(_order_keys(*given))
        return _frame(dict(case_id=order + 1, x=x, y=y, bin_id=np.repeat(np.arange(1, nbins + 1), counts),
                           CEP_pav=cep))

    cases = make_cases() if order is not None else make_cases
    bin_columns = dict(bin_id=np.arange(1, nbins + 1), n=counts, x_min=x[ends - counts],
                       x_max=x[ends - 1], CEP_pav=values)
    bins = partial(_frame, bin_columns)
    if not do_region:
        regions = partial(_frame, dict(x=np.zeros(0), lower=np.zeros(0), upper=np.zeros(0),
                                       n=np.zeros(0, dtype=np.int64), method=np.zeros(0, dtype=object),
                                       level=np.zeros(0), position=np.zeros(0, dtype=object)))
    else:
        if method == "resampling":
            reg = _resampling(x, cep, float(level), position, int(n_boot), stream)
        elif method == "discrete_asymptotics":
            reg = _discrete_asymptotics(x, cep, float(level), position)
        else:
            reg = _continuous_asymptotics(x, bin_columns, float(level), position)
        m = reg["x"].size
        regions = partial(_frame, dict(x=reg["x"], lower=reg["lower"], upper=reg["upper"], n=reg["n"],
                                       method=np.full(m, reg["method"], dtype=object),
                                       level=np.full(m, reg["level"]),
                                       position=np.full(m, reg["position"], dtype=object)))
    return CorpFit(cases, bins, regions, dict(type=xtype, values=xvalues), (x, y, cep))


def _problems(p, y, type):
    """``[(name, x, y)]``: the binary problems of the input (one per method, or per class)."""
    if isinstance(p, Mapping):
        if len(p) == 0:
            raise ValueError("`p` is an empty dict; give one or more name -> probabilities items.")
        out = []
        for name, pm in p.items():
            if not isinstance(name, str):
                raise TypeError(f"the names of the forecasts in `p` must be strings, not {name!r}.")
            try:
                sub = _problems(pm, y, type)
            except ProbcalError as exc:
                add_note(exc, f"(in forecast {name!r} of `p`)")
                raise
            out.extend((name if sub_name == "X" else f"{name}:{sub_name}", x, yy)
                       for sub_name, x, yy in sub)
        return out
    name = getattr(p, "name", None)
    form = input_form(p, y, type)
    if form.scalar:
        label = "X" if form.kind == "binary" else "confidence"
        if form.kind == "binary" and isinstance(name, str):
            label = name
        return [(label, form.r, form.c)]
    return [(str(level), r, c) for level, (r, c) in zip(form.labels.levels, form.problems())]


@python_face
def reliabilitydiag(p, y, region_level=0.9, region_method=None, region_position="diagonal",
                    n_boot=100, *, xtype=None, xvalues=None, type="classwise", rng=None):
    """CORP reliability diagram: the PAV (isotonic) reliability curve with bands.

    R equivalent: ``reliabilitydiag::reliabilitydiag(X = p, y = y,
    region.level = 0.9, region.method = NULL, region.position = "diagonal",
    n.boot = 100, xtype = NULL, xvalues = NULL)`` (package 0.2.1.9000).
    ``type`` (multiclass forms), a dict of forecasts and ``rng`` are
    Python-only.

    Parameters
    ----------
    p : array_like or dict
        Binary forecast probabilities (a vector, named "X" as in R's
        ``reliabilitydiag(X = p, y = y)``, or a pandas Series' name). A
        probability matrix (multiclass, Python-only) gives one diagram per
        class (``type="classwise"``, one-vs-rest, named by the class
        labels) or one of the top-label confidence (``type="confidence"``).
        A dict ``{name: p}`` holds several forecasts of the same ``y`` (R's
        ``reliabilitydiag(A = pa, B = pb, y = y)``).
    y : array_like
        0/1 labels (binary), or class labels (multiclass).
    region_level : float or None
        Level of the pointwise bands; None (R's ``NA``) skips them.
    region_method : {"resampling", "continuous_asymptotics", "discrete_asymptotics"} or None
        None chooses as R does: resampling for confidence bands or when
        ``n <= max(1000, min(5000, 50 * n_unique))``; otherwise discrete
        asymptotics if ``n >= 8 * n_unique^2``, else continuous asymptotics.
    region_position : {"diagonal", "estimate"} or None
        "diagonal": consistency bands under the hypothesis of calibration
        (``P(Y = 1 | X) = X``); "estimate": confidence bands around the CORP
        curve (``P(Y = 1 | X) = PAV(X)``).
    n_boot : int
        Resamples for the resampling bands. Their ``n_boot`` curves at the
        distinct forecast values are allocated before any draw, so a count
        that cannot fit this machine's RAM fails at once with R's "cannot
        allocate vector of size ..." (a ``MemoryError``) and a note; time
        grows linearly with it.
    xtype : {"continuous", "discrete"} or None
        None detects it as R does (discrete when the sorted unique forecasts
        are at least 0.01 apart).
    xvalues : array_like or None
        Snap the forecasts to these sorted values (discrete forecasts). A
        numpy masked array's masked entries are R's NA (refused, with a
        note); an empty one is refused (Python-only; R fails later).
    type : {"classwise", "confidence"}
        Multiclass form (Python-only; R has no multiclass diagram).
    rng : None, int, RRandom or numpy.random.Generator
        Stream of the resampling bands: None is the package's global R stream
        (``set_seed(s)`` then gives R's bands after ``set.seed(s)``), an int
        a new R stream seeded with it, a Generator numpy's draws.

    Returns
    -------
    ReliabilityDiag
        Mapping from forecast name to :class:`CorpFit` (``cases``, ``bins``,
        ``regions``, ``xinfo``); ``summary()``, ``plot()``/``autoplot()``.

    Notes
    -----
    Cases are ordered by R's ``order(x, -y)`` and the CORP curve is the
    isotonic (PAV) fit of ``y`` in that order, exact as R's ``isoreg(y)$yf``
    (each value a ratio of integers). Its runs are the ``bins``.

    Resampling bands (R's ``resampling()``), per resample: ``s <- sample(n,
    replace = TRUE)``, ``y* <- rbinom(n, 1, x0[s])`` with ``x0`` the
    forecast (consistency) or its CEP (confidence), the PAV fit of ``y*`` on
    ``x[s]``, linearly interpolated at the unique forecasts (NA outside the
    resample's range); bands are the ``(1 -/+ level) / 2`` type-7 quantiles
    per forecast value, NAs dropped. The draws are R's ``sample.int`` and
    ``rbinom`` on the package's stream, so the bands equal R's bit for bit.

    Discrete asymptotics: ``x0 -/+ qnorm((1 + level) / 2) * sqrt(x0 (1 -
    x0) / n_x)``, clipped to ``[0, 1]``. Continuous asymptotics (on the grid
    ``0, 0.01, ..., 1``): ``x0 -/+ qchern((1 + level) / 2) * (4 x0 (1 - x0)
    / (n f(x0)))^(1/3)`` with ``f`` Chen's (1999) beta kernel density
    estimate, bandwidth ``n^(-2/5)`` (R: bde's; here written from Chen's
    paper); R's ``level`` column then reads 0.9
    whatever the level (kept). ``qchern`` is reliabilitydiag's table of
    Chernoff quantiles up to 0.9999, interpolated with ``approxfun(rule =
    1)``: for ``region_level > 0.9998`` it is NA, and so, as in R, are the
    bands at ``region_position="diagonal"``, while ``"estimate"`` fails
    with R's "need at least two non-NA values to interpolate" (with a note).

    Differences from R: the input checks and messages are the package's
    (probcal's) rather than ``stopifnot()``'s; ``print()`` prints the
    summary without drawing; R's ``restricted_resampling`` (experimental,
    broken in R) is not ported.

    References
    ----------
    Dimitriadis, T., Gneiting, T., & Jordan, A. I. (2021). Stable reliability
    diagrams for probabilistic classifiers. *PNAS*, 118(8), e2016191118.
    doi:10.1073/pnas.2016191118.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(300)
    >>> y = pc.rbinom(300, 1, p ** 1.3)
    >>> pc.set_seed(7)
    >>> r = pc.reliabilitydiag(p, y)
    >>> print(r.summary())
    'brier' score decomposition (see also ?summary.reliabilitydiag)
    # A tibble: 1 × 5
      forecast mean_score miscalibration discrimination uncertainty
      <chr>         <dbl>          <dbl>          <dbl>       <dbl>
    1 X             0.170         0.0133         0.0919       0.249
    >>> r["X"].regions[["x", "lower", "upper"]].head(3).round(4).to_numpy().tolist()
    [[0.0131, 0.0, 0.0], [0.0134, 0.0, 0.0], [0.0233, 0.0, 0.0325]]

    R: ``set.seed(1); p <- runif(300); y <- rbinom(300, 1, p^1.3);
    set.seed(7); r <- reliabilitydiag(X = p, y = y); summary(r)`` prints
    the same, and ``r$X$regions`` starts with the same bands.
    """
    problems = _problems(p, y, type)
    if region_method is not None and not (isinstance(region_method, str)
                                          and region_method in REGION_METHODS):
        _stopifnot(False, 'isTRUE(region.method %in% c("continuous_asymptotics", '
                   '"discrete_asymptotics", "resampling", "restricted_resampling"))',
                   f"`region_method` is one of {', '.join(REGION_METHODS)} or None.")
    checked_xvalues = None if xvalues is None else _check_xvalues(xvalues)
    stream = rng_argument(rng)
    fits = {}
    # All of the call's draws are one serial step on a shared stream (as cal_test's):
    # threads calling it after set_seed() get the bands of some serial order of calls.
    with holding(stream):
        for name, x, yy in problems:
            fits[name] = _fit_one(x, yy, xtype, xvalues, region_level, region_method,
                                  region_position, n_boot, stream, checked_xvalues)
    return ReliabilityDiag(fits, problems[0][2] if len(problems) == 1 else None)


# ---------------------------------------------------------------------------
# Decomposition and summary


def _brier(y, x):
    return (x - y) ** 2


def _log_score(y, x):
    with np.errstate(divide="ignore"):
        return -np.log(np.where(y == 1, x, 1 - x))


SCORES = {"brier": _brier, "log": _log_score}


def _score_fn(score):
    if isinstance(score, str):
        if score not in SCORES:
            err = ProbcalError(f"object '{score}' of mode 'function' was not found")
            add_note(err, f"`score` is {' or '.join(repr(s) for s in SCORES)} or a function "
                          "score(y, x) of the observations and forecasts (vectorised), e.g. "
                          "lambda y, x: (x - y) ** 2.")
            raise err
        return score, SCORES[score]
    if callable(score):
        return getattr(score, "__name__", "score"), score
    from ..rbase._rcalls import ArgumentError

    # a ProbcalError (ValueError) that is also the TypeError it was
    raise ArgumentError(f"`score` must be a score name ({', '.join(SCORES)}) or a function "
                        f"score(y, x), not {type(score).__name__}.")


def corp_decomposition(x, y, cep, score="brier"):
    """``(mean_score, miscalibration, discrimination, uncertainty)`` of one forecast.

    R equivalent: reliabilitydiag's internal ``decomposition()``:
    ``S = mean(score(y, x))``, ``UNC = mean(score(y, mean(y)))``, ``Sc =
    mean(score(y, CEP_pav))``, ``DSC = UNC - Sc``, ``MCB = S - Sc``, with R's
    (long double, two-pass) ``mean``.
    """
    _, fn = _score_fn(score)
    yf = np.asarray(y, dtype=np.float64)
    s = r_mean(np.asarray(fn(yf, x), dtype=np.float64))
    ybar = r_mean(yf)
    unc = r_mean(np.asarray(fn(yf, np.full(yf.size, ybar)), dtype=np.float64))
    sc = r_mean(np.asarray(fn(yf, cep), dtype=np.float64))
    return s, s - sc, unc - sc, unc


class CorpSummary:
    """``summary(reliabilitydiag)``: the score decomposition per forecast.

    ``table`` is a pandas DataFrame with R's columns ``forecast``,
    ``mean_score``, ``miscalibration``, ``discrimination``, ``uncertainty``;
    ``score`` the score's name. ``str()`` is R's print (a tibble).
    """

    def __init__(self, table, score):
        self.table, self.score = table, score

    def __str__(self):
        head = f"'{self.score}' score decomposition (see also ?summary.reliabilitydiag)\n"
        return head + format_tibble(self.table)

    def __repr__(self):
        return str(self)

    def _repr_html_(self):
        return self.table._repr_html_()


class ForecastKeyError(KeyError):
    """A ``KeyError`` for a name that is not one of a :class:`ReliabilityDiag`'s
    forecasts: its message lists the names there are and says where they come from.
    ``key`` and ``available`` hold them. Python-only (R's ``r$Y`` is ``NULL``)."""

    def __init__(self, key, available):
        super().__init__(key)
        self.key, self.available = key, list(available)

    def __str__(self):
        names = ", ".join(repr(k) for k in self.available)
        return (f"{self.key!r} is not a forecast of this reliabilitydiag; its forecasts are "
                f"{names}. A forecast is named as in R's reliabilitydiag(X = p, y = y): "
                "\"X\" for an unnamed vector, but a pandas Series' name when p is a named "
                "Series, a dict's keys, a probability matrix's class labels (or "
                "\"confidence\"); list(r) gives them.")


class ReliabilityDiag(Mapping):
    """A ``reliabilitydiag`` object: forecast name -> :class:`CorpFit`, with the labels ``y``.

    R equivalent: the value of ``reliabilitydiag::reliabilitydiag()``.
    """

    def __init__(self, fits, y):
        self._fits = dict(fits)
        self.y = y

    def __getitem__(self, key):
        try:
            return self._fits[key]
        except (KeyError, TypeError):
            raise ForecastKeyError(key, list(self._fits)) from None

    def __iter__(self):
        return iter(self._fits)

    def __len__(self):
        return len(self._fits)

    def summary(self, score="brier"):
        """Score decomposition ``mean score = MCB - DSC + UNC`` per forecast.

        R equivalent: ``summary(r, score = "brier")``. ``score="log"`` (the
        logarithmic score, Python-only name; R: ``score = function(y, x)
        -log(ifelse(y == 1, x, 1 - x))``) or any function ``score(y, x)``.
        """
        import pandas as pd

        name, _ = _score_fn(score)
        rows = [(key, *corp_decomposition(*f.ordered(), score)) for key, f in self._fits.items()]
        table = pd.DataFrame(rows, columns=["forecast", "mean_score", "miscalibration",
                                            "discrimination", "uncertainty"])
        return CorpSummary(table, name)

    def __str__(self):
        return str(self.summary())

    def __repr__(self):
        return str(self)

    def plot(self, ax=None, *, colour="red", figsize=None):
        """CORP reliability diagram (R: ``autoplot(r)``); see :func:`autoplot`."""
        return autoplot(self, ax=ax, colour=colour, figsize=figsize)

    autoplot = plot


# ---------------------------------------------------------------------------
# The diagram


def _breaks_fd(x):
    """reliabilitydiag's ``breaks_fd()`` (Freedman-Diaconis) for the histogram."""
    from ..rstats import quantile_r

    q = quantile_r(x, [0.25, 0.75])
    iqr = q[1] - q[0]
    binwidth = 1 / 400 if iqr < math.sqrt(np.finfo(float).eps) else 2 * iqr / x.size ** (1 / 3)
    lo, hi = float(x[0]), float(x[-1])
    nb = max(int(round((hi - lo) / binwidth)), 5)
    return np.linspace(lo, hi, nb + 1)


def _breaks_discrete(x):
    u = np.unique(x)
    eps = min(np.min(np.diff(u)) / 8, 0.02) if u.size > 1 else 0.02
    return np.sort(np.concatenate((u - eps, u + eps)))


def diagram_axes(ax, figsize, what):
    """(figure, axes) of a one-panel diagram: a new figure in the package's style, or the
    caller's Axes (``ax=``); checks ``ax``/``figsize`` and that matplotlib is installed."""
    from ._diagnostics import _MATPLOTLIB_MESSAGE, _new_figure, _style_panel, _target_axes

    if ax is not None and figsize is not None:
        raise ValueError("give `ax` or `figsize`, not both: the Axes' figure has its own size.")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(_MATPLOTLIB_MESSAGE.replace("reliability_diagram", what)) from exc
    if ax is None:
        fig = _new_figure(figsize or (5.0, 5.4))
        axis = fig.add_subplot(1, 1, 1, gid="panel")
    else:
        axis = _target_axes(ax, "binary", 1)[0]
        fig = axis.figure
    _style_panel(axis, show_x_ticks=True, show_y_ticks=True)
    return fig, axis


def diagram_header(fig, axis, own_figure, title, text, legend):
    """Title and numbers of a one-panel diagram: the figure's title block, or (in the
    caller's Axes) a text box in the panel's upper-left corner, gid "header"."""
    from ._diagnostics import _BASE_SIZE, _SMALL_SIZE

    if legend:
        axis.legend(loc="lower right", frameon=False, fontsize=_SMALL_SIZE)
    if own_figure:
        fig.suptitle(title, x=0.02, ha="left", fontsize=_BASE_SIZE * 1.2)
        axis.set_title(text, loc="left", fontsize=_SMALL_SIZE)
        return
    from matplotlib.offsetbox import AnchoredText

    box = AnchoredText(text, loc="upper left", frameon=False, borderpad=0.3,
                       prop=dict(fontsize=_SMALL_SIZE))
    box.set_gid("header")
    axis.add_artist(box)


def autoplot(r, ax=None, *, colour="red", figsize=None):
    """The CORP reliability diagram: PAV curve, band and forecast histogram.

    R equivalent: ``autoplot(r)`` (reliabilitydiag's ggplot), drawn in the
    package's matplotlib style (that of :func:`reliability_diagram`): the
    histogram of the forecasts (Freedman-Diaconis breaks, scaled to 0.2 at
    its mode), the band (``regions``) as a blue ribbon, the identity line,
    and the CORP curve through each PAV bin's ``(x_min, CEP)`` and ``(x_max,
    CEP)``, with thick segments over the bins (continuous forecasts) or
    points (discrete). Several forecasts (or classes) are overlaid, one
    colour each, without histogram and bands, as R does.

    Parameters
    ----------
    r : ReliabilityDiag
    ax : matplotlib Axes, optional
        Draw into this Axes (overlays: call again on the same Axes).
    colour : str
        Colour of a single forecast's curve (R's ``colour = "red"``).
    figsize : (float, float), optional

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ._diagnostics import _BASE_SIZE, _identity_line, _model_colours

    if not isinstance(r, ReliabilityDiag):
        raise TypeError(f"`r` must be the value of reliabilitydiag(), not {type(r).__name__}.")
    fig, axis = diagram_axes(ax, figsize, "autoplot")
    single = len(r) == 1
    colours = [colour] if single else _model_colours(len(r))
    for (name, fit), col in zip(r.items(), colours):
        x = fit.ordered()[0]
        bins = fit.bins
        if single:
            breaks = (_breaks_fd(x) if fit.xinfo["type"] == "continuous" else _breaks_discrete(x))
            counts, edges = np.histogram(x, bins=breaks)
            if counts.max() > 0:
                axis.stairs(0.2 * counts / counts.max(), edges, color="black", linewidth=0.5,
                            gid="histogram")
            reg = fit.regions
            if len(reg):
                axis.fill_between(reg["x"].to_numpy(), reg["lower"].to_numpy(dtype=float),
                                  reg["upper"].to_numpy(dtype=float), color="blue", alpha=0.15,
                                  linewidth=0, gid="band")
        xs = np.column_stack((bins["x_min"], bins["x_max"])).ravel()
        ys = np.repeat(bins["CEP_pav"].to_numpy(), 2)
        axis.plot(xs, ys, color=col, linewidth=0.8, label=None if single else name, gid="CEP")
        if fit.xinfo["type"] == "continuous":
            axis.hlines(bins["CEP_pav"], bins["x_min"], bins["x_max"], colors=col, linewidth=3,
                        gid="CEP_segments")
        else:
            axis.scatter(bins["x_min"], bins["CEP_pav"], s=12, color=col, zorder=3)
    _identity_line(axis)
    axis.set_xlabel("Forecast value", fontsize=_BASE_SIZE)
    axis.set_ylabel("CEP", fontsize=_BASE_SIZE)
    summ = r.summary().table
    if single:
        row = summ.iloc[0]
        text = (f"CORP: MCB = {row['miscalibration']:.4f}, DSC = {row['discrimination']:.4f}, "
                f"UNC = {row['uncertainty']:.4f}")
    else:
        text = "CORP MCB: " + ", ".join(f"{f} = {m:.4f}" for f, m in
                                        zip(summ["forecast"], summ["miscalibration"]))
    diagram_header(fig, axis, ax is None, "CORP reliability diagram", text, legend=not single)
    return fig

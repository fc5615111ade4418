# SPDX-License-Identifier: GPL-3.0-or-later
# Derived from: relplot 1.0.3 relplot/metrics.py, relplot/kernels.py, relplot/diagrams.py (LicenseRef-Apple-relplot), (c) 2023 Apple Inc.
"""Smooth ECE and the smoothed reliability diagram (Blasiok & Nakkiran 2023).

Python-only (R has no smooth ECE). The definitions are those of the authors'
package ``relplot`` 1.0.3 (``relplot.metrics.smECE``,
``relplot.kernels.ReflectedGaussianKernel``, ``relplot.diagrams``), read
from its source and written anew here to run in bounded memory.

The residuals ``r_i = f_i - y_i`` are smoothed with a Gaussian kernel of
bandwidth ``sigma`` reflected at 0 and 1; on a grid the smoothed residual is
``rs(t) = K_sigma * r (t) / (K_sigma * 1 (t) + 1e-4)`` and the smooth ECE is
``smECE_sigma = sum_t |rs(t)| dens(t) / sum_t dens(t)`` with ``dens(t) =
K_sigma * 1 (t) + 1e-4``. The bandwidth is the fixed point ``sigma* =
smECE_{sigma*}``, found by ten bisection steps on ``(0, 1]``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..rbase._errors import ProbcalError
from ..inputs._forms import input_form
from ..inputs._weights import check_weights
from ..inputs._hints import python_face

__all__ = ["smece", "smooth_reliability_diagram", "SmoothReliability"]

REFERENCE = "relplot 1.0.3"
_CHUNK = 1 << 20
_SMOOTH_EPS = 1e-4       # added to the kernel density (relplot's BaseKernelMixin.smooth)
_SEARCH_EPS = 0.001      # smallest bandwidth of the fixed-point search (relplot's smECE eps)
_SEARCH_STEPS = 10
_ECE_MESH = 200          # relplot.config.smECE_mesh_pts
_PLOT_MESH = 200         # relplot.config.plot_mesh_pts


# The bound on the work of one call (issue 46): relplot's grid has about 10 / sigma
# points, so a tiny explicit sigma would ask for unbounded memory and time.
# sigma >= _MIN_SIGMA keeps the grid at or below _MAX_GRID points (about 8 MB per
# array) and the evaluation mesh at or below 10 / _MIN_SIGMA points.
_MIN_SIGMA = 1e-4
_MAX_GRID = 100_001


def _grid_size(sigma):
    """Points of the grid the data are binned on (relplot's ``GaussianKernel.apply``)."""
    return max(2000, round(20 / sigma)) // 2 + 1


@functools.lru_cache(maxsize=8)
def _kernel(m, sigma):
    """``(k[a:b+1], a, b)``: relplot's kernel on ``m`` grid points
    (``ReflectedGaussianKernel.kernel_ev``), without the entries at its ends that
    ``exp`` rounds to exactly 0 (beyond about 38.6 sigma from the centre).

    Dropping them changes no term of the convolution (each is ``value * 0``), and
    makes its cost ``m * (b - a + 1)`` with ``b - a + 1`` at most about ``77 sigma
    (m - 1)``: O(m) instead of relplot's O(m^2)."""
    t = np.linspace(0, 1, m)
    kernel = np.exp(-(t - 0.5) * (t - 0.5) / (2 * sigma ** 2)) / (math.sqrt(2 * math.pi) * sigma)
    nz = np.flatnonzero(kernel)
    a, b = int(nz[0]), int(nz[-1])
    kt = kernel[a:b + 1].copy()  # cached (a bootstrap reuses it): read-only
    kt.flags.writeable = False
    return kt, a, b


def _bin_linear(f, y, m, index=None, obs=None):
    """Linear binning onto ``m`` grid points ``j / (m - 1)`` of the weights ``f - y``, 1 and
    ``y`` (rows of the result), read in chunks of ``_CHUNK`` rows (bounded memory);
    ``index`` selects (with repeats) a resample. ``obs``: observation weights, which
    multiply each row's three (a row of whole weight k bins as k copies of it)."""
    n = f.size if index is None else index.size
    out = np.zeros((3, m))
    for s in range(0, n, _CHUNK):
        if index is None:
            fc, yc = f[s:s + _CHUNK], y[s:s + _CHUNK]
        else:
            ic = index[s:s + _CHUNK]
            fc, yc = f[ic], y[ic]
        yc = yc.astype(np.float64)
        pos = fc * (m - 1)
        left = np.clip(pos.astype(np.int64), 0, m - 2)
        frac = pos - left
        rows = (fc - yc, None, yc)
        if obs is not None:
            oc = obs[s:s + _CHUNK]
            rows = (oc * (fc - yc), oc, oc * yc)
        for k, w in enumerate(rows):
            lw = 1 - frac if w is None else (1 - frac) * w
            rw = frac if w is None else frac * w
            out[k] += np.bincount(left, lw, minlength=m)
            out[k] += np.bincount(left + 1, rw, minlength=m)
    return out


def _reflected_smooth(values, sigma, at=None):
    """Convolution of grid values with the Gaussian kernel, reflected at both ends
    (relplot's ``ReflectedGaussianKernel.convolve``): at every grid point, or only at
    the grid indices ``at``.

    relplot takes ``np.convolve(ext, k, "valid")[m // 2: m // 2 + m]`` over the
    reflected values ``ext`` (``3m - 2`` of them), i.e. at grid point ``i`` the sum
    ``sum_j ext[i + m // 2 + m - 1 - j] k[j]``; the same sums are taken here over the
    kernel's nonzero entries only (see :func:`_kernel`)."""
    m = values.size
    kt, a, b = _kernel(m, float(sigma))
    shift = m // 2 + m - 1  # grid point i reads ext[i + shift - j] for kernel entry j
    flipped = values[::-1]
    extended = np.concatenate((flipped[:-1], values, flipped[1:]))
    if at is None:
        seg = extended[shift - b: shift + m - 1 - a + 1]
        return np.convolve(seg, kt, "valid")
    # Grid point i needs ext[i + shift - b], ..., ext[i + shift - a] against k[b], ...,
    # k[a]: the window of ext starting at i + shift - b, against the kernel reversed.
    windows = np.lib.stride_tricks.sliding_window_view(extended, kt.size)
    return windows[np.asarray(at, dtype=np.int64) + (shift - b)] @ kt[::-1]


def _interpolate(t, grid_values):
    m = grid_values.size
    step = 1 / (m - 1)
    i = np.clip((t * (m - 1)).astype(np.int64), 0, m - 2)
    frac = (t - i * step) / step
    return grid_values[i] * (1 - frac) + grid_values[i + 1] * frac


def _smooth_at(values, sigma, t):
    """``_interpolate(t, _reflected_smooth(values, sigma))``, computing the smoothed
    values only at the grid points that ``t`` falls between (few ``t``: a curve on
    200 points needs 400 sums, whatever the grid)."""
    m = values.size
    if t.size * 64 >= m:  # the whole convolution (m sums) costs less than the gathers
        return _interpolate(t, _reflected_smooth(values, sigma))
    i = np.clip((t * (m - 1)).astype(np.int64), 0, m - 2)
    need, where = np.unique(np.concatenate((i, i + 1)), return_inverse=True)
    smoothed = _reflected_smooth(values, sigma, need)
    # _interpolate's arithmetic, on the smoothed values at i and i + 1
    step = 1 / (m - 1)
    frac = (t - i * step) / step
    return smoothed[where[:t.size]] * (1 - frac) + smoothed[where[t.size:]] * frac


class _Smoother:
    """The binned residuals and counts of one problem, cached per grid size."""

    def __init__(self, f, y, index=None, obs=None):
        self.f, self.y, self.index, self.obs = f, y, index, obs
        self._binned = {}

    def binned(self, m):
        if m not in self._binned:
            self._binned[m] = _bin_linear(self.f, self.y, m, self.index, self.obs)
        return self._binned[m]

    def smooth(self, sigma, t):
        """Smoothed residual and density at ``t`` (relplot's ``kernel.smooth``)."""
        binned = self.binned(_grid_size(sigma))
        resid = _smooth_at(binned[0], sigma, t)
        dens = _smooth_at(binned[1], sigma, t) + _SMOOTH_EPS
        return resid / dens, dens

    def curve(self, sigma, t):
        """Smoothed labels ``(K * y)(t) / ((K * 1)(t) + 1e-4)`` (relplot's ``KernelSmoother``)."""
        binned = self.binned(_grid_size(sigma))
        ys = _smooth_at(binned[2], sigma, t)
        dens = _smooth_at(binned[1], sigma, t) + _SMOOTH_EPS
        return ys / dens

    def ece(self, sigma):
        t = np.linspace(0, 1, max(round(10 / sigma), _ECE_MESH))
        rs, dens = self.smooth(sigma, t)
        return float(np.sum(np.abs(rs) * dens) / np.sum(dens))

    def fixed_point(self):
        """The bandwidth ``sigma*`` with ``sigma* = smECE_sigma*`` (relplot's ``search_param``)."""
        def below(alpha):
            return alpha < _SEARCH_EPS or alpha < self.ece(alpha)

        if below(1):
            return 1.0
        hi, lo = 1.0, 0.0
        for _ in range(_SEARCH_STEPS):
            mid = (hi + lo) / 2
            if below(mid):
                lo = mid
            else:
                hi = mid
        return hi


def _positive(f, c, obs):
    """``(f, c, None, obs)`` on the rows of positive weight (a row of weight 0 is no row)."""
    keep = obs > 0
    return f[keep], c[keep], None, obs[keep]


def _problems(p, y, type):
    form = input_form(p, y, type)
    if form.scalar:
        return form.kind, [(None, form.r, form.c)]
    return form.kind, [(str(level), r, c) for level, (r, c) in
                       zip(form.labels.levels, form.problems())]


def _check_sigma(sigma):
    if sigma is None:
        return None
    message = f"Argument `sigma` must be a single number in [{_MIN_SIGMA:g}, 1], or None."
    if not isinstance(sigma, (int, float, np.integer, np.floating)) \
            or isinstance(sigma, (bool, np.bool_)) or not (0 < sigma <= 1):
        raise ProbcalError(message)
    sigma = float(sigma)
    if sigma < _MIN_SIGMA:
        from ..inputs._checks import add_note

        err = ProbcalError(message)
        add_note(err, f"sigma = {sigma:.3g} would need a kernel grid of about {10 / sigma:.3g} "
                      f"points (relplot's max(2000, round(20 / sigma)) // 2 + 1); the bound "
                      f"{_MIN_SIGMA:g} keeps it at or below {_MAX_GRID:,} points, so that "
                      "memory and time stay bounded. The fixed-point bandwidth (sigma=None) is "
                      "never below 0.001.")
        raise err
    return sigma


def _check_flag(value, arg):
    if not isinstance(value, (bool, np.bool_)):
        raise ProbcalError(f"Argument `{arg}` must be True or False.")
    return bool(value)


def _check_n_boot(n_boot, n_points):
    """``n_boot`` of :func:`smooth_reliability_diagram`: a whole number, 0 to R's largest
    integer (the package's resampling counts), whose ``n_points * n_boot`` curve values
    fit this machine's RAM (as ``cal_test``'s replicates): refused before any work."""
    from ..inputs._checks import R_INT_MAX, add_note

    if not isinstance(n_boot, (int, np.integer)) or isinstance(n_boot, (bool, np.bool_)) \
            or n_boot < 0:
        raise ProbcalError("Argument `n_boot` must be a non-negative integer.")
    n_boot = int(n_boot)
    if n_boot > R_INT_MAX:
        err = ProbcalError(f"Argument `n_boot` must be at most {R_INT_MAX}.")
        add_note(err, f"`n_boot` must be at most {R_INT_MAX} (2^31 - 1), R's largest integer, "
                      "as for the package's other resampling counts; 200 is the default.")
        raise err
    from .._rng._args import r_alloc_error
    from ..inference import physical_memory as _physical_memory

    size = 8 * n_points * n_boot
    ram = _physical_memory()
    if ram and size > ram:
        err = r_alloc_error(n_points * n_boot, 8)
        add_note(err, f"smooth_reliability_diagram(n_boot = {n_boot}) keeps {n_boot} resampled "
                      f"curves on {n_points} points ({size / 2 ** 30:.1f} GiB, more than this "
                      f"machine's {ram / 2 ** 30:.1f} GiB) to take their quantiles; use a "
                      "smaller n_boot (the default is 200).")
        raise err
    return n_boot


@python_face
def smece(p, y, type="classwise", *, sigma=None, return_sigma=False, weights=None):
    """Smooth ECE: the kernel-smoothed calibration error with its fixed-point bandwidth.

    Python-only (R has no smooth ECE; peer: ``relplot.smECE(f, y)``).

    Parameters
    ----------
    p : array_like
        Binary probabilities, or a probability matrix (multiclass).
    y : array_like
        0/1 labels, or class labels.
    type : {"classwise", "confidence"}
        Multiclass form: the mean of the one-vs-rest smooth ECEs, or the
        smooth ECE of the top-label confidence (relplot's
        ``multiclass_logits_to_confidences``). Ignored for binary input.
    sigma : float, optional
        A fixed bandwidth in ``[1e-4, 1]`` (relplot's ``smECE_sigma``) instead
        of the fixed point. A smaller one is refused: the kernel's grid has
        about ``10 / sigma`` points, which the bound keeps at or below
        100,001 (relplot has no bound).
    return_sigma : bool
        Also return the bandwidth (per class for classwise).
    weights : array_like, optional
        Observation weights, one per row (R's ``glm`` prior weights), finite
        and non-negative with a positive sum (else a ``ProbcalError`` naming
        ``weights``). Each row's residual and its unit of density are
        multiplied by its weight before the linear binning onto the grid,
        so a row of weight 0 changes nothing and a row of whole weight k
        counts as k copies of it (the fixed point included). relplot 1.0.3
        has no weights: this is its definition applied to the copies
        (``tests/binned/test_weights_metrics.py`` compares with relplot on
        ``np.repeat``-ed data). None (the default) is the unweighted code,
        bit for bit.

    Returns
    -------
    float, or (float, float or list of float)

    Notes
    -----
    With ``r_i = f_i - y_i``, the Gaussian kernel ``K_s`` reflected at 0 and
    1 (relplot's ``ReflectedGaussianKernel``; the data are linearly binned on
    a grid of ``max(2000, round(20 / s)) // 2 + 1`` points first),
    ``rs(t) = (K_s * r)(t) / ((K_s * 1)(t) + 1e-4)`` and ``dens(t) =
    (K_s * 1)(t) + 1e-4`` on ``max(round(10 / s), 200)`` points ``t`` of
    ``[0, 1]``::

        smECE_s = sum_t |rs(t)| dens(t) / sum_t dens(t)

    and ``s*`` solves ``s* = smECE_s*``: ``s = 1`` if ``1 < smECE_1``,
    otherwise ten bisection steps on ``(0, 1)`` keep the upper end (so
    ``s*`` is within ``2^-10`` above the fixed point, and never below
    0.001). The data are read in chunks of 2^20 rows: memory is bounded
    whatever ``n``. The convolution skips the kernel's entries that are
    exactly 0 (beyond about 38.6 ``s`` from its centre; relplot multiplies
    by them), so its cost is O(grid) rather than O(grid^2); with ``s >=
    1e-4`` the grid has at most 100,001 points.

    Agreement with relplot 1.0.3 (``tests/diagnostics/test_smece.py``): relative 1e-9
    where the bisection takes the same steps (it compares two floating-point
    numbers, so inputs lying on a decision boundary could differ by one
    step). Differences: relplot bins with ``np.add.at`` in one pass; this
    bins with ``np.bincount`` in chunks (sums in another order).

    References
    ----------
    Blasiok, J., & Nakkiran, P. (2023). Smooth ECE: Principled reliability
    diagrams via kernel smoothing. arXiv:2309.12236.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(2000)
    >>> y = pc.rbinom(2000, 1, p ** 1.3)
    >>> round(pc.smece(p, y), 6)
    0.055381
    """
    sigma = _check_sigma(sigma)
    return_sigma = _check_flag(return_sigma, "return_sigma")
    kind, problems = _problems(p, y, type)
    obs = None if weights is None else check_weights(weights, problems[0][1].size)
    values, sigmas = [], []
    for _, f, c in problems:
        sm = _Smoother(f, c) if obs is None else _Smoother(*_positive(f, c, obs))
        s = sm.fixed_point() if sigma is None else sigma
        values.append(sm.ece(s))
        sigmas.append(s)
    value = float(np.mean(values))
    if return_sigma:
        return value, (sigmas[0] if len(sigmas) == 1 else sigmas)
    return value


class SmoothReliability:
    """The smoothed reliability diagram's data (see :func:`smooth_reliability_diagram`).

    Attributes: ``curves`` (a pandas DataFrame with columns ``class_label``
    (None for one curve), ``t``, ``mu``, ``lower``, ``upper``, ``density``),
    ``smece`` and ``sigma`` (per curve), ``level``, ``n_boot``, ``kind``.
    """

    def __init__(self, curves, smece, sigma, level, n_boot, kind):
        self.curves, self.smece, self.sigma = curves, smece, sigma
        self.level, self.n_boot, self.kind = level, n_boot, kind

    def __repr__(self):
        vals = ", ".join(f"{v:.4f}" for v in self.smece)
        return f"<SmoothReliability ({self.kind}): smECE = {vals}, sigma = " + ", ".join(
            f"{s:.4g}" for s in self.sigma) + ">"

    def plot(self, ax=None, *, colour="red", figsize=None):
        """Draw the smoothed curve, its band and the forecast density; returns the Figure."""
        from ._corp import diagram_axes, diagram_header
        from ._diagnostics import _BASE_SIZE, _identity_line, _model_colours

        fig, axis = diagram_axes(ax, figsize, "smooth_reliability_diagram")
        groups = list(dict.fromkeys(self.curves["class_label"].tolist()))
        colours = [colour] if len(groups) == 1 else _model_colours(len(groups))
        for g, col in zip(groups, colours):
            d = self.curves[self.curves["class_label"] == g] if g is not None else self.curves
            t = d["t"].to_numpy()
            if len(groups) == 1:
                dens = d["density"].to_numpy()
                axis.fill_between(t, 0, 0.2 * dens / dens.max(), color="grey", alpha=0.3,
                                  linewidth=0, gid="density")
            if self.n_boot:
                axis.fill_between(t, d["lower"].to_numpy(), d["upper"].to_numpy(), color=col,
                                  alpha=0.15, linewidth=0, gid="band")
            axis.plot(t, d["mu"].to_numpy(), color=col, linewidth=1.5, gid="curve",
                      label=None if g is None else g)
        _identity_line(axis)
        axis.set_xlabel("Predicted probability", fontsize=_BASE_SIZE)
        axis.set_ylabel("Smoothed E[y | f]", fontsize=_BASE_SIZE)
        text = "smECE = " + ", ".join(f"{v:.4f}" for v in self.smece)
        diagram_header(fig, axis, ax is None, "Smooth reliability diagram", text,
                       legend=len(groups) > 1)
        return fig


@python_face
def smooth_reliability_diagram(p, y, type="classwise", *, n_boot=200, level=0.95, sigma=None,
                               rng=None):
    """Smoothed reliability diagram with a bootstrap band (relplot's diagram).

    Python-only (peer: ``relplot.prepare_rel_diagram`` / ``rel_diagram``).

    Parameters
    ----------
    p, y, type
        As :func:`smece` (classwise: one curve per class; confidence: the
        top-label confidence).
    n_boot : int
        Bootstrap resamples for the band (0: no band), at most 2^31 - 1; the
        ``200 * n_boot`` curve values are allocated first, so a count whose
        values cannot fit this machine's RAM is refused at once (a
        ``MemoryError`` with a note). The time grows linearly with it.
    level : float
        Level of the pointwise band (relplot: 0.95).
    sigma : float, optional
        Bandwidth in ``[1e-4, 1]`` (see :func:`smece`); by default the smooth
        ECE's fixed point.
    rng : None, int, RRandom or numpy.random.Generator
        Stream of the resamples (None: the package's global R stream; each
        resample is ``sample.int(n, n, replace = TRUE)``).

    Returns
    -------
    SmoothReliability
        Curves on 200 points of ``[0, 1]``, the smooth ECE and bandwidth per
        curve; ``.plot(ax=None)`` draws the diagram.

    Notes
    -----
    The curve is the kernel-smoothed labels ``mu(t) = (K_s * y)(t) / ((K_s *
    1)(t) + 1e-4)`` at the smooth ECE's bandwidth ``s`` (relplot's
    ``KernelSmoother``, reflected Gaussian kernel); the band is the pointwise ``(1 -/+ level) / 2``
    type-7 quantiles of the curves of ``n_boot`` resamples at the same
    bandwidth, and ``density`` the kernel density of the forecasts,
    ``(K_s * 1)(t) / n`` (relplot's ``kernel.kde``).
    Differences from relplot: relplot draws the mean of its bootstrap curves
    (scikit-learn's ``BaggingRegressor``) as the curve; here it is the fit
    to the data (relplot's curve with ``plot_confidence_band=False``), and
    the resamples come from the package's stream, not numpy's global one.
    Memory: one resample's indices (``n`` integers) at a time.

    Examples
    --------
    >>> import pycalib_r as pc
    >>> pc.set_seed(1)
    >>> p = pc.runif(2000)
    >>> y = pc.rbinom(2000, 1, p ** 1.3)
    >>> d = pc.smooth_reliability_diagram(p, y, n_boot=20, rng=5)
    >>> d
    <SmoothReliability (binary): smECE = 0.0554, sigma = 0.05566>
    >>> d.curves[["t", "mu"]].iloc[100].round(4).tolist()
    [0.5025, 0.3891]
    """
    import pandas as pd

    from ._corp import _row_quantiles, rng_argument
    from .._rng._args import r_empty
    from .._rng.stream._locking import holding

    sigma = _check_sigma(sigma)
    n_boot = _check_n_boot(n_boot, _PLOT_MESH)
    if not isinstance(level, (int, float, np.integer, np.floating)) \
            or isinstance(level, (bool, np.bool_)) or not 0 < level < 1:
        raise ProbcalError("Argument `level` must be a single number in (0, 1).")
    stream = rng_argument(rng)
    kind, problems = _problems(p, y, type)
    t = np.linspace(0, 1, _PLOT_MESH)
    frames, values, sigmas = [], [], []
    # All of the call's draws are one serial step on a shared stream (as cal_test's):
    # threads calling it after set_seed() get the bands of some serial order of calls.
    with holding(stream):
        for label, f, c in problems:
            sm = _Smoother(f, c)
            s = sm.fixed_point() if sigma is None else sigma
            values.append(sm.ece(s))
            sigmas.append(s)
            _, dens = sm.smooth(s, t)
            mu = sm.curve(s, t)
            lower = upper = np.full(t.size, np.nan)
            if n_boot:
                boots = r_empty(t.size * n_boot, "smooth_reliability_diagram's resampled "
                                "curves: use a smaller n_boot.").reshape(t.size, n_boot)
                n = f.size
                for b in range(n_boot):
                    idx = np.asarray(stream.sample_int(n, n, replace=True), dtype=np.int64) - 1
                    boots[:, b] = _Smoother(f, c, index=idx).curve(s, t)
                lower, upper = _row_quantiles(boots, [(1 - level) / 2, 1 - (1 - level) / 2])
            density = dens - _SMOOTH_EPS
            frames.append(pd.DataFrame(dict(class_label=[label] * t.size, t=t, mu=mu,
                                            lower=lower, upper=upper,
                                            density=density / f.size)))
    curves = pd.concat(frames, ignore_index=True)
    return SmoothReliability(curves, values, sigmas, float(level), int(n_boot), kind)

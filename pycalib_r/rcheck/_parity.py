"""``pycalib-r parity FILE --p COL --y COL``: the whole package against R on one CSV."""

from __future__ import annotations

import json
import sys
from typing import List, Tuple

import numpy as np

from ._errors import NotExpressibleInR, RUnavailable

__all__ = ["add_parity_arguments", "parity_calls", "run_parity"]


def add_parity_arguments(parser) -> None:
    """Add the ``parity`` subcommand's own arguments to an argparse parser.

    The data arguments (FILE, ``--p``, ``--y``) are the command line's own,
    shared by every subcommand.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.

    R equivalent: none.
    """
    parser.add_argument("--n-boot", type=int, default=199,
                        help="resamples for cal_test/cal_ci (default 199; R's side is slow)")
    parser.add_argument("--bins", type=int, default=10)
    parser.add_argument("--bandwidth", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1,
                        help="set.seed() before each random call, on both sides (default 1)")
    parser.add_argument("--only", nargs="+", metavar="FUNCTION", default=None,
                        help="check only these R functions (e.g. ece cal_test)")
    parser.add_argument("--json", action="store_true", help="print JSON reports instead of a table")


def parity_calls(p, y, *, n_boot: int = 199, bins: int = 10, bandwidth: float = 0.2,
                 seed: int = 1) -> List[Tuple[str, object, tuple, dict, bool]]:
    """The calls ``pycalib-r parity`` checks for one data set.

    Parameters
    ----------
    p : array_like
        Probabilities: a vector (binary) or a matrix (multiclass).
    y : array_like
        Labels.
    n_boot, bins, bandwidth, seed : optional
        As the command-line options.

    Returns
    -------
    list of (label, function, args, kwargs, random)
        ``random`` marks calls that draw from the stream (``set_seed(seed)``
        is called first).

    R equivalent: none.
    """
    import pycalib_r as pc

    multiclass = np.ndim(p) == 2
    data = (p, y)
    calls = []

    def add(label, fn, args=data, random=False, **kwargs):
        calls.append((label, fn, args, kwargs, random))

    types = ("classwise", "confidence") if multiclass else (None,)
    for t in types:
        extra = {"type": t} if t else {}
        suffix = f", type = \"{t}\"" if t else ""
        add(f"ece(p, y, bins = {bins}{suffix})", pc.ece, bins=bins, **extra)
        add(f"mce(p, y, bins = {bins}{suffix})", pc.mce, bins=bins, **extra)
        add(f"ace(p, y, bins = {bins}{suffix})", pc.ace, bins=bins, **extra)
    add(f"ece(p, y, bins = {bins}, debiased = TRUE)", pc.ece, bins=bins, debiased=True)
    add(f"ece(p, y, bins = {bins}, strategy = \"equal_freq\")", pc.ece, bins=bins,
        strategy="equal_freq")
    add(f"mmce(p, y, bandwidth = {bandwidth:g})", pc.mmce, bandwidth=bandwidth)
    for estimator in ("uq", "ul", "biased"):
        add(f"skce(p, y, estimator = \"{estimator}\", bandwidth = {bandwidth:g})", pc.skce,
            estimator=estimator, bandwidth=bandwidth)
    add(f"cal_test(p, y, n_boot = {n_boot})", pc.cal_test, random=True, n_boot=n_boot,
        bandwidth=bandwidth, progress=False)
    add("cal_test(p, y, method = \"asymptotic\")", pc.cal_test, method="asymptotic",
        bandwidth=bandwidth, progress=False)
    for metric in ("ece", "skce", "mmce", "mce", "ace"):
        add(f"cal_ci(p, y, metric = \"{metric}\", n_boot = {n_boot})", pc.cal_ci, random=True,
            metric=metric, n_boot=n_boot, bins=bins, progress=False)
    add(f"reliability_diagram(p, y, bins = {bins})$data", pc.reliability_table, bins=bins)
    if multiclass:
        with np.errstate(divide="ignore"):
            logits = np.log(np.asarray(p, dtype=float))
        add("cal_temperature(log(p), y)", pc.cal_temperature, (logits, y))
        add("cal_vector_scaling(log(p), y)", pc.cal_vector_scaling, (logits, y))
        add("cal_dirichlet(p, y)", pc.cal_dirichlet)
        add("cal_ovr(p, y)", pc.cal_ovr)
        add(f"cal_cv(p, y, method = \"dirichlet\", seed = {seed})", pc.cal_cv,
            method="dirichlet", seed=seed)
    else:
        logits = pc.logit(p)
        add("cal_platt(p, y)", pc.cal_platt)
        add("cal_temperature(logit(p), y)", pc.cal_temperature, (logits, y))
        add("cal_beta(p, y)", pc.cal_beta)
        add("cal_isotonic(p, y)", pc.cal_isotonic)
        add(f"cal_histogram(p, y, bins = {bins})", pc.cal_histogram, bins=bins)
        add(f"cal_cv(p, y, method = \"platt\", seed = {seed})", pc.cal_cv, method="platt", seed=seed)
    return calls


def _plain(p, y):
    """Plain arrays (and a Categorical), so that R sees the names ``p`` and ``y``."""
    import pandas as pd

    p_plain = p.to_numpy(dtype=float) if isinstance(p, (pd.Series, pd.DataFrame)) else np.asarray(p)
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        y_plain = y.array
    elif isinstance(y, pd.Series):
        y_plain = y.to_numpy()
    else:
        y_plain = y
    return p_plain, y_plain


_HEADLINE = ("predict", "value", "estimate", "p.value")


def _headline(report) -> str:
    """The call's main value on both sides, for the table."""
    by_name = {c.name: c for c in report.checks}
    for name in _HEADLINE:
        if name in by_name:
            c = by_name[name]
            return f"{name}: {c.python} | {c.r}"
    if "error" in by_name:
        return "error: " + ("same message" if by_name["error"].status == "pass" else "differs")
    return ""


def run_parity(args, p, y) -> int:
    """Run ``pycalib-r parity``: every check on the CSV, a table (or JSON), an exit status.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser set up with :func:`add_parity_arguments`.
    p, y : array_like
        The predictions and labels the command line read from the CSV.

    Returns
    -------
    int
        0 when every call agrees with R under the tolerance policy, 1 when
        any differs or could not run on one side, 2 when R, rpy2 or probcal
        is missing (the message on standard error says how to install it).

    R equivalent: none.
    """
    import pycalib_r as pc
    from ._check import same_as_r
    from ._session import session

    p, y = _plain(p, y)
    try:
        sess = session()
    except RUnavailable as exc:
        print(f"pycalib-r: error: {exc}", file=sys.stderr)
        return 2
    if sess.probcal_version is None:
        print("pycalib-r: error: the probcal R package is not installed in this R "
              f"({sess.r_version}): in R: install.packages(\"probcal\")", file=sys.stderr)
        return 2
    calls = parity_calls(p, y, n_boot=args.n_boot, bins=args.bins, bandwidth=args.bandwidth,
                         seed=args.seed)
    if args.only:
        calls = [c for c in calls if c[0].split("(")[0] in set(args.only)]
    rows = []
    ok = True
    for label, fn, fargs, kwargs, random in calls:
        if random:
            pc.set_seed(args.seed)
        try:
            report = same_as_r(fn, *fargs, **kwargs)
        except (NotExpressibleInR, RUnavailable) as exc:
            ok = False
            rows.append((label, None, str(exc)))
            continue
        ok = ok and report.passed
        rows.append((label, report, ""))

    if args.json:
        out = {"passed": ok, "r_version": sess.r_version, "probcal_version": sess.probcal_version,
               "n": int(np.shape(p)[0]), "checks": [
                   dict(report.to_dict(), label=label) if report is not None else
                   {"label": label, "passed": False, "error": note}
                   for label, report, note in rows]}
        print(json.dumps(out, indent=1))
        return 0 if ok else 1

    print(f"pycalib_r {pc.__version__} against {sess.r_version}, probcal {sess.probcal_version}; "
          f"{np.shape(p)[0]} rows; tolerance policy pycalib_r.rcheck.TOLERANCE")
    width = max(len(r[0]) for r in rows) if rows else 10
    print(f"{'call':<{width}}  {'status':<6}  {'max abs':>8}  {'max rel':>8}  {'R side':<13}  "
          f"pycalib_r | R")
    for label, report, note in rows:
        if report is None:
            print(f"{label:<{width}}  {'NOT RUN':<6}  {'':>8}  {'':>8}  {note}")
            continue
        status = "pass" if report.passed else "FAIL"
        side = "contract.R" if report.fallback else report.r_source
        print(f"{label:<{width}}  {status:<6}  {report.max_abs:>8.2g}  {report.max_rel:>8.2g}  "
              f"{side:<13}  {_headline(report)}")
    failed = [(label, report) for label, report, _ in rows if report is not None and not report.passed]
    for label, report in failed:
        print(f"\n{report}")
    if any(report is not None and report.fallback for _, report, _ in rows):
        print(f"\ncontract.R: installed probcal {sess.probcal_version} lacks the 0.2.0 functions; "
              f"install probcal >= 0.2.0 to check them against probcal itself.")
    print(f"\n{'all calls agree with R' if ok else 'DIFFERENCES FOUND'}: "
          f"{sum(1 for _, r, _ in rows if r is not None and r.passed)} of {len(rows)} pass")
    return 0 if ok else 1

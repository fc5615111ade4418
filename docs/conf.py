"""Sphinx configuration of pycalib_r's documentation site.

Build (no network needed)::

    python -m sphinx -W -b html docs docs/_build/html

Mathematics renders offline: MathJax 2 from Debian's ``libjs-mathjax``
(``/usr/share/javascript/mathjax``, or the folder ``PYCALIB_R_MATHJAX``
names) is copied into the site's ``_static/mathjax`` when the build ends, and
the pages load it from there, never from a CDN. Without it the build stops
and says what to install (``tools/run_tests.sh`` installs it).

The API reference is generated at build time from the package's ``__all__``
and the faces' ``__all__`` (one page per export, grouped by concern; a name
missing from the groups below lands in "Other"), so a new export always has a
page. The gallery's examples run at build time (sphinx-gallery).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("MPLBACKEND", "Agg")

import pycalib_r  # noqa: E402

project = "pycalib_r"
author = "pycalib_r developers"
copyright = "pycalib_r developers"
release = pycalib_r.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "api/generated_*", "examples/*", "gallery/*.ipynb", "README.md",
                    "probcal-0.2.0.md", "**/*.py.md5", "**/*.codeobj.json"]
suppress_warnings = ["myst.header", "myst.xref_missing", "config.cache"]
myst_heading_anchors = 3
# $...$ and $$...$$ in the Markdown pages are formulas (guide/calibration.md).
myst_enable_extensions = ["dollarmath"]

# ---------------------------------------------------------------------------
# Mathematics, rendered by a MathJax shipped with the site (no network).
# ---------------------------------------------------------------------------

MATHJAX_DIR = Path(os.environ.get("PYCALIB_R_MATHJAX", "/usr/share/javascript/mathjax"))
# What MathJax 2's combined TeX -> CommonHTML configuration loads.
MATHJAX_PARTS = ("MathJax.js", "config/TeX-AMS_CHTML.js", "jax/input/TeX", "jax/output/CommonHTML",
                 "jax/element", "extensions", "fonts/HTML-CSS/TeX/woff")
if not (MATHJAX_DIR / "MathJax.js").is_file():
    raise RuntimeError(
        f"MathJax 2 is not at {MATHJAX_DIR}: the site renders its formulas with a MathJax it ships, "
        "not one from a CDN. Install Debian's libjs-mathjax (apt-get install libjs-mathjax; "
        "tools/run_tests.sh does), or set PYCALIB_R_MATHJAX to a MathJax 2.7 folder.")
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_CHTML"
mathjax2_config = {
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": True, "ignoreClass": "document", "processClass": "math|output_area"},
    "messageStyle": "none",
    "menuSettings": {"zoom": "None"},
}


def copy_mathjax(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        src, dst = MATHJAX_DIR / part, target / part
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)

numpydoc_show_class_members = False
numpydoc_validation_checks = set()
numpydoc_xref_param_type = False
autodoc_default_options = {"members": False}
autodoc_typehints = "none"

html_theme = "pydata_sphinx_theme"
html_title = f"pycalib_r {release}"
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "navigation_with_keys": False,
}
html_static_path: list = []
html_show_sourcelink = False

sphinx_gallery_conf = {
    "examples_dirs": "gallery_src",
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    "plot_gallery": "True",
    "within_subsection_order": "FileNameSortKey",
    "reset_modules": ("matplotlib",),
}

# ---------------------------------------------------------------------------
# The API reference, generated from __all__.
# ---------------------------------------------------------------------------

GROUPS = [
    ("Metrics", "Binned, kernel and bin-free calibration errors.",
     ["ece", "mce", "ace", "mmce", "skce", "calibration_error", "brier_score", "smece",
      "logit", "inv_logit"]),
    ("Tests and intervals", "Calibration tests and confidence intervals.",
     ["cal_test", "CalTest", "cal_ci", "CalCI", "ece_ci", "EceCI"]),
    ("Calibrators", "Fitting and applying calibration maps.",
     ["cal_platt", "cal_beta", "cal_isotonic", "cal_histogram", "cal_temperature",
      "cal_vector_scaling", "cal_dirichlet", "cal_ovr", "cal_cv", "cal_scaling_binning",
      "cal_venn_abers",
      "Calibrator", "predict", "summary"]),
    ("Diagnostics", "Reliability diagrams, tables and validation statistics.",
     ["reliability_diagram", "reliability_table", "reliabilitydiag",
      "smooth_reliability_diagram", "val_prob", "hoslem_test", "cal_intercept_slope",
      "pmcalibration", "cal_metrics", "PmCalibration"]),
    ("Random streams", "R's random number streams, bit for bit.",
     ["RRandom", "set_seed", "runif", "rnorm", "rbinom", "sample", "sample_int", "rexp", "rgamma",
      "rbeta", "rchisq", "rt", "rf", "rpois", "rgeom", "rnbinom", "rhyper", "rmultinom", "rlogis",
      "rweibull", "rcauchy", "rlnorm", "rng_kind", "get_random_seed", "set_random_seed",
      "next_rng_stream", "next_rng_substream"]),
    ("Options and errors", "Package options and the error class.",
     ["options", "get_option", "ProbcalError", "show_config"]),
]
FACES = [
    ("pycalib_r.sklearn", "scikit-learn", "Estimators and scorers for scikit-learn."),
    ("pycalib_r.dask", "Dask", "The same functions on Dask collections."),
    ("pycalib_r.rcheck", "rcheck", "Parity checks against R on your own data."),
]


def _kind(obj) -> str:
    import inspect

    if inspect.isclass(obj):
        return "autoclass"
    if callable(obj):
        return "autofunction"
    return "autodata"


def _write(path: Path, text: str) -> None:
    # Only rewritten when changed, so incremental builds stay incremental.
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _page(module: str, name: str, obj) -> str:
    title = f"{module}.{name}" if module != "pycalib_r" else name
    directive = _kind(obj)
    body = f".. {directive}:: {module}.{name}\n"
    if directive == "autoclass":
        body += "   :members:\n"
    if module != "pycalib_r" and getattr(pycalib_r, name, None) is obj:
        # A face's re-export of a core object: its description lives on the core's page.
        body += "   :no-index:\n"
    return f"{title}\n{'=' * len(title)}\n\n.. currentmodule:: {module}\n\n{body}"


def generate_api(app=None) -> None:
    import importlib

    api = DOCS / "api"
    api.mkdir(exist_ok=True)
    exported = list(pycalib_r.__all__)
    grouped = {n for _, _, names in GROUPS for n in names}
    groups = [(t, d, [n for n in names if n in exported]) for t, d, names in GROUPS]
    other = [n for n in exported if n not in grouped]
    if other:
        groups.append(("Other", "Other public names.", other))
    index = ["API reference", "=============", "",
             "One page per public name, generated from the docstrings. Each says its R",
             "equivalent (or that it is Python-only), the mathematics, references and an",
             "example whose output is R's.", ""]
    for title, desc, names in groups:
        index += [title, "-" * len(title), "", desc, "", ".. toctree::", "   :maxdepth: 1", ""]
        for name in names:
            _write(api / f"{name}.rst", _page("pycalib_r", name, getattr(pycalib_r, name)))
            index.append(f"   {name}")
        index.append("")
    for module, title, desc in FACES:
        mod = importlib.import_module(module)
        slug = module.split(".")[-1]
        index += [f"``{module}``: {title}", "-" * (len(module) + len(title) + 6), "", desc, "",
                  ".. toctree::", "   :maxdepth: 1", ""]
        for name in mod.__all__:
            _write(api / f"{slug}.{name}.rst", _page(module, name, getattr(mod, name)))
            index.append(f"   {slug}.{name}")
        index.append("")
    index += ["Command line", "------------", "", ".. toctree::", "   :maxdepth: 1", "", "   cli", ""]
    _write(api / "index.rst", "\n".join(index))
    help_text = subprocess.run([sys.executable, "-m", "pycalib_r", "--help"], capture_output=True,
                               text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}).stdout
    cli = ["The ``pycalib-r`` command", "=========================", "",
           "Generated at build time from ``pycalib-r --help``; each subcommand's own",
           "``--help`` gives its flags. See :doc:`../cli` for examples.", "",
           ".. code-block:: text", ""]
    cli += ["   " + line if line else "" for line in help_text.splitlines()]
    _write(api / "cli.rst", "\n".join(cli) + "\n")


def setup(app):
    generate_api()
    app.connect("build-finished", copy_mathjax)

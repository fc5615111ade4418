"""The documentation site: it builds with warnings as errors, every export has
an API page, and headless Chromium renders the index, an API page and a
gallery page with their figures, and renders the formulas offline.

The site is built once per session into a temporary folder
(``python -m sphinx -W -b html docs <tmp>``, no network); the gallery's
examples run during the build. Chromium is Debian's ``chromium``
(``tools/run_tests.sh`` installs it): without it the rendering checks fail,
as a missing R fails the parity tests. Chromium runs with the network off
(every http(s) request goes to a closed local port), so a page that needed a
CDN would show it: the formulas are rendered by the MathJax the site ships
(Debian's ``libjs-mathjax``, copied into ``_static/mathjax`` by
``docs/conf.py``).
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pycalib_r

from tests.conftest import ORIGINAL_ENV

REPO = Path(__file__).resolve().parents[3]
FACES = {"pycalib_r.sklearn": "sklearn", "pycalib_r.dask": "dask", "pycalib_r.rcheck": "rcheck"}


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    pytest.importorskip("sphinx")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", "-d",
                          str(out / ".doctrees"), "docs", str(out / "html")],
                         cwd=REPO, capture_output=True, text=True, timeout=1800,
                         env={**ORIGINAL_ENV, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"})
    assert run.returncode == 0, f"the site does not build:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}"
    return out / "html"


def test_every_export_has_an_api_page(site):
    missing = [n for n in pycalib_r.__all__ if not (site / "api" / f"{n}.html").is_file()]
    for module, slug in FACES.items():
        mod = importlib.import_module(module)
        missing += [f"{module}.{n}" for n in mod.__all__
                    if not (site / "api" / f"{slug}.{n}.html").is_file()]
    assert not missing, f"exports without an API page: {missing}"
    assert (site / "api" / "cli.html").is_file()


def test_the_site_shows_its_version_and_search_works_offline(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    assert pycalib_r.__version__ in index
    assert (site / "search.html").is_file() and (site / "searchindex.js").is_file()
    assert "cal_test" in (site / "searchindex.js").read_text(encoding="utf-8")


def test_gallery_figures_are_in_the_built_html(site):
    pages = sorted((site / "gallery").glob("plot_*.html"))
    assert len(pages) >= 6
    images = sorted((site / "_images").glob("sphx_glr_plot_*_001.png"))
    assert len(images) >= 6, images


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("headless Chromium is needed for the docs check: apt-get install chromium "
                "(tools/run_tests.sh installs it)")


def _render(page: Path, tmp_path: Path):
    """The DOM after scripts ran, and a screenshot, of one built page."""
    browser = _chromium()
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             # the network off: http(s) goes to a closed port; file:// pages still load
             "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
             f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000"]
    dom = subprocess.run([browser, *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    shot = tmp_path / f"{page.stem}.png"
    subprocess.run([browser, *flags, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
                   capture_output=True, text=True, timeout=120, check=True)
    return dom.stdout, shot


def _not_blank(png: Path) -> bool:
    import matplotlib.image as mpimg

    pixels = mpimg.imread(str(png))
    return pixels.std() > 0.01


@pytest.mark.parametrize("page,needs", [
    ("index.html", ["pycalib_r", "User guide"]),
    ("api/cal_test.html", ["cal_test", "R equivalent", "Examples"]),
    ("gallery/plot_binary_diagram.html", ["Binary reliability diagram", "sphx_glr_plot_binary_diagram_001.png"]),
])
def test_chromium_renders_the_pages_with_their_figures(site, tmp_path, page, needs):
    dom, shot = _render(site / page, tmp_path)
    for text in needs:
        assert text in dom, f"{page}: {text!r} not rendered"
    for src in __import__("re").findall(r'<img[^>]+src="([^"]+)"', dom):
        if src.startswith(("http:", "https:", "data:")):
            continue
        target = (site / page).parent / src.split("#")[0]
        assert target.is_file() and target.stat().st_size > 0, f"{page}: missing image {src}"
    assert shot.is_file() and _not_blank(shot), f"{page}: blank screenshot"


@pytest.mark.parametrize("page", ["guide/calibration.html", "api/ece_ci.html"])
def test_formulas_render_offline_with_the_shipped_mathjax(site, tmp_path, page):
    """Every formula of the page is typeset by MathJax with the network off."""
    import re

    html = (site / page).read_text(encoding="utf-8")
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert not [s for s in scripts if s.startswith(("http:", "https:", "//"))], scripts
    mathjax = [s for s in scripts if "MathJax.js" in s]
    assert mathjax and (site / page).parent.joinpath(mathjax[0].split("?")[0]).resolve().is_file(), scripts
    formulas = html.count('class="math notranslate nohighlight"')
    assert formulas > 0, f"{page} has no formula to render"
    dom, shot = _render(site / page, tmp_path)
    typeset = dom.count('class="mjx-chtml MathJax_CHTML"')  # one per typeset formula
    assert typeset >= formulas, f"{page}: {typeset} of {formulas} formulas rendered"
    assert "MathJax_CHTML" in dom and "Math Processing Error" not in dom
    assert shot.is_file() and _not_blank(shot)

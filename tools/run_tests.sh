#!/usr/bin/env bash
# The whole test suite on a fresh machine. On Debian (as root, or with sudo)
# it installs what is missing: R (Debian's r-base-core, R 4.2.2) with the R
# packages cli and ggplot2, and rms and MASS (val_prob's and the profile
# intervals' live comparisons); then the probcal R package from CRAN when CRAN can
# be reached (the live probcal comparisons skip, saying so, when it cannot);
# then this package with its test extra; then it runs pytest. R parity tests
# fail, not skip, when R is unavailable. Elsewhere it stops with one message
# naming what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
  cat >&2 <<MSG
tools/run_tests.sh: $1
The test suite needs R >= 4.2 with the R packages cli and ggplot2, and Python
with pip (the script then installs rpy2 >= 3.5, < 3.6, the pin for R 4.2, with
the package's test extra). Install R from your system's packages, for example
  Debian/Ubuntu:  apt-get install r-base-core r-base-dev r-cran-cli r-cran-ggplot2 r-cran-rms r-cran-mass r-cran-hmisc r-cran-mgcv r-cran-pbapply chromium libjs-mathjax gcc
  Fedora:         dnf install R-core R-core-devel, then in R: install.packages(c("cli", "ggplot2"))
  macOS:          brew install r, then in R: install.packages(c("cli", "ggplot2"))
and run bash tools/run_tests.sh again.
MSG
  exit 1
}

r_has() { Rscript -e "quit(status = !requireNamespace('$1', quietly = TRUE))" >/dev/null 2>&1; }

need_apt=()
if ! command -v Rscript >/dev/null 2>&1; then
  need_apt+=(r-base-core r-base-dev r-cran-cli r-cran-ggplot2 r-cran-rms r-cran-mass r-cran-hmisc r-cran-mgcv r-cran-pbapply)
else
  r_has cli || need_apt+=(r-cran-cli)
  r_has ggplot2 || need_apt+=(r-cran-ggplot2)
  r_has rms || need_apt+=(r-cran-rms)
  r_has MASS || need_apt+=(r-cran-mass)
  # Hmisc, mgcv and pbapply: what CalibrationCurves and pmcalibration need,
  # for the live comparisons of val_prob_ci and pmcalibration where those
  # two are installed from their public source (never by this script).
  r_has Hmisc || need_apt+=(r-cran-hmisc)
  r_has mgcv || need_apt+=(r-cran-mgcv)
  r_has pbapply || need_apt+=(r-cran-pbapply)
fi
# The docs check renders the built site in headless Chromium (Debian's).
if ! command -v chromium >/dev/null 2>&1; then
  need_apt+=(chromium)
fi
# The compiled kernels are built at install with the system's C compiler
# (without one the package installs and runs its numpy twins, but the
# suite checks the kernels themselves).
if ! command -v gcc >/dev/null 2>&1 && ! command -v cc >/dev/null 2>&1; then
  need_apt+=(gcc)
fi
# The site renders its formulas with Debian's MathJax, which docs/conf.py copies into it.
if [ -z "${PYCALIB_R_MATHJAX:-}" ] && [ ! -f /usr/share/javascript/mathjax/MathJax.js ]; then
  need_apt+=(libjs-mathjax)
fi
if [ "${#need_apt[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; else
      need "missing ${need_apt[*]}, and apt-get needs root (not root, and sudo is not available without a password)."
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || need "missing ${need_apt[*]}, and this is not a Debian-like system (no apt-get)."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
command -v Rscript >/dev/null 2>&1 || need "R is still missing after installing it."
Rscript -e 'quit(status = getRversion() < "4.2.0")' >/dev/null 2>&1 ||
  need "R $(Rscript -e 'cat(format(getRversion()))' 2>/dev/null) is older than 4.2."
r_has cli || need "the R package cli is missing."
r_has rms || need "the R package rms is missing (apt-get install r-cran-rms)."
r_has MASS || need "the R package MASS is missing (apt-get install r-cran-mass)."

# The live comparisons against the probcal R package run wherever probcal can
# be had: CRAN is tried once, briefly, when probcal is not installed.
if ! r_has probcal; then
  PYCALIB_R_CRAN="${PYCALIB_R_CRAN:-https://cloud.r-project.org}"
  if timeout 180 Rscript -e "options(timeout = 20); suppressWarnings(install.packages('probcal', repos = '$PYCALIB_R_CRAN', quiet = TRUE))" >/dev/null 2>&1 && r_has probcal; then
    echo "tools/run_tests.sh: installed the probcal R package from CRAN for the live comparisons"
  else
    echo "tools/run_tests.sh: CRAN could not be reached, so the probcal R package is not installed; the live probcal comparisons will skip (the stored fixtures cover them)"
  fi
fi

# rpy2 finds R through R_HOME.
export R_HOME="${R_HOME:-$(R RHOME)}"

python3 -m pip --version >/dev/null 2>&1 || need "Python's pip is missing (python3 -m pip)."
python3 -m pip install -q --disable-pip-version-check -e '.[test]'
exec python3 -m pytest -q -p no:cacheprovider "$@"

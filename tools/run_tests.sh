#!/usr/bin/env bash
# The whole test suite on a fresh Debian machine: installs R (Debian's
# r-base-core, R 4.2.2) when it is missing, the package with its test extra,
# then runs pytest. R parity tests fail, not skip, when R is unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v Rscript >/dev/null 2>&1 || need_apt+=(r-base-core r-base-dev)
Rscript -e 'quit(status = !requireNamespace("cli", quietly = TRUE))' >/dev/null 2>&1 || need_apt+=(r-cran-cli)
if [ "${#need_apt[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi
# rpy2 finds R through R_HOME; Debian puts it here.
export R_HOME="${R_HOME:-$(R RHOME)}"

python3 -m pip install -q --disable-pip-version-check -e '.[test]'
exec python3 -m pytest -q -p no:cacheprovider "$@"

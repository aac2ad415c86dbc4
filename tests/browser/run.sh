#!/usr/bin/env bash
# Runs the tutorial notebooks in Jupyter Notebook 6 in headless Chromium
# (tests/browser/notebooks.js, driven by playwright-core): a server on
# 127.0.0.1 with a token (tests/notebook-server.sh) serves a temporary copy
# of notebooks/, with the gobayes kernelspec installed into a temporary
# prefix and HOME and the Jupyter directories isolated, so neither the
# committed notebooks nor the user's Jupyter setup play any part.
#
#   tests/browser/run.sh [WORD ...]    (make test-browser builds, installs and runs it)
#
# WORD picks notebooks whose file name contains it ("interactions" picks the
# scratch notebook of progress, interrupt and completion). Screenshots go to
# $SCREENSHOTS (default tests/browser/screenshots). Ends with
# "N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${GOBAYES_BIN:-$root/bin/gobayes}
chromium=${CHROMIUM:-/usr/bin/chromium}
jupyter=${JUPYTER:-/usr/bin/jupyter}

fail() {
	echo "tests/browser: $*"
	echo "0 passed, 1 failed"
	exit 1
}
[ -x "$bin" ] || fail "$bin is missing; run make build first"
command -v node >/dev/null || fail "node is missing; make deps installs Debian's nodejs and npm"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 18 ] ||
	fail "playwright-core needs Node.js 18 or later; this is $(node --version)"
[ -x "$chromium" ] || fail "$chromium is missing; make deps installs Debian's chromium"
[ -x "$jupyter" ] || fail "$jupyter is missing; make deps installs Debian's jupyter-notebook"
[ -f "$here/node_modules/playwright-core/package.json" ] ||
	fail "playwright-core is missing; make test-browser installs it (npm ci in tests/browser)"

# Tutorial 08 simulates 10⁶ rows; the kernels the server starts read this.
export GOBAYES_TUTORIAL_ROWS=${GOBAYES_TUTORIAL_ROWS:-5000}
. "$root/tests/notebook-server.sh"
notebook_server_start browser "$bin" "$jupyter" || fail "could not start Jupyter Notebook"
cp "$root"/notebooks/*.ipynb "$NB_NOTEBOOKS/"
# As make install-kernel trusts notebooks/ for the user's Jupyter.
/usr/bin/python3 -m nbformat.sign "$NB_NOTEBOOKS"/*.ipynb >/dev/null || fail "signing the notebooks (jupyter trust) failed"
# And one copy not signed, as a notebook downloaded alone opens (a
# signature is of the content, so the copy differs by a metadata key).
/usr/bin/python3 -c 'import json, sys
nb = json.load(open(sys.argv[1])); nb["metadata"]["copy"] = "unsigned"; json.dump(nb, open(sys.argv[2], "w"))' \
	"$root/notebooks/02-eight-schools.ipynb" "$NB_NOTEBOOKS/untrusted-02-eight-schools.ipynb" ||
	fail "could not write the unsigned copy of 02"
mkdir -p "$NB_TMP/profile"

NOTEBOOK_DIR="$NB_NOTEBOOKS" COMMITTED_DIR="$root/notebooks" \
	SCREENSHOTS="${SCREENSHOTS:-$here/screenshots}" CHROMIUM="$chromium" PROFILE_DIR="$NB_TMP/profile" \
	NOTEBOOKS="$*" node "$here/notebooks.js"
rc=$?
if [ $rc != 0 ]; then
	echo "--- the end of Jupyter's log:"
	tail -n 30 "$NB_LOG"
fi
exit $rc

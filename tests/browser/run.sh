#!/usr/bin/env bash
# Runs the tutorial notebooks in Jupyter Notebook 6 in headless Chromium
# (tests/browser/notebooks.js, driven by playwright-core): a server on
# 127.0.0.1 with a token serves a temporary copy of notebooks/, with the
# gobayes kernelspec installed into a temporary prefix and HOME and the
# Jupyter directories isolated, so neither the committed notebooks nor the
# user's Jupyter setup play any part.
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
py=/usr/bin/python3

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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gobayes-browser.XXXXXX")
server=""
cleanup() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$bin" install --prefix "$tmp/prefix" >/dev/null || fail "gobayes install --prefix failed"
mkdir -p "$tmp/home" "$tmp/notebooks" "$tmp/profile"
cp "$root"/notebooks/*.ipynb "$tmp/notebooks/"
export HOME="$tmp/home"
export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_DATA_DIR="$tmp/data" JUPYTER_RUNTIME_DIR="$tmp/runtime"
export JUPYTER_CONFIG_DIR="$tmp/config" IPYTHONDIR="$tmp/ipython"
export PYDEVD_DISABLE_FILE_VALIDATION=1

port=$($py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$($py -c 'import secrets; print(secrets.token_hex(24))')
asroot=""
[ "$(id -u)" = 0 ] && asroot=--allow-root
"$jupyter" notebook --ip=127.0.0.1 --port="$port" --port-retries=0 --no-browser $asroot \
	--notebook-dir="$tmp/notebooks" --NotebookApp.token="$token" \
	>"$tmp/jupyter.log" 2>&1 &
server=$!

JUPYTER_URL="http://127.0.0.1:$port" JUPYTER_TOKEN="$token" \
	NOTEBOOK_DIR="$tmp/notebooks" COMMITTED_DIR="$root/notebooks" \
	SCREENSHOTS="${SCREENSHOTS:-$here/screenshots}" CHROMIUM="$chromium" PROFILE_DIR="$tmp/profile" \
	NOTEBOOKS="$*" node "$here/notebooks.js"
rc=$?
if [ $rc != 0 ]; then
	echo "--- the end of Jupyter's log:"
	tail -n 30 "$tmp/jupyter.log"
fi
exit $rc

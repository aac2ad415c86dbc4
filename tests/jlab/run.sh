#!/usr/bin/env bash
# Drives the gobayes kernel with JupyterLab's client library,
# @jupyterlab/services, from Node (tests/jlab/services.js) through Jupyter
# Notebook 6's server, started as tests/browser does (tests/notebook-server.sh):
# on 127.0.0.1 with a token, the kernelspec in a temporary prefix, HOME and
# the Jupyter directories isolated.
#
#   tests/jlab/run.sh    (make test-jlab builds, installs and runs it)
#
# Ends with "N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${GOBAYES_BIN:-$root/bin/gobayes}
jupyter=${JUPYTER:-/usr/bin/jupyter}

fail() {
	echo "tests/jlab: $*"
	echo "0 passed, 1 failed"
	exit 1
}
[ -x "$bin" ] || fail "$bin is missing; run make build first"
command -v node >/dev/null || fail "node is missing; make deps installs Debian's nodejs and npm"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 18 ] ||
	fail "@jupyterlab/services needs Node.js 18 or later (for fetch); this is $(node --version)"
[ -x "$jupyter" ] || fail "$jupyter is missing; make deps installs Debian's jupyter-notebook"
[ -f "$here/node_modules/@jupyterlab/services/package.json" ] ||
	fail "@jupyterlab/services is missing; make test-jlab installs it (npm ci in tests/jlab)"

. "$root/tests/notebook-server.sh"
notebook_server_start jlab "$bin" "$jupyter" || fail "could not start Jupyter Notebook"

node "$here/services.js"
rc=$?
if [ $rc != 0 ]; then
	echo "--- the end of Jupyter's log:"
	tail -n 30 "$NB_LOG"
fi
exit $rc

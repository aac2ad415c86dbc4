#!/usr/bin/env bash
# Runs the real-client tests of the gobayes kernel: jupyter_kernel_test,
# jupyter_client robustness cases, a notebook through nbclient and one cell
# through jupyter console. The kernelspec is installed into a temporary
# prefix (JUPYTER_PATH), so the user's Jupyter setup plays no part.
#
#   tests/jupyter/run.sh [-k PATTERN]     (bin/gobayes must be built; make test-jupyter does both)
#
# Ends with "N passed, M failed"; exits non-zero when anything failed or was skipped.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${GOBAYES_BIN:-$root/bin/gobayes}
if [ ! -x "$bin" ]; then
	echo "tests/jupyter: $bin is missing; run make build first"
	echo "0 passed, 1 failed"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gobayes-jupyter-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin" install --prefix "$tmp/prefix" >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_DATA_DIR="$tmp/data" JUPYTER_RUNTIME_DIR="$tmp/runtime"
export JUPYTER_CONFIG_DIR="$tmp/config" IPYTHONDIR="$tmp/ipython"
export GOBAYES_ROOT="$root" GOBAYES_BIN="$bin" GOBAYES_TEST_TMP="$tmp"
export PYDEVD_DISABLE_FILE_VALIDATION=1
cd "$root/tests/jupyter" && exec /usr/bin/python3 -X frozen_modules=off runner.py "$@"

# Starts Jupyter Notebook 6's server for a test that drives the gobayes
# kernel through it, isolated from the user's Jupyter setup: the server
# listens on 127.0.0.1 with a fresh token and serves an empty temporary
# directory, the gobayes kernelspec is installed into a temporary prefix,
# and HOME and the Jupyter directories point into the same temporary
# directory. Sourced by tests/browser/run.sh and tests/jlab/run.sh:
#
#   . tests/notebook-server.sh
#   notebook_server_start NAME BIN JUPYTER || fail "..."
#
# NAME names the temporary directory; BIN is the gobayes binary; JUPYTER is
# the jupyter command (Debian's /usr/bin/jupyter). On success it exports
# JUPYTER_URL and JUPYTER_TOKEN and sets NB_TMP (the temporary directory),
# NB_NOTEBOOKS (the directory served: $NB_TMP/notebooks) and NB_LOG (the
# server's log). An EXIT trap stops the server and removes $NB_TMP; the
# caller waits for the server to answer (GET /api/status) itself. On
# failure it prints why and returns 1.

NB_TMP=""
NB_SERVER=""

notebook_server_stop() {
	if [ -n "$NB_SERVER" ]; then
		kill "$NB_SERVER" 2>/dev/null
		wait "$NB_SERVER" 2>/dev/null
		NB_SERVER=""
	fi
	if [ -n "$NB_TMP" ]; then
		rm -rf "$NB_TMP"
		NB_TMP=""
	fi
}

notebook_server_start() {
	local name=$1 bin=$2 jupyter=$3 py=/usr/bin/python3 port token asroot=""
	NB_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gobayes-$name.XXXXXX") || { echo "mktemp failed"; return 1; }
	trap notebook_server_stop EXIT
	trap 'exit 130' INT TERM

	"$bin" install --prefix "$NB_TMP/prefix" >/dev/null || { echo "gobayes install --prefix failed"; return 1; }
	NB_NOTEBOOKS=$NB_TMP/notebooks
	NB_LOG=$NB_TMP/jupyter.log
	mkdir -p "$NB_TMP/home" "$NB_NOTEBOOKS"
	export HOME="$NB_TMP/home"
	export JUPYTER_PATH="$NB_TMP/prefix/share/jupyter"
	export JUPYTER_DATA_DIR="$NB_TMP/data" JUPYTER_RUNTIME_DIR="$NB_TMP/runtime"
	export JUPYTER_CONFIG_DIR="$NB_TMP/config" IPYTHONDIR="$NB_TMP/ipython"
	export PYDEVD_DISABLE_FILE_VALIDATION=1
	# The widget front-end (Debian's jupyter-nbextension-jupyter-js-widgets)
	# is enabled in /etc/jupyter; enable it here too, so the isolated server
	# loads it whatever the system's configuration says.
	mkdir -p "$JUPYTER_CONFIG_DIR/nbconfig"
	echo '{"load_extensions": {"jupyter-js-widgets/extension": true}}' >"$JUPYTER_CONFIG_DIR/nbconfig/notebook.json"

	port=$($py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') ||
		{ echo "no free port"; return 1; }
	token=$($py -c 'import secrets; print(secrets.token_hex(24))')
	[ "$(id -u)" = 0 ] && asroot=--allow-root
	"$jupyter" notebook --ip=127.0.0.1 --port="$port" --port-retries=0 --no-browser $asroot \
		--notebook-dir="$NB_NOTEBOOKS" --NotebookApp.token="$token" \
		>"$NB_LOG" 2>&1 &
	NB_SERVER=$!
	export JUPYTER_URL="http://127.0.0.1:$port" JUPYTER_TOKEN="$token"
}

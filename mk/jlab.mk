# jlab: the kernel driven by JupyterLab's client library, @jupyterlab/services
# (tests/jlab), from Node through Jupyter Notebook 6's server, started as
# tests/browser starts it (tests/notebook-server.sh): the handshake, streams,
# rich results, errors, display updates, completion, inspection,
# is_complete, history, standard input, comms, interrupt, restart, shutdown.
# Debian's nodejs comes from DEB_PACKAGES; @jupyterlab/services from npm,
# pinned by tests/jlab/package-lock.json.

JLAB_TESTS := tests/jlab
# npm ci rewrites node_modules/.package-lock.json: it stands for the install.
JLAB_MODULES := $(JLAB_TESTS)/node_modules/.package-lock.json

TEST_TARGETS += test-jlab

.PHONY: test-jlab

# Ends with "N passed, M failed".
test-jlab: build $(JLAB_MODULES)
	$(JLAB_TESTS)/run.sh

$(JLAB_MODULES): $(JLAB_TESTS)/package.json $(JLAB_TESTS)/package-lock.json
	@command -v npm >/dev/null || { echo "test-jlab: npm is missing; make deps installs Debian's nodejs and npm"; exit 1; }
	cd $(JLAB_TESTS) && npm ci --no-audit --no-fund

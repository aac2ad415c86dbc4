# kernel: install the kernelspec, run Jupyter on the notebooks, the
# real-client tests (tests/jupyter) and the kernel benchmark (bench/kernel).

# The terminal test of jupyter console runs it under tmux.
DEB_EXTRA += tmux
JUPYTER ?= /usr/bin/jupyter
# Where `make run` serves Jupyter.
PORT ?= 8888

TEST_TARGETS += test-jupyter

.PHONY: install-kernel test-jupyter bench-kernel

# Writes the kernelspec "gobayes" into the user's Jupyter data directory,
# and marks the tutorials trusted for this user's Jupyter: Notebook shows an
# untrusted notebook's SVG, JavaScript and styles not at all (the model
# graph falls back to text, the progress bars and red flags vanish), and
# the tutorials' outputs are the project's own (make refresh-notebooks).
install-kernel: build
	$(BIN) install --user
	@$(PY) -m nbformat.sign notebooks/*.ipynb >/dev/null && echo "gobayes: the tutorials in notebooks/ are trusted"

# Starts Jupyter Notebook on the tutorial notebooks, on this machine only.
run: deps build install-kernel
	@token=$$($(PY) -c 'import secrets; print(secrets.token_hex(24))'); \
	root=""; [ "$$(id -u)" = 0 ] && root=--allow-root; \
	echo; \
	echo "  gobayes: Jupyter is starting. Open this URL in your browser:"; \
	echo; \
	echo "      http://127.0.0.1:$(PORT)/tree?token=$$token"; \
	echo; \
	echo "  Pick the kernel \"Go (gobayes)\" for new notebooks. Stop with Ctrl-C."; \
	echo; \
	exec $(JUPYTER) notebook --ip=127.0.0.1 --port=$(PORT) --port-retries=0 --no-browser \
		--notebook-dir=notebooks --NotebookApp.token=$$token $$root

# Jupyter clients against the built kernel: jupyter_kernel_test, jupyter_client,
# nbclient on notebooks/, jupyter console. Ends with "N passed, M failed".
test-jupyter: build
	tests/jupyter/run.sh

# Start time and 1+1 round trip of gobayes against Debian's ipykernel.
bench-kernel: build
	$(PY) bench/kernel/bench.py

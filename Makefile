# gobayes — the two commands a newcomer runs are `make run` and `make test`.
# Areas add their own targets in mk/*.mk and append to TEST_TARGETS.

SHELL := /bin/bash
GO ?= go
# Debian's Python: the python3 on PATH may not see Debian's Jupyter packages.
PY := /usr/bin/python3
BIN := $(CURDIR)/bin/gobayes
export GOFLAGS := -buildvcs=false

# npm comes with Node.js from NodeSource; Debian's nodejs needs Debian's npm
# (which would conflict with NodeSource's, so only when npm is missing).
DEB_NPM := $(if $(shell command -v npm),,npm)

# Debian packages the project needs (installed by `make deps` when missing).
DEB_PACKAGES := python3 python3-jupyter-client python3-jupyter-kernel-test \
	python3-nbclient python3-nbformat python3-nbconvert python3-ipykernel \
	jupyter-notebook python3-notebook jupyter-console xz-utils \
	python3-xarray python3-zarr chromium nodejs $(DEB_NPM) \
	python3-ipywidgets jupyter-nbextension-jupyter-js-widgets

TEST_TARGETS := test-go

.PHONY: all build deps run test test-go vet generate clean
all: build

include $(sort $(wildcard mk/*.mk))

build:
	@mkdir -p bin
	$(GO) build -o $(BIN) ./cmd/gobayes

# Installs what is missing: Debian's packages (as root, or through sudo).
deps:
	@need=$$(sed -n 's/^go //p' go.mod); \
	command -v $(GO) >/dev/null || { echo "gobayes needs Go $$need or later on PATH (https://go.dev/dl/)"; exit 1; }; \
	have=$$(GOTOOLCHAIN=local $(GO) env GOVERSION | sed 's/^go//'); \
	if [ "$$(printf '%s\n%s\n' "$$need" "$$have" | sort -V | head -n1)" != "$$need" ]; then \
	  echo "gobayes needs Go $$need or later (go.mod says so); this machine has Go $$have: install Go $$need from https://go.dev/dl/ (a newer toolchain cannot be fetched offline)"; exit 1; \
	fi
	@missing=""; for p in $(DEB_PACKAGES) $(DEB_EXTRA); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends $$missing; \
	fi

vet:
	$(GO) vet ./...

# GOBAYES_REQUIRE_XARRAY: the InferenceData test reads its Zarr store back
# with Debian's xarray (installed by deps) instead of skipping without it;
# GOBAYES_REQUIRE_CLANG: the generated CUDA is compiled to PTX by clang-14
# (installed by deps, see mk/accel.mk) instead of skipping without it.
test-go:
	$(GO) vet ./...
	GOBAYES_REQUIRE_XARRAY=1 GOBAYES_REQUIRE_CLANG=1 $(GO) test -count=1 ./...

# -k: every area's tests run even when an earlier one fails; the exit status
# still says whether all passed.
test: deps
	@$(MAKE) -k --no-print-directory $(TEST_TARGETS)

clean:
	rm -rf bin

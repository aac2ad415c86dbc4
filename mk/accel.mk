# accel: the CUDA worker (needs the CUDA toolkit: nvcc/NVRTC headers and
# libcuda) and the backend benchmarks. `make test` already runs the
# conformance suite of accel/cpu and of the generated CUDA C compiled with
# gcc (go test ./accel/...).
CUDA_WORKER := $(CURDIR)/bin/gobayes-cuda

# clang's CUDA front end compiles the generated CUDA to PTX in the tests
# (accel/cuda/cgen TestCompilesAsCUDA): the CUDA device-code rules are
# checked without a GPU or the CUDA SDK.
DEB_EXTRA += clang-14

.PHONY: cuda bench-accel vet-cuda generate-opdef
generate: generate-opdef

# The code derived from the op definitions of accel/opdef (cmd/genops;
# `go test ./cmd/genops` fails while it is stale).
generate-opdef:
	$(GO) generate ./accel/opdef

# Builds the GPU worker that accel starts for the "cuda" backend; the main
# binary finds it beside itself (bin/) or through GOBAYES_CUDA_WORKER.
cuda:
	@mkdir -p bin
	$(GO) build -tags cuda -o $(CUDA_WORKER) ./cmd/gobayes-cuda

# Batch evaluation per position: accel/cpu against the ir.Frame loop.
bench-accel:
	$(GO) test -run '^$$' -bench Batch -benchtime 200ms ./accel/cpu

# Type-checks and vets the cuda-tagged code without the CUDA toolkit:
# gorgonia.org/cu is replaced by the signature stand-in accel/cuda/custub
# through a temporary go.work (go.mod is untouched).
vet-cuda:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  printf 'go %s\n\nuse %s\n\nreplace gorgonia.org/cu v0.9.6 => %s/accel/cuda/custub\n' \
	    "$$(sed -n 's/^go //p' go.mod)" "$(CURDIR)" "$(CURDIR)" > $$tmp/go.work && \
	  GOWORK=$$tmp/go.work $(GO) vet -tags cuda ./accel/cuda/... ./cmd/gobayes-cuda ./ppl/lockstep && \
	  GOWORK=$$tmp/go.work $(GO) build -tags cuda -o /dev/null ./cmd/gobayes-cuda && \
	  echo "vet-cuda: accel/cuda and the worker type-check against the cu v0.9.6 signatures"

# The pack for the lent GPU machine (accel/cuda/GPU.md).
.PHONY: devpack
devpack:
	accel/cuda/device-run.sh pack

# Checks the pack here: its size (device-run.sh fails over 48 MiB) and that
# the unpacked toolchain, alone and with an empty cache, builds the GPU
# worker from the vendored modules (gorgonia.org/cu replaced by the
# signature stand-in accel/cuda/custub: cu needs cuda.h).
.PHONY: test-devpack
TEST_TARGETS += test-devpack
test-devpack:
	@tmp=$$(mktemp -d) && trap 'rm -rf $$tmp' EXIT && \
	  DEVPACK=$$tmp/pack accel/cuda/device-run.sh pack $$tmp/pack >/dev/null && du -sh $$tmp/pack && \
	  mkdir -p $$tmp/go $$tmp/repo && xz -dc $$tmp/pack/go.tar.xz | tar -C $$tmp/go -xf - && \
	  git ls-files -co --exclude-standard | tar -cf - -T - | tar -C $$tmp/repo -xf - && \
	  xz -dc $$tmp/pack/vendor.tar.xz | tar -C $$tmp/repo -xf - && \
	  rm -rf $$tmp/repo/vendor/gorgonia.org/cu/* && cp accel/cuda/custub/cu.go $$tmp/repo/vendor/gorgonia.org/cu/ && \
	  mkdir -p $$tmp/repo/vendor/gorgonia.org/cu/nvrtc && cp accel/cuda/custub/nvrtc/*.go $$tmp/repo/vendor/gorgonia.org/cu/nvrtc/ && \
	  cd $$tmp/repo && start=$$(date +%s) && \
	  env -i HOME=$$tmp PATH=$$tmp/go/go/bin:/usr/bin:/bin GOROOT=$$tmp/go/go GOTOOLCHAIN=local GOPROXY=off \
	    GOFLAGS="-mod=vendor -buildvcs=false" GOCACHE=$$tmp/cache GOPATH=$$tmp/gopath \
	    go build -tags cuda -o $$tmp/gobayes-cuda ./cmd/gobayes-cuda && \
	  echo "test-devpack: the packed toolchain built the GPU worker in $$(( $$(date +%s) - start )) s"

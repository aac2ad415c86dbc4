# accel: the CUDA worker (needs the CUDA toolkit: nvcc/NVRTC headers and
# libcuda) and the backend benchmarks. `make test` already runs the
# conformance suite of accel/cpu and of the generated CUDA C compiled with
# gcc (go test ./accel/...).
CUDA_WORKER := $(CURDIR)/bin/gobayes-cuda

.PHONY: cuda bench-accel vet-cuda

# Builds the GPU worker that accel starts for the "cuda" backend; the main
# binary finds it beside itself (bin/) or through GOBAYES_CUDA_WORKER.
cuda:
	@mkdir -p bin
	$(GO) build -tags cuda -o $(CUDA_WORKER) ./accel/cuda/worker

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
	  GOWORK=$$tmp/go.work $(GO) vet -tags cuda ./accel/cuda/... && \
	  GOWORK=$$tmp/go.work $(GO) build -tags cuda -o /dev/null ./accel/cuda/worker && \
	  echo "vet-cuda: accel/cuda and the worker type-check against the cu v0.9.6 signatures"

# The pack for the lent GPU machine (accel/cuda/GPU.md).
.PHONY: devpack
devpack:
	accel/cuda/device-run.sh pack

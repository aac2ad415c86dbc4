# accel: the CUDA worker (needs the CUDA toolkit: nvcc/NVRTC headers and
# libcuda) and the backend benchmarks. `make test` already runs the
# conformance suite of accel/cpu and of the generated CUDA C compiled with
# gcc (go test ./accel/...).
CUDA_WORKER := $(CURDIR)/bin/gobayes-cuda

.PHONY: cuda bench-accel

# Builds the GPU worker that accel starts for the "cuda" backend; the main
# binary finds it beside itself (bin/) or through GOBAYES_CUDA_WORKER.
cuda:
	@mkdir -p bin
	$(GO) build -tags cuda -o $(CUDA_WORKER) ./accel/cuda/worker

# Batch evaluation per position: accel/cpu against the ir.Frame loop.
bench-accel:
	$(GO) test -run '^$$' -bench Batch -benchtime 200ms ./accel/cpu

package ppl_test

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/ppl"
)

// m.Sample(ppl.NUTS(), ppl.Backend("cuda")) runs NUTS where the device
// is: through the worker's protocol, each segment of iterations one call,
// every chain's trees and adaptation in the device's kernel. The worker
// here is cmd/gobayes-worker serving the generated CUDA C built by gcc
// (-gcc), the GPU's kernels on this CPU; the caption says where NUTS ran
// and the posterior is the model's. Without a worker the request is a
// one-line error, and "auto" keeps NUTS on the CPU.
func TestNUTSOnDeviceThroughWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a worker")
	}
	t.Setenv("GOBAYES_ACCEL", "")
	t.Setenv("GOBAYES_CUDA_WORKER", "")
	accel.Forget()
	defer accel.Forget()
	_, err := trySample(normalModel(), ppl.NUTS(), ppl.Backend("cuda"), ppl.LiveProgress(false))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "worker was not found") {
		t.Errorf("NUTS on cuda without a worker: error %q, want one line saying the worker was not found", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "worker")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gobayes/gobayes/cmd/gobayes-worker").CombinedOutput(); err != nil {
		t.Fatalf("building the stand-in worker: %v\n%s", err, out)
	}
	script := filepath.Join(dir, "worker-gcc")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec "+bin+" -gcc \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOBAYES_CUDA_WORKER", script)
	accel.Forget()
	fit, err := trySample(normalModel(), ppl.NUTS(), ppl.Backend("cuda"), ppl.Chains(4), ppl.Warmup(300), ppl.Draws(500),
		ppl.Seed(3), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fit.Backend, "NUTS on the device") || !strings.HasPrefix(fit.Backend, "cuda (the generated CUDA C built by gcc") {
		t.Errorf("backend caption %q, want one saying NUTS ran on the device", fit.Backend)
	}
	if fit.Sampler != "NUTS" || len(fit.Chains) != 4 || fit.Chains[0].Stats.TreeDepth == nil {
		t.Fatalf("%s with %d chains (tree depths %v), want NUTS's 4", fit.Sampler, len(fit.Chains), fit.Chains[0].Stats.TreeDepth != nil)
	}
	for _, r := range fit.Summary().Rows {
		if math.Abs(r.Mean-1) > 0.4 || math.Abs(r.SD-2) > 0.4 {
			t.Errorf("NUTS on the device: %s mean %.3f sd %.3f, want 1 and 2", r.Name, r.Mean, r.SD)
		}
	}
	// "auto" keeps NUTS on the CPU even with a worker: no crossover has
	// been measured on a GPU.
	fit, err = trySample(normalModel(), ppl.NUTS(), ppl.Backend("auto"), ppl.Chains(4), ppl.Warmup(50), ppl.Draws(50),
		ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if fit.Backend != "" {
		t.Errorf("auto, NUTS with a worker: backend %q, want the CPU's (empty)", fit.Backend)
	}
}

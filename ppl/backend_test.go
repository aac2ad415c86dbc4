package ppl_test

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func normalModel() *ppl.Model {
	m := ppl.NewModel("n")
	m.Normal("x", 1, 2, ppl.Size(3))
	return m
}

func trySample(m *ppl.Model, opts ...ppl.SampleOption) (fit *posterior.Posterior, err error) {
	defer ppl.Catch(&err)
	return m.Sample(opts...), nil
}

// Asking for the GPU where there is none is an error that says what is
// missing, never a silent run on the CPU; so is a sampler that has no GPU
// path, or a backend name that does not exist.
func TestBackendErrors(t *testing.T) {
	t.Setenv("GOBAYES_CUDA_WORKER", "")
	t.Setenv("GOBAYES_ACCEL", "")
	t.Setenv("PATH", "/nonexistent")
	accel.Forget()
	defer accel.Forget()
	for _, c := range []struct {
		opts []ppl.SampleOption
		want string
	}{
		{[]ppl.SampleOption{ppl.ChEES(), ppl.Backend("cuda")}, "worker was not found"},
		{[]ppl.SampleOption{ppl.ChEES(), ppl.Backend("cuda")}, "make cuda"},
		{[]ppl.SampleOption{ppl.Backend("cuda")}, "worker was not found"},
		{[]ppl.SampleOption{ppl.ChEES(), ppl.Backend("tpu")}, `ppl.Backend("tpu"): unknown backend`},
	} {
		_, err := trySample(normalModel(), append(c.opts, ppl.Draws(10), ppl.Warmup(10), ppl.LiveProgress(false))...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	t.Setenv("GOBAYES_ACCEL", "cuda")
	_, err := trySample(normalModel(), ppl.ChEES(), ppl.Draws(10), ppl.Warmup(10), ppl.LiveProgress(false))
	if err == nil || !strings.Contains(err.Error(), `GOBAYES_ACCEL("cuda")`) {
		t.Errorf("GOBAYES_ACCEL=cuda without a worker: error %v, want one naming GOBAYES_ACCEL", err)
	}
	// "auto" without a worker is the CPU, and says so.
	t.Setenv("GOBAYES_ACCEL", "")
	fit, err := trySample(normalModel(), ppl.ChEES(), ppl.Chains(1024), ppl.Draws(10), ppl.Warmup(10), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if fit.Backend != "" {
		t.Errorf("auto without a GPU: backend %q, want the CPU's (empty)", fit.Backend)
	}
}

// ppl.Backend("cuda") runs the whole remote path: the worker process
// started by accel/remote, the contract's Leapfrog for each trajectory.
// The worker here is cmd/gobayes-worker, which serves accel/cpu (the
// stand-in every machine can run); on a GPU machine it is
// bin/gobayes-cuda. The posterior is the model's.
func TestBackendThroughWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a worker")
	}
	bin := filepath.Join(t.TempDir(), "worker")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gobayes/gobayes/cmd/gobayes-worker").CombinedOutput(); err != nil {
		t.Fatalf("building the stand-in worker: %v\n%s", err, out)
	}
	t.Setenv("GOBAYES_CUDA_WORKER", bin)
	t.Setenv("GOBAYES_ACCEL", "")
	accel.Forget()
	defer accel.Forget()
	for _, opt := range []ppl.SampleOption{ppl.ChEES(), ppl.MEADS()} {
		fit, err := trySample(normalModel(), opt, ppl.Backend("cuda"), ppl.Chains(256), ppl.Seed(3), ppl.LiveProgress(false))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(fit.Backend, "cuda (accel/cpu in a worker process)") {
			t.Errorf("backend caption %q", fit.Backend)
		}
		if s := fit.Summary().String(); !strings.Contains(s, "on cuda (accel/cpu in a worker process)") {
			t.Errorf("summary caption does not say where it ran:\n%s", s)
		}
		e := fit.Ensemble
		for j := range e.Mean {
			if math.Abs(e.Mean[j]-1) > 0.05 || math.Abs(e.SD[j]-2) > 0.05 {
				t.Errorf("%s x[%d]: mean %.3f sd %.3f over all chains, want 1 and 2", fit.Sampler, j, e.Mean[j], e.SD[j])
			}
		}
	}
	// NUTS goes through the same contract, one position per call.
	fit, err := trySample(normalModel(), ppl.Backend("cuda"), ppl.Chains(2), ppl.Warmup(300), ppl.Draws(400), ppl.Seed(3), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fit.Backend, "cuda (accel/cpu in a worker process), one position per call (NUTS") {
		t.Errorf("NUTS backend caption %q", fit.Backend)
	}
	for _, r := range fit.Summary().Rows {
		if math.Abs(r.Mean-1) > 0.4 || math.Abs(r.SD-2) > 0.4 {
			t.Errorf("NUTS through the worker: %s mean %.3f sd %.3f, want 1 and 2", r.Name, r.Mean, r.SD)
		}
	}
	// "auto" picks the worker for a wide run.
	fit, err = trySample(normalModel(), ppl.ChEES(), ppl.Chains(accel.GPUMinChains), ppl.Draws(50), ppl.Warmup(50), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fit.Backend, fmt.Sprintf("(auto: %d chains", accel.GPUMinChains)) {
		t.Errorf("auto with a worker and %d chains: backend %q", accel.GPUMinChains, fit.Backend)
	}
	// ChEES and RWMH run whole iterations on a GPU: auto takes it from
	// GPUMinChainsWhole chains and says why; MEADS waits for GPUMinChains.
	n := accel.GPUMinChainsWhole
	fit, err = trySample(normalModel(), ppl.RWMH(), ppl.Chains(n), ppl.Draws(20), ppl.Warmup(20), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fit.Backend, fmt.Sprintf("(auto: %d chains", n)) || !strings.Contains(fit.Backend, "whole iterations on the GPU") {
		t.Errorf("auto, RWMH with %d chains: backend %q", n, fit.Backend)
	}
	fit, err = trySample(normalModel(), ppl.MEADS(), ppl.Chains(n), ppl.Draws(20), ppl.Warmup(20), ppl.LiveProgress(false))
	if err != nil {
		t.Fatal(err)
	}
	if fit.Backend != "" {
		t.Errorf("auto, MEADS with %d chains: backend %q, want the CPU's", n, fit.Backend)
	}
}

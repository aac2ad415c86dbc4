package lockstep_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// NUTS on a backend that runs it (the generated CUDA C's nuts.cu, built
// by gcc and driven by cgen.NUTS through the process's device commands,
// as accel/cuda drives a GPU) gives the CPU's lockstep NUTS draws: the
// same trees from the same streams, each chain's dual averaging, windows,
// metric and step-size heuristic in the same arithmetic, one call per
// segment of iterations.
func TestNUTSDeviceSameDraws(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the generated C")
	}
	for _, tc := range []struct {
		name                  string
		model                 *ppl.Compiled
		chains, warmup, draws int
		depth                 int
	}{
		// 24 warm-up iterations: Stan's windows shrink to 3/19/2, one slow
		// window with its metric and heuristic.
		{"eight schools", eightSchools(t), 6, 24, 16, 10},
		{"scaled, depth 4", scaled(t), 5, 30, 20, 4},
		{"eight schools, no warm-up", eightSchools(t), 4, 0, 40, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := lockstep.Config{Sampler: infer.NUTS, Chains: tc.chains, Keep: 3, Warmup: tc.warmup, NoWarmup: tc.warmup == 0,
				Draws: tc.draws, Seed: 5, MaxDepth: tc.depth}
			cpu, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cb := &iteratingBackend{Backend: cgen.NewGCC()}
			if tc.name == "scaled, depth 4" {
				// Through the worker's protocol (accel/remote), as the CUDA
				// worker serves it.
				cb.Backend = pipedGCC(t)
			}
			cfg.Backend = cb
			dev, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if cb.segments == 0 || cb.segments > (tc.warmup+tc.draws)/5 {
				t.Errorf("the device ran %d segments for %d iterations; want one call per segment", cb.segments, tc.warmup+tc.draws)
			}
			// Without warm-up the draws agree to the gradients' rounding;
			// dual averaging amplifies that rounding (and the C library's
			// exp, log1p and pow against Go's) by orders of magnitude over
			// a warm-up of a few dozen iterations, which the trees' step
			// counts, equal below, do not notice.
			tol := 1e-6
			if tc.warmup == 0 {
				tol = 1e-12
			}
			worst, _ := compareKept(t, cpu.Posterior, dev.Posterior, tol)
			if worst > tol {
				t.Errorf("kept draws and statistics differ by %.3g (relative); want ≤ %g", worst, tol)
			}
			pc, pd := cpu.Posterior, dev.Posterior
			for k := range pc.Chains {
				sc, sd := pc.Chains[k].Stats, pd.Chains[k].Stats
				for i := range sc.TreeDepth {
					if sc.TreeDepth[i] != sd.TreeDepth[i] || sc.NLeapfrog[i] != sd.NLeapfrog[i] || sc.Divergent[i] != sd.Divergent[i] {
						t.Fatalf("chain %d draw %d: depth %d, %d steps, divergent %v on the CPU; %d, %d, %v on the device", k, i,
							sc.TreeDepth[i], sc.NLeapfrog[i], sc.Divergent[i], sd.TreeDepth[i], sd.NLeapfrog[i], sd.Divergent[i])
					}
				}
				ac, ad := pc.Chains[k].Adaptation, pd.Chains[k].Adaptation
				if relErr(ac.StepSize, ad.StepSize) > tol {
					t.Errorf("chain %d: step size %v on the CPU, %v on the device", k, ac.StepSize, ad.StepSize)
				}
				for j := range ac.InvMetric {
					if relErr(ac.InvMetric[j], ad.InvMetric[j]) > tol {
						t.Errorf("chain %d: inverse metric %v on the CPU, %v on the device", k, ac.InvMetric, ad.InvMetric)
						break
					}
				}
			}
			mc, md := cpu.Moments, dev.Moments
			for j := range mc.Mean {
				if relErr(mc.Mean[j], md.Mean[j]) > tol || relErr(mc.Var[j], md.Var[j]) > tol {
					t.Errorf("coordinate %d: all chains' mean and variance %v %v on the CPU, %v %v on the device", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
				}
			}
			if cpu.GradEvals != dev.GradEvals {
				t.Errorf("%d gradients per chain on the CPU, %d on the device", cpu.GradEvals, dev.GradEvals)
			}
			t.Logf("kept draws equal to %.2g; %d device segments; %d gradients per chain", worst, cb.segments, dev.GradEvals)
		})
	}
}

// Over a whole run the device's NUTS and the CPU's part ways (see
// TestNUTSDeviceSameDraws), so the long run is checked by its
// statistics: every coordinate's mean over all chains within a tenth of
// a posterior sd, the variances within 20%, and the adaptation alike
// (step sizes within 25%).
func TestNUTSDeviceLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the generated C")
	}
	m := eightSchools(t)
	cfg := lockstep.Config{Sampler: infer.NUTS, Chains: 16, Keep: 16, Warmup: 500, Draws: 500, Seed: 9}
	cpu, dev := onCPUAndDevice(t, m, cfg, cgen.NewGCC())
	mc, md := cpu.Moments, dev.Moments
	momentsAgree(t, cpu, dev)
	ec, ed := 0.0, 0.0
	for k := range cpu.Posterior.Chains {
		ec += cpu.Posterior.Chains[k].Adaptation.StepSize
		ed += dev.Posterior.Chains[k].Adaptation.StepSize
	}
	if math.Abs(ec-ed) > 0.25*ec {
		t.Errorf("mean step size %.4f on the CPU, %.4f on the device", ec/16, ed/16)
	}
	t.Logf("mu: %.3f ± %.3f (CPU), %.3f ± %.3f (device); step size %.3f, %.3f", mc.Mean[0], math.Sqrt(mc.Var[0]), md.Mean[0],
		math.Sqrt(md.Var[0]), ec/16, ed/16)
}

// An improper posterior (a flat prior and nothing observed) sends the
// step-size heuristic beyond 1e7: the run ends with an error naming the
// chain and the likely cause, the same on the CPU and on the device.
func TestNUTSImproperPosterior(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the generated C")
	}
	m := ppl.NewModel("flat")
	m.Flat("x")
	cm, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cfg := lockstep.Config{Sampler: infer.NUTS, Chains: 3, Warmup: 50, Draws: 50, Seed: 1}
	_, errCPU := lockstep.Run(context.Background(), cm, cfg)
	cfg.Backend = cgen.NewGCC()
	_, errDev := lockstep.Run(context.Background(), cm, cfg)
	for _, err := range []error{errCPU, errDev} {
		if err == nil || !strings.Contains(err.Error(), "chain 1:") || !strings.Contains(err.Error(), "improper") {
			t.Errorf("flat prior: error %v, want one naming chain 1 and an improper posterior", err)
		}
	}
	if errCPU != nil && errDev != nil && errCPU.Error() != errDev.Error() {
		t.Errorf("CPU: %v; device: %v", errCPU, errDev)
	}
}

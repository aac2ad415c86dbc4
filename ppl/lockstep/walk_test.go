package lockstep_test

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/remote"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// RWMH on a backend that walks (the generated CUDA C, compiled by gcc as
// host code and run in its own process: the device's kernel gb_rwmh,
// driven by the same runRWMH through accel.Walk) gives the CPU
// sampler's draws: the same streams, the same acceptances, the same
// adaptation. Warm-up crosses Stan's windows (moments pooled from the
// device), the restart of stragglers and odd segment starts (the
// one-dimensional layout of one block for two steps).
func TestWalkDeviceSameDraws(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH")
	}
	one := func() *ppl.Compiled {
		m := ppl.NewModel("one")
		m.StudentT("x", 4, 1, 2)
		c, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	wide := func() *ppl.Compiled {
		// Past the kernel's GB_WALK_LOCAL_DIM (64): state read in place.
		m := ppl.NewModel("wide")
		m.Normal("z", 0, 1, ppl.Size(70))
		c, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		model *ppl.Compiled
	}{{"one-dimensional", one()}, {"scaled", scaled(t)}, {"eight schools", eightSchools(t)}, {"seventy dimensions", wide()}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := lockstep.Config{Sampler: infer.RWMH, Chains: 37, Keep: 3, Warmup: 310, Draws: 150, Seed: 11}
			cpu, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			cb := &countingBackend{Backend: cgen.NewGCC()}
			if tc.name == "eight schools" {
				// Through the worker's protocol (accel/remote), as the
				// CUDA worker serves it: a round trip per segment.
				cb.Backend = pipedGCC(t)
			}
			cfg.Backend = cb
			dev, err := lockstep.Run(context.Background(), tc.model, cfg)
			if err != nil {
				t.Fatal(err)
			}
			// Segments of 20 steps in warm-up and 100 after, cut at the
			// windows' edges: a few dozen calls, never one per step.
			if cb.walks < 15 || cb.walks > 40 || cb.evals > 2 {
				t.Errorf("the device ran %d walks and %d batch evaluations; want one walk per segment", cb.walks, cb.evals)
			}
			worst, acc := compareKept(t, cpu.Posterior, dev.Posterior, 0)
			pc := cpu.Posterior
			if worst > 1e-12 {
				t.Errorf("kept draws differ by %.3g (relative); want ≤ 1e-12", worst)
			}
			mc, md := cpu.Moments, dev.Moments
			for j := range mc.Mean {
				if relErr(mc.Mean[j], md.Mean[j]) > 1e-12 || relErr(mc.Var[j], md.Var[j]) > 1e-12 {
					t.Errorf("coordinate %d: all chains' mean and variance %v %v on the CPU, %v %v on the device", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
				}
				for c := 0; c < cfg.Chains; c++ {
					if relErr(mc.ChainMean(c, j), md.ChainMean(c, j)) > 1e-12 {
						t.Fatalf("chain %d coordinate %d: mean %v on the CPU, %v on the device", c, j, mc.ChainMean(c, j), md.ChainMean(c, j))
					}
				}
			}
			n := float64(len(pc.Chains) * pc.Draws())
			t.Logf("%d kept draws equal to %.2g; acceptance %.2f; moments of %d chains equal", int(n), worst, acc/n, cfg.Chains)
			if acc == 0 || acc == n {
				t.Errorf("acceptance %v of %v: the comparison saw no choice", acc, n)
			}
		})
	}
}

// countingBackend counts the calls its programs take.
type countingBackend struct {
	accel.Backend
	walks, evals int
}

type countingProgram struct {
	accel.Compiled
	b *countingBackend
}

func (b *countingBackend) Compile(p *ir.Program) (accel.Compiled, error) {
	c, err := b.Backend.Compile(p)
	if err != nil {
		return nil, err
	}
	return &countingProgram{c, b}, nil
}

func (c *countingProgram) LogDensityGrad(xs, lps, grads []float64) error {
	c.b.evals++
	return c.Compiled.LogDensityGrad(xs, lps, grads)
}

func (c *countingProgram) Walks(n int) bool { return c.Compiled.(accel.Walker).Walks(n) }

func (c *countingProgram) Walk(w *accel.Walk) error {
	c.b.walks++
	wk, ok := c.Compiled.(accel.Walker)
	if !ok {
		return fmt.Errorf("the %s backend's program does not walk", c.b.Name())
	}
	return wk.Walk(w)
}

// pipedGCC serves the gcc-built device code behind accel/remote's
// protocol, in memory.
func pipedGCC(t *testing.T) *remote.Client {
	c, stop, err := remote.InProcess(cgen.NewGCC(), "test: gcc behind a pipe")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}

// compareKept compares the kept chains of a CPU run and a device run:
// their shapes, adapted step sizes (to tol, relative), and the draws and
// statistics, returning the largest relative difference and the sum of
// the CPU's acceptance statistics. Step counts, divergences and (for tol
// 0) acceptances must be equal.
func compareKept(t *testing.T, pc, pd *posterior.Posterior, tol float64) (worst, acc float64) {
	t.Helper()
	if len(pd.Chains) != len(pc.Chains) || pd.Draws() != pc.Draws() {
		t.Fatalf("device: %d chains × %d draws; CPU %d × %d", len(pd.Chains), pd.Draws(), len(pc.Chains), pc.Draws())
	}
	for k := range pc.Chains {
		a, b := pc.Chains[k], pd.Chains[k]
		if x, y := a.Adaptation.StepSize, b.Adaptation.StepSize; relErr(x, y) > tol {
			t.Errorf("chain %d: adapted step size %v on the CPU, %v on the device", k, x, y)
		}
		for j := range a.Values {
			for i := range a.Values[j] {
				worst = max(worst, relErr(a.Values[j][i], b.Values[j][i]))
			}
		}
		sa, sb := a.Stats, b.Stats
		for i := range sa.LP {
			worst = max(worst, relErr(sa.LP[i], sb.LP[i]), relErr(sa.AcceptStat[i], sb.AcceptStat[i]))
			if tol == 0 && sa.AcceptStat[i] != sb.AcceptStat[i] {
				t.Fatalf("chain %d draw %d: acceptance %v on the CPU, %v on the device", k, i, sa.AcceptStat[i], sb.AcceptStat[i])
			}
			if sa.Energy != nil {
				worst = max(worst, relErr(sa.Energy[i], sb.Energy[i]))
				if sa.NLeapfrog[i] != sb.NLeapfrog[i] || sa.Divergent[i] != sb.Divergent[i] {
					t.Fatalf("chain %d draw %d: %d steps, divergent %v on the CPU; %d, %v on the device", k, i,
						sa.NLeapfrog[i], sa.Divergent[i], sb.NLeapfrog[i], sb.Divergent[i])
				}
			}
			acc += sa.AcceptStat[i]
		}
	}
	return worst, acc
}

func relErr(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / max(math.Abs(a), math.Abs(b), 1e-300)
}

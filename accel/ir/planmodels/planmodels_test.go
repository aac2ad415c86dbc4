package planmodels_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// wantFused are the models whose programs, as ppl writes them today (the
// fixtures, which the fixture writer's TestFixtures keeps equal to ppl's
// output), the plan is meant to fuse (the benchmark models of issue
// 3): a test failure here means ppl's output changed shape and the fused
// kernels no longer apply — not wrong results, lost speed.
var wantFused = map[string]bool{
	"eight_schools-eight_schools_noncentered": true,
	"sblrc-blr":                  true,
	"kidiq-kidscore_interaction": true,
	"hmm_example-hmm_example":    true,
}

// TestFusedMatchesUnfused evaluates each posteriordb model's log-density
// program (and the simulated logistic regression's; irtest's fixtures) at
// random positions with its execution plan and without it
// (Frame.Unfused): log densities and gradients must agree to 1e-12
// relative (the fused kernels only associate sums differently), and the
// fused evaluation must not allocate.
func TestFusedMatchesUnfused(t *testing.T) {
	models := append(irtest.Fixtures(t, irtest.Posteriordb), irtest.Fixtures(t, irtest.Simulated)...)
	fusedModels := 0
	for _, m := range models {
		name, p := m.Name, m.Program
		t.Run(name, func(t *testing.T) {
			if p.Fused() > 0 {
				fusedModels++
			} else if wantFused[name] {
				t.Errorf("the execution plan fuses nothing in\n%v", p)
			}
			fused, plain := ir.NewFrame(p), ir.NewFrame(p)
			plain.Unfused = true
			g, gp := make([]float64, p.Dim), make([]float64, p.Dim)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			x := make([]float64, p.Dim)
			for trial := range 5 {
				for i := range x {
					x[i] = rng.Float64()*2 - 1
				}
				lp, lpp := fused.Gradient(x, g), plain.Gradient(x, gp)
				if !agree(lp, lpp) {
					t.Errorf("trial %d: log density %.17g fused, %.17g unfused", trial, lp, lpp)
				}
				scale := 0.0
				for _, v := range gp {
					scale = math.Max(scale, math.Abs(v))
				}
				for i := range g {
					// Relative to the component, with a floor relative to
					// the whole gradient for components that cancel to
					// near zero.
					if d := math.Abs(g[i] - gp[i]); !(d <= 1e-12*math.Max(math.Abs(gp[i]), 1e-3*scale) || g[i] == gp[i]) {
						t.Errorf("trial %d: gradient[%d] %.17g fused, %.17g unfused", trial, i, g[i], gp[i])
					}
				}
			}
			if n := testing.AllocsPerRun(10, func() { fused.Gradient(x, g) }); n != 0 {
				t.Errorf("fused Gradient allocates %v times per call, want 0", n)
			}
		})
	}
	if fusedModels == 0 {
		t.Error("no posteriordb model has a fused kernel: the comparison checked nothing")
	}
}

// agree reports equal values, or relative difference at most 1e-12.
func agree(a, b float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

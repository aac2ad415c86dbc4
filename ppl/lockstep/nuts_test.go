package lockstep

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/ppl/mcmc"
)

// mathRand draws a transition's numbers from math/rand as ppl/mcmc does.
type mathRand struct{ r *rand.Rand }

func (m mathRand) Normal() float64  { return m.r.NormFloat64() }
func (m mathRand) Uniform() float64 { return m.r.Float64() }

// The iterative transition is ppl/mcmc's recursive NUTS (whose trees
// TestNUTSTreeMatchesReference checks against the definition): fed the
// same random numbers, every transition ends at the same point to the
// bit, with the same tree depth, leapfrog count, acceptance statistic,
// divergence and energy, over targets and step sizes that stop trees by
// U-turns inside subtrees, across their joins, at the maximum depth and
// by divergences. A wrong checkpoint, a missing join check or a
// multinomial draw out of order changes the draws.
func TestNUTSTreeSameAsMCMC(t *testing.T) {
	gauss := func(scales []float64) func(q, g []float64) float64 {
		return func(q, g []float64) float64 {
			lp := 0.0
			for i, s := range scales {
				g[i] = -q[i] / (s * s)
				lp -= 0.5 * q[i] * q[i] / (s * s)
			}
			return lp
		}
	}
	// Neal's funnel: v ~ N(0, 3), x_i ~ N(0, e^{v/2}).
	funnel := func(q, g []float64) float64 {
		v := q[0]
		lp := -v * v / 18
		g[0] = -v / 9
		for i := 1; i < len(q); i++ {
			e := math.Exp(-v)
			lp += -0.5*q[i]*q[i]*e - 0.5*v
			g[i] = -q[i] * e
			g[0] += 0.5*q[i]*q[i]*e - 0.5
		}
		return lp
	}
	for _, tc := range []struct {
		name     string
		f        func(q, g []float64) float64
		x0, invM []float64
		eps      float64
		maxDepth int
	}{
		{"gaussian", gauss([]float64{1, 3, 0.4}), []float64{0.5, -1, 0.2}, []float64{1, 1, 1}, 0.2, 10},
		{"gaussian, metric", gauss([]float64{1, 3, 0.4}), []float64{0.5, -1, 0.2}, []float64{1, 9, 0.16}, 0.7, 10},
		{"gaussian, depth 3", gauss([]float64{1, 30, 0.4}), []float64{0.5, -1, 0.2}, []float64{1, 1, 1}, 0.3, 3},
		{"gaussian, divergent", gauss([]float64{1, 3, 0.05}), []float64{0.5, -1, 0.02}, []float64{1, 1, 1}, 0.35, 10},
		{"funnel", funnel, []float64{1, 0.5, -0.5, 1}, []float64{1, 1, 1, 1}, 0.4, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := len(tc.x0)
			metric := mcmc.NewDiagMetric(d)
			metric.SetDiag(tc.invM)
			ref := mcmc.NewNUTSDepth(tc.f, metric, rand.New(rand.NewPCG(3, 4)), tc.maxDepth)
			ref.SetStepSize(tc.eps)
			st := mcmc.NewState(d)
			if err := ref.Init(st, tc.x0); err != nil {
				t.Fatal(err)
			}
			tree := newNUTSTree(d, tc.maxDepth, 1000)
			r := mathRand{rand.New(rand.NewPCG(3, 4))}
			sqrtInv := make([]float64, d)
			for i, v := range tc.invM {
				sqrtInv[i] = math.Sqrt(v)
			}
			x, g := append([]float64(nil), st.Position...), append([]float64(nil), st.Grad...)
			lp := st.LogDensity
			depths, divergent := map[int]int{}, 0
			for it := 0; it < 400; it++ {
				want := ref.Step(st)
				var got nutsInfo
				lp, got = tree.transition(x, g, lp, tc.eps, tc.invM, sqrtInv, r, tc.f)
				same := lp == st.LogDensity && got.depth == want.TreeDepth && got.leapfrogs == want.NLeapfrog &&
					got.accept == want.AcceptStat && got.divergent == want.Divergent && got.energy == want.Energy
				for i := range x {
					same = same && x[i] == st.Position[i] && g[i] == st.Grad[i]
				}
				if !same {
					t.Fatalf("transition %d: depth %d, %d steps, accept %v, divergent %v, lp %v at %v; ppl/mcmc: depth %d, %d steps, accept %v, divergent %v, lp %v at %v",
						it, got.depth, got.leapfrogs, got.accept, got.divergent, lp, x,
						want.TreeDepth, want.NLeapfrog, want.AcceptStat, want.Divergent, st.LogDensity, st.Position)
				}
				depths[got.depth]++
				if got.divergent {
					divergent++
				}
			}
			t.Logf("tree depths %v, %d divergent", depths, divergent)
			if tc.name == "gaussian, divergent" && divergent == 0 {
				t.Errorf("no divergent transition: the case does not check them")
			}
			if tc.name == "gaussian, depth 3" && depths[3] == 0 {
				t.Errorf("no tree reached the maximum depth")
			}
		})
	}
}

// The step-size heuristic is ppl/mcmc's (Stan's init_stepsize): the same
// random numbers give the same step size, up and down.
func TestNUTSStepSizeHeuristicSameAsMCMC(t *testing.T) {
	scales := []float64{1, 3, 0.4}
	f := func(q, g []float64) float64 {
		lp := 0.0
		for i, s := range scales {
			g[i] = -q[i] / (s * s)
			lp -= 0.5 * q[i] * q[i] / (s * s)
		}
		return lp
	}
	for _, eps0 := range []float64{1e-4, 0.3, 1, 40} {
		metric := mcmc.NewDiagMetric(3)
		ref := mcmc.NewNUTS(f, metric, rand.New(rand.NewPCG(7, 8)))
		ref.SetStepSize(eps0)
		st := mcmc.NewState(3)
		if err := ref.Init(st, []float64{0.3, 2, -0.1}); err != nil {
			t.Fatal(err)
		}
		if err := ref.TuneStepSize(st); err != nil {
			t.Fatal(err)
		}
		tree := newNUTSTree(3, 10, 1000)
		one := []float64{1, 1, 1}
		got, ok := tree.stepSizeHeuristic(st.Position, st.Grad, st.LogDensity, eps0, one, one,
			mathRand{rand.New(rand.NewPCG(7, 8))}, f)
		if !ok || got != ref.StepSize() {
			t.Errorf("from %g: step size %g (ok %v), ppl/mcmc %g", eps0, got, ok, ref.StepSize())
		}
	}
}

// BenchmarkNUTSTree times NUTS transitions of the iterative tree against
// ppl/mcmc's recursive one on the same target, step size and random
// numbers (so the same trees), in one run: ns per leapfrog step each.
// The gradient is a Gaussian's, cheap, so the trees' bookkeeping shows.
//
//	go test -run '^$' -bench NUTSTree ./ppl/lockstep
func BenchmarkNUTSTree(b *testing.B) {
	for _, d := range []int{10, 100} {
		scales := make([]float64, d)
		x0 := make([]float64, d)
		for i := range scales {
			scales[i] = 1 + float64(i%7)
			x0[i] = 0.3 * float64(i%5-2)
		}
		f := func(q, g []float64) float64 {
			lp := 0.0
			for i, s := range scales {
				g[i] = -q[i] / (s * s)
				lp -= 0.5 * q[i] * q[i] / (s * s)
			}
			return lp
		}
		const eps = 0.5
		b.Run(fmt.Sprintf("d=%d/iterative", d), func(b *testing.B) {
			tree := newNUTSTree(d, 10, 1000)
			r := mathRand{rand.New(rand.NewPCG(1, 2))}
			one := make([]float64, d)
			for i := range one {
				one[i] = 1
			}
			x, g := append([]float64(nil), x0...), make([]float64, d)
			lp := f(x, g)
			steps := 0
			for b.Loop() {
				var info nutsInfo
				lp, info = tree.transition(x, g, lp, eps, one, one, r, f)
				steps += info.leapfrogs
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/leapfrog")
		})
		b.Run(fmt.Sprintf("d=%d/mcmc", d), func(b *testing.B) {
			s := mcmc.NewNUTS(f, mcmc.NewDiagMetric(d), rand.New(rand.NewPCG(1, 2)))
			s.SetStepSize(eps)
			st := mcmc.NewState(d)
			if err := s.Init(st, x0); err != nil {
				b.Fatal(err)
			}
			steps := 0
			for b.Loop() {
				steps += s.Step(st).NLeapfrog
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/leapfrog")
		})
	}
}

package cgen_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
)

// TestNUTSSegments runs gb_nuts through cgen.NUTS on the gcc build: a
// load (heuristic per chain), a warm-up with one window, draws; every
// chain adapts on its own (its own step size and metric), the kept
// statistics are those of NUTS trees, the run is reproducible from its
// seed, and a malformed segment is an error that says what is wrong.
func TestNUTSSegments(t *testing.T) {
	comp := smallModelGCC(t)
	nr := comp.(accel.NUTSRunner)
	const n, d, keep, depth = 5, 2, 2, 6
	if err := nr.RunNUTS(&accel.NUTSSegment{Chains: n, MaxDepth: 0}); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("depth 0: error %v, want one about the depth", err)
	}
	run := func() (*accel.NUTSSegment, []float64) {
		x, g, lp := make([]float64, d*n), make([]float64, d*n), make([]float64, n)
		for c := 0; c < n; c++ {
			x[c], x[n+c] = 0.1*float64(c), -0.2
			xs, gs, l := []float64{x[c], x[n+c]}, make([]float64, d), make([]float64, 1)
			if err := comp.LogDensityGrad(xs, l, gs); err != nil {
				t.Fatal(err)
			}
			g[c], g[n+c], lp[c] = gs[0], gs[1], l[0]
		}
		base := accel.NUTSSegment{Chains: n, Seed: 7, MaxDepth: depth, MaxDeltaH: 1000, TargetAccept: 0.8, Warmup: 150,
			WindowStart: 30, WindowEnd: 130, HeuristicStep: 1 << 31}
		seg := base
		seg.Load, seg.StepSize, seg.X, seg.Grad, seg.LP = true, 1, x, g, lp
		if err := nr.RunNUTS(&seg); err != nil || seg.Failed != 0 {
			t.Fatalf("load: %v (failed chain %d)", err, seg.Failed)
		}
		var stats []float64
		for s := 0; s < 300; s += 50 {
			seg = base
			seg.Step0, seg.Steps, seg.Keep = s, 50, keep
			if s >= 150 {
				seg.WindowStart, seg.WindowEnd = 0, 0
			}
			if err := nr.RunNUTS(&seg); err != nil || seg.Failed != 0 {
				t.Fatalf("segment at %d: %v (failed chain %d)", s, err, seg.Failed)
			}
			if s >= 150 {
				stats = append(stats, seg.KeptStats...)
			}
		}
		out := &accel.NUTSSegment{Chains: n, MaxDepth: depth, Read: true, X: x, Grad: g, LP: lp,
			Mean: make([]float64, d*n), M2: make([]float64, d*n), StepSizes: make([]float64, n), InvMetric: make([]float64, n*d),
			GradEvals: make([]float64, n)}
		if err := nr.RunNUTS(out); err != nil {
			t.Fatal(err)
		}
		return out, stats
	}
	a, stats := run()
	for c := 0; c < n; c++ {
		if !(a.StepSizes[c] > 0) || a.GradEvals[c] < 300 || a.InvMetric[c*d] == 1 || a.InvMetric[c*d+1] == 1 {
			t.Errorf("chain %d: step size %v, %v gradients, inverse metric %v: want an adapted chain", c, a.StepSizes[c],
				a.GradEvals[c], a.InvMetric[c*d:(c+1)*d])
		}
		if c > 0 && a.StepSizes[c] == a.StepSizes[0] {
			t.Errorf("chains 0 and %d share the step size %v: want each chain's own", c, a.StepSizes[c])
		}
	}
	k := accel.NUTSKeptStats
	for i := 0; i < len(stats); i += k * keep {
		for c := 0; c < keep; c++ {
			acc, dep, steps := stats[i+keep+c], stats[i+3*keep+c], stats[i+4*keep+c]
			if !(acc >= 0 && acc <= 1) || dep < 1 || dep > depth || steps < dep || steps > math.Exp2(dep+1)-1 || math.IsNaN(stats[i+c]) {
				t.Fatalf("a kept draw's statistics: acceptance %v, depth %v, %v steps, lp %v", acc, dep, steps, stats[i+c])
			}
		}
	}
	b, _ := run()
	for j := range a.X {
		if a.X[j] != b.X[j] || a.M2[j] != b.M2[j] {
			t.Fatalf("the same seed gave other draws: %v and %v", a.X, b.X)
		}
	}
}

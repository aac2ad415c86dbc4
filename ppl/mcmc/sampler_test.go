package mcmc

import (
	"fmt"
	"math"
	"testing"
)

type samplerCase struct {
	name  string
	build func(f LogDensity, m *Metric) Sampler
	eps   float64
}

func samplerCases() []samplerCase {
	return []samplerCase{
		{"NUTS", func(f LogDensity, m *Metric) Sampler { return NewNUTS(f, m, newRNG(1)) }, 0.5},
		{"HMC", func(f LogDensity, m *Metric) Sampler { return NewHMC(f, m, newRNG(2), 7) }, 0.3},
	}
}

// run draws n states after n/10 burn-in steps and returns the draws by
// coordinate.
func run(t *testing.T, s Sampler, x0 []float64, n int) [][]float64 {
	t.Helper()
	st := NewState(len(x0))
	if err := s.Init(st, x0); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n/10; i++ {
		s.Step(st)
	}
	out := make([][]float64, len(x0))
	for i := range out {
		out[i] = make([]float64, n)
	}
	for k := 0; k < n; k++ {
		info := s.Step(st)
		if info.Divergent {
			t.Fatalf("divergent transition on a Gaussian at draw %d", k)
		}
		for i, v := range st.Position {
			out[i][k] = v
		}
	}
	return out
}

// checkMoment asserts that the mean of f over draws is within 5 Monte Carlo
// standard errors (plus a small floor) of want.
func checkMoment(t *testing.T, what string, xs []float64, want float64) {
	t.Helper()
	m, se := batchMeans(xs)
	if math.Abs(m-want) > 5*se+1e-3 {
		t.Errorf("%s: mean %.4f, want %.4f ± %.4f (5 MCSE)", what, m, want, 5*se)
	}
}

// TestStandardNormal checks that every sampler leaves Normal(0, I) in 5
// dimensions invariant: E[x] = 0 and E[x²] = 1.
func TestStandardNormal(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 4000
	}
	for _, c := range samplerCases() {
		t.Run(c.name, func(t *testing.T) {
			const d = 5
			s := c.build(stdNormal, NewDiagMetric(d))
			s.SetStepSize(c.eps)
			draws := run(t, s, []float64{1, -1, 0.5, 0, 2}, n)
			for i, xs := range draws {
				checkMoment(t, fmt.Sprintf("x[%d]", i), xs, 0)
				sq := make([]float64, len(xs))
				for k, v := range xs {
					sq[k] = v * v
				}
				checkMoment(t, fmt.Sprintf("x[%d]²", i), sq, 1)
			}
		})
	}
}

// TestCorrelatedGaussian checks invariance on a Gaussian with sds 1 and 3
// and correlation 0.9, with a diagonal and with a dense metric equal to the
// true covariance: E[x0 x1] = 0.9·1·3 = 2.7, E[x1²] = 9.
func TestCorrelatedGaussian(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 4000
	}
	f := gaussian(1, 3, 0.9)
	for _, c := range samplerCases() {
		for _, dense := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/dense=%v", c.name, dense), func(t *testing.T) {
				m := NewDiagMetric(2)
				eps := c.eps
				if dense {
					m = NewDenseMetric(2)
					if err := m.SetCov([]float64{1, 2.7, 2.7, 9}); err != nil {
						t.Fatal(err)
					}
				} else {
					m.SetDiag([]float64{1, 9})
					eps /= 3
				}
				s := c.build(f, m)
				s.SetStepSize(eps)
				nn := n
				draws := run(t, s, []float64{0.5, -0.5}, nn)
				prod := make([]float64, nn)
				sq := make([]float64, nn)
				for k := range prod {
					prod[k] = draws[0][k] * draws[1][k]
					sq[k] = draws[1][k] * draws[1][k]
				}
				checkMoment(t, "x0", draws[0], 0)
				checkMoment(t, "x1", draws[1], 0)
				checkMoment(t, "x0·x1", prod, 2.7)
				checkMoment(t, "x1²", sq, 9)
			})
		}
	}
}

// TestFunnelDiverges checks that NUTS reports divergences in the neck of
// Neal's funnel with a large step size, and only there (v < 0 mostly).
func TestFunnelDiverges(t *testing.T) {
	s := NewNUTS(funnel, NewDiagMetric(10), newRNG(4))
	s.SetStepSize(0.8)
	st := NewState(10)
	if err := s.Init(st, make([]float64, 10)); err != nil {
		t.Fatal(err)
	}
	div := 0
	for i := 0; i < 2000; i++ {
		if s.Step(st).Divergent {
			div++
		}
	}
	if div == 0 {
		t.Fatal("no divergences on Neal's funnel with step size 0.8")
	}
}

// TestTreeDepthCap checks that MaxDepth bounds the tree: with a tiny step
// size on a standard normal the trajectory never U-turns in time.
func TestTreeDepthCap(t *testing.T) {
	s := NewNUTSDepth(stdNormal, NewDiagMetric(2), newRNG(5), 4)
	s.SetStepSize(1e-3)
	st := NewState(2)
	if err := s.Init(st, []float64{1, 1}); err != nil {
		t.Fatal(err)
	}
	info := s.Step(st)
	if info.TreeDepth != 4 || info.NLeapfrog != 15 {
		t.Fatalf("depth %d, %d leapfrog steps; want 4 and 2^4-1 = 15", info.TreeDepth, info.NLeapfrog)
	}
}

// TestStepAllocatesNothing checks the promise that Step never allocates.
func TestStepAllocatesNothing(t *testing.T) {
	for _, c := range samplerCases() {
		for _, m := range []*Metric{NewDiagMetric(4), NewDenseMetric(4)} {
			s := c.build(stdNormal, m)
			st := NewState(4)
			if err := s.Init(st, []float64{0.1, 0.2, 0.3, 0.4}); err != nil {
				t.Fatal(err)
			}
			if a := testing.AllocsPerRun(50, func() { s.Step(st) }); a != 0 {
				t.Errorf("%s dense=%v: %v allocations per Step", c.name, m.Dense(), a)
			}
		}
	}
}

// TestTuneStepSize checks Stan's heuristic on Normal(0, σ²): a leapfrog
// step's acceptance is about 0.8 when eps is of order σ, so the tuned step
// size must scale with σ.
func TestTuneStepSize(t *testing.T) {
	for _, sigma := range []float64{0.01, 1, 100} {
		f := func(x, g []float64) float64 {
			g[0] = -x[0] / (sigma * sigma)
			return -0.5 * x[0] * x[0] / (sigma * sigma)
		}
		s := NewNUTS(f, NewDiagMetric(1), newRNG(6))
		st := NewState(1)
		if err := s.Init(st, []float64{sigma}); err != nil {
			t.Fatal(err)
		}
		if err := s.TuneStepSize(st); err != nil {
			t.Fatal(err)
		}
		if r := s.StepSize() / sigma; r < 0.1 || r > 10 {
			t.Errorf("sigma %g: tuned step size %g, want within a factor 10 of sigma", sigma, s.StepSize())
		}
	}
}

// TestMetricDense checks the dense metric's algebra against the matrix it
// was set from: Velocity(p) = Σp and InvMetric = Σ.
func TestMetricDense(t *testing.T) {
	cov := []float64{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2}
	m := NewDenseMetric(3)
	if err := m.SetCov(cov); err != nil {
		t.Fatal(err)
	}
	p := []float64{1, -2, 0.5}
	v := make([]float64, 3)
	m.Velocity(p, v)
	for i := 0; i < 3; i++ {
		want := cov[i*3]*p[0] + cov[i*3+1]*p[1] + cov[i*3+2]*p[2]
		if math.Abs(v[i]-want) > 1e-12 {
			t.Errorf("Velocity[%d] = %g, want %g", i, v[i], want)
		}
	}
	for i, x := range m.InvMetric() {
		if math.Abs(x-cov[i]) > 1e-12 {
			t.Errorf("InvMetric[%d] = %g, want %g", i, x, cov[i])
		}
	}
	// SampleMomentum's covariance is Σ⁻¹: check E[p pᵀ] Σ ≈ I on the diagonal.
	rng := newRNG(8)
	const n = 200000
	var s [9]float64
	for k := 0; k < n; k++ {
		m.SampleMomentum(rng, p)
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				s[i*3+j] += p[i] * p[j] / n
			}
		}
	}
	for i := 0; i < 3; i++ {
		d := 0.0
		for k := 0; k < 3; k++ {
			d += s[i*3+k] * cov[k*3+i]
		}
		if math.Abs(d-1) > 0.03 {
			t.Errorf("(E[ppᵀ]Σ)[%d,%d] = %g, want 1", i, i, d)
		}
	}
}

package optim

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/optimize"

	"github.com/gobayes/gobayes/ppl/infer"
)

// quadModel is log p(x) = -½ Σ a_i (x_i - m_i)², with a deterministic
// exp(x_1): its mode is m, whatever the start.
type quadModel struct{ a, m []float64 }

func (q quadModel) Name() string { return "quad" }
func (q quadModel) Dim() int     { return len(q.m) }
func (q quadModel) Vars() []infer.Var {
	return []infer.Var{{Name: "x", Shape: []int{len(q.m)}}, {Name: "e", Deterministic: true}}
}
func (q quadModel) NewDensity() infer.Density { return q }
func (q quadModel) LogDensityGrad(x, g []float64) float64 {
	lp := 0.0
	for i := range x {
		d := x[i] - q.m[i]
		lp -= 0.5 * q.a[i] * d * d
		g[i] = -q.a[i] * d
	}
	return lp
}
func (q quadModel) Constrained(x, out []float64) { copy(out, x); out[len(x)] = math.Exp(x[0]) }
func (q quadModel) NonFinite([]float64) []string { return nil }

func TestMAPFindsMode(t *testing.T) {
	// Badly scaled on purpose: curvatures from 1e-4 to 1e4.
	q := quadModel{a: []float64{1e-4, 1, 1e4}, m: []float64{3, -1, 0.5}}
	for seed := uint64(1); seed <= 3; seed++ {
		r, err := MAP(q, Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range q.m {
			if math.Abs(r.Values["x"][i]-want) > 1e-4 {
				t.Errorf("seed %d: x[%d] = %g, want %g", seed, i, r.Values["x"][i], want)
			}
		}
		if math.Abs(r.Values["e"][0]-math.Exp(3)) > 1e-3 {
			t.Errorf("deterministic e = %g, want e³", r.Values["e"][0])
		}
	}
}

// rosenbrock is log p = -((1-x)² + 100(y-x²)²), whose mode is (1, 1)
// (the classic test of curved valleys).
type rosenbrock struct{}

func (rosenbrock) Name() string                { return "rosenbrock" }
func (rosenbrock) Dim() int                    { return 2 }
func (rosenbrock) Vars() []infer.Var           { return []infer.Var{{Name: "x", Shape: []int{2}}} }
func (r rosenbrock) NewDensity() infer.Density { return r }
func (rosenbrock) LogDensityGrad(x, g []float64) float64 {
	a, b := 1-x[0], x[1]-x[0]*x[0]
	g[0] = 2*a + 400*b*x[0]
	g[1] = -200 * b
	return -(a*a + 100*b*b)
}
func (rosenbrock) Constrained(x, out []float64) { copy(out, x) }
func (rosenbrock) NonFinite([]float64) []string { return nil }

func TestMAPRosenbrock(t *testing.T) {
	r, err := MAP(rosenbrock{}, Options{Init: []float64{-1.2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if x := r.Values["x"]; math.Abs(x[0]-1) > 1e-5 || math.Abs(x[1]-1) > 1e-5 {
		t.Errorf("mode %v after %d iterations (%s), want [1 1]", x, r.Iterations, r.Status)
	}
}

// TestStatusWords: gonum's stop reasons in words, a stalled line search
// at a zero gradient (gonum's "Failure") counting as converged.
func TestStatusWords(t *testing.T) {
	for _, c := range []struct {
		s         optimize.Status
		g         float64
		converged bool
		word      string
	}{
		{optimize.GradientThreshold, 1e-9, true, "converged"},
		{optimize.Failure, 1e-7, true, "no further progress"},
		{optimize.Failure, 3, false, "stalled"},
		{optimize.IterationLimit, 1e-7, false, "iteration limit"},
	} {
		s, ok := status(c.s, c.g)
		if ok != c.converged || !strings.Contains(s, c.word) || strings.Contains(s, "Failure") && ok {
			t.Errorf("status(%v, %g) = %q, %v", c.s, c.g, s, ok)
		}
	}
}

package vi

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/ppl/infer"
)

// gauss is Normal(m, Σ) in 2 dimensions with sds 1 and 2 and correlation
// r: both families recover the mean exactly; full-rank recovers Σ, and
// mean-field the conditional sds sqrt(1-r²)·(1, 2) (the known
// under-dispersion of KL(q‖p) for Gaussians, Bishop 2006 §10.1.2).
type gauss struct {
	m [2]float64
	r float64
}

func (g gauss) Name() string              { return "gauss" }
func (g gauss) Dim() int                  { return 2 }
func (g gauss) Vars() []infer.Var         { return []infer.Var{{Name: "x", Shape: []int{2}}} }
func (g gauss) NewDensity() infer.Density { return g }
func (g gauss) LogDensityGrad(x, grad []float64) float64 {
	s1, s2, r := 1.0, 2.0, g.r
	det := s1 * s1 * s2 * s2 * (1 - r*r)
	a, b, c := s2*s2/det, -r*s1*s2/det, s1*s1/det
	d0, d1 := x[0]-g.m[0], x[1]-g.m[1]
	grad[0] = -(a*d0 + b*d1)
	grad[1] = -(b*d0 + c*d1)
	return 0.5 * (d0*grad[0] + d1*grad[1])
}
func (g gauss) Constrained(x, out []float64) { copy(out, x) }
func (g gauss) NonFinite([]float64) []string { return nil }

func TestADVIGaussian(t *testing.T) {
	g := gauss{m: [2]float64{1, -2}, r: 0.6}
	for _, method := range []Method{MeanField, FullRank} {
		res, err := ADVI(context.Background(), g, Options{Method: method, Seed: 3, GradSamples: 10, TolRelObj: 0.001})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Mean[0]-1) > 0.1 || math.Abs(res.Mean[1]+2) > 0.2 {
			t.Errorf("%s: mean %v, want [1 -2]", method, res.Mean)
		}
		// Standard deviations of q from its Cholesky factor.
		sd0 := math.Abs(res.Chol[0])
		sd1 := math.Hypot(res.Chol[2], res.Chol[3])
		want0, want1 := 1.0, 2.0
		if method == MeanField {
			want0, want1 = math.Sqrt(1-0.36), 2*math.Sqrt(1-0.36)
		}
		if math.Abs(sd0-want0) > 0.15*want0 || math.Abs(sd1-want1) > 0.15*want1 {
			t.Errorf("%s: sds %.3f %.3f, want %.3f %.3f", method, sd0, sd1, want0, want1)
		}
		if len(res.ELBO) == 0 || res.Posterior.Draws() != 1000 {
			t.Errorf("%s: %d ELBO values, %d draws", method, len(res.ELBO), res.Posterior.Draws())
		}
	}
}

// TestConverged: the stopping rule on a window of relative ELBO changes,
// by hand. Stan's rule would stop on {1, 0.005, 0.004} (median 0.005);
// this one waits for a full window.
func TestConverged(t *testing.T) {
	cases := []struct {
		rel    []float64
		window int
		want   bool
	}{
		{[]float64{1, 0.005, 0.004}, 10, false},         // window not full
		{[]float64{1, 0.005, 0.004}, 3, true},           // median 0.005
		{[]float64{1, 0.5, 0.004}, 3, false},            // median 0.5, mean 0.5
		{[]float64{0.02, 0.009, 0.008, 0.5}, 4, false},  // median 0.0145, mean 0.134
		{[]float64{0.009, 0.008, 0.007, 0.5}, 4, true},  // median 0.0085
		{[]float64{0.006, 0.006, 0.02, 0.008}, 4, true}, // mean 0.01 not below; median 0.007
	}
	for _, c := range cases {
		if got := converged(c.rel, c.window, 0.01); got != c.want {
			t.Errorf("converged(%v, %d) = %v, want %v", c.rel, c.window, got, c.want)
		}
	}
	if got := relativeChange(-200, 0); got != 1 {
		t.Errorf("first relative change %g, want 1 (against 0, as Stan)", got)
	}
}

// TestADVIHistory: with default options the fit runs at least a full
// window of evaluations (10, every 100 iterations), records the ELBO of
// every iteration, and its draws are marked as an approximation's.
func TestADVIHistory(t *testing.T) {
	g := gauss{m: [2]float64{1, -2}, r: 0.6}
	res, err := ADVI(context.Background(), g, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ELBO) < 10 {
		t.Errorf("%d ELBO evaluations, want at least a full window of 10", len(res.ELBO))
	}
	last := res.ELBOIter[len(res.ELBOIter)-1]
	if len(res.ELBOTrace) != last {
		t.Errorf("trace of %d iterations, want one per iteration, %d", len(res.ELBOTrace), last)
	}
	// The ELBO at mean-field's optimum, with the density's constant and
	// the entropy's constant (d/2)(1+log 2π) dropped, as ADVI computes it:
	// q has variances 1/Λᵢᵢ (Λ = Σ⁻¹), so E_q[-½ xᵀΛx] = -½·d = -1, and
	// the entropy is Σ log sdᵢ = log 0.8 + log 1.6 = 0.2469: -0.7531. A
	// one-draw estimate has sd 1 here (½χ²₂), so the mean of the last 500
	// is within 0.2 of it.
	tail := res.ELBOTrace[len(res.ELBOTrace)-500:]
	if m := mean(tail); math.Abs(m+0.7531) > 0.2 {
		t.Errorf("mean of the last 500 ELBO values %g, want -0.7531 ± 0.2", m)
	}
	if !res.Posterior.Approximation {
		t.Error("ADVI draws not marked as an approximation")
	}
}

// shifted is the gauss density plus c·x₀: two of them with c = ±s are a
// minibatch estimate of gauss, unbiased, with noise s.
type shifted struct {
	gauss
	c float64
}

func (g shifted) LogDensityGrad(x, grad []float64) float64 {
	lp := g.gauss.LogDensityGrad(x, grad)
	grad[0] += g.c
	return lp + g.c*x[0]
}

// TestADVIBatch: with Options.Batch every estimate comes from a fresh
// minibatch, and the fit finds the mean of the whole.
func TestADVIBatch(t *testing.T) {
	g := gauss{}
	calls := 0
	progress := 0
	res, err := ADVI(context.Background(), g, Options{Seed: 4, Batch: func(r *rand.Rand) infer.Density {
		calls++
		if r.IntN(2) == 0 {
			return shifted{g, 3}
		}
		return shifted{g, -3}
	}, Progress: func(done, total int) { progress = done }})
	if err != nil {
		t.Fatal(err)
	}
	full, err := ADVI(context.Background(), g, Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if calls < res.ELBOIter[len(res.ELBOIter)-1] || progress != res.ELBOIter[len(res.ELBOIter)-1] {
		t.Errorf("%d minibatches and progress at %d for %d iterations", calls, progress, res.ELBOIter[len(res.ELBOIter)-1])
	}
	for i := range res.Mean {
		if math.Abs(res.Mean[i]-full.Mean[i]) > 0.3 {
			t.Errorf("mean %d: minibatch %.3f, whole %.3f", i, res.Mean[i], full.Mean[i])
		}
	}
}

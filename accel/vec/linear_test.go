package vec_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/vec"
)

// A regression whose response sits far from zero (y ≈ 1000 + noise),
// evaluated near the least-squares fit: there the sum of squares is a
// small difference of large numbers unless it is centred at the fit, and
// the lockstep kernel must still agree with ir.Frame's direct sum to
// 1e-12. Also checks that the likelihoods were fused (else the
// comparison would not test the kernel).
func TestLinearNormalNearFit(t *testing.T) {
	// x = [(1, 0.5), (1, -1.5), (1, 2), (1, 0.1), (1, -0.3), (1, 1.2)],
	// y = (1000.6, 998.4, 1002.1, 1000.05, 999.6, 1001.3); β flat, one
	// likelihood with σ ~ HalfNormal(1), one with σ = 0.5
	// (the fixture's ppl model).
	p := irtest.Fixture(t, "linear offset")
	if n := vec.LinearNormals(vec.New(p, 1)); n != 2 {
		t.Fatalf("%d regression likelihoods fused, want 2", n)
	}
	// The least-squares fit of these data is (999.984, 1.0717)
	// (the 2×2 normal equations by Cramer's rule); chains within 0.05 of it.
	rng := rand.New(rand.NewPCG(7, 8))
	const chains = 16
	xs := make([]float64, 0, chains*p.Dim)
	for c := 0; c < chains; c++ {
		xs = append(xs, 999.984+0.1*(rng.Float64()-0.5), 1.0717+0.1*(rng.Float64()-0.5), rng.Float64()-0.5)
	}
	for _, unfused := range []bool{false, true} {
		checkPositions(t, "offset", p, xs, unfused)
	}
}

// A deterministic θ = μ + τ·z that the fused non-centred likelihood reads
// is still written, in Forward and in Gradient, as ir.Frame writes it.
func TestAffineNormalWritesOutput(t *testing.T) {
	p := irtest.Fixture(t, "affine theta")
	const chains = 5
	b := vec.New(p, chains)
	if n := vec.AffineNormals(b); n != 1 {
		t.Fatalf("%d non-centred likelihoods fused, want 1", n)
	}
	var theta ir.ID = ir.None
	for _, o := range p.Outputs {
		if o.Name == "theta" {
			theta = o.ID
		}
	}
	if theta == ir.None {
		t.Fatal("no output theta")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	xs := make([]float64, chains*p.Dim)
	for i := range xs {
		xs[i] = 2*rng.Float64() - 1
	}
	f := ir.NewFrame(p)
	for _, grad := range []bool{false, true} {
		lps, grads := make([]float64, chains), make([]float64, chains*p.Dim)
		if grad {
			b.LogDensityGrad(xs, lps, grads)
		} else {
			b.LogDensity(xs, lps)
		}
		for c := 0; c < chains; c++ {
			f.Forward(xs[c*p.Dim : (c+1)*p.Dim])
			want, got := f.Val(theta), vec.ValueOf(b, theta, c)
			for i := range want {
				if !agree(got[i], want[i]) {
					t.Errorf("gradient %v, chain %d: theta[%d] = %v, ir.Frame %v", grad, c, i, got[i], want[i])
				}
			}
		}
	}
}

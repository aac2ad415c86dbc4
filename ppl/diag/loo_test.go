package diag

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestWAICByHand: one observation, draws with log-likelihoods a and b:
// lppd = log((eᵃ + eᵇ)/2), p_waic = var(a, b) = (a-b)²/2.
func TestWAICByHand(t *testing.T) {
	a, b := -1.0, -3.0
	w := WAIC([][]float64{{a}, {b}})
	lppd := math.Log((math.Exp(a) + math.Exp(b)) / 2)
	if math.Abs(w.P-2) > 1e-12 || math.Abs(w.ELPD-(lppd-2)) > 1e-12 {
		t.Errorf("WAIC elpd %g p %g, want %g and 2", w.ELPD, w.P, lppd-2)
	}
}

// TestLOOExact compares PSIS-LOO with the exact leave-one-out predictive
// densities of a conjugate model: mu ~ N(0, 10²), y_i ~ N(mu, 1). Without
// y_i, mu ~ N(m₋ᵢ, v₋ᵢ) with v₋ᵢ = 1/(n-1 + 1/100), m₋ᵢ = v₋ᵢ·Σ_{j≠i} y_j,
// so p(y_i | y₋ᵢ) = N(y_i | m₋ᵢ, sqrt(1 + v₋ᵢ)). The draws are exact
// posterior draws, so only Monte Carlo error separates the two.
func TestLOOExact(t *testing.T) {
	y := []float64{1.2, 0.4, 2.2, 1.9, 0.8, -0.5, 3.1, 1.0}
	n := float64(len(y))
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	v := 1 / (n + 0.01)
	m := v * sum
	rng := rand.New(rand.NewPCG(1, 2))
	const S = 4000
	ll := make([][]float64, S)
	for s := range ll {
		mu := m + math.Sqrt(v)*rng.NormFloat64()
		ll[s] = make([]float64, len(y))
		for i, yi := range y {
			ll[s][i] = -0.5*(yi-mu)*(yi-mu) - 0.5*math.Log(2*math.Pi)
		}
	}
	loo := LOO(ll)
	exact := 0.0
	for i, yi := range y {
		vi := 1 / (n - 1 + 0.01)
		mi := vi * (sum - yi)
		sd := math.Sqrt(1 + vi)
		e := -0.5*((yi-mi)/sd)*((yi-mi)/sd) - math.Log(sd) - 0.5*math.Log(2*math.Pi)
		exact += e
		if math.Abs(loo.Pointwise[i]-e) > 0.02 {
			t.Errorf("observation %d: PSIS-LOO %.4f, exact %.4f", i, loo.Pointwise[i], e)
		}
		if loo.ParetoK[i] > 0.5 {
			t.Errorf("observation %d: Pareto k %.2f on an easy case", i, loo.ParetoK[i])
		}
	}
	if math.Abs(loo.ELPD-exact) > 0.05 {
		t.Errorf("elpd_loo %.4f, exact %.4f", loo.ELPD, exact)
	}
	// WAIC approximates the same quantity less precisely.
	if w := WAIC(ll); math.Abs(w.ELPD-exact) > 0.2 {
		t.Errorf("elpd_waic %.4f, exact %.4f", w.ELPD, exact)
	}
}

// TestGPDFit recovers the shape of generalized Pareto samples (inverse
// CDF: x = σ((1-u)^(-k) - 1)/k) with k = 0.3 and 0.8, σ = 1.
func TestGPDFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []float64{0.3, 0.8} {
		x := make([]float64, 3000)
		for i := range x {
			x[i] = (math.Pow(1-rng.Float64(), -k) - 1) / k
		}
		sort.Float64s(x)
		kh, sh := gpdFit(x)
		if math.Abs(kh-k) > 0.1 || math.Abs(sh-1) > 0.15 {
			t.Errorf("k %g: estimated k %.3f sigma %.3f, want %g and 1", k, kh, sh, k)
		}
	}
}

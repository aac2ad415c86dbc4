package eightschools

import (
	"math"
	"testing"
)

func TestSynthetic(t *testing.T) {
	for _, centred := range []bool{true, false} {
		p := Synthetic(centred, 3, 200, 1)
		if len(p.Chains) != 3 || p.Draws() != 200 || len(p.Columns) != 10 {
			t.Fatalf("centred=%v: %d chains × %d draws of %d columns, want 3 × 200 × 10", centred, len(p.Chains), p.Draws(), len(p.Columns))
		}
		div := 0
		for _, ch := range p.Chains {
			for i, d := range ch.Stats.Divergent {
				if d {
					div++
				}
				if tau := ch.Values[1][i]; !(tau > 0) {
					t.Fatalf("tau = %g, want positive", tau)
				}
			}
		}
		if centred != (div > 0) {
			t.Errorf("centred=%v has %d divergences; only the centred version has any", centred, div)
		}
	}
}

func TestTauGrid(t *testing.T) {
	// The marginal posterior of tau is a distribution: its CDF rises to 1.
	taus, cdf := tauGrid()
	for i := 1; i < len(cdf); i++ {
		if cdf[i] < cdf[i-1] || taus[i] <= taus[i-1] {
			t.Fatalf("grid not increasing at %d", i)
		}
	}
	if math.Abs(cdf[len(cdf)-1]-1) > 1e-12 {
		t.Errorf("CDF ends at %g, want 1", cdf[len(cdf)-1])
	}
	// At a huge tau the weights 1/(σ²+τ²) become equal, so mu's posterior
	// mean tends to the plain mean of y: 70/8 = 8.75.
	if m, _ := muPost(1e6); math.Abs(m-8.75) > 1e-3 {
		t.Errorf("muPost(1e6) = %g, want 8.75 (the plain mean of y)", m)
	}
}

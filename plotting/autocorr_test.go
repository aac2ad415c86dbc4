package plotting

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAutocorrValues(t *testing.T) {
	// An AR(1) series x_t = φ x_{t-1} + ε has autocorrelation φ^k at lag
	// k (Box & Jenkins); with 20000 draws the estimate is within ~0.03.
	src := rand.New(rand.NewPCG(5, 6))
	const phi = 0.8
	x := make([]float64, 20000)
	for i := 1; i < len(x); i++ {
		x[i] = phi*x[i-1] + src.NormFloat64()
	}
	ac := autocorr(x, 5)
	for k, got := range ac {
		if want := math.Pow(phi, float64(k)); math.Abs(got-want) > 0.03 {
			t.Errorf("lag %d: %.3f, want %.3f", k, got, want)
		}
	}
	// A constant series has no defined autocorrelation.
	if c := autocorr([]float64{2, 2, 2}, 1); !math.IsNaN(c[0]) {
		t.Errorf("constant series: %v, want NaN", c)
	}
}

func TestAutocorr(t *testing.T) {
	fit := fixture()
	f := Autocorr(fit, "mu", "tau", MaxLag(30))
	ps := f.Panels()
	if len(ps) != 2 {
		t.Fatalf("%d panels, want 2", len(ps))
	}
	for _, p := range ps {
		if got := p.Count("line", ""); got != 4 {
			t.Errorf("panel %q: %d lines, want 4", p.Title, got)
		}
		if got := p.Points("line", "chain 2"); got != 31 {
			t.Errorf("panel %q: chain 2 has %d lags, want 31 (0..30)", p.Title, got)
		}
	}
	// MaxLag beyond the draws is cut to draws-1.
	if got := Autocorr(fit, "mu", MaxLag(5000)).Panels()[0].Points("line", "chain 1"); got != fit.Draws() {
		t.Errorf("long MaxLag: %d lags, want %d", got, fit.Draws())
	}
	checkRenders(t, f)
}

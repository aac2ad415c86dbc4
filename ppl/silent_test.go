package ppl

import (
	"strings"
	"testing"
)

// The silent wrong answers of issue 12: each call below once ran and
// gave a plausible but wrong result; now it is an error that says what
// to do, or the right result.

// mustFail runs f and returns the *Error it panicked with.
func mustFail(t *testing.T, what string, f func()) error {
	t.Helper()
	var err error
	func() {
		defer Catch(&err)
		f()
	}()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	return err
}

// TestNothingToSample: a model without parameters used to report
// "4 chains × 0 draws" and a step size of 2e117.
func TestNothingToSample(t *testing.T) {
	empty := NewModel("e")
	observed := NewModel("o")
	observed.Normal("y", 0, 1).Observe([]float64{1, 2})
	for _, m := range []*Model{empty, observed} {
		for what, f := range map[string]func(){
			"Sample": func() { m.Sample(LiveProgress(false)) },
			"MAP":    func() { m.MAP() },
			"ADVI":   func() { m.ADVI() },
		} {
			err := mustFail(t, m.Name()+" "+what, f)
			if !strings.Contains(err.Error(), "no parameters") || !strings.Contains(err.Error(), "PriorPredictive") {
				t.Errorf("%s %s: %v", m.Name(), what, err)
			}
		}
	}
	// Its prior predictive is what such a model is for.
	if pp := observed.PriorPredictive(10); pp.Draws() != 10 {
		t.Errorf("prior predictive: %d draws, want 10", pp.Draws())
	}
}

// TestCountsOfZero: Chains(0) used to run 4 chains, Draws(0) 1000 draws.
func TestCountsOfZero(t *testing.T) {
	m := NewModel("m")
	m.Normal("mu", 0, 1)
	for what, o := range map[string]SampleOption{"Chains(0)": Chains(0), "Chains(-2)": Chains(-2), "Draws(0)": Draws(0)} {
		err := mustFail(t, what, func() { m.Sample(o, LiveProgress(false)) })
		if !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), "at least 1") {
			t.Errorf("%s: %v", what, err)
		}
	}
	// Warmup(0) is valid: no warm-up.
	if fit := m.Sample(Warmup(0), Draws(10), Chains(1), LiveProgress(false)); fit.Draws() != 10 {
		t.Errorf("Warmup(0): %d draws, want 10", fit.Draws())
	}
}

// TestPosteriorOfAnotherModel: other.PosteriorPredictive(fit) and
// other.LogLik(fit) used to check the column count only, and read mu's
// draws as a.
func TestPosteriorOfAnotherModel(t *testing.T) {
	m := NewModel("m")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", mu, 1).Observe([]float64{0.3, 0.5})
	other := NewModel("other")
	a := other.Normal("a", 0, 1)
	other.Normal("y", a, 1).Observe([]float64{0.3, 0.5})
	fit := m.Sample(Seed(1), Chains(1), Warmup(50), Draws(20), LiveProgress(false))
	for what, f := range map[string]func(){
		"PosteriorPredictive": func() { other.PosteriorPredictive(fit) },
		"LogLik":              func() { other.LogLik(fit) },
	} {
		err := mustFail(t, what, f)
		if !strings.Contains(err.Error(), "mu") || !strings.Contains(err.Error(), "a") || !strings.Contains(err.Error(), `"m"`) {
			t.Errorf("%s: %v", what, err)
		}
	}
	// Its own model takes it.
	if pp := m.PosteriorPredictive(fit); pp.Draws() != 20 {
		t.Errorf("PosteriorPredictive of its own model: %d draws", pp.Draws())
	}
}

// TestPredictiveSummaries: the prior predictive's draws are independent
// (no R-hat, ESS or dense-metric advice for them), and a posterior
// predictive's ESS per second uses its own time, not the fit's.
func TestPredictiveSummaries(t *testing.T) {
	m := NewModel("m")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", mu, 1, Size(3)).Observe([]float64{0.3, 0.5, 0.1})
	pp := m.PriorPredictive(50, Seed(2))
	s := pp.Summary()
	text := s.String()
	for _, bad := range []string{"r_hat", "ess_bulk", "warning:", "DenseMetric"} {
		if strings.Contains(text, bad) {
			t.Errorf("prior predictive summary shows %q:\n%s", bad, text)
		}
	}
	if !strings.Contains(text, "independent draws") {
		t.Errorf("prior predictive summary does not say its draws are independent:\n%s", text)
	}
	fit := m.Sample(Seed(1), Chains(2), Warmup(100), Draws(100), LiveProgress(false))
	rep := m.PosteriorPredictive(fit)
	for c := range fit.Chains {
		if rep.Seconds[c] == fit.Seconds[c] || !(rep.Seconds[c] > 0) {
			t.Errorf("chain %d: the predictive's time %v is the fit's %v (or not positive)", c, rep.Seconds[c], fit.Seconds[c])
		}
	}
}

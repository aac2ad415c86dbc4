package ppl

import (
	"math"
	"strings"
	"testing"
)

// The silent wrong answers of issue 24: each call below once ran and gave
// a plausible but wrong result; now it is an error that says what to do,
// a notice in the cell, or the right result.

// TestUsingShadowsVariable: Using("a", 100.0) in m.Let used to replace
// the model's variable a in the formula.
func TestUsingShadowsVariable(t *testing.T) {
	m := NewModel("m")
	m.Normal("a", 0, 1)
	m.Data("x", []float64{1, 2})
	for what, f := range map[string]func(){
		"variable": func() { m.Let("mu", "a * 2", Using("a", 100.0)) },
		"data":     func() { m.Formula("x * 2", Using("x", []float64{3, 4})) },
	} {
		err := mustFail(t, what, f)
		name := map[string]string{"variable": "a", "data": "x"}[what]
		if !strings.Contains(err.Error(), "Using(\""+name+"\"") || !strings.Contains(err.Error(), "rename") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if e := m.Let("mu", "a * k", Using("k", 2.0)); e == nil {
		t.Error("Using of a new name")
	}
}

// TestZeroInflatedPyMC: psi is the probability of the count component, as
// in PyMC: ZeroInflatedPoisson(0.9, 3) gives 1 - 0.9 + 0.9·e⁻³ = 14.5%
// zeros (it gave 90%).
func TestZeroInflatedPyMC(t *testing.T) {
	const n = 20000
	cases := []struct {
		name  string
		build func(m *Model) *RV
		zeros float64 // P(0), by hand
		mean  float64
	}{
		{"ZeroInflatedPoisson", func(m *Model) *RV { return m.ZeroInflatedPoisson("y", 0.9, 3.0, Size(n)) },
			0.1 + 0.9*math.Exp(-3), 0.9 * 3},
		// neg_binomial_2(3, 2) has P(0) = (2/5)².
		{"ZeroInflatedNegBinomial", func(m *Model) *RV { return m.ZeroInflatedNegBinomial("y", 0.9, 3.0, 2.0, Size(n)) },
			0.1 + 0.9*0.16, 0.9 * 3},
	}
	for _, c := range cases {
		m := NewModel(c.name)
		c.build(m).Observe(make([]float64, n))
		pp := m.PriorPredictive(1, Seed(3))
		zeros, sum := 0.0, 0.0
		for j := range n {
			v := pp.Chains[0].Values[j][0]
			sum += v
			if v == 0 {
				zeros++
			}
		}
		if got := zeros / n; math.Abs(got-c.zeros) > 0.015 {
			t.Errorf("%s(psi 0.9): %.3f zeros, want %.3f", c.name, got, c.zeros)
		}
		if got := sum / n; math.Abs(got-c.mean) > 0.1 {
			t.Errorf("%s(psi 0.9): mean %.3f, want %.3f", c.name, got, c.mean)
		}
	}
	// The log density: log P(y = 0) + log P(y = 2) of
	// ZeroInflatedPoisson(0.9, λ) at λ = exp(q), the model's log density
	// less its prior's.
	m, prior := NewModel("zip"), NewModel("prior")
	lam := m.LogNormal("lam", 0, 1)
	prior.LogNormal("lam", 0, 1)
	m.ZeroInflatedPoisson("y", 0.9, lam, Observed([]float64{0, 2}))
	q := 0.4
	l := math.Exp(q)
	want := math.Log(0.1+0.9*math.Exp(-l)) + math.Log(0.9) + 2*math.Log(l) - l - math.Log(2)
	if got := logDensityAt(t, m, []float64{q}) - logDensityAt(t, prior, []float64{q}); math.Abs(got-want) > 1e-9 {
		t.Errorf("ZeroInflatedPoisson(0.9, λ) log density %v, want %v", got, want)
	}
}

// TestTargetAcceptZero: TargetAccept(0) used to run with 0.8.
func TestTargetAcceptZero(t *testing.T) {
	m := NewModel("m")
	m.Normal("mu", 0, 1)
	for _, a := range []float64{0, 1, -0.5, 1.5} {
		err := mustFail(t, "TargetAccept", func() { m.Sample(TargetAccept(a), LiveProgress(false)) })
		if !strings.Contains(err.Error(), "TargetAccept") || !strings.Contains(err.Error(), "(0, 1)") {
			t.Errorf("TargetAccept(%v): %v", a, err)
		}
	}
}

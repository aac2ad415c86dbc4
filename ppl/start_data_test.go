package ppl

import (
	"strings"
	"testing"
)

// TestStartCulpritNamed: an observed value on the edge of its family's
// support (a proportion of exactly 0 under a Beta, a duration of 0 under
// a Gamma) passes the build's support check, but its density is zero for
// most parameters, and sampling used to end with "no finite starting
// point … not finite: y". The error names the value, its index and
// label, and says what to do; Sample, MAP and ADVI alike.
func TestStartCulpritNamed(t *testing.T) {
	beta := func() *Model {
		m := NewModel("m")
		a := m.HalfNormal("a", 1)
		b := m.HalfNormal("b", 1)
		m.Coords("site", "north", "south", "east", "west")
		m.Beta("y", a.Add(1), b, Observed([]float64{0.2, 0, 0.5, 0.7}), Dims("site"))
		return m
	}
	gamma := func() *Model {
		m := NewModel("m")
		rate := m.HalfNormal("rate", 1)
		m.Gamma("wait", 3, rate, Observed([]float64{0.2, 1.5, 0.8, 0, 2.1, 0}))
		return m
	}
	for _, c := range []struct {
		what string
		f    func()
		want []string
	}{
		{"Beta Sample", func() { beta().Sample(Seed(1), Chains(1), Warmup(20), Draws(20), LiveProgress(false)) }, []string{"y: observed value 0 at index 1 (site=south)", "edge of Beta's support", "strictly between 0 and 1", "(y·(n−1) + 0.5)/n"}},
		{"Gamma Sample", func() { gamma().Sample(Seed(1), Chains(1), Warmup(20), Draws(20), LiveProgress(false)) }, []string{"wait: observed value 0 at index 3", "and 1 value more like it", "edge of Gamma's support", "no finite starting point"}},
		{"Beta MAP", func() { beta().MAP(Seed(2)) }, []string{"y: observed value 0 at index 1"}},
		{"Gamma ADVI", func() { gamma().ADVI(Seed(2)) }, []string{"wait: observed value 0 at index 3"}},
	} {
		err := mustFail(t, c.what, c.f)
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nwant %q", c.what, err, w)
			}
		}
	}
}

// TestStartCulpritNotBlamed: when every value of a variable fails (the
// model's fault, not one value's) the error stays the sampler's, naming
// the terms; a value fitted by some start is not blamed.
func TestStartCulpritNotBlamed(t *testing.T) {
	m := NewModel("m")
	lo := m.HalfNormal("s", 1).Add(5) // at least 5: no value fits
	m.Uniform("y", lo, lo.Add(1), Observed([]float64{0.5, 0.6}))
	err := mustFail(t, "every value", func() { m.Sample(Seed(1), Chains(1), Warmup(20), Draws(20), LiveProgress(false)) })
	if !strings.Contains(err.Error(), "no finite starting point") || strings.Contains(err.Error(), "observed value") {
		t.Errorf("a model no start fits at all: %v; want the sampler's error, no value blamed", err)
	}
}

package posterior

import (
	"strings"
	"testing"
)

// TestDivergenceAdviceFits: the advice on divergences follows the run's
// target acceptance and, where the model is known, its structure.
func TestDivergenceAdviceFits(t *testing.T) {
	for _, c := range []struct {
		what        string
		accept      float64
		structure   bool
		centred     []string
		want, avoid []string
	}{
		{"default settings, unknown model", 0.8, false, nil,
			[]string{"TargetAccept(0.95)", "non-centred"}, nil},
		{"already 0.95", 0.95, false, nil,
			[]string{"from 0.95", "TargetAccept(0.99)"}, []string{"TargetAccept(0.95)"}},
		{"already 0.99", 0.99, true, []string{"theta"},
			[]string{"is 0.99 already", "theta in non-centred form"}, []string{"Raise the target"}},
		{"no hierarchy", 0.8, true, nil,
			[]string{"TargetAccept(0.95)", "no centred hierarchy"}, []string{"non-centred form"}},
	} {
		p := fake(50, noShift, 3)
		p.Settings.TargetAccept, p.Structure, p.Centred = c.accept, c.structure, c.centred
		var div string
		for _, w := range p.Warnings() {
			if strings.Contains(w, "divergent") {
				div = w
			}
		}
		if div == "" {
			t.Fatalf("%s: no warning of divergences", c.what)
		}
		for _, w := range c.want {
			if !strings.Contains(div, w) {
				t.Errorf("%s: the advice lacks %q:\n%s", c.what, w, div)
			}
		}
		for _, w := range c.avoid {
			if strings.Contains(div, w) {
				t.Errorf("%s: the advice says %q, which does not fit:\n%s", c.what, w, div)
			}
		}
	}
}

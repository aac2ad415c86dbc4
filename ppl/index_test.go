package ppl

import (
	"slices"
	"strings"
	"testing"
)

// TestOneIndexConvention: the element a formula, the listing and code
// call z[1] is the one the summary, Column and Array.Element call z[1]:
// 0-based everywhere, labels where the dimension has coordinates.
func TestOneIndexConvention(t *testing.T) {
	m := NewModel("index")
	z := m.Normal("z", 0, 1, Size(3))
	m.Let("second", "z[1] * 2")
	m.Deterministic("first", At(z, 0))
	if s := m.String(); !strings.Contains(s, "z[1]") {
		t.Fatalf("the listing does not show the formula's z[1]:\n%s", s)
	}
	fit := m.Sample(Seed(2), Chains(1), Warmup(100), Draws(50), LiveProgress(false))
	var rows []string
	for _, r := range fit.Summary("z").Rows {
		rows = append(rows, r.Name)
	}
	if !slices.Equal(rows, []string{"z[0]", "z[1]", "z[2]"}) {
		t.Errorf("summary rows %v, want z[0] z[1] z[2]", rows)
	}
	second, z1 := fit.Flat("second"), fit.Flat("z[1]")
	for i := range second {
		if second[i] != 2*z1[i] {
			t.Fatalf("draw %d: the formula's z[1]·2 = %v, but the column z[1] is %v", i, second[i], z1[i])
		}
	}
	if !slices.Equal(fit.Flat("first"), fit.Flat("z[0]")) {
		t.Error("At(z, 0) is not the column z[0]")
	}
	if !slices.Equal(fit.Array("z").Element(1), z1) {
		t.Error("Array.Element(1) is not the column z[1]")
	}
	if fit.Column("z[3]") >= 0 {
		t.Error("z[3] names a column of a variable of 3 elements")
	}
}

// TestCentredFound: a fit knows which latent variables are centred
// hierarchies, for the warnings' advice; a regression has none.
func TestCentredFound(t *testing.T) {
	m := NewModel("centred")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	m.Normal("theta", mu, tau, Size(3))
	m.Normal("eta", 0, 1, Size(3)) // its scale is a constant
	fit := m.Sample(Seed(1), Chains(1), Warmup(50), Draws(10), LiveProgress(false))
	if !fit.Structure || len(fit.Centred) != 1 || fit.Centred[0] != "theta" {
		t.Errorf("structure %v, centred %v; want theta alone", fit.Structure, fit.Centred)
	}
	r := NewModel("regression")
	a := r.Normal("a", 0, 1)
	s := r.HalfNormal("s", 1)
	r.Normal("y", a, s, Observed([]float64{1, 2, 3}))
	if got := r.Sample(Seed(1), Chains(1), Warmup(50), Draws(10), LiveProgress(false)).Centred; len(got) != 0 {
		t.Errorf("a regression's centred variables: %v, want none", got)
	}
}

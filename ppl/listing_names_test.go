package ppl

import (
	"math"
	"strings"
	"testing"
)

// TestListingShowsUserNames: the listing and LaTeX show an ordinal
// outcome as the call the user wrote, data given to a formula by their
// Using name, and pi by name; a formula indexes by a data container.
func TestListingShowsUserNames(t *testing.T) {
	m := NewModel("names")
	x := make([]float64, 40)
	y := make([]int, 40)
	for i := range x {
		x[i], y[i] = float64(i%7), i%3
	}
	m.Normal("b", 0, 1)
	c := m.Normal("c", []float64{-1, 1}, 1, Ordered())
	m.Let("eta", "b * x + pi", Using("x", x))
	m.OrderedLogistic("y", m.Lookup("eta"), c, Observed(y))
	m.Data("g", []int{1, 0, 1}, Dims("obs"))
	m.Normal("a", 0, 1, Size(2))
	m.Let("per_row", "a[g] * 2")
	listing := m.String()
	for _, want := range []string{"y[40] ~ OrderedLogistic(eta, c)", "Mul(b, x)", "pi", "Index(a, g)"} {
		if !strings.Contains(listing, want) {
			t.Errorf("the listing lacks %q:\n%s", want, listing)
		}
	}
	for _, avoid := range []string{"CategoricalLogit", "data[40]", "3.14159"} {
		if strings.Contains(listing, avoid) {
			t.Errorf("the listing shows %q:\n%s", avoid, listing)
		}
	}
	tex := m.LaTeX().String()
	for _, want := range []string{`\operatorname{OrderedLogistic}\left(\eta,\ \text{c}\right)`, `\text{x} + \pi`} {
		if !strings.Contains(tex, want) {
			t.Errorf("the LaTeX lacks %q:\n%s", want, tex)
		}
	}
	// The names change what is shown, not what is computed.
	v := valuesAt(t, m, []float64{0.5, -1, 1, 0.2, -0.3})
	if got, want := v["eta"][3], 0.5*3+math.Pi; math.Abs(got-want) > 1e-12 {
		t.Errorf("eta[3] = %v, want %v", got, want)
	}
	if got := v["per_row"]; len(got) != 3 || got[0] != -0.6 || got[1] != 0.4 {
		t.Errorf("per_row = %v, want a[g]·2 = [-0.6 0.4 -0.6]", got)
	}
	m.SetData("g", []int{0})
	if got := valuesAt(t, m, []float64{0.5, -1, 1, 0.2, -0.3})["per_row"]; len(got) != 1 || got[0] != 0.4 {
		t.Errorf("after SetData per_row = %v, want [0.4]", got)
	}
}

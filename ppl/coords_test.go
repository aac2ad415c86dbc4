package ppl

import (
	"slices"
	"strings"
	"testing"
)

// TestDimsGiveShape: a variable with Dims and no Size takes its shape
// from the coordinates, as PyMC's dims do; it samples as one given Size.
func TestDimsGiveShape(t *testing.T) {
	m := NewModel("counties")
	m.Coords("county", "Aitkin", "Anoka", "Benton", "Big Stone")
	m.Coords("coef", "a", "b")
	a := m.Normal("alpha", 0, 1, Dims("county"))
	if !slices.Equal(a.Shape(), []int{4}) {
		t.Fatalf("alpha has shape %v, want [4] from its coordinates", a.Shape())
	}
	b := m.Normal("beta", 0, 1, Dims("county", "coef"))
	if !slices.Equal(b.Shape(), []int{4, 2}) {
		t.Errorf("beta has shape %v, want [4 2]", b.Shape())
	}
	// A multivariate family: Dims name the batch and the event.
	s := m.Dirichlet("share", []float64{1, 1}, Dims("county", "coef"))
	if !slices.Equal(s.Shape(), []int{4, 2}) {
		t.Errorf("share has shape %v, want [4 2]", s.Shape())
	}
	// Observed data of the coordinates' length.
	m.Normal("y", a, 1, Dims("county"), Observed([]float64{1, 2, 3, 4}))
	fit := m.Sample(Seed(3), Chains(1), Warmup(100), Draws(50), LiveProgress(false))
	if sh := fit.Array("alpha").Shape; !slices.Equal(sh, []int{1, 50, 4}) { // chains, draws, county
		t.Errorf("alpha's draws have shape %v", fit.Array("alpha").Shape)
	}
}

// TestDimsCountWhereWritten: a label count that does not fit is an error
// at the call that writes it, naming the variable and both counts —
// whichever comes first, the coordinates or the variable.
func TestDimsCountWhereWritten(t *testing.T) {
	for _, c := range []struct {
		what  string
		build func(m *Model)
		want  []string
	}{
		{"Size against coords", func(m *Model) {
			m.Coords("county", "A", "B", "C")
			m.Normal("alpha", 0, 1, Size(4), Dims("county"))
		}, []string{"alpha", "3 coordinates", "4 elements"}},
		{"coords against a variable", func(m *Model) {
			m.Normal("alpha", 0, 1, Size(4), Dims("county"))
			m.Coords("county", "A", "B", "C")
		}, []string{"alpha", "3 coordinates", "4 elements"}},
		{"data against coords", func(m *Model) {
			m.Coords("obs", "1", "2")
			m.Data("x", []float64{1, 2, 3}, Dims("obs"))
		}, []string{"x", "2 coordinates", "3 elements"}},
		{"observed against coords", func(m *Model) {
			m.Coords("obs", "1", "2")
			m.Normal("y", 0, 1, Dims("obs")).Observe([]float64{1, 2, 3})
		}, []string{"y", "shape [3]", "[2]"}},
		{"deterministic against coords", func(m *Model) {
			m.Coords("obs", "1", "2")
			m.Deterministic("d", []float64{1, 2, 3}, Dims("obs"))
		}, []string{"d", "2 coordinates", "3 elements"}},
		{"parameters against coords", func(m *Model) {
			m.Coords("obs", "1", "2")
			m.Normal("y", []float64{0, 0, 0}, 1, Dims("obs"))
		}, []string{"y", "2 coordinates", "3 elements"}},
		{"dims without coords or size", func(m *Model) {
			m.Normal("alpha", 0, 1, Size(2)).Observe([]float64{1, 2})
			m.Normal("beta", 0, 1, Dims("county"), Size(2), Dims("county", "x"))
		}, []string{"beta", "2 dimensions"}},
		{"duplicate labels", func(m *Model) {
			m.Coords("county", "A", "B", "A")
		}, []string{"county", `"A" is given twice`}},
		{"empty label", func(m *Model) {
			m.Coords("county", "A", "")
		}, []string{"county", "empty"}},
	} {
		m := NewModel("bad")
		err := mustFail(t, c.what, func() { c.build(m) })
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", c.what, err, w)
			}
		}
	}
	// A scalar with Dims and no coordinates yet: the error says how to
	// give the shape.
	m := NewModel("nocoords")
	m.Normal("alpha", 0, 1, Dims("county"))
	_, err := m.Compile()
	if err == nil || !strings.Contains(err.Error(), `m.Coords("county"`) {
		t.Errorf("Dims without coordinates: %v, want advice to give them", err)
	}
}

// TestCoordsAgain: Coords called again relabels (the same count), and
// refuses another count while something has that length fixed.
func TestCoordsAgain(t *testing.T) {
	m := NewModel("relabel")
	m.Coords("school", "A", "B", "C")
	m.Normal("z", 0, 1, Dims("school"))
	m.Coords("school", "Choate", "Deerfield", "Phillips")
	fit := m.Sample(Seed(1), Chains(1), Warmup(50), Draws(20), LiveProgress(false))
	if l := fit.Label(fit.Vars[0].Start + 1); l != "z[Deerfield]" {
		t.Errorf("element 1 is labelled %s, want z[Deerfield]", l)
	}
	err := mustFail(t, "another count", func() { m.Coords("school", "A", "B") })
	for _, w := range []string{"2 labels", "z has 3 elements"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if got := m.g.Coords["school"]; !slices.Equal(got, []string{"Choate", "Deerfield", "Phillips"}) {
		t.Errorf("a refused Coords changed the labels to %v", got)
	}
	// A dimension nothing uses yet may change its count.
	m.Coords("county", "a", "b")
	m.Coords("county", "a", "b", "c")
	if len(m.g.Coords["county"]) != 3 {
		t.Errorf("county has %d labels, want 3", len(m.g.Coords["county"]))
	}
}

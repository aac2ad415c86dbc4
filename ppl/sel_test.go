package ppl

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSelByLabel: a variable's draws selected by coordinate are its
// column's; an enumerated label's probabilities are selected by row and
// by value, the row's probabilities summing to one.
func TestSelByLabel(t *testing.T) {
	y := twoGroups(5, 12, 0.3, -1, 0.3, 1.5, 0.3)
	rows := make([]string, len(y))
	for i := range rows {
		rows[i] = fmt.Sprintf("patient %d", i)
	}
	m := NewModel("sel")
	m.Coords("patient", rows...)
	m.Coords("z", "healthy", "sick")
	m.Coords("group", "low", "high")
	w := m.Beta("w", 2, 2)
	mu := m.Normal("mu", 0, 2, Dims("group"), Ordered())
	z := m.Bernoulli("z", w, Dims("patient"))
	m.Normal("y", mu.Take(z), 0.3, Dims("patient"), Observed(y))
	fit := m.Sample(Seed(4), Chains(2), Warmup(200), Draws(100), LiveProgress(false))

	high := fit.Array("mu").Sel("group", "high")
	if !slices.Equal(high.Shape, []int{2, 100}) || !slices.Equal(high.Data, fit.Flat("mu[high]")) || !slices.Equal(high.Data, fit.Flat("mu[1]")) {
		t.Errorf("mu.Sel(group, high) has shape %v and is not the column mu[1]", high.Shape)
	}
	if by := fit.Array("mu").Sel("group", 1); !slices.Equal(by.Data, high.Data) {
		t.Error("Sel by index 1 differs from Sel by its label")
	}

	zp := fit.Array("z_probs")
	if !slices.Equal(zp.DimNames, []string{"patient", "z"}) {
		t.Fatalf("z_probs has dims %v, want [patient z]", zp.DimNames)
	}
	row := zp.Sel("patient", "patient 7")
	if !slices.Equal(row.Shape, []int{2, 100, 2}) {
		t.Fatalf("one patient's z_probs have shape %v, want [2 100 2]", row.Shape)
	}
	sick := row.Sel("z", "sick")
	if !slices.Equal(sick.Data, fit.Flat("z_probs[7,1]")) || !slices.Equal(sick.Data, fit.Flat("z_probs[patient 7,sick]")) {
		t.Error("z_probs by row and label is not the column z_probs[7,1]")
	}
	both := zp.Sel("patient", "patient 7", "z", "healthy")
	for i := range both.Data {
		if s := both.Data[i] + sick.Data[i]; s < 1-1e-9 || s > 1+1e-9 {
			t.Fatalf("draw %d: p(healthy) + p(sick) = %v, want 1", i, s)
		}
	}
	if !strings.Contains(fit.Summary().String(), "z_probs[patient 0,healthy]") {
		t.Errorf("the summary does not label z_probs by row and value:\n%s", fit.Summary())
	}

	for _, c := range []struct {
		what string
		sel  func()
		want string
	}{
		{"unknown dimension", func() { zp.Sel("county", "x") }, "dimensions patient, z"},
		{"unknown label", func() { zp.Sel("patient", "patient 99") }, `"patient 0"`},
		{"index outside", func() { zp.Sel("z", 2) }, "2 elements"},
		{"odd pairs", func() { zp.Sel("z", 0, "patient") }, "pairs"},
	} {
		err := catchPanic(c.sel)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.what, err, c.want)
		}
	}
}

// catchPanic runs f and returns the error it panics with, nil if none.
func catchPanic(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
		}
	}()
	f()
	return nil
}

package plotting

import (
	"strings"
	"testing"
)

func TestDist(t *testing.T) {
	xs := []float64{1.1, 2.1, 2.2, 3, 3.1, 3.2, 4, 4.1, 5.2}
	f := Dist(xs, "score", Median(), Ref(2.5))
	ps := f.Panels()
	if len(ps) != 1 {
		t.Fatalf("%d panels, want 1", len(ps))
	}
	p := ps[0]
	// Median of the nine values is 3.1; three of them lie below 2.5.
	for _, frag := range []string{"score", "median 3.1", "33.3% < 2.5 < 66.7%"} {
		if !strings.Contains(p.Title, frag) {
			t.Errorf("title %q lacks %q", p.Title, frag)
		}
	}
	if p.Count("line", "density") != 1 || p.Count("rule", "median") != 1 || p.Count("rule", "reference") != 1 {
		t.Errorf("elements %v", p.Elements)
	}
	checkRenders(t, f)
	if err := Dist(nil).Err(); err == nil || !strings.Contains(err.Error(), "finite") {
		t.Errorf("empty: %v", err)
	}
}

func TestDistIntegers(t *testing.T) {
	// Counts 0..4: one bar per value, no density curve.
	p := Dist([]float64{0, 1, 1, 2, 2, 2, 3, 4}).Panels()[0]
	if got := p.Points("bars", "probability"); got != 5 {
		t.Errorf("%d bars, want 5 (values 0..4)", got)
	}
	if p.Count("line", "density") != 0 {
		t.Error("integer draws drawn as a density")
	}
}

// TestDistRefBounded: a share too small for one decimal is written as a
// probability, not chained to the reference by "<" signs (tutorial 03 had
// shown ">99.9% < 3.83 < <0.1%"). 3999 of 4000 values below 3.83.
func TestDistRefBounded(t *testing.T) {
	xs := make([]float64, 4000)
	for i := range xs {
		xs[i] = 2 + float64(i%100)/100
	}
	xs[0] = 4
	title := Dist(xs, Labels("largest |residual|"), Ref(3.83)).Panels()[0].Title
	if want := "P(largest |residual| < 3.83) > 99.9%"; !strings.Contains(title, want) {
		t.Errorf("title %q lacks %q", title, want)
	}
	xs[0] = 1 // 1 of 4000 below
	for i := 1; i < len(xs); i++ {
		xs[i] = 5
	}
	title = Dist(xs, Labels("T"), Ref(3.83)).Panels()[0].Title
	if want := "P(T < 3.83) < 0.1%"; !strings.Contains(title, want) {
		t.Errorf("title %q lacks %q", title, want)
	}
}

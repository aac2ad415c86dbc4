package plotting

import (
	"strings"
	"testing"
)

func TestDist(t *testing.T) {
	xs := []float64{1, 2, 2, 3, 3, 3, 4, 4, 5}
	f := Dist(xs, "score", Median(), Ref(2.5))
	ps := f.Panels()
	if len(ps) != 1 {
		t.Fatalf("%d panels, want 1", len(ps))
	}
	p := ps[0]
	// Median of the nine values is 3; three of them lie below 2.5.
	for _, frag := range []string{"score", "median 3", "33.3% < 2.5 < 66.7%"} {
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

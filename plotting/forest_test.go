package plotting

import (
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/posterior"
)

func TestForest(t *testing.T) {
	fit := fixture()
	other := fixture()
	other.Model = "other"
	tests := []struct {
		name   string
		fit    any
		args   []any
		groups []string // interval groups (legend)
		rows   int
	}{
		{"per chain", fit, []any{"mu", "theta"}, []string{"chain 1", "chain 2", "chain 3", "chain 4"}, 4},
		{"one chain", fit, []any{"tau", Chains(3)}, []string{"chain 3"}, 1},
		{"models", []*posterior.Posterior{fit, other}, []any{"mu", "tau", Labels("first")}, []string{"first", "other"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Forest(tc.fit, tc.args...)
			if err := f.Err(); err != nil {
				t.Fatal(err)
			}
			ps := f.Panels()
			if len(ps) != 3 {
				t.Fatalf("%d panels, want intervals, ESS, R-hat", len(ps))
			}
			iv, es, rh := ps[0], ps[1], ps[2]
			for _, g := range tc.groups {
				if got := iv.Points("interval", g); got != tc.rows {
					t.Errorf("%s: %d intervals, want one per row (%d)", g, got, tc.rows)
				}
			}
			if got := iv.Count("interval", ""); got != len(tc.groups) {
				t.Errorf("%d interval groups, want %d", got, len(tc.groups))
			}
			// ESS and R-hat: one point per row (per model across models).
			perRow := 1
			if strings.HasPrefix(tc.name, "models") {
				perRow = len(tc.groups)
			}
			if got := es.Points("points", ""); got != 2*perRow*tc.rows {
				t.Errorf("ESS panel has %d points, want bulk and tail per row (%d)", got, 2*perRow*tc.rows)
			}
			if got := rh.Points("points", ""); got != perRow*tc.rows {
				t.Errorf("R-hat panel has %d points, want %d", got, perRow*tc.rows)
			}
			legend := legendLabels(f)
			for i, g := range tc.groups {
				if legend[i] != g {
					t.Errorf("legend %v, want %v first", legend, tc.groups)
					break
				}
			}
			checkRenders(t, f)
		})
	}
	bad := fixture()
	bad.Chains = nil
	if err := Forest([]*posterior.Posterior{fit, bad}, "mu").Err(); err == nil || !strings.Contains(err.Error(), "empty posterior") {
		t.Errorf("forest with an empty model: %v", err)
	}
}

// TestForestCoords: a posterior with coordinates labels its rows by them.
func TestForestCoords(t *testing.T) {
	fit := fixture()
	for i := range fit.Vars {
		if fit.Vars[i].Name == "theta" {
			fit.Vars[i].Dims = []string{"school"}
		}
	}
	fit.Coords = map[string][]string{"school": {"A", "B", "C"}}
	f := Forest(fit, "theta")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	var cell *panel
	for _, c := range f.cells {
		if c != nil {
			cell = c
			break
		}
	}
	ticks := cell.p.Y.Tick.Marker.Ticks(0, 3)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if !strings.Contains(strings.Join(labels, " "), "theta[A]") || !strings.Contains(strings.Join(labels, " "), "theta[C]") {
		t.Errorf("row labels %v, want theta[A] … theta[C]", labels)
	}
}

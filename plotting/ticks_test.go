package plotting

import (
	"strings"
	"testing"
)

// TestTickLabels: a count axis has no -0 tick, and the narrow ESS panel's
// ticks are few and short (they once ran together, "0 2500 5000 750010000").
func TestTickLabels(t *testing.T) {
	for _, tk := range (integerTicks{}).Ticks(-0.5, 4) {
		if tk.Label == "-0" {
			t.Errorf("integer ticks of [-0.5, 4] label %q", tk.Label)
		}
	}
	var labels []string
	for _, tk := range (niceTicks{n: 3, compact: true}).Ticks(0, 10400) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "0 5k 10k" {
		t.Errorf("compact ticks of [0, 10400]: %q, want \"0 5k 10k\"", got)
	}
}

// TestPPCLog: plotting.Log puts a predictive check on the log scale (it
// was silently ignored), and says why it cannot when a value is not
// positive.
func TestPPCLog(t *testing.T) {
	obs := []float64{0.5, 1.2, 3.3, 9.1, 27.0, 2.2, 0.9}
	reps := [][]float64{{0.6, 1.1, 3.0, 8.0, 30.0, 2.0, 1.0}, {0.4, 1.5, 2.9, 11.0, 20.0, 2.5, 0.8}}
	f := PPC(obs, reps, Log())
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if p := f.Panels()[0]; p.XLabel != "log(value)" || !strings.Contains(f.Note(), "log scale") {
		t.Errorf("x label %q, note %q: not on the log scale", p.XLabel, f.Note())
	}
	if p := PPC(obs, reps).Panels()[0]; p.XLabel != "value" {
		t.Errorf("without Log the x label is %q", p.XLabel)
	}
	bad := PPC([]float64{0, 1, 2}, [][]float64{{1, 2, 3}}, Log())
	if err := bad.Err(); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("PPC with Log of a zero: %v", err)
	}
}

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

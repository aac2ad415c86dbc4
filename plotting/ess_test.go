package plotting

import (
	"strings"
	"testing"
)

func TestESS(t *testing.T) {
	fit := fixture()
	f := ESS(fit, "mu", "theta[1]")
	ps := f.Panels()
	if len(ps) != 2 {
		t.Fatalf("%d panels, want 2", len(ps))
	}
	for _, p := range ps {
		// 200 draws in 10 steps of 20: 10 distinct counts ≥ 8.
		if got := p.Points("line", "bulk ESS"); got != essSteps {
			t.Errorf("panel %q: %d bulk points, want %d", p.Title, got, essSteps)
		}
		if got := p.Points("line", "tail ESS"); got != essSteps {
			t.Errorf("panel %q: %d tail points, want %d", p.Title, got, essSteps)
		}
		if p.Count("rule", "ESS 400") != 1 {
			t.Errorf("panel %q lacks the 400 line", p.Title)
		}
	}
	if got := strings.Join(legendLabels(f), "|"); got != "bulk ESS|tail ESS|ESS 400" {
		t.Errorf("legend %q", got)
	}
	checkRenders(t, f)
}

package posterior

import (
	"strings"
	"testing"
)

func TestEnsembleDisplay(t *testing.T) {
	e := &Ensemble{Chains: 1000000, Draws: 200, Names: []string{"mu", "tau (unconstrained)"}, Mean: []float64{4.25, 0.5}, SD: []float64{3.3, 1.125}}
	txt, h := e.String(), e.HTML()
	for _, want := range []string{"all 1000000 chains × 200 draws", "tau (unconstrained)", "4.25", "1.125"} {
		if !strings.Contains(txt, want) || !strings.Contains(h, want) {
			t.Errorf("%q missing:\n%s\n%s", want, txt, h)
		}
	}
	if strings.Count(h, "<tr>") != 3 {
		t.Errorf("HTML has %d rows, want a header and 2:\n%s", strings.Count(h, "<tr>"), h)
	}
}

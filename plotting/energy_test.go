package plotting

import (
	"strings"
	"testing"
)

func TestEnergy(t *testing.T) {
	fit := fixture()
	f := Energy(fit)
	ps := f.Panels()
	if len(ps) != 2 {
		t.Fatalf("%d panels, want the distributions and E-BFMI", len(ps))
	}
	if ps[0].Count("line", "marginal energy") != 1 || ps[0].Count("line", "energy transition") != 1 {
		t.Errorf("distribution panel elements %v", ps[0].Elements)
	}
	if got := ps[1].Count("bars", ""); got != 4 {
		t.Errorf("%d E-BFMI bars, want one per chain", got)
	}
	// The fixture's energies are independent draws: E-BFMI is near 2
	// (E[(Eₙ−Eₙ₋₁)²] = 2 Var E); the title lists four values.
	if !strings.HasPrefix(f.Title(), "Energy — E-BFMI ") || strings.Count(f.Title(), ",") != 3 {
		t.Errorf("title %q", f.Title())
	}
	checkRenders(t, f)

	none := fixture()
	none.Sampler = "RWMH"
	for c := range none.Chains {
		none.Chains[c].Stats.Energy = nil
	}
	err := Energy(none).Err()
	if err == nil || !strings.Contains(err.Error(), "energy statistic") || !strings.Contains(err.Error(), "RWMH") {
		t.Errorf("no energy: error %v", err)
	}
}

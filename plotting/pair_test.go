package plotting

import (
	"math"
	"strings"
	"testing"
)

func TestPair(t *testing.T) {
	fit := fixture()
	f := Pair(fit, "mu", "tau", "theta[0]")
	rows, cols := f.Grid()
	if rows != 3 || cols != 3 {
		t.Fatalf("grid %d×%d, want 3×3", rows, cols)
	}
	ps := f.Panels()
	// A lower triangle with the diagonal: 3 + 2 + 1 panels.
	if len(ps) != 6 {
		t.Fatalf("%d panels, want 6", len(ps))
	}
	draws := len(fit.Chains) * fit.Draws()
	for _, p := range ps {
		switch {
		case p.Row == p.Col:
			if p.Count("line", "density") != 1 {
				t.Errorf("diagonal (%d,%d) lacks its density", p.Row, p.Col)
			}
			if got := p.Points("ticks", "divergent"); got != fixtureDivergences {
				t.Errorf("diagonal (%d,%d) ticks %d divergences, want %d", p.Row, p.Col, got, fixtureDivergences)
			}
		case p.Row > p.Col:
			if got := p.Points("points", "draws"); got != draws {
				t.Errorf("scatter (%d,%d) draws %d points, want %d", p.Row, p.Col, got, draws)
			}
			if got := p.Points("points", "divergent"); got != fixtureDivergences {
				t.Errorf("scatter (%d,%d) highlights %d divergences, want %d", p.Row, p.Col, got, fixtureDivergences)
			}
		default:
			t.Errorf("panel above the diagonal at (%d,%d)", p.Row, p.Col)
		}
		if p.Row == 2 && p.XLabel == "" {
			t.Errorf("bottom panel (%d,%d) has no x label", p.Row, p.Col)
		}
	}
	if got := ps[len(ps)-1].XLabel; got != "theta[0]" {
		t.Errorf("bottom-right x label %q, want theta[0]", got)
	}
	if got := strings.Join(legendLabels(f), "|"); got != "draws|divergent (3)" {
		t.Errorf("legend %q", got)
	}
	checkRenders(t, f)
	if err := Pair(fit, "mu").Err(); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Errorf("Pair of one scalar: error %v, want 'at least two'", err)
	}
}

func TestLogScale(t *testing.T) {
	fit := fixture()
	f := Pair(fit, "mu", "tau", Log("tau"))
	ps := f.Panels()
	if got := ps[len(ps)-1].XLabel; got != "log(tau)" {
		t.Errorf("x label %q, want log(tau)", got)
	}
	// The original posterior is untouched.
	if fit.Columns[1] != "tau" || fit.Chains[0].Values[1][0] <= 0 {
		t.Errorf("Log changed the posterior: %v", fit.Columns)
	}
	q, err := logColumns("Pair", fit, []string{"tau"})
	if err != nil {
		t.Fatal(err)
	}
	// log(e^x) = x: the fixture draws tau as exp(ltau).
	if got, want := q.Chains[2].Values[1][7], math.Log(fit.Chains[2].Values[1][7]); got != want {
		t.Errorf("log column %g, want %g", got, want)
	}
	if err := Pair(fit, "mu", "tau", Log("mu")).Err(); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("log of a signed variable: %v", err)
	}
}

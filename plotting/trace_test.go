package plotting

import (
	"reflect"
	"strings"
	"testing"
)

func TestTrace(t *testing.T) {
	fit := fixture()
	tests := []struct {
		name    string
		args    []any
		columns []string
		chains  int
	}{
		{"scalars", []any{"mu", "tau"}, []string{"mu", "tau"}, 4},
		{"vector expands", []any{"theta"}, []string{"theta[0]", "theta[1]", "theta[2]"}, 4},
		{"one column", []any{"theta[1]"}, []string{"theta[1]"}, 4},
		{"chosen chains", []any{"mu", Chains(1, 3)}, []string{"mu"}, 2},
		{"everything", nil, []string{"mu", "tau", "theta[0]", "theta[1]", "theta[2]"}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Trace(fit, tc.args...)
			if err := f.Err(); err != nil {
				t.Fatal(err)
			}
			rows, cols := f.Grid()
			if rows != len(tc.columns) || cols != 2 {
				t.Fatalf("grid %d×%d, want %d×2", rows, cols, len(tc.columns))
			}
			ps := f.Panels()
			var titles []string
			for i, p := range ps {
				if i%2 == 0 {
					titles = append(titles, p.Title)
				}
				if got := p.Count("line", ""); got != tc.chains {
					t.Errorf("panel %q (col %d) has %d lines, want one per chain (%d)", p.Title, p.Col, got, tc.chains)
				}
				if p.Col == 1 && p.Points("line", "") != tc.chains*fit.Draws() {
					t.Errorf("trace %q draws %d points, want %d", p.Title, p.Points("line", ""), tc.chains*fit.Draws())
				}
			}
			if !reflect.DeepEqual(titles, tc.columns) {
				t.Errorf("panel titles %v, want %v", titles, tc.columns)
			}
			legend := legendLabels(f)
			if len(legend) < tc.chains || legend[0] != "chain 1" {
				t.Errorf("legend %v, want chain entries first", legend)
			}
		})
	}
}

func TestTraceDivergences(t *testing.T) {
	fit := fixture()
	f := Trace(fit, "mu")
	for _, p := range f.Panels() {
		if got := p.Points("ticks", "divergent"); got != fixtureDivergences {
			t.Errorf("panel %q col %d marks %d divergences, want %d", p.Title, p.Col, got, fixtureDivergences)
		}
	}
	if got := legendLabels(f); got[len(got)-1] != "divergent (3)" {
		t.Errorf("legend %v, want a last entry \"divergent (3)\"", got)
	}
	// Chain 1 has no divergences: selecting it alone marks none.
	for _, p := range Trace(fit, "mu", Chains(1)).Panels() {
		if p.Count("ticks", "divergent") != 0 {
			t.Errorf("chain 1 alone: panel %q marks divergences", p.Title)
		}
	}
	checkRenders(t, f)
}

func TestManyChains(t *testing.T) {
	fit := fixture()
	for len(fit.Chains) < 12 {
		fit.Chains = append(fit.Chains, fit.Chains[len(fit.Chains)%4])
	}
	tests := []struct {
		fig   *Figure
		kind  string
		lines int
	}{
		{Trace(fit, "mu"), "line", chainLimit},
		{Rank(fit, "mu"), "bars", chainLimit},
		{Autocorr(fit, "mu"), "line", chainLimit},
		{Trace(fit, "mu", Chains(1, 12)), "line", 2},
	}
	for _, tc := range tests {
		p := tc.fig.Panels()[0]
		if got := p.Count(tc.kind, ""); got != tc.lines {
			t.Errorf("%s: %d %s, want %d", tc.fig, got, tc.kind, tc.lines)
		}
	}
	if note := Trace(fit, "mu").Note(); !strings.Contains(note, "chains 1–8 of 12") {
		t.Errorf("note %q does not say which chains are shown", note)
	}
	if got := Energy(fit).Panels()[1].Count("bars", ""); got != chainLimit {
		t.Errorf("energy: %d bars, want %d", got, chainLimit)
	}
}

package plotting

import "testing"

func TestRank(t *testing.T) {
	fit := fixture()
	f := Rank(fit, "mu", "theta", Bins(10))
	ps := f.Panels()
	if len(ps) != 4 {
		t.Fatalf("%d panels, want 4 (mu, theta[1..3])", len(ps))
	}
	rows, cols := f.Grid()
	if rows != 2 || cols != 3 {
		t.Errorf("grid %d×%d, want 2×3", rows, cols)
	}
	for _, p := range ps {
		if got := p.Count("bars", ""); got != 4 {
			t.Errorf("panel %q: %d bar sets, want one per chain (4)", p.Title, got)
		}
		if got := p.Points("bars", "chain 1"); got != 10 {
			t.Errorf("panel %q: chain 1 has %d bins, want 10", p.Title, got)
		}
		if p.Count("band", "uniform 95%") != 4 || p.Count("rule", "uniform") != 4 {
			t.Errorf("panel %q lacks a uniform reference per chain", p.Title)
		}
	}
	if got := Rank(fit, "mu", Chains(2, 4)).Panels()[0].Count("bars", ""); got != 2 {
		t.Errorf("two chains selected: %d bar sets", got)
	}
	checkRenders(t, f)
}

// poolRanks: with chains {3,1} and {2,0}, the pooled order is
// 0(c2) 1(c1) 2(c2) 3(c1), so chain 1 has ranks {3,1} and chain 2 {2,0}.
func TestPoolRanks(t *testing.T) {
	fit := fixture()
	fit.Chains = fit.Chains[:2]
	for c := range fit.Chains {
		for j := range fit.Chains[c].Values {
			fit.Chains[c].Values[j] = fit.Chains[c].Values[j][:2]
		}
	}
	fit.Chains[0].Values[0] = []float64{3, 1}
	fit.Chains[1].Values[0] = []float64{2, 0}
	sel := selection{fit: fit, columns: []int{0}, chains: []int{0, 1}}
	got := poolRanks(sel, 0)
	want := [][]float64{{3, 1}, {2, 0}}
	for k := range want {
		for i := range want[k] {
			if got[k][i] != want[k][i] {
				t.Fatalf("ranks %v, want %v", got, want)
			}
		}
	}
}

// TestRankLabel: the x-axis names the chains the ranks are taken over.
func TestRankLabel(t *testing.T) {
	fit := fixture() // 4 chains
	cases := []struct {
		args []any
		want string
	}{
		{[]any{"mu"}, "rank (all chains)"},
		{[]any{"mu", Chains(2, 4)}, "rank among the 2 chains shown"},
	}
	for _, c := range cases {
		if got := Rank(fit, c.args...).Panels()[0].XLabel; got != c.want {
			t.Errorf("Rank%v: x label %q, want %q", c.args, got, c.want)
		}
	}
}

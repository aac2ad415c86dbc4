package plotting

import (
	"strings"
	"testing"
)

func TestPosterior(t *testing.T) {
	fit := fixture()
	tests := []struct {
		name     string
		args     []any
		panels   int
		elements map[string]int // kind/label → count per panel
		legend   []string
		title    []string // fragments of the first panel's title
	}{
		{"density", []any{"mu", "tau"}, 2,
			map[string]int{"line/density": 1, "band/94% HDI": 1, "rule/mean": 1},
			[]string{"94% HDI", "mean"}, []string{"mu", "mean", "94% HDI"}},
		{"median, 50%", []any{"mu", Median(), Prob(0.5)}, 1,
			map[string]int{"rule/median": 1, "band/50% HDI": 1},
			[]string{"50% HDI", "median"}, []string{"median", "50% HDI"}},
		{"histogram", []any{"theta", Histogram(), Bins(15)}, 3,
			map[string]int{"bars/histogram": 1, "line/density": 0},
			[]string{"94% HDI", "mean"}, []string{"theta[0]"}},
		{"reference and ROPE", []any{"mu", Ref(0), ROPE(-0.5, 0.5)}, 1,
			map[string]int{"rule/reference": 1, "band/ROPE": 1},
			[]string{"ROPE [-0.5, 0.5]", "94% HDI", "mean", "reference"}, []string{"< 0 <", "in ROPE"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Posterior(fit, tc.args...)
			ps := f.Panels()
			if len(ps) != tc.panels {
				t.Fatalf("%d panels, want %d", len(ps), tc.panels)
			}
			for _, p := range ps {
				for key, want := range tc.elements {
					kind, label, _ := strings.Cut(key, "/")
					if got := p.Count(kind, label); got != want {
						t.Errorf("panel %q: %d %s %q, want %d", p.Title, got, kind, label, want)
					}
				}
			}
			if got := legendLabels(f); strings.Join(got, "|") != strings.Join(tc.legend, "|") {
				t.Errorf("legend %q, want %q", got, tc.legend)
			}
			for _, frag := range tc.title {
				if !strings.Contains(ps[0].Title, frag) {
					t.Errorf("title %q lacks %q", ps[0].Title, frag)
				}
			}
		})
	}
	checkRenders(t, Posterior(fit, "mu", "tau", Ref(0), ROPE(-0.5, 0.5)))
}

// The title's numbers: for draws 1..100 the mean is 50.5; the 90% HDI of
// an even grid is any window of 90 consecutive values; with reference 25.5,
// 25 of 100 draws lie below it.
func TestPosteriorNumbers(t *testing.T) {
	fit := fixture()
	for c := range fit.Chains {
		for i := range fit.Chains[c].Values[0] {
			fit.Chains[c].Values[0][i] = float64(i%100 + 1)
		}
	}
	f := Posterior(fit, "mu", Prob(0.9), Ref(25.5))
	title := f.Panels()[0].Title
	for _, frag := range []string{"mean 50.5", "25.0% < 25.5 < 75.0%"} {
		if !strings.Contains(title, frag) {
			t.Errorf("title %q lacks %q", title, frag)
		}
	}
}

// TestPercentSplit: the share below a reference and the rest add up to
// 100% in the shown digits; shares too small for one decimal are bounded.
// Expected values by hand (the tester's case: 3998 of 4000 below 3.83,
// which had shown as "100% < 3.83 < 0.05%").
func TestPercentSplit(t *testing.T) {
	cases := []struct {
		k, n        int
		share, rest string
	}{
		{3998, 4000, ">99.9%", "<0.1%"}, // 99.95%: one decimal would show 100.0% beside a non-zero rest
		{1, 4000, "<0.1%", ">99.9%"},
		{3999, 4000, ">99.9%", "<0.1%"},
		{0, 10, "0%", "100%"},
		{10, 10, "100%", "0%"},
		{1, 3, "33.3%", "66.7%"},
		{2, 3, "66.7%", "33.3%"},
		{123, 1000, "12.3%", "87.7%"},
	}
	for _, c := range cases {
		share, rest := percentSplit(c.k, c.n)
		if share != c.share || rest != c.rest {
			t.Errorf("percentSplit(%d, %d) = %q, %q; want %q, %q", c.k, c.n, share, rest, c.share, c.rest)
		}
	}
}

// TestPosteriorTitleLines: with a reference and a ROPE, and heavy tails
// clipped, a panel's title keeps to three lines (name, estimate and HDI,
// the shares) so that three panels a row are not crowded; the clipping
// is said on the x axis.
func TestPosteriorTitleLines(t *testing.T) {
	fit := fixture()
	for c := range fit.Chains {
		for i := range fit.Chains[c].Values[0] {
			fit.Chains[c].Values[0][i] = float64(i % 100)
		}
		fit.Chains[c].Values[0][0] = 1e6 // one far draw: the central 99% is shown
	}
	f := Posterior(fit, "mu", "tau", Ref(0.5), ROPE(-1, 1))
	for _, p := range f.Panels() {
		if n := strings.Count(p.Title, "\n") + 1; n > 3 {
			t.Errorf("panel %q: %d title lines, want at most 3", p.Title, n)
		}
		if !strings.Contains(p.Title, " in ROPE") || !strings.Contains(p.Title, " < 0.5 < ") {
			t.Errorf("panel %q lacks the reference or ROPE share", p.Title)
		}
	}
	if x := f.Panels()[0].XLabel; x != "mu (central 99% shown)" {
		t.Errorf("x label %q, want the clipping said", x)
	}
	checkRenders(t, f)
}

package plotting

import (
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/posterior"
)

func TestPPC(t *testing.T) {
	obsC := []float64{0.3, -1.2, 2.5, 0.7, 1.1}
	var repsC [][]float64
	for i := 0; i < 120; i++ {
		r := make([]float64, len(obsC))
		for j := range r {
			r[j] = obsC[j] + 0.1*float64(i%7) - 0.3
		}
		repsC = append(repsC, r)
	}
	obsN := []float64{0, 1, 1, 2, 3, 3, 3, 5}
	repsN := [][]float64{{0, 1, 2, 2}, {1, 1, 4, 6}, {0, 0, 3, 3}}

	f := PPC(obsC, repsC)
	p := f.Panels()[0]
	// 120 draws over at most 50 lines: every third, 40 lines.
	if got := p.Count("line", "posterior predictive"); got != 40 {
		t.Errorf("continuous: %d draw lines, want 40", got)
	}
	if p.Count("line", "observed") != 1 || p.Count("line", "posterior predictive (pooled)") != 1 {
		t.Errorf("continuous: elements %v", p.Elements)
	}
	checkRenders(t, f)

	g := PPC(obsN, repsN, Labels("prior predictive"))
	q := g.Panels()[0]
	// Values 0..6: seven bars, seven intervals and medians.
	if q.Points("bars", "observed") != 7 || q.Points("interval", "prior predictive 90%") != 7 || q.Points("points", "prior predictive median") != 7 {
		t.Errorf("counts: elements %v", q.Elements)
	}
	if !strings.HasPrefix(g.Title(), "Prior predictive check") {
		t.Errorf("title %q", g.Title())
	}
	checkRenders(t, g)

	if err := PPC(nil, repsN).Err(); err == nil || !strings.Contains(err.Error(), "observed") {
		t.Errorf("no data: %v", err)
	}
	if err := PPC(obsN, nil).Err(); err == nil || !strings.Contains(err.Error(), "predictive draws") {
		t.Errorf("no draws: %v", err)
	}
}

func TestPPCFromPosterior(t *testing.T) {
	// A predictive posterior of 2 chains × 3 draws of y[1..2] and one
	// other column: six replicated data sets of the two y columns.
	rep := &posterior.Posterior{
		Vars:    []posterior.Var{{Name: "y", Shape: []int{2}}, {Name: "z", Start: 2}},
		Columns: []string{"y[0]", "y[1]", "z"},
	}
	for c := 0; c < 2; c++ {
		rep.Chains = append(rep.Chains, posterior.Chain{Values: [][]float64{{1, 2, 3}, {2, 3, 4}, {9, 9, 9}}})
	}
	sets, err := replicates(rep, []string{"y"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) != 6 || len(sets[0]) != 2 || sets[1][0] != 2 || sets[1][1] != 3 {
		t.Errorf("replicates = %v, want six rows of (y[0], y[1]) per draw", sets)
	}
	f := PPC([]float64{1, 2, 3}, rep, "y")
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	// Integers over 1..4: counts, one bar per value.
	if got := f.Panels()[0].Points("bars", "observed"); got != 4 {
		t.Errorf("%d bars, want 4", got)
	}
	if err := PPC([]float64{1}, rep, "w").Err(); err == nil || !strings.Contains(err.Error(), `"w"`) {
		t.Errorf("unknown predictive variable: %v", err)
	}
	if err := PPC([]float64{1}, 3).Err(); err == nil || !strings.Contains(err.Error(), "PosteriorPredictive") {
		t.Errorf("wrong draws type: %v", err)
	}
}

// TestPPCCountsRange: the count plot's y axis leaves room above the
// tallest 90% interval (tutorial 06 cut them at the frame), and its x
// axis ends where the data and the replications do: values that no
// observation has and fewer than 5% of replications reach (one wild
// replicate of 30) draw nothing but a dot at zero and are left out.
func TestPPCCountsRange(t *testing.T) {
	obs := []float64{0, 1, 1, 2, 2, 3}
	var reps [][]float64
	for i := 0; i < 100; i++ {
		r := []float64{0, 1, 1, 2, 2, 3}
		if i%2 == 0 {
			r = []float64{1, 1, 1, 1, 2, 4} // value 1 has frequency 4/6
		}
		reps = append(reps, r)
	}
	reps[7] = []float64{0, 1, 2, 2, 3, 30}
	f := PPC(obs, reps)
	p := f.Panels()[0]
	if got := p.Points("interval", "posterior predictive 90%"); got != 5 {
		t.Errorf("%d intervals, want 5 (values 0..4, not 0..30)", got)
	}
	pl := f.cells[0].p
	if pl.X.Min != -0.5 || pl.X.Max != 4.5 {
		t.Errorf("x range [%g, %g], want [-0.5, 4.5]", pl.X.Min, pl.X.Max)
	}
	// The tallest interval reaches 4/6 (value 1 in half the replicates).
	if top := 4.0 / 6; !(pl.Y.Max > top*1.02) {
		t.Errorf("y axis ends at %g, at the top of the tallest interval (%g): no room above it", pl.Y.Max, top)
	}
	checkRenders(t, f)
}

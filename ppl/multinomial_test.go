package ppl

import (
	"math"
	"strings"
	"testing"
)

func lfact(x float64) float64 { v, _ := math.Lgamma(x + 1); return v }

func TestMultinomial(t *testing.T) {
	y := [][]int{{3, 1, 0}, {0, 2, 2}}
	m := NewModel("mn")
	theta := m.Dirichlet("theta", []float64{1, 1, 1})
	m.Multinomial("y", []int{4, 4}, theta, Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// At the simplex's centre the log density is the Dirichlet(1,1,1)'s
	// log 2 plus the two rows' multinomial masses at p = 1/3 each, plus
	// the transform's Jacobian: compare against the same model with the
	// rows' mass written by hand.
	h := NewModel("mn_hand")
	th := h.Dirichlet("theta", []float64{1, 1, 1})
	konst := lfact(4) - lfact(3) - lfact(1) + lfact(4) - 2*lfact(2)
	h.LogDensity("rows", Add(konst, Dot([]float64{3, 3, 2}, Log(th))))
	ch, err := h.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range [][]float64{{0, 0}, {0.3, -0.8}, {-1.2, 2}} {
		if a, b := c.LogDensity(q), ch.LogDensity(q); math.Abs(a-b) > 1e-10 {
			t.Errorf("at %v: Multinomial %v, by hand %v", q, a, b)
		}
	}
	// Posterior: Dirichlet(1+3+0, 1+1+2, 1+0+2) = Dirichlet(4, 4, 3).
	fit := m.Sample(Seed(3), LiveProgress(false))
	for j, want := range []float64{4.0 / 11, 4.0 / 11, 3.0 / 11} {
		if got := meanOf(t, fit, elementName("theta", j)); math.Abs(got-want) > 0.02 {
			t.Errorf("theta[%d] mean %v; want %v", j, got, want)
		}
	}
	ll := m.LogLik(fit)
	if len(ll.Columns) != 2 {
		t.Errorf("log-likelihood columns %v; want one per row", ll.Columns)
	}
	pred := m.PosteriorPredictive(fit, Seed(4))
	for r := 0; r < 2; r++ {
		for i := range pred.Flat("y[0,0]") {
			s := 0.0
			for k := 0; k < 3; k++ {
				s += pred.Flat("y[" + string(rune('0'+r)) + "," + string(rune('0'+k)) + "]")[i]
			}
			if s != 4 {
				t.Fatalf("a replicated row %d sums to %v; want n = 4", r+1, s)
			}
		}
	}
	for _, c := range []struct {
		f    func(m *Model)
		want string
	}{
		{func(m *Model) { m.Multinomial("y", 4, []float64{0.5, 0.5}) }, "ppl.Observed"},
		{func(m *Model) { m.Multinomial("y", 5, []float64{0.5, 0.5}, Observed([]int{2, 2})) }, "sum to 4 but n is 5"},
		{func(m *Model) { m.Multinomial("y", 4, []float64{0.6, 0.5}, Observed([]int{2, 2})) }, "sums to"},
		{func(m *Model) { m.Multinomial("y", 4, []float64{0.2, 0.3, 0.5}, Observed([]int{2, 2})) }, "want [2]"},
	} {
		err := catch(func() { c.f(NewModel("e")) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v; want %q", err, c.want)
		}
	}
}

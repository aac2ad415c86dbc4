package ppl

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func logisticCDF(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
func normalCDF(x float64) float64   { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// The ordinal families' probabilities against the closed form, for every
// category, at parameters given as data and as variables.
func TestOrderedProbabilities(t *testing.T) {
	cut := []float64{-1.2, 0.3, 2}
	eta := []float64{-3, 0.1, 4}
	for _, c := range []struct {
		fam string
		cdf func(float64) float64
	}{{"OrderedLogistic", logisticCDF}, {"OrderedProbit", normalCDF}} {
		for _, y := range []int{0, 1, 2, 3} {
			m := NewModel("o")
			shift := m.Normal("shift", 0, 1)
			ys := []int{y, y, y}
			e := Add(eta, shift)
			if c.fam == "OrderedLogistic" {
				m.OrderedLogistic("y", e, cut, Observed(ys))
			} else {
				m.OrderedProbit("y", e, cut, Observed(ys))
			}
			cm, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			got := cm.LogDensity([]float64{0}) + 0.5*math.Log(2*math.Pi) // shift = 0: its prior is -log√(2π)
			want := 0.0
			for _, et := range eta {
				lo, hi := 1.0, 0.0 // P(y > y-1), P(y > y)
				if y > 0 {
					lo = 1 - c.cdf(cut[y-1]-et)
				}
				if y < 3 {
					hi = 1 - c.cdf(cut[y]-et)
				}
				want += math.Log(lo - hi)
			}
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("%s y=%d: log-likelihood %v; want %v", c.fam, y, got, want)
			}
		}
	}
}

// Cutpoints and a slope recovered from simulated ratings, and predictive
// draws in range.
func TestOrderedLogisticRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("samples")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	trueCut, beta := []float64{-1, 0.5, 2}, 1.3
	n := 250
	x := make([]float64, n)
	y := make([]int, n)
	for i := range x {
		x[i] = rng.NormFloat64()
		u := rng.Float64()
		y[i] = 3
		for k, c := range trueCut {
			if u < logisticCDF(c-beta*x[i]) {
				y[i] = k
				break
			}
		}
	}
	m := NewModel("ratings")
	b := m.Normal("beta", 0, 2)
	cut := m.Normal("cut", 0, 3, Size(3), Ordered())
	m.OrderedLogistic("y", b.Mul(x), cut, Observed(y))
	fit := m.Sample(Seed(5), Chains(2), Warmup(500), Draws(500), LiveProgress(false))
	check := func(col string, truth float64) {
		d := fit.Flat(col)
		mean, sd := 0.0, 0.0
		for _, v := range d {
			mean += v / float64(len(d))
		}
		for _, v := range d {
			sd += (v - mean) * (v - mean) / float64(len(d))
		}
		sd = math.Sqrt(sd)
		if math.Abs(mean-truth) > 3*sd {
			t.Errorf("%s: posterior mean %.3f (sd %.3f); true %v", col, mean, sd, truth)
		}
	}
	check("beta", beta)
	for k, c := range trueCut {
		check(elementName("cut", k), c)
	}
	pred := m.PosteriorPredictive(fit, Seed(6))
	for _, v := range pred.Flat("y[0]") {
		if v != math.Trunc(v) || v < 0 || v > 3 {
			t.Fatalf("predictive draw %v outside {0, 1, 2, 3}", v)
		}
	}
}

func TestOrderedErrors(t *testing.T) {
	for _, c := range []struct {
		f    func(m *Model)
		want string
	}{
		{func(m *Model) { m.OrderedLogistic("y", 0.0, []float64{1, 0}, Observed([]int{0})) }, "must increase"},
		{func(m *Model) { m.OrderedLogistic("y", 0.0, [][]float64{{1, 2}}, Observed([]int{0})) }, "vector of K-1"},
		{func(m *Model) { m.OrderedProbit("y", 0.0, []float64{0, 1}, Observed([]int{3})) }, "y"},
	} {
		err := catch(func() { c.f(NewModel("e")) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v; want %q", err, c.want)
		}
	}
}

// Predictive draws of a categorical with one row of logits per variate
// take each variate's own row (they were drawn from all the rows' logits
// flattened into one vector, values up to N·K-1).
func TestCategoricalRowsPredictive(t *testing.T) {
	m := NewModel("rows")
	m.CategoricalLogit("y", [][]float64{{20, -20, -20}, {-20, -20, 20}, {-20, 20, -20}}, Observed([]int{0, 2, 1}))
	p := m.PriorPredictive(40, Seed(1))
	for i, want := range []float64{0, 2, 1} {
		for _, v := range p.Flat(elementName("y", i)) {
			if v != want {
				t.Fatalf("y[%d] drawn %v; its logits put all the mass on %v", i, v, want)
			}
		}
	}
}

// The observed categories' own density (built when the variable is
// observed at once) equals the categorical over every category (what a
// variable observed later keeps), in the log density and pointwise.
func TestOrderedPointwiseMatchesCategorical(t *testing.T) {
	x := []float64{-1.5, -0.2, 0.4, 1.1, 2.5, 0}
	y := []int{0, 1, 3, 2, 3, 1}
	build := func(at bool) *Model {
		m := NewModel("o")
		b := m.Normal("b", 0, 1)
		cut := m.Normal("cut", 0, 2, Size(3), Ordered())
		if at {
			m.OrderedProbit("y", b.Mul(x), cut, Observed(y))
		} else {
			m.OrderedProbit("y", b.Mul(x), cut).Observe(y)
		}
		return m
	}
	fast, slow := build(true), build(false)
	cf, err := fast.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cs, err := slow.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 5 {
		q := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if a, b := cf.LogDensity(q), cs.LogDensity(q); math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
			t.Errorf("at %v: pointwise form %v, categorical %v", q, a, b)
		}
	}
	fit := fast.Sample(Seed(2), Chains(1), Warmup(100), Draws(20), LiveProgress(false))
	lf, ls := fast.LogLik(fit), slow.LogLik(fit)
	for j := range lf.Columns {
		a, b := lf.Flat(lf.Columns[j]), ls.Flat(ls.Columns[j])
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-9 {
				t.Fatalf("log_lik[%d] draw %d: %v against %v", j, i, a[i], b[i])
			}
		}
	}
}

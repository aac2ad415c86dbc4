package ppl

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// A latent Bernoulli summed out equals the two-component likelihood
// written by hand, and its recorded probabilities are Bayes' rule.
func TestEnumerateBernoulli(t *testing.T) {
	y := []float64{0.8, 1.9, 1.2, 2.4}
	m := NewModel("e")
	mu := m.Normal("mu", 0, 1)
	delta := m.Normal("delta", 0, 1)
	z := m.Bernoulli("z", 0.3)
	m.Normal("y", mu.Add(delta.Mul(z)), 1, Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Params()); got != 2 {
		t.Fatalf("%d parameters; want mu and delta (z summed out)", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 4 {
		q := []float64{rng.NormFloat64(), rng.NormFloat64()}
		ll := func(shift float64) float64 {
			s := 0.0
			for _, v := range y {
				d := v - q[0] - shift
				s += -0.5*math.Log(2*math.Pi) - d*d/2
			}
			return s
		}
		prior := -math.Log(2*math.Pi) - (q[0]*q[0]+q[1]*q[1])/2
		l0, l1 := math.Log(0.7)+ll(0), math.Log(0.3)+ll(q[1])
		mx := math.Max(l0, l1)
		want := prior + mx + math.Log(math.Exp(l0-mx)+math.Exp(l1-mx))
		if got := c.LogDensity(q); math.Abs(got-want) > 1e-10 {
			t.Errorf("at %v: log density %v; want %v", q, got, want)
		}
		vals, err := c.Constrain(q)
		if err != nil {
			t.Fatal(err)
		}
		p1 := 1 / (1 + math.Exp(l0-l1))
		if got := vals["z_probs"]; len(got) != 2 || math.Abs(got[1]-p1) > 1e-10 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Errorf("z_probs %v; want [%v %v]", got, 1-p1, p1)
		}
	}
	_ = z
}

// A changepoint in counts: the switch time, enumerated over every day,
// and the two rates recovered.
func TestEnumerateChangepoint(t *testing.T) {
	if testing.Short() {
		t.Skip("samples")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	const T, switchAt = 60, 25
	counts := make([]float64, T)
	days := make([]float64, T)
	for i := range counts {
		days[i] = float64(i)
		rate := 2.0
		if i < switchAt {
			rate = 8
		}
		k, l, p := 0, math.Exp(-rate), 1.0
		for p *= rng.Float64(); p > l; p *= rng.Float64() {
			k++
		}
		counts[i] = float64(k)
	}
	uniform := make([]float64, T)
	for i := range uniform {
		uniform[i] = 1.0 / T
	}
	m := NewModel("changepoint")
	early := m.Exponential("early", 0.2)
	late := m.Exponential("late", 0.2)
	s := m.Categorical("s", uniform)
	rate := late.Add(early.Sub(late).Mul(Step(s.Sub(days))))
	m.Poisson("y", rate, Observed(counts))
	fit := m.Sample(Seed(3), LiveProgress(false))
	best, bestP := 0, 0.0
	for k := 0; k < T; k++ {
		if p := meanOf(t, fit, elementName("s_probs", k)); p > bestP {
			best, bestP = k, p
		}
	}
	if best < switchAt-2 || best > switchAt+2 {
		t.Errorf("the most probable switch is day %d (p %.2f); the data switch on day %d", best, bestP, switchAt)
	}
	if e := meanOf(t, fit, "early"); math.Abs(e-8) > 1.5 {
		t.Errorf("early rate %v; want about 8", e)
	}
	if l := meanOf(t, fit, "late"); math.Abs(l-2) > 0.7 {
		t.Errorf("late rate %v; want about 2", l)
	}
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { m.PosteriorPredictive(fit) }, "enumerated"},
		{func() { m.LogLik(fit) }, "enumerated"},
	} {
		if err := catch(c.f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v; want one saying %q", err, c.want)
		}
	}
	m2 := NewModel("d")
	z := m2.Bernoulli("z", 0.5)
	m2.Normal("y", z, 1, Observed([]float64{1}))
	m2.Deterministic("twice", z.Mul(2))
	if err := m2.Err(); err == nil || !strings.Contains(err.Error(), "z_probs") {
		t.Errorf("a deterministic of an enumerated variable: err %v; want one pointing to z_probs", err)
	}
}

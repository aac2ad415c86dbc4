package ppl

import (
	"context"
	"math"
	"strings"
	"testing"
)

// The silent wrong answers of issue 24: each call below once ran and gave
// a plausible but wrong result; now it is an error that says what to do,
// a notice in the cell, or the right result.

// notebook stands for the interpreter's hooks: every cell() is a new
// execution (a new context, as the kernel makes for each cell), and the
// notices ppl shows in the cell are kept.
type notebook struct {
	ctx     context.Context
	cells   int
	notices []string
}

type cellKey struct{}

func (n *notebook) Context() context.Context     { return n.ctx }
func (n *notebook) Progress(string) ProgressSink { return nil }
func (n *notebook) Notice(msg string)            { n.notices = append(n.notices, msg) }
func (n *notebook) cell() {
	n.cells++
	n.ctx = context.WithValue(context.Background(), cellKey{}, n.cells)
}
func (n *notebook) said(parts ...string) bool { return n.find(parts...) >= 0 }
func (n *notebook) find(parts ...string) (at int) {
	for i, s := range n.notices {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(s, p)
		}
		if ok {
			return i
		}
	}
	return -1
}

// inNotebook installs a notebook's hooks for the test, in its first cell.
func inNotebook(t *testing.T) *notebook {
	n := &notebook{}
	n.cell()
	prev := setTestHooks(n)
	t.Cleanup(func() { setTestHooks(prev) })
	return n
}

// TestDefinedTwice: a name defined twice in one run of a cell (or outside
// a notebook) used to merge the two definitions into one variable, and a
// second batch of observations replaced the first. Now it is an error
// naming both definitions; a cell run again still redefines, and says
// what changed.
func TestDefinedTwice(t *testing.T) {
	check := func(what string, f func(), want ...string) {
		t.Helper()
		err := mustFail(t, what, f)
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want it to say %q", what, err, w)
			}
		}
	}
	for _, where := range []string{"no hooks", "one cell"} {
		if where == "one cell" {
			inNotebook(t)
		}
		m := NewModel("m")
		m.Normal("b", 0, 5)
		check(where+": a variable", func() { m.Normal("b", 0, 5) }, "b", "twice", "Normal(0, 5)")
		check(where+": another prior", func() { m.Normal("b", 1, 2) }, "b", "twice", "Normal(0, 5)", "Normal(1, 2)")
		mu := m.Normal("mu", 0, 1)
		m.Normal("y", mu, 1, Observed([]float64{1, 2}))
		check(where+": observed again", func() { m.Normal("y", mu, 1, Observed([]float64{3, 4})) }, "y", "twice")
		z := m.Normal("z", mu, 1).Observe([]float64{1, 2})
		check(where+": Observe twice", func() { z.Observe([]float64{3, 4}) }, "z", "observed", "twice")
		check(where+": Observe the same data twice", func() { z.Observe([]float64{1, 2}) }, "z", "twice")
		m.Deterministic("d", Mul(mu, 2.0))
		check(where+": a quantity", func() { m.Deterministic("d", Mul(mu, 3.0)) }, "d", "twice")
		m.LogDensity("pen", Mul(mu, 2.0))
		check(where+": a term", func() { m.LogDensity("pen", Mul(mu, 2.0)) }, "pen", "twice")
		m.Data("x", []float64{1, 2})
		check(where+": a data container", func() { m.Data("x", []float64{1, 3}) }, "x", "twice")
		if fit := m.Sample(Seed(1), Chains(1), Warmup(20), Draws(10), LiveProgress(false)); fit.Column("b") < 0 || len(fit.Columns) != 3 {
			t.Errorf("%s: the model after the refused calls samples %v", where, fit.Columns)
		}
	}

	// A cell run again redefines, and says what changed.
	nb := inNotebook(t)
	m := NewModel("schools")
	tau := m.HalfCauchy("tau", 5)
	mu := m.Normal("mu", 0, 5)
	y := m.Normal("y", mu, tau).Observe([]float64{1, 2, 3})
	nb.cell()
	if again := m.HalfCauchy("tau", 5); again != tau {
		t.Error("the same cell run again made a new variable")
	}
	if len(nb.notices) != 0 {
		t.Errorf("the same cell run again says %q", nb.notices)
	}
	nb.cell()
	if again := m.HalfNormal("tau", 5); again != tau {
		t.Error("the cell changed and run again made a new variable")
	}
	if !nb.said("tau", "HalfCauchy(5) → HalfNormal(5)") {
		t.Errorf("redefining tau says %q; want tau: HalfCauchy(5) → HalfNormal(5)", nb.notices)
	}
	nb.cell()
	m.Normal("y", mu, tau).Observe([]float64{1, 2, 4})
	if y.v.Data[2] != 4 || !nb.said("y", "data") {
		t.Errorf("new data for y in a cell run again: data %v, notices %q", y.v.Data, nb.notices)
	}
	// Twice in the cell run again is still twice.
	m.Normal("mu", 0, 5)
	check("twice in the cell run again", func() { m.Normal("mu", 0, 5) }, "mu", "twice")
}

// TestPosteriorOfAnotherModelSameColumns: B.PosteriorPredictive(fitA) and
// B.LogLik(fitA) used to run when A's columns had B's names (another data
// set, another prior). A posterior knows the model it came from; another
// model's, or this model's before a cell redefined it, is refused unless
// OtherModel() asks for it.
func TestPosteriorOfAnotherModelSameColumns(t *testing.T) {
	build := func(data []float64, scale float64) *Model {
		m := NewModel("m")
		mu := m.Normal("mu", 0, scale)
		m.Normal("y", mu, 1).Observe(data)
		return m
	}
	a := build([]float64{0.3, 0.5}, 1)
	b := build([]float64{10, 12, 11}, 1)
	fit := a.Sample(Seed(1), Chains(1), Warmup(50), Draws(20), LiveProgress(false))
	for what, f := range map[string]func(){
		"PosteriorPredictive": func() { b.PosteriorPredictive(fit) },
		"LogLik":              func() { b.LogLik(fit) },
	} {
		err := mustFail(t, what, f)
		if !strings.Contains(err.Error(), "OtherModel") {
			t.Errorf("%s: %v; want it to name OtherModel", what, err)
		}
	}
	if pp := b.PosteriorPredictive(fit, OtherModel()); pp.Draws() != 20 {
		t.Errorf("PosteriorPredictive with OtherModel: %d draws", pp.Draws())
	}
	if ll := b.LogLik(fit, OtherModel()); ll.Draws() != 20 {
		t.Errorf("LogLik with OtherModel: %d draws", ll.Draws())
	}
	// The same model built again from the same cells is the same model.
	if pp := build([]float64{0.3, 0.5}, 1).PosteriorPredictive(fit); pp.Draws() != 20 {
		t.Errorf("a twin of the model: %d draws", pp.Draws())
	}
	// The model redefined by a cell run again is another model.
	nb := inNotebook(t)
	c := NewModel("c")
	mu := c.Normal("mu", 0, 1)
	c.Normal("y", mu, 1).Observe([]float64{0.3, 0.5})
	x := c.Data("x", []float64{1, 2})
	c.Deterministic("pred", Mul(mu, x))
	fitC := c.Sample(Seed(1), Chains(1), Warmup(50), Draws(20), LiveProgress(false))
	// New data in a container (SetData) is what prediction is for.
	c.SetData("x", []float64{1, 2, 3})
	if pp := c.PosteriorPredictive(fitC); pp.Draws() != 20 {
		t.Errorf("after SetData: %d draws", pp.Draws())
	}
	nb.cell()
	c.Normal("mu", 0, 10)
	err := mustFail(t, "after a redefinition", func() { c.LogLik(fitC) })
	if !strings.Contains(err.Error(), "before") || !strings.Contains(err.Error(), "OtherModel") {
		t.Errorf("after a redefinition: %v; want it to say the posterior is from before the change, and OtherModel", err)
	}
}

// TestUsingShadowsVariable: Using("a", 100.0) in m.Let used to replace
// the model's variable a in the formula.
func TestUsingShadowsVariable(t *testing.T) {
	m := NewModel("m")
	m.Normal("a", 0, 1)
	m.Data("x", []float64{1, 2})
	for what, f := range map[string]func(){
		"variable": func() { m.Let("mu", "a * 2", Using("a", 100.0)) },
		"data":     func() { m.Formula("x * 2", Using("x", []float64{3, 4})) },
	} {
		err := mustFail(t, what, f)
		name := map[string]string{"variable": "a", "data": "x"}[what]
		if !strings.Contains(err.Error(), "Using(\""+name+"\"") || !strings.Contains(err.Error(), "rename") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if e := m.Let("mu", "a * k", Using("k", 2.0)); e == nil {
		t.Error("Using of a new name")
	}
}

// TestZeroInflatedPyMC: psi is the probability of the count component, as
// in PyMC: ZeroInflatedPoisson(0.9, 3) gives 1 - 0.9 + 0.9·e⁻³ = 14.5%
// zeros (it gave 90%).
func TestZeroInflatedPyMC(t *testing.T) {
	const n = 20000
	cases := []struct {
		name  string
		build func(m *Model) *RV
		zeros float64 // P(0), by hand
		mean  float64
	}{
		{"ZeroInflatedPoisson", func(m *Model) *RV { return m.ZeroInflatedPoisson("y", 0.9, 3.0, Size(n)) },
			0.1 + 0.9*math.Exp(-3), 0.9 * 3},
		// neg_binomial_2(3, 2) has P(0) = (2/5)².
		{"ZeroInflatedNegBinomial", func(m *Model) *RV { return m.ZeroInflatedNegBinomial("y", 0.9, 3.0, 2.0, Size(n)) },
			0.1 + 0.9*0.16, 0.9 * 3},
	}
	for _, c := range cases {
		m := NewModel(c.name)
		c.build(m).Observe(make([]float64, n))
		pp := m.PriorPredictive(1, Seed(3))
		zeros, sum := 0.0, 0.0
		for j := range n {
			v := pp.Chains[0].Values[j][0]
			sum += v
			if v == 0 {
				zeros++
			}
		}
		if got := zeros / n; math.Abs(got-c.zeros) > 0.015 {
			t.Errorf("%s(psi 0.9): %.3f zeros, want %.3f", c.name, got, c.zeros)
		}
		if got := sum / n; math.Abs(got-c.mean) > 0.1 {
			t.Errorf("%s(psi 0.9): mean %.3f, want %.3f", c.name, got, c.mean)
		}
	}
	// The log density: log P(y = 0) + log P(y = 2) of
	// ZeroInflatedPoisson(0.9, λ) at λ = exp(q), the model's log density
	// less its prior's.
	m, prior := NewModel("zip"), NewModel("prior")
	lam := m.LogNormal("lam", 0, 1)
	prior.LogNormal("lam", 0, 1)
	m.ZeroInflatedPoisson("y", 0.9, lam, Observed([]float64{0, 2}))
	q := 0.4
	l := math.Exp(q)
	want := math.Log(0.1+0.9*math.Exp(-l)) + math.Log(0.9) + 2*math.Log(l) - l - math.Log(2)
	if got := logDensityAt(t, m, []float64{q}) - logDensityAt(t, prior, []float64{q}); math.Abs(got-want) > 1e-9 {
		t.Errorf("ZeroInflatedPoisson(0.9, λ) log density %v, want %v", got, want)
	}
}

// TestCategoricalNotNormalised: probabilities from an expression that do
// not sum to 1 (Concat(w, w, 0.5) sums to 2w + 0.5) used to be
// renormalised silently. Sampling now says so, once.
func TestCategoricalNotNormalised(t *testing.T) {
	nb := inNotebook(t)
	m := NewModel("m")
	w := m.Beta("w", 2, 2)
	m.Categorical("y", Concat(w, w, 0.5), Observed([]int{0, 1, 2, 2}))
	m.Sample(Seed(1), Chains(2), Warmup(30), Draws(10), LiveProgress(false))
	if !nb.said("y", "sum", "1") {
		t.Fatalf("notices %q; want one saying y's probabilities do not sum to 1", nb.notices)
	}
	if len(nb.notices) != 1 {
		t.Errorf("%d notices %q; want one", len(nb.notices), nb.notices)
	}
	// A simplex says nothing.
	nb.notices = nil
	s := NewModel("s")
	p := s.Dirichlet("p", []float64{1, 1, 1})
	s.Categorical("y", p, Observed([]int{0, 1, 2, 2}))
	e := NewModel("e")
	a := e.Normal("a", 0, 1)
	e.Categorical("y", Softmax(Concat(a, 0.0, 1.0)), Observed([]int{0, 1, 2, 2}))
	for _, m := range []*Model{s, e} {
		m.Sample(Seed(1), Chains(2), Warmup(30), Draws(10), LiveProgress(false))
	}
	if len(nb.notices) != 0 {
		t.Errorf("a simplex: notices %q", nb.notices)
	}
}

// TestTargetAcceptZero: TargetAccept(0) used to run with 0.8.
func TestTargetAcceptZero(t *testing.T) {
	m := NewModel("m")
	m.Normal("mu", 0, 1)
	for _, a := range []float64{0, 1, -0.5, 1.5} {
		err := mustFail(t, "TargetAccept", func() { m.Sample(TargetAccept(a), LiveProgress(false)) })
		if !strings.Contains(err.Error(), "TargetAccept") || !strings.Contains(err.Error(), "(0, 1)") {
			t.Errorf("TargetAccept(%v): %v", a, err)
		}
	}
}

// TestArgumentOutsideDomain: a Poisson rate, a Bernoulli p or a scale
// built from a Normal variable used to sample, ending in divergences and
// advice to go non-centred. The argument's range is checked when the
// model is built.
func TestArgumentOutsideDomain(t *testing.T) {
	bad := []struct {
		what  string
		build func(m *Model)
		want  []string
	}{
		{"Poisson rate from a Normal", func(m *Model) {
			eta := m.Normal("eta", 0, 1)
			m.Poisson("k", eta, Observed([]float64{1, 2}))
		}, []string{"k", "rate", "eta", "PoissonLog"}},
		{"Poisson rate from a sum", func(m *Model) {
			a := m.Normal("a", 0, 1)
			b := m.Normal("b", 0, 1)
			m.Poisson("k", Add(a, Mul(b, []float64{1, 2})), Observed([]float64{1, 2}))
		}, []string{"k", "rate", "PoissonLog"}},
		{"Bernoulli p", func(m *Model) {
			a := m.Normal("a", 0, 1)
			m.Bernoulli("y", Add(0.5, a), Observed([]float64{1, 0}))
		}, []string{"y", "p", "BernoulliLogit"}},
		{"a scale", func(m *Model) {
			s := m.Normal("s", 1, 1)
			m.Normal("y", 0, s, Observed([]float64{1, 0}))
		}, []string{"y", "sigma", "HalfNormal"}},
		{"a scale through a quantity", func(m *Model) {
			s := m.Normal("s", 1, 1)
			d := m.Deterministic("d", Mul(2.0, s))
			m.Normal("x", 0, d)
		}, []string{"x", "sigma", "d"}},
	}
	for _, c := range bad {
		m := NewModel("m")
		err := mustFail(t, c.what, func() { c.build(m) })
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v; want it to say %q", c.what, err, w)
			}
		}
	}
	// Links and positive priors keep an argument in its domain.
	m := NewModel("good")
	a := m.Normal("a", 0, 1)
	h := m.HalfNormal("h", 1)
	m.Poisson("k1", Exp(a), Observed([]float64{1}))
	m.Poisson("k2", Softplus(Add(a, 1.0)), Observed([]float64{1}))
	m.Poisson("k3", Mul(h, []float64{2, 3}), Observed([]float64{1, 2}))
	m.Poisson("k4", Add(h, 1.0), Observed([]float64{1}))
	m.Bernoulli("b1", Logistic(a), Observed([]float64{1}))
	m.Bernoulli("b2", m.Beta("p", 1, 1), Observed([]float64{1}))
	m.Normal("y1", a, h, Observed([]float64{1}))
	m.Normal("y2", a, Exp(a), Observed([]float64{1}))
	m.Normal("y3", a, Abs(a), Observed([]float64{1}))
	m.Normal("y4", a, Add(Square(a), 0.1), Observed([]float64{1}))
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	// A cell run again can make an argument's variable unbounded: the
	// model then fails to compile, naming the variable.
	nb := inNotebook(t)
	r := NewModel("rerun")
	s := r.HalfNormal("s", 1)
	r.Poisson("k", s, Observed([]float64{1}))
	nb.cell()
	r.Normal("s", 0, 1)
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "k") || !strings.Contains(err.Error(), "PoissonLog") {
		t.Errorf("the rate's variable redefined as a Normal: %v; want an error naming k and PoissonLog", err)
	}
}

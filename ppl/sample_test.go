package ppl

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
)

// conjugate is mu ~ Normal(0, 10), y_i ~ Normal(mu, 1) for the data y, and
// sigma ~ HalfNormal(2) with no data. Closed forms: mu's posterior is
// Normal(Σy/(n + 1/100), 1/sqrt(n + 1/100)); sigma keeps its prior, of
// mean 2·sqrt(2/π).
func conjugate() (*Model, float64, float64) {
	y := []float64{1.2, 0.4, 2.2, 1.9, 0.8}
	m := NewModel("conjugate")
	mu := m.Normal("mu", 0, 10)
	m.HalfNormal("sigma", 2)
	m.Normal("y", mu, 1).Observe(y)
	prec := float64(len(y)) + 1.0/100
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	return m, sum / prec, 1 / math.Sqrt(prec)
}

func TestSampleConjugate(t *testing.T) {
	m, mean, sd := conjugate()
	p := m.Sample(Seed(5), Chains(4), Warmup(500), Draws(1000), LiveProgress(false))
	for _, c := range []struct {
		col  string
		want float64
	}{
		{"mu", mean},
		{"sigma", 2 * math.Sqrt(2/math.Pi)},
	} {
		ch := p.ByChain(c.col)
		flat := diag.Flatten(ch)
		got := 0.0
		for _, v := range flat {
			got += v / float64(len(flat))
		}
		if se := diag.MCSEMean(ch); math.Abs(got-c.want) > 5*se {
			t.Errorf("%s: mean %.4f, want %.4f ± %.4f (5 MCSE)", c.col, got, c.want, 5*se)
		}
		if r := diag.Rhat(ch); r > 1.01 {
			t.Errorf("%s: R-hat %.3f", c.col, r)
		}
	}
	row := p.Summary("mu").Rows[0]
	if math.Abs(row.SD-sd) > 0.1*sd {
		t.Errorf("sd of mu %.4f, want %.4f within 10%%", row.SD, sd)
	}
	if !strings.Contains(p.HTML(), "<table") {
		t.Error("posterior does not render as an HTML table")
	}
}

func TestSampleReproducible(t *testing.T) {
	m, _, _ := conjugate()
	a := m.Sample(Seed(9), Warmup(100), Draws(50), LiveProgress(false))
	b := m.Sample(Seed(9), Warmup(100), Draws(50), LiveProgress(false))
	c := m.Sample(Seed(10), Warmup(100), Draws(50), LiveProgress(false))
	if a.Chains[3].Values[0][49] != b.Chains[3].Values[0][49] {
		t.Error("same seed, different draws")
	}
	if a.Chains[3].Values[0][49] == c.Chains[3].Values[0][49] {
		t.Error("different seeds, same draw")
	}
}

func TestSampleOptionsAndErrors(t *testing.T) {
	m, _, _ := conjugate()
	var last []infer.ChainProgress
	p := m.Sample(RWMH(), Chains(2), Warmup(200), Draws(300), Seed(1), Progress(func(ps []infer.ChainProgress) {
		last = append(last[:0], ps...)
	}))
	if p.Sampler != "RWMH" || len(p.Chains) != 2 || p.Draws() != 300 || p.Warmup != 200 {
		t.Errorf("sampler %s, %d chains × %d draws, warm-up %d", p.Sampler, len(p.Chains), p.Draws(), p.Warmup)
	}
	if len(last) != 2 || !last[1].Done || last[1].Iteration != 500 {
		t.Errorf("final progress %+v", last)
	}
	// Cancelled before it starts: no draws, Interrupted.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if q := m.Sample(Context(ctx), LiveProgress(false)); !q.Interrupted || q.Draws() != 0 {
		t.Errorf("cancelled run: interrupted %v, %d draws", q.Interrupted, q.Draws())
	}
	// Interrupting the notebook cell (the context of the installed hooks)
	// stops it too.
	prev := setTestHooks(&testHooks{ctx: ctx})
	q := m.Sample(LiveProgress(false))
	setTestHooks(prev)
	if !q.Interrupted {
		t.Error("run not interrupted by the cell's cancelled context")
	}
	// A bad option panics with a *ppl.Error saying what to do.
	func() {
		defer func() {
			e, ok := recover().(*Error)
			if !ok || !strings.Contains(e.Error(), "target acceptance") {
				t.Errorf("TargetAccept(1.5): panic %v, want a *ppl.Error about the target acceptance", e)
			}
		}()
		m.Sample(TargetAccept(1.5))
	}()
}

func TestInitValues(t *testing.T) {
	m, _, _ := conjugate()
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	xs, err := c.initialPositions(map[string]any{"sigma": 0.7, "mu": -3}, infer.Config{Chains: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		v, err := c.Constrain(x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v["sigma"][0]-0.7) > 1e-9 || math.Abs(v["mu"][0]+3) > 1e-9 {
			t.Errorf("initial values %v, want sigma 0.7 and mu -3", v)
		}
	}
	for _, bad := range []map[string]any{{"sigma": -1.0}, {"nu": 1.0}, {"mu": "a"}} {
		if _, err := c.initialPositions(bad, infer.Config{}); err == nil {
			t.Errorf("Init %v accepted", bad)
		}
	}
}

func colMeanSD(x []float64) (float64, float64) {
	m := 0.0
	for _, v := range x {
		m += v / float64(len(x))
	}
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

// TestMAP: mu's posterior is normal, so its mode is its mean; for sigma ~
// HalfNormal(2) the unconstrained density of u = log sigma is
// ∝ sigma·exp(-sigma²/8), whose mode is sigma = 2.
func TestMAP(t *testing.T) {
	m, mean, _ := conjugate()
	r := m.MAP(Seed(1))
	if math.Abs(r.Values["mu"][0]-mean) > 1e-5 || math.Abs(r.Values["sigma"][0]-2) > 1e-5 {
		t.Errorf("MAP mu %g sigma %g, want %g and 2", r.Values["mu"][0], r.Values["sigma"][0], mean)
	}
}

func TestADVI(t *testing.T) {
	m, mean, sd := conjugate()
	for _, opts := range [][]SampleOption{{Seed(2)}, {Seed(2), FullRank()}} {
		r := m.ADVI(opts...)
		mu, musd := colMeanSD(r.Posterior.Flat("mu"))
		// For a normal posterior ADVI is exact in expectation, but with
		// Stan's default stopping rule (relative ELBO change below 1%) the
		// stochastic optimum stops a fraction of an sd away (Yao et al.
		// 2018): a band of 30% of an sd on both.
		if math.Abs(mu-mean) > 0.3*sd || math.Abs(musd-sd) > 0.3*sd {
			t.Errorf("%s: mu mean %.3f sd %.3f, want %.3f and %.3f", r.Method, mu, musd, mean, sd)
		}
	}
}

func TestPredictive(t *testing.T) {
	m, mean, sd := conjugate()
	// Prior: mu ~ N(0, 10), y[i] | mu ~ N(mu, 1), so y[i] ~ N(0, sqrt(101)).
	prior := m.PriorPredictive(4000, Seed(3))
	ym, ysd := colMeanSD(prior.Flat("y[1]"))
	if math.Abs(ym) > 4*math.Sqrt(101/4000.0) || math.Abs(ysd-math.Sqrt(101)) > 0.1*math.Sqrt(101) {
		t.Errorf("prior predictive y[1]: mean %.3f sd %.3f, want 0 and %.3f", ym, ysd, math.Sqrt(101))
	}
	// Posterior: y_rep[i] ~ N(mean, sqrt(1 + sd²)).
	fit := m.Sample(Seed(4), LiveProgress(false))
	rep := m.PosteriorPredictive(fit, Seed(5))
	if rep.Draws() != fit.Draws() || len(rep.Chains) != 4 || rep.Column("y[4]") < 0 {
		t.Fatalf("posterior predictive: %d chains × %d draws, columns %v", len(rep.Chains), rep.Draws(), rep.Columns)
	}
	rm, rsd := colMeanSD(rep.Flat("y[0]"))
	want := math.Sqrt(1 + sd*sd)
	if math.Abs(rm-mean) > 4*want/math.Sqrt(4000)*1.5 || math.Abs(rsd-want) > 0.1*want {
		t.Errorf("posterior predictive y[0]: mean %.3f sd %.3f, want %.3f and %.3f", rm, rsd, mean, want)
	}
	// Pointwise log-likelihood: log N(y[1] = 1.2 | mu, 1) at each draw.
	ll := m.LogLik(fit)
	mu := fit.Chains[2].Values[fit.Column("mu")][17]
	got := ll.Chains[2].Values[0][17]
	if w := -0.5*(1.2-mu)*(1.2-mu) - 0.5*math.Log(2*math.Pi); math.Abs(got-w) > 1e-9 {
		t.Errorf("log_lik[0] = %g, want %g", got, w)
	}
	// LOO of this model: 5 observations, all reliable, p_loo near the one
	// parameter the data inform.
	loo := ll.LOO()
	if len(loo.Pointwise) != 5 || loo.P < 0.5 || loo.P > 1.5 {
		t.Errorf("LOO %v", loo)
	}
}

// Sampling a model: four chains of NUTS, reproducible from the seed. The
// posterior of mu is normal with mean 6.5/5.01 ≈ 1.30.
func ExampleModel_Sample() {
	m := NewModel("conjugate")
	mu := m.Normal("mu", 0, 10)
	m.Normal("y", mu, 1).Observe([]float64{1.2, 0.4, 2.2, 1.9, 0.8})
	fit := m.Sample(Seed(1), LiveProgress(false))
	row := fit.Summary("mu").Rows[0]
	fmt.Printf("mu: mean %.1f, sd %.1f, R-hat below 1.01: %v, divergences: %d\n", row.Mean, row.SD, row.Rhat < 1.01, fit.Divergences())
	// Output:
	// mu: mean 1.3, sd 0.4, R-hat below 1.01: true, divergences: 0
}

// The mode on the unconstrained scale: for mu (unbounded) the posterior
// mode 6.5/5.01; for sigma ~ HalfNormal(2), sampled as log sigma, the
// mode of sigma·p(sigma), which is 2.
func ExampleModel_MAP() {
	m := NewModel("conjugate")
	mu := m.Normal("mu", 0, 10)
	m.HalfNormal("sigma", 2)
	m.Normal("y", mu, 1).Observe([]float64{1.2, 0.4, 2.2, 1.9, 0.8})
	r := m.MAP(Seed(1))
	fmt.Printf("mu %.3f sigma %.3f\n", r.Values["mu"][0], r.Values["sigma"][0])
	// Output:
	// mu 1.297 sigma 2.000
}

// testHooks stand for the notebook: a context, and a progress sink that
// records what it is sent.
type testHooks struct {
	ctx      context.Context
	models   []string
	updates  int
	last     []infer.ChainProgress
	finished []bool
}

func (h *testHooks) Context() context.Context { return h.ctx }

func (h *testHooks) Progress(model string) ProgressSink {
	h.models = append(h.models, model)
	return h
}

func (h *testHooks) Update(ps []infer.ChainProgress) {
	h.updates++
	h.last = append(h.last[:0], ps...)
}

func (h *testHooks) Finish(interrupted bool) { h.finished = append(h.finished, interrupted) }

// TestHooks: a run asks the installed hooks for its context and its live
// progress, sends every report there and ends it with Finish; an explicit
// Progress option or LiveProgress(false) keeps it away from the hooks.
func TestHooks(t *testing.T) {
	h := &testHooks{ctx: context.Background()}
	prev := setTestHooks(h)
	defer setTestHooks(prev)
	m, _, _ := conjugate()
	m.Sample(Seed(1), Chains(2), Warmup(100), Draws(100))
	if len(h.models) != 1 || h.models[0] != "conjugate" || h.updates == 0 || len(h.finished) != 1 || h.finished[0] {
		t.Fatalf("hooks saw models %v, %d updates, finished %v", h.models, h.updates, h.finished)
	}
	if len(h.last) != 2 || !h.last[1].Done || h.last[1].Iteration != 200 {
		t.Errorf("last report %+v", h.last)
	}
	m.Sample(Seed(1), Chains(2), Warmup(10), Draws(10), LiveProgress(false))
	m.Sample(Seed(1), Chains(2), Warmup(10), Draws(10), Progress(func([]infer.ChainProgress) {}))
	if len(h.models) != 1 {
		t.Errorf("LiveProgress(false) or Progress(f) still asked the hooks: %v", h.models)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.ctx = ctx
	if q := m.Sample(Seed(1)); !q.Interrupted || len(h.finished) != 2 || !h.finished[1] {
		t.Errorf("cancelled hook context: interrupted %v, finished %v", q.Interrupted, h.finished)
	}
}

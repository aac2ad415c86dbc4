package ppl

import (
	"context"
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

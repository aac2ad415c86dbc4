package ppl_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// ChEES, MEADS and RWMH with many chains go through package lockstep: 16
// kept chains in the posterior, named by their sampler, centred on the
// posterior mean of a conjugate normal model (y ~ N(mu, 1), mu ~ N(0, 1),
// ten observations of mean 1: posterior N(10/11, 1/11)).
func TestSampleLockstep(t *testing.T) {
	y := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	for _, c := range []struct {
		name string
		opt  ppl.SampleOption
	}{{"ChEES", ppl.ChEES()}, {"MEADS", ppl.MEADS()}, {"RWMH", ppl.RWMH()}} {
		m := ppl.NewModel("conjugate")
		mu := m.Normal("mu", 0, 1)
		m.Normal("y", mu, 1, ppl.Observed(y))
		p := m.Sample(c.opt, ppl.Chains(128), ppl.Warmup(300), ppl.Draws(200), ppl.Seed(3), ppl.Context(context.Background()), ppl.LiveProgress(false))
		if p.Sampler != c.name || len(p.Chains) != 16 || p.Draws() != 200 {
			t.Fatalf("%s: sampler %q, %d chains, %d draws", c.name, p.Sampler, len(p.Chains), p.Draws())
		}
		// Summaries, diagnostics and Stan CSV work unchanged.
		if txt := p.String(); !strings.Contains(txt, "mu") || !strings.Contains(txt, "16 kept of 128 chains") || p.RunChains != 128 {
			t.Errorf("%s: summary does not show mu or say that 16 of 128 chains are kept (RunChains %d):\n%s", c.name, p.RunChains, txt)
		}
		var csv strings.Builder
		if err := p.WriteChainCSV(&csv, 0); err != nil || !strings.Contains(csv.String(), "lp__") {
			t.Errorf("%s: Stan CSV of a kept chain: %v", c.name, err)
		}
		// 3200 draws with an autocorrelation time below 20: MCSE below
		// √(20/11/3200) ≈ 0.024.
		if mean := meanOf(p.Chains, 0); math.Abs(mean-10.0/11) > 0.1 {
			t.Errorf("%s: posterior mean %.3f, want %.3f", c.name, mean, 10.0/11)
		}
		// The streaming moments of all 128 chains: 25,600 draws, MCSE of
		// the mean below √(20/11/25600) ≈ 0.008.
		e := p.Ensemble
		if e == nil || e.Chains != 128 || e.Draws != 200 || len(e.Names) != 1 || e.Names[0] != "mu" {
			t.Fatalf("%s: ensemble %+v, want mu over 128 chains × 200 draws", c.name, e)
		}
		if math.Abs(e.Mean[0]-10.0/11) > 0.04 || math.Abs(e.SD[0]-math.Sqrt(1.0/11)) > 0.04 {
			t.Errorf("%s: ensemble mean %.4f sd %.4f, want %.4f and %.4f", c.name, e.Mean[0], e.SD[0], 10.0/11, math.Sqrt(1.0/11))
		}
		if txt := e.String(); !strings.Contains(txt, "all 128 chains × 200 draws") || !strings.Contains(txt, "mu") {
			t.Errorf("%s: ensemble text:\n%s", c.name, txt)
		}
	}
}

// The ensemble names a constrained parameter's coordinate as unconstrained
// and a vector's coordinates as the posterior's columns.
func TestSampleLockstepEnsembleNames(t *testing.T) {
	m := ppl.NewModel("names")
	m.HalfNormal("sigma", 1)
	m.Normal("theta", 0, 1, ppl.Size(2))
	p := m.Sample(ppl.ChEES(), ppl.Chains(64), ppl.Warmup(50), ppl.Draws(20), ppl.Seed(1), ppl.Context(context.Background()), ppl.LiveProgress(false))
	if got := strings.Join(p.Ensemble.Names, ", "); got != "sigma (unconstrained), theta[0], theta[1]" {
		t.Errorf("ensemble names %q", got)
	}
}

// Init starts every lockstep chain at the position given: the adaptation
// across chains still finds the posterior from one common start, the
// first draws sit at the start, and a parameter left out is named.
func TestSampleLockstepInit(t *testing.T) {
	y := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	model := func() *ppl.Model {
		m := ppl.NewModel("conjugate")
		mu := m.Normal("mu", 0, 1)
		m.Normal("y", mu, 1, ppl.Observed(y))
		return m
	}
	quiet := []ppl.SampleOption{ppl.Seed(5), ppl.Context(context.Background()), ppl.LiveProgress(false)}

	p := model().Sample(append(quiet, ppl.ChEES(), ppl.Chains(128), ppl.Warmup(300), ppl.Draws(200),
		ppl.Init(map[string]any{"mu": 3.0}))...)
	if mean := meanOf(p.Chains, 0); math.Abs(mean-10.0/11) > 0.1 {
		t.Errorf("ChEES from mu = 3: posterior mean %.3f, want %.3f", mean, 10.0/11)
	}

	// No warm-up, one draw: random-walk steps of the default scale cannot
	// leave (45, 55) from 50; the uniform start in (-2, 2) would be far.
	p = model().Sample(append(quiet, ppl.RWMH(), ppl.Chains(64), ppl.Warmup(0), ppl.Draws(1),
		ppl.Init(map[string]any{"mu": 50.0}))...)
	for k, ch := range p.Chains {
		if v := ch.Values[0][0]; v < 45 || v > 55 {
			t.Fatalf("RWMH chain %d starts at mu = %g, want about 50", k+1, v)
		}
	}

	m := model()
	m.Normal("nu", 0, 1)
	func() {
		defer func() {
			err, _ := recover().(*ppl.Error)
			if err == nil || !strings.Contains(err.Error(), "nu") {
				t.Errorf("MEADS with no initial value for nu: %v, want an error naming nu", err)
			}
		}()
		m.Sample(append(quiet, ppl.MEADS(), ppl.Init(map[string]any{"mu": 0.5}))...)
	}()
}

// meanOf is the mean of scalar j over every draw of chains.
func meanOf(chains []posterior.Chain, j int) float64 {
	sum, n := 0.0, 0
	for _, ch := range chains {
		for _, v := range ch.Values[j] {
			sum += v
			n++
		}
	}
	return sum / float64(n)
}

// RWMH with the default 4 chains runs in lockstep too, and looks as a
// NUTS run does: every chain kept and summarised, the same draws from the
// same seed, Init leaving parameters out (they start at random, per
// chain), and an interrupted run keeping its draws.
func TestSampleRWMHFewChains(t *testing.T) {
	y := []float64{0.8, 1.3, 0.2, 1.9, 1.1, 0.6, 1.4, 0.9}
	m := ppl.NewModel("normal")
	mu := m.Normal("mu", 0, 1)
	sigma := m.HalfNormal("sigma", 1)
	m.Normal("y", mu, sigma, ppl.Observed(y))
	run := func(seed uint64, opts ...ppl.SampleOption) *posterior.Posterior {
		return m.Sample(append([]ppl.SampleOption{ppl.RWMH(), ppl.Warmup(300), ppl.Draws(200), ppl.Seed(seed),
			ppl.Init(map[string]any{"mu": 0.5}), ppl.Context(context.Background()), ppl.LiveProgress(false)}, opts...)...)
	}
	a, b, c := run(1), run(1), run(2)
	if len(a.Chains) != 4 || a.RunChains != 0 || a.Draws() != 200 || a.Sampler != "RWMH" {
		t.Fatalf("%s: %d chains × %d draws (RunChains %d)", a.Sampler, len(a.Chains), a.Draws(), a.RunChains)
	}
	if txt := a.String(); !strings.Contains(txt, "normal: RWMH, 4 chains × 200 draws") || !strings.Contains(txt, "sigma") {
		t.Errorf("summary caption or rows:\n%s", txt)
	}
	if a.Chains[3].Values[1][199] != b.Chains[3].Values[1][199] {
		t.Error("same seed, different draws")
	}
	if a.Chains[3].Values[1][199] == c.Chains[3].Values[1][199] {
		t.Error("different seeds, same draw")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if q := run(1, ppl.Context(ctx)); !q.Interrupted || q.Draws() != 0 || ppl.LastRun() != q {
		t.Errorf("cancelled run: interrupted %v, %d draws, LastRun %p (run %p)", q.Interrupted, q.Draws(), ppl.LastRun(), q)
	}
}

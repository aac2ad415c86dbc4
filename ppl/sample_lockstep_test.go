package ppl_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl"
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
		if txt := p.String(); !strings.Contains(txt, "mu") {
			t.Errorf("%s: summary does not show mu:\n%s", c.name, txt)
		}
		var csv strings.Builder
		if err := p.WriteChainCSV(&csv, 0); err != nil || !strings.Contains(csv.String(), "lp__") {
			t.Errorf("%s: Stan CSV of a kept chain: %v", c.name, err)
		}
		sum, n := 0.0, 0
		for _, ch := range p.Chains {
			for _, v := range ch.Values[0] {
				sum += v
				n++
			}
		}
		// 3200 draws with an autocorrelation time below 20: MCSE below
		// √(20/11/3200) ≈ 0.024.
		if mean := sum / float64(n); math.Abs(mean-10.0/11) > 0.1 {
			t.Errorf("%s: posterior mean %.3f, want %.3f", c.name, mean, 10.0/11)
		}
	}
}

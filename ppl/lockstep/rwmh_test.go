package lockstep_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"gonum.org/v1/gonum/stat"
)

// scaled is x ~ N(0, 0.01²), y ~ N(3, 100²): scales 10⁴ apart, which a
// random walk crosses only with a proposal scale adapted per coordinate.
func scaled(t testing.TB) *ppl.Compiled {
	m := ppl.NewModel("scaled")
	m.Normal("x", 0, 0.01)
	m.Normal("y", 3, 100)
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// With as few chains as NUTS runs, RWMH adapts its proposal from the
// windows' draws pooled over chains: the proposal's variances come out in
// the ratio of the posterior's (10⁸), and the kept chains' moments match
// the posterior within their Monte Carlo standard errors, with R-hat
// below 1.01. From the spread across 4 chains at one step, or with one
// scale for both coordinates, y would not reach its sd of 100.
func TestRWMHFewChains(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	for _, chains := range []int{1, 4} {
		cfg := lockstep.Config{Sampler: infer.RWMH, Chains: chains, Warmup: 2000, Draws: 20000, Seed: 3}
		res, err := lockstep.Run(context.Background(), scaled(t), cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := res.Posterior
		if len(p.Chains) != chains || p.RunChains != 0 || p.Draws() != cfg.Draws {
			t.Fatalf("%d chains: posterior of %d chains × %d draws (RunChains %d)", chains, len(p.Chains), p.Draws(), p.RunChains)
		}
		inv := p.Chains[0].Adaptation.InvMetric
		if r := inv[1] / inv[0]; r < 1e8/4 || r > 1e8*4 {
			t.Errorf("%d chains: proposal variances %v, ratio %.3g; want about 1e8", chains, inv, r)
		}
		for j, want := range []struct{ mean, sd float64 }{{0, 0.01}, {3, 100}} {
			ch := p.ByChain(p.Columns[j])
			flat := diag.Flatten(ch)
			mean, sd := stat.MeanStdDev(flat, nil)
			se := sd / math.Sqrt(diag.ESSBulk(ch))
			if math.Abs(mean-want.mean) > 4*se || math.Abs(sd-want.sd) > 0.1*want.sd {
				t.Errorf("%d chains, %s: mean %.4g ± %.2g, sd %.4g; want %g and %g", chains, p.Columns[j], mean, 4*se, sd, want.mean, want.sd)
			}
			if r := diag.Rhat(ch); chains > 1 && !(r < 1.01) {
				t.Errorf("%d chains, %s: R-hat %.4f", chains, p.Columns[j], r)
			}
		}
	}
}

// InitChains starts each chain at its own position; where the log density
// is not finite there, or at every random start, the error names the terms.
func TestInitChainsAndNonFiniteStarts(t *testing.T) {
	m := ppl.NewModel("above5")
	x := m.Normal("x", 0, 10)
	m.LogDensity("needs_x_above_5", ppl.Log(ppl.Sub(x, 5)))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	starts := [][]float64{{6}, {7}, {8}}
	res, err := lockstep.Run(context.Background(), c, lockstep.Config{Sampler: infer.RWMH, Chains: 3, NoWarmup: true, Draws: 1, Scale: 1e-9, InitChains: starts})
	if err != nil {
		t.Fatal(err)
	}
	for k, ch := range res.Posterior.Chains {
		if v := ch.Values[0][0]; math.Abs(v-starts[k][0]) > 1e-6 {
			t.Errorf("chain %d starts at %g, want %g", k+1, v, starts[k][0])
		}
	}
	for _, cfg := range []lockstep.Config{
		{InitChains: [][]float64{{6}, {0}, {8}}, Chains: 3},
		{Init: []float64{1}, Chains: 3},
		{InitRadius: 1, Chains: 3}, // uniform(-1, 1): never above 5
	} {
		cfg.Sampler, cfg.Draws = infer.RWMH, 10
		_, err := lockstep.Run(context.Background(), c, cfg)
		if err == nil || !strings.Contains(err.Error(), "needs_x_above_5") {
			t.Errorf("starts %v / %v / radius %g: error %v, want one naming needs_x_above_5", cfg.InitChains, cfg.Init, cfg.InitRadius, err)
		}
	}
}

// With Dense the proposal's covariance is the windows' pooled covariance:
// on a normal of correlation 0.995 it comes out correlated as the
// posterior, the posterior's second moments are right, and the random
// walk mixes far faster than with the diagonal proposal.
func TestRWMHDense(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	m := ppl.NewModel("ridge")
	x := m.Normal("x", 0, 1)
	m.Normal("y", ppl.Mul(0.995, x), math.Sqrt(1-0.995*0.995))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	ess := map[bool]float64{}
	for _, dense := range []bool{false, true} {
		cfg := lockstep.Config{Sampler: infer.RWMH, Chains: 4, Warmup: 2000, Draws: 5000, Seed: 7, Dense: dense}
		res, err := lockstep.Run(context.Background(), c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		p := res.Posterior
		a := p.Chains[0].Adaptation
		if a.Dense != dense || (p.Settings.Metric == "dense_e") != dense {
			t.Fatalf("dense %v: adaptation dense %v, metric %s", dense, a.Dense, p.Settings.Metric)
		}
		if dense {
			if r := a.InvMetric[1] / math.Sqrt(a.InvMetric[0]*a.InvMetric[3]); r < 0.98 {
				t.Errorf("proposal covariance %v: correlation %.4f, want about 0.995", a.InvMetric, r)
			}
			ch := p.ByChain("y")
			if _, sd := stat.MeanStdDev(diag.Flatten(ch), nil); math.Abs(sd-1) > 0.1 {
				t.Errorf("dense: sd of y %.3f, want 1", sd)
			}
			if r := diag.Rhat(ch); !(r < 1.01) {
				t.Errorf("dense: R-hat of y %.4f", r)
			}
		}
		ess[dense] = diag.ESSBulk(p.ByChain("y"))
	}
	t.Logf("bulk ESS of y: dense %.0f, diagonal %.0f", ess[true], ess[false])
	if !(ess[true] > 4*ess[false]) {
		t.Errorf("bulk ESS of y: %.0f with the dense proposal, %.0f with the diagonal; want at least 4 times more", ess[true], ess[false])
	}
}

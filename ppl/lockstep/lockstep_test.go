package lockstep_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/vec"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

func stdNormal(t testing.TB, dim int) *ppl.Compiled {
	m := ppl.NewModel("std_normal")
	m.Normal("x", 0, 1, ppl.Size(dim))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// correlated is a bivariate normal with unit variances and correlation
// 0.9, written as x ~ N(0, 1), y | x ~ N(0.9x, √(1-0.81)).
func correlated(t testing.TB) *ppl.Compiled {
	m := ppl.NewModel("correlated")
	x := m.Normal("x", 0, 1)
	m.Normal("y", ppl.Mul(0.9, x), math.Sqrt(1-0.81))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mixture1D is 0.3·N(−1, 0.8²) + 0.7·N(1.5, 1.2²), one-dimensional RWMH's
// density-space path: mean 0.75, variance 0.3(0.64+1) + 0.7(1.44+2.25) −
// 0.75² = 2.5125.
func mixture1D(t testing.TB) *ppl.Compiled {
	m := ppl.NewModel("mixture1d")
	x := m.Flat("x")
	m.LogDensity("mix", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-1, 1.5}, []float64{0.8, 1.2}),
		[]float64{math.Log(0.3), math.Log(0.7)})))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The ensemble moments of every sampler on a standard normal and on a
// correlated normal (exact: mean 0, variance 1), and of RWMH on a
// one-dimensional mixture, against their Monte Carlo
// standard errors. The draws of different chains are independent, so the
// MCSE of the mean is sd/√(chains·ESS per chain); we bound ESS per chain
// from below by draws/τ with a generous τ per sampler.
func TestMomentsWithinMCSE(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	cases := []struct {
		sampler infer.Sampler
		model   *ppl.Compiled
		tau     float64 // upper bound of the integrated autocorrelation time
		mean    float64
		sd      float64 // 0: 1
	}{
		{infer.RWMH, stdNormal(t, 1), 20, 0, 0}, // the one-dimensional path
		{infer.RWMH, stdNormal(t, 2), 20, 0, 0},
		{infer.ChEES, stdNormal(t, 5), 3, 0, 0},
		{infer.MEADS, stdNormal(t, 5), 20, 0, 0},
		{infer.RWMH, correlated(t), 60, 0, 0},
		{infer.ChEES, correlated(t), 6, 0, 0},
		{infer.MEADS, correlated(t), 40, 0, 0},
		{infer.RWMH, mixture1D(t), 20, 0.75, math.Sqrt(2.5125)},
	}
	// Every case on accel/vec (Backend nil) and through the accel
	// contract on accel/cpu, the path a GPU takes.
	for _, bk := range []accel.Backend{nil, cpu.New(0)} {
		for _, c := range cases {
			cfg := lockstep.Config{Sampler: c.sampler, Chains: 512, Warmup: 500, Draws: 500, Seed: 11, Backend: bk}
			res, err := lockstep.Run(context.Background(), c.model, cfg)
			if err != nil {
				t.Fatalf("%s %s (backend %v): %v", c.sampler, c.model.Name(), bk, err)
			}
			mo := res.Moments
			ess := float64(cfg.Chains*cfg.Draws) / c.tau
			sd := c.sd
			if sd == 0 {
				sd = 1
			}
			for j := 0; j < mo.Dim; j++ {
				// The variance's standard error is the normal's √(2/ESS)·σ²;
				// the mixture's fourth moment is close to a normal's.
				seMean := sd / math.Sqrt(ess)
				seVar := math.Sqrt(2/ess) * sd * sd
				if math.Abs(mo.Mean[j]-c.mean) > 4*seMean || math.Abs(mo.Var[j]-sd*sd) > 4*seVar {
					t.Errorf("%s %s coordinate %d: mean %.4f (%.4f ± %.4f), variance %.4f (%.4f ± %.4f)",
						c.sampler, c.model.Name(), j, mo.Mean[j], c.mean, 4*seMean, mo.Var[j], sd*sd, 4*seVar)
				}
			}
			// The kept chains' lp__ is the log density at their draws.
			bt := vec.New(c.model.Program(), 1)
			for k, ch := range res.Posterior.Chains {
				for _, i := range []int{0, cfg.Draws / 2, cfg.Draws - 1} {
					if mo.Dim != 1 {
						break
					}
					bt.X()[0] = ch.Values[0][i]
					bt.Forward()
					if got, want := ch.Stats.LP[i], bt.LP[0]; math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
						t.Errorf("%s %s chain %d draw %d: lp__ %.15g, the density at the draw is %.15g", c.sampler, c.model.Name(), k, i, got, want)
					}
				}
			}
			if got := len(res.Posterior.Chains); got != 16 {
				t.Errorf("%s: posterior keeps %d chains, want 16", c.sampler, got)
			}
		}
	}
}

// The same seed gives the same draws whatever the number of workers and
// the block size; another seed gives others.
func TestReproducible(t *testing.T) {
	for _, c := range []struct {
		sampler infer.Sampler
		dense   bool
	}{{infer.RWMH, false}, {infer.RWMH, true}, {infer.ChEES, false}, {infer.MEADS, false}} {
		sampler := c.sampler
		run := func(seed uint64, workers, block int) []float64 {
			cfg := lockstep.Config{Sampler: sampler, Chains: 40, Warmup: 30, Draws: 20, Seed: seed, Workers: workers, Block: block, Keep: 3, Dense: c.dense}
			res, err := lockstep.Run(context.Background(), correlated(t), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var out []float64
			for _, ch := range res.Posterior.Chains {
				out = append(out, ch.Values[1]...)
			}
			return append(out, res.Moments.Mean...)
		}
		a, b, other := run(5, 1, 40), run(5, 3, 7), run(6, 2, 16)
		same := true
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("%s: value %d differs between 1 worker/1 block (%v) and 3 workers/blocks of 7 (%v)", sampler, i, a[i], b[i])
			}
			same = same && a[i] == other[i]
		}
		if same {
			t.Errorf("%s: seeds 5 and 6 give the same draws", sampler)
		}
	}
}

// Cancelling keeps the draws made so far, the same number in every kept
// chain, and says so.
func TestInterruptionKeepsDraws(t *testing.T) {
	for _, sampler := range []infer.Sampler{infer.RWMH, infer.ChEES, infer.MEADS} {
		ctx, cancel := context.WithCancel(context.Background())
		cfg := lockstep.Config{Sampler: sampler, Chains: 64, Warmup: 100, Draws: 100_000, Seed: 1}
		cfg.Progress = func(ps []infer.ChainProgress) {
			if ps[0].Iteration > 300 {
				cancel()
			}
		}
		cfg.ProgressInterval = time.Millisecond
		res, err := lockstep.Run(ctx, stdNormal(t, 2), cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		p := res.Posterior
		n := p.Draws()
		if !p.Interrupted || n == 0 || n >= cfg.Draws {
			t.Fatalf("%s: interrupted %v with %d draws of %d", sampler, p.Interrupted, n, cfg.Draws)
		}
		for k, ch := range p.Chains {
			for j, col := range ch.Values {
				if len(col) != n || len(ch.Stats.LP) != n {
					t.Fatalf("%s chain %d column %d: %d draws, want %d", sampler, k, j, len(col), n)
				}
			}
			if ch.Values[0][n-1] == 0 && ch.Values[0][0] == 0 {
				t.Errorf("%s chain %d: the kept draws are zeros", sampler, k)
			}
		}
		if res.Moments.Draws != n {
			t.Errorf("%s: moments over %d draws, posterior has %d", sampler, res.Moments.Draws, n)
		}
	}
}

// MEADS with Thin t runs Draws·t iterations after warm-up and keeps Draws
// of them, in the posterior and in the moments.
func TestMEADSThin(t *testing.T) {
	for _, thin := range []int{1, 3} {
		cfg := lockstep.Config{Sampler: infer.MEADS, Chains: 16, Warmup: 40, Draws: 25, Thin: thin, Seed: 2, Keep: 2}
		res, err := lockstep.Run(context.Background(), stdNormal(t, 2), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Posterior.Draws(); got != cfg.Draws {
			t.Errorf("thin %d: %d draws kept, want %d", thin, got, cfg.Draws)
		}
		if res.Moments.Draws != cfg.Draws {
			t.Errorf("thin %d: moments over %d draws, want %d", thin, res.Moments.Draws, cfg.Draws)
		}
		if want := cfg.Warmup + cfg.Draws*thin; res.GradEvals != want {
			t.Errorf("thin %d: %d gradients per chain, want warm-up %d + draws %d × thin", thin, res.GradEvals, cfg.Warmup, cfg.Draws)
		}
	}
	_, err := lockstep.Run(context.Background(), stdNormal(t, 2), lockstep.Config{Sampler: infer.MEADS, Chains: 16, Thin: -1})
	if err == nil {
		t.Error("thin -1 accepted")
	}
}

// failing is a backend whose evaluations fail, as a GPU that lost its
// device would.
type failing struct{ accel.Backend }

func (f failing) Compile(p *ir.Program) (accel.Compiled, error) {
	c, err := f.Backend.Compile(p)
	return failingProgram{c}, err
}

type failingProgram struct{ accel.Compiled }

func (failingProgram) LogDensityGrad(xs, lps, grads []float64) error {
	return errors.New("device lost")
}
func (failingProgram) Leapfrog(*accel.Trajectories) error { return errors.New("device lost") }

// A backend's error ends the run with that error, for every sampler
// (not a panic, nor "the log density panicked").
func TestBackendErrorEndsTheRun(t *testing.T) {
	for _, sampler := range []infer.Sampler{infer.RWMH, infer.ChEES, infer.MEADS} {
		_, err := lockstep.Run(context.Background(), correlated(t), lockstep.Config{Sampler: sampler, Chains: 16, Warmup: 10, Draws: 10,
			Backend: failing{cpu.New(1)}})
		if err == nil || err.Error() != "device lost" {
			t.Errorf("%s: error %v, want the backend's \"device lost\"", sampler, err)
		}
	}
}

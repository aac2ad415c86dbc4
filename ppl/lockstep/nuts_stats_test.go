package lockstep_test

import (
	"context"
	"math"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// NUTS in lockstep, each chain adapting its own step size and diagonal
// metric on Stan's schedule, samples the non-centred eight schools as
// posteriordb's reference says: every scalar's mean within 4 Monte Carlo
// standard errors (ours and the reference's) and its sd within 10%; no
// divergences, and its adaptation looks like Stan's (tree depth 2–3).
func TestNUTSLockstepEightSchools(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	const name = "eight_schools-eight_schools_noncentered"
	ref, err := posteriordb.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := lockstep.Config{Sampler: infer.NUTS, Chains: 8, Warmup: 1000, Draws: 1000, Seed: 3}
	res, err := lockstep.Run(context.Background(), eightSchools(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	post := res.Posterior
	if len(post.Chains) != 8 || post.Draws() != 1000 || post.Sampler != "NUTS" {
		t.Fatalf("%d chains × %d draws of %s, want 8 × 1000 of NUTS", len(post.Chains), post.Draws(), post.Sampler)
	}
	checked, div, leap := 0, 0, 0
	for _, ch := range post.Chains {
		for i := range ch.Stats.Divergent {
			if ch.Stats.Divergent[i] {
				div++
			}
			leap += ch.Stats.NLeapfrog[i]
		}
	}
	for _, s := range ref.Reference {
		col := post.Column(s.Name)
		if col < 0 {
			continue
		}
		chains := make([][]float64, len(post.Chains))
		mean, sd := 0.0, 0.0
		for k, ch := range post.Chains {
			chains[k] = ch.Values[col]
		}
		n := 0.0
		for _, c := range chains {
			for _, v := range c {
				mean += v
				n++
			}
		}
		mean /= n
		for _, c := range chains {
			for _, v := range c {
				sd += (v - mean) * (v - mean)
			}
		}
		sd = math.Sqrt(sd / (n - 1))
		se := math.Hypot(diag.MCSEMean(chains), s.MCSEMean)
		if math.Abs(mean-s.Mean) > 4*se || math.Abs(sd-s.SD) > 0.1*s.SD {
			t.Errorf("%s: mean %.3f, sd %.3f; reference %.3f ± %.3f (4 MCSE), sd %.3f", s.Name, mean, sd, s.Mean, 4*se, s.SD)
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d scalars compared with the reference", checked)
	}
	perDraw := float64(leap) / float64(8*1000)
	if div > 8 || perDraw < 2 || perDraw > 12 {
		t.Errorf("%d divergences, %.1f leapfrog steps per draw; want at most 8 and 2–12 (Stan: none, about 5)", div, perDraw)
	}
	t.Logf("%d scalars within the reference; %d divergences; %.1f leapfrog steps per draw; %d gradients per chain", checked, div, perDraw, res.GradEvals)
}

// A cancelled NUTS run returns the draws made so far, every statistic
// cut to them (tree depths included).
func TestNUTSLockstepInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := lockstep.Run(ctx, eightSchools(t), lockstep.Config{Sampler: infer.NUTS, Chains: 2, Warmup: 20, Draws: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Posterior
	if !p.Interrupted || p.Draws() != 0 {
		t.Fatalf("interrupted %v with %d draws; want an interrupted run of 0", p.Interrupted, p.Draws())
	}
	for k, ch := range p.Chains {
		if s := ch.Stats; len(s.TreeDepth) != 0 || len(s.NLeapfrog) != 0 || len(s.LP) != 0 {
			t.Errorf("chain %d: %d tree depths, %d step counts, %d lp__ for 0 draws", k, len(s.TreeDepth), len(s.NLeapfrog), len(s.LP))
		}
	}
}

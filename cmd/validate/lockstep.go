package main

import (
	"context"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// lockstepChains is the number of chains of -sampler chees or meads when
// -chains is left at its default of 4 (package lockstep's default).
const lockstepChains = 1024

// meadsThin is the thinning of MEADS in validate: it spends one gradient
// per iteration, so 1000 draws of 1000 iterations are too few on
// correlated posteriors (R-hat 1.03 on kidscore_momhs, 1.16 on mesquite
// over the 16 judged chains); with 10 iterations per draw it spends about
// as many gradients as ChEES (176k against 178k on kidscore_momhs).
const meadsThin = 10

// rwmhFactor multiplies the warm-up and draws of lockstep RWMH when the
// warm-up is left at validate's default of 1000 (draws may carry a case's
// factor): random-walk Metropolis moves a distance of order its step per
// iteration and fails R-hat everywhere with 1000.
const rwmhFactor = 10

// sample runs cfg's sampler on m: NUTS, HMC and RWMH with few chains
// through infer.Run; ChEES, MEADS, and RWMH with 64 chains or more through
// package lockstep, whose posterior keeps 16 chains (the ones judged).
func sample(ctx context.Context, m lockstep.Model, cfg infer.Config) (*posterior.Posterior, error) {
	name := map[string]string{"CHEES": "ChEES", "MEADS": "MEADS"}[cfg.Sampler]
	if name == "" && cfg.Sampler == "RWMH" && cfg.Chains >= 64 {
		name = "RWMH"
	}
	if name == "" {
		return infer.Run(ctx, m, cfg)
	}
	chains := cfg.Chains
	if chains == 4 && name != "RWMH" {
		chains = lockstepChains
	}
	warmup, draws, thin := cfg.Warmup, cfg.Draws, 1
	switch {
	case name == "MEADS":
		thin = meadsThin
	case name == "RWMH" && warmup == 1000:
		warmup, draws = rwmhFactor*warmup, rwmhFactor*draws
	}
	res, err := lockstep.Run(ctx, m, lockstep.Config{
		Sampler: name, Chains: chains, Warmup: warmup, Draws: draws, NoWarmup: cfg.NoWarmup, Thin: thin,
		Seed: cfg.Seed, TargetAccept: cfg.TargetAccept, InitRadius: cfg.InitRadius,
	})
	if err != nil {
		return nil, err
	}
	return res.Posterior, nil
}

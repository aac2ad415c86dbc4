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
	res, err := lockstep.Run(ctx, m, lockstep.Config{
		Sampler: name, Chains: chains, Warmup: cfg.Warmup, Draws: cfg.Draws, NoWarmup: cfg.NoWarmup,
		Seed: cfg.Seed, TargetAccept: cfg.TargetAccept, InitRadius: cfg.InitRadius,
	})
	if err != nil {
		return nil, err
	}
	return res.Posterior, nil
}

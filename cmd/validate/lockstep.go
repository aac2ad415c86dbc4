package main

import (
	"context"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// lockstepChains is the number of chains of -sampler chees when -chains
// is left at its default of 4 (package lockstep's default).
const lockstepChains = 1024

// MEADS in validate: meadsChains chains (64 per fold) when -chains is left
// at 4, every meadsThin-th of 41,000 iterations kept. Validate judges R-hat
// over the 16 kept chains, and split R-hat of a chain whose halves hold e
// effective draws sits near 1 + 1/(2e) even when every chain has
// converged, so passing 1.01 with margin takes about 100 effective draws
// per half chain. MEADS takes one gradient per iteration at about NUTS's
// ESS per gradient (0.008 on mesquite, 0.01 on arK), so it needs about as
// many gradients per chain as NUTS spends (51k per chain on mesquite):
// with 10 iterations per draw R-hat sat at 1.010-1.015 on mesquite and
// arK (ESS 1200-1500 over the 16 chains), with 40 at 1.002 (ESS 5000-6500).
// 256 chains instead of 1024 keep the run's cost that of 1024 chains
// thinned by 10; 64 chains per fold estimate the preconditioner and the
// largest eigenvalues of these posteriors (at most a dozen dimensions)
// well, and the ESS per gradient is the same as with 1024 chains.
const (
	meadsChains = 256
	meadsThin   = 40
)

// rwmhFactor multiplies the warm-up and draws of RWMH when the warm-up is
// left at validate's default of 1000 (draws may carry a case's factor):
// random-walk Metropolis moves a distance of order its step per iteration
// and fails R-hat almost everywhere with 1000.
const rwmhFactor = 10

// sample runs cfg's sampler on m: NUTS and HMC through infer.Run; RWMH,
// ChEES and MEADS through package lockstep, whose posterior keeps at most
// 16 chains (the ones judged).
func sample(ctx context.Context, m lockstep.Model, cfg infer.Config, meadsThinning int) (*posterior.Posterior, error) {
	if !cfg.Lockstep() {
		return infer.Run(ctx, m, cfg)
	}
	name := cfg.Sampler
	switch {
	case cfg.Chains == 4 && name == infer.ChEES:
		cfg.Chains = lockstepChains
	case cfg.Chains == 4 && name == infer.MEADS:
		cfg.Chains = meadsChains
	}
	switch {
	case name == infer.MEADS:
		cfg.Thin = meadsThin
		if meadsThinning > 0 {
			cfg.Thin = meadsThinning
		}
	case name == infer.RWMH && cfg.Warmup == 1000:
		cfg.Warmup, cfg.Draws = rwmhFactor*cfg.Warmup, rwmhFactor*cfg.Draws
	}
	res, err := lockstep.Run(ctx, m, cfg)
	if err != nil {
		return nil, err
	}
	return res.Posterior, nil
}

// Package infer runs Markov chains on a compiled model: Run starts the
// chains of NUTS or static HMC in parallel goroutines, warms them up
// (package adapt), samples them (package mcmc) and gathers the draws into
// a posterior.Posterior. Config and Sampler are the settings of every
// sampler; RWMH, ChEES and MEADS run their chains in lockstep (package
// ppl/lockstep), with the same Config.
//
//	post, err := infer.Run(ctx, model, infer.Config{Seed: 1})
//
// A model is anything implementing Model (package ppl's compiled models do).
// The same seed gives the same draws whatever the number of cores: each
// chain draws from its own stream derived from (seed, chain). Cancelling
// ctx stops every chain cleanly and returns the draws made so far with
// Posterior.Interrupted set.
package infer

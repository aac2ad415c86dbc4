// Package mcmc holds the one-chain Markov chain Monte Carlo samplers: NUTS
// (the algorithm Stan ships) and static HMC, each an Init and a Step over
// an explicit State. Random-walk Metropolis runs its chains in lockstep
// for any chain count (package ppl/lockstep).
//
// A sampler is built for one chain over a LogDensity (the log density and
// its gradient at an unconstrained position), a Metric and a random stream:
//
//	s := mcmc.NewNUTS(logp, mcmc.NewDiagMetric(dim), rng)
//	st := mcmc.NewState(dim)
//	if err := s.Init(st, x0); err != nil { ... }
//	for i := 0; i < n; i++ {
//		info := s.Step(st) // st.Position is the new draw
//	}
//
// Steps never allocate: every buffer, the NUTS tree's included, is made by
// the constructor. Step-size and metric adaptation live in package adapt and
// act through SetStepSize, Metric and TuneStepSize.
package mcmc

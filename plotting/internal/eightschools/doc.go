// Package eightschools makes posteriors of the eight-schools model (Rubin
// 1981; Gelman et al., "Bayesian Data Analysis", section 5.5) for the
// plotting package's documentation images and benchmarks.
//
// Synthetic draws them without a sampler: SYNTHETIC draws from the exact
// posterior of the model (flat prior on mu, half-Cauchy(5) on tau),
// correlated along each chain to look like MCMC output, with the
// pathologies of the centred parameterisation imitated (slow mixing of
// tau, the funnel's neck under-explored, divergences near it). They show
// what the plots look like; they are not a sampler's output.
//
//	fit := eightschools.Synthetic(true, 4, 1000, 1) // centred, 4 chains × 1000 draws
package eightschools

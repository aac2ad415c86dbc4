// Package optim finds the posterior mode of a compiled model by L-BFGS
// (gonum's optimize) on the unconstrained scale.
//
//	res, err := optim.MAP(model, optim.Options{Seed: 1})
//	res.Values["mu"] // constrained values at the mode
//
// The objective is the log density the samplers see, Jacobians of the
// constraining transforms included: its maximum is the mode on the
// unconstrained scale (Stan's optimize with jacobian=true, the centre of a
// Laplace approximation), which for constrained parameters differs from
// the mode of the constrained density.
package optim

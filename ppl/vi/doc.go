// Package vi fits Gaussian approximations to a compiled model's posterior
// by automatic differentiation variational inference (ADVI, Kucukelbir et
// al. 2017, as Stan runs it): mean-field or full-rank normal on the
// unconstrained scale, stochastic gradient ascent on the ELBO with Stan's
// adaptive step-size sequence, and Stan's convergence test on the relative
// change of the ELBO — the mean or median over a window of 10 evaluations
// (one every 100 iterations) below 0.01 — tested only once the window is
// full, not from the third evaluation as Stan does, which stops most fits at
// iteration 300 (see ADVI).
//
//	res, err := vi.ADVI(ctx, model, vi.Options{Method: vi.FullRank, Seed: 1})
//	res.ELBO            // history, one value per Options.EvalEvery iterations
//	res.ELBOTrace       // one noisy estimate per iteration
//	res.Posterior       // draws from the approximation, constrained
package vi

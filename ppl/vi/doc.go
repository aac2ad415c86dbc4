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
//
// Options.Batch makes the fit stochastic-gradient ADVI over minibatches
// (Hoffman et al. 2013's stochastic variational inference, with ADVI's
// gradients): every estimate asks Batch for an unbiased estimate of the
// log density from a block of rows, so the whole data set is never
// evaluated at once (ppl's Minibatch option draws the blocks of a sharded
// model, read from their file where the data came from one).
package vi

// Package diag computes MCMC convergence diagnostics the way Stan, ArviZ and
// R's posterior package do: rank-normalised split R-hat and bulk and tail
// effective sample sizes (Vehtari, Gelman, Simpson, Carpenter and Bürkner
// 2021), Monte Carlo standard errors, quantiles and highest-density
// intervals, and E-BFMI; and for comparing models, PSIS-LOO and WAIC from
// the pointwise log-likelihood.
//
// Every function takes one scalar's draws as chains[chain][draw]:
//
//	rhat := diag.Rhat(chains)     // rank-normalised split R-hat
//	bulk := diag.ESSBulk(chains)
//	tail := diag.ESSTail(chains)
//	lo, hi := diag.HDI(diag.Flatten(chains), 0.94)
//	loo := diag.LOO(loglik) // loglik[draw][observation]
package diag
